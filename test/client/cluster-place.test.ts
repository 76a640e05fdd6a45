/**
 * Where a non-prompt row's cluster sits (`src/client/rows/cluster-place.ts` `freePlace`): the first
 * height at the row's right edge where it covers no content of the row or its neighbours.
 */
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { freePlace, type Box } from '../../src/client/rows/cluster-place'

const box = (left: number, top: number, right: number, bottom: number): Box => ({ left, top, right, bottom })
const row = box(400, 200, 1200, 256)
const cluster = { width: 300, height: 26 }

describe('freePlace', () => {
  it('sits beside the first line when that line ends before the cluster', () => {
    assert.deepEqual(freePlace({ row, cluster, own: [box(400, 200, 700, 228), box(400, 228, 1190, 256)], neighbours: [] }), { top: 1, right: 0 })
  })

  it('goes above the row when the first line runs under it and the row above ends early', () => {
    const own = [box(400, 200, 1195, 228), box(400, 228, 1190, 256)]
    assert.deepEqual(freePlace({ row, cluster, own, neighbours: [box(400, 150, 600, 184)] }), { top: -27, right: 0 })
  })

  it('goes beside a later line when the first line and the row above are full', () => {
    const own = [box(400, 200, 1195, 228), box(400, 228, 600, 256)]
    assert.deepEqual(freePlace({ row, cluster, own, neighbours: [box(400, 150, 1200, 190)] }), { top: 29, right: 0 })
  })

  it('goes below the row when every line and the row above are full', () => {
    const own = [box(400, 200, 1195, 228), box(400, 228, 1195, 256)]
    assert.deepEqual(freePlace({ row, cluster, own, neighbours: [box(400, 150, 1200, 190), box(400, 300, 1200, 330)] }), { top: 57, right: 0 })
  })

  it('answers null when no height is free', () => {
    const own = [box(400, 200, 1195, 228), box(400, 228, 1195, 256)]
    assert.equal(freePlace({ row, cluster, own, neighbours: [box(400, 150, 1200, 199), box(400, 257, 1200, 290)] }), null)
  })
})
