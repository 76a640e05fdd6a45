/**
 * `rewriteSummary`: the compaction summary on the surface made again from the original messages of
 * its range minus every removed message, without changing any removal. It is the repair for a
 * summary written before a removal of messages it holds (`shared/summary-flag.ts`: the order that
 * leaked): the new checkpoint records those messages (with the action of the tombstone that named
 * them) beside the removals already recorded, so the flag clears and the model reads a summary
 * made without them.
 *
 * The same compaction as a summary rewrite (`summary-rewrite.ts` `appendRewrite`: `compaction/start`
 * → `compaction/summary` → a checkpoint replacing the one on the surface → `compaction/end`), with
 * the model call of DSH's `compaction` service (`dsh-compaction-basic`
 * `BasicCompactionEngine.summarize`) over an input shaped as `buildSummarizationInput` shapes it,
 * through the one path writes that need a summary share (`summary-rewrite.ts` `withSummarizer`:
 * this plugin's queue, the agent's maintenance slot). A failed, refused or cancelled model call, or
 * a surface that changed while it ran, appends nothing (`SUMMARY_FAILED`). The plan (`plan` with
 * `planAction: 'rewriteSummary'`) reads the session without writing, for the confirm's cost.
 *
 * @module dsh-message-recall/host/summary-refresh
 */
import type { Agent } from '@deepseek-ai/dsh-agent'
import type { LogEvent } from '../shared/events'
import { replacementEvents } from '../shared/fate'
import type { SummaryEditValue, SummaryRefreshPlanValue, ViewExpectation } from '../shared/protocol'
import { flaggedRemovals, summaryFlags } from '../shared/summary-flag'
import { originalsOf, type FoldedRemoval } from '../shared/summary-rewrite'
import { contentOf } from '../shared/surface-node'
import { estimateTokens } from '../shared/token-estimate'
import { flushWithRetry } from './durable-flush'
import { MessageRecallError, type Outcome } from './refusals'
import { viewOfSession, type SessionView } from './session-view'
import type { SessionAccess } from './stored-session'
import { checkpointOnView } from './summary-edit'
import { appendRewrite, summarizeKept, summaryFailed, withSummarizer, type CompactionSummarizer, type SummaryRewriteServices } from './summary-rewrite'

/** A `rewriteSummary` (or its `plan`) addressed to a session. */
export interface SummaryRefreshIntent {
  readonly action: 'rewriteSummary'
  readonly sessionId: string
  /** The compaction checkpoint on the surface. */
  readonly checkpointSeq: number
  readonly expect?: ViewExpectation
  /** True for the `plan`: nothing is written. */
  readonly preview?: true
}

/** What a `rewriteSummary` writes. */
export interface SummaryRefreshPlan {
  readonly checkpointSeq: number
  /** The removed messages the current summary still holds, in log order (empty: nothing leaked). */
  readonly removedSeqs: readonly number[]
  /** The originals the new summary is made from: the range's originals minus every removal. */
  readonly keptSeqs: readonly number[]
  /** The new checkpoint's cumulative record: the recorded removals, then the leaked ones. */
  readonly removals: readonly FoldedRemoval[]
}

/**
 * Plan a `rewriteSummary` on a view.
 * @param view - the session's view.
 * @param intent - the request.
 * @returns the plan, or `STALE_VIEW`, or `NOT_A_SUMMARY` (no compaction checkpoint at that seq, or
 *   one no longer on the surface).
 */
export function planSummaryRefresh(view: SessionView, intent: Omit<SummaryRefreshIntent, 'sessionId'>): Outcome<SummaryRefreshPlan> {
  const found = checkpointOnView(view, intent.checkpointSeq, intent.expect)
  if (!found.ok) return found
  const flag = summaryFlags(replacementEvents(view.nextSeq, view.lookup)).find((f) => f.checkpointSeq === intent.checkpointSeq)
  const { seqs: originals, removals: recorded } = originalsOf(intent.checkpointSeq, view.lookup)
  const added = flag === undefined ? [] : flaggedRemovals(flag)
  const gone = new Set([...recorded, ...added].flatMap((r) => r.seqs))
  return {
    ok: true,
    value: { checkpointSeq: intent.checkpointSeq, removedSeqs: flag?.removedSeqs ?? [], keptSeqs: originals.filter((seq) => !gone.has(seq)), removals: [...recorded, ...added] },
  }
}

/**
 * The `plan` of a `rewriteSummary`: what the model call would be made from; appends nothing.
 * @param services - the session access (live, or stored and read without entering it).
 * @param intent - the request.
 * @returns the plan value, or `SESSION_NOT_LIVE`, `STALE_VIEW` or `NOT_A_SUMMARY`.
 */
export async function previewSummaryRefresh(services: { readonly access: SessionAccess }, intent: SummaryRefreshIntent): Promise<Outcome<SummaryRefreshPlanValue>> {
  const read = await services.access.read(intent.sessionId)
  if (!read.ok) return read
  const view = read.value
  const planned = planSummaryRefresh(view, intent)
  if (!planned.ok) return planned
  const plan = planned.value
  const kept = plan.keptSeqs.map((seq) => contentOf(view.lookup(seq) as LogEvent))
  return {
    ok: true,
    value: {
      action: 'plan', planAction: 'rewriteSummary', checkpointSeq: plan.checkpointSeq, removedSeqs: plan.removedSeqs,
      inputMessages: plan.keptSeqs.length, estimatedInputTokens: estimateTokens(kept), replaceGeneration: view.replaceGeneration, lastSeq: view.lastSeq,
    },
  }
}

/**
 * Write a `rewriteSummary` (see the module).
 * @param services - write services, event index, compaction service and meter.
 * @param intent - the request.
 * @param signal - aborts the model call (the request was cancelled): nothing is appended.
 * @returns the value once durable, or a refusal: `SESSION_NOT_LIVE` (no agent drives the session),
 *   `AGENT_BUSY`, `STALE_VIEW`, `NOT_A_SUMMARY`, or `SUMMARY_FAILED` (no compaction engine, the
 *   model call failed or was cancelled, or the surface changed while it ran); nothing is appended
 *   on any refusal.
 * @throws {@link MessageRecallError} `PERSIST_FAILED` (`applied: true`) when the flush failed,
 *   `INTERNAL` when the session refused the events.
 */
export function refreshSummary(services: SummaryRewriteServices, intent: SummaryRefreshIntent, signal?: AbortSignal): Promise<Outcome<SummaryEditValue>> {
  return withSummarizer(services, intent.sessionId, signal, (agent, summarizer, both) => runRefresh(services, agent, summarizer, intent, both))
}

async function runRefresh(services: SummaryRewriteServices, agent: Agent, summarizer: CompactionSummarizer, intent: SummaryRefreshIntent, signal: AbortSignal): Promise<Outcome<SummaryEditValue>> {
  const session = agent.session
  const lookup = (seq: number) => services.index.lookup(session)(seq)
  const planned = planSummaryRefresh(viewOfSession(session, services.index.lookup(session), 'agent'), intent)
  if (!planned.ok) return planned
  const plan = planned.value
  const summarized = await summarizeKept(agent, summarizer, intent.sessionId, plan, lookup, signal)
  if (!summarized.ok) return summarized
  const again = planSummaryRefresh(viewOfSession(session, services.index.lookup(session), 'agent'), { action: intent.action, checkpointSeq: intent.checkpointSeq })
  if (!again.ok || again.value.keptSeqs.join() !== plan.keptSeqs.join()) {
    return summaryFailed(intent.sessionId, 'changed', 'the compacted history changed while the summary was written; nothing was written')
  }
  const written = appendRewrite(session, plan, summarized.value, services.meter(), lookup)
  const value: Omit<SummaryEditValue, 'persisted'> = {
    action: 'rewriteSummary', checkpointSeq: written.checkpointSeq, replacedSeq: plan.checkpointSeq, compactionId: written.compactionId,
    replaceGeneration: session.surface.replaceGeneration, removedSeqs: plan.removedSeqs,
  }
  const flushed = await flushWithRetry(() => services.sessions.flush(session), services.flushRetry)
  if (!flushed.ok) {
    throw new MessageRecallError('PERSIST_FAILED', `message-recall: the summary rewrite (checkpoint seq ${written.checkpointSeq}) was appended to session "${intent.sessionId}" and is in effect, but it is not yet durable: the durability flush failed ${flushed.attempts} times: ${flushed.reason}`, {
      cause: flushed.error, details: { applied: true, value: { ...value, persisted: false } },
    })
  }
  return { ok: true, value: { ...value, persisted: flushed.persisted } }
}
