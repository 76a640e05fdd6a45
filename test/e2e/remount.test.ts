/**
 * End to end, in the real rc.8 web host and headless Chromium: a remount of the chat list. The
 * session header's Trajectory tab replaces the Chat view (dsh-client-ui-conversation
 * `ConversationSession` renders only the active `conversation.view`), so a visit there and back
 * gives the session a new `[data-chat-flow]` element with new row elements. A removed message
 * must stay hidden across it, not even one frame or one DOM state shown, and the rows must get
 * their buttons back without a new turn.
 *
 * The page records every DOM change (a MutationObserver on the whole document, whose callback
 * runs before the next frame is painted) and every animation frame, and notes any moment at
 * which a hidden row has a box on screen.
 */
import assert from 'node:assert/strict'
import { after, before, describe } from 'node:test'
import type { Page } from 'puppeteer-core'
import { bootE2e, sequentialScenarios, type E2e } from './harness'
import {
  clickAction, exchangeTurns, findRow, hoverNothing, hoverRow, openApp, chooseWorkspace, recallSnapshot, rows, rowSelector, ROW,
  waitArmed, waitInPage, waitRowHidden,
} from './ui'

const TITLE = 'Remount chat'
const SECRET = 'The vault code is 7731-ORCHID, keep it secret.'
const A1 = 'Noted, I will not repeat it.'
const P2 = 'What is the capital of Portugal?'
const A2 = 'The capital of Portugal is Lisbon.'

let e: E2e
let page: Page
const keys: Record<string, string> = {}

const scenario = sequentialScenarios(() => e)

/**
 * Page script that records, until `__e2eStopSampler()`, every moment a row with one of the given
 * keys has a box: right after DOM insertions (`appendChild`/`insertBefore` wrapped, checked
 * synchronously, before any other script, this plugin's included, can react to the new
 * elements), after every DOM change (MutationObserver callback) and on every animation frame.
 * `inserted` counts the hidden rows checked at insertion, `unmarked` those among them that did not
 * yet carry the plugin's `data-message-recall-hidden` (no pass had seen them).
 * A string, not a function: the test loader's name-keeping helpers do not exist inside the page.
 */
function samplerScript(hiddenKeys: readonly string[]): string {
  return `(() => {
    const keys = ${JSON.stringify(hiddenKeys)}
    const record = { frames: 0, mutations: 0, inserted: 0, unmarked: 0, shown: [] }
    window.__e2eSampler = record
    let stopped = false
    const shown = (row) => row.getClientRects().length > 0 && getComputedStyle(row).display !== 'none'
    const rowsIn = (root, key) => {
      const selector = '[data-chat-flow] > [data-chat-flow-key=' + JSON.stringify(key) + ']'
      const found = [...root.querySelectorAll(selector)]
      if (root.matches && root.matches(selector)) found.push(root)
      return found
    }
    const check = (when, root) => {
      for (const key of keys) {
        for (const row of rowsIn(root, key)) {
          if (when === 'insert') {
            record.inserted++
            if (!row.hasAttribute('data-message-recall-hidden')) record.unmarked++
          }
          if (shown(row)) record.shown.push(when + ' ' + record.frames + ': ' + key)
        }
      }
    }
    const native = { appendChild: Node.prototype.appendChild, insertBefore: Node.prototype.insertBefore }
    for (const name of ['appendChild', 'insertBefore']) {
      Node.prototype[name] = function (node, ...rest) {
        const result = native[name].call(this, node, ...rest)
        if (!stopped && node instanceof Element && node.isConnected) check('insert', node)
        return result
      }
    }
    const observer = new MutationObserver(() => { record.mutations++; check('mutation', document) })
    observer.observe(document.documentElement, { childList: true, subtree: true, attributes: true })
    const frame = () => {
      if (stopped) return
      record.frames++
      check('frame', document)
      requestAnimationFrame(frame)
    }
    requestAnimationFrame(frame)
    window.__e2eStopSampler = () => {
      stopped = true
      observer.disconnect()
      Node.prototype.appendChild = native.appendChild
      Node.prototype.insertBefore = native.insertBefore
      return record
    }
  })()`
}

/** Frames the sampler has seen so far. */
const framesSeen = (p: Page): Promise<number> => p.evaluate('window.__e2eSampler.frames') as Promise<number>

/** Click the session header tab whose text is `label` (dsh-client-ui-conversation `role="tab"` buttons). */
async function clickTab(p: Page, label: string): Promise<void> {
  const clicked = await p.evaluate((label) => {
    const tab = [...document.querySelectorAll<HTMLElement>('[role=tab]')].find((el) => (el.innerText || '').trim() === label)
    tab?.click()
    return tab !== undefined
  }, label)
  if (!clicked) throw new Error(`no tab ${JSON.stringify(label)}`)
}

/** Wait until the sampler has counted `n` more frames than `from`. */
async function waitFrames(p: Page, from: number, n: number): Promise<void> {
  await p.waitForFunction((target) => (window as any).__e2eSampler.frames >= target, { timeout: 15_000, polling: 'raf' }, from + n)
}

/** Go to the Trajectory tab and back to Chat; returns the chat flow element count seen in between (0: the flow was gone). */
async function visitTrajectory(p: Page): Promise<number> {
  await clickTab(p, 'Trajectory')
  await waitInPage(p, 'the chat flow to leave the page', () => document.querySelector('[data-chat-flow]') === null, 15_000)
  await waitFrames(p, await framesSeen(p), 5)
  const between = await p.evaluate(() => document.querySelectorAll('[data-chat-flow]').length)
  await clickTab(p, 'Chat')
  await p.waitForSelector(ROW, { timeout: 15_000 })
  await waitFrames(p, await framesSeen(p), 10)
  return between
}

describe('a remount of the chat list in the real DSH web UI', { timeout: 900_000 }, () => {
  before(async () => {
    e = await bootE2e('remount', { title: TITLE })
    page = await e.newPage()
    e.model.script([{ text: A1 }, { text: A2 }])
    await openApp(page, e.url)
    await chooseWorkspace(page, e.workspace)
    await exchangeTurns(page, [[SECRET, A1], [P2, A2]])
    keys.secret = (await findRow(page, 'user', SECRET)).key
    keys.p2 = (await findRow(page, 'user', P2)).key
  }, { timeout: 600_000 })

  after(async () => {
    await e?.close()
  })

  scenario('a deleted prompt stays hidden through a visit to the Trajectory tab and back, and the rows get their buttons back', async () => {
    await clickAction(page, keys.secret!, 'delete')
    await waitArmed(page, keys.secret!, 'delete')
    await clickAction(page, keys.secret!, 'delete')
    await waitRowHidden(page, keys.secret!)
    await hoverNothing(page)
    const attachedBefore = await recallSnapshot(page)
    assert.equal(attachedBefore.attached, true, 'the browser half is attached to the chat flow before the visit')

    await page.evaluate(samplerScript([keys.secret!]))
    const oldFlow = await page.$('[data-chat-flow]')
    assert.equal(await visitTrajectory(page), 0, 'the Trajectory tab takes the chat flow out of the page')
    assert.equal(await oldFlow!.evaluate((el) => el.isConnected), false, 'Chat comes back with a new chat flow element')
    // A second visit: the new flow is the one bound now.
    assert.equal(await visitTrajectory(page), 0)
    const record = await page.evaluate('window.__e2eStopSampler()') as { frames: number; mutations: number; inserted: number; unmarked: number; shown: string[] }
    assert.ok(record.frames >= 30 && record.mutations > 0, `the sampler saw the remounts (${record.frames} frames, ${record.mutations} mutation batches)`)
    // Each visit back mounts the deleted prompt's row anew, unmarked: no pass has seen it yet.
    assert.deepEqual({ inserted: record.inserted, unmarked: record.unmarked }, { inserted: 2, unmarked: 2 }, 'the new row elements were checked the moment they entered the page')
    assert.deepEqual(record.shown, [], 'the deleted prompt was never on screen, in any frame or DOM state')

    const all = await rows(page)
    const secretRow = all.find((r) => r.key === keys.secret)
    assert.deepEqual(secretRow && { pluginHidden: secretRow.pluginHidden, shown: secretRow.shown }, { pluginHidden: true, shown: false })
    assert.deepEqual(all.filter((r) => r.shown && r.text.includes('7731-ORCHID')).map((r) => r.key), [], 'no row on screen shows the secret')
    await waitInPage(page, 'a pass on the new chat flow', () => (window as any).__DSH_MESSAGE_RECALL__?.snapshot()?.attached === true, 10_000)
    const snapshot = await recallSnapshot(page)
    assert.equal(snapshot.attached, true, 'the debug snapshot says attached')
    assert.deepEqual(snapshot.hidden.map((h: { key: string }) => h.key), [keys.secret], 'the hidden rows of the pass')

    const cluster = await hoverRow(page, keys.p2!)
    assert.equal(cluster.visible, true, 'the hover buttons are back on the prompt row')
    assert.deepEqual(cluster.buttons.map((b) => b.action).sort(), ['delete', 'deleteFrom', 'exclude', 'recall'])
    assert.ok(await page.$(`${rowSelector(keys.p2!)} [data-message-recall-actions]`), 'the prompt row carries the cluster')
    await e.shot(page, 'remount-back-on-chat')
  })
})
