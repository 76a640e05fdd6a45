/**
 * The pure parts of restore, title and status logic over logs built with the real rc.8
 * `Session` (detached): restore planning and its refusals, the removal status a restore
 * changes, the title rules, the shadow price data and the expectation check that discounts this
 * plugin's own writes.
 */
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { planRestore, describeRestoreRefusal } from '../../src/host/restore-plan'
import { appendRestore } from '../../src/host/restore-writer'
import { shadowPrice } from '../../src/host/shadow-price'
import { fallbackTitle, NO_PROMPT_TITLE, titleAfterRemoval, titleAfterRestore } from '../../src/host/title'
import { checkExpectation } from '../../src/host/view-expectation'
import { readFates, replacementEvents } from '../../src/shared/fate'
import { describeRefusal } from '../../src/host/refusals'
import { LogBuilder } from './log-builder'

function fixture() {
  const b = new LogBuilder()
  const t1 = b.turn('first prompt', [{ text: 'reading', calls: ['read'] }, { text: 'first reply' }])
  const t2 = b.turn('second prompt', [{ text: 'second reply' }])
  return { b, t1, t2 }
}

describe('planRestore', () => {
  it('plans the exact copy of a removed prompt replacing only the tombstone', () => {
    const { b, t2 } = fixture()
    const tomb = b.tombstone('recall', t2.prompt, t2.prompt)
    const planned = planRestore({ nodes: b.nodes, lookup: b.lookup, tombstoneSeq: tomb })
    assert.ok(planned.ok)
    assert.deepEqual(planned.plan, {
      tombstoneSeq: tomb, tombstoneAction: 'recall', originalSeq: t2.prompt, messageId: (b.events[t2.prompt]!.data as { id: string }).id,
      data: b.events[t2.prompt]!.data, start: tomb, end: tomb, sourceEventSeqs: [tomb, t2.prompt],
    })
  })

  it('refuses several nodes, a context node and a non-tombstone with the reason', () => {
    const b = new LogBuilder()
    b.startTurn().startStep()
    const prompt = b.user('prompt')
    const steer = b.user('steering message')
    b.endTurn()
    const both = b.tombstone('delete', prompt, steer)
    const refused = planRestore({ nodes: b.nodes, lookup: b.lookup, tombstoneSeq: both })
    assert.ok(!refused.ok)
    assert.deepEqual(refused.refusal, { code: 'NOT_RESTORABLE', tombstoneSeq: both, reason: 'several-nodes', shadowedSeqs: [prompt, steer], nodeKinds: ['user', 'user'] })
    assert.equal(describeRestoreRefusal(refused.refusal),
      `message-recall: tombstone seq ${both} cannot be undone in place: it shadows 2 messages (seqs ${prompt}, ${steer}); open a copy of the conversation from before it instead (action "forkBefore")`)

    b.startTurn().startStep()
    const context = b.context()
    b.endTurn()
    const overContext = b.tombstone('delete', context, context)
    const notPrompt = planRestore({ nodes: b.nodes, lookup: b.lookup, tombstoneSeq: overContext })
    assert.ok(!notPrompt.ok)
    assert.equal(notPrompt.refusal.code === 'NOT_RESTORABLE' && notPrompt.refusal.reason, 'not-a-prompt')
    assert.deepEqual(planRestore({ nodes: b.nodes, lookup: b.lookup, tombstoneSeq: prompt }), { ok: false, refusal: { code: 'TARGET_NOT_FOUND', tombstoneSeq: prompt, reason: 'not-a-tombstone' } })
  })
})

describe('removal statuses (the fate reader)', () => {
  it('marks a restored tombstone undone, and an absorbed tombstone as the one that absorbed it', () => {
    const { b, t1, t2 } = fixture()
    const recall = b.tombstone('recall', t2.prompt, t2.prompt)
    const planned = planRestore({ nodes: b.nodes, lookup: b.lookup, tombstoneSeq: recall })
    assert.ok(planned.ok)
    const copy = appendRestore(b.session, planned.plan).seq
    const inner = b.tombstone('delete', t2.steps[0]!.assistant, t2.steps[0]!.assistant)
    const outer = b.tombstone('deleteFrom', t1.steps[1]!.assistant, inner)
    const statuses = readFates(replacementEvents(b.events.length, b.lookup)).statuses()
    assert.deepEqual([...statuses.values()], [
      { seq: recall, shadowedBy: copy, restoredBy: copy, inEffect: false },
      { seq: inner, shadowedBy: outer, restoredBy: null, inEffect: true },
      { seq: outer, shadowedBy: null, restoredBy: null, inEffect: true },
    ])
  })
})

describe('title rules', () => {
  const limits = { maxWords: 5, maxBytes: 40 }
  it('derives the rc.8 fallback: controls removed, five words, forty bytes on a code-point boundary', () => {
    assert.equal(fallbackTitle('  Deploy\u001b[31m the\tstaging\u200B cluster now please ', limits), 'Deploy the staging cluster now')
    assert.equal(fallbackTitle('部署测试环境部署测试环境部署测试环境部署测试环境', limits), '部署测试环境部署测试环境部')
    assert.equal(fallbackTitle('   ', limits), '')
  })

  it('rebuilds only a non-user title that cites a shadowed message, and uses New Session when no prompt remains', () => {
    const { b, t1, t2 } = fixture()
    const current = { title: 'first prompt', messageSeqs: [t1.prompt], source: { kind: 'fallback' }, eventSeq: 1 }
    const base = { shadowedSeqs: [t1.prompt], tombstoneSeq: 99, nodes: b.nodes.filter((seq) => seq !== t1.prompt), lookup: b.lookup, limits }
    assert.deepEqual(titleAfterRemoval({ ...base, current }), { title: 'second prompt', messageSeqs: [t2.prompt], source: { kind: 'fallback' } })
    assert.equal(titleAfterRemoval({ ...base, current: { ...current, source: { kind: 'user' } } }), null)
    assert.equal(titleAfterRemoval({ ...base, current, shadowedSeqs: [t2.prompt] }), null)
    assert.equal(titleAfterRemoval({ ...base, current: undefined }), null)
    const none = titleAfterRemoval({ ...base, current, nodes: b.nodes.filter((seq) => seq !== t1.prompt && seq !== t2.prompt) })
    assert.deepEqual(none, { title: NO_PROMPT_TITLE, messageSeqs: [99], source: { kind: 'fallback' } })
  })

  it('puts the earlier title back on restore only over a fallback written after the tombstone', () => {
    const { b, t1, t2 } = fixture()
    const before = { title: 'first prompt', messageSeqs: [t1.prompt], source: { kind: 'provider', provider: 'p' }, eventSeq: 3 }
    const rebuilt = { title: 'second prompt', messageSeqs: [t2.prompt], source: { kind: 'fallback' }, eventSeq: 51 }
    const input = { beforeTombstone: before, tombstoneSeq: 50, originalSeq: t1.prompt, restoredSeq: 52, nodes: [52, ...b.nodes.filter((seq) => seq !== t1.prompt)], lookup: b.lookup, limits }
    assert.deepEqual(titleAfterRestore({ ...input, current: rebuilt }), { title: 'first prompt', messageSeqs: [52], source: { kind: 'provider', provider: 'p' } })
    assert.equal(titleAfterRestore({ ...input, current: { ...rebuilt, source: { kind: 'user' } } }), null)
    assert.equal(titleAfterRestore({ ...input, current: { ...rebuilt, eventSeq: 10 } }), null, 'a title older than the tombstone stays')
    assert.equal(titleAfterRestore({ ...input, current: rebuilt, beforeTombstone: { ...before, messageSeqs: [t2.prompt] } }), null)
  })
})

describe('shadowPrice', () => {
  it('is the range and the sum of the per-node prices', () => {
    assert.deepEqual(shadowPrice({ start: 9, end: 4 }, [9, 3, 4], (seq) => seq * 10), { shadowedRange: { start: 9, end: 4 }, shadowedSeqs: [9, 3, 4], shadowedTokenCount: 160 })
  })
})

describe('checkExpectation', () => {
  it("discounts this plugin's writes after the view and nothing else", () => {
    const { b, t1, t2 } = fixture()
    const view = { replaceGeneration: 0, lastSeq: b.events.length - 1 }
    b.tombstone('recall', t2.prompt, t2.prompt)
    const stable = { nodes: b.nodes, replaceGeneration: b.session.surface.replaceGeneration, lastSeq: b.events.length - 1, lookup: b.lookup }
    assert.equal(checkExpectation(stable, view), null)
    const generationOnly = { replaceGeneration: 0 }
    assert.deepEqual(checkExpectation(stable, generationOnly), { code: 'STALE_VIEW', expected: generationOnly, replaceGeneration: 1, ownReplacements: 0, newerSeq: null }, 'without lastSeq the generation is compared exactly')
    b.prune(t1.steps[0]!.results[0]!)
    const pruned = { nodes: b.nodes, replaceGeneration: b.session.surface.replaceGeneration, lastSeq: b.events.length - 1, lookup: b.lookup }
    const refusal = checkExpectation(pruned, view)
    assert.deepEqual(refusal, { code: 'STALE_VIEW', expected: view, replaceGeneration: 2, ownReplacements: 1, newerSeq: null }, "another writer's replace makes the view stale")
    assert.equal(describeRefusal(refusal!), `message-recall: surface replaceGeneration is 2, 1 without this plugin's 1 replacement after seq ${view.lastSeq}; expected 0`, 'the message names the generation it compared')
  })
})
