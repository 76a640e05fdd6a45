/**
 * Erase for good (`src/host/erase-session.ts`, `src/log/log-erase.ts`) in the real rc.8
 * composition with the invariant companions and JSONL persistence (zstd) on disk, and DSH's local
 * attachment store (`dsh-attachment-local`, from the pinned host set): a prompt with two images
 * and a bash step whose output went to a spill file and a process output file are deleted, the
 * host is stopped and started again (the session is then only stored), both removals are erased
 * through the route, and every file under the persistence root, the DSH home and the spill
 * folders is searched for the canary. Then a cold reload with the token meter and DSH's compaction
 * engine (`dsh-compaction-basic`), a real turn and a compaction; a prompt sent through a real turn
 * with the title service; a copy that inherited the removal; and the refusals.
 */
import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { zstdDecompressSync } from 'node:zlib'
import { spawnSync } from 'node:child_process'
import type { Plugin } from '@deepseek-ai/cordis'
import { SessionId, type Session, type SessionEvent } from '@deepseek-ai/dsh-session'
import { okValue, type DshApp } from '../support/dsh-app'
import { conversationLog, syntheticTurns } from '../support/conversation'
import { onePixelPng } from '../support/export-archive'
import { importHostPackage } from '../support/host-packages'
import { assertError, derived, node, Roots } from './helpers'
import { REMOVED_CONTENT_MARKER } from '../../src/shared/removed-content'

const CANARY = 'CANARY-7f3e-erase'
const TOOL = join(import.meta.dirname, '..', '..', 'lib', 'scripts', 'dsh-message-recall-log.js')

/** The built log tool's `scan --text` on a folder. */
function scan(folder: string, text = CANARY): { status: number | null; stdout: string; stderr: string } {
  return spawnSync(process.execPath, [TOOL, 'scan', folder, '--text', text, '--json'], { encoding: 'utf8' })
}

/** Every file under a folder, recursively. */
function filesUnder(dir: string): string[] {
  if (!existsSync(dir)) return []
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? filesUnder(join(dir, e.name)) : [join(dir, e.name)]))
}

/** The files among `dirs` whose bytes (zstd logs decoded) hold `text`. */
function filesHolding(dirs: readonly string[], text: string): string[] {
  return dirs.flatMap(filesUnder).filter((file) => {
    let bytes = readFileSync(file)
    if (file.endsWith('.zstd')) bytes = zstdDecompressSync(bytes)
    return bytes.includes(text)
  })
}

describe('erase for good', () => {
  const roots = new Roots()
  const home = mkdtempSync(join(tmpdir(), 'recall-erase-home-'))
  const spill = mkdtempSync(join(tmpdir(), 'dsh-spill-'))
  const subprocess = mkdtempSync(join(tmpdir(), 'dsh-subprocess-'))
  let root: string
  let attachments: Plugin
  let app: DshApp
  const boot = async (): Promise<DshApp> => roots.boot(root, { plugins: [{ plugin: attachments, config: { dshHome: home } }] })
  before(async () => {
    root = roots.root()
    attachments = (await importHostPackage('@deepseek-ai/dsh-attachment-local')).LocalAttachmentStore as Plugin
    app = await boot()
  })
  after(async () => {
    await roots.dispose()
    for (const dir of [home, spill, subprocess]) rmSync(dir, { recursive: true, force: true })
  })

  const post = (body: object): Promise<any> => okValue(app, body)

  it('erases a prompt with images and a bash step whose output spilled; no file holds the canary; the session reloads, derives the same messages, runs a turn and compacts; a shared image survives', async () => {
    const store = (app.ctx as any).attachments
    const own = await store.saveImage({ data: new Uint8Array(onePixelPng([200, 10, 10])), mediaType: 'image/png' })
    const shared = await store.saveImage({ data: new Uint8Array(onePixelPng([10, 200, 10])), mediaType: 'image/png' })
    const spillFile = join(spill, 'session-x', '1-bash.txt')
    mkdirSync(join(spill, 'session-x'))
    writeFileSync(spillFile, `${CANARY} full output\n`)
    const stdoutFile = join(subprocess, 'call-2-1-1-stdout.log')
    writeFileSync(stdoutFile, `${CANARY} stdout\n`)

    const withImages = (events: SessionEvent[], text: string, refs: readonly unknown[]): SessionEvent[] => events.map((event) => {
      const data = event.data as any
      const blocks = (content: any[]) => [...content, ...refs.map((attachment) => ({ type: 'image', attachment }))]
      if (event.type === 'user/message' && JSON.stringify(data).includes(text)) return { ...event, data: { ...data, content: blocks(data.content) } } as SessionEvent
      if (event.type === 'agent/inbox/spliced' && JSON.stringify(data).includes(text)) return { ...event, data: { ...data, inserted: data.inserted.map((m: any) => ({ ...m, content: blocks(m.content) })) } } as SessionEvent
      return event
    })
    const seed = withImages(conversationLog([
      { prompt: `${CANARY} my password is hunter2`, steps: [{ text: 'noted' }] },
      { prompt: 'run the build', steps: [{ text: 'running', tools: [{ name: 'bash', arguments: `{"command":"echo ${CANARY}"}`, result: `${CANARY} (output truncated; full output saved to ${spillFile}; process output: ${stdoutFile})` }] }, { text: 'built' }] },
      { prompt: 'keep this prompt', steps: [{ text: 'kept answer' }] },
      // Enough kept conversation for a compaction's summary to be smaller than what it folds.
      ...syntheticTurns(4),
    ]), CANARY, [own, shared])
    const agent = await app.createAgent({ seed })
    await app.createAgent({ seed: withImages(conversationLog([{ prompt: 'other session with a picture', steps: [{ text: 'nice' }] }]), 'other session', [shared]) })
    const session = agent.session as Session
    const prompt = node(session, 'user/message', CANARY)
    const step = node(session, 'assistant/message', 'running')
    const first = await post({ sessionId: agent.id, action: 'delete', seq: prompt })
    const second = await post({ sessionId: agent.id, action: 'delete', seq: step })
    const expected = derived(session)

    // Open in the host: refused, nothing changed.
    const open = await app.post({ sessionId: agent.id, action: 'erase', tombstoneSeq: first.tombstoneSeq })
    assertError(open, 409, 'NOT_ERASABLE', `message-recall: cannot erase removal ${first.tombstoneSeq}: the session is open in the host; the host holds its messages in memory. Stop the host and use \`dsh-message-recall-log erase\``)
    assert.equal(open.json.error.reason, 'session-open')

    await roots.shut(app)
    app = await boot()
    const before = scan(root)
    assert.equal(before.status, 1, before.stderr)
    assert.ok(JSON.parse(before.stdout).hits.length >= 1, 'the scan finds the canary in the log before the erase')
    assert.deepEqual(JSON.parse(scan(home).stdout).hits.map((h: any) => h.path).sort(), [spillFile, stdoutFile].sort(), 'under the DSH home only the tool output folders hold it')
    const spilled = JSON.parse(scan(root).stdout).hits.map((h: any) => h.path)
    assert.ok(spilled.includes(spillFile) && spilled.includes(stdoutFile), `the scan searches the tool output folders: ${spilled}`)
    const one = await post({ sessionId: agent.id, action: 'erase', tombstoneSeq: first.tombstoneSeq })
    assert.equal(one.action, 'erase')
    assert.equal(one.tombstoneSeq, first.tombstoneSeq)
    assert.deepEqual(one.messageSeqs, [prompt])
    assert.deepEqual(one.deletedImages, [own.attachmentId])
    assert.deepEqual(one.kept, [{ name: shared.attachmentId, reason: 'referenced' }])
    const two = await post({ sessionId: agent.id, action: 'erase', tombstoneSeq: second.tombstoneSeq })
    assert.deepEqual(two.deletedFiles, [spillFile, stdoutFile])
    assert.ok(two.messageSeqs.includes(step))

    assert.deepEqual(filesHolding([root, home, spill, subprocess], CANARY), [], 'no file under the persistence root, the DSH home or the spill folders holds the canary')
    for (const folder of [root, home]) {
      const after = scan(folder)
      assert.equal(after.status, 0, after.stdout)
      assert.deepEqual(JSON.parse(after.stdout).hits, [])
    }
    const words = spawnSync(process.execPath, [TOOL, 'scan', root, '--text', CANARY], { encoding: 'utf8' })
    assert.match(words.stdout, new RegExp(`^the text occurs nowhere under ${root.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} and \\d+ tool output folders?\n$`))
    const objects = filesUnder(join(home, 'attachments', 'v1', 'objects')).map((f) => f.split('/').pop())
    assert.deepEqual(objects, [shared.attachmentId.slice('sha256:'.length)], 'the image another session references survives')
    assert.ok(!existsSync(spillFile) && !existsSync(stdoutFile))

    // The log records the erase on the tombstones, without the text.
    const raw = await (app.ctx as any).sessionPersistence.readRaw(SessionId(agent.id))
    const lines = raw.content.split('\n').filter(Boolean).map((l: string) => JSON.parse(l))
    const tombstone = lines.find((e: any) => e.seq === first.tombstoneSeq)
    assert.equal(tombstone.data.source.erased.at, one.erasedAt)
    assert.ok(raw.content.includes(REMOVED_CONTENT_MARKER))
    assert.ok(raw.content.includes('keep this prompt') && raw.content.includes('kept answer'))

    // A second erase of the same removal, an unknown seq, a restored removal: refused.
    const again = await app.post({ sessionId: agent.id, action: 'erase', tombstoneSeq: first.tombstoneSeq })
    assertError(again, 409, 'NOT_ERASABLE', `message-recall: cannot erase removal ${first.tombstoneSeq}: that removal was erased already`)
    const unknown = await app.post({ sessionId: agent.id, action: 'erase', tombstoneSeq: 9999 })
    assertError(unknown, 409, 'NOT_ERASABLE', 'message-recall: cannot erase removal 9999: there is no removal of this plugin at that seq')
    // Nothing of it comes back: neither a restore in place nor a copy from before it.
    const gone = `message-recall: removal ${first.tombstoneSeq} was erased for good; nothing of it can come back (no restore, no copy from before it)`
    const logBefore = (await (app.ctx as any).sessionPersistence.readRaw(SessionId(agent.id))).content
    const sessionsBefore = (await (app.ctx as any).sessionPersistence.list()).length
    assertError(await app.post({ sessionId: agent.id, action: 'restore', tombstoneSeq: first.tombstoneSeq }), 409, 'TARGET_NOT_FOUND', gone)
    assertError(await app.post({ sessionId: agent.id, action: 'forkBefore', tombstoneSeq: first.tombstoneSeq }), 409, 'TARGET_NOT_FOUND', gone)
    assert.equal((await (app.ctx as any).sessionPersistence.readRaw(SessionId(agent.id))).content, logBefore, 'nothing appended')
    assert.equal((await (app.ctx as any).sessionPersistence.list()).length, sessionsBefore, 'no copy made')

    // Cold reload, with the token meter and DSH's compaction engine: same derived messages, a real turn, a compaction.
    await roots.shut(app)
    const compaction = (await importHostPackage('@deepseek-ai/dsh-compaction-basic')).BasicCompactionEngine as Plugin
    app = await roots.boot(root, { tokenMeter: true, plugins: [{ plugin: attachments, config: { dshHome: home } }, { plugin: compaction, config: { auto: false } }] })
    const resumed = await app.resumeAgent(agent.id)
    // The same messages but for the erase mark on the tombstones' source (never sent to the provider).
    const unmarked = (derived(resumed.session as Session) as any[]).map((m) => {
      if (m.source?.erased === undefined) return m
      const { erased, ...source } = m.source
      assert.equal(typeof erased.at, 'string')
      return { ...m, source }
    })
    assert.deepEqual(unmarked, expected)
    await app.prompt(resumed, 'and now?')
    const last = (resumed.session as Session).events.at(-1)!
    assert.equal(last.type, 'turn/end')
    const compacted = await (app.ctx as any).compaction.compactNow(resumed, new AbortController().signal)
    assert.notEqual(compacted, null, 'a compaction ran')
    assert.equal((resumed.session as Session).events.at(-1)!.type, 'compaction/end')
    await app.ctx.sessions.flush(resumed.session as Session)
    assert.ok(app.mock.requests.length >= 2, 'the turn and the summary went to the model')
    assert.ok(app.mock.requests.every((r: any) => !JSON.stringify(r.body).includes(CANARY)), 'no request carried the canary')
    assert.deepEqual(filesHolding([root, home], CANARY), [])
  })

  it('refuses a restored removal, an exclusion and a running turn with nothing changed', async () => {
    const agent = await app.createAgent({ seed: conversationLog([
      { prompt: 'restored prompt', steps: [{ text: 'one' }] },
      { prompt: 'excluded prompt', steps: [{ text: 'two' }] },
    ]) })
    const session = agent.session as Session
    const restored = await post({ sessionId: agent.id, action: 'delete', seq: node(session, 'user/message', 'restored prompt') })
    await post({ sessionId: agent.id, action: 'restore', tombstoneSeq: restored.tombstoneSeq })
    const excluded = await post({ sessionId: agent.id, action: 'exclude', seq: node(session, 'user/message', 'excluded prompt') })
    const id = agent.id
    await roots.shut(app)
    app = await boot()
    const file = () => readFileSync(filesUnder(root).find((f) => f.includes(id) && f.endsWith('.zstd'))!)
    const bytes = file()
    assertError(await app.post({ sessionId: id, action: 'erase', tombstoneSeq: restored.tombstoneSeq }), 409, 'NOT_ERASABLE', `message-recall: cannot erase removal ${restored.tombstoneSeq}: that removal was undone (restored), so its messages are in the conversation again`)
    assertError(await app.post({ sessionId: id, action: 'erase', tombstoneSeq: excluded.tombstoneSeq }), 409, 'NOT_ERASABLE', `message-recall: cannot erase removal ${excluded.tombstoneSeq}: an exclusion keeps its messages in the transcript; only a removal can be erased`)
    assertError(await app.post({ sessionId: 'no-such-session', action: 'erase', tombstoneSeq: 3 }), 409, 'SESSION_NOT_LIVE', 'message-recall: no session "no-such-session" (neither open in this host nor stored)')
    assertError(await app.post({ sessionId: id, action: 'erase', tombstoneSeq: 3, seq: 4 }), 400, 'INVALID_REQUEST', 'message-recall: erase takes no seq (fields of erase: sessionId, action, tombstoneSeq, when); address the tombstone by tombstoneSeq')
    // Entering the stored session for the erase appends `session/end-seed` (as every cold open does); nothing else changed.
    const now = file()
    assert.ok(now.subarray(0, bytes.length).equals(bytes), 'the stored log only grew by the end-seed marker')

    const resumed = await app.resumeAgent(id)
    const running = app.startPrompt(resumed, 'a slow turn')
    const busy = await app.post({ sessionId: id, action: 'erase', tombstoneSeq: excluded.tombstoneSeq })
    await running.idle
    assert.equal(busy.status, 423, busy.text)
    assert.equal(busy.json.error.code, 'AGENT_BUSY')
  })

  it('leaves a copy that inherited the removal untouched, and erases it when asked', async () => {
    const COPY_CANARY = 'CANARY-copy-5d1a'
    const source = await app.createAgent({ seed: conversationLog([
      { prompt: `${COPY_CANARY} in the first prompt`, steps: [{ text: 'one' }] },
      { prompt: 'second prompt', steps: [{ text: 'two' }] },
    ]) })
    const removed = await post({ sessionId: source.id, action: 'delete', seq: node(source.session as Session, 'user/message', COPY_CANARY) })
    const events = (source.session as Session).events
    const firstTurnEnd = events.findIndex((e) => e.type === 'turn/end')
    const copy = app.ctx.sessions.fork(source.session as Session, firstTurnEnd)
    const inherited = copy.events.findLast((e) => e.type === 'user/message' && JSON.stringify(e.data).includes('dsh-message-recall'))!.seq
    await app.ctx.sessions.flush(copy)
    await roots.shut(app)
    app = await boot()
    const holding = (): string[] => JSON.parse(scan(root, COPY_CANARY).stdout).hits.map((h: any) => h.path)
    assert.equal(holding().length, 2, 'the source and the copy hold the canary')

    await post({ sessionId: source.id, action: 'erase', tombstoneSeq: removed.tombstoneSeq })
    assert.deepEqual(holding().map((p) => p.includes(copy.id)), [true], 'only the copy holds it: an erase does not reach a copy')
    await post({ sessionId: copy.id, action: 'erase', tombstoneSeq: inherited })
    assert.deepEqual(holding(), [], 'erased in the copy when asked')
  })

  it('erases a prompt sent through a real turn with the title service: the message, its inbox event, the title and the title request made from it', async () => {
    const TITLE_CANARY = 'CANARY-title-0c4e'
    // One host per home (HOME_IN_USE): the titled host runs while the other is stopped.
    await roots.shut(app)
    const titled = await roots.boot(root, { sessionTitle: true, plugins: [{ plugin: attachments, config: { dshHome: home } }] })
    const agent = await titled.createAgent()
    await titled.prompt(agent, `${TITLE_CANARY} my api key`)
    await titled.prompt(agent, 'a second prompt')
    const events = (agent.session as Session).events
    const holding = events.filter((e) => JSON.stringify(e).includes(TITLE_CANARY)).map((e) => e.type)
    assert.ok(holding.includes('session/title') && holding.includes('user/message') && holding.includes('agent/inbox/spliced'), `the canary was copied into: ${holding}`)
    const removed = await titled.post({ sessionId: agent.id, action: 'delete', seq: node(agent.session as Session, 'user/message', TITLE_CANARY) })
    assert.equal(removed.status, 200, removed.text)
    await roots.shut(titled)
    app = await boot()
    const erased = await post({ sessionId: agent.id, action: 'erase', tombstoneSeq: removed.json.value.tombstoneSeq })
    assert.ok(erased.rewrittenEvents >= holding.length, `${erased.rewrittenEvents} events rewritten for ${holding.length} holding the canary`)
    const after = scan(root, TITLE_CANARY)
    assert.equal(after.status, 0, after.stdout)
    assert.deepEqual(JSON.parse(after.stdout).hits, [])
  })
})
