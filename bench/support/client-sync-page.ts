/**
 * Browser side of `bench/client-sync.bench.ts`, bundled by esbuild and run in headless Chromium.
 * It builds a chat flow with the markup of rc.8 `ChatNodeSeat` from the Chat nodes the bench
 * produced with the real rc.8 Definitions, and times the plugin's real sync pass (`RowSync`)
 * beside a floor pass that only reads every row's key and kind.
 *
 * @module bench/support/client-sync-page
 */
import { ROW_STYLE_TEXT } from '../../src/client/rows/row-styles'
import { EMPTY_REPLACEMENTS, type ReplacementSnapshot } from '../../src/client/wire/replacement-view'
import { FLOW_KEY, FLOW_KIND, type ChatNode, type ChatSnapshot } from '../../src/client/wire/rc8'
import { RowSync, type SyncInput } from '../../src/client/rows/row-sync'
import type { ButtonState } from '../../src/client/rows/button-store'

/** What the bench hands to the page. */
export interface PageInput {
  readonly nodes: readonly ChatNode[]
  readonly order: readonly string[]
  readonly replacements: ReplacementSnapshot
  /** Timed repetitions of each pass. */
  readonly rounds: number
  /** Passes per timed batch of the floor, steady-state and idle measurements (the browser clock is coarse). */
  readonly batch: number
  /** Nodes replaced (new objects) before each steady-state pass. */
  readonly changedPerPass: number
  /** Rows revealed at once by a scroll, for the reveal measurement. */
  readonly revealRows: number
}

/** Figures of one measurement, ms. */
export interface Figures {
  readonly samples: readonly number[]
}

/** What the page returns. */
export interface PageResult {
  readonly rows: number
  readonly decorated: number
  readonly hidden: number
  readonly floor: Figures
  readonly first: Figures
  readonly firstWithLayout: Figures
  /** A pass after `revealed` more rows came into view (scrolling), with the layout it forces. */
  readonly reveal: Figures
  readonly revealed: number
  readonly steady: Figures
  readonly steadyTouched: number
  readonly idle: Figures
  readonly userAgent: string
}

const IDLE: ButtonState = Object.freeze({ armed: null, pending: null, errors: new Map() })
const t = (key: string, params?: Record<string, string | number>) => (params?.count === undefined ? key : `${key} ${params.count}`)

function rowText(node: ChatNode): string {
  const data = node.data as Record<string, any>
  if (Array.isArray(data?.content)) return data.content.map((b: any) => b.text ?? '').join(' ').slice(0, 160)
  if (Array.isArray(data?.blocks)) return data.blocks.map((b: any) => b.text ?? b.name ?? '').join(' ').slice(0, 160)
  return node.kind
}

/** A session pane: flow of rows, and a composer holding the overlay marker. */
function buildPane(input: PageInput, store: Map<string, ChatNode>): { pane: HTMLElement; flow: HTMLElement; marker: HTMLElement } {
  const pane = document.createElement('div')
  const flow = document.createElement('div')
  flow.setAttribute('data-chat-flow', '')
  flow.className = 'column'
  for (const key of input.order) {
    const node = store.get(key)!
    const row = document.createElement('div')
    row.className = 'flowItem'
    row.setAttribute('data-chat-anchor-key', key)
    row.setAttribute(FLOW_KEY, key)
    row.setAttribute(FLOW_KIND, node.kind)
    const seat = document.createElement('div')
    seat.setAttribute('data-slot', 'conversation.chat.node')
    const body = document.createElement('div')
    body.className = node.kind === 'user' ? 'bubble' : 'body'
    body.textContent = rowText(node)
    seat.appendChild(body)
    row.appendChild(seat)
    flow.appendChild(row)
  }
  const composer = document.createElement('div')
  const textarea = document.createElement('textarea')
  const marker = document.createElement('span')
  marker.hidden = true
  composer.append(textarea, marker)
  pane.append(flow, composer)
  document.body.appendChild(pane)
  return { pane, flow, marker }
}

function chatOf(input: PageInput, store: Map<string, ChatNode>): ChatSnapshot {
  return { order: input.order, nodes: { get: (key) => store.get(key), values: () => [...store.values()] } }
}

/** Run every measurement. */
export function runBench(input: PageInput): PageResult {
  const style = document.createElement('style')
  style.textContent = `${ROW_STYLE_TEXT}\n.column{display:flex;flex-direction:column;gap:16px;max-width:748px;margin:0 auto}.flowItem{min-width:0}.bubble{margin-left:auto;max-width:80%;padding:10px 16px;border-radius:22px;background:#eee}`
  document.head.appendChild(style)
  const store = new Map(input.nodes.map((node) => [node.key, node]))
  const replacements = input.replacements.length === 0 ? EMPTY_REPLACEMENTS : Object.freeze([...input.replacements])
  const syncInput = (chat: ChatSnapshot): SyncInput => ({ chat, running: false, replacements, buttons: IDLE, localeRevision: 1 })

  // Floor: read every row's key and kind, nothing else.
  const floorPane = buildPane(input, store)
  const floor: number[] = []
  let sink = 0
  for (let r = 0; r < input.rounds; r++) {
    const start = performance.now()
    for (let b = 0; b < input.batch; b++) {
      for (let row = floorPane.flow.firstElementChild; row !== null; row = row.nextElementSibling) {
        const key = row.getAttribute(FLOW_KEY)
        const kind = row.getAttribute(FLOW_KIND)
        if (key !== null && kind !== null) sink += key.length + kind.length
      }
    }
    floor.push((performance.now() - start) / input.batch)
  }
  floorPane.pane.remove()

  // First decoration of a fresh flow (rows built outside the timed region), JS only and with layout.
  const first: number[] = []
  const firstWithLayout: number[] = []
  const reveal: number[] = []
  let decorated = 0
  let hidden = 0
  for (let r = 0; r < input.rounds; r++) {
    const { pane, flow, marker } = buildPane(input, store)
    void flow.offsetHeight
    const sync = new RowSync({ t, onPress: () => {} })
    sync.setMarker(marker)
    const start = performance.now()
    const pass = sync.run(syncInput(chatOf(input, store)))
    const end = performance.now()
    void flow.offsetHeight
    firstWithLayout.push(performance.now() - start)
    first.push(end - start)
    decorated = flow.querySelectorAll('[data-message-recall-actions]').length
    hidden = pass.hidden.hidden.length
    // A scroll brings `revealRows` rows of the middle into view.
    const middle = [...flow.children].slice(flow.children.length / 2, flow.children.length / 2 + input.revealRows)
    sync.reveal(middle)
    const revealStart = performance.now()
    sync.run(syncInput(chatOf(input, store)))
    void flow.offsetHeight
    reveal.push(performance.now() - revealStart)
    if (r < input.rounds - 1) {
      sync.detach()
      pane.remove()
    } else {
      // Steady state on the last decorated pane: a few nodes change before every pass.
      const steady: number[] = []
      const idle: number[] = []
      let touched = 0
      const keys = input.order.filter((key) => store.get(key)!.kind !== 'turn-tail')
      let cursor = 0
      for (let s = 0; s < input.rounds; s++) {
        const batchStart = performance.now()
        for (let b = 0; b < input.batch; b++) {
          for (let c = 0; c < input.changedPerPass; c++) {
            const key = keys[(cursor++ * 7919) % keys.length]!
            store.set(key, { ...store.get(key)! })
          }
          touched += sync.run(syncInput(chatOf(input, store))).touched
        }
        steady.push((performance.now() - batchStart) / input.batch)
        const idleStart = performance.now()
        const chat = chatOf(input, store)
        for (let b = 0; b < input.batch; b++) sync.run(syncInput(chat))
        idle.push((performance.now() - idleStart) / input.batch)
      }
      sync.detach()
      pane.remove()
      return {
        rows: input.order.length, decorated, hidden, floor: { samples: floor }, first: { samples: first },
        firstWithLayout: { samples: firstWithLayout }, reveal: { samples: reveal }, revealed: input.revealRows, steady: { samples: steady },
        steadyTouched: touched / (input.rounds * input.batch), idle: { samples: idle },
        userAgent: `${navigator.userAgent} (floor checksum ${sink % 997})`,
      }
    }
  }
  throw new Error('rounds must be at least 1')
}

;(globalThis as unknown as { runBench: typeof runBench }).runBench = runBench
