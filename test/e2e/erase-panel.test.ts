/**
 * End to end, in the real rc.8 web host and headless Chromium: **Erase for good…** from the Removed
 * panel. A canary prompt is deleted and the session branched (`session.fork` of the whole session,
 * so the Branch holds the removal in its seed; renamed as the web client names a Branch); in the
 * panel, by keyboard only, its entry's Erase for good… opens the confirmation, which lists the
 * Branch with its checkbox checked, and is confirmed; the entry reads that the erase is pending
 * until the host restarts, an erase is pending for the Branch too, and the canary is still on
 * disk. The host is restarted (the plugin runs the pending erases as it starts); the built `scan
 * --text` over the DSH home then finds the canary nowhere, in neither session, the pending-erase
 * file is empty, and the panel, reloaded, reads "Erased for good" for that removal and no longer
 * offers Restore. Then a second canary prompt is deleted and its erase confirmed in the panel; the
 * host restarts with a directory where an interrupted erase's new file would be (a file system
 * error the erase does not clear away), so the erase fails at start: the panel, reloaded, says so
 * with the host's reason and, by keyboard, **Try again at next start** makes it pending again; the
 * directory cleared away, the next start erases it. The scenarios run in order and build on each
 * other.
 */
import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import { after, before, describe } from 'node:test'
import type { Page } from 'puppeteer-core'
import { findSessionDir, listSessions, rpc } from '../../tools/dsh-api'
import { bootE2e, sequentialScenarios, type E2e } from './harness'
import { findRow, openApp, sendPrompt, startTurns, waitForChatText, waitForTurnBars, waitInPage, waitRowHidden } from './ui'
import { armAndCommit, closePanel, openExactSidebarEntry, openPanel } from './removals-ui'

const TITLE = 'Heron key chat'
const BRANCH_TITLE = 'Heron key chat (1)'
const CANARY = 'CANARY-panel-erase-3k8v'
const P1 = `${CANARY} my staging key is hunter2`
const A1 = 'I will not repeat that.'
const P2 = 'What is on the todo list?'
const A2 = 'One open task.'
const P3 = `${CANARY} and the backup key is swordfish`
const A3 = 'I will not repeat that either.'
const TOOL = join(import.meta.dirname, '..', '..', 'lib', 'scripts', 'dsh-message-recall-log.js')

let e: E2e
let page: Page
let sessionId = ''
let tombstoneSeq = 0
let branchId = ''
const scenario = sequentialScenarios(() => e)

/** The built log tool's `scan --text CANARY` over the DSH home: the hits' paths in the home, sorted. */
function scanHome(): { status: number | null; hits: string[] } {
  const run = spawnSync(process.execPath, [TOOL, 'scan', e.home, '--text', CANARY, '--json'], { encoding: 'utf8' })
  return { status: run.status, hits: (JSON.parse(run.stdout).hits as Array<{ path: string }>).map((h) => relative(e.home, h.path)).sort() }
}

/** A session's log as `scanHome` names it (`sessions/<project folder>/<id>/session.jsonl.zstd`). */
const sessionLog = (id: string): string => relative(e.home, join(findSessionDir(e.home, id)!, 'session.jsonl.zstd'))

/** The pending-erase file's records as `<session> <tombstone seq> <state>`, sorted. */
function pendingErases(): string[] {
  const pendingFile = join(e.home, 'message-recall', 'pending-erases.json')
  return existsSync(pendingFile) ? JSON.parse(readFileSync(pendingFile, 'utf8')).erases.map((p: any) => `${p.sessionId} ${p.tombstoneSeq} ${p.state}`).sort() : []
}

/** Wait until the pending-erase file reads `want` (a start runs the erases after the host answers). */
async function waitPendingErases(want: string[], label: string): Promise<void> {
  const deadline = Date.now() + 60_000
  while (JSON.stringify(pendingErases()) !== JSON.stringify(want)) {
    assert.ok(Date.now() < deadline, `${label}: ${JSON.stringify(pendingErases())}\n${e.host.logTail(40)}`)
    await new Promise((r) => setTimeout(r, 100))
  }
}

/** The entry's erase controls and texts (the first removal's entry unless `seq`). */
async function readErase(seq = tombstoneSeq): Promise<{ buttons: string[]; erase: string[]; pending: string | null; problem?: string; erased: string | null; confirm: { title: string; body: string; copies: string | null; boxes: [string, boolean][] } | null }> {
  return page.$eval(`[data-message-recall-entry="${seq}"]`, (el) => ({
    buttons: [...el.querySelectorAll('[data-message-recall-entry-action]')].map((b) => b.textContent ?? ''),
    erase: [...el.querySelectorAll('[data-message-recall-erase-action]')].map((b) => b.textContent ?? ''),
    pending: el.querySelector('[data-message-recall-erase-pending] span')?.textContent ?? null,
    ...(el.querySelector('[data-message-recall-erase-problem]') === null ? {} : { problem: el.querySelector('[data-message-recall-erase-problem]')!.textContent ?? '' }),
    erased: el.querySelector('[data-message-recall-entry-erased]')?.textContent ?? null,
    confirm: el.querySelector('[data-message-recall-erase-confirm]') === null ? null : {
      title: el.querySelector('[data-message-recall-erase-title]')?.textContent ?? '',
      body: el.querySelector('[data-message-recall-erase-body]')?.textContent ?? '',
      copies: el.querySelector('[data-message-recall-erase-copies] p')?.textContent ?? null,
      boxes: [...el.querySelectorAll('[data-message-recall-erase-copy]')].map((label) => [label.textContent ?? '', (label.querySelector('input[type="checkbox"]') as HTMLInputElement | null)?.checked === true] as [string, boolean]),
    },
  }))
}

/** `data-message-recall-erase-action` of the focused element, or `null`. */
const focusedErase = (): Promise<string | null> => page.evaluate(() => document.activeElement?.getAttribute('data-message-recall-erase-action') ?? null)

describe('Erase for good from the Removed panel in the real DSH web UI', { timeout: 1_200_000 }, () => {
  before(async () => {
    e = await bootE2e('erase-panel', { title: TITLE })
    page = await e.newPage()
  }, { timeout: 600_000 })
  after(async () => {
    await e?.close()
  })

  scenario('1. a canary prompt is deleted and the session branched; Erase for good… by keyboard lists the Branch, checked; the entry reads that it is pending', async () => {
    e.model.script([{ text: A1 }, { text: A2 }])
    await startTurns(page, e.url, e.workspace, [P1, P2])
    sessionId = (await listSessions(e.url))[0]!.sessionId
    const prompt = await findRow(page, 'user', P1)
    assert.equal(await armAndCommit(page, prompt.key, 'delete'), 'Delete 1?')
    await waitRowHidden(page, prompt.key)
    // A Branch of the whole session (its seed holds the removal), named as the web client names a Branch.
    branchId = (await rpc(e.url, 'session.fork', { sessionId })).sessionId
    await rpc(e.url, 'session.rename', { sessionId: branchId, title: BRANCH_TITLE })

    const [entry] = await openPanel(page)
    tombstoneSeq = entry!.tombstoneSeq
    await page.waitForSelector(`[data-message-recall-entry="${tombstoneSeq}"] [data-message-recall-erase-action="open"]`, { visible: true, timeout: 10_000 })
    assert.deepEqual(await readErase(), { buttons: ['Restore', 'Open a copy'], erase: ['Erase for good…'], pending: null, erased: null, confirm: null })
    // Keyboard only: Tab from the panel to Erase for good…, Enter.
    for (let i = 0; i < 12 && (await focusedErase()) !== 'open'; i++) await page.keyboard.press('Tab')
    assert.equal(await focusedErase(), 'open', 'Tab reaches Erase for good…')
    await page.keyboard.press('Enter')
    await page.waitForSelector('[data-message-recall-erase-confirm]', { visible: true, timeout: 5_000 })
    // The copies come with the erase plan's answer, which can arrive after the confirmation opens.
    await page.waitForSelector('[data-message-recall-erase-copies] p', { visible: true, timeout: 15_000 })
    assert.deepEqual((await readErase()).confirm, {
      title: 'Erase 1 message for good?',
      body: 'Their text goes from the session log on disk, with the images and tool output files only they reference. This cannot be undone: afterwards there is no Undo, Restore or Open a copy from before it. It happens when the host next starts; restart the host to erase now.',
      copies: `Also in 1 related session: “${BRANCH_TITLE}”.`,
      boxes: [[`Erase in “${BRANCH_TITLE}” too (its removal there of 1 message)`, true]],
    })
    assert.equal(await focusedErase(), 'keep', 'focus starts on Keep')
    await page.keyboard.down('Shift')
    await page.keyboard.press('Tab')
    await page.keyboard.up('Shift')
    assert.equal(await focusedErase(), 'confirm')
    await e.shot(page, '01-confirm')
    await page.keyboard.press('Enter')
    await waitInPage(page, 'the pending erase to show', () => !!document.querySelector('[data-message-recall-erase-pending="pending"]'), 10_000)
    assert.deepEqual(await readErase(), { buttons: [], erase: ['Cancel erase'], pending: 'Erase pending: it happens when the host restarts', erased: null, confirm: null })
    assert.equal(await focusedErase(), 'cancel', 'focus moves to Cancel erase')
    await e.shot(page, '01-pending')

    const pendingFile = join(e.home, 'message-recall', 'pending-erases.json')
    const erases = (): string[] => JSON.parse(readFileSync(pendingFile, 'utf8')).erases.map((p: any) => `${p.sessionId} ${p.tombstoneSeq} ${p.state}`).sort()
    assert.deepEqual(erases(), [`${sessionId} ${tombstoneSeq} pending`, `${branchId} ${tombstoneSeq} pending`].sort(), 'both kept before the panel said so; the Branch holds the same tombstone in its seed')
    assert.deepEqual(scanHome(), { status: 1, hits: [sessionLog(sessionId), sessionLog(branchId)].sort() }, 'until the restart the canary is still in the two session logs')
  })

  scenario('2. after a host restart the canary is nowhere under the DSH home, in neither session, and the panel offers no Restore for it', async () => {
    await e.restartHost()
    const pendingFile = join(e.home, 'message-recall', 'pending-erases.json')
    const deadline = Date.now() + 60_000
    while (existsSync(pendingFile) && JSON.parse(readFileSync(pendingFile, 'utf8')).erases.length > 0) {
      assert.ok(Date.now() < deadline, `the pending erase did not run at start: ${readFileSync(pendingFile, 'utf8')}\n${e.host.logTail(40)}`)
      await new Promise((r) => setTimeout(r, 100))
    }
    assert.deepEqual(scanHome(), { status: 0, hits: [] }, 'the built scan finds the canary nowhere under the DSH home')

    await openApp(page, e.url)
    // The delete retitled the session from the first prompt left (the title made from the canary prompt went).
    await openExactSidebarEntry(page, 'What is on the todo')
    await page.waitForFunction((want) => (window as any).__DSH_MESSAGE_RECALL__?.snapshot()?.sessionId === want, { timeout: 30_000, polling: 100 }, sessionId)
    await waitForChatText(page, A2)
    await openPanel(page)
    await waitInPage(page, 'the erased entry', () => !!document.querySelector('[data-message-recall-entry-erased]'), 10_000)
    assert.deepEqual(await readErase(), { buttons: [], erase: [], pending: null, erased: 'Erased for good', confirm: null })
    await e.shot(page, '02-erased')
    assert.deepEqual(scanHome(), { status: 0, hits: [] }, 'opening the session again brings nothing back')
  })

  scenario('3. an erase that failed at start shows the host\'s reason; Try again at next start by keyboard makes it pending, and the next start erases it', async () => {
    await closePanel(page)
    e.model.script([{ text: A3 }])
    const bars = await page.$$eval('[data-chat-flow] > [data-chat-flow-kind="turn-tail"]', (els) => els.filter((el) => el.getClientRects().length > 0).length)
    await sendPrompt(page, P3)
    // The turn ends before the removal (a running turn answers AGENT_BUSY).
    await waitForTurnBars(page, bars + 1)
    const prompt = await findRow(page, 'user', P3)
    assert.equal(await armAndCommit(page, prompt.key, 'delete'), 'Delete 1?')
    await waitRowHidden(page, prompt.key)
    const entries = await openPanel(page)
    const second = entries.find((entry) => entry.tombstoneSeq !== tombstoneSeq)!.tombstoneSeq
    await page.waitForSelector(`[data-message-recall-entry="${second}"] [data-message-recall-erase-action="open"]`, { visible: true, timeout: 10_000 })
    for (let i = 0; i < 12 && (await focusedErase()) !== 'open'; i++) await page.keyboard.press('Tab')
    await page.keyboard.press('Enter')
    await waitInPage(page, 'the plan of the erase', () => document.querySelector<HTMLButtonElement>('[data-message-recall-erase-action="confirm"]')?.disabled === false, 15_000)
    await page.keyboard.down('Shift')
    await page.keyboard.press('Tab')
    await page.keyboard.up('Shift')
    assert.equal(await focusedErase(), 'confirm')
    await page.keyboard.press('Enter')
    await waitInPage(page, 'the pending erase to show', () => !!document.querySelector('[data-message-recall-erase-pending="pending"]'), 10_000)
    assert.deepEqual(pendingErases(), [`${sessionId} ${second} pending`])

    // Stopped: a directory where an interrupted erase's new file would be, which the erase does not clear away.
    const blocker = join(findSessionDir(e.home, sessionId)!, 'session.jsonl.zstd.0123456789ab.erase.tmp')
    await e.restartHost(() => {
      mkdirSync(blocker)
      writeFileSync(join(blocker, 'held'), 'x')
    })
    await waitPendingErases([`${sessionId} ${second} failed`], 'the erase did not fail at start')
    assert.deepEqual(scanHome(), { status: 1, hits: [sessionLog(sessionId)] }, 'nothing was erased: the second canary is still in the session log')

    await openApp(page, e.url)
    await openExactSidebarEntry(page, 'What is on the todo')
    await page.waitForFunction((want) => (window as any).__DSH_MESSAGE_RECALL__?.snapshot()?.sessionId === want, { timeout: 30_000, polling: 100 }, sessionId)
    await waitForChatText(page, A3)
    await openPanel(page)
    await waitInPage(page, 'the failed erase', () => !!document.querySelector('[data-message-recall-erase-pending="failed"]'), 10_000)
    assert.deepEqual(await readErase(second), {
      buttons: [], erase: ['Try again at next start', 'Cancel erase'], erased: null, confirm: null,
      pending: 'Erase for good did not go through when the host started; nothing was changed',
      problem: 'Reason from the host: Path is a directory: rm returned EISDIR (is a directory) …/session.jsonl.zstd.0123456789ab.erase.tmp',
    })
    assert.equal(await page.$eval(`[data-message-recall-entry="${second}"] [data-message-recall-erase-action="retry"]`, (b) => b.getAttribute('aria-label')), 'Try the erase for good again: it happens when the host next starts')
    await e.shot(page, '03-failed')
    // Keyboard only: Tab to Try again at next start, Enter.
    for (let i = 0; i < 12 && (await focusedErase()) !== 'retry'; i++) await page.keyboard.press('Tab')
    assert.equal(await focusedErase(), 'retry', 'Tab reaches Try again at next start')
    await page.keyboard.press('Enter')
    await waitInPage(page, 'the erase pending again', () => !!document.querySelector('[data-message-recall-erase-pending="pending"]'), 10_000)
    assert.deepEqual(await readErase(second), { buttons: [], erase: ['Cancel erase'], pending: 'Erase pending: it happens when the host restarts', erased: null, confirm: null })
    assert.equal(await focusedErase(), 'cancel', 'focus moves to Cancel erase')
    assert.deepEqual(pendingErases(), [`${sessionId} ${second} pending`], 'pending again on disk once the panel says so')

    await e.restartHost(() => rmSync(blocker, { recursive: true }))
    await waitPendingErases([], 'the erase did not run at the next start')
    assert.deepEqual(scanHome(), { status: 0, hits: [] }, 'the built scan finds the canary nowhere under the DSH home')
  })
})
