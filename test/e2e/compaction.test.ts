/**
 * End to end, in the real rc.8 web host and headless Chromium: messages a compaction folded.
 * Two turns, then `/compact` (DSH's `dsh-command-compact` → `dsh-compaction-basic` `compactNow`;
 * the mock model answers the summarizer with a summary holding a canary). The folded prompt's row
 * is marked as summarized while pointed at and offers Delete and Exclude only, so nothing claims it
 * is "no longer in the conversation". Delete on it names the model call and its input tokens; Escape
 * while it runs cancels it with nothing written; confirmed again, the summary is rewritten, the row
 * goes, and the next model request's summary lacks the canary. The folded answer offers Delete
 * onward (the summary keeps the prompt before it). Last, a second `/compact` folds a new canary
 * prompt; the editor selects it (marked Summarized) and a current prompt, the plan names the
 * rewrite and its input tokens, Apply asks once more, and one Apply removes both: the summarizer
 * request and the next turn's request lack the canary. Then Delete onward from a summarized answer:
 * its confirm counts the answer and everything after the summary and names the model call; the
 * rows go, the undo notice offers Open a copy, and the summarizer and the next request lack them.
 */
import assert from 'node:assert/strict'
import { after, before, describe } from 'node:test'
import type { Page } from 'puppeteer-core'
import { listSessions } from '../../tools/dsh-api'
import { bootE2e, eventsOnDisk, sequentialScenarios, type E2e } from './harness'
import { readNotice, waitNotice } from './removals-ui'
import { clickAction, findRow, hoverRow, openEditor, rowSelector, sendPrompt, startTurns, waitArmed, waitForChatText, waitForTurnBars, waitRowError, waitRowHidden } from './ui'
import { en as recallEn } from '../../src/client/text/locales'

const TITLE = 'Compaction trial chat'
const FILLER = ' Keep every detail of this request in mind for the rest of the work, including the names, the numbers and the order of the steps.'
const P1 = `Write down the secret code word CANARY-4417 for later.${FILLER}`
const A1 = `Noted: the code word is recorded.${FILLER}`
const P2 = `Now list the three launch steps in order.${FILLER}`
const A2 = `First test, then stage, then ship.${FILLER}`
const SUMMARY = 'The user gave the code word CANARY-4417 and asked for launch steps.'
const SUMMARY2 = 'The user asked for the three launch steps in order.'
const P3 = 'Which launch step comes second?'
const A3 = 'Staging comes second.'

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
    await startTurns(page, e.url, e.workspace, [P1, P2])
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

  scenario('2. the folded prompt is marked as summarized and offers Recall, Delete and Exclude, not Delete onward', async () => {
    const row = await findRow(page, 'user', P1)
    await page.waitForFunction((sel) => document.querySelector(sel)?.hasAttribute('data-message-recall-folded') === true,
      { timeout: 15_000, polling: 100 }, rowSelector(row.key))
    const cluster = await hoverRow(page, row.key)
    assert.deepEqual(cluster.buttons.map((b) => [b.action, b.text, b.label]), [
      ['recall', 'Recall', 'Recall this message and put its text back in the composer'],
      ['delete', 'Delete', 'Delete this message'],
      ['exclude', 'Exclude', "Exclude from the model's context; it stays visible"],
    ])
    const badge = await page.$eval(`${rowSelector(row.key)} > [data-message-recall-folded-badge]`, (el) => ({
      text: el.textContent, width: (el as HTMLElement).getBoundingClientRect().width,
    }))
    assert.equal(badge.text, 'Summarized: the model reads the compaction summary, not this message')
    assert.equal(badge.width > 1, true, 'the label shows while the row is pointed at')
    await e.shot(page, '01-folded-row')
    const answer = await findRow(page, 'assistant-step', A1)
    assert.equal(await page.$eval(rowSelector(answer.key), (el) => el.hasAttribute('data-message-recall-folded')), true)
    // The folded answer: the summary keeps the prompt before it, so Delete onward works there and is offered.
    const answerCluster = await hoverRow(page, answer.key)
    assert.deepEqual(answerCluster.buttons.map((b) => [b.action, b.label]), [
      ['delete', recallEn['label.delete.step']], ['deleteFrom', recallEn['label.deleteFrom']], ['exclude', recallEn['label.exclude']],
    ])
  })

  scenario('3. Delete names the model call and its cost; Escape while it runs cancels it with nothing written', async () => {
    const row = await findRow(page, 'user', P1)
    await hoverRow(page, row.key)
    await clickAction(page, row.key, 'delete')
    const armed = await waitArmed(page, row.key, 'delete')
    const match = /^Delete 1 and rewrite the summary\? \(model call, ~([\d,]+) tokens\)$/.exec(armed.text)
    assert.ok(match, armed.text)
    assert.equal(armed.label, `Click again to delete 1 summarized message: the model writes the compaction summary again without it, from about ${match[1]} input tokens`)
    const before = (await eventsOnDisk(e.home, sessionId)).length
    e.model.script([{ slow: 'A slow summary that never lands.', chunkDelayMs: 400, chunkSize: 2 }])
    const calls = e.model.requests.length
    await clickAction(page, row.key, 'delete')
    await page.waitForFunction((sel) => document.querySelector(`${sel} [data-message-recall-action="delete"]`)?.textContent === 'Rewriting the summary… (Esc cancels)',
      { timeout: 10_000, polling: 50 }, rowSelector(row.key))
    // The summarizer's model call is under way (the slow answer streams) when Escape cancels it.
    const deadline = Date.now() + 10_000
    while (e.model.requests.length === calls && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20))
    assert.equal(e.model.requests.length, calls + 1, 'the summarizer call reached the model')
    await page.keyboard.press('Escape')
    assert.equal(await waitRowError(page, row.key), 'Cancelled. The summary was not rewritten.')
    const after = await eventsOnDisk(e.home, sessionId)
    assert.deepEqual(after.slice(before).filter((ev) => ev.type.startsWith('compaction/')).map((ev) => ev.type), [], 'no compaction written')
    await e.shot(page, '02-cancelled')
  })

  scenario('4. confirmed, the summary is rewritten without the canary: the row goes, the next request lacks it', async () => {
    const row = await findRow(page, 'user', P1)
    e.model.script([{ text: SUMMARY2 }, { text: A3 }])
    await hoverRow(page, row.key)
    await clickAction(page, row.key, 'delete')
    await waitArmed(page, row.key, 'delete')
    const turns = e.model.requests.length
    await clickAction(page, row.key, 'delete')
    await waitRowHidden(page, row.key, 60_000)
    const summarizer = e.model.requests[turns]!
    assert.equal(JSON.stringify(summarizer.body.messages).includes('CANARY-4417'), false, 'the rewrite is made without the canary prompt')
    const events = await eventsOnDisk(e.home, sessionId)
    const checkpoint = events.at(-2)!
    assert.equal(checkpoint.type, 'user/message')
    const p1 = events.find((ev) => ev.type === 'user/message' && JSON.stringify(ev.data).includes('CANARY-4417') && (ev.data as { source?: { kind?: string } }).source?.kind === 'user')!.seq
    assert.deepEqual((checkpoint.data as { source: { messageRecall: unknown } }).source.messageRecall, { removals: [{ action: 'delete', seqs: [p1] }] })
    await e.shot(page, '03-rewritten')
    await sendPrompt(page, P3)
    await waitForTurnBars(page, 3)
    const next = e.model.requests.at(-1)!
    assert.equal(JSON.stringify(next.body.messages).includes('CANARY-4417'), false, 'the next request lacks the canary')
    assert.equal(JSON.stringify(next.body.messages).includes(SUMMARY2), true, 'and reads the new summary')
  })

  scenario('5. Undo in the notice puts the earlier summary back: the row shows again, summarized, with no model call', async () => {
    const row = await findRow(page, 'user', P2)
    e.model.script([{ text: 'Summary without the launch steps request.' }])
    await hoverRow(page, row.key)
    await clickAction(page, row.key, 'delete')
    await waitArmed(page, row.key, 'delete')
    await clickAction(page, row.key, 'delete')
    await waitRowHidden(page, row.key, 60_000)
    await page.waitForFunction(() => document.querySelector('[data-message-recall-undo-action="undo"]') !== null, { timeout: 10_000, polling: 50 })
    assert.deepEqual(await readNotice(page), { text: 'Deleted 1 message', actions: ['undo', 'dismiss'], error: null })
    const calls = e.model.requests.length
    await page.click('[data-message-recall-undo-action="undo"]')
    await page.waitForFunction((sel) => {
      const el = document.querySelector(sel)
      return el !== null && !el.hasAttribute('data-message-recall-hidden') && el.hasAttribute('data-message-recall-folded')
    }, { timeout: 15_000, polling: 50 }, rowSelector(row.key))
    // The row comes back with the live events; the notice when the Undo's reply arrives (either may be first).
    assert.equal((await waitNotice(page, 'The earlier summary is back; the message is summarized again')).text, 'The earlier summary is back; the message is summarized again')
    assert.equal(e.model.requests.length, calls, 'Undo makes no model call')
    const events = await eventsOnDisk(e.home, sessionId)
    const checkpoint = events.at(-2)!
    const p1 = events.find((ev) => ev.type === 'user/message' && JSON.stringify(ev.data).includes('CANARY-4417') && (ev.data as { source?: { kind?: string } }).source?.kind === 'user')!.seq
    assert.deepEqual((checkpoint.data as { source: { messageRecall: unknown } }).source.messageRecall, { removals: [{ action: 'delete', seqs: [p1] }] }, 'the earlier record: only the canary prompt removed')
    await e.shot(page, '04-undo-rewrite')
  })

  scenario('6. the Summary button shows the summary the model reads; Escape writes nothing; an edited summary reaches the model as edited', async () => {
    await page.waitForSelector('[data-message-recall-summary]', { timeout: 10_000 })
    assert.equal(await page.$eval('[data-message-recall-summary]', (b) => [b.tagName, b.getAttribute('aria-label'), b.textContent]).then((v) => v.join('|')),
      'BUTTON|See and edit the compaction summary the model reads now|Summary')
    const before = (await eventsOnDisk(e.home, sessionId)).length
    await page.click('[data-message-recall-summary]')
    await page.waitForSelector('[data-message-recall-summary-dialog] textarea', { timeout: 10_000 })
    assert.equal(await page.$eval('[data-message-recall-summary-dialog] textarea', (a) => (a as HTMLTextAreaElement).value), SUMMARY2)
    await page.keyboard.press('Escape')
    await page.waitForFunction(() => document.querySelector('[data-message-recall-summary-dialog]') === null, { timeout: 10_000, polling: 50 })
    assert.equal((await eventsOnDisk(e.home, sessionId)).length, before, 'Escape writes nothing')

    const EDITED = 'Edited by hand: the user wants the launch steps, nothing else.'
    await page.click('[data-message-recall-summary]')
    await page.waitForSelector('[data-message-recall-summary-dialog] textarea', { timeout: 10_000 })
    await page.$eval('[data-message-recall-summary-dialog] textarea', (a) => (a as HTMLTextAreaElement).select())
    await page.keyboard.type(EDITED)
    const calls = e.model.requests.length
    await page.click('[data-message-recall-summary-action="save"]')
    await page.waitForFunction(() => document.querySelector('[data-message-recall-summary-dialog]') === null, { timeout: 15_000, polling: 50 })
    assert.equal(e.model.requests.length, calls, 'no model call')
    const events = await eventsOnDisk(e.home, sessionId)
    assert.deepEqual(events.slice(before).map((ev) => ev.type), ['compaction/start', 'compaction/summary', 'user/message', 'compaction/end'])
    await e.shot(page, '05-summary-edited')
    e.model.script([{ text: 'Testing is first.' }])
    await sendPrompt(page, 'Which launch step is first?')
    await waitForTurnBars(page, 4)
    const next = JSON.stringify(e.model.requests.at(-1)!.body.messages)
    assert.equal(next.includes(EDITED), true, 'the next request reads the edited summary')
    assert.equal(next.includes('CANARY-4417'), false)
  })

  scenario('7. the editor takes a summarized canary prompt and a current one in one Apply: both rows go, the summary is rewritten without the canary', async () => {
    const P8 = 'Store the vault phrase CANARY-8808 for the audit.'
    const A8 = 'The vault phrase is stored.'
    const SUMMARY8 = 'The user stored the vault phrase CANARY-8808 and wants the launch steps.'
    const P9 = 'Is the audit next week?'
    const A9 = 'Yes, the audit is next week.'
    const SUMMARY9 = 'The user wants the launch steps and asked about the audit.'
    const P10 = 'What do you know about the audit?'
    const A10 = 'Only that the user asked about it.'
    e.model.script([{ text: A8 }])
    await sendPrompt(page, P8)
    await waitForChatText(page, A8)
    const compactions = async () => (await eventsOnDisk(e.home, sessionId)).filter((ev) => ev.type === 'compaction/end' && (ev.data as { error?: unknown }).error === undefined).length
    const before = await compactions()
    e.model.script([{ text: SUMMARY8 }])
    await sendPrompt(page, '/compact')
    const deadline = Date.now() + 60_000
    while (await compactions() === before && Date.now() < deadline) await page.waitForNetworkIdle({ idleTime: 200, timeout: 5_000 }).catch(() => {})
    assert.equal(await compactions(), before + 1, 'the second /compact wrote its compaction')
    e.model.script([{ text: A9 }])
    await sendPrompt(page, P9)
    await waitForChatText(page, A9)
    const events = await eventsOnDisk(e.home, sessionId)
    const promptSeq = (text: string) => events.find((ev) => ev.type === 'user/message' && JSON.stringify(ev.data).includes(text) && (ev.data as { source?: { kind?: string } }).source?.kind === 'user')!.seq
    const p8 = promptSeq('CANARY-8808')
    const p9 = promptSeq(P9)
    const row8 = await findRow(page, 'user', P8)
    const row9 = await findRow(page, 'user', P9)
    await page.waitForFunction((sel) => document.querySelector(sel)?.hasAttribute('data-message-recall-folded') === true, { timeout: 15_000, polling: 100 }, rowSelector(row8.key))

    await openEditor(page)
    const unit8 = `[data-message-recall-editor] li[data-editor-unit="u${p8}"]`
    const unit9 = `[data-message-recall-editor] li[data-editor-unit="u${p9}"]`
    assert.deepEqual(await page.$eval(unit8, (el) => [el.getAttribute('data-editor-state'), el.querySelector('[data-editor-state-label]')?.textContent, el.querySelector('[data-editor-cost]')?.textContent]),
      ['folded', 'Summarized', 'In the compaction summary'])
    await page.click(`${unit8} [data-editor-select]`)
    await page.click(`${unit9} [data-editor-select]`)
    await page.waitForFunction(() => document.querySelector('[data-editor-rewrite]') !== null, { timeout: 15_000, polling: 50 })
    const preview = await page.$eval('[data-editor-rewrite]', (el) => el.textContent ?? '')
    const match = /^The compaction summary is rewritten without 1 summarized message: a model call of about ([\d,]+) input tokens$/.exec(preview)
    assert.ok(match, preview)
    await page.click('[data-editor-apply]')
    assert.equal(await page.$eval('[data-editor-apply]', (el) => el.textContent), `Apply and rewrite the summary? (model call, ~${match[1]} tokens)`)
    await e.shot(page, '06-editor-rewrite-armed')
    e.model.script([{ text: SUMMARY9 }, { text: A10 }])
    const calls = e.model.requests.length
    await page.click('[data-editor-apply]')
    await page.waitForFunction(() => document.querySelector('[data-message-recall-editor]') === null, { timeout: 60_000, polling: 100 })
    await waitRowHidden(page, row8.key, 30_000)
    await waitRowHidden(page, row9.key, 30_000)
    assert.equal(e.model.requests.length, calls + 1, 'one model call: the summarizer')
    const summarizer = JSON.stringify(e.model.requests[calls]!.body.messages)
    assert.equal(summarizer.includes('CANARY-8808'), false, 'the rewrite is made without the canary prompt')
    assert.equal(summarizer.includes(P9), false, 'and without the current prompt')
    await e.shot(page, '07-editor-rewritten')
    await sendPrompt(page, P10)
    await waitForChatText(page, A10)
    const next = JSON.stringify(e.model.requests.at(-1)!.body.messages)
    assert.equal(next.includes('CANARY-8808'), false, 'the next request lacks the canary')
    assert.equal(next.includes(SUMMARY9), true, 'and reads the new summary')
    assert.equal(next.includes(P9), false, 'and lacks the current prompt removed in the same Apply')
  })

  scenario('8. Delete onward from a summarized answer: its confirm names the count and the model call; the summary is rewritten without it and everything after the summary goes', async () => {
    const P11 = 'Anything left to do?'
    const A11 = 'Nothing is left.'
    const SUMMARY11 = 'The user asked for the launch steps in order.'
    const answer = await findRow(page, 'assistant-step', 'Testing is first.')
    await page.waitForFunction((sel) => document.querySelector(sel)?.hasAttribute('data-message-recall-folded') === true, { timeout: 15_000, polling: 100 }, rowSelector(answer.key))
    const later = await findRow(page, 'user', 'What do you know about the audit?')
    const cluster = await hoverRow(page, answer.key)
    assert.deepEqual(cluster.buttons.map((b) => b.action), ['delete', 'deleteFrom', 'exclude'])
    await clickAction(page, answer.key, 'deleteFrom')
    const armed = await waitArmed(page, answer.key, 'deleteFrom')
    const match = /^Delete (\d+) onward and rewrite the summary\? \(model call, ~([\d,]+) tokens\)$/.exec(armed.text)
    assert.ok(match, armed.text)
    const count = Number(match[1])
    assert.ok(count >= 4, `the summarized answer and every message after the summary (${count})`)
    assert.equal(armed.label, `Click again to delete ${count} messages from here to the end: the model writes the compaction summary again without the summarized ones, from about ${match[2]} input tokens`)
    await e.shot(page, '08-onward-armed')
    e.model.script([{ text: SUMMARY11 }, { text: A11 }])
    const calls = e.model.requests.length
    await clickAction(page, answer.key, 'deleteFrom')
    await waitRowHidden(page, answer.key, 60_000)
    await waitRowHidden(page, later.key, 30_000)
    await page.waitForFunction(() => document.querySelector('[data-message-recall-undo-action="forkBefore"]') !== null, { timeout: 10_000, polling: 50 })
    assert.deepEqual(await readNotice(page), { text: `Deleted ${count} messages onward`, actions: ['forkBefore', 'dismiss'], error: null })
    assert.equal(e.model.requests.length, calls + 1, 'one model call: the summarizer')
    const summarizer = JSON.stringify(e.model.requests[calls]!.body.messages)
    assert.equal(summarizer.includes('Testing is first.'), false, 'the rewrite is made without the summarized answer')
    assert.equal(summarizer.includes('What do you know about the audit?'), false, 'nor what followed the summary')
    const events = await eventsOnDisk(e.home, sessionId)
    assert.deepEqual(events.slice(-6).map((ev) => ev.type), ['compaction/prune', 'user/message', 'compaction/start', 'compaction/summary', 'user/message', 'compaction/end'], 'the tail tombstone, then the new compaction, on disk')
    await e.shot(page, '09-onward-rewritten')
    await sendPrompt(page, P11)
    await waitForChatText(page, A11)
    const next = JSON.stringify(e.model.requests.at(-1)!.body.messages)
    assert.equal(next.includes('Testing is first.'), false, 'the next request lacks the summarized answer')
    assert.equal(next.includes('What do you know about the audit?'), false, 'and what followed the summary')
    assert.equal(next.includes(SUMMARY11), true, 'and reads the new summary')
  })
})
