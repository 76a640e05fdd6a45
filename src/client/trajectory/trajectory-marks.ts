/**
 * Which Trajectory rows show a removed or an excluded event, read from a whole log: every
 * tombstone of this plugin still in effect (`shared/fate.ts`) marks the events it shadows
 * with its action and its time. Pure and browser-safe.
 *
 * @module dsh-message-recall/client/trajectory/trajectory-marks
 */
import type { LogEvent } from '../../shared/events'
import { readFates, replacementEvents } from '../../shared/fate'
import { readTombstone } from '../../shared/tombstone'
import type { TombstoneAction } from '../../shared/actions'
import { trajectoryRowKeys } from './trajectory-rc8'

/** How one Trajectory row is marked. */
export interface TrajectoryMark {
  /** Seq of the marked event. */
  readonly seq: number
  /** Seq of the tombstone that removed or excluded it. */
  readonly tombstoneSeq: number
  /** The tombstone's action; `exclude` keeps the content in view. */
  readonly action: TombstoneAction
  /** When the tombstone was written, epoch ms. */
  readonly time: number
}

/**
 * The marks of a log, keyed by Trajectory row key (`data-trajectory-row-key`). An event a later
 * tombstone absorbed keeps the mark of the tombstone that first removed it.
 * @param events - the session's events in seq order (the history may leave some seqs out).
 * @returns row key → mark; empty when no tombstone is in effect.
 */
export function trajectoryMarks(events: readonly LogEvent[]): Map<string, TrajectoryMark> {
  const bySeq = new Map(events.map((event) => [event.seq, event]))
  const lookup = (seq: number): LogEvent | undefined => bySeq.get(seq)
  const count = events.length === 0 ? 0 : events[events.length - 1]!.seq + 1
  const marks = new Map<string, TrajectoryMark>()
  for (const status of readFates(replacementEvents(count, lookup)).statuses().values()) {
    if (!status.inEffect) continue
    const tombstone = lookup(status.seq)!
    const record = readTombstone(tombstone)
    if (record === null) continue
    for (const seq of record.shadowedSeqs) {
      const event = lookup(seq)
      if (event === undefined) continue
      for (const rowKey of trajectoryRowKeys(event)) {
        if (!marks.has(rowKey)) marks.set(rowKey, { seq, tombstoneSeq: record.seq, action: record.action, time: tombstone.time ?? 0 })
      }
    }
  }
  return marks
}

/**
 * The time of a removal as the Trajectory marks show it: local `YYYY-MM-DD HH:MM`.
 * @param time - epoch ms.
 * @returns the formatted time.
 */
export function markTime(time: number): string {
  const d = new Date(time)
  const two = (n: number): string => String(n).padStart(2, '0')
  return `${d.getFullYear()}-${two(d.getMonth() + 1)}-${two(d.getDate())} ${two(d.getHours())}:${two(d.getMinutes())}`
}
