/**
 * Decode throughput of a large session log (tens of thousands of small frames), in MB/s of
 * decompressed bytes, side by side in one run on the same log: the `zstd` command-line tool, one
 * reused `node:zlib` context on pre-scanned frames (the floor of native decoding), the log
 * reader with each of its decoders, `explain-session`'s read (every event parsed and the surface
 * folded), and DSH's own reader (`readRaw`, and a cold `inspect`). Then whole processes on a log
 * of more than 225 MB beside `zstd -dc --no-asyncio`, and the resident memory of
 * `read-session-log` reading it. Prints figures and whether each target is met; asserts nothing.
 *
 * The logs are framed as the rc.8 backend frames them (`bench/support/framed-log.ts`). Each
 * in-process figure is the best of several runs after one untimed warm-up run; the whole-process
 * figures run the built tools in `lib/scripts/`.
 *
 * Run: `npm run bench -- decode`.
 */
import { spawn, spawnSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { SessionId } from '@deepseek-ai/dsh-session'
import type { LogEvent } from '../src/shared/events'
import { createFzstdDecoder, type DecoderName } from '../src/log/frame-decoder'
import { createZlibDecoder, findZstdCli } from '../src/log/frame-decoder-node'
import { resolveSessionLog } from '../src/log/log-file'
import { explainSession } from '../src/log/session-explain'
import { readSessionLog } from '../src/log/session-log'
import { scanZstdFrames } from '../src/log/zstd-frames'
import { openLogStore } from '../test/scripts/support/real-logs'
import { writeFramedLog } from './support/framed-log'

const TARGET_FRAMES = 40_000
const RUNS = 3
/** Frames the fzstd comparison decodes (a window per frame is slow enough to need a sample). */
const FZSTD_SAMPLE_FRAMES = 2_000
const LARGE_LOG_BYTES = 225 * 1024 * 1024
const MEMORY_LIMIT_BYTES = 200 * 1024 * 1024
const root = resolve(import.meta.dirname, '..')

const dir = mkdtempSync(join(tmpdir(), 'mr-bench-decode-'))
const id = 'session-bench-decode'
const log = writeFramedLog(join(dir, '--bench--', id, 'session.jsonl.zstd'), { id, frames: TARGET_FRAMES })
const { path, plainBytes, events } = log
console.log(`log: ${log.frames} frames, ${events} events, ${(log.fileBytes / 1e6).toFixed(1)} MB on disk, ${(plainBytes / 1e6).toFixed(1)} MB decoded (${Math.round(plainBytes / log.frames)} B per frame on average)`)
console.log(`node ${process.version}, zstd in node:zlib ${process.versions.zstd ?? 'absent'}, best of ${RUNS} runs after a warm-up\n`)

interface Row {
  readonly name: string
  readonly mbps: number | null
  readonly note: string
}
const rows: Row[] = []
const mbpsOf = (name: string): number | null => rows.find((r) => r.name === name)?.mbps ?? null

async function best(fn: () => Promise<number> | number, expected = plainBytes): Promise<number> {
  await fn() // warm-up, untimed
  let fastest = Infinity
  for (let i = 0; i < RUNS; i++) {
    const started = performance.now()
    const bytes = await fn()
    const seconds = (performance.now() - started) / 1000
    if (bytes !== expected) throw new Error(`decoded ${bytes} bytes, expected ${expected}`)
    fastest = Math.min(fastest, seconds)
  }
  return expected / 1e6 / fastest
}

async function measure(name: string, note: string, fn: () => Promise<number> | number, expected = plainBytes): Promise<void> {
  try {
    rows.push({ name, mbps: await best(fn, expected), note })
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
const bytes = readFileSync(path)
const frames = scanZstdFrames(bytes).frames
await measure('zlib context, frames only', 'one reused node:zlib context on pre-scanned frames, no line splitting', () => {
  const decoder = createZlibDecoder()
  if (decoder === null) throw new Error('node:zlib has no zstd here')
  let n = 0
  for (const f of frames) n += decoder.decode(bytes, f.start, f.end).length
  decoder.close()
  return n
})

// The log reader: file streamed in 4 MiB reads, frames scanned, decoded, split into lines.
for (const decoder of ['zlib', 'zlib-oneshot', 'zstd-cli', 'fzstd'] as DecoderName[]) {
  await measure(`reader --decoder ${decoder}`, 'streamed file, frame walk, decode, checksum, lines split and seqs checked', async () => {
    const read = await readSessionLog(await resolveSessionLog(path), { decoder, parse: false, recoverTail: false })
    if (read.problems.length) throw new Error(read.problems[0]!.message)
    return read.decodedBytes
  })
}
await measure('explain-session read', 'zlib; every line parsed, packed rows expanded, the surface folded', async () => {
  const all: LogEvent[] = []
  const read = await readSessionLog(await resolveSessionLog(path), { decoder: 'zlib', expand: true, recoverTail: false, onRecord: (r) => all.push(...(r.events ?? [])) })
  explainSession(all)
  return read.decodedBytes
})

// fzstd on the same sample of frames: its own window per frame (how the portable path decoded
// before), and one reused window.
const sample = frames.slice(0, FZSTD_SAMPLE_FRAMES)
const sampleDecoder = await createFzstdDecoder()
const sampleBytes = sample.reduce((n, f) => n + sampleDecoder.decode(bytes, f.start, f.end).length, 0)
sampleDecoder.close()
for (const reuseWindow of [false, true]) {
  await measure(
    reuseWindow ? 'fzstd, reused window' : 'fzstd, a window per frame',
    `frames only, first ${sample.length} frames, checksums verified${reuseWindow ? '' : ' (the portable path before)'}`,
    async () => {
      const decoder = await createFzstdDecoder({ reuseWindow })
      let n = 0
      for (const f of sample) n += decoder.decode(bytes, f.start, f.end).length
      decoder.close()
      return n
    },
    sampleBytes,
  )
}

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

const baseline = mbpsOf('zstd -dc --no-asyncio') ?? mbpsOf('zstd -dc')
const width = Math.max(...rows.map((r) => r.name.length))
for (const row of rows) {
  const figure = row.mbps === null ? '     —     ' : `${row.mbps.toFixed(1).padStart(6)} MB/s`
  const share = row.mbps !== null && baseline ? `  ${(row.mbps / baseline).toFixed(2).padStart(5)}× zstd` : ''
  console.log(`${row.name.padEnd(width)}  ${figure}${share}  ${row.note}`)
}

/** One target line: the measured ratio beside its floor. */
function target(label: string, value: number | null, reference: number | null, floor: number, unit: '%' | '×'): void {
  if (value === null || reference === null) {
    console.log(`target: ${label}: not evaluated (a row was skipped)`)
    return
  }
  const ratio = value / reference
  const shown = unit === '%' ? `${(ratio * 100).toFixed(0)} % (floor ${floor * 100} %)` : `${ratio.toFixed(2)}× (floor ${floor}×)`
  console.log(`target: ${label}: ${shown}: ${ratio >= floor ? 'met' : 'NOT met'}`)
}
console.log('')
target('reader --decoder zlib vs the frames-only zlib row', mbpsOf('reader --decoder zlib'), mbpsOf('zlib context, frames only'), 0.8, '%')
target('reader --decoder zlib vs DSH readRaw', mbpsOf('reader --decoder zlib'), mbpsOf('DSH readRaw'), 1.5, '×')
target('explain-session read vs DSH cold inspect', mbpsOf('explain-session read'), mbpsOf('DSH inspect (cold load)'), 1.2, '×')
target('fzstd with a reused window vs a window per frame', mbpsOf('fzstd, reused window'), mbpsOf('fzstd, a window per frame'), 2, '×')
rmSync(dir, { recursive: true, force: true })

// Whole processes on a large log, output drained through a pipe, beside the zstd tool.
const largeDir = mkdtempSync(join(tmpdir(), 'mr-bench-large-'))
try {
  const large = writeFramedLog(join(largeDir, '--bench--', 'session-large', 'session.jsonl.zstd'), { id: 'session-large', fileBytes: LARGE_LOG_BYTES, eventsPerBatch: 32 })
  console.log(`\nlarge log: ${large.frames} frames, ${large.events} events, ${(large.fileBytes / 2 ** 20).toFixed(0)} MiB on disk, ${(large.plainBytes / 2 ** 20).toFixed(0)} MiB decoded`)
  /** Wall seconds of a process whose stdout is drained; maxRSS in bytes when it is this Node. */
  const processRun = (command: string, args: readonly string[]): Promise<{ seconds: number; stdoutBytes: number; maxRss: number | null; status: number | null }> =>
    new Promise((done, fail) => {
      const started = performance.now()
      const child = spawn(command, [...args], { stdio: ['ignore', 'pipe', 'pipe'] })
      let stdoutBytes = 0
      let stderr = ''
      child.stdout.on('data', (chunk: Buffer) => (stdoutBytes += chunk.length))
      child.stderr.setEncoding('utf8').on('data', (text: string) => (stderr += text))
      child.on('error', fail)
      child.on('close', (status) => {
        const rss = /max-rss (\d+)/.exec(stderr)
        done({ seconds: (performance.now() - started) / 1000, stdoutBytes, maxRss: rss ? Number(rss[1]) * 1024 : null, status })
      })
    })
  // Prints the process's peak resident set (KiB) to stderr as it exits: Linux's VmHWM, since
  // getrusage's maxRSS keeps the peak of the process image before exec (this benchmark's own).
  const rssProbe =
    `data:text/javascript,import{readFileSync}from'node:fs';process.on('exit',()=>{let m;try{m=/VmHWM:\\s+(\\d+)/.exec(readFileSync('/proc/self/status','utf8'))}catch{}if(m)process.stderr.write('max-rss '+m[1]+'\\n')})`
  const tool = (name: string, ...args: string[]) => ['--import', rssProbe, join(root, 'lib/scripts', `${name}.js`), ...args]
  const bestRun = async (command: string, args: readonly string[]) => {
    let fastest: Awaited<ReturnType<typeof processRun>> | null = null
    for (let i = 0; i < 2; i++) {
      const r = await processRun(command, args)
      if (r.status !== 0) throw new Error(`${command} ${args.join(' ')} exited with ${r.status}`)
      if (fastest === null || r.seconds < fastest.seconds) fastest = r
    }
    return fastest!
  }
  const reference = cli !== null ? await bestRun(cli.command, ['-dc', ...(cli.args.includes('--no-asyncio') ? ['--no-asyncio'] : []), large.path]) : null
  const lines: { name: string; run: Awaited<ReturnType<typeof processRun>> }[] = []
  lines.push({ name: 'read-session-log', run: await bestRun(process.execPath, tool('read-session-log', large.path)) })
  lines.push({ name: 'read-session-log --decoder fzstd', run: await bestRun(process.execPath, tool('read-session-log', '--decoder', 'fzstd', large.path)) })
  lines.push({ name: 'verify-decoder', run: await bestRun(process.execPath, tool('verify-decoder', large.path)) })
  const nameWidth = Math.max(...lines.map((l) => l.name.length), 'zstd -dc --no-asyncio'.length)
  if (reference) console.log(`${'zstd -dc --no-asyncio'.padEnd(nameWidth)}  ${reference.seconds.toFixed(2).padStart(6)} s  1.00× zstd`)
  for (const { name, run } of lines) {
    const ratio = reference ? `  ${(run.seconds / reference.seconds).toFixed(2).padStart(5)}× zstd` : ''
    console.log(`${name.padEnd(nameWidth)}  ${run.seconds.toFixed(2).padStart(6)} s${ratio}  peak resident ${run.maxRss === null ? '?' : `${(run.maxRss / 2 ** 20).toFixed(0)} MiB`}`)
  }
  const rss = lines[0]!.run.maxRss
  if (rss === null) console.log('target: read-session-log peak resident memory on the large log: not evaluated')
  else console.log(`\ntarget: read-session-log peak resident memory on the ${(large.fileBytes / 2 ** 20).toFixed(0)} MiB log: ${(rss / 2 ** 20).toFixed(0)} MiB (limit ${MEMORY_LIMIT_BYTES / 2 ** 20} MiB): ${rss < MEMORY_LIMIT_BYTES ? 'met' : 'NOT met'}`)
} finally {
  rmSync(largeDir, { recursive: true, force: true })
}
