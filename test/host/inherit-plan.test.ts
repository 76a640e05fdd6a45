/**
 * The inheritance planner (`src/host/inherit-plan.ts`) on logs written through the real detached
 * rc.8 `Session` (`test/host/log-builder.ts`): the copy is the log's first `cut` events, folded
 * with `dsh-session` `foldSurface`, and the source's events from the cut on are the planner's
 * suffix. What a compaction after the cut folded is not inherited, a tombstone it folded is; a
 * removal that takes part of a model step in the copy (a range no planner of this plugin writes,
 * made here by hand) leaves that step out; a suffix that does not start at the cut is an error.
 */
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { foldSurface, type SessionEvent } from '@deepseek-ai/dsh-session'
import { planInheritance } from '../../src/host/inherit-plan'
import { LogBuilder } from './log-builder'

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
    assert.deepEqual(planFor(log, cut), { removals: [], dropped: [] }, 'no replacement after the cut')

    const checkpoint = log.checkpoint(t1.prompt, t1.steps[1]!.assistant)
    assert.deepEqual(planFor(log, cut), { removals: [], dropped: [] }, 'a compaction removes nothing from the copy')

    // A tombstone over prompt #2, then a compaction that folds it with the checkpoint.
    const tombstone = log.tombstone('recall', t2.prompt, t2.prompt)
    log.checkpoint(checkpoint, tombstone)
    assert.deepEqual(planFor(log, cut), {
      removals: [{ action: 'recall', start: t2.prompt, end: t2.prompt, shadowedSeqs: [t2.prompt], fromSourceSeqs: [log.events.length - 2] }],
      dropped: [],
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
})
