/**
 * The editor as a context map, pure, over logs built through the real rc.8 `Session`: each unit
 * priced as the real `dsh-token-meter` prices its messages, the cost now (nothing for a removed,
 * excluded or folded unit) and its share, the context now and after a selection (the meter's
 * figure, or characters ÷ 4), largest first, Exclude in the preview and its `changes`, the
 * quick selections (never the most recent turn), and the texts in English and Chinese.
 */
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { deriveEventMessage, type SessionEvent } from '@deepseek-ai/dsh-session'
import { TokenMeter } from '@deepseek-ai/dsh-token-meter'
import {
  contextFigure, costNow, lastCompactionSeq, orderUnits, presetBeforeCompaction, presetLargeToolOutput,
  presetOldToolOutput, shareOf, toolOutputTokens,
} from '../../src/client/editor/context-map'
import { meterMessageTokens } from '../../src/client/editor/meter-estimate'
import { buildEditorUnits, EMPTY_SELECTION, previewSelection } from '../../src/client/editor/editor-model'
import { contextText, costText, counterText, editorEn, editorZh } from '../../src/client/editor/editor-locales'
import { planBatch } from '../../src/host/batch-plan'
import { appendBatch } from '../../src/host/batch-writer'
import { readFates } from '../../src/shared/fate'
import { contentOf } from '../../src/shared/surface-node'
import { LogBuilder } from '../host/log-builder'
import { fill } from '../e2e/ui'

const translate = (dict: Record<string, string>) => (key: string, params: Record<string, string | number> = {}) => fill(dict[key] ?? key, params)
const en = translate(editorEn)
const zh = translate(editorZh)

/** Four turns; a large tool output in turn 1, a small one in turn 2, the largest in the last turn. */
function log() {
  const b = new LogBuilder('context-map')
  b.startTurn().startStep()
  const p1 = b.user('first prompt')
  const big = b.assistant('Reading big.', ['big'])
  const bigResult = b.result('big', 'B'.repeat(8000))
  b.startStep()
  const read = b.assistant('Read it.')
  b.endTurn()
  b.startTurn().startStep()
  const p2 = b.user('second prompt')
  const small = b.assistant('Reading small.', ['small'])
  b.result('small', 'small text')
  b.endTurn()
  const t3 = b.turn('third prompt', [{ text: 'Third answer.' }])
  b.startTurn().startStep()
  const p4 = b.user('fourth prompt')
  const last = b.assistant('Reading last.', ['last'])
  b.result('last', 'L'.repeat(12000))
  b.endTurn()
  return { b, p1, big, bigResult, read, p2, small, t3, p4, last }
}

describe('context map: costs', () => {
  it('prices every message as the real token meter does', () => {
    const { b } = log()
    const meter = TokenMeter.prototype.estimateMessage
    const surface = b.nodes.map((seq) => b.events[seq]!)
    assert.equal(surface.length, 12, 'four prompts, five answers, three tool results')
    for (const event of surface) {
      const message = deriveEventMessage(event as unknown as SessionEvent)!
      assert.equal(meterMessageTokens(contentOf(event)), meter.call(undefined, message), `seq ${event.seq}`)
    }
    // Reasoning, an image and an empty message, as the meter prices them.
    const content = [
      { type: 'reasoning', text: 'Thinking about the survey.' },
      { type: 'image', attachment: { attachmentId: 'sha256:abc', mediaType: 'image/png', width: 10, height: 10, bytes: 99, name: 'a.png' } },
      { type: 'text', text: 'x'.repeat(9) },
    ]
    for (const blocks of [content, []]) assert.equal(meterMessageTokens(blocks), meter.call(undefined, { role: 'assistant', content: blocks } as never))
    assert.equal(meterMessageTokens([]), 4)
  })

  it('gives each unit its cost now and share; a removed, excluded or folded unit costs nothing', () => {
    const { b, p1, p2 } = log()
    const units = buildEditorUnits(b.events)
    const step = units.find((u) => u.key === 's1.1')!
    // 'Reading big.' 3+4, the call's name 3 and arguments 4, +4; the result: 2,000+4 (text), +4 (tool-result); +4 per message.
    // A prompt: ⌈characters ÷ 4⌉ + 4 + 4.
    assert.deepEqual([step.meterTokens, step.tokens], [22 + 2012, Math.ceil((12 + 9 + 14 + 8000) / 4)])
    assert.deepEqual([toolOutputTokens(step, 'meter'), toolOutputTokens(step, 'chars')], [2012, 2000])
    assert.deepEqual(units.map((u) => [u.key, costNow(u, 'meter')]), [
      [`u${p1}`, 11], ['s1.1', 2034], ['s1.2', 10], [`u${p2}`, 12], ['s2.1', 23 + 15], [`u${p2 + 8}`, 11], ['s3.1', 12], [`u${p2 + 14}`, 12], ['s4.1', 23 + 3012],
    ])
    const whole = contextFigure(units, previewSelection(units, EMPTY_SELECTION), undefined)
    assert.deepEqual(whole, { basis: 'chars', now: units.reduce((sum, u) => sum + u.tokens, 0), after: units.reduce((sum, u) => sum + u.tokens, 0) })

    b.tombstone('exclude', p2, p2)
    const after = buildEditorUnits(b.events)
    const excluded = after.find((u) => u.key === `u${p2}`)!
    assert.equal(excluded.state, 'excluded')
    assert.deepEqual([costNow(excluded, 'meter'), costNow(excluded, 'chars')], [0, 0])
    assert.equal(costText(en, 'en', { tokens: 0, share: 0, inContext: false }), 'Costs nothing now')
    assert.equal(costText(zh, 'zh', { tokens: 0, share: 0, inContext: false }), '现在不占上下文')

    const c = new LogBuilder('context-map-compacted')
    const ct = c.turn('old prompt', [{ text: 'Old answer.' }])
    c.turn('new prompt', [{ text: 'New answer.' }])
    c.checkpoint(ct.prompt, ct.steps[0]!.assistant)
    assert.deepEqual(buildEditorUnits(c.events).map((u) => [u.state, costNow(u, 'meter')]), [['folded', 0], ['folded', 0], ['current', 11], ['current', 11]])
  })

  it('prices a tool result a prune shortened as its shorter copy, now and for the large-output preset', () => {
    const { b, bigResult } = log()
    b.prune(bigResult)
    const step = buildEditorUnits(b.events).find((u) => u.key === 's1.1')!
    assert.equal(step.state, 'current')
    // The copy's text 'head\n\n[... tool result middle pruned ...]\n\ntail' (46 characters): 12 + 4 + 4 + 4.
    assert.deepEqual([step.meterTokens, costNow(step, 'meter'), toolOutputTokens(step, 'meter')], [2034, 22 + 24, 24])
    assert.deepEqual([costNow(step, 'chars'), toolOutputTokens(step, 'chars')], [Math.ceil(35 / 4) + Math.ceil(46 / 4), 12])
    assert.deepEqual(presetLargeToolOutput(buildEditorUnits(b.events), 100, 'meter'), [], 'the pruned output is small now')
  })

  it('says the context now and after the selection: the meter figure with its breakdown, the units summed without', () => {
    const { b } = log()
    const units = buildEditorUnits(b.events)
    const breakdown = { systemTokens: 30000, toolsTokens: 6158, messageTokens: 5174 }
    const preview = previewSelection(units, { ...EMPTY_SELECTION, remove: new Set(['s1.1', 's2.1']), exclude: new Set(['s1.1']) })
    const figure = contextFigure(units, preview, breakdown)
    assert.deepEqual(figure, { basis: 'meter', now: 41332, after: 41332 - 2034 - 38 })
    assert.equal(contextText(en, 'en', figure), 'Context: 41,332 → 39,260 tokens (token meter estimate)')
    assert.equal(contextText(zh, 'zh', figure), '上下文：41,332 → 39,260 个词元（词元计量器的估算）')
    const chars = contextFigure(units, preview, undefined)
    const sum = units.reduce((total, u) => total + u.tokens, 0)
    assert.deepEqual(chars, { basis: 'chars', now: sum, after: sum - units.find((u) => u.key === 's1.1')!.tokens - units.find((u) => u.key === 's2.1')!.tokens })
    assert.equal(contextText(en, 'en', { basis: 'chars', now: 38200, after: 21700 }), 'Context: 38,200 → 21,700 tokens (estimated as characters ÷ 4)')
    assert.equal(contextText(zh, 'zh', { basis: 'chars', now: 38200, after: 21700 }), '上下文：38,200 → 21,700 个词元（按字符数 ÷ 4 估算）')
    // The share of the whole context, with at most one decimal.
    assert.equal(shareOf(2034, figure.now), 2034 / 41332)
    assert.equal(costText(en, 'en', { tokens: 2034, share: shareOf(2034, figure.now), inContext: true }), '2,034 tokens · 4.9% of the context')
    assert.equal(costText(zh, 'zh', { tokens: 2034, share: shareOf(2034, figure.now), inContext: true }), '2,034 个词元 · 占上下文 4.9%')
    assert.equal(costText(en, 'en', { tokens: 1, share: 0.5, inContext: true }), '1 token · 50% of the context')
    assert.equal(shareOf(5, 0), 0)
  })

  it('orders by cost now, largest first, ties and free units in conversation order', () => {
    const { b, p1, p2 } = log()
    b.tombstone('delete', p2, p2)
    const units = buildEditorUnits(b.events)
    assert.equal(orderUnits(units, 'conversation', 'meter'), units)
    assert.deepEqual(orderUnits(units, 'largest', 'meter').map((u) => u.key), ['s4.1', 's1.1', 's2.1', 's3.1', `u${p2 + 14}`, `u${p1}`, `u${p2 + 8}`, 's1.2', `u${p2}`])
  })
})

describe('context map: Exclude', () => {
  it('previews a selection of deletes and exclusions, counts both, and the batch planner writes exactly its changes', () => {
    const { b, p1, big, p2, small } = log()
    const units = buildEditorUnits(b.events)
    const preview = previewSelection(units, { ...EMPTY_SELECTION, remove: new Set([`u${p1}`, 's1.1', 's2.1']), exclude: new Set(['s1.1', 's2.1', `u${p2}`]) })
    assert.deepEqual([...preview.going], [`u${p1}`, 's1.1', 's2.1'])
    assert.deepEqual([...preview.excluding], ['s1.1', 's2.1'], 'an Exclude mark on a unit not selected is ignored')
    assert.deepEqual([preview.messages, preview.inView], [5, 4])
    assert.deepEqual(preview.changes, [{ action: 'delete', seq: p1 }, { action: 'exclude', seq: big }, { action: 'exclude', seq: small }])
    assert.equal(counterText(en, 'en', preview), `5 messages, ~${preview.tokens.toLocaleString('en-US')} tokens leave the context, 4 of them stay in view`)
    assert.equal(counterText(en, 'en', { messages: 12, tokens: 3400, inView: 3, back: 1 }), '12 messages, ~3,400 tokens leave the context, 3 of them stay in view; 1 comes back')
    assert.equal(counterText(en, 'en', { messages: 1, tokens: 40, inView: 1, back: 0 }), '1 message, ~40 tokens leave the context, 1 of them stays in view')
    assert.equal(counterText(zh, 'zh', { messages: 12, tokens: 3400, inView: 3, back: 1 }), '12 条消息、约 3,400 个词元将离开上下文，其中 3 条仍留在视图中；1 条恢复')

    const planned = planBatch({ nodes: b.nodes, lookup: b.lookup, nextSeq: b.session.seq, changes: preview.changes })
    assert.ok(planned.ok)
    appendBatch(b.session, planned.plan, preview.changes)
    const fates = readFates(b.events)
    assert.deepEqual([p1, big, big + 2, small, small + 2].map((seq) => fates.fateOf(seq).state), ['removed', 'excluded', 'excluded', 'excluded', 'excluded'])
    const after = buildEditorUnits(b.events)
    assert.deepEqual(after.filter((u) => u.state !== 'current').map((u) => [u.key, u.state]), [[`u${p1}`, 'removed'], ['s1.1', 'excluded'], ['s2.1', 'excluded']])
  })

  it('a From here span is always a Delete, even for a unit marked Exclude', () => {
    const { b, p2 } = log()
    const units = buildEditorUnits(b.events)
    const preview = previewSelection(units, { remove: new Set(['s3.1']), from: `u${p2}`, restore: new Set(), exclude: new Set(['s3.1', `u${p2}`]) })
    assert.deepEqual(preview.changes, [{ action: 'deleteFrom', seq: p2 }])
    assert.deepEqual([preview.excluding.size, preview.inView], [0, 0])
  })
})

describe('context map: quick selections', () => {
  it('tool output older than the last N turns: tool steps of turns up to last − N, never the last turn', () => {
    const { b } = log()
    const units = buildEditorUnits(b.events)
    assert.deepEqual(presetOldToolOutput(units, 1), ['s1.1', 's2.1'])
    assert.deepEqual(presetOldToolOutput(units, 2), ['s1.1', 's2.1'])
    assert.deepEqual(presetOldToolOutput(units, 3), ['s1.1'])
    assert.deepEqual(presetOldToolOutput(units, 4), [])
    assert.deepEqual(presetOldToolOutput(units, 0), ['s1.1', 's2.1'], 'N = 0 still leaves the last turn alone')
  })

  it('tool output larger than K tokens: by the tool results alone, never the last turn', () => {
    const { b } = log()
    const units = buildEditorUnits(b.events)
    assert.deepEqual(presetLargeToolOutput(units, 2011, 'meter'), ['s1.1'])
    assert.deepEqual(presetLargeToolOutput(units, 2012, 'meter'), [], 'strictly larger; the last turn\'s 3,012 tokens are never selected')
    assert.deepEqual(presetLargeToolOutput(units, 1999, 'chars'), ['s1.1'])
    assert.deepEqual(presetLargeToolOutput(units, 0, 'meter'), ['s1.1', 's2.1'])
  })

  it('everything before the last compaction: what the compaction kept, never the last turn; nothing without one', () => {
    const { b } = log()
    assert.equal(lastCompactionSeq(b.events), null)
    assert.deepEqual(presetBeforeCompaction(buildEditorUnits(b.events), null), [])
    const c = new LogBuilder('context-map-compaction')
    const t1 = c.turn('one', [{ text: 'One.' }])
    const t2 = c.turn('two', [{ text: 'Two.', calls: ['x'] }])
    // The compaction folds turn 1 and keeps turn 2 in full.
    const checkpoint = c.checkpoint(t1.prompt, t1.steps[0]!.assistant)
    const t3 = c.turn('three', [{ text: 'Three.' }])
    c.turn('four', [{ text: 'Four.' }])
    assert.equal(lastCompactionSeq(c.events), checkpoint)
    const units = buildEditorUnits(c.events)
    assert.deepEqual(presetBeforeCompaction(units, checkpoint), [`u${t2.prompt}`, 's2.1'])
    // Compacted again after turn 3: turn 3 is before it; turn 4, the last, is never selected.
    const again = c.checkpoint(checkpoint, t2.steps[0]!.results[0]!)
    void t3
    const later = buildEditorUnits(c.events)
    assert.equal(lastCompactionSeq(c.events), again)
    assert.deepEqual(presetBeforeCompaction(later, again), [`u${t3.prompt}`, 's3.1'])
  })
})
