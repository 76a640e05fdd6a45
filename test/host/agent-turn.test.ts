/**
 * The host route with the real agent loop: a real turn driven through `@deepseek-ai/dsh-llm-deepseek`
 * against `@deepseek-ai/dsh-llm-mock-server` on loopback, then what the model receives on the
 * next request after each kind of removal.
 */
import assert from 'node:assert/strict'
import { readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { after, describe, it } from 'node:test'
import { foldSurface, type Session } from '@deepseek-ai/dsh-session'
import type { Agent } from '@deepseek-ai/dsh-agent'
import { bootDshApp, waitFor, type DshApp, type DshAppOptions } from '../support/dsh-app'
import { conversationLog, syntheticTurns } from '../support/conversation'
import { toolPairingProblems, wireMessages, wireText, type WireMessage } from '../support/wire'
import { isTombstoneEvent } from '../../src/shared/tombstone'

const apps: DshApp[] = []
after(async () => { for (const app of apps.splice(0)) await app.dispose() })
async function boot(options: DshAppOptions): Promise<DshApp> {
  const app = await bootDshApp(options)
  apps.push(app)
  return app
}

/** The surface node whose event has type `type` and whose data mentions `text`. */
function node(session: Session, type: string, text: string): number {
  const events = session.events
  const hits = session.surface.nodes.filter((seq) => events[seq]!.type === type && JSON.stringify(events[seq]!.data).includes(text))
  assert.equal(hits.length, 1, `exactly one ${type} surface node mentions ${JSON.stringify(text)}: ${hits}`)
  return hits[0]!
}

/** The replay invariant after a write: a cold fold of the log gives the live surface. */
function assertReplays(session: Session): void {
  assert.deepEqual(foldSurface(session.events).nodes, [...session.surface.nodes])
}

function tombstones(session: Session) {
  return session.events.filter(isTombstoneEvent)
}

const isEmptyUser = (m: WireMessage) => m.role === 'user' && m.content === ''

describe('host route while the real agent loop runs', () => {
  it('answers 423 AGENT_BUSY while a turn runs, appends nothing, and removes once the turn ended', async () => {
    // The second model request stalls (its stream opens and sends nothing), so the turn runs
    // until it is cancelled, however slow the machine.
    const app = await boot({ recall: {}, mock: { sequence: ['success', 'stall', 'success'], repeatLast: true } })
    const agent = await app.createAgent()
    await app.prompt(agent, 'first prompt')
    const session = agent.session
    const firstPrompt = node(session, 'user/message', 'first prompt')

    const turn = app.startPrompt(agent, 'second prompt')
    await waitFor(() => app.mock.requests.length === 2 && agent.status === 'running', 'second model request in flight')
    const generation = session.surface.replaceGeneration
    const busy = await app.post({ sessionId: agent.id, action: 'delete', seq: firstPrompt })
    assert.equal(agent.status, 'running', 'the turn was still running when the reply came')
    assert.equal(busy.status, 423)
    assert.equal(busy.json.ok, false)
    assert.equal(busy.json.error.code, 'AGENT_BUSY')
    agent.cancel({ kind: 'user' })
    await turn.idle

    assert.deepEqual(tombstones(session), [], 'no tombstone was appended')
    assert.equal(session.surface.replaceGeneration, generation)
    assert.ok(session.surface.nodes.includes(firstPrompt))
    assert.equal(session.events.filter((e) => e.type === 'turn/end').length, 2, 'the cancelled turn ended')

    const done = await app.post({ sessionId: agent.id, action: 'delete', seq: firstPrompt })
    assert.equal(done.status, 200, done.text)
    assert.deepEqual(done.json.value.shadowedSeqs, [firstPrompt])
    assert.equal(done.json.value.tombstoneSeq, session.events.at(-1)!.seq)
    assert.ok(!session.surface.nodes.includes(firstPrompt))
    assertReplays(session)
  })

  it('leaves the log untouched while the model request stalls, then writes after cancellation', async () => {
    const app = await boot({ recall: {}, mock: { sequence: ['success', 'stall', 'success'], repeatLast: true } })
    const agent = await app.createAgent()
    await app.prompt(agent, 'the prompt to recall')
    const session = agent.session
    const target = node(session, 'user/message', 'the prompt to recall')

    const turn = app.startPrompt(agent, 'a prompt whose answer never comes')
    await waitFor(() => app.mock.requests.length === 2, 'stalled request accepted')
    const before = session.events.length
    const busy = await app.post({ sessionId: agent.id, action: 'recall', seq: target })
    assert.equal(busy.status, 423)
    assert.equal(busy.json.error.code, 'AGENT_BUSY')
    assert.equal(session.events.length, before, 'nothing appended')

    agent.cancel({ kind: 'user' })
    await turn.idle
    const recalled = await app.post({ sessionId: agent.id, action: 'recall', seq: target })
    assert.equal(recalled.status, 200, recalled.text)
    assert.equal(recalled.json.value.text, 'the prompt to recall')
    assert.deepEqual(recalled.json.value.content, [{ type: 'text', text: 'the prompt to recall' }])
    assertReplays(session)
  })

  it('answers 423 AGENT_BUSY while another maintenance task holds the agent', async () => {
    const app = await boot({ recall: {} })
    const agent = await app.createAgent()
    await app.prompt(agent, 'a prompt')
    const target = node(agent.session, 'user/message', 'a prompt')
    let release!: () => void
    const held = new Promise<void>((resolve) => { release = resolve })
    const maintenance = agent.runMaintenance(() => held)
    const before = agent.session.events.length
    const busy = await app.post({ sessionId: agent.id, action: 'delete', seq: target })
    assert.equal(busy.status, 423)
    assert.equal(busy.json.error.code, 'AGENT_BUSY')
    assert.equal(agent.session.events.length, before)
    release()
    await maintenance
    const done = await app.post({ sessionId: agent.id, action: 'delete', seq: target })
    assert.equal(done.status, 200, done.text)
  })
})

/**
 * An agent seeded with three realistic turns (each: prompt, a tool step with two calls, a reply),
 * so every removed text is distinct and searchable on the wire.
 */
async function seededAgent(options: DshAppOptions = {}): Promise<{ app: DshApp; agent: Agent; session: Session }> {
  const app = await boot({ recall: {}, mock: { sequence: ['success'], repeatLast: true, successText: 'Fresh answer.' }, ...options })
  const agent = await app.createAgent({ seed: conversationLog(syntheticTurns(3, { toolSteps: 1, toolsPerStep: 2 })) })
  return { app, agent, session: agent.session }
}

describe('what the model receives after a removal (real loop, DeepSeek encoder, mock model)', () => {
  it('recall of a prompt: the next request lacks its text and carries the tombstone as an empty user message', async () => {
    const { app, agent, session } = await seededAgent()
    const prompt2 = node(session, 'user/message', 'prompt #2')
    const reply = await app.post({ sessionId: agent.id, action: 'recall', seq: prompt2 })
    assert.equal(reply.status, 200, reply.text)
    const value = reply.json.value
    assert.equal(value.action, 'recall')
    assert.deepEqual(value.range, { start: prompt2, end: prompt2 })
    assert.deepEqual(value.shadowedSeqs, [prompt2])
    assert.match(value.text, /^prompt #2: /)
    assert.equal(value.tombstoneSeq, session.events.at(-1)!.seq)
    assert.equal(value.replaceGeneration, session.surface.replaceGeneration)
    assertReplays(session)
    assert.ok(!JSON.stringify(session.deriveMessages()).includes('prompt #2:'))

    await app.prompt(agent, 'after the recall')
    const wire = wireMessages(app.mock)
    const text = wireText(wire)
    assert.ok(!text.includes('prompt #2:'), 'the recalled prompt is not on the wire')
    for (const kept of ['prompt #1:', 'prompt #3:', 'Checking step 1 of prompt #2', 'reply #2', 'after the recall']) assert.ok(text.includes(kept), kept)
    const empties = wire.flatMap((m, i) => (isEmptyUser(m) ? [i] : []))
    assert.equal(empties.length, 1, 'one tombstone on the wire')
    const next = wire[empties[0]! + 1]!
    assert.equal(next.role, 'assistant')
    assert.match(JSON.stringify(next.content), /Checking step 1 of prompt #2/, 'the tombstone sits where the prompt was')
    assert.deepEqual(toolPairingProblems(wire), [])
  })

  it('delete of an AI answer that made tool calls removes its whole step: no tool message is left without its call', async () => {
    const { app, agent, session } = await seededAgent({ mock: { sequence: ['tool_call_success', 'success'], repeatLast: true, successText: 'Fresh answer.' } })
    await app.prompt(agent, 'a real turn with a tool call')
    const realCall = node(session, 'assistant/message', 'mock-call-1')
    const realResult = node(session, 'tool/result', 'mock-call-1')
    const byAnswer = await app.post({ sessionId: agent.id, action: 'delete', seq: realCall })
    assert.equal(byAnswer.status, 200, byAnswer.text)
    assert.deepEqual(byAnswer.json.value.shadowedSeqs, [realCall, realResult])
    assertReplays(session)

    // Targeting one tool result of a seeded step takes the assistant message and both results.
    const seededCall = node(session, 'assistant/message', 'Checking step 1 of prompt #2')
    const seededResults = [node(session, 'tool/result', 'result #2.1.1'), node(session, 'tool/result', 'result #2.1.2')]
    const byResult = await app.post({ sessionId: agent.id, action: 'delete', seq: seededResults[1] })
    assert.equal(byResult.status, 200, byResult.text)
    assert.deepEqual(byResult.json.value.shadowedSeqs, [seededCall, ...seededResults])
    assertReplays(session)
    const derived = JSON.stringify(session.deriveMessages())
    for (const gone of ['mock-call-1', 'result #2.1.1', 'call-2-1-2']) assert.ok(!derived.includes(gone), gone)

    await app.prompt(agent, 'after the deletes')
    const wire = wireMessages(app.mock)
    const text = wireText(wire)
    for (const gone of ['mock-call-1', 'unknown tool', 'Checking step 1 of prompt #2', 'result #2.1.1', 'result #2.1.2', 'call-2-1-1']) assert.ok(!text.includes(gone), gone)
    for (const kept of ['prompt #2:', 'reply #2', 'result #3.1.2', 'a real turn with a tool call']) assert.ok(text.includes(kept), kept)
    assert.deepEqual(toolPairingProblems(wire), [])
    assert.equal(wire.filter((m) => m.role === 'tool').length, 4, 'the tool results of turns 1 and 3 stay')
    assert.equal(wire.filter(isEmptyUser).length, 2)
  })

  it('delete onward: the next request holds only what came before the target, then the tombstone', async () => {
    const { app, agent, session } = await seededAgent()
    const prompt2 = node(session, 'user/message', 'prompt #2')
    const lastNode = session.surface.nodes.at(-1)!
    const reply = await app.post({ sessionId: agent.id, action: 'deleteFrom', seq: prompt2 })
    assert.equal(reply.status, 200, reply.text)
    assert.deepEqual(reply.json.value.range, { start: prompt2, end: lastNode })
    assert.equal(reply.json.value.shadowedSeqs.length, 2 * 4 + 2, 'turns 2 and 3: prompt, tool call, two results, reply each')
    assertReplays(session)

    await app.prompt(agent, 'after the truncation')
    const wire = wireMessages(app.mock)
    assert.deepEqual(wire.map((m) => m.role), ['system', 'user', 'assistant', 'tool', 'tool', 'assistant', 'user', 'user'])
    assert.match(String(wire[1]!.content), /^prompt #1: /)
    assert.match(String(wire[5]!.content), /^reply #1: /)
    assert.deepEqual(wire[6], { role: 'user', content: '' })
    assert.deepEqual(wire[7], { role: 'user', content: 'after the truncation' })
    assert.deepEqual(toolPairingProblems(wire), [])
  })

  it('a configured tombstoneText reaches the wire in place of the empty message', async () => {
    const { app, agent, session } = await seededAgent({ recall: { tombstoneText: '[message removed]' } })
    const prompt2 = node(session, 'user/message', 'prompt #2')
    const reply = await app.post({ sessionId: agent.id, action: 'recall', seq: prompt2 })
    assert.equal(reply.status, 200, reply.text)
    assertReplays(session)
    await app.prompt(agent, 'after the recall')
    const wire = wireMessages(app.mock)
    assert.equal(wire.filter(isEmptyUser).length, 0)
    const marked = wire.flatMap((m, i) => (m.role === 'user' && m.content === '[message removed]' ? [i] : []))
    assert.equal(marked.length, 1)
    assert.match(JSON.stringify(wire[marked[0]! + 1]!.content), /Checking step 1 of prompt #2/)
    assert.ok(!wireText(wire).includes('prompt #2:'))
  })
})

describe('durability failure', () => {
  it('answers 500 PERSIST_FAILED when the flush rejects; the tombstone reaches disk once the store can write again', async () => {
    const { app, agent, session } = await seededAgent({ persistence: {} })
    assert.equal(await app.ctx.sessions.flush(session), true)
    const walk = (dir: string): string[] => readdirSync(dir, { withFileTypes: true })
      .flatMap((e) => (e.isDirectory() ? walk(join(dir, e.name)) : [join(dir, e.name)]))
    const file = walk(app.root!).find((f) => /session\.jsonl\.zstd$/.test(f))!
    const sessionDir = join(file, '..')
    // Put a regular file where the session folder was: the backend's next `open(…, 'a')` fails
    // with ENOTDIR (file permissions would not stop a root user).
    renameSync(sessionDir, `${sessionDir}.moved`)
    writeFileSync(sessionDir, 'not a folder')

    const target = node(session, 'assistant/message', 'reply #2')
    const failed = await app.post({ sessionId: agent.id, action: 'delete', seq: target })
    assert.equal(failed.status, 500)
    assert.equal(failed.json.ok, false)
    assert.equal(failed.json.error.code, 'PERSIST_FAILED')
    assert.equal(tombstones(session).length, 1, 'the append is live (the log is append-only); only durability failed')

    rmSync(sessionDir)
    renameSync(`${sessionDir}.moved`, sessionDir)
    assert.equal(await app.ctx.sessions.flush(session), true)
    const stored = await app.ctx.sessionPersistence.load(agent.id)
    assert.equal(stored.events.length, session.events.length)
    assert.deepEqual(stored.events.filter(isTombstoneEvent).map((e) => e.seq), tombstones(session).map((e) => e.seq))
  })
})
