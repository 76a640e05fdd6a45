/**
 * What a compaction summary still holds that the person removed: the order that leaked. A summary
 * is made from messages; a removal written after that, naming messages the summary had already
 * folded, takes them out of nothing the model reads, because the model reads the summary. This
 * plugin's own removals of folded messages rewrite the summary (`host/summary-rewrite.ts`), so such
 * a removal comes from a log written before the rewrite existed, or from a path that did not
 * rewrite: a tombstone of this plugin whose `sourceEventSeqs` cite, besides the node it replaces,
 * messages a compaction checkpoint had already shadowed (rc.8 records such a citation as
 * provenance: `dsh-session` `assertProvenance` lets a replacement cite earlier events it does not
 * shadow).
 *
 * The rule, per compaction checkpoint on the surface (a summary the model reads now):
 *
 * - its **content** is the original messages its summary was made from: the nodes its replace
 *   shadowed (a checkpoint's `sourceEventSeqs` are `[startSeq, summarySeq, ...shadowedSeqs]`,
 *   `dsh-compaction-basic` `commitCompactionBody`, so the shadowed nodes start at its range's
 *   `start`), read through every checkpoint among them (DSH's summarizer is told to keep a prior
 *   summary's facts, so a checkpoint it folded passes its content on), minus the removals the
 *   outermost summary rewrite of this plugin on the way recorded (`shared/summary-rewrite.ts`: a
 *   rewrite is made from the originals without them, and its record is cumulative for its range);
 * - a tombstone of this plugin **in effect** (`fate.ts`) that cites a message of that content
 *   removed it after the summary was written: the summary still holds it. Such a message cannot
 *   have been on the surface when the tombstone was written (each node is shadowed once, and the
 *   checkpoint shadowed it), so the order needs no timestamps;
 * - a later rewrite over the originals minus those messages (the route's `rewriteSummary`) records
 *   them, which clears the flag; so does any rewrite that leaves them out, and a DSH compaction
 *   over such a rewrite.
 *
 * Works on the replacement events alone (the browser's replacement view holds no plain message),
 * so the host, the Removed panel and the summary's row read the same answer. Pure and browser-safe.
 *
 * @module dsh-message-recall/shared/summary-flag
 */
import type { LogEvent } from './events'
import { readFates, type Fates } from './fate'
import { readReplaceOp } from './replace-op'
import { isCheckpointEvent, readRewriteCheckpoint, type FoldedRemoval } from './summary-rewrite'
import type { TombstoneAction } from './actions'

/** What one checkpoint's summary was made from. */
export interface SummaryContent {
  /** The original messages of its range, read through nested checkpoints, in order. */
  readonly originals: readonly number[]
  /** The removals the outermost summary rewrites on the way recorded (their messages are not in the summary). */
  readonly recorded: readonly FoldedRemoval[]
  /** `originals` minus `recorded`: the messages the summary holds. */
  readonly held: readonly number[]
}

/** One removal a summary was written before: the tombstone and the messages of the summary it names. */
export interface LeakedRemoval {
  readonly tombstoneSeq: number
  readonly action: TombstoneAction
  /** The messages of the summary's content it names, in log order. */
  readonly seqs: readonly number[]
}

/** A summary on the surface that still holds removed messages. */
export interface SummaryFlag {
  /** Seq of the checkpoint (the summary the model reads). */
  readonly checkpointSeq: number
  /** The removals it was written before, in tombstone order. */
  readonly removals: readonly LeakedRemoval[]
  /** Every message it still holds that a removal took, distinct, in log order; at least one. */
  readonly removedSeqs: readonly number[]
}

/**
 * The nodes a replacement shadowed, from its `sourceEventSeqs`: everything from its range's
 * `start` on (a checkpoint cites its bracket's events first).
 * @param event - a replacing event.
 * @returns the shadowed seqs, or every cited seq when `start` is not cited.
 */
function shadowedOf(event: LogEvent): readonly number[] {
  const cited = event.sourceEventSeqs ?? []
  const range = readReplaceOp(event.surfaceOp)
  const at = range === null ? -1 : cited.indexOf(range.start)
  return at === -1 ? cited : cited.slice(at)
}

/**
 * What a checkpoint's summary was made from (see the module rules).
 * @param checkpointSeq - a compaction checkpoint's seq.
 * @param lookup - a replacement event by seq (plain messages may be missing: they count as originals).
 * @returns its content; empty when the seq is not a checkpoint.
 */
export function summaryContent(checkpointSeq: number, lookup: (seq: number) => LogEvent | undefined): SummaryContent {
  const originals: number[] = []
  const recorded: FoldedRemoval[] = []
  const visit = (event: LogEvent, underRewrite: boolean, depth: number): void => {
    const record = underRewrite ? null : readRewriteCheckpoint(event)
    if (record !== null) recorded.push(...record.removals)
    for (const seq of shadowedOf(event)) {
      const node = lookup(seq)
      // The bound only guards a malformed log (rc.8 shadows each node once, so nesting ends).
      if (node !== undefined && isCheckpointEvent(node) && depth < 64) visit(node, underRewrite || record !== null, depth + 1)
      else originals.push(seq)
    }
  }
  const checkpoint = lookup(checkpointSeq)
  if (checkpoint !== undefined && isCheckpointEvent(checkpoint)) visit(checkpoint, false, 0)
  const gone = new Set(recorded.flatMap((r) => r.seqs))
  return { originals, recorded, held: originals.filter((seq) => !gone.has(seq)) }
}

/**
 * The summaries on the surface that were written before a removal of messages they hold.
 * @param replacements - the session's events, or any subset holding all its replacements, in any order.
 * @param fates - the fate reader of the same events, when the caller has one.
 * @returns one flag per checkpoint on the surface that still holds removed messages, in checkpoint
 *   order; empty when none does.
 */
export function summaryFlags(replacements: readonly LogEvent[], fates: Fates = readFates(replacements)): SummaryFlag[] {
  const bySeq = new Map<number, LogEvent>()
  for (const event of replacements) if (readReplaceOp(event.surfaceOp) !== null) bySeq.set(event.seq, event)
  if (fates.tombstones.length === 0) return []
  const lookup = (seq: number) => bySeq.get(seq)
  const inEffect = fates.tombstones.filter((t) => fates.statusOf(t.seq)?.inEffect === true)
  const flags: SummaryFlag[] = []
  for (const event of [...bySeq.values()].sort((a, b) => a.seq - b.seq)) {
    if (!isCheckpointEvent(event) || fates.shadowerOf(event.seq) !== null) continue
    const held = new Set(summaryContent(event.seq, lookup).held)
    const removals: LeakedRemoval[] = []
    for (const tombstone of inEffect) {
      const seqs = [...new Set(tombstone.shadowedSeqs.filter((seq) => held.has(seq) && fates.tombstone(seq) === undefined))].sort((a, b) => a - b)
      if (seqs.length > 0) removals.push({ tombstoneSeq: tombstone.seq, action: tombstone.action, seqs })
    }
    if (removals.length === 0) continue
    const removedSeqs = [...new Set(removals.flatMap((r) => r.seqs))].sort((a, b) => a - b)
    flags.push({ checkpointSeq: event.seq, removals, removedSeqs })
  }
  return flags
}

/**
 * The removals a rewrite of a flagged summary records: each leaked message once, under the first
 * tombstone that named it.
 * @param flag - the summary's flag.
 * @returns the removals to add to the checkpoint's record.
 */
export function flaggedRemovals(flag: SummaryFlag): FoldedRemoval[] {
  const taken = new Set<number>()
  const out: FoldedRemoval[] = []
  for (const removal of flag.removals) {
    const seqs = removal.seqs.filter((seq) => !taken.has(seq))
    for (const seq of seqs) taken.add(seq)
    if (seqs.length > 0) out.push({ action: removal.action, seqs })
  }
  return out
}
