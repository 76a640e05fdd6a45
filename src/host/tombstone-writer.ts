/**
 * The tombstone writer: the synchronous block of a removal. It plans on the view of the session it
 * appends to (`view-plans.ts`: the `expect` checks, the planner, the confirmed-count check),
 * appends the shadow price when a token meter is loaded, then the tombstone (`tombstone-append.ts`),
 * and rebuilds the session title when it cites a removed message. An action whose row says
 * `returnsContent` (`recall`) answers with the removed message's content. It neither finds the session nor
 * flushes: `removal-service.ts` runs it through the write runner (`session-write.ts`: the queue,
 * the session's one writer from `stored-session.ts`, the flush with retries, `persisted`).
 *
 * @module dsh-message-recall/host/tombstone-writer
 */
import type { Session } from '@deepseek-ai/dsh-session'
import { ACTIONS } from '../shared/actions'
import type { LogEvent } from '../shared/events'
import type { RemovalValue } from '../shared/protocol'
import { contentOf, plainText } from '../shared/surface-node'
import { MessageRecallError, type WriteRefusal } from './refusals'
import { errorText } from '../shared/error-text'
import type { SessionView } from './session-view'
import type { EventLookup } from './surface-plan'
import { appendTombstone } from './tombstone-append'
import { planRemovalOnView, type RemovalIntent } from './view-plans'
import { priceReplace, retitleAfterRemoval, type WriteEffects } from './write-effects'

/**
 * Plan, check and append synchronously: the part of a removal that must not interleave with
 * other writers. No flush. With `effects`, the shadow price is appended right before the
 * tombstone when a token meter is loaded, and the session title is rebuilt after it when it
 * cites a removed message.
 * @param session - a live or entered session.
 * @param view - the session's view (`viewOfSession`), planned on before anything is appended.
 * @param intent - action, target and optional expectation.
 * @param tombstoneText - see `appendTombstone`.
 * @param effects - the token meter and title limits, or `undefined` for a bare tombstone.
 * @param relookup - a lookup over the log after the appends (default: `view.lookup`).
 * @returns the removal value (without `persisted`, which the write runner adds after the flush)
 *   and the logged tombstone, or a refusal; nothing is appended on a refusal.
 * @throws {@link MessageRecallError} `INTERNAL` when the Session refuses the price or the
 * tombstone; nothing was appended, except a price whose tombstone was then refused (a log-only
 * event that the next event disarms).
 */
export function writeTombstone(
  session: Session,
  view: SessionView,
  intent: Omit<RemovalIntent, 'sessionId'>,
  tombstoneText: string,
  effects?: WriteEffects,
  relookup: () => EventLookup = () => view.lookup,
): { ok: true; value: Omit<RemovalValue, 'persisted'>; event: LogEvent } | { ok: false; refusal: WriteRefusal } {
  const planned = planRemovalOnView(view, intent)
  if (!planned.ok) return planned
  const plan = { ...planned.value, action: intent.action }
  let event: LogEvent
  try {
    priceReplace(session, effects, view.lookup, plan, plan.shadowedSeqs)
    event = appendTombstone(session, plan, tombstoneText)
  } catch (error) {
    throw new MessageRecallError('INTERNAL', `message-recall: the session refused the tombstone for [${plan.start}, ${plan.end}]: ${errorText(error)}`, { cause: error })
  }
  retitleAfterRemoval(session, effects, relookup(), { seq: event.seq, shadowedSeqs: plan.shadowedSeqs })
  const recalled = ACTIONS[intent.action].returnsContent ? contentOf(view.lookup(plan.targetSeq) as LogEvent) : undefined
  const value: Omit<RemovalValue, 'persisted'> = {
    action: intent.action,
    tombstoneSeq: event.seq,
    range: { start: plan.start, end: plan.end },
    shadowedSeqs: plan.shadowedSeqs,
    nodeKinds: plan.nodeKinds,
    replaceGeneration: session.surface.replaceGeneration,
    ...(recalled === undefined ? {} : { content: recalled, text: plainText(recalled) }),
  }
  return { ok: true, value, event }
}
