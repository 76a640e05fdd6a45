/**
 * End to end, in the real rc.8 web host and headless Chromium, one conversation from start to
 * restart (issue scenarios 1–6): create a session in the UI, hover every row kind, Recall a
 * prompt, Delete a step with tool calls, Delete onward, then restart the host and reload.
 * The tests run in order and build on each other; a test whose predecessor failed fails too.
 */
import assert from 'node:assert/strict'
import { copyFileSync } from 'node:fs'
import { join } from 'node:path'
import { after, before, describe } from 'node:test'
import type { Page } from 'puppeteer-core'
import { listSessions } from '../../tools/dsh-api'
import { PROJECT_ROOT } from '../../tools/dsh-host'
import { readTombstone, type TombstoneRecord } from '../../src/shared/tombstone'
import { en } from '../../src/client/text/locales'
import { bootE2e, eventsOnDisk, sequentialScenarios, type E2e } from './harness'
import {
  chooseWorkspace, clickAction, composerValue, fill, findRow, hoverNothing, hoverRow, openApp, openSessionFromSidebar,
  readCluster, recallSnapshot, rows, rowSelector, sendPrompt, waitArmed, waitForChatText, waitForTurnBars, waitInPage, waitRowHidden,
  type RowInfo,
} from './ui'
import { assertWire, lastRequest } from './wire-checks'
import { actionsOfferedOn } from '../../src/shared/actions'

const TITLE = 'Heron launch chat'
const P1 = 'What do notes.txt and todo.txt say?'
const A1_TEXT = 'I will read both files before answering.'
const A1_FINAL = 'Both files are read; one task is still open.'
const P2 = 'Remind me about the PELICAN budget line please.'
const A2 = 'Noted, the budget line stays as planned.'
const P3 = 'Write one calm sentence slowly.'
const A3 = 'The river keeps its own slow time under the old stone bridge.'
const P4 = 'Is anything blocking the launch?'
const A4 = 'Nothing is blocking it right now.'
const P5 = 'Summarise the open work in one line.'
const A5 = 'One open task remains.'
const P6 = 'Let us start over: what is a good first step?'
const A6 = 'A good first step is a short plan.'
/** The first-prompt title of P6 (five words), which the session gets once Delete onward removed every earlier prompt. */
const P6_TITLE = 'Let us start over: what'
const P7 = 'And after the restart, what do you remember?'
const A7 = 'I remember the plan you asked for.'
/** Contents of the workspace files, which reach the model only through the tool results. */
const FILE_SECRETS = ['BLUE-HERON', 'ORCHID-77']

let e: E2e
let page: Page
let sessionId = ''
/** Row keys learned along the way. */
const keys: Record<string, string> = {}

const scenario = sequentialScenarios(() => e)

const shownKinds = (all: readonly RowInfo[]) => all.filter((r) => r.shown).map((r) => r.kind)

describe('one conversation in the real DSH web UI', { timeout: 1_800_000 }, () => {
  before(async () => {
    e = await bootE2e('conversation', { title: TITLE })
    page = await e.newPage()
  }, { timeout: 600_000 })

  after(async () => {
    await e?.close()
  })

  scenario('1. a session created in the UI: two prompts, one answered with tool calls and their results', async () => {
    const notes = join(e.workspace, 'notes.txt')
    const todo = join(e.workspace, 'todo.txt')
    e.model.script([
      { text: A1_TEXT, toolCalls: [{ name: 'read', arguments: { file_path: notes } }, { name: 'read', arguments: { file_path: todo } }] },
      { text: A1_FINAL },
      { text: A2 },
    ])
    await openApp(page, e.url)
    await chooseWorkspace(page, e.workspace)
    await sendPrompt(page, P1)
    await waitForChatText(page, A1_FINAL)
    await waitForTurnBars(page, 1)
    await sendPrompt(page, P2)
    await waitForChatText(page, A2)
    await waitForTurnBars(page, 2)

    const sessions = await listSessions(e.url)
    assert.equal(sessions.length, 1, 'exactly one non-blank session exists')
    sessionId = sessions[0]!.sessionId

    const all = await rows(page)
    const kinds = shownKinds(all)
    assert.equal(kinds.filter((k) => k === 'user').length, 2, 'two prompt rows')
    assert.equal(kinds.filter((k) => k === 'tool-call').length, 2, 'two tool rows')
    assert.equal(kinds.filter((k) => k === 'turn-tail').length, 2, 'two turn bars')
    assert.ok(kinds.includes('context'), 'the runtime context row')
    keys.p1 = (await findRow(page, 'user', P1)).key
    keys.p2 = (await findRow(page, 'user', P2)).key
    keys.a1 = (await findRow(page, 'assistant-step', A1_TEXT)).key
    keys.a1final = (await findRow(page, 'assistant-step', A1_FINAL)).key
    keys.a2 = (await findRow(page, 'assistant-step', A2)).key
    keys.context = (await findRow(page, 'context')).key
    keys.tail1 = all.filter((r) => r.kind === 'turn-tail')[0]!.key
    const tools = all.filter((r) => r.kind === 'tool-call')
    keys.tool1 = tools[0]!.key
    keys.tool2 = tools[1]!.key

    // The model saw the tool results of both calls in the second request of turn 1.
    assert.equal(e.model.requests.length, 3, 'three model calls: tool step, final step of turn 1, turn 2')
    assertWire(e.model.requests[1]!, { present: [P1, ...FILE_SECRETS, 'call-1', 'call-2'] })
    await e.shot(page, '01-conversation')
  })

  scenario('2. hovering shows Recall/Delete/Delete onward on prompts, Delete/Delete onward on answers and tools, nothing on context rows, turn bars, or while a turn runs', async () => {
    const snapshot = await recallSnapshot(page)
    assert.ok(snapshot, 'window.__DSH_MESSAGE_RECALL__.snapshot() is available (the client half is loaded)')
    assert.equal(snapshot.sessionId, sessionId, 'the snapshot follows the open session')

    const actionsOf = async (key: string) => {
      const c = await hoverRow(page, key)
      assert.ok(c.present && c.visible, `the action cluster of ${key} shows on hover`)
      for (const b of c.buttons) {
        assert.equal(b.type, 'button', `${b.action} is a type=button`)
        assert.ok(b.label.length > 0, `${b.action} on ${key} has an accessible name`)
        assert.equal(b.disabled, false, `${b.action} on ${key} is enabled`)
      }
      return c.buttons.map((b) => b.action).sort()
    }
    for (const k of [keys.p1!, keys.p2!]) assert.deepEqual(await actionsOf(k), [...actionsOfferedOn('prompt')].sort(), `prompt row ${k}`)
    await e.shot(page, '02-hover-prompt')
    // README picture: the hovered first prompt and the answer under it (text, two tool rows, final text).
    await hoverRow(page, keys.p1!)
    const flow = await (await page.$('[data-chat-flow]'))!.boundingBox()
    const top = await (await page.$(rowSelector(keys.p1!)))!.boundingBox()
    const cluster = await (await page.$(`${rowSelector(keys.p1!)} [data-message-recall-actions]`))!.boundingBox()
    const bottom = await (await page.$(rowSelector(keys.a1final!)))!.boundingBox()
    if (flow && top && cluster && bottom) {
      const y = Math.max(0, Math.min(top.y, cluster.y) - 12)
      const clip = { x: Math.max(0, flow.x - 16), y, width: Math.min(1400, flow.width + 32), height: bottom.y + bottom.height - y + 16 }
      const png = join(e.dir, 'hover-cluster.png')
      await page.screenshot({ path: png, clip })
      if (process.env.E2E_UPDATE_DOCS === '1') copyFileSync(png, join(PROJECT_ROOT, 'docs', 'hover-cluster.png'))
    }
    for (const k of [keys.a1!, keys.a1final!, keys.a2!, keys.tool1!, keys.tool2!]) {
      assert.deepEqual(await actionsOf(k), [...actionsOfferedOn('message')].sort(), `answer/tool row ${k}`)
    }
    await e.shot(page, '02-hover-tool')
    for (const k of [keys.context!, ...(await rows(page)).filter((r) => r.kind === 'turn-tail').map((r) => r.key)]) {
      const c = await hoverRow(page, k)
      assert.ok(!c.visible || c.buttons.length === 0, `no actions on ${k}`)
    }
    await hoverNothing(page)
    const idle = await readCluster(page, keys.p1!)
    assert.ok(!idle.visible, 'the cluster of a row is not shown while the pointer is elsewhere')

    // While a turn runs (a slowly streamed answer), no row offers actions.
    e.model.script([{ slow: A3, chunkSize: 3, chunkDelayMs: 350 }])
    await sendPrompt(page, P3)
    await page.waitForFunction((p) => [...document.querySelectorAll('[data-chat-flow] > [data-chat-flow-kind="user"]')].some((r) => (r as HTMLElement).innerText.includes(p)), { timeout: 15_000 }, P3)
    await waitInPage(page, 'the plugin to see the third turn running', () => (window as any).__DSH_MESSAGE_RECALL__?.snapshot()?.running === true, 15_000)
    const turnsBefore = (await rows(page)).filter((r) => r.kind === 'turn-tail' && r.shown).length
    assert.equal(turnsBefore, 2, 'the third turn is still running')
    for (const k of [keys.p1!, keys.a2!, keys.tool1!]) {
      const c = await hoverRow(page, k)
      const usable = c.visible && c.buttons.some((b) => !b.disabled)
      assert.ok(!usable, `no usable actions on ${k} while a turn runs`)
    }
    await e.shot(page, '02-hover-while-running')
    await waitForChatText(page, A3)
    await waitForTurnBars(page, 3)
    keys.p3 = (await findRow(page, 'user', P3)).key
    const after = await hoverRow(page, keys.p1!)
    assert.ok(after.visible && after.buttons.length === 4, 'actions come back once the turn ended')
  })

  scenario('3. Recall the second prompt: its row goes, its text is back in the composer, the next request lacks it', async () => {
    await clickAction(page, keys.p2!, 'recall')
    await waitRowHidden(page, keys.p2!)
    await page.waitForFunction((t) => (document.querySelector('textarea') as HTMLTextAreaElement | null)?.value === t, { timeout: 10_000 }, P2)
    assert.equal(await composerValue(page), P2, 'the recalled text is in the composer')
    const shown = (await rows(page)).filter((r) => r.shown).map((r) => r.key)
    for (const k of [keys.p1!, keys.a1!, keys.a2!, keys.p3!]) assert.ok(shown.includes(k), `${k} stays`)
    await e.shot(page, '03-recalled')

    e.model.script([{ text: A4 }])
    await sendPrompt(page, P4)
    await waitForChatText(page, A4)
    await waitForTurnBars(page, 4)
    assertWire(lastRequest(e.model), { present: [P1, P3, P4, A2], absent: [P2, 'PELICAN'] })
  })

  scenario('4. Delete the answer that made the tool calls (two clicks): its answer row and tool rows go, the next request has no orphan tool message and no trace of them', async () => {
    await clickAction(page, keys.a1!, 'delete')
    const armed = await waitArmed(page, keys.a1!, 'delete')
    // What goes: the answer and its two tool results.
    assert.equal(armed.text, fill(en['armed.delete'], { count: 3 }), 'the armed button shows the count of what goes')
    assert.equal(armed.label, fill(en['armed.label.other'], { count: 3 }))
    await e.shot(page, '04-armed')
    await clickAction(page, keys.a1!, 'delete')
    for (const k of [keys.a1!, keys.tool1!, keys.tool2!]) await waitRowHidden(page, k)
    const shown = (await rows(page)).filter((r) => r.shown).map((r) => r.key)
    for (const k of [keys.p1!, keys.a1final!, keys.a2!, keys.p3!]) assert.ok(shown.includes(k), `${k} stays`)
    await e.shot(page, '04-step-deleted')

    e.model.script([{ text: A5 }])
    await sendPrompt(page, P5)
    await waitForChatText(page, A5)
    await waitForTurnBars(page, 5)
    assertWire(lastRequest(e.model), { present: [P1, A1_FINAL, P5], absent: [A1_TEXT, ...FILE_SECRETS, 'call-1', 'call-2', P2] })
  })

  scenario('5. Delete onward from the first prompt: everything from there is hidden, a later prompt stays visible', async () => {
    const before = (await rows(page)).filter((r) => r.shown)
    await clickAction(page, keys.p1!, 'deleteFrom')
    const armed = await waitArmed(page, keys.p1!, 'deleteFrom')
    // What goes: the prompts P1, P3, P4, P5, the runtime-context message injected after P1, and
    // the answers A1_FINAL, A2, A3, A4, A5 (P2 was recalled, A1_TEXT with its tool results deleted).
    assert.equal(armed.text, fill(en['armed.deleteFrom'], { count: 10 }), 'the armed button shows the count of what goes')
    assert.equal(armed.label, fill(en['armed.label.other'], { count: 10 }))
    await clickAction(page, keys.p1!, 'deleteFrom')
    for (const r of before) await waitRowHidden(page, r.key)
    await e.shot(page, '05-deleted-onward')

    e.model.script([{ text: A6 }])
    await sendPrompt(page, P6)
    await waitForChatText(page, A6)
    await page.waitForFunction((a) => [...document.querySelectorAll('[data-chat-flow] > [data-chat-flow-kind="assistant-step"]')].some((r) => (r as HTMLElement).innerText.includes(a) && (r as HTMLElement).getClientRects().length > 0), { timeout: 20_000 }, A6)
    keys.p6 = (await findRow(page, 'user', P6)).key
    keys.a6 = (await findRow(page, 'assistant-step', A6)).key
    const all = await rows(page)
    for (const k of [keys.p6, keys.a6]) assert.ok(all.find((r) => r.key === k)?.shown, `${k} is visible`)
    for (const r of before) assert.ok(!all.find((x) => x.key === r.key)?.shown, `${r.key} stays hidden`)
    assertWire(lastRequest(e.model), { present: [P6], absent: [P1, P3, A3, P4, A4, P5, A5, A1_FINAL, A2, ...FILE_SECRETS] })
    await e.shot(page, '05-after-new-prompt')
  })

  scenario('6. after a host restart and a reload every removal holds: transcript, next request, tombstones on disk', async () => {
    const beforeRows = await rows(page)
    const hidden = beforeRows.filter((r) => !r.shown).map((r) => r.key)
    const shown = beforeRows.filter((r) => r.shown).map((r) => r.key)
    assert.ok(hidden.length >= 10 && shown.length >= 2, 'rows hidden and shown before the restart')

    await e.restartHost()
    await openApp(page, e.url)
    // The title made from P1 went with it (Delete onward left no prompt); P6 titled the session.
    await openSessionFromSidebar(page, P6_TITLE)
    await waitForChatText(page, A6)
    for (const k of hidden) await waitRowHidden(page, k)
    const all = await rows(page)
    for (const k of shown) assert.ok(all.find((r) => r.key === k)?.shown, `${k} is visible after the reload`)
    await e.shot(page, '06-after-restart')

    e.model.script([{ text: A7 }])
    await sendPrompt(page, P7)
    await waitForChatText(page, A7)
    assertWire(lastRequest(e.model), { present: [P6, A6, P7], absent: [P1, P2, P3, P4, P5, A1_TEXT, A1_FINAL, A2, A3, A4, A5, ...FILE_SECRETS] })

    const events = (await eventsOnDisk(e.home, sessionId))
    const tombstones = events.map((ev) => readTombstone(ev)).filter((t): t is TombstoneRecord => t !== null)
    assert.deepEqual(tombstones.map((t) => t.action), ['recall', 'delete', 'deleteFrom'], 'three tombstones on disk, in order')
    const tombstoneText = JSON.stringify(events.filter((ev) => readTombstone(ev)))
    for (const s of [P1, P2, A1_TEXT, ...FILE_SECRETS]) assert.ok(!tombstoneText.includes(s), `no tombstone copies ${JSON.stringify(s)}`)
  })
})
