/**
 * The editor's windowed list, pure: offsets of fixed-height items, and which items a scroll
 * position renders (the visible ones and the overscan on each side, spacers for the rest).
 */
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { listWindow, offsetsOf } from '../../src/client/editor/list-window'

describe('editor list window', () => {
  it('sums the heights into offsets', () => {
    assert.deepEqual(offsetsOf([30, 76, 76, 100, 30]), [0, 30, 106, 182, 282, 312])
    assert.deepEqual(offsetsOf([]), [0])
  })

  it('renders every item of a short list, and a window with spacers of a long one', () => {
    const few = offsetsOf(Array(20).fill(76))
    assert.deepEqual(listWindow(few, 0, 800), { start: 0, end: 20, before: 0, after: 0 })
    const many = offsetsOf(Array(5000).fill(76))
    // At the top: 11 visible (0 … 10, the last one partly) and 12 more below.
    assert.deepEqual(listWindow(many, 0, 800), { start: 0, end: 23, before: 0, after: (5000 - 23) * 76 })
    // Scrolled to item 1,000: 12 above, the 11 visible, 12 below.
    assert.deepEqual(listWindow(many, 76_000, 800), { start: 988, end: 1023, before: 988 * 76, after: (5000 - 1023) * 76 })
    // At the bottom: item 4,989 is the first visible one (partly), 12 above it.
    assert.deepEqual(listWindow(many, 5000 * 76 - 800, 800), { start: 4977, end: 5000, before: 4977 * 76, after: 0 })
    assert.deepEqual(listWindow(offsetsOf([]), 0, 800), { start: 0, end: 0, before: 0, after: 0 })
  })

  it('places mixed heights: a heading and a refused unit', () => {
    const offsets = offsetsOf([30, 76, 100, 76, 30, 76])
    assert.deepEqual(listWindow(offsets, 106, 100, 0), { start: 2, end: 3, before: 106, after: 182 })
    assert.deepEqual(listWindow(offsets, 105, 1, 0), { start: 1, end: 2, before: 30, after: 282 })
  })
})
