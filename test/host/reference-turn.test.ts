/**
 * Session-reference snapshots over real HTTP with the real agent loop (DeepSeek encoder, mock
 * model): an agent seeded with a turn whose prompt cited another session, its snapshot appended
 * right after the prompt as `dsh-session-reference` places it. Deleting the citing prompt takes
 * the snapshot too, and the next model request lacks the snapshot's canary; the snapshot can be
 * deleted on its own; the refusals say why, and nothing is appended on a refusal. (The package
 * itself runs in the end-to-end suite, which uses the full rc.8 web host.)
 */
import assert from 'node:assert/strict'
import { after, describe, it } from 'node:test'
import { foldSurface, type Session } from '@deepseek-ai/dsh-session'
import type { Agent } from '@deepseek-ai/dsh-agent'
import { bootDshApp, type DshApp } from '../support/dsh-app'
import { conversationLog, type TurnSpec } from '../support/conversation'
import { wireMessages, wireText, type WireMessage } from '../support/wire'
import { assertError, node } from './helpers'

const CANARY = 'referenced-canary-51c0'

const apps: DshApp[] = []
after(async () => { for (const app of apps.splice(0)) await app.dispose() })

const TURNS: TurnSpec[] = [
  { prompt: 'prompt #1: hello', steps: [{ text: 'reply #1' }] },
  { prompt: 'prompt #2: compare with @Earlier work', reference: { label: 'Earlier work', text: `the earlier session said ${CANARY}` }, steps: [{ text: 'reply #2' }] },
  { prompt: 'prompt #3: thanks', steps: [{ text: 'reply #3' }] },
]

async function seeded(): Promise<{ app: DshApp; agent: Agent; session: Session; prompt: number; snapshot: number }> {
  const app = await bootDshApp({ recall: {}, mock: { sequence: ['success'], repeatLast: true, successText: 'Fresh answer.' } })
  apps.push(app)
  const agent = await app.createAgent({ seed: conversationLog(TURNS) })
  const session = agent.session
  const prompt = node(session, 'user/message', 'prompt #2:')
  const snapshot = node(session, 'user/message', CANARY)
  assert.equal(snapshot, prompt + 1)
  return { app, agent, session, prompt, snapshot }
}

const isEmptyUser = (m: WireMessage) => m.role === 'user' && (m.content === '' || (Array.isArray(m.content) && m.content.length === 0))

function assertReplays(session: Session): void {
  assert.deepEqual(foldSurface(session.events).nodes, [...session.surface.nodes])
}

describe('session-reference snapshots through the route (real loop, mock model)', () => {
  it('delete of the citing prompt takes its snapshot: one tombstone, and the next request lacks both', async () => {
    const { app, agent, session, prompt, snapshot } = await seeded()
    await app.prompt(agent, 'before the delete')
    assert.ok(wireText(wireMessages(app.mock)).includes(CANARY), 'the snapshot reaches the model before the removal')
    const reply = await app.post({ sessionId: agent.id, action: 'delete', seq: prompt })
    assert.equal(reply.status, 200, reply.text)
    const value = reply.json.value
    assert.deepEqual([value.range, value.shadowedSeqs, value.nodeKinds], [{ start: prompt, end: snapshot }, [prompt, snapshot], ['user', 'reference']])
    assertReplays(session)

    await app.prompt(agent, 'after the delete')
    const wire = wireMessages(app.mock)
    const text = wireText(wire)
    assert.ok(!text.includes(CANARY), 'the snapshot is not on the wire')
    assert.ok(!text.includes('prompt #2:'), 'the prompt is not on the wire')
    for (const kept of ['prompt #1: hello', 'reply #2', 'prompt #3: thanks', 'after the delete']) assert.ok(text.includes(kept), kept)
    assert.equal(wire.filter(isEmptyUser).length, 1, 'one tombstone for the gap')
  })

  it('recall of the citing prompt takes its snapshot and returns only the prompt\'s text', async () => {
    const { app, agent, prompt, snapshot } = await seeded()
    const reply = await app.post({ sessionId: agent.id, action: 'recall', seq: prompt })
    assert.equal(reply.status, 200, reply.text)
    assert.deepEqual([reply.json.value.shadowedSeqs, reply.json.value.text], [[prompt, snapshot], 'prompt #2: compare with @Earlier work'])
  })

  it('deletes the snapshot on its own: the prompt stays on the wire, the snapshot does not', async () => {
    const { app, agent, session, snapshot } = await seeded()
    const reply = await app.post({ sessionId: agent.id, action: 'delete', seq: snapshot })
    assert.equal(reply.status, 200, reply.text)
    assert.deepEqual([reply.json.value.shadowedSeqs, reply.json.value.nodeKinds], [[snapshot], ['reference']])
    assertReplays(session)
    await app.prompt(agent, 'after the snapshot delete')
    const text = wireText(wireMessages(app.mock))
    assert.ok(!text.includes(CANARY))
    assert.ok(text.includes('prompt #2: compare with @Earlier work'))
  })

  it('refuses to recall the snapshot, and to undo in place a removal that took it; nothing is appended', async () => {
    const { app, agent, session, prompt, snapshot } = await seeded()
    const count = session.seq
    assertError(await app.post({ sessionId: agent.id, action: 'recall', seq: snapshot }), 409, 'NOT_A_USER_MESSAGE',
      `message-recall: seq ${snapshot} is a session-reference snapshot, not a message the person sent; only those can be recalled`)
    assert.equal(session.seq, count)
    const removed = await app.post({ sessionId: agent.id, action: 'delete', seq: prompt })
    assert.equal(removed.status, 200, removed.text)
    const tombstoneSeq = removed.json.value.tombstoneSeq
    const after = session.seq
    assertError(await app.post({ sessionId: agent.id, action: 'restore', tombstoneSeq }), 409, 'NOT_RESTORABLE',
      `message-recall: tombstone seq ${tombstoneSeq} cannot be undone in place: it shadows 2 messages (seqs ${prompt}, ${snapshot}); open a copy of the conversation from before it instead (action "forkBefore")`)
    assert.equal(session.seq, after)
  })
})
