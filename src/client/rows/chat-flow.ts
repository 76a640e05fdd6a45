/**
 * Flow binding: which chat flow an overlay decorates, and when it changes. The flow is the one next
 * to the overlay: the nearest ancestor of the overlay's anchor element that contains a
 * `[data-chat-flow]` (the overlay renders inside the composer of the same session pane as the chat
 * view). A MutationObserver on that ancestor reports rows added, removed or re-created and a
 * replaced flow; mutations inside rows (streaming text) are not reported.
 *
 * @module dsh-message-recall/client/flow
 */
import { FLOW_SELECTOR } from '../wire/rc8'

/** Construction options of {@link FlowBinding}. */
export interface FlowBindingOptions {
  /** A flow was found (first time, or a new flow element replaced the previous one). */
  readonly onAttach: (flow: HTMLElement) => void
  /** The bound flow was replaced by another element (or vanished); it may no longer be in the page. */
  readonly onRelease: (flow: HTMLElement) => void
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
    if (this.current !== null && this.current.isConnected && this.scope !== null && this.scope.contains(marker)) return this.current
    let scope: Element | null = marker.parentElement
    let flow: HTMLElement | null = null
    while (scope !== null && flow === null) {
      flow = scope.querySelector<HTMLElement>(FLOW_SELECTOR)
      if (flow === null) scope = scope.parentElement
    }
    if (flow !== this.current) {
      if (this.current !== null) this.options.onRelease(this.current)
      this.current = flow
      if (flow !== null) this.options.onAttach(flow)
    }
    if (scope !== this.scope) {
      this.scope = scope
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
    this.scope = null
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
      if (flow === null || !flow.isConnected) return onChange()
      for (const record of records) {
        if (record.target === flow) return onChange()
      }
    })
    this.observer.observe(scope, { childList: true, subtree: true })
  }
}
