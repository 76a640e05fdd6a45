/**
 * Whether each tombstone of this plugin is still in effect, read from a whole log in one pass:
 * which replacement shadowed which node, which restores undid which tombstone. Pure and
 * browser-safe; the host's `inspect`, the client's removed-messages panel and the log tools read
 * the same answer from the same events.
 *
 * @module dsh-message-recall/shared/removal-status
 */
import type { LogEvent } from './events'
import { readReplaceOp } from './replace-op'
import { readRestore } from './restore'
import { isTombstoneEvent } from './tombstone'

/** The status of one tombstone. */
export interface RemovalStatus {
  /** Seq of the tombstone. */
  readonly seq: number
  /** Seq of the replacement that shadowed the tombstone (a later tombstone, a restore, a compaction), or `null` while it is on the surface. */
  readonly shadowedBy: number | null
  /** Seq of the restoring copy that undid it, or `null`. */
  readonly restoredBy: number | null
  /**
   * False once a restore undid the tombstone, or undid the later tombstone of this plugin that
   * absorbed it; true otherwise (on the surface, absorbed by a later tombstone in effect, or
   * folded by a compaction, which keeps the removed messages out of the model's view).
   */
  readonly inEffect: boolean
}

/**
 * Statuses of every tombstone of this plugin in a log.
 * @param count - number of events (seqs `0 … count - 1`).
 * @param lookup - one event by seq.
 * @returns one status per tombstone, keyed by tombstone seq, in seq order.
 */
export function removalStatuses(count: number, lookup: (seq: number) => LogEvent | undefined): Map<number, RemovalStatus> {
  const shadowedBy = new Map<number, number>()
  const restoredBy = new Map<number, number>()
  const tombstones: number[] = []
  for (let seq = 0; seq < count; seq++) {
    const event = lookup(seq)
    if (event === undefined || readReplaceOp(event.surfaceOp) === null) continue
    // The first replacement that cites a node shadowed it; later citations (a restore citing P) are provenance.
    for (const cited of event.sourceEventSeqs ?? []) if (!shadowedBy.has(cited)) shadowedBy.set(cited, seq)
    if (isTombstoneEvent(event)) tombstones.push(seq)
    else {
      const restore = readRestore(event, lookup)
      if (restore !== null) restoredBy.set(restore.tombstoneSeq, restore.seq)
    }
  }
  const statuses = new Map<number, RemovalStatus>()
  const inEffect = (seq: number): boolean => {
    if (restoredBy.has(seq)) return false
    const by = shadowedBy.get(seq)
    const known = by === undefined ? undefined : statuses.get(by)
    return known === undefined ? true : known.inEffect
  }
  // Later tombstones first, so an absorbed tombstone reads the status of the one that absorbed it.
  for (let i = tombstones.length - 1; i >= 0; i--) {
    const seq = tombstones[i] as number
    statuses.set(seq, { seq, shadowedBy: shadowedBy.get(seq) ?? null, restoredBy: restoredBy.get(seq) ?? null, inEffect: inEffect(seq) })
  }
  return new Map([...statuses].sort((a, b) => a[0] - b[0]))
}
