/**
 * Session-reference snapshots in the pure planners, over logs built through the real `Session`
 * in the order the rc.8 agent loop appends a prompt that mentions another session: the prompt,
 * then the snapshot `dsh-session-reference` placed right after it. A snapshot can be removed on
 * its own (not recalled), it goes with the prompt that caused it (one tombstone per gap), also
 * when the prompt is a restoring copy and in a batch; the real Session accepts every tombstone and
 * the derived messages lack the snapshot's text. The refusal texts of the kinds that stay refused,
 * whole.
 */
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { createUserMessage } from '@deepseek-ai/dsh-llm'
import { foldSurface } from '@deepseek-ai/dsh-session'
import { planBatch } from '../../src/host/batch-plan'
import { appendBatch } from '../../src/host/batch-writer'
import { originalPromptSeq, snapshotCitedBy } from '../../src/host/reference-snapshot'
import { describeRestoreRefusal, planRestore } from '../../src/host/restore-plan'
import { appendRestore } from '../../src/host/restore-writer'
import { describePlanRefusal, planRemoval, type PlanResult } from '../../src/host/surface-plan'
import { appendTombstone } from '../../src/host/tombstone-append'
import { classifyNode } from '../../src/shared/surface-node'
import { removalPlanning, type RemovalAction } from '../../src/shared/actions'
import { LogBuilder } from './log-builder'

const CANARY = 'snapshot-canary-7f3a'

function plan(b: LogBuilder, action: RemovalAction, seq: number): PlanResult {
  return planRemoval({ nodes: b.nodes, lookup: b.lookup, planning: removalPlanning(action), target: { seq } })
}

function ok(result: PlanResult) {
  if (!result.ok) assert.fail(`expected a plan, got ${describePlanRefusal(result.refusal)}`)
  return result.plan
}

/** A plain turn, a turn whose prompt cites another session (with runtime context after the snapshot), a plain turn. */
function citing() {
  const b = new LogBuilder('reference-fixture')
  const t1 = b.turn('first prompt', [{ text: 'First answer.' }])
  const cite = b.citingTurn('compare with', 'Earlier work', CANARY, 'Compared.', { context: true })
  const t3 = b.turn('third prompt', [{ text: 'Third answer.' }])
  return { b, t1, cite, context: cite.snapshot + 1, t3 }
}

function derivedText(b: LogBuilder): string {
  return JSON.stringify(b.session.deriveMessages())
}

function assertReplays(b: LogBuilder): void {
  assert.deepEqual(foldSurface(b.session.events).nodes, b.session.surface.nodes)
}

describe('session-reference snapshots: what the planner takes', () => {
  it('classifies the snapshot as a reference, sitting right after its prompt', () => {
    const { b, cite } = citing()
    assert.equal(classifyNode(b.lookup(cite.snapshot)!), 'reference')
    assert.equal(cite.snapshot, cite.prompt + 1)
    const idx = b.nodes.indexOf(cite.prompt)
    assert.equal(snapshotCitedBy(b.nodes, b.lookup, idx), idx + 1)
    assert.equal(snapshotCitedBy(b.nodes, b.lookup, b.nodes.indexOf(cite.reply) - 1), -1, 'the runtime context is no prompt')
  })

  for (const action of ['recall', 'delete'] as const) {
    it(`${action} of the citing prompt takes its snapshot in one range, and the real Session accepts it`, () => {
      const { b, cite, context } = citing()
      assert.ok(derivedText(b).includes(CANARY))
      const p = ok(plan(b, action, cite.prompt))
      assert.deepEqual([p.start, p.end, p.shadowedSeqs, p.nodeKinds, p.targetSeq, p.targetNodeKind], [cite.prompt, cite.snapshot, [cite.prompt, cite.snapshot], ['user', 'reference'], cite.prompt, 'user'])
      appendTombstone(b.session, { ...p, action })
      assertReplays(b)
      const derived = derivedText(b)
      assert.ok(!derived.includes(CANARY), 'the snapshot left the derived messages')
      assert.ok(!derived.includes('compare with'), 'the prompt left the derived messages')
      assert.ok(b.nodes.includes(context), 'the runtime context after the snapshot stays')
    })
  }

  it('delete onward from the citing prompt covers the snapshot and everything after', () => {
    const { b, cite } = citing()
    const p = ok(plan(b, 'deleteFrom', cite.prompt))
    assert.deepEqual(p.shadowedSeqs, b.nodes.slice(b.nodes.indexOf(cite.prompt)))
    assert.equal(p.nodeKinds[1], 'reference')
  })

  it('deletes the snapshot alone, leaving its prompt; delete onward from it starts at it', () => {
    const { b, cite, context } = citing()
    const alone = ok(plan(b, 'delete', cite.snapshot))
    assert.deepEqual([alone.start, alone.end, alone.shadowedSeqs, alone.nodeKinds, alone.stepKey], [cite.snapshot, cite.snapshot, [cite.snapshot], ['reference'], null])
    const onward = ok(plan(b, 'deleteFrom', cite.snapshot))
    assert.deepEqual(onward.shadowedSeqs, b.nodes.slice(b.nodes.indexOf(cite.snapshot)))
    appendTombstone(b.session, { ...alone, action: 'exclude' })
    assertReplays(b)
    const derived = derivedText(b)
    assert.ok(!derived.includes(CANARY))
    assert.ok(derived.includes('compare with @Earlier work'), 'the prompt stays')
    assert.ok(b.nodes.includes(context))
  })

  it('refuses to recall the snapshot: it is not a message the person sent', () => {
    const { b, cite } = citing()
    const result = plan(b, 'recall', cite.snapshot)
    assert.ok(!result.ok)
    assert.deepEqual(result.refusal, { code: 'NOT_A_USER_MESSAGE', seq: cite.snapshot, nodeKind: 'reference' })
    assert.equal(describePlanRefusal(result.refusal), `message-recall: seq ${cite.snapshot} is a session-reference snapshot, not a message the person sent; only those can be recalled`)
  })

  it('a prompt deleted after its snapshot absorbs the snapshot\'s tombstone: one tombstone for the gap', () => {
    const { b, cite } = citing()
    const first = appendTombstone(b.session, { ...ok(plan(b, 'delete', cite.snapshot)), action: 'delete' }).seq
    const p = ok(plan(b, 'delete', cite.prompt))
    assert.deepEqual([p.shadowedSeqs, p.nodeKinds, p.absorbedTombstoneSeqs], [[cite.prompt, first], ['user', 'tombstone'], [first]])
  })

  it('a restoring copy of the prompt still takes the snapshot (its original seq is the snapshot\'s seq − 1)', () => {
    const { b, cite } = citing()
    // A tombstone over the prompt alone (as written before snapshots went with their prompt), then its restore.
    const lone = b.tombstone('delete', cite.prompt, cite.prompt)
    const restore = planRestore({ nodes: b.nodes, lookup: b.lookup, tombstoneSeq: lone })
    assert.ok(restore.ok)
    const copy = appendRestore(b.session, restore.plan).seq
    assert.equal(originalPromptSeq(b.lookup(copy)!, b.lookup), cite.prompt)
    const p = ok(plan(b, 'delete', copy))
    assert.deepEqual([p.shadowedSeqs, p.nodeKinds], [[copy, cite.snapshot], ['user', 'reference']])
    appendTombstone(b.session, { ...p, action: 'delete' })
    assertReplays(b)
    assert.ok(!derivedText(b).includes(CANARY))
  })

  it('a prompt without a mention takes nothing else, also when a snapshot of another prompt follows later', () => {
    const { b, t1 } = citing()
    assert.deepEqual(ok(plan(b, 'delete', t1.prompt)).shadowedSeqs, [t1.prompt])
  })

  it('a prompt and its snapshot come back only as a copy: restore in place says why', () => {
    const { b, cite } = citing()
    const tomb = appendTombstone(b.session, { ...ok(plan(b, 'delete', cite.prompt)), action: 'delete' }).seq
    const restore = planRestore({ nodes: b.nodes, lookup: b.lookup, tombstoneSeq: tomb })
    assert.ok(!restore.ok)
    assert.equal(describeRestoreRefusal(restore.refusal),
      `message-recall: tombstone seq ${tomb} cannot be undone in place: it shadows 2 messages (seqs ${cite.prompt}, ${cite.snapshot}); open a copy of the conversation from before it instead (action "forkBefore")`)
  })

  it('a batch delete of the prompt writes one tombstone over the prompt and its snapshot; deleting both merges into the same one', () => {
    for (const changes of [[{ action: 'delete' as const, seq: 0 }], [{ action: 'delete' as const, seq: 1 }, { action: 'delete' as const, seq: 0 }]]) {
      const { b, cite } = citing()
      const seqs = [cite.prompt, cite.snapshot]
      const list = changes.map((c) => ({ action: c.action, seq: seqs[c.seq]! }))
      const planned = planBatch({ nodes: b.nodes, lookup: b.lookup, nextSeq: b.session.seq, changes: list })
      assert.ok(planned.ok)
      assert.equal(planned.plan.writes.length, 1)
      const write = planned.plan.writes[0]!
      assert.ok(write.kind === 'tombstone')
      assert.deepEqual([write.shadowedSeqs, write.nodeKinds], [seqs, ['user', 'reference']])
      assert.deepEqual(planned.plan.removedSeqs, seqs)
      appendBatch(b.session, planned.plan, list)
      assertReplays(b)
      assert.ok(!derivedText(b).includes(CANARY))
    }
  })
})

describe('refusal texts of the kinds that stay refused', () => {
  it('runtime context: the loop injects it again', () => {
    const { b, context } = citing()
    for (const action of ['delete', 'deleteFrom'] as const) {
      const result = plan(b, action, context)
      assert.ok(!result.ok)
      assert.deepEqual(result.refusal, { code: 'NOT_DELETABLE', seq: context, nodeKind: 'context', producer: '@deepseek-ai/dsh-system-prompt' })
      assert.equal(describePlanRefusal(result.refusal),
        `message-recall: seq ${context} cannot be removed: it is the agent loop's runtime context, which the loop injects again at the next step once it is gone`)
    }
  })

  it('other injected context: names what injected it', () => {
    const b = new LogBuilder('instructions-fixture')
    b.startTurn().startStep()
    b.user('a prompt')
    const instructions = b.session.append('user/message', createUserMessage({
      content: [{ type: 'text', text: 'AGENTS.md changed' }],
      source: { kind: 'agent-instructions', form: 'instructions', changes: [{ path: 'AGENTS.md' }] } as never,
    }), { surfaceOp: 'append' }).seq
    b.assistant('Answer.')
    b.endTurn()
    const result = plan(b, 'delete', instructions)
    assert.ok(!result.ok)
    assert.equal(describePlanRefusal(result.refusal),
      `message-recall: seq ${instructions} cannot be removed: it is context that "agent-instructions" injected, not a message the person caused; only those and the model's steps can be removed`)
  })

  it('a tombstone, a compaction checkpoint and another plugin\'s replacement', () => {
    const { b, t1, t3 } = citing()
    const tomb = b.tombstone('delete', t3.prompt, t3.prompt)
    const checkpoint = b.checkpoint(t1.prompt, t1.steps[0]!.assistant)
    const marker = createUserMessage({ content: [], source: { kind: 'plugin', plugin: 'other-plugin' } as never })
    const last = b.nodes.at(-1)!
    const replacement = b.session.append('user/message', marker, { surfaceOp: { op: 'replace', start: last, end: last }, sourceEventSeqs: [last] }).seq
    const texts = [tomb, checkpoint, replacement].map((seq) => {
      const result = plan(b, 'delete', seq)
      assert.ok(!result.ok)
      return describePlanRefusal(result.refusal)
    })
    assert.deepEqual(texts, [
      `message-recall: seq ${tomb} cannot be removed: it is a tombstone of this plugin, which stands for messages already removed; a restore or a copy from before it undoes it`,
      `message-recall: seq ${checkpoint} cannot be removed: it is a compaction checkpoint, which stands for the messages compaction folded; they are no longer on the surface to remove`,
      `message-recall: seq ${replacement} cannot be removed: it is another plugin's surface replacement, which that plugin owns`,
    ])
  })
})
