/**
 * Side state that follows the conversation: what the goal should be once a removal took out the
 * model step that created or changed it, the DSH events that put it there, and the goal rounds
 * that quote removed text. Pure: it reads a log through an event lookup and returns event data to
 * append; the writer ({@link ./side-state}) appends it.
 *
 * The rc.8 shapes it owns:
 * - `goal/change` (`@deepseek-ai/dsh-goal` `decodeGoalChange`): a whole snapshot
 *   `{ kind: 'goal/change', version: 1, operation, goal, roundsStarted, createdAt, updatedAt }` for
 *   `create`, `edit`, `pause`, `resume`, `complete` and `block`, or a clear
 *   `{ kind, version, operation: 'clear', cleared: { id, revision }, clearedAt }`. The strict fold
 *   (`applyGoalChange`) wants every change to advance the current revision by one and keep
 *   `createdAt` and `roundsStarted`; a goal round (`user/message` with `source.kind: 'goal'`,
 *   `dsh-goal-round-driver`) sets `roundsStarted` to its `round`.
 * - the goal round prompt (`dsh-goal-round-driver` `renderGoalRoundPrompt`), which quotes the
 *   objective as `Objective: "<objective>"`.
 *
 * The to-do list cannot follow the same way on rc.8: `dsh-tool-todo`'s `todos` projection folds
 * only `todo/write` (the whole list) and `turn/start` (back to `null`), and the session invariant
 * (`@deepseek-ai/dsh-session/invariant`, `validateEvent`) refuses a `todo/write` outside an open
 * turn, where every removal is written.
 *
 * A goal change belongs to the model step whose tool call wrote it ({@link owningStep}); the step
 * is removed when a tombstone of this plugin in effect shadows it ({@link removedNodes}).
 *
 * @module dsh-message-recall/host/side-state-plan
 */
import type { LogEvent } from '../shared/events'
import { isRecord } from '../shared/events'
import { owningStep, type Lookup } from '../shared/step-owner'

export { owningStep, removedNodes, type Lookup } from '../shared/step-owner'

/** The `goal/change` event type of `dsh-goal`. */
export const GOAL_CHANGE = 'goal/change'

/** What defines a goal for the person: the fields a removal can have changed. */
export interface GoalDefinition {
  readonly objective: string
  readonly maxGoalRounds: number
  /** `active`, `paused`, `blocked` or `complete`. */
  readonly phase: string
  /** `{ code, message }` when `phase` is `blocked`. */
  readonly blockedReason?: { readonly code: string; readonly message: string }
}

/** A goal snapshot as `goal/change` carries it. */
export interface GoalSnapshot extends GoalDefinition {
  readonly id: string
  readonly revision: number
}

/** The strict goal state of a log (what `dsh-goal` `foldGoal` keeps). */
export interface GoalState {
  readonly goal: GoalSnapshot | undefined
  readonly roundsStarted: number
  /** Epoch ms; set while a goal is current. */
  readonly createdAt: number | undefined
  /** Epoch ms; set while a goal is current. */
  readonly updatedAt: number | undefined
}

/** `data` of a `goal/change` event. */
export type GoalChangeData =
  | {
      readonly kind: 'goal/change'
      readonly version: 1
      readonly operation: 'create' | 'edit' | 'pause' | 'resume' | 'complete' | 'block'
      readonly goal: GoalSnapshot
      readonly roundsStarted: number
      readonly createdAt: number
      readonly updatedAt: number
    }
  | {
      readonly kind: 'goal/change'
      readonly version: 1
      readonly operation: 'clear'
      readonly cleared: { readonly id: string; readonly revision: number }
      readonly clearedAt: number
    }

/** The clock and id source of a goal correction. */
export interface GoalClock {
  /** Epoch ms. */
  now(): number
  /** A fresh goal id (`dsh-goal` writes `goal-<uuid>`). */
  newGoalId(): string
}

function readSnapshot(value: unknown): GoalSnapshot | undefined {
  if (!isRecord(value)) return undefined
  const { id, revision, objective, phase, maxGoalRounds, blockedReason } = value
  if (typeof id !== 'string' || typeof revision !== 'number' || typeof objective !== 'string' || typeof phase !== 'string' || typeof maxGoalRounds !== 'number') return undefined
  const reason = isRecord(blockedReason) && typeof blockedReason.code === 'string' && typeof blockedReason.message === 'string' ? { code: blockedReason.code, message: blockedReason.message } : undefined
  return { id, revision, objective, phase, maxGoalRounds, ...(reason === undefined ? {} : { blockedReason: reason }) }
}

/** A `goal/change` read back: a snapshot with its counters, or a clear. */
type ReadChange = { readonly clear: true } | { readonly clear: false; readonly operation: string; readonly goal: GoalSnapshot; readonly roundsStarted: number; readonly createdAt: number; readonly updatedAt: number }

function readChange(event: LogEvent): ReadChange | undefined {
  if (event.type !== GOAL_CHANGE || !isRecord(event.data) || event.data.kind !== 'goal/change') return undefined
  const data = event.data
  if (data.operation === 'clear') return { clear: true }
  const goal = readSnapshot(data.goal)
  if (goal === undefined || typeof data.roundsStarted !== 'number' || typeof data.createdAt !== 'number' || typeof data.updatedAt !== 'number') return undefined
  return { clear: false, operation: String(data.operation), goal, roundsStarted: data.roundsStarted, createdAt: data.createdAt, updatedAt: data.updatedAt }
}

/** The round a goal round `user/message` admits, or `null`. */
function goalRound(event: LogEvent): number | null {
  if (event.type !== 'user/message' || !isRecord(event.data) || !isRecord(event.data.source)) return null
  const source = event.data.source
  return source.kind === 'goal' && typeof source.round === 'number' && source.round > 0 ? source.round : null
}

/**
 * The strict goal state of a whole log, as `dsh-goal` `foldGoal` keeps it (without its checks).
 * @param count - the log length.
 * @param lookup - one event by seq.
 * @returns the current goal (or none), its round count and timestamps.
 */
export function foldGoalState(count: number, lookup: Lookup): GoalState {
  let state: GoalState = { goal: undefined, roundsStarted: 0, createdAt: undefined, updatedAt: undefined }
  for (let seq = 0; seq < count; seq++) {
    const event = lookup(seq)
    if (event === undefined) continue
    const round = goalRound(event)
    if (round !== null) {
      state = { ...state, roundsStarted: round }
      continue
    }
    const change = readChange(event)
    if (change === undefined) continue
    state = change.clear ? { goal: undefined, roundsStarted: 0, createdAt: undefined, updatedAt: undefined } : { goal: change.goal, roundsStarted: change.roundsStarted, createdAt: change.createdAt, updatedAt: change.updatedAt }
  }
  return state
}

function definitionOf(goal: GoalSnapshot): GoalDefinition {
  return { objective: goal.objective, maxGoalRounds: goal.maxGoalRounds, phase: goal.phase, ...(goal.blockedReason === undefined ? {} : { blockedReason: goal.blockedReason }) }
}

/**
 * The goal as it stood before the first goal change that a newly removed step made, with the
 * changes of every removed step left out.
 * @param count - the log length.
 * @param lookup - one event by seq.
 * @param removed - every removed node ({@link removedNodes}).
 * @param newlyRemoved - the nodes this write removed.
 * @returns `{ wanted }` (the definition, or `undefined` for no goal), or `null` when no newly
 * removed step changed the goal.
 */
export function goalBeforeRemovedSteps(count: number, lookup: Lookup, removed: ReadonlySet<number>, newlyRemoved: ReadonlySet<number>): { readonly wanted: GoalDefinition | undefined } | null {
  const changes: Array<{ seq: number; step: number | null; change: ReadChange }> = []
  for (let seq = 0; seq < count; seq++) {
    const event = lookup(seq)
    const change = event === undefined ? undefined : readChange(event)
    if (change !== undefined) changes.push({ seq, step: owningStep(seq, lookup), change })
  }
  const first = changes.find((c) => c.step !== null && newlyRemoved.has(c.step))
  if (first === undefined) return null
  let wanted: GoalDefinition | undefined
  for (const { seq, step, change } of changes) {
    if (seq >= first.seq) break
    if (step !== null && removed.has(step)) continue
    wanted = change.clear ? undefined : definitionOf(change.goal)
  }
  return { wanted }
}

function sameDefinition(a: GoalDefinition, b: GoalDefinition): boolean {
  return a.objective === b.objective && a.maxGoalRounds === b.maxGoalRounds && a.phase === b.phase
}

/**
 * The `goal/change` events that take the goal from `current` to `wanted`, each valid for
 * `dsh-goal`'s strict fold: a clear; a new goal (when there is none, or the current one is
 * complete and the wanted one is not); an edit of objective and round limit; then the phase
 * (`resume`, `pause`, `complete`, `block`; a `resume` first where the wanted phase needs an
 * active goal). A phase that cannot be reached (a resume past the round limit) is left as it is.
 * @param current - the log's goal state ({@link foldGoalState}).
 * @param wanted - the wanted definition, or `undefined` for no goal.
 * @param clock - the time and the id of a new goal.
 * @returns the changes in append order; `[]` when `current` already matches.
 */
export function goalCorrection(current: GoalState, wanted: GoalDefinition | undefined, clock: GoalClock): GoalChangeData[] {
  const changes: GoalChangeData[] = []
  const now = clock.now()
  let state = current
  if (wanted === undefined) {
    if (state.goal === undefined) return changes
    changes.push({ kind: 'goal/change', version: 1, operation: 'clear', cleared: { id: state.goal.id, revision: state.goal.revision + 1 }, clearedAt: Math.max(now, state.updatedAt ?? now) })
    return changes
  }
  if (state.goal !== undefined && sameDefinition(definitionOf(state.goal), wanted)) return changes
  const snapshot = (operation: Exclude<GoalChangeData['operation'], 'clear'>, goal: GoalSnapshot): void => {
    const createdAt = operation === 'create' ? now : (state.createdAt ?? now)
    const updatedAt = operation === 'create' ? now : Math.max(now, state.updatedAt ?? now)
    const roundsStarted = operation === 'create' ? 0 : state.roundsStarted
    changes.push({ kind: 'goal/change', version: 1, operation, goal, roundsStarted, createdAt, updatedAt })
    state = { goal, roundsStarted, createdAt, updatedAt }
  }
  const next = (goal: GoalSnapshot, phase: string, blockedReason?: GoalDefinition['blockedReason']): GoalSnapshot => ({
    id: goal.id, revision: goal.revision + 1, objective: goal.objective, phase, maxGoalRounds: goal.maxGoalRounds, ...(blockedReason === undefined ? {} : { blockedReason }),
  })
  if (state.goal === undefined || (state.goal.phase === 'complete' && wanted.phase !== 'complete')) {
    snapshot('create', { id: clock.newGoalId(), revision: 1, objective: wanted.objective, phase: 'active', maxGoalRounds: wanted.maxGoalRounds })
  }
  const goal = state.goal!
  if (goal.objective !== wanted.objective || goal.maxGoalRounds !== wanted.maxGoalRounds) {
    snapshot('edit', { ...goal, revision: goal.revision + 1, objective: wanted.objective, maxGoalRounds: wanted.maxGoalRounds })
  }
  const resume = (): boolean => {
    const at = state.goal!
    if (at.phase === 'active') return true
    if (at.phase === 'complete' || state.roundsStarted >= at.maxGoalRounds) return false
    snapshot('resume', next(at, 'active'))
    return true
  }
  switch (wanted.phase) {
    case 'active':
      resume()
      break
    case 'paused':
      if (state.goal!.phase !== 'paused' && resume()) snapshot('pause', next(state.goal!, 'paused'))
      break
    case 'blocked':
      if (state.goal!.phase !== 'blocked' && resume()) snapshot('block', next(state.goal!, 'blocked', wanted.blockedReason ?? { code: 'restored', message: 'Blocked before a removed step changed the goal.' }))
      break
    case 'complete':
      if (state.goal!.phase !== 'complete') snapshot('complete', next(state.goal!, 'complete'))
      break
  }
  return changes
}

/** The goal round prompt's objective line (`dsh-goal-round-driver` `renderGoalRoundPrompt`). */
function objectiveLine(objective: string): string {
  return `Objective: ${JSON.stringify(objective)}`
}

/**
 * Goal rounds on the surface that carry removed text: the `<goal_round>` prompt quotes the goal's
 * objective, so a round of an objective that only removed steps set must go with them.
 * @param count - the log length.
 * @param lookup - one event by seq.
 * @param nodes - the surface node seqs.
 * @param removed - every removed node ({@link removedNodes}).
 * @returns the seqs of the goal round `user/message` nodes to remove, in surface order.
 */
export function goalRoundsToRemove(count: number, lookup: Lookup, nodes: readonly number[], removed: ReadonlySet<number>): number[] {
  const removedObjectives = new Set<string>()
  const keptObjectives = new Set<string>()
  for (let seq = 0; seq < count; seq++) {
    const event = lookup(seq)
    const change = event === undefined ? undefined : readChange(event)
    // Only a create or an edit sets an objective; the other operations carry it over.
    if (change === undefined || change.clear || (change.operation !== 'create' && change.operation !== 'edit')) continue
    const step = owningStep(seq, lookup)
    if (step !== null && removed.has(step)) removedObjectives.add(change.goal.objective)
    else keptObjectives.add(change.goal.objective)
  }
  for (const objective of keptObjectives) removedObjectives.delete(objective)
  if (removedObjectives.size === 0) return []
  const lines = [...removedObjectives].map(objectiveLine)
  return nodes.filter((seq) => {
    const event = lookup(seq)
    if (event === undefined || goalRound(event) === null) return false
    const text = JSON.stringify(isRecord(event.data) ? event.data.content : null)
    return lines.some((line) => text.includes(JSON.stringify(line).slice(1, -1)))
  })
}
