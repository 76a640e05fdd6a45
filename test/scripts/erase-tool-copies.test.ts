/**
 * What `dsh-message-recall-log erase` (the built tool, host stopped) says of the session's copies
 * (`src/host/erase-copies-on-disk.ts`): sessions written by the real rc.8 composition (JSONL
 * persistence with zstd under `<DSH home>/sessions`, real turns on the mock model, the title
 * service); copies made through DSH (`SessionStore.fork`, the web UI's Branch) before the removal,
 * after it (inheriting it), a copy of that copy, the plugin's `forkBefore` copy, and a Branch cut
 * before the canary. The erase of the session's removal lists, after its own line, exactly the
 * copies the route's erase confirmation lists (`plan`, `planAction: 'erase'`), in its order, with
 * exact lines as text and as `--json` (`copies`), exit 0; following the printed command in the
 * Branch lists the copy of the Branch, and erasing that lists nothing more: the built
 * `scan --text` then finds the canary only in the two copies that never removed it. Without a
 * DSH home the copies are not looked for, and the text says so (`copies: null`); `--home` names
 * the home to look in for a log outside it. A copy whose log is cut inside its last frame is named
 * as one that may still hold the text, with why its log could not be read. Erasing first in the
 * Branch (on a copy of the home taken before any erase) names the session it was copied from with
 * that one's own removal and the command to erase it there, the copy of the Branch, and the
 * source's other copies that hold the canary not removed (related copies); following the printed
 * command in the source then names the rest; after the Branch is erased (above), erasing in the
 * copy of the Branch names the source's other copies too.
 *
 * A Branch of the whole session made before the removal, in which only one of the messages a
 * Delete onward in the source takes is deleted: the erase in the source names the Branch's removal
 * (1 message) with its command, and a second line for the 5 it holds not removed; the printed
 * command erases the one, and the built `scan --text` still finds the canary prompts in the Branch.
 */
import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import { cpSync, mkdtempSync, rmSync, statSync, truncateSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import type { Session } from '@deepseek-ai/dsh-session'
import { node, Roots } from '../host/helpers'
import { LOG_TOOL, pendingEraseHome, scanHits } from '../support/pending-erase-home'

const CANARY = 'CANARY-4c7d-cli-copies'
const PARTIAL = 'CANARY-e513-cli-partial'
const BIN = 'dsh-message-recall-log erase'

function erase(target: string, tombstoneSeq: number, extra: readonly string[] = []) {
  const r = spawnSync(process.execPath, [LOG_TOOL, 'erase', target, '--tombstone', String(tombstoneSeq), ...extra], { encoding: 'utf8' })
  return { status: r.status, stdout: r.stdout, stderr: r.stderr }
}

describe('dsh-message-recall-log erase: the copies that still hold the erased text', () => {
  const roots = new Roots()
  const dshHome = pendingEraseHome('recall-erase-tool-copies-')
  const { home } = dshHome
  const spare = mkdtempSync(join(tmpdir(), 'recall-erase-tool-copies-spare-'))
  const alone = mkdtempSync(join(tmpdir(), 'recall-erase-tool-copies-alone-'))
  const torn = mkdtempSync(join(tmpdir(), 'recall-erase-tool-copies-torn-'))
  const lineage = mkdtempSync(join(tmpdir(), 'recall-erase-tool-copies-lineage-'))
  /** A log path of the home, in a copy of the home. */
  const inHome = (other: string, path: string) => join(other, path.slice(home.length))
  let tombstoneSeq: number
  let inherited: number
  const log: Record<'source' | 'before' | 'tooEarly' | 'branch' | 'grandchild' | 'forked', string> = {} as never
  const id: Record<keyof typeof log, string> = {} as never
  let plan: { sessionId: string; title: string | null; tombstoneSeq: number | null; removals: { tombstoneSeq: number; messageCount: number }[]; notRemovedCount: number; live: boolean }[]
  let sourceTitle: string
  let forkedTitle: string
  before(async () => {
    dshHome.enter()
    const app = await roots.boot(join(home, 'sessions'), { sessionTitle: true })
    const source = await app.createAgent()
    await app.prompt(source, 'Audit the opening question')
    await app.prompt(source, `${CANARY} my password`)
    await app.prompt(source, 'third question')
    const session = source.session as Session
    const turnEnds = () => session.events.filter((e) => e.type === 'turn/end').map((e) => e.seq)
    const beforeRemoval = app.ctx.sessions.fork(session, turnEnds()[1]!)
    const tooEarly = app.ctx.sessions.fork(session, turnEnds()[0]!)
    const removed = await app.post({ sessionId: source.id, action: 'delete', seq: node(session, 'user/message', CANARY) })
    assert.equal(removed.status, 200, removed.text)
    tombstoneSeq = removed.json.value.tombstoneSeq
    const branch = app.ctx.sessions.fork(session, turnEnds()[1]!)
    inherited = branch.events.findLast((e) => e.type === 'user/message' && JSON.stringify(e.data).includes('dsh-message-recall'))!.seq
    const grandchild = app.ctx.sessions.fork(branch)
    const forked = await app.post({ sessionId: source.id, action: 'forkBefore', tombstoneSeq })
    assert.equal(forked.status, 200, forked.text)
    for (const copy of [beforeRemoval, tooEarly, branch, grandchild]) await app.ctx.sessions.flush(copy)
    sourceTitle = app.ctx.sessionTitle.get(session)!.title
    forkedTitle = forked.json.value.title
    // The route's confirmation of the same erase, while the host runs: what the tool must list.
    const planned = await app.post({ sessionId: source.id, action: 'plan', planAction: 'erase', tombstoneSeq })
    assert.equal(planned.status, 200, planned.text)
    plan = planned.json.value.copies
    Object.assign(id, { source: source.id, before: beforeRemoval.id, tooEarly: tooEarly.id, branch: branch.id, grandchild: grandchild.id, forked: forked.json.value.forkedSessionId })
    const locate = (sessionId: string) => (app.ctx as any).sessionPersistence.locate({ id: sessionId, cwd: session.header.cwd }).path as string
    for (const key of Object.keys(id) as (keyof typeof log)[]) log[key] = locate(id[key])
    await roots.shut(app)
    // Copied while nothing is erased yet: a second home for the `--json` run, and the session's
    // folder alone (not under a "sessions" folder), three times.
    cpSync(home, spare, { recursive: true })
    cpSync(home, lineage, { recursive: true })
    for (const name of ['text', 'json', 'home']) cpSync(dirname(log.source), join(alone, name), { recursive: true })
    // A third home whose Branch made before the removal has its log cut inside its last frame.
    cpSync(home, torn, { recursive: true })
    const cut = inHome(torn, log.before)
    truncateSync(cut, statSync(cut).size - 3)
  })
  after(async () => {
    await roots.dispose()
    dshHome.leave()
    for (const folder of [spare, alone, torn, lineage]) rmSync(folder, { recursive: true, force: true })
  })

  it('lists after the erase the copies the route\'s confirmation lists, with their own removal and the command to erase it, or none; exit 0', () => {
    assert.deepEqual(plan, [
      { sessionId: id.before, title: 'Audit the opening question', tombstoneSeq: null, removals: [], notRemovedCount: 1, live: true },
      { sessionId: id.branch, title: sourceTitle, tombstoneSeq: inherited, removals: [{ tombstoneSeq: inherited, messageCount: 1 }], notRemovedCount: 0, live: true },
      { sessionId: id.forked, title: forkedTitle, tombstoneSeq: null, removals: [], notRemovedCount: 1, live: false },
      { sessionId: id.grandchild, title: sourceTitle, tombstoneSeq: inherited, removals: [{ tombstoneSeq: inherited, messageCount: 1 }], notRemovedCount: 0, live: true },
    ], 'the route lists the copies holding the canary; the Branch cut before it is not among them')

    // --json, on the copied home.
    const inSpare = (path: string) => inHome(spare, path)
    const json = erase(dirname(inSpare(log.source)), tombstoneSeq, ['--json'])
    assert.equal(json.status, 0, json.stdout + json.stderr)
    assert.equal(json.stderr, '')
    const value = JSON.parse(json.stdout)
    assert.deepEqual(value.messageSeqs.length, 1)
    assert.deepEqual(value.copies, [
      { sessionId: id.before, relation: 'copy', title: 'Audit the opening question', tombstoneSeq: null, removals: [], notRemovedCount: 1, log: inSpare(log.before), error: null },
      { sessionId: id.branch, relation: 'copy', title: sourceTitle, tombstoneSeq: inherited, removals: [{ tombstoneSeq: inherited, messageCount: 1 }], notRemovedCount: 0, log: inSpare(log.branch), error: null },
      { sessionId: id.forked, relation: 'copy', title: forkedTitle, tombstoneSeq: null, removals: [], notRemovedCount: 1, log: inSpare(log.forked), error: null },
      { sessionId: id.grandchild, relation: 'copy', title: sourceTitle, tombstoneSeq: inherited, removals: [{ tombstoneSeq: inherited, messageCount: 1 }], notRemovedCount: 0, log: inSpare(log.grandchild), error: null },
    ])

    // Text, on the home itself: the same erase, then one line per copy.
    const text = erase(dirname(log.source), tombstoneSeq)
    assert.deepEqual(text, {
      status: 0,
      stderr: '',
      stdout: [
        `erased removal ${tombstoneSeq} of session ${id.source}: 1 message(s), ${value.rewrittenEvents} event(s) rewritten`,
        `still held by copy ${id.before} "Audit the opening question" (1 of them not removed there: remove them there first, then erase that removal; its log: ${log.before})`,
        `still held by copy ${id.branch} ${JSON.stringify(sourceTitle)} (with its own removal ${inherited} of 1 message(s); erase it there: ${BIN} ${log.branch} --tombstone ${inherited})`,
        `still held by copy ${id.forked} ${JSON.stringify(forkedTitle)} (1 of them not removed there: remove them there first, then erase that removal; its log: ${log.forked})`,
        `still held by copy ${id.grandchild} ${JSON.stringify(sourceTitle)} (with its own removal ${inherited} of 1 message(s); erase it there: ${BIN} ${log.grandchild} --tombstone ${inherited})`,
        '',
      ].join('\n'),
    })
  })

  it('the printed command erases the Branch, which names its own copy and the source\'s other copies; erasing that one names those', () => {
    const branch = erase(log.branch, inherited)
    assert.equal(branch.status, 0, branch.stdout + branch.stderr)
    const [first, ...rest] = branch.stdout.split('\n')
    assert.match(first!, new RegExp(`^erased removal ${inherited} of session ${id.branch}: 1 message\\(s\\), \\d+ event\\(s\\) rewritten$`))
    // The source was erased above: it holds the canary no more and is not named.
    assert.deepEqual(rest, [
      `still held by copy ${id.grandchild} ${JSON.stringify(sourceTitle)} (with its own removal ${inherited} of 1 message(s); erase it there: ${BIN} ${log.grandchild} --tombstone ${inherited})`,
      `still held by related copy ${id.before} "Audit the opening question" (1 of them not removed there: remove them there first, then erase that removal; its log: ${log.before})`,
      `still held by related copy ${id.forked} ${JSON.stringify(forkedTitle)} (1 of them not removed there: remove them there first, then erase that removal; its log: ${log.forked})`,
      '',
    ])
    const grandchild = erase(log.grandchild, inherited, ['--json'])
    assert.equal(grandchild.status, 0, grandchild.stdout + grandchild.stderr)
    assert.deepEqual(JSON.parse(grandchild.stdout).copies, [
      { sessionId: id.before, relation: 'source-copy', title: 'Audit the opening question', tombstoneSeq: null, removals: [], notRemovedCount: 1, log: log.before, error: null },
      { sessionId: id.forked, relation: 'source-copy', title: forkedTitle, tombstoneSeq: null, removals: [], notRemovedCount: 1, log: log.forked, error: null },
    ])
    const holding = scanHits(join(home, 'sessions'), CANARY)
    assert.deepEqual(holding.sort(), [log.before, log.forked].sort(), 'only the two copies that never removed it hold the canary')
  })

  it('without a DSH home the copies are not looked for, and the text says so; --home names where to look', () => {
    const text = erase(join(alone, 'text'), tombstoneSeq)
    assert.equal(text.status, 0, text.stdout + text.stderr)
    assert.deepEqual(text.stdout.split('\n').slice(1), ['copies and sources of the session not looked for: no DSH home (pass --home)', ''])
    const json = erase(join(alone, 'json'), tombstoneSeq, ['--json'])
    assert.equal(json.status, 0, json.stdout + json.stderr)
    assert.equal(JSON.parse(json.stdout).copies, null)
    // The home's Branch and its copy were erased above: the two copies that never removed it are left.
    const withHome = erase(join(alone, 'home'), tombstoneSeq, ['--home', home])
    assert.equal(withHome.status, 0, withHome.stdout + withHome.stderr)
    assert.deepEqual(withHome.stdout.split('\n').slice(1), [
      `still held by copy ${id.before} "Audit the opening question" (1 of them not removed there: remove them there first, then erase that removal; its log: ${log.before})`,
      `still held by copy ${id.forked} ${JSON.stringify(forkedTitle)} (1 of them not removed there: remove them there first, then erase that removal; its log: ${log.forked})`,
      '',
    ])
  })

  it('a copy whose log cannot be read is named as one that may still hold the text', () => {
    const cut = inHome(torn, log.before)
    const problem = 'the log does not end at a frame boundary (a torn or damaged tail)'
    const text = erase(dirname(inHome(torn, log.source)), tombstoneSeq)
    assert.equal(text.status, 0, text.stdout + text.stderr)
    assert.equal(text.stdout.split('\n')[1], `may still be held by copy ${id.before} (its log ${cut} could not be read: ${problem})`)
    assert.equal(text.stdout.split('\n').length, 6, 'the erase, the four copies, the final line break')
  })

  it('erasing first in the Branch names the source with its own removal and the command to erase it there, then the rest', () => {
    const at = (path: string) => inHome(lineage, path)
    const branch = erase(at(log.branch), inherited)
    assert.equal(branch.status, 0, branch.stdout + branch.stderr)
    const [first, ...rest] = branch.stdout.split('\n')
    assert.match(first!, new RegExp(`^erased removal ${inherited} of session ${id.branch}: 1 message\\(s\\), \\d+ event\\(s\\) rewritten$`))
    // One link away: the source (older), then the Branch's own copy; two links: the source's other copies, oldest first.
    assert.deepEqual(rest, [
      `still held by source ${id.source} ${JSON.stringify(sourceTitle)} (with its own removal ${tombstoneSeq} of 1 message(s); erase it there: ${BIN} ${at(log.source)} --tombstone ${tombstoneSeq})`,
      `still held by copy ${id.grandchild} ${JSON.stringify(sourceTitle)} (with its own removal ${inherited} of 1 message(s); erase it there: ${BIN} ${at(log.grandchild)} --tombstone ${inherited})`,
      `still held by related copy ${id.before} "Audit the opening question" (1 of them not removed there: remove them there first, then erase that removal; its log: ${at(log.before)})`,
      `still held by related copy ${id.forked} ${JSON.stringify(forkedTitle)} (1 of them not removed there: remove them there first, then erase that removal; its log: ${at(log.forked)})`,
      '',
    ])
    // The printed command, in the source: its copies that still hold the canary.
    const source = erase(at(log.source), tombstoneSeq, ['--json'])
    assert.equal(source.status, 0, source.stdout + source.stderr)
    assert.deepEqual(JSON.parse(source.stdout).copies, [
      { sessionId: id.before, relation: 'copy', title: 'Audit the opening question', tombstoneSeq: null, removals: [], notRemovedCount: 1, log: at(log.before), error: null },
      { sessionId: id.forked, relation: 'copy', title: forkedTitle, tombstoneSeq: null, removals: [], notRemovedCount: 1, log: at(log.forked), error: null },
      { sessionId: id.grandchild, relation: 'copy', title: sourceTitle, tombstoneSeq: inherited, removals: [{ tombstoneSeq: inherited, messageCount: 1 }], notRemovedCount: 0, log: at(log.grandchild), error: null },
    ])
    const holding = scanHits(join(lineage, 'sessions'), CANARY)
    assert.deepEqual(holding.sort(), [at(log.before), at(log.forked), at(log.grandchild)].sort(), 'the erased Branch and source hold the canary no more')
  })
})

describe('dsh-message-recall-log erase: a Branch that removed only some of the erased messages', () => {
  const roots = new Roots()
  const dshHome = pendingEraseHome('recall-erase-tool-partial-')
  const { home } = dshHome
  let sourceLog: string
  let branchLog: string
  let sourceId: string
  let branchId: string
  let branchTitle: string
  let inSource: number
  let inBranch: number
  before(async () => {
    dshHome.enter()
    const app = await roots.boot(join(home, 'sessions'), { sessionTitle: true })
    const source = await app.createAgent()
    await app.prompt(source, 'Open the partial audit')
    for (const n of ['first', 'second', 'third']) await app.prompt(source, `${PARTIAL} ${n}`)
    const session = source.session as Session
    // A Branch of the whole session before any removal; in it only the second canary prompt is deleted.
    const branch = app.ctx.sessions.fork(session)
    await app.ctx.sessions.flush(branch)
    const deleted = await app.post({ sessionId: branch.id, action: 'delete', seq: node(branch, 'user/message', `${PARTIAL} second`) })
    assert.equal(deleted.status, 200, deleted.text)
    inBranch = deleted.json.value.tombstoneSeq
    // In the source, Delete onward from the first canary prompt.
    const onward = await app.post({ sessionId: source.id, action: 'deleteFrom', seq: node(session, 'user/message', `${PARTIAL} first`) })
    assert.equal(onward.status, 200, onward.text)
    inSource = onward.json.value.tombstoneSeq
    await app.ctx.sessions.flush(branch)
    branchTitle = app.ctx.sessionTitle.get(branch)!.title
    const locate = (sessionId: string) => (app.ctx as any).sessionPersistence.locate({ id: sessionId, cwd: session.header.cwd }).path as string
    ;[sourceId, branchId, sourceLog, branchLog] = [source.id, branch.id, locate(source.id), locate(branch.id)]
    await roots.shut(app)
  })
  after(async () => {
    await roots.dispose()
    dshHome.leave()
  })

  it('names the Branch\'s removal with how many messages it takes, and how many it holds not removed; after its erase, those still', () => {
    const text = erase(dirname(sourceLog), inSource)
    assert.equal(text.status, 0, text.stdout + text.stderr)
    const [first, ...rest] = text.stdout.split('\n')
    assert.match(first!, new RegExp(`^erased removal ${inSource} of session ${sourceId}: 6 message\\(s\\), \\d+ event\\(s\\) rewritten$`))
    assert.deepEqual(rest, [
      `still held by copy ${branchId} ${JSON.stringify(branchTitle)} (with its own removal ${inBranch} of 1 message(s); erase it there: ${BIN} ${branchLog} --tombstone ${inBranch})`,
      `still held by copy ${branchId} ${JSON.stringify(branchTitle)} (5 of them not removed there: remove them there first, then erase that removal; its log: ${branchLog})`,
      '',
    ])
    // The printed command erases the one message; the other five stay in the Branch, which scan finds.
    const branch = erase(branchLog, inBranch)
    assert.equal(branch.status, 0, branch.stdout + branch.stderr)
    assert.deepEqual(branch.stdout.split('\n').slice(1), [''], 'the source was erased: nothing else holds it')
    assert.deepEqual(scanHits(join(home, 'sessions'), PARTIAL), [branchLog], 'the Branch still holds the prompts it never removed')
  })
})
