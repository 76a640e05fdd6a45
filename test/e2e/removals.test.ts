/**
 * End to end, in the real rc.8 web host and headless Chromium: nothing of a removal is final.
 * Delete a prompt and Undo it (the row is back, the next request carries it); delete a model step
 * and Open a copy (the new session in the sidebar shows the step); Exclude a tool step (its rows
 * stay, dimmed, and the next request lacks them); delete an answer (its turn bar goes with it);
 * restart the host and reload (the Removed panel lists the same entries). The tests run in order
 * and build on each other; a test whose predecessor failed fails too.
 */
import assert from 'node:assert/strict'
import { join } from 'node:path'
import { after, before, describe } from 'node:test'
import type { Page } from 'puppeteer-core'
import { listSessions } from '../../tools/dsh-api'
import { readTombstone, type TombstoneRecord } from '../../src/shared/tombstone'
import { bootE2e, eventsOnDisk, sequentialScenarios, type E2e } from './harness'
import { findRow, openApp, recallSnapshot, rows, rowSelector, sendPrompt, startTurns, waitForChatText, waitForTurnBars, waitRowHidden } from './ui'
import {
  armAndCommit, clickNotice, closePanel, openExactSidebarEntry, openPanel, readExcluded, readRemovedButton, readUnsaved, saveAgainAfterUnwritableFolder,
  sidebarTitles, waitNotice, waitRowExcluded, waitRowShown,
} from './removals-ui'
import { assertWire, lastRequest } from './wire-checks'

const TITLE = 'Osprey budget chat'
const COPY_TITLE = `${TITLE} (copy)`
const P1 = 'What does notes.txt say?'
const A1_TEXT = 'Reading notes.txt before I answer.'
const A1_FINAL = 'The notes name the launch codename.'
const P2 = 'Keep the MARLIN budget line in mind.'
const A2 = 'Noted, the MARLIN line stays.'
const P3 = 'And what does todo.txt say?'
const A3_TEXT = 'Reading todo.txt as well.'
const A3_FINAL = 'One task is open in the todo list.'
const P4 = 'Which budget line did I mention?'
const A4 = 'You mentioned the MARLIN line.'
const P5 = 'Summarise what you know now.'
const A5 = 'The notes and one open task.'

let e: E2e
let page: Page
let sessionId = ''
const keys: Record<string, string> = {}

const scenario = sequentialScenarios(() => e)

/** Open a session from the sidebar by its exact title and wait until the plugin follows it. */
async function openSession(title: string, id: string): Promise<void> {
  await openExactSidebarEntry(page, title)
  await page.waitForFunction((want) => (window as any).__DSH_MESSAGE_RECALL__?.snapshot()?.sessionId === want, { timeout: 30_000, polling: 100 }, id)
}

describe('undo, copies and exclusions in the real DSH web UI', { timeout: 1_800_000 }, () => {
  before(async () => {
    e = await bootE2e('removals', { title: TITLE })
    page = await e.newPage()
  }, { timeout: 600_000 })

  after(async () => {
    await e?.close()
  })

  scenario('1. a session with three turns: two of them answered with a tool call', async () => {
    e.model.script([
      { text: A1_TEXT, toolCalls: [{ name: 'read', arguments: { file_path: join(e.workspace, 'notes.txt') } }] },
      { text: A1_FINAL },
      { text: A2 },
      { text: A3_TEXT, toolCalls: [{ name: 'read', arguments: { file_path: join(e.workspace, 'todo.txt') } }] },
      { text: A3_FINAL },
    ])
    await startTurns(page, e.url, e.workspace, [P1, P2, P3])
    const sessions = await listSessions(e.url)
    assert.equal(sessions.length, 1)
    sessionId = sessions[0]!.sessionId
    keys.p2 = (await findRow(page, 'user', P2)).key
    keys.a1 = (await findRow(page, 'assistant-step', A1_TEXT)).key
    keys.a2 = (await findRow(page, 'assistant-step', A2)).key
    keys.a3 = (await findRow(page, 'assistant-step', A3_TEXT)).key
    const all = await rows(page)
    const tools = all.filter((r) => r.kind === 'tool-call')
    assert.equal(tools.length, 2)
    keys.tool1 = tools[0]!.key
    keys.tool3 = tools[1]!.key
    keys.tail2 = all.filter((r) => r.kind === 'turn-tail')[1]!.key
    assert.equal(await readRemovedButton(page), null, 'no Removed button before any removal')
    await e.shot(page, '01-three-turns')
  })

  scenario('2. Delete a prompt, then Undo: the row is back in its place and the next request carries it', async () => {
    const order = (await rows(page)).map((r) => r.key)
    assert.equal(await armAndCommit(page, keys.p2!, 'delete'), 'Delete 1?')
    await waitRowHidden(page, keys.p2!)
    const notice = await waitNotice(page, 'Deleted 1 message')
    assert.deepEqual(notice.actions, ['undo', 'dismiss'])
    await e.shot(page, '02-undo-notice')
    await clickNotice(page, 'undo')
    await waitRowShown(page, keys.p2!)
    await waitNotice(page, 'The message is back in place')
    assert.deepEqual((await rows(page)).map((r) => r.key), order, 'every row in its place')
    await e.shot(page, '02-undone')

    e.model.script([{ text: A4 }])
    await sendPrompt(page, P4)
    await waitForChatText(page, A4)
    await waitForTurnBars(page, 4)
    assertWire(lastRequest(e.model), { present: [P1, P2, A2, P3, P4] })
  })

  scenario('3. Delete a model step, then Open a copy: the new session is opened, listed in the sidebar, and shows the step', async () => {
    await armAndCommit(page, keys.a1!, 'delete')
    for (const k of [keys.a1!, keys.tool1!]) await waitRowHidden(page, k)
    const notice = await waitNotice(page, 'Deleted 2 messages')
    assert.deepEqual(notice.actions, ['forkBefore', 'dismiss'], 'a model step comes back only as a copy')
    await clickNotice(page, 'forkBefore')
    await page.waitForFunction((id) => {
      const api = (window as any).__DSH_MESSAGE_RECALL__
      const current = api?.snapshot()?.sessionId
      return typeof current === 'string' && current !== id
    }, { timeout: 30_000, polling: 100 }, sessionId)
    const sessions = await listSessions(e.url)
    assert.equal(sessions.length, 2, 'the copy is a stored session')
    const copyId = (await recallSnapshot(page)).sessionId as string
    assert.ok(sessions.some((s) => s.sessionId === copyId))
    await waitForChatText(page, A1_TEXT)
    const copyRows = await rows(page)
    const step = copyRows.find((r) => r.kind === 'assistant-step' && r.text.includes(A1_TEXT))
    assert.ok(step?.shown, 'the copy shows the step')
    assert.ok(copyRows.some((r) => r.kind === 'tool-call' && r.shown), 'and its tool row')
    assert.ok(copyRows.some((r) => r.shown && r.text.includes(A4)), 'the copy holds the conversation up to the removal')
    await page.waitForFunction((t) => [...document.querySelectorAll<HTMLElement>('[role=treeitem]')].some((el) => el.offsetParent !== null && (el.innerText || '').includes(t)), { timeout: 15_000, polling: 100 }, COPY_TITLE)
    assert.ok((await sidebarTitles(page)).includes(COPY_TITLE), `the sidebar lists ${COPY_TITLE}`)
    await e.shot(page, '03-copy-opened')

    // Opened again from the sidebar, the copy shows the step too.
    await openSession(TITLE, sessionId)
    await openSession(COPY_TITLE, copyId)
    await waitForChatText(page, A1_TEXT)
    assert.ok((await rows(page)).find((r) => r.kind === 'assistant-step' && r.text.includes(A1_TEXT))?.shown)
    await openSession(TITLE, sessionId)
    for (const k of [keys.a1!, keys.tool1!]) await waitRowHidden(page, k)
  })

  scenario('4. Exclude a tool step: its rows stay, dimmed and labelled, and the next request lacks them', async () => {
    assert.equal(await armAndCommit(page, keys.a3!, 'exclude'), 'Exclude 2?')
    for (const k of [keys.a3!, keys.tool3!]) await waitRowExcluded(page, k)
    await waitNotice(page, "Excluded 2 messages from the model's context")
    for (const k of [keys.a3!, keys.tool3!]) {
      const look = await readExcluded(page, k)
      assert.ok(look.shown, `${k} stays in the transcript`)
      assert.ok(look.contentOpacity < 0.6, `${k} is dimmed (opacity ${look.contentOpacity})`)
      assert.equal(look.badge, 'Not sent to the model')
    }
    await e.shot(page, '04-excluded')
    const box = await (await page.$(rowSelector(keys.a3!)))!.boundingBox()
    const toolBox = await (await page.$(rowSelector(keys.tool3!)))!.boundingBox()
    if (box && toolBox) await page.screenshot({ path: join(e.dir, '04-excluded-rows.png'), clip: { x: box.x, y: box.y, width: box.width, height: toolBox.y + toolBox.height - box.y } })

    e.model.script([{ text: A5 }])
    await sendPrompt(page, P5)
    await waitForChatText(page, A5)
    await waitForTurnBars(page, 5)
    assertWire(lastRequest(e.model), { present: [P2, P3, A3_FINAL, P5], absent: [A3_TEXT, 'ORCHID-77', A1_TEXT, 'BLUE-HERON'] })
  })

  scenario('5. Delete an answer: its turn bar goes with it while the prompt stays', async () => {
    await armAndCommit(page, keys.a2!, 'delete')
    await waitRowHidden(page, keys.a2!)
    await waitRowHidden(page, keys.tail2!)
    const all = await rows(page)
    assert.ok(all.find((r) => r.key === keys.p2)?.shown, 'the prompt stays')
    const snapshot = await recallSnapshot(page)
    assert.ok(snapshot.hidden.some((h: any) => h.key === keys.tail2 && h.reason === 'answer-removed'))
    await e.shot(page, '05-answer-and-bar-gone')

    // The notice is reachable by keyboard from the composer (it sits just before the textarea), and Escape dismisses it.
    await waitNotice(page, 'Deleted 1 message')
    await page.focus('textarea')
    const reached: string[] = []
    for (let i = 0; i < 3; i++) {
      await page.keyboard.down('Shift')
      await page.keyboard.press('Tab')
      await page.keyboard.up('Shift')
      reached.push(await page.evaluate(() => document.activeElement?.getAttribute('data-message-recall-undo-action') ?? document.activeElement?.tagName ?? ''))
    }
    assert.deepEqual(reached.slice(0, 2), ['dismiss', 'forkBefore'], `Shift+Tab from the composer reaches the notice's buttons (${reached.join(', ')})`)
    await page.keyboard.press('Escape')
    await page.waitForFunction(() => !document.querySelector('[data-message-recall-undo]'), { timeout: 5_000, polling: 50 })
  })

  scenario('6. after a host restart and a reload the Removed panel lists the same entries', async () => {
    const button = await readRemovedButton(page)
    assert.deepEqual(button, { text: 'Removed', count: '3', label: 'Removed messages: 3 removals in effect' })
    const panelBefore = await openPanel(page)
    assert.deepEqual(panelBefore.map((p) => [p.action, p.meta.slice(0, 2), p.restored]), [
      ['delete', ['Deleted', '1 message'], false],
      ['exclude', ['Excluded', '2 messages'], false],
      ['delete', ['Deleted', '2 messages'], false],
      ['delete', ['Deleted', '1 message', ], true],
    ])
    assert.equal(panelBefore[0]!.excerpt, A2)
    assert.equal(panelBefore[3]!.excerpt, P2)
    assert.deepEqual(panelBefore[3]!.buttons, ['Open a copy'], 'a restored removal offers only a copy')
    await e.shot(page, '06-panel')
    await closePanel(page)

    await e.restartHost()
    await openApp(page, e.url)
    await openSession(TITLE, sessionId)
    await waitForChatText(page, A5)
    const after = await openPanel(page)
    assert.deepEqual(after, panelBefore)
    assert.deepEqual(await readRemovedButton(page), button)
    await e.shot(page, '06-panel-after-restart')
    // The open panel covers the right side of the chat, where the next scenario hovers a prompt.
    await closePanel(page)

    const onDisk = (await eventsOnDisk(e.home, sessionId)).map((ev) => readTombstone(ev)).filter((t): t is TombstoneRecord => t !== null)
    assert.deepEqual(onDisk.map((t) => t.seq).reverse(), panelBefore.map((p) => p.tombstoneSeq), 'the panel lists every tombstone on disk')
  })

  scenario('7. a Restore from the panel while the session folder cannot be written: the row is back, "not saved yet" until Save again saves it', async () => {
    const p4 = await findRow(page, 'user', P4)
    assert.equal(await armAndCommit(page, p4.key, 'delete'), 'Delete 1?')
    await waitRowHidden(page, p4.key)
    const [entry] = await openPanel(page)
    assert.deepEqual([entry!.action, entry!.excerpt, entry!.buttons], ['delete', P4, ['Restore', 'Open a copy']])
    await saveAgainAfterUnwritableFolder(page, e.home, sessionId, async () => {
      await page.click(`[data-message-recall-entry="${entry!.tombstoneSeq}"] [data-message-recall-entry-action="restore"]`)
      await page.waitForSelector('[data-message-recall-unsaved]', { timeout: 30_000 })
      assert.deepEqual(await readUnsaved(page), {
        text: 'Restored 1 message, but not saved to disk yet. If the host crashes before the next save, it is removed again.',
        phase: 'unsaved', button: 'Save again', error: null,
      })
      await waitRowShown(page, p4.key)
      const [after] = await openPanel(page)
      assert.deepEqual([after!.tombstoneSeq, after!.restored, after!.buttons], [entry!.tombstoneSeq, true, ['Open a copy']], 'the panel reads Restored, with no refusal')
      assert.equal(await page.$('[data-message-recall-entry-error]'), null)
      await closePanel(page)
    })
    const onDisk = await eventsOnDisk(e.home, sessionId)
    assert.ok(onDisk.some((ev) => (ev.sourceEventSeqs ?? [])[0] === entry!.tombstoneSeq && ev.surfaceOp !== undefined), 'the restoring copy is on disk after Save again')
  })
})
