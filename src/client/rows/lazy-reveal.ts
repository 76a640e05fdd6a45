/**
 * Lazy reveal: which rows of a flow may carry buttons. Laying out thousands of button clusters at
 * once costs far more than a frame, so a row gets its cluster once it is one of the last
 * {@link EAGER_TAIL} rows of the flow (the chat opens at its end), once it comes within
 * {@link REVEAL_MARGIN} of the chat's scroll viewport (an IntersectionObserver on the scroll
 * container, watching every {@link REVEAL_STRIDE}-th row and revealing its neighbours with it), or
 * as soon as the pointer or keyboard focus enters it. A row stays revealed. Without
 * IntersectionObserver every row is revealed at once.
 *
 * @module dsh-message-recall/client/rows/lazy-reveal
 */
import { FLOW_KEY } from '../wire/rc8'

/** The last rows of the flow that get their buttons at once. */
export const EAGER_TAIL = 64

/** How far outside the scroll viewport a row gets its buttons ahead of scrolling (CSS margin). */
export const REVEAL_MARGIN = '800px 0px'

/**
 * Only every `REVEAL_STRIDE`-th unrevealed row is observed (observing costs about 2.5 µs a row in
 * Chromium); when one comes near the viewport, it and the `REVEAL_STRIDE` rows on each side are revealed.
 */
export const REVEAL_STRIDE = 8

/** Construction options of {@link LazyReveal}. */
export interface LazyRevealOptions {
  /** Rows were revealed outside a pass (viewport, pointer or focus); usually runs a pass. */
  readonly onReveal: () => void
}

/** Tracks the revealed rows of one flow; see the module description. */
export class LazyReveal {
  private flow: HTMLElement | null = null
  private intersection: IntersectionObserver | null = null
  private revealed = new WeakSet<Element>()
  private watched = new WeakSet<Element>()

  constructor(private readonly options: LazyRevealOptions) {}

  /**
   * Start watching a flow: pointer and focus entry, and the viewport when IntersectionObserver exists.
   * @param flow - the bound flow.
   */
  attach(flow: HTMLElement): void {
    this.flow = flow
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

  /**
   * Stop watching the flow and forget every revealed row.
   * @param flow - the flow given to {@link LazyReveal.attach}.
   */
  release(flow: HTMLElement): void {
    flow.removeEventListener('pointerover', this.handleEnter)
    flow.removeEventListener('focusin', this.handleEnter)
    this.intersection?.disconnect()
    this.intersection = null
    this.flow = null
    this.revealed = new WeakSet()
    this.watched = new WeakSet()
  }

  /**
   * Whether a row may carry buttons now; a row in the eager tail is revealed by this call.
   * @param row - a row element of the flow.
   * @param index - its position among the flow's element children.
   * @param count - the flow's element child count.
   */
  isRevealed(row: Element, index: number, count: number): boolean {
    if (this.intersection === null || index >= count - EAGER_TAIL) this.revealed.add(row)
    return this.revealed.has(row)
  }

  /**
   * Observe an unrevealed row if it is one of every {@link REVEAL_STRIDE}-th.
   * @param row - a row for which {@link LazyReveal.isRevealed} was false.
   * @param index - its position among the flow's element children.
   */
  observe(row: Element, index: number): void {
    if (this.intersection === null || index % REVEAL_STRIDE !== 0 || this.watched.has(row)) return
    this.watched.add(row)
    this.intersection.observe(row)
  }

  /**
   * Reveal rows and, when any was new, call `onReveal`.
   * @param rows - row elements of the flow.
   */
  reveal(rows: readonly Element[]): void {
    let added = false
    for (const row of rows) {
      if (this.revealed.has(row)) continue
      this.revealed.add(row)
      this.intersection?.unobserve(row)
      added = true
    }
    if (added) this.options.onReveal()
  }

  private readonly handleEnter = (event: Event): void => {
    const row = (event.target as Element | null)?.closest?.(`[${FLOW_KEY}]`)
    if (row !== null && row !== undefined && row.parentElement === this.flow && !this.revealed.has(row)) this.reveal([row])
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
