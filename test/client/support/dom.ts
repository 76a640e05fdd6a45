/**
 * A real DOM for the client tests: one happy-dom `Window`, installed as the globals React DOM and
 * the plugin read (`window`, `document`, element classes, events, `MutationObserver`,
 * `requestAnimationFrame`). Import this module before `react-dom`: React DOM decides at load
 * whether a DOM exists.
 *
 * @module test/client/support/dom
 */
import { Window } from 'happy-dom'

/** The page window shared by the client tests. */
export const page = new Window({ url: 'http://127.0.0.1:3080/', width: 1280, height: 900 })

const names = [
  'window', 'document', 'navigator', 'Node', 'Element', 'HTMLElement', 'HTMLButtonElement', 'HTMLTextAreaElement', 'HTMLSpanElement',
  'Text', 'DocumentFragment', 'Event', 'UIEvent', 'MouseEvent', 'PointerEvent', 'KeyboardEvent', 'FocusEvent', 'InputEvent',
  'MutationObserver', 'getComputedStyle', 'requestAnimationFrame', 'cancelAnimationFrame',
] as const
for (const name of names) {
  const value = name === 'window' ? page : (page as unknown as Record<string, unknown>)[name]
  Object.defineProperty(globalThis, name, { value: typeof value === 'function' && /^[a-z]/.test(name) ? (value as Function).bind(page) : value, configurable: true, writable: true })
}
;(globalThis as Record<string, unknown>).IS_REACT_ACT_ENVIRONMENT = true

/** Let queued microtasks and MutationObserver callbacks run. */
export async function settle(): Promise<void> {
  for (let i = 0; i < 3; i++) await new Promise<void>((resolve) => setTimeout(resolve, 0))
}

/**
 * Wait until `condition()` holds, letting timers, microtasks and React work run in between.
 * @throws AssertionError naming `label` after `timeoutMs` (default 5000).
 */
export async function waitFor(condition: () => boolean, label: string, timeoutMs = 5000): Promise<void> {
  const { act } = await import('react')
  const deadline = Date.now() + timeoutMs
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${label}`)
    await act(async () => { await new Promise<void>((resolve) => setTimeout(resolve, 20)) })
  }
}
