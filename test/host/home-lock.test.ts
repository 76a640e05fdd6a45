/**
 * One writer per DSH home (`src/host/home-lock.ts`): two real compositions on one session
 * persistence root, as two `dsh web` processes on one DSH_HOME. The first claims the plugin's lock
 * file at start; the second answers every write with `HOME_IN_USE` (409, naming the holder's pid)
 * and appends nothing, while `plan` and `inspect` still answer; once the first is gone the second
 * takes the lock over. A lock left by a process that no longer runs is taken over at once.
 */
import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { after, describe, it } from 'node:test'
import { assertError, Roots, seededAgent } from './helpers'
import { claimLock, PluginHomeLock, PLUGIN_LOCK_FILE } from '../../src/host/home-lock'

const roots = new Roots()
after(() => roots.dispose())

const inUse = (pid: number, since: string) =>
  `message-recall: another host writes this DSH home's sessions (message-recall (pid ${pid}, since ${since})); this host refuses writes through message-recall until that host stops`

describe('two hosts on one DSH home', () => {
  it('the second host refuses writes with HOME_IN_USE naming the first one\'s pid, reads still work, and it takes over once the first is gone', async () => {
    const root = roots.root()
    const first = await roots.boot(root)
    const agent = await seededAgent(first)
    const lockFile = join(root, PLUGIN_LOCK_FILE)
    assert.ok(existsSync(lockFile), 'the first host claimed the lock at start')
    const holder = JSON.parse(readFileSync(lockFile, 'utf8'))
    assert.equal(holder.pid, process.pid)
    assert.equal(holder.owner, 'message-recall')
    assert.equal((await first.post({ sessionId: agent.id, action: 'flush' })).status, 200)

    const second = await roots.boot(root)
    const seq = agent.session.surface.nodes.find((s) => agent.session.events[s]!.type === 'user/message')!
    const lastSeq = agent.session.events.length - 1
    for (const body of [
      { sessionId: agent.id, action: 'delete', seq },
      { sessionId: agent.id, action: 'recall', seq },
      { sessionId: agent.id, action: 'flush' },
      { sessionId: agent.id, action: 'apply', changes: [{ action: 'delete', seq }] },
      { sessionId: agent.id, action: 'forkBefore', tombstoneSeq: 3 },
      { sessionId: agent.id, action: 'erase', tombstoneSeq: 3 },
    ]) {
      const reply = await second.post(body)
      assertError(reply, 409, 'HOME_IN_USE', inUse(process.pid, holder.startedAt))
      assert.equal(reply.json.error.holderPid, process.pid, body.action)
    }
    // Reads go on.
    assert.equal((await second.post({ sessionId: agent.id, action: 'inspect' })).status, 200)
    assert.equal((await second.post({ sessionId: agent.id, action: 'plan', planAction: 'delete', seq })).status, 200)
    assert.equal(agent.session.events.length - 1, lastSeq, 'nothing appended')
    // The first host still writes.
    assert.equal((await first.post({ sessionId: agent.id, action: 'delete', seq })).status, 200)

    await roots.shut(first)
    assert.equal(existsSync(lockFile), false, 'released on dispose')
    const stored = await second.post({ sessionId: agent.id, action: 'inspect' })
    const tombstone = stored.json.value.disk.tombstones[0].seq as number
    const restored = await second.post({ sessionId: agent.id, action: 'restore', tombstoneSeq: tombstone })
    assert.equal(restored.status, 200, restored.text)
    assert.equal(JSON.parse(readFileSync(lockFile, 'utf8')).pid, process.pid, 'the second host holds it now')
  })

  it('a lock left by a process that is gone is taken over at start', async () => {
    const root = roots.root()
    const dead = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' })
    const deadPid = Number(dead.stdout)
    writeFileSync(join(root, PLUGIN_LOCK_FILE), JSON.stringify({ pid: deadPid, startedAt: '2026-01-01T00:00:00.000Z', owner: 'message-recall', token: 'gone' }) + '\n')
    const app = await roots.boot(root)
    const agent = await seededAgent(app)
    const seq = agent.session.surface.nodes.find((s) => agent.session.events[s]!.type === 'user/message')!
    const reply = await app.post({ sessionId: agent.id, action: 'delete', seq })
    assert.equal(reply.status, 200, reply.text)
    assert.equal(JSON.parse(readFileSync(join(root, PLUGIN_LOCK_FILE), 'utf8')).pid, process.pid)
  })

  it('PluginHomeLock: the refused plugin logs one line per holder, and claims the lock once it is released', () => {
    const root = roots.root()
    const warnings: string[] = []
    const first = new PluginHomeLock(() => root, (m) => warnings.push(m))
    const second = new PluginHomeLock(() => root, (m) => warnings.push(m))
    assert.equal(first.check(), null)
    const holder = second.check()
    assert.ok(holder !== null)
    assert.equal(second.check()?.token, holder.token)
    assert.deepEqual(warnings, [`${inUse(process.pid, holder.startedAt)} (lock file .message-recall.lock in the sessions folder)`])
    first.dispose()
    assert.equal(second.check(), null)
    assert.equal(new PluginHomeLock(() => undefined, (m) => warnings.push(m)).check(), null, 'no persistence root: nothing to share')
    second.dispose()
    assert.equal(existsSync(join(root, PLUGIN_LOCK_FILE)), false)
  })

  it('claimLock: a live claim refuses another claim of the same process until released', () => {
    const root = roots.root()
    const file = join(root, 'x.lock')
    const a = claimLock(file, 'a')
    assert.equal(a.ok, true)
    const b = claimLock(file, 'b')
    assert.equal(b.ok, false)
    assert.equal(b.holder.owner, 'a')
    if (a.ok) a.release()
    const c = claimLock(file, 'c')
    assert.equal(c.ok, true)
    if (c.ok) c.release()
    assert.equal(existsSync(file), false)
  })

  it('claimLock: a live pid holds the lock; the same pid with a lock older than its process is a reused pid, taken over', () => {
    const file = join(roots.root(), 'y.lock')
    // The test runner that started this file: another live process.
    const other = process.ppid
    const since = new Date().toISOString()
    writeFileSync(file, JSON.stringify({ pid: other, startedAt: since, owner: 'npm start', token: 't1' }) + '\n')
    const held = claimLock(file, 'b')
    assert.deepEqual(held.ok ? null : held.holder, { pid: other, startedAt: since, owner: 'npm start', token: 't1' })
    writeFileSync(file, JSON.stringify({ pid: other, startedAt: '2000-01-01T00:00:00.000Z', owner: 'npm start', token: 't2' }) + '\n')
    const reused = claimLock(file, 'c')
    assert.equal(reused.ok, true, 'a process that started after the lock was taken is not its holder')
    if (reused.ok) reused.release()
  })
})
