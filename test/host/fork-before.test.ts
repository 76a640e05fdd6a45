/**
 * `forkBefore` over real HTTP in the real rc.8 composition (JSONL persistence, invariant
 * companions, the session-title service and the web app's workspace registry): the copy holds
 * exactly the conversation before the tombstone, for a step delete, a delete onward and a nested
 * pair (current and already-shadowed tombstones); it is stored, not left live, carries its own
 * title, joins the source's workspace, survives a cold reload and runs a real turn.
 */
import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { foldSurface, SessionId } from '@deepseek-ai/dsh-session'
import type { DshApp } from '../support/dsh-app'
import { wireMessages, wireText } from '../support/wire'
import { assertError, derived, node, Roots, seededAgent } from './helpers'

const roots = new Roots()
after(() => roots.dispose())

describe('forkBefore', () => {
  let app: DshApp
  let root: string
  before(async () => {
    root = roots.root()
    app = await roots.boot(root, { sessionTitle: true, workspaces: true })
  })

  it('copies the conversation as it was before a step delete, a delete onward and a nested pair', async () => {
    const project = roots.root()
    const agent = await seededAgent(app, 4, project)
    const session = agent.session
    const workspace = await app.ctx.workspaceRegistry.create(project)
    await app.ctx.sessions.flush(session)
    await workspace.attachSession(agent.id as SessionId)

    const expected = new Map<number, unknown[]>()
    const write = async (body: object): Promise<number> => {
      const before = derived(session)
      const reply = await app.post({ sessionId: agent.id, ...body })
      assert.equal(reply.status, 200, reply.text)
      expected.set(reply.json.value.tombstoneSeq, before)
      return reply.json.value.tombstoneSeq
    }
    const step = await write({ action: 'delete', seq: node(session, 'tool/result', 'result #1.1.2') })
    const inner = await write({ action: 'recall', seq: node(session, 'user/message', 'prompt #4') })
    // Delete onward from reply #3 absorbs the recall's tombstone: a nested pair.
    const outer = await write({ action: 'deleteFrom', seq: node(session, 'assistant/message', 'reply #3') })
    assert.ok(!session.surface.nodes.includes(inner), 'the inner tombstone is shadowed')
    const onward = await write({ action: 'deleteFrom', seq: node(session, 'assistant/message', 'reply #2') })

    // Four copies of one session: each gets the next copy number.
    const titles = ['(copy)', '(copy 2)', '(copy 3)', '(copy 4)'].map((suffix) => `prompt #1: please look at ${suffix}`)
    for (const [n, tombstoneSeq] of [step, inner, outer, onward].entries()) {
      const count = session.seq
      const copyTitle = titles[n]!
      const reply = await app.post({ sessionId: agent.id, action: 'forkBefore', tombstoneSeq })
      assert.equal(reply.status, 200, reply.text)
      const { forkedSessionId } = reply.json.value
      assert.match(forkedSessionId, /^session-[0-9a-f-]{36}$/)
      assert.deepEqual(reply.json.value, { action: 'forkBefore', tombstoneSeq, forkedSessionId, boundarySeq: tombstoneSeq - 1, title: copyTitle, persisted: true })
      assert.equal(session.seq, count, 'the original is not touched')
      assert.equal(app.ctx.sessions.get(SessionId(forkedSessionId)), undefined, 'the copy is stored, not left live')
      assert.ok(workspace.sessionIds.includes(SessionId(forkedSessionId)), 'the copy joined the source workspace')

      const copy = await app.resumeAgent(forkedSessionId)
      assert.deepEqual(derived(copy.session), expected.get(tombstoneSeq), `the copy before ${tombstoneSeq} derives the conversation as it was`)
      assert.equal(copy.session.header.parentSession, agent.id)
      const title = copy.session.events.findLast((e) => e.type === 'session/title')!
      assert.deepEqual(title.data, { title: copyTitle, messageSeqs: [], source: { kind: 'user' } })
      assert.equal(app.ctx.sessionTitle.get(copy.session)?.title, copyTitle)
    }
  })

  it('survives a cold reload and runs a real turn that carries the step the original lost', async () => {
    const agent = await seededAgent(app, 2, '/projects/fork-turn')
    const session = agent.session
    const del = await app.post({ sessionId: agent.id, action: 'delete', seq: node(session, 'tool/result', 'result #2.1.1') })
    const fork = await app.post({ sessionId: agent.id, action: 'forkBefore', tombstoneSeq: del.json.value.tombstoneSeq })
    assert.equal(fork.status, 200, fork.text)
    const id = fork.json.value.forkedSessionId as string
    const live = derived(session)

    await roots.shut(app)
    app = await roots.boot(root, { sessionTitle: true, workspaces: true })
    const copy = await app.resumeAgent(id)
    assert.deepEqual(foldSurface(copy.session.events).nodes, [...copy.session.surface.nodes])
    await app.prompt(copy, 'prompt #3: and now?')
    const wire = wireText(wireMessages(app.mock))
    assert.ok(wire.includes('result #2.1.1') && wire.includes('prompt #3: and now?'), `the copy's turn carries the step: ${wire.slice(0, 200)}`)
    const original = await app.resumeAgent(agent.id)
    assert.deepEqual(derived(original.session), live, 'the original still lacks the step')
  })

  it('refuses a seq that is not a tombstone and a session that is not live, creating nothing', async () => {
    const agent = await seededAgent(app)
    const prompt = node(agent.session, 'user/message', 'prompt #1')
    const stored = app.ctx.sessions.list().length
    assertError(await app.post({ sessionId: agent.id, action: 'forkBefore', tombstoneSeq: prompt }), 409, 'TARGET_NOT_FOUND', `message-recall: seq ${prompt} is not a tombstone of this plugin`)
    assertError(await app.post({ sessionId: 'session-gone', action: 'forkBefore', tombstoneSeq: 1 }), 409, 'SESSION_NOT_LIVE', 'message-recall: no session "session-gone" (neither open in this host nor stored)')
    assertError(await app.post({ sessionId: agent.id, action: 'forkBefore', tombstoneSeq: 1, expect: { lastSeq: 1 } }), 400, 'INVALID_REQUEST',
      'message-recall: forkBefore takes no expect (fields of forkBefore: sessionId, action, tombstoneSeq)')
    assert.equal(app.ctx.sessions.list().length, stored)
  })
})
