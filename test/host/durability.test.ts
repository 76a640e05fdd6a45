/**
 * An honest outcome when the disk fails, with the real JSONL persistence backend (rc.8): the
 * flush is retried; when it still fails the write answers `500 PERSIST_FAILED` with
 * `applied: true`, the value it would have answered (and, for a recall, the recalled content and
 * text), the removal stays in effect in the live log, `{ "action": "flush" }` makes it durable once
 * the disk is back, and no error message carries an absolute path of the machine.
 */
import assert from 'node:assert/strict'
import { readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import type { DshApp } from '../support/dsh-app'
import { flushWithRetry } from '../../src/host/durable-flush'
import { shortenPaths } from '../../src/host/shorten-paths'
import { isTombstoneEvent } from '../../src/shared/tombstone'
import { assertError, node, Roots, seededAgent, sessionFile } from './helpers'

describe('flushWithRetry', () => {
  it('retries with the backoff schedule and succeeds on a later attempt', async () => {
    let calls = 0
    const outcome = await flushWithRetry(async () => {
      if (++calls < 3) throw new Error(`ENOSPC: no space left on device, write '/srv/dsh/sessions/x/session.jsonl.zstd'`)
      return true
    }, { backoffMs: [1, 1, 1] })
    assert.deepEqual(outcome, { ok: true, persisted: true, attempts: 3 })
  })

  it('gives up after the last attempt with the error and a message without paths', async () => {
    const error = new Error(`ENOSPC: no space left on device, write '/srv/dsh/sessions/x/session.jsonl.zstd'`)
    const outcome = await flushWithRetry(async () => { throw error }, { backoffMs: [1, 1] })
    assert.deepEqual(outcome, { ok: false, attempts: 3, error, reason: `ENOSPC: no space left on device, write '…/session.jsonl.zstd'` })
  })
})

describe('shortenPaths', () => {
  it('shortens POSIX and Windows paths and keeps URLs, routes and seq lists', () => {
    assert.equal(shortenPaths(`open '/home/ana/.dsh/sessions/--home-ana-app--/session-1/session.jsonl.zstd'`), `open '…/session.jsonl.zstd'`)
    assert.equal(shortenPaths('(raw log: /var/lib/dsh/x/session.jsonl)'), '(raw log: …/session.jsonl)')
    assert.equal(shortenPaths('C:\\Users\\ana\\.dsh\\sessions\\a\\session.jsonl is busy'), '…/session.jsonl is busy')
    assert.equal(shortenPaths('Origin "http://evil.example:8080" at https://a.example/b/c, route /dsh-message-recall, seqs 1/2'), 'Origin "http://evil.example:8080" at https://a.example/b/c, route /dsh-message-recall, seqs 1/2')
  })
})

const roots = new Roots()
after(() => roots.dispose())

/** The session folder of `id` under `root`, and a way to replace it by a file (ENOTDIR) and put it back. */
function breakFolder(root: string, id: string): { folder: string; restore(): void } {
  const folder = join(sessionFile(root, id), '..')
  renameSync(folder, `${folder}.moved`)
  writeFileSync(folder, 'a file where the session folder was')
  return {
    folder,
    restore() {
      rmSync(folder)
      renameSync(`${folder}.moved`, folder)
    },
  }
}

describe('a failing disk over HTTP', () => {
  let app: DshApp
  let root: string
  before(async () => {
    root = roots.root()
    app = await roots.boot(root)
  })

  it('answers PERSIST_FAILED with applied: true and the value, keeps the removal in effect, and flush saves it once the disk is back', async () => {
    const agent = await seededAgent(app)
    const session = agent.session
    assert.equal(await app.ctx.sessions.flush(session), true)
    const broken = breakFolder(root, agent.id)
    let tombstoneSeq: number
    try {
      const target = node(session, 'tool/result', 'result #2.1.1')
      const step = [node(session, 'assistant/message', 'Checking step 1 of prompt #2'), target, node(session, 'tool/result', 'result #2.1.2')]
      const reply = await app.post({ sessionId: agent.id, action: 'delete', seq: target })
      tombstoneSeq = session.seq - 1
      assertError(reply, 500, 'PERSIST_FAILED',
        `message-recall: seq ${tombstoneSeq} (delete) was appended to session "${agent.id}" and is in effect, but it is not yet durable: the durability flush failed 4 times: ENOTDIR: not a directory, open '…/session.jsonl.zstd'`)
      assert.ok(!reply.text.includes(root), 'no absolute path in the reply')
      assert.equal(reply.json.error.applied, true)
      assert.deepEqual(reply.json.error.value, {
        action: 'delete', tombstoneSeq, range: { start: step[0], end: step[2] }, shadowedSeqs: step, nodeKinds: ['assistant', 'tool', 'tool'], replaceGeneration: 1, persisted: false,
      })
      assert.ok(isTombstoneEvent(session.events[tombstoneSeq]!))
      assert.ok(!session.surface.nodes.includes(target), 'the removal is in effect in the live log')
      assertError(await app.post({ sessionId: agent.id, action: 'delete', seq: target }), 409, 'TARGET_NOT_FOUND', `message-recall: target seq ${target} is not on the current surface`)

      const flushFailed = await app.post({ sessionId: agent.id, action: 'flush' })
      assertError(flushFailed, 500, 'PERSIST_FAILED',
        `message-recall: the live log of session "${agent.id}" through seq ${tombstoneSeq} is not yet durable: the durability flush failed 4 times: ENOTDIR: not a directory, open '…/session.jsonl.zstd'`)
      assert.equal(flushFailed.json.error.applied, true)
    } finally {
      broken.restore()
    }
    const saved = await app.post({ sessionId: agent.id, action: 'flush' })
    assert.equal(saved.status, 200, saved.text)
    assert.deepEqual(saved.json.value, { action: 'flush', lastSeq: session.seq - 1, persisted: true })

    const id = agent.id
    await roots.shut(app)
    app = await roots.boot(root)
    const resumed = await app.resumeAgent(id)
    assert.ok(isTombstoneEvent(resumed.session.events[tombstoneSeq!]!), 'the saved tombstone survives a cold reload')
  })

  it('puts the recalled content and text in the error body of a recall that could not be saved', async () => {
    const agent = await seededAgent(app)
    const session = agent.session
    assert.equal(await app.ctx.sessions.flush(session), true)
    const broken = breakFolder(root, agent.id)
    try {
      const prompt = node(session, 'user/message', 'prompt #3')
      const text = (session.events[prompt]!.data as { content: { text: string }[] }).content[0]!.text
      const reply = await app.post({ sessionId: agent.id, action: 'recall', seq: prompt })
      assertError(reply, 500, 'PERSIST_FAILED', new RegExp(`^message-recall: seq ${session.seq - 1} \\(recall\\) was appended to session "${agent.id}" and is in effect, but it is not yet durable: `))
      assert.equal(reply.json.error.applied, true)
      assert.equal(reply.json.error.text, text)
      assert.deepEqual(reply.json.error.content, [{ type: 'text', text }])
      assert.equal(reply.json.error.value.text, text)
    } finally {
      broken.restore()
    }
    assert.equal((await app.post({ sessionId: agent.id, action: 'flush' })).status, 200)
  })

  it('answers a restore that could not be saved with applied: true and the restore value', async () => {
    const agent = await seededAgent(app)
    const session = agent.session
    const recall = await app.post({ sessionId: agent.id, action: 'recall', seq: node(session, 'user/message', 'prompt #2') })
    assert.equal(recall.status, 200, recall.text)
    const tombstoneSeq = recall.json.value.tombstoneSeq as number
    const broken = breakFolder(root, agent.id)
    try {
      const reply = await app.post({ sessionId: agent.id, action: 'restore', tombstoneSeq })
      const restoredSeq = session.seq - 1
      assertError(reply, 500, 'PERSIST_FAILED', new RegExp(`^message-recall: seq ${restoredSeq} \\(restore\\) was appended to session "${agent.id}" and is in effect, but it is not yet durable: `))
      assert.equal(reply.json.error.applied, true)
      const originalSeq = recall.json.value.shadowedSeqs[0] as number
      assert.deepEqual(reply.json.error.value, {
        action: 'restore', tombstoneSeq, restoredSeq, messageId: (session.events[originalSeq]!.data as { id: string }).id, originalSeq, replaceGeneration: 2, persisted: false,
      })
      assert.ok(session.surface.nodes.includes(restoredSeq), 'the restored message is back in the live surface')
    } finally {
      broken.restore()
    }
    assert.equal((await app.post({ sessionId: agent.id, action: 'flush' })).status, 200)
  })

  it('refuses flush for a session that is not live and with stray fields', async () => {
    assertError(await app.post({ sessionId: 'session-none', action: 'flush' }), 409, 'SESSION_NOT_LIVE', 'message-recall: no session "session-none" (neither open in this host nor stored)')
    assertError(await app.post({ sessionId: 'session-none', action: 'flush', seq: 3 }), 400, 'INVALID_REQUEST', 'message-recall: flush takes no seq (fields of flush: sessionId, action)')
  })

  it('answers an inspect of an unreadable stored log without the machine path', async () => {
    const agent = await seededAgent(app)
    assert.equal(await app.ctx.sessions.flush(agent.session), true)
    const id = agent.id
    await roots.shut(app)
    const file = sessionFile(root, id)
    const bytes = readFileSync(file)
    bytes[bytes.length - 1] = bytes[bytes.length - 1]! ^ 0xff
    bytes[bytes.length - 2] = bytes[bytes.length - 2]! ^ 0xff
    writeFileSync(file, bytes)
    app = await roots.boot(root)
    const reply = await app.post({ sessionId: id, action: 'inspect' })
    assertError(reply, 500, 'INTERNAL', /^message-recall: /)
    assert.ok(!reply.text.includes(root) && !reply.text.includes('/tmp/'), `no machine path: ${reply.json.error.message}`)
  })
})
