/**
 * End to end, in the real rc.8 web host and headless Chromium: the session header's "Session log
 * without removed messages" button beside DSH's own Session log button. A canary prompt and the
 * answer that read a canary file are deleted with the row buttons; the button downloads the
 * archive through the browser's download manager; the archive holds no canary anywhere, its
 * `session.jsonl` has every event of the stored log and loads with DSH's own JSONL backend (and
 * resumes with the invariant companions). DSH's own button is still there.
 */
import assert from 'node:assert/strict'
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { after, before, describe } from 'node:test'
import type { Page } from 'puppeteer-core'
import { listSessions } from '../../tools/dsh-api'
import { exportEn } from '../../src/client/export/export-locales'
import { eventsOfLogText, loadWithDshPersistence } from '../support/export-archive'
import { readZip } from '../support/zip-read'
import { bootE2e, eventsOnDisk, sequentialScenarios, type E2e } from './harness'
import { clickAction, findRow, startTurns, waitArmed, waitInPage, waitRowHidden } from './ui'

const CANARY = 'CANARY-w7q2'
const P1 = `Remember ${CANARY} for me`
const A1 = 'Remembered.'
const P2 = 'Read the secret notes please.'
const A2_TEXT = 'Reading the secret notes.'
const A2_FINAL = 'Done reading.'

let e: E2e
let page: Page
let sessionId = ''

const scenario = sequentialScenarios(() => e)

async function deleteRow(key: string): Promise<void> {
  await clickAction(page, key, 'delete')
  await waitArmed(page, key, 'delete')
  await clickAction(page, key, 'delete')
  await waitRowHidden(page, key)
}

describe('the export without removed messages in the real DSH web UI', { timeout: 1_800_000 }, () => {
  before(async () => {
    e = await bootE2e('export')
    page = await e.newPage()
  }, { timeout: 600_000 })

  after(async () => {
    await e?.close()
  })

  scenario('1. delete a canary prompt and a step that read a canary file, then download the export: no canary, every event, DSH loads it', async () => {
    const canaryFile = join(e.workspace, `${CANARY}.txt`)
    writeFileSync(canaryFile, `${CANARY} is written in this file\n`)
    e.model.script([{ text: A1 }, { text: A2_TEXT, toolCalls: [{ name: 'read', arguments: { file_path: canaryFile } }] }, { text: A2_FINAL }])
    await startTurns(page, e.url, e.workspace, [P1, P2])
    sessionId = (await listSessions(e.url))[0]!.sessionId
    await deleteRow((await findRow(page, 'user', P1)).key)
    await deleteRow((await findRow(page, 'assistant-step', A2_TEXT)).key)

    const downloads = join(e.dir, 'downloads')
    const cdp = await page.createCDPSession()
    await cdp.send('Browser.setDownloadBehavior', { behavior: 'allow', downloadPath: downloads })
    const label = exportEn['button.label']
    const button = `button[aria-label="${label}"]`
    await page.waitForSelector(button, { timeout: 30_000 })
    const header = await page.$eval(button, (b) => ({ text: b.textContent, tag: b.tagName, type: b.getAttribute('type'), dsh: [...b.closest('[data-message-recall-export]')!.parentElement!.ownerDocument.querySelectorAll('button')].some((other) => other.textContent?.trim() === 'Session log') }))
    assert.deepEqual(header, { text: exportEn.button, tag: 'BUTTON', type: 'button', dsh: true }, 'the button, with DSH\'s own Session log button still in the page')
    await page.focus(button)
    await page.keyboard.press('Enter')
    const file = `dsh-session-${sessionId}-without-removed.zip`
    await waitInPage(page, 'the download started', () => document.querySelector('[data-message-recall-export-status="started"]') !== null)
    const status = await page.$eval('[data-message-recall-export-status]', (s) => s.textContent)
    assert.equal(status, exportEn.started.replace('{file}', file))
    const deadline = Date.now() + 30_000
    while (!existsSync(join(downloads, file)) || readdirSync(downloads).some((f) => f.endsWith('.crdownload'))) {
      assert.ok(Date.now() < deadline, `the browser saved ${file}: ${existsSync(downloads) ? readdirSync(downloads).join(', ') : 'no downloads folder'}`)
      await new Promise((r) => setTimeout(r, 100))
    }
    await e.shot(page, '01-export-downloaded')

    const entries = readZip(readFileSync(join(downloads, file)))
    assert.deepEqual(entries.map((entry) => entry.path), ['session.jsonl'])
    for (const entry of entries) assert.equal(entry.data.includes(CANARY), false, `${entry.path} holds no canary`)
    const log = entries[0]!.data.toString('utf8')
    const stored = await eventsOnDisk(e.home, sessionId)
    assert.ok(stored.some((event) => JSON.stringify(event).includes(CANARY)), 'the session log itself still holds it')
    assert.deepEqual(eventsOfLogText(log).map((event) => [event.seq, event.type]), stored.map((event) => [event.seq, event.type]))
    const loaded = await loadWithDshPersistence(log, sessionId)
    assert.equal(loaded.events.length, stored.length)
    assert.equal(JSON.stringify(loaded.derived).includes(CANARY), false)
  })
})
