/**
 * Click delegation: one listener on the flow turns a click on one of the plugin's buttons into a
 * {@link RowPress}. The row's key is resolved through the last pass's anchors, so a button whose
 * row does not resolve in this session's chat store, or whose action the row does not offer, does
 * nothing (the click is still consumed).
 *
 * @module dsh-message-recall/client/rows/button-clicks
 */
import { ATTR } from './row-marks'
import { FLOW_KEY } from '../wire/rc8'
import type { RowOffer } from './row-offers'
import type { RowAction } from './resolve-row'

/** A press of a row button: the row, the seq its offer acts on, and the button's action. */
export interface RowPress {
  readonly key: string
  /** The row's message seq, or for `restore`/`forkBefore` the exclusion's tombstone seq. */
  readonly seq: number
  readonly action: RowAction
  /** The row's message is folded into a compaction summary: every action asks first (a model call). */
  readonly folded?: true
}

/** Construction options of {@link ClickDelegate}. */
export interface ClickDelegateOptions {
  /** What the row of a key offers, as the last pass saw it. */
  readonly anchorOf: (key: string) => RowOffer | undefined
  /** A press of one of the plugin's buttons on a row that offers its action. */
  readonly onPress: (press: RowPress) => void
}

/** The delegated click listener of one flow. */
export class ClickDelegate {
  private flow: HTMLElement | null = null

  constructor(private readonly options: ClickDelegateOptions) {}

  /**
   * Listen on a flow.
   * @param flow - the bound flow.
   */
  attach(flow: HTMLElement): void {
    this.flow = flow
    flow.addEventListener('click', this.handleClick)
  }

  /**
   * Stop listening.
   * @param flow - the flow given to {@link ClickDelegate.attach}.
   */
  release(flow: HTMLElement): void {
    flow.removeEventListener('click', this.handleClick)
    if (this.flow === flow) this.flow = null
  }

  private readonly handleClick = (event: Event): void => {
    const target = event.target as Element | null
    const button = target?.closest?.(`[${ATTR.action}]`)
    if (button === null || button === undefined || this.flow === null || !this.flow.contains(button)) return
    const row = button.closest(`[${FLOW_KEY}]`)
    const key = row?.getAttribute(FLOW_KEY)
    const action = button.getAttribute(ATTR.action) as RowAction
    event.preventDefault()
    event.stopPropagation()
    const anchor = key === null || key === undefined ? undefined : this.options.anchorOf(key)
    if (anchor === undefined || anchor.seq === null || !anchor.actions.includes(action)) return
    this.options.onPress({ key: anchor.key, seq: anchor.seq, action, ...((anchor as { folded?: boolean }).folded === true ? { folded: true as const } : {}) })
  }
}
