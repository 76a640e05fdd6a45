/**
 * The pure removal planner over realistic rc.8 logs built through the real `Session`:
 * multi-tool steps, steering messages, runtime context, pruned tool results, compaction
 * checkpoints and earlier tombstones. Pins the ranges (in surface order), the refusals with
 * their facts and messages, and one log-level law: a successful plan never leaves a tool call
 * without its result, and the real Session accepts the tombstone written from it.
 */
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import fc from 'fast-check'
import { createUserMessage } from '@deepseek-ai/dsh-llm'
import { foldSurface, type SessionEvent } from '@deepseek-ai/dsh-session'
import { toolPairingBalancedAfter, toolPairingBalancedBefore } from '@deepseek-ai/dsh-compaction'
import { describePlanRefusal, planRemoval, positionOf, quotedMessageId, type PlanRefusal, type PlanResult, type PlanTarget } from '../../src/host/surface-plan'
import type { RemovalAction } from '../../src/shared/actions'
import { appendTombstone } from '../../src/host/tombstone-append'
import { LogBuilder } from './log-builder'
import { action, buildLog, extra, pairingProblems, turnShape } from './random-logs'
import { removalPlanning } from '../../src/shared/actions'

function plan(b: LogBuilder, action: RemovalAction, target: PlanTarget | number): PlanResult {
  return planRemoval({ nodes: b.nodes, lookup: b.lookup, planning: removalPlanning(action), target: typeof target === 'number' ? { seq: target } : target })
}

function ok(result: PlanResult) {
  if (!result.ok) assert.fail(`expected a plan, got ${describePlanRefusal(result.refusal)}`)
  return result.plan
}

function refused(result: PlanResult): PlanRefusal {
  if (result.ok) assert.fail(`expected a refusal, got the plan [${result.plan.start}, ${result.plan.end}]`)
  return result.refusal
}

/** Three turns: a two-call step plus a steered reply; a one-call step plus a reply; a plain reply. */
function threeTurns() {
  const b = new LogBuilder()
  const t1 = b.turn('first prompt', [{ text: 'Reading two files.', calls: ['a', 'b'] }, { text: 'Both files read.', steer: 'also check c' }], { context: true })
  const t2 = b.turn('second prompt', [{ text: 'Reading one file.', calls: ['c'] }, { text: 'Done with c.' }])
  const t3 = b.turn('third prompt', [{ text: 'Plain reply.' }])
  const context = t1.prompt + 1
  const steer = t1.steps[1]!.assistant - 1
  return { b, t1, t2, t3, context, steer }
}

describe('planRemoval: ranges', () => {
  it('recalls and deletes a prompt alone', () => {
    const { b, t2 } = threeTurns()
    for (const action of ['recall', 'delete'] as const) {
      const p = ok(plan(b, action, t2.prompt))
      assert.deepEqual([p.start, p.end, p.shadowedSeqs, p.nodeKinds, p.stepKey], [t2.prompt, t2.prompt, [t2.prompt], ['user'], null])
      assert.equal(p.startIdx, b.nodes.indexOf(t2.prompt))
      assert.equal(p.endIdx, p.startIdx)
    }
  })

  it('deletes a steering message alone, leaving both steps around it', () => {
    const { b, steer } = threeTurns()
    const p = ok(plan(b, 'delete', steer))
    assert.deepEqual(p.shadowedSeqs, [steer])
  })

  it('deletes the whole step of a multi-tool answer from any of its rows', () => {
    const { b, t1 } = threeTurns()
    const [step] = t1.steps
    const whole = [step!.assistant, ...step!.results]
    for (const target of whole) {
      const p = ok(plan(b, 'delete', target))
      assert.deepEqual(p.shadowedSeqs, whole, `target ${target}`)
      assert.deepEqual(p.nodeKinds, ['assistant', 'tool', 'tool'])
      assert.deepEqual(p.stepKey, { turn: 1, step: 1 })
    }
  })

  it('deletes a text-only answer alone', () => {
    const { b, t3 } = threeTurns()
    assert.deepEqual(ok(plan(b, 'delete', t3.steps[0]!.assistant)).shadowedSeqs, [t3.steps[0]!.assistant])
  })

  it('widens delete-onward from a tool row back to the start of its step', () => {
    const { b, t1 } = threeTurns()
    const last = b.nodes.at(-1)!
    for (const target of t1.steps[0]!.results) {
      const p = ok(plan(b, 'deleteFrom', target))
      assert.equal(p.start, t1.steps[0]!.assistant)
      assert.equal(p.end, last)
      assert.deepEqual(p.shadowedSeqs, b.nodes.slice(b.nodes.indexOf(t1.steps[0]!.assistant)))
      assert.deepEqual(p.stepKey, { turn: 1, step: 1 })
    }
  })

  it('starts delete-onward at a steering message without touching the step before it', () => {
    const { b, steer } = threeTurns()
    const p = ok(plan(b, 'deleteFrom', steer))
    assert.equal(p.start, steer)
    assert.equal(p.stepKey, null)
  })

  it('addresses a node by message id', () => {
    const { b, t2 } = threeTurns()
    const id = (b.events[t2.prompt]!.data as { id: string }).id
    assert.deepEqual(ok(plan(b, 'recall', { messageId: id })).shadowedSeqs, [t2.prompt])
  })

  it('takes a pruned tool result (a content-only tool/result replace) with its step', () => {
    const { b, t1 } = threeTurns()
    const [a, bb] = t1.steps[0]!.results
    const pruned = b.prune(a!)
    const p = ok(plan(b, 'delete', bb!))
    assert.deepEqual(p.shadowedSeqs, [t1.steps[0]!.assistant, pruned, bb])
    // The pruned replacement reuses the original message id; only the replacement is on the surface.
    const id = (b.events[pruned]!.data as { message: { id: string } }).message.id
    assert.deepEqual(ok(plan(b, 'delete', { messageId: id })).shadowedSeqs, [t1.steps[0]!.assistant, pruned, bb])
  })

  it('absorbs an adjacent earlier tombstone, so the range runs from a high seq to a lower one in surface order', () => {
    const { b, t2 } = threeTurns()
    const tomb = b.tombstone('delete', t2.prompt, t2.prompt)
    const step = t2.steps[0]!
    const p = ok(plan(b, 'delete', step.assistant))
    assert.deepEqual(p.shadowedSeqs, [tomb, step.assistant, ...step.results])
    assert.deepEqual(p.absorbedTombstoneSeqs, [tomb])
    assert.ok(p.start > p.end, 'start is numerically after end')
    appendTombstone(b.session, { ...p, action: 'delete' }, '')
    assert.deepEqual(foldSurface(b.session.events).nodes, [...b.session.surface.nodes])
  })

  it('absorbs tombstones on both sides of a prompt', () => {
    const b = new LogBuilder()
    const t1 = b.turn('one', [{ text: 'r1' }])
    const t2 = b.turn('two', [{ text: 'r2' }])
    const t3 = b.turn('three', [{ text: 'r3' }])
    const before = b.tombstone('delete', t1.steps[0]!.assistant, t1.steps[0]!.assistant)
    const after = b.tombstone('delete', t2.steps[0]!.assistant, t2.steps[0]!.assistant)
    const p = ok(plan(b, 'recall', t2.prompt))
    assert.deepEqual(p.shadowedSeqs, [before, t2.prompt, after])
    assert.deepEqual(p.nodeKinds, ['tombstone', 'user', 'tombstone'])
    assert.ok(b.nodes.includes(t3.prompt))
  })

  it('plans around a compaction checkpoint and lets delete-onward start right after it', () => {
    const { b, t1, t2 } = threeTurns()
    const checkpoint = b.checkpoint(t1.prompt, t1.steps[1]!.assistant)
    assert.deepEqual(b.nodes.slice(0, 2), [checkpoint, t2.prompt])
    const p = ok(plan(b, 'deleteFrom', t2.prompt))
    assert.equal(p.startIdx, 1)
    assert.ok(!p.shadowedSeqs.includes(checkpoint))
  })

  it('deletes an answer whose call was never answered on the surface together with what is there', () => {
    const b = new LogBuilder()
    b.startTurn().startStep()
    b.user('prompt')
    const asst = b.assistant('calling two', ['x', 'y'])
    const rx = b.result('x', 'x result')
    b.endTurn()
    assert.deepEqual(ok(plan(b, 'delete', asst)).shadowedSeqs, [asst, rx])
  })
})

describe('planRemoval: refusals', () => {
  /** Builds a fixture and names the target; returns the seq or message id to address. */
  type Case = [label: string, action: RemovalAction, target: (f: ReturnType<typeof threeTurns>) => PlanTarget, code: PlanRefusal['code'], message: (f: ReturnType<typeof threeTurns>) => string]
  const cases: Case[] = [
    ['recall of an AI answer', 'recall', (f) => ({ seq: f.t1.steps[0]!.assistant }), 'NOT_A_USER_MESSAGE',
      (f) => `message-recall: seq ${f.t1.steps[0]!.assistant} is an assistant node, not a message the person sent; only those can be recalled`],
    ['recall of a tool result', 'recall', (f) => ({ seq: f.t1.steps[0]!.results[0]! }), 'NOT_A_USER_MESSAGE',
      (f) => `message-recall: seq ${f.t1.steps[0]!.results[0]} is a tool node, not a message the person sent; only those can be recalled`],
    ['recall of runtime context', 'recall', (f) => ({ seq: f.context }), 'NOT_A_USER_MESSAGE',
      (f) => `message-recall: seq ${f.context} is a context node, not a message the person sent; only those can be recalled`],
    ['delete of runtime context', 'delete', (f) => ({ seq: f.context }), 'NOT_DELETABLE',
      (f) => `message-recall: seq ${f.context} cannot be removed: it is the agent loop's runtime context, which the loop injects again at the next step once it is gone`],
    ['delete-onward from runtime context', 'deleteFrom', (f) => ({ seq: f.context }), 'NOT_DELETABLE',
      (f) => `message-recall: seq ${f.context} cannot be removed: it is the agent loop's runtime context, which the loop injects again at the next step once it is gone`],
    ['an unknown seq', 'delete', () => ({ seq: 99999 }), 'TARGET_NOT_FOUND', () => 'message-recall: target seq 99999 is not on the current surface'],
    ['a log-only event (turn/start)', 'delete', () => ({ seq: 1 }), 'TARGET_NOT_FOUND', () => 'message-recall: target seq 1 is not on the current surface'],
    ['a tool/call (log-only)', 'delete', (f) => ({ seq: f.t1.steps[0]!.results[0]! - 1 }), 'TARGET_NOT_FOUND',
      (f) => `message-recall: target seq ${f.t1.steps[0]!.results[0]! - 1} is not on the current surface`],
    ['an unknown message id', 'delete', () => ({ messageId: 'no-such-id' }), 'TARGET_NOT_FOUND', () => 'message-recall: no current surface node carries message id "no-such-id"'],
  ]
  for (const [label, action, target, code, message] of cases) {
    it(`${action}: refuses ${label} with ${code}`, () => {
      const f = threeTurns()
      const count = f.b.session.seq
      const refusal = refused(planRemoval({ nodes: f.b.nodes, lookup: f.b.lookup, planning: removalPlanning(action), target: target(f) }))
      assert.equal(refusal.code, code)
      assert.equal(describePlanRefusal(refusal), message(f))
      assert.equal(f.b.session.seq, count, 'planning appends nothing')
    })
  }

  it('refuses a node already shadowed by an earlier tombstone, and the tombstone itself', () => {
    const { b, t2 } = threeTurns()
    const tomb = b.tombstone('delete', t2.prompt, t2.prompt)
    assert.deepEqual(refused(plan(b, 'delete', t2.prompt)), { code: 'TARGET_NOT_FOUND', target: { seq: t2.prompt }, reason: 'not-on-surface', matchingSeqs: [] })
    assert.deepEqual(refused(plan(b, 'delete', tomb)), { code: 'NOT_DELETABLE', seq: tomb, nodeKind: 'tombstone' })
    assert.equal(describePlanRefusal(refused(plan(b, 'deleteFrom', tomb))), `message-recall: seq ${tomb} cannot be removed: it is a tombstone of this plugin, which stands for messages already removed; a restore or a copy from before it undoes it`)
    assert.equal(describePlanRefusal(refused(plan(b, 'recall', tomb))), `message-recall: seq ${tomb} is a tombstone node, not a message the person sent; only those can be recalled`)
  })

  it('refuses the compaction checkpoint and the nodes it folded', () => {
    const { b, t1 } = threeTurns()
    const checkpoint = b.checkpoint(t1.prompt, t1.steps[1]!.assistant)
    assert.deepEqual(refused(plan(b, 'delete', checkpoint)), { code: 'NOT_DELETABLE', seq: checkpoint, nodeKind: 'checkpoint' })
    assert.deepEqual(refused(plan(b, 'deleteFrom', checkpoint)), { code: 'NOT_DELETABLE', seq: checkpoint, nodeKind: 'checkpoint' })
    assert.equal(refused(plan(b, 'recall', t1.prompt)).code, 'TARGET_NOT_FOUND')
  })

  it("refuses another plugin's replacement marker", () => {
    const { b, t2 } = threeTurns()
    const marker = createUserMessage({ content: [], source: { kind: 'user', producer: 'message-recall', removed: [t2.prompt] } as never })
    const seq = b.session.append('user/message', marker, { surfaceOp: { op: 'replace', start: t2.prompt, end: t2.prompt }, sourceEventSeqs: [t2.prompt] }).seq
    assert.deepEqual(refused(plan(b, 'delete', seq)), { code: 'NOT_DELETABLE', seq, nodeKind: 'replacement' })
  })

  it('refuses an ambiguous message id with every matching seq', () => {
    const b = new LogBuilder()
    b.startTurn().startStep()
    const message = createUserMessage({ content: [{ type: 'text', text: 'twice' }], source: { kind: 'user' } })
    const first = b.session.append('user/message', message, { surfaceOp: 'append' }).seq
    const second = b.session.append('user/message', message, { surfaceOp: 'append' }).seq
    const refusal = refused(plan(b, 'delete', { messageId: message.id }))
    assert.deepEqual(refusal, { code: 'TARGET_NOT_FOUND', target: { messageId: message.id }, reason: 'ambiguous-message-id', matchingSeqs: [first, second] })
    assert.equal(describePlanRefusal(refusal), `message-recall: message id "${message.id}" is carried by 2 surface nodes (seqs ${first}, ${second}); address one by seq`)
  })

  it('refuses a step with a foreign node between its call and a result, and widens delete-onward from that node', () => {
    const b = new LogBuilder()
    b.startTurn().startStep()
    b.user('prompt')
    const asst = b.assistant('calling two', ['x', 'y'])
    const rx = b.result('x', 'x result')
    const foreign = b.user('typed while the tools ran')
    const ry = b.result('y', 'y result')
    b.endTurn()
    for (const target of [asst, rx, ry]) {
      const refusal = refused(plan(b, 'delete', target))
      assert.deepEqual(refusal, { code: 'SPAN_NOT_CONTIGUOUS', seq: target, turn: 1, step: 1, foreignSeq: foreign })
      assert.equal(describePlanRefusal(refusal), `message-recall: turn 1 step 1 of seq ${target} is not contiguous on the surface: seq ${foreign} sits inside it`)
    }
    // Deleting the foreign node alone splits nothing; delete-onward from it must take the call too.
    assert.deepEqual(ok(plan(b, 'delete', foreign)).shadowedSeqs, [foreign])
    assert.deepEqual(ok(plan(b, 'deleteFrom', foreign)).shadowedSeqs, [asst, rx, foreign, ry])
  })
})

// ---------------------------------------------------------------------------------------------
// Property: any generated log, any target, any action.

describe('quotedMessageId', () => {
  it('quotes an id up to 80 code units whole, a longer one cut with … and its length, never half a surrogate pair', () => {
    assert.equal(quotedMessageId('a'.repeat(80)), `"${'a'.repeat(80)}"`)
    assert.equal(quotedMessageId('a'.repeat(512)), `"${'a'.repeat(80)}…" (512 characters)`)
    // An emoji (two code units) across the cut is left out whole.
    assert.equal(quotedMessageId(`${'a'.repeat(79)}😀${'b'.repeat(10)}`), `"${'a'.repeat(79)}…" (91 characters)`)
    assert.equal(quotedMessageId(`${'a'.repeat(78)}😀${'b'.repeat(10)}`), `"${'a'.repeat(78)}😀…" (90 characters)`)
  })
})

describe('planRemoval: property', () => {
  it('never splits a tool call from its result, and the real Session accepts every planned tombstone', () => {
    fc.assert(
      fc.property(fc.array(turnShape, { minLength: 1, maxLength: 5 }), fc.array(extra, { maxLength: 4 }), action, fc.nat(), fc.boolean(), (turns, extras, act, pick, onSurface) => {
        const b = buildLog(turns, extras)
        assert.deepEqual(pairingProblems(b), [], 'the generated log starts balanced')
        const nodes = b.nodes
        const seq = onSurface && nodes.length > 0 ? nodes[pick % nodes.length]! : pick % (b.session.seq + 3)
        const count = b.session.seq
        const result = planRemoval({ nodes, lookup: b.lookup, planning: removalPlanning(act), target: { seq } })
        assert.equal(b.session.seq, count)
        if (!result.ok) {
          if (result.refusal.code === 'TARGET_NOT_FOUND') assert.ok(!nodes.includes(seq))
          return
        }
        const p = result.plan
        assert.deepEqual(p.shadowedSeqs, nodes.slice(p.startIdx, p.endIdx + 1))
        assert.ok(p.shadowedSeqs.includes(seq))
        if (act === 'deleteFrom') assert.equal(p.endIdx, nodes.length - 1)
        const generation = b.session.surface.replaceGeneration
        const tombstone = appendTombstone(b.session, { ...p, action: act }, '')
        assert.equal(b.session.surface.replaceGeneration, generation + 1)
        assert.ok(p.shadowedSeqs.every((s) => !b.session.surface.nodes.includes(s)))
        assert.ok(b.session.surface.nodes.includes(tombstone.seq))
        assert.deepEqual(foldSurface(b.session.events as readonly SessionEvent[]).nodes, [...b.session.surface.nodes])
        assert.deepEqual(pairingProblems(b), [])
        // dsh-compaction's own balance fold accepts the surface (it throws on "corrupt surface").
        for (const s of b.session.surface.nodes) toolPairingBalancedBefore(b.session, s)
        assert.equal(toolPairingBalancedAfter(b.session, b.session.surface.nodes.at(-1)!), true)
      }),
      { numRuns: 300 },
    )
  })
})

describe('positionOf and searchFrom', () => {
  it('finds the same position as indexOf from any start, and the plan does not depend on searchFrom', () => {
    fc.assert(
      fc.property(fc.array(turnShape, { minLength: 1, maxLength: 5 }), fc.array(extra, { maxLength: 4 }), action, fc.nat(), fc.integer({ min: -5, max: 80 }), (turns, extras, act, pick, from) => {
        const b = buildLog(turns, extras)
        const nodes = b.nodes
        const seq = pick % (b.session.seq + 3)
        assert.equal(positionOf(nodes, seq, from), nodes.indexOf(seq))
        assert.deepEqual(planRemoval({ nodes, lookup: b.lookup, planning: removalPlanning(act), target: { seq }, searchFrom: from }), planRemoval({ nodes, lookup: b.lookup, planning: removalPlanning(act), target: { seq } }))
      }),
      { numRuns: 300 },
    )
  })
})
