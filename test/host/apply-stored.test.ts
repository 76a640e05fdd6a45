/**
 * `apply` with the real `dsh-token-meter` loaded (every tombstone and restore of a batch priced
 * right before it, the context breakdown exact at once and after a cold reload), and the other
 * writes on stored sessions that are not live: `restore` and `forkBefore` after a restart, and a
 * resume that races a batch on a stored session (never two writers: the log stays one contiguous,
 * folding log with the batch in it once).
 */
import assert from 'node:assert/strict'
import { after, describe, it } from 'node:test'
import { foldSurface, SessionId, type Session, type SessionEvent } from '@deepseek-ai/dsh-session'
import type { DshApp } from '../support/dsh-app'
import { isTombstoneEvent } from '../../src/shared/tombstone'
import type { LogEvent } from '../../src/shared/events'
import { node, Roots, seededAgent } from './helpers'

const roots = new Roots()
after(() => roots.dispose())

function meter(app: DshApp, session: Session): { breakdown: number; measure: number } {
  const values = app.ctx.sessionProjections.snapshot(session).values as { contextBreakdown: { messageTokens: number } }
  return { breakdown: values.contextBreakdown.messageTokens, measure: app.ctx.tokenMeter.measure(session).surfaceTokens }
}

async function stored(app: DshApp, id: string): Promise<readonly LogEvent[]> {
  return (await app.ctx.sessionPersistence.readFrom(SessionId(id), 0)).events as readonly LogEvent[]
}

function storedNode(events: readonly LogEvent[], type: string, text: string): number {
  const nodes = foldSurface(events as readonly SessionEvent[]).nodes
  const hits = nodes.filter((seq) => events[seq]!.type === type && JSON.stringify(events[seq]!.data).includes(text))
  assert.equal(hits.length, 1, `one ${type} mentions ${text}`)
  return hits[0]!
}

describe('apply with the real token meter', () => {
  it('prices every tombstone and restore of a batch right before it; the breakdown equals measure() at once and after a cold reload', async () => {
    const root = roots.root()
    let app = await roots.boot(root, { tokenMeter: true })
    const agent = await seededAgent(app, 4)
    const session = agent.session
    const recall = await app.post({ sessionId: agent.id, action: 'recall', seq: node(session, 'user/message', 'prompt #2') })
    assert.equal(recall.status, 200, recall.text)
    const changes = [
      { action: 'delete', seq: node(session, 'tool/result', 'result #1.1.1') },
      { action: 'restore', tombstoneSeq: recall.json.value.tombstoneSeq },
      { action: 'exclude', seq: node(session, 'assistant/message', 'reply #3') },
    ]
    const applied = await app.post({ sessionId: agent.id, action: 'apply', changes })
    assert.equal(applied.status, 200, applied.text)
    const written = applied.json.value.results.map((r: { restoredSeq?: number; tombstoneSeq: number }) => r.restoredSeq ?? r.tombstoneSeq)
    for (const seq of written) {
      const price = session.events[seq - 1]!
      assert.equal(price.type, 'compaction/prune', `seq ${seq} is priced right before it`)
      const replaced = session.events[seq] as LogEvent
      const range = replaced.surfaceOp as { start: number; end: number }
      assert.deepEqual((price.data as { shadowedRange: unknown }).shadowedRange, { start: range.start, end: range.end })
    }
    assert.equal(session.events.filter((e) => e.type === 'compaction/prune').length, 4, 'the recall and the three replaces of the batch')
    const now = meter(app, session)
    assert.equal(now.breakdown, now.measure)
    const excluded = (session.events[applied.json.value.results[2].tombstoneSeq] as LogEvent).data as { source: { action: string } }
    assert.equal(excluded.source.action, 'exclude')

    const id = agent.id
    await roots.shut(app)
    app = await roots.boot(root, { tokenMeter: true })
    const resumed = await app.resumeAgent(id)
    const cold = meter(app, resumed.session)
    assert.deepEqual([cold.breakdown, cold.measure], [now.measure, now.measure])
  })
})

describe('other writes on stored sessions that are not live', () => {
  it('restore and forkBefore after a restart, without an agent; the session is released afterwards; flush refuses it as not live', async () => {
    const root = roots.root()
    let app = await roots.boot(root)
    const agent = await seededAgent(app, 3)
    const id = agent.id
    const removed = await app.post({ sessionId: id, action: 'delete', seq: node(agent.session, 'user/message', 'prompt #2') })
    assert.equal(removed.status, 200, removed.text)
    const tombstoneSeq = removed.json.value.tombstoneSeq
    await roots.shut(app)

    app = await roots.boot(root)
    // flush needs a live session: a stored one has nothing of this process left to save.
    const flush = await app.post({ sessionId: id, action: 'flush' })
    assert.deepEqual([flush.status, flush.json], [409, { ok: false, error: { code: 'SESSION_NOT_LIVE', message: `message-recall: no live session "${id}"` } }])
    const restored = await app.post({ sessionId: id, action: 'restore', tombstoneSeq })
    assert.equal(restored.status, 200, restored.text)
    assert.equal(app.ctx.agents.get(SessionId(id)), undefined)
    assert.equal(app.ctx.sessions.get(SessionId(id)), undefined, 'released')
    const afterRestore = await stored(app, id)
    assert.deepEqual(afterRestore[restored.json.value.restoredSeq]!.sourceEventSeqs, [tombstoneSeq, removed.json.value.shadowedSeqs[0]])

    const fork = await app.post({ sessionId: id, action: 'forkBefore', tombstoneSeq })
    assert.equal(fork.status, 200, fork.text)
    assert.equal(app.ctx.sessions.get(SessionId(id)), undefined, 'the source was released after the fork')
    const copy = await stored(app, fork.json.value.forkedSessionId)
    assert.ok(copy.length >= tombstoneSeq, 'the copy holds the log before the tombstone')
    assert.ok(!copy.some(isTombstoneEvent), 'and not the tombstone')

    const missing = await app.post({ sessionId: 'session-nobody', action: 'restore', tombstoneSeq: 1 })
    assert.deepEqual([missing.status, missing.json.error.code], [409, 'SESSION_NOT_LIVE'])
  })

  it('a resume racing a batch on a stored session: one writer at a time, one contiguous log that folds, the batch in it once', async () => {
    const root = roots.root()
    let app = await roots.boot(root)
    const agent = await seededAgent(app, 3)
    const id = agent.id
    await roots.shut(app)
    app = await roots.boot(root)
    const events = await stored(app, id)
    const changes = [{ action: 'delete', seq: storedNode(events, 'user/message', 'prompt #1') }, { action: 'delete', seq: storedNode(events, 'assistant/message', 'reply #3') }]
    const [applied, resumed] = await Promise.allSettled([app.post({ sessionId: id, action: 'apply', changes }), app.resumeAgent(id)])
    assert.equal(applied.status, 'fulfilled')
    const reply = (applied as PromiseFulfilledResult<{ status: number; json: any; text: string }>).value
    // Either the batch went first and the resume was refused while the plugin held the session,
    // or the resume won and the batch ran in the agent's maintenance slot (or found it busy).
    if (resumed.status === 'rejected') assert.match(String(resumed.reason), /while it is live/)
    assert.ok([200, 423].includes(reply.status), reply.text)
    const after = await stored(app, id)
    after.forEach((event, i) => assert.equal(event.seq, i, 'contiguous'))
    const folded = foldSurface(after as readonly SessionEvent[]).nodes
    if (resumed.status === 'fulfilled') {
      await app.ctx.sessions.flush(resumed.value.session)
      assert.deepEqual([...resumed.value.session.surface.nodes], foldSurface(resumed.value.session.events).nodes, 'the live agent folds its own log')
    }
    assert.ok(folded.length > 0)
    assert.equal(after.filter(isTombstoneEvent).length, reply.status === 200 ? 2 : 0)
  })
})
