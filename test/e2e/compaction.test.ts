/**
 * End to end, in the real rc.8 web host and headless Chromium: messages a compaction folded.
 * Two turns, then `/compact` (DSH's `dsh-command-compact` → `dsh-compaction-basic` `compactNow`;
 * the mock model answers the summarizer with a summary holding a canary). The folded prompt's row
 * is marked as summarized while pointed at and offers no removal button, so nothing claims it is
 * "no longer in the conversation".
 */
import assert from 'node:assert/strict'
import { after, before, describe } from 'node:test'
import type { Page } from 'puppeteer-core'
import { listSessions } from '../../tools/dsh-api'
import { bootE2e, eventsOnDisk, sequentialScenarios, type E2e } from './harness'
import { chooseWorkspace, findRow, hoverRow, openApp, rowSelector, sendPrompt, waitForTurnBars } from './ui'

const TITLE = 'Compaction trial chat'
const FILLER = ' Keep every detail of this request in mind for the rest of the work, including the names, the numbers and the order of the steps.'
const P1 = `Write down the secret code word CANARY-4417 for later.${FILLER}`
const A1 = `Noted: the code word is recorded.${FILLER}`
const P2 = `Now list the three launch steps in order.${FILLER}`
const A2 = `First test, then stage, then ship.${FILLER}`
const SUMMARY = 'The user gave the code word CANARY-4417 and asked for launch steps.'

let e: E2e
let page: Page
let sessionId = ''
const scenario = sequentialScenarios(() => e)

describe('folded messages in the real DSH web UI', { timeout: 900_000 }, () => {
  before(async () => {
    e = await bootE2e('compaction', { title: TITLE })
    page = await e.newPage()
  }, { timeout: 600_000 })

  after(async () => {
    await e?.close()
  })

  scenario('1. /compact folds the first turn into a summary holding the canary', async () => {
    e.model.script([{ text: A1 }, { text: A2 }, { text: SUMMARY }])
    await openApp(page, e.url)
    await chooseWorkspace(page, e.workspace)
    await sendPrompt(page, P1)
    await waitForTurnBars(page, 1)
    await sendPrompt(page, P2)
    await waitForTurnBars(page, 2)
    sessionId = (await listSessions(e.url))[0]!.sessionId
    await sendPrompt(page, '/compact')
    const deadline = Date.now() + 60_000
    let checkpoint: number | null = null
    while (checkpoint === null && Date.now() < deadline) {
      const events = await eventsOnDisk(e.home, sessionId)
      const found = events.find((ev) => ev.type === 'compaction/end' && (ev.data as { error?: unknown }).error === undefined)
      if (found !== undefined) checkpoint = found.seq
      else await page.waitForNetworkIdle({ idleTime: 200, timeout: 5_000 }).catch(() => {})
    }
    assert.notEqual(checkpoint, null, 'a successful compaction/end on disk')
    const events = await eventsOnDisk(e.home, sessionId)
    const summary = events.find((ev) => ev.type === 'compaction/summary')!
    assert.equal(JSON.stringify(summary.data).includes('CANARY-4417'), true, 'the summary holds the canary')
  })

  scenario('2. the folded prompt is marked as summarized and offers no removal button', async () => {
    const row = await findRow(page, 'user', P1)
    await page.waitForFunction((sel) => document.querySelector(sel)?.hasAttribute('data-message-recall-folded') === true,
      { timeout: 15_000, polling: 100 }, rowSelector(row.key))
    const cluster = await hoverRow(page, row.key)
    assert.deepEqual(cluster, { present: false, visible: false, buttons: [] })
    const badge = await page.$eval(`${rowSelector(row.key)} > [data-message-recall-folded-badge]`, (el) => ({
      text: el.textContent, width: (el as HTMLElement).getBoundingClientRect().width,
    }))
    assert.equal(badge.text, 'Summarized: the model reads the compaction summary, not this message')
    assert.equal(badge.width > 1, true, 'the label shows while the row is pointed at')
    await e.shot(page, '01-folded-row')
    const answer = await findRow(page, 'assistant-step', A1)
    assert.equal(await page.$eval(rowSelector(answer.key), (el) => el.hasAttribute('data-message-recall-folded')), true)
  })
})
