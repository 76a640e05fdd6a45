/**
 * Whether the To-dos strip shows a list that only a removed model step wrote. DSH 0.1.0-rc.8's
 * `todos` projection (`dsh-tool-todo`) is the last `todo/write` since the last `turn/start`, and
 * the session refuses a `todo/write` between turns, so the host cannot put the list back when the
 * step that wrote it goes; the browser half hides the strip instead, until the next turn starts
 * (which clears the list). Pure and browser-safe.
 *
 * @module dsh-message-recall/client/side-state/todo-list
 */
import type { LogEvent } from '../../shared/events'
import { owningStep, removedNodes } from '../../shared/step-owner'

/** The `todo/write` event type of `dsh-tool-todo`. */
export const TODO_WRITE = 'todo/write'

/**
 * True when the list in effect was written by a model step a tombstone of this plugin removed.
 * @param events - the session's events in seq order (the history may leave some seqs out).
 * @returns false when there is no list since the last turn start, or a remaining step (or anything
 * outside a step) wrote it.
 */
export function staleTodoList(events: readonly LogEvent[]): boolean {
  const bySeq = new Map(events.map((event) => [event.seq, event]))
  const lookup = (seq: number): LogEvent | undefined => bySeq.get(seq)
  for (let i = events.length - 1; i >= 0; i--) {
    const event = events[i]!
    if (event.type === 'turn/start') return false
    if (event.type !== TODO_WRITE) continue
    const step = owningStep(event.seq, lookup)
    if (step === null) return false
    const count = events[events.length - 1]!.seq + 1
    return removedNodes(count, lookup).has(step)
  }
  return false
}
