/**
 * End to end, in the real rc.8 web host and headless Chromium: a compaction summary written before
 * a removal of messages it holds (the order that leaked). Two turns, `/compact` (the mock model's
 * summary holds a canary), a third turn; then, with the host stopped, a tombstone of this plugin is
 * appended to the stored log as a log written before the summary rewrite existed has it: it
 * replaces the third prompt and also cites the folded canary prompt and its answer. After the
 * restart the summary's row says "This summary was written before you removed 2 messages" with
 * **Rewrite summary**, which names the model call's cost, rewrites the summary without them (the
 * summarization request lacks the canary), clears the flag, and the next model request's summary
 * lacks the canary. The Removed panel says the same before, and lists the rewrite after, whose Undo
 * brings the earlier summary back, flagged again.
 */
import assert from 'node:assert/strict'
import { appendFileSync } from 'node:fs'
import { constants, zstdCompressSync } from 'node:zlib'
import { after, before, describe } from 'node:test'
import type { Page } from 'puppeteer-core'
import { createUserMessage } from '@deepseek-ai/dsh-llm'
import { findSessionDir, listSessions } from '../../tools/dsh-api'
import { resolveSessionLog } from '../../src/log/log-file'
import { tombstoneSource } from '../../src/shared/tombstone'
import { bootE2e, eventsOnDisk, sequentialScenarios, waitForDisk, type E2e } from './harness'
import { closePanel, openPanel } from './removals-ui'
import { findRow, openApp, openSessionFromSidebar, sendPrompt, startTurns, waitForChatText, waitForTurnBars, waitRowHidden } from './ui'

const TITLE = 'Summary flag trial chat'
const FILLER = ' Keep every detail of this request in mind for the rest of the work, including the names, the numbers and the order of the steps.'
const P1 = `Write down the secret code word CANARY-6632 for later.${FILLER}`
const A1 = `Noted: the code word is recorded.${FILLER}`
const P2 = `Now list the three launch steps in order.${FILLER}`
const A2 = `First test, then stage, then ship.${FILLER}`
const SUMMARY = 'The user gave the code word CANARY-6632 and asked for launch steps.'
const P3 = 'Which launch step comes second?'
const A3 = 'Staging comes second.'
const SUMMARY2 = 'The user asked for the three launch steps in order.'
const P4 = 'And which comes last?'
const A4 = 'Shipping comes last.'
const FLAG = '[data-message-recall-summary-flag]'

let e: E2e
let page: Page
let sessionId = ''
const scenario = sequentialScenarios(() => e)

/** The seq of the user message of the person whose text starts with `text`. */
function promptSeq(events: readonly { seq: number; type: string; data: unknown }[], text: string): number {
  const hit = events.find((ev) => ev.type === 'user/message' && JSON.stringify(ev.data).includes(text.slice(0, 40)) && (ev.data as { source?: { kind?: string } }).source?.kind === 'user')
  assert.ok(hit, `the prompt ${JSON.stringify(text.slice(0, 40))} on disk`)
  return hit.seq
}

describe('a summary written before a removal, in the real DSH web UI', { timeout: 900_000 }, () => {
  before(async () => {
    e = await bootE2e('summary-flag', { title: TITLE })
    page = await e.newPage()
  }, { timeout: 600_000 })

  after(async () => {
    await e?.close()
  })

  scenario('1. /compact folds the first two turns into a summary holding the canary; a third turn follows', async () => {
    e.model.script([{ text: A1 }, { text: A2 }, { text: SUMMARY }, { text: A3 }])
    await startTurns(page, e.url, e.workspace, [P1, P2])
    sessionId = (await listSessions(e.url))[0]!.sessionId
    await sendPrompt(page, '/compact')
    await waitForDisk(e.home, sessionId, (events) => events.some((ev) => ev.type === 'compaction/end' && (ev.data as { error?: unknown }).error === undefined), 'a successful compaction/end', 60_000)
    await sendPrompt(page, P3)
    await waitForTurnBars(page, 3)
    const events = await waitForDisk(e.home, sessionId, (evs) => evs.at(-1)?.type === 'turn/end' && evs.some((ev) => JSON.stringify(ev.data).includes(A3)), 'the third turn')
    assert.equal(JSON.stringify(events.find((ev) => ev.type === 'compaction/summary')!.data).includes('CANARY-6632'), true, 'the summary holds the canary')
  })

  scenario('2. a removal written after the compaction (an old log\'s order): the summary\'s row says what it still holds', async () => {
    await e.restartHost(async () => {
      const events = await eventsOnDisk(e.home, sessionId)
      const p1 = promptSeq(events, P1)
      const a1 = events.find((ev) => ev.type === 'assistant/message' && JSON.stringify(ev.data).includes(A1.slice(0, 30)))!.seq
      const p3 = promptSeq(events, P3)
      const seq = events.at(-1)!.seq + 1
      const message = createUserMessage({ content: [], source: tombstoneSource('delete', [p1, a1, p3]) as never })
      const line = JSON.stringify({ seq, time: Date.now(), type: 'user/message', data: message, surfaceOp: { op: 'replace', start: p3, end: p3 }, sourceEventSeqs: [p1, a1, p3] })
      const log = await resolveSessionLog(findSessionDir(e.home, sessionId)!)
      assert.equal(log.format, 'zstd')
      // One more zstd frame, as the backend writes each durable batch.
      appendFileSync(log.path, zstdCompressSync(Buffer.from(`${line}\n`, 'utf8'), { params: { [constants.ZSTD_c_checksumFlag]: 1 } }))
    })
    await openApp(page, e.url)
    await openSessionFromSidebar(page, TITLE)
    const flag = await page.waitForSelector(FLAG, { timeout: 30_000 })
    const seen = await flag!.evaluate((el) => {
      const row = el.closest('[data-chat-flow-key]')
      const rewrite = el.querySelector('[data-message-recall-summary-flag-action="rewrite"]') as HTMLButtonElement
      return {
        kind: row?.getAttribute('data-chat-flow-kind'), role: el.getAttribute('role'),
        text: el.querySelector('[data-message-recall-summary-flag-text]')?.textContent,
        button: [rewrite.tagName, rewrite.type, rewrite.textContent, rewrite.getAttribute('aria-label')],
      }
    })
    assert.deepEqual(seen, {
      kind: 'manual-compaction', role: 'note', text: 'This summary was written before you removed 2 messages',
      button: ['BUTTON', 'button', 'Rewrite summary', 'Rewrite this summary from the original messages without the 2 removed messages (model call)'],
    })
    await e.shot(page, '01-flagged-summary')

    // The Removed panel says the same, first, with its own Rewrite summary.
    await openPanel(page)
    const note = await page.$eval('[data-message-recall-panel-flag]', (el) => {
      const b = el.querySelector('[data-message-recall-summary-flag-action="rewrite"]') as HTMLButtonElement
      return { role: el.getAttribute('role'), text: el.querySelector('p')?.textContent, button: [b.tagName, b.textContent, b.getAttribute('aria-label')] }
    })
    assert.deepEqual(note, {
      role: 'note', text: 'This summary was written before you removed 2 messages',
      button: ['BUTTON', 'Rewrite summary', 'Rewrite this summary from the original messages without the 2 removed messages (model call)'],
    })
    await e.shot(page, '01b-panel-flag')
    await closePanel(page)
  })

  scenario('3. Rewrite summary, by keyboard: the confirm names the cost; the summary is made without the canary, the flag goes, the next request lacks it', async () => {
    const calls = e.model.requests.length
    e.model.script([{ text: SUMMARY2 }, { text: A4 }])
    // The flag's row can be drawn again by a pass (a new history page, the sidebar's relist) just
    // before this scenario starts: focus the button once it is there.
    await page.waitForSelector(`${FLAG} [data-message-recall-summary-flag-action="rewrite"]`, { visible: true, timeout: 15_000 })
    await page.focus(`${FLAG} [data-message-recall-summary-flag-action="rewrite"]`)
    await page.keyboard.press('Enter')
    await page.waitForFunction((sel) => document.querySelector(sel)?.getAttribute('data-armed') === 'true', { timeout: 10_000, polling: 50 }, `${FLAG} [data-message-recall-summary-flag-action="rewrite"]`)
    const armed = await page.$eval(`${FLAG} [data-message-recall-summary-flag-action="rewrite"]`, (b) => [b.textContent, b.getAttribute('aria-label')])
    const match = /^Rewrite the summary\? \(model call, ~([\d,]+) tokens\)$/.exec(armed[0] ?? '')
    assert.ok(match, String(armed[0]))
    assert.equal(armed[1], `Click again to have the model write the summary again from the original messages without the removed ones, from about ${match[1]} input tokens`)
    assert.equal(e.model.requests.length, calls, 'the confirm makes no model call')
    await e.shot(page, '02-confirm')
    await page.keyboard.press('Enter')
    await page.waitForFunction((sel) => document.querySelector(sel) === null, { timeout: 60_000, polling: 50 }, FLAG)
    const summarizer = JSON.stringify(e.model.requests[calls]!.body.messages)
    assert.equal(summarizer.includes('CANARY-6632'), false, 'the summarization request lacks the canary')
    assert.equal(summarizer.includes('Noted: the code word'), false, 'and the removed answer')
    assert.equal(summarizer.includes('Now list the three launch steps'), true, 'and holds the kept prompt')
    const events = await eventsOnDisk(e.home, sessionId)
    const checkpoint = events.at(-2)!
    const p1 = promptSeq(events, P1)
    const a1 = events.find((ev) => ev.type === 'assistant/message' && JSON.stringify(ev.data).includes(A1.slice(0, 30)))!.seq
    assert.deepEqual((checkpoint.data as { source: { messageRecall: unknown } }).source.messageRecall, { removals: [{ action: 'delete', seqs: [p1, a1] }] })
    const prompt = await findRow(page, 'user', P1).catch(() => null)
    if (prompt !== null) await waitRowHidden(page, prompt.key)
    await e.shot(page, '03-rewritten')
    await sendPrompt(page, P4)
    await waitForChatText(page, A4)
    const next = JSON.stringify(e.model.requests.at(-1)!.body.messages)
    assert.equal(next.includes('CANARY-6632'), false, 'the next request lacks the canary')
    assert.equal(next.includes(SUMMARY2), true, 'and reads the new summary')
    assert.equal(await page.$(FLAG), null, 'no flag afterwards')
  })

  scenario('4. the Removed panel lists the rewrite; its Undo puts the earlier summary back, and the flag with it', async () => {
    await openPanel(page)
    const rewrite = await page.$eval('[data-message-recall-rewrite]', (el) => ({
      meta: [...(el.querySelector('[data-message-recall-entry-meta]')?.children ?? [])].slice(1).map((c) => c.textContent),
      undo: [...el.querySelectorAll('[data-message-recall-entry-action="undoRewrite"]')].map((b) => [b.tagName, b.textContent, b.getAttribute('aria-label')]),
    }))
    assert.deepEqual(rewrite, { meta: ['Summary rewritten', '2 messages left out of the summary'], undo: [['BUTTON', 'Undo', 'Undo this rewrite: put the earlier summary back']] })
    assert.equal(await page.$('[data-message-recall-panel-flag]'), null, 'no flag in the panel')
    await e.shot(page, '04-panel-rewrite')
    const calls = e.model.requests.length
    await page.click('[data-message-recall-rewrite] [data-message-recall-entry-action="undoRewrite"]')
    await page.waitForSelector('[data-message-recall-panel-flag]', { timeout: 15_000 })
    assert.equal(await page.$eval('[data-message-recall-panel-flag] p', (el) => el.textContent), 'This summary was written before you removed 2 messages')
    assert.equal(e.model.requests.length, calls, 'Undo makes no model call')
    await closePanel(page)
    await page.waitForSelector(FLAG, { timeout: 15_000 })
  })
})
