/**
 * The per-session write queue: unit behaviour (order, the bounded wait, a give-up does not hold
 * later tasks) and, over real HTTP in the real rc.8 composition, ten concurrent deletes of
 * different prompts all answered 200 with ten tombstones that fold, two tabs' removals planned
 * against the same view both landing, a conflicting one refused, and a real turn still refused at
 * once with 423.
 */
import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { foldSurface } from '@deepseek-ai/dsh-session'
import { waitFor, type DshApp } from '../support/dsh-app'
import { isTombstoneEvent, readTombstone } from '../../src/shared/tombstone'
import type { LogEvent } from '../../src/shared/events'
import { WriteQueue } from '../../src/host/write-queue'
import { assertError, node, Roots, seededAgent } from './helpers'

describe('WriteQueue', () => {
  it('runs the tasks of one key one at a time, in arrival order, and other keys alongside', async () => {
    const queue = new WriteQueue(1000)
    const log: string[] = []
    let open!: () => void
    const gate = new Promise<void>((resolve) => (open = resolve))
    const a = queue.run('s1', async () => { log.push('a start'); await gate; log.push('a end'); return 'a' })
    const b = queue.run('s1', async () => { log.push('b'); return 'b' })
    const other = queue.run('s2', async () => { log.push('other'); return 'other' })
    assert.deepEqual(await other, { ok: true, value: 'other' })
    assert.equal(queue.pending('s1'), 2)
    open()
    assert.deepEqual(await Promise.all([a, b]), [{ ok: true, value: 'a' }, { ok: true, value: 'b' }])
    assert.deepEqual(log, ['a start', 'other', 'a end', 'b'])
    assert.equal(queue.pending('s1'), 0)
  })

  it('gives up after the bounded wait without running the task, and later tasks wait only for earlier ones', async () => {
    const queue = new WriteQueue(30)
    let open!: () => void
    const gate = new Promise<void>((resolve) => (open = resolve))
    const ran: string[] = []
    const a = queue.run('s', async () => { await gate; ran.push('a') })
    const b = await queue.run('s', async () => { ran.push('b') })
    assert.equal(b.ok, false)
    // Timers may fire a millisecond early by the wall clock.
    assert.ok(!b.ok && b.ahead === 1 && b.waitedMs >= 28, JSON.stringify(b))
    const c = queue.run('s', async () => { ran.push('c') })
    open()
    await a
    assert.deepEqual(await c, { ok: true, value: undefined })
    assert.deepEqual(ran, ['a', 'c'])
  })

  it('passes a task failure to its caller and keeps serving the key', async () => {
    const queue = new WriteQueue(1000)
    await assert.rejects(queue.run('s', async () => { throw new Error('boom') }), { message: 'boom' })
    assert.deepEqual(await queue.run('s', async () => 1), { ok: true, value: 1 })
  })
})

const roots = new Roots()
after(() => roots.dispose())

describe('concurrent writes over HTTP', () => {
  let app: DshApp
  before(async () => {
    app = await roots.boot(roots.root(), {
      mock: { sequence: ['success'], repeatLast: true, chunkDelayMs: 40, chunkSize: 4, successText: 'A reply that streams in small pieces for a while.' },
    })
  })

  it('answers ten concurrent deletes of different prompts all 200, with ten tombstones in one order that folds', async () => {
    const agent = await seededAgent(app, 12)
    const session = agent.session
    const prompts = Array.from({ length: 10 }, (_, i) => node(session, 'user/message', `prompt #${i + 2}:`))
    const view = { replaceGeneration: session.surface.replaceGeneration, lastSeq: session.seq - 1 }
    const replies = await Promise.all(prompts.map((seq) => app.post({ sessionId: agent.id, action: 'delete', seq, expect: view })))
    assert.deepEqual(replies.map((r) => r.status), Array(10).fill(200), replies.map((r) => r.text).join('\n'))
    const tombstones = session.events.filter(isTombstoneEvent) as LogEvent[]
    assert.equal(tombstones.length, 10)
    assert.deepEqual(tombstones.map((t) => readTombstone(t)!.shadowedSeqs[0]!).sort((x, y) => x - y), prompts)
    assert.deepEqual(replies.map((r) => r.json.value.replaceGeneration).sort((x, y) => x - y), [1, 2, 3, 4, 5, 6, 7, 8, 9, 10])
    assert.deepEqual(foldSurface(session.events).nodes, [...session.surface.nodes])
    for (const seq of prompts) assert.ok(!session.surface.nodes.includes(seq))
  })

  it('lands two removals planned against one view, and refuses the one that conflicts', async () => {
    const agent = await seededAgent(app)
    const session = agent.session
    const view = { replaceGeneration: 0, lastSeq: session.seq - 1 }
    const prompt2 = node(session, 'user/message', 'prompt #2')
    const [a, b, again] = await Promise.all([
      app.post({ sessionId: agent.id, action: 'recall', seq: prompt2, expect: view }),
      app.post({ sessionId: agent.id, action: 'delete', seq: node(session, 'tool/result', 'result #3.1.1'), expect: view }),
      app.post({ sessionId: agent.id, action: 'delete', seq: prompt2, expect: view }),
    ])
    assert.equal(b.status, 200, b.text)
    // The two removals of prompt #2 conflict: whichever the queue ran second finds it gone.
    const [won, lost] = a.status === 200 ? [a, again] : [again, a]
    assert.equal(won.status, 200, won.text)
    assertError(lost, 409, 'TARGET_NOT_FOUND', `message-recall: target seq ${prompt2} is not on the current surface`)

    await app.prompt(agent, 'prompt #4: a turn moves the surface')
    const stale = await app.post({ sessionId: agent.id, action: 'delete', seq: node(session, 'user/message', 'prompt #1'), expect: view })
    assertError(stale, 409, 'STALE_VIEW', /^message-recall: surface node seq \d+ is newer than the expected last seq \d+$/)
  })

  it('still answers 423 at once while a real turn runs', async () => {
    const agent = await seededAgent(app)
    const session = agent.session
    const turn = app.startPrompt(agent, 'prompt #4: stream for a while')
    await waitFor(() => agent.status === 'running' && app.mock.requests.length > 0, 'the turn is streaming')
    const count = session.seq
    const busy = await app.post({ sessionId: agent.id, action: 'delete', seq: node(session, 'user/message', 'prompt #1') })
    assert.equal(agent.status, 'running', 'refused while the turn still ran, not after a wait')
    assertError(busy, 423, 'AGENT_BUSY', `message-recall: session "${agent.id}" is busy: agent "${agent.id}" already has active work`)
    await turn.idle
    assert.equal(session.events.slice(count).filter(isTombstoneEvent).length, 0)
  })
})
