/**
 * The `x-message-recall-tombstone` response header (`protocol.ts` `DURABLE_TOMBSTONE_HEADER`) of a
 * removal's answer, written by the host route and read by the browser half: one tombstone's
 * action, seq, replace range and shadowed nodes as compact JSON.
 *
 * Why a header: the route answers a removal only after the durability flush, and a page gets a
 * `fetch` response's headers in the first task after they arrive, while Chromium reads the body
 * only after the event-socket frames queued before it, and the rc.8 web host sends the write's
 * six frames (the shadow price's `compaction/prune` and the tombstone, each after two
 * `session/projection` frames) during the flush. The header lets the page hide the removed rows on
 * the durable answer before those frames are handled.
 *
 * @module dsh-message-recall/shared/durable-header
 */
import { isTombstoneAction } from './actions'
import { isRecord } from './events'
import { DURABLE_TOMBSTONE_HEADER_MAX, type DurableTombstoneFacts } from './protocol'

/**
 * The header value for a removal's success value.
 * @param value - the value the route answers (any success value).
 * @returns the JSON text, or `null` when the value is not one durable tombstone (`persisted`
 *   false, a summary rewrite, another action) or its text is longer than {@link DURABLE_TOMBSTONE_HEADER_MAX}.
 */
export function durableHeaderOf(value: unknown): string | null {
  const facts = durableFactsOf(value)
  if (facts === null) return null
  const text = JSON.stringify(facts)
  return text.length <= DURABLE_TOMBSTONE_HEADER_MAX ? text : null
}

/**
 * The durable tombstone a removal's success value names.
 * @param value - a success value of the route (any).
 * @returns its action, tombstone seq, range and shadowed nodes when it is a removal answered
 *   `persisted: true` that wrote one tombstone; `null` for `persisted: false`, a summary rewrite
 *   (its value names a compaction checkpoint) and every other value.
 */
export function durableFactsOf(value: unknown): DurableTombstoneFacts | null {
  if (!isRecord(value) || value.persisted !== true || value.summaryRewrite !== undefined || value.removedSeqs !== undefined) return null
  return readFacts({ action: value.action, tombstoneSeq: value.tombstoneSeq, range: value.range, shadowedSeqs: value.shadowedSeqs })
}

/**
 * Read the header value back.
 * @param text - the header's value (`null` when absent).
 * @returns the facts, or `null` when absent, not JSON or not of the shape (`action` a tombstone
 *   action, safe-integer seqs, `range.start ≤ range.end`, `shadowedSeqs` non-empty, starting at
 *   `range.start` and ending at `range.end`, all before `tombstoneSeq`).
 */
export function readDurableHeader(text: string | null): DurableTombstoneFacts | null {
  if (text === null || text.length > DURABLE_TOMBSTONE_HEADER_MAX) return null
  try {
    return readFacts(JSON.parse(text))
  } catch {
    return null
  }
}

function readFacts(raw: unknown): DurableTombstoneFacts | null {
  if (!isRecord(raw) || !isTombstoneAction(raw.action) || !Number.isSafeInteger(raw.tombstoneSeq)) return null
  const range = raw.range
  if (!isRecord(range) || !Number.isSafeInteger(range.start) || !Number.isSafeInteger(range.end)) return null
  const seqs = raw.shadowedSeqs
  if (!Array.isArray(seqs) || seqs.length === 0 || !seqs.every(Number.isSafeInteger)) return null
  const tombstoneSeq = raw.tombstoneSeq as number
  const start = range.start as number
  const end = range.end as number
  const shadowedSeqs = seqs as number[]
  if (start > end || shadowedSeqs[0] !== start || shadowedSeqs.at(-1) !== end || shadowedSeqs.some((seq) => seq >= tombstoneSeq)) return null
  return { action: raw.action, tombstoneSeq, range: { start, end }, shadowedSeqs: [...shadowedSeqs] }
}
