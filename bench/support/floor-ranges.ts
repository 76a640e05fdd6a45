/**
 * The tombstone ranges the route would write to delete some messages, planned in-process with the
 * real batch planner and not timed: what the benchmarks' floors append by hand, so a floor writes
 * exactly the tombstones the route writes.
 *
 * @module bench/support/floor-ranges
 */
import type { Session } from '@deepseek-ai/dsh-session'
import { planBatch } from '../../src/host/batch-plan'
import type { LogEvent } from '../../src/shared/events'

/** One tombstone's range: inclusive surface seqs and every node it shadows. */
export interface FloorRange { start: number; end: number; shadowedSeqs: number[] }

/**
 * The ranges the route would write for deleting `seqs`.
 * @param session - the session, as the route would find it.
 * @param seqs - surface seqs of the messages to delete.
 * @returns one range per tombstone, in write order.
 * @throws Error when the planner refuses a change, or writes a restore.
 */
export function rangesFor(session: Session, seqs: readonly number[]): FloorRange[] {
  const events = session.events as readonly LogEvent[]
  const planned = planBatch({ nodes: session.surface.nodes, lookup: (seq) => events[seq], nextSeq: session.seq, changes: seqs.map((seq) => ({ action: 'delete', seq })) })
  if (!planned.ok) throw new Error(`floor planning refused: ${JSON.stringify(planned.refusal)}`)
  return planned.plan.writes.map((w) => {
    if (w.kind !== 'tombstone') throw new Error('floor planning wrote a restore')
    return { start: w.start, end: w.end, shadowedSeqs: [...w.shadowedSeqs] }
  })
}
