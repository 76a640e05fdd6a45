/**
 * Cost of an erase (`src/host/erase-log.ts` `eraseLogFile`: the stored log read once and
 * rewritten, written beside, read back with DSH's reader, checked event by event, loaded under
 * the invariant companions, renamed) on a stored session of about 100k events, beside two floors:
 * - the issue's floor, reading and rewriting that log once (the file read, decoded, encoded again
 *   in the backend's format, written beside with an fsync, renamed over the old one with the
 *   folder fsynced);
 * - the floor of the verification the issue requires: that read and rewrite, plus reading the new
 *   file back with DSH's own reader (`readPrefix`) and one load of it in a `Session` under the
 *   session, compaction and agent-loop invariant companions (`src/host/invariant-load.ts`). What
 *   this floor costs beyond the first is rc.8's own reader and `Session`; what the erase costs
 *   beyond this floor is the plugin's (its parse of the old log, the rewrite, the event-by-event
 *   check, the old log's fold and derived messages).
 * The session is written by the real rc.8 JSONL backend (zstd) and its first prompt deleted
 * through the plugin's route; each sample works on a fresh copy of that log (the copy is not
 * timed). The three take turns within each round.
 *
 * Target (printed, not asserted): erase median ≤ 1.5 × the first floor's median (`met` / `MISS`);
 * the ratio to the second floor is printed beside it.
 *
 * Run: `npm run bench -- erase`. `BENCH_SAMPLES=<n>` changes the samples per variant (default 5);
 * `BENCH_EVENTS=<n>` the session size (default 100000).
 */
import { copyFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { performance } from 'node:perf_hooks'
import { JsonlSessionPersistence } from '@deepseek-ai/dsh-session-persistence-jsonl'
import { bootDshApp } from '../test/support/dsh-app'
import { conversationLog, syntheticTurns } from '../test/support/conversation'
import { eraseLogFile } from '../src/host/erase-log'
import { decodeLogBytes, encodeLogText, publishLogFile, readLogAndHeaderWithDsh, writeBeside, type JsonlReader } from '../src/host/jsonl-log-file'
import { loadUnderInvariants } from '../src/host/invariant-load'

const SIZE = Number(process.env.BENCH_EVENTS ?? 100_000)
const SAMPLES = Number(process.env.BENCH_SAMPLES ?? 5)
const TARGET = 1.5

function median(samples: readonly number[]): number {
  const s = [...samples].sort((a, b) => a - b)
  return s[Math.ceil(s.length / 2) - 1]!
}

const dir = mkdtempSync(join(tmpdir(), 'bench-erase-'))
const root = join(dir, 'sessions')
const app = await bootDshApp({ recall: {}, persistence: { root, compression: 'zstd' } })
let source = ''
let id = ''
let tombstoneSeq = -1
let events = 0
try {
  const perTurn = conversationLog(syntheticTurns(2)).length - conversationLog(syntheticTurns(1)).length
  const agent = await app.createAgent({ seed: conversationLog([{ prompt: 'CANARY secret prompt', steps: [{ text: 'ok' }] }, ...syntheticTurns(Math.ceil(SIZE / perTurn))]) })
  id = agent.id
  const reply = await app.post({ sessionId: id, action: 'delete', seq: 4 })
  if (reply.status !== 200) throw new Error(reply.text)
  tombstoneSeq = reply.json.value.tombstoneSeq
  events = agent.session.events.length
  source = (app.ctx as any).sessionPersistence.locate({ id, cwd: agent.session.header.cwd }).path
  await app.dispose()
} catch (error) {
  await app.dispose()
  throw error
}
const original = join(dir, 'original.zstd')
copyFileSync(source, original)
rmSync(dirname(source), { recursive: true, force: true })
const reader = Object.create(JsonlSessionPersistence.prototype, { compression: { value: 'zstd' }, assertStoredIdentity: { value: async () => {} } }) as JsonlReader
const work = join(dir, 'work')
const log = join(work, 'session.jsonl.zstd')
const { mkdirSync } = await import('node:fs')
mkdirSync(work)

const VARIANTS = ['erase', 'floor', 'verified'] as const
const times = { erase: [] as number[], floor: [] as number[], verified: [] as number[] }
for (let round = 0; round < SAMPLES + 1; round++) {
  // Each variant goes first, second and last in turn.
  const order = VARIANTS.map((_, i) => VARIANTS[(i + round) % VARIANTS.length]!)
  for (const variant of order) {
    copyFileSync(original, log)
    const start = performance.now()
    if (variant === 'erase') {
      const done = await eraseLogFile(reader, log, id, tombstoneSeq, { at: new Date().toISOString() })
      if (!done.ok) throw new Error(JSON.stringify(done))
    } else {
      const text = decodeLogBytes(readFileSync(log), 'zstd')
      const beside = await writeBeside(log, encodeLogText(text, 'zstd'))
      if (variant === 'verified') {
        const back = await readLogAndHeaderWithDsh(reader, beside, id)
        const loaded = await loadUnderInvariants(id, back.events, back.meta)
        if (!loaded.ok) throw new Error(loaded.problem)
      }
      await publishLogFile(beside, log)
    }
    if (round > 0) times[variant].push(performance.now() - start)
  }
}
const e = median(times.erase)
const f = median(times.floor)
const v = median(times.verified)
const ms = (name: keyof typeof times, m: number): string => `${m.toFixed(0)} ms (min ${Math.min(...times[name]).toFixed(0)})`
console.log(`session of ${events.toLocaleString('en')} events, log ${(readFileSync(original).length / 1048576).toFixed(1)} MiB (zstd); ${SAMPLES} samples per variant`)
console.log(`erase median ${ms('erase', e)}`)
console.log(`floor 1, read + rewrite (decode + encode + fsync + rename): median ${ms('floor', f)}`)
console.log(`floor 2, the verification the issue requires (floor 1 + DSH's reader on the new file + one Session load under the invariant companions): median ${ms('verified', v)}`)
console.log(`erase / floor 1 ${(e / f).toFixed(2)}× (target ≤ ${TARGET}×: ${e / f <= TARGET ? 'met' : 'MISS'}); erase / floor 2 ${(e / v).toFixed(2)}×; floor 2 / floor 1 ${(v / f).toFixed(2)}× (rc.8's reader and Session)`)
rmSync(dir, { recursive: true, force: true })
