/**
 * The tombstone writer over the real `Session`: the exact event it appends, what the surface and
 * the derived history look like afterwards, replay equality, convergence, the client's view
 * check, atomic failure, and one live session under the real invariant companions.
 */
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { Context, type Plugin } from '@deepseek-ai/cordis'
import { AgentRegistry } from '@deepseek-ai/dsh-agent'
import { InvariantRegistry } from '@deepseek-ai/dsh-invariants'
import { foldSurface, Session, SessionId, SessionStore, type SessionEvent } from '@deepseek-ai/dsh-session'
import * as sessionInvariant from '@deepseek-ai/dsh-session/invariant'
import * as compactionInvariant from '@deepseek-ai/dsh-compaction/invariant'
import { planRemoval } from '../../src/host/surface-plan'
import { removeMessages } from '../../src/host/removal-service'
import { writeTombstone } from '../../src/host/tombstone-writer'
import { appendTombstone } from '../../src/host/tombstone-append'
import { viewOfSession } from '../../src/host/session-view'
import { SessionAccess } from '../../src/host/stored-session'
import { WriteQueue } from '../../src/host/write-queue'
import { SessionEventIndex } from '../../src/host/event-index'
import { describeRefusal } from '../../src/host/refusals'
import { LogBuilder } from './log-builder'
import { removalPlanning } from '../../src/shared/actions'

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/

function fixture() {
  const b = new LogBuilder('writer-fixture')
  const t1 = b.turn('first prompt', [{ text: 'Reading.', calls: ['a', 'b'] }, { text: 'First reply.' }], { context: true })
  const t2 = b.turn('second prompt with words', [{ text: 'Second reply.' }])
  const t3 = b.turn('third prompt', [{ text: 'Third reply.' }])
  return { b, t1, t2, t3 }
}

/** The writer's view of a builder's session. */
function viewOf(b: LogBuilder) {
  return viewOfSession(b.session, b.lookup, 'live')
}

function assertReplays(session: Session): void {
  assert.deepEqual(foldSurface(session.events).nodes, [...session.surface.nodes])
  const replayed = Session.create(session.id, [...session.events])
  assert.deepEqual(replayed.deriveMessages(), session.deriveMessages())
}

describe('writeTombstone', () => {
  it('appends exactly one empty user/message tombstone with the rc.8 replace op and full coverage', () => {
    const { b, t1 } = fixture()
    const step = t1.steps[0]!
    const before = b.session.seq
    const written = writeTombstone(b.session, viewOf(b), { action: 'delete', target: { seq: step.results[1]! } }, '')
    assert.ok(written.ok)
    assert.equal(b.session.seq, before + 1)
    const event = b.session.events.at(-1)!
    assert.equal(written.event, event)
    const shadowed = [step.assistant, ...step.results]
    assert.deepEqual(Object.keys(event).sort(), ['data', 'seq', 'sourceEventSeqs', 'surfaceOp', 'time', 'type'])
    assert.deepEqual({ ...event, time: 0, data: { ...(event.data as object), id: 'ID' } }, {
      type: 'user/message',
      seq: before,
      time: 0,
      data: { id: 'ID', role: 'user', content: [], source: { kind: 'plugin', plugin: 'dsh-message-recall', action: 'delete', removedSeqs: shadowed } },
      surfaceOp: { op: 'replace', start: step.assistant, end: step.results[1] },
      sourceEventSeqs: shadowed,
    })
    assert.match((event.data as { id: string }).id, UUID)
    assert.deepEqual(written.value, {
      action: 'delete', tombstoneSeq: before, range: { start: step.assistant, end: step.results[1] }, shadowedSeqs: shadowed,
      nodeKinds: ['assistant', 'tool', 'tool'], replaceGeneration: 1,
    })
    assert.ok(shadowed.every((seq) => !b.session.surface.nodes.includes(seq)))
    assert.equal(b.session.surface.nodes[b.session.surface.nodes.indexOf(t1.prompt) + 2], before, 'the tombstone sits where the step was (after prompt and context)')
    assert.ok(!JSON.stringify(b.session.deriveMessages()).includes('a contents for Reading.'))
    assertReplays(b.session)
  })

  it('recall returns the content and text of the prompt and leaves no copy of it in the log tail', () => {
    const { b, t2 } = fixture()
    const written = writeTombstone(b.session, viewOf(b), { action: 'recall', target: { seq: t2.prompt } }, '')
    assert.ok(written.ok)
    assert.deepEqual(written.value.content, [{ type: 'text', text: 'second prompt with words' }])
    assert.equal(written.value.text, 'second prompt with words')
    assert.ok(!JSON.stringify(written.event).includes('second prompt with words'))
    assert.ok(!JSON.stringify(b.session.deriveMessages()).includes('second prompt with words'))
    assertReplays(b.session)
  })

  it('writes one text block when tombstoneText is configured', () => {
    const { b, t2 } = fixture()
    const written = writeTombstone(b.session, viewOf(b), { action: 'delete', target: { seq: t2.prompt } }, '(removed)')
    assert.ok(written.ok)
    assert.deepEqual((written.event.data as { content: unknown }).content, [{ type: 'text', text: '(removed)' }])
    assertReplays(b.session)
  })

  it('converges: the same request again is TARGET_NOT_FOUND and appends nothing', () => {
    const { b, t2 } = fixture()
    const request = { action: 'delete' as const, target: { seq: t2.steps[0]!.assistant } }
    assert.ok(writeTombstone(b.session, viewOf(b), request, '').ok)
    const count = b.session.seq
    const again = writeTombstone(b.session, viewOf(b), request, '')
    assert.ok(!again.ok)
    assert.equal(again.refusal.code, 'TARGET_NOT_FOUND')
    assert.equal(describeRefusal(again.refusal), `message-recall: target seq ${t2.steps[0]!.assistant} is not on the current surface`)
    assert.equal(b.session.seq, count)
  })

  it('delete onward after earlier tombstones leaves one tombstone in the gap', () => {
    const { b, t1, t2 } = fixture()
    const first = writeTombstone(b.session, viewOf(b), { action: 'delete', target: { seq: t2.prompt } }, '')
    assert.ok(first.ok)
    const onward = writeTombstone(b.session, viewOf(b), { action: 'deleteFrom', target: { seq: t1.steps[1]!.assistant } }, '')
    assert.ok(onward.ok)
    assert.ok(onward.value.shadowedSeqs.includes(first.value.tombstoneSeq))
    assert.deepEqual(b.session.surface.nodes.slice(-1), [onward.value.tombstoneSeq])
    assert.equal(b.session.deriveMessages().filter((m) => m.role === 'user' && m.content.length === 0).length, 1)
    assertReplays(b.session)
  })

  it('refuses a stale view with STALE_VIEW and writes the same plan when the view matches', () => {
    const { b, t2, t3 } = fixture()
    const generation = b.session.surface.replaceGeneration
    const lastSeq = b.session.seq - 1
    const staleGeneration = writeTombstone(b.session, viewOf(b), { action: 'delete', target: { seq: t2.prompt }, expect: { replaceGeneration: generation + 1 } }, '')
    assert.ok(!staleGeneration.ok)
    assert.deepEqual(staleGeneration.refusal, { code: 'STALE_VIEW', expected: { replaceGeneration: generation + 1 }, replaceGeneration: generation, ownReplacements: 0, newerSeq: null })
    assert.equal(describeRefusal(staleGeneration.refusal), `message-recall: surface replaceGeneration is ${generation}, expected ${generation + 1}`)

    const staleSeq = writeTombstone(b.session, viewOf(b), { action: 'delete', target: { seq: t2.prompt }, expect: { lastSeq: t3.prompt - 1 } }, '')
    assert.ok(!staleSeq.ok)
    assert.equal(staleSeq.refusal.code, 'STALE_VIEW')
    assert.equal(describeRefusal(staleSeq.refusal), `message-recall: surface node seq ${t3.prompt} is newer than the expected last seq ${t3.prompt - 1}`)
    assert.equal(b.session.seq, lastSeq + 1, 'nothing appended')

    const fresh = writeTombstone(b.session, viewOf(b), { action: 'delete', target: { seq: t2.prompt }, expect: { replaceGeneration: generation, lastSeq } }, '')
    assert.ok(fresh.ok)
  })

  it('leaves event count, surface and replaceGeneration unchanged when the Session rejects the append', () => {
    const { b, t2 } = fixture()
    const stalePlan = planRemoval({ nodes: b.nodes, lookup: b.lookup, planning: removalPlanning('delete'), target: { seq: t2.prompt } })
    assert.ok(stalePlan.ok)
    assert.ok(writeTombstone(b.session, viewOf(b), { action: 'recall', target: { seq: t2.prompt } }, '').ok)
    const count = b.session.seq
    const nodes = [...b.session.surface.nodes]
    const generation = b.session.surface.replaceGeneration
    assert.throws(() => appendTombstone(b.session, { ...stalePlan.plan, action: 'delete' }, ''), { message: `surface replace: start seq ${t2.prompt} not found in surface` })
    assert.equal(b.session.seq, count)
    assert.deepEqual([...b.session.surface.nodes], nodes)
    assert.equal(b.session.surface.replaceGeneration, generation)
  })
})

describe('removeMessages on a live session under the real invariant companions', () => {
  it('writes between turns with the session and compaction invariants loaded, and flushes', async () => {
    const app = new Context()
    try {
      await Promise.all([
        app.plugin(InvariantRegistry, { enabled: true }),
        app.plugin(sessionInvariant as Plugin),
        app.plugin(compactionInvariant as Plugin),
        app.plugin(SessionStore),
        app.plugin(AgentRegistry),
      ])
      await app.inject(['sessions', 'agents', 'invariants'], () => {})
      const { b, t1 } = fixture()
      const session = app.sessions.create(SessionId('live-writer'), { seed: b.events as readonly SessionEvent[] })
      // The companions are live: the session invariant refuses a tool/result rewrite between turns.
      const result = session.events[t1.steps[0]!.results[0]!]!
      const rewrite = session.append.bind(session) as (type: string, data: unknown, opts: unknown) => unknown
      assert.throws(() => rewrite('tool/result', result.data, { surfaceOp: { op: 'replace', start: result.seq, end: result.seq }, sourceEventSeqs: [result.seq] }), /outside any open turn/)
      const index = new SessionEventIndex()
      app.on('session/event', (s, e) => index.observe(s, e))
      const access = new SessionAccess({ sessions: app.sessions, agents: app.agents, lookup: (s) => index.lookup(s), persistence: () => undefined })
      const services = { sessions: app.sessions, agents: app.agents, index, access, queue: new WriteQueue(), tombstoneText: '' }
      const removed = await removeMessages(services, { sessionId: 'live-writer', action: 'delete', target: { seq: t1.steps[0]!.results[0]! } })
      assert.ok(removed.ok, removed.ok ? '' : describeRefusal(removed.refusal))
      assert.equal(removed.value.persisted, false, 'no persistence listener took part')
      assert.deepEqual(removed.value.shadowedSeqs, [t1.steps[0]!.assistant, ...t1.steps[0]!.results])
      assertReplays(session)
      // The index followed the append through session/event: a second write plans against it.
      const second = await removeMessages(services, { sessionId: 'live-writer', action: 'deleteFrom', target: { seq: t1.steps[1]!.assistant } })
      assert.ok(second.ok)
      assert.ok(second.value.shadowedSeqs.includes(removed.value.tombstoneSeq))
      assertReplays(session)
      const missing = await removeMessages(services, { sessionId: 'no-such-session', action: 'delete', target: { seq: 1 } })
      assert.deepEqual(missing, { ok: false, refusal: { code: 'SESSION_NOT_LIVE', sessionId: 'no-such-session' } })
    } finally {
      await app.fiber.dispose()
    }
  })
})
