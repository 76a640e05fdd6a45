/**
 * After a write of this plugin (a removal, a restore, an editor batch), in the same synchronous
 * block and so before the durability flush: put the session's goal where the conversation now
 * leaves it ({@link ./side-state-plan}). It appends the events `dsh-goal`'s own service appends
 * (`goal/change`), so every reader follows at once: the `goal` projection (the goal bar, the
 * persisted projection cache `dsh-session-projection-cache`) and `dsh-goal` `GoalService`, which
 * folds the log again on its next read, so `dsh-goal-round-driver` admits no further round of a goal that is gone. A goal
 * round on the surface that quotes an objective only removed steps set goes too, with a tombstone
 * of its own (`exclude` when this write only excluded, else `delete`), so no later model request
 * carries that text.
 *
 * A goal change appended here is not made through `ctx.goals` on purpose: its methods need a live
 * agent (a stored session has none), and they announce `goal/changed`, on which the round driver
 * would start a goal round right after a removal. An appended `goal/change` leaves the goal's
 * automatic continuation disarmed (`GoalService.sync`); the person resumes it from the goal bar.
 *
 * @module dsh-message-recall/host/side-state
 */
import { randomUUID } from 'node:crypto'
import { createUserMessage, type UserMessage } from '@deepseek-ai/dsh-llm'
import type { Session } from '@deepseek-ai/dsh-session'
import { replaceOp } from '../shared/replace-op'
import { readTombstone, tombstoneSource } from '../shared/tombstone'
import { foldGoalState, goalBeforeRemovedSteps, goalCorrection, goalRoundsToRemove, removedNodes, GOAL_CHANGE, type GoalClock, type Lookup } from './side-state-plan'
import { priceReplace, type WriteEffects } from './write-effects'
import { errorText } from '../shared/error-text'

/** What {@link followSideState} reaches. */
export interface SideStateServices {
  /** Where a refused side-state event is reported; the write itself stands. */
  readonly warn: (message: string) => void
  /** Time and goal ids; default `Date.now` and `goal-<uuid>` as `dsh-goal` writes them. */
  readonly clock?: GoalClock
  /** The configured `tombstoneText` of the tombstone of a goal round that goes. */
  readonly tombstoneText: string
  /** The token meter, for the shadow price of that tombstone. */
  readonly effects?: WriteEffects
}

const DEFAULT_CLOCK: GoalClock = { now: () => Date.now(), newGoalId: () => `goal-${randomUUID()}` }

/**
 * Append the goal events and goal round tombstones that make the side state follow the conversation.
 * @param session - the session, with this write's events appended.
 * @param fromSeq - the first seq this write appended (`session.seq` before it).
 * @param lookup - one event by seq over the current log (this write's events included).
 * @param services - the logger, the clock, the tombstone text and the token meter.
 * @returns the seqs appended here, in order (`[]` when the side state already follows).
 */
export function followSideState(session: Session, fromSeq: number, lookup: Lookup, services: SideStateServices): number[] {
  const count = session.seq
  if (count <= fromSeq) return []
  const newlyRemoved = new Set<number>()
  let onlyExclusions = true
  for (let seq = fromSeq; seq < count; seq++) {
    const event = lookup(seq)
    const record = event === undefined ? null : readTombstone(event)
    if (record === null) continue
    if (record.action !== 'exclude') onlyExclusions = false
    for (const node of record.shadowedSeqs) newlyRemoved.add(node)
  }
  // Nothing to follow in a session that never had a goal (one cheap pass over the types).
  let goals = false
  for (let seq = 0; seq < count && !goals; seq++) goals = lookup(seq)?.type === GOAL_CHANGE
  if (!goals) return []
  const removed = removedNodes(count, lookup)
  const appended: number[] = []
  // `goal/change` is declared by `dsh-goal`, which this plugin does not depend on.
  const appendEvent = session.append.bind(session) as unknown as (type: string, data: unknown) => { readonly seq: number }
  const append = (type: string, data: unknown, what: string): boolean => {
    try {
      appended.push(appendEvent(type, data).seq)
      return true
    } catch (error) {
      services.warn(`message-recall: the ${what} of session "${session.id}" was not put back: ${errorText(error)}`)
      return false
    }
  }
  // A round goes the way the step that set its objective went: excluded with an exclusion, else deleted.
  const roundAction = newlyRemoved.size > 0 && onlyExclusions ? 'exclude' : 'delete'
  for (const round of goalRoundsToRemove(count, lookup, session.surface.nodes, removed)) {
    try {
      priceReplace(session, services.effects, lookup, { start: round, end: round }, [round])
      const message = createUserMessage({
        content: services.tombstoneText === '' ? [] : [{ type: 'text', text: services.tombstoneText }],
        source: tombstoneSource(roundAction, [round]) as unknown as UserMessage['source'],
      })
      appended.push(session.append('user/message', message, { surfaceOp: replaceOp(round, round), sourceEventSeqs: [round] }).seq)
    } catch (error) {
      services.warn(`message-recall: the goal round at seq ${round} of session "${session.id}" was not removed: ${errorText(error)}`)
    }
  }
  if (newlyRemoved.size > 0) {
    const goal = goalBeforeRemovedSteps(count, lookup, removed, newlyRemoved)
    if (goal !== null) {
      const current = foldGoalState(count, lookup)
      for (const change of goalCorrection(current, goal.wanted, services.clock ?? DEFAULT_CLOCK)) {
        if (!append(GOAL_CHANGE, change, 'goal')) break
      }
    }
  }
  return appended
}
