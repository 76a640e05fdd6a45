/**
 * The timer functions every store of the browser half takes (the button store, the image notice,
 * the undo notice, the unsaved state, Restore and Open a copy) and the recall's landing check:
 * the page's own by default, a test's controlled clock in unit tests.
 *
 * @module dsh-message-recall/client/stores/timers
 */

/** Timer functions; `ms` in milliseconds, `handle` whatever `setTimeout` returned. */
export interface Timers {
  setTimeout(callback: () => void, ms: number): unknown
  clearTimeout(handle: unknown): void
}

/** The page's own timers (read at call time, so a test's fake timers are seen). */
export const BROWSER_TIMERS: Timers = {
  setTimeout: (callback, ms) => globalThis.setTimeout(callback, ms),
  clearTimeout: (handle) => globalThis.clearTimeout(handle as ReturnType<typeof globalThis.setTimeout>),
}
