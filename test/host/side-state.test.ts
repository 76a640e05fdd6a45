/**
 * Side state follows the conversation, with the real agent loop and DSH's own to-do tool, goal
 * service, goal tools and goal round driver (from the pinned host set): the scripted mock model
 * (`tools/mock-model.ts`) calls `todo_write`, `create_goal` and `update_goal`, the route removes
 * their steps, and the `goal` projection, `ctx.goals`, the log and the next model request follow;
 * the `todos` projection shows what rc.8 allows.
 */
import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import type { Agent } from '@deepseek-ai/dsh-agent'
import type { Session } from '@deepseek-ai/dsh-session'
import { bootDshApp, waitFor, type DshApp } from '../support/dsh-app'
import { sideStatePlugins } from '../support/host-packages'
import { startMockModel, type MockModel } from '../../tools/mock-model'
import { isTombstoneEvent } from '../../src/shared/tombstone'

let model: MockModel
const apps: DshApp[] = []
before(async () => { model = await startMockModel() })
after(async () => {
  for (const app of apps.splice(0)) await app.dispose()
  await model.close()
})

async function boot(options: { tokenMeter?: boolean } = {}): Promise<DshApp> {
  const app = await bootDshApp({ recall: {}, persistence: {}, model: { baseURL: model.baseURL, apiKey: model.apiKey }, plugins: await sideStatePlugins(), ...options })
  apps.push(app)
  await waitFor(() => app.ctx.get('goals') !== undefined && app.ctx.get('sessionProjections') !== undefined, 'goal service and projections loaded')
  return app
}

/** The session's projection values (`dsh-session-projection` `snapshot`). */
function projection(app: DshApp, session: Session, key: 'todos' | 'goal'): unknown {
  const registry = app.ctx.get('sessionProjections') as { snapshot(session: Session): { values: Record<string, unknown> } }
  return registry.snapshot(session).values[key]
}

/** The one `assistant/message` surface node whose tool call mentions `text`. */
function stepCalling(session: Session, text: string): number {
  const events = session.events
  const hits = session.surface.nodes.filter((seq) => events[seq]!.type === 'assistant/message' && JSON.stringify(events[seq]!.data).includes(text))
  assert.equal(hits.length, 1, `one assistant/message node mentions ${JSON.stringify(text)}: ${hits}`)
  return hits[0]!
}

/** Types of the events after `seq`. */
function typesAfter(session: Session, seq: number): string[] {
  return session.events.slice(seq + 1).map((e) => e.type)
}

function goals(app: DshApp): { get(agent: Agent): { objective: string; phase: string; activation: string } | undefined } {
  return app.ctx.get('goals') as never
}

const taskA = 'Draft the canary-todo-alpha outline'
const taskB = 'Review the canary-todo-beta numbers'

describe('side state after removals, real agent loop', () => {
  it('a deleted to-do step: the session refuses a todo/write between turns, so the list stays until the next turn resets it', async () => {
    const app = await boot()
    const agent = await app.createAgent()
    const session = agent.session
    model.script([
      { toolCall: { name: 'todo_write', arguments: { todos: [{ content: taskA, status: 'in_progress' }] } } },
      { toolCall: { name: 'todo_write', arguments: { todos: [{ content: taskA, status: 'completed' }, { content: taskB, status: 'in_progress' }] } } },
      'Both tasks are on the list.',
    ])
    await app.prompt(agent, 'Plan the canary work')
    const listed = [{ content: taskA, status: 'completed' }, { content: taskB, status: 'in_progress' }]
    assert.deepEqual(projection(app, session, 'todos'), listed)

    const reply = await app.post({ sessionId: agent.id, action: 'delete', seq: stepCalling(session, taskB) })
    assert.equal(reply.status, 200, reply.text)
    assert.deepEqual(typesAfter(session, reply.json.value.tombstoneSeq), [], 'nothing after the tombstone')
    assert.deepEqual(projection(app, session, 'todos'), listed, 'rc.8 keeps the last list until a turn starts')

    model.script(['Next answer.'])
    await app.prompt(agent, 'Carry on')
    assert.equal(projection(app, session, 'todos'), null, 'the next turn start resets the list')
  })

  it('a removal and an Undo that touch no goal step leave the goal as it is', async () => {
    const app = await boot()
    const agent = await app.createAgent()
    const session = agent.session
    const objective = 'Keep the canary-goal-kept report'
    model.script([{ toolCall: { name: 'create_goal', arguments: { objective, max_goal_rounds: 1 } } }, 'Goal set.', 'Round one.'])
    await app.prompt(agent, 'Make the report a goal')
    await waitFor(() => (projection(app, session, 'goal') as { goal?: { phase: string } } | null)?.goal?.phase === 'blocked' && agent.status === 'idle', 'goal blocked after round 1', 15000)
    const before = projection(app, session, 'goal')
    const changes = session.events.filter((e) => (e.type as string) === 'goal/change').length

    const prompt = session.surface.nodes.find((seq) => JSON.stringify(session.events[seq]!.data).includes('Make the report a goal'))!
    const recall = await app.post({ sessionId: agent.id, action: 'recall', seq: prompt })
    assert.equal(recall.status, 200, recall.text)
    assert.deepEqual(typesAfter(session, recall.json.value.tombstoneSeq), [], 'the prompt changed no goal: nothing follows the tombstone')
    const undo = await app.post({ sessionId: agent.id, action: 'restore', tombstoneSeq: recall.json.value.tombstoneSeq })
    assert.equal(undo.status, 200, undo.text)
    assert.equal(session.events.at(-1)!.seq, undo.json.value.restoredSeq, 'nothing follows the restoring copy')
    assert.equal(session.events.filter((e) => (e.type as string) === 'goal/change').length, changes)
    assert.deepEqual(projection(app, session, 'goal'), before)
    assert.equal(goals(app).get(agent)!.objective, objective)
  })

  it('clears a goal whose create_goal step is deleted, removes its goal round, and the next request carries neither', async () => {
    const app = await boot()
    const agent = await app.createAgent()
    const session = agent.session
    const objective = 'Ship the canary-goal-7 report'
    model.script([
      { toolCall: { name: 'create_goal', arguments: { objective, max_goal_rounds: 1 } } },
      'Goal set.',
      'Round one worked on the report.',
    ])
    const from = model.requests.length
    await app.prompt(agent, 'Please make it a goal')
    // The round driver queues round 1 once the turn ends; after it, the round limit blocks the goal.
    await waitFor(() => projection(app, session, 'goal') !== null && (projection(app, session, 'goal') as { goal: { phase: string } }).goal.phase === 'blocked' && agent.status === 'idle', 'goal round 1 ran and the goal is blocked', 15000)
    assert.equal(model.requests.length - from, 3)
    assert.ok(JSON.stringify(model.requests.at(-1)!.body.messages).includes('<goal_round>\\nObjective: \\"Ship the canary-goal-7 report\\"'))

    const createStep = stepCalling(session, 'create_goal')
    const reply = await app.post({ sessionId: agent.id, action: 'delete', seq: createStep })
    assert.equal(reply.status, 200, reply.text)
    assert.equal(reply.json.value.persisted, true)
    const after = session.events.slice(reply.json.value.tombstoneSeq + 1)
    assert.deepEqual(after.map((e) => e.type), ['user/message', 'goal/change'], 'a tombstone for the goal round, then the clear')
    assert.ok(isTombstoneEvent(after[0] as never))
    const round = session.events.find((e) => e.type === 'user/message' && (e.data as { source: { kind: string } }).source.kind === 'goal')!
    assert.deepEqual((after[0] as { sourceEventSeqs?: number[] }).sourceEventSeqs, [round.seq])
    assert.equal((after[1]!.data as unknown as { operation: string }).operation, 'clear')
    assert.equal(projection(app, session, 'goal'), null)
    assert.equal(goals(app).get(agent), undefined)

    model.script(['Next answer.'])
    await app.prompt(agent, 'What now?')
    const wire = JSON.stringify(model.requests.at(-1)!.body.messages)
    assert.equal(wire.includes('canary-goal-7'), false, 'the next request carries no removed objective')
    assert.equal(wire.includes('What now?'), true)
    assert.equal(projection(app, session, 'goal'), null)
  })

  it('an excluded create_goal step clears the goal too, and its goal round is excluded, not deleted', async () => {
    const app = await boot()
    const agent = await app.createAgent()
    const session = agent.session
    model.script([{ toolCall: { name: 'create_goal', arguments: { objective: 'Sort the canary-goal-excluded files', max_goal_rounds: 1 } } }, 'Set.', 'Round one.'])
    await app.prompt(agent, 'Make sorting a goal')
    await waitFor(() => (projection(app, session, 'goal') as { goal?: { phase: string } } | null)?.goal?.phase === 'blocked' && agent.status === 'idle', 'goal blocked after round 1', 15000)
    const reply = await app.post({ sessionId: agent.id, action: 'exclude', seq: stepCalling(session, 'create_goal') })
    assert.equal(reply.status, 200, reply.text)
    const after = session.events.slice(reply.json.value.tombstoneSeq + 1)
    assert.deepEqual(after.map((e) => e.type), ['user/message', 'goal/change'])
    assert.equal((after[0]!.data as unknown as { source: { action: string } }).source.action, 'exclude')
    assert.equal(projection(app, session, 'goal'), null)
  })

  it('with the token meter, the goal round tombstone is priced and the context breakdown stays exact', async () => {
    const app = await boot({ tokenMeter: true })
    const agent = await app.createAgent()
    const session = agent.session
    model.script([{ toolCall: { name: 'create_goal', arguments: { objective: 'Price the canary-goal-meter rounds', max_goal_rounds: 1 } } }, 'Set.', 'Round one.'])
    await app.prompt(agent, 'Make pricing a goal')
    await waitFor(() => (projection(app, session, 'goal') as { goal?: { phase: string } } | null)?.goal?.phase === 'blocked' && agent.status === 'idle', 'goal blocked after round 1', 15000)
    const reply = await app.post({ sessionId: agent.id, action: 'delete', seq: stepCalling(session, 'create_goal') })
    assert.equal(reply.status, 200, reply.text)
    assert.deepEqual(typesAfter(session, reply.json.value.tombstoneSeq), ['compaction/prune', 'user/message', 'goal/change'])
    const values = app.ctx.sessionProjections.snapshot(session).values as { contextBreakdown: { messageTokens: number } }
    assert.equal(values.contextBreakdown.messageTokens, app.ctx.tokenMeter.measure(session).surfaceTokens)
  })

  it('puts an edited goal back to its objective before the editing step', async () => {
    const app = await boot()
    const agent = await app.createAgent()
    const session = agent.session
    const first = 'Write the canary-goal-first plan'
    const second = 'Write the canary-goal-second plan'
    model.script([{ toolCall: { name: 'create_goal', arguments: { objective: first, max_goal_rounds: 1 } } }, 'Created.', 'Round one.'])
    await app.prompt(agent, 'Make a goal of the plan')
    await waitFor(() => (projection(app, session, 'goal') as { goal?: { phase: string } } | null)?.goal?.phase === 'blocked' && agent.status === 'idle', 'goal blocked after round 1', 15000)
    const goal = goals(app).get(agent) as unknown as { id: string; revision: number }
    model.script([{ toolCall: { name: 'update_goal', arguments: { goal_id: goal.id, revision: goal.revision, action: 'edit', objective: second } } }, 'Edited.'])
    await app.prompt(agent, 'Change the goal to the second plan')
    assert.equal((projection(app, session, 'goal') as { goal: { objective: string } }).goal.objective, second)

    const editStep = stepCalling(session, 'update_goal')
    const reply = await app.post({ sessionId: agent.id, action: 'delete', seq: editStep })
    assert.equal(reply.status, 200, reply.text)
    const view = projection(app, session, 'goal') as { goal: { objective: string; phase: string; maxGoalRounds: number } }
    assert.deepEqual({ objective: view.goal.objective, phase: view.goal.phase, maxGoalRounds: view.goal.maxGoalRounds }, { objective: first, phase: 'blocked', maxGoalRounds: 1 })
    assert.deepEqual(typesAfter(session, reply.json.value.tombstoneSeq), ['goal/change'])
    assert.equal((session.events.at(-1)!.data as unknown as { operation: string }).operation, 'edit')
    assert.equal(goals(app).get(agent)!.objective, first)
  })
})
