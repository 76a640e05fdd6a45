/**
 * The built `dsh-message-recall-log erase` and the DSH home it writes in, on a session the real
 * rc.8 composition wrote under `<DSH home>/sessions` (zstd): while the host that holds the home
 * runs (the plugin's own `.message-recall.lock`, claimed by the live composition in this process)
 * and while `npm start`'s `npm-start.lock` is held, it refuses in one line naming the holder, exit
 * 1, the log unchanged (also for a log copied out of the home, with `--home`); stale locks (a pid
 * that no longer runs) do not block, and the erase then runs. A log file of any name (zstd and
 * plain JSONL) is erased beside itself with no file left over. A missing or bad `--tombstone`, and
 * a `--home` that is not a folder, are one line, exit 2. After the erase `explain` shows the
 * tombstone erased, with the time the erase wrote, and leaves the other removal unmarked.
 */
import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import type { Session } from '@deepseek-ai/dsh-session'
import type { DshApp } from '../support/dsh-app'
import { conversationLog } from '../support/conversation'
import { node, Roots } from '../host/helpers'
import { LOG_TOOL, pendingEraseHome, scanHits } from '../support/pending-erase-home'
import { claimLock, PLUGIN_LOCK_FILE, START_LOCK_FILE, type LockHolder } from '../../src/host/home-lock'
import { decodeLogBytes } from '../../src/host/jsonl-log-file'
import { PendingErases, pendingErasesPath } from '../../src/host/pending-erases'

const CANARY = 'CANARY-7e21-erase-home'

function tool(args: readonly string[]) {
  const r = spawnSync(process.execPath, [LOG_TOOL, ...args], { encoding: 'utf8' })
  return { status: r.status, stdout: r.stdout, stderr: r.stderr }
}

describe('dsh-message-recall-log erase: the DSH home of the log', () => {
  const roots = new Roots()
  const dshHome = pendingEraseHome('recall-erase-tool-home-')
  const { home } = dshHome
  const lone = mkdtempSync(join(tmpdir(), 'recall-erase-tool-home-lone-'))
  let app: DshApp | undefined
  let logPath: string
  let folder: string
  let sessionId: string
  let erased: number
  let kept: number
  /** The erased tombstone's range and what it shadows, as the host wrote them. */
  let erasedRange: { start: number; end: number; shadowed: number }
  let keptRange: { start: number; end: number; shadowed: number }
  before(async () => {
    dshHome.enter()
    app = await roots.boot(join(home, 'sessions'))
    const agent = await app.createAgent({ seed: conversationLog([
      { prompt: `${CANARY} first prompt`, steps: [{ text: 'one' }] },
      { prompt: 'second prompt stays removed', steps: [{ text: 'two' }] },
    ]) })
    sessionId = agent.id
    const session = agent.session as Session
    const a = await app.post({ sessionId, action: 'delete', seq: node(session, 'user/message', CANARY) })
    const b = await app.post({ sessionId, action: 'delete', seq: node(session, 'user/message', 'second prompt stays removed') })
    assert.deepEqual([a.status, b.status], [200, 200], a.text + b.text)
    erased = a.json.value.tombstoneSeq
    kept = b.json.value.tombstoneSeq
    const range = (seq: number) => {
      const event = session.events[seq]! as unknown as { surfaceOp: { start: number; end: number }; data: { source: { removedSeqs: number[] } } }
      return { start: event.surfaceOp.start, end: event.surfaceOp.end, shadowed: event.data.source.removedSeqs.length }
    }
    erasedRange = range(erased)
    keptRange = range(kept)
    await app.ctx.sessions.flush(session)
    logPath = (app.ctx as any).sessionPersistence.locate({ id: sessionId, cwd: session.header.cwd }).path as string
    folder = dirname(logPath)
    // Copies outside the home, named as no DSH log is: a zstd one and a plain JSONL one.
    copyFileSync(logPath, join(lone, 'lone.zstd'))
    writeFileSync(join(lone, 'plain-copy.log'), decodeLogBytes(readFileSync(logPath), 'zstd'))
  })
  after(async () => {
    await roots.dispose()
    dshHome.leave()
    rmSync(lone, { recursive: true, force: true })
  })

  const leftovers = (dir: string) => readdirSync(dir).filter((name) => name.endsWith('.erase.tmp'))

  it('refuses while the host holding the home runs (its lock in the sessions folder), exit 1, nothing changed', () => {
    const lockFile = join(home, 'sessions', PLUGIN_LOCK_FILE)
    assert.ok(existsSync(lockFile), 'the live host holds its lock')
    const holder = JSON.parse(readFileSync(lockFile, 'utf8')) as LockHolder
    assert.deepEqual([holder.pid, holder.owner], [process.pid, 'message-recall'])
    const bytes = readFileSync(logPath)
    const sentence = `cannot erase removal ${erased}: a running host holds this DSH home: message-recall (pid ${process.pid}, since ${holder.startedAt}), lock file ${lockFile}; stop that host first`
    assert.deepEqual(tool(['erase', folder, '--tombstone', String(erased)]), { status: 1, stdout: `refused, nothing changed: ${sentence}\n`, stderr: '' })
    assert.deepEqual(tool(['erase', logPath, '--tombstone', String(erased), '--json']), {
      status: 1, stdout: JSON.stringify({ ok: false, code: 'HOME_IN_USE', message: sentence, holderPid: process.pid }) + '\n', stderr: '',
    })
    // A copy of the log outside the home, with the home named by --home: refused the same way.
    assert.deepEqual(tool(['erase', join(lone, 'lone.zstd'), '--tombstone', String(erased), '--home', home]), { status: 1, stdout: `refused, nothing changed: ${sentence}\n`, stderr: '' })
    assert.deepEqual(readFileSync(logPath), bytes, 'the log is unchanged')
    assert.deepEqual([leftovers(folder), leftovers(lone)], [[], []])
  })

  it('refuses while npm start holds the home (npm-start.lock), and a stale lock does not block', async () => {
    await roots.shut(app!)
    app = undefined
    assert.equal(existsSync(join(home, 'sessions', PLUGIN_LOCK_FILE)), false, 'the stopped host released its lock')
    const started = claimLock(join(home, START_LOCK_FILE), 'npm start')
    assert.ok(started.ok)
    const bytes = readFileSync(logPath)
    try {
      const sentence = `cannot erase removal ${erased}: a running host holds this DSH home: npm start (pid ${process.pid}, since ${started.holder.startedAt}), lock file ${join(home, START_LOCK_FILE)}; stop that host first`
      assert.deepEqual(tool(['erase', folder, '--tombstone', String(erased)]), { status: 1, stdout: `refused, nothing changed: ${sentence}\n`, stderr: '' })
      assert.deepEqual(readFileSync(logPath), bytes, 'the log is unchanged')
    } finally {
      started.release()
    }
    // Stale locks: written by a process that has exited since.
    const gone = spawnSync(process.execPath, ['-e', ''])
    assert.equal(gone.status, 0)
    const stale = (owner: string) => JSON.stringify({ pid: gone.pid, startedAt: new Date(Date.now() - 60_000).toISOString(), owner, token: '00aa11bb22cc33dd' }) + '\n'
    writeFileSync(join(home, 'sessions', PLUGIN_LOCK_FILE), stale('message-recall'))
    writeFileSync(join(home, START_LOCK_FILE), stale('npm start'))
    // The Removed panel had kept an erase of this removal (and of the other) for the next start.
    const record = (tombstoneSeq: number) => ({ sessionId, tombstoneSeq, scheduledAt: '2026-12-01T10:00:00.000Z', messageSeqs: [], imageCount: 0, fileCount: 0, state: 'pending' as const })
    await new PendingErases(pendingErasesPath(home)).add(record(erased))
    await new PendingErases(pendingErasesPath(home)).add(record(kept))
    const run = tool(['erase', folder, '--tombstone', String(erased), '--json'])
    assert.equal(run.status, 0, run.stdout + run.stderr)
    const value = JSON.parse(run.stdout) as { sessionId: string; erasedAt: string; messageSeqs: number[]; rewrittenEvents: number; pendingErase: string }
    assert.equal(value.sessionId, sessionId)
    // The erase done now drops its pending record; the other removal's stays.
    assert.equal(value.pendingErase, 'dropped')
    assert.deepEqual(await new PendingErases(pendingErasesPath(home)).all(), [record(kept)])
    assert.deepEqual(scanHits(home, CANARY), [], 'the canary is gone from the home')
    assert.deepEqual(leftovers(folder), [])

    // explain: the erased tombstone says when it was erased; the other removal says nothing of it.
    const explained = tool(['explain', folder])
    assert.equal(explained.status, 0, explained.stdout + explained.stderr)
    const tombstoneLines = explained.stdout.split('\n').filter((line) => line.startsWith('tombstone seq '))
    assert.deepEqual(tombstoneLines, [
      `tombstone seq ${erased} · delete · range ${erasedRange.start}..${erasedRange.end} (inclusive) · shadows ${erasedRange.shadowed} node${erasedRange.shadowed === 1 ? '' : 's'} · erased for good at ${value.erasedAt}`,
      `tombstone seq ${kept} · delete · range ${keptRange.start}..${keptRange.end} (inclusive) · shadows ${keptRange.shadowed} node${keptRange.shadowed === 1 ? '' : 's'}`,
    ])
    const doc = JSON.parse(tool(['explain', folder, '--json']).stdout) as { tombstones: { seq: number; erasedAt: string | null }[] }
    assert.deepEqual(doc.tombstones.map((t) => [t.seq, t.erasedAt]), [[erased, value.erasedAt], [kept, null]])

    // The same erase of a copy of the log under any name (zstd, plain JSONL): written beside it, nothing left over.
    for (const name of ['lone.zstd', 'plain-copy.log']) {
      const copy = tool(['erase', join(lone, name), '--tombstone', String(erased)])
      assert.deepEqual(copy, {
        status: 0,
        stdout: `erased removal ${erased} of session ${sessionId}: ${value.messageSeqs.length} message(s), ${value.rewrittenEvents} event(s) rewritten\ncopies and sources of the session not looked for: no DSH home (pass --home)\n`,
        stderr: '',
      }, name)
    }
    assert.deepEqual(readdirSync(lone).sort(), ['lone.zstd', 'plain-copy.log'])
    assert.deepEqual(scanHits(lone, CANARY), [], 'neither copy holds the canary')
    const again = tool(['erase', join(lone, 'lone.zstd'), '--tombstone', String(erased)])
    assert.deepEqual(again, { status: 1, stdout: `refused, nothing changed: cannot erase removal ${erased}: that removal was erased already\n`, stderr: '' })
    assert.deepEqual(tool(['read', join(lone, 'lone.zstd')]).status, 0, 'read takes the same file')
  })

  it('a missing or bad --tombstone and a --home that is not a folder are one line, exit 2, nothing changed', () => {
    const bytes = readFileSync(logPath)
    const nope = join(lone, 'nope')
    const file = join(lone, 'lone.zstd')
    const empty = join(lone, 'empty-folder')
    mkdirSync(empty)
    try {
      const cases: [readonly string[], string][] = [
        [[folder], '--tombstone expects a seq (a non-negative integer), got nothing\n'],
        [[folder, '--tombstone', 'abc'], '--tombstone expects a seq (a non-negative integer), got "abc"\n'],
        [[folder, '--tombstone', '-1'], '--tombstone expects a seq (a non-negative integer), got "-1"\n'],
        [[folder, '--tombstone'], '--tombstone expects a seq (a non-negative integer), got nothing\n'],
        [[folder, '--tombstone', String(kept), '--home', nope], `no such file or folder: ${nope}\n`],
        [[folder, '--tombstone', String(kept), '--home', file], `${file} is not a folder\n`],
        [[nope, '--tombstone', String(kept)], `no such file or folder: ${nope}\n`],
        [[empty, '--tombstone', String(kept)], `${empty} holds no session.jsonl.zstd or session.jsonl\n`],
      ]
      for (const [args, line] of cases) assert.deepEqual(tool(['erase', ...args]), { status: 2, stdout: '', stderr: line }, args.join(' '))
      assert.deepEqual(readFileSync(logPath), bytes, 'the log is unchanged')
    } finally {
      rmSync(empty, { recursive: true })
    }
  })
})
