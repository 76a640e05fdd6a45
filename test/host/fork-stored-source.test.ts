/**
 * `forkBefore` on a stored session that is not live reads its source without entering it: a
 * refused `forkBefore` appends nothing to any session, and a copy leaves the source's stored log
 * byte for byte as it was (rc.8 appends `session/end-seed` to a stored log the moment a Session
 * is made of it, `dsh-session` `Session` constructor, so entering the source would write to it).
 * Real rc.8 composition, JSONL persistence on disk, a graceful stop between writing the source
 * and forking it.
 */
import assert from 'node:assert/strict'
import { readFileSync, statSync } from 'node:fs'
import { after, before, describe, it } from 'node:test'
import { SessionId } from '@deepseek-ai/dsh-session'
import type { DshApp } from '../support/dsh-app'
import type { LogEvent } from '../../src/shared/events'
import { isTombstoneEvent } from '../../src/shared/tombstone'
import { assertError, node, Roots, seededAgent, sessionFile } from './helpers'

const roots = new Roots()
after(() => roots.dispose())

async function storedEvents(app: DshApp, id: string): Promise<readonly LogEvent[]> {
  return (await app.ctx.sessionPersistence.readFrom(SessionId(id), 0)).events as readonly LogEvent[]
}

/** Every session id the persistence service lists, sorted. */
async function storedIds(app: DshApp): Promise<string[]> {
  return (await app.ctx.sessionPersistence.list()).map((header) => header.id).sort()
}

describe('forkBefore on a stored source', () => {
  let app: DshApp
  let root: string
  /** Two sources alike (one per test, so neither test depends on the other), stored and not live. */
  const sources: { id: string; tombstoneSeq: number; prompt: number }[] = []
  before(async () => {
    root = roots.root()
    app = await roots.boot(root)
    for (let i = 0; i < 2; i++) {
      const agent = await seededAgent(app, 3)
      const prompt = node(agent.session, 'user/message', 'prompt #1')
      const removed = await app.post({ sessionId: agent.id, action: 'delete', seq: node(agent.session, 'user/message', 'prompt #2') })
      assert.equal(removed.status, 200, removed.text)
      // A turn after the removal, so the stored log ends with `turn/end`.
      await app.prompt(agent, 'one more prompt after the removal')
      assert.equal(await app.ctx.sessions.flush(agent.session), true)
      sources.push({ id: agent.id, tombstoneSeq: removed.json.value.tombstoneSeq, prompt })
    }
    await roots.shut(app)
    app = await roots.boot(root)
  })

  /** A source's stored log file, its bytes and its events, which end with `turn/end`. */
  async function storedSource(id: string): Promise<{ file: string; bytes: Buffer; events: readonly LogEvent[] }> {
    const file = sessionFile(root, id)
    const events = await storedEvents(app, id)
    assert.equal(events.at(-1)!.type, 'turn/end', 'the stored log ends with turn/end')
    return { file, bytes: readFileSync(file), events }
  }

  it('a refused forkBefore appends nothing: the stored log keeps its bytes and its events, no session is added', async () => {
    const { id, prompt } = sources[0]!
    const { file, bytes, events } = await storedSource(id)
    const ids = await storedIds(app)

    assertError(await app.post({ sessionId: id, action: 'forkBefore', tombstoneSeq: prompt }), 409, 'TARGET_NOT_FOUND',
      `message-recall: seq ${prompt} is not a tombstone of this plugin`)
    assertError(await app.post({ sessionId: id, action: 'forkBefore', tombstoneSeq: events.length + 5 }), 409, 'TARGET_NOT_FOUND',
      `message-recall: seq ${events.length + 5} is not a tombstone of this plugin`)

    assert.equal(app.ctx.sessions.get(SessionId(id)), undefined, 'the source was never made live')
    assert.deepEqual(readFileSync(file), bytes, 'the stored log is byte for byte the same')
    assert.equal(statSync(file).size, bytes.length)
    assert.equal((await storedEvents(app, id)).length, events.length)
    assert.deepEqual(await storedIds(app), ids, 'no copy was stored')
  })

  it('a copy leaves its stored source byte for byte as it was, and holds the conversation before the tombstone', async () => {
    const { id, tombstoneSeq } = sources[1]!
    const { file, bytes, events } = await storedSource(id)
    const fork = await app.post({ sessionId: id, action: 'forkBefore', tombstoneSeq })
    assert.equal(fork.status, 200, fork.text)
    assert.equal(fork.json.value.boundarySeq, tombstoneSeq - 1)
    assert.deepEqual(readFileSync(file), bytes, 'the source is not touched')
    assert.equal(app.ctx.sessions.get(SessionId(id)), undefined, 'the source was never made live')
    const copy = await storedEvents(app, fork.json.value.forkedSessionId)
    assert.deepEqual(copy.slice(0, tombstoneSeq), events.slice(0, tombstoneSeq), 'the events before the tombstone, as stored')
    assert.deepEqual(copy.slice(tombstoneSeq).map((e) => e.type), ['session/title'], 'then only its own title')
    assert.equal(copy.filter(isTombstoneEvent).length, 0)
  })
})
