/**
 * Browser side of `bench/editor.bench.ts`, bundled by esbuild and run in headless Chromium on a
 * page the bench's server serves. It times, on the same history pages: the floor (every page of
 * the history call read and parsed, `readWholeHistory`), opening the real editor dialog (the
 * same read, then the units and the list in the DOM, with the layout it forces), and, with the
 * dialog open, toggling one unit and re-sorting (click to the DOM updated and laid out).
 *
 * @module bench/support/editor-page
 */
import { createRoot, type Root } from 'react-dom/client'
import { fetchImpl, fill, floor, until } from './page-kit'
import { EditorModal, type EditorKit } from '../../src/client/editor/EditorModal'
import { EDITOR_CSS } from '../../src/client/editor/editor-styles'
import { editorEn } from '../../src/client/editor/editor-locales'
import { createRecallSender } from '../../src/client/wire/api'

const kit: EditorKit = {
  t: (key, params) => fill((editorEn as Record<string, string>)[key] ?? key, params),
  tRecall: (key) => key,
  send: createRecallSender(fetchImpl),
  fetch: fetchImpl,
  unsaved: () => ({ mark: () => {}, settled: () => {} }),
}
const BREAKDOWN = { systemTokens: 3000, toolsTokens: 2000, messageTokens: 600_000 }

let root: Root | null = null
let container: HTMLElement | null = null

/** Open the editor; resolve when the list is in the DOM and laid out. */
async function open(sessionId: string): Promise<{ ms: number; units: number }> {
  close()
  container = document.createElement('div')
  document.body.appendChild(container)
  const start = performance.now()
  root = createRoot(container)
  root.render(<EditorModal sessionId={sessionId} running={false} breakdown={BREAKDOWN} locale="en" kit={kit} onClose={() => {}} />)
  await until(container, () => container!.querySelector('[data-editor-units] li[data-editor-unit]') !== null)
  void container.offsetHeight
  const ms = performance.now() - start
  return { ms, units: Number(container.querySelector('[data-editor-units]')!.getAttribute('data-editor-count')) }
}

function close(): void {
  root?.unmount()
  container?.remove()
  root = null
  container = null
}

/** Click a control and wait for React's commit (a discrete event's update runs in a microtask), then force the layout. */
async function clickAndLayout(button: HTMLElement, changed: () => boolean): Promise<number> {
  const start = performance.now()
  button.click()
  for (let i = 0; i < 4 && !changed(); i++) await Promise.resolve()
  if (!changed()) await until(container!, changed)
  void container!.offsetHeight
  return performance.now() - start
}

/** Toggle `rounds` units (spread over the list) on and off; each sample is one click. */
async function toggles(rounds: number): Promise<number[]> {
  const units = [...container!.querySelectorAll<HTMLElement>('li[data-editor-unit][data-editor-state="current"]')]
  const samples: number[] = []
  for (let r = 0; r < rounds; r++) {
    const unit = units[(r * 7919) % units.length]!
    const button = unit.querySelector<HTMLElement>('[data-editor-select]')!
    const before = button.getAttribute('aria-pressed')
    samples.push(await clickAndLayout(button, () => button.getAttribute('aria-pressed') !== before))
  }
  return samples
}

/** Re-sort `rounds` times (largest first, conversation order, …) with some units selected; each sample is one click. */
async function resorts(rounds: number): Promise<number[]> {
  const sort = container!.querySelector<HTMLElement>('[data-editor-sort]')!
  const list = container!.querySelector<HTMLElement>('[data-editor-units]')!
  const samples: number[] = []
  for (let r = 0; r < rounds; r++) {
    const before = list.getAttribute('data-editor-order')
    samples.push(await clickAndLayout(sort, () => list.getAttribute('data-editor-order') !== before))
  }
  return samples
}

const style = document.createElement('style')
style.textContent = EDITOR_CSS
document.head.appendChild(style)
;(globalThis as unknown as Record<string, unknown>).editorBench = { floor, open, close, toggles, resorts }
