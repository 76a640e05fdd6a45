/**
 * The inheritance planner (`src/host/inherit-plan.ts`) on logs written through the real detached
 * rc.8 `Session` (`test/host/log-builder.ts`): the copy is the log's first `cut` events, folded
 * with `dsh-session` `foldSurface`, and the source's events from the cut on are the planner's
 * suffix. What a compaction after the cut folded is not inherited, a tombstone it folded is; a
 * removal that takes part of a model step in the copy (a range no planner of this plugin writes,
 * made here by hand) leaves that step out; a suffix that does not start at the cut is an error.
 * A summary rewrite after the cut (written with the plugin's own `appendRewrite`): a copy cut
 * before the compaction removes the messages its record names; a copy holding the checkpoint it
 * replaced takes the rewritten summary over the nodes it stands for; an Undo of the rewrite leaves
 * the copy as it is.
 */
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { foldSurface, type SessionEvent } from '@deepseek-ai/dsh-session'
import { planInheritance } from '../../src/host/inherit-plan'
import { appendRewrite } from '../../src/host/summary-rewrite'
import type { FoldedRemoval } from '../../src/shared/summary-rewrite'
import { LogBuilder } from './log-builder'

/** A summary rewrite of this plugin over `checkpointSeq`, no meter. */
function rewrite(log: LogBuilder, checkpointSeq: number, removals: readonly FoldedRemoval[], text: string): number {
  return appendRewrite(log.session, { checkpointSeq, removals }, { summary: [{ type: 'text', text }] }, undefined, log.lookup).checkpointSeq
}

/** Plan for a copy of the builder's first `cut` events. */
function planFor(log: LogBuilder, cut: number) {
  const events = log.events
  const copy = events.slice(0, cut)
  return planInheritance({
    cut,
    suffix: events.slice(cut),
    copyNodes: foldSurface(copy as SessionEvent[]).nodes,
    copyLookup: (seq) => copy[seq],
  })
}

describe('planInheritance', () => {
  it('inherits nothing a compaction after the cut folded, and the tombstone it folded', () => {
    const log = new LogBuilder()
    const t1 = log.turn('prompt #1', [{ text: 'reading', calls: ['read'] }, { text: 'reply #1' }])
    const t2 = log.turn('prompt #2', [{ text: 'reply #2' }])
    const cut = log.events.length
    log.startTurn().endTurn()
    assert.deepEqual(planFor(log, cut), { removals: [], dropped: [], summaries: [] }, 'no replacement after the cut')

    const checkpoint = log.checkpoint(t1.prompt, t1.steps[1]!.assistant)
    assert.deepEqual(planFor(log, cut), { removals: [], dropped: [], summaries: [] }, 'a compaction removes nothing from the copy')

    // A tombstone over prompt #2, then a compaction that folds it with the checkpoint.
    const tombstone = log.tombstone('recall', t2.prompt, t2.prompt)
    log.checkpoint(checkpoint, tombstone)
    assert.deepEqual(planFor(log, cut), {
      removals: [{ action: 'recall', start: t2.prompt, end: t2.prompt, shadowedSeqs: [t2.prompt], fromSourceSeqs: [log.events.length - 2] }],
      dropped: [],
      summaries: [],
    })
  })

  it('leaves out a model step only partly removed, and keeps the rest of the run', () => {
    const log = new LogBuilder()
    log.turn('prompt #1', [{ text: 'reply #1' }])
    const t2 = log.turn('prompt #2', [{ text: 'reading', calls: ['read'] }, { text: 'reply #2' }])
    const cut = log.events.length
    // By hand: prompt #2 and the call of its tool step, without the tool result.
    const tombstone = log.tombstone('delete', t2.prompt, t2.steps[0]!.assistant)
    assert.deepEqual(planFor(log, cut), {
      removals: [{ action: 'delete', start: t2.prompt, end: t2.prompt, shadowedSeqs: [t2.prompt], fromSourceSeqs: [tombstone] }],
      dropped: [],
      summaries: [],
    })
  })

  it('gives each message the fate the source gives it: an exclusion a Delete absorbed stays excluded, one a Delete onward took over is removed with it', () => {
    const log = new LogBuilder()
    log.turn('prompt #1', [{ text: 'reply #1' }])
    const t2 = log.turn('prompt #2', [{ text: 'reply #2' }])
    const t3 = log.turn('prompt #3', [{ text: 'reply #3' }])
    const cut = log.events.length
    // An exclusion of prompt #2, then a Delete of the step after it that absorbs the exclusion.
    const excluded = log.tombstone('exclude', t2.prompt, t2.prompt)
    const deleted = log.tombstone('delete', excluded, t2.steps[0]!.assistant)
    assert.deepEqual(planFor(log, cut).removals.map((r) => [r.action, r.shadowedSeqs]), [
      ['exclude', [t2.prompt]],
      ['delete', [t2.steps[0]!.assistant]],
    ], 'the excluded prompt stays excluded, as in the source (shared/fate.ts takesOver)')
    // A Delete onward from prompt #2 over both: it takes the exclusion over.
    log.tombstone('deleteFrom', deleted, t3.steps[0]!.assistant)
    assert.deepEqual(planFor(log, cut).removals.map((r) => [r.action, r.shadowedSeqs]), [
      ['deleteFrom', [t2.prompt, t2.steps[0]!.assistant, t3.prompt, t3.steps[0]!.assistant]],
    ])
  })

  it('refuses a suffix that does not start at the cut', () => {
    const log = new LogBuilder()
    log.turn('prompt #1', [{ text: 'reply #1' }])
    const events = log.events
    assert.throws(
      () => planInheritance({ cut: 2, suffix: events.slice(3), copyNodes: [], copyLookup: (seq) => events[seq] }),
      { message: 'inherit-plan: the source suffix starts at seq 3, not at the cut 2' },
    )
  })

  it('takes a summary rewrite after the cut: the record\'s messages in a copy cut before the compaction, the rewritten summary in a copy holding the old checkpoint', () => {
    const log = new LogBuilder()
    const t1 = log.turn('prompt #1 secret', [{ text: 'reply #1' }])
    const t2 = log.turn('prompt #2', [{ text: 'reply #2' }])
    const beforeCompaction = log.events.length
    const checkpoint = log.checkpoint(t1.prompt, t2.steps[0]!.assistant, 'Summary: secret and prompt #2.')
    log.turn('prompt #3', [{ text: 'reply #3' }])
    const betweenCut = log.events.length
    const rewritten = rewrite(log, checkpoint, [{ action: 'delete', seqs: [t1.prompt] }], 'Summary: prompt #2.')

    assert.deepEqual(planFor(log, beforeCompaction), {
      removals: [{ action: 'delete', start: t1.prompt, end: t1.prompt, shadowedSeqs: [t1.prompt], fromSourceSeqs: [rewritten] }],
      dropped: [],
      summaries: [],
    }, 'cut before the compaction: the prompt itself is removed, nothing is compacted')
    assert.deepEqual(planFor(log, betweenCut), {
      removals: [],
      dropped: [],
      summaries: [{ fromSourceSeq: rewritten, summary: [{ type: 'text', text: 'Summary: prompt #2.' }], standsFor: [checkpoint], holding: [checkpoint], removals: [{ action: 'delete', seqs: [t1.prompt] }] }],
    }, 'cut between: the old checkpoint takes the rewritten summary')

    // Undo of the rewrite: the earlier summary is back in the source, so the copy keeps its own.
    rewrite(log, rewritten, [], 'Summary: secret and prompt #2.')
    assert.deepEqual(planFor(log, betweenCut), { removals: [], dropped: [], summaries: [] })
  })

  it('a rewrite of a later compaction that folded the copy\'s checkpoint stands for that checkpoint and the messages after it', () => {
    const log = new LogBuilder()
    const t1 = log.turn('prompt #1 secret', [{ text: 'reply #1' }])
    const first = log.checkpoint(t1.prompt, t1.steps[0]!.assistant, 'Summary: secret.')
    const t2 = log.turn('prompt #2', [{ text: 'reply #2' }])
    const cut = log.events.length
    const t3 = log.turn('prompt #3', [{ text: 'reply #3' }])
    const second = log.checkpoint(first, t3.steps[0]!.assistant, 'Summary: secret, prompts #2 and #3.')
    const rewritten = rewrite(log, second, [{ action: 'exclude', seqs: [t1.prompt] }], 'Summary: prompts #2 and #3.')
    assert.deepEqual(planFor(log, cut), {
      removals: [],
      dropped: [],
      summaries: [{ fromSourceSeq: rewritten, summary: [{ type: 'text', text: 'Summary: prompts #2 and #3.' }], standsFor: [first, t2.prompt, t2.steps[0]!.assistant], holding: [first], removals: [{ action: 'exclude', seqs: [t1.prompt] }] }],
    })
  })
})
