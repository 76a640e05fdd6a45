/**
 * The copy-title scheme: parsing a copy number off a title and choosing the next free one.
 */
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import fc from 'fast-check'
import { copyTitleNumbered, nextCopyTitle, parseCopyTitle } from '../../src/host/copy-title'

describe('copy titles', () => {
  it('parses the copy number of this scheme only', () => {
    assert.deepEqual(parseCopyTitle('Plan'), { stem: 'Plan', number: 0 })
    assert.deepEqual(parseCopyTitle('Plan (copy)'), { stem: 'Plan', number: 1 })
    assert.deepEqual(parseCopyTitle('Plan (copy 2)'), { stem: 'Plan', number: 2 })
    assert.deepEqual(parseCopyTitle('Plan (copy 12)'), { stem: 'Plan', number: 12 })
    assert.deepEqual(parseCopyTitle('Plan (copy) (copy 3)'), { stem: 'Plan (copy)', number: 3 })
    for (const title of ['Plan (copy 1)', 'Plan (copy 02)', 'Plan(copy)', ' (copy)', 'Plan (Copy)', 'Plan (1)']) {
      assert.deepEqual(parseCopyTitle(title), { stem: title, number: 0 }, title)
    }
  })

  it('gives the next number after the copied title that no title in use has', () => {
    assert.equal(nextCopyTitle('Plan', new Set()), 'Plan (copy)')
    assert.equal(nextCopyTitle('Plan', new Set(['Plan (copy)'])), 'Plan (copy 2)')
    assert.equal(nextCopyTitle('Plan', new Set(['Plan (copy 2)'])), 'Plan (copy)')
    assert.equal(nextCopyTitle('Plan (copy)', new Set(['Plan', 'Plan (copy)'])), 'Plan (copy 2)')
    assert.equal(nextCopyTitle('Plan (copy 2)', new Set(['Plan (copy 3)', 'Plan (copy 4)'])), 'Plan (copy 5)')
  })

  it('writes the Chinese suffix in the Chinese UI and reads either spelling back as a copy number', () => {
    assert.equal(nextCopyTitle('计划', new Set(), Number.POSITIVE_INFINITY, 'zh'), '计划（副本）')
    assert.equal(nextCopyTitle('计划', new Set(['计划（副本）']), Number.POSITIVE_INFINITY, 'zh'), '计划（副本 2）')
    assert.deepEqual(parseCopyTitle('计划（副本 3）'), { stem: '计划', number: 3 })
    assert.deepEqual(parseCopyTitle('计划（副本）'), { stem: '计划', number: 1 })
    assert.deepEqual(parseCopyTitle('（副本）'), { stem: '（副本）', number: 0 })
    assert.equal(nextCopyTitle('Plan (copy)', new Set(['Plan']), Number.POSITIVE_INFINITY, 'zh'), 'Plan（副本 2）', 'the numbers go on across languages')
    assert.equal(nextCopyTitle('Plan（副本 2）', new Set(), Number.POSITIVE_INFINITY, 'en'), 'Plan (copy 3)')
    // "（副本）" is 12 bytes: 22 three-byte characters (66 bytes) fit beside it within 80, a 23rd would not.
    assert.equal(copyTitleNumbered('日'.repeat(30), 1, 80, 'zh'), `${'日'.repeat(22)}（副本）`)
  })

  it('cuts the stem, never the copy number, to fit the longest title, at a code point', () => {
    assert.equal(copyTitleNumbered('a'.repeat(80), 2, 80), `${'a'.repeat(71)} (copy 2)`)
    assert.equal(copyTitleNumbered('a'.repeat(73), 1, 80), `${'a'.repeat(73)} (copy)`)
    // 3-byte characters: 24 of them (72 bytes) fit beside " (copy)" (7 bytes), a 25th would not.
    assert.equal(copyTitleNumbered('日'.repeat(30), 1, 80), `${'日'.repeat(24)} (copy)`)
    assert.equal(copyTitleNumbered('plan more', 1, 12), 'plan (copy)', 'no space is left before the suffix')
    assert.equal(nextCopyTitle('a'.repeat(80), new Set([`${'a'.repeat(73)} (copy)`]), 80), `${'a'.repeat(71)} (copy 2)`)
  })

  it('never returns a title in use, and always one of the copied title\'s stem', () => {
    fc.assert(fc.property(fc.string(), fc.array(fc.integer({ min: 1, max: 40 })), (stem, used) => {
      fc.pre(stem.length > 0 && parseCopyTitle(stem).number === 0)
      const taken = new Set(used.map((n) => copyTitleNumbered(stem, n)))
      const title = nextCopyTitle(stem, taken)
      assert.ok(!taken.has(title))
      assert.equal(parseCopyTitle(title).stem, stem)
      assert.ok(parseCopyTitle(title).number >= 1)
    }))
  })
})
