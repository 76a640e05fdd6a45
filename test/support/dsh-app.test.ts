import assert from 'node:assert/strict'
import { after, describe, it } from 'node:test'
import { foldSurface } from '@deepseek-ai/dsh-session'
import { bootDshApp, type DshApp } from './dsh-app'
import { conversationLog, logOfSize, syntheticTurns } from './conversation'
import { toolPairingProblems, wireMessages, wireText } from './wire'

const apps: DshApp[] = []
after(async () => { for (const app of apps) await app.dispose() })
const boot = async (...args: Parameters<typeof bootDshApp>) => {
  const app = await bootDshApp(...args)
  apps.push(app)
  return app
}

describe('real rc.8 composition (test/support/dsh-app)', () => {
  it('runs one real turn through the DeepSeek provider against the loopback mock model', async () => {
    const app = await boot({ mock: { sequence: ['tool_call_success', 'success'], repeatLast: true, successText: 'All done here.' } })
    const agent = await app.createAgent()
    await app.prompt(agent, 'Please list the files in src/')

    assert.equal(app.mock.requests.length, 2, 'one request for the tool step, one for the reply')
    const first = wireMessages(app.mock, 0)
    assert.deepEqual(first.at(-1), { role: 'user', content: 'Please list the files in src/' })
    const second = wireMessages(app.mock, 1)
    assert.equal(second.filter((m) => m.role === 'tool').length, 1)
    assert.deepEqual(toolPairingProblems(second), [])
    assert.match(app.mock.requests[0]!.headers.authorization ?? '', /^Bearer mock-/)

    const session = agent.session
    const types = session.events.map((e) => e.type)
    assert.deepEqual(types.filter((t) => t === 'turn/end').length, 1)
    const reply = session.deriveMessages().at(-1)!
    assert.deepEqual(reply.content, [{ type: 'text', text: 'All done here.' }])
    assert.deepEqual(foldSurface(session.events).nodes, [...session.surface.nodes])
    assert.ok(app.port > 0)
  })

  it('generates turns in the order the real loop writes them', async () => {
    const app = await boot({ mock: { sequence: ['tool_call_success', 'success'], repeatLast: true } })
    const agent = await app.createAgent()
    await app.prompt(agent, 'one tool step, then a reply')
    const real = agent.session.events.map((e) => e.type)
    const generated = conversationLog([{ prompt: 'p', steps: [{ tools: [{ result: 'r' }] }, { text: 'mock response recovered' }] }]).map((e) => e.type)
    assert.deepEqual(generated, real)
  })

  it('seeds an agent with a generated log, persists it, and runs a real turn on top of it', async () => {
    const app = await boot({ persistence: {}, mock: { sequence: ['success'], repeatLast: true } })
    const seed = conversationLog(syntheticTurns(3, { toolSteps: 2, toolsPerStep: 3 }))
    const agent = await app.createAgent({ seed })
    await app.prompt(agent, 'and now the fourth prompt')

    const wire = wireMessages(app.mock)
    const text = wireText(wire)
    for (const needle of ['prompt #1', 'result #2.2.3', 'reply #3', 'and now the fourth prompt']) assert.ok(text.includes(needle), needle)
    assert.equal(wire.filter((m) => m.role === 'tool').length, 3 * 2 * 3)
    assert.deepEqual(toolPairingProblems(wire), [])

    assert.equal(await app.ctx.sessions.flush(agent.session), true, 'the JSONL backend took part in the flush')
    const stored = await app.ctx.sessionPersistence.load(agent.id)
    assert.equal(stored.events.length, agent.session.events.length)
  })

  it('sizes logs by event count and serves raw HTTP requests', async () => {
    const log = logOfSize(1000)
    assert.ok(log.length >= 1000 && log.length < 1100, String(log.length))
    const app = await boot()
    const session = app.createSession({ seed: log })
    assert.equal(session.events.length, log.length + 1, 'the store appends session/end-seed')
    const reply = await app.post({ sessionId: session.id, action: 'inspect' })
    assert.equal(reply.status, 404, 'without the plugin, the route does not exist')
  })

  it('finds orphan tool messages and unanswered tool calls on the wire', () => {
    const call = (id: string) => ({ id, type: 'function', function: { name: 'f', arguments: '{}' } })
    const ok = [
      { role: 'user', content: 'q' },
      { role: 'assistant', content: '', tool_calls: [call('a'), call('b')] },
      { role: 'tool', tool_call_id: 'b', content: 'rb' },
      { role: 'tool', tool_call_id: 'a', content: 'ra' },
      { role: 'assistant', content: 'done' },
    ] as const
    assert.deepEqual(toolPairingProblems(ok), [])
    assert.deepEqual(toolPairingProblems([ok[0], { role: 'user', content: '' }, ok[2]]), ['tool message 2 answers unknown call "b"'])
    assert.deepEqual(toolPairingProblems([ok[0], ok[1], ok[2], { role: 'user', content: '' }]), ['tool call "a" is not answered before message 3'])
    assert.deepEqual(toolPairingProblems([ok[0], ok[1], ok[2], ok[3], { role: 'user', content: '' }, ok[2]]), ['tool message 5 answers unknown call "b"'])
  })
})
