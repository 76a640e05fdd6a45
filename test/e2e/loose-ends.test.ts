/**
 * End to end, in the real rc.8 web host and headless Chromium: where the buttons sit and how
 * excluded rows and armed buttons look. On answer and tool rows the cluster covers no content of
 * the row or its neighbours; an excluded row's label sits above its dimmed content, inside the
 * row, and its Restore and Open a copy buttons are not dimmed; a Chinese armed button keeps the
 * Chinese width it had before arming; with Chinese chosen in the DSH settings, a copy's title is
 * marked in Chinese. The tests run in order and build on each other.
 */
import assert from 'node:assert/strict'
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { after, before, describe } from 'node:test'
import type { Page } from 'puppeteer-core'
import { createSession, listSessions, prompt, rpc, waitForTurnEnds } from '../../tools/dsh-api'
import { en, zh } from '../../src/client/text/locales'
import { bootE2e, sequentialScenarios, type E2e } from './harness'
import { openExactSidebarEntry, waitRowExcluded } from './removals-ui'
import { clickAction, fill, findRow, hoverRow, openApp, rowSelector, waitArmed, waitForChatText } from './ui'

const TITLE = 'Loose ends chat'
const P1 = 'What do the notes say about the launch?'
const A1_TEXT = 'I will read the notes file now.'
const A1_FINAL = 'The notes name the launch codename, in a line long enough to run across the whole width of the chat column of this page.'

let e: E2e
let page: Page
const keys: Record<string, string> = {}
const scenario = sequentialScenarios(() => e)

/**
 * In the page: the content boxes of a row (text line boxes and leaf elements with a box, the
 * plugin's cluster left out) and of its shown neighbours, and the cluster's box. A string: the
 * test loader's name-keeping helpers do not exist inside the page.
 */
const COVERED = `(sel) => {
  const row = document.querySelector(sel)
  const boxes = (root) => {
    const out = []
    const range = document.createRange()
    const walk = (el) => {
      for (const n of el.childNodes) {
        if (n.nodeType === 3 && n.textContent.trim() !== '') { range.selectNodeContents(n); for (const b of range.getClientRects()) if (b.width > 0 && b.height > 0) out.push(b) }
        else if (n.nodeType === 1 && !n.hasAttribute('data-message-recall-actions')) {
          if (n.firstChild === null) { const b = n.getBoundingClientRect(); if (b.width > 0 && b.height > 0) out.push(b) } else walk(n)
        }
      }
    }
    walk(root)
    return out
  }
  const shown = (el) => el !== null && el.getClientRects().length > 0
  let prev = row.previousElementSibling; while (prev && !shown(prev)) prev = prev.previousElementSibling
  let next = row.nextElementSibling; while (next && !shown(next)) next = next.nextElementSibling
  const content = [...boxes(row), ...(prev ? boxes(prev) : []), ...(next ? boxes(next) : [])]
  const c = row.querySelector('[data-message-recall-actions]').getBoundingClientRect()
  const hit = content.filter((b) => b.left < c.right && c.left < b.right && b.top < c.bottom && c.top < b.bottom)
  return { cluster: [c.left, c.top, c.right, c.bottom].map(Math.round), covered: hit.map((b) => [b.left, b.top, b.right, b.bottom].map(Math.round)), inViewport: c.left >= 0 && c.right <= innerWidth }
}`

/** In the page: how an excluded row looks (label place, opacities multiplied up to the flow). */
const EXCLUDED_LOOK = `(sel) => {
  const row = document.querySelector(sel)
  const opacity = (el) => {
    let product = 1
    for (; el !== null && el !== row.parentElement; el = el.parentElement) product *= Number(getComputedStyle(el).opacity)
    return Math.round(product * 100) / 100
  }
  const badge = row.querySelector('[data-message-recall-excluded-badge]')
  const content = row.querySelector(':scope > [data-slot] > *')
  const b = badge.getBoundingClientRect(), r = row.getBoundingClientRect(), c = content.getBoundingClientRect()
  return {
    badge: badge.textContent,
    insideRow: b.top >= r.top && b.bottom <= r.bottom,
    aboveContent: b.bottom <= c.top,
    contentOpacity: opacity(content),
    buttons: [...row.querySelectorAll('[data-message-recall-action]')].map((el) => [el.getAttribute('data-message-recall-action'), opacity(el)]),
  }
}`

/** What the cluster of row `key` covers, read while the pointer is over the row. */
async function covered(p: Page, key: string): Promise<{ cluster: number[]; covered: number[][]; inViewport: boolean }> {
  await hoverRow(p, key)
  return p.evaluate(`(${COVERED})(${JSON.stringify(rowSelector(key))})`) as Promise<{ cluster: number[]; covered: number[][]; inViewport: boolean }>
}

describe('where the buttons sit, excluded rows and armed widths in the real web UI', { timeout: 1_200_000 }, () => {
  before(async () => {
    e = await bootE2e('loose-ends', { title: TITLE })
    page = await e.newPage()
  }, { timeout: 600_000 })

  after(async () => {
    await e?.close()
  })

  scenario('1. a session with a prompt, an answer with a tool call, its result and a final answer', async () => {
    e.model.script([
      { text: A1_TEXT, toolCalls: [{ name: 'read', arguments: { file_path: join(e.workspace, 'notes.txt') } }] },
      { text: A1_FINAL },
    ])
    const sessionId = await createSession(e.url, e.workspace)
    await prompt(e.url, sessionId, P1)
    await waitForTurnEnds(e.url, sessionId, 1)
    await rpc(e.url, 'session.rename', { sessionId, title: TITLE })
    await openApp(page, e.url)
    await openExactSidebarEntry(page, TITLE)
    await waitForChatText(page, A1_FINAL)
    keys.p1 = (await findRow(page, 'user', P1)).key
    keys.a1 = (await findRow(page, 'assistant-step', A1_TEXT)).key
    keys.tool = (await findRow(page, 'tool-call', 'notes.txt')).key
    keys.a2 = (await findRow(page, 'assistant-step', 'launch codename')).key
  })

  scenario('2. on answer and tool rows the cluster covers no content of the row or its neighbours', async () => {
    for (const name of ['a1', 'tool', 'a2'] as const) {
      const seen = await covered(page, keys[name]!)
      assert.deepEqual(seen.covered, [], `the ${name} row's cluster at ${JSON.stringify(seen.cluster)} covers no content`)
      assert.equal(seen.inViewport, true, `the ${name} row's cluster is inside the page`)
    }
    await hoverRow(page, keys.a2!)
    await e.shot(page, '02-answer-cluster')
  })

  scenario('3. an excluded row: the label above its dimmed content, Restore and Open a copy at full opacity', async () => {
    await clickAction(page, keys.p1!, 'exclude' as 'delete')
    await waitArmed(page, keys.p1!, 'exclude')
    await clickAction(page, keys.p1!, 'exclude' as 'delete')
    await waitRowExcluded(page, keys.p1!)
    await hoverRow(page, keys.p1!)
    const look = await page.evaluate(`(${EXCLUDED_LOOK})(${JSON.stringify(rowSelector(keys.p1!))})`) as {
      badge: string; insideRow: boolean; aboveContent: boolean; contentOpacity: number; buttons: [string, number][]
    }
    assert.equal(look.badge, en['excluded.badge'])
    assert.equal(look.insideRow, true, 'the label is inside the excluded row')
    assert.equal(look.aboveContent, true, 'the label sits above the dimmed content, not under it next to the row below')
    assert.equal(look.contentOpacity, 0.45)
    assert.deepEqual(look.buttons, [['restore', 1], ['forkBefore', 1]])
    await e.shot(page, '03-excluded-row')
  })

  scenario('4. in the Chinese UI an armed button keeps the width it had before arming, sized for the Chinese text', async () => {
    const zhPage = await e.newPage({ zh: true })
    await openApp(zhPage, e.url)
    await zhPage.waitForFunction(`document.documentElement.lang === 'zh-CN'`, { timeout: 15_000 })
    await openExactSidebarEntry(zhPage, TITLE)
    await waitForChatText(zhPage, A1_FINAL)
    const widths = (action: string) => zhPage.$eval(`${rowSelector(keys.a2!)} [data-message-recall-action="${action}"]`, (b) => ({
      width: b.getBoundingClientRect().width,
      sizer: b.getAttribute('data-message-recall-sizer'),
    }))
    for (const action of ['delete', 'deleteFrom', 'exclude'] as const) {
      await hoverRow(zhPage, keys.a2!)
      const idle = await widths(action)
      assert.equal(idle.sizer, fill(zh[`armed.${action}`], { count: 888 }), `the ${action} button is sized for the Chinese armed text`)
      await clickAction(zhPage, keys.a2!, action as 'delete')
      const armed = await waitArmed(zhPage, keys.a2!, action)
      assert.equal(armed.text, fill(zh[`armed.${action}`], { count: 1 }))
      const now = await widths(action)
      assert.equal(now.width, idle.width, `arming ${action} keeps its width (${idle.width} px)`)
      await zhPage.keyboard.press('Escape')
      await zhPage.waitForFunction((sel) => document.querySelector(sel)?.getAttribute('data-armed') !== 'true', { timeout: 5_000 }, `${rowSelector(keys.a2!)} [data-message-recall-action="${action}"]`)
    }
    await zhPage.close()
  })

  scenario('5. with Chinese chosen in the DSH settings, Open a copy titles the copy in Chinese', async () => {
    // Where rc.8 keeps the Language row's choice: the user-settings document, locale.preference.
    const settings = join(e.home, 'settings.yaml')
    const before = existsSync(settings) ? readFileSync(settings, 'utf8') : ''
    assert.ok(!/^locale:/m.test(before), 'no language chosen yet')
    writeFileSync(settings, `${before}${before === '' || before.endsWith('\n') ? '' : '\n'}locale:\n  preference: zh\n`)
    await e.restartHost()
    const zhPage = await e.newPage()
    await openApp(zhPage, e.url)
    await zhPage.waitForFunction(`document.documentElement.lang === 'zh-CN'`, { timeout: 15_000 })
    await openExactSidebarEntry(zhPage, TITLE)
    await waitRowExcluded(zhPage, keys.p1!)
    await hoverRow(zhPage, keys.p1!)
    const open = await zhPage.waitForSelector(`${rowSelector(keys.p1!)} [data-message-recall-action="forkBefore"]`, { visible: true, timeout: 5_000 })
    assert.equal(await open!.evaluate((b) => b.textContent), zh['action.forkBefore'])
    await open!.click()
    const copyTitle = `${TITLE}（副本）`
    await zhPage.waitForFunction((t) => [...document.querySelectorAll<HTMLElement>('[role=treeitem]')].some((el) => (el.innerText || '').trim().split('\n')[0] === t), { timeout: 30_000, polling: 100 }, copyTitle)
    const copies = (await listSessions(e.url)).length
    assert.equal(copies, 2, 'the source and its copy')
    await e.shot(zhPage, '05-zh-copy-title')
    await zhPage.close()
  })
})
