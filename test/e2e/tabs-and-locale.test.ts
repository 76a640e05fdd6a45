/**
 * End to end, in the real rc.8 web host and headless Chromium (scenarios 7–9): two tabs on one
 * session, where an action from the tab with the stale view is refused and nothing is appended
 * when it conflicts, and two quick deletes on one view, each confirmed with its count, both land;
 * and the Chinese UI.
 *
 * A stale view is made deterministic by holding a tab's event stream: the page's WebSocket to
 * `/api/events.*` is wrapped (before any page script runs) so that, while `__e2eHoldEvents` is
 * true, received messages are queued instead of delivered; releasing it delivers them in order.
 * This is what a slow connection does to a tab, without timing games.
 */
import assert from 'node:assert/strict'
import { after, before, describe } from 'node:test'
import type { Page } from 'puppeteer-core'
import { listSessions } from '../../tools/dsh-api'
import { en, zh } from '../../src/client/text/locales'
import { readTombstone } from '../../src/shared/tombstone'
import { bootE2e, eventsOnDisk, sequentialScenarios, waitForDisk, type E2e } from './harness'
import {
  chooseWorkspace, clickAction, fill, findRow, hoverRow, openApp, openSessionFromSidebar, rows, sendPrompt, waitArmed,
  waitForChatText, waitForTurnBars, waitRowError, waitRowHidden,
} from './ui'
import { actionsOfferedOn } from '../../src/shared/actions'

const TITLE = 'Two tab chat'
const P1 = 'First question about the KESTREL draft.'
const A1 = 'The KESTREL draft needs one more review.'
const P2 = 'Second question about the release date.'
const A2 = 'The release date is not fixed yet.'
const P3 = 'Third question for the Chinese tab.'
const A3 = 'Here is the third answer.'

let e: E2e
let pageA: Page
let sessionId = ''
const keys: Record<string, string> = {}

const scenario = sequentialScenarios(() => e)

/**
 * Page script that lets a test hold the tab's event stream (see the module comment). The rc.8
 * browser receives session events over WebSockets on `/api/events.*` (dsh-client-connection
 * `WebApiClient.readWebSocket`), so `WebSocket` is subclassed: while `__e2eHoldEvents` is true,
 * message events of those sockets are queued; `__e2eRelease()` delivers them in order.
 * A string, not a function: the test loader's name-keeping helpers do not exist inside the page.
 */
const EVENT_HOLD_SCRIPT = `(() => {
  const Native = window.WebSocket
  const held = []
  window.__e2eHoldEvents = false
  window.__e2eHeldCount = () => held.length
  window.__e2eRelease = () => {
    window.__e2eHoldEvents = false
    while (held.length) held.shift()()
  }
  class HeldWebSocket extends Native {
    constructor(...args) {
      super(...args)
      this.__wrapped = new Map()
    }
    addEventListener(type, listener, options) {
      if (type !== 'message' || !String(this.url).includes('/api/events') || typeof listener !== 'function') return super.addEventListener(type, listener, options)
      const socket = this
      const wrapped = function (event) {
        if (window.__e2eHoldEvents) held.push(() => listener.call(socket, event))
        else listener.call(socket, event)
      }
      this.__wrapped.set(listener, wrapped)
      return super.addEventListener(type, wrapped, options)
    }
    removeEventListener(type, listener, options) {
      return super.removeEventListener(type, this.__wrapped?.get(listener) ?? listener, options)
    }
  }
  window.WebSocket = HeldWebSocket
})()`

/** Install {@link EVENT_HOLD_SCRIPT} before any page script runs. */
async function installEventHold(page: Page): Promise<void> {
  await page.evaluateOnNewDocument(EVENT_HOLD_SCRIPT)
}

/** Hold (true) or release (false, delivering what was held) the tab's session events. */
const hold = (page: Page, on: boolean) => page.evaluate(on ? 'window.__e2eHoldEvents = true' : 'window.__e2eRelease()')

/** The route's `inspect` summary of the live session and its persisted log. */
interface Inspection { live: { eventCount: number; lastSeq: number; replaceGeneration: number }; disk: { eventCount: number } | null }
async function inspect(): Promise<Inspection> {
  const res = await fetch(`${e.url}/dsh-message-recall`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ sessionId, action: 'inspect' }) })
  const body = await res.json() as { ok: boolean; value: Inspection; error?: unknown }
  assert.ok(body.ok, `inspect answers ok: ${JSON.stringify(body.error)}`)
  return body.value
}

/** Click `action` on row `key` and, when the first click arms it, click again to commit. */
async function actTwice(page: Page, key: string, action: 'delete' | 'deleteFrom'): Promise<void> {
  await clickAction(page, key, action)
  const state = await Promise.race([
    waitArmed(page, key, action).then(() => 'armed' as const),
    waitRowError(page, key).then(() => 'error' as const),
  ])
  if (state === 'armed') await clickAction(page, key, action)
}

describe('two tabs and the Chinese UI in the real DSH web UI', { timeout: 1_200_000 }, () => {
  before(async () => {
    e = await bootE2e('tabs-and-locale', { title: TITLE })
    pageA = await e.newPage()
    e.model.script([{ text: A1 }, { text: A2 }])
    await openApp(pageA, e.url)
    await chooseWorkspace(pageA, e.workspace)
    await sendPrompt(pageA, P1)
    await waitForChatText(pageA, A1)
    await waitForTurnBars(pageA, 1)
    await sendPrompt(pageA, P2)
    await waitForChatText(pageA, A2)
    await waitForTurnBars(pageA, 2)
    sessionId = (await listSessions(e.url))[0]!.sessionId
    keys.p1 = (await findRow(pageA, 'user', P1)).key
    keys.a1 = (await findRow(pageA, 'assistant-step', A1)).key
    keys.p2 = (await findRow(pageA, 'user', P2)).key
    keys.a2 = (await findRow(pageA, 'assistant-step', A2)).key
  }, { timeout: 600_000 })

  after(async () => {
    await e?.close()
  })

  scenario('7. two tabs on one session: after a delete in one, the other\'s stale view still offers the deleted answer; acting on it is refused and nothing is appended', async () => {
    const pageB = await e.newPage()
    await installEventHold(pageB)
    await openApp(pageB, e.url)
    await openSessionFromSidebar(pageB, TITLE)
    await waitForChatText(pageB, A2)

    await hold(pageB, true)
    await actTwice(pageA, keys.a2!, 'delete')
    await waitRowHidden(pageA, keys.a2!)
    await pageB.waitForFunction('window.__e2eHeldCount() > 0', { timeout: 10_000 })
    const stale = (await rows(pageB)).find((r) => r.key === keys.a2)
    assert.ok(stale?.shown, 'the held tab still shows the deleted answer (its view is stale)')

    const before = await inspect()
    const diskBefore = (await eventsOnDisk(e.home, sessionId)).length
    // The host does not count this plugin's own writes as a change of the view (two tabs' removals
    // both land), so the stale tab's action fails only where it conflicts: on the deleted answer.
    await actTwice(pageB, keys.a2!, 'delete')
    const message = await waitRowError(pageB, keys.a2!)
    assert.equal(message, en['error.TARGET_NOT_FOUND'], 'the no-longer-there message shows on the row')
    await e.shot(pageB, '07-stale-view')
    const afterInspect = await inspect()
    assert.equal(afterInspect.live.eventCount, before.live.eventCount, 'nothing appended to the live session')
    assert.equal(afterInspect.live.lastSeq, before.live.lastSeq, 'the last seq is unchanged')
    assert.equal((await eventsOnDisk(e.home, sessionId)).length, diskBefore, 'nothing appended on disk')
    assert.ok((await rows(pageB)).find((r) => r.key === keys.p1)?.shown, 'the prompt the stale tab aimed at is still there')

    await hold(pageB, false)
    await waitRowHidden(pageB, keys.a2!)
    const tombstones = (await eventsOnDisk(e.home, sessionId)).map((ev) => readTombstone(ev)).filter((t) => t !== null)
    assert.equal(tombstones.length, 1, 'exactly the one tombstone of tab A')
    await pageB.close()
  })

  scenario('8. in the Chinese UI the buttons and messages are Chinese', async () => {
    const page = await e.newPage({ zh: true })
    await installEventHold(page)
    await openApp(page, e.url)
    await page.waitForFunction(`document.documentElement.lang === 'zh-CN'`, { timeout: 15_000 })
    await openSessionFromSidebar(page, TITLE)
    await waitForChatText(page, A1)

    const cluster = await hoverRow(page, keys.p1!)
    assert.ok(cluster.visible, 'the cluster shows on hover')
    const byAction = Object.fromEntries(cluster.buttons.map((b) => [b.action, b]))
    assert.deepEqual(Object.keys(byAction).sort(), [...actionsOfferedOn('prompt')].sort())
    assert.equal(byAction.recall!.label, zh['label.recall'])
    assert.equal(byAction.recall!.text, zh['action.recall'])
    assert.equal(byAction.delete!.label, zh['label.delete.message'])
    assert.equal(byAction.delete!.text, zh['action.delete'])
    assert.equal(byAction.deleteFrom!.label, zh['label.deleteFrom'])
    assert.equal(byAction.deleteFrom!.text, zh['action.deleteFrom'])
    assert.equal(byAction.exclude!.label, zh['label.exclude'])
    assert.equal(byAction.exclude!.text, zh['action.exclude'])
    await e.shot(page, '08-zh-cluster')

    await clickAction(page, keys.p1!, 'delete')
    const armed = await waitArmed(page, keys.p1!, 'delete')
    // The prompt alone goes (its answer stays).
    assert.equal(armed.text, fill(zh['armed.delete'], { count: 1 }), 'the armed button reads in Chinese with its count')
    assert.equal(armed.label, fill(zh['armed.label.one'], { count: 1 }))
    await e.shot(page, '08-zh-armed')
    await hoverRow(page, keys.a1!)

    // A stale view in Chinese: hold this tab, change the session from tab A, act here.
    e.model.script([{ text: A3 }])
    await hold(page, true)
    await sendPrompt(pageA, P3)
    await waitForChatText(pageA, A3)
    await actTwice(page, keys.a1!, 'delete')
    const message = await waitRowError(page, keys.a1!)
    assert.equal(message, zh['error.STALE_VIEW'], 'the stale-view message is the Chinese one')
    await e.shot(page, '08-zh-stale-view')
    await hold(page, false)
    await page.close()
  })

  scenario('9. two quick deletes from two tabs, each confirmed with its own count on one view, both land', async () => {
    keys.p3 = (await findRow(pageA, 'user', P3)).key
    const pageB = await e.newPage()
    await installEventHold(pageB)
    await openApp(pageB, e.url)
    await openSessionFromSidebar(pageB, TITLE)
    await waitForChatText(pageB, A3)
    const diskBefore = (await eventsOnDisk(e.home, sessionId)).map((ev) => readTombstone(ev)).filter((t) => t !== null).length

    // Tab B does not see tab A's delete before its own: both were planned on the same view.
    await hold(pageB, true)
    await actTwice(pageA, keys.p2!, 'delete')
    await waitRowHidden(pageA, keys.p2!)
    await pageB.waitForFunction('window.__e2eHeldCount() > 0', { timeout: 10_000 })
    assert.ok((await rows(pageB)).find((r) => r.key === keys.p2)?.shown, 'the held tab still shows the prompt tab A deleted')
    await clickAction(pageB, keys.p3!, 'delete')
    const armed = await waitArmed(pageB, keys.p3!, 'delete')
    assert.equal(armed.text, fill(en['armed.delete'], { count: 1 }), 'tab B confirms one message')
    await clickAction(pageB, keys.p3!, 'delete')
    await hold(pageB, false)
    await waitRowHidden(pageB, keys.p3!)
    await waitRowHidden(pageB, keys.p2!)
    await waitRowHidden(pageA, keys.p3!)

    const count = (events: Parameters<typeof readTombstone>[0][]) => events.filter((ev) => readTombstone(ev) !== null).length
    // Rows hide on the live event, before the second write's flush: wait for both on disk.
    const onDisk = await waitForDisk(e.home, sessionId, (events) => count(events) >= diskBefore + 2, 'both tombstones')
    assert.equal(count(onDisk), diskBefore + 2, 'both deletes landed on disk')
    await pageB.close()
  })
})
