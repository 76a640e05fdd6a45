/**
 * Appends a planned batch ({@link planBatch}) to a session, synchronously and in plan order:
 * each tombstone through `appendTombstone`, each restore as one `user/message` copy replacing its
 * tombstone (`sourceEventSeqs [tombstone, original]`). Seqs the plan made up for the batch's own
 * events are mapped to the real seqs as they are appended. No flush: the caller flushes once.
 *
 * @module dsh-message-recall/host/batch-writer
 */
import type { Session } from '@deepseek-ai/dsh-session'
import type { LogEvent } from '../shared/events'
import type { ApplyChangeResult } from '../shared/protocol'
import { replaceOp } from '../shared/replace-op'
import type { BatchChange, BatchPlan } from './batch-plan'
import { errorText, MessageRecallError } from './refusals'
import { appendTombstone } from './tombstone-writer'

/** Called right before each replace of the batch is appended (e.g. to write its shadow price). */
export type BeforeReplace = (session: Session, range: { readonly start: number; readonly end: number; readonly shadowedSeqs: readonly number[] }) => void

/**
 * Append every write of a batch plan.
 * @param session - the session the plan was made against, unchanged since.
 * @param plan - the batch plan.
 * @param changes - the planned changes (for the per-change results).
 * @param options - `tombstoneText` (see `appendTombstone`) and an optional `beforeReplace` hook.
 * @returns one result per change, in change order.
 * @throws {@link MessageRecallError} `INTERNAL` when the Session refuses an append; the writes
 * before it stay in the log (rc.8 has no batch append), which planning against the same surface
 * rules out short of an invariant companion refusing.
 */
export function appendBatch(
  session: Session,
  plan: BatchPlan,
  changes: readonly BatchChange[],
  options: { readonly tombstoneText?: string; readonly beforeReplace?: BeforeReplace } = {},
): ApplyChangeResult[] {
  const real = new Map<number, number>()
  const map = (seq: number): number => real.get(seq) ?? seq
  const written: LogEvent[] = []
  for (const [w, write] of plan.writes.entries()) {
    const shadowedSeqs = write.kind === 'tombstone' ? write.shadowedSeqs.map(map) : [write.tombstoneSeq]
    const start = shadowedSeqs[0]!
    const end = shadowedSeqs.at(-1)!
    try {
      options.beforeReplace?.(session, { start, end, shadowedSeqs })
      const event = write.kind === 'tombstone'
        ? appendTombstone(session, { action: write.action, start, end, shadowedSeqs }, options.tombstoneText ?? '')
        : session.append('user/message', write.data as never, { surfaceOp: replaceOp(start, end), sourceEventSeqs: [write.tombstoneSeq, write.originalSeq] })
      real.set(write.virtualSeq, event.seq)
      written.push(event)
    } catch (error) {
      const done = written.length === 0 ? 'nothing was appended' : `writes 0..${w - 1} of the batch were appended`
      throw new MessageRecallError('INTERNAL', `message-recall: the session refused write ${w} of the batch ([${start}, ${end}]); ${done}: ${errorText(error)}`, { cause: error })
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
