/**
 * End to end, in the real rc.8 web host and headless Chromium: a write of this plugin to a session
 * that is only stored (not live in the host) leaves that session in an open page's sidebar.
 *
 * The plugin enters a stored session for the write and detaches it afterwards; the host turns the
 * detach into a "session removed" frame for every open page (`dsh-host-apiproxy`, the `host` live
 * stream on `session/disposed`), which the page's session list drops the entry on
 * (`dsh-client-runtime`, `SessionsManager.handleHostEnvelope`). The session is still stored, so the
 * page must list it again without a reload, open it with the write applied, and keep listing it.
 * The tests run in order and build on each other.
 */
import assert from 'node:assert/strict'
import { basename } from 'node:path'
import { after, before, describe } from 'node:test'
import type { Page } from 'puppeteer-core'
import { createSession, listSessions, prompt, rpc, waitForTurnEnds } from '../../tools/dsh-api'
import { bootE2e, eventsOnDisk, sequentialScenarios, type E2e } from './harness'
import { openExactSidebarEntry, sidebarTitles } from './removals-ui'
import {
  chooseWorkspace, exchangeTurns, findRow, openApp, sendPrompt, waitForChatText, waitForTurnBars, waitInPage,
  waitRowHidden,
} from './ui'

const TITLE = 'Stored write chat'
const OTHER = 'Other open chat'
const P1 = 'Keep the PELICAN-4 note for later.'
const A1 = 'The PELICAN-4 note is kept.'
const P2 = 'Also keep the PUFFIN-8 note.'
const A2 = 'The PUFFIN-8 note is kept too.'
const P3 = 'A question in the other chat.'
const A3 = 'An answer in the other chat.'
const P4 = 'One more question in the other chat.'
const A4 = 'One more answer in the other chat.'

let e: E2e
let page: Page
let storedId = ''
let otherId = ''
const scenario = sequentialScenarios(() => e)

/** POST one request to the plugin's route; answers the parsed body after asserting 200. */
async function route(body: object): Promise<any> {
  const res = await fetch(`${e.url}/dsh-message-recall`, { method: 'POST', headers: { 'content-type': 'application/json', origin: e.url }, body: JSON.stringify(body) })
  const json = (await res.json()) as any
  assert.equal(res.status, 200, JSON.stringify(json))
  return json
}

/** Wait until the sidebar lists exactly the workspace folder and the sessions `titles` (in any order); fails naming what it lists. */
async function waitSidebar(p: Page, titles: readonly string[], label: string, timeoutMs = 15_000): Promise<void> {
  const want = [basename(e.workspace), ...titles].sort()
  const listed = await p.waitForFunction((w: string) => JSON.stringify([...document.querySelectorAll<HTMLElement>('[role=treeitem]')]
    .filter((el) => el.offsetParent !== null).map((el) => (el.innerText || '').trim().split('\n')[0] ?? '').sort()) === w,
  { timeout: timeoutMs, polling: 100 }, JSON.stringify(want)).then(() => true, () => false)
  if (!listed) assert.deepEqual((await sidebarTitles(p)).sort(), want, `${label}: the sidebar lists ${JSON.stringify(want)} within ${timeoutMs} ms`)
}

describe('a write to a stored session keeps it in the open page’s sidebar', { timeout: 1_200_000 }, () => {
  before(async () => {
    e = await bootE2e('stored-write', { title: TITLE })
    page = await e.newPage()
  }, { timeout: 600_000 })

  after(async () => {
    await e?.close()
  })

  scenario('1. a session with two turns made in the UI', async () => {
    e.model.script([{ text: A1 }, { text: A2 }])
    await openApp(page, e.url)
    await chooseWorkspace(page, e.workspace)
    await exchangeTurns(page, [[P1, A1], [P2, A2]])
    const sessions = await listSessions(e.url)
    assert.equal(sessions.length, 1)
    storedId = sessions[0]!.sessionId
  })

  scenario('2. the page opens another session, the host restarts: the first is listed, stored and not live', async () => {
    e.model.script([{ text: A3 }])
    otherId = await createSession(e.url, e.workspace)
    await prompt(e.url, otherId, P3)
    await waitForTurnEnds(e.url, otherId, 1)
    await rpc(e.url, 'session.rename', { sessionId: otherId, title: OTHER })
    await openApp(page, e.url)
    await openExactSidebarEntry(page, OTHER)
    await waitForChatText(page, A3)
    // The page shows the other session across the restart, so nothing resumes the first one.
    await e.restartHost()
    await openApp(page, e.url)
    await waitForChatText(page, A3)
    await waitSidebar(page, [OTHER, TITLE], 'before the write')
  })

  scenario('3. a delete of the stored session’s second prompt over HTTP: the sidebar still lists it, before and after the page’s next turn', async () => {
    const before = await eventsOnDisk(e.home, storedId)
    const p2 = before.find((ev) => ev.type === 'user/message' && JSON.stringify(ev.data).includes(P2))
    assert.ok(p2, 'the second prompt is on disk')
    const answer = await route({ sessionId: storedId, action: 'delete', seq: p2!.seq })
    assert.equal(answer.ok, true, JSON.stringify(answer))
    assert.equal(answer.value.persisted, true, JSON.stringify(answer))
    const after = await eventsOnDisk(e.home, storedId)
    assert.equal(after.at(-1)!.type, 'user/message', 'the tombstone is the last event on disk')
    assert.equal(after.at(-1)!.seq, answer.value.tombstoneSeq)
    assert.equal(before.at(-1)!.type, 'turn/end', 'nothing opened the session after the restart')
    assert.ok(after.slice(before.length).some((ev) => ev.type === 'session/end-seed'), 'the write entered the stored session (a cold open appends session/end-seed)')

    // The host's frames for the page go out in order on one stream: once the page shows the other
    // session's next turn ended (its running status went off), it has handled the write's frames.
    e.model.script([{ text: A4 }])
    await sendPrompt(page, P4)
    await waitForChatText(page, A4)
    await waitForTurnBars(page, 2)
    await waitSidebar(page, [OTHER, TITLE], 'after the write and the next turn')
    await e.shot(page, '03-sidebar-after-stored-write')
  })

  scenario('4. the stored session opens from the sidebar with the prompt deleted, and a reload lists both', async () => {
    await openExactSidebarEntry(page, TITLE)
    await waitForChatText(page, A1)
    await waitRowHidden(page, (await findRow(page, 'user', P2)).key)
    await page.reload({ waitUntil: 'domcontentloaded' })
    await waitInPage(page, 'the web shell to boot', () => !!(window as any).__DSH_BOOT__, 60_000)
    await waitSidebar(page, [OTHER, TITLE], 'after a reload')
  })
})
