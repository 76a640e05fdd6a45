/**
 * The tombstone writer: plans a removal against a stable copy of the surface, checks the client's
 * view, and appends one `user/message` tombstone, synchronously. It neither finds sessions nor
 * flushes: `removal-service.ts` runs it inside `agent.runMaintenance` and flushes afterwards.
 *
 * The tombstone: a fresh message id (`createUserMessage`, `dsh-llm`), `content` empty or one text
 * block with the configured `tombstoneText`, `source` from `tombstoneSource()`, `surfaceOp` from
 * `replaceOp()`, and `sourceEventSeqs` = every shadowed node (`dsh-session` `assertProvenance`
 * requires complete coverage). It carries no copy of the removed text.
 *
 * @module dsh-message-recall/host/tombstone-writer
 */
import { createUserMessage, type UserMessage } from '@deepseek-ai/dsh-llm'
import type { Session, SessionEvent } from '@deepseek-ai/dsh-session'
import type { LogEvent } from '../shared/events'
import type { RemovalValue, ViewExpectation } from '../shared/protocol'
import { replaceOp } from '../shared/replace-op'
import { contentOf, plainText } from '../shared/surface-node'
import { planRemoval, type EventLookup, type PlanTarget, type RemovalPlan } from './surface-plan'
import { tombstoneSource, type RemovalAction, type TombstoneAction } from '../shared/tombstone'
import type { BatchMark } from '../shared/batch-mark'
import { errorText, MessageRecallError, type WriteRefusal } from './refusals'
import { checkExpectation, type StableView } from './view-expectation'
import { priceReplace, retitleAfterRemoval, type WriteEffects } from './write-effects'

export { checkExpectation, type StableView } from './view-expectation'

/** What the writer plans: the action, the target and the client's view, if it sent one. */
export interface RemovalIntent {
  /** `exclude` is planned exactly like `delete`; only the tombstone's `source.action` differs. */
  readonly action: TombstoneAction
  readonly target: PlanTarget
  readonly expect?: ViewExpectation
}

/**
 * A stable copy of a session's surface.
 * @param session - a live or detached session.
 * @returns its nodes, `replaceGeneration` and last seq (`session.seq - 1`), copied.
 */
export function stableView(session: Session): StableView {
  return { nodes: [...session.surface.nodes], replaceGeneration: session.surface.replaceGeneration, lastSeq: session.seq - 1 }
}

/** The planner's action for a tombstone action: `exclude` plans exactly like `delete`. */
export function planningAction(action: TombstoneAction): RemovalAction {
  return action === 'exclude' ? 'delete' : action
}

/**
 * Plan a removal against a stable copy of the session's surface, after checking `expect`.
 * @param session - a live or detached session.
 * @param lookup - one event by seq over the session's current log.
 * @param request - action, target and optional expectation.
 * @returns the plan and the view it was made against, or a refusal.
 * @throws when the surface and the lookup disagree (corrupt surface).
 */
export function planForSession(
  session: Session,
  lookup: EventLookup,
  request: RemovalIntent,
): { ok: true; plan: RemovalPlan; view: StableView } | { ok: false; refusal: WriteRefusal } {
  const view = stableView(session)
  const stale = checkExpectation(view, request.expect, lookup)
  if (stale !== null) return { ok: false, refusal: stale }
  const planned = planRemoval({ nodes: view.nodes, lookup, action: planningAction(request.action), target: request.target })
  return planned.ok ? { ok: true, plan: planned.plan, view } : planned
}

/** What a tombstone needs from a plan: the action, the inclusive surface range and every shadowed node. */
export type TombstoneRange = Pick<RemovalPlan, 'start' | 'end' | 'shadowedSeqs'> & { readonly action: TombstoneAction }

/**
 * Append the tombstone for a plan. Validation happens in `session.append` before the log
 * changes, so a rejected append leaves the log and the surface as they were.
 * @param session - the session the plan was made against.
 * @param plan - a plan from {@link planRemoval} over this session's current surface (or any
 *   range with the same fields; `shadowedSeqs` in surface order).
 * @param tombstoneText - `''` (default) for empty content, else the text of one text block.
 * @param batch - the batch mark, for a tombstone of a batch of two or more writes (`batch-mark.ts`).
 * @returns the logged tombstone event.
 * @throws the Session's error when it refuses the event (e.g. `surface replace: start seq N not
 * found in surface` for a plan made against an older surface, or an invariant companion's error).
 */
export function appendTombstone(session: Session, plan: TombstoneRange, tombstoneText = '', batch?: BatchMark): SessionEvent<'user/message'> {
  const source = tombstoneSource(plan.action, plan.shadowedSeqs, batch)
  const message = createUserMessage({
    content: tombstoneText === '' ? [] : [{ type: 'text', text: tombstoneText }],
    source: source as unknown as UserMessage['source'],
  })
  return session.append('user/message', message, {
    surfaceOp: replaceOp(plan.start, plan.end),
    sourceEventSeqs: [...plan.shadowedSeqs],
  })
}

/**
 * Plan, check and append synchronously: the part of a removal that must not interleave with
 * other writers. No flush. With `effects`, the shadow price is appended right before the
 * tombstone when a token meter is loaded, and the session title is rebuilt after it when it
 * cites a removed message.
 * @param session - a live or detached session.
 * @param lookup - one event by seq over the session's current log.
 * @param request - action, target and optional expectation.
 * @param tombstoneText - see {@link appendTombstone}.
 * @param effects - the token meter and title limits, or `undefined` for a bare tombstone.
 * @param relookup - a lookup over the log after the appends (default: `lookup`).
 * @returns the removal value (with `persisted: false`) and the logged tombstone, or a refusal.
 * @throws {@link MessageRecallError} `INTERNAL` when the Session refuses the price or the
 * tombstone; nothing was appended, except a price whose tombstone was then refused (a log-only
 * event that the next event disarms).
 */
export function writeTombstone(
  session: Session,
  lookup: EventLookup,
  request: RemovalIntent,
  tombstoneText: string,
  effects?: WriteEffects,
  relookup: () => EventLookup = () => lookup,
): { ok: true; value: RemovalValue; event: LogEvent } | { ok: false; refusal: WriteRefusal } {
  const planned = planForSession(session, lookup, request)
  if (!planned.ok) return planned
  const plan = { ...planned.plan, action: request.action }
  let event: LogEvent
  try {
    priceReplace(session, effects, lookup, plan, plan.shadowedSeqs)
    event = appendTombstone(session, plan, tombstoneText)
  } catch (error) {
    throw new MessageRecallError('INTERNAL', `message-recall: the session refused the tombstone for [${plan.start}, ${plan.end}]: ${errorText(error)}`, { cause: error })
  }
  retitleAfterRemoval(session, effects, relookup(), { seq: event.seq, shadowedSeqs: plan.shadowedSeqs })
  const recalled = plan.action === 'recall' ? contentOf(lookup(plan.targetSeq) as LogEvent) : undefined
  const value: RemovalValue = {
    action: plan.action,
    tombstoneSeq: event.seq,
    range: { start: plan.start, end: plan.end },
    removedSeqs: plan.shadowedSeqs,
    kinds: plan.nodeKinds,
    replaceGeneration: session.surface.replaceGeneration,
    persisted: false,
    ...(recalled === undefined ? {} : { content: recalled, text: plainText(recalled) }),
  }
  return { ok: true, value, event }
}
