/**
 * The five built scripts (`lib/scripts/*.js`) run as child processes over a sessions root the
 * real rc.8 backend wrote: a zstd session with four tombstones nested by Delete onward, a plain
 * JSONL session with a title, a failed turn and a tool-result prune, the first session cut inside
 * its last frame (still being written), and a damaged file. Output, exit codes and the read-only
 * promise are checked under this Node and, for the portable fzstd path, under Node 20.
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
import { findZstdCli } from '../../src/log/frame-decoder-node'
import { scanZstdFrames } from '../../src/log/zstd-frames'
import { node20Path } from '../../tools/node-runtime'
import { conversationLog, syntheticTurns } from '../support/conversation'
import { appendTurns, openLogStore, seqsOf, writeConversation, type WrittenLog } from './support/real-logs'

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
  const last = scanZstdFrames(bytes).frames.at(-1)!
  const tornDir = join(root, '--projects-demo~0020project--', 'session-torn')
  mkdirSync(tornDir, { recursive: true })
  const tornPath = join(tornDir, 'session.jsonl.zstd')
  writeFileSync(tornPath, bytes.subarray(0, last.start + Math.floor((last.end - last.start) / 2)))
  torn = { path: tornPath, start: last.start }

  // 4. A damaged log: the first frame, then bytes that are no frame.
  const damagedDir = join(root, '--projects-demo~0020project--', 'session-damaged')
  mkdirSync(damagedDir, { recursive: true })
  damaged = join(damagedDir, 'session.jsonl.zstd')
  writeFileSync(damaged, Buffer.concat([bytes.subarray(0, scanZstdFrames(bytes).frames[0]!.end), Buffer.from('garbage that is not a zstd frame')]))

  // 5. Under the second home: the nested log with one byte flipped inside a turn's frame (before
  // its checksum, so that frame fails and the tombstone frames after it stay intact), and a
  // 3-byte file under the zstd log's name that is no log at all.
  const frames = scanZstdFrames(bytes).frames
  const hit = frames[2]!
  const flippedDir = join(home, 'sessions', '--projects-demo~0020project--', 'session-flipped')
  mkdirSync(flippedDir, { recursive: true })
  const flippedBytes = Buffer.from(bytes)
  flippedBytes[hit.end - 5] = flippedBytes[hit.end - 5]! ^ 0x01
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

describe('read-session-log', () => {
  it('prints every frame decoded in order, byte for byte what zstd -dc prints', (t) => {
    const r = run(node22, 'read-session-log', [nested.path])
    assert.equal(r.status, 0, r.stderr)
    assert.equal(r.stderr, '')
    const lines = r.stdout.trimEnd().split('\n')
    assert.equal(JSON.parse(lines[0]!).id, 'session-nested')
    if (findZstdCli() === null) {
      t.diagnostic('zstd not installed: compared with the event count only')
      assert.ok(lines.length > 1)
      return
    }
    assert.equal(r.stdout, spawnSync('zstd', ['-dc', nested.path], { encoding: 'utf8' }).stdout)
  })

  it('expands packed rows into events with --expand', () => {
    const r = run(node22, 'read-session-log', ['--expand', nested.dir])
    assert.equal(r.status, 0, r.stderr)
    const events = r.stdout.trimEnd().split('\n').slice(1).map((l) => JSON.parse(l) as LogEvent)
    assert.deepEqual(events, nested.events)
  })

  it('lists frames with contiguous byte offsets covering the file with --frames --json', () => {
    const r = run(node22, 'read-session-log', ['--frames', '--json', nested.path])
    assert.equal(r.status, 0, r.stderr)
    const doc = JSON.parse(r.stdout) as { frames: { start: number; end: number; firstLine: number; lastLine: number }[]; summary: { size: number; bytesConsumed: number } }
    assert.equal(doc.frames[0]!.start, 0)
    for (let i = 1; i < doc.frames.length; i++) assert.equal(doc.frames[i]!.start, doc.frames[i - 1]!.end)
    assert.equal(doc.frames.at(-1)!.end, doc.summary.size)
    assert.deepEqual([doc.frames[0]!.firstLine, doc.frames[0]!.lastLine], [1, 1])
    assert.equal(doc.frames.length, 1 + 4 + 4, 'header, one frame per turn, one per tombstone')
  })

  it('prints the intact lines of a torn log, reports the tail on stderr and exits 1', () => {
    const r = run(node22, 'read-session-log', [torn.path])
    assert.equal(r.status, 1)
    assert.match(r.stderr, new RegExp(`^torn tail: frame at byte ${torn.start} is incomplete: `, 'm'))
    const full = run(node22, 'read-session-log', [nested.path]).stdout
    assert.ok(full.startsWith(r.stdout) && r.stdout.length < full.length)
  })

  it('reads the plain JSONL form', () => {
    const r = run(node22, 'read-session-log', ['--expand', plain.path])
    assert.equal(r.status, 0, r.stderr)
    assert.deepEqual(r.stdout.trimEnd().split('\n').slice(1).map((l) => JSON.parse(l)), plain.events)
  })
})

describe('verify-decoder', () => {
  it('proves a sound log consumed to its last byte, and every decoder agrees', () => {
    const r = run(node22, 'verify-decoder', ['--cross-check', nested.path])
    assert.equal(r.status, 0, r.stdout + r.stderr)
    const size = statSync(nested.path).size
    assert.match(r.stdout, new RegExp(`^consumed: ${size} of ${size} bytes \\(to the last byte\\)$`, 'm'))
    assert.match(r.stdout, /^cross-check: \d decoders agree$/m)
    assert.match(r.stdout, /^result: ok$/m)
  })

  it('reports a torn tail with offsets and the events intact before it', () => {
    const r = run(node22, 'verify-decoder', ['--json', torn.path])
    assert.equal(r.status, 1)
    const doc = JSON.parse(r.stdout) as { tail: { start: number; bytes: number }; bytesConsumed: number; events: number; consumedToEnd: boolean; ok: boolean; problems: unknown[] }
    assert.equal(doc.tail.start, torn.start)
    assert.equal(doc.tail.bytes, statSync(torn.path).size - torn.start)
    assert.equal(doc.bytesConsumed, torn.start)
    assert.equal(doc.events, nested.events.length - 1, 'all but the last tombstone')
    assert.deepEqual(doc.problems, [])
    assert.equal(doc.ok, false)
  })

  it('names the byte offset of corrupt structure and exits 1', () => {
    const r = run(node22, 'verify-decoder', [damaged])
    assert.equal(r.status, 1)
    assert.match(r.stdout, /^problem: corrupt Zstandard structure at byte \d+: invalid frame magic/m)
  })
})

describe('explain-session', () => {
  it('explains nested tombstones with their inclusive ranges as written, and the rows the client hides', () => {
    const r = run(node22, 'explain-session', ['--rows', '--json', nested.dir])
    assert.equal(r.status, 0, r.stdout + r.stderr)
    const doc = JSON.parse(r.stdout) as {
      tombstones: { seq: number; action: string; start: number; end: number; shadowedSeqs: number[]; nestedTombstones: number[]; shadowedBy: number | null }[]
      rows: { key: string; kind: string; seq: number | null; hidden: { reason: string; tombstoneSeq: number | null } | null }[]
      surface: { seq: number }[]
    }
    const written = nested.tombstones
    assert.deepEqual(
      doc.tombstones.map((t) => [t.seq, t.start, t.end]),
      written.map((e) => [e.seq, (e.surfaceOp as { start: number }).start, (e.surfaceOp as { end: number }).end]),
    )
    const [recall, del, onward, outer] = doc.tombstones
    assert.equal(recall!.shadowedSeqs.length, 1, 'a single-message recall shadows exactly one node')
    assert.deepEqual(recall!.shadowedSeqs, [recall!.start])
    assert.equal(del!.action, 'delete')
    assert.deepEqual(onward!.nestedTombstones, [recall!.seq, del!.seq])
    assert.deepEqual(outer!.nestedTombstones, [onward!.seq])
    assert.deepEqual(doc.tombstones.map((t) => t.shadowedBy), [onward!.seq, onward!.seq, outer!.seq, null])
    assert.ok(doc.surface.some((n) => n.seq === outer!.seq))
    const rowOf = (seq: number) => doc.rows.find((row) => row.seq === seq)!
    assert.deepEqual(rowOf(recall!.start).hidden, { key: rowOf(recall!.start).key, kind: 'user', reason: 'shadowed', tombstoneSeq: recall!.seq })
    const firstPrompt = seqsOfEvents(nested.events, 'user/message')[0]!
    assert.equal(rowOf(firstPrompt).hidden, null, 'the first prompt stays')
    assert.ok(doc.rows.filter((row) => row.kind === 'turn-tail').slice(0, 4).every((row) => row.hidden !== null), 'turn bars after the onward start are hidden')
  })

  it('prints ranges and nesting in text', () => {
    const r = run(node22, 'explain-session', [nested.path])
    assert.equal(r.status, 0, r.stdout + r.stderr)
    assert.match(r.stdout, /^replacements: 4 — 4 tombstones of dsh-message-recall, 0 restores, 0 compaction checkpoints, 0 tool-result prunes, 0 other$/m)
    assert.match(r.stdout, /^tombstone seq \d+ · deleteFrom · range \d+\.\.\d+ \(inclusive\) · shadows \d+ nodes, 2 earlier tombstones among them/m)
    assert.match(r.stdout, /^pairing: balanced/m)
  })

  it('counts a tool-result prune apart from tombstones and exits 1 on a torn log', () => {
    const r = run(node22, 'explain-session', ['--json', plain.path])
    assert.equal(r.status, 0, r.stdout + r.stderr)
    const doc = JSON.parse(r.stdout) as { replacements: { seq: number; kind: string }[]; tombstones: unknown[]; title: string }
    assert.deepEqual(doc.replacements.map((x) => [x.seq, x.kind]), [[plain.pruneSeq, 'prune']])
    assert.deepEqual(doc.tombstones, [])
    assert.equal(doc.title, 'Plain log with a prune')
    assert.equal(run(node22, 'explain-session', [torn.path]).status, 1)
  })
})

describe('list-sessions and scan-replace', () => {
  it('lists sessions newest first with title, events, failed turns and tombstones; a damaged one makes exit 1', () => {
    const r = run(node22, 'list-sessions', ['--json', '--quiet', root])
    assert.equal(r.status, 1, r.stderr)
    const doc = JSON.parse(r.stdout) as { sessions: { path: string; id: string | null; title: string | null; events: number; failedTurns: number; tombstones: number; writing: boolean; problems: string[] }[]; unreadable: number }
    assert.deepEqual(doc.sessions.map((s) => s.path), [nested.path, plain.path, torn.path, damaged])
    // The cut and damaged copies keep the nested session's header (its id).
    assert.deepEqual(doc.sessions.map((s) => s.id), ['session-nested', 'session-plain', 'session-nested', 'session-nested'])
    const [first, second, third] = doc.sessions
    assert.deepEqual([first!.events, first!.tombstones, first!.failedTurns], [nested.events.length, 4, 0])
    assert.deepEqual([second!.title, second!.failedTurns, second!.events], ['Plain log with a prune', 1, plain.events.length])
    assert.equal(third!.writing, true)
    assert.deepEqual(third!.problems, [])
    assert.equal(doc.unreadable, 1)
    assert.match(doc.sessions[3]!.problems[0]!, /corrupt Zstandard structure/)
  })

  it('keeps to recent logs with --hours, and prints a table', () => {
    const r = run(node22, 'list-sessions', ['--hours', '24', '--quiet', root])
    assert.equal(r.status, 0, r.stdout + r.stderr)
    assert.match(r.stdout, /^3 sessions changed in the last 24 h, 0 unreadable or damaged$/m)
    assert.match(r.stdout, / session-plain {2}Plain log with a prune$/m)
    assert.match(r.stdout, /^.{16} {2}\s+\d+ .* session-nested .*\[writing\]$/m)
  })

  it('separates tombstone sessions from compaction replacements', () => {
    const r = run(node22, 'scan-replace', ['--json', '--quiet', '--hours', '24', root])
    assert.equal(r.status, 0, r.stderr)
    const doc = JSON.parse(r.stdout) as { tombstones: { path: string; tombstonesByAction: Record<string, number> }[]; compaction: { id: string; prunes: number }[] }
    assert.deepEqual(doc.tombstones.map((s) => [s.path, s.tombstonesByAction]), [
      [nested.path, { recall: 1, delete: 1, deleteFrom: 2, exclude: 0 }],
      [torn.path, { recall: 1, delete: 1, deleteFrom: 1, exclude: 0 }],
    ])
    assert.deepEqual(doc.compaction.map((s) => [s.id, s.prunes]), [['session-plain', 1]])
    const text = run(node22, 'scan-replace', ['--quiet', root])
    assert.equal(text.status, 1)
    assert.match(text.stdout, /^ {2}session-nested {2}4 tombstones \(recall 1, delete 1, deleteFrom 2\) /m)
    assert.match(text.stdout, /^UNREADABLE .*session-damaged.*corrupt Zstandard structure/m)
  })
})

describe('usage', () => {
  const cases: [string, string[], RegExp][] = [
    ['no arguments', [], /^missing the /],
    ['an unknown option', ['--bogus', 'x'], /^node lib\/scripts\/[a-z-]+\.js: unknown option --bogus; see --help\n$/],
    ['an unknown decoder', ['--decoder', 'gzip', 'x'], /^--decoder expects a decoder name \(one of auto, zlib, zlib-oneshot, zstd-cli, fzstd\), got "gzip"\n$/],
    ['a missing file', [join(root, 'nope')], /^no such file or folder: /],
  ]
  for (const name of ['read-session-log', 'verify-decoder', 'explain-session']) {
    for (const [label, args, message] of cases) {
      it(`${name} exits 2 on ${label}`, () => {
        const r = run(node22, name, args)
        assert.equal(r.status, 2)
        assert.match(r.stderr, message)
        assert.equal(r.stdout, '')
      })
    }
  }
  for (const name of ['list-sessions', 'scan-replace']) {
    it(`${name} exits 2 on a bad --hours and on a missing root`, () => {
      assert.equal(run(node22, name, ['--hours', 'soon', root]).stderr, '--hours expects a positive number of hours, got "soon"\n')
      assert.equal(run(node22, name, ['--hours=-1', root]).status, 2)
      assert.deepEqual([run(node22, name, [join(root, 'nope')]).status, run(node22, name, [join(root, 'nope')]).stderr], [2, `no such file or folder: ${join(root, 'nope')}\n`])
    })
  }
  for (const name of ['read-session-log', 'verify-decoder', 'explain-session', 'list-sessions', 'scan-replace']) {
    it(`${name} --help prints usage and exits 0`, () => {
      const r = run(node22, name, ['--help'])
      assert.equal(r.status, 0)
      assert.match(r.stdout, new RegExp(`^Usage: node lib/scripts/${name}\\.js `))
      assert.match(r.stdout, /Exit codes: 0 /)
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
    assert.equal(read20.status, 1)
    assert.equal(read20.stdout, read22.stdout, 'same lines')
    assert.match(read20.stderr, new RegExp(`^problem: frame ${flipped.frame} at byte ${flipped.byte} failed to decode: `, 'm'))
    const doc22 = summaryOf(run(node22, 'read-session-log', ['--json', flipped.path]))
    const doc20 = summaryOf(run(node20, 'read-session-log', ['--json', flipped.path]))
    assert.equal(doc20.lines, doc22.lines)
    assert.equal(doc20.problems[0]!.kind, 'frame-failed')
    assert.deepEqual(doc20.problems[0]!.at, { line: doc22.problems[0]!.at.line, frame: flipped.frame, byte: flipped.byte })
    assert.deepEqual(locations(doc20.problems).map((p) => [p.kind, p.at.byte]), locations(doc22.problems).map((p) => [p.kind, p.at.byte]))
    if (findZstdCli() !== null) assert.deepEqual([doc20.decoder, doc20.fallbackDecoder], ['zstd-cli', 'fzstd'], 'auto picked the zstd tool and fell back')
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
    assert.match(entry20.problems[0]!, new RegExp(`^frame ${flipped.frame} at byte ${flipped.byte} failed to decode: `))
    const scan20 = run(node20, 'scan-replace', ['--json', '--quiet', sessions])
    assert.equal(scan20.status, 1)
    const doc = JSON.parse(scan20.stdout) as { tombstones: { path: string; tombstonesByAction: Record<string, number> }[] }
    assert.deepEqual(doc.tombstones.map((s) => [s.path, s.tombstonesByAction]), [[flipped.path, { recall: 1, delete: 1, deleteFrom: 2, exclude: 0 }]])
  })

  it('is located frame by frame with --decoder zstd-cli too, and reads the same lines as fzstd', (t) => {
    if (findZstdCli() === null) {
      t.skip('zstd not installed')
      return
    }
    const cli = run(node22, 'read-session-log', ['--decoder', 'zstd-cli', flipped.path])
    const portable = run(node22, 'read-session-log', ['--decoder', 'fzstd', flipped.path])
    assert.equal(cli.status, 1)
    assert.equal(cli.stdout, portable.stdout)
    const docCli = summaryOf(run(node22, 'read-session-log', ['--decoder', 'zstd-cli', '--json', flipped.path]))
    const docPortable = summaryOf(run(node22, 'read-session-log', ['--decoder', 'fzstd', '--json', flipped.path]))
    assert.deepEqual(docCli.problems[0]!.at, docPortable.problems[0]!.at)
    assert.deepEqual(docCli.problems[0]!.at, { line: docCli.problems[0]!.at.line, frame: flipped.frame, byte: flipped.byte })
  })
})

describe('a file that is not a log', () => {
  it('is not-a-log (exit 2) in read-session-log and an unreadable entry (exit 1) in the scans, under its log name', () => {
    const read = run(node22, 'read-session-log', [notALog])
    assert.equal(read.status, 2)
    assert.match(read.stderr, /is neither a Zstandard log nor a JSONL log \(first bytes 616263\)/)
    const list = run(node22, 'list-sessions', ['--json', '--quiet', join(home, 'sessions')])
    assert.equal(list.status, 1)
    const doc = JSON.parse(list.stdout) as { sessions: { path: string; writing: boolean; error: string | null }[]; unreadable: number }
    const entry = doc.sessions.find((s) => s.path === notALog)!
    assert.equal(entry.writing, false)
    assert.match(entry.error ?? '', /is neither a Zstandard log nor a JSONL log/)
    assert.equal(doc.unreadable, 2, 'the flipped log and this file')
    const text = run(node22, 'list-sessions', ['--quiet', join(home, 'sessions')])
    assert.match(text.stdout, /UNREADABLE .*session-not-a-log.*neither a Zstandard log/)
    assert.doesNotMatch(text.stdout, /writing/)
    const scan = run(node22, 'scan-replace', ['--quiet', join(home, 'sessions')])
    assert.equal(scan.status, 1)
    assert.match(scan.stdout, /^UNREADABLE .*session-not-a-log.*neither a Zstandard log/m)
  })

  it('counts the first bytes of the frame magic as a zstd log torn in its first write', () => {
    const dir = mkdtempSync(join(tmpdir(), 'mr-scripts-magic-'))
    try {
      const path = join(dir, 'session.jsonl.zstd')
      writeFileSync(path, Buffer.from([0x28, 0xb5]))
      const r = run(node22, 'read-session-log', [path])
      assert.equal(r.status, 1)
      assert.match(r.stderr, /^torn tail: frame at byte 0 is incomplete/m)
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
      assert.match(missing.stderr, /^no sessions root given, and the default .*nope.sessions \(\$DSH_HOME\/sessions, or ~\/\.dsh\/sessions when DSH_HOME is unset\) is not a readable folder: no such file or folder: .*nope.sessions\n$/)
      assert.match(run(node22, name, ['--help']).stdout, /Without a root it reads \$DSH_HOME\/sessions,\s+or ~\/\.dsh\/sessions\s+when\s+DSH_HOME/)
    })
  }
})

function seqsOfEvents(events: readonly LogEvent[], type: string): number[] {
  return events.filter((e) => e.type === type && e.surfaceOp === 'append').map((e) => e.seq)
}
