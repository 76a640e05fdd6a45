/**
 * Tombstones the route answered as durable that the session's live events have not brought yet.
 *
 * The route answers a removal only after the durability flush, and a `persisted: true` answer
 * names the tombstone it wrote: its seq, action, surface range and shadowed nodes (in its
 * `x-message-recall-tombstone` header, read when the response starts, and in its body). The rc.8
 * web host sends the live events of that write as six frames, the shadow price's
 * (`compaction/prune` after two `session/projection` frames) before the tombstone's own, and the
 * page handles each frame in a task of its own, so the answer's header often reaches the page
 * before the tombstone's frame is handled (when the disk's flush is quick).
 * Hiding on that answer keeps the rule that what is hidden follows from tombstones in the durable
 * log: the answer exists only once the tombstone is on disk, and the record built from it is the
 * event the live stream then brings (`shared/tombstone.ts` `tombstoneSource`, `shared/replace-op.ts`
 * `replaceOp`, `sourceEventSeqs` = every shadowed node, as `host/tombstone-append.ts` writes it), so
 * the fate reader (`shared/fate.ts`) reads the same fates before and after the live event.
 *
 * Only a single tombstone answered `persisted: true` is taken: never a refusal, a failed request,
 * an answer "applied, not yet saved" (`persisted: false` or `PERSIST_FAILED`), nor a summary
 * rewrite (its reply names a compaction checkpoint, not a tombstone). A record leaves as soon as
 * the replacement view holds an event of its seq.
 *
 * @module dsh-message-recall/client/rows/durable-tombstones
 */
import type { LogEvent } from '../../shared/events'
import type { DurableTombstoneFacts } from '../../shared/protocol'
import { replaceOp } from '../../shared/replace-op'
import { tombstoneSource } from '../../shared/tombstone'
import type { ReplacementSnapshot } from '../wire/replacement-view'

/**
 * The tombstone event a durable removal answer names, as the replacement view keeps it
 * (`wire/replacement-view.ts` `replacementRecord`: envelope, replace op, `sourceEventSeqs`,
 * `data.source`; the tombstone's empty content is not kept). `time` is the page's clock when the
 * answer came (the host's stamp is not in the answer; no hiding rule reads it).
 * @param facts - the tombstone's action, seq, range and shadowed nodes (`shared/durable-header.ts`).
 * @param now - `Date.now()` of the page.
 * @returns a new frozen record.
 */
export function durableTombstoneOf(facts: DurableTombstoneFacts, now: number): LogEvent {
  return Object.freeze({
    type: 'user/message',
    seq: facts.tombstoneSeq,
    time: now,
    data: Object.freeze({ source: tombstoneSource(facts.action, facts.shadowedSeqs) }),
    surfaceOp: replaceOp(facts.range.start, facts.range.end),
    sourceEventSeqs: Object.freeze([...facts.shadowedSeqs]),
  })
}

/** The durable tombstones of one session not yet in its replacement view. */
export class DurableTombstones {
  private pending: readonly LogEvent[] = []
  /** Seqs the view brought already: a later answer (the body after the header) is not held again. */
  private readonly seen = new Set<number>()
  private merged: { readonly view: ReplacementSnapshot; readonly pending: readonly LogEvent[]; readonly result: ReplacementSnapshot } | null = null

  /**
   * Hold the tombstone of a durable answer (the response header, or the body's value through
   * `shared/durable-header.ts` `durableFactsOf`) until the replacement view brings it.
   * @param facts - the tombstone's action, seq, range and shadowed nodes.
   * @param now - `Date.now()` of the page.
   * @returns true when it was not held yet (the caller runs a pass then).
   */
  add(facts: DurableTombstoneFacts, now: number = Date.now()): boolean {
    if (this.pending.some((e) => e.seq === facts.tombstoneSeq) || this.seen.has(facts.tombstoneSeq)) return false
    this.pending = Object.freeze([...this.pending, durableTombstoneOf(facts, now)])
    return true
  }

  /** How many answered tombstones the view has not brought yet. */
  get size(): number {
    return this.pending.length
  }

  /**
   * The replacement view with the held tombstones it lacks, in seq order. Records whose seq the
   * view holds are dropped for good (the live event came). The same inputs give the same array,
   * and with nothing held the view itself, so the sync pass's caches keyed on identity keep working.
   * @param view - the replacement view of the session.
   * @returns `view`, or a new frozen array of `view` and the held records, sorted by seq.
   */
  merge(view: ReplacementSnapshot): ReplacementSnapshot {
    if (this.pending.length === 0) return view
    const inView = new Set<number>()
    for (const event of view) inView.add(event.seq)
    const left = this.pending.filter((e) => !inView.has(e.seq))
    for (const e of this.pending) if (inView.has(e.seq)) this.seen.add(e.seq)
    if (left.length !== this.pending.length) this.pending = Object.freeze(left)
    if (left.length === 0) {
      this.merged = null
      return view
    }
    if (this.merged !== null && this.merged.view === view && this.merged.pending === this.pending) return this.merged.result
    const result: ReplacementSnapshot = Object.freeze([...view, ...this.pending].sort((a, b) => a.seq - b.seq))
    this.merged = { view, pending: this.pending, result }
    return result
  }
}
