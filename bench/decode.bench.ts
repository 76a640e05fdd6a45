/**
 * Decode throughput of a large session log (tens of thousands of small frames), in MB/s of
 * decompressed bytes, side by side: the `zstd` command-line tool, DSH's own reader, and the
 * scripts' reader with each of its decoders. Prints figures; asserts nothing.
 *
 * The log is framed exactly as the rc.8 JSONL backend frames it: a header frame, then one
 * checksummed frame per durable batch (`zstdCompress` with `ZSTD_c_checksumFlag`, as
 * `compressZstdFrame`), each batch packed by dsh-session's real `packChunkRuns`. Batches of a few
 * events mimic a streaming turn flushed every `writeBatchMaxDelayMs`.
 *
 * Each figure is the best of several runs after one untimed warm-up run.
 *
 * Run: `npm run bench -- decode`.
 */
import { spawnSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { constants, zstdCompressSync } from 'node:zlib'
import { packChunkRuns, SessionId } from '@deepseek-ai/dsh-session'
import type { DecoderName } from '../src/log/frame-decoder'
import { createZlibDecoder, findZstdCli } from '../src/log/frame-decoder-node'
import { resolveSessionLog } from '../src/log/log-file'
import { readSessionLog } from '../src/log/session-log'
import { scanZstdFrames } from '../src/log/zstd-frames'
import { openLogStore } from '../test/scripts/support/real-logs'
import { conversationLog, syntheticTurns } from '../test/support/conversation'

const TARGET_FRAMES = 40_000
const EVENTS_PER_BATCH = 4
const RUNS = 3

const dir = mkdtempSync(join(tmpdir(), 'mr-bench-decode-'))
const id = 'session-bench-decode'
const projectDir = join(dir, '--bench--', id)
mkdirSync(projectDir, { recursive: true })
const path = join(projectDir, 'session.jsonl.zstd')

function frame(text: string): Buffer {
  return zstdCompressSync(Buffer.from(text), { params: { [constants.ZSTD_c_checksumFlag]: 1 } })
}

// Build the log.
const header = { type: 'session', version: 0, id, createdAt: 1_700_000_000_000, cwd: '/bench', delegationDepth: 0 }
const parts: Buffer[] = [frame(JSON.stringify(header) + '\n')]
let plainBytes = JSON.stringify(header).length + 1
let events = 0
const turnsPerRound = 50
while (parts.length < TARGET_FRAMES) {
  const log = conversationLog(syntheticTurns(turnsPerRound, { textChars: 240 }))
  // conversationLog numbers from 0; continue the seqs of the previous rounds.
  const shifted = log.map((e) => {
    const event = e as unknown as { seq: number; sourceEventSeqs?: number[] }
    return { ...e, seq: event.seq + events, ...(event.sourceEventSeqs ? { sourceEventSeqs: event.sourceEventSeqs.map((s) => s + events) } : {}) }
  }) as typeof log
  for (let i = 0; i < shifted.length && parts.length < TARGET_FRAMES; i += EVENTS_PER_BATCH) {
    const batch = shifted.slice(i, i + EVENTS_PER_BATCH)
    const text = packChunkRuns(batch).map((r) => JSON.stringify(r)).join('\n') + '\n'
    plainBytes += Buffer.byteLength(text)
    parts.push(frame(text))
    events += batch.length
  }
}
writeFileSync(path, Buffer.concat(parts))
const fileBytes = statSync(path).size
console.log(`log: ${parts.length} frames, ${events} events, ${(fileBytes / 1e6).toFixed(1)} MB on disk, ${(plainBytes / 1e6).toFixed(1)} MB decoded (${Math.round(plainBytes / parts.length)} B per frame on average)`)
console.log(`node ${process.version}, zstd in node:zlib ${process.versions.zstd ?? 'absent'}, best of ${RUNS} runs after a warm-up\n`)

interface Row {
  readonly name: string
  readonly mbps: number | null
  readonly note: string
}
const rows: Row[] = []

async function best(fn: () => Promise<number> | number): Promise<number> {
  await fn() // warm-up, untimed
  let fastest = Infinity
  for (let i = 0; i < RUNS; i++) {
    const started = performance.now()
    const bytes = await fn()
    const seconds = (performance.now() - started) / 1000
    if (bytes !== plainBytes) throw new Error(`decoded ${bytes} bytes, expected ${plainBytes}`)
    fastest = Math.min(fastest, seconds)
  }
  return plainBytes / 1e6 / fastest
}

async function measure(name: string, note: string, fn: () => Promise<number> | number): Promise<void> {
  try {
    rows.push({ name, mbps: await best(fn), note })
  } catch (error) {
    rows.push({ name, mbps: null, note: `skipped: ${(error as Error).message}` })
  }
}

const cli = findZstdCli()
if (cli === null) {
  rows.push({ name: 'zstd -dc', mbps: null, note: 'skipped: no zstd command on PATH' })
} else {
  const cliRun = (args: string[]) => () => {
    const r = spawnSync(cli.command, [...args, path], { maxBuffer: 1 << 30 })
    if (r.status !== 0) throw new Error(String(r.stderr))
    return r.stdout.length
  }
  await measure('zstd -dc', `zstd ${cli.version}, whole file to a pipe`, cliRun(['-dc']))
  if (cli.args.includes('--no-asyncio')) await measure('zstd -dc --no-asyncio', 'same, without its I/O thread', cliRun(['-dc', '--no-asyncio']))
}

// The bare native path: pre-scanned frames through one reused context, no line handling.
const bytes = Buffer.concat(parts)
const frames = scanZstdFrames(bytes).frames
await measure('zlib context, frames only', 'one reused node:zlib context, no line splitting', () => {
  const decoder = createZlibDecoder()
  if (decoder === null) throw new Error('node:zlib has no zstd here')
  let n = 0
  for (const f of frames) n += decoder.decode(bytes.subarray(f.start, f.end)).length
  decoder.close()
  return n
})

// The scripts' reader: file streamed in 4 MiB reads, frames scanned, decoded, split into lines.
for (const decoder of ['zlib', 'zlib-oneshot', 'zstd-cli', 'fzstd'] as DecoderName[]) {
  await measure(`reader --decoder ${decoder}`, 'streamed file, frame scan, decode, line split (no JSON parse)', async () => {
    const read = await readSessionLog(await resolveSessionLog(path), { decoder, parse: false, recoverTail: false })
    if (read.problems.length) throw new Error(read.problems[0]!.message)
    return read.decodedBytes
  })
}
await measure('reader, every event parsed', 'zlib; JSON.parse of every line and packed rows expanded (explain-session)', async () => {
  const read = await readSessionLog(await resolveSessionLog(path), { decoder: 'zlib', expand: true, recoverTail: false })
  return read.decodedBytes
})

// DSH's own reader, on the same file in its root layout; a fresh composition per run, so
// every inspect is a cold load from disk (the coordinator caches prepared sources).
async function dshRun(name: string, note: string, fn: (store: Awaited<ReturnType<typeof openLogStore>>) => Promise<number>): Promise<void> {
  let fastest = Infinity
  try {
    for (let i = 0; i < RUNS; i++) {
      const store = await openLogStore(dir, 'zstd')
      try {
        const started = performance.now()
        const n = await fn(store)
        fastest = Math.min(fastest, (performance.now() - started) / 1000)
        if (n !== plainBytes) throw new Error(`decoded ${n} bytes, expected ${plainBytes}`)
      } finally {
        await store.dispose()
      }
    }
    rows.push({ name, mbps: plainBytes / 1e6 / fastest, note })
  } catch (error) {
    rows.push({ name, mbps: null, note: `skipped: ${(error as Error).message}` })
  }
}
await dshRun('DSH readRaw', 'dsh-session-persistence-jsonl: decoded text of every frame', async (store) => {
  const raw = await store.ctx.sessionPersistence.readRaw(SessionId(id))
  return Buffer.byteLength(raw!.content)
})
await dshRun('DSH inspect (cold load)', 'decode, parse, expand rows, validate the log', async (store) => {
  const inspection = await store.ctx.sessionPersistence.inspect(SessionId(id))
  // The generated log ends inside a turn; DSH adds its synthetic closers on load.
  if (inspection.events.length < events) throw new Error(`inspect returned ${inspection.events.length} events, expected at least ${events}`)
  return plainBytes
})
rmSync(dir, { recursive: true, force: true })

const baseline = rows.find((r) => r.name === 'zstd -dc')?.mbps ?? null
const width = Math.max(...rows.map((r) => r.name.length))
for (const row of rows) {
  const figure = row.mbps === null ? '     —' : `${row.mbps.toFixed(1).padStart(6)} MB/s`
  const share = row.mbps !== null && baseline ? `  ${((row.mbps / baseline) * 100).toFixed(0).padStart(4)} % of zstd -dc` : ''
  console.log(`${row.name.padEnd(width)}  ${figure}${share}  ${row.note}`)
}
const native = rows.find((r) => r.name === 'reader --decoder zlib')?.mbps ?? null
if (baseline && native) {
  const share = native / baseline
  console.log(`\ntarget: the native path (reader --decoder zlib) reads at ${(share * 100).toFixed(0)} % of zstd -dc (target at least 50 %): ${share >= 0.5 ? 'met' : 'NOT met'}`)
} else {
  console.log('\ntarget: not evaluated (zstd -dc or node:zlib zstd missing)')
}
