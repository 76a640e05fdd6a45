/**
 * Which model step wrote an event that is not on the surface (a tool's own event such as
 * `goal/change` or `todo/write`, appended while its tool call runs), and which surface nodes this
 * plugin's tombstones remove. Pure and browser-safe: the host's side-state planner and the
 * browser half's To-dos strip read the same answer.
 *
 * A step is removed when its `assistant/message` is shadowed by a tombstone of this plugin in
 * effect (a Delete, Delete onward, Recall or Exclude not undone); a compaction does not count, it
 * keeps the conversation's meaning.
 *
 * @module dsh-message-recall/shared/step-owner
 */
import type { LogEvent } from './events'
import { readFates, replacementEvents } from './fate'
import { readTombstone } from './tombstone'

/** One event by seq; `undefined` for a seq not in the log. */
export type Lookup = (seq: number) => LogEvent | undefined

/**
 * Every surface node shadowed by a tombstone of this plugin in effect (absorbed tombstones
 * included, restored ones not).
 * @param count - the log length (seqs `0 … count - 1`).
 * @param lookup - one event by seq.
 * @returns the shadowed node seqs.
 */
export function removedNodes(count: number, lookup: Lookup): Set<number> {
  const removed = new Set<number>()
  for (const status of readFates(replacementEvents(count, lookup)).statuses().values()) {
    if (!status.inEffect) continue
    const record = readTombstone(lookup(status.seq)!)
    for (const seq of record?.shadowedSeqs ?? []) removed.add(seq)
  }
  return removed
}

/**
 * The model step that wrote an event: the seq of the last `assistant/message` before it in the
 * same turn.
 * @param seq - the event's seq.
 * @param lookup - one event by seq.
 * @returns the `assistant/message` seq, or `null` when the event lies outside a model step (the
 * person's goal bar, a command, this plugin's own corrections).
 */
export function owningStep(seq: number, lookup: Lookup): number | null {
  for (let at = seq - 1; at >= 0; at--) {
    const type = lookup(at)?.type
    if (type === 'assistant/message') return at
    if (type === 'turn/start' || type === 'turn/end') return null
  }
  return null
}
