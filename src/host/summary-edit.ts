/**
 * The summary written by hand, and the Undo of a summary rewrite: the same compaction as a
 * summary rewrite (`summary-rewrite.ts` `appendRewrite`: `compaction/start` → `compaction/summary`
 * → a checkpoint replacing the one on the surface → `compaction/end`), without a model call.
 *
 * - **editSummary**: the checkpoint on the surface gets the person's text as its summary (for a
 *   surgical edit, or when no model is reachable). The removals recorded on it stay recorded.
 * - **undoRewrite**: a summary rewrite of this plugin on the surface is undone: the summary it
 *   replaced comes back (its `compaction/summary` text) with that checkpoint's record, so the
 *   messages the rewrite took out are folded again (the transcript shows them, the model reads
 *   them in the summary). The earlier summary's events stay in the log, so this is a new
 *   compaction, as rc.8 writes every change of the surface.
 *
 * Both go through the write runner (`session-write.ts`): this plugin's queue, the agent's
 * maintenance slot (which excludes turns and DSH's own compaction), one synchronous block and the
 * durability flush. Like a summary rewrite, they need the session's agent: a session that is only
 * stored, or live without an agent, is refused with `SESSION_NOT_LIVE` (`reason: 'needs-agent'`)
 * and nothing is appended (a stored one is not entered).
 *
 * @module dsh-message-recall/host/summary-edit
 */
import type { LogEvent } from '../shared/events'
import type { SummaryEditValue, ViewExpectation } from '../shared/protocol'
import { isCheckpointEvent, originalsOf, readRewriteCheckpoint, summaryBlocksOf } from '../shared/summary-rewrite'
import { needsAgent, type NotASummaryRefusal, type Outcome, type WriteRefusal } from './refusals'
import type { SessionView } from './session-view'
import { runSessionWrite, type SessionWriteServices } from './session-write'
import { appendRewrite, type SummaryTextBlock } from './summary-rewrite'
import type { SessionEventIndex } from './event-index'
import type { MessagePricer } from './shadow-price'
import { checkExpectation } from './view-expectation'
import { viewOfSession } from './session-view'

/** An edit or an Undo addressed to a session's summary. */
export type SummaryEditIntent =
  | { readonly action: 'editSummary'; readonly sessionId: string; readonly checkpointSeq: number; readonly summary: string; readonly expect?: ViewExpectation }
  | { readonly action: 'undoRewrite'; readonly sessionId: string; readonly checkpointSeq: number; readonly expect?: ViewExpectation }

/** What an edit writes: the checkpoint it replaces, the summary and the record the new one carries. */
export interface SummaryEditPlan {
  readonly checkpointSeq: number
  readonly summary: readonly SummaryTextBlock[]
  readonly removals: ReturnType<typeof originalsOf>['removals']
}

/** What the edit reaches: the write services, the event index and the token meter at call time. */
export interface SummaryEditServices extends SessionWriteServices {
  readonly index: SessionEventIndex
  readonly meter: () => MessagePricer | undefined
}

/**
 * The compaction checkpoint a summary request addresses, checked on a view.
 * @param view - the session's view.
 * @param checkpointSeq - the checkpoint's seq.
 * @param expect - the view the client saw, if it sent one.
 * @returns the checkpoint's event, or `STALE_VIEW`, or `NOT_A_SUMMARY` (`not-a-checkpoint`: no
 *   compaction checkpoint at that seq; `not-on-surface`: one no longer on the surface).
 */
export function checkpointOnView(view: SessionView, checkpointSeq: number, expect: ViewExpectation | undefined): Outcome<LogEvent> {
  const stale = checkExpectation(view, expect)
  if (stale !== null) return { ok: false, refusal: stale }
  const event = view.lookup(checkpointSeq)
  if (event === undefined || !isCheckpointEvent(event)) return { ok: false, refusal: { code: 'NOT_A_SUMMARY', seq: checkpointSeq, reason: 'not-a-checkpoint' } }
  if (!view.nodes.includes(checkpointSeq)) return { ok: false, refusal: { code: 'NOT_A_SUMMARY', seq: checkpointSeq, reason: 'not-on-surface' } }
  return { ok: true, value: event }
}

/**
 * Plan an edit or an Undo on a view.
 * @param view - the session's view.
 * @param intent - the request.
 * @returns the plan, or `STALE_VIEW`, or `NOT_A_SUMMARY` (no compaction checkpoint on the surface at
 *   that seq; for `undoRewrite`, not a summary rewrite of this plugin).
 */
export function planSummaryEdit(view: SessionView, intent: SummaryEditIntent): Outcome<SummaryEditPlan> {
  const found = checkpointOnView(view, intent.checkpointSeq, intent.expect)
  if (!found.ok) return found
  const event = found.value
  const refuse = (reason: NotASummaryRefusal['reason']): Outcome<SummaryEditPlan> => ({ ok: false, refusal: { code: 'NOT_A_SUMMARY', seq: intent.checkpointSeq, reason } })
  if (intent.action === 'editSummary') {
    return { ok: true, value: { checkpointSeq: intent.checkpointSeq, summary: [{ type: 'text', text: intent.summary }], removals: originalsOf(intent.checkpointSeq, view.lookup).removals } }
  }
  // A rewrite replaces exactly one checkpoint (`[startSeq, summarySeq, C]`); a summary a copy inherited over several nodes has no one summary to put back.
  if (readRewriteCheckpoint(event) === null || event.sourceEventSeqs?.length !== 3) return refuse('not-a-rewrite')
  const earlierSeq = event.sourceEventSeqs?.[2]
  const earlier = earlierSeq === undefined ? undefined : view.lookup(earlierSeq)
  const summary = earlier === undefined ? null : summaryBlocksOf(earlier, view.lookup) as readonly SummaryTextBlock[] | null
  if (earlierSeq === undefined || earlier === undefined || !isCheckpointEvent(earlier) || summary === null) return refuse('not-a-rewrite')
  return { ok: true, value: { checkpointSeq: intent.checkpointSeq, summary, removals: originalsOf(earlierSeq, view.lookup).removals } }
}

/**
 * Write an edit or an Undo of the summary (see the module).
 * @param services - write services, event index and meter.
 * @param intent - the request.
 * @returns the value once durable, or a refusal (`SESSION_NOT_LIVE`, with `reason: 'needs-agent'`
 *   when the session exists but no agent drives it; `AGENT_BUSY`, `STALE_VIEW`, `NOT_A_SUMMARY`);
 *   nothing is appended on a refusal.
 * @throws {@link MessageRecallError} `PERSIST_FAILED` when the flush failed, `INTERNAL` when the
 *   session refused the events.
 */
export function editSummary(services: SummaryEditServices, intent: SummaryEditIntent): Promise<Outcome<SummaryEditValue>> {
  return runSessionWrite<SummaryEditValue>(
    services,
    intent.sessionId,
    (session, origin) => {
      // A summary is changed only inside the agent's maintenance slot, as DSH's own compaction is.
      if (origin !== 'agent') return { ok: false, refusal: needsAgent(intent.sessionId) }
      const lookup = services.index.lookup(session)
      const planned = planSummaryEdit(viewOfSession(session, lookup, origin), intent)
      if (!planned.ok) return planned as { ok: false; refusal: WriteRefusal }
      const plan = planned.value
      const written = appendRewrite(session, { checkpointSeq: plan.checkpointSeq, removals: plan.removals }, { summary: plan.summary, provider: 'dsh-message-recall', model: intent.action === 'editSummary' ? 'edited-by-hand' : 'undo' }, services.meter(), (seq) => services.index.lookup(session)(seq))
      return {
        ok: true,
        value: { action: intent.action, checkpointSeq: written.checkpointSeq, replacedSeq: plan.checkpointSeq, compactionId: written.compactionId, replaceGeneration: session.surface.replaceGeneration },
        seq: written.checkpointSeq,
      }
    },
    {
      maintenance: true,
      // A stored session is never entered for it: nothing is appended, not even `session/end-seed`.
      precheck: () => needsAgent(intent.sessionId),
    },
  )
}
