import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { replaceOp, readReplaceOp } from '../../src/shared/replace-op'
import { isTombstoneEvent, readTombstone, tombstoneSource } from '../../src/shared/tombstone'

const tombstone = (source: unknown, surfaceOp: unknown = replaceOp(26, 26)) => ({
  type: 'user/message', seq: 46, time: 0,
  data: { id: 'm', role: 'user', content: [], source },
  surfaceOp, sourceEventSeqs: [26],
})

describe('tombstone identity', () => {
  it('recognises a tombstone written with tombstoneSource and reads its range back', () => {
    const e = tombstone(tombstoneSource('recall', [26]))
    assert.equal(isTombstoneEvent(e), true)
    assert.deepEqual(readTombstone(e), { seq: 46, start: 26, end: 26, shadowedSeqs: [26], action: 'recall' })
  })

  it('does not take a compaction checkpoint, an append event or a later-version op shape for a tombstone', () => {
    assert.equal(isTombstoneEvent(tombstone({ kind: 'plugin', plugin: 'compact', compactionId: 'c' })), false)
    assert.equal(isTombstoneEvent(tombstone(tombstoneSource('delete', [26]), 'append')), false)
    assert.equal(isTombstoneEvent(tombstone(tombstoneSource('delete', [26]), { op: 'replace', startSeq: 26, endSeq: 26 })), false)
  })

  it('builds the rc.8 replace op with exactly the keys op, start, end', () => {
    assert.deepEqual(Object.keys(replaceOp(3, 1)), ['op', 'start', 'end'])
    assert.deepEqual(readReplaceOp({ op: 'replace', start: 3, end: 1 }), { start: 3, end: 1 })
    assert.equal(readReplaceOp({ op: 'replace', start: 1.5, end: 2 }), null)
  })
})
