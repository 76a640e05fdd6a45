/**
 * The export without removed messages on the pinned DSH 0.1.0-rc.8 web host (`dsh web` with this
 * plugin added, DSH's mock model on loopback; no browser), beside DSH's own Session log export
 * (`GET /api/session.export`, `dsh-host-apiproxy`), which needs the host's attachment store,
 * session query and raw log services:
 * - a canary prompt with an image and a tool step whose arguments, text and result hold the
 *   canary are deleted, and a subagent's reply holding another canary in the subagent session; DSH's archive still holds the canary (an audit export), the plugin's holds
 *   it nowhere, lacks the image only the removed prompt referenced and keeps the other one;
 * - the plugin's `session.jsonl` has DSH's events, seqs and types, folds to the same surface,
 *   loads with DSH's own JSONL backend and resumes with the invariant companions, deriving the
 *   same messages as DSH's archive does;
 * - a copy made from before a recall (Open a copy, a lineage descendant of the source) is in the
 *   archive without the recalled prompt: the source's removals scrub the copy's seed events;
 * - bad input (unknown session, malformed query, a broken percent-encoding, another method, a foreign origin, a session a
 *   turn is writing) is refused with its code, and the session's log on disk is not touched.
 */
import assert from 'node:assert/strict'
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import { foldSurface } from '@deepseek-ai/dsh-session/surface'
import type { RunningHost } from '../../tools/dsh-host'
import { createSession, findSessionDir, history, rpc, waitForTurnEnds } from '../../tools/dsh-api'
import type { MockModel } from '../../tools/mock-model'
import { eventsOfLogText, loadWithDshPersistence, onePixelPng } from '../support/export-archive'
import { readZip, type ZipEntry } from '../support/zip-read'
import { hostFolders, startImageHost } from './harness'

const CANARY = 'CANARY-e1x9'
const CHILD_CANARY = 'CHILDCANARY-k8v4'

describe('export without removed messages on the rc.8 web host', { timeout: 600_000 }, () => {
  const folders = hostFolders('export-host')
  const { home, workspaceDir } = folders
  let model: MockModel
  let host: RunningHost

  before(async () => {
    ({ model, host } = await startImageHost(folders))
  })
  after(async () => {
    await host?.stop().catch(() => {})
    await model?.close().catch(() => {})
  })

  const get = (path: string, init: RequestInit = {}) => fetch(`${host.url}${path}`, { ...init, headers: { origin: host.url, ...(init.headers as Record<string, string> | undefined) } })
  const zipOf = async (res: Response): Promise<ZipEntry[]> => {
    assert.equal(res.status, 200, res.status === 200 ? '' : await res.clone().text())
    assert.equal(res.headers.get('content-type'), 'application/zip')
    return readZip(Buffer.from(await res.arrayBuffer()))
  }
  const storedLog = (sessionId: string): Buffer => readFileSync(join(findSessionDir(home, sessionId)!, 'session.jsonl.zstd'))
  const refusal = async (res: Response): Promise<[number, unknown]> => [res.status, await res.json()]

  it('leaves out the removed prompt, its image and the removed tool step, keeps every event, and refuses bad input', async () => {
    const sessionId = await createSession(host.url, workspaceDir)
    const red = onePixelPng([255, 0, 0])
    const blue = onePixelPng([0, 0, 255])
    const canaryFile = join(workspaceDir, `${CANARY}-notes.txt`)
    writeFileSync(canaryFile, `${CANARY} tool output line\n`)
    const send = (text: string, image?: Buffer) => rpc(host.url, 'session.prompt', {
      sessionId, mode: 'queue', content: [{ type: 'text', text }, ...(image ? [{ type: 'image', mediaType: 'image/png', data: image.toString('base64') }] : [])],
    })
    model.script([{ text: 'first answer' }])
    await send(`${CANARY} secret first prompt`, red)
    await waitForTurnEnds(host.url, sessionId, 1)
    model.script([{ text: `${CANARY} step text`, toolCalls: [{ name: 'read', arguments: { file_path: canaryFile } }] }, { text: 'the file is read' }])
    await send('read the notes please')
    await waitForTurnEnds(host.url, sessionId, 2)
    model.script([{ text: 'third answer' }])
    await send('keep this prompt', blue)
    await waitForTurnEnds(host.url, sessionId, 3)
    model.script([
      { toolCall: { name: 'subagent', arguments: { description: 'count the lines', prompt: 'sub task: count the lines', run_in_background: false } } },
      `child answer ${CHILD_CANARY}`,
      'parent answer: counted',
    ])
    await send('please delegate the counting')
    await waitForTurnEnds(host.url, sessionId, 4)
    const child = ((await rpc(host.url, 'session.list', {})).items as Array<{ sessionId: string; parentSessionId?: string }>).find((s) => s.parentSessionId === sessionId)!.sessionId
    const childReply = (await history(host.url, child)).filter((e) => e.type === 'assistant/message').at(-1)!
    assert.match(JSON.stringify(childReply.data), new RegExp(CHILD_CANARY))

    const events = await history(host.url, sessionId)
    const prompt = events.find((e) => e.type === 'user/message' && JSON.stringify(e.data).includes(CANARY))!
    const step = events.find((e) => e.type === 'assistant/message' && JSON.stringify(e.data).includes(`${CANARY} step text`))!
    const attachmentOf = (seq: number) => ((events[seq]!.data as any).content as any[]).find((b) => b.type === 'image').attachment.attachmentId as string
    const redId = attachmentOf(prompt.seq)
    const blueId = attachmentOf(events.find((e) => e.type === 'user/message' && JSON.stringify(e.data).includes('keep this prompt'))!.seq)
    for (const [id, seq] of [[sessionId, prompt.seq], [sessionId, step.seq], [child, childReply.seq]] as const) {
      const res = await fetch(`${host.url}/dsh-message-recall`, { method: 'POST', headers: { 'content-type': 'application/json', origin: host.url }, body: JSON.stringify({ action: 'delete', sessionId: id, seq }) })
      assert.equal(res.status, 200, await res.text())
    }

    const audit = await zipOf(await get(`/api/session.export?sessionId=${sessionId}&includeDescendants=true`))
    assert.deepEqual(audit.map((e) => e.path).sort(), ['session.jsonl', `subagents/${child}/session.jsonl`, `media/${blueId}.png`, `media/${redId}.png`].sort())
    assert.ok(audit.find((e) => e.path.startsWith('subagents/'))!.data.includes(CHILD_CANARY), 'DSH\'s archive keeps the subagent\'s removed reply')
    const auditLog = audit.find((e) => e.path === 'session.jsonl')!.data.toString('utf8')
    assert.ok(auditLog.includes(CANARY), 'DSH\'s own export keeps the removed text (an audit export)')

    const before = storedLog(sessionId)
    const res = await get(`/dsh-message-recall/export?sessionId=${sessionId}`)
    assert.equal(res.headers.get('content-disposition'), `attachment; filename="dsh-session-${sessionId}-without-removed.zip"`)
    const ours = await zipOf(res)
    assert.deepEqual(storedLog(sessionId), before, 'the export wrote nothing to the session')
    assert.deepEqual(ours.map((e) => e.path), ['session.jsonl', `subagents/${child}/session.jsonl`, `media/${blueId}.png`], 'DSH\'s layout and order, without the removed prompt\'s image')
    assert.deepEqual(ours[2]!.data, blue)
    const log = ours[0]!.data.toString('utf8')
    assert.deepEqual(log.split('\n').filter((line) => line.includes(CANARY)), [], 'no line of session.jsonl holds the canary')
    for (const entry of ours) assert.equal(entry.data.includes(CANARY), false, `${entry.path} holds no canary`)
    const childLog = ours[1]!.data.toString('utf8')
    assert.equal(childLog.includes(CHILD_CANARY), false, 'the subagent session is rewritten by its own removals')
    // The parent's `subagent` tool result holds the child's answer; the parent removed nothing there, so it stays.
    assert.ok(log.includes(CHILD_CANARY), 'a subagent answer removed in the subagent session stays in its parent\'s tool result')
    const auditChild = audit.find((e) => e.path.startsWith('subagents/'))!.data.toString('utf8')
    assert.deepEqual(eventsOfLogText(childLog).map((e) => [e.seq, e.type]), eventsOfLogText(auditChild).map((e) => [e.seq, e.type]))
    assert.deepEqual(foldSurface(eventsOfLogText(childLog) as never).nodes, foldSurface(eventsOfLogText(auditChild) as never).nodes)

    const auditEvents = eventsOfLogText(auditLog)
    const ourEvents = eventsOfLogText(log)
    assert.deepEqual(ourEvents.map((e) => [e.seq, e.type]), auditEvents.map((e) => [e.seq, e.type]))
    assert.deepEqual(foldSurface(ourEvents as never).nodes, foldSurface(auditEvents as never).nodes)
    // What carried the canary in DSH's archive, by type: each is still there, without it.
    const carriedBy = [...new Set(auditEvents.filter((e) => JSON.stringify(e).includes(CANARY)).map((e) => e.type))].sort()
    assert.deepEqual(carriedBy, ['agent/inbox/spliced', 'assistant/chunk', 'assistant/message', 'session/title', 'session/title-llm-request', 'tool/call', 'tool/result', 'user/message'])

    const loaded = await loadWithDshPersistence(log, sessionId)
    const source = await loadWithDshPersistence(auditLog, sessionId)
    assert.deepEqual(loaded.events.map((e) => [e.seq, e.type]), auditEvents.map((e) => [e.seq, e.type]))
    assert.deepEqual(loaded.derived, source.derived, 'the same messages derive from both')
    assert.equal(JSON.stringify(loaded.derived).includes(CANARY), false)

    // Bad input: a clear code, and nothing written to the session.
    assert.deepEqual(await refusal(await get('/dsh-message-recall/export?sessionId=session-nobody')), [404, { ok: false, error: { code: 'SESSION_NOT_FOUND', message: 'message-recall: no session "session-nobody" (neither open in this host nor stored)' } }])
    assert.deepEqual(await refusal(await get('/dsh-message-recall/export')), [400, { ok: false, error: { code: 'INVALID_REQUEST', message: 'message-recall: the query needs exactly one sessionId (got 0)' } }])
    assert.deepEqual(await refusal(await get(`/dsh-message-recall/export?sessionId=${sessionId}&sessionId=${sessionId}`)), [400, { ok: false, error: { code: 'INVALID_REQUEST', message: 'message-recall: the query needs exactly one sessionId (got 2)' } }])
    assert.deepEqual(await refusal(await get(`/dsh-message-recall/export?sessionId=${sessionId}&includeDescendants=true`)), [400, { ok: false, error: { code: 'INVALID_REQUEST', message: 'message-recall: unknown query parameter "includeDescendants" (allowed: sessionId)' } }])
    assert.deepEqual(await refusal(await get('/dsh-message-recall/export?sessionId=')), [400, { ok: false, error: { code: 'INVALID_REQUEST', message: 'message-recall: sessionId must be 1 to 512 characters' } }])
    assert.deepEqual(await refusal(await get('/dsh-message-recall/export?sessionId=%E0%A4%A')), [400, { ok: false, error: { code: 'INVALID_REQUEST', message: 'message-recall: the query is not valid percent-encoded UTF-8 ("sessionId=%E0%A4%A")' } }])
    assert.deepEqual(await refusal(await get(`/dsh-message-recall/export?sessionId=${'s'.repeat(513)}`)), [400, { ok: false, error: { code: 'INVALID_REQUEST', message: 'message-recall: sessionId must be 1 to 512 characters' } }])
    const post = await get(`/dsh-message-recall/export?sessionId=${sessionId}`, { method: 'POST' })
    assert.equal(post.headers.get('allow'), 'GET')
    assert.deepEqual(await refusal(post), [405, { ok: false, error: { code: 'METHOD_NOT_ALLOWED', message: 'message-recall: method POST is not allowed; use GET' } }])
    assert.deepEqual(await refusal(await get(`/dsh-message-recall/export?sessionId=${sessionId}`, { headers: { origin: 'http://example.com' } })), [403, { ok: false, error: { code: 'FORBIDDEN', message: `message-recall: Origin "http://example.com" is not the same origin as Host "${new URL(host.url).host}"` } }])
    assert.deepEqual(storedLog(sessionId), before, 'no refused export wrote to the session')

    // A turn that is writing the session: AGENT_BUSY, at once.
    model.script([{ slow: 'a slow answer that streams for a while', chunkSize: 2, chunkDelayMs: 200 }])
    await send('a slow one')
    const deadline = Date.now() + 30_000
    while (!(await history(host.url, sessionId)).some((e) => e.type === 'assistant/chunk' && (e.data as any).turn === 5)) {
      assert.ok(Date.now() < deadline, 'turn 5 streams')
      await new Promise((r) => setTimeout(r, 50))
    }
    assert.deepEqual(await refusal(await get(`/dsh-message-recall/export?sessionId=${sessionId}`)), [423, { ok: false, error: { code: 'AGENT_BUSY', message: `message-recall: session "${sessionId}" is busy: agent "${sessionId}" already has active work` } }])
    await waitForTurnEnds(host.url, sessionId, 5)
    const after = await zipOf(await get(`/dsh-message-recall/export?sessionId=${sessionId}`))
    assert.ok(after[0]!.data.toString('utf8').includes('a slow one'), 'once the turn ended, the export holds it')
  })

  it('scrubs an Open-a-copy descendant\'s seed by the source\'s removals: the recalled prompt is in no entry', async () => {
    const COPY_CANARY = 'COPYCANARY-q7z2'
    const sessionId = await createSession(host.url, workspaceDir)
    const send = (text: string) => rpc(host.url, 'session.prompt', { sessionId, mode: 'queue', content: [{ type: 'text', text }] })
    model.script([{ text: 'first answer' }])
    await send(`${COPY_CANARY} recalled prompt`)
    await waitForTurnEnds(host.url, sessionId, 1)
    model.script([{ text: 'second answer' }])
    await send('a prompt that stays')
    await waitForTurnEnds(host.url, sessionId, 2)
    const prompt = (await history(host.url, sessionId)).find((e) => e.type === 'user/message' && JSON.stringify(e.data).includes(COPY_CANARY))!
    const post = async (body: object) => {
      const res = await fetch(`${host.url}/dsh-message-recall`, { method: 'POST', headers: { 'content-type': 'application/json', origin: host.url }, body: JSON.stringify(body) })
      const text = await res.text()
      assert.equal(res.status, 200, text)
      return JSON.parse(text).value
    }
    const recalled = await post({ action: 'recall', sessionId, seq: prompt.seq })
    const copy = (await post({ action: 'forkBefore', sessionId, tombstoneSeq: recalled.tombstoneSeq })).forkedSessionId as string

    const audit = await zipOf(await get(`/api/session.export?sessionId=${sessionId}&includeDescendants=true`))
    const auditCopy = audit.find((e) => e.path === `subagents/${copy}/session.jsonl`)
    assert.ok(auditCopy, `DSH's archive includes the copy as a descendant: ${audit.map((e) => e.path)}`)
    assert.ok(auditCopy.data.includes(COPY_CANARY), 'the copy holds the recalled prompt (it is from before the recall)')

    const ours = await zipOf(await get(`/dsh-message-recall/export?sessionId=${sessionId}`))
    assert.deepEqual(ours.map((e) => e.path), ['session.jsonl', `subagents/${copy}/session.jsonl`], 'DSH\'s layout')
    for (const entry of ours) assert.equal(entry.data.includes(COPY_CANARY), false, `${entry.path} holds no recalled text`)
    const copyLog = ours[1]!.data.toString('utf8')
    const auditCopyLog = auditCopy.data.toString('utf8')
    assert.equal(copyLog.split('\n')[0], auditCopyLog.split('\n')[0], 'the copy\'s header as stored')
    assert.deepEqual(eventsOfLogText(copyLog).map((e) => [e.seq, e.type]), eventsOfLogText(auditCopyLog).map((e) => [e.seq, e.type]), 'every event of the copy kept')
    assert.ok(copyLog.includes('a prompt that stays') === auditCopyLog.includes('a prompt that stays'), 'what the copy holds besides the removed prompt stays')
    assert.ok(copyLog.includes('first answer'), 'the answer the source kept stays in the copy')
  })
})
