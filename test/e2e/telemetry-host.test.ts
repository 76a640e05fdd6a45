/**
 * Telemetry in feedback-only mode on the pinned DSH 0.1.0-rc.8 web host (`dsh web` with this plugin
 * added, DSH's mock model on loopback, the conversation and `/feedback` typed in the web UI in
 * headless Chromium), with the host's own telemetry backend
 * (`dsh-session-telemetry-otel`, `DSH_TELEMETRY_MODE=FEEDBACK_ONLY`) exporting OTLP/HTTP logs to a
 * local sink on 127.0.0.1: a canary prompt is deleted, then `/feedback` releases the session's
 * records. The sink receives the records of every event, the deleted prompt's among them, and
 * the canary in none: the plugin's `session-telemetry/record` listener left it out.
 */
import assert from 'node:assert/strict'
import { createServer, type Server } from 'node:http'
import { mkdirSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import { gunzipSync } from 'node:zlib'
import { addPlugin, ensureHostInstalled, startHost, type RunningHost } from '../../tools/dsh-host'
import type { Browser } from 'puppeteer-core'
import { launchChromium } from '../../tools/chromium'
import { history, listSessions } from '../../tools/dsh-api'
import { startMockModel, type MockModel } from '../../tools/mock-model'
import { REMOVED_CONTENT_MARKER } from '../../src/shared/removed-content'
import { ARTIFACTS } from './harness'
import { chooseWorkspace, openApp, sendPrompt, waitForTurnBars } from './ui'

const CANARY = 'CANARY-t3l5'

describe('telemetry in feedback-only mode on the rc.8 web host', { timeout: 600_000 }, () => {
  const dir = join(ARTIFACTS, 'telemetry-host')
  const home = join(dir, 'home')
  const workspaceDir = join(dir, 'workspace')
  const received: string[] = []
  let sink: Server
  let sinkUrl = ''
  let model: MockModel
  let host: RunningHost | undefined
  let browser: Browser | undefined

  before(async () => {
    ensureHostInstalled({ log: (l) => process.stderr.write(`[e2e] ${l}\n`) })
    rmSync(dir, { recursive: true, force: true })
    mkdirSync(workspaceDir, { recursive: true })
    addPlugin({ dshHome: home })
    sink = createServer((req, res) => {
      const chunks: Buffer[] = []
      req.on('data', (c: Buffer) => chunks.push(c))
      req.on('end', () => {
        const raw = Buffer.concat(chunks)
        received.push((req.headers['content-encoding'] === 'gzip' ? gunzipSync(raw) : raw).toString('utf8'))
        res.writeHead(200, { 'content-type': 'application/json' })
        res.end('{}')
      })
    })
    await new Promise<void>((resolve) => sink.listen(0, '127.0.0.1', resolve))
    sinkUrl = `http://127.0.0.1:${(sink.address() as { port: number }).port}/v1/logs`
    model = await startMockModel()
    host = await startHost({
      dshHome: home, port: 0, model, logFile: join(dir, 'host.log'),
      env: { DSH_TELEMETRY_DISABLED: '', DSH_TELEMETRY_MODE: 'FEEDBACK_ONLY', DSH_TELEMETRY_OTLP_URL: sinkUrl },
    })
  })
  after(async () => {
    await browser?.close().catch(() => {})
    await host?.stop().catch(() => {})
    await model?.close().catch(() => {})
    await new Promise((resolve) => sink?.close(resolve))
  })

  it('sends the records of /feedback without the content of a deleted prompt', async () => {
    const url = host!.url
    browser = (await launchChromium({ userDataDir: join(dir, 'chromium-profile'), defaultViewport: { width: 1400, height: 900 }, protocolTimeout: 60_000 })).browser
    const page = await browser.newPage()
    model.script([{ text: 'first answer' }, { text: 'second answer' }])
    await openApp(page, url)
    await chooseWorkspace(page, workspaceDir)
    await sendPrompt(page, `${CANARY} is my secret`)
    await waitForTurnBars(page, 1)
    await sendPrompt(page, 'a second prompt that stays')
    await waitForTurnBars(page, 2)
    const sessionId = (await listSessions(url))[0]!.sessionId
    const target = (await history(url, sessionId)).find((e) => e.type === 'user/message' && JSON.stringify(e.data).includes(CANARY))!
    const res = await fetch(`${url}/dsh-message-recall`, { method: 'POST', headers: { 'content-type': 'application/json', origin: url }, body: JSON.stringify({ action: 'delete', sessionId, seq: target.seq }) })
    assert.equal(res.status, 200, await res.text())
    assert.equal(received.length, 0, 'feedback-only mode sent nothing yet')

    await sendPrompt(page, '/feedback the answers were fine')
    const deadline = Date.now() + 60_000
    while (!(await history(url, sessionId)).some((e) => e.type === 'feedback/record')) {
      assert.ok(Date.now() < deadline, 'the feedback is recorded')
      await new Promise((r) => setTimeout(r, 100))
    }
    // Stopping the host drains the exporter's batch (shutdown flushes it).
    await host!.stop()
    host = undefined
    const all = received.join('\n')
    assert.ok(all.includes('feedback/record'), `the sink received the feedback release: ${received.length} request(s)`)
    assert.ok(all.includes('a second prompt that stays'), 'records of kept messages are sent whole')
    assert.ok(all.includes(REMOVED_CONTENT_MARKER), 'the deleted prompt\'s records are sent, without their content')
    assert.equal(all.includes(CANARY), false, 'no record holds the canary')
  })
})
