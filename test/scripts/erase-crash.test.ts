/**
 * The erase killed at random points (`dsh-message-recall-log erase`, the built tool, in a child
 * process, `SIGKILL`): a session of about 30,000 events whose first prompt holds a canary is
 * written by the real rc.8 composition (JSONL persistence, zstd) and the prompt deleted through
 * the route; then, 34 times, a fresh copy of the session folder is erased by a child process
 * killed after a random delay: half spread over an undisturbed run's length, half over its last
 * fifth and past it (a run under load is slower, and the rename comes late). After every kill the log is read
 * with DSH's own reader and loaded into a `Session` (every envelope, seq and surface transition
 * validated) under the session, compaction and agent-loop invariant companions
 * (`src/host/invariant-load.ts`) that derives the same messages, and the canary is either in the log as often as
 * before or not at all.
 */
import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { spawn } from 'node:child_process'
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import type { Session } from '@deepseek-ai/dsh-session'
import { JsonlSessionPersistence } from '@deepseek-ai/dsh-session-persistence-jsonl'
import { conversationLog, syntheticTurns } from '../support/conversation'
import { derived, node, Roots, sessionFile } from '../host/helpers'
import { decodeLogBytes, readLogFileWithDsh, type JsonlReader } from '../../src/host/jsonl-log-file'
import { loadUnderInvariants } from '../../src/host/invariant-load'

const CANARY = 'CANARY-crash-91b2'
const TOOL = join(import.meta.dirname, '..', '..', 'lib', 'scripts', 'dsh-message-recall-log.js')
const reader = Object.create(JsonlSessionPersistence.prototype, { compression: { value: 'zstd' }, assertStoredIdentity: { value: async () => {} } }) as JsonlReader

/** Run the erase tool on a log; kill it after `killAfterMs` (or let it finish). Resolves with how long it ran and its exit code (null when killed). */
function runErase(logPath: string, tombstoneSeq: number, killAfterMs?: number): Promise<{ ms: number; code: number | null; stdout: string }> {
  return new Promise((resolve, reject) => {
    const started = performance.now()
    const child = spawn(process.execPath, [TOOL, 'erase', logPath, '--tombstone', String(tombstoneSeq), '--json'], { stdio: ['ignore', 'pipe', 'inherit'] })
    let stdout = ''
    child.stdout.on('data', (chunk) => (stdout += chunk))
    const timer = killAfterMs === undefined ? undefined : setTimeout(() => child.kill('SIGKILL'), killAfterMs)
    child.on('error', reject)
    child.on('exit', (code) => {
      clearTimeout(timer)
      resolve({ ms: performance.now() - started, code, stdout })
    })
  })
}

const occurrences = (text: string): number => text.split(CANARY).length - 1

describe('erase killed at random points', () => {
  const roots = new Roots()
  const work = mkdtempSync(join(tmpdir(), 'recall-erase-crash-'))
  let original: string
  let sessionId: string
  let tombstoneSeq: number
  let expected: unknown[]
  let canaries: number
  before(async () => {
    const root = roots.root()
    const app = await roots.boot(root)
    const turns = syntheticTurns(500)
    const agent = await app.createAgent({ seed: conversationLog([{ prompt: `${CANARY} secret`, steps: [{ text: 'ok' }] }, ...turns]) })
    sessionId = agent.id
    const session = agent.session as Session
    const reply = await app.post({ sessionId, action: 'delete', seq: node(session, 'user/message', CANARY) })
    assert.equal(reply.status, 200, reply.text)
    tombstoneSeq = reply.json.value.tombstoneSeq
    expected = derived(session)
    await roots.shut(app)
    original = join(work, 'original')
    cpSync(dirname(sessionFile(root, sessionId)), original, { recursive: true })
    canaries = occurrences(decodeLogBytes(readFileSync(join(original, 'session.jsonl.zstd')), 'zstd'))
  })
  after(async () => {
    await roots.dispose()
    rmSync(work, { recursive: true, force: true })
  })

  it('always leaves a log that loads, with the canary entirely present or entirely gone', async () => {
    assert.ok(canaries >= 2, `the canary is in the prompt and its inbox event: ${canaries}`)
    // One undisturbed run sets the span the kills are spread over.
    const full = join(work, 'full')
    cpSync(original, full, { recursive: true })
    const done = await runErase(join(full, 'session.jsonl.zstd'), tombstoneSeq)
    assert.equal(done.code, 0, `${done.stdout}`)
    assert.equal(occurrences(decodeLogBytes(readFileSync(join(full, 'session.jsonl.zstd')), 'zstd')), 0)

    const outcomes = { old: 0, erased: 0 }
    let leftoverSeen = false
    for (let trial = 0; trial < 34; trial++) {
      const dir = join(work, `trial-${trial}`)
      cpSync(original, dir, { recursive: true })
      const log = join(dir, 'session.jsonl.zstd')
      // Half the kills anywhere in the run, half in its last part (the check, the rename, the side
      // files) and past it: a run under load takes longer than the undisturbed one.
      const killAfter = trial % 2 === 0 ? Math.random() * done.ms : done.ms * (0.8 + Math.random() * 0.7)
      await runErase(log, tombstoneSeq, killAfter)
      const text = decodeLogBytes(readFileSync(log), 'zstd')
      const count = occurrences(text)
      assert.ok(count === canaries || count === 0, `trial ${trial} (killed after ${killAfter.toFixed(0)} ms): ${count} of ${canaries} canaries`)
      const events = await readLogFileWithDsh(reader, log, sessionId)
      const loaded = await loadUnderInvariants(sessionId, events)
      assert.ok(loaded.ok, `trial ${trial}: the log loads under the invariant companions: ${loaded.ok ? '' : loaded.problem}`)
      const messages = (JSON.parse(JSON.stringify(loaded.messages)) as any[]).map((m) => {
        if (m.source?.erased === undefined) return m
        const { erased: _erased, ...source } = m.source
        return { ...m, source }
      })
      assert.deepEqual(messages, expected, `trial ${trial}: the same derived messages`)
      outcomes[count === 0 ? 'erased' : 'old']++
      // What a kill can leave beside the log: at most the new file not yet renamed, which the next erase removes.
      assert.ok(readdirSync(dir).every((name) => name === 'session.jsonl.zstd' || /^session\.jsonl\.zstd\.[0-9a-f]{12}\.erase\.tmp$/.test(name)), readdirSync(dir).join(', '))
      if (!leftoverSeen && readdirSync(dir).length > 1) {
        leftoverSeen = true
        const next = await runErase(log, tombstoneSeq)
        assert.equal(next.code, count === 0 ? 1 : 0, next.stdout)
        assert.deepEqual(readdirSync(dir), ['session.jsonl.zstd'])
      }
      rmSync(dir, { recursive: true, force: true })
    }
    assert.equal(outcomes.old + outcomes.erased, 34)
    console.log(`erase run ${done.ms.toFixed(0)} ms; after the kills: ${outcomes.old} old logs, ${outcomes.erased} erased logs; a new file left beside the log: ${leftoverSeen ? "seen and removed by the next erase" : "not seen"}`)
  })
})
