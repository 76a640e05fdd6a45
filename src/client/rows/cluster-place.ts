/**
 * Where a row's action cluster sits, so it covers no content:
 *
 * - a prompt row: on the line of DSH's own action band under the bubble (time and Copy), just left
 *   of it, so it never covers the prompt bubble and sits next to the controls DSH already puts
 *   there; without a band, left of the bubble's top;
 * - any other row (an answer, a tool row): at the row's right edge, at the first height where it
 *   covers nothing drawn by this row or its neighbours: beside the row's first line, just above
 *   the row, beside a later line, just below the row ({@link freePlace}). Content is every line box
 *   of text and every leaf element with a box (an icon, an image, a control). When no height is
 *   free, the style sheet's place stays (above the row's top-right corner).
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

/** A rectangle in viewport px. */
export interface Box {
  readonly left: number
  readonly top: number
  readonly right: number
  readonly bottom: number
}

/** What {@link freePlace} works from (viewport px). */
export interface FreePlaceInput {
  /** The row. */
  readonly row: Box
  /** The cluster's size. */
  readonly cluster: { readonly width: number; readonly height: number }
  /** Content boxes of the row itself: its text lines and leaf elements, in document order. */
  readonly own: readonly Box[]
  /** Content boxes of the rows before and after it. */
  readonly neighbours: readonly Box[]
}

const overlaps = (a: Box, b: Box) => a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom

/**
 * The first height at the row's right edge where the cluster covers no content. Candidates, in
 * order: centred on the row's first line, just above the row, centred on each later line, just
 * below the row.
 * @param input - measured boxes.
 * @returns `top` (px from the row's top, may be negative) and `right` (`0`: the row's right edge),
 *   or `null` when every candidate covers some content.
 */
export function freePlace(input: FreePlaceInput): { top: number; right: number } | null {
  const { row, cluster, own, neighbours } = input
  const lines: number[] = []
  for (const box of own) {
    const centre = (box.top + box.bottom) / 2
    if (!lines.some((line) => Math.abs(line - centre) < 1)) lines.push(centre)
  }
  lines.sort((a, b) => a - b)
  const centred = (centre: number) => centre - cluster.height / 2
  const candidates = [
    ...(lines.length > 0 ? [centred(lines[0]!)] : []),
    row.top - cluster.height - 1,
    ...lines.slice(1).map(centred),
    row.bottom + 1,
  ]
  const content = [...own, ...neighbours]
  for (const top of candidates) {
    const box: Box = { left: row.right - cluster.width, right: row.right, top, bottom: top + cluster.height }
    if (!content.some((c) => overlaps(box, c))) return { top: Math.round(top - row.top), right: 0 }
  }
  return null
}

/**
 * The content boxes of a row: every text line box and every element without element children
 * that has a box (icons, images, controls), the plugin's own cluster left out.
 * @param row - a row element.
 * @returns boxes in viewport px.
 */
export function contentBoxes(row: Element): Box[] {
  const boxes: Box[] = []
  collect(row, row.ownerDocument.createRange(), boxes)
  return boxes
}

function collect(parent: Element, range: Range, boxes: Box[]): void {
  for (let node = parent.firstChild; node !== null; node = node.nextSibling) {
    if (node.nodeType === 3) pushText(node, range, boxes)
    else if (node.nodeType === 1) {
      const element = node as Element
      if (element.hasAttribute(ATTR.actions)) continue
      if (element.firstChild === null) {
        const b = element.getBoundingClientRect()
        if (b.width > 0 && b.height > 0) boxes.push(b)
      } else collect(element, range, boxes)
    }
  }
}

function pushText(node: Node, range: Range, boxes: Box[]): void {
  if (node.nodeType !== 3 || (node.textContent ?? '').trim() === '') return
  range.selectNodeContents(node)
  for (const b of range.getClientRects()) if (b.width > 0 && b.height > 0) boxes.push(b)
}

function clusterIn(row: Element): HTMLElement | null {
  for (let child = row.lastElementChild; child !== null; child = child.previousElementSibling) {
    if (child.hasAttribute(ATTR.actions)) return child as HTMLElement
  }
  return null
}

/** The row's visible neighbour in `direction`, skipping rows without a box (hidden ones). */
function neighbour(row: Element, direction: 'previousElementSibling' | 'nextElementSibling'): Element | null {
  for (let el = row[direction]; el !== null; el = el[direction]) {
    if (el.getClientRects().length > 0) return el
  }
  return null
}

function write(cluster: HTMLElement, place: { top: number; right: number }): void {
  cluster.style.setProperty('--message-recall-top', `${place.top}px`)
  cluster.style.setProperty('--message-recall-right', `${place.right}px`)
  if (!cluster.hasAttribute(PLACED_ATTR)) cluster.setAttribute(PLACED_ATTR, '')
}

/**
 * Measure and write the place of a row's cluster: beside DSH's band on a prompt row, where it
 * covers no content on any other row.
 * @param row - a row element of the flow.
 * @returns `true` when a place was written; rows without a cluster, prompt rows without the rc.8
 *   prompt markup and rows where no place is free are left alone.
 */
export function placeCluster(row: Element): boolean {
  const cluster = clusterIn(row)
  if (cluster === null) return false
  if (!PROMPT_KINDS.has(row.getAttribute(FLOW_KIND) ?? '')) {
    const size = cluster.getBoundingClientRect()
    const before = neighbour(row, 'previousElementSibling')
    const after = neighbour(row, 'nextElementSibling')
    const place = freePlace({
      row: row.getBoundingClientRect(),
      cluster: { width: size.width, height: size.height },
      own: contentBoxes(row),
      neighbours: [...(before === null ? [] : contentBoxes(before)), ...(after === null ? [] : contentBoxes(after))],
    })
    if (place === null) return false
    write(cluster, place)
    return true
  }
  const root = row.querySelector(PROMPT_HOVER_ROOT)
  if (root === null) return false
  const stack = root.firstElementChild
  const band = stack?.nextElementSibling ?? null
  const place = clusterPlace({
    row: row.getBoundingClientRect(),
    cluster: cluster.getBoundingClientRect(),
    band: band?.getBoundingClientRect() ?? null,
    stack: stack?.getBoundingClientRect() ?? null,
  })
  if (place === null) return false
  write(cluster, place)
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
