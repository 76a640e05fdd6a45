/**
 * Erase for good on the pinned DSH 0.1.0-rc.8 web host (`dsh web` with this plugin added, DSH's
 * mock model on loopback; no browser): a canary prompt with an image and a tool step whose
 * arguments and result hold the canary are deleted; while the host holds the session open, the
 * route's `erase` is refused and changes nothing; after a restart (the session stored, not open)
 * each removal is erased through the route; then:
 * - the built `scan --text` finds the canary nowhere under the DSH home nor in DSH's tool output
 *   folders;
 * - DSH's own Session log export (`GET /api/session.export`, `dsh-host-apiproxy`) holds no canary
 *   and not the removed prompt's image, and `session.attachment` no longer serves that image;
 * - the session opens again and runs a real turn, whose model request holds no canary;
 * - a second erase of the same removal is refused (`ALREADY_ERASED`).
 */
import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import { rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import { startHost, type RunningHost } from '../../tools/dsh-host'
import { createSession, history, rpc, waitForTurnEnds } from '../../tools/dsh-api'
import type { MockModel } from '../../tools/mock-model'
import { onePixelPng } from '../support/export-archive'
import { readZip } from '../support/zip-read'
import { hostFolders, startImageHost } from './harness'

const CANARY = 'CANARY-erase-host-7q2w'
const TOOL = join(import.meta.dirname, '..', '..', 'lib', 'scripts', 'dsh-message-recall-log.js')

describe('erase for good on the rc.8 web host', { timeout: 600_000 }, () => {
  const folders = hostFolders('erase-host')
  const { dir, home, workspaceDir } = folders
  let model: MockModel
  let host: RunningHost

  before(async () => {
    ({ model, host } = await startImageHost(folders))
  })
  after(async () => {
    await host?.stop().catch(() => {})
    await model?.close().catch(() => {})
  })

  /** POST one body to the plugin's route; answers the status and the parsed reply. */
  const route = async (body: object): Promise<[number, any]> => {
    const res = await fetch(`${host.url}/dsh-message-recall`, { method: 'POST', headers: { 'content-type': 'application/json', origin: host.url }, body: JSON.stringify(body) })
    return [res.status, await res.json()]
  }
  /** The built log tool's `scan --text CANARY` over the DSH home. */
  const scan = () => {
    const run = spawnSync(process.execPath, [TOOL, 'scan', home, '--text', CANARY, '--json'], { encoding: 'utf8' })
    return { status: run.status, hits: (JSON.parse(run.stdout).hits as Array<{ path: string }>).map((h) => h.path.slice(home.length + 1).split('/')[0]) }
  }

  it('is refused while the host holds the session, erases after a restart, and leaves the text nowhere on disk nor in DSH\'s export', async () => {
    const sessionId = await createSession(host.url, workspaceDir)
    const red = onePixelPng([255, 0, 0])
    const canaryFile = join(workspaceDir, `${CANARY}-notes.txt`)
    writeFileSync(canaryFile, `${CANARY} tool output line\n`)
    const send = (text: string, image?: Buffer) => rpc(host.url, 'session.prompt', {
      sessionId, mode: 'queue', content: [{ type: 'text', text }, ...(image ? [{ type: 'image', mediaType: 'image/png', data: image.toString('base64') }] : [])],
    })
    model.script([{ text: 'first answer' }])
    await send(`${CANARY} secret first prompt`, red)
    await waitForTurnEnds(host.url, sessionId, 1)
    model.script([{ text: 'reading it', toolCalls: [{ name: 'read', arguments: { file_path: canaryFile } }] }, { text: 'the file is read' }])
    await send('read the notes please')
    await waitForTurnEnds(host.url, sessionId, 2)
    model.script([{ text: 'third answer' }])
    await send('keep this prompt')
    await waitForTurnEnds(host.url, sessionId, 3)
    // The workspace file is the person's own, outside the DSH home: it is not the session's to erase.
    rmSync(canaryFile)

    const events = await history(host.url, sessionId)
    const prompt = events.find((e) => e.type === 'user/message' && JSON.stringify(e.data).includes(CANARY))!
    const step = events.find((e) => e.type === 'assistant/message' && JSON.stringify(e.data).includes(CANARY))!
    const redId = ((prompt.data as any).content as any[]).find((b) => b.type === 'image').attachment.attachmentId as string
    const tombstones: number[] = []
    for (const seq of [prompt.seq, step.seq]) {
      const [status, reply] = await route({ action: 'delete', sessionId, seq })
      assert.equal(status, 200, JSON.stringify(reply))
      tombstones.push(reply.value.tombstoneSeq)
    }
    assert.ok(scan().hits.includes('sessions'), 'before the erase the session log holds the canary')
    const served = () => rpc(host.url, 'session.attachment', { sessionId, attachmentId: redId }).then(() => 'served', (error: unknown) => String(error))
    assert.equal(await served(), 'served', 'a removal keeps the image: DSH still serves it')

    const [openStatus, open] = await route({ action: 'erase', sessionId, tombstoneSeq: tombstones[0] })
    assert.equal(openStatus, 409)
    assert.equal(open.error.code, 'NOT_ERASABLE')
    assert.equal(open.error.reason, 'session-open')
    assert.ok(scan().hits.includes('sessions'), 'a refused erase changes nothing')

    await host.stop()
    host = await startHost({ dshHome: home, port: 0, model, logFile: join(dir, 'host.log') })
    for (const tombstoneSeq of tombstones) {
      const [status, reply] = await route({ action: 'erase', sessionId, tombstoneSeq })
      assert.equal(status, 200, JSON.stringify(reply))
      assert.equal(reply.value.tombstoneSeq, tombstoneSeq)
    }
    const left = scan()
    assert.deepEqual(left, { status: 0, hits: [] }, 'nothing under the DSH home or in DSH\'s tool output folders holds the canary')
    const [againStatus, again] = await route({ action: 'erase', sessionId, tombstoneSeq: tombstones[0] })
    assert.equal(againStatus, 409)
    assert.equal(again.error.reason, 'ALREADY_ERASED')

    const res = await fetch(`${host.url}/api/session.export?sessionId=${sessionId}`, { headers: { origin: host.url } })
    assert.equal(res.status, 200, res.status === 200 ? '' : await res.clone().text())
    const archive = readZip(Buffer.from(await res.arrayBuffer()))
    assert.deepEqual(archive.map((e) => e.path), ['session.jsonl'], 'DSH\'s archive holds the log and no image: the only one was the erased prompt\'s')
    assert.equal(archive[0]!.data.includes(CANARY), false, 'DSH\'s own export holds no canary')
    assert.notEqual(await served(), 'served', 'the erased image is no longer served')

    model.script([{ text: 'fourth answer' }])
    await send('one more question')
    await waitForTurnEnds(host.url, sessionId, 4)
    const last = model.requests.at(-1)!
    assert.equal(JSON.stringify(last).includes(CANARY), false, 'the next model request holds no canary')
    assert.ok(JSON.stringify(last).includes('keep this prompt'), 'the kept prompt is still in the context')
  })
})
