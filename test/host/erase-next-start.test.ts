/**
 * Erase for good of a session the host holds open, carried out when the host next starts
 * (`src/host/erase-at-start.ts`, `src/host/pending-erases.ts`), over real HTTP in the real rc.8
 * composition with JSONL persistence (zstd) on disk: `erase` with `when: 'next-start'` on a live
 * session keeps a pending erase in `<DSH home>/message-recall/pending-erases.json` and changes
 * nothing in the log (its `plan` answers the counts and writes nothing); `restore`, `forkBefore` and an `apply` restoring that removal, and its batch `plan`, are refused
 * with `ERASE_PENDING`; a second request answers the same record; refusals write nothing; cancel
 * drops one. A fresh composition on the same home and root runs the erase at start: the canary is
 * gone from every file (the built log tool's `scan --text` and a byte search), the pending file is
 * empty, and pending erases of a restored removal and of a session that is gone are dropped. An
 * erase that fails at start (a file system error) is kept as failed with the host's words, asked
 * again it is pending again, and the next start runs it again; while failed, `restore` and
 * `forkBefore` answer `ERASE_PENDING` in the words of a failed erase. An erase carried out now (the
 * agent disposed, its session stored) drops the removal's pending record: not listed, a new
 * next-start request answers `ALREADY_ERASED`, restore is not refused as pending. A failed erase of a session that is
 * gone is dropped at the next start (one of a stored session stays), and once its session is
 * deleted while the host runs, `cancelErase` still drops it (the record is read before asking
 * whether the session exists), then answers `SESSION_NOT_LIVE`. A damaged pending-erase file is
 * refused (`INTERNAL`) and left as it is.
 */
import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { SessionId, type Session } from '@deepseek-ai/dsh-session'
import { randomUUID } from 'node:crypto'
import { MODEL, okValue, PROVIDER, waitFor, type DshApp } from '../support/dsh-app'
import { conversationLog } from '../support/conversation'
import { assertError, node, Roots, sessionFile } from './helpers'
import { pendingEraseHome, scanHits } from '../support/pending-erase-home'

const CANARY = 'CANARY-4b9d-next-start'

describe('erase for good when the host next starts', () => {
  const roots = new Roots()
  const dshHome = pendingEraseHome('recall-erase-later-home-')
  const { home, pendingFile } = dshHome
  let root: string
  let app: DshApp
  before(async () => {
    // The plugin reads the DSH home from the launch environment, else the process's DSH_HOME.
    dshHome.enter()
    root = roots.root()
    app = await roots.boot(root)
  })
  after(async () => {
    await roots.dispose()
    dshHome.leave()
  })

  const post = (body: object): Promise<any> => okValue(app, body)
  const pendingOnDisk = dshHome.pendingOnDisk
  const rawLog = async (id: string): Promise<string> => (await (app.ctx as any).sessionPersistence.readRaw(SessionId(id))).content

  it('keeps the erase of an open session for the next start, refuses restore and copies meanwhile, then erases it at start', async () => {
    const agent = await app.createAgent({ seed: conversationLog([
      { prompt: `${CANARY} my password is hunter2`, steps: [{ text: 'noted' }] },
      { prompt: 'second prompt', steps: [{ text: 'two' }] },
      { prompt: 'excluded prompt', steps: [{ text: 'three' }] },
      { prompt: 'restored prompt', steps: [{ text: 'four' }] },
      { prompt: 'keep this prompt', steps: [{ text: 'kept answer' }] },
    ]) })
    const session = agent.session as Session
    const id = agent.id
    const canarySeq = node(session, 'user/message', CANARY)
    const canary = await post({ sessionId: id, action: 'delete', seq: canarySeq })
    const second = await post({ sessionId: id, action: 'delete', seq: node(session, 'user/message', 'second prompt') })
    const excluded = await post({ sessionId: id, action: 'exclude', seq: node(session, 'user/message', 'excluded prompt') })
    const restored = await post({ sessionId: id, action: 'delete', seq: node(session, 'user/message', 'restored prompt') })
    await post({ sessionId: id, action: 'restore', tombstoneSeq: restored.tombstoneSeq })
    await post({ sessionId: id, action: 'flush' })
    const logBefore = await rawLog(id)

    // Now refused while open; kept for the next start instead.
    assertError(await app.post({ sessionId: id, action: 'erase', tombstoneSeq: canary.tombstoneSeq }), 409, 'NOT_ERASABLE', /the session is open in the host/)
    // The confirmation's plan: the same check, the counts, nothing written.
    assert.deepEqual(await post({ sessionId: id, action: 'plan', planAction: 'erase', tombstoneSeq: canary.tombstoneSeq }), { action: 'plan', planAction: 'erase', tombstoneSeq: canary.tombstoneSeq, messageCount: 1, imageCount: 0, fileCount: 0, copies: [] })
    assertError(await app.post({ sessionId: id, action: 'plan', planAction: 'erase', tombstoneSeq: excluded.tombstoneSeq }), 409, 'NOT_ERASABLE', `message-recall: cannot erase removal ${excluded.tombstoneSeq}: an exclusion keeps its messages in the transcript; only a removal can be erased`)
    assertError(await app.post({ sessionId: id, action: 'plan', planAction: 'erase', tombstoneSeq: canary.tombstoneSeq, seq: 3 }), 400, 'INVALID_REQUEST', 'message-recall: plan of erase takes no seq (fields of plan of erase: sessionId, action, planAction, tombstoneSeq)')
    assert.equal(existsSync(pendingFile), false, 'a plan writes nothing')
    const scheduled = await post({ sessionId: id, action: 'erase', tombstoneSeq: canary.tombstoneSeq, when: 'next-start' })
    assert.equal(scheduled.action, 'erase')
    assert.equal(scheduled.when, 'next-start')
    assert.deepEqual({ ...scheduled.erase, scheduledAt: 'x' }, { tombstoneSeq: canary.tombstoneSeq, scheduledAt: 'x', messageCount: 1, imageCount: 0, fileCount: 0, state: 'pending' })
    assert.ok(!Number.isNaN(Date.parse(scheduled.erase.scheduledAt)))
    assert.deepEqual(pendingOnDisk(), [{ sessionId: id, tombstoneSeq: canary.tombstoneSeq, scheduledAt: scheduled.erase.scheduledAt, messageSeqs: [canarySeq], imageCount: 0, fileCount: 0, state: 'pending' }], 'durable when answered')
    assert.equal(await rawLog(id), logBefore, 'nothing in the log changed')
    assert.ok(session.events.some((e) => JSON.stringify(e).includes(CANARY)), 'the host still holds the text until the restart')

    // A second request is idempotent.
    assert.deepEqual(await post({ sessionId: id, action: 'erase', tombstoneSeq: canary.tombstoneSeq, when: 'next-start' }), scheduled)
    assert.equal(pendingOnDisk().length, 1)

    // Restore, Open a copy and a batch restore of it are refused.
    const pendingMessage = `message-recall: removal ${canary.tombstoneSeq} is to be erased for good when the host next starts; cancel the erase (cancelErase) to restore it or open a copy from before it`
    assertError(await app.post({ sessionId: id, action: 'restore', tombstoneSeq: canary.tombstoneSeq }), 409, 'ERASE_PENDING', pendingMessage)
    assertError(await app.post({ sessionId: id, action: 'forkBefore', tombstoneSeq: canary.tombstoneSeq }), 409, 'ERASE_PENDING', pendingMessage)
    const batch = await app.post({ sessionId: id, action: 'apply', changes: [{ action: 'delete', seq: node(session, 'user/message', 'keep this prompt') }, { action: 'restore', tombstoneSeq: canary.tombstoneSeq }] })
    assertError(batch, 409, 'ERASE_PENDING', pendingMessage)
    assert.equal(batch.json.error.index, 1)
    // The batch plan (the editor's live check) refuses it the same way, counts or detail.
    for (const detail of [undefined, 'counts'] as const) {
      const planned = await app.post({ sessionId: id, action: 'plan', ...(detail === undefined ? {} : { detail }), changes: [{ action: 'delete', seq: node(session, 'user/message', 'keep this prompt') }, { action: 'restore', tombstoneSeq: canary.tombstoneSeq }] })
      assertError(planned, 409, 'ERASE_PENDING', pendingMessage)
      assert.equal(planned.json.error.index, 1)
    }
    assert.equal(await rawLog(id), logBefore, 'the refusals wrote nothing')

    // Refusals of the schedule itself write nothing.
    const fileBefore = readFileSync(pendingFile, 'utf8')
    assertError(await app.post({ sessionId: id, action: 'erase', tombstoneSeq: excluded.tombstoneSeq, when: 'next-start' }), 409, 'NOT_ERASABLE', `message-recall: cannot erase removal ${excluded.tombstoneSeq}: an exclusion keeps its messages in the transcript; only a removal can be erased`)
    assertError(await app.post({ sessionId: id, action: 'erase', tombstoneSeq: restored.tombstoneSeq, when: 'next-start' }), 409, 'NOT_ERASABLE', `message-recall: cannot erase removal ${restored.tombstoneSeq}: that removal was undone (restored), so its messages are in the conversation again`)
    assertError(await app.post({ sessionId: id, action: 'erase', tombstoneSeq: 9999, when: 'next-start' }), 409, 'NOT_ERASABLE', 'message-recall: cannot erase removal 9999: there is no removal of this plugin at that seq')
    assertError(await app.post({ sessionId: 'no-such-session', action: 'erase', tombstoneSeq: 3, when: 'next-start' }), 409, 'SESSION_NOT_LIVE', 'message-recall: no session "no-such-session" (neither open in this host nor stored)')
    // An id neither open nor stored: the same sentence from the plan, the list and the cancel (an
    // open or stored session without any answers an empty list and `cancelled: false`).
    for (const body of [
      { action: 'plan', planAction: 'erase', tombstoneSeq: 3 },
      { action: 'pendingErases' },
      { action: 'cancelErase', tombstoneSeq: 3 },
    ]) assertError(await app.post({ sessionId: 'no-such-session', ...body }), 409, 'SESSION_NOT_LIVE', 'message-recall: no session "no-such-session" (neither open in this host nor stored)')
    assertError(await app.post({ sessionId: id, action: 'erase', tombstoneSeq: 3, when: 'later' }), 400, 'INVALID_REQUEST', 'message-recall: when must be one of now, next-start, got "later"')
    assertError(await app.post({ sessionId: id, action: 'restore', tombstoneSeq: 3, when: 'next-start' }), 400, 'INVALID_REQUEST', 'message-recall: restore takes no when (fields of restore: sessionId, action, tombstoneSeq, expect)')
    assert.equal(readFileSync(pendingFile, 'utf8'), fileBefore)

    // Cancel: scheduled, listed, cancelled, restorable again (not restored here).
    const other = await post({ sessionId: id, action: 'erase', tombstoneSeq: second.tombstoneSeq, when: 'next-start' })
    assert.deepEqual((await post({ sessionId: id, action: 'pendingErases' })).erases.map((e: any) => e.tombstoneSeq), [canary.tombstoneSeq, second.tombstoneSeq])
    assert.deepEqual(await post({ sessionId: id, action: 'cancelErase', tombstoneSeq: second.tombstoneSeq }), { action: 'cancelErase', tombstoneSeq: second.tombstoneSeq, cancelled: true })
    assert.deepEqual(await post({ sessionId: id, action: 'cancelErase', tombstoneSeq: second.tombstoneSeq }), { action: 'cancelErase', tombstoneSeq: second.tombstoneSeq, cancelled: false })
    assert.deepEqual(await post({ sessionId: id, action: 'pendingErases' }), { action: 'pendingErases', erases: [scheduled.erase] })
    assert.equal(other.erase.messageCount, 1)
    assert.equal(pendingOnDisk().length, 1)

    // Two records the start must drop: a removal restored since, a session gone.
    writeFileSync(pendingFile, JSON.stringify({ version: 1, erases: [
      ...pendingOnDisk(),
      { sessionId: id, tombstoneSeq: restored.tombstoneSeq, scheduledAt: scheduled.erase.scheduledAt, messageSeqs: [1], imageCount: 0, fileCount: 0, state: 'pending' },
      { sessionId: 'session-gone', tombstoneSeq: 4, scheduledAt: scheduled.erase.scheduledAt, messageSeqs: [1], imageCount: 0, fileCount: 0, state: 'pending' },
    ] }))
    assert.deepEqual(scanHits(root, CANARY), [sessionFile(root, id)], 'the canary is in the session log until the restart')

    // The next start: a fresh composition on the same home and persistence root.
    await roots.shut(app)
    app = await roots.boot(root)
    await waitFor(() => pendingOnDisk().length === 0, 'the pending erases ran at start', 20_000)
    assert.deepEqual([...scanHits(root, CANARY), ...scanHits(home, CANARY)], [], 'no file under the persistence root or the DSH home holds the canary')
    const log = await rawLog(id)
    assert.ok(log.includes('keep this prompt') && log.includes('restored prompt') && log.includes('second prompt'))
    const tombstone = log.split('\n').filter(Boolean).map((l) => JSON.parse(l)).find((e) => e.seq === canary.tombstoneSeq)
    assert.equal(typeof tombstone.data.source.erased.at, 'string')

    // Erased: not erasable again, not restorable; nothing pending any more.
    assertError(await app.post({ sessionId: id, action: 'erase', tombstoneSeq: canary.tombstoneSeq, when: 'next-start' }), 409, 'NOT_ERASABLE', `message-recall: cannot erase removal ${canary.tombstoneSeq}: that removal was erased already`)
    assert.deepEqual(await post({ sessionId: id, action: 'pendingErases' }), { action: 'pendingErases', erases: [] })
    // The session is stored, not open: its (empty) list and a cancel of nothing still answer.
    assert.equal(app.ctx.sessions.get(SessionId(id)), undefined, 'the erased session is stored, not open')
    assert.deepEqual(await post({ sessionId: id, action: 'cancelErase', tombstoneSeq: canary.tombstoneSeq }), { action: 'cancelErase', tombstoneSeq: canary.tombstoneSeq, cancelled: false })
  })

  it('a pending erase that failed at start says why, and asked again it is pending and runs at the next start', async () => {
    const prompt = `${CANARY} failed at start`
    const agent = await app.createAgent({ seed: conversationLog([{ prompt, steps: [{ text: 'noted' }] }, { prompt: 'kept prompt', steps: [{ text: 'kept' }] }]) })
    const id = agent.id
    const promptSeq = node(agent.session as Session, 'user/message', prompt)
    const removed = await post({ sessionId: id, action: 'delete', seq: promptSeq })
    const tombstoneSeq = removed.tombstoneSeq as number
    await post({ sessionId: id, action: 'flush' })
    const first = await post({ sessionId: id, action: 'erase', tombstoneSeq, when: 'next-start' })
    assert.equal(first.erase.state, 'pending')

    // A file system error at start: a directory where an interrupted erase's new file would be,
    // which the erase cannot clear away (it removes files only), so it throws before writing anything.
    await roots.shut(app)
    const log = sessionFile(root, id)
    const blocker = `${log}.0123456789ab.erase.tmp`
    mkdirSync(blocker)
    writeFileSync(join(blocker, 'held'), 'x')
    const problem = 'message-recall: Path is a directory: rm returned EISDIR (is a directory) …/session.jsonl.zstd.0123456789ab.erase.tmp'
    const failedRecord = { sessionId: id, tombstoneSeq, scheduledAt: first.erase.scheduledAt, messageSeqs: [promptSeq], imageCount: 0, fileCount: 0, state: 'failed', problem }
    app = await roots.boot(root)
    await waitFor(() => pendingOnDisk()[0]?.state === 'failed', 'the erase failed at start', 20_000)
    assert.deepEqual(pendingOnDisk(), [failedRecord])
    assert.deepEqual(scanHits(root, CANARY), [sessionFile(root, id)], 'nothing was erased')
    const failed = { tombstoneSeq, scheduledAt: first.erase.scheduledAt, messageCount: 1, imageCount: 0, fileCount: 0, state: 'failed', problem }
    assert.deepEqual(await post({ sessionId: id, action: 'pendingErases' }), { action: 'pendingErases', erases: [failed] }, 'the panel reads why')
    // Kept, not run again: Restore and Open a copy are still refused, in words that say it failed.
    const failedMessage = `message-recall: an erase for good of removal ${tombstoneSeq} failed at the host's start and is kept; try it again or cancel it (cancelErase) to restore it`
    assertError(await app.post({ sessionId: id, action: 'restore', tombstoneSeq }), 409, 'ERASE_PENDING', failedMessage)
    assertError(await app.post({ sessionId: id, action: 'forkBefore', tombstoneSeq }), 409, 'ERASE_PENDING', failedMessage)

    // Asked again (the panel's Try again at next start): checked afresh, pending again, durable when answered.
    const again = await post({ sessionId: id, action: 'erase', tombstoneSeq, when: 'next-start' })
    assert.deepEqual({ ...again, erase: { ...again.erase, scheduledAt: 'x' } }, { action: 'erase', when: 'next-start', erase: { tombstoneSeq, scheduledAt: 'x', messageCount: 1, imageCount: 0, fileCount: 0, state: 'pending' } })
    assert.ok(Date.parse(again.erase.scheduledAt) >= Date.parse(first.erase.scheduledAt), 'asked for now')
    assert.deepEqual(pendingOnDisk(), [{ sessionId: id, tombstoneSeq, scheduledAt: again.erase.scheduledAt, messageSeqs: [promptSeq], imageCount: 0, fileCount: 0, state: 'pending' }], 'the failed record replaced, no problem left')
    assert.deepEqual(await post({ sessionId: id, action: 'erase', tombstoneSeq, when: 'next-start' }), again, 'a second request answers the pending record')

    // The next start runs it again: the directory is still there, so it fails again with the same words.
    await roots.shut(app)
    app = await roots.boot(root)
    await waitFor(() => pendingOnDisk()[0]?.state === 'failed', 'the erase ran again at start', 20_000)
    assert.deepEqual(pendingOnDisk(), [{ ...failedRecord, scheduledAt: again.erase.scheduledAt }])

    // The directory cleared away, asked again, and the next start erases it.
    rmSync(blocker, { recursive: true })
    assert.equal((await post({ sessionId: id, action: 'erase', tombstoneSeq, when: 'next-start' })).erase.state, 'pending')
    await roots.shut(app)
    app = await roots.boot(root)
    await waitFor(() => pendingOnDisk().length === 0, 'the erase ran at start', 20_000)
    assert.deepEqual(scanHits(root, CANARY), [], 'the canary is gone from the persistence root')
    assert.ok((await rawLog(id)).includes('kept prompt'))
    assertError(await app.post({ sessionId: id, action: 'erase', tombstoneSeq, when: 'next-start' }), 409, 'NOT_ERASABLE', `message-recall: cannot erase removal ${tombstoneSeq}: that removal was erased already`)
  })

  it('an erase carried out now drops the pending record of that removal: not pending, not refused as pending, erased already at start', async () => {
    const prompt = `${CANARY} erased now`
    // An agent whose handle the test holds: disposed, its session is stored and erasable now.
    const handle = await (app.ctx as any).agents.create({ sessionId: SessionId(`session-${randomUUID()}`), agentOptions: { provider: PROVIDER, model: MODEL }, seed: conversationLog([{ prompt, steps: [{ text: 'noted' }] }, { prompt: 'kept prompt', steps: [{ text: 'kept' }] }]) })
    const id = handle.agent.id as string
    const promptSeq = node(handle.agent.session as Session, 'user/message', prompt)
    const { tombstoneSeq } = await post({ sessionId: id, action: 'delete', seq: promptSeq })
    await post({ sessionId: id, action: 'flush' })
    await post({ sessionId: id, action: 'erase', tombstoneSeq, when: 'next-start' })
    assert.deepEqual(pendingOnDisk().filter((e) => e.sessionId === id).map((e) => e.state), ['pending'])
    await handle.dispose()
    assert.equal(app.ctx.sessions.get(SessionId(id)), undefined, 'stored, not open')

    const erased = await post({ sessionId: id, action: 'erase', tombstoneSeq })
    assert.deepEqual(erased.messageSeqs, [promptSeq])
    assert.deepEqual(pendingOnDisk().filter((e) => e.sessionId === id), [], 'the record is dropped, durable when answered')
    assert.deepEqual(await post({ sessionId: id, action: 'pendingErases' }), { action: 'pendingErases', erases: [] })
    assert.deepEqual(scanHits(root, CANARY).filter((hit) => hit.includes(id)), [], 'the session\'s log no longer holds the canary')
    // Erased: a new request says so rather than answering the old record, and restore is no longer
    // refused as pending but as erased (nothing of it can come back).
    assertError(await app.post({ sessionId: id, action: 'erase', tombstoneSeq, when: 'next-start' }), 409, 'NOT_ERASABLE', `message-recall: cannot erase removal ${tombstoneSeq}: that removal was erased already`)
    assert.deepEqual(pendingOnDisk().filter((e) => e.sessionId === id), [])
    assertError(await app.post({ sessionId: id, action: 'restore', tombstoneSeq }), 409, 'TARGET_NOT_FOUND', `message-recall: removal ${tombstoneSeq} was erased for good; nothing of it can come back (no restore, no copy from before it)`)
    assert.deepEqual(scanHits(root, CANARY).filter((hit) => hit.includes(id)), [], 'still no canary')
  })

  it('a failed erase of a session that is gone is dropped at the next start, and cancelled on request once it is deleted', async () => {
    const failed = (sessionId: string, tombstoneSeq: number) => ({ sessionId, tombstoneSeq, scheduledAt: '2026-01-02T03:04:05.000Z', messageSeqs: [5], imageCount: 0, fileCount: 0, state: 'failed', problem: 'message-recall: the log could not be read' })
    const agent = await app.createAgent({ seed: conversationLog([{ prompt: 'a stored prompt', steps: [{ text: 'an answer' }] }]) })
    const id = agent.id
    await post({ sessionId: id, action: 'flush' })
    await roots.shut(app)
    const before = pendingOnDisk()
    writeFileSync(pendingFile, JSON.stringify({ version: 1, erases: [...before, failed('session-gone', 7), failed(id, 3)] }))
    // The next start drops the failed record of the gone session; the stored session's stays, not run.
    app = await roots.boot(root)
    await waitFor(() => !pendingOnDisk().some((e) => e.sessionId === 'session-gone'), 'the failed record of the gone session dropped at start', 20_000)
    assert.deepEqual(pendingOnDisk(), [...before, failed(id, 3)], 'only the gone session\'s record dropped')
    // The session deleted afterwards: its failed record is still cancelled, though the id is neither open nor stored.
    assert.equal(app.ctx.sessions.get(SessionId(id)), undefined, 'stored, not open')
    rmSync(dirname(sessionFile(root, id)), { recursive: true })
    assert.deepEqual(await post({ sessionId: id, action: 'cancelErase', tombstoneSeq: 3 }), { action: 'cancelErase', tombstoneSeq: 3, cancelled: true })
    assert.deepEqual(pendingOnDisk(), before)
    // No record of it any more: the id is unknown, as on every other action.
    assertError(await app.post({ sessionId: id, action: 'cancelErase', tombstoneSeq: 3 }), 409, 'SESSION_NOT_LIVE', `message-recall: no session "${id}" (neither open in this host nor stored)`)
  })

  it('a damaged pending-erase file is refused, never overwritten', async () => {
    await roots.shut(app)
    writeFileSync(pendingFile, '{"version": 1, "erases": [')
    app = await roots.boot(root)
    const agent = await app.createAgent({ seed: conversationLog([{ prompt: 'a prompt', steps: [{ text: 'an answer' }] }]) })
    const removed = await post({ sessionId: agent.id, action: 'delete', seq: node(agent.session as Session, 'user/message', 'a prompt') })
    assertError(await app.post({ sessionId: agent.id, action: 'pendingErases' }), 500, 'INTERNAL', 'message-recall: pending-erases.json is not JSON')
    assertError(await app.post({ sessionId: agent.id, action: 'erase', tombstoneSeq: removed.tombstoneSeq, when: 'next-start' }), 500, 'INTERNAL', 'message-recall: pending-erases.json is not JSON')
    assert.equal(readFileSync(pendingFile, 'utf8'), '{"version": 1, "erases": [')
  })
})
