/**
 * `restore` over real HTTP in the real rc.8 composition (agent loop, JSONL persistence, the
 * session, agent-loop and compaction invariant companions): a tombstone over one prompt is undone
 * in place, the derived messages equal those before the removal (ids included), the next model
 * request carries the prompt again, a cold reload gives the same, and every refusal appends
 * nothing.
 */
import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { foldSurface } from '@deepseek-ai/dsh-session'
import type { DshApp } from '../support/dsh-app'
import { wireMessages, wireText } from '../support/wire'
import type { LogEvent } from '../../src/shared/events'
import { readRestore } from '../../src/shared/restore'
import { assertError, derived, node, Roots, seededAgent } from './helpers'

const roots = new Roots()
after(() => roots.dispose())

describe('restore', () => {
  let app: DshApp
  let root: string
  before(async () => {
    root = roots.root()
    app = await roots.boot(root)
  })

  for (const action of ['recall', 'delete', 'exclude'] as const) {
    it(`undoes a ${action} of a prompt in place: same messages and ids, the next request carries it, a cold reload agrees`, async () => {
      const agent = await seededAgent(app)
      const session = agent.session
      const prompt2 = node(session, 'user/message', 'prompt #2')
      const before = derived(session)
      const removed = await app.post({ sessionId: agent.id, action, seq: prompt2 })
      assert.equal(removed.status, 200, removed.text)
      const tombstoneSeq = removed.json.value.tombstoneSeq as number
      assert.notDeepEqual(derived(session), before)

      const restored = await app.post({ sessionId: agent.id, action: 'restore', tombstoneSeq })
      assert.equal(restored.status, 200, restored.text)
      const messageId = (session.events[prompt2]!.data as { id: string }).id
      assert.deepEqual(restored.json.value, {
        action: 'restore', tombstoneSeq, restoredSeq: session.seq - 1, messageId, originalSeq: prompt2, replaceGeneration: 2, persisted: true,
      })
      const copy = session.events[session.seq - 1]! as LogEvent
      assert.deepEqual(copy.data, session.events[prompt2]!.data, 'the copy is the removed message, unchanged')
      assert.deepEqual(copy.surfaceOp, { op: 'replace', start: tombstoneSeq, end: tombstoneSeq })
      assert.deepEqual(copy.sourceEventSeqs, [tombstoneSeq, prompt2])
      assert.deepEqual(readRestore(copy, (seq) => session.events[seq]), { seq: copy.seq, tombstoneSeq, originalSeq: prompt2 })
      assert.deepEqual(derived(session), before, 'derived messages equal those before the removal, ids included')
      assert.deepEqual(foldSurface(session.events).nodes, [...session.surface.nodes])

      const requests = app.mock.requests.length
      await app.prompt(agent, 'prompt #4: what next?')
      assert.equal(app.mock.requests.length, requests + 1)
      const wire = wireMessages(app.mock)
      const texts = wire.filter((m) => m.role === 'user').map((m) => String(m.content))
      const at = texts.findIndex((text) => text.startsWith('prompt #2: please look at the project'))
      assert.ok(at > texts.findIndex((text) => text.startsWith('prompt #1:')) && at < texts.findIndex((text) => text.startsWith('prompt #3:')), `prompt #2 is back in place: ${wireText(wire)}`)
      assert.ok(!texts.includes(''), 'no empty tombstone message on the wire')

      const live = derived(session)
      const id = agent.id
      await roots.shut(app)
      app = await roots.boot(root)
      const resumed = await app.resumeAgent(id)
      assert.deepEqual(derived(resumed.session), live, 'a cold reload derives the same messages')
      assert.deepEqual(foldSurface(resumed.session.events).nodes, [...resumed.session.surface.nodes])
    })
  }

  it('refuses with TARGET_NOT_FOUND, NOT_RESTORABLE, STALE_VIEW, SESSION_NOT_LIVE and INVALID_REQUEST, appending nothing', async () => {
    const agent = await seededAgent(app)
    const session = agent.session
    const prompt1 = node(session, 'user/message', 'prompt #1')
    const step = await app.post({ sessionId: agent.id, action: 'delete', seq: node(session, 'tool/result', 'result #1.1.1') })
    assert.equal(step.status, 200, step.text)
    const stepTombstone = step.json.value.tombstoneSeq as number
    const [call, r1, r2] = step.json.value.shadowedSeqs as number[]
    const prompt3 = node(session, 'user/message', 'prompt #3')
    const recall = await app.post({ sessionId: agent.id, action: 'recall', seq: prompt3 })
    assert.equal(recall.status, 200, recall.text)
    // The step just before the recalled prompt's tombstone: the delete absorbs that tombstone.
    const reply2 = node(session, 'assistant/message', 'reply #2')
    const absorbing = await app.post({ sessionId: agent.id, action: 'delete', seq: reply2 })
    assert.equal(absorbing.status, 200, absorbing.text)
    const absorbingSeq = absorbing.json.value.tombstoneSeq as number
    const recallSeq = recall.json.value.tombstoneSeq as number
    assert.deepEqual(absorbing.json.value.shadowedSeqs, [reply2, recallSeq])
    const onward = await app.post({ sessionId: agent.id, action: 'deleteFrom', seq: node(session, 'assistant/message', 'reply #3') })
    assert.equal(onward.status, 200, onward.text)

    const count = session.seq
    const cases: [string, object, number, string, string][] = [
      ['a prompt, not a tombstone', { tombstoneSeq: prompt1 }, 409, 'TARGET_NOT_FOUND', `message-recall: seq ${prompt1} is not a tombstone of this plugin`],
      ['no such seq', { tombstoneSeq: 99999 }, 409, 'TARGET_NOT_FOUND', 'message-recall: seq 99999 is not a tombstone of this plugin'],
      ['an absorbed tombstone', { tombstoneSeq: recallSeq }, 409, 'TARGET_NOT_FOUND',
        `message-recall: tombstone seq ${recallSeq} is no longer on the surface (already restored, absorbed by a later removal, or compacted)`],
      ['a model step', { tombstoneSeq: stepTombstone }, 409, 'NOT_RESTORABLE',
        `message-recall: tombstone seq ${stepTombstone} cannot be undone in place: it shadows a model step (seqs ${call}, ${r1}, ${r2}: 1 assistant message, 2 tool results), which cannot be put back in place outside a turn; open a copy of the conversation from before it instead (action "forkBefore")`],
      ['a tombstone that absorbed another', { tombstoneSeq: absorbingSeq }, 409, 'NOT_RESTORABLE',
        `message-recall: tombstone seq ${absorbingSeq} cannot be undone in place: it absorbed an earlier tombstone (it shadows seqs ${reply2}, ${recallSeq}); open a copy of the conversation from before it instead (action "forkBefore")`],
      ['a stale view', { tombstoneSeq: stepTombstone, expect: { replaceGeneration: 0 } }, 409, 'STALE_VIEW', 'message-recall: surface replaceGeneration is 4, expected 0'],
      ['no tombstoneSeq', {}, 400, 'INVALID_REQUEST', 'message-recall: tombstoneSeq must be a non-negative safe integer, got nothing'],
      ['a null tombstoneSeq', { tombstoneSeq: null }, 400, 'INVALID_REQUEST', 'message-recall: tombstoneSeq must be a non-negative safe integer, got null'],
      ['a seq instead', { seq: prompt1 }, 400, 'INVALID_REQUEST', 'message-recall: restore takes no seq (fields of restore: sessionId, action, tombstoneSeq, expect); address the tombstone by tombstoneSeq'],
    ]
    for (const [label, fields, status, code, message] of cases) {
      const reply = await app.post({ sessionId: agent.id, action: 'restore', ...fields })
      assertError(reply, status, code, message)
      assert.equal(session.seq, count, `${label}: nothing appended`)
    }
    assertError(await app.post({ sessionId: 'session-none', action: 'restore', tombstoneSeq: 3 }), 409, 'SESSION_NOT_LIVE', 'message-recall: no session "session-none" (neither open in this host nor stored)')
    assertError(await app.post({ sessionId: agent.id, action: 'delete', seq: prompt1, tombstoneSeq: 3 }), 400, 'INVALID_REQUEST',
      'message-recall: delete takes no tombstoneSeq (fields of delete: sessionId, action, seq, messageId, expect)')
    assert.equal(session.seq, count)
  })

  it('answers TARGET_NOT_FOUND to a second restore of the same tombstone', async () => {
    const agent = await seededAgent(app)
    const session = agent.session
    const removed = await app.post({ sessionId: agent.id, action: 'recall', seq: node(session, 'user/message', 'prompt #1') })
    const tombstoneSeq = removed.json.value.tombstoneSeq as number
    assert.equal((await app.post({ sessionId: agent.id, action: 'restore', tombstoneSeq })).status, 200)
    const count = session.seq
    assertError(await app.post({ sessionId: agent.id, action: 'restore', tombstoneSeq }), 409, 'TARGET_NOT_FOUND',
      `message-recall: tombstone seq ${tombstoneSeq} is no longer on the surface (already restored, absorbed by a later removal, or compacted)`)
    assert.equal(session.seq, count)
  })

  it('lets the restored message be removed again, at the copy\'s seq', async () => {
    const agent = await seededAgent(app)
    const session = agent.session
    const prompt2 = node(session, 'user/message', 'prompt #2')
    const first = await app.post({ sessionId: agent.id, action: 'delete', seq: prompt2 })
    const restored = await app.post({ sessionId: agent.id, action: 'restore', tombstoneSeq: first.json.value.tombstoneSeq })
    const copySeq = restored.json.value.restoredSeq as number
    assertError(await app.post({ sessionId: agent.id, action: 'delete', seq: prompt2 }), 409, 'TARGET_NOT_FOUND', `message-recall: target seq ${prompt2} is not on the current surface`)
    const again = await app.post({ sessionId: agent.id, action: 'recall', seq: copySeq })
    assert.equal(again.status, 200, again.text)
    assert.match(again.json.value.text, /^prompt #2: /)
    const inspect = await app.post({ sessionId: agent.id, action: 'inspect' })
    assert.deepEqual(inspect.json.value.live.tombstones.map((t: any) => [t.seq, t.action, t.onSurface, t.inEffect, t.restoredBy]), [
      [first.json.value.tombstoneSeq, 'delete', false, false, copySeq],
      [again.json.value.tombstoneSeq, 'recall', true, true, null],
    ])
    assert.deepEqual(inspect.json.value.disk.tombstones, inspect.json.value.live.tombstones)
  })
})
