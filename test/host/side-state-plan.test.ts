/**
 * The side-state planner, pure: the goal as it stood before a removed step, the `goal/change`
 * events that put it there (each replayed through `@deepseek-ai/dsh-goal` `foldGoal`, the strict
 * fold DSH itself replays a log with), and the goal rounds that quote removed text.
 */
import assert from 'node:assert/strict'
import { before, describe, it } from 'node:test'
import type { LogEvent } from '../../src/shared/events'
import { tombstoneSource } from '../../src/shared/tombstone'
import { foldGoalState, goalBeforeRemovedSteps, goalCorrection, goalRoundsToRemove, owningStep, removedNodes, type GoalChangeData, type GoalState } from '../../src/host/side-state-plan'
import { importHostPackage } from '../support/host-packages'

type FoldGoal = (events: readonly unknown[]) => { goal?: { objective: string; phase: string; maxGoalRounds: number; revision: number; id: string; blockedReason?: unknown }; roundsStarted: number }
let foldGoal: FoldGoal
before(async () => { foldGoal = (await importHostPackage('@deepseek-ai/dsh-goal')).foldGoal as FoldGoal })

const clock = { now: () => 5_000, newGoalId: () => 'goal-new' }

/** A tiny log, one event per call, seq = position. */
class Log {
  readonly events: LogEvent[] = []
  private add(type: string, data: unknown, extra: Partial<LogEvent> = {}): number {
    const seq = this.events.length
    this.events.push({ type, seq, time: 1_000 + seq, data, ...extra } as LogEvent)
    return seq
  }
  turnStart(turn: number): number { return this.add('turn/start', { turn }) }
  turnEnd(turn: number): number { return this.add('turn/end', { turn, reason: { kind: 'stop' } }) }
  prompt(text: string): number { return this.add('user/message', { role: 'user', id: `m${this.events.length}`, content: [{ type: 'text', text }], source: { kind: 'user' } }, { surfaceOp: 'append' } as never) }
  round(goalId: string, revision: number, round: number, objective: string): number {
    return this.add('user/message', { role: 'user', id: `r${round}`, content: [{ type: 'text', text: `<goal_round>\nObjective: ${JSON.stringify(objective)}\nRound: ${round}/3` }], source: { kind: 'goal', goalId, revision, round } }, { surfaceOp: 'append' } as never)
  }
  step(turn: number, step: number): number { return this.add('assistant/message', { turn, step, message: { role: 'assistant', content: [{ type: 'tool-call', id: `c${turn}.${step}`, name: 'goal', arguments: '{}' }] } }, { surfaceOp: 'append' } as never) }
  result(turn: number, step: number): number { return this.add('tool/result', { turn, step, message: { role: 'tool', source: { kind: 'tool', callId: `c${turn}.${step}` }, content: [] } }, { surfaceOp: 'append' } as never) }
  change(data: GoalChangeData): number { return this.add('goal/change', data) }
  tombstone(shadowed: number[]): number {
    return this.add('user/message', { role: 'user', id: `t${this.events.length}`, content: [], source: tombstoneSource('delete', shadowed) }, { surfaceOp: { op: 'replace', start: shadowed[0], end: shadowed.at(-1) }, sourceEventSeqs: shadowed } as never)
  }
  get lookup() { return (seq: number) => this.events[seq] }
}

const snapshot = (operation: 'create' | 'edit' | 'pause' | 'resume' | 'complete' | 'block', id: string, revision: number, objective: string, phase: string, extra: { roundsStarted?: number; maxGoalRounds?: number; blockedReason?: { code: string; message: string } } = {}): GoalChangeData => ({
  kind: 'goal/change', version: 1, operation,
  goal: { id, revision, objective, phase, maxGoalRounds: extra.maxGoalRounds ?? 3, ...(extra.blockedReason ? { blockedReason: extra.blockedReason } : {}) },
  roundsStarted: extra.roundsStarted ?? 0, createdAt: 1_000, updatedAt: 1_000 + revision,
})

/** Replay `base` and the corrections through DSH's strict fold. */
function replay(base: readonly GoalChangeData[], corrections: readonly GoalChangeData[]) {
  return foldGoal([...base, ...corrections].map((data, seq) => ({ type: 'goal/change', seq, time: 0, data })))
}

function stateOf(changes: readonly GoalChangeData[]): GoalState {
  const log = new Log()
  for (const change of changes) log.change(change)
  return foldGoalState(log.events.length, log.lookup)
}

describe('goalCorrection: changes DSH replays', () => {
  it('clears a goal when there was none before', () => {
    const base = [snapshot('create', 'g1', 1, 'Ship it', 'active')]
    const changes = goalCorrection(stateOf(base), undefined, clock)
    assert.deepEqual(changes, [{ kind: 'goal/change', version: 1, operation: 'clear', cleared: { id: 'g1', revision: 2 }, clearedAt: 5_000 }])
    assert.equal(replay(base, changes).goal, undefined)
  })

  it('edits the objective back and keeps the phase and the reason', () => {
    const reason = { code: 'round-limit', message: 'Limit reached.' }
    const base = [snapshot('create', 'g1', 1, 'First plan', 'active'), snapshot('block', 'g1', 2, 'First plan', 'blocked', { blockedReason: reason }), snapshot('edit', 'g1', 3, 'Second plan', 'blocked', { blockedReason: reason })]
    const changes = goalCorrection(stateOf(base), { objective: 'First plan', maxGoalRounds: 3, phase: 'blocked', blockedReason: reason }, clock)
    assert.deepEqual(changes.map((c) => c.operation), ['edit'])
    const folded = replay(base, changes)
    assert.deepEqual(folded.goal, { id: 'g1', revision: 4, objective: 'First plan', phase: 'blocked', maxGoalRounds: 3, blockedReason: reason })
    assert.equal(folded.roundsStarted, 0)
  })

  it('creates a goal again when the current one is complete and the wanted one is paused', () => {
    const base = [snapshot('create', 'g1', 1, 'Old', 'active'), snapshot('complete', 'g1', 2, 'Old', 'complete')]
    const changes = goalCorrection(stateOf(base), { objective: 'Earlier', maxGoalRounds: 2, phase: 'paused' }, clock)
    assert.deepEqual(changes.map((c) => c.operation), ['create', 'pause'])
    assert.deepEqual(replay(base, changes).goal, { id: 'goal-new', revision: 2, objective: 'Earlier', phase: 'paused', maxGoalRounds: 2 })
  })

  it('resumes, then blocks with the wanted reason; leaves a phase it cannot reach', () => {
    const reason = { code: 'waiting', message: 'Needs input.' }
    const paused = [snapshot('create', 'g1', 1, 'Task', 'active'), snapshot('pause', 'g1', 2, 'Task', 'paused')]
    const blocked = goalCorrection(stateOf(paused), { objective: 'Task', maxGoalRounds: 3, phase: 'blocked', blockedReason: reason }, clock)
    assert.deepEqual(blocked.map((c) => c.operation), ['resume', 'block'])
    assert.deepEqual(replay(paused, blocked).goal, { id: 'g1', revision: 4, objective: 'Task', phase: 'blocked', maxGoalRounds: 3, blockedReason: reason })

    const spent = [snapshot('create', 'g1', 1, 'Task', 'active', { maxGoalRounds: 1 }), snapshot('pause', 'g1', 2, 'Task', 'paused', { maxGoalRounds: 1, roundsStarted: 1 })]
    assert.deepEqual(goalCorrection(stateOf(spent), { objective: 'Task', maxGoalRounds: 1, phase: 'active' }, clock), [], 'no resume past the round limit')
    assert.deepEqual(goalCorrection(stateOf(paused), { objective: 'Task', maxGoalRounds: 3, phase: 'paused' }, clock), [], 'already as wanted')
  })
})

describe('the goal before removed steps, and goal rounds that quote removed text', () => {
  /** Turn 1: a prompt, step 1 creates the goal; turn 2: round 1; turn 3: step 1 edits the objective. */
  function log() {
    const l = new Log()
    l.turnStart(1)
    const prompt = l.prompt('Make it a goal')
    const create = l.step(1, 1)
    l.change(snapshot('create', 'g1', 1, 'First plan', 'active'))
    const createResult = l.result(1, 1)
    l.turnEnd(1)
    l.turnStart(2)
    const round = l.round('g1', 1, 1, 'First plan')
    l.turnEnd(2)
    l.turnStart(3)
    const edit = l.step(3, 1)
    const editChange = l.change(snapshot('edit', 'g1', 2, 'Second plan', 'active', { roundsStarted: 1 }))
    const editResult = l.result(3, 1)
    l.turnEnd(3)
    return { l, prompt, create, createResult, round, edit, editChange, editResult }
  }

  it('a goal change belongs to the last assistant message before it in its turn', () => {
    const { l, create, edit, editChange, round } = log()
    assert.equal(owningStep(create + 1, l.lookup), create)
    assert.equal(owningStep(editChange, l.lookup), edit)
    assert.equal(owningStep(round, l.lookup), null)
  })

  it('removing the editing step wants the first objective and removes no round', () => {
    const { l, edit, editResult } = log()
    const tombstone = l.tombstone([edit, editResult])
    const removed = removedNodes(l.events.length, l.lookup)
    assert.deepEqual([...removed], [edit, editResult])
    const before = goalBeforeRemovedSteps(l.events.length, l.lookup, removed, new Set([edit, editResult]))
    assert.deepEqual(before, { wanted: { objective: 'First plan', maxGoalRounds: 3, phase: 'active' } })
    const nodes = l.events.filter((e) => e.surfaceOp === 'append' && !removed.has(e.seq)).map((e) => e.seq).concat(tombstone)
    assert.deepEqual(goalRoundsToRemove(l.events.length, l.lookup, nodes, removed), [])
  })

  it('removing the creating step wants no goal and removes the round quoting its objective', () => {
    const { l, create, createResult, round } = log()
    l.tombstone([create, createResult])
    const removed = removedNodes(l.events.length, l.lookup)
    assert.deepEqual(goalBeforeRemovedSteps(l.events.length, l.lookup, removed, new Set([create, createResult])), { wanted: undefined })
    const nodes = l.events.filter((e) => e.surfaceOp === 'append' && !removed.has(e.seq)).map((e) => e.seq)
    assert.deepEqual(goalRoundsToRemove(l.events.length, l.lookup, nodes, removed), [round])
    assert.equal(goalBeforeRemovedSteps(l.events.length, l.lookup, removed, new Set([round])), null, 'a write that removed no goal step changes nothing')
  })

  it('a removal of a step that changed no goal asks for nothing', () => {
    const { l, prompt } = log()
    l.tombstone([prompt])
    const removed = removedNodes(l.events.length, l.lookup)
    assert.equal(goalBeforeRemovedSteps(l.events.length, l.lookup, removed, new Set([prompt])), null)
  })
})
