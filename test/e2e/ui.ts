/**
 * Driving the real rc.8 web UI and reading the plugin's DOM contract:
 * rows are `[data-chat-flow] > [data-chat-flow-key]` (kind in `data-chat-flow-kind`); the plugin
 * adds one `[data-message-recall-actions]` cluster per decorated row with
 * `<button data-message-recall-action="recall|delete|deleteFrom">`, marks armed buttons
 * `data-armed="true"`, hidden rows `data-message-recall-hidden`, and row errors
 * `[data-message-recall-error]`; `window.__DSH_MESSAGE_RECALL__.snapshot()` is its debug view.
 *
 * @module test/e2e/ui
 */
import assert from 'node:assert/strict'
import type { Page } from 'puppeteer-core'
import { listSessions } from '../../tools/dsh-api'
import type { MockModel } from '../../tools/mock-model'
import { describeRequests } from './harness'

/** Row selector of the chat flow (dsh-client-ui-conversation ChatNodeSeat, rc.8). */
export const ROW = '[data-chat-flow] > [data-chat-flow-key]'

/** Selector of the row with `key`. */
export function rowSelector(key: string): string {
  return `[data-chat-flow] > [data-chat-flow-key=${JSON.stringify(key)}]`
}

/**
 * A dictionary text with its `{name}` placeholders filled, as the DSH locale service does
 * (dsh-client-locale `translate`), for asserting the exact string a control shows.
 */
export function fill(template: string, values: Readonly<Record<string, string | number>>): string {
  return template.replace(/\{(\w+)\}/g, (whole, name: string) => (name in values ? String(values[name]) : whole))
}

/** Resolve after the page has rendered two more frames (layout, observers and their callbacks ran). */
async function nextFrames(page: Page): Promise<void> {
  await page.evaluate(() => new Promise<void>((done) => requestAnimationFrame(() => requestAnimationFrame(() => done()))))
}

/** Poll `fn` in the page until it returns a truthy value. */
export async function waitInPage<T>(page: Page, label: string, fn: () => T, timeoutMs = 30_000): Promise<void> {
  try {
    await page.waitForFunction(fn, { timeout: timeoutMs, polling: 100 })
  } catch (error) {
    throw new Error(`timed out after ${timeoutMs} ms waiting for ${label}`, { cause: error })
  }
}

/** Click the first visible button-like element whose text starts with one of `labels`. */
export async function clickText(page: Page, labels: readonly string[]): Promise<boolean> {
  return page.evaluate((labels) => {
    const els = [...document.querySelectorAll<HTMLElement>('button,[role=menuitem],[role=option],li,div[role=button],a')]
    const el = els.find((e) => e.offsetParent !== null && labels.some((l) => (e.innerText || '').trim().startsWith(l)))
    if (!el) return false
    el.click()
    return true
  }, labels)
}

/** Open the app, wait for the shell to boot, and accept the testing notice when it shows. */
export async function openApp(page: Page, url: string): Promise<void> {
  await page.goto(`${url}/`, { waitUntil: 'domcontentloaded' })
  await waitInPage(page, 'the web shell to boot', () => !!(window as any).__DSH_BOOT__ && !!document.querySelector('textarea, [aria-label="Choose workspace"]'), 60_000)
  await acceptNotice(page)
}

/** Click Continue (继续) on the internal testing notice if it is open, and wait until it has closed. */
export async function acceptNotice(page: Page): Promise<void> {
  const open = () => /Internal Testing Notice|内部测试/.test(document.body.innerText)
  for (let attempt = 1; await page.evaluate(open); attempt++) {
    if (attempt > 5) throw new Error('the internal testing notice did not close after 5 clicks on Continue')
    await clickText(page, ['Continue', '继续'])
    await page.waitForFunction(() => !/Internal Testing Notice|内部测试/.test(document.body.innerText), { timeout: 5_000, polling: 100 }).catch(() => {})
  }
}

/** Pick `path` as the workspace through the browse picker (Choose workspace → Edit path → Open). */
export async function chooseWorkspace(page: Page, path: string): Promise<void> {
  // A tab in the background gets throttled timers and frames, so the picker is driven in front.
  await page.bringToFront()
  // Right after boot the button can be covered by the closing notice or not yet wired; a click
  // that opens nothing is retried.
  for (let attempt = 1; ; attempt++) {
    await acceptNotice(page)
    await page.waitForSelector('button[aria-label="Choose workspace"]', { visible: true, timeout: 30_000 })
    await page.click('button[aria-label="Choose workspace"]')
    const opened = await page.waitForSelector('button[aria-label="Edit path"]', { timeout: 10_000 }).then(() => true, () => false)
    if (opened) break
    if (attempt === 4) throw new Error('the workspace picker did not open after 4 clicks on "Choose workspace"')
  }
  // The button turns into the path field (same name), enabled once the picker is not loading;
  // a click that lands while the picker is still loading changes nothing and is retried.
  // The testing notice can open late, over the picker, when the machine is loaded; a click then
  // lands on the notice, so it is accepted before every click.
  let field = null
  for (let attempt = 1; field === null; attempt++) {
    await acceptNotice(page)
    const button = await page.$('button[aria-label="Edit path"]')
    if (button !== null) await button.click().catch(() => {})
    field = await page.waitForSelector('input[aria-label="Edit path"]:not([disabled])', { visible: true, timeout: 10_000 }).catch(() => null)
    if (field === null && attempt === 4) throw new Error('the workspace picker showed no enabled path field after 4 clicks on "Edit path"')
  }
  // Under load the field can re-render while the path is typed and drop keys; Enter on a partial
  // path opens another folder, so type until the field holds exactly `path`.
  for (let attempt = 1; ; attempt++) {
    await acceptNotice(page)
    const input = await page.waitForSelector('input[aria-label="Edit path"]:not([disabled])', { visible: true, timeout: 10_000 })
    await input!.click()
    await page.keyboard.down('Control')
    await page.keyboard.press('KeyA')
    await page.keyboard.up('Control')
    await page.keyboard.type(path)
    const took = await page.waitForFunction((p) => (document.querySelector('input[aria-label="Edit path"]') as HTMLInputElement | null)?.value === p,
      { timeout: 2_000, polling: 50 }, path).then(() => true, () => false)
    if (took) break
    if (attempt === 4) throw new Error(`the workspace path field did not take ${JSON.stringify(path)} after 4 tries`)
  }
  await page.keyboard.press('Enter')
  // Enter navigates: the field turns back into breadcrumbs ending in the folder, and Open is offered.
  const name = path.split(/[\\/]/).filter(Boolean).at(-1) ?? path
  await page.waitForFunction((name) => {
    if (document.querySelector('input[aria-label="Edit path"]')) return false
    const buttons = [...document.querySelectorAll<HTMLButtonElement>('button')].filter((b) => b.offsetParent !== null)
    return buttons.some((b) => (b.innerText || '').trim() === name) && buttons.some((b) => !b.disabled && /^(Open|打开)/.test((b.innerText || '').trim()))
  }, { timeout: 15_000, polling: 100 }, name).catch((error: unknown) => {
    throw new Error(`the workspace picker did not open ${path} within 15 s`, { cause: error })
  })
  await acceptNotice(page)
  if (!(await clickText(page, ['Open', '打开']))) throw new Error('no Open button in the workspace picker')
  await waitInPage(page, 'the workspace to open', () => !document.querySelector('button[aria-label="Edit path"]'), 15_000)
}

/** The composer's current text. */
export async function composerValue(page: Page): Promise<string> {
  return page.$eval('textarea', (t) => (t as HTMLTextAreaElement).value)
}

/** Replace the composer's text with `text` and press Enter. */
export async function sendPrompt(page: Page, text: string): Promise<void> {
  // The composer can re-mount right after a workspace opens and swallow the first keys, and the
  // testing notice can open late over it, so type until it holds exactly `text`, then send.
  await page.bringToFront()
  for (let attempt = 0; attempt < 4; attempt++) {
    await acceptNotice(page)
    await page.click('textarea')
    await page.keyboard.down('Control')
    await page.keyboard.press('KeyA')
    await page.keyboard.up('Control')
    await page.keyboard.press('Backspace')
    await page.keyboard.type(text)
    const took = await page.waitForFunction((t) => (document.querySelector('textarea') as HTMLTextAreaElement | null)?.value === t, { timeout: 2_000, polling: 50 }, text).then(() => true, () => false)
    if (took) {
      await page.keyboard.press('Enter')
      return
    }
  }
  throw new Error(`the composer did not take the text ${JSON.stringify(text)} (it holds ${JSON.stringify(await composerValue(page))})`)
}

/** What the suite reads about one row. */
export interface RowInfo {
  readonly key: string
  readonly kind: string
  readonly text: string
  /** Carries `data-message-recall-hidden`. */
  readonly pluginHidden: boolean
  /** Takes up space on screen (not display:none / hidden). */
  readonly shown: boolean
}

/** Every chat row in DOM order. */
export async function rows(page: Page): Promise<RowInfo[]> {
  return page.$$eval(ROW, (els) => els.map((el) => {
    const e = el as HTMLElement
    return {
      key: e.getAttribute('data-chat-flow-key') ?? '',
      kind: e.getAttribute('data-chat-flow-kind') ?? '',
      text: (e.innerText || '').replace(/\s+/g, ' ').trim(),
      pluginHidden: e.hasAttribute('data-message-recall-hidden'),
      shown: e.getClientRects().length > 0 && getComputedStyle(e).display !== 'none' && !e.hidden,
    }
  }))
}

/** The first row of `kind` whose text contains `text`. @throws when there is none */
export async function findRow(page: Page, kind: string, text?: string): Promise<RowInfo> {
  const all = await rows(page)
  const row = all.find((r) => r.kind === kind && (text === undefined || r.text.includes(text)))
  if (!row) throw new Error(`no ${kind} row${text ? ` containing ${JSON.stringify(text)}` : ''}; rows: ${all.map((r) => `${r.kind}:${r.text.slice(0, 30)}`).join(' | ')}`)
  return row
}

/** Wait until `n` turn bars (turn-tail rows) are shown, i.e. `n` turns have ended in the view. */
export async function waitForTurnBars(page: Page, n: number, timeoutMs = 45_000): Promise<void> {
  await page.waitForFunction((n) => [...document.querySelectorAll('[data-chat-flow] > [data-chat-flow-kind="turn-tail"]')]
    .filter((e) => (e as HTMLElement).getClientRects().length > 0).length >= n, { timeout: timeoutMs, polling: 100 }, n)
}

/** Wait until the page shows `text` somewhere in the chat flow. */
export async function waitForChatText(page: Page, text: string, timeoutMs = 45_000): Promise<void> {
  await page.waitForFunction((text) => [...document.querySelectorAll('[data-chat-flow]')].some((f) => (f as HTMLElement).innerText.includes(text)), { timeout: timeoutMs, polling: 100 }, text)
}

/**
 * Send each prompt and wait for its answer and its turn bar, one turn after the other (the mock
 * model's script must already answer them).
 * @param page - the page showing the session.
 * @param exchanges - `[prompt, answer text]` per turn.
 * @param barsBefore - turn bars the session already shows.
 */
export async function exchangeTurns(page: Page, exchanges: readonly (readonly [string, string])[], barsBefore = 0): Promise<void> {
  for (const [i, [prompt, answer]] of exchanges.entries()) {
    await sendPrompt(page, prompt)
    await waitForChatText(page, answer)
    await waitForTurnBars(page, barsBefore + i + 1)
  }
}

/**
 * Open the app, choose the workspace and send prompts one after another, each waiting for its
 * turn bar (the model's script must already answer them).
 * @param page - the page.
 * @param url - the web host's base URL.
 * @param workspace - the workspace folder.
 * @param prompts - the prompts, in order.
 */
export async function startTurns(page: Page, url: string, workspace: string, prompts: readonly string[]): Promise<void> {
  await openApp(page, url)
  await chooseWorkspace(page, workspace)
  for (const [i, prompt] of prompts.entries()) {
    await sendPrompt(page, prompt)
    await waitForTurnBars(page, i + 1)
  }
}

/**
 * Click Branch (the turn bar's "Branch into a new conversation") on the first turn bar at or after
 * row `key`, counting every animation frame from before the click in which a shown row holds
 * `text`, until the page follows the new session and shows `shown`.
 * @param page - the page showing the source session.
 * @param url - the web host's base URL.
 * @param key - the row the turn bar is searched from.
 * @param text - the text no frame should show (the count is returned, not asserted).
 * @param shown - a text the branch shows once it is on screen.
 * @param bar - the turn bar in words, for the assertion that it offers Branch.
 * @returns the branch's session id and the number of frames that showed `text`.
 */
export async function branchWatching(page: Page, url: string, key: string, text: string, shown: string, bar: string): Promise<{ branchId: string; frames: number }> {
  const before = new Set((await listSessions(url)).map((s) => s.sessionId))
  // Every frame from here on: does any row on screen show the text?
  // (A source string: the test's TypeScript transform would name an inner function with a helper the page lacks.)
  await page.evaluate(`(() => {
    window.__canaryFrames = 0
    const check = () => {
      const rows = [...document.querySelectorAll('[data-chat-flow] > [data-chat-flow-key]')]
      if (rows.some((row) => row.getClientRects().length > 0 && (row.innerText || '').includes(${JSON.stringify(text)}))) window.__canaryFrames++
      window.__canaryWatch = requestAnimationFrame(check)
    }
    window.__canaryWatch = requestAnimationFrame(check)
  })()`)
  const clicked = await page.evaluate((from) => {
    const all = [...document.querySelectorAll<HTMLElement>('[data-chat-flow] > [data-chat-flow-key]')]
    const after = all.slice(all.findIndex((row) => row.getAttribute('data-chat-flow-key') === from))
    const button = after.map((row) => row.querySelector<HTMLButtonElement>('button[aria-label="Branch into a new conversation"]')).find((b) => b !== null)
    button?.click()
    return button?.closest('[data-chat-flow-key]')?.getAttribute('data-chat-flow-kind') ?? null
  }, key)
  assert.equal(clicked, 'turn-tail', `${bar} offers Branch`)
  let branchId = ''
  await page.waitForFunction((known) => {
    const id = (window as any).__DSH_MESSAGE_RECALL__?.snapshot()?.sessionId
    return typeof id === 'string' && !known.includes(id) ? id : false
  }, { timeout: 30_000, polling: 50 }, [...before]).then(async (handle) => { branchId = (await handle.jsonValue()) as string })
  assert.ok(!before.has(branchId), 'the page opened a new session')
  await waitForChatText(page, shown)
  const frames = await page.evaluate(() => { const w = window as any; cancelAnimationFrame(w.__canaryWatch); return w.__canaryFrames as number })
  return { branchId, frames }
}

/**
 * Send `prompt` in the open session with the model scripted to answer `answer`, wait for the answer
 * on screen, and check that the turn made exactly one model request.
 * @param page - the page showing the session.
 * @param model - the suite's mock model.
 * @param prompt - the prompt.
 * @param answer - the model's answer text.
 * @returns that request's messages as JSON text.
 */
export async function oneTurnWire(page: Page, model: MockModel, prompt: string, answer: string): Promise<string> {
  const from = model.requests.length
  model.script([{ text: answer }])
  await sendPrompt(page, prompt)
  await waitForChatText(page, answer)
  const sent = model.requests.slice(from).filter((r) => r.kind === 'turn')
  assert.equal(sent.length, 1, describeRequests(sent))
  return JSON.stringify(sent[0]!.body.messages)
}

/** One plugin button as the suite sees it. */
export interface ButtonInfo {
  readonly action: string
  readonly label: string
  readonly text: string
  readonly armed: boolean
  readonly disabled: boolean
  readonly type: string
}

/** The cluster of a row, read while the pointer is over the row. */
export interface ClusterInfo {
  /** A `[data-message-recall-actions]` element exists in the row. */
  readonly present: boolean
  /** It is painted: has a box, and no ancestor up to the row is display:none, visibility:hidden or opacity 0. */
  readonly visible: boolean
  readonly buttons: readonly ButtonInfo[]
}

/** Read the cluster of row `key` without moving the pointer. */
export async function readCluster(page: Page, key: string): Promise<ClusterInfo> {
  return page.$eval(rowSelector(key), (row) => {
    const cluster = row.querySelector<HTMLElement>('[data-message-recall-actions]')
    if (!cluster) return { present: false, visible: false, buttons: [] }
    let visible = cluster.getClientRects().length > 0
    for (let el: HTMLElement | null = cluster; visible && el && el !== row.parentElement; el = el.parentElement) {
      const style = getComputedStyle(el)
      if (style.display === 'none' || style.visibility === 'hidden' || Number(style.opacity) === 0 || el.hidden) visible = false
    }
    const buttons = [...cluster.querySelectorAll<HTMLButtonElement>('button[data-message-recall-action]')].map((b) => ({
      action: b.getAttribute('data-message-recall-action') ?? '',
      label: b.getAttribute('aria-label') ?? '',
      text: (b.innerText || b.textContent || '').trim(),
      armed: b.getAttribute('data-armed') === 'true',
      disabled: b.disabled,
      type: b.getAttribute('type') ?? '',
    }))
    return { present: true, visible, buttons }
  })
}

/**
 * Wait until no plugin cluster (within `rowKey`'s row, or anywhere) runs a transition: its
 * computed opacity is then the final one. `getAnimations()` flushes pending style changes first,
 * so a transition the last pointer move started is seen.
 */
async function waitClustersSettled(page: Page, rowKey?: string): Promise<void> {
  await page.waitForFunction((sel) => {
    const scope = sel ? document.querySelector(sel) : document
    if (!scope) return true
    if (sel && !(scope as Element).matches(':hover')) return false
    return [...scope.querySelectorAll('[data-message-recall-actions]')].every((c) => c.getAnimations({ subtree: true }).length === 0)
  }, { timeout: 10_000, polling: 'raf' }, rowKey === undefined ? '' : rowSelector(rowKey))
}

/** Move the pointer onto row `key` (scrolled into view) and read its cluster once its hover transition has ended. */
export async function hoverRow(page: Page, key: string): Promise<ClusterInfo> {
  // A background tab paints no frames, so pointer moves and clicks there would wait forever.
  await page.bringToFront()
  await page.$eval(rowSelector(key), (row) => row.scrollIntoView({ block: 'center' }))
  // Rows that come into view get their buttons from an IntersectionObserver callback.
  await nextFrames(page)
  await page.hover(rowSelector(key))
  await waitClustersSettled(page, key)
  return readCluster(page, key)
}

/** Move the pointer away from every row (onto the sidebar), and wait until the clusters have faded out. */
export async function hoverNothing(page: Page): Promise<void> {
  await page.mouse.move(5, 450)
  await waitClustersSettled(page)
}

/** Hover row `key` and click its `action` button with a real pointer click. */
export async function clickAction(page: Page, key: string, action: 'recall' | 'delete' | 'deleteFrom'): Promise<void> {
  await hoverRow(page, key)
  const selector = `${rowSelector(key)} [data-message-recall-actions] button[data-message-recall-action="${action}"]`
  const button = await page.waitForSelector(selector, { visible: true, timeout: 5_000 })
  if (!button) throw new Error(`no visible ${action} button on row ${key}`)
  await button.click()
}

/** Wait until the `action` button of row `key` is armed (`data-armed="true"`); returns its info. */
export async function waitArmed(page: Page, key: string, action: string, timeoutMs = 10_000): Promise<ButtonInfo> {
  const selector = `${rowSelector(key)} [data-message-recall-actions] button[data-message-recall-action="${action}"][data-armed="true"]`
  await page.waitForSelector(selector, { timeout: timeoutMs })
  const cluster = await readCluster(page, key)
  const b = cluster.buttons.find((x) => x.action === action)
  if (!b) throw new Error(`armed ${action} button vanished from ${key}`)
  return b
}

/** Wait until row `key` is hidden by the plugin (attribute set and no box). */
export async function waitRowHidden(page: Page, key: string, timeoutMs = 15_000): Promise<void> {
  await page.waitForFunction((sel) => {
    const row = document.querySelector(sel) as HTMLElement | null
    return !row || (row.hasAttribute('data-message-recall-hidden') && row.getClientRects().length === 0)
  }, { timeout: timeoutMs, polling: 100 }, rowSelector(key))
}

/** Text of the plugin's error element in row `key`, waiting for it to appear. */
export async function waitRowError(page: Page, key: string, timeoutMs = 10_000): Promise<string> {
  const el = await page.waitForSelector(`${rowSelector(key)} [data-message-recall-error]`, { timeout: timeoutMs, visible: true })
  return (await el!.evaluate((e) => (e as HTMLElement).innerText || e.textContent || '')).trim()
}

/** The plugin's debug snapshot, or null when the client half is not loaded. */
export async function recallSnapshot(page: Page): Promise<any> {
  return page.evaluate(() => {
    const api = (window as any).__DSH_MESSAGE_RECALL__
    return api && typeof api.snapshot === 'function' ? JSON.parse(JSON.stringify(api.snapshot())) : null
  })
}

/** Click the sidebar entry whose text starts with `title` and wait for its chat rows. */
export async function openSessionFromSidebar(page: Page, title: string): Promise<void> {
  await waitInPage(page, `the sidebar entry ${JSON.stringify(title)}`, new Function(`return document.body.innerText.includes(${JSON.stringify(title)})`) as () => boolean, 30_000)
  const clicked = await page.evaluate((title) => {
    const entry = [...document.querySelectorAll<HTMLElement>('[role=treeitem]')].find((e) => e.offsetParent !== null && (e.innerText || '').trim().startsWith(title))
    entry?.click()
    return !!entry
  }, title)
  if (!clicked) throw new Error(`no sidebar entry ${JSON.stringify(title)}`)
  await page.waitForSelector(ROW, { timeout: 30_000 })
}

/** Open the conversation editor with the session header's Edit button and wait for its units. */
export async function openEditor(page: Page): Promise<void> {
  await page.waitForSelector('[data-message-recall-edit]', { timeout: 30_000 })
  await page.click('[data-message-recall-edit]')
  await page.waitForSelector('[data-message-recall-editor] li[data-editor-unit]', { timeout: 30_000 })
}
