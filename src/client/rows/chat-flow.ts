/**
 * Flow binding: which chat flow an overlay decorates, and when it changes. The flow is looked up
 * in a scope around the overlay's anchor element: the session pane's resident scroll body
 * ({@link CONVERSATION_SCROLL}, which holds both the session view and the composer the overlay
 * renders in), else the nearest ancestor of the anchor that contains a `[data-chat-flow]`. The
 * scope is kept while it still holds the anchor, also while it holds no flow: the session header's
 * Trajectory tab takes the Chat view's flow out of the page and a visit back to Chat mounts a new
 * flow element in the same scope. A MutationObserver on the scope reports rows added, removed or
 * re-created, a replaced flow, and a flow that comes back; mutations inside rows (streaming text)
 * are not reported.
 *
 * @module dsh-message-recall/client/rows/chat-flow
 */
import { CONVERSATION_SCROLL, FLOW_SELECTOR } from '../wire/rc8'

/** Construction options of {@link FlowBinding}. */
export interface FlowBindingOptions {
  /** A flow was found (first time, or a new flow element replaced the previous one). */
  readonly onAttach: (flow: HTMLElement) => void
  /** The bound flow was replaced by another element (or vanished); it may no longer be in the page. */
  readonly onRelease: (flow: HTMLElement) => void
  /** The scope changed: the element the flow is looked up in (and observed), or `null` when there is none. */
  readonly onScope?: (scope: Element | null) => void
}

/** Finds and keeps the flow of one overlay; see the module description. */
export class FlowBinding {
  private marker: Element | null = null
  private current: HTMLElement | null = null
  private scope: Element | null = null
  private observer: MutationObserver | null = null
  private onChange: (() => void) | null = null

  constructor(private readonly options: FlowBindingOptions) {}

  /** The bound flow, or `null`. */
  get flow(): HTMLElement | null {
    return this.current
  }

  /**
   * Set the element the overlay rendered; the flow is looked up from it.
   * @param marker - the overlay's anchor element, or `null` on unmount.
   */
  setMarker(marker: Element | null): void {
    this.marker = marker
  }

  /**
   * Call `onChange` whenever rows of the flow are added, removed or re-created, or the flow itself
   * is replaced.
   * @param onChange - usually runs a pass.
   * @returns stops watching.
   */
  watch(onChange: () => void): () => void {
    this.onChange = onChange
    this.reobserve()
    return () => {
      this.onChange = null
      this.observer?.disconnect()
      this.observer = null
    }
  }

  /**
   * Find (or keep) the flow next to the marker; a new flow is attached and the old one detached.
   * @returns the flow, or `null` when the marker has none near it (or is not in the page).
   */
  locate(): HTMLElement | null {
    const marker = this.marker
    if (marker === null || !marker.isConnected) return this.current?.isConnected ? this.current : null
    const current = this.current
    if (current !== null && current.isConnected && this.scope !== null && this.scope.contains(marker) && this.scope.contains(current)) return current
    const scope = this.scope !== null && this.scope.contains(marker) ? this.scope : findScope(marker)
    const flow = scope === null ? null : scope.querySelector<HTMLElement>(FLOW_SELECTOR)
    if (flow !== current) {
      if (current !== null) this.options.onRelease(current)
      this.current = flow
      if (flow !== null) this.options.onAttach(flow)
    }
    if (scope !== this.scope) {
      this.scope = scope
      this.options.onScope?.(scope)
      this.reobserve()
    }
    return flow
  }

  /**
   * Let the flow go and stop observing; `onRelease` is not called, the caller cleans up.
   * @returns the flow that was bound, or `null`.
   */
  detach(): HTMLElement | null {
    const flow = this.current
    this.observer?.disconnect()
    this.observer = null
    this.current = null
    if (this.scope !== null) {
      this.scope = null
      this.options.onScope?.(null)
    }
    return flow
  }

  private reobserve(): void {
    this.observer?.disconnect()
    this.observer = null
    const scope = this.scope
    const onChange = this.onChange
    if (scope === null || onChange === null || typeof MutationObserver === 'undefined') return
    this.observer = new MutationObserver((records) => {
      const flow = this.current
      // No flow bound: only a flow appearing in the scope matters (not the composer, not another view).
      if (flow === null) return scope.querySelector(FLOW_SELECTOR) === null ? undefined : onChange()
      if (!flow.isConnected) return onChange()
      for (const record of records) {
        if (record.target === flow) return onChange()
      }
    })
    this.observer.observe(scope, { childList: true, subtree: true })
  }
}

/**
 * The scope of a marker: the pane's resident scroll body, else the nearest ancestor holding a flow.
 * @param marker - the overlay's anchor element (in the page).
 * @returns the scope, or `null` when neither exists.
 */
function findScope(marker: Element): Element | null {
  const resident = marker.closest(CONVERSATION_SCROLL)
  if (resident !== null) return resident
  for (let scope = marker.parentElement; scope !== null; scope = scope.parentElement) {
    if (scope.querySelector(FLOW_SELECTOR) !== null) return scope
  }
  return null
}
