/**
 * The built `dsh-message-recall-log erase` holds the host plugin's own lock on the DSH home for the
 * whole erase (`scripts/support/home-holder.ts` `claimHome`), on a session the real rc.8
 * composition wrote under `<DSH home>/sessions` (zstd). The erase is stopped (`SIGSTOP`) as soon as
 * the lock file appears: the file names the erase's pid and owner; a host started meanwhile (a
 * real composition on the same home) answers a write with `HOME_IN_USE` naming the erase, with
 * nothing appended; a second erase refuses naming it, exit 1. Let go, the erase ends with exit 0
 * and the lock file is gone. An erase killed (`SIGKILL`) while it holds the lock leaves a stale
 * lock that blocks neither the next host (it takes the lock over and writes) nor the next erase.
 */
import assert from 'node:assert/strict'
import { spawn, spawnSync, type ChildProcess } from 'node:child_process'
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import type { Session } from '@deepseek-ai/dsh-session'
import type { DshApp } from '../support/dsh-app'
import { conversationLog, syntheticTurns } from '../support/conversation'
import { assertError, node, Roots } from '../host/helpers'
import { LOG_TOOL, pendingEraseHome } from '../support/pending-erase-home'
import { homeInUseMessage, PLUGIN_LOCK_FILE, type LockHolder } from '../../src/host/home-lock'
import { decodeLogBytes } from '../../src/host/jsonl-log-file'

const CANARY_A = 'CANARY-lock-a-5d1e'
const CANARY_B = 'CANARY-lock-b-5d1e'

/** An erase run in a child process, its output collected. */
interface Erase {
  readonly child: ChildProcess
  /** Resolves with its exit code (`null` when a signal ended it) and its output. */
  readonly ended: Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }>
}

function startErase(logPath: string, tombstoneSeq: number): Erase {
  const child = spawn(process.execPath, [LOG_TOOL, 'erase', logPath, '--tombstone', String(tombstoneSeq), '--json'], { stdio: ['ignore', 'pipe', 'pipe'] })
  let stdout = ''
  let stderr = ''
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk))
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk))
  const ended = new Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }>((resolve, reject) => {
    child.on('error', reject)
    child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr }))
  })
  return { child, ended }
}

/** Wait until the lock file exists, then stop the erase at once (`SIGSTOP`); fails when the erase ends first. */
async function stopWhenLocked(erase: Erase, lockFile: string): Promise<void> {
  const deadline = Date.now() + 60_000
  while (!existsSync(lockFile)) {
    if (erase.child.exitCode !== null) assert.fail(`the erase ended before its lock file was seen: ${JSON.stringify(await erase.ended)}`)
    assert.ok(Date.now() < deadline, 'the erase took no lock within 60 s')
    await new Promise((resolve) => setImmediate(resolve))
  }
  erase.child.kill('SIGSTOP')
}

describe('dsh-message-recall-log erase holds the home lock while it erases', () => {
  const roots = new Roots()
  const dshHome = pendingEraseHome('recall-erase-tool-lock-')
  const { home } = dshHome
  const sessions = join(home, 'sessions')
  const lockFile = join(sessions, PLUGIN_LOCK_FILE)
  const running: Erase[] = []
  let logPath: string
  let sessionId: string
  let first: { tombstoneSeq: number; shadowedSeqs: number[] }
  let second: { tombstoneSeq: number; shadowedSeqs: number[] }
  before(async () => {
    dshHome.enter()
    const app = await roots.boot(sessions)
    // Long enough that the erase takes a while after it took the lock (DSH's code loads, the log is rewritten and checked).
    const agent = await app.createAgent({ seed: conversationLog([
      { prompt: `${CANARY_A} first prompt`, steps: [{ text: 'one' }] },
      { prompt: `${CANARY_B} second prompt`, steps: [{ text: 'two' }] },
      ...syntheticTurns(150),
    ]) })
    sessionId = agent.id
    const session = agent.session as Session
    const a = await app.post({ sessionId, action: 'delete', seq: node(session, 'user/message', CANARY_A) })
    const b = await app.post({ sessionId, action: 'delete', seq: node(session, 'user/message', CANARY_B) })
    assert.deepEqual([a.status, b.status], [200, 200], a.text + b.text)
    first = a.json.value
    second = b.json.value
    await app.ctx.sessions.flush(session)
    logPath = (app.ctx as any).sessionPersistence.locate({ id: sessionId, cwd: session.header.cwd }).path as string
    await roots.shut(app)
    assert.equal(existsSync(lockFile), false, 'the stopped host released its lock')
  })
  after(async () => {
    for (const erase of running) if (erase.child.exitCode === null && erase.child.signalCode === null) erase.child.kill('SIGKILL')
    await Promise.all(running.map((erase) => erase.ended))
    await roots.dispose()
    dshHome.leave()
  })

  it('the lock file names the erase while it runs; a host started meanwhile refuses writes, a second erase refuses; gone after', async () => {
    const erase = startErase(logPath, first.tombstoneSeq)
    running.push(erase)
    await stopWhenLocked(erase, lockFile)
    const holder = JSON.parse(readFileSync(lockFile, 'utf8')) as LockHolder
    assert.deepEqual([holder.pid, holder.owner], [erase.child.pid, 'dsh-message-recall-log erase'])

    // A host started while the erase runs: its plugin finds the lock live and refuses writes.
    const host = await roots.boot(sessions)
    try {
      const agent = await host.createAgent({ seed: conversationLog([{ prompt: 'a prompt in the other host', steps: [{ text: 'ok' }] }]) })
      const lastSeq = agent.session.seq
      const reply = await host.post({ sessionId: agent.id, action: 'delete', seq: node(agent.session, 'user/message', 'a prompt in the other host') })
      assertError(reply, 409, 'HOME_IN_USE', homeInUseMessage(holder))
      assert.equal(reply.json.error.holderPid, erase.child.pid)
      assert.equal(agent.session.seq, lastSeq, 'nothing appended')
    } finally {
      await roots.shut(host)
    }
    assert.deepEqual(JSON.parse(readFileSync(lockFile, 'utf8')), holder, 'the refused host left the erase\'s lock as it was')

    // A second erase of the same home refuses, naming the one that runs.
    const other = spawnSync(process.execPath, [LOG_TOOL, 'erase', logPath, '--tombstone', String(second.tombstoneSeq)], { encoding: 'utf8' })
    assert.deepEqual({ status: other.status, stdout: other.stdout, stderr: other.stderr }, {
      status: 1,
      stdout: `refused, nothing changed: cannot erase removal ${second.tombstoneSeq}: a running host holds this DSH home: dsh-message-recall-log erase (pid ${erase.child.pid}, since ${holder.startedAt}), lock file ${lockFile}; stop that host first\n`,
      stderr: '',
    })

    erase.child.kill('SIGCONT')
    const done = await erase.ended
    assert.deepEqual([done.code, done.stderr], [0, ''], done.stdout)
    const value = JSON.parse(done.stdout) as { ok: boolean; sessionId: string; tombstoneSeq: number; messageSeqs: number[] }
    assert.deepEqual([value.ok, value.sessionId, value.tombstoneSeq, value.messageSeqs], [true, sessionId, first.tombstoneSeq, first.shadowedSeqs])
    assert.equal(existsSync(lockFile), false, 'the erase released its lock')
    const text = decodeLogBytes(readFileSync(logPath), 'zstd')
    assert.deepEqual([text.includes(CANARY_A), text.includes(CANARY_B)], [false, true])
  })

  it('a lock left by an erase killed while it held it blocks neither the next host nor the next erase', async () => {
    const erase = startErase(logPath, second.tombstoneSeq)
    running.push(erase)
    await stopWhenLocked(erase, lockFile)
    erase.child.kill('SIGKILL')
    const killed = await erase.ended
    assert.deepEqual([killed.code, killed.signal], [null, 'SIGKILL'])
    const stale = JSON.parse(readFileSync(lockFile, 'utf8')) as LockHolder
    assert.deepEqual([stale.pid, stale.owner], [erase.child.pid, 'dsh-message-recall-log erase'], 'the killed erase left its lock')

    // The next host takes the stale lock over and writes.
    const host = await roots.boot(sessions)
    try {
      const holder = JSON.parse(readFileSync(lockFile, 'utf8')) as LockHolder
      assert.deepEqual([holder.pid, holder.owner], [process.pid, 'message-recall'])
      const agent = await host.createAgent({ seed: conversationLog([{ prompt: 'a prompt after the crash', steps: [{ text: 'ok' }] }]) })
      const reply = await host.post({ sessionId: agent.id, action: 'delete', seq: node(agent.session, 'user/message', 'a prompt after the crash') })
      assert.equal(reply.status, 200, reply.text)
    } finally {
      await roots.shut(host)
    }
    assert.equal(existsSync(lockFile), false, 'the host released its lock')

    // The next erase runs: the killed one was stopped right after it took the lock, before it
    // renamed anything, unless the machine let it run on; either way the log is the old or the new one.
    const stillThere = decodeLogBytes(readFileSync(logPath), 'zstd').includes(CANARY_B)
    const next = startErase(logPath, second.tombstoneSeq)
    running.push(next)
    const done = await next.ended
    if (stillThere) {
      assert.deepEqual([done.code, done.stderr], [0, ''], done.stdout)
      const value = JSON.parse(done.stdout) as { ok: boolean; tombstoneSeq: number; messageSeqs: number[] }
      assert.deepEqual([value.ok, value.tombstoneSeq, value.messageSeqs], [true, second.tombstoneSeq, second.shadowedSeqs])
    } else {
      assert.deepEqual({ code: done.code, stdout: done.stdout, stderr: done.stderr }, {
        code: 1,
        stdout: JSON.stringify({ ok: false, code: 'ALREADY_ERASED', message: `cannot erase removal ${second.tombstoneSeq}: that removal was erased already` }) + '\n',
        stderr: '',
      })
    }
    assert.equal(decodeLogBytes(readFileSync(logPath), 'zstd').includes(CANARY_B), false)
    assert.equal(existsSync(lockFile), false)
  })
})
