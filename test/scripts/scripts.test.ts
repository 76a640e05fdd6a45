/**
 * The five built scripts (`lib/scripts/*.js`) run as child processes over a sessions root the
 * real rc.8 backend wrote: a zstd session with four tombstones nested by Delete onward, a plain
 * JSONL session with a title, a failed turn and a tool-result prune, the first session cut inside
 * its last frame (still being written), and a damaged file. Output, exit codes and the read-only
 * promise are checked under this Node and, for the portable fzstd path, under Node 20.
 *
 * Outputs are compared whole, line for line. Every expected count, seq, offset, size, checksum
 * and token comes from what the backend wrote, read without the tools (the events the live
 * session held, the files on disk walked by `support/zstd-oracle`, their modification times), or
 * is pinned for the deterministic synthetic conversation (its seqs and texts); none is computed
 * by the code under test. Only a checksum the portable decoder computes over corrupted data is
 * matched by its form.
 */
import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { after, before, describe, it } from 'node:test'
import { fileURLToPath } from 'node:url'
import { SessionId } from '@deepseek-ai/dsh-session'
import type { LogEvent } from '../../src/shared/events'
import { node20Path } from '../../tools/node-runtime'
import { conversationLog, syntheticTurns } from '../support/conversation'
import { appendTurns, openLogStore, seqsOf, writeConversation, type WrittenLog } from './support/real-logs'
import { lineCount, readFrames, sha256Prefix, type OracleFrame, type OracleTail } from './support/zstd-oracle'
import { decodersAgree } from '../../scripts/commands/verify'
import type { DecoderName } from '../../src/log/frame-decoder'

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '../..')
const script = (name: string) => join(repo, 'lib', 'scripts', `${name}.js`)

interface Run {
  readonly status: number | null
  readonly stdout: string
  readonly stderr: string
}

function run(node: string, name: string, args: readonly string[], env?: NodeJS.ProcessEnv): Run {
  const r = spawnSync(node, [script(name), ...args], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024, ...(env ? { env: { ...process.env, ...env } } : {}) })
  return { status: r.status, stdout: r.stdout, stderr: r.stderr }
}

const node22 = process.execPath

/** A Node 20 binary: the machine's, else the pinned one, installed into .cache/node20 (tools/node-runtime.ts). */
const findNode20 = (): string => node20Path()

const root = mkdtempSync(join(tmpdir(), 'mr-scripts-'))
/** A DSH home apart from `root`: its `sessions` folder holds a log with one flipped byte and a file that is no log. */
const home = mkdtempSync(join(tmpdir(), 'mr-scripts-home-'))
let flipped: { path: string; frame: number; byte: number }
let notALog: string

let nested: WrittenLog
let plain: { path: string; id: string; events: LogEvent[]; failedTurn: number; pruneSeq: number }
let torn: { path: string; start: number }
let damaged: string

/** Every file under the root with its bytes and mtime, to prove the scripts write nothing. */
function snapshot(): Map<string, string> {
  const out = new Map<string, string>()
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name)
      const info = statSync(path)
      if (info.isDirectory()) walk(path)
      else out.set(path, `${info.mtimeMs}:${readFileSync(path).toString('base64')}`)
    }
  }
  walk(root)
  return out
}
let before0: Map<string, string>
let facts: LogFacts
let tornTail: OracleTail

before(async () => {
  // 1. Four tombstones: recall prompt #2, delete turn 3's tool step, Delete onward from turn 2's
  // tool step (over both earlier tombstones), Delete onward from turn 1's reply (over that one).
  nested = await writeConversation({
    root,
    id: 'session-nested',
    turns: syntheticTurns(4, { textChars: 80 }),
    removals: [
      { action: 'recall', target: (s) => ({ seq: seqsOf(s, 'user/message')[1]! }) },
      { action: 'delete', target: (s) => ({ seq: seqsOf(s, 'assistant/message')[4]! }) },
      { action: 'deleteFrom', target: (s) => ({ seq: seqsOf(s, 'assistant/message')[2]! }) },
      { action: 'deleteFrom', target: (s) => ({ seq: seqsOf(s, 'assistant/message')[1]! }) },
    ],
  })

  // 2. Plain JSONL: a title, a turn that failed, and a tool-result prune inside an open turn.
  const plainRoot = mkdtempSync(join(tmpdir(), 'mr-scripts-plain-'))
  const store = await openLogStore(plainRoot, 'none')
  try {
    const session = store.ctx.sessions.create(SessionId('session-plain'), { meta: { cwd: '/projects/other' } })
    const append = (session.append as (type: string, data: unknown, opts?: unknown) => LogEvent).bind(session)
    await appendTurns(store, session, conversationLog(syntheticTurns(1, { textChars: 80 })))
    append('session/title', { title: 'Plain log with a prune' })
    const failedTurn = 2
    append('turn/start', { turn: failedTurn })
    append('turn/end', { turn: failedTurn, reason: { kind: 'error', error: { kind: 'provider', message: 'mock failure' } } })
    append('turn/start', { turn: 3 })
    const resultSeq = seqsOf(session, 'tool/result')[0]!
    const original = session.events[resultSeq] as LogEvent
    const data = original.data as { message: { content: [{ content: unknown }] } }
    append('compaction/prune', { shadowedRange: { start: resultSeq, end: resultSeq }, shadowedSeqs: [resultSeq], shadowedTokenCount: 20 })
    const pruned = append('tool/result', { ...data, message: { ...data.message, content: [{ ...data.message.content[0], content: [{ type: 'text', text: 'pruned' }] }] } }, {
      surfaceOp: { op: 'replace', start: resultSeq, end: resultSeq },
      sourceEventSeqs: [resultSeq],
    })
    append('turn/end', { turn: 3, reason: { kind: 'completed' } })
    await store.ctx.sessions.flush(session)
    plain = { path: '', id: 'session-plain', events: [...(session.events as LogEvent[])], failedTurn, pruneSeq: pruned.seq }
  } finally {
    await store.dispose()
  }
  // A root holds one encoding for the backend; the scripts read any mix, so move the project in.
  const project = readdirSync(plainRoot)[0]!
  renameSync(join(plainRoot, project), join(root, project))
  rmSync(plainRoot, { recursive: true })
  plain = { ...plain, path: join(root, project, 'session-plain', 'session.jsonl') }

  // 3. The nested session's file cut inside its last frame, as a second session folder.
  const bytes = readFileSync(nested.path)
  const frames = readFrames(bytes).frames
  const last = frames.at(-1)!
  const tornDir = join(root, '--projects-demo~0020project--', 'session-torn')
  mkdirSync(tornDir, { recursive: true })
  const tornPath = join(tornDir, 'session.jsonl.zstd')
  writeFileSync(tornPath, bytes.subarray(0, last.start + Math.floor((last.end - last.start) / 2)))
  torn = { path: tornPath, start: last.start }

  // 4. A damaged log: the first frame, then bytes that are no frame.
  const damagedDir = join(root, '--projects-demo~0020project--', 'session-damaged')
  mkdirSync(damagedDir, { recursive: true })
  damaged = join(damagedDir, 'session.jsonl.zstd')
  writeFileSync(damaged, Buffer.concat([bytes.subarray(0, frames[0]!.end), Buffer.from('garbage that is not a zstd frame')]))

  // 5. Under the second home: the nested log with one bit flipped in a turn's frame's stored
  // content checksum (its last byte), so that frame fails the same way on every run whatever its
  // compressed bytes are, and the tombstone frames after it stay intact; and a
  // 3-byte file under the zstd log's name that is no log at all.
  const hit = frames[2]!
  const flippedDir = join(home, 'sessions', '--projects-demo~0020project--', 'session-flipped')
  mkdirSync(flippedDir, { recursive: true })
  const flippedBytes = Buffer.from(bytes)
  flippedBytes[hit.end - 1] = flippedBytes[hit.end - 1]! ^ 0x01
  flipped = { path: join(flippedDir, 'session.jsonl.zstd'), frame: hit.index, byte: hit.start }
  writeFileSync(flipped.path, flippedBytes)
  const notDir = join(home, 'sessions', '--projects-demo~0020project--', 'session-not-a-log')
  mkdirSync(notDir, { recursive: true })
  notALog = join(notDir, 'session.jsonl.zstd')
  writeFileSync(notALog, 'abc')
  const now0 = Date.now() / 1000
  utimesSync(flipped.path, now0 - 60, now0 - 60)
  utimesSync(notALog, now0 - 120, now0 - 120)

  // Newest first: nested, plain, torn, damaged (damaged two days old).
  const now = Date.now() / 1000
  utimesSync(nested.path, now - 60, now - 60)
  utimesSync(plain.path, now - 120, now - 120)
  utimesSync(torn.path, now - 180, now - 180)
  utimesSync(damaged, now - 2 * 86400, now - 2 * 86400)
  // What the backend wrote, read without the tools: the expected values below come from here.
  facts = factsOf(nested.path, nested.events)
  const cut = readFrames(readFileSync(torn.path))
  assert.equal(cut.frames.length, facts.frames.length - 1)
  tornTail = cut.tail!
  assert.equal(tornTail.start, torn.start)
  assert.equal(tornTail.index, facts.frames.length - 1, 'the torn frame is the last one the backend wrote')
  before0 = snapshot()
})

after(() => {
  try {
    assert.deepEqual(snapshot(), before0, 'no script wrote to the sessions root')
  } finally {
    rmSync(root, { recursive: true, force: true })
    rmSync(home, { recursive: true, force: true })
  }
})

/** True when the zstd program runs here (the `zstd-cli` decoder is then available). */
const zstdInstalled = spawnSync('zstd', ['-V'], { stdio: 'ignore' }).status === 0

/** A byte count as the tools print it: `150 B` below 1 KiB, else KiB with one decimal (the logs here stay under 1 MiB). */
function size(bytes: number): string {
  assert.ok(bytes < 1024 * 1024, 'the fixture logs stay under 1 MiB')
  return bytes < 1024 ? `${bytes} B` : `${(bytes / 1024).toFixed(1)} KiB`
}

/** A file's modification time as the listing prints it: UTC, to the minute. */
function minute(path: string): string {
  return new Date(statSync(path).mtimeMs).toISOString().slice(0, 16).replace('T', ' ')
}

/** What the real backend wrote into the nested log, read without the tools. */
interface LogFacts {
  readonly bytes: Buffer
  readonly frames: OracleFrame[]
  readonly text: string
  readonly header: { id: string; createdAt: number; cwd: string }
  /** Seqs of the `turn/end` events, in order. */
  readonly turnEnds: number[]
}

function factsOf(path: string, events: readonly LogEvent[]): LogFacts {
  const bytes = readFileSync(path)
  const { frames, tail, garbageAt } = readFrames(bytes)
  assert.deepEqual([tail, garbageAt], [null, null], 'a whole log')
  const text = Buffer.concat(frames.map((f) => f.text)).toString('utf8')
  return { bytes, frames, text, header: JSON.parse(frames[0]!.text.toString('utf8')), turnEnds: events.filter((e) => e.type === 'turn/end').map((e) => e.seq) }
}

/** `firstLine`-`lastLine` of each frame (the header is line 1). */
function frameLines(frames: readonly OracleFrame[]): { firstLine: number; lastLine: number }[] {
  let line = 0
  return frames.map((f) => {
    const firstLine = line + 1
    line += lineCount(f.text)
    return { firstLine, lastLine: line }
  })
}

/** The torn-tail description the tools print, from the independent reading of the cut frame. */
function tornDescription(tail: OracleTail, fileSize: number): string {
  const complete = `${tail.blocksComplete} complete block${tail.blocksComplete === 1 ? '' : 's'}`
  return `frame ${tail.index} at byte ${tail.start} is incomplete: block ${tail.block.index} payload needs ${tail.block.needed} bytes from byte ${tail.block.payloadStart}, the file ends at byte ${fileSize} (${fileSize - tail.start} bytes of the frame present, ${complete})`
}

/** The text preview of the first prompt, as written by the synthetic conversation (60 characters and an ellipsis). */
const FIRST_PROMPT = 'prompt #1: please look at the project: The build reads the c…'


describe('read-session-log', () => {
  it('prints every frame decoded in order: the text the frames decompress to, byte for byte', () => {
    const r = run(node22, 'read-session-log', [nested.path])
    assert.deepEqual([r.status, r.stderr], [0, ''])
    assert.equal(r.stdout, facts.text)
    assert.equal(r.stdout.split('\n')[0], JSON.stringify(facts.header), 'line 1 is the header')
    if (zstdInstalled) assert.equal(r.stdout, spawnSync('zstd', ['-dc', nested.path], { encoding: 'utf8' }).stdout)
  })

  it('expands packed rows into events with --expand', () => {
    const r = run(node22, 'read-session-log', ['--expand', nested.dir])
    assert.equal(r.status, 0, r.stderr)
    const lines = r.stdout.trimEnd().split('\n')
    assert.deepEqual(JSON.parse(lines[0]!), facts.header)
    assert.deepEqual(lines.slice(1).map((l) => JSON.parse(l) as LogEvent), nested.events)
  })

  it('lists every frame with its byte range, sizes, lines and stored checksum with --frames --json', () => {
    const r = run(node22, 'read-session-log', ['--frames', '--json', nested.path])
    assert.equal(r.status, 0, r.stderr)
    assert.equal(facts.frames.length, 1 + 4 + 4, 'header, one frame per turn, one per tombstone')
    const lines = frameLines(facts.frames)
    const decodedBytes = facts.frames.reduce((sum, f) => sum + f.text.length, 0)
    assert.deepEqual(JSON.parse(r.stdout), {
      frames: facts.frames.map((f, i) => ({
        index: i, kind: 'zstd', start: f.start, end: f.end, compressedBytes: f.end - f.start, decodedBytes: f.text.length, contentSize: null,
        checksum: f.checksum, blocks: f.blocks.length, ...lines[i]!,
      })),
      summary: {
        file: nested.path, format: 'zstd', decoder: 'zlib', fallbackDecoder: null, size: facts.bytes.length, bytesConsumed: facts.bytes.length, decodedBytes,
        frames: 9, lines: lineCount(facts.text), events: nested.events.length, lastSeq: nested.events.length - 1, tail: null, problems: [],
      },
    })
  })

  it('prints the same frame index as a table', () => {
    const r = run(node22, 'read-session-log', ['--frames', nested.path])
    assert.deepEqual([r.status, r.stderr], [0, ''])
    const lines = frameLines(facts.frames)
    const rows = facts.frames.map((f, i) =>
      `${String(i).padStart(6)}${String(f.start).padStart(14)}${String(f.end).padStart(14)}${String(f.end - f.start).padStart(11)}${String(f.text.length).padStart(11)}` +
      `${`${lines[i]!.firstLine}-${lines[i]!.lastLine}`.padStart(15)}  0x${f.checksum!.toString(16).padStart(8, '0')}`)
    assert.equal(r.stdout, [
      ' frame         start           end      bytes    decoded          lines  checksum',
      ...rows,
      `9 frames, ${size(facts.bytes.length)} of ${size(facts.bytes.length)} consumed, ${lineCount(facts.text)} lines, ${nested.events.length} events, decoder zlib`,
      '',
    ].join('\n'))
  })

  it('prints the intact lines of a torn log, reports the tail on stderr and exits 1', () => {
    const r = run(node22, 'read-session-log', [torn.path])
    assert.equal(r.status, 1)
    assert.equal(r.stderr, `torn tail: ${tornDescription(tornTail, statSync(torn.path).size)}\n`)
    assert.equal(r.stdout, Buffer.concat(facts.frames.slice(0, -1).map((f) => f.text)).toString('utf8'))
  })

  it('reads the plain JSONL form', () => {
    const r = run(node22, 'read-session-log', ['--expand', plain.path])
    assert.equal(r.status, 0, r.stderr)
    const lines = r.stdout.trimEnd().split('\n')
    assert.equal(lines[0], readFileSync(plain.path, 'utf8').split('\n')[0], 'the header line as stored')
    assert.deepEqual(lines.slice(1).map((l) => JSON.parse(l)), plain.events)
  })
})

describe('verify-decoder', () => {
  it('proves a sound log consumed to its last byte, and every decoder agrees', () => {
    const r = run(node22, 'verify-decoder', ['--cross-check', nested.path])
    assert.equal(r.status, 0, r.stdout + r.stderr)
    const bytes = facts.bytes.length
    const lines = lineCount(facts.text)
    const decoders = ['zlib', 'zlib-oneshot', ...(zstdInstalled ? ['zstd-cli'] : []), 'fzstd']
    assert.equal(r.stdout, [
      `file: ${nested.path}`,
      `format: concatenated Zstandard frames, ${bytes} bytes (${size(bytes)}), decoder zlib`,
      `frames: 9 complete, 9 with their XXH64 content checksum verified`,
      `consumed: ${bytes} of ${bytes} bytes (to the last byte)`,
      `records: ${lines} lines (header included), ${nested.events.length} events, seq 0-${nested.events.length - 1}`,
      'magic number inside frames: none',
      ...decoders.map((name) => `cross-check ${name}: sha256 ${sha256Prefix(facts.text)}…, ${lines} lines`),
      `cross-check: ${decoders.length} decoders agree`,
      'result: ok',
      '',
    ].join('\n'))
  })

  it('reports a torn tail with offsets and the events intact before it', () => {
    const r = run(node22, 'verify-decoder', ['--json', torn.path])
    assert.equal(r.status, 1)
    const fileSize = statSync(torn.path).size
    const intact = facts.frames.slice(0, -1)
    assert.deepEqual(JSON.parse(r.stdout), {
      file: torn.path, format: 'zstd', size: fileSize, decoder: 'zlib', frames: 8, checkedFrames: 8, bytesConsumed: torn.start, consumedToEnd: false,
      lines: intact.reduce((sum, f) => sum + lineCount(f.text), 0), events: nested.events.length - 1, lastSeq: nested.events.length - 2,
      tail: {
        start: torn.start, bytes: fileSize - torn.start, description: tornDescription(tornTail, fileSize),
        stop: { kind: 'incomplete', index: tornTail.index, start: torn.start, part: 'block', at: tornTail.block.payloadStart, needed: tornTail.block.needed, blocksComplete: tornTail.blocksComplete },
        recoverableLines: 0,
      },
      magicFalsePositives: [], problems: [], ok: false,
    })
  })

  it('names the byte offset of corrupt structure and exits 1', () => {
    const r = run(node22, 'verify-decoder', [damaged])
    assert.equal(r.status, 1)
    const bytes = readFileSync(damaged)
    const { frames, garbageAt } = readFrames(bytes)
    assert.deepEqual([frames.length, garbageAt], [1, frames[0]!.end])
    assert.equal(r.stdout, [
      `file: ${damaged}`,
      `format: concatenated Zstandard frames, ${bytes.length} bytes (${size(bytes.length)}), decoder zlib`,
      'frames: 1 complete, 1 with its XXH64 content checksum verified',
      `consumed: ${garbageAt} of ${bytes.length} bytes`,
      'records: 1 line (header included), 0 events, no events',
      'magic number inside frames: none',
      `problem: corrupt Zstandard structure at byte ${garbageAt}: invalid frame magic 0x${bytes.readUInt32LE(garbageAt!).toString(16)} (expected 28 b5 2f fd)`,
      'result: problem found',
      '',
    ].join('\n'))
  })
})

/** The row key rc.8 gives a person's message: `13:input-message<message id>`. */
function promptKey(seq: number): string {
  return `13:input-message${(nested.events[seq]!.data as { id: string }).id}`
}

describe('explain-session', () => {
  it('explains nested tombstones with their inclusive ranges, sources and nesting as the backend stored them', () => {
    const r = run(node22, 'explain-session', ['--rows', '--json', nested.dir])
    assert.equal(r.status, 0, r.stdout + r.stderr)
    const doc = JSON.parse(r.stdout) as { tombstones: Record<string, unknown>[]; rows: unknown[]; events: number; lastSeq: number; frames: number; header: unknown }
    const written = nested.tombstones
    const tombstoneSeqs = new Set(written.map((t) => t.seq))
    assert.deepEqual([doc.header, doc.events, doc.lastSeq, doc.frames], [facts.header, nested.events.length, nested.events.length - 1, 9])
    assert.deepEqual(
      doc.tombstones.map(({ seq, action, start, end, shadowedSeqs, inside, nestedTombstones, splitCalls, sourceAgrees, shadowedBy, restoredBy, inEffect }) => ({
        seq, action, start, end, shadowedSeqs, inside: (inside as { seq: number }[]).map((n) => n.seq), nestedTombstones, splitCalls, sourceAgrees, shadowedBy, restoredBy, inEffect,
      })),
      written.map((t) => {
        const op = t.surfaceOp as { start: number; end: number }
        const shadowedSeqs = [...t.sourceEventSeqs!]
        return {
          seq: t.seq, action: (t.data as { source: { action: string } }).source.action, start: op.start, end: op.end, shadowedSeqs, inside: shadowedSeqs,
          nestedTombstones: shadowedSeqs.filter((seq) => tombstoneSeqs.has(seq)), splitCalls: [], sourceAgrees: true,
          shadowedBy: written.find((later) => later.sourceEventSeqs!.includes(t.seq))?.seq ?? null, restoredBy: null, inEffect: true,
        }
      }),
    )
    assert.deepEqual(written.map((t) => [t.seq, (t.data as { source: { action: string } }).source.action]), [[198, 'recall'], [199, 'delete'], [200, 'deleteFrom'], [201, 'deleteFrom']])
  })

  it('prints ranges, nesting, the surface and the rows the client hides, in text', () => {
    const r = run(node22, 'explain-session', ['--rows', nested.path])
    assert.deepEqual([r.status, r.stderr], [0, ''])
    const prompt = (n: number) => `user "prompt #${n}: please look at the project: The build reads the c…"`
    const reply = (turn: number) => `assistant turn ${turn} step 2 "reply #${turn}: The build reads the configuration, resolves every …"`
    const checking = (turn: number) => `assistant turn ${turn} step 1 "Checking step 1 of prompt #${turn}." [tool-call read_file] [tool-call list_dir]`
    const tool = (turn: number) => `tool turn ${turn} step 1 [tool result]`
    const row = (state: string, kind: string, at: string, turn: number, key: string) => `  ${state.padEnd(25)}  ${kind.padEnd(14)}  ${at.padEnd(8)}  turn ${turn} ${key}`
    assert.equal(r.stdout, [
      `session session-nested (cwd /projects/demo project), created ${new Date(facts.header.createdAt).toISOString()}`,
      `log: ${nested.events.length} events (seq 0-${nested.events.length - 1}), 9 frames`,
      'surface now: 5 nodes [4, 27, 29, 31, 201]',
      'replacements: 4 — 4 tombstones of dsh-message-recall, 0 restores, 0 compaction checkpoints, 0 tool-result prunes, 0 other',
      'tombstone seq 198 · recall · range 55..55 (inclusive) · shadows 1 node',
      `  inside:  55 ${prompt(2)}`,
      `  before:  48 ${reply(1)}`,
      `  after:   76 ${checking(2)}`,
      '  now:     shadowed by 200',
      'tombstone seq 199 · delete · range 125..129 (inclusive) · shadows 3 nodes',
      `  inside:  125 ${checking(3)}`,
      `  inside:  127 ${tool(3)}`,
      `  inside:  129 ${tool(3)}`,
      `  before:  104 ${prompt(3)}`,
      `  after:   146 ${reply(3)}`,
      '  now:     shadowed by 200',
      'tombstone seq 200 · deleteFrom · range 198..195 (inclusive) · shadows 13 nodes, 2 earlier tombstones among them (198, 199)',
      '  inside:  198 tombstone [empty]',
      `  inside:  76 ${checking(2)}`,
      `  inside:  78 ${tool(2)}`,
      `  inside:  80 ${tool(2)}`,
      `  inside:  97 ${reply(2)}`,
      `  inside:  104 ${prompt(3)}`,
      '  inside:  199 tombstone [empty]',
      `  inside:  146 ${reply(3)}`,
      `  inside:  153 ${prompt(4)}`,
      `  inside:  174 ${checking(4)}`,
      `  inside:  176 ${tool(4)}`,
      `  inside:  178 ${tool(4)}`,
      `  inside:  195 ${reply(4)}`,
      `  before:  48 ${reply(1)}`,
      '  after:   (none)',
      '  now:     shadowed by 201',
      'tombstone seq 201 · deleteFrom · range 48..200 (inclusive) · shadows 2 nodes, 1 earlier tombstone among them (200)',
      `  inside:  48 ${reply(1)}`,
      '  inside:  200 tombstone [empty]',
      `  before:  31 ${tool(1)}`,
      '  after:   (none)',
      '  now:     on the surface (the model sees an empty user message here)',
      'pairing: balanced (every tool call on the surface has its result)',
      'rows: 24 rebuilt from the log, 20 hidden by the client',
      row('shown', 'user', 'seq 4', 1, promptKey(4)),
      row('shown', 'assistant-step', 'seq 27', 1, '14:assistant-step1:1'),
      row('shown', 'tool-call', 'seq 29', 1, '9:tool-callcall-1-1-1'),
      row('shown', 'tool-call', 'seq 31', 1, '9:tool-callcall-1-1-2'),
      row('hidden (shadowed by 201)', 'assistant-step', 'seq 48', 1, '14:assistant-step1:2'),
      row('hidden (span by 201)', 'turn-tail', `log ${facts.turnEnds[0]}`, 1, '9:turn-tail1'),
      row('hidden (shadowed by 198)', 'user', 'seq 55', 2, promptKey(55)),
      row('hidden (shadowed by 200)', 'assistant-step', 'seq 76', 2, '14:assistant-step2:1'),
      row('hidden (shadowed by 200)', 'tool-call', 'seq 78', 2, '9:tool-callcall-2-1-1'),
      row('hidden (shadowed by 200)', 'tool-call', 'seq 80', 2, '9:tool-callcall-2-1-2'),
      row('hidden (shadowed by 200)', 'assistant-step', 'seq 97', 2, '14:assistant-step2:2'),
      row('hidden (span by 201)', 'turn-tail', `log ${facts.turnEnds[1]}`, 2, '9:turn-tail2'),
      row('hidden (shadowed by 200)', 'user', 'seq 104', 3, promptKey(104)),
      row('hidden (shadowed by 199)', 'assistant-step', 'seq 125', 3, '14:assistant-step3:1'),
      row('hidden (shadowed by 199)', 'tool-call', 'seq 127', 3, '9:tool-callcall-3-1-1'),
      row('hidden (shadowed by 199)', 'tool-call', 'seq 129', 3, '9:tool-callcall-3-1-2'),
      row('hidden (shadowed by 200)', 'assistant-step', 'seq 146', 3, '14:assistant-step3:2'),
      row('hidden (span by 201)', 'turn-tail', `log ${facts.turnEnds[2]}`, 3, '9:turn-tail3'),
      row('hidden (shadowed by 200)', 'user', 'seq 153', 4, promptKey(153)),
      row('hidden (shadowed by 200)', 'assistant-step', 'seq 174', 4, '14:assistant-step4:1'),
      row('hidden (shadowed by 200)', 'tool-call', 'seq 176', 4, '9:tool-callcall-4-1-1'),
      row('hidden (shadowed by 200)', 'tool-call', 'seq 178', 4, '9:tool-callcall-4-1-2'),
      row('hidden (shadowed by 200)', 'assistant-step', 'seq 195', 4, '14:assistant-step4:2'),
      row('hidden (span by 201)', 'turn-tail', `log ${facts.turnEnds[3]}`, 4, '9:turn-tail4'),
      'result: ok',
      '',
    ].join('\n'))
  })

  it('counts a tool-result prune apart from tombstones', () => {
    const r = run(node22, 'explain-session', [plain.path])
    assert.deepEqual([r.status, r.stderr], [0, ''])
    const header = JSON.parse(readFileSync(plain.path, 'utf8').split('\n')[0]!) as { createdAt: number }
    const resultSeq = plain.events[plain.pruneSeq]!.sourceEventSeqs![0]!
    assert.equal(r.stdout, [
      `session session-plain (cwd /projects/other), created ${new Date(header.createdAt).toISOString()}`,
      'title: Plain log with a prune',
      `log: ${plain.events.length} events (seq 0-${plain.events.length - 1}), plain JSONL`,
      `surface now: 5 nodes [4, 27, ${plain.pruneSeq}, 31, 48]`,
      'replacements: 1 — 0 tombstones of dsh-message-recall, 0 restores, 0 compaction checkpoints, 1 tool-result prune, 0 other',
      `prune seq ${plain.pruneSeq} · range ${resultSeq}..${resultSeq} · shadows 1 node`,
      'pairing: balanced (every tool call on the surface has its result)',
      'result: ok',
      '',
    ].join('\n'))
    const doc = JSON.parse(run(node22, 'explain-session', ['--json', plain.path]).stdout) as { replacements: unknown[]; tombstones: unknown[]; title: string }
    assert.deepEqual([doc.replacements, doc.tombstones, doc.title], [[{ seq: plain.pruneSeq, kind: 'prune', start: resultSeq, end: resultSeq, shadowedSeqs: [resultSeq] }], [], 'Plain log with a prune'])
  })

  it('ends with the torn tail as a problem and exits 1 on a torn log', () => {
    const r = run(node22, 'explain-session', [torn.path])
    assert.deepEqual([r.status, r.stderr], [1, ''])
    const lines = r.stdout.split('\n')
    assert.deepEqual(lines.slice(1, 4), [
      `log: ${nested.events.length - 1} events (seq 0-${nested.events.length - 2}), 8 frames`,
      'surface now: 6 nodes [4, 27, 29, 31, 48, 200]',
      'replacements: 3 — 3 tombstones of dsh-message-recall, 0 restores, 0 compaction checkpoints, 0 tool-result prunes, 0 other',
    ])
    assert.deepEqual(lines.slice(-5), [
      '  now:     on the surface (the model sees an empty user message here)',
      'pairing: balanced (every tool call on the surface has its result)',
      `problem: torn tail: ${tornDescription(tornTail, statSync(torn.path).size)}`,
      'result: 1 problem found',
      '',
    ])
  })
})

describe('list-sessions and scan-replace', () => {
  const turnsOf = (events: readonly LogEvent[]) => events.filter((e) => e.type === 'turn/start').length

  it('lists sessions newest first with title, events, turns, failed turns and tombstones; a damaged one makes exit 1', () => {
    const r = run(node22, 'list-sessions', ['--json', '--quiet', root])
    assert.deepEqual([r.status, r.stderr], [1, ''])
    const damagedBytes = readFileSync(damaged)
    const garbageAt = readFrames(damagedBytes).garbageAt!
    const entry = (path: string, fields: Record<string, unknown>) => ({
      path, ...fields, updated: new Date(statSync(path).mtimeMs).toISOString(), size: statSync(path).size,
    })
    const order = ['path', 'id', 'cwd', 'title', 'updated', 'size', 'events', 'turns', 'failedTurns', 'tombstones', 'writing', 'tail', 'error', 'problems']
    const tornSize = statSync(torn.path).size
    const ordered = (o: Record<string, unknown>) => Object.fromEntries(order.map((k) => [k, o[k]]))
    assert.deepEqual(JSON.parse(r.stdout), {
      root,
      sessions: [
        entry(nested.path, { id: 'session-nested', cwd: '/projects/demo project', title: FIRST_PROMPT, events: nested.events.length, turns: turnsOf(nested.events), failedTurns: 0, tombstones: 4, writing: false, tail: null, error: null, problems: [] }),
        entry(plain.path, { id: 'session-plain', cwd: '/projects/other', title: 'Plain log with a prune', events: plain.events.length, turns: turnsOf(plain.events), failedTurns: 1, tombstones: 0, writing: false, tail: null, error: null, problems: [] }),
        entry(torn.path, { id: 'session-nested', cwd: '/projects/demo project', title: FIRST_PROMPT, events: nested.events.length - 1, turns: turnsOf(nested.events), failedTurns: 0, tombstones: 3, writing: true,
          tail: { start: torn.start, bytes: tornSize - torn.start, at: `frame ${tornTail.index} at byte ${torn.start}`, description: tornDescription(tornTail, tornSize) }, error: null, problems: [] }),
        entry(damaged, {
          id: 'session-nested', cwd: '/projects/demo project', title: null, events: 0, turns: 0, failedTurns: 0, tombstones: 0, writing: false, tail: null, error: null,
          problems: [`corrupt Zstandard structure at byte ${garbageAt}: invalid frame magic 0x${damagedBytes.readUInt32LE(garbageAt).toString(16)} (expected 28 b5 2f fd)`],
        }),
      ].map(ordered),
      total: 4,
      unreadable: 1,
      skipped: [],
    })
    assert.deepEqual([turnsOf(nested.events), turnsOf(plain.events)], [4, 3])
  })

  it('keeps to recent logs with --hours, and prints a table', () => {
    const r = run(node22, 'list-sessions', ['--hours', '24', '--quiet', root])
    assert.deepEqual([r.status, r.stderr], [0, ''])
    const line = (path: string, events: number, turns: number, failed: number, tombstones: number, rest: string) =>
      `${minute(path)}  ${String(events).padStart(7)}  ${String(turns).padStart(5)}  ${String(failed).padStart(6)}  ${String(tombstones).padStart(7)}  ${size(statSync(path).size).padStart(9)}  ${rest}`
    assert.equal(r.stdout, [
      'updated            events  turns  failed  tombst.       size  id  title',
      line(nested.path, nested.events.length, 4, 0, 4, `session-nested  (first prompt) ${FIRST_PROMPT}`),
      line(plain.path, plain.events.length, 3, 1, 0, 'session-plain  Plain log with a prune'),
      line(torn.path, nested.events.length - 1, 4, 0, 3, `session-nested  (first prompt) ${FIRST_PROMPT}  [writing from frame ${tornTail.index} at byte ${torn.start}]`),
      '3 sessions changed in the last 24 h, 0 unreadable or damaged',
      '',
    ].join('\n'))
  })

  it('separates tombstone sessions from compaction replacements', () => {
    const r = run(node22, 'scan-replace', ['--json', '--quiet', '--hours', '24', root])
    assert.deepEqual([r.status, r.stderr], [0, ''])
    const doc = JSON.parse(r.stdout) as { scanned: number; tombstones: Record<string, unknown>[]; restores: unknown[]; forks: unknown[]; compaction: Record<string, unknown>[] }
    const pick = (s: Record<string, unknown>) => [s.path, s.id, s.updated, s.turns, s.failedTurns, s.tombstones, s.tombstonesByAction, s.restores, s.checkpoints, s.prunes, s.lastTime, s.forkedFrom]
    const updated = (path: string) => new Date(statSync(path).mtimeMs).toISOString()
    assert.equal(doc.scanned, 3)
    assert.deepEqual(doc.tombstones.map(pick), [
      [nested.path, 'session-nested', updated(nested.path), 4, 0, 4, { recall: 1, delete: 1, deleteFrom: 2, exclude: 0 }, 0, 0, 0, nested.events.at(-1)!.time, null],
      [torn.path, 'session-nested', updated(torn.path), 4, 0, 3, { recall: 1, delete: 1, deleteFrom: 1, exclude: 0 }, 0, 0, 0, nested.events.at(-2)!.time, null],
    ])
    assert.deepEqual([doc.restores, doc.forks], [[], []])
    assert.deepEqual(doc.compaction.map(pick), [
      [plain.path, 'session-plain', updated(plain.path), 3, 1, 0, { recall: 0, delete: 0, deleteFrom: 0, exclude: 0 }, 0, 0, 1, plain.events.at(-1)!.time, null],
    ])

    const text = run(node22, 'scan-replace', ['--quiet', root])
    assert.deepEqual([text.status, text.stderr], [1, ''])
    const damagedBytes = readFileSync(damaged)
    const garbageAt = readFrames(damagedBytes).garbageAt!
    assert.equal(text.stdout, [
      'sessions with dsh-message-recall tombstones: 2',
      `  session-nested  4 tombstones (recall 1, delete 1, deleteFrom 2)  ${nested.path}`,
      `  session-nested  3 tombstones (recall 1, delete 1, deleteFrom 1)  ${torn.path}`,
      'sessions with restores: 0',
      'sessions with compaction replacements: 1',
      `  session-plain  0 checkpoints, 1 tool-result prune  ${plain.path}`,
      'sessions forked from another: 0',
      `DAMAGED ${damaged}: corrupt Zstandard structure at byte ${garbageAt}: invalid frame magic 0x${damagedBytes.readUInt32LE(garbageAt).toString(16)} (expected 28 b5 2f fd)`,
      'scanned 4 sessions, 1 unreadable or damaged',
      '',
    ].join('\n'))
  })
})

describe('usage', () => {
  const logTools = ['read-session-log', 'verify-decoder', 'explain-session']
  const help = (name: string) => run(node22, name, ['--help']).stdout
  for (const name of logTools) {
    const cases: [string, string[], () => string][] = [
      ['no arguments', [], () => `missing the log file or session folder\n\n${help(name)}`],
      ['an unknown option', ['--bogus', 'x'], () => `node lib/scripts/${name}.js: unknown option --bogus; see --help\n`],
      ['an unknown decoder', ['--decoder', 'gzip', 'x'], () => '--decoder expects a decoder name (one of auto, zlib, zlib-oneshot, zstd-cli, fzstd), got "gzip"\n'],
      ['a missing file', [join(root, 'nope')], () => `no such file or folder: ${join(root, 'nope')}\n`],
    ]
    for (const [label, args, message] of cases) {
      it(`${name} exits 2 on ${label}`, () => {
        const r = run(node22, name, args)
        assert.deepEqual([r.status, r.stdout, r.stderr], [2, '', message()])
      })
    }
  }
  for (const name of ['list-sessions', 'scan-replace']) {
    it(`${name} exits 2 on a bad --hours and on a missing root`, () => {
      for (const args of [['--hours', 'soon', root], ['--hours=-1', root]]) {
        const r = run(node22, name, args)
        assert.deepEqual([r.status, r.stdout, r.stderr], [2, '', `--hours expects a positive number of hours, got ${JSON.stringify(args[0] === '--hours' ? args[1] : '-1')}\n`])
      }
      const missing = run(node22, name, [join(root, 'nope')])
      assert.deepEqual([missing.status, missing.stdout, missing.stderr], [2, '', `no such file or folder: ${join(root, 'nope')}\n`])
    })
  }
  const usageLine: Record<string, string> = {
    'read-session-log': 'Usage: node lib/scripts/read-session-log.js <log file | session folder> [options]',
    'verify-decoder': 'Usage: node lib/scripts/verify-decoder.js <log file | session folder> [options]',
    'explain-session': 'Usage: node lib/scripts/explain-session.js <log file | session folder> [options]',
    'list-sessions': 'Usage: node lib/scripts/list-sessions.js [sessions root] [options]',
    'scan-replace': 'Usage: node lib/scripts/scan-replace.js [sessions root] [options]',
  }
  const exitCodes: Record<string, string> = {
    'read-session-log': 'Exit codes: 0 read to the last byte; 1 torn tail, corrupt frame or bad line (everything\nintact before it is printed; the problem goes to stderr); 2 bad usage or unreadable input.',
    'verify-decoder': 'Exit codes: 0 the whole file is sound; 1 torn tail, corrupt frame, checksum mismatch, bad\nline or decoders that disagree; 2 bad usage or unreadable input.',
    'explain-session': 'Exit codes: 0 nothing wrong; 1 a problem: the log does not fold, a range splits a tool\ncall from its result, a tool call or result is left without its partner on the surface,\na tombstone\'s source disagrees with its range, a restore is not an exact copy of the\nremoved message, or the log is damaged or torn; 2 bad usage or unreadable input.',
    'list-sessions': 'Exit codes: 0 every log read; 1 some logs are unreadable or damaged (listed, counted); 2 bad\nusage or an unreadable root. A log whose last frame is still being written is marked\n"writing from frame N at byte B" (the frame named as verify names it) and is not an error.',
    'scan-replace': 'Exit codes: 0 every log read; 1 some logs are unreadable or damaged (listed, counted); 2 bad\nusage or an unreadable root.',
  }
  for (const name of Object.keys(usageLine)) {
    it(`${name} --help prints usage and exits 0`, () => {
      const r = run(node22, name, ['--help'])
      assert.deepEqual([r.status, r.stderr], [0, ''])
      const paragraphs = r.stdout.split('\n\n')
      assert.equal(paragraphs[0], usageLine[name])
      assert.equal(paragraphs.find((p) => p.startsWith('Exit codes:'))?.trimEnd(), exitCodes[name])
    })
  }
})

describe('under Node 20 (portable fzstd decoder)', () => {
  const node20 = findNode20()
  it('reads, verifies and explains the same logs as under Node 22', (t) => {
    const read20 = run(node20, 'read-session-log', [nested.path])
    assert.equal(read20.status, 0, read20.stderr)
    assert.equal(read20.stdout, run(node22, 'read-session-log', [nested.path]).stdout)
    const verify = run(node20, 'verify-decoder', ['--json', nested.path])
    assert.equal(verify.status, 0, verify.stdout + verify.stderr)
    const doc = JSON.parse(verify.stdout) as { decoder: string; checkedFrames: number; frames: number; consumedToEnd: boolean }
    assert.equal(doc.decoder, 'fzstd')
    assert.equal(doc.checkedFrames, doc.frames)
    assert.equal(doc.consumedToEnd, true)
    const explain20 = JSON.parse(run(node20, 'explain-session', ['--rows', '--json', '--decoder', 'fzstd', nested.path]).stdout) as Record<string, unknown>
    const explain22 = JSON.parse(run(node22, 'explain-session', ['--rows', '--json', nested.path]).stdout) as Record<string, unknown>
    assert.deepEqual(explain20, explain22)
    const tornRun = run(node20, 'verify-decoder', ['--json', torn.path])
    assert.equal(tornRun.status, 1)
    assert.equal((JSON.parse(tornRun.stdout) as { tail: { start: number } }).tail.start, torn.start)
    assert.equal(run(node20, 'read-session-log', ['--decoder', 'zlib', nested.path]).status, 2, 'zlib is refused where node:zlib has no zstd')
  })
})

/** The problem a reader reports after the flipped frame: the next frame continues past the seqs it lost. */
function flippedGap(): string {
  const lost = facts.frames[flipped.frame]!
  const next = facts.frames[flipped.frame + 1]!
  const line = frameLines(facts.frames)[flipped.frame]!.firstLine
  // Frame k (k ≥ 1) holds turn k: it starts one after the previous turn's `turn/end`.
  assert.equal(lost.index, 2)
  return `problem: line ${line} (frame ${next.index} at byte ${next.start}) continues the log at seq ${facts.turnEnds[1]! + 1}; expected ${facts.turnEnds[0]! + 1}`
}

/** The flipped frame's content checksum as the backend wrote it (what a decoder computes), as 8 hex digits. */
function storedChecksum(): string {
  return facts.frames[flipped.frame]!.checksum!.toString(16).padStart(8, '0')
}

/** The checksum the flipped file stores: the last byte (the most significant of the little-endian value) with its low bit flipped. */
function flippedChecksum(): string {
  return ((facts.frames[flipped.frame]!.checksum! ^ 0x01000000) >>> 0).toString(16).padStart(8, '0')
}


interface Located {
  readonly kind: string
  readonly at: { line: number; frame: number | null; byte: number }
}
const locations = (problems: readonly Located[]) => problems.map((p) => ({ kind: p.kind, at: p.at }))

describe('a log with one flipped byte', () => {
  const node20 = findNode20()
  const summaryOf = (r: Run) => (JSON.parse(r.stdout) as { summary: { decoder: string; fallbackDecoder: string | null; lines: number; problems: Located[] } }).summary

  it('reads every intact frame under Node 20 auto, as under Node 22, and names the frame and byte', (t) => {
    const read22 = run(node22, 'read-session-log', [flipped.path])
    const read20 = run(node20, 'read-session-log', [flipped.path])
    assert.deepEqual([read20.status, read22.status], [1, 1])
    assert.equal(read20.stdout, read22.stdout, 'same lines')
    assert.equal(read20.stdout, Buffer.concat(facts.frames.filter((f) => f.index !== flipped.frame).map((f) => f.text)).toString('utf8'), 'every frame but the flipped one')
    const gap = flippedGap()
    assert.equal(read22.stderr, `problem: frame ${flipped.frame} at byte ${flipped.byte} failed to decode: Restored data doesn't match checksum\n${gap}\n`)
    assert.equal(read20.stderr, `problem: frame ${flipped.frame} at byte ${flipped.byte} failed to decode: content checksum mismatch: stored 0x${flippedChecksum()}, computed 0x${storedChecksum()}\n${gap}\n`)
    const doc22 = summaryOf(run(node22, 'read-session-log', ['--json', flipped.path]))
    const doc20 = summaryOf(run(node20, 'read-session-log', ['--json', flipped.path]))
    assert.equal(doc20.lines, doc22.lines)
    assert.equal(doc20.problems[0]!.kind, 'frame-failed')
    assert.deepEqual(doc20.problems[0]!.at, { line: doc22.problems[0]!.at.line, frame: flipped.frame, byte: flipped.byte })
    assert.deepEqual(locations(doc20.problems).map((p) => [p.kind, p.at.byte]), locations(doc22.problems).map((p) => [p.kind, p.at.byte]))
    if (zstdInstalled) assert.deepEqual([doc20.decoder, doc20.fallbackDecoder], ['zstd-cli', 'fzstd'], 'auto picked the zstd tool and fell back')
    else t.diagnostic('zstd not installed: Node 20 read with fzstd throughout')
  })

  it('keeps the damaged session and its tombstones in the Node 20 scans, with the frame named', (t) => {
    const sessions = join(home, 'sessions')
    type Listed = { path: string; events: number; tombstones: number; writing: boolean; error: string | null; problems: string[] }
    const list20 = run(node20, 'list-sessions', ['--json', '--quiet', sessions])
    const list22 = run(node22, 'list-sessions', ['--json', '--quiet', sessions])
    assert.equal(list20.status, 1)
    const entry20 = (JSON.parse(list20.stdout) as { sessions: Listed[] }).sessions.find((s) => s.path === flipped.path)!
    const entry22 = (JSON.parse(list22.stdout) as { sessions: Listed[] }).sessions.find((s) => s.path === flipped.path)!
    assert.equal(entry20.error, null, 'listed as damaged, not unreadable')
    assert.deepEqual([entry20.events, entry20.tombstones], [entry22.events, entry22.tombstones])
    assert.equal(entry20.tombstones, 4)
    assert.deepEqual(entry22.problems, [`frame ${flipped.frame} at byte ${flipped.byte} failed to decode: Restored data doesn't match checksum`, flippedGap().slice('problem: '.length)])
    assert.equal(entry20.problems[0]!, `frame ${flipped.frame} at byte ${flipped.byte} failed to decode: content checksum mismatch: stored 0x${flippedChecksum()}, computed 0x${storedChecksum()}`)
    assert.deepEqual(entry20.problems.slice(1), entry22.problems.slice(1))
    const scan20 = run(node20, 'scan-replace', ['--json', '--quiet', sessions])
    assert.equal(scan20.status, 1)
    const doc = JSON.parse(scan20.stdout) as { tombstones: { path: string; tombstonesByAction: Record<string, number> }[] }
    assert.deepEqual(doc.tombstones.map((s) => [s.path, s.tombstonesByAction]), [[flipped.path, { recall: 1, delete: 1, deleteFrom: 2, exclude: 0 }]])
  })

  it('verify --cross-check: decoders that each fail on the same corrupt frame agree, and say so', () => {
    const r = run(node22, 'verify-decoder', ['--cross-check', flipped.path])
    assert.deepEqual([r.status, r.stderr], [1, ''])
    const at = `frame ${flipped.frame} at byte ${flipped.byte}`
    const intact = Buffer.concat(facts.frames.filter((f) => f.index !== flipped.frame).map((f) => f.text))
    const digest = `sha256 ${sha256Prefix(intact)}…, ${lineCount(intact)} lines from the frames it decoded`
    const decoders: [string, string][] = [
      ['zlib', 'Restored data doesn\'t match checksum'],
      ['zlib-oneshot', 'Restored data doesn\'t match checksum'],
      ...(zstdInstalled ? [['zstd-cli', 'zstd exited with status 1: /*stdin*\\ : Decoding error (36) : Restored data doesn\'t match checksum'] as [string, string]] : []),
      ['fzstd', `content checksum mismatch: stored 0x${flippedChecksum()}, computed 0x${storedChecksum()}`],
    ]
    const lines = r.stdout.split('\n')
    const from = lines.findIndex((line) => line.startsWith('cross-check '))
    assert.deepEqual(lines.slice(from), [
      ...decoders.map(([name, why]) => `cross-check ${name}: ${digest}; ${at} failed to decode: ${why}`),
      `cross-check: ${decoders.length} decoders agree: each fails on the same corrupt frame (${at}) and reads the same lines from the others`,
      'result: problem found',
      '',
    ])
    const doc = JSON.parse(run(node22, 'verify-decoder', ['--cross-check', '--json', flipped.path]).stdout) as { crossCheck: { agree: boolean; decoders: { decoder: string; sha256: string; failedFrames: string[] }[] } }
    assert.equal(doc.crossCheck.agree, true)
    assert.deepEqual(doc.crossCheck.decoders.map((d) => [d.decoder, d.sha256.slice(0, 16), d.failedFrames]), decoders.map(([name]) => [name, sha256Prefix(intact), [at]]))
    // DISAGREE only when they differ: in the lines read, in the frames that failed, or a read that stopped.
    const read = (decoder: DecoderName, sha256: string | null, failedFrames: string[]) => ({ decoder, sha256, lines: 3, failedFrames })
    assert.equal(decodersAgree([read('zlib', 'aa', [at]), read('fzstd', 'aa', [at])]), true)
    assert.equal(decodersAgree([read('zlib', 'aa', [at]), read('fzstd', 'aa', [])]), false)
    assert.equal(decodersAgree([read('zlib', 'aa', [at]), read('fzstd', 'bb', [at])]), false)
    assert.equal(decodersAgree([read('zlib', null, []), read('fzstd', null, [])]), false)
  })

  it('is located frame by frame with --decoder zstd-cli too, and reads the same lines as fzstd', (t) => {
    if (!zstdInstalled) {
      t.skip('zstd not installed')
      return
    }
    const cli = run(node22, 'read-session-log', ['--decoder', 'zstd-cli', flipped.path])
    const portable = run(node22, 'read-session-log', ['--decoder', 'fzstd', flipped.path])
    assert.equal(cli.status, 1)
    assert.equal(cli.stdout, portable.stdout)
    assert.equal(cli.stderr.split('\n')[0], `problem: frame ${flipped.frame} at byte ${flipped.byte} failed to decode: zstd exited with status 1: /*stdin*\\ : Decoding error (36) : Restored data doesn't match checksum`)
    const docCli = summaryOf(run(node22, 'read-session-log', ['--decoder', 'zstd-cli', '--json', flipped.path]))
    const docPortable = summaryOf(run(node22, 'read-session-log', ['--decoder', 'fzstd', '--json', flipped.path]))
    assert.deepEqual(docCli.problems[0]!.at, docPortable.problems[0]!.at)
    assert.deepEqual(docCli.problems[0]!.at, { line: docCli.problems[0]!.at.line, frame: flipped.frame, byte: flipped.byte })
  })
})

describe('list-sessions and verify-decoder on one damaged and one torn log', () => {
  it('name the frame in one wording: its number and the byte it starts at', () => {
    const failed = `frame ${flipped.frame} at byte ${flipped.byte}`
    const verifyFlipped = run(node22, 'verify-decoder', [flipped.path])
    assert.ok(verifyFlipped.stdout.split('\n').includes(`problem: ${failed} failed to decode: Restored data doesn't match checksum`), verifyFlipped.stdout)
    const listHome = run(node22, 'list-sessions', ['--quiet', join(home, 'sessions')])
    assert.equal(listHome.stdout.split('\n').filter((line) => line.endsWith(`[DAMAGED: ${failed} failed to decode: Restored data doesn't match checksum]`)).length, 1, listHome.stdout)
    const cut = `frame ${tornTail.index} at byte ${torn.start}`
    const verifyTorn = run(node22, 'verify-decoder', [torn.path])
    assert.ok(verifyTorn.stdout.split('\n').includes(`torn tail: ${tornDescription(tornTail, statSync(torn.path).size)}`), verifyTorn.stdout)
    assert.ok(tornDescription(tornTail, statSync(torn.path).size).startsWith(`${cut} is incomplete: `))
    const listRoot = run(node22, 'list-sessions', ['--quiet', root])
    assert.equal(listRoot.stdout.split('\n').filter((line) => line.endsWith(`[writing from ${cut}]`)).length, 1, listRoot.stdout)
  })
})

describe('a file that is not a log', () => {
  it('is not-a-log (exit 2) in read-session-log and an unreadable entry (exit 1) in the scans, under its log name', () => {
    const read = run(node22, 'read-session-log', [notALog])
    const notALogText = `${notALog} is neither a Zstandard log nor a JSONL log (first bytes 616263)`
    assert.deepEqual([read.status, read.stdout, read.stderr], [2, '', `${notALogText}\n`])
    const list = run(node22, 'list-sessions', ['--json', '--quiet', join(home, 'sessions')])
    assert.equal(list.status, 1)
    const doc = JSON.parse(list.stdout) as { sessions: { path: string; writing: boolean; error: string | null }[]; unreadable: number }
    const entry = doc.sessions.find((s) => s.path === notALog)!
    assert.equal(entry.writing, false)
    assert.equal(entry.error, notALogText)
    assert.equal(doc.unreadable, 2, 'the flipped log and this file')
    const text = run(node22, 'list-sessions', ['--quiet', join(home, 'sessions')])
    assert.equal(text.stdout.split('\n').find((line) => line.includes('session-not-a-log')), `${minute(notALog)}  UNREADABLE ${notALog}: ${notALogText}`)
    assert.doesNotMatch(text.stdout, /writing/)
    const scan = run(node22, 'scan-replace', ['--quiet', join(home, 'sessions')])
    assert.equal(scan.status, 1)
    assert.equal(scan.stdout, [
      'sessions with dsh-message-recall tombstones: 1',
      `  session-nested  4 tombstones (recall 1, delete 1, deleteFrom 2)  ${flipped.path}`,
      'sessions with restores: 0',
      'sessions with compaction replacements: 0',
      'sessions forked from another: 0',
      `DAMAGED ${flipped.path}: frame ${flipped.frame} at byte ${flipped.byte} failed to decode: Restored data doesn't match checksum`,
      `UNREADABLE ${notALog}: ${notALogText}`,
      'scanned 2 sessions, 2 unreadable or damaged',
      '',
    ].join('\n'))
    const scanJson = run(node22, 'scan-replace', ['--json', '--quiet', join(home, 'sessions')])
    assert.equal(scanJson.status, 1)
    const doc2 = JSON.parse(scanJson.stdout) as { unreadable: unknown[]; damaged: unknown[] }
    assert.deepEqual([doc2.unreadable, doc2.damaged], [
      [{ path: notALog, error: notALogText }],
      [{ path: flipped.path, problems: [`frame ${flipped.frame} at byte ${flipped.byte} failed to decode: Restored data doesn't match checksum`, flippedGap().slice('problem: '.length)] }],
    ])
  })

  it('list-sessions and scan-replace call one state by one word: DAMAGED for a log read with damage, UNREADABLE for a file that is no log', () => {
    const sessions = join(home, 'sessions')
    const list = run(node22, 'list-sessions', ['--quiet', sessions])
    const scan = run(node22, 'scan-replace', ['--quiet', sessions])
    assert.deepEqual([list.status, scan.status], [1, 1])
    const damage = `frame ${flipped.frame} at byte ${flipped.byte} failed to decode: Restored data doesn't match checksum`
    const notALogText = `${notALog} is neither a Zstandard log nor a JSONL log (first bytes 616263)`
    const lines = (out: string, word: string) => out.split('\n').filter((line) => line.includes(word))
    // The flipped log (read with damage) is DAMAGED in both; the file that is no log UNREADABLE in both.
    assert.deepEqual(lines(scan.stdout, 'DAMAGED'), [`DAMAGED ${flipped.path}: ${damage}`])
    assert.deepEqual(lines(scan.stdout, 'UNREADABLE'), [`UNREADABLE ${notALog}: ${notALogText}`])
    assert.equal(lines(list.stdout, 'DAMAGED').length, 1, list.stdout)
    assert.ok(lines(list.stdout, 'DAMAGED')[0]!.startsWith(`${minute(flipped.path)}  `) && lines(list.stdout, 'DAMAGED')[0]!.endsWith(`  session-nested  (first prompt) ${FIRST_PROMPT}  [DAMAGED: ${damage}]`), list.stdout)
    assert.deepEqual(lines(list.stdout, 'UNREADABLE'), [`${minute(notALog)}  UNREADABLE ${notALog}: ${notALogText}`])
  })

  it('counts the first bytes of the frame magic as a zstd log torn in its first write', () => {
    const dir = mkdtempSync(join(tmpdir(), 'mr-scripts-magic-'))
    try {
      const path = join(dir, 'session.jsonl.zstd')
      writeFileSync(path, Buffer.from([0x28, 0xb5]))
      const r = run(node22, 'read-session-log', [path])
      assert.equal(r.status, 1)
      assert.deepEqual([r.stdout, r.stderr], ['', [
        'problem: the log holds no complete header line',
        'torn tail: frame 0 at byte 0 is incomplete: frame magic needs 4 bytes from byte 0, the file ends at byte 2 (2 bytes of the frame present, 0 complete blocks)',
        '',
      ].join('\n')])
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
})

describe('the default sessions root', () => {
  for (const name of ['list-sessions', 'scan-replace']) {
    it(`${name} reads $DSH_HOME/sessions when no root is given`, () => {
      const given = run(node22, name, ['--json', '--quiet', join(home, 'sessions')])
      const defaulted = run(node22, name, ['--json', '--quiet'], { DSH_HOME: home })
      assert.equal(defaulted.status, given.status)
      assert.deepEqual(JSON.parse(defaulted.stdout), JSON.parse(given.stdout))
      const missing = run(node22, name, ['--quiet'], { DSH_HOME: join(home, 'nope') })
      assert.equal(missing.status, 2)
      const nope = join(home, 'nope', 'sessions')
      assert.equal(missing.stderr, `no sessions root given, and the default ${nope} ($DSH_HOME/sessions, or ~/.dsh/sessions when DSH_HOME is unset) is not a readable folder: no such file or folder: ${nope}\n`)
      assert.ok(run(node22, name, ['--help']).stdout.replace(/\s+/g, ' ').includes('Without a root it reads $DSH_HOME/sessions, or ~/.dsh/sessions when DSH_HOME is unset;'))
    })
  }
})

function seqsOfEvents(events: readonly LogEvent[], type: string): number[] {
  return events.filter((e) => e.type === type && e.surfaceOp === 'append').map((e) => e.seq)
}
