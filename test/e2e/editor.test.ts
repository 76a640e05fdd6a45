/**
 * End to end, in the real rc.8 web host and headless Chromium: the conversation editor. A session
 * with five turns is made in the UI; the editor (Edit button in the session header) selects three
 * scattered units by keyboard and a From here, the counter and the red preview show exactly what
 * goes, Apply writes one batch, and after a reload exactly those rows are gone. Discard and
 * Escape write nothing. After a host restart the session is not live; the editor opened on it
 * removes one prompt and brings an earlier removed one back in one batch, and the next prompt
 * still runs with exactly that context. The tests run in order and build on each other.
 */
import assert from 'node:assert/strict'
import { join } from 'node:path'
import { after, before, describe } from 'node:test'
import type { Page } from 'puppeteer-core'
import { listSessions } from '../../tools/dsh-api'
import { readTombstone } from '../../src/shared/tombstone'
import { buildEditorUnits, previewSelection, type EditorUnit } from '../../src/client/editor/editor-model'
import { counterText, editorEn } from '../../src/client/editor/editor-locales'
import { bootE2e, eventsOnDisk, sequentialScenarios, type E2e } from './harness'
import { readUnsaved, saveAgainAfterUnwritableFolder } from './removals-ui'
import {
  chooseWorkspace, exchangeTurns, fill, findRow, openApp, openSessionFromSidebar, rows, sendPrompt,
  waitForChatText, waitInPage, waitRowHidden,
} from './ui'
import { assertWire, lastRequest } from './wire-checks'

const TITLE = 'Editor trial chat'
const P1 = 'Read notes.txt and todo.txt for me.'
const A1_TEXT = 'Reading both files now.'
const A1_FINAL = 'Done: the notes and the open task are read.'
const P2 = 'Paste the KESTREL-9 log line here.'
const A2 = 'The KESTREL-9 line is noted.'
const P3 = 'Tell me the weather plan.'
const A3 = 'The weather plan is to wait for the CORMORANT front.'
const P4 = 'Which day is the review?'
const A4 = 'The review is on Thursday.'
const P5 = 'Start a detour about GANNET colours.'
const A5 = 'GANNET colours are white and gold.'
const P6 = 'What is left after the cleanup?'
const A6 = 'The review on Thursday is left.'
const P7 = 'After the restart, one more question.'
const A7 = 'Still here after the restart.'

let e: E2e
let page: Page
let sessionId = ''
const scenario = sequentialScenarios(() => e)

const en = (key: string, params: Record<string, string | number> = {}) => fill(editorEn[key as keyof typeof editorEn], params)

/** What the dialog shows, unit by unit. */
async function editorState(page: Page) {
  return page.$$eval('[data-message-recall-editor] li[data-editor-unit]', (els) => els.map((el) => ({
    key: el.getAttribute('data-editor-unit') ?? '',
    state: el.getAttribute('data-editor-state') ?? '',
    preview: el.getAttribute('data-editor-preview') ?? '',
    text: ((el.querySelector('[data-editor-rows]') as HTMLElement | null)?.innerText ?? '').replace(/\s+/g, ' ').trim(),
    color: getComputedStyle(el.querySelector('[data-editor-rows]')!).color,
    strike: getComputedStyle(el.querySelector('[data-editor-rows]')!).textDecorationLine,
    select: el.querySelector('[data-editor-select]')?.getAttribute('aria-label') ?? null,
    pressed: el.querySelector('[data-editor-select]')?.getAttribute('aria-pressed') ?? null,
  })))
}

async function openEditor(page: Page, how: 'button' | 'shortcut'): Promise<void> {
  await page.waitForSelector('[data-message-recall-edit]', { timeout: 30_000 })
  if (how === 'button') await page.click('[data-message-recall-edit]')
  else {
    await page.keyboard.down('Alt')
    await page.keyboard.down('Shift')
    await page.keyboard.press('KeyE')
    await page.keyboard.up('Shift')
    await page.keyboard.up('Alt')
  }
  await page.waitForSelector('[data-message-recall-editor] li[data-editor-unit]', { timeout: 30_000 })
}

const counter = (page: Page) => page.$eval('[data-editor-counter]', (el) => (el as HTMLElement).innerText)
const editorOpen = (page: Page) => page.$('[data-message-recall-editor]').then((h) => h !== null)

/** Focus the unit's primary control through the keyboard: ArrowDown from the first unit. */
async function focusUnitByArrows(page: Page, units: readonly { key: string }[], key: string): Promise<void> {
  const selectable = units.map((u) => u.key)
  const target = selectable.indexOf(key)
  assert.ok(target >= 0, `unit ${key} is selectable`)
  const at = await page.evaluate(() => document.activeElement?.closest('li[data-editor-unit]')?.getAttribute('data-editor-unit') ?? null)
  const from = at === null ? 0 : selectable.indexOf(at)
  const delta = target - from
  for (let i = 0; i < Math.abs(delta); i++) await page.keyboard.press(delta > 0 ? 'ArrowDown' : 'ArrowUp')
  const focused = await page.evaluate(() => document.activeElement?.closest('li[data-editor-unit]')?.getAttribute('data-editor-unit') ?? null)
  assert.equal(focused, key)
}

function unitWith(units: readonly EditorUnit[], text: string): EditorUnit {
  const unit = units.find((u) => u.rows.some((r) => r.text.includes(text)))
  assert.ok(unit, `a unit holds ${JSON.stringify(text)}`)
  return unit!
}

describe('the conversation editor in the real DSH web UI', { timeout: 1_800_000 }, () => {
  before(async () => {
    e = await bootE2e('editor', { title: TITLE })
    page = await e.newPage()
  }, { timeout: 600_000 })

  after(async () => {
    await e?.close()
  })

  scenario('1. a session with five turns, the first with two tool calls', async () => {
    e.model.script([
      { text: A1_TEXT, toolCalls: [{ name: 'read', arguments: { file_path: join(e.workspace, 'notes.txt') } }, { name: 'read', arguments: { file_path: join(e.workspace, 'todo.txt') } }] },
      { text: A1_FINAL }, { text: A2 }, { text: A3 }, { text: A4 }, { text: A5 },
    ])
    await openApp(page, e.url)
    await chooseWorkspace(page, e.workspace)
    await exchangeTurns(page, [[P1, A1_FINAL], [P2, A2], [P3, A3], [P4, A4], [P5, A5]])
    const sessions = await listSessions(e.url)
    assert.equal(sessions.length, 1)
    sessionId = sessions[0]!.sessionId
  })

  scenario('2. Discard and Escape close the editor with nothing written', async () => {
    const before = (await eventsOnDisk(e.home, sessionId)).length
    await openEditor(page, 'button')
    const units = await editorState(page)
    assert.equal(units.length, 11, 'five prompts, six model steps')
    await page.click(`li[data-editor-unit="${units[1]!.key}"] [data-editor-select]`)
    await waitInPage(page, 'the counter to count one unit', () => !document.querySelector('[data-editor-counter]')!.textContent!.startsWith('Nothing'))
    await page.click('[data-editor-discard]')
    assert.equal(await editorOpen(page), false, 'Discard closed the dialog')
    await openEditor(page, 'shortcut')
    assert.equal(await counter(page), en('nothing'), 'a new dialog starts with nothing selected')
    await page.click(`li[data-editor-unit="${units[2]!.key}"] [data-editor-from]`)
    await page.keyboard.press('Escape')
    assert.equal(await editorOpen(page), false, 'Escape closed the dialog')
    assert.equal((await eventsOnDisk(e.home, sessionId)).length, before, 'nothing written')
    assert.equal(e.model.requests.length, 6)
  })

  scenario('3. three scattered units by keyboard and a From here: preview and counter, Apply, and after a reload exactly those are gone', async () => {
    const log = await eventsOnDisk(e.home, sessionId)
    const model = buildEditorUnits(log)
    const step1 = unitWith(model, A1_TEXT)
    const p2 = unitWith(model, P2)
    const a3 = unitWith(model, A3)
    const p5 = unitWith(model, P5)
    assert.equal(step1.rows.length, 3, 'the tool step holds the answer and its two tool results')

    await openEditor(page, 'button')
    const units = await editorState(page)
    assert.deepEqual(units.map((u) => u.key), model.map((u) => u.key), 'the dialog lists every unit of the durable log, in order')
    assert.deepEqual(await page.$$eval('[data-message-recall-editor] li[data-editor-turn]', (els) => els.map((el) => (el as HTMLElement).innerText)), [1, 2, 3, 4, 5].map((turn) => en('turn', { turn })))
    assert.equal(units.find((u) => u.key === p2.key)!.select, en('select.prompt', { text: P2 }))
    // Keyboard: arrows move, Space toggles.
    for (const unit of [step1, p2, a3]) {
      await focusUnitByArrows(page, units, unit.key)
      await page.keyboard.press('Space')
    }
    await page.click(`li[data-editor-unit="${p5.key}"] [data-editor-from]`)

    const expected = previewSelection(model, { remove: new Set([step1.key, p2.key, a3.key]), from: p5.key, restore: new Set() })
    assert.equal(expected.messages, 3 + 1 + 1 + 2, 'step of three rows, a prompt, an answer, and the last prompt with its answer')
    const text = counterText(en, 'en', expected)
    assert.equal(text, `7 messages, ~${expected.tokens} tokens leave the context`)
    await waitInPage(page, 'the counter', new Function(`return document.querySelector('[data-editor-counter]').innerText === ${JSON.stringify(text)}`) as () => boolean)
    const shown = await editorState(page)
    const going = new Set([step1.key, p2.key, a3.key, p5.key, unitWith(model, A5).key])
    for (const u of shown) {
      assert.equal(u.preview, going.has(u.key) ? 'going' : '', `${u.key} preview`)
      if (going.has(u.key)) assert.deepEqual([u.strike, u.color], ['line-through', 'rgb(198, 40, 40)'], `${u.key} is struck through in red`)
      else assert.equal(u.strike, 'none', `${u.key} is not struck through`)
    }
    // The host was asked (plan) and found nothing to refuse; Enter applies.
    await waitInPage(page, 'the host plan', () => !document.querySelector('[data-editor-checking]') && !(document.querySelector('[data-editor-apply]') as HTMLButtonElement).disabled)
    await e.shot(page, '03-editor-preview')
    assert.equal(await page.$('[data-editor-refusal]'), null)
    await page.keyboard.press('Enter')
    await page.waitForFunction(() => !document.querySelector('[data-message-recall-editor]'), { timeout: 15_000 })

    const after = await eventsOnDisk(e.home, sessionId)
    const tombstones = after.map(readTombstone).filter((t) => t !== null)
    assert.deepEqual(tombstones.map((t) => t!.action), ['delete', 'delete', 'delete', 'deleteFrom'], 'one batch of four tombstones')
    const removed = new Set(tombstones.flatMap((t) => t!.shadowedSeqs))
    for (const unit of [step1, p2, a3, p5, unitWith(model, A5)]) for (const row of unit.rows) assert.ok(removed.has(row.seq), `${row.text} was removed`)
    for (const unit of [unitWith(model, P1), unitWith(model, A1_FINAL), unitWith(model, A2), unitWith(model, P3), unitWith(model, P4), unitWith(model, A4)]) {
      for (const row of unit.rows) assert.ok(!removed.has(row.seq), `${row.text} stays`)
    }

    const keep = [P1, A1_FINAL, A2, P3, P4, A4]
    const gone = [A1_TEXT, P2, A3, P5, A5]
    // The conversation shows the result at once, without a reload.
    await waitRowHidden(page, (await findRow(page, 'user', P2)).key)
    await waitRowHidden(page, (await findRow(page, 'user', P5)).key)
    await page.reload({ waitUntil: 'domcontentloaded' })
    await waitForChatText(page, A4)
    const visible = (await rows(page)).filter((r) => r.shown).map((r) => r.text).join('\n')
    for (const text of keep) assert.ok(visible.includes(text), `${text} is still shown`)
    for (const text of gone) assert.ok(!visible.includes(text), `${text} is gone after the reload`)

    e.model.script([{ text: A6 }])
    await sendPrompt(page, P6)
    await waitForChatText(page, A6)
    assertWire(lastRequest(e.model), { present: [P1, A1_FINAL, A2, P3, P4, A4, P6], absent: [A1_TEXT, P2, A3, P5, A5, 'BLUE-HERON', 'ORCHID-77'] })
  })

  scenario('4. after a host restart the stored session is not live; the editor opened on it applies, and the next prompt runs', async () => {
    await e.restartHost()
    await openApp(page, e.url)
    await openSessionFromSidebar(page, TITLE)
    await waitForChatText(page, A6)
    const before = await eventsOnDisk(e.home, sessionId)
    const model = buildEditorUnits(before)
    const p4 = unitWith(model, P4)
    await openEditor(page, 'button')
    const units = await editorState(page)
    assert.equal(units.find((u) => u.key === unitWith(model, P2).key)!.state, 'removed', 'an earlier removal shows in place')
    const p2 = unitWith(model, P2)
    assert.equal(p2.restorable, true, 'the prompt removed alone can come back in place')
    await page.click(`li[data-editor-unit="${p4.key}"] [data-editor-select]`)
    await page.click(`li[data-editor-unit="${p2.key}"] [data-editor-restore]`)
    const text = counterText(en, 'en', previewSelection(model, { remove: new Set([p4.key]), from: null, restore: new Set([p2.key]) }))
    assert.equal(text, `1 message, ~${p4.tokens} tokens leave the context; 1 comes back`)
    await e.shot(page, '04-editor-restore')
    const restoring = (await editorState(page)).find((u) => u.key === p2.key)!
    assert.deepEqual([restoring.preview, restoring.strike, restoring.color], ['coming', 'none', 'rgb(46, 125, 50)'], 'the prompt coming back shows in green')
    await waitInPage(page, 'the counter', new Function(`return document.querySelector('[data-editor-counter]').innerText === ${JSON.stringify(text)}`) as () => boolean)
    await waitInPage(page, 'Apply enabled', () => !(document.querySelector('[data-editor-apply]') as HTMLButtonElement).disabled)
    await page.click('[data-editor-apply]')
    await page.waitForFunction(() => !document.querySelector('[data-message-recall-editor]'), { timeout: 15_000 })
    const after = await eventsOnDisk(e.home, sessionId)
    const restore = after.find((ev) => ev.seq >= before.length && (ev.sourceEventSeqs ?? [])[1] === p2.rows[0]!.seq)
    assert.ok(restore, 'the restoring copy of the prompt is on disk')
    const last = after.map(readTombstone).filter((t) => t !== null).at(-1)!
    assert.equal(last.action, 'delete')
    assert.ok(last.shadowedSeqs.includes(p4.rows[0]!.seq), 'the prompt was removed')
    const others = last.shadowedSeqs.filter((seq) => seq !== p4.rows[0]!.seq)
    assert.ok(others.every((seq) => readTombstone(after[seq]!) !== null), 'besides it, only the adjacent earlier tombstone was absorbed')
    assert.ok(after.length > before.length)

    // The conversation shows the result without a reload, and after one.
    await waitRowHidden(page, (await findRow(page, 'user', P4)).key)
    await page.reload({ waitUntil: 'domcontentloaded' })
    await waitForChatText(page, A6)
    await waitRowHidden(page, (await findRow(page, 'user', P4)).key)
    e.model.script([{ text: A7 }])
    await sendPrompt(page, P7)
    await waitForChatText(page, A7)
    assertWire(lastRequest(e.model), { present: [P1, P2, A4, P6, A6, P7], absent: [P4, A3] })
  })

  scenario('5. an Apply while the session folder cannot be written: the dialog closes, the change shows, "not saved yet" until Save again saves it', async () => {
    const before = await eventsOnDisk(e.home, sessionId)
    const p3 = unitWith(buildEditorUnits(before), P3)
    await openEditor(page, 'button')
    await page.click(`li[data-editor-unit="${p3.key}"] [data-editor-select]`)
    await waitInPage(page, 'Apply enabled', () => !document.querySelector('[data-editor-checking]') && !(document.querySelector('[data-editor-apply]') as HTMLButtonElement).disabled)
    await saveAgainAfterUnwritableFolder(page, e.home, sessionId, async () => {
      await page.click('[data-editor-apply]')
      await page.waitForFunction(() => !document.querySelector('[data-message-recall-editor]'), { timeout: 30_000 })
      await page.waitForSelector('[data-message-recall-unsaved]', { timeout: 30_000 })
      assert.deepEqual(await readUnsaved(page), {
        text: 'Applied 1 change, but not saved to disk yet. If the host crashes before the next save, the conversation goes back to how it was.',
        phase: 'unsaved', button: 'Save again', error: null,
      })
      await waitRowHidden(page, (await findRow(page, 'user', P3)).key)
    })
    const after = await eventsOnDisk(e.home, sessionId)
    const last = after.map(readTombstone).filter((t) => t !== null).at(-1)!
    assert.equal(last.action, 'delete')
    assert.ok(last.shadowedSeqs.includes(p3.rows[0]!.seq), 'the batch is on disk after Save again')
  })
})
