/**
 * The editor's pure model over logs built through the real rc.8 `Session`: units grouped by turn
 * (a prompt alone, a model step with its tool results), their state after removals, exclusions,
 * restores, prunes and compaction, and the preview of a selection: what goes, what comes back,
 * the counts, and the `changes` list, which the real batch planner accepts and writes exactly.
 */
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { buildEditorUnits, previewSelection } from '../../src/client/editor/editor-model'
import { counterText, editorEn, editorZh } from '../../src/client/editor/editor-locales'
import { planBatch } from '../../src/host/batch-plan'
import { appendBatch } from '../../src/host/batch-writer'
import type { LogEvent } from '../../src/shared/events'
import { LogBuilder } from '../host/log-builder'
import { fill } from '../e2e/ui'

function log() {
  const b = new LogBuilder('editor-model')
  const t1 = b.turn('first prompt', [{ text: 'Reading a and b.', calls: ['a', 'b'] }, { text: 'Both read.', steer: 'also c' }], { context: true })
  const t2 = b.turn('second prompt', [{ text: 'Second answer.' }])
  const t3 = b.turn('third prompt', [{ text: 'Third answer.' }])
  return { b, t1, t2, t3 }
}

const translate = (dict: Record<string, string>) => (key: string, params: Record<string, string | number> = {}) => fill(dict[key] ?? key, params)

describe('editor model: units', () => {
  it('groups prompts, steering and model steps by turn, in log order, skipping injected context', () => {
    const { b, t1, t2, t3 } = log()
    const steer = t1.steps[1]!.assistant - 1
    const units = buildEditorUnits(b.events)
    assert.deepEqual(units.map((u) => [u.key, u.kind, u.turn, u.rows.map((r) => r.seq), u.state]), [
      [`u${t1.prompt}`, 'prompt', 1, [t1.prompt], 'current'],
      ['s1.1', 'step', 1, [t1.steps[0]!.assistant, ...t1.steps[0]!.results], 'current'],
      [`u${steer}`, 'prompt', 1, [steer], 'current'],
      ['s1.2', 'step', 1, [t1.steps[1]!.assistant], 'current'],
      [`u${t2.prompt}`, 'prompt', 2, [t2.prompt], 'current'],
      ['s2.1', 'step', 2, [t2.steps[0]!.assistant], 'current'],
      [`u${t3.prompt}`, 'prompt', 3, [t3.prompt], 'current'],
      ['s3.1', 'step', 3, [t3.steps[0]!.assistant], 'current'],
    ])
    assert.deepEqual(units[1]!.rows.map((r) => [r.role, r.text]), [['assistant', 'Reading a and b.'], ['tool', 'a contents for Reading a and b.'], ['tool', 'b contents for Reading a and b.']])
    assert.equal(units[0]!.targetSeq, t1.prompt)
  })

  it('reads removals, exclusions, restorability, prunes and compaction from the log', () => {
    const { b, t1, t2, t3 } = log()
    const pruned = b.prune(t1.steps[0]!.results[0]!)
    const removedPrompt = b.tombstone('delete', t2.prompt, t2.prompt)
    const excludedStep = b.tombstone('exclude', t3.steps[0]!.assistant, t3.steps[0]!.assistant)
    const units = new Map(buildEditorUnits(b.events).map((u) => [u.key, u]))
    const step = units.get('s1.1')!
    assert.deepEqual([step.state, step.targetSeq], ['current', t1.steps[0]!.assistant], 'a step with a pruned result stays current')
    void pruned
    const p2 = units.get(`u${t2.prompt}`)!
    assert.deepEqual([p2.state, p2.targetSeq, p2.tombstoneSeq, p2.restorable], ['removed', null, removedPrompt, true])
    const s3 = units.get('s3.1')!
    assert.deepEqual([s3.state, s3.tombstoneSeq, s3.restorable], ['excluded', excludedStep, false], 'a model step is never restorable in place')

    // A later tombstone absorbs the prompt's: it is removed still, no longer restorable in place.
    const absorbing = b.tombstone('delete', removedPrompt, t2.steps[0]!.assistant)
    const after = new Map(buildEditorUnits(b.events).map((u) => [u.key, u]))
    assert.deepEqual([after.get(`u${t2.prompt}`)!.state, after.get(`u${t2.prompt}`)!.restorable], ['removed', false])
    assert.equal(after.get('s2.1')!.tombstoneSeq, absorbing)

    // A checkpoint folds what it covers.
    const c = new LogBuilder('editor-compacted')
    const ct = c.turn('old prompt', [{ text: 'Old answer.' }])
    c.turn('new prompt', [{ text: 'New answer.' }])
    c.checkpoint(ct.prompt, ct.steps[0]!.assistant)
    assert.deepEqual(buildEditorUnits(c.events).map((u) => u.state), ['folded', 'folded', 'current', 'current'])
  })

  it('follows a restoring copy: the prompt is current again and targeted by the copy', () => {
    const { b, t2 } = log()
    const tombstone = b.tombstone('recall', t2.prompt, t2.prompt)
    const original = b.events[t2.prompt]!
    const append = b.session.append.bind(b.session) as (type: string, data: unknown, opts: unknown) => LogEvent
    const copy = append('user/message', original.data, { surfaceOp: { op: 'replace', start: tombstone, end: tombstone }, sourceEventSeqs: [tombstone, t2.prompt] })
    const unit = buildEditorUnits(b.events).find((u) => u.key === `u${t2.prompt}`)!
    assert.deepEqual([unit.state, unit.targetSeq, unit.tombstoneSeq], ['current', copy.seq, null])
  })

  it('a prompt restored once and then removed or excluded again can be restored in place again, as the host plans it', () => {
    for (const action of ['delete', 'exclude'] as const) {
      const { b, t2 } = log()
      const first = b.tombstone('delete', t2.prompt, t2.prompt)
      const original = b.events[t2.prompt]!
      const append = b.session.append.bind(b.session) as (type: string, data: unknown, opts: unknown) => LogEvent
      const copy = append('user/message', original.data, { surfaceOp: { op: 'replace', start: first, end: first }, sourceEventSeqs: [first, t2.prompt] })
      const again = b.tombstone(action, copy.seq, copy.seq)
      const unit = buildEditorUnits(b.events).find((u) => u.key === `u${t2.prompt}`)!
      assert.deepEqual([unit.state, unit.tombstoneSeq, unit.restorable], [action === 'exclude' ? 'excluded' : 'removed', again, true], action)
      // The host agrees: the preview's restore is what the batch planner accepts.
      const preview = previewSelection([unit], { remove: new Set(), from: null, restore: new Set([unit.key]) })
      assert.deepEqual(preview.changes, [{ action: 'restore', tombstoneSeq: again }])
      const planned = planBatch({ nodes: b.nodes, lookup: b.lookup, nextSeq: b.session.seq, changes: [{ action: 'restore', tombstoneSeq: again }] })
      assert.equal(planned.ok, true, action)
    }
  })
})

describe('editor model: preview', () => {
  it('previews removals, a From here and a restore, and its changes are what the batch planner writes', () => {
    const { b, t1, t2, t3 } = log()
    const removed = b.tombstone('delete', t2.prompt, t2.prompt)
    const units = buildEditorUnits(b.events)
    const steer = `u${t1.steps[1]!.assistant - 1}`
    const preview = previewSelection(units, { remove: new Set(['s1.1', steer, 's3.1']), from: 's2.1', restore: new Set([`u${t2.prompt}`]) })
    assert.deepEqual([...preview.going], ['s1.1', steer, 's2.1', `u${t3.prompt}`, 's3.1'])
    assert.deepEqual([...preview.coming], [`u${t2.prompt}`])
    assert.equal(preview.messages, 3 + 1 + 1 + 1 + 1)
    assert.equal(preview.back, 1)
    assert.deepEqual(preview.changes, [
      { action: 'delete', seq: t1.steps[0]!.assistant },
      { action: 'delete', seq: t1.steps[1]!.assistant - 1 },
      { action: 'restore', tombstoneSeq: removed },
      { action: 'deleteFrom', seq: t2.steps[0]!.assistant },
    ])
    assert.deepEqual(preview.changeUnits, ['s1.1', steer, `u${t2.prompt}`, 's2.1'])
    assert.equal(preview.tokens, units.filter((u) => preview.going.has(u.key)).reduce((sum, u) => sum + u.tokens, 0))

    const removals = previewSelection(units, { remove: new Set(['s1.1', steer, 's3.1']), from: 's2.1', restore: new Set() })
    const planned = planBatch({ nodes: b.nodes, lookup: b.lookup, nextSeq: b.session.seq, changes: removals.changes })
    assert.ok(planned.ok)
    appendBatch(b.session, planned.plan, removals.changes)
    const now = new Map(buildEditorUnits(b.events).map((u) => [u.key, u.state]))
    for (const key of removals.going) assert.equal(now.get(key), 'removed', `${key} removed`)
    assert.equal(now.get(`u${t1.prompt}`), 'current')
  })

  it('ignores a removal of a unit that is not current and a restore of one that is not restorable', () => {
    const { b, t2, t3 } = log()
    b.tombstone('delete', t3.steps[0]!.assistant, t3.steps[0]!.assistant)
    const units = buildEditorUnits(b.events)
    const preview = previewSelection(units, { remove: new Set(['s3.1']), from: null, restore: new Set(['s3.1', `u${t2.prompt}`]) })
    assert.deepEqual([preview.changes, preview.messages, preview.back], [[], 0, 0])
  })

  it('counts in both languages, with the number format of each', () => {
    assert.equal(counterText(translate(editorEn), 'en', { messages: 12, tokens: 3400, back: 1 }), '12 messages, ~3,400 tokens leave the context; 1 comes back')
    assert.equal(counterText(translate(editorEn), 'en', { messages: 1, tokens: 40, back: 0 }), '1 message, ~40 tokens leave the context')
    assert.equal(counterText(translate(editorEn), 'en', { messages: 0, tokens: 0, back: 2 }), '2 come back')
    assert.equal(counterText(translate(editorEn), 'en', { messages: 0, tokens: 0, back: 0 }), 'Nothing selected yet')
    assert.equal(counterText(translate(editorZh), 'zh', { messages: 12, tokens: 3400, back: 1 }), '12 条消息、约 3,400 个词元将离开上下文；1 条恢复')
  })
})

describe('editor model: a prompt that cited another session', () => {
  it('takes the session-reference snapshot into the prompt\'s unit; removing the unit removes both, as the host plans it', () => {
    const b = new LogBuilder('editor-reference')
    const t1 = b.turn('first prompt', [{ text: 'First answer.' }])
    const cite = b.citingTurn('compare with', 'Earlier work', 'what the earlier session said', 'Compared.')
    const units = buildEditorUnits(b.events)
    assert.deepEqual(units.map((u) => [u.key, u.kind, u.rows.map((r) => r.seq)]), [
      [`u${t1.prompt}`, 'prompt', [t1.prompt]],
      ['s1.1', 'step', [t1.steps[0]!.assistant]],
      [`u${cite.prompt}`, 'prompt', [cite.prompt, cite.snapshot]],
      ['s2.1', 'step', [cite.reply]],
    ])
    const preview = previewSelection(units, { remove: new Set([`u${cite.prompt}`]), from: null, restore: new Set() })
    assert.deepEqual([preview.messages, preview.changes], [2, [{ action: 'delete', seq: cite.prompt }]])
    const planned = planBatch({ nodes: b.nodes, lookup: b.lookup, nextSeq: b.session.seq, changes: preview.changes as never })
    assert.ok(planned.ok)
    assert.deepEqual(planned.plan.removedSeqs, [cite.prompt, cite.snapshot])
    appendBatch(b.session, planned.plan, preview.changes as never)
    const after = buildEditorUnits(b.events).find((u) => u.key === `u${cite.prompt}`)!
    assert.deepEqual([after.state, after.restorable], ['removed', false])
  })
})
