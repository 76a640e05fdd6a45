/**
 * The restore writer: undo one tombstone of this plugin in place. Plans on the view of the session
 * it appends to (`view-plans.ts`: the `expect` check, then `planRestore`), appends the shadow price
 * when a token meter is loaded, then the copy of the removed message replacing exactly the tombstone,
 * puts the session title back, and answers after the durability flush. Runs through
 * {@link runSessionWrite} (queue, maintenance, flush retries) like every removal.
 *
 * @module dsh-message-recall/host/restore-writer
 */
import type { Session, SessionEvent } from '@deepseek-ai/dsh-session'
import type { LogEvent } from '../shared/events'
import type { RestoreValue } from '../shared/protocol'
import { replaceOp } from '../shared/replace-op'
import type { EventLookup } from './surface-plan'
import { MessageRecallError, type Outcome, type WriteRefusal } from './refusals'
import { errorText } from '../shared/error-text'
import type { RestorePlan } from './restore-plan'
import { runSessionWrite } from './session-write'
import type { RemovalServices } from './removal-service'
import { viewOfSession, type SessionView } from './session-view'
import { planRestoreOnView, type RestoreIntent } from './view-plans'
import { priceReplace, retitleAfterRestore, type WriteEffects } from './write-effects'

/**
 * Append the restoring copy for a plan.
 * @param session - the session the plan was made against.
 * @param plan - from `planRestore` over this session's current surface.
 * @returns the logged copy.
 * @throws the Session's or an invariant's error when it refuses the event.
 */
export function appendRestore(session: Session, plan: Pick<RestorePlan, 'start' | 'end' | 'data' | 'sourceEventSeqs'>): SessionEvent<'user/message'> {
  return session.append('user/message', plan.data as SessionEvent<'user/message'>['data'], {
    surfaceOp: replaceOp(plan.start, plan.end),
    sourceEventSeqs: [...plan.sourceEventSeqs],
  })
}

/**
 * Plan, check and append synchronously. No flush.
 * @param session - a live or entered session.
 * @param view - the session's view (`viewOfSession`), planned on before anything is appended.
 * @param intent - the tombstone seq and optional expectation.
 * @param effects - the token meter and title limits, or `undefined`.
 * @param relookup - a lookup over the log after the appends (default: `view.lookup`).
 * @returns the restore value (without `persisted`, which the write runner adds) and the logged
 * copy, or `STALE_VIEW`, `TARGET_NOT_FOUND` or `NOT_RESTORABLE`; nothing is appended on a refusal.
 * @throws {@link MessageRecallError} `INTERNAL` when the Session refuses the price or the copy.
 */
export function writeRestore(
  session: Session,
  view: SessionView,
  intent: Omit<RestoreIntent, 'sessionId'>,
  effects?: WriteEffects,
  relookup: () => EventLookup = () => view.lookup,
): { ok: true; value: Omit<RestoreValue, 'persisted'>; event: LogEvent } | { ok: false; refusal: WriteRefusal } {
  const planned = planRestoreOnView(view, intent)
  if (!planned.ok) return planned
  const plan = planned.value
  let event: LogEvent
  try {
    priceReplace(session, effects, view.lookup, plan, [plan.tombstoneSeq])
    event = appendRestore(session, plan)
  } catch (error) {
    throw new MessageRecallError('INTERNAL', `message-recall: the session refused the restore of tombstone seq ${plan.tombstoneSeq}: ${errorText(error)}`, { cause: error })
  }
  retitleAfterRestore(session, effects, relookup(), { tombstoneSeq: plan.tombstoneSeq, originalSeq: plan.originalSeq, restoredSeq: event.seq })
  return {
    ok: true,
    event,
    value: {
      action: 'restore',
      tombstoneSeq: plan.tombstoneSeq,
      restoredSeq: event.seq,
      messageId: plan.messageId,
      originalSeq: plan.originalSeq,
      replaceGeneration: session.surface.replaceGeneration,
    },
  }
}

/**
 * Restore a removed message in a session, live or stored (entered for the write, see `SessionAccess`).
 * @param services - sessions, agents, the event index, the write queue and effects.
 * @param intent - the validated request.
 * @returns the restore value once durable, or `SESSION_NOT_LIVE` (neither live nor stored), `AGENT_BUSY`, `STALE_VIEW`,
 * `TARGET_NOT_FOUND` or `NOT_RESTORABLE`.
 * @throws {@link MessageRecallError} `PERSIST_FAILED` (`applied: true`) or `INTERNAL`.
 */
export function restoreMessage(services: Omit<RemovalServices, 'tombstoneText'>, intent: RestoreIntent): Promise<Outcome<RestoreValue>> {
  return runSessionWrite<RestoreValue>(
    services,
    intent.sessionId,
    (session, origin) => {
      const lookup = (): EventLookup => services.index.lookup(session)
      const written = writeRestore(session, viewOfSession(session, lookup(), origin), intent, services.effects?.(), lookup)
      return written.ok ? { ok: true, value: written.value, seq: written.event.seq } : written
    },
    {
      maintenance: true,
      precheck: (view) => {
        const planned = planRestoreOnView(view, intent)
        return planned.ok ? null : planned.refusal
      },
    },
  )
}
