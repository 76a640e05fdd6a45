/**
 * Appends a planned batch ({@link planBatch}) to a session, synchronously and in plan order:
 * each tombstone through `appendTombstone`, each restore through `appendRestore` (the copy of the
 * removed message replacing its tombstone). With write effects, every replace of the batch carries
 * its own shadow price right before it (when a token meter is loaded), and the session title
 * follows the batch once at its end, as it would follow the same changes done one by one. Seqs the plan made up for the batch's own
 * events are mapped to the real seqs as they are appended. A batch of two or more writes marks
 * each of its tombstones (`batch-mark.ts`). No flush: the caller flushes once.
 *
 * @module dsh-message-recall/host/batch-writer
 */
import { randomUUID } from 'node:crypto'
import type { Session } from '@deepseek-ai/dsh-session'
import type { BatchChangeMark, BatchMark } from '../shared/batch-mark'
import type { LogEvent } from '../shared/events'
import type { ApplyChangeResult } from '../shared/protocol'
import type { BatchChange, BatchPlan } from './batch-plan'
import { MessageRecallError } from './refusals'
import { errorText } from '../shared/error-text'
import { appendRestore } from './restore-writer'
import type { EventLookup } from './surface-plan'
import { appendTombstone } from './tombstone-append'
import { priceReplace, retitleAfterRemoval, retitleAfterRestore, type WriteEffects } from './write-effects'

/**
 * The batch mark of each tombstone of a batch of two or more writes (`batch-mark.ts`), so a batch
 * cut short by a torn write can be told from the log: one id, the write's position and count,
 * and on the first tombstone every change with the write that carries it.
 * @returns the mark of write `w`, or `undefined` for a batch of one write.
 */
function batchMarks(plan: BatchPlan, changes: readonly BatchChange[]): ((w: number) => BatchMark) | undefined {
  const writes = plan.writes.length
  if (writes < 2) return undefined
  const id = randomUUID()
  const first = plan.writes.findIndex((write) => write.kind === 'tombstone')
  const listed: BatchChangeMark[] = changes.map((change, index) => (change.action === 'restore'
    ? { action: 'restore', tombstoneSeq: change.tombstoneSeq, write: plan.writeOfChange[index]! }
    : { action: change.action, seq: change.seq, write: plan.writeOfChange[index]! }))
  return (w) => ({ id, write: w, writes, ...(w === first ? { changes: listed } : {}) })
}

/** Options of {@link appendBatch}. */
export interface AppendBatchOptions {
  /** Text of each tombstone (see `appendTombstone`); default `''`. */
  readonly tombstoneText?: string
  /** The token meter and title limits; absent: bare replaces, no title rebuild. */
  readonly effects?: WriteEffects
  /** A lookup over the session's current log, asked again after each append (required with `effects`). */
  readonly lookup?: () => EventLookup
}

/**
 * Append every write of a batch plan.
 * @param session - the session the plan was made against, unchanged since.
 * @param plan - the batch plan.
 * @param changes - the planned changes (for the per-change results).
 * @param options - see {@link AppendBatchOptions}.
 * @returns one result per change, in change order.
 * @throws {@link MessageRecallError} `INTERNAL` when the Session refuses an append; the writes
 * before it stay in the log (rc.8 has no batch append), which planning against the same surface
 * rules out short of an invariant companion refusing.
 */
export function appendBatch(
  session: Session,
  plan: BatchPlan,
  changes: readonly BatchChange[],
  options: AppendBatchOptions = {},
): ApplyChangeResult[] {
  const { effects } = options
  const lookup = options.lookup ?? (() => (seq: number) => session.events[seq] as LogEvent | undefined)
  const real = new Map<number, number>()
  const map = (seq: number): number => real.get(seq) ?? seq
  const written: LogEvent[] = []
  const marks = batchMarks(plan, changes)
  for (const [w, write] of plan.writes.entries()) {
    const shadowedSeqs = write.kind === 'tombstone' ? write.shadowedSeqs.map(map) : [write.tombstoneSeq]
    const start = shadowedSeqs[0]!
    const end = shadowedSeqs.at(-1)!
    try {
      if (effects?.meter !== undefined) priceReplace(session, effects, lookup(), { start, end }, shadowedSeqs)
      const event = write.kind === 'tombstone'
        ? appendTombstone(session, { action: write.action, start, end, shadowedSeqs }, options.tombstoneText ?? '', marks?.(w))
        : appendRestore(session, { start, end, data: write.data, sourceEventSeqs: [write.tombstoneSeq, write.originalSeq] })
      real.set(write.virtualSeq, event.seq)
      written.push(event)
    } catch (error) {
      const done = written.length === 0 ? 'nothing was appended' : `writes 0..${w - 1} of the batch were appended`
      throw new MessageRecallError('INTERNAL', `message-recall: the session refused write ${w} of the batch ([${start}, ${end}]); ${done}: ${errorText(error)}`, { cause: error })
    }
  }
  // The title follows the batch once (each check reads the log back to its last title): rebuilt when
  // a removal shadowed a message it was made from, then put back where a restore undid its removal.
  if (effects !== undefined) {
    const removals = plan.writes.flatMap((write, w) => (write.kind === 'tombstone' ? [{ seq: written[w]!.seq, shadowedSeqs: write.shadowedSeqs.map(map) }] : []))
    if (removals.length > 0) retitleAfterRemoval(session, effects, lookup(), { seq: removals.at(-1)!.seq, shadowedSeqs: removals.flatMap((r) => r.shadowedSeqs) })
    for (const [w, write] of plan.writes.entries()) {
      if (write.kind === 'restore') retitleAfterRestore(session, effects, lookup(), { tombstoneSeq: write.tombstoneSeq, originalSeq: write.originalSeq, restoredSeq: written[w]!.seq })
    }
  }
  return changes.map((change, index) => {
    const w = plan.writeOfChange[index]!
    const write = plan.writes[w]!
    const seq = written[w]!.seq
    if (write.kind === 'restore') return { index, action: change.action, tombstoneSeq: write.tombstoneSeq, restoredSeq: seq }
    const shadowedSeqs = write.shadowedSeqs.map(map)
    return { index, action: change.action, tombstoneSeq: seq, range: { start: shadowedSeqs[0]!, end: shadowedSeqs.at(-1)! }, shadowedSeqs }
  })
}
