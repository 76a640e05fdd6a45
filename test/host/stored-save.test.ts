/**
 * A failed save on a session that was only stored (not live), with the real JSONL persistence
 * backend: the plugin enters the session for the write, the session folder is replaced by a file
 * (ENOTDIR) the moment the session enters the store, so the write is appended and in effect but
 * cannot reach the disk (`500 PERSIST_FAILED`, `applied: true`). Once the folder is back, Save
 * again (`flush`) saves it, the session stays usable (further writes, a prompt through the real
 * agent loop) and a graceful stop keeps the write, also without Save again. The stored logs end
 * with `turn/end`, so entering them needs a `session/end-seed` (the case that lost the write).
 */
import assert from 'node:assert/strict'
import { renameSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { after, describe, it } from 'node:test'
import { foldSurface, SessionId, type Session, type SessionEvent } from '@deepseek-ai/dsh-session'
import { waitFor, type DshApp } from '../support/dsh-app'
import type { LogEvent } from '../../src/shared/events'
import { isTombstoneEvent } from '../../src/shared/tombstone'
import { assertError, Roots, seededAgent, sessionFile } from './helpers'

const roots = new Roots()
after(() => roots.dispose())

async function stored(app: DshApp, id: string): Promise<readonly LogEvent[]> {
  return (await app.ctx.sessionPersistence.readFrom(SessionId(id), 0)).events as readonly LogEvent[]
}

/** The stored surface node of type `type` whose data mentions `text` (exactly one). */
function storedNode(events: readonly LogEvent[], type: string, text: string): number {
  const nodes = foldSurface(events as readonly SessionEvent[]).nodes
  const hits = nodes.filter((seq) => events[seq]!.type === type && JSON.stringify(events[seq]!.data).includes(text))
  assert.equal(hits.length, 1, `one ${type} mentions ${text}`)
  return hits[0]!
}

/**
 * A stored session whose log ends with `turn/end` (a real turn ran after the seed) or with the
 * `session/end-seed` its seeding appended, in an app booted afresh on the same root, so the
 * session is stored and not live.
 */
async function storedSession(last: 'turn/end' | 'session/end-seed' = 'turn/end'): Promise<{ app: DshApp; root: string; id: string }> {
  const root = roots.root()
  const first = await roots.boot(root)
  const agent = await seededAgent(first, 3)
  if (last === 'turn/end') await first.prompt(agent, 'One more question')
  const id = agent.id
  await roots.shut(first)
  const app = await roots.boot(root)
  const events = await stored(app, id)
  assert.equal(events.at(-1)!.type, last, `the stored log ends with ${last}`)
  assert.equal(app.ctx.sessions.get(SessionId(id)), undefined, 'not live')
  return { app, root, id }
}

/**
 * Replace the session folder of `id` by a file the moment the session next enters the store (the
 * plugin entering it for a write), so every write to its log fails with ENOTDIR.
 * @returns `restore()` puts the folder back (once it was broken).
 */
function breakFolderOnEntry(app: DshApp, root: string, id: string): { restore(): void; readonly broken: boolean } {
  const folder = join(sessionFile(root, id), '..')
  let broken = false
  const off = app.ctx.on('session/created', (session: Session) => {
    if (session.id !== id || broken) return
    renameSync(folder, `${folder}.moved`)
    writeFileSync(folder, 'a file where the session folder was')
    broken = true
  })
  return {
    get broken() {
      return broken
    },
    restore() {
      off()
      if (!broken) return
      rmSync(folder)
      renameSync(`${folder}.moved`, folder)
    },
  }
}

const notDurable = (seq: number, action: string, id: string): string =>
  `message-recall: seq ${seq} (${action}) was appended to session "${id}" and is in effect, but it is not yet durable: the durability flush failed 4 times: ENOTDIR: not a directory, open '…/session.jsonl.zstd'`

describe('a failed save on a stored session', () => {
  it('Save again saves it; the session then takes further writes and a prompt, and every write survives a restart', async () => {
    const { app, root, id } = await storedSession()
    const before = await stored(app, id)
    const target = storedNode(before, 'user/message', 'prompt #2')
    const fault = breakFolderOnEntry(app, root, id)
    let tombstoneSeq: number
    try {
      const reply = await app.post({ sessionId: id, action: 'exclude', seq: target })
      assert.ok(fault.broken, 'the folder broke when the plugin entered the session')
      tombstoneSeq = reply.json?.error?.value?.tombstoneSeq
      assertError(reply, 500, 'PERSIST_FAILED', notDurable(tombstoneSeq, 'exclude', id))
      assert.equal(reply.json.error.applied, true)
      assert.equal(tombstoneSeq, before.length + 1, 'after the stored log and its end-seed')
      // Still failing while the folder is gone: the change stays applied, not saved.
      const again = await app.post({ sessionId: id, action: 'flush' })
      assertError(again, 500, 'PERSIST_FAILED',
        `message-recall: the live log of session "${id}" through seq ${tombstoneSeq} is not yet durable: the durability flush failed 4 times: ENOTDIR: not a directory, open '…/session.jsonl.zstd'`)
      assert.equal(again.json.error.applied, true)
      const plan = await app.post({ sessionId: id, action: 'plan', planAction: 'delete', seq: storedNode(before, 'user/message', 'prompt #3') })
      assert.equal(plan.status, 200, plan.text)
    } finally {
      fault.restore()
    }
    const saved = await app.post({ sessionId: id, action: 'flush' })
    assert.equal(saved.status, 200, saved.text)
    assert.deepEqual(saved.json.value, { action: 'flush', lastSeq: tombstoneSeq, persisted: true })
    assert.equal(app.ctx.sessions.get(SessionId(id)), undefined, 'the plugin let the session go once it was saved')
    const onDisk = await stored(app, id)
    assert.equal(onDisk.length, tombstoneSeq + 1)
    assert.equal(onDisk[before.length]!.type, 'session/end-seed')
    assert.ok(isTombstoneEvent(onDisk[tombstoneSeq]!), 'the tombstone is on disk')

    const removed = await app.post({ sessionId: id, action: 'delete', seq: storedNode(before, 'user/message', 'prompt #3') })
    assert.equal(removed.status, 200, removed.text)
    assert.equal(removed.json.value.persisted, true)

    const agent = await app.resumeAgent(id)
    await app.prompt(agent, 'A prompt after the failed save')
    const last = app.mock.requests.at(-1)!.body as { messages: { role: string; content: unknown }[] }
    assert.deepEqual(last.messages.at(-1), { role: 'user', content: 'A prompt after the failed save' })
    const sent = last.messages.filter((m) => m.role === 'user').map((m) => String(m.content))
    assert.ok(!sent.some((text) => text.startsWith('prompt #2:')), 'the excluded prompt is not sent')
    assert.ok(!sent.some((text) => text.startsWith('prompt #3:')), 'the deleted prompt is not sent')
    assert.ok(sent.some((text) => text.startsWith('prompt #1:')), 'the other prompts are')
    const turnEnd = agent.session.seq - 1

    await roots.shut(app)
    const cold = await roots.boot(root)
    const after = await stored(cold, id)
    assert.ok(after.length > turnEnd, 'the turn after the failed save is on disk')
    assert.deepEqual(after.filter(isTombstoneEvent).map((e) => e.seq), [tombstoneSeq, removed.json.value.tombstoneSeq])
  })

  it('a graceful stop saves the write without Save again once the folder is back', async () => {
    const { app, root, id } = await storedSession()
    const before = await stored(app, id)
    const fault = breakFolderOnEntry(app, root, id)
    let tombstoneSeq: number
    try {
      const reply = await app.post({ sessionId: id, action: 'exclude', seq: storedNode(before, 'user/message', 'prompt #1') })
      tombstoneSeq = reply.json?.error?.value?.tombstoneSeq
      assertError(reply, 500, 'PERSIST_FAILED', notDurable(tombstoneSeq, 'exclude', id))
    } finally {
      fault.restore()
    }
    await roots.shut(app)
    const cold = await roots.boot(root)
    const after = await stored(cold, id)
    assert.deepEqual(after.filter(isTombstoneEvent).map((e) => e.seq), [tombstoneSeq])
  })

  it('saves it on its own once the folder is back, and lets the session go, so a prompt resumes it without Save again', async () => {
    const { app, root, id } = await storedSession()
    const before = await stored(app, id)
    const fault = breakFolderOnEntry(app, root, id)
    let tombstoneSeq: number
    try {
      const reply = await app.post({ sessionId: id, action: 'delete', seq: storedNode(before, 'user/message', 'prompt #1') })
      tombstoneSeq = reply.json?.error?.value?.tombstoneSeq
      assertError(reply, 500, 'PERSIST_FAILED', notDurable(tombstoneSeq, 'delete', id))
      assert.ok(app.ctx.sessions.get(SessionId(id)) !== undefined, 'held while it is not saved')
    } finally {
      fault.restore()
    }
    await waitFor(() => app.ctx.sessions.get(SessionId(id)) === undefined, 'the plugin saved the session and let it go', 15_000)
    const onDisk = await stored(app, id)
    assert.deepEqual(onDisk.filter(isTombstoneEvent).map((e) => e.seq), [tombstoneSeq])
    const agent = await app.resumeAgent(id)
    await app.prompt(agent, 'Resumed after the save')
    assert.equal(agent.session.events.at(-1)!.type, 'turn/end')
  })

  it('the same when the stored log already ends with session/end-seed: Save again saves it and a prompt resumes it', async () => {
    const { app, root, id } = await storedSession('session/end-seed')
    const before = await stored(app, id)
    const fault = breakFolderOnEntry(app, root, id)
    let tombstoneSeq: number
    try {
      const reply = await app.post({ sessionId: id, action: 'exclude', seq: storedNode(before, 'user/message', 'prompt #3') })
      tombstoneSeq = reply.json?.error?.value?.tombstoneSeq
      assertError(reply, 500, 'PERSIST_FAILED', notDurable(tombstoneSeq, 'exclude', id))
      assert.equal(tombstoneSeq, before.length, 'no second end-seed')
    } finally {
      fault.restore()
    }
    const saved = await app.post({ sessionId: id, action: 'flush' })
    assert.deepEqual([saved.status, saved.json.value], [200, { action: 'flush', lastSeq: tombstoneSeq, persisted: true }])
    assert.equal(app.ctx.sessions.get(SessionId(id)), undefined)
    const agent = await app.resumeAgent(id)
    await app.prompt(agent, 'After the save')
    assert.ok(isTombstoneEvent(agent.session.events[tombstoneSeq]! as LogEvent))
  })
})
