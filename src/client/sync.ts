/**
 * The sync pass: bring every row of this session's chat flow in line with the chat store, the
 * tombstones and the controller state. Rows are found through the official rc.8 markers
 * (`[data-chat-flow] > [data-chat-flow-key]`, `data-chat-flow-kind`; `ChatNodeSeat` in
 * `dsh-client-ui-conversation/lib/client.js`) and every key is resolved in this session's own
 * chat store: a row whose key does not resolve, or resolves to a node of another kind, gets
 * nothing (a row of another session can never be targeted).
 *
 * The flow is the one next to the overlay: the nearest ancestor of the overlay's anchor element
 * that contains a `[data-chat-flow]` (the overlay renders inside the composer of the same session
 * pane as the chat view).
 *
 * Cost: a pass reads each row's key and compares a few references with the row's cached inputs;
 * only rows whose node, hidden state, controller state, running flag or locale changed are
 * written. Button clicks reach the plugin through one delegated listener on the flow.
 *
 * Buttons are added lazily, because laying out thousands of button clusters at once costs far
 * more than a frame: a row gets its cluster once it is one of the last {@link EAGER_TAIL} rows of
 * the flow (the chat opens at its end), once it comes within {@link REVEAL_MARGIN} of the chat's
 * scroll viewport (an IntersectionObserver on the scroll container, watching every
 * {@link REVEAL_STRIDE}-th row and revealing its neighbours with it), or as soon as the pointer or
 * keyboard focus enters it. A row keeps its cluster after that. Hiding is applied to every row at
 * once. Without IntersectionObserver every row is decorated at once.
 *
 * @module dsh-message-recall/client/sync
 */
import { deriveHiddenRows, type HiddenRowsResult } from '../shared/hidden-rows'
import type { RemovalAction as RecallAction } from '../shared/tombstone'
import type { ArmedState, ControllerState, PendingState, RowError, RowTarget } from './controller'
import { ATTR, ClusterFactory, clusterTexts, decorateRow, undecorateAll, undecorateRow, type ClusterTexts } from './decorate'
import { describeError } from './locales'
import type { ChatSnapshot, Translate } from './rc8'
import type { ReplacementSnapshot } from './replacement-view'
import { resolveRow, type RowAnchor } from './rows'

/** The last rows of the flow that get their buttons at once. */
export const EAGER_TAIL = 64

/** How far outside the scroll viewport a row gets its buttons ahead of scrolling (CSS margin). */
export const REVEAL_MARGIN = '800px 0px'

/**
 * Only every `REVEAL_STRIDE`-th undecorated row is observed (observing costs about 2.5 µs a row in
 * Chromium); when one comes near the viewport, it and the `REVEAL_STRIDE` rows on each side are revealed.
 */
export const REVEAL_STRIDE = 8

/**
 * The rc.8 row markers, in this one place (`dsh-client-ui-conversation/lib/client.js`,
 * `ChatNodeSeat`; later DSH lines add others such as `data-chat-turn`).
 * `FLOW_SELECTOR` matches the chat list of one view.
 */
export const FLOW_SELECTOR = '[data-chat-flow]'
/** Attribute of a row that holds its chat-store key (`${kind.length}:${kind}${id}`). */
export const FLOW_KEY = 'data-chat-flow-key'
/** Attribute of a row that holds its rc.8 row kind (`user`, `assistant-step`, `tool-call`, …). */
export const FLOW_KIND = 'data-chat-flow-kind'

/** Everything a pass reads. */
export interface SyncInput {
  readonly chat: ChatSnapshot
  readonly running: boolean
  readonly replacements: ReplacementSnapshot
  readonly controller: ControllerState
  /** Locale revision: texts are re-read when it changes. */
  readonly localeRevision: number
}

/** What one pass saw and did (the debug snapshot is built from it). */
export interface PassRecord {
  /** `Date.now()` at the end of the pass. */
  readonly at: number
  /** Duration of the pass, ms. */
  readonly durationMs: number
  readonly running: boolean
  /** The flow was found. */
  readonly attached: boolean
  /** Row elements in the flow. */
  readonly rows: number
  /** Rows written by this pass. */
  readonly touched: number
  /** Keys of rows in the flow that do not resolve in this session's chat store. */
  readonly unresolved: readonly string[]
  /** Rows of the chat store in render order, resolved. */
  readonly anchors: readonly RowAnchor[]
  readonly hidden: HiddenRowsResult
}

/** Construction options of {@link RowSync}. */
export interface RowSyncOptions {
  /** Translate bound to the plugin namespace (read at call time, so it follows the locale). */
  readonly t: Translate
  /** A click on one of the plugin's buttons. */
  readonly onPress: (target: RowTarget) => void
}

interface RowCache {
  readonly node: unknown
  readonly hidden: boolean
  readonly running: boolean
  readonly revision: number
  readonly armed: ArmedState | null
  readonly pending: PendingState | null
  readonly error: RowError | null
  readonly actions: readonly RecallAction[]
  readonly step: boolean
  readonly wanted: boolean
  readonly cluster: HTMLElement | null
}

const NO_ACTIONS: readonly RecallAction[] = Object.freeze([])

/** Runs sync passes for one session's overlay; see the module description. */
export class RowSync {
  private marker: Element | null = null
  private flow: HTMLElement | null = null
  private scope: Element | null = null
  private cache = new WeakMap<Element, RowCache>()
  private revision = Number.NaN
  private texts: ClusterTexts | null = null
  private factory: ClusterFactory | null = null
  private derived: { replacements: ReplacementSnapshot; anchors: readonly RowAnchor[]; result: HiddenRowsResult } | null = null
  private anchorsByKey = new Map<string, RowAnchor>()
  private observer: MutationObserver | null = null
  private onMutation: (() => void) | null = null
  private intersection: IntersectionObserver | null = null
  /** Rows that may carry buttons (see the module description). */
  private revealed = new WeakSet<Element>()
  private watched = new WeakSet<Element>()

  constructor(private readonly options: RowSyncOptions) {}

  /**
   * Set the element the overlay rendered; the flow is looked up from it.
   * @param marker - the overlay's anchor element, or `null` on unmount.
   */
  setMarker(marker: Element | null): void {
    this.marker = marker
  }

  /**
   * Re-run `onChange` whenever rows of the flow are added, removed or re-created, or the flow
   * itself is replaced. Mutations inside rows (streaming text) do not trigger it.
   * @param onChange - usually schedules a pass.
   * @returns stops watching.
   */
  watch(onChange: () => void): () => void {
    this.onMutation = onChange
    this.reobserve()
    return () => {
      this.onMutation = null
      this.observer?.disconnect()
      this.observer = null
    }
  }

  /**
   * Run one pass.
   * @param input - see {@link SyncInput}.
   * @returns what the pass saw; never throws for rows of unknown shape.
   */
  run(input: SyncInput): PassRecord {
    const started = performance.now()
    const flow = this.locate()
    if (input.localeRevision !== this.revision || this.texts === null || this.factory === null) {
      this.revision = input.localeRevision
      this.texts = clusterTexts(this.options.t)
      this.factory = flow === null ? null : new ClusterFactory(flow.ownerDocument, this.texts)
    }
    const anchors: RowAnchor[] = []
    const byKey = new Map<string, RowAnchor>()
    for (const key of input.chat.order) {
      const node = input.chat.nodes.get(key)
      if (node === undefined) continue
      const anchor = resolveRow(node)
      anchors.push(anchor)
      byKey.set(key, anchor)
    }
    this.anchorsByKey = byKey
    const hidden = this.deriveHidden(input.replacements, anchors)
    let rows = 0
    let touched = 0
    const unresolved: string[] = []
    if (flow !== null) {
      this.factory ??= new ClusterFactory(flow.ownerDocument, this.texts)
      const { controller, running } = input
      const armedKey = controller.armed?.key
      const pendingKey = controller.pending?.key
      const hasErrors = controller.errors.size > 0
      const tailFrom = flow.childElementCount - EAGER_TAIL
      const lazy = this.intersection !== null
      let index = -1
      for (let row = flow.firstElementChild; row !== null; row = row.nextElementSibling) {
        index++
        const key = row.getAttribute(FLOW_KEY)
        if (key === null) continue
        rows++
        const node = input.chat.nodes.get(key)
        const cached = this.cache.get(row)
        if (node === undefined) {
          unresolved.push(key)
          if (cached !== undefined) {
            undecorateRow(row)
            this.cache.delete(row)
            touched++
          }
          continue
        }
        if (!lazy || index >= tailFrom) this.revealed.add(row)
        const wanted = this.revealed.has(row)
        const isHidden = hidden.hiddenKeys.has(key)
        const armed = armedKey === key ? controller.armed : null
        const pending = pendingKey === key ? controller.pending : null
        const error = hasErrors ? controller.errors.get(key) ?? null : null
        if (cached !== undefined && cached.node === node && cached.hidden === isHidden && cached.running === running
          && cached.revision === this.revision && cached.armed === armed && cached.pending === pending && cached.error === error
          && cached.wanted === wanted && (cached.cluster === null || cached.cluster.parentNode === row)) continue
        if ((cached === undefined || cached.node !== node) && row.getAttribute(FLOW_KIND) !== node.kind) {
          unresolved.push(key)
          if (cached !== undefined) undecorateRow(row)
          this.cache.delete(row)
          continue
        }
        const anchor = resolveRow(node)
        if (!wanted && index % REVEAL_STRIDE === 0 && !this.watched.has(row)) {
          this.watched.add(row)
          this.intersection!.observe(row)
        }
        const actions = running || !wanted ? NO_ACTIONS : anchor.actions
        const fresh = cached !== undefined && (cached.revision !== this.revision || cached.actions !== actions || cached.step !== anchor.step)
        const cluster = decorateRow(row as HTMLElement, {
          hidden: isHidden, actions, step: anchor.step, armed, pending, error,
          errorText: error === null ? null : describeError(this.options.t, error.code),
        }, this.factory, this.options.t, this.texts, fresh)
        this.cache.set(row, {
          node, hidden: isHidden, running, revision: this.revision, armed, pending, error, actions, step: anchor.step, wanted, cluster,
        })
        touched++
      }
    }
    return {
      at: Date.now(), durationMs: performance.now() - started, running: input.running, attached: flow !== null,
      rows, touched, unresolved, anchors, hidden,
    }
  }

  /**
   * Let rows carry buttons from the next pass on, and run one (through the `watch` callback).
   * @param rows - row elements of the flow (the IntersectionObserver, pointer and focus entries call this).
   */
  reveal(rows: readonly Element[]): void {
    let added = false
    for (const row of rows) {
      if (this.revealed.has(row)) continue
      this.revealed.add(row)
      this.intersection?.unobserve(row)
      added = true
    }
    if (added) this.onMutation?.()
  }

  /** Remove every mark of the plugin from the flow and stop listening to it. */
  detach(): void {
    if (this.flow !== null) {
      this.unbind(this.flow)
      undecorateAll(this.flow)
    }
    this.observer?.disconnect()
    this.observer = null
    this.flow = null
    this.scope = null
    this.cache = new WeakMap()
    this.revealed = new WeakSet()
    this.watched = new WeakSet()
    this.derived = null
  }

  private deriveHidden(replacements: ReplacementSnapshot, anchors: readonly RowAnchor[]): HiddenRowsResult {
    const last = this.derived
    if (last !== null && last.replacements === replacements && sameAnchors(last.anchors, anchors)) return last.result
    const result = deriveHiddenRows(replacements, anchors)
    this.derived = { replacements, anchors, result }
    return result
  }

  /** Find (or keep) the flow next to the marker and bind the click listener and the observer to it. */
  private locate(): HTMLElement | null {
    const marker = this.marker
    if (marker === null || !marker.isConnected) return this.flow?.isConnected ? this.flow : null
    if (this.flow !== null && this.flow.isConnected && this.scope !== null && this.scope.contains(marker)) return this.flow
    let scope: Element | null = marker.parentElement
    let flow: HTMLElement | null = null
    while (scope !== null && flow === null) {
      flow = scope.querySelector<HTMLElement>(FLOW_SELECTOR)
      if (flow === null) scope = scope.parentElement
    }
    if (flow !== this.flow) {
      if (this.flow !== null) {
        this.unbind(this.flow)
        if (this.flow.isConnected) undecorateAll(this.flow)
      }
      this.cache = new WeakMap()
      this.revealed = new WeakSet()
      this.watched = new WeakSet()
      this.flow = flow
      if (flow !== null) this.bind(flow)
    }
    if (scope !== this.scope) {
      this.scope = scope
      this.reobserve()
    }
    return flow
  }

  private bind(flow: HTMLElement): void {
    flow.addEventListener('click', this.handleClick)
    flow.addEventListener('pointerover', this.handleEnter)
    flow.addEventListener('focusin', this.handleEnter)
    const view = flow.ownerDocument.defaultView as (Window & typeof globalThis) | null
    if (view?.IntersectionObserver === undefined) return
    this.intersection = new view.IntersectionObserver((entries) => {
      const rows: Element[] = []
      for (const entry of entries) if (entry.isIntersecting) rows.push(...neighbourhood(entry.target))
      if (rows.length > 0) this.reveal(rows)
    }, { root: scrollContainer(flow), rootMargin: REVEAL_MARGIN })
  }

  private unbind(flow: HTMLElement): void {
    flow.removeEventListener('click', this.handleClick)
    flow.removeEventListener('pointerover', this.handleEnter)
    flow.removeEventListener('focusin', this.handleEnter)
    this.intersection?.disconnect()
    this.intersection = null
  }

  private readonly handleEnter = (event: Event): void => {
    const row = (event.target as Element | null)?.closest?.(`[${FLOW_KEY}]`)
    if (row !== null && row !== undefined && row.parentElement === this.flow && !this.revealed.has(row)) this.reveal([row])
  }

  private reobserve(): void {
    this.observer?.disconnect()
    this.observer = null
    const scope = this.scope
    const onChange = this.onMutation
    if (scope === null || onChange === null || typeof MutationObserver === 'undefined') return
    this.observer = new MutationObserver((records) => {
      const flow = this.flow
      if (flow === null || !flow.isConnected) return onChange()
      for (const record of records) {
        if (record.target === flow) return onChange()
      }
    })
    this.observer.observe(scope, { childList: true, subtree: true })
  }

  private readonly handleClick = (event: Event): void => {
    const target = event.target as Element | null
    const button = target?.closest?.(`[${ATTR.action}]`)
    if (button === null || button === undefined || this.flow === null || !this.flow.contains(button)) return
    const row = button.closest(`[${FLOW_KEY}]`)
    const key = row?.getAttribute(FLOW_KEY)
    const action = button.getAttribute(ATTR.action) as RecallAction
    event.preventDefault()
    event.stopPropagation()
    const anchor = key === null || key === undefined ? undefined : this.anchorsByKey.get(key)
    if (anchor === undefined || anchor.seq === null || !anchor.actions.includes(action)) return
    this.options.onPress({ key: anchor.key, seq: anchor.seq, action })
  }
}

/** A row and the {@link REVEAL_STRIDE} sibling elements on each side of it. */
function neighbourhood(row: Element): Element[] {
  const rows = [row]
  let before = row.previousElementSibling
  let after = row.nextElementSibling
  for (let i = 0; i < REVEAL_STRIDE; i++) {
    if (before !== null) {
      rows.push(before)
      before = before.previousElementSibling
    }
    if (after !== null) {
      rows.push(after)
      after = after.nextElementSibling
    }
  }
  return rows
}

/** The nearest scrolling ancestor of the flow (the chat's scroll viewport), or `null` for the page viewport. */
function scrollContainer(flow: HTMLElement): Element | null {
  const view = flow.ownerDocument.defaultView
  for (let node = flow.parentElement; node !== null && view !== null; node = node.parentElement) {
    const overflow = view.getComputedStyle(node).overflowY
    if (overflow === 'auto' || overflow === 'scroll') return node
  }
  return null
}

function sameAnchors(a: readonly RowAnchor[], b: readonly RowAnchor[]): boolean {
  if (a.length !== b.length) return false
  for (let i = 0; i < a.length; i++) {
    const x = a[i]!
    const y = b[i]!
    if (x !== y && (x.key !== y.key || x.kind !== y.kind || x.seq !== y.seq || x.logSeq !== y.logSeq || x.turn !== y.turn)) return false
  }
  return true
}
