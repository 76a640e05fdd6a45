/**
 * Reading and driving the undo notice, excluded rows and the Removed panel in the real web UI
 * (DOM contract in `src/client/notices/UndoNotice.tsx`, `src/client/panel/RemovedPanel.tsx`,
 * `src/client/rows/decorate.ts`).
 *
 * @module test/e2e/removals-ui
 */
import type { Page } from 'puppeteer-core'
import { breakSessionFolder } from './harness'
import { clickAction, rowSelector, waitArmed, waitInPage } from './ui'

/**
 * Press a row button twice with real pointer clicks: arm it, then commit.
 * @returns what the armed button said, e.g. "Delete 1?".
 */
export async function armAndCommit(page: Page, key: string, action: 'delete' | 'deleteFrom' | 'exclude'): Promise<string> {
  await clickAction(page, key, action as 'delete')
  const armed = await waitArmed(page, key, action)
  await clickAction(page, key, action as 'delete')
  return armed.text
}

/** The undo notice as the suite sees it, or `null` when none shows. */
export interface NoticeInfo {
  readonly text: string
  /** `data-message-recall-undo-action` of each button, in order. */
  readonly actions: readonly string[]
  readonly error: string | null
}

/** Read the undo notice. */
export async function readNotice(page: Page): Promise<NoticeInfo | null> {
  return page.evaluate(() => {
    const el = document.querySelector<HTMLElement>('[data-message-recall-undo]')
    if (!el) return null
    return {
      text: (el.querySelector('[data-message-recall-undo-text]')?.textContent ?? '').trim(),
      actions: [...el.querySelectorAll('button[data-message-recall-undo-action]')].map((b) => b.getAttribute('data-message-recall-undo-action') ?? ''),
      error: el.querySelector('[data-message-recall-undo-error]')?.textContent ?? null,
    }
  })
}

/** Wait until the undo notice reads `text`; returns it. */
export async function waitNotice(page: Page, text: string, timeoutMs = 10_000): Promise<NoticeInfo> {
  await page.waitForFunction((t) => document.querySelector('[data-message-recall-undo-text]')?.textContent?.trim() === t, { timeout: timeoutMs, polling: 50 }, text)
  return (await readNotice(page))!
}

/** Click a button of the undo notice with a real pointer click. */
export async function clickNotice(page: Page, action: 'undo' | 'forkBefore' | 'dismiss'): Promise<void> {
  await page.bringToFront()
  const button = await page.waitForSelector(`[data-message-recall-undo] button[data-message-recall-undo-action="${action}"]`, { visible: true, timeout: 5_000 })
  await button!.click()
}

/** Wait until row `key` is shown again (no plugin hiding, has a box). */
export async function waitRowShown(page: Page, key: string, timeoutMs = 15_000): Promise<void> {
  await page.waitForFunction((sel) => {
    const row = document.querySelector(sel) as HTMLElement | null
    return !!row && !row.hasAttribute('data-message-recall-hidden') && row.getClientRects().length > 0
  }, { timeout: timeoutMs, polling: 100 }, rowSelector(key))
}

/** How an excluded row looks. */
export interface ExcludedInfo {
  readonly excluded: boolean
  /** Takes up space on screen. */
  readonly shown: boolean
  /** Computed opacity of the row's content (the children of its `conversation.chat.node` seat, which rc.8 may lay out as `display: contents`). */
  readonly contentOpacity: number
  readonly badge: string | null
}

/** Read the exclusion marks of row `key`. */
export async function readExcluded(page: Page, key: string): Promise<ExcludedInfo> {
  return page.$eval(rowSelector(key), (row) => {
    const el = row as HTMLElement
    const content = el.querySelector<HTMLElement>(':scope > [data-slot] > *')
    return {
      excluded: el.hasAttribute('data-message-recall-excluded'),
      shown: el.getClientRects().length > 0 && getComputedStyle(el).display !== 'none',
      contentOpacity: content ? Number(getComputedStyle(content).opacity) : 1,
      badge: el.querySelector('[data-message-recall-excluded-badge]')?.textContent ?? null,
    }
  })
}

/** Wait until row `key` carries the exclusion mark. */
export async function waitRowExcluded(page: Page, key: string, timeoutMs = 15_000): Promise<void> {
  await page.waitForFunction((sel) => document.querySelector(sel)?.hasAttribute('data-message-recall-excluded') === true, { timeout: timeoutMs, polling: 100 }, rowSelector(key))
}

/** One entry of the Removed panel as the suite sees it. */
export interface PanelEntry {
  readonly tombstoneSeq: number
  readonly action: string
  /** The meta texts after the time: action label, count, tokens, "Restored". */
  readonly meta: readonly string[]
  readonly excerpt: string
  readonly restored: boolean
  readonly buttons: readonly string[]
}

/** The Removed button: its label text, count and accessible name; `null` when it is not shown. */
export async function readRemovedButton(page: Page): Promise<{ text: string; count: string | null; label: string } | null> {
  return page.evaluate(() => {
    const b = document.querySelector<HTMLElement>('button[data-message-recall-removed]')
    if (!b) return null
    return { text: b.querySelector('span')?.textContent ?? '', count: b.querySelector('[data-count]')?.textContent ?? null, label: b.getAttribute('aria-label') ?? '' }
  })
}

/** Open the Removed panel (a real click on its header button) and read its entries. */
export async function openPanel(page: Page): Promise<PanelEntry[]> {
  await page.bringToFront()
  const button = await page.waitForSelector('button[data-message-recall-removed]', { visible: true, timeout: 15_000 })
  const open = await page.$('[data-message-recall-panel]')
  if (!open) await button!.click()
  await page.waitForSelector('[data-message-recall-panel]', { visible: true, timeout: 5_000 })
  return page.$$eval('[data-message-recall-entry]', (els) => els.map((el) => ({
    tombstoneSeq: Number(el.getAttribute('data-message-recall-entry')),
    action: el.getAttribute('data-action') ?? '',
    meta: [...(el.querySelector('[data-message-recall-entry-meta]')?.children ?? [])].slice(1).map((c) => c.textContent ?? ''),
    excerpt: el.querySelector('[data-message-recall-entry-excerpt]')?.textContent ?? '',
    restored: el.hasAttribute('data-restored'),
    buttons: [...el.querySelectorAll('[data-message-recall-entry-action]')].map((b) => b.textContent ?? ''),
  })))
}

/** Close the Removed panel with Escape. */
export async function closePanel(page: Page): Promise<void> {
  await page.keyboard.press('Escape')
  await waitInPage(page, 'the Removed panel to close', () => !document.querySelector('[data-message-recall-panel]'), 5_000)
}

/** Texts of the visible sidebar session entries, in order. */
export async function sidebarTitles(page: Page): Promise<string[]> {
  return page.$$eval('[role=treeitem]', (els) => els.filter((e) => (e as HTMLElement).offsetParent !== null).map((e) => ((e as HTMLElement).innerText || '').trim().split('\n')[0] ?? ''))
}

/** Click the sidebar entry whose first line is exactly `title`, and wait for chat rows. */
export async function openExactSidebarEntry(page: Page, title: string): Promise<void> {
  await page.waitForFunction((t) => [...document.querySelectorAll<HTMLElement>('[role=treeitem]')].some((e) => e.offsetParent !== null && (e.innerText || '').trim().split('\n')[0] === t), { timeout: 30_000, polling: 100 }, title)
  await page.evaluate((t) => {
    const entry = [...document.querySelectorAll<HTMLElement>('[role=treeitem]')].find((e) => e.offsetParent !== null && (e.innerText || '').trim().split('\n')[0] === t)
    entry!.click()
  }, title)
  await page.waitForSelector('[data-chat-flow] > [data-chat-flow-key]', { timeout: 30_000 })
}

/** The unsaved notice's text, phase, Save again button and last error, or `null` when none shows. */
export async function readUnsaved(p: Page): Promise<{ text: string; phase: string; button: string | null; error: string | null } | null> {
  return p.evaluate(() => {
    const el = document.querySelector('[data-message-recall-unsaved]')
    if (!el) return null
    return {
      text: el.querySelector('[data-message-recall-unsaved-text]')?.textContent ?? '',
      phase: el.getAttribute('data-phase') ?? '',
      button: el.querySelector('button[data-message-recall-unsaved-action="save"]')?.textContent ?? null,
      error: el.querySelector('[data-message-recall-unsaved-error]')?.textContent ?? null,
    }
  })
}

/**
 * Run `whileBroken` with the session's folder unwritable ({@link breakSessionFolder}), then put the
 * folder back, press the unsaved notice's Save again and wait for "Saved to disk.". The folder is
 * put back whatever happens.
 * @param page - the page showing the session.
 * @param home - the DSH home of the suite.
 * @param sessionId - the session.
 * @param whileBroken - what to do and check while writes fail.
 */
export async function saveAgainAfterUnwritableFolder(page: Page, home: string, sessionId: string, whileBroken: () => Promise<void>): Promise<void> {
  const restore = breakSessionFolder(home, sessionId)
  let restored = false
  try {
    await whileBroken()
    restore()
    restored = true
    await page.click('[data-message-recall-unsaved] button[data-message-recall-unsaved-action="save"]')
    await page.waitForFunction(() => document.querySelector('[data-message-recall-unsaved-text]')?.textContent === 'Saved to disk.', { timeout: 30_000, polling: 100 })
  } finally {
    if (!restored) restore()
  }
}
