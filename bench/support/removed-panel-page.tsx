/**
 * Browser side of `bench/removed-panel.bench.ts`, bundled by esbuild and run in headless Chromium
 * on a page the bench's server serves. On the same history pages it times:
 *
 * - the floor: every page of the web host's history call read and parsed (`readWholeHistory`),
 *   the part of DSH's own session open that reads the history;
 * - the Removed panel to its first render: the same read, the replacement records the plugin's
 *   replacement view keeps (`isReplacementEvent`, `replacementRecord`), the real header button
 *   (`RemovedButton`) rendered with them and the session's Chat rows, a click on it, and the
 *   panel's first render: its first window of entries (`PANEL_FIRST_WINDOW`, the newest) in the
 *   DOM, laid out, and one frame painted (`requestAnimationFrame`, then a task). Also timed: until
 *   every entry is in the DOM (the panel adds the rest in steps, one per frame).
 *
 * The Chat rows are handed in (built by the bench with the real rc.8 conversation engine): in the
 * page they are DSH's, built during DSH's own read, so they are no part of the panel's cost.
 *
 * @module bench/support/removed-panel-page
 */
import { createRoot, type Root } from 'react-dom/client'
import { fetchImpl, fill, floor, until } from './page-kit'
import { PANEL_FIRST_WINDOW, RemovedButton, type PanelKit } from '../../src/client/panel/RemovedPanel'
import { PANEL_STYLE_TEXT } from '../../src/client/panel/panel-styles'
import { en } from '../../src/client/text/locales'
import { SessionStores } from '../../src/client/stores/session-stores'
import { TombstoneActions } from '../../src/client/stores/tombstone-actions'
import { createRecallSender } from '../../src/client/wire/api'
import type { ChatNode, ChatSnapshot, SessionSnapshot } from '../../src/client/wire/rc8'
import { isReplacementEvent, replacementRecord, REPLACEMENT_VIEW } from '../../src/client/wire/replacement-view'
import { readWholeHistory } from '../../src/client/wire/session-history'

const send = createRecallSender(fetchImpl)
const LOCALE = { active: 'en', revision: 1 }
const kit: PanelKit = {
  locale: { subscribe: () => () => {}, getSnapshot: () => LOCALE },
  t: (key, params) => fill((en as Record<string, string>)[key] ?? key, params),
  tombstones: new SessionStores((sessionId) => new TombstoneActions({ sessionId, send, openSession: async () => {} })),
}

let chat: ChatSnapshot | null = null
let root: Root | null = null
let container: HTMLElement | null = null

/** Hand in the session's Chat rows (as DSH's chat store holds them). */
function setChat(order: readonly string[], nodes: readonly ChatNode[]): void {
  const byKey = new Map(nodes.map((node) => [node.key, node]))
  chat = { order, nodes: { get: (key: string) => byKey.get(key), values: () => byKey.values() } } as unknown as ChatSnapshot
  const style = document.createElement('style')
  style.textContent = PANEL_STYLE_TEXT
  document.head.appendChild(style)
}

function unmount(): void {
  root?.unmount()
  container?.remove()
  root = null
  container = null
}

/** The history read, then the panel opened to its first render (see the module docstring). */
async function panel(sessionId: string): Promise<{ ms: number; whole: number; firstWindow: number; entries: number; replacements: number; phases: { read: number; records: number; dom: number; paint: number } }> {
  unmount()
  container = document.createElement('div')
  document.body.appendChild(container)
  const start = performance.now()
  const events = await readWholeHistory(fetchImpl, sessionId)
  const read = performance.now()
  const replacements = Object.freeze(events.filter(isReplacementEvent).map(replacementRecord))
  const records = performance.now()
  const views = new Map<string, unknown>([[REPLACEMENT_VIEW, replacements]])
  const snapshot = { chat, views } as unknown as SessionSnapshot
  const useSession = <T,>(selector: (s: SessionSnapshot) => T): T => selector(snapshot)
  root = createRoot(container)
  root.render(<RemovedButton sessionId={sessionId} useSession={useSession} kit={kit} />)
  const host = container
  await until(host, () => host.querySelector('button[data-message-recall-removed]') !== null)
  host.querySelector<HTMLButtonElement>('button[data-message-recall-removed]')!.click()
  const want = replacements.length
  const first = Math.min(PANEL_FIRST_WINDOW, want)
  const count = () => host.querySelectorAll('[data-message-recall-panel] li[data-message-recall-entry]').length
  await until(host, () => count() >= first)
  const dom = performance.now()
  // Laid out, then one frame painted.
  void host.querySelector('[data-message-recall-panel]')!.getBoundingClientRect().height
  await new Promise<void>((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)))
  const end = performance.now()
  await until(host, () => count() >= want)
  const whole = performance.now()
  const phases = { read: read - start, records: records - read, dom: dom - records, paint: end - dom }
  return { ms: end - start, whole: whole - start, firstWindow: first, entries: count(), replacements: want, phases }
}

;(globalThis as unknown as { panelBench: unknown }).panelBench = { setChat, floor, panel, unmount }
