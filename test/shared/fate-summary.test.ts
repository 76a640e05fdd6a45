/**
 * `Fates.summaryKeepsBefore`, what a summarized row's Delete onward offer reads, over logs built
 * through the real rc.8 `Session`: the first summarized message has nothing before it to keep;
 * a later one has; a message a second compaction folded together with the first checkpoint reads
 * the originals through it (the nested checkpoint is newer than the messages it stands for); a
 * message an earlier summary rewrite removed is no longer kept; a current message is not folded.
 * Each answer is checked against the host's own planner (`folded-plan.ts`): Delete onward is
 * refused exactly where the offer is withheld.
 */
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { readFates } from '../../src/shared/fate'
import { planFoldedRemoval } from '../../src/host/folded-plan'
import { appendRewrite } from '../../src/host/summary-rewrite'
import { LogBuilder } from '../host/log-builder'

/** Whether the host plans a Delete onward from `seq` (a plan, not a refusal). */
function hostPlans(b: LogBuilder, seq: number): boolean {
  const planned = planFoldedRemoval({ nodes: b.nodes, lookup: b.lookup, fates: readFates(b.events), action: 'deleteFrom', seq })
  assert.notEqual(planned, null, `seq ${seq} is folded`)
  return planned!.ok
}

describe('summaryKeepsBefore', () => {
  it('answers as the host plans Delete onward, through nested compactions and an earlier rewrite', () => {
    const b = new LogBuilder('fate-summary')
    const t1 = b.turn('first', [{ text: 'One.' }])
    const t2 = b.turn('second', [{ text: 'Two.', calls: ['x'] }, { text: 'Two done.' }])
    const c1 = b.checkpoint(t1.prompt, t2.steps[1]!.assistant)
    const t3 = b.turn('third', [{ text: 'Three.' }])
    let fates = readFates(b.events)
    assert.equal(fates.summaryKeepsBefore(t1.prompt), false, 'the first summarized message')
    assert.equal(hostPlans(b, t1.prompt), false)
    for (const seq of [t1.steps[0]!.assistant, t2.prompt, t2.steps[0]!.assistant, t2.steps[0]!.results[0]!]) {
      assert.equal(fates.summaryKeepsBefore(seq), true, `seq ${seq}`)
      assert.equal(hostPlans(b, seq), true)
    }
    assert.equal(fates.summaryKeepsBefore(t3.prompt), false, 'a current message is not summarized')

    // A second compaction folds the first checkpoint and the third turn: read through it.
    b.checkpoint(c1, t3.steps[0]!.assistant)
    fates = readFates(b.events)
    assert.equal(fates.summaryKeepsBefore(t3.prompt), true, 'the nested checkpoint is read through')
    assert.equal(hostPlans(b, t3.prompt), true)
    assert.equal(fates.summaryKeepsBefore(t1.prompt), false)
    assert.equal(fates.summaryKeepsBefore(t1.steps[0]!.assistant), true, 'an older message through the newer nested checkpoint')
    assert.equal(hostPlans(b, t1.steps[0]!.assistant), true)

    // A rewrite removed the first prompt: the first answer has nothing kept before it any more.
    const standing = b.nodes[0]!
    appendRewrite(b.session, { checkpointSeq: standing, removals: [{ action: 'delete', seqs: [t1.prompt] }] }, { summary: [{ type: 'text', text: 'Rewritten.' }] }, undefined, b.lookup)
    fates = readFates(b.events)
    assert.equal(fates.fateOf(t1.prompt).state, 'removed')
    assert.equal(fates.summaryKeepsBefore(t1.steps[0]!.assistant), false, 'the only earlier original is removed')
    assert.equal(hostPlans(b, t1.steps[0]!.assistant), false)
    assert.equal(fates.summaryKeepsBefore(t2.prompt), true)
    assert.equal(hostPlans(b, t2.prompt), true)
  })
})
