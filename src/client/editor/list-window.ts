/**
 * The editor's list, windowed: only the items near the visible part of the list are in the DOM,
 * so opening the dialog on thousands of units, toggling one or re-sorting costs the few dozen
 * rows on screen, not the whole list. Every item has a fixed height (the style sheet holds each
 * unit and heading to it), so the offsets are a prefix sum and the window a binary search; the
 * space of the items left out is kept by two spacers.
 *
 * @module dsh-message-recall/client/editor/list-window
 */
import { useCallback, useEffect, useLayoutEffect, useState, type RefObject } from 'react'

/** Height of a unit in the list, px (the style sheet's `li[data-editor-unit]`). */
export const UNIT_HEIGHT = 76
/** Height of a unit that shows a refusal under it, px. */
export const REFUSED_UNIT_HEIGHT = 100
/** Height of a turn heading, px. */
export const HEADING_HEIGHT = 30
/**
 * Items rendered beyond each end of the visible part: about 900 px of units, more than a wheel or
 * key scroll moves between two frames (the window follows the scroll once per frame). Every item
 * in the window is laid out on a re-sort; 30 made a re-sort at 5,000 units take 7 to 10 ms
 * (median) on a loaded machine, 12 about 3.3 ms.
 */
export const OVERSCAN_ITEMS = 12
/** The list's height assumed before it is measured (or where layout gives none), px. */
export const DEFAULT_VIEWPORT = 800

/** Items to render: `[start, end)` and the spacer heights before and after, px. */
export interface ListWindow {
  readonly start: number
  readonly end: number
  readonly before: number
  readonly after: number
}

/**
 * Offsets of items of the given heights.
 * @param heights - each item's height, px.
 * @returns `heights.length + 1` offsets: item `i` spans `[offsets[i], offsets[i + 1])`; the last is the total.
 */
export function offsetsOf(heights: readonly number[]): number[] {
  const offsets = new Array<number>(heights.length + 1)
  offsets[0] = 0
  for (let i = 0; i < heights.length; i++) offsets[i + 1] = offsets[i]! + heights[i]!
  return offsets
}

/** The first item whose bottom is below `y` (binary search over the offsets). */
function itemAt(offsets: readonly number[], y: number): number {
  let lo = 0
  let hi = offsets.length - 1
  while (lo < hi) {
    const mid = (lo + hi) >> 1
    if (offsets[mid + 1]! <= y) lo = mid + 1
    else hi = mid
  }
  return lo
}

/**
 * The items to render for a scroll position.
 * @param offsets - from {@link offsetsOf}.
 * @param scrollTop - the list's scroll offset, px.
 * @param viewport - the list's visible height, px.
 * @param overscan - items rendered beyond each end of the visible ones.
 * @returns the window (all items when they are few).
 */
export function listWindow(offsets: readonly number[], scrollTop: number, viewport: number, overscan = OVERSCAN_ITEMS): ListWindow {
  const count = offsets.length - 1
  if (count <= 0) return { start: 0, end: 0, before: 0, after: 0 }
  const first = itemAt(offsets, Math.max(0, scrollTop))
  const last = itemAt(offsets, Math.max(0, scrollTop + viewport - 1))
  const start = Math.max(0, first - overscan)
  const end = Math.min(count, last + 1 + overscan)
  return { start, end, before: offsets[start]!, after: offsets[count]! - offsets[end]! }
}

/**
 * Follow a scrolling list's position and visible height.
 * @param list - the scrolling element.
 * @returns the scroll offset and visible height (px), and `scrollTo(y)` which scrolls the list and takes the new position at once.
 */
export function useScrollPosition(list: RefObject<HTMLElement | null>): { scrollTop: number; viewport: number; scrollTo(y: number): void } {
  const [position, setPosition] = useState({ scrollTop: 0, viewport: DEFAULT_VIEWPORT })
  const read = useCallback(() => {
    const el = list.current
    if (el === null) return
    const next = { scrollTop: el.scrollTop, viewport: el.clientHeight > 0 ? el.clientHeight : DEFAULT_VIEWPORT }
    setPosition((p) => (p.scrollTop === next.scrollTop && p.viewport === next.viewport ? p : next))
  }, [list])
  useLayoutEffect(read)
  useEffect(() => {
    const el = list.current
    if (el === null) return
    let frame = 0
    const onScroll = () => {
      if (frame !== 0) return
      frame = requestAnimationFrame(() => {
        frame = 0
        read()
      })
    }
    el.addEventListener('scroll', onScroll, { passive: true })
    return () => {
      el.removeEventListener('scroll', onScroll)
      if (frame !== 0) cancelAnimationFrame(frame)
    }
  })
  const scrollTo = useCallback((y: number) => {
    const el = list.current
    if (el === null) return
    el.scrollTop = y
    read()
  }, [list, read])
  return { ...position, scrollTo }
}
