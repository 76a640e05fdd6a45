/**
 * The `x-message-recall-tombstone` header written and read back (`shared/durable-header.ts`), and
 * the page's hold of durable tombstones until the replacement view brings them
 * (`client/rows/durable-tombstones.ts`): what is taken, what is refused, and the identities the
 * sync pass's caches rely on.
 */
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { durableFactsOf, durableHeaderOf, readDurableHeader } from '../../src/shared/durable-header'
import { DURABLE_TOMBSTONE_HEADER_MAX } from '../../src/shared/protocol'
import { DurableTombstones, durableTombstoneOf } from '../../src/client/rows/durable-tombstones'
import type { LogEvent } from '../../src/shared/events'

const value = { action: 'delete', tombstoneSeq: 45, range: { start: 7, end: 9 }, shadowedSeqs: [7, 8, 9], nodeKinds: ['assistant', 'tool', 'tool'], replaceGeneration: 2, persisted: true }
const facts = { action: 'delete', tombstoneSeq: 45, range: { start: 7, end: 9 }, shadowedSeqs: [7, 8, 9] }

describe('the durable-tombstone header', () => {
  it('carries exactly the tombstone of a durable removal and reads back to the same facts', () => {
    const text = durableHeaderOf(value)
    assert.equal(text, '{"action":"delete","tombstoneSeq":45,"range":{"start":7,"end":9},"shadowedSeqs":[7,8,9]}')
    assert.deepEqual(readDurableHeader(text), facts)
    assert.deepEqual(durableFactsOf({ ...value, action: 'recall', content: [], text: 'x' }), { ...facts, action: 'recall' })
  })

  it('names nothing for a write that is not durable, a summary rewrite, another action or a value too long for a header', () => {
    assert.equal(durableHeaderOf({ ...value, persisted: false }), null)
    assert.equal(durableHeaderOf({ ...value, removedSeqs: [8], summaryRewrite: { checkpointSeq: 40, compactionId: 'c', startSeq: 3, endSeq: 41 } }), null)
    assert.equal(durableHeaderOf({ action: 'restore', tombstoneSeq: 45, restoredSeq: 46, persisted: true }), null)
    assert.equal(durableHeaderOf({ action: 'flush', lastSeq: 45, persisted: true }), null)
    assert.equal(durableHeaderOf(null), null)
    const many = Array.from({ length: 2000 }, (_, i) => 10_000 + i)
    const long = { ...value, action: 'deleteFrom', tombstoneSeq: 20_000, range: { start: many[0], end: many.at(-1) }, shadowedSeqs: many }
    assert.equal(durableHeaderOf(long), null, 'longer than the cap: the body alone carries it')
    assert.deepEqual(durableFactsOf(long)?.shadowedSeqs.length, 2000, 'the body still names it')
  })

  it('reads back nothing from a value that is not the shape', () => {
    const bad = [
      null, '', 'not json', '[]', '{}',
      JSON.stringify({ ...facts, action: 'restore' }),
      JSON.stringify({ ...facts, action: 'nope' }),
      JSON.stringify({ ...facts, tombstoneSeq: 1.5 }),
      JSON.stringify({ ...facts, tombstoneSeq: 9 }),
      JSON.stringify({ ...facts, range: { start: 9, end: 7 } }),
      JSON.stringify({ ...facts, range: { start: 8, end: 9 } }),
      JSON.stringify({ ...facts, shadowedSeqs: [] }),
      JSON.stringify({ ...facts, shadowedSeqs: [7, '8', 9] }),
      'x'.repeat(DURABLE_TOMBSTONE_HEADER_MAX + 1),
    ]
    for (const text of bad) assert.equal(readDurableHeader(text), null, String(text).slice(0, 60))
  })
})

describe('durable tombstones held for the sync pass', () => {
  const view: readonly LogEvent[] = Object.freeze([{ type: 'compaction/summary', seq: 30, time: 1, data: {}, surfaceOp: { op: 'replace', start: 2, end: 5 } } as LogEvent])

  it('merges a held tombstone into the view in seq order, keeps one array for the same inputs, and lets it go once the view has it', () => {
    const held = new DurableTombstones()
    assert.equal(held.merge(view), view, 'nothing held: the view itself')
    assert.equal(held.add(facts as never, 5), true)
    assert.equal(held.add(facts as never, 6), false, 'the body after the header holds nothing more')
    const merged = held.merge(view)
    assert.deepEqual(merged.map((e) => e.seq), [30, 45])
    assert.equal(held.merge(view), merged, 'same view, same holds: same array')
    assert.deepEqual(merged[1], durableTombstoneOf(facts as never, 5))
    const live = Object.freeze([...view, { ...merged[1]!, time: 99 }])
    assert.equal(held.merge(live), live, 'the view brought it: the view itself')
    assert.equal(held.size, 0)
    assert.equal(held.add(facts as never), false, 'an answer read after the live event holds nothing')
  })
})
