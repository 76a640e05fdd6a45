/**
 * The plugin's HTTP contract as a client sends and reads it, for the property test and the
 * benchmarks that drive the route wire-level: request bodies and the fields read back from a
 * reply. Every wire field name the tests and benches use is spelled here once, so a renamed field
 * is one edit.
 *
 * @module test/support/recall-wire
 */

/** A removal action of the route (`exclude` included). */
export type RemovalActionName = 'recall' | 'delete' | 'deleteFrom' | 'exclude'

/** One change of an `apply` or batch `plan`. */
export type WireChange =
  | { readonly action: 'delete' | 'deleteFrom' | 'exclude'; readonly seq: number }
  | { readonly action: 'restore'; readonly tombstoneSeq: number }

/** Body of `recall`, `delete`, `deleteFrom` or `exclude` of the surface node `seq`. */
export function removalBody(sessionId: string, action: RemovalActionName, seq: number): Record<string, unknown> {
  return { sessionId, action, seq }
}

/** Body of a single `plan` of `planAction` on `seq`. */
export function planBody(sessionId: string, planAction: RemovalActionName, seq: number): Record<string, unknown> {
  return { sessionId, action: 'plan', planAction, seq }
}

/** Body of `restore` of the tombstone at `tombstoneSeq`. */
export function restoreBody(sessionId: string, tombstoneSeq: number): Record<string, unknown> {
  return { sessionId, action: 'restore', tombstoneSeq }
}

/** Body of `forkBefore` the tombstone at `tombstoneSeq`. */
export function forkBody(sessionId: string, tombstoneSeq: number): Record<string, unknown> {
  return { sessionId, action: 'forkBefore', tombstoneSeq }
}

/** Body of `apply` or a batch `plan` of `changes`. */
export function batchBody(sessionId: string, action: 'apply' | 'plan', changes: readonly WireChange[]): Record<string, unknown> {
  return { sessionId, action, changes }
}

/** Body of `flush` or `inspect`. */
export function sessionBody(sessionId: string, action: 'flush' | 'inspect'): Record<string, unknown> {
  return { sessionId, action }
}

/** What a removal's success value says: the tombstone's seq and every surface seq it shadows. */
export function removalOf(value: any): { tombstoneSeq: number; shadowed: number[]; text?: string } {
  return { tombstoneSeq: value.tombstoneSeq, shadowed: value.shadowedSeqs, ...(typeof value.text === 'string' ? { text: value.text } : {}) }
}

/** What a restore's success value says. */
export function restoreOf(value: any): { tombstoneSeq: number; restoredSeq: number; messageId: string; originalSeq: number } {
  return { tombstoneSeq: value.tombstoneSeq, restoredSeq: value.restoredSeq, messageId: value.messageId, originalSeq: value.originalSeq }
}

/** What a `forkBefore`'s success value says. */
export function forkOf(value: any): { copyId: string; boundarySeq: number } {
  return { copyId: value.forkedSessionId, boundarySeq: value.boundarySeq }
}

/** One result per change of an `apply`'s success value. */
export function applyResultsOf(value: any): { index: number; action: string; tombstoneSeq: number; restoredSeq?: number; shadowed?: number[] }[] {
  return (value.results as any[]).map((r) => ({
    index: r.index, action: r.action, tombstoneSeq: r.tombstoneSeq,
    ...(r.restoredSeq === undefined ? {} : { restoredSeq: r.restoredSeq }),
    ...(r.shadowedSeqs === undefined ? {} : { shadowed: r.shadowedSeqs }),
  }))
}

/** The tombstone seqs an `inspect` reply lists for its live and stored sides. */
export function inspectedTombstones(value: any): { live: number[] | null; disk: number[] | null } {
  const seqs = (side: any) => (side === null ? null : (side.tombstones as any[]).map((t) => t.seq))
  return { live: seqs(value.live), disk: seqs(value.disk) }
}
