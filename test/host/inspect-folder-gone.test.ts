/**
 * `inspect` when a session's folder is gone from its place, over real HTTP with the real JSONL
 * persistence backend (rc.8): removed, moved aside inside the sessions root, or replaced by a file
 * (ENOTDIR); the last two make rc.8's own listing of the stored sessions fail. A live session
 * answers `live` with `disk: null`, as documented; a session that was only stored has nothing
 * left to summarize and answers `SESSION_NOT_LIVE`, as an id that never existed does. Neither is
 * a 500, and nothing is written.
 */
import assert from 'node:assert/strict'
import { readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import type { DshApp } from '../support/dsh-app'
import { assertError, node, Roots, seededAgent, sessionFile } from './helpers'

const roots = new Roots()
after(() => roots.dispose())

type Gone = 'removed' | 'moved aside' | 'replaced by a file'

/**
 * Take the session folder of `id` from its place: `removed` moves it out of the sessions root;
 * `moved aside` renames it beside itself (`<folder>.moved`, still inside the root, so rc.8's
 * listing finds a log whose header names another path); `replaced by a file` does that and puts a
 * file where the folder was (ENOTDIR). Returns how to put it back.
 */
function takeFolder(root: string, id: string, how: Gone): () => void {
  const folder = join(sessionFile(root, id), '..')
  const away = how === 'removed' ? join(roots.root(), id) : `${folder}.moved`
  renameSync(folder, away)
  if (how === 'replaced by a file') writeFileSync(folder, 'a file where the session folder was')
  return () => {
    rmSync(folder, { force: true })
    renameSync(away, folder)
  }
}

/** Every entry under `root`, recursively, sorted. */
function tree(root: string): string[] {
  return readdirSync(root, { recursive: true, encoding: 'utf8' }).sort()
}

for (const how of ['removed', 'moved aside', 'replaced by a file'] as const) {
  describe(`inspect with the session folder ${how}`, () => {
    let app: DshApp
    let root: string
    before(async () => {
      root = roots.root()
      app = await roots.boot(root)
    })

    it('a live session answers its live summary with disk: null', async () => {
      const agent = await seededAgent(app, 3)
      const removed = await app.post({ sessionId: agent.id, action: 'delete', seq: node(agent.session, 'user/message', 'prompt #2') })
      assert.equal(removed.status, 200, removed.text)
      const before = await app.post({ sessionId: agent.id, action: 'inspect' })
      assert.equal(before.status, 200, before.text)
      assert.deepEqual(before.json.value.disk, before.json.value.live, 'the stored log was read before the folder went')
      const putBack = takeFolder(root, agent.id, how)
      try {
        const files = tree(root)
        const reply = await app.post({ sessionId: agent.id, action: 'inspect' })
        assert.equal(reply.status, 200, reply.text)
        assert.deepEqual(reply.json, { ok: true, value: { live: before.json.value.live, disk: null } })
        assert.deepEqual(tree(root), files, 'inspect wrote nothing')
      } finally {
        putBack()
      }
      const again = await app.post({ sessionId: agent.id, action: 'inspect' })
      assert.deepEqual(again.json.value.disk, before.json.value.live, 'the folder is back: disk is read again')
    })

    it('a session that was only stored answers SESSION_NOT_LIVE', async () => {
      const agent = await seededAgent(app, 2)
      const id = agent.id
      assert.equal(await app.ctx.sessions.flush(agent.session), true)
      await roots.shut(app)
      app = await roots.boot(root)
      const stored = await app.post({ sessionId: id, action: 'inspect' })
      assert.equal(stored.status, 200, stored.text)
      assert.equal(stored.json.value.live, null)
      assert.equal(stored.json.value.disk.eventCount, (await app.ctx.sessionPersistence.readFrom(id as never, 0)).events.length)
      const putBack = takeFolder(root, id, how)
      try {
        assertError(await app.post({ sessionId: id, action: 'inspect' }), 409, 'SESSION_NOT_LIVE', `message-recall: no session "${id}" (neither open in this host nor stored)`)
      } finally {
        putBack()
      }
    })
  })
}
