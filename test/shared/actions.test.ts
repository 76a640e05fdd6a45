/**
 * The action table (`src/shared/actions.ts`) and what derives from it: the lists it yields (pinned
 * here once; every other test reads the table), the route's schemas that read them, the
 * dictionaries, and the planner keying on the planning shape rather than on action names.
 */
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import {
  ACTIONS, actionsOfferedOn, BATCH_ACTIONS, BATCH_REMOVAL_ACTIONS, isConfirmed, isTombstoneAction, REMOVAL_ACTIONS, removalPlanning,
  SURFACE_ACTIONS, TOMBSTONE_ACTIONS,
} from '../../src/shared/actions'
import { ROUTE_ACTIONS } from '../../src/shared/protocol'
import { en, zh } from '../../src/client/text/locales'
import { parseRouteRequest } from '../../src/host/request'
import { planRemoval } from '../../src/host/surface-plan'
import { LogBuilder } from '../host/log-builder'

describe('the action table', () => {
  it('yields the lists every schema, button cluster and count reads', () => {
    assert.deepEqual(SURFACE_ACTIONS, ['recall', 'delete', 'deleteFrom', 'exclude', 'restore'])
    assert.deepEqual(TOMBSTONE_ACTIONS, ['recall', 'delete', 'deleteFrom', 'exclude'])
    assert.deepEqual(REMOVAL_ACTIONS, ['recall', 'delete', 'deleteFrom'])
    assert.deepEqual(BATCH_ACTIONS, ['delete', 'deleteFrom', 'exclude', 'restore'])
    assert.deepEqual(BATCH_REMOVAL_ACTIONS, ['delete', 'deleteFrom', 'exclude'])
    assert.deepEqual(SURFACE_ACTIONS.filter(isConfirmed), ['delete', 'deleteFrom', 'exclude'])
    assert.deepEqual(actionsOfferedOn('prompt'), ['recall', 'delete', 'deleteFrom', 'exclude'])
    assert.deepEqual(actionsOfferedOn('message'), ['delete', 'deleteFrom', 'exclude'])
    assert.deepEqual(actionsOfferedOn('excluded'), ['restore'])
    assert.deepEqual(ROUTE_ACTIONS, ['recall', 'delete', 'deleteFrom', 'exclude', 'restore', 'forkBefore', 'flush', 'plan', 'apply', 'inspect', 'erase', 'cancelErase', 'pendingErases', 'editSummary', 'undoRewrite', 'rewriteSummary'])
    assert.deepEqual(SURFACE_ACTIONS.map((a) => [a, ACTIONS[a].plans, ACTIONS[a].effect]), [
      ['recall', 'message', 'removed'], ['delete', 'step', 'removed'], ['deleteFrom', 'onward', 'removed'], ['exclude', 'step', 'excluded'], ['restore', 'restore', 'restored'],
    ])
    assert.equal(isTombstoneAction('restore'), false)
    assert.equal(isTombstoneAction('toString'), false, 'only the table\'s own keys')
  })

  it('names only keys both dictionaries hold, the counted ones with their .one and .other forms', () => {
    const counted = new Set(['armedLabel', 'undo', 'unsaved'])
    const missing: string[] = []
    for (const action of SURFACE_ACTIONS) {
      for (const [field, key] of Object.entries(ACTIONS[action].texts) as [string, string][]) {
        const keys = counted.has(field) ? [`${key}.one`, `${key}.other`] : [key]
        for (const k of keys) if (!(k in zh) || !(k in en)) missing.push(`${action}.${field}: ${k}`)
      }
    }
    assert.deepEqual(missing, [])
  })

  it('drives the route\'s schemas: the batch changes and planAction lists in their refusals', () => {
    const refused = (body: unknown) => {
      const parsed = parseRouteRequest(body)
      assert.ok(!parsed.ok)
      return parsed.refusal.message
    }
    assert.equal(refused({ sessionId: 's', action: 'apply', changes: [{ action: 'recall', seq: 1 }] }),
      'message-recall: changes[0].action must be one of delete, deleteFrom, exclude, restore, got "recall"')
    assert.equal(refused({ sessionId: 's', action: 'plan', planAction: 'restore', seq: 1 }),
      'message-recall: planAction must be one of recall, delete, deleteFrom, exclude, rewriteSummary, erase, got "restore"')
    assert.equal(refused({ sessionId: 's', action: 'purge', seq: 1 }),
      'message-recall: action must be one of recall, delete, deleteFrom, exclude, restore, forkBefore, flush, plan, apply, inspect, erase, cancelErase, pendingErases, editSummary, undoRewrite, rewriteSummary, got "purge"')
    assert.equal(refused({ sessionId: 's', action: 'erase', seq: 1 }), 'message-recall: erase takes no seq (fields of erase: sessionId, action, tombstoneSeq, when); address the tombstone by tombstoneSeq')
    assert.deepEqual(parseRouteRequest({ sessionId: 's', action: 'erase', tombstoneSeq: 4 }), { ok: true, request: { action: 'erase', sessionId: 's', tombstoneSeq: 4 } })
    const restore = parseRouteRequest({ sessionId: 's', action: 'restore', tombstoneSeq: 4, expect: { lastSeq: 9, removedCount: 0 } })
    assert.deepEqual(restore, { ok: true, request: { action: 'restore', sessionId: 's', tombstoneSeq: 4, expect: { lastSeq: 9, removedCount: 0 } } })
  })
})

describe('the planner keys on the planning shape', () => {
  const fixture = () => {
    const b = new LogBuilder('shapes')
    const t1 = b.turn('first prompt', [{ text: 'Reading.', calls: ['a', 'b'] }, { text: 'First reply.' }])
    const t2 = b.turn('second prompt', [{ text: 'Second reply.' }])
    return { b, t1, t2 }
  }

  it('plans a new action of the step shape like delete: a tool result takes its whole model step, so no tool call is split', () => {
    const { b, t1 } = fixture()
    const step = t1.steps[0]!
    const target = { seq: step.results[1]! }
    const asNew = planRemoval({ nodes: b.nodes, lookup: b.lookup, planning: { plans: 'step', targets: 'message' }, target })
    const asDelete = planRemoval({ nodes: b.nodes, lookup: b.lookup, planning: removalPlanning('delete'), target })
    assert.ok(asNew.ok && asDelete.ok)
    assert.deepEqual(asNew.plan.shadowedSeqs, [step.assistant, ...step.results])
    assert.deepEqual(asNew, asDelete)
  })

  it('plans exclude exactly like delete (one shape), and recall only on a message the person sent', () => {
    const { b, t1, t2 } = fixture()
    for (const seq of [t1.prompt, t1.steps[0]!.results[0]!, t1.steps[1]!.assistant, t2.prompt]) {
      const plan = (action: 'delete' | 'exclude') => planRemoval({ nodes: b.nodes, lookup: b.lookup, planning: removalPlanning(action), target: { seq } })
      assert.deepEqual(plan('exclude'), plan('delete'), `seq ${seq}`)
    }
    const answer = t1.steps[1]!.assistant
    assert.deepEqual(planRemoval({ nodes: b.nodes, lookup: b.lookup, planning: removalPlanning('recall'), target: { seq: answer } }),
      { ok: false, refusal: { code: 'NOT_A_USER_MESSAGE', seq: answer, nodeKind: 'assistant' } })
  })
})
