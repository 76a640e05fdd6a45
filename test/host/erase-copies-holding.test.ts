/**
 * Which sessions hold an erase's messages, from the session headers alone
 * (`src/host/erase-copies.ts` `copiesHolding`), over one lineage: a source, its Branch, a Branch
 * of that Branch, a sibling Branch, and two copies of the Branch of the Branch, with seqs below
 * and above each seed length. Erasing in a copy lists its sources and their other copies for the
 * messages below its seed, its own copies for every message their seeds hold; never the erased
 * session; nearest first (copy links, then creation time); a deleted source's other copies are
 * still found; broken headers that name each other end the walk.
 */
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import type { SessionHeader } from '@deepseek-ai/dsh-session'
import { copiesHolding } from '../../src/host/erase-copies'

const header = (id: string, createdAt: number, parentSession?: string, seedLength?: number): SessionHeader =>
  ({ version: 1, id, createdAt, ...(parentSession === undefined ? {} : { parentSession, seedLength }) }) as SessionHeader

// source ─┬─ branch (seed 10) ─┬─ twig (seed 15) ─┬─ leaf (seed 25)
//         │                    │                  └─ stub (seed 18)
//         ├─ sibling (seed 8)  └─ (none)
//         └─ early (seed 3)
// and `other`, a session of its own.
const LINEAGE = [
  header('source', 1),
  header('branch', 2, 'source', 10),
  header('sibling', 3, 'source', 8),
  header('twig', 4, 'branch', 15),
  header('leaf', 5, 'twig', 25),
  header('stub', 6, 'twig', 18),
  header('early', 7, 'source', 3),
  header('other', 8),
]

const listed = (headers: readonly SessionHeader[], sessionId: string, seqs: readonly number[]) =>
  copiesHolding(headers, sessionId, seqs).map(({ header, seqs, relation }) => [header.id, relation, seqs])

describe('the sessions that hold an erase\'s messages', () => {
  it('erasing in a Branch of a Branch: each seq up to its origin, then down its copy tree', () => {
    // 5 came from the source (below 15 and 10), 9 too (below 15 and 10), 12 from the Branch
    // (below 15, not below 10), 20 was written in the twig itself.
    assert.deepEqual(listed(LINEAGE, 'twig', [5, 9, 12, 20]), [
      ['branch', 'source', [5, 9, 12]],
      ['leaf', 'copy', [5, 9, 12, 20]],
      ['stub', 'copy', [5, 9, 12]],
      ['source', 'source', [5, 9]],
      ['sibling', 'source-copy', [5]],
    ])
  })

  it('erasing in the Branch: its source, its copies, then the source\'s other copies', () => {
    assert.deepEqual(listed(LINEAGE, 'branch', [2, 5, 9]), [
      ['source', 'source', [2, 5, 9]],
      ['twig', 'copy', [2, 5, 9]],
      ['sibling', 'source-copy', [2, 5]],
      ['leaf', 'copy', [2, 5, 9]],
      ['stub', 'copy', [2, 5, 9]],
      ['early', 'source-copy', [2]],
    ])
    // A message the Branch wrote itself (at or past its seed length) is in its copies alone.
    assert.deepEqual(listed(LINEAGE, 'branch', [10, 14]), [
      ['twig', 'copy', [10, 14]],
      ['leaf', 'copy', [10, 14]],
      ['stub', 'copy', [10, 14]],
    ])
    assert.deepEqual(listed(LINEAGE, 'branch', [16]), [])
  })

  it('erasing in the source: its copies, nearest first, as before', () => {
    assert.deepEqual(listed(LINEAGE, 'source', [5]), [
      ['branch', 'copy', [5]],
      ['sibling', 'copy', [5]],
      ['twig', 'copy', [5]],
      ['leaf', 'copy', [5]],
      ['stub', 'copy', [5]],
    ])
    assert.deepEqual(listed(LINEAGE, 'source', [8, 9]), [
      ['branch', 'copy', [8, 9]],
      ['twig', 'copy', [8, 9]],
      ['leaf', 'copy', [8, 9]],
      ['stub', 'copy', [8, 9]],
    ])
    assert.deepEqual(listed(LINEAGE, 'other', [0, 1, 2]), [])
    assert.deepEqual(listed(LINEAGE, 'sibling', []), [])
  })

  it('a sibling erasing lists the source and the Branch tree for what they share', () => {
    assert.deepEqual(listed(LINEAGE, 'sibling', [2, 7]), [
      ['source', 'source', [2, 7]],
      ['branch', 'source-copy', [2, 7]],
      ['early', 'source-copy', [2]],
      ['twig', 'source-copy', [2, 7]],
      ['leaf', 'source-copy', [2, 7]],
      ['stub', 'source-copy', [2, 7]],
    ])
  })

  it('a deleted source is not listed, its other copies are; the same millisecond orders by id', () => {
    const withoutSource = LINEAGE.filter((h) => h.id !== 'source')
    assert.deepEqual(listed(withoutSource, 'twig', [5]), [
      ['branch', 'source', [5]],
      ['leaf', 'copy', [5]],
      ['stub', 'copy', [5]],
      ['sibling', 'source-copy', [5]],
    ])
    const sameTime = [header('s', 1), header('b', 2, 's', 5), header('a', 2, 's', 5)]
    assert.deepEqual(listed(sameTime, 's', [1]), [['a', 'copy', [1]], ['b', 'copy', [1]]])
  })

  it('headers naming each other end the walk', () => {
    const loop = [header('x', 1, 'y', 5), header('y', 2, 'x', 5)]
    assert.deepEqual(listed(loop, 'x', [1]), [['y', 'source', [1]]])
    assert.deepEqual(listed(loop, 'y', [1, 7]), [['x', 'source', [1]]])
  })
})
