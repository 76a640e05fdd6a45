/**
 * Where the action cluster of a prompt row sits: on the line of DSH's own action band under the
 * bubble (time and Copy), just left of it, so it never covers the prompt bubble and sits next to
 * the controls DSH already puts there. Without a band, it sits left of the bubble's top. Rows of
 * other kinds keep the style sheet's place (above the row's top-right corner).
 *
 * The place is measured when the pointer enters a row or focus moves into it (the cluster is only
 * painted then), so a pass never forces a layout. It is written as two custom properties on the
 * cluster, `--message-recall-top` and `--message-recall-right` (px, from the row's top and right
 * edges), with `data-message-recall-placed` set.
 *
 * @module dsh-message-recall/client/rows/cluster-place
 */
import { ATTR } from './row-marks'
import { FLOW_KEY, FLOW_KIND, PROMPT_HOVER_ROOT } from '../wire/rc8'

/** Attribute set on a cluster that carries a measured place. */
export const PLACED_ATTR = 'data-message-recall-placed'

/** Gap between the cluster and DSH's band or the bubble, px. */
export const PLACE_GAP = 8

const PROMPT_KINDS: ReadonlySet<string> = new Set(['user', 'steering'])

/** Rectangles the place is computed from (viewport px). */
export interface PlaceInput {
  readonly row: DOMRectReadOnly
  readonly cluster: { readonly height: number }
  /** DSH's action band under the bubble, or `null`. */
  readonly band: DOMRectReadOnly | null
  /** The stack of images and bubble. */
  readonly stack: DOMRectReadOnly | null
}

/**
 * The cluster's place inside its row.
 * @param input - measured rectangles.
 * @returns `top` and `right` offsets from the row's top and right edges in px, or `null` when
 *   neither the band nor the bubble stack has a box.
 */
export function clusterPlace(input: PlaceInput): { top: number; right: number } | null {
  const { row, cluster, band, stack } = input
  const anchor = band !== null && band.width > 0 ? band : stack !== null && stack.width > 0 ? stack : null
  if (anchor === null) return null
  const centre = anchor === band ? anchor.top + (anchor.height - cluster.height) / 2 : anchor.top
  return { top: Math.round(centre - row.top), right: Math.round(row.right - anchor.left + PLACE_GAP) }
}

/**
 * Measure and write the place of a prompt row's cluster.
 * @param row - a row element of the flow.
 * @returns `true` when a place was written; rows of other kinds, rows without a cluster or
 *   without the rc.8 prompt markup are left alone.
 */
export function placeCluster(row: Element): boolean {
  if (!PROMPT_KINDS.has(row.getAttribute(FLOW_KIND) ?? '')) return false
  let cluster: HTMLElement | null = null
  for (let child = row.lastElementChild; child !== null; child = child.previousElementSibling) {
    if (child.hasAttribute(ATTR.actions)) cluster = child as HTMLElement
  }
  const root = row.querySelector(PROMPT_HOVER_ROOT)
  if (cluster === null || root === null) return false
  const stack = root.firstElementChild
  const band = stack?.nextElementSibling ?? null
  const place = clusterPlace({
    row: row.getBoundingClientRect(),
    cluster: cluster.getBoundingClientRect(),
    band: band?.getBoundingClientRect() ?? null,
    stack: stack?.getBoundingClientRect() ?? null,
  })
  if (place === null) return false
  cluster.style.setProperty('--message-recall-top', `${place.top}px`)
  cluster.style.setProperty('--message-recall-right', `${place.right}px`)
  if (!cluster.hasAttribute(PLACED_ATTR)) cluster.setAttribute(PLACED_ATTR, '')
  return true
}

/** Places clusters of one flow as the pointer or focus reaches their rows. */
export class ClusterPlacement {
  private readonly onEnter = (event: Event) => {
    const target = event.target as Element | null
    if (target === null || typeof target.closest !== 'function') return
    const row = target.closest(`[${FLOW_KEY}]`)
    if (row !== null && row.parentElement === event.currentTarget) placeCluster(row)
  }

  /**
   * Start placing clusters of `flow`.
   * @param flow - the chat flow element.
   */
  attach(flow: HTMLElement): void {
    flow.addEventListener('pointerover', this.onEnter)
    flow.addEventListener('focusin', this.onEnter)
  }

  /**
   * Stop placing clusters of `flow`.
   * @param flow - the flow given to {@link ClusterPlacement.attach}.
   */
  release(flow: HTMLElement): void {
    flow.removeEventListener('pointerover', this.onEnter)
    flow.removeEventListener('focusin', this.onEnter)
  }
}
