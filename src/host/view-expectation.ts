/**
 * The `expect` check of a write: refuse with `STALE_VIEW` when the surface changed since the
 * client's view in a way the client did not see. This plugin's own writes after the view's
 * `lastSeq` (tombstones and restores, e.g. a removal sent a moment earlier from another tab) are
 * not such a change: they are counted out of the generation and their nodes are not "newer"
 * nodes. A write they do conflict with still fails, as `TARGET_NOT_FOUND` when its target is
 * gone, or `STALE_VIEW` when anything else (a turn, a compaction, another plugin) moved the
 * surface.
 *
 * @module dsh-message-recall/host/view-expectation
 */
import type { ViewExpectation } from '../shared/protocol'
import { readReplaceOp } from '../shared/replace-op'
import { readRestore } from '../shared/restore'
import type { EventLookup } from './surface-plan'
import { isTombstoneEvent } from '../shared/tombstone'
import type { StaleViewRefusal } from './refusals'

/** A surface snapshot that stays put while the live surface moves. */
export interface StableView {
  readonly nodes: readonly number[]
  readonly replaceGeneration: number
  /** Seq of the last event of the log. */
  readonly lastSeq: number
}

/**
 * Check a client's `expect` against a view.
 * @param view - the stable view the write plans against.
 * @param expect - the client's view, or `undefined` (nothing to check).
 * @param lookup - one event by seq; when given, this plugin's writes after `expect.lastSeq` are
 * discounted (see the module docs). Without it, or without `expect.lastSeq`, the check is exact.
 * @returns the `STALE_VIEW` refusal, or `null` when the view matches.
 */
export function checkExpectation(view: StableView, expect: ViewExpectation | undefined, lookup?: EventLookup): StaleViewRefusal | null {
  if (expect === undefined) return null
  const stale = (newerSeq: number | null): StaleViewRefusal => ({ code: 'STALE_VIEW', expected: expect, replaceGeneration: view.replaceGeneration, newerSeq })
  const own = lookup === undefined || expect.lastSeq === undefined ? new Set<number>() : ownReplacementsAfter(expect.lastSeq, view.lastSeq, lookup)
  if (expect.replaceGeneration !== undefined && expect.replaceGeneration !== view.replaceGeneration - own.size) return stale(null)
  if (expect.lastSeq !== undefined) {
    const lastSeq = expect.lastSeq
    const newer = view.nodes.find((seq) => seq > lastSeq && !own.has(seq))
    if (newer !== undefined) return stale(newer)
  }
  return null
}

/** Seqs of this plugin's replacements (tombstones and restores) in `(afterSeq, lastSeq]`. */
function ownReplacementsAfter(afterSeq: number, lastSeq: number, lookup: EventLookup): Set<number> {
  const own = new Set<number>()
  for (let seq = Math.max(0, afterSeq + 1); seq <= lastSeq; seq++) {
    const event = lookup(seq)
    if (event === undefined || readReplaceOp(event.surfaceOp) === null) continue
    if (isTombstoneEvent(event) || readRestore(event, lookup) !== null) own.add(seq)
  }
  return own
}
