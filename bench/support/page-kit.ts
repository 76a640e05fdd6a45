/**
 * Browser-side pieces the bench pages share (`editor-page.tsx`, `removed-panel-page.tsx`, bundled
 * into the page by esbuild): the page's `fetch`, locale-template filling, waiting on the DOM, and
 * the floor both pages are measured against (every page of the history call read and parsed).
 *
 * @module bench/support/page-kit
 */
import type { FetchLike } from '../../src/client/wire/api'
import { readWholeHistory } from '../../src/client/wire/session-history'

/** Fill a locale template's `{name}` placeholders from `params` (an unknown one stays as written). */
export const fill = (template: string, params: Record<string, string | number> = {}) => template.replace(/\{(\w+)\}/g, (_, k: string) => String(params[k] ?? `{${k}}`))

/** The page's own `fetch`, as the plugin's wire code takes it. */
export const fetchImpl: FetchLike = (url, init) => globalThis.fetch(url, init) as never

/** Wait until `test` holds, checking after every DOM mutation of `target`. */
export function until(target: Node, test: () => boolean): Promise<void> {
  if (test()) return Promise.resolve()
  return new Promise((resolve) => {
    const observer = new MutationObserver(() => {
      if (test()) {
        observer.disconnect()
        resolve()
      }
    })
    observer.observe(target, { childList: true, subtree: true, attributes: true })
  })
}

/**
 * The floor: every page of the history call read and parsed (`readWholeHistory`).
 * @returns the wall time in milliseconds and the number of events read.
 */
export async function floor(sessionId: string): Promise<{ ms: number; events: number }> {
  const start = performance.now()
  const events = await readWholeHistory(fetchImpl, sessionId)
  return { ms: performance.now() - start, events: events.length }
}
