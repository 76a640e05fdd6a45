/**
 * An `apply` whose changes take messages a compaction folded, alone or together with current ones:
 * one step, all or nothing. The current changes are planned as any batch (`planBatchOnView`), the
 * folded ones as one summary rewrite (`folded-plan.ts`: every folded change's messages out of the
 * same checkpoint's originals, cumulative with the removals recorded before). Inside the agent's
 * maintenance slot the summary is made first (DSH's `compaction` service, `summary-rewrite.ts`);
 * only when it succeeded and both plans still hold are the batch's tombstones and then the new
 * compaction appended in one synchronous block, then one flush. A refused change (its `index`), a
 * failed or cancelled model call, or a batch range that would take the checkpoint itself appends
 * nothing.
 *
 * @module dsh-message-recall/host/summary-batch
 */
import type { Agent } from '@deepseek-ai/dsh-agent'
import type { ApplyChangeResult, ApplyValue } from '../shared/protocol'
import type { BatchChange, BatchPlan } from './batch-plan'
import { appendBatch } from './batch-writer'
import { flushWithRetry } from './durable-flush'
import type { FoldedPlan } from './folded-plan'
import { MessageRecallError, type BatchChangeRefusal, type Outcome } from './refusals'
import type { RemovalServices } from './removal-service'
import { viewOfSession, type SessionView } from './session-view'
import { appendRewrite, planFoldedOnView, summarizationInput, withSummarizer, type CompactionSummarizer, type SummarizeResult } from './summary-rewrite'
import { errorText } from '../shared/error-text'
import { checkConfirmed, checkExpectation } from './view-expectation'
import { planBatchOnView, type BatchIntent } from './view-plans'
import type { MessagePricer } from './shadow-price'

/** The two plans of a mixed batch. */
export interface MixedPlan {
  /** The current changes with their indexes in the request, and their batch plan (`null` when there are none). */
  readonly current: { readonly indexes: readonly number[]; readonly changes: readonly BatchChange[]; readonly plan: BatchPlan } | null
  /** The folded changes' indexes and their one rewrite. */
  readonly folded: { readonly indexes: readonly number[]; readonly plan: FoldedPlan }
}

/**
 * Which changes of a batch address a folded message.
 * @param view - the session's view.
 * @param changes - the batch.
 * @returns the indexes of the changes whose `seq` is folded (empty: an ordinary batch).
 */
export function foldedIndexes(view: SessionView, changes: readonly BatchChange[]): number[] {
  const out: number[] = []
  const surface = new Set(view.nodes)
  for (const [index, change] of changes.entries()) {
    if (!('seq' in change) || surface.has(change.seq)) continue
    if (planFoldedOnView(view, { action: change.action, seq: change.seq }) !== null) out.push(index)
  }
  return out
}

/**
 * Plan a mixed batch on a view (see the module).
 * @param view - the session's view.
 * @param intent - the batch.
 * @returns both plans, or the first refused change (`index` in the request), or `STALE_VIEW`.
 */
export function planMixedOnView(view: SessionView, intent: Omit<BatchIntent, 'sessionId'>): Outcome<MixedPlan> {
  const stale = checkExpectation(view, intent.expect)
  if (stale !== null) return { ok: false, refusal: stale }
  const foldedAt = foldedIndexes(view, intent.changes)
  const refuse = (index: number, code: BatchChangeRefusal['code'], message: string): Outcome<MixedPlan> => ({ ok: false, refusal: { code, index, message: `message-recall: changes[${index}]: ${message}` } })
  let folded: FoldedPlan | null = null
  const taken = new Set<number>()
  for (const index of foldedAt) {
    const change = intent.changes[index] as { action: BatchChange['action'] & string; seq: number }
    const planned = planFoldedOnView(view, { action: change.action as never, seq: change.seq })
    if (planned === null) return refuse(index, 'TARGET_NOT_FOUND', `seq ${change.seq} is a folded message; Delete onward cannot start inside a compaction summary`)
    if (!planned.ok) return refuse(index, planned.refusal.code as BatchChangeRefusal['code'], 'a folded message this action cannot take')
    const one = planned.value
    const first = folded as FoldedPlan | null
    if (first !== null && one.checkpointSeq !== first.checkpointSeq) return refuse(index, 'SPAN_NOT_CONTIGUOUS', `seq ${change.seq} is folded into checkpoint ${one.checkpointSeq}, not ${first.checkpointSeq}`)
    const fresh = one.removedSeqs.filter((seq) => !taken.has(seq))
    for (const seq of fresh) taken.add(seq)
    const earlier: FoldedPlan['removals'] = folded === null ? one.removals.slice(0, -1) : (folded as FoldedPlan).removals
    const removals: FoldedPlan['removals'] = fresh.length === 0 ? earlier : [...earlier, { action: one.action, seqs: fresh }]
    const gone = new Set(removals.flatMap((r) => r.seqs))
    const before: readonly number[] = folded === null ? [] : (folded as FoldedPlan).removedSeqs
    folded = { ...one, removedSeqs: [...before, ...fresh], removals, keptSeqs: one.originalSeqs.filter((seq) => !gone.has(seq)) }
  }
  if (folded === null) throw new Error('message-recall: planMixedOnView called for a batch without folded changes')
  const restIndexes = intent.changes.map((_, i) => i).filter((i) => !foldedAt.includes(i))
  const restChanges = restIndexes.map((i) => intent.changes[i]!)
  let current: MixedPlan['current'] = null
  if (restChanges.length > 0) {
    const planned = planBatchOnView(view, { changes: restChanges, ...(intent.expect === undefined ? {} : { expect: { ...intent.expect, removedCount: undefined } as never }) })
    if (!planned.ok) {
      const r = planned.refusal as BatchChangeRefusal
      const index = restIndexes[r.index] ?? r.index
      return { ok: false, refusal: { ...r, index, message: r.message.replace(`changes[${r.index}]`, `changes[${index}]`) } }
    }
    const checkpoint = folded.checkpointSeq
    const takes = planned.value.writes.findIndex((w) => w.kind === 'tombstone' && w.shadowedSeqs.includes(checkpoint))
    if (takes !== -1) {
      const index = restIndexes[(planned.value.writes[takes] as { changeIndexes: readonly number[] }).changeIndexes[0]!]!
      return refuse(index, 'NOT_DELETABLE', `its range takes the compaction summary (checkpoint seq ${checkpoint}) that the folded changes of this batch rewrite`)
    }
    current = { indexes: restIndexes, changes: restChanges, plan: planned.value }
  }
  const removed = [...(current?.plan.removedSeqs.filter((seq) => seq < view.nextSeq) ?? []), ...folded.removedSeqs]
  const changed = checkConfirmed(view, intent.expect, removed)
  if (changed !== null) return { ok: false, refusal: changed }
  return { ok: true, value: { current, folded: { indexes: foldedAt, plan: folded } } }
}

/**
 * Apply a mixed batch (see the module).
 * @param services - the removal services with the compaction service.
 * @param intent - the batch.
 * @param signal - aborts the model call (the request was cancelled).
 * @returns the `apply` value once durable (a folded change's result names the new checkpoint as
 *   its `tombstoneSeq`, and the old one as its range), or a refusal; nothing is appended on any.
 * @throws {@link MessageRecallError} `PERSIST_FAILED` when the flush failed, `INTERNAL` when the
 *   session refused an event.
 */
export function applyWithRewrite(services: RemovalServices & { readonly summarizer: (agent: Agent) => CompactionSummarizer | undefined }, intent: BatchIntent, signal?: AbortSignal): Promise<Outcome<ApplyValue>> {
  return withSummarizer(services, intent.sessionId, signal, (agent, summarizer, both) => runMixed(services, agent, summarizer, intent, both))
}

async function runMixed(services: RemovalServices, agent: Agent, summarizer: CompactionSummarizer, intent: BatchIntent, signal: AbortSignal): Promise<Outcome<ApplyValue>> {
  const session = agent.session
  const lookup = (seq: number) => services.index.lookup(session)(seq)
  const planned = planMixedOnView(viewOfSession(session, services.index.lookup(session), 'agent'), intent)
  if (!planned.ok) return planned
  const fail = (reason: 'model' | 'cancelled' | 'changed', detail: string): Outcome<ApplyValue> => ({ ok: false, refusal: { code: 'SUMMARY_FAILED', sessionId: intent.sessionId, reason, detail } })
  let result: SummarizeResult
  try {
    signal.throwIfAborted()
    result = await summarizer.summarize(summarizationInput(session, planned.value.folded.plan, lookup), agent, signal)
  } catch (error) {
    return signal.aborted ? fail('cancelled', 'the summary rewrite was cancelled; nothing was written') : fail('model', errorText(error))
  }
  if (signal.aborted) return fail('cancelled', 'the summary rewrite was cancelled; nothing was written')
  const again = planMixedOnView(viewOfSession(session, services.index.lookup(session), 'agent'), intent)
  if (!again.ok || again.value.folded.plan.keptSeqs.join() !== planned.value.folded.plan.keptSeqs.join() || again.value.folded.plan.checkpointSeq !== planned.value.folded.plan.checkpointSeq) {
    return fail('changed', 'the conversation changed while the summary was written; nothing was written')
  }
  const { current, folded } = again.value
  const effects = services.effects?.()
  const fromSeq = session.seq
  const results: ApplyChangeResult[] = []
  if (current !== null) {
    const appended = appendBatch(session, current.plan, current.changes, { tombstoneText: services.tombstoneText, lookup: () => services.index.lookup(session), ...(effects === undefined ? {} : { effects }) })
    for (const r of appended) results.push({ ...r, index: current.indexes[r.index]! })
  }
  const cp = folded.plan.checkpointSeq
  const written = appendRewrite(session, folded.plan, result, effects?.meter as MessagePricer | undefined, lookup)
  for (const index of folded.indexes) {
    results.push({ index, action: intent.changes[index]!.action, tombstoneSeq: written.checkpointSeq, range: { start: cp, end: cp }, shadowedSeqs: [cp] })
  }
  results.sort((a, b) => a.index - b.index)
  const value = { action: 'apply' as const, results, replaceGeneration: session.surface.replaceGeneration }
  services.afterAppend?.(session, fromSeq)
  const flushed = await flushWithRetry(() => services.sessions.flush(session), services.flushRetry)
  if (!flushed.ok) {
    throw new MessageRecallError('PERSIST_FAILED', `message-recall: the batch with a summary rewrite (checkpoint seq ${written.checkpointSeq}) was appended to session "${intent.sessionId}" and is in effect, but it is not yet durable: the durability flush failed ${flushed.attempts} times: ${flushed.reason}`, {
      cause: flushed.error, details: { applied: true, value: { ...value, persisted: false } },
    })
  }
  return { ok: true, value: { ...value, persisted: flushed.persisted } }
}
