/**
 * `inspect`'s stored summary with the real JSONL persistence backend (rc.8): served from a cache
 * keyed by the persistence revision of the log (`listSnapshots`), read again only when the stored
 * log changed, and never read twice at once: twenty parallel inspects of one log make one full
 * read. Reads are counted on the real service's `readFrom`.
 */
import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import type { DshApp } from '../support/dsh-app'
import { node, Roots, seededAgent } from './helpers'

const roots = new Roots()
after(() => roots.dispose())

describe('inspect: stored summary cache', () => {
  let app: DshApp
  let reads: string[]
  before(async () => {
    app = await roots.boot(roots.root())
    reads = []
    const persistence = app.ctx.sessionPersistence as unknown as { readFrom(id: string, from: number): Promise<unknown> }
    const readFrom = persistence.readFrom.bind(persistence)
    persistence.readFrom = (id, from) => {
      reads.push(id)
      return readFrom(id, from)
    }
  })

  it('makes one full read for twenty parallel inspects, none while the log is unchanged, and one after a write', async () => {
    const agent = await seededAgent(app, 20)
    const session = agent.session
    assert.equal(await app.ctx.sessions.flush(session), true)
    reads.length = 0

    const replies = await Promise.all(Array.from({ length: 20 }, () => app.post({ sessionId: agent.id, action: 'inspect' })))
    assert.deepEqual(replies.map((r) => r.status), Array(20).fill(200))
    assert.deepEqual(reads, [agent.id], 'one full read of the stored log')
    for (const reply of replies) assert.deepEqual(reply.json.value.disk, replies[0]!.json.value.disk)
    assert.equal(replies[0]!.json.value.disk.eventCount, session.seq)

    await app.post({ sessionId: agent.id, action: 'inspect' })
    await app.post({ sessionId: agent.id, action: 'inspect' })
    assert.equal(reads.length, 1, 'an unchanged log is not read again')

    const del = await app.post({ sessionId: agent.id, action: 'delete', seq: node(session, 'user/message', 'prompt #5') })
    assert.equal(del.status, 200, del.text)
    const fresh = await app.post({ sessionId: agent.id, action: 'inspect' })
    assert.equal(reads.length, 2, 'the write changed the stored log: one more read')
    assert.deepEqual(fresh.json.value.disk.tombstones.map((t: { seq: number }) => t.seq), [del.json.value.tombstoneSeq])
    assert.deepEqual(fresh.json.value.disk, fresh.json.value.live, 'the disk summary is the durable log, equal to the live one')
  })
})
