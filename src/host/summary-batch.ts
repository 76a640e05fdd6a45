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
import { ACTIONS } from '../shared/actions'
import type { ApplyChangeResult, ApplyValue, RemovalValue, ViewExpectation } from '../shared/protocol'
import type { BatchChange, BatchPlan } from './batch-plan'
import { appendBatch } from './batch-writer'
import { flushWithRetry } from './durable-flush'
import { foldedTail, type FoldedPlan, type FoldedTail } from './folded-plan'
import { describeRefusal, MessageRecallError, type BatchChangeRefusal, type Outcome, type WriteRefusal } from './refusals'
import type { RemovalServices } from './removal-service'
import { viewOfSession, type SessionView } from './session-view'
import { appendRewrite, planFoldedOnView, summarizeKept, summaryFailed, withSummarizer, type CompactionSummarizer } from './summary-rewrite'
import { errorText, withoutPrefix } from '../shared/error-text'
import { checkConfirmed, checkExpectation } from './view-expectation'
import { planBatchOnView, takenByBatch, type BatchIntent } from './view-plans'
import type { MessagePricer } from './shadow-price'
import { appendTombstone } from './tombstone-append'
import { priceReplace, retitleAfterRemoval } from './write-effects'

/** The plans of a mixed batch. */
export interface MixedPlan {
  /** The current changes with their indexes in the request, and their batch plan (`null` when there are none). */
  readonly current: { readonly indexes: readonly number[]; readonly changes: readonly BatchChange[]; readonly plan: BatchPlan } | null
  /** The folded changes' indexes and their one rewrite. */
  readonly folded: { readonly indexes: readonly number[]; readonly plan: FoldedPlan }
  /**
   * A Delete onward from a folded message also takes every message after the checkpoint: that
   * range (one tombstone), with the indexes of the current changes it covers; `null` without a
   * folded Delete onward, or when nothing follows the checkpoint.
   */
  readonly tail: { readonly indexes: readonly number[]; readonly range: FoldedTail } | null
  /** Every message the batch takes out of the model's context: the current ones, the folded ones, the tail's. */
  readonly removedSeqs: readonly number[]
}

/**
 * The seqs that removals of a batch address and the surface does not hold (folded, already
 * removed, or no event): one pass over the nodes against the batch's own seqs, so a large
 * surface is not copied into a set for a batch of a few changes (half a millisecond at 8,000 nodes).
 * @param nodes - the surface's nodes.
 * @param changes - the batch; restores (addressed by tombstone) are not looked at.
 * @returns the distinct seqs off the surface (empty: every removal targets the surface).
 */
export function offSurfaceSeqs(nodes: readonly number[], changes: readonly BatchChange[]): Set<number> {
  const off = new Set<number>()
  for (const change of changes) if ('seq' in change) off.add(change.seq)
  for (let i = 0; i < nodes.length && off.size > 0; i++) off.delete(nodes[i]!)
  return off
}

/**
 * Which changes of a batch address a folded message.
 * @param view - the session's view.
 * @param changes - the batch.
 * @returns the indexes of the changes whose `seq` is folded (empty: an ordinary batch).
 */
export function foldedIndexes(view: SessionView, changes: readonly BatchChange[]): number[] {
  const out: number[] = []
  const off = offSurfaceSeqs(view.nodes, changes)
  if (off.size === 0) return out
  for (const [index, change] of changes.entries()) {
    if (!('seq' in change) || !off.has(change.seq)) continue
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
  let onward = false
  const taken = new Set<number>()
  for (const index of foldedAt) {
    const change = intent.changes[index] as { action: BatchChange['action'] & string; seq: number }
    const planned = planFoldedOnView(view, { action: change.action as never, seq: change.seq })
    if (planned === null) return refuse(index, 'TARGET_NOT_FOUND', `seq ${change.seq} is not a folded message`)
    if (!planned.ok) return refuse(index, planned.refusal.code as BatchChangeRefusal['code'], withoutPrefix(describeRefusal(planned.refusal)))
    const one = planned.value
    if (ACTIONS[one.action].plans === 'onward') onward = true
    const first = folded as FoldedPlan | null
    if (first !== null && one.checkpointSeq !== first.checkpointSeq) return refuse(index, 'SPAN_NOT_CONTIGUOUS', `seq ${change.seq} is folded into checkpoint ${one.checkpointSeq}, not ${first.checkpointSeq}`)
    const fresh = one.removedSeqs.filter((seq) => !taken.has(seq))
    for (const seq of fresh) taken.add(seq)
    const earlier: FoldedPlan['removals'] = folded === null ? one.removals.slice(0, -1) : (folded as FoldedPlan).removals
    const removals: FoldedPlan['removals'] = fresh.length === 0 ? earlier : [...earlier, { action: one.action, seqs: fresh }]
    const gone = new Set(removals.flatMap((r) => r.seqs))
    const before: readonly number[] = folded === null ? [] : (folded as FoldedPlan).removedSeqs
    folded = { ...one, removedSeqs: [...before, ...fresh], removals, keptSeqs: one.originalSeqs.filter((seq) => !gone.has(seq)) }
    // A summary of nothing cannot be written: the batch takes every message the summary is made from.
    if (folded.keptSeqs.length === 0) return refuse(index, 'NOT_DELETABLE', withoutPrefix(describeRefusal({ code: 'NOT_DELETABLE', seq: change.seq, nodeKind: 'checkpoint', wholeSummary: true })))
  }
  if (folded === null) throw new Error('message-recall: planMixedOnView called for a batch without folded changes')
  const checkpoint = folded.checkpointSeq
  const range = onward ? foldedTail(view.nodes, view.lookup, checkpoint) : null
  const inTail = new Set(range?.shadowedSeqs ?? [])
  const tailIndexes: number[] = []
  const restIndexes: number[] = []
  for (const [i, change] of intent.changes.entries()) {
    if (foldedAt.includes(i)) continue
    const seq = 'seq' in change ? change.seq : change.tombstoneSeq
    if (!inTail.has(seq)) restIndexes.push(i)
    else if (change.action === 'restore') return refuse(i, 'TARGET_NOT_FOUND', `tombstone seq ${seq} sits after the compaction summary, in what the Delete onward of this batch takes`)
    else tailIndexes.push(i)
  }
  const restChanges = restIndexes.map((i) => intent.changes[i]!)
  let current: MixedPlan['current'] = null
  if (restChanges.length > 0) {
    const planned = planBatchOnView(view, { changes: restChanges, ...(intent.expect === undefined ? {} : { expect: { ...intent.expect, removedCount: undefined } as never }) })
    if (!planned.ok) {
      const r = planned.refusal as BatchChangeRefusal
      const index = restIndexes[r.index!] ?? r.index!
      return { ok: false, refusal: { ...r, index, message: r.message.replace(`changes[${r.index}]`, `changes[${index}]`) } }
    }
    const takes = planned.value.writes.findIndex((w) => w.kind === 'tombstone' && w.shadowedSeqs.some((seq) => seq === checkpoint || inTail.has(seq)))
    if (takes !== -1) {
      const index = restIndexes[(planned.value.writes[takes] as { changeIndexes: readonly number[] }).changeIndexes[0]!]!
      return refuse(index, 'NOT_DELETABLE', `its range takes the compaction summary (checkpoint seq ${checkpoint}) that the folded changes of this batch rewrite`)
    }
    current = { indexes: restIndexes, changes: restChanges, plan: planned.value }
  }
  const tailRemoved = range === null ? [] : range.shadowedSeqs.filter((_, i) => range.nodeKinds[i] !== 'tombstone')
  const removed = [...(current?.plan.removedSeqs.filter((seq) => seq < view.nextSeq) ?? []), ...folded.removedSeqs, ...tailRemoved]
  const rangeSeqs = [...(current === null ? [] : takenByBatch(current.plan, view.nextSeq)), ...(range?.shadowedSeqs ?? [])]
  const changed = checkConfirmed(view, intent.expect, removed, rangeSeqs)
  if (changed !== null) return { ok: false, refusal: changed }
  return { ok: true, value: { current, folded: { indexes: foldedAt, plan: folded }, tail: range === null ? null : { indexes: tailIndexes, range }, removedSeqs: removed } }
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
export async function applyWithRewrite(services: MixedServices, intent: BatchIntent, signal?: AbortSignal): Promise<Outcome<ApplyValue>> {
  const written = await withSummarizer(services, intent.sessionId, signal, (agent, summarizer, both) => runMixed(services, agent, summarizer, intent, both))
  if (!written.ok) return written
  const { results, replaceGeneration, persisted } = written.value
  return { ok: true, value: { action: 'apply', results, replaceGeneration, persisted } }
}

/** The removal services with the compaction service lookup. */
export type MixedServices = RemovalServices & { readonly summarizer: (agent: Agent) => CompactionSummarizer | undefined }

/**
 * A Delete onward from a folded message, from its row: the folded part and the tail as one mixed
 * batch of one change (see the module).
 * @param services - the removal services with the compaction service.
 * @param intent - the `deleteFrom` of a folded message.
 * @param signal - aborts the model call.
 * @returns the value once durable: `tombstoneSeq` is the tail's tombstone (the new checkpoint when
 *   nothing followed the old one, then with `summaryRewrite`, which the rewrite's Undo reads),
 *   `range` from the old checkpoint to the last node taken, `removedSeqs` every message taken; or a refusal.
 * @throws {@link MessageRecallError} as {@link applyWithRewrite}.
 */
export async function deleteOnwardFolded(services: MixedServices, intent: { readonly sessionId: string; readonly seq: number; readonly expect?: ViewExpectation }, signal?: AbortSignal): Promise<Outcome<RemovalValue>> {
  const batch: BatchIntent = { sessionId: intent.sessionId, changes: [{ action: 'deleteFrom', seq: intent.seq }], ...(intent.expect === undefined ? {} : { expect: intent.expect }) }
  const written = await withSummarizer(services, intent.sessionId, signal, (agent, summarizer, both) => runMixed(services, agent, summarizer, batch, both, true))
  if (!written.ok) return { ok: false, refusal: singleRefusal(written.refusal) }
  return { ok: true, value: written.value.removal! }
}

/**
 * The refusal of a one-change batch that stood for a single request: the request's own, without
 * an `index` and without `changes[0]` in its message.
 * @param refusal - the batch's refusal.
 * @returns the refusal as the single request answers it.
 */
export function singleRefusal(refusal: WriteRefusal): WriteRefusal {
  if (!('index' in refusal)) return refusal
  const { index: _index, ...rest } = refusal
  return { ...rest, message: rest.message.replace('changes[0]: ', '') }
}

/** What a mixed batch wrote, once durable. */
interface MixedWritten {
  readonly results: readonly ApplyChangeResult[]
  readonly replaceGeneration: number
  readonly persisted: boolean
  /** The single-request value ({@link deleteOnwardFolded}); absent for `apply`. */
  readonly removal?: RemovalValue
}

async function runMixed(services: RemovalServices, agent: Agent, summarizer: CompactionSummarizer, intent: BatchIntent, signal: AbortSignal, single = false): Promise<Outcome<MixedWritten>> {
  const session = agent.session
  const lookup = (seq: number) => services.index.lookup(session)(seq)
  const planned = planMixedOnView(viewOfSession(session, services.index.lookup(session), 'agent'), intent)
  if (!planned.ok) return planned
  const summarized = await summarizeKept(agent, summarizer, intent.sessionId, planned.value.folded.plan, lookup, signal)
  if (!summarized.ok) return summarized
  const result = summarized.value
  const again = planMixedOnView(viewOfSession(session, services.index.lookup(session), 'agent'), intent)
  if (!again.ok || again.value.folded.plan.keptSeqs.join() !== planned.value.folded.plan.keptSeqs.join() || again.value.folded.plan.checkpointSeq !== planned.value.folded.plan.checkpointSeq
    || again.value.removedSeqs.join() !== planned.value.removedSeqs.join()) {
    return summaryFailed(intent.sessionId, 'changed', 'the conversation changed while the summary was written; nothing was written')
  }
  const { current, folded, tail } = again.value
  const effects = services.effects?.()
  const fromSeq = session.seq
  const results: ApplyChangeResult[] = []
  if (current !== null) {
    const appended = appendBatch(session, current.plan, current.changes, { tombstoneText: services.tombstoneText, lookup: () => services.index.lookup(session), ...(effects === undefined ? {} : { effects }) })
    for (const r of appended) results.push({ ...r, index: current.indexes[r.index]! })
  }
  // The tail before the new compaction: a copy from before the tail's tombstone is the conversation before this step.
  let tailSeq: number | null = null
  if (tail !== null) {
    const range = { action: 'deleteFrom' as const, start: tail.range.start, end: tail.range.end, shadowedSeqs: tail.range.shadowedSeqs }
    try {
      priceReplace(session, effects, lookup, range, range.shadowedSeqs)
      tailSeq = appendTombstone(session, range, services.tombstoneText).seq
    } catch (error) {
      throw new MessageRecallError('INTERNAL', `message-recall: the session refused the tombstone for [${range.start}, ${range.end}]: ${errorText(error)}`, { cause: error })
    }
    retitleAfterRemoval(session, effects, services.index.lookup(session), { seq: tailSeq, shadowedSeqs: range.shadowedSeqs })
    for (const index of tail.indexes) results.push({ index, action: intent.changes[index]!.action, tombstoneSeq: tailSeq, range: { start: range.start, end: range.end }, shadowedSeqs: range.shadowedSeqs })
  }
  const cp = folded.plan.checkpointSeq
  const written = appendRewrite(session, folded.plan, result, effects?.meter as MessagePricer | undefined, lookup)
  for (const index of folded.indexes) {
    results.push({ index, action: intent.changes[index]!.action, tombstoneSeq: written.checkpointSeq, range: { start: cp, end: cp }, shadowedSeqs: [cp] })
  }
  results.sort((a, b) => a.index - b.index)
  const replaceGeneration = session.surface.replaceGeneration
  const removal: Omit<RemovalValue, 'persisted'> | undefined = !single ? undefined : {
    action: 'deleteFrom',
    tombstoneSeq: tailSeq ?? written.checkpointSeq,
    range: { start: cp, end: tail?.range.end ?? cp },
    shadowedSeqs: [cp, ...(tail?.range.shadowedSeqs ?? [])],
    nodeKinds: ['checkpoint', ...(tail?.range.nodeKinds ?? [])],
    replaceGeneration,
    removedSeqs: again.value.removedSeqs,
    // Undo of the rewrite alone would leave the tail removed: only a step without a tail offers it.
    ...(tail === null ? { summaryRewrite: { checkpointSeq: cp, compactionId: written.compactionId, startSeq: written.startSeq, endSeq: written.endSeq } } : {}),
  }
  services.afterAppend?.(session, fromSeq)
  const flushed = await flushWithRetry(() => services.sessions.flush(session), services.flushRetry)
  if (!flushed.ok) {
    const value = removal === undefined ? { action: 'apply' as const, results, replaceGeneration, persisted: false } : { ...removal, persisted: false }
    throw new MessageRecallError('PERSIST_FAILED', `message-recall: the batch with a summary rewrite (checkpoint seq ${written.checkpointSeq}) was appended to session "${intent.sessionId}" and is in effect, but it is not yet durable: the durability flush failed ${flushed.attempts} times: ${flushed.reason}`, {
      cause: flushed.error, details: { applied: true, value },
    })
  }
  return { ok: true, value: { results, replaceGeneration, persisted: flushed.persisted, ...(removal === undefined ? {} : { removal: { ...removal, persisted: flushed.persisted } }) } }
}
