/**
 * Batches in the log: every tombstone an `apply` of two or more writes appends carries a batch
 * mark in its `source` (`source.batch`), and the batch's first tombstone also lists the batch's
 * changes. From the log alone this tells a batch that was cut short: on DSH 0.1.0-rc.8 a power
 * loss in the middle of writing a batch larger than one zstd block (128 KiB of log text) leaves
 * the tombstones of its complete blocks, a prefix of the batch, which DSH's loader keeps
 * (`dsh-session-persistence-jsonl`, `readZstdPrefix`). A restore's copy is an exact copy of the
 * removed message and carries no mark: a restore of a batch counts as written when a restore of
 * its tombstone follows the batch's first tombstone.
 *
 * A copy's seed (`SessionStore.create` with a seed: the plugin's `forkBefore`, DSH's Branch and
 * subagent fork) is its source's events `0 … seedLength - 1`. A `forkBefore` of a batch's later
 * tombstone cuts the seed inside the batch, on purpose: the copy holds a prefix of the batch's
 * writes and, right after the last of them, at most the shadow price of the next one (the writer
 * appends each write's `compaction/prune` price just before it). Such a batch was not torn and is
 * not reported; a torn batch in the source is followed by the next start's `session/end-seed`,
 * so a copy whose seed holds that start reports it as the source does. DSH's own copies cut
 * between turns (Branch at the next `turn/start`, subagent fork after the last `turn/end`), so
 * they never end inside a batch, which is written between turns in one synchronous block.
 *
 * Browser-safe; shared by the host (`inspect`), the client and the log tools.
 *
 * @module dsh-message-recall/shared/batch-mark
 */
import { isRecord, type LogEvent } from './events'
import { readReplaceOp } from './replace-op'
import { readRestore } from './restore'
import { isTombstoneEvent } from './tombstone'

/** One change of a batch as its first tombstone lists it: the request's change and the write that carries it. */
export type BatchChangeMark =
  | { readonly action: 'delete' | 'deleteFrom' | 'exclude'; readonly seq: number; readonly write: number }
  | { readonly action: 'restore'; readonly tombstoneSeq: number; readonly write: number }

/** `source.batch` of a tombstone written by a batch of two or more writes. */
export interface BatchMark {
  /** The batch's id (a UUID), the same on each of its tombstones. */
  readonly id: string
  /** Position of this tombstone among the batch's writes (tombstones and restores), from 0. */
  readonly write: number
  /** How many writes the batch makes. */
  readonly writes: number
  /** On the batch's first tombstone only: every change of the batch, in request order. */
  readonly changes?: readonly BatchChangeMark[]
}

/** A batch of which the log holds only some writes. */
export interface CutShortBatch {
  readonly id: string
  /** Seq of the batch's first tombstone in the log. */
  readonly firstSeq: number
  /** Writes the batch makes. */
  readonly writes: number
  /** Writes the log holds. */
  readonly written: number
  /** Changes the batch held (its list's length); `null` when the log lacks the tombstone that lists them. */
  readonly changes: number | null
  /**
   * The changes whose writes the log lacks, with their position in the batch's list (`index`), in
   * list order; `null` when the log lacks the batch's first tombstone (which lists them).
   */
  readonly missing: readonly (BatchChangeMark & { readonly index: number })[] | null
}

const isSeq = (value: unknown): value is number => typeof value === 'number' && Number.isSafeInteger(value) && value >= 0

/**
 * The batch mark of a tombstone.
 * @param event - any session event.
 * @returns the mark of a tombstone of this plugin written by a batch, else `null` (also for a
 * malformed mark).
 */
export function readBatchMark(event: LogEvent): BatchMark | null {
  if (!isTombstoneEvent(event)) return null
  const mark = ((event.data as { source: Record<string, unknown> }).source).batch
  if (!isRecord(mark) || typeof mark.id !== 'string' || !isSeq(mark.write) || !isSeq(mark.writes) || mark.write >= mark.writes) return null
  const changes = Array.isArray(mark.changes) ? (mark.changes as BatchChangeMark[]) : undefined
  return { id: mark.id, write: mark.write, writes: mark.writes, ...(changes === undefined ? {} : { changes }) }
}

/** A price the writer appends right before a replace (`host/shadow-price.ts`): log-only `compaction/prune` with a `shadowedRange`. */
function isShadowPrice(event: LogEvent | undefined): boolean {
  return event !== undefined && event.type === 'compaction/prune' && readReplaceOp(event.surfaceOp) === null && isRecord(event.data) && isRecord(event.data.shadowedRange)
}

/**
 * True when a copy's seed ends inside the batch: its last write in the log is the seed's last
 * event, or only the next write's shadow price follows it there.
 */
function cutBySeed(lastWrittenSeq: number, seedLength: number | undefined, lookup: (seq: number) => LogEvent | undefined): boolean {
  if (seedLength === undefined || lastWrittenSeq >= seedLength) return false
  for (let seq = lastWrittenSeq + 1; seq < seedLength; seq++) if (!isShadowPrice(lookup(seq))) return false
  return true
}

/**
 * Every batch of which the log holds only some writes, in log order.
 * @param count - the number of events in the log.
 * @param lookup - one event by seq, for seqs `0 … count - 1`.
 * @param seedLength - the header's `seedLength` of a copy (its seed is the source's events
 *   `0 … seedLength - 1`); a batch the seed ends inside is left out (a deliberate cut, not a torn
 *   write). `undefined` for a session that is no copy, or when the caller cannot read its header.
 * @returns the batches cut short; `[]` when every batch in the log is whole.
 */
export function cutShortBatches(count: number, lookup: (seq: number) => LogEvent | undefined, seedLength?: number): CutShortBatch[] {
  interface Seen { firstSeq: number; lastSeq: number; writes: number; written: Set<number>; changes: readonly BatchChangeMark[] | null }
  const batches = new Map<string, Seen>()
  /** Tombstone seq → seq of the first restore of it. */
  const restoredAt = new Map<number, number>()
  for (let seq = 0; seq < count; seq++) {
    const event = lookup(seq)
    if (event === undefined) continue
    const mark = readBatchMark(event)
    if (mark !== null) {
      const seen = batches.get(mark.id) ?? { firstSeq: seq, lastSeq: seq, writes: mark.writes, written: new Set<number>(), changes: null }
      seen.written.add(mark.write)
      seen.lastSeq = seq
      if (mark.changes !== undefined) seen.changes = mark.changes
      batches.set(mark.id, seen)
      continue
    }
    const restore = readRestore(event, lookup)
    if (restore !== null && !restoredAt.has(restore.tombstoneSeq)) restoredAt.set(restore.tombstoneSeq, seq)
  }
  const cut: CutShortBatch[] = []
  for (const [id, seen] of batches) {
    for (const change of seen.changes ?? []) {
      const at = change.action === 'restore' ? restoredAt.get(change.tombstoneSeq) ?? -1 : -1
      if (at > seen.firstSeq) {
        seen.written.add(change.write)
        seen.lastSeq = Math.max(seen.lastSeq, at)
      }
    }
    if (seen.written.size >= seen.writes || cutBySeed(seen.lastSeq, seedLength, lookup)) continue
    const missing = seen.changes === null ? null : seen.changes.flatMap((change, index) => (seen.written.has(change.write) ? [] : [{ ...change, index }]))
    cut.push({ id, firstSeq: seen.firstSeq, writes: seen.writes, written: seen.written.size, changes: seen.changes?.length ?? null, missing })
  }
  return cut
}
