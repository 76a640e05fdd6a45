/**
 * Identity of a summary rewrite: a compaction this plugin writes with DSH's own events to take
 * messages out of a compaction summary that already folded them. Shared by the host writer, the
 * one fate reader (`fate.ts`) and the browser client, so all three read the same record.
 *
 * A folded message is not on the surface, so no tombstone can shadow it. Its removal is recorded
 * on the new checkpoint instead: the checkpoint is an ordinary rc.8 compaction checkpoint (a
 * replacing `user/message` whose `source` is `dsh-compaction` `compactCheckpointSource`:
 * `{ kind: 'plugin', plugin: 'compact', compactionId }`, which `@deepseek-ai/dsh-compaction/invariant`
 * checks), and its `source` carries one more key, `messageRecall`, which the invariant does not
 * read:
 *
 * ```
 * source.messageRecall = { removals: [{ action, seqs }, …] }
 * ```
 *
 * `removals` is cumulative: every folded message this plugin removed from the compacted range the
 * checkpoint stands for, with the action that removed it (`recall`, `delete` or `exclude`), the
 * earlier rewrites' included. So the last rewrite on a message's chain of replacements decides its
 * fate, and a rewrite that leaves a message out of `removals` puts it back into the summary (the
 * Undo of a rewrite).
 *
 * Pure and browser-safe.
 *
 * @module dsh-message-recall/shared/summary-rewrite
 */
import { isRecord, isSeq, type LogEvent } from './events'
import { readReplaceOp } from './replace-op'
import { isTombstoneAction, type TombstoneAction } from './actions'

/** `source.plugin` of a compaction checkpoint (`dsh-compaction` `compactCheckpointSource`). */
export const CHECKPOINT_PLUGIN = 'compact'

/** One removal recorded on a rewritten checkpoint: the folded messages one action took, by seq. */
export interface FoldedRemoval {
  readonly action: TombstoneAction
  /** Seqs of the original (folded) messages, in log order. */
  readonly seqs: readonly number[]
}

/** `source.messageRecall` of a rewritten checkpoint. */
export interface SummaryRewriteRecord {
  /** Every folded message removed from the range the checkpoint stands for, cumulative. */
  readonly removals: readonly FoldedRemoval[]
}

/** A rewritten checkpoint as read back from a log. */
export interface RewriteCheckpoint extends SummaryRewriteRecord {
  /** Seq of the checkpoint event. */
  readonly seq: number
  /** The compaction id its source carries. */
  readonly compactionId: string
}

/**
 * The `source` of a rewritten checkpoint.
 * @param compactionId - the new compaction's id (`compaction/start`'s).
 * @param record - the cumulative removals.
 * @returns `{ kind: 'plugin', plugin: 'compact', compactionId, messageRecall }`, fresh arrays.
 */
export function rewriteCheckpointSource(compactionId: string, record: SummaryRewriteRecord): {
  readonly kind: 'plugin'
  readonly plugin: typeof CHECKPOINT_PLUGIN
  readonly compactionId: string
  readonly messageRecall: SummaryRewriteRecord
} {
  return {
    kind: 'plugin', plugin: CHECKPOINT_PLUGIN, compactionId,
    messageRecall: { removals: record.removals.map((r) => ({ action: r.action, seqs: [...r.seqs] })) },
  }
}

/**
 * Whether an event is a compaction checkpoint (any backend's, or this plugin's rewrite).
 * @param event - any session event.
 * @returns true for a replacing `user/message` whose source is `compact`.
 */
export function isCheckpointEvent(event: LogEvent): boolean {
  if (event.type !== 'user/message' || readReplaceOp(event.surfaceOp) === null || !isRecord(event.data)) return false
  const source = event.data.source
  return isRecord(source) && source.kind === 'plugin' && source.plugin === CHECKPOINT_PLUGIN
}

/**
 * Read a rewritten checkpoint back.
 * @param event - any session event.
 * @returns the record, or `null` for anything else (a checkpoint DSH wrote, a malformed record).
 */
export function readRewriteCheckpoint(event: LogEvent): RewriteCheckpoint | null {
  if (!isCheckpointEvent(event)) return null
  const source = (event.data as { source: Record<string, unknown> }).source
  const record = source.messageRecall
  if (!isRecord(record) || !Array.isArray(record.removals) || typeof source.compactionId !== 'string') return null
  const removals: FoldedRemoval[] = []
  for (const entry of record.removals) {
    if (!isRecord(entry) || !isTombstoneAction(entry.action) || !Array.isArray(entry.seqs) || !entry.seqs.every(isSeq)) return null
    removals.push({ action: entry.action, seqs: [...(entry.seqs as number[])] })
  }
  return { seq: event.seq, compactionId: source.compactionId, removals }
}

/**
 * The removal that names a folded message in a record.
 * @param record - a rewrite record.
 * @param seq - the folded message's seq.
 * @returns the removal, or `undefined` when the record keeps the message in the summary.
 */
export function removalOf(record: SummaryRewriteRecord, seq: number): FoldedRemoval | undefined {
  return record.removals.find((r) => r.seqs.includes(seq))
}

/** The originals of a checkpoint and the removals earlier rewrites recorded over them. */
export interface CheckpointOriginals {
  /** The original message seqs, in order. */
  readonly seqs: readonly number[]
  /** The removals in effect among them: each outermost rewrite's record (it is cumulative for its range). */
  readonly removals: readonly FoldedRemoval[]
}

/**
 * The summary a compaction checkpoint carries: the `summary` blocks of the `compaction/summary`
 * event its `sourceEventSeqs[1]` names (`dsh-compaction-basic` `commitCompactionBody`), as logged.
 * @param checkpoint - a compaction checkpoint (or a summary rewrite of this plugin).
 * @param lookup - one event by seq.
 * @returns the blocks, unchecked (text blocks in every log this plugin or DSH wrote), or `null`
 *   when the checkpoint cites no `compaction/summary` with a `summary` array.
 */
export function summaryBlocksOf(checkpoint: LogEvent, lookup: (seq: number) => LogEvent | undefined): readonly unknown[] | null {
  const summarySeq = checkpoint.sourceEventSeqs?.[1]
  const event = summarySeq === undefined ? undefined : lookup(summarySeq)
  return event?.type === 'compaction/summary' && isRecord(event.data) && Array.isArray(event.data.summary) ? event.data.summary : null
}

/**
 * The originals of a checkpoint: the messages of its compacted range, read back through every
 * compaction in between (a checkpoint's `sourceEventSeqs` are `[startSeq, summarySeq,
 * ...shadowedSeqs]`, `dsh-compaction-basic` `commitCompactionBody`; a shadowed checkpoint is
 * replaced by its own originals; any other shadowed node, a tombstone among them, is kept as it
 * was summarized), with the removals the outermost summary rewrites in its range recorded (a
 * rewrite's record covers its whole range, so records of rewrites inside it are not read).
 * @param checkpointSeq - a compaction checkpoint's seq.
 * @param lookup - one event by seq.
 * @returns the originals and the removals; a seq without an event is skipped.
 */
export function originalsOf(checkpointSeq: number, lookup: (seq: number) => LogEvent | undefined): CheckpointOriginals {
  const seqs: number[] = []
  const removals: FoldedRemoval[] = []
  const visit = (seq: number, depth: number, underRewrite: boolean): void => {
    const event = lookup(seq)
    if (event === undefined) return
    if (depth > 0 && !isCheckpointEvent(event)) {
      seqs.push(seq)
      return
    }
    const record = underRewrite ? null : readRewriteCheckpoint(event)
    if (record !== null) removals.push(...record.removals)
    for (const cited of event.sourceEventSeqs ?? []) {
      const source = lookup(cited)
      // The bracket's own events (`compaction/start`, `compaction/summary`) are provenance, not nodes.
      if (source === undefined || source.type.startsWith('compaction/')) continue
      visit(cited, depth + 1, underRewrite || record !== null)
    }
  }
  visit(checkpointSeq, 0, false)
  return { seqs, removals }
}
