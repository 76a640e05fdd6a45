/**
 * Identity of this plugin's restores, shared by the host writer, the browser client and the log
 * tools. A restore undoes one tombstone in place: a `user/message` whose `data` is an exact copy
 * of the removed message (same id, content and `source`), with `surfaceOp` replacing exactly the
 * tombstone (`{ op: 'replace', start: T, end: T }`) and `sourceEventSeqs` `[T, P]` (T = the
 * tombstone's seq, P = the removed message's seq). No new event type and no marker in `data`:
 * a restore's `source` stays the original message's, so releases that predate restores read the
 * copy as the person's message it is. The plugin recognises its own restores by the tombstone seq
 * in `sourceEventSeqs`.
 *
 * @module dsh-message-recall/shared/restore
 */
import type { LogEvent } from './events'
import { readReplaceOp } from './replace-op'
import { isTombstoneEvent } from './tombstone'

/** A restore as read back from a log. */
export interface RestoreRecord {
  /** Seq of the restoring copy (the new surface node). */
  readonly seq: number
  /** Seq of the tombstone it undoes (shadowed by the copy). */
  readonly tombstoneSeq: number
  /** Seq of the removed message the copy was made from. */
  readonly originalSeq: number
}

/**
 * Read a restore back from its event.
 * @param event - any session event.
 * @param lookup - one event by seq over the same log (only the tombstone's seq is read).
 * @returns the record when `event` is a replacing `user/message` over exactly one tombstone `T`
 * of this plugin with `sourceEventSeqs` `[T, P]` and `P` among the tombstone's shadowed seqs;
 * otherwise `null`.
 */
export function readRestore(event: LogEvent, lookup: (seq: number) => LogEvent | undefined): RestoreRecord | null {
  if (event.type !== 'user/message') return null
  const range = readReplaceOp(event.surfaceOp)
  if (range === null || range.start !== range.end) return null
  const cited = event.sourceEventSeqs
  if (cited === undefined || cited.length !== 2 || cited[0] !== range.start) return null
  const tombstone = lookup(range.start)
  if (tombstone === undefined || tombstone.seq !== range.start || !isTombstoneEvent(tombstone)) return null
  const originalSeq = cited[1] as number
  if (!(tombstone.sourceEventSeqs ?? []).includes(originalSeq)) return null
  return { seq: event.seq, tombstoneSeq: range.start, originalSeq }
}
