/**
 * End to end, in the real rc.8 web host and headless Chromium: the editor as a context map. A
 * session whose first turn reads a large file is made in the UI; the editor shows the token
 * meter's figure (the page's `contextBreakdown` projection) and each unit's cost, Largest first
 * puts the tool step on top, Exclude marks it and Apply writes one exclusion: the chat keeps its
 * rows dimmed, the next model request lacks the file, and the meter's figure dropped by the
 * step's cost (less the empty tombstone's own 4 tokens), after a reload too.
 */
import assert from 'node:assert/strict'
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { after, before, describe } from 'node:test'
import type { Page } from 'puppeteer-core'
import { listSessions } from '../../tools/dsh-api'
import { readTombstone } from '../../src/shared/tombstone'
import { buildEditorUnits } from '../../src/client/editor/editor-model'
import { editorEn } from '../../src/client/editor/editor-locales'
import { bootE2e, eventsOnDisk, sequentialScenarios, type E2e } from './harness'
import { readExcluded, waitRowExcluded } from './removals-ui'
import { chooseWorkspace, exchangeTurns, fill, findRow, openApp, sendPrompt, waitForChatText, waitInPage } from './ui'
import { assertWire, lastRequest } from './wire-checks'

const TITLE = 'Context map chat'
const P1 = 'Read the OSPREY survey for me.'
const A1_TEXT = 'Reading the survey now.'
const A1_FINAL = 'The OSPREY survey is read.'
const P2 = 'Which colony is largest?'
const A2 = 'The northern colony is largest.'
const P3 = 'Summarise the plan for the survey.'
const A3 = 'The plan is to count again in spring.'
/** Every line of the large file carries this, so its absence from a request is checkable. */
const MARK = 'OSPREY-NEST-LINE'
const LINES = 400

let e: E2e
let page: Page
let sessionId = ''
const scenario = sequentialScenarios(() => e)
const en = (key: keyof typeof editorEn, params: Record<string, string | number> = {}) => fill(editorEn[key], params)

async function openEditor(page: Page): Promise<void> {
  await page.waitForSelector('[data-message-recall-edit]', { timeout: 30_000 })
  await page.click('[data-message-recall-edit]')
  await page.waitForSelector('[data-message-recall-editor] li[data-editor-unit]', { timeout: 30_000 })
}

async function closeEditor(page: Page): Promise<void> {
  await page.keyboard.press('Escape')
  await page.waitForFunction(() => document.querySelector('[data-message-recall-editor]') === null, { timeout: 10_000, polling: 100 })
}

/** The context figure at the top of the dialog, its basis and the two numbers. */
async function contextFigure(page: Page): Promise<{ text: string; basis: string; now: number; after: number }> {
  const { text, basis } = await page.$eval('[data-editor-context]', (el) => ({ text: (el as HTMLElement).innerText, basis: el.getAttribute('data-editor-basis') ?? '' }))
  const match = /([\d,]+) → ([\d,]+)/.exec(text)
  assert.ok(match, text)
  return { text, basis, now: Number(match[1]!.replaceAll(',', '')), after: Number(match[2]!.replaceAll(',', '')) }
}

describe('the editor as a context map in the real DSH web UI', { timeout: 1_200_000 }, () => {
  before(async () => {
    e = await bootE2e('context-map', { title: TITLE })
    page = await e.newPage()
  }, { timeout: 600_000 })

  after(async () => {
    await e?.close()
  })

  scenario('1. a session whose first turn reads a large file', async () => {
    const file = join(e.workspace, 'osprey-survey.txt')
    writeFileSync(file, Array.from({ length: LINES }, (_, i) => `${MARK} ${String(i + 1).padStart(3, '0')}: two adults and a chick seen on the pylon by the river.`).join('\n'))
    e.model.script([
      { text: A1_TEXT, toolCalls: [{ name: 'read', arguments: { file_path: file } }] },
      { text: A1_FINAL }, { text: A2 }, { text: A3 },
    ])
    await openApp(page, e.url)
    await chooseWorkspace(page, e.workspace)
    await exchangeTurns(page, [[P1, A1_FINAL], [P2, A2], [P3, A3]])
    const sessions = await listSessions(e.url)
    assert.equal(sessions.length, 1)
    sessionId = sessions[0]!.sessionId
    assertWire(lastRequest(e.model), { present: [`${MARK} 001`, `${MARK} ${LINES}`] })
  })

  scenario('2. largest first, Exclude the tool step, Apply: dimmed in the chat, gone from the next request, the meter down by its cost', async () => {
    const log = await eventsOnDisk(e.home, sessionId)
    const step = buildEditorUnits(log).find((u) => u.rows.some((r) => r.text.includes(A1_TEXT)))!
    assert.equal(step.rows.length, 2, 'the answer and its tool result')

    await openEditor(page)
    const before = await contextFigure(page)
    assert.equal(before.basis, 'meter', 'the page has the token meter\'s projection')
    assert.equal(before.text, `Context: ${before.now.toLocaleString('en-US')} → ${before.now.toLocaleString('en-US')} tokens (token meter estimate)`)
    await page.click('[data-editor-sort]')
    await waitInPage(page, 'largest first', () => document.querySelector('[data-editor-units]')?.getAttribute('data-editor-order') === 'largest')
    const first = await page.$eval('[data-editor-units] li[data-editor-unit]', (el) => ({ key: el.getAttribute('data-editor-unit'), cost: el.querySelector('[data-editor-cost]')!.textContent ?? '' }))
    assert.equal(first.key, step.key, 'the tool step costs the most')
    const share = new Intl.NumberFormat('en-US', { style: 'percent', maximumFractionDigits: 1 }).format(step.meterTokens / before.now)
    assert.equal(first.cost, en('cost.other', { tokens: step.meterTokens.toLocaleString('en-US'), share }))
    assert.ok(step.meterTokens > LINES * 20, `${step.meterTokens} tokens`)

    // Exclude by keyboard: Tab from the focused first control reaches the unit's Exclude.
    await page.focus(`li[data-editor-unit="${step.key}"] [data-editor-exclude]`)
    await page.keyboard.press('Space')
    await waitInPage(page, 'the step marked Exclude', new Function(`return document.querySelector('li[data-editor-unit="${step.key}"]').getAttribute('data-editor-preview') === 'excluding'`) as () => boolean)
    const look = await page.$eval(`li[data-editor-unit="${step.key}"] [data-editor-rows]`, (el) => ({ strike: getComputedStyle(el).textDecorationLine, opacity: Number(getComputedStyle(el).opacity) }))
    assert.deepEqual(look, { strike: 'none', opacity: 0.45 }, 'dimmed, not struck through')
    const counter = await page.$eval('[data-editor-counter]', (el) => (el as HTMLElement).innerText)
    assert.equal(counter, `2 messages, ~${step.tokens.toLocaleString('en-US')} tokens leave the context, 2 of them stay in view`)
    const planned = await contextFigure(page)
    assert.equal(planned.after, before.now - step.meterTokens)
    await e.shot(page, '02-context-map-exclude')
    await waitInPage(page, 'Apply enabled', () => !document.querySelector('[data-editor-checking]') && !(document.querySelector('[data-editor-apply]') as HTMLButtonElement).disabled)
    await page.click('[data-editor-apply]')
    await page.waitForFunction(() => !document.querySelector('[data-message-recall-editor]'), { timeout: 15_000 })

    const after = await eventsOnDisk(e.home, sessionId)
    const tombstones = after.slice(log.length).map(readTombstone).filter((t) => t !== null)
    assert.deepEqual(tombstones.map((t) => [t!.action, t!.shadowedSeqs]), [['exclude', step.rows.map((r) => r.seq)]])
    const price = after.slice(log.length).find((ev) => ev.type === 'compaction/prune')!
    assert.equal((price.data as { shadowedTokenCount: number }).shadowedTokenCount, step.meterTokens, 'the host priced the step as the editor showed it')

    // The chat keeps the step's row, dimmed.
    const answer = await findRow(page, 'assistant-step', A1_TEXT)
    await waitRowExcluded(page, answer.key)
    const dimmed = await readExcluded(page, answer.key)
    assert.equal(dimmed.shown, true)
    assert.ok(dimmed.contentOpacity < 1, `dimmed (${dimmed.contentOpacity})`)

    // The meter's figure: down by the step's cost, up by the empty tombstone (4 tokens).
    await openEditor(page)
    const dropped = await contextFigure(page)
    assert.equal(dropped.now, before.now - step.meterTokens + 4)
    assert.equal(await page.$eval(`li[data-editor-unit="${step.key}"] [data-editor-cost]`, (el) => el.textContent), en('cost.none'))
    assert.equal(await page.$eval(`li[data-editor-unit="${step.key}"]`, (el) => el.getAttribute('data-editor-state')), 'excluded')
    await closeEditor(page)

    await page.reload({ waitUntil: 'domcontentloaded' })
    await waitForChatText(page, A3)
    await openEditor(page)
    assert.equal((await contextFigure(page)).now, dropped.now, 'the same after a reload')
    await closeEditor(page)

    e.model.script([{ text: 'The count is in spring.' }])
    await sendPrompt(page, 'When is the count?')
    await waitForChatText(page, 'The count is in spring.')
    assertWire(lastRequest(e.model), { present: [P1, A1_FINAL, P2, A2, P3, A3], absent: [MARK, A1_TEXT] })
    await waitRowExcluded(page, (await findRow(page, 'assistant-step', A1_TEXT)).key)
  })
})
