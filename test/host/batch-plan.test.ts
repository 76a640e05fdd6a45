/**
 * The pure batch planner over realistic rc.8 logs built through the real `Session`: merging of
 * duplicate, overlapping and adjacent removals, restores, refusals with the change's index, and a
 * property over random logs (prunes, checkpoints, earlier removals, exclusions and restores included) and random batches: the real Session accepts every planned write, the surface
 * folds the same from the log, no tool call is split from its result, the live surface equals
 * the simulated one, and the derived messages equal a reference fold of the simulation; and a
 * property that every message's fate equals the one the same changes one by one leave.
 */
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import fc from 'fast-check'
import { deriveEventMessage, foldSurface, type SessionEvent } from '@deepseek-ai/dsh-session'
import { toolPairingBalancedAfter, toolPairingBalancedBefore } from '@deepseek-ai/dsh-compaction'
import { describeBatchRefusal, estimateBatch, planBatch, type BatchChange, type BatchPlan, type BatchResult } from '../../src/host/batch-plan'
import { appendBatch } from '../../src/host/batch-writer'
import { appendTombstone } from '../../src/host/tombstone-append'
import { describePlanRefusal, planRemoval } from '../../src/host/surface-plan'
import { isTombstoneEvent, readTombstone } from '../../src/shared/tombstone'
import { readFates } from '../../src/shared/fate'
import { classifyNode } from '../../src/shared/surface-node'
import { LogBuilder } from './log-builder'
import { deriveHiddenRows } from '../../src/shared/hidden-rows'
import { transcriptRows } from '../../src/log/log-rows'
import type { LogEvent } from '../../src/shared/events'
import type { TombstoneAction } from '../../src/shared/actions'
import { buildLog, extra, fateExtra, pairingProblems, turnShape, type Extra } from './random-logs'
import { planRestore } from '../../src/host/restore-plan'
import { appendRestore } from '../../src/host/restore-writer'
import { ACTIONS, removalPlanning } from '../../src/shared/actions'
import { offSurfaceSeqs } from '../../src/host/summary-batch'

function batch(b: LogBuilder, changes: BatchChange[]): BatchResult {
  return planBatch({ nodes: b.nodes, lookup: b.lookup, nextSeq: b.session.seq, changes })
}

function ok(result: BatchResult): BatchPlan {
  if (!result.ok) assert.fail(`expected a plan, got ${describeBatchRefusal(result.refusal, describePlanRefusal)}`)
  return result.plan
}

/** Four turns: two tool steps, then replies. */
function fourTurns() {
  const b = new LogBuilder('batch')
  const t1 = b.turn('first prompt', [{ text: 'Reading a and b.', calls: ['a', 'b'] }, { text: 'Both read.' }], { context: true })
  const t2 = b.turn('second prompt', [{ text: 'Reading c.', calls: ['c'] }, { text: 'Done with c.' }])
  const t3 = b.turn('third prompt', [{ text: 'Plain reply.' }])
  const t4 = b.turn('fourth prompt', [{ text: 'Last reply.' }])
  return { b, t1, t2, t3, t4 }
}

describe('planBatch: merging', () => {
  it('plans scattered removals as one tombstone each, in list order, without touching the session', () => {
    const { b, t1, t3, t4 } = fourTurns()
    const count = b.session.seq
    const p = ok(batch(b, [{ action: 'delete', seq: t3.prompt }, { action: 'delete', seq: t1.steps[0]!.results[1]! }, { action: 'delete', seq: t4.steps[0]!.assistant }]))
    assert.equal(b.session.seq, count, 'nothing appended')
    assert.deepEqual(p.writes.map((w) => w.kind === 'tombstone' && [w.action, w.shadowedSeqs, w.changeIndexes]), [
      ['delete', [t3.prompt], [0]],
      ['delete', [t1.steps[0]!.assistant, ...t1.steps[0]!.results], [1]],
      ['delete', [t4.steps[0]!.assistant], [2]],
    ])
    assert.deepEqual(p.writeOfChange, [0, 1, 2])
    assert.deepEqual(p.removedSeqs, [t3.prompt, t1.steps[0]!.assistant, ...t1.steps[0]!.results, t4.steps[0]!.assistant])
  })

  it('merges a duplicate and a removal whose target an earlier change already removed, without an error', () => {
    const { b, t1 } = fourTurns()
    const step = [t1.steps[0]!.assistant, ...t1.steps[0]!.results]
    const p = ok(batch(b, [{ action: 'delete', seq: step[0]! }, { action: 'delete', seq: step[2]! }, { action: 'delete', seq: step[0]! }]))
    assert.equal(p.writes.length, 1)
    assert.deepEqual(p.writes[0]!.kind === 'tombstone' && [p.writes[0]!.shadowedSeqs, p.writes[0]!.changeIndexes], [step, [0, 1, 2]])
    assert.deepEqual(p.writeOfChange, [0, 0, 0])
  })

  it('an exclusion next to a removal stays its own tombstone, shadowed by the later one, and hides as the two changes one by one', () => {
    /** What the transcript shows: each message's fate, the hidden rows with their reasons, the excluded rows (keys hold random message ids, so kinds). */
    const view = (b: LogBuilder) => {
      const events = b.events as readonly LogEvent[]
      const rows = deriveHiddenRows(events, transcriptRows(events))
      const messages = events.filter((e) => e.surfaceOp === 'append').map((e) => e.seq)
      return {
        fates: messages.map((seq) => `${seq}:${rows.fateOf(seq).state}`),
        hidden: rows.hidden.map((h) => `${h.rowKind}:${h.reason}:${h.tombstoneSeq}`).sort(),
        excluded: rows.excluded.map((x) => `${x.rowKind}:${x.tombstoneSeq}`),
      }
    }
    /** The same changes one by one, each planned and written as the single action is. */
    const oneByOne = (b: LogBuilder, changes: readonly { action: TombstoneAction; seq: number }[]) => {
      for (const change of changes) {
        const planned = planRemoval({ nodes: b.nodes, lookup: b.lookup, planning: removalPlanning(change.action), target: { seq: change.seq } })
        assert.ok(planned.ok)
        appendTombstone(b.session, { action: change.action, start: planned.plan.start, end: planned.plan.end, shadowedSeqs: planned.plan.shadowedSeqs })
      }
    }
    for (const order of ['delete first', 'exclude first'] as const) {
      const batched = fourTurns()
      const single = fourTurns()
      const answer = batched.t2.steps[1]!.assistant
      const prompt = batched.t3.prompt
      const changes: { action: 'delete' | 'exclude'; seq: number }[] = order === 'delete first'
        ? [{ action: 'delete', seq: answer }, { action: 'exclude', seq: prompt }]
        : [{ action: 'exclude', seq: prompt }, { action: 'delete', seq: answer }]
      const count = batched.b.session.seq
      const p = ok(batch(batched.b, changes))
      const [first, second] = p.writes
      assert.equal(p.writes.length, 2, order)
      assert.deepEqual(first!.kind === 'tombstone' && [first!.action, first!.shadowedSeqs], [changes[0]!.action, [changes[0]!.seq]], order)
      assert.deepEqual(second!.kind === 'tombstone' && [second!.action, second!.shadowedSeqs], [changes[1]!.action, order === 'delete first' ? [count, prompt] : [answer, count]], `${order}: the second shadows the first`)
      appendBatch(batched.b.session, p, changes)
      oneByOne(single.b, changes)
      assert.deepEqual(view(batched.b), view(single.b), order)
      assert.equal(view(batched.b).excluded.length, 1, `${order}: the excluded prompt stays in view`)
      assert.deepEqual([...batched.b.session.surface.nodes], [...single.b.session.surface.nodes], order)
    }
  })

  it('a repeated removal joins its own tombstone: the exclusion that shadows it stays an exclusion, as without the repeat', () => {
    // The step's answer deleted, the prompt right after it excluded (its tombstone shadows the delete's), the delete repeated.
    const plain = fourTurns()
    const repeated = fourTurns()
    const answer = plain.t2.steps[1]!.assistant
    const prompt = plain.t3.prompt
    const changes: BatchChange[] = [{ action: 'delete', seq: answer }, { action: 'exclude', seq: prompt }]
    const withRepeat: BatchChange[] = [...changes, { action: 'delete', seq: answer }]
    const count = plain.b.session.seq
    const once = ok(batch(plain.b, changes))
    const twice = ok(batch(repeated.b, withRepeat))
    const shape = (p: BatchPlan) => p.writes.map((w) => w.kind === 'tombstone' && [w.action, w.shadowedSeqs, w.changeIndexes])
    assert.deepEqual(shape(once), [['delete', [answer], [0]], ['exclude', [count, prompt], [1]]])
    assert.deepEqual(shape(twice), [['delete', [answer], [0, 2]], ['exclude', [count, prompt], [1]]], 'the repeat joins the delete, nothing is retargeted')
    assert.deepEqual(twice.writeOfChange, [0, 1, 0])
    assert.deepEqual(twice.removedSeqs, once.removedSeqs)
    const results = appendBatch(repeated.b.session, twice, withRepeat)
    const written = (seq: number) => readTombstone(repeated.b.events[seq]!)!.action
    assert.deepEqual(results.map((r) => [r.action, r.tombstoneSeq, written(r.tombstoneSeq)]), [['delete', count, 'delete'], ['exclude', count + 1, 'exclude'], ['delete', count, 'delete']])
    const fates = readFates(repeated.b.events as readonly LogEvent[])
    assert.deepEqual([fates.fateOf(answer).state, fates.fateOf(prompt).state], ['removed', 'excluded'])
  })

  it('a removal of what an earlier change of the batch only excluded removes it', () => {
    const { b, t3 } = fourTurns()
    const p = ok(batch(b, [{ action: 'exclude', seq: t3.prompt }, { action: 'delete', seq: t3.prompt }]))
    assert.deepEqual(p.writes.map((w) => w.kind === 'tombstone' && [w.action, w.shadowedSeqs, w.changeIndexes]), [['delete', [t3.prompt], [0, 1]]])
    appendBatch(b.session, p, [{ action: 'exclude', seq: t3.prompt }, { action: 'delete', seq: t3.prompt }])
    const events = b.events as readonly LogEvent[]
    const rows = deriveHiddenRows(events, transcriptRows(events))
    assert.equal(rows.excludedKeys.size, 0)
    assert.equal(rows.fateOf(t3.prompt).state, 'removed')
  })

  it('a removal of a message the batch excluded removes it also when a Delete of its neighbour absorbed the exclusion', () => {
    const { b, t2, t3 } = fourTurns()
    const answer = t2.steps[1]!.assistant
    const count = b.session.seq
    const changes: BatchChange[] = [{ action: 'exclude', seq: t3.prompt }, { action: 'delete', seq: answer }, { action: 'delete', seq: t3.prompt }]
    const p = ok(batch(b, changes))
    // The exclusion becomes the prompt's removal, inside the answer's Delete that absorbed it.
    assert.deepEqual(p.writes.map((w) => w.kind === 'tombstone' && [w.action, w.shadowedSeqs, w.changeIndexes]), [['delete', [t3.prompt], [0, 2]], ['delete', [answer, count], [1]]])
    appendBatch(b.session, p, changes)
    const fates = readFates(b.events as readonly LogEvent[])
    assert.deepEqual([fates.fateOf(answer).state, fates.fateOf(t3.prompt).state], ['removed', 'removed'])
  })

  it('a Delete onward from a message the batch excluded removes it, also when a Delete then takes the Delete onward along', () => {
    const { b, t3, t4 } = fourTurns()
    const reply = t3.steps[0]!.assistant
    const count = b.session.seq
    const changes: BatchChange[] = [{ action: 'exclude', seq: reply }, { action: 'deleteFrom', seq: reply }, { action: 'delete', seq: t3.prompt }]
    const p = ok(batch(b, changes))
    // The prompt's Delete takes the Delete onward along at its start, and is written as that Delete onward.
    assert.deepEqual(p.writes.map((w) => w.kind === 'tombstone' && [w.action, w.shadowedSeqs, w.changeIndexes]), [
      ['exclude', [reply], [0]],
      ['deleteFrom', [t3.prompt, count, t4.prompt, t4.steps[0]!.assistant], [1, 2]],
    ])
    appendBatch(b.session, p, changes)
    const fates = readFates(b.events as readonly LogEvent[])
    assert.deepEqual([t3.prompt, reply, t4.prompt].map((seq) => fates.fateOf(seq).state), ['removed', 'removed', 'removed'])
  })

  it('an exclusion already in the log that a Delete takes along at its edge stays an exclusion, also when the Delete takes a Delete onward of the batch along', () => {
    const batched = fourTurns()
    const single = fourTurns()
    const { b, t3, t4 } = batched
    const reply = t3.steps[0]!.assistant
    const excluded = b.tombstone('exclude', t3.prompt, t3.prompt)
    single.b.tombstone('exclude', t3.prompt, t3.prompt)
    const count = b.session.seq
    const changes: BatchChange[] = [{ action: 'deleteFrom', seq: t4.prompt }, { action: 'delete', seq: reply }]
    const p = ok(batch(b, changes))
    // The reply's Delete takes the old exclusion along at one edge and the Delete onward at the other:
    // the Delete onward stays its own tombstone inside it, as the two changes one by one write it.
    assert.deepEqual(p.writes.map((w) => w.kind === 'tombstone' && [w.action, w.shadowedSeqs, w.changeIndexes]), [
      ['deleteFrom', [t4.prompt, t4.steps[0]!.assistant], [0]],
      ['delete', [excluded, reply, count], [1]],
    ])
    appendBatch(b.session, p, changes)
    for (const change of changes) {
      const c = change as { action: 'delete' | 'deleteFrom'; seq: number }
      const planned = planRemoval({ nodes: single.b.nodes, lookup: single.b.lookup, planning: removalPlanning(c.action), target: { seq: c.seq } })
      assert.ok(planned.ok)
      appendTombstone(single.b.session, { action: c.action, start: planned.plan.start, end: planned.plan.end, shadowedSeqs: planned.plan.shadowedSeqs })
    }
    assert.deepEqual(readTombstone(single.b.events.at(-1)!)!.action, 'delete')
    assert.deepEqual(single.b.events.at(-1)!.sourceEventSeqs, [excluded, reply, count])
    const fates = readFates(b.events as readonly LogEvent[])
    const alone = readFates(single.b.events as readonly LogEvent[])
    const seqs = [t3.prompt, reply, t4.prompt, t4.steps[0]!.assistant]
    assert.deepEqual(seqs.map((seq) => fates.fateOf(seq).state), ['excluded', 'removed', 'removed', 'removed'])
    assert.deepEqual(seqs.map((seq) => fates.fateOf(seq)), seqs.map((seq) => alone.fateOf(seq)))
  })

  it('an exclusion of the log inside a Delete of the batch stays an exclusion when a later Delete takes that Delete and a Delete onward along', () => {
    const { b, t3, t4 } = fourTurns()
    const reply = t3.steps[0]!.assistant
    const last = t4.steps[0]!.assistant
    const excluded = b.tombstone('exclude', t3.prompt, t3.prompt)
    const count = b.session.seq
    // The last reply's Delete onward, the third reply's Delete (taking the exclusion along), then the
    // fourth prompt's Delete between them: the Delete onward stays its own tombstone.
    const changes: BatchChange[] = [{ action: 'deleteFrom', seq: last }, { action: 'delete', seq: reply }, { action: 'delete', seq: t4.prompt }]
    const p = ok(batch(b, changes))
    assert.deepEqual(p.writes.map((w) => w.kind === 'tombstone' && [w.action, w.shadowedSeqs, w.changeIndexes]), [
      ['deleteFrom', [last], [0]],
      ['delete', [excluded, reply, t4.prompt, count], [1, 2]],
    ])
    appendBatch(b.session, p, changes)
    const fates = readFates(b.events as readonly LogEvent[])
    assert.deepEqual([t3.prompt, reply, t4.prompt, last].map((seq) => fates.fateOf(seq).state), ['excluded', 'removed', 'removed', 'removed'])
  })

  it('merges adjacent removals into one range (never two tombstones side by side)', () => {
    const { b, t2 } = fourTurns()
    const first = [t2.steps[0]!.assistant, ...t2.steps[0]!.results]
    const second = t2.steps[1]!.assistant
    const p = ok(batch(b, [{ action: 'delete', seq: t2.prompt }, { action: 'delete', seq: second }, { action: 'delete', seq: first[0]! }]))
    assert.equal(p.writes.length, 1)
    const [w] = p.writes
    assert.deepEqual(w!.kind === 'tombstone' && [w!.start, w!.end, w!.shadowedSeqs, w!.changeIndexes], [t2.prompt, second, [t2.prompt, ...first, second], [0, 1, 2]])
    assert.deepEqual(p.writeOfChange, [0, 0, 0])
  })

  it('merges an overlapping delete-onward with earlier ranges inside it, written at its position', () => {
    const { b, t1, t3, t4 } = fourTurns()
    const p = ok(batch(b, [{ action: 'delete', seq: t4.prompt }, { action: 'delete', seq: t1.prompt }, { action: 'deleteFrom', seq: t3.prompt }]))
    assert.equal(p.writes.length, 2)
    const [first, onward] = p.writes
    assert.deepEqual(first!.kind === 'tombstone' && [first!.shadowedSeqs, first!.changeIndexes], [[t1.prompt], [1]])
    const nodes = b.nodes
    assert.deepEqual(onward!.kind === 'tombstone' && [onward!.action, onward!.shadowedSeqs, onward!.changeIndexes], ['deleteFrom', nodes.slice(nodes.indexOf(t3.prompt)), [0, 2]])
    assert.deepEqual(p.writeOfChange, [1, 0, 1])
  })

  it('continues a delete-onward whose target is already removed from the node after that range', () => {
    const { b, t3 } = fourTurns()
    const nodes = b.nodes
    const p = ok(batch(b, [{ action: 'delete', seq: t3.prompt }, { action: 'deleteFrom', seq: t3.prompt }]))
    assert.equal(p.writes.length, 1)
    assert.deepEqual(p.writes[0]!.kind === 'tombstone' && p.writes[0]!.shadowedSeqs, nodes.slice(nodes.indexOf(t3.prompt)))
  })

  it('absorbs an earlier tombstone of the log exactly as the single action does', () => {
    const { b, t2, t3 } = fourTurns()
    const old = b.tombstone('delete', t3.prompt, t3.prompt)
    const p = ok(batch(b, [{ action: 'delete', seq: t3.steps[0]!.assistant }]))
    const single = planRemoval({ nodes: b.nodes, lookup: b.lookup, planning: removalPlanning('delete'), target: { seq: t3.steps[0]!.assistant } })
    assert.ok(single.ok)
    assert.deepEqual(p.writes[0]!.kind === 'tombstone' && p.writes[0]!.shadowedSeqs, single.plan.shadowedSeqs)
    assert.deepEqual(single.plan.absorbedTombstoneSeqs, [old])
    assert.equal(p.removedSeqs.includes(old), false, 'an absorbed tombstone is no message leaving the context')
    void t2
  })
})

describe('planBatch: refusals', () => {
  it('refuses with the index of the first refused change, planning nothing', () => {
    const { b, t1, t3 } = fourTurns()
    const context = t1.prompt + 1
    const result = batch(b, [{ action: 'delete', seq: t3.prompt }, { action: 'delete', seq: context }])
    assert.equal(result.ok, false)
    if (result.ok) return
    assert.equal(result.refusal.index, 1)
    assert.equal(result.refusal.refusal.code, 'NOT_DELETABLE')
    assert.equal(
      describeBatchRefusal(result.refusal, describePlanRefusal),
      `message-recall: change 1 (delete of seq ${context}) refused: seq ${context} cannot be removed: it is the agent loop's runtime context, which the loop injects again at the next step once it is gone`,
    )
  })

  it('refuses a seq the batch itself would create, and an unknown seq, as not on the surface', () => {
    const { b } = fourTurns()
    for (const seq of [b.session.seq, b.session.seq + 1, 10_000]) {
      const result = batch(b, [{ action: 'delete', seq: b.nodes[0]! }, { action: 'delete', seq }])
      assert.ok(!result.ok && result.refusal.index === 1 && result.refusal.refusal.code === 'TARGET_NOT_FOUND', `seq ${seq}`)
    }
  })

  it('refuses a restore of a tombstone that is not restorable, or that an earlier change of the batch shadowed', () => {
    const { b, t1, t3, t4 } = fourTurns()
    const step = b.tombstone('delete', t1.steps[0]!.assistant, t1.steps[0]!.results.at(-1)!)
    const prompt = b.tombstone('delete', t3.prompt, t3.prompt)
    const notRestorable = batch(b, [{ action: 'restore', tombstoneSeq: step }])
    assert.ok(!notRestorable.ok && notRestorable.refusal.refusal.code === 'NOT_RESTORABLE')
    // Deleting the answer right after the removed prompt absorbs its tombstone: the restore of it is refused.
    const shadowed = batch(b, [{ action: 'delete', seq: t3.steps[0]!.assistant }, { action: 'restore', tombstoneSeq: prompt }])
    assert.equal(shadowed.ok, false)
    if (shadowed.ok) return
    assert.deepEqual([shadowed.refusal.index, shadowed.refusal.refusal.code], [1, 'TARGET_NOT_FOUND'])
    assert.equal(describeBatchRefusal(shadowed.refusal, describePlanRefusal), `message-recall: change 1 (restore of tombstone ${prompt}) refused: tombstone seq ${prompt} is shadowed by change 0 of this batch`)
    const unknown = batch(b, [{ action: 'restore', tombstoneSeq: t4.prompt }])
    assert.ok(!unknown.ok && unknown.refusal.refusal.code === 'TARGET_NOT_FOUND')
  })
})

describe('planBatch: restores', () => {
  it('restores a removed prompt in place beside removals, merges a duplicate restore, and writes it as the single restore does', () => {
    const { b, t2, t4 } = fourTurns()
    const prompt = b.tombstone('recall', t2.prompt, t2.prompt)
    const p = ok(batch(b, [{ action: 'delete', seq: t4.prompt }, { action: 'restore', tombstoneSeq: prompt }, { action: 'restore', tombstoneSeq: prompt }]))
    assert.deepEqual(p.writes.map((w) => [w.kind, w.changeIndexes]), [['tombstone', [0]], ['restore', [1, 2]]])
    assert.deepEqual(p.restoredSeqs, [t2.prompt])
    assert.ok(estimateBatch(p).restoredTokens > 0)
    const count = b.session.seq
    const results = appendBatch(b.session, p, [{ action: 'delete', seq: t4.prompt }, { action: 'restore', tombstoneSeq: prompt }, { action: 'restore', tombstoneSeq: prompt }])
    assert.deepEqual(results.slice(1), [
      { index: 1, action: 'restore', tombstoneSeq: prompt, restoredSeq: count + 1 },
      { index: 2, action: 'restore', tombstoneSeq: prompt, restoredSeq: count + 1 },
    ])
    const copy = b.events[count + 1]!
    assert.deepEqual([copy.surfaceOp, copy.sourceEventSeqs, copy.data], [{ op: 'replace', start: prompt, end: prompt }, [prompt, t2.prompt], b.events[t2.prompt]!.data])
    assert.ok(b.session.surface.nodes.includes(count + 1) && !b.session.surface.nodes.includes(prompt))
    assert.deepEqual(foldSurface(b.session.events as readonly SessionEvent[]).nodes, [...b.session.surface.nodes])
  })
})

// ---------------------------------------------------------------------------------------------
// Property: random logs, random batches.

const changeShape = fc.record({ action: fc.constantFrom('delete' as const, 'delete' as const, 'deleteFrom' as const, 'exclude' as const, 'restore' as const), pick: fc.nat(), old: fc.boolean() })

/**
 * A change aimed next to a removal or an exclusion: at any removable node (`any`), at a surface
 * neighbour of the previous change's target (`next`), or at a neighbour of a tombstone already on
 * the surface (`tombstone`, the log's own exclusions and removals).
 */
const besideShape = fc.record({
  action: fc.constantFrom('delete' as const, 'deleteFrom' as const, 'exclude' as const, 'exclude' as const, 'restore' as const),
  aim: fc.constantFrom('any' as const, 'next' as const, 'next' as const, 'tombstone' as const, 'tombstone' as const),
  pick: fc.nat(),
  after: fc.boolean(),
})

/** The log's extras ({@link fateExtra}), exclusions the likeliest. */
const exclusionsFirst: fc.Arbitrary<Extra> = fc.oneof(fateExtra, fc.record({ kind: fc.constant('exclude' as const), pick: fc.nat() }))

/** The changes of {@link besideShape}s on the log's surface as it is before the batch. */
function besideChanges(b: LogBuilder, shapes: readonly (typeof besideShape extends fc.Arbitrary<infer T> ? T : never)[]): BatchChange[] {
  const nodes = b.nodes
  const removable = nodes.filter((seq) => !['tombstone', 'checkpoint', 'context', 'replacement'].includes(classifyNode(b.lookup(seq)!)))
  const tombstones = nodes.filter((seq) => isTombstoneEvent(b.lookup(seq)!))
  const anyTombstones = b.events.filter(isTombstoneEvent).map((e) => e.seq)
  const beside = (seq: number, after: boolean) => nodes[Math.min(nodes.length - 1, Math.max(0, nodes.indexOf(seq) + (after ? 1 : -1)))]!
  let previous: number | undefined
  const changes: BatchChange[] = []
  for (const s of shapes) {
    if (s.action === 'restore') {
      if (anyTombstones.length > 0) changes.push({ action: 'restore', tombstoneSeq: anyTombstones[s.pick % anyTombstones.length]! })
      continue
    }
    let seq: number | undefined
    if (s.aim === 'next' && previous !== undefined) seq = beside(previous, s.after)
    else if (s.aim === 'tombstone' && tombstones.length > 0) seq = beside(tombstones[s.pick % tombstones.length]!, s.after)
    else if (removable.length > 0) seq = removable[s.pick % removable.length]!
    if (seq === undefined) continue
    changes.push({ action: s.action, seq })
    previous = seq
  }
  return changes
}

describe('planBatch: property', () => {
  it('writes what it simulated: accepted by the Session, same fold, no split pair, reference messages, one tombstone per gap, results as written, a repeat joins', () => {
    fc.assert(
      fc.property(fc.array(turnShape, { minLength: 1, maxLength: 5 }), fc.array(fateExtra, { maxLength: 4 }), fc.array(changeShape, { minLength: 1, maxLength: 8 }), fc.record({ from: fc.nat(), at: fc.nat() }), (turns, extras, shapes, repeat) => {
        const b = buildLog(turns, extras)
        assert.deepEqual(pairingProblems(b), [], 'the generated log starts balanced')
        const before = b.nodes
        const removable = before.filter((seq) => !['tombstone', 'checkpoint', 'context'].includes(classifyNode(b.lookup(seq)!)))
        const tombstones = b.events.filter(isTombstoneEvent).map((e) => e.seq)
        const changes: BatchChange[] = shapes.map((s) => s.action === 'restore'
          ? { action: 'restore', tombstoneSeq: tombstones.length > 0 ? tombstones[s.pick % tombstones.length]! : s.pick }
          : { action: s.action, seq: (s.old ? before : removable)[s.pick % (s.old ? before : removable).length]! })
        const count = b.session.seq
        const result = planBatch({ nodes: before, lookup: b.lookup, nextSeq: count, changes })
        assert.equal(b.session.seq, count, 'planning appends nothing')
        if (!result.ok) {
          // Every refusal is the single planner's refusal of that change on the simulated surface.
          assert.ok(['NOT_DELETABLE', 'SPAN_NOT_CONTIGUOUS', 'TARGET_NOT_FOUND', 'NOT_RESTORABLE'].includes(result.refusal.refusal.code))
          return
        }
        const p = result.plan
        // Reference fold of the simulation: each node's derived message, tombstones as empty user messages.
        const reference = p.nodes.map((seq) => {
          const event = p.lookup(seq)!
          return isTombstoneEvent(event) ? { role: 'user', content: [] } : deriveEventMessage(event as SessionEvent)
        })
        const results = appendBatch(b.session, p, changes)
        assert.equal(b.session.seq, count + p.writes.length)
        const live = [...b.session.surface.nodes]
        assert.deepEqual(foldSurface(b.session.events as readonly SessionEvent[]).nodes, live)
        assert.equal(live.length, p.nodes.length)
        const written = new Map(p.writes.map((w, i) => [w.virtualSeq, count + i]))
        assert.deepEqual(live, p.nodes.map((seq) => written.get(seq) ?? seq), 'the live surface is the simulated one')
        assert.deepEqual(pairingProblems(b), [])
        for (const s of live) toolPairingBalancedBefore(b.session, s)
        if (live.length > 0) assert.equal(toolPairingBalancedAfter(b.session, live.at(-1)!), true)
        const derived = b.session.deriveMessages().map((m) => (m.role === 'user' && m.content.length === 0 ? { role: 'user', content: [] } : m))
        assert.deepEqual(JSON.parse(JSON.stringify(derived)), JSON.parse(JSON.stringify(reference)))
        // One tombstone per gap: the batch's tombstones never sit next to another tombstone.
        for (const [i, seq] of live.entries()) {
          if (seq < count || !isTombstoneEvent(b.lookup(seq)!)) continue
          for (const n of [live[i - 1], live[i + 1]]) if (n !== undefined) assert.ok(!isTombstoneEvent(b.lookup(n)!), `tombstone ${seq} next to tombstone ${n}`)
        }
        // Every change is accounted for by the write that carries it.
        assert.deepEqual(results.map((r) => r.index), changes.map((_, i) => i))
        for (const r of results) {
          const change = changes[r.index]!
          if (change.action === 'restore') assert.equal(b.events[r.restoredSeq!]!.sourceEventSeqs![0], change.tombstoneSeq)
          else {
            // The carrying tombstone shadows the target, directly or through a tombstone of this batch it shadows.
            const reaches = (seqs: readonly number[]): boolean => seqs.includes(change.seq)
              || seqs.some((seq) => seq >= count && isTombstoneEvent(b.events[seq]!) && reaches(b.events[seq]!.sourceEventSeqs ?? []))
            assert.ok(reaches(r.shadowedSeqs!) || r.action === 'deleteFrom')
          }
        }
        // The reply says what was written: each result names a tombstone of the log as written, and the
        // change took effect as its action says (a removal removed its target, an exclusion excluded it
        // or a removal took it). A tombstone written as an exclusion carries only exclusions; one written
        // as a Recall or Delete that carries an exclusion carries a removal of a message it shadows itself
        // (the removal that won over the exclusion, not one of a range it only absorbed).
        const fates = readFates(b.events as readonly LogEvent[])
        for (const r of results) {
          const change = changes[r.index]!
          assert.equal(r.action, change.action)
          if (change.action === 'restore') continue
          const written = readTombstone(b.events[r.tombstoneSeq]!)
          assert.ok(written !== null, `result ${r.index} names tombstone ${r.tombstoneSeq}`)
          assert.deepEqual(b.events[r.tombstoneSeq]!.sourceEventSeqs, r.shadowedSeqs)
          const state = fates.fateOf(change.seq).state
          if (ACTIONS[change.action].effect === 'removed') assert.equal(state, 'removed', `change ${r.index} (${change.action} of ${change.seq}) removes it`)
          else assert.ok(state === 'excluded' || state === 'removed', `change ${r.index} (exclude of ${change.seq}) is ${state}`)
          const carried = p.writes[p.writeOfChange[r.index]!]!.changeIndexes.map((i) => changes[i]!)
          if (ACTIONS[written.action].effect === 'excluded') assert.ok(carried.every((c) => c.action === 'exclude'), `tombstone ${r.tombstoneSeq} written as exclude carries ${JSON.stringify(carried)}`)
          else if (change.action === 'exclude' && ACTIONS[written.action].plans !== 'onward') {
            const winner = carried.some((c) => c.action !== 'restore' && ACTIONS[c.action].effect === 'removed' && r.shadowedSeqs!.includes(c.seq))
            assert.ok(winner, `change ${r.index} (exclude of ${change.seq}) carried by tombstone ${r.tombstoneSeq} written as ${written.action}`)
          }
        }
        // A change repeated later in the list joins the write of the change it repeats: the same writes.
        const from = repeat.from % changes.length
        const at = from + 1 + (repeat.at % (changes.length - from))
        const withRepeat = [...changes.slice(0, at), changes[from]!, ...changes.slice(at)]
        const again = planBatch({ nodes: before, lookup: b.lookup, nextSeq: count, changes: withRepeat })
        assert.ok(again.ok, `the batch with change ${from} repeated at ${at} plans`)
        const unshift = (i: number) => (i > at ? i - 1 : i)
        const comparable = (plan: BatchPlan, index: (i: number) => number) => plan.writes.map((w) => ({ ...w, changeIndexes: w.changeIndexes.filter((i) => plan === p || i !== at).map(index) }))
        assert.deepEqual(comparable(again.plan, unshift), comparable(p, (i) => i), `change ${from} repeated at ${at}: the same writes`)
        assert.equal(again.plan.writeOfChange[at], p.writeOfChange[from])
        assert.deepEqual(again.plan.writeOfChange.filter((_, i) => i !== at), p.writeOfChange)
        assert.deepEqual([again.plan.nodes, again.plan.removedSeqs, again.plan.restoredSeqs], [p.nodes, p.removedSeqs, p.restoredSeqs])
      }),
      { numRuns: 300 },
    )
  })

  it('leaves every message the fate the same changes one by one leave it, exclusions of the log and of the batch next to removals included', () => {
    /**
     * The changes one by one through the single planners: the ones that apply, in order. A change
     * one by one refuses (its target an earlier change already took) is skipped: the batch joins
     * such a change instead (see the merge rules), so it has no one-by-one answer to compare with.
     */
    const oneByOne = (b: LogBuilder, changes: readonly BatchChange[]): BatchChange[] => {
      const applied: BatchChange[] = []
      for (const change of changes) {
        if (change.action === 'restore') {
          const planned = planRestore({ nodes: b.nodes, lookup: b.lookup, tombstoneSeq: change.tombstoneSeq })
          if (!planned.ok) continue
          appendRestore(b.session, planned.plan)
        } else {
          const planned = planRemoval({ nodes: b.nodes, lookup: b.lookup, planning: removalPlanning(change.action), target: { seq: change.seq } })
          if (!planned.ok) continue
          appendTombstone(b.session, { action: change.action, start: planned.plan.start, end: planned.plan.end, shadowedSeqs: planned.plan.shadowedSeqs })
        }
        applied.push(change)
      }
      return applied
    }
    const fatesOf = (b: LogBuilder) => {
      const fates = readFates(b.events as readonly LogEvent[])
      return b.events.filter((e) => e.surfaceOp === 'append').map((e) => `${e.seq}:${fates.fateOf(e.seq).state}`)
    }
    fc.assert(
      fc.property(fc.array(turnShape, { minLength: 1, maxLength: 4 }), fc.array(exclusionsFirst, { maxLength: 5 }), fc.array(besideShape, { minLength: 1, maxLength: 6 }), (turns, extras, shapes) => {
        const single = buildLog(turns, extras)
        const before = single.nodes
        const count = single.session.seq
        const changes = besideChanges(single, shapes)
        const applied = oneByOne(single, changes)
        const batched = buildLog(turns, extras)
        assert.equal(batched.session.seq, count, 'the same log again')
        const result = planBatch({ nodes: before, lookup: batched.lookup, nextSeq: count, changes: applied })
        if (!result.ok) assert.fail(`the changes one by one apply, the batch refuses: ${describeBatchRefusal(result.refusal, describePlanRefusal)}`)
        appendBatch(batched.session, result.plan, applied)
        assert.deepEqual(fatesOf(batched), fatesOf(single), `changes ${JSON.stringify(applied)}`)
      }),
      { numRuns: 300 },
    )
  })

  it('plans a batch only when every removal targets the surface; offSurfaceSeqs names exactly the seqs the surface lacks', () => {
    // The batch `plan` preview relies on the first: it looks for folded changes only after the planner refused.
    fc.assert(
      fc.property(fc.array(turnShape, { minLength: 1, maxLength: 5 }), fc.array(extra, { maxLength: 4 }), fc.array(fc.record({ action: fc.constantFrom('delete' as const, 'deleteFrom' as const, 'exclude' as const), pick: fc.nat() }), { minLength: 1, maxLength: 8 }), (turns, extras, shapes) => {
        const b = buildLog(turns, extras)
        const nodes = b.nodes
        // Any seq of the log, on the surface or not (shadowed by a compaction or a removal), and one past it.
        const changes: BatchChange[] = shapes.map((s) => ({ action: s.action, seq: s.pick % (b.session.seq + 1) }))
        const surface = new Set(nodes)
        assert.deepEqual([...offSurfaceSeqs(nodes, changes)].sort((x, y) => x - y), [...new Set(changes.map((c) => (c as { seq: number }).seq).filter((seq) => !surface.has(seq)))].sort((x, y) => x - y))
        const result = planBatch({ nodes, lookup: b.lookup, nextSeq: b.session.seq, changes })
        if (result.ok) assert.equal(offSurfaceSeqs(nodes, changes).size, 0)
      }),
      { numRuns: 300 },
    )
  })
})
