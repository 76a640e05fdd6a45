/**
 * Every count the log tools print reads right for one and for more: the built scripts run over
 * logs the real rc.8 backend wrote with one of each replacement (a tombstone, a restore, a
 * compaction checkpoint, a tool-result prune) and with two of each, sessions forked with one
 * and with two events copied, a log of a header line alone, logs cut inside their last frame
 * and a file of one byte. Each line is compared whole.
 */
import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { after, before, describe, it } from 'node:test'
import { fileURLToPath } from 'node:url'
import { SessionId, type SessionEvent } from '@deepseek-ai/dsh-session'
import type { UserMessage } from '@deepseek-ai/dsh-llm'
import type { LogEvent } from '../../src/shared/events'
import { counted, forCount } from '../../src/log/counted'
import { replaceOp } from '../../src/shared/replace-op'
import { scanZstdFrames } from '../../src/log/zstd-frames'
import { LogBuilder } from '../host/log-builder'
import { appendTurns, findLogFile, openLogStore } from './support/real-logs'
import { node20Path } from '../../tools/node-runtime'

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '../..')
const scratch = mkdtempSync(join(tmpdir(), 'mr-counted-'))
after(() => rmSync(scratch, { recursive: true, force: true }))

function run(name: string, args: readonly string[]): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [join(repo, 'lib/scripts', `${name}.js`), ...args], { encoding: 'utf8' })
  return { status: r.status, stdout: r.stdout, stderr: r.stderr }
}

/** Lines of a run's stdout. */
const linesOf = (r: { stdout: string }) => r.stdout.trimEnd().split('\n')

/** What one written session holds, by seq. */
interface Written {
  readonly path: string
  readonly tombstones: number[]
  readonly restores: number[]
  /** Each checkpoint with the surface range it replaced. */
  readonly checkpoints: { seq: number; start: number; end: number }[]
  /** Each prune with the tool result it rewrote. */
  readonly prunes: { seq: number; result: number }[]
  /** The prompt each tombstone shadows (and its restore copies back). */
  readonly prompts: number[]
}

/**
 * A session with `n` of each replacement: turns with a tool step, then per kind `n` of them:
 * a checkpoint over a turn's prompt and reply, a prune of a tool result (inside one more turn), a tombstone deleting a
 * prompt and the restore that undoes it. Two `session/title` events open it (so a fork can copy
 * one or two events that end between turns).
 */
function build(id: string, n: number): { builder: LogBuilder; written: Omit<Written, 'path'> } {
  const b = new LogBuilder(id)
  const append = (b.session.append as (type: string, data: unknown, opts?: unknown) => LogEvent).bind(b.session)
  append('session/title', { title: `${id} draft` })
  append('session/title', { title: id })
  const turns = Array.from({ length: 3 * n }, (_, i) => b.turn(`prompt #${i + 1}`, [{ text: `step of #${i + 1}`, calls: ['a'] }, { text: `reply #${i + 1}` }]))
  const checkpoints = turns.slice(0, n).map((t) => ({ seq: b.checkpoint(t.prompt, t.steps[1]!.assistant), start: t.prompt, end: t.steps[1]!.assistant }))
  // The pruner rewrites results inside a turn.
  b.startTurn()
  const prunes = turns.slice(n, 2 * n).map((t) => ({ seq: b.prune(t.steps[0]!.results[0]!), result: t.steps[0]!.results[0]! }))
  b.endTurn()
  const prompts = turns.slice(2 * n).map((t) => t.prompt)
  const tombstones: number[] = []
  const restores: number[] = []
  for (const prompt of prompts) {
    const tombstone = b.tombstone('delete', prompt, prompt)
    tombstones.push(tombstone)
    const original = b.events[prompt]!
    restores.push(append('user/message', structuredClone(original.data) as UserMessage, { surfaceOp: replaceOp(tombstone, tombstone), sourceEventSeqs: [tombstone, prompt] }).seq)
  }
  return { builder: b, written: { tombstones, restores, checkpoints, prunes, prompts } }
}

let one: Written
let two: Written
/** Root holding only `session-one`; root holding it, `session-two` and the two forks. */
let rootOne: string
let rootAll: string
let fork1: string
let fork2: string
/** A log of one event. */
let single: string
let headerOnly: string
let tornFork1: string
let tornTwo: string
let oneByte: string
/** A plain JSONL log whose header is followed by two lines that are not JSON. */
let twoBadLines: string
/** Plain JSONL logs whose tombstone splits a step: over its call alone, over its last result alone. */
let splits: { call: string; callTombstone: number; result: string; resultTombstone: number }

async function write(root: string, id: string, n: number, forks = false): Promise<Written> {
  const { builder, written } = build(id, n)
  const store = await openLogStore(root)
  try {
    const session = store.ctx.sessions.create(SessionId(id), { meta: { cwd: '/projects/counts' } })
    await appendTurns(store, session, builder.events as unknown as SessionEvent[])
    if (forks) {
      await store.ctx.sessions.flush(store.ctx.sessions.fork(session, 0, SessionId(`${id}-fork1`)))
      await store.ctx.sessions.flush(store.ctx.sessions.fork(session, 1, SessionId(`${id}-fork2`)))
      const single = store.ctx.sessions.create(SessionId('session-single'), { meta: { cwd: '/projects/counts' } })
      ;(single.append as (type: string, data: unknown) => unknown)('session/title', { title: 'one event' })
      await store.ctx.sessions.flush(single)
    }
  } finally {
    await store.dispose()
  }
  return { ...written, path: findLogFile(root, id) }
}

/** A copy of a log cut inside its last frame, as its own session folder. */
function cutInLastFrame(path: string, dir: string): string {
  const bytes = readFileSync(path)
  const last = scanZstdFrames(bytes).frames.at(-1)!
  mkdirSync(dir, { recursive: true })
  const out = join(dir, 'session.jsonl.zstd')
  writeFileSync(out, bytes.subarray(0, last.start + 3))
  return out
}

before(async () => {
  rootOne = join(scratch, 'one')
  rootAll = join(scratch, 'all')
  one = await write(rootOne, 'session-one', 1)
  await write(rootAll, 'session-one', 1, true)
  two = await write(rootAll, 'session-two', 2)
  fork1 = findLogFile(rootAll, 'session-one-fork1')
  fork2 = findLogFile(rootAll, 'session-one-fork2')
  single = findLogFile(rootAll, 'session-single')
  const cuts = join(scratch, 'cuts')
  // The header line alone: the first frame of a log (DSH writes the header in a frame of its own).
  const oneBytes = readFileSync(one.path)
  headerOnly = join(cuts, 'header-only', 'session.jsonl.zstd')
  mkdirSync(dirname(headerOnly), { recursive: true })
  writeFileSync(headerOnly, oneBytes.subarray(0, scanZstdFrames(oneBytes).frames[0]!.end))
  tornFork1 = cutInLastFrame(fork1, join(cuts, 'torn-fork1'))
  tornTwo = cutInLastFrame(two.path, join(cuts, 'torn-two'))
  oneByte = join(cuts, 'one-byte', 'session.jsonl.zstd')
  mkdirSync(dirname(oneByte), { recursive: true })
  writeFileSync(oneByte, Buffer.of(0x28))
  // Plain logs written line by line (the host never writes a split; the fold accepts one).
  const header = (id: string) => JSON.stringify({ ...(JSON.parse(headerOf(one.path)) as object), id })
  twoBadLines = writePlain(join(cuts, 'two-bad-lines'), [header('session-bad'), 'not json', 'also not json'])
  const split = (id: string, pick: (step: { assistant: number; results: number[] }) => number) => {
    const b = new LogBuilder(id)
    const { steps } = b.turn('read two files', [{ text: 'reading', calls: ['a', 'b'] }, { text: 'done' }])
    const target = pick(steps[0]!)
    const tombstone = b.tombstone('delete', target, target)
    return { path: writePlain(join(cuts, id), [header(id), ...b.events.map((e) => JSON.stringify(e))]), tombstone }
  }
  const byCall = split('session-split-call', (step) => step.assistant)
  const byResult = split('session-split-result', (step) => step.results[1]!)
  splits = { call: byCall.path, callTombstone: byCall.tombstone, result: byResult.path, resultTombstone: byResult.tombstone }
})

/** The header line of a zstd log (its first frame). */
function headerOf(path: string): string {
  const r = run('read-session-log', ['--decoder', 'fzstd', path])
  return r.stdout.slice(0, r.stdout.indexOf('\n'))
}

/** A plain `session.jsonl` of these lines in folder `dir`. */
function writePlain(dir: string, lines: readonly string[]): string {
  mkdirSync(dir, { recursive: true })
  const path = join(dir, 'session.jsonl')
  writeFileSync(path, lines.join('\n') + '\n')
  return path
}

describe('the counting helper', () => {
  it('takes the form for one only for exactly 1', () => {
    assert.deepEqual([0, 1, 2, 11].map((n) => counted(n, 'tool-result prune')), ['0 tool-result prunes', '1 tool-result prune', '2 tool-result prunes', '11 tool-result prunes'])
    assert.deepEqual([1, 2].map((n) => counted(n, 'further problem')), ['1 further problem', '2 further problems'])
    assert.deepEqual([1, 3].map((n) => `${forCount(n, 'is', 'are')}`), ['is', 'are'])
  })
})

describe('explain-session', () => {
  it('counts one of each replacement in the singular', () => {
    const r = run('explain-session', [one.path])
    assert.equal(r.status, 0, r.stdout + r.stderr)
    const lines = linesOf(r)
    const [tombstone] = one.tombstones
    const [prompt] = one.prompts
    assert.ok(lines.includes('replacements: 4 — 1 tombstone of dsh-message-recall, 1 restore, 1 compaction checkpoint, 1 tool-result prune, 0 other'), r.stdout)
    assert.ok(lines.includes(`tombstone seq ${tombstone} · delete · range ${prompt}..${prompt} (inclusive) · shadows 1 node`), r.stdout)
    const [prune] = one.prunes
    const [checkpoint] = one.checkpoints
    assert.ok(lines.includes(`prune seq ${prune!.seq} · range ${prune!.result}..${prune!.result} · shadows 1 node`), r.stdout)
    // The turn's prompt, its tool step (call and result) and its reply.
    assert.ok(lines.includes(`checkpoint seq ${checkpoint!.seq} · range ${checkpoint!.start}..${checkpoint!.end} · shadows 4 nodes`), r.stdout)
    assert.ok(lines.includes('result: ok'), r.stdout)
  })

  it('counts two of each in the plural', () => {
    const r = run('explain-session', [two.path])
    assert.equal(r.status, 0, r.stdout + r.stderr)
    assert.ok(linesOf(r).includes('replacements: 8 — 2 tombstones of dsh-message-recall, 2 restores, 2 compaction checkpoints, 2 tool-result prunes, 0 other'), r.stdout)
  })

  it('says how many events a fork copied, for one and for two', () => {
    assert.ok(linesOf(run('explain-session', [fork1])).includes('forked from session session-one: seq 0 copied from it, this session\'s own events from seq 1'))
    assert.ok(linesOf(run('explain-session', [fork2])).includes('forked from session session-one: seqs 0-1 copied from it, this session\'s own events from seq 2'))
  })

  it('counts the events, frames and surface nodes of the log', () => {
    const lines = linesOf(run('explain-session', [single]))
    assert.ok(lines.includes('log: 1 event (seq 0-0), 2 frames'), lines.join('\n'))
    assert.ok(lines.includes('surface now: 0 nodes []'), lines.join('\n'))
    const fork = linesOf(run('explain-session', [fork1]))
    assert.ok(fork.includes('log: 2 events (seq 0-1), 2 frames'), fork.join('\n'))
    const empty = linesOf(run('explain-session', [headerOnly]))
    assert.ok(empty.includes('log: 0 events, 1 frame'), empty.join('\n'))
  })

  it('counts one problem and two', () => {
    const torn = run('explain-session', [tornFork1])
    assert.equal(torn.status, 1)
    assert.equal(linesOf(torn).at(-1), 'result: 1 problem found')
    const bad = run('explain-session', [twoBadLines])
    assert.equal(bad.status, 1)
    assert.equal(linesOf(bad).at(-1), 'result: 2 problems found')
  })

  it('names one split tool call and two, and counts what is left unpaired', () => {
    const call = linesOf(run('explain-session', [splits.call]))
    assert.ok(call.includes(`problem: tombstone ${splits.callTombstone} splits tool calls call-1-1-a, call-1-1-b from their results`), call.join('\n'))
    assert.ok(call.includes('pairing: 0 unanswered calls, 2 orphan results'), call.join('\n'))
    const result = linesOf(run('explain-session', [splits.result]))
    assert.ok(result.includes(`problem: tombstone ${splits.resultTombstone} splits tool call call-1-1-b from its result`), result.join('\n'))
    assert.ok(result.includes('pairing: 1 unanswered call, 0 orphan results'), result.join('\n'))
  })
})

describe('scan-replace and list-sessions', () => {
  it('count one of each in the singular', () => {
    const r = run('scan-replace', ['--quiet', rootOne])
    assert.equal(r.status, 0, r.stdout + r.stderr)
    const lines = linesOf(r)
    assert.ok(lines.includes(`  session-one  1 tombstone (recall 0, delete 1, deleteFrom 0)  ${one.path}`), r.stdout)
    assert.ok(lines.includes(`  session-one  1 restore (a tombstone undone in place)  ${one.path}`), r.stdout)
    assert.ok(lines.includes(`  session-one  1 checkpoint, 1 tool-result prune  ${one.path}`), r.stdout)
    assert.equal(lines.at(-1), 'scanned 1 session, 0 unreadable or damaged')
    assert.equal(linesOf(run('list-sessions', ['--quiet', rootOne])).at(-1), '1 session, 0 unreadable or damaged')
  })

  it('count two or more in the plural', () => {
    const r = run('scan-replace', ['--quiet', rootAll])
    assert.equal(r.status, 0, r.stdout + r.stderr)
    const lines = linesOf(r)
    assert.ok(lines.includes(`  session-two  2 tombstones (recall 0, delete 2, deleteFrom 0)  ${two.path}`), r.stdout)
    assert.ok(lines.includes(`  session-two  2 restores (tombstones undone in place)  ${two.path}`), r.stdout)
    assert.ok(lines.includes(`  session-two  2 checkpoints, 2 tool-result prunes  ${two.path}`), r.stdout)
    assert.ok(lines.includes(`  session-one-fork1  forked from session-one (1 event copied)  ${fork1}`), r.stdout)
    assert.ok(lines.includes(`  session-one-fork2  forked from session-one (2 events copied)  ${fork2}`), r.stdout)
    assert.equal(lines.at(-1), 'scanned 5 sessions, 0 unreadable or damaged')
    assert.equal(linesOf(run('list-sessions', ['--quiet', rootAll])).at(-1), '5 sessions, 0 unreadable or damaged')
    assert.equal(linesOf(run('list-sessions', ['--quiet', '--limit', '1', rootAll])).at(-1), '5 sessions, 1 shown, 0 unreadable or damaged')
  })
})

describe('read-session-log and verify-decoder', () => {
  const size = (path: string) => statSync(path).size
  it('count one frame, line and event in the singular', () => {
    const frames = run('read-session-log', ['--frames', '--decoder', 'fzstd', headerOnly])
    assert.equal(frames.status, 0, frames.stderr)
    assert.match(linesOf(frames).at(-1)!, /^1 frame, \d+ B of \d+ B consumed, 1 line, 0 events, decoder fzstd$/)
    const oneEvent = linesOf(run('read-session-log', ['--frames', '--decoder', 'fzstd', single])).at(-1)!
    assert.match(oneEvent, /^2 frames, \d+ B of \d+ B consumed, 2 lines, 1 event, decoder fzstd$/)
    const verify = linesOf(run('verify-decoder', ['--decoder', 'fzstd', single]))
    assert.ok(verify.includes(`format: concatenated Zstandard frames, ${size(single)} bytes (${size(single)} B), decoder fzstd`), verify.join('\n'))
    assert.ok(verify.includes('records: 2 lines (header included), 1 event, seq 0-0'), verify.join('\n'))
    const empty = linesOf(run('verify-decoder', ['--decoder', 'fzstd', headerOnly]))
    assert.ok(empty.includes('records: 1 line (header included), 0 events, no events'), empty.join('\n'))
    assert.ok(empty.includes('frames: 1 complete, 1 with its XXH64 content checksum verified'), empty.join('\n'))
    assert.ok(verify.includes('frames: 2 complete, 2 with their XXH64 content checksum verified'), verify.join('\n'))
  })

  it('says when one decoder is all there is to cross-check with, and how many agree', () => {
    // Node 20 has no zstd in node:zlib; without the zstd program on PATH fzstd is the only decoder.
    const node20 = node20Path()
    const emptyBin = join(scratch, 'empty-bin')
    mkdirSync(emptyBin, { recursive: true })
    const alone = spawnSync(node20, [join(repo, 'lib/scripts/verify-decoder.js'), '--cross-check', single], { encoding: 'utf8', env: { ...process.env, PATH: emptyBin } })
    assert.equal(alone.status, 0, alone.stdout + alone.stderr)
    const lines = linesOf(alone)
    assert.ok(lines.some((l) => /^cross-check fzstd: sha256 [0-9a-f]{16}…, 2 lines$/.test(l)), alone.stdout)
    assert.equal(lines.at(-2), 'cross-check: 1 decoder here, nothing to compare it with')
    // Here: zlib and zlib-oneshot at least, beside fzstd.
    const here = linesOf(run('verify-decoder', ['--cross-check', single]))
    assert.match(here.at(-2)!, /^cross-check: [3-9] decoders agree$/)
  })

  it('count what is intact before a torn tail, for one and for more', () => {
    const torn1 = linesOf(run('verify-decoder', ['--decoder', 'fzstd', tornFork1]))
    assert.ok(torn1.some((l) => /^intact before it: 1 frame, 1 line, 0 events \(no events\), up to byte \d+$/.test(l)), torn1.join('\n'))
    const torn2 = linesOf(run('verify-decoder', ['--decoder', 'fzstd', tornTwo]))
    assert.ok(torn2.some((l) => /^intact before it: \d+ frames, \d+ lines, \d+ events \(seq 0-\d+\), up to byte \d+$/.test(l)), torn2.join('\n'))
    const byte = linesOf(run('verify-decoder', ['--decoder', 'fzstd', oneByte]))
    assert.ok(byte.includes('format: concatenated Zstandard frames, 1 byte (1 B), decoder fzstd'), byte.join('\n'))
    assert.ok(byte.includes('consumed: 0 of 1 byte'), byte.join('\n'))
    assert.ok(byte.includes('torn tail: frame 0 at byte 0 is incomplete: frame magic needs 4 bytes from byte 0, the file ends at byte 1 (1 byte of the frame present, 0 complete blocks)'), byte.join('\n'))
  })
})
