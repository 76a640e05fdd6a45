/**
 * `explain-session` and `scan-replace` on logs the real rc.8 backend wrote with restores,
 * exclusions and a fork: a delete undone in place by a restore (an exact copy of the removed
 * prompt replacing the tombstone, citing `[T, P]`), a prompt and a model step excluded (the same
 * tombstones with `source.action: "exclude"`), and a session forked by `SessionStore.fork` just
 * before the first exclusion, whose header names its parent and the events it copied. Exclusions
 * a later Delete onward took are counted apart from those still in view.
 */
import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { after, before, describe, it } from 'node:test'
import { fileURLToPath } from 'node:url'
import { SessionId } from '@deepseek-ai/dsh-session'
import type { LogEvent } from '../../src/shared/events'
import { conversationLog, syntheticTurns } from '../support/conversation'
import { appendTurns, excludeMessage, findLogFile, openLogStore, removeMessage, restoreTombstone, seqsOf } from './support/real-logs'

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '../..')
const root = mkdtempSync(join(tmpdir(), 'mr-undo-logs-'))
after(() => rmSync(root, { recursive: true, force: true }))

function run(name: string, args: readonly string[]): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [join(repo, 'lib/scripts', `${name}.js`), ...args], { encoding: 'utf8' })
  return { status: r.status, stdout: r.stdout, stderr: r.stderr }
}

const ID = 'session-undo'
const COPY = 'session-undo-copy'
let path: string
let copyPath: string
/** The deleted and restored prompt, its tombstone and the restore. */
let prompt: LogEvent
let deleteSeq: number
let restoreSeq: number
/** The excluded prompt's tombstone and the excluded model step's. */
let excludePromptSeq: number
let excludeStepSeq: number
let excludedPrompt: number
let stepSeqs: readonly number[]

before(async () => {
  const store = await openLogStore(root)
  try {
    const session = store.ctx.sessions.create(SessionId(ID), { meta: { cwd: '/projects/undo' } })
    await appendTurns(store, session, conversationLog(syntheticTurns(3, { toolSteps: 1, toolsPerStep: 1, textChars: 120 })))
    const prompts = seqsOf(session, 'user/message')
    prompt = (session.events as readonly LogEvent[])[prompts[2]!]!
    deleteSeq = (await removeMessage(store, session, 'delete', { seq: prompt.seq })).seq
    restoreSeq = (await restoreTombstone(store, session, deleteSeq)).seq
    // The copy: the conversation as it was before the first exclusion.
    const child = store.ctx.sessions.fork(session, session.events.length - 1, SessionId(COPY))
    await store.ctx.sessions.flush(child)
    excludedPrompt = prompts[0]!
    excludePromptSeq = (await excludeMessage(store, session, { seq: excludedPrompt })).seq
    const assistant = seqsOf(session, 'assistant/message')[2]!
    const tombstone = await excludeMessage(store, session, { seq: assistant })
    excludeStepSeq = tombstone.seq
    stepSeqs = tombstone.sourceEventSeqs!
    path = findLogFile(root, ID)
    copyPath = findLogFile(root, COPY)
  } finally {
    await store.dispose()
  }
})

interface Explained {
  fork: { parentSession: string; seedLength: number | null } | null
  replacements: { seq: number; kind: string }[]
  tombstones: { seq: number; action: string; shadowedSeqs: number[]; shadowedBy: number | null; restoredBy: number | null; inEffect: boolean }[]
  restores: { seq: number; tombstoneSeq: number; originalSeq: number; exactCopy: boolean; message: { seq: number; kind: string } }[]
  problems: string[]
}

describe('explain-session on restores and exclusions', () => {
  it('reports the restore that undid the delete and the two exclusions in effect (--json)', () => {
    const r = run('explain-session', ['--json', path])
    assert.equal(r.status, 0, r.stdout + r.stderr)
    const doc = JSON.parse(r.stdout) as Explained
    assert.equal(doc.fork, null)
    assert.deepEqual(doc.replacements.map((x) => [x.seq, x.kind]), [
      [deleteSeq, 'tombstone'],
      [restoreSeq, 'restore'],
      [excludePromptSeq, 'tombstone'],
      [excludeStepSeq, 'tombstone'],
    ])
    assert.deepEqual(
      doc.tombstones.map((t) => [t.seq, t.action, t.shadowedBy, t.restoredBy, t.inEffect]),
      [
        [deleteSeq, 'delete', restoreSeq, restoreSeq, false],
        [excludePromptSeq, 'exclude', null, null, true],
        [excludeStepSeq, 'exclude', null, null, true],
      ],
    )
    assert.deepEqual(doc.tombstones[1]!.shadowedSeqs, [excludedPrompt])
    assert.ok(stepSeqs.length > 1, 'excluding a model row takes its whole step')
    assert.deepEqual(doc.tombstones[2]!.shadowedSeqs, [...stepSeqs])
    assert.deepEqual(doc.restores, [
      { seq: restoreSeq, tombstoneSeq: deleteSeq, originalSeq: prompt.seq, exactCopy: true, message: { ...doc.restores[0]!.message, seq: restoreSeq, kind: 'user' } },
    ])
    assert.deepEqual(doc.problems, [])
  })

  it('says so in text: the restore, the tombstone it undid, and the exclusions', () => {
    const r = run('explain-session', [path])
    assert.equal(r.status, 0, r.stdout + r.stderr)
    const id = (prompt.data as { id: string }).id
    const lines = r.stdout.split('\n')
    assert.ok(lines.includes(`replacements: 4 — 3 tombstones of dsh-message-recall, 1 restore, 0 compaction checkpoints, 0 tool-result prunes, 0 other`), r.stdout)
    assert.ok(lines.includes('exclusions: 2, 2 in effect (rows kept in view, not sent to the model)'), r.stdout)
    assert.ok(lines.includes(`tombstone seq ${deleteSeq} · delete · range ${prompt.seq}..${prompt.seq} (inclusive) · shadows 1 node`), r.stdout)
    assert.ok(lines.includes(`  now:     restored by ${restoreSeq}: the message is back in its place, the tombstone hides nothing`), r.stdout)
    assert.ok(lines.includes(`restore seq ${restoreSeq} · undoes tombstone ${deleteSeq} · a copy of seq ${prompt.seq} (message ${id})`), r.stdout)
    assert.ok(lines.includes(`tombstone seq ${excludePromptSeq} · exclude · range ${excludedPrompt}..${excludedPrompt} (inclusive) · shadows 1 node`), r.stdout)
    assert.equal(lines.filter((l) => l === '  now:     on the surface (the model sees an empty user message here; the person still sees the rows)').length, 2)
    assert.equal(lines.at(-2), 'result: ok')
  })

  it('--rows: the excluded prompt reads excluded with its tombstone, the restored prompt shown', () => {
    const r = run('explain-session', ['--rows', path])
    assert.equal(r.status, 0, r.stdout + r.stderr)
    const rowLine = (seq: number) => r.stdout.split('\n').find((l) => / user +seq /.test(l) && l.includes(`seq ${seq} `))
    assert.match(rowLine(excludedPrompt)!, new RegExp(`^  excluded \\(by ${excludePromptSeq}\\) +user {12}seq ${excludedPrompt} +turn 1 `))
    assert.match(rowLine(prompt.seq)!, /^  shown {22}user {12}seq /)
  })
})

describe('explain-session: exclusions a later Delete onward took', () => {
  const TAKEN = 'session-excluded-then-onward'
  // Its own root: scan-replace below counts the sessions of the shared one.
  const takenRoot = mkdtempSync(join(tmpdir(), 'mr-excluded-onward-'))
  after(() => rmSync(takenRoot, { recursive: true, force: true }))
  let takenPath: string
  let kept: number
  let keptPrompt: number
  let takenPrompts: number[]
  let onwardSeq: number
  before(async () => {
    const store = await openLogStore(takenRoot)
    try {
      const session = store.ctx.sessions.create(SessionId(TAKEN), { meta: { cwd: '/projects/undo' } })
      await appendTurns(store, session, conversationLog(syntheticTurns(5, { textChars: 60 })))
      const prompts = seqsOf(session, 'user/message')
      // One exclusion before the Delete onward stays in view; the three after it are taken by it.
      keptPrompt = prompts[0]!
      kept = (await excludeMessage(store, session, { seq: keptPrompt })).seq
      takenPrompts = prompts.slice(2)
      for (const seq of takenPrompts) await excludeMessage(store, session, { seq })
      onwardSeq = (await removeMessage(store, session, 'deleteFrom', { seq: prompts[1]! })).seq
      takenPath = findLogFile(takenRoot, TAKEN)
    } finally {
      await store.dispose()
    }
  })

  it('counts an exclusion in view apart from those a later removal took, as --rows shows them', () => {
    const r = run('explain-session', ['--rows', takenPath])
    assert.equal(r.status, 0, r.stdout + r.stderr)
    const lines = r.stdout.split('\n')
    assert.ok(lines.includes('exclusions: 4, 1 in effect (rows kept in view, not sent to the model), 3 taken by a later removal'), r.stdout)
    const rowLine = (seq: number) => lines.find((l) => / user +seq /.test(l) && l.includes(`seq ${seq} `))
    assert.equal(lines.filter((l) => l.startsWith('  excluded')).length, 1, r.stdout)
    assert.match(rowLine(keptPrompt)!, new RegExp(`^  excluded \\(by ${kept}\\) +user +seq ${keptPrompt} `))
    assert.equal(takenPrompts.length, 3)
    for (const seq of takenPrompts) assert.match(rowLine(seq)!, new RegExp(`^  hidden \\(shadowed by ${onwardSeq}\\) +user +seq ${seq} `))
  })
})

describe('explain-session on a forked session', () => {
  it('says first where it came from and which events it copied', () => {
    const r = run('explain-session', [copyPath])
    assert.equal(r.status, 0, r.stdout + r.stderr)
    const [first, second] = r.stdout.split('\n')
    assert.match(first!, new RegExp(`^session ${COPY} \\(cwd /projects/undo\\), created `))
    assert.equal(second, `forked from session ${ID}: seqs 0-${excludePromptSeq - 1} copied from it, this session's own events from seq ${excludePromptSeq}`)
    const doc = JSON.parse(run('explain-session', ['--json', copyPath]).stdout) as Explained
    assert.deepEqual(doc.fork, { parentSession: ID, seedLength: excludePromptSeq })
    // The copy holds the delete and its restore, and none of the later exclusions.
    assert.deepEqual(doc.replacements.map((x) => [x.seq, x.kind]), [
      [deleteSeq, 'tombstone'],
      [restoreSeq, 'restore'],
    ])
  })
})

describe('scan-replace counts restores, exclusions and forks', () => {
  it('lists them in --json', () => {
    const r = run('scan-replace', ['--json', root])
    assert.equal(r.status, 0, r.stderr)
    type Row = { id: string; tombstones: number; tombstonesByAction: Record<string, number>; restores: number; forkedFrom: { parentSession: string; seedLength: number | null } | null }
    const doc = JSON.parse(r.stdout) as { scanned: number; tombstones: Row[]; restores: Row[]; forks: Row[] }
    assert.equal(doc.scanned, 2)
    const byId = (rows: Row[]) => Object.fromEntries(rows.map((row) => [row.id, row]))
    const tombstones = byId(doc.tombstones)
    assert.deepEqual(Object.keys(tombstones).sort(), [ID, COPY].sort())
    assert.deepEqual(tombstones[ID]!.tombstonesByAction, { recall: 0, delete: 1, deleteFrom: 0, exclude: 2 })
    assert.equal(tombstones[ID]!.tombstones, 3)
    assert.deepEqual(tombstones[COPY]!.tombstonesByAction, { recall: 0, delete: 1, deleteFrom: 0, exclude: 0 })
    assert.deepEqual(
      doc.restores.map((row) => [row.id, row.restores]).sort(),
      [
        [COPY, 1],
        [ID, 1],
      ].sort(),
    )
    assert.deepEqual(
      doc.forks.map((row) => [row.id, row.forkedFrom]),
      [[COPY, { parentSession: ID, seedLength: excludePromptSeq }]],
    )
  })

  it('prints them in text', () => {
    const r = run('scan-replace', [root])
    assert.equal(r.status, 0, r.stderr)
    const lines = r.stdout.split('\n')
    assert.ok(lines.includes(`  ${ID}  3 tombstones (recall 0, delete 1, deleteFrom 0, exclude 2)  ${path}`), r.stdout)
    assert.ok(lines.includes(`  ${COPY}  1 tombstone (recall 0, delete 1, deleteFrom 0)  ${copyPath}`), r.stdout)
    assert.ok(lines.includes('sessions with restores: 2'), r.stdout)
    assert.ok(lines.includes(`  ${ID}  1 restore (a tombstone undone in place)  ${path}`), r.stdout)
    assert.ok(lines.includes('sessions forked from another: 1'), r.stdout)
    assert.ok(lines.includes(`  ${COPY}  forked from ${ID} (${excludePromptSeq} events copied)  ${copyPath}`), r.stdout)
  })
})
