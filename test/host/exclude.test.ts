/**
 * `exclude` over real HTTP in the real rc.8 composition: planned exactly like `delete`, written
 * as the same kind of tombstone with `source.action: "exclude"`; the next model request lacks
 * the rows while the transcript events stay append-origin in the log; `plan` previews it and
 * `inspect` reports it.
 */
import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { isAppendSurfaceEvent } from '@deepseek-ai/dsh-session'
import type { DshApp } from '../support/dsh-app'
import { toolPairingProblems, wireMessages, wireText } from '../support/wire'
import { isTombstoneEvent } from '../../src/shared/tombstone'
import { node, Roots, seededAgent } from './helpers'

const roots = new Roots()
after(() => roots.dispose())

describe('exclude', () => {
  let app: DshApp
  before(async () => {
    app = await roots.boot(roots.root())
  })

  it('takes a whole tool step out of the model context and keeps its rows in the log', async () => {
    const agent = await seededAgent(app)
    const session = agent.session
    const tool = node(session, 'tool/result', 'result #2.1.2')
    const planned = await app.post({ sessionId: agent.id, action: 'plan', planAction: 'exclude', seq: tool })
    assert.equal(planned.status, 200, planned.text)
    const asDelete = await app.post({ sessionId: agent.id, action: 'plan', planAction: 'delete', seq: tool })
    assert.deepEqual({ ...planned.json.value, action: 'delete' }, asDelete.json.value, 'planned exactly like delete')
    assert.equal(planned.json.value.action, 'exclude')

    const excluded = await app.post({ sessionId: agent.id, action: 'exclude', seq: tool, expect: { replaceGeneration: planned.json.value.replaceGeneration, lastSeq: planned.json.value.lastSeq } })
    assert.equal(excluded.status, 200, excluded.text)
    assert.equal(excluded.json.value.action, 'exclude')
    assert.deepEqual(excluded.json.value.shadowedSeqs, planned.json.value.shadowedSeqs)
    const tombstone = session.events[excluded.json.value.tombstoneSeq]!
    assert.ok(isTombstoneEvent(tombstone))
    assert.deepEqual((tombstone.data as { source: unknown }).source, { kind: 'plugin', plugin: 'dsh-message-recall', action: 'exclude', removedSeqs: planned.json.value.shadowedSeqs })
    for (const seq of planned.json.value.shadowedSeqs as number[]) {
      assert.ok(isAppendSurfaceEvent(session.events[seq]!), `seq ${seq} stays an append-origin event (the transcript row)`)
      assert.ok(!session.surface.nodes.includes(seq))
    }

    await app.prompt(agent, 'prompt #4: go on')
    const wire = wireMessages(app.mock)
    const text = wireText(wire)
    assert.ok(!text.includes('result #2.1.1') && !text.includes('result #2.1.2') && !text.includes('Checking step 1 of prompt #2'), 'the step is not on the wire')
    assert.ok(text.includes('result #1.1.1') && text.includes('reply #2'), 'the rest is')
    assert.deepEqual(toolPairingProblems(wire), [])

    const inspect = await app.post({ sessionId: agent.id, action: 'inspect' })
    assert.deepEqual(inspect.json.value.live.tombstones.map((t: any) => [t.action, t.inEffect, t.restoredBy]), [['exclude', true, null]])
  })

  it('excludes a prompt that a restore brings back', async () => {
    const agent = await seededAgent(app)
    const session = agent.session
    const prompt = node(session, 'user/message', 'prompt #3')
    const excluded = await app.post({ sessionId: agent.id, action: 'exclude', messageId: (session.events[prompt]!.data as { id: string }).id })
    assert.equal(excluded.status, 200, excluded.text)
    assert.equal(excluded.json.value.content, undefined, 'only recall returns content')
    const restored = await app.post({ sessionId: agent.id, action: 'restore', tombstoneSeq: excluded.json.value.tombstoneSeq })
    assert.equal(restored.status, 200, restored.text)
    assert.ok(JSON.stringify(session.deriveMessages()).includes('prompt #3: please'))
  })
})
