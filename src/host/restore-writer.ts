/**
 * The restore writer: undo one tombstone of this plugin in place. Plans against a stable copy of
 * the surface ({@link planRestore}), checks the client's view, appends the shadow price when a
 * token meter is loaded, then the copy of the removed message replacing exactly the tombstone,
 * puts the session title back, and answers after the durability flush. Runs through
 * {@link runSessionWrite} (queue, maintenance, flush retries) like every removal.
 *
 * @module dsh-message-recall/host/restore-writer
 */
import type { Session, SessionEvent } from '@deepseek-ai/dsh-session'
import type { LogEvent } from '../shared/events'
import type { RestoreValue, ViewExpectation } from '../shared/protocol'
import { replaceOp } from '../shared/replace-op'
import type { EventLookup } from './surface-plan'
import { errorText, MessageRecallError, type WriteRefusal } from './refusals'
import { planRestore, type RestorePlan } from './restore-plan'
import { runSessionWrite, type SessionWriteServices, type WriteOutcome } from './session-write'
import type { RemovalServices } from './removal-service'
import { stableView } from './tombstone-writer'
import { checkExpectation } from './view-expectation'
import { priceReplace, retitleAfterRestore, type WriteEffects } from './write-effects'

/** A validated restore request. */
export interface RestoreRequest {
  readonly sessionId: string
  readonly tombstoneSeq: number
  readonly expect?: ViewExpectation
}

/**
 * Append the restoring copy for a plan.
 * @param session - the session the plan was made against.
 * @param plan - from {@link planRestore} over this session's current surface.
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
 * @param session - a live or detached session.
 * @param lookup - one event by seq over the session's current log.
 * @param request - the tombstone seq and optional expectation.
 * @param effects - the token meter and title limits, or `undefined`.
 * @param relookup - a lookup over the log after the appends (default: `lookup`).
 * @returns the restore value (with `persisted: false`) and the logged copy, or `STALE_VIEW`,
 * `TARGET_NOT_FOUND` or `NOT_RESTORABLE`; nothing is appended on a refusal.
 * @throws {@link MessageRecallError} `INTERNAL` when the Session refuses the price or the copy.
 */
export function writeRestore(
  session: Session,
  lookup: EventLookup,
  request: Omit<RestoreRequest, 'sessionId'>,
  effects?: WriteEffects,
  relookup: () => EventLookup = () => lookup,
): { ok: true; value: RestoreValue; event: LogEvent } | { ok: false; refusal: WriteRefusal } {
  const view = stableView(session)
  const stale = checkExpectation(view, request.expect, lookup)
  if (stale !== null) return { ok: false, refusal: stale }
  const planned = planRestore({ nodes: view.nodes, lookup, tombstoneSeq: request.tombstoneSeq })
  if (!planned.ok) return planned
  const { plan } = planned
  let event: LogEvent
  try {
    priceReplace(session, effects, lookup, plan, [plan.tombstoneSeq])
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
      persisted: false,
    },
  }
}

/**
 * Restore a removed message in a session, live or stored (entered for the write, see `SessionAccess`).
 * @param services - sessions, agents, the event index, the write queue and effects.
 * @param request - the validated request.
 * @returns the restore value once durable, or `SESSION_NOT_LIVE` (neither live nor stored), `AGENT_BUSY`, `STALE_VIEW`,
 * `TARGET_NOT_FOUND` or `NOT_RESTORABLE`.
 * @throws {@link MessageRecallError} `PERSIST_FAILED` (`applied: true`) or `INTERNAL`.
 */
export function restoreMessage(services: Omit<RemovalServices, 'tombstoneText'>, request: RestoreRequest): Promise<WriteOutcome<RestoreValue>> {
  return runSessionWrite<RestoreValue>(
    services,
    request.sessionId,
    (session) => {
      const written = writeRestore(session, services.index.lookup(session), request, services.effects?.(), () => services.index.lookup(session))
      if (!written.ok) return written
      const { persisted: _persisted, ...value } = written.value
      return { ok: true, value, seq: written.event.seq }
    },
    {
      maintenance: true,
      precheck: (view) => {
        const stale = checkExpectation(view, request.expect, view.lookup)
        if (stale !== null) return stale
        const planned = planRestore({ nodes: view.nodes, lookup: view.lookup, tombstoneSeq: request.tombstoneSeq })
        return planned.ok ? null : planned.refusal
      },
    },
  )
}
