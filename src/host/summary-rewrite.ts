/**
 * The summary rewrite: removing messages a compaction already folded. The compaction summary the
 * model reads is written again without them, as one new compaction in DSH's own events, replacing
 * the checkpoint on the surface:
 *
 * ```
 * compaction/start   { compactionId, turn: null }                 a standalone bracket between turns
 * compaction/summary { compactionId, summary, shadowedRange: { start: C, end: C }, shadowedSeqs: [C],
 *                      shadowedTokenCount, provider, model, … }   also the token meter's shadow price
 * user/message       checkpoint: the framed summary, source { kind: 'plugin', plugin: 'compact',
 *                      compactionId, messageRecall: { removals } }, surfaceOp replace C…C,
 *                      sourceEventSeqs [startSeq, summarySeq, C]
 * compaction/end     { compactionId, turn: null }
 * ```
 *
 * (`dsh-compaction-basic` `commitCompactionBody`; `@deepseek-ai/dsh-compaction/invariant` accepts a
 * standalone bracket only between turns and checks the ids and the order; `C` is the old
 * checkpoint, whose own range stays in the log.) The summary comes from DSH's `compaction` service
 * (`dsh-compaction-basic` `BasicCompactionEngine.summarize(input, agent, signal)`, the conversation's
 * own routed provider and model), over an input shaped as `buildSummarizationInput` shapes it: the
 * last request header's system prompt and tools, then the **original** messages of the compacted
 * range minus every removed one (`folded-plan.ts`), each `deriveEventMessage` of its event. The
 * framing is DSH's (`frameSummary`: the checkpoint preamble, then the summary inside
 * `<compacted-summary>` tags).
 *
 * It runs inside the agent's maintenance slot (`agent.runMaintenance`, which excludes turns and
 * manual compaction: a turn asked for meanwhile waits, and the session answers `AGENT_BUSY` to
 * other maintenance), behind this plugin's earlier writes to the session; the model call is
 * awaited there, and the four events are appended in one synchronous block only after it
 * succeeded and the surface is still what was planned. A failed, refused or cancelled model call
 * appends nothing and answers `SUMMARY_FAILED` with the reason. Then the durability flush, as for
 * every write (`session-write.ts`' policy).
 *
 * @module dsh-message-recall/host/summary-rewrite
 */
import { randomUUID } from 'node:crypto'
import type { Agent } from '@deepseek-ai/dsh-agent'
import type { Message } from '@deepseek-ai/dsh-llm'
import { createUserMessage } from '@deepseek-ai/dsh-llm'
import { deriveEventMessage, type Session, type SessionEvent, type SessionId } from '@deepseek-ai/dsh-session'
import type { LogEvent } from '../shared/events'
import { readFates } from '../shared/fate'
import type { RemovalValue, ViewExpectation } from '../shared/protocol'
import { contentOf } from '../shared/surface-node'
import { plainText } from '../shared/message-text'
import { rewriteCheckpointSource } from '../shared/summary-rewrite'
import { errorText } from '../shared/error-text'
import type { TombstoneAction } from '../shared/actions'
import { flushWithRetry } from './durable-flush'
import { planFoldedRemoval, type FoldedPlan } from './folded-plan'
import { MessageRecallError, type Outcome, type WriteRefusal } from './refusals'
import { meterPricer, type MessagePricer } from './shadow-price'
import { viewOfSession, type SessionView } from './session-view'
import type { SessionEventIndex } from './event-index'
import type { SessionWriteServices } from './session-write'
import { checkConfirmed, checkExpectation } from './view-expectation'
import { queueBusy } from './write-queue'

/** One text block of a summary. */
export interface SummaryTextBlock {
  readonly type: 'text'
  readonly text: string
}

/** The input of a summarization (`dsh-compaction-basic` `buildSummarizationInput`'s shape). */
export interface SummarizationInput {
  readonly system?: unknown
  readonly tools?: readonly unknown[]
  readonly messages: readonly Message[]
}

/** What `summarize` answers (`dsh-compaction-basic` `summarizeWithLlm`'s result). */
export interface SummarizeResult {
  readonly summary: readonly SummaryTextBlock[]
  readonly rawOutput?: unknown
  readonly llmStreamCall?: boolean
  readonly provider?: string
  readonly model?: string
  readonly maxTokens?: number
  readonly usage?: unknown
}

/** The part of `ctx.compaction` (`dsh-compaction-basic` `BasicCompactionEngine`) the rewrite calls. */
export interface CompactionSummarizer {
  summarize(input: SummarizationInput, agent: Agent, signal?: AbortSignal): Promise<SummarizeResult>
}

/**
 * The part of `ctx.agentPresets` (`dsh-agent-presets` `serviceFor`) that reaches a service an agent's
 * preset mounted behind its isolate realm (the web host mounts the compaction engine per preset).
 */
export interface PresetServices {
  serviceFor(agent: Agent, name: 'compaction'): unknown
}

/** What the rewrite reaches: the write services, the event index and, at call time, the compaction service and the token meter. */
export interface SummaryRewriteServices extends SessionWriteServices {
  readonly index: SessionEventIndex
  /** The compaction service that serves `agent` (the host's `ctx.compaction`, or its preset's), or `undefined` when none is loaded. */
  readonly summarizer: (agent: Agent) => CompactionSummarizer | undefined
  /** `ctx.tokenMeter`, or `undefined`. */
  readonly meter: () => MessagePricer | undefined
}

/** A removal of folded messages addressed to a session. */
export interface FoldedRemovalIntent {
  readonly sessionId: string
  readonly action: TombstoneAction
  readonly seq: number
  readonly expect?: ViewExpectation
}

/** DSH's checkpoint framing (`dsh-compaction-basic` `CHECKPOINT_PREAMBLE`, `SUMMARY_OPEN_TAG`, `SUMMARY_CLOSE_TAG`). */
export const CHECKPOINT_PREAMBLE = 'This is an automatically generated checkpoint condensing an earlier span of the conversation to free up context. Treat the captured context as established background and build on it without restating it. Continue the task directly from the messages that follow, without acknowledging this checkpoint.'
const SUMMARY_OPEN_TAG = '<compacted-summary>'
const SUMMARY_CLOSE_TAG = '</compacted-summary>'

/**
 * The checkpoint's content around a summary (`dsh-compaction-basic` `frameSummary`).
 * @param summary - the summary's text blocks.
 * @returns the content blocks of the checkpoint message.
 */
export function frameSummary(summary: readonly SummaryTextBlock[]): SummaryTextBlock[] {
  return [{ type: 'text', text: `${CHECKPOINT_PREAMBLE}\n\n${SUMMARY_OPEN_TAG}` }, ...summary.map((b) => ({ type: 'text' as const, text: b.text })), { type: 'text', text: SUMMARY_CLOSE_TAG }]
}

/**
 * Plan a folded removal on a view.
 * @param view - the session's view.
 * @param intent - action, target seq and optional expectation.
 * @returns the plan, a refusal (`STALE_VIEW` also when `expect.removedCount` does not match the
 *   plan, see `view-expectation.ts` `checkConfirmed`), or `null` when the target is not folded (the
 *   surface planner's case).
 */
export function planFoldedOnView(view: SessionView, intent: Omit<FoldedRemovalIntent, 'sessionId'>): Outcome<FoldedPlan> | null {
  const log: LogEvent[] = []
  for (let seq = 0; seq < view.nextSeq; seq++) {
    const event = view.lookup(seq)
    if (event !== undefined && event.surfaceOp !== undefined && event.surfaceOp !== 'append') log.push(event)
  }
  const planned = planFoldedRemoval({ nodes: view.nodes, lookup: view.lookup, fates: readFates(log), action: intent.action, seq: intent.seq })
  if (planned === null) return null
  if (!planned.ok) return planned
  const stale = checkExpectation(view, intent.expect) ?? checkConfirmed(view, intent.expect, planned.plan.removedSeqs, [])
  return stale === null ? { ok: true, value: planned.plan } : { ok: false, refusal: stale }
}

/**
 * The summarization input of a plan: the last request header's system prompt and tools, then
 * each kept original as `deriveEventMessage` derives it.
 * @param session - the session.
 * @param plan - the originals the summary is made from (a folded plan, or a `rewriteSummary` plan).
 * @param lookup - one event by seq.
 * @returns the input.
 */
export function summarizationInput(session: Session, plan: Pick<FoldedPlan, 'keptSeqs'>, lookup: (seq: number) => LogEvent | undefined): SummarizationInput {
  const header = session.requestHeader() as { system?: unknown; tools?: readonly unknown[] } | undefined
  const messages: Message[] = []
  for (const seq of plan.keptSeqs) {
    const event = lookup(seq)
    const message = event === undefined ? null : deriveEventMessage(event as SessionEvent)
    if (message !== null) messages.push(message)
  }
  return { ...(header?.system === undefined ? {} : { system: header.system }), ...(header?.tools === undefined ? {} : { tools: header.tools }), messages }
}

/** Value of a folded removal: a {@link RemovalValue} whose `tombstoneSeq` is the new checkpoint, with `removedSeqs` and `summaryRewrite`. */
export interface FoldedRemovalValue extends RemovalValue {
  readonly removedSeqs: readonly number[]
  readonly summaryRewrite: NonNullable<RemovalValue['summaryRewrite']>
}

/**
 * Remove folded messages: the summary rewritten without them (see the module).
 * @param services - write services, event index, compaction service and meter.
 * @param intent - the removal.
 * @param signal - aborts the model call (the request was cancelled): nothing is appended.
 * @returns the value once durable, or a refusal: `SESSION_NOT_LIVE` (no agent drives the session:
 *   a summary is made with the agent's model), `AGENT_BUSY`, `STALE_VIEW`, a planner refusal, or
 *   `SUMMARY_FAILED` (no compaction engine loaded, the model call failed or was cancelled, or the
 *   surface changed while it ran); nothing is appended on any refusal.
 * @throws {@link MessageRecallError} `PERSIST_FAILED` (`applied: true`) when the flush failed,
 *   `INTERNAL` when the session refused the events.
 */
export function rewriteSummary(services: SummaryRewriteServices, intent: FoldedRemovalIntent, signal?: AbortSignal): Promise<Outcome<FoldedRemovalValue>> {
  return withSummarizer(services, intent.sessionId, signal, (agent, summarizer, both) => runRewrite(services, agent, summarizer, intent, both))
}

/**
 * Run a write that needs a model call for a summary: behind this plugin's earlier writes to the
 * session (the write queue), inside the agent's maintenance slot, with the compaction service that
 * serves the agent. The one path a summary rewrite and a batch with folded changes share.
 * @param services - the queue, agents and the compaction service lookup.
 * @param sessionId - the session.
 * @param signal - the request's cancel signal, combined with the maintenance slot's.
 * @param run - the write: the agent, its summarizer, and the combined signal.
 * @returns what `run` returns, or `SESSION_NOT_LIVE` (no agent), `SUMMARY_FAILED` (`no-engine`) or
 *   `AGENT_BUSY` (the agent has work, or earlier writes did not finish in time); nothing is appended on those.
 * @throws what `run` throws.
 */
export async function withSummarizer<V>(
  services: Pick<SummaryRewriteServices, 'queue' | 'agents' | 'summarizer'>,
  sessionId: string,
  signal: AbortSignal | undefined,
  run: (agent: Agent, summarizer: CompactionSummarizer, signal: AbortSignal) => Promise<Outcome<V>>,
): Promise<Outcome<V>> {
  const queued = await services.queue.run(sessionId, async (): Promise<Outcome<V>> => {
    const agent = services.agents.get(sessionId as SessionId)
    if (agent === undefined) return { ok: false, refusal: { code: 'SESSION_NOT_LIVE', sessionId } }
    const summarizer = services.summarizer(agent)
    if (summarizer === undefined) return { ok: false, refusal: { code: 'SUMMARY_FAILED', sessionId, reason: 'no-engine', detail: 'no compaction engine is loaded (the compaction service)' } }
    try {
      // rc.8 signals "busy" only by this synchronous throw.
      return agent.runMaintenance((agentSignal) => run(agent, summarizer, signal === undefined ? agentSignal : AbortSignal.any([agentSignal, signal])))
    } catch (error) {
      return { ok: false, refusal: { code: 'AGENT_BUSY', sessionId, detail: errorText(error) } }
    }
  })
  if (queued.ok) return queued.value
  return { ok: false, refusal: queueBusy(sessionId, queued, services.queue.waitMs) }
}

/**
 * A `SUMMARY_FAILED` refusal.
 * @param sessionId - the session whose summary was not rewritten.
 * @param reason - `model` (the model call failed), `cancelled` (the request was cancelled) or
 *   `changed` (the surface is no longer what was planned).
 * @param detail - the cause in words.
 */
export function summaryFailed(sessionId: string, reason: 'model' | 'cancelled' | 'changed', detail: string): { readonly ok: false; readonly refusal: WriteRefusal } {
  return { ok: false, refusal: { code: 'SUMMARY_FAILED', sessionId, reason, detail } }
}

/**
 * Ask the summarizer for a summary of the plan's kept messages ({@link summarizationInput}), inside
 * the maintenance slot {@link withSummarizer} opened. Appends nothing; the caller checks afterwards
 * that the surface is still what it planned on.
 * @param agent - the agent whose session is summarized; the model call runs as its own.
 * @param summarizer - the compaction service's summarizer.
 * @param sessionId - the session's id, for the refusal.
 * @param plan - the original messages to summarize, by seq.
 * @param lookup - the session's event by seq.
 * @param signal - aborts the model call.
 * @returns the model's summary, or `SUMMARY_FAILED` with reason `model` (the call failed: its
 *   error in words) or `cancelled` (the signal aborted before, during or right after the call).
 */
export async function summarizeKept(
  agent: Agent, summarizer: CompactionSummarizer, sessionId: string, plan: Pick<FoldedPlan, 'keptSeqs'>,
  lookup: (seq: number) => LogEvent | undefined, signal: AbortSignal,
): Promise<Outcome<SummarizeResult>> {
  const cancelled = 'the summary rewrite was cancelled; nothing was written'
  let result: SummarizeResult
  try {
    signal.throwIfAborted()
    result = await summarizer.summarize(summarizationInput(agent.session, plan, lookup), agent, signal)
  } catch (error) {
    return signal.aborted ? summaryFailed(sessionId, 'cancelled', cancelled) : summaryFailed(sessionId, 'model', errorText(error))
  }
  if (signal.aborted) return summaryFailed(sessionId, 'cancelled', cancelled)
  return { ok: true, value: result }
}

async function runRewrite(
  services: SummaryRewriteServices, agent: Agent, summarizer: CompactionSummarizer, intent: FoldedRemovalIntent, signal: AbortSignal,
): Promise<Outcome<FoldedRemovalValue>> {
  const session = agent.session
  const lookup = (seq: number) => services.index.lookup(session)(seq)
  const view = viewOfSession(session, services.index.lookup(session), 'agent')
  const planned = planFoldedOnView(view, intent)
  if (planned === null) return { ok: false, refusal: { code: 'TARGET_NOT_FOUND', target: { seq: intent.seq }, reason: 'not-on-surface', matchingSeqs: [] } }
  if (!planned.ok) return planned
  const plan = planned.value
  const summarized = await summarizeKept(agent, summarizer, intent.sessionId, plan, lookup, signal)
  if (!summarized.ok) return summarized
  const again = planFoldedOnView(viewOfSession(session, services.index.lookup(session), 'agent'), { action: intent.action, seq: intent.seq })
  if (again === null || !again.ok || again.value.checkpointSeq !== plan.checkpointSeq || again.value.keptSeqs.join() !== plan.keptSeqs.join()) {
    return summaryFailed(intent.sessionId, 'changed', 'the compacted history changed while the summary was written; nothing was written')
  }
  const written = appendRewrite(session, plan, summarized.value, services.meter(), lookup)
  const target = lookup(intent.seq)
  const recalled = intent.action === 'recall' && target !== undefined ? { content: contentOf(target), text: plainText(contentOf(target)) } : undefined
  const value: Omit<FoldedRemovalValue, 'persisted'> = {
    action: intent.action,
    tombstoneSeq: written.checkpointSeq,
    range: { start: plan.checkpointSeq, end: plan.checkpointSeq },
    shadowedSeqs: [plan.checkpointSeq],
    nodeKinds: ['checkpoint'],
    replaceGeneration: session.surface.replaceGeneration,
    removedSeqs: plan.removedSeqs,
    summaryRewrite: { checkpointSeq: plan.checkpointSeq, compactionId: written.compactionId, startSeq: written.startSeq, endSeq: written.endSeq },
    ...(recalled ?? {}),
  }
  const flushed = await flushWithRetry(() => services.sessions.flush(session), services.flushRetry)
  if (!flushed.ok) {
    throw new MessageRecallError('PERSIST_FAILED', `message-recall: the summary rewrite (checkpoint seq ${written.checkpointSeq}) was appended to session "${intent.sessionId}" and is in effect, but it is not yet durable: the durability flush failed ${flushed.attempts} times: ${flushed.reason}`, {
      cause: flushed.error, details: { applied: true, value: { ...value, persisted: false }, ...(recalled ?? {}) },
    })
  }
  return { ok: true, value: { ...value, persisted: flushed.persisted } }
}

/** What {@link appendRewrite} appended. */
export interface AppendedRewrite {
  readonly compactionId: string
  readonly startSeq: number
  readonly summarySeq: number
  readonly checkpointSeq: number
  readonly endSeq: number
}

/**
 * Append the new compaction, in one synchronous block (see the module).
 * @param session - the session (inside its maintenance slot, between turns).
 * @param plan - the checkpoint to replace and the record the new one carries.
 * @param result - the summary (DSH's `summarize` answer, or a hand-edited text with no model call).
 * @param meter - the token meter, for the shadow price of the old checkpoint; `undefined`: 0.
 * @param lookup - one event by seq.
 * @returns the seqs appended.
 * @throws {@link MessageRecallError} `INTERNAL` when the session or an invariant refused an event;
 *   a refused `compaction/start` leaves nothing, a later refusal closes the bracket with an error.
 */
export function appendRewrite(session: Session, plan: Pick<FoldedPlan, 'checkpointSeq' | 'removals'>, result: SummarizeResult, meter: MessagePricer | undefined, lookup: (seq: number) => LogEvent | undefined): AppendedRewrite {
  return appendSummaryCompaction(session, { shadowedSeqs: [plan.checkpointSeq], removals: plan.removals }, result, meter, lookup)
}

/**
 * Append a compaction of this plugin over a run of surface nodes, in one synchronous block: the
 * bracket of the module doc with `shadowedRange` the run's first and last node, the checkpoint
 * replacing them and citing `[startSeq, summarySeq, ...shadowedSeqs]`. A summary rewrite's run is
 * the one checkpoint it replaces; a copy that inherits a rewrite (`inherit-removals.ts`) replaces
 * the nodes the source's summary stands for.
 * @param session - the session (between turns, as the compaction invariant requires for a standalone bracket).
 * @param target - the run (adjacent surface nodes, in surface order, non-empty) and the record the checkpoint carries.
 * @param result - the summary blocks and the call's provenance.
 * @param meter - the token meter, for the run's shadow price (Σ of its nodes); `undefined`: 0.
 * @param lookup - one event by seq.
 * @returns the seqs appended.
 * @throws {@link MessageRecallError} `INTERNAL` when the session or an invariant refused an event;
 *   a refused `compaction/start` leaves nothing, a later refusal closes the bracket with an error.
 */
export function appendSummaryCompaction(
  session: Session,
  target: { readonly shadowedSeqs: readonly number[]; readonly removals: FoldedPlan['removals'] },
  result: SummarizeResult,
  meter: MessagePricer | undefined,
  lookup: (seq: number) => LogEvent | undefined,
): AppendedRewrite {
  const shadowedSeqs = [...target.shadowedSeqs]
  const first = shadowedSeqs[0]
  const last = shadowedSeqs.at(-1)
  if (first === undefined || last === undefined) throw new MessageRecallError('INTERNAL', 'message-recall: a compaction needs at least one surface node to replace')
  const what = shadowedSeqs.length === 1 ? `checkpoint seq ${first}` : `seqs ${first}…${last}`
  const compactionId = randomUUID()
  let tokens = 0
  if (meter !== undefined) {
    const price = meterPricer(meter, lookup)
    for (const seq of shadowedSeqs) tokens += price(seq)
  }
  const lifecycle = { compactionId, turn: null }
  let startSeq: number
  try {
    startSeq = session.append('compaction/start', lifecycle as never).seq
  } catch (error) {
    throw new MessageRecallError('INTERNAL', `message-recall: the session refused the summary rewrite's compaction/start: ${errorText(error)}`, { cause: error })
  }
  try {
    const summary = result.summary.map((b) => ({ type: 'text' as const, text: b.text }))
    const summarySeq = session.append('compaction/summary', {
      compactionId,
      summary,
      ...(result.llmStreamCall === true ? { rawOutput: result.rawOutput, llmStreamCall: true } : {}),
      shadowedRange: { start: first, end: last },
      shadowedSeqs,
      shadowedTokenCount: tokens,
      provider: result.provider ?? 'dsh-message-recall',
      model: result.model ?? 'manual-edit',
      ...(result.maxTokens === undefined ? {} : { maxTokens: result.maxTokens }),
      ...(result.usage === undefined ? {} : { usage: result.usage }),
    } as never).seq
    const message = createUserMessage({ content: frameSummary(summary), source: rewriteCheckpointSource(compactionId, { removals: target.removals }) as never })
    const checkpointSeq = session.append('user/message', message as never, { surfaceOp: { op: 'replace', start: first, end: last }, sourceEventSeqs: [startSeq, summarySeq, ...shadowedSeqs] } as never).seq
    const endSeq = session.append('compaction/end', lifecycle as never).seq
    return { compactionId, startSeq, summarySeq, checkpointSeq, endSeq }
  } catch (error) {
    try {
      session.append('compaction/end', { ...lifecycle, error: { message: errorText(error) } } as never)
    } catch { /* the bracket stays open; DSH treats it as an orphan after the next seed */ }
    throw new MessageRecallError('INTERNAL', `message-recall: the session refused the summary rewrite of ${what}: ${errorText(error)}`, { cause: error })
  }
}
