/**
 * The `expect` checks of a write or plan: refuse with `STALE_VIEW` when the surface changed since
 * the client's view in a way the client did not see, or when a confirmed write would no longer
 * write what was confirmed.
 *
 * - This plugin's own writes after the view's `lastSeq` (tombstones and restores, e.g. a removal
 *   sent a moment earlier from another tab) do not make the view stale: they are counted out of
 *   the generation and their nodes are not "newer" nodes, so two quick deletes both land. A write
 *   they conflict with still fails, as `TARGET_NOT_FOUND` when its target is gone, or `STALE_VIEW`
 *   when anything else (a turn, a compaction, another plugin) moved the surface.
 * - A confirmed write (`expect.removedCount`, the count its plan showed) writes exactly what was
 *   confirmed: it is refused when its count does not match its own plan, when it would now remove
 *   more messages than confirmed, or a message a restore put back after the view (a Restore inside
 *   a planned Delete onward range). Fewer is accepted only when this plugin's own writes after
 *   `expect.lastSeq` took some of them (another tab removed them a moment earlier): a tombstone of
 *   this plugin after `expect.lastSeq` lies in the write's range (the write takes it in), so what
 *   the write and the earlier write remove together is what was confirmed. A restore, or a
 *   tombstone outside the range, after `expect.lastSeq` lets no smaller count pass.
 *
 * @module dsh-message-recall/host/view-expectation
 */
import type { ViewExpectation } from '../shared/protocol'
import { readReplaceOp } from '../shared/replace-op'
import { readRestore } from '../shared/restore'
import { isTombstoneEvent } from '../shared/tombstone'
import type { StaleViewRefusal } from './refusals'
import type { SessionView } from './session-view'
import type { EventLookup } from './surface-plan'

/** What the checks read of a view. */
export type ExpectationView = Pick<SessionView, 'nodes' | 'replaceGeneration' | 'lastSeq' | 'lookup'>

/**
 * Check a client's `expect` against a view, before planning.
 * @param view - the view the write or plan is made on.
 * @param expect - the client's view, or `undefined` (nothing to check).
 * @returns the `STALE_VIEW` refusal, or `null` when the view matches. Without `expect.lastSeq`
 *   the generation is compared exactly (no own writes can be told apart).
 */
export function checkExpectation(view: ExpectationView, expect: ViewExpectation | undefined): StaleViewRefusal | null {
  if (expect === undefined) return null
  const own = expect.lastSeq === undefined ? new Set<number>() : ownReplacementsAfter(expect.lastSeq, view.lastSeq, view.lookup)
  const stale = (newerSeq: number | null): StaleViewRefusal => ({ code: 'STALE_VIEW', expected: expect, replaceGeneration: view.replaceGeneration, ownReplacements: own.size, newerSeq })
  if (expect.replaceGeneration !== undefined && expect.replaceGeneration !== view.replaceGeneration - own.size) return stale(null)
  if (expect.lastSeq !== undefined) {
    const lastSeq = expect.lastSeq
    const newer = view.nodes.find((seq) => seq > lastSeq && !own.has(seq))
    if (newer !== undefined) return stale(newer)
  }
  return null
}

/**
 * Check a confirmed write's plan against what was confirmed, after planning.
 * @param view - the view the write planned on.
 * @param expect - the client's view; nothing is checked without `expect.removedCount`.
 * @param removedSeqs - the messages the write would remove now (seqs of the current log).
 * @param takenSeqs - every surface node the write's ranges shadow now, this plugin's tombstones
 *   they take in included (seqs of the current log, any order); empty for a write with no range on
 *   the surface (a folded removal's summary rewrite).
 * @returns the `STALE_VIEW` refusal naming what changed, or `null` when the write removes exactly
 *   what was confirmed (fewer only when a tombstone of this plugin after `expect.lastSeq` is among
 *   `takenSeqs`: another tab removed some of the confirmed messages first) and nothing that came
 *   back after `expect.lastSeq`. The refusal's `changed.surfaceChanged` is
 *   true only when this plugin's own replacements follow `expect.lastSeq` (the other surface
 *   changes were refused before planning); a count that never matched the plan (none after
 *   `lastSeq`, or no `lastSeq`) leaves it false.
 */
export function checkConfirmed(view: ExpectationView, expect: ViewExpectation | undefined, removedSeqs: readonly number[], takenSeqs: readonly number[]): StaleViewRefusal | null {
  const confirmed = expect?.removedCount
  if (expect === undefined || confirmed === undefined) return null
  const lastSeq = expect.lastSeq
  const cameBackSeqs = lastSeq === undefined ? [] : removedSeqs.filter((seq) => seq > lastSeq)
  if (removedSeqs.length === confirmed && cameBackSeqs.length === 0) return null
  const ownSeqs = lastSeq === undefined ? new Set<number>() : ownReplacementsAfter(lastSeq, view.lastSeq, view.lookup)
  const own = ownSeqs.size
  const surfaceChanged = own > 0
  // Another tab's removal took some of the confirmed messages: its tombstone is in this write's range.
  const tookSome = surfaceChanged && takenSeqs.some((seq) => ownSeqs.has(seq) && isTombstoneEvent(view.lookup(seq)!))
  if (removedSeqs.length < confirmed && tookSome && cameBackSeqs.length === 0) return null
  return {
    code: 'STALE_VIEW', expected: expect, replaceGeneration: view.replaceGeneration, ownReplacements: own, newerSeq: null,
    changed: { removedCount: removedSeqs.length, cameBackSeqs, surfaceChanged },
  }
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
