/**
 * A confirmed write writes exactly what was confirmed, over real HTTP in the real rc.8 composition
 * (agent loop, JSONL persistence, invariant companions, the plugin): a Restore landing inside a
 * planned Delete-onward range (single and batch) refuses the confirmed write with `STALE_VIEW`,
 * saying what changed, and appends nothing; a count that never matched its plan, larger or smaller,
 * is refused (single and batch, with or without a view) without claiming the surface changed; a
 * confirmed Delete onward that another tab's delete made smaller lands, while a restore or a delete
 * elsewhere after the plan lets no smaller count pass; two quick deletes planned
 * on one view from two clients, each sent back with its confirmed count, both land.
 */
import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import type { Agent } from '@deepseek-ai/dsh-agent'
import { foldSurface, type Session } from '@deepseek-ai/dsh-session'
import { bootDshApp, type DshApp, type HttpReply } from '../support/dsh-app'
import { conversationLog, syntheticTurns } from '../support/conversation'
import type { LogEvent } from '../../src/shared/events'
import { isTombstoneEvent, readTombstone } from '../../src/shared/tombstone'

/** The surface node whose event has type `type` and whose data mentions `text`. */
function node(session: Session, type: string, text: string): number {
  const hits = session.surface.nodes.filter((seq) => session.events[seq]!.type === type && JSON.stringify(session.events[seq]!.data).includes(text))
  assert.equal(hits.length, 1, `exactly one ${type} surface node mentions ${JSON.stringify(text)}: ${hits}`)
  return hits[0]!
}

/** The messages among `seqs`: every seq whose event is not a tombstone of this plugin. */
function messagesAmong(session: Session, seqs: readonly number[]): number[] {
  return seqs.filter((seq) => !isTombstoneEvent(session.events[seq] as LogEvent))
}

function ok(reply: HttpReply): Record<string, any> {
  assert.equal(reply.status, 200, reply.text)
  return reply.json.value
}

let app: DshApp
before(async () => {
  app = await bootDshApp({ recall: {}, persistence: {} })
})
after(async () => {
  await app?.dispose()
})

/** An agent with three turns (prompt, a two-call tool step, a reply), prompt #2 recalled: its tombstone can be restored in place. */
async function withRecalledPrompt(): Promise<{ agent: Agent; session: Session; tombstoneSeq: number; prompt2: number }> {
  const agent = await app.createAgent({ seed: conversationLog(syntheticTurns(3, { toolSteps: 1, toolsPerStep: 2 })) })
  const session = agent.session
  const prompt2 = node(session, 'user/message', 'prompt #2')
  const recalled = ok(await app.post({ sessionId: agent.id, action: 'recall', seq: prompt2 }))
  return { agent, session, tombstoneSeq: recalled.tombstoneSeq, prompt2 }
}

describe('a confirmed write', () => {
  it('refuses a confirmed Delete onward with STALE_VIEW when a restore put a message back inside its range, appending nothing', async () => {
    const { agent, session, tombstoneSeq, prompt2 } = await withRecalledPrompt()
    const reply1 = node(session, 'assistant/message', 'reply #1')
    const plan = ok(await app.post({ sessionId: agent.id, action: 'plan', planAction: 'deleteFrom', seq: reply1 }))
    const onward = session.surface.nodes.slice(session.surface.nodes.indexOf(reply1))
    assert.deepEqual(plan.shadowedSeqs, onward, 'the plan covers everything from reply #1, the recall tombstone included')
    const confirmed = messagesAmong(session, onward).length
    assert.equal(plan.removedCount, confirmed, 'the count leaves out the recall tombstone')
    assert.equal(onward.length, confirmed + 1)

    // Another tab restores the recalled prompt: its copy lands inside the planned range.
    const restored = ok(await app.post({ sessionId: agent.id, action: 'restore', tombstoneSeq }))
    assert.equal(restored.originalSeq, prompt2)
    const before = session.seq
    const expect = { replaceGeneration: plan.replaceGeneration, lastSeq: plan.lastSeq, removedCount: plan.removedCount }
    const refused = await app.post({ sessionId: agent.id, action: 'deleteFrom', seq: reply1, expect })
    assert.equal(refused.status, 409, refused.text)
    assert.deepEqual(refused.json, { ok: false, error: {
      code: 'STALE_VIEW',
      message: `message-recall: the confirmed plan removes ${confirmed} messages, but the surface changed since seq ${plan.lastSeq} and this write would now remove ${confirmed + 1} (seq ${restored.restoredSeq} came back by a restore after the plan)`,
    } })
    assert.equal(session.seq, before, 'nothing appended')
    assert.ok(session.surface.nodes.includes(restored.restoredSeq), 'the restored prompt stays')

    // Planned again, the six-message removal is what is confirmed, and it lands.
    const again = ok(await app.post({ sessionId: agent.id, action: 'plan', planAction: 'deleteFrom', seq: reply1 }))
    assert.equal(again.removedCount, confirmed + 1)
    const onSurface = [...session.surface.nodes]
    const written = ok(await app.post({ sessionId: agent.id, action: 'deleteFrom', seq: reply1, expect: { replaceGeneration: again.replaceGeneration, lastSeq: again.lastSeq, removedCount: again.removedCount } }))
    assert.deepEqual(written.shadowedSeqs, onSurface.slice(onSurface.indexOf(reply1)), 'every node from reply #1 on, the restored prompt among them')
    assert.deepEqual(foldSurface(session.events).nodes, [...session.surface.nodes])
  })

  it('refuses a confirmed batch the same way: apply with the plan\'s count after a restore inside its Delete onward', async () => {
    const { agent, session, tombstoneSeq } = await withRecalledPrompt()
    const reply1 = node(session, 'assistant/message', 'reply #1')
    const changes = [{ action: 'deleteFrom', seq: reply1 }]
    const plan = ok(await app.post({ sessionId: agent.id, action: 'plan', changes }))
    const confirmed = messagesAmong(session, session.surface.nodes.slice(session.surface.nodes.indexOf(reply1))).length
    assert.equal(plan.removedSeqs.length, confirmed)
    const restored = ok(await app.post({ sessionId: agent.id, action: 'restore', tombstoneSeq }))
    const before = session.seq
    const refused = await app.post({ sessionId: agent.id, action: 'apply', changes, expect: { lastSeq: plan.lastSeq, removedCount: plan.removedSeqs.length } })
    assert.equal(refused.status, 409, refused.text)
    assert.deepEqual(refused.json, { ok: false, error: {
      code: 'STALE_VIEW',
      message: `message-recall: the confirmed plan removes ${confirmed} messages, but the surface changed since seq ${plan.lastSeq} and this write would now remove ${confirmed + 1} (seq ${restored.restoredSeq} came back by a restore after the plan)`,
    } })
    assert.equal(session.seq, before, 'nothing appended')
  })

  it('refuses a count that does not match its own plan on an unchanged session without saying the surface changed, single and batch', async () => {
    const agent = await app.createAgent({ seed: conversationLog(syntheticTurns(3, { toolSteps: 1, toolsPerStep: 2 })) })
    const session = agent.session
    const prompt2 = node(session, 'user/message', 'prompt #2')
    const plan = ok(await app.post({ sessionId: agent.id, action: 'plan', planAction: 'delete', seq: prompt2 }))
    assert.equal(plan.removedCount, 1)
    const before = session.seq
    const single = await app.post({ sessionId: agent.id, action: 'delete', seq: prompt2, expect: { lastSeq: plan.lastSeq, removedCount: 0 } })
    assert.equal(single.status, 409, single.text)
    assert.deepEqual(single.json, { ok: false, error: { code: 'STALE_VIEW', message: 'message-recall: the confirmed plan removes 0 messages, but this write removes 1' } })
    const noView = await app.post({ sessionId: agent.id, action: 'delete', seq: prompt2, expect: { removedCount: 0 } })
    assert.equal(noView.status, 409, noView.text)
    assert.deepEqual(noView.json, { ok: false, error: { code: 'STALE_VIEW', message: 'message-recall: the confirmed plan removes 0 messages, but this write removes 1' } })
    const changes = [{ action: 'delete', seq: prompt2 }]
    const batchPlan = ok(await app.post({ sessionId: agent.id, action: 'plan', changes }))
    assert.deepEqual(batchPlan.removedSeqs, [prompt2])
    const batch = await app.post({ sessionId: agent.id, action: 'apply', changes, expect: { lastSeq: batchPlan.lastSeq, removedCount: 0 } })
    assert.equal(batch.status, 409, batch.text)
    assert.deepEqual(batch.json, { ok: false, error: { code: 'STALE_VIEW', message: 'message-recall: the confirmed plan removes 0 messages, but this write removes 1' } })
    assert.equal(session.seq, before, 'nothing appended')
  })

  it('refuses a confirmed count larger or smaller than its own plan\'s, single and batch, with or without a view, appending nothing', async () => {
    const agent = await app.createAgent({ seed: conversationLog(syntheticTurns(3, { toolSteps: 1, toolsPerStep: 2 })) })
    const session = agent.session
    const prompt2 = node(session, 'user/message', 'prompt #2')
    const result2 = node(session, 'tool/result', 'result #2.1.1')
    const plan = ok(await app.post({ sessionId: agent.id, action: 'plan', planAction: 'delete', seq: prompt2 }))
    const stepPlan = ok(await app.post({ sessionId: agent.id, action: 'plan', planAction: 'exclude', seq: result2 }))
    assert.deepEqual([plan.removedCount, stepPlan.removedCount], [1, 3])
    const before = session.seq
    const views = [{ replaceGeneration: plan.replaceGeneration, lastSeq: plan.lastSeq }, { lastSeq: plan.lastSeq }, {}]
    for (const view of views) {
      for (const [action, seq, planned] of [['delete', prompt2, 1], ['exclude', result2, 3]] as const) {
        for (const removedCount of [planned + 1, planned - 1, planned + 5]) {
          const message = `message-recall: the confirmed plan removes ${removedCount} message${removedCount === 1 ? '' : 's'}, but this write removes ${planned}`
          const single = await app.post({ sessionId: agent.id, action, seq, expect: { ...view, removedCount } })
          assert.equal(single.status, 409, single.text)
          assert.deepEqual(single.json, { ok: false, error: { code: 'STALE_VIEW', message } }, `${action} confirmed as ${removedCount} with ${JSON.stringify(view)}`)
          const batch = await app.post({ sessionId: agent.id, action: 'apply', changes: [{ action, seq }], expect: { ...view, removedCount } })
          assert.equal(batch.status, 409, batch.text)
          assert.deepEqual(batch.json, { ok: false, error: { code: 'STALE_VIEW', message } }, `apply of ${action} confirmed as ${removedCount} with ${JSON.stringify(view)}`)
        }
      }
    }
    // Two changes in one batch: the confirmed count is the batch's, 4.
    const both = [{ action: 'delete', seq: prompt2 }, { action: 'exclude', seq: result2 }]
    const batchPlan = ok(await app.post({ sessionId: agent.id, action: 'plan', changes: both, detail: 'counts' }))
    assert.equal(batchPlan.removedCount, 4)
    const larger = await app.post({ sessionId: agent.id, action: 'apply', changes: both, expect: { lastSeq: batchPlan.lastSeq, removedCount: 5 } })
    assert.deepEqual([larger.status, larger.json.error?.message], [409, 'message-recall: the confirmed plan removes 5 messages, but this write removes 4'])
    assert.equal(session.seq, before, 'nothing appended')
    // The plan's own count lands.
    const written = ok(await app.post({ sessionId: agent.id, action: 'apply', changes: both, expect: { lastSeq: batchPlan.lastSeq, removedCount: batchPlan.removedCount } }))
    assert.deepEqual(written.results.map((r: { action: string }) => r.action), ['delete', 'exclude'])
  })

  it('lands a confirmed Delete onward that removes fewer because another tab removed one of its messages first', async () => {
    const agent = await app.createAgent({ seed: conversationLog(syntheticTurns(3, { toolSteps: 1, toolsPerStep: 2 })) })
    const session = agent.session
    const reply1 = node(session, 'assistant/message', 'reply #1')
    const prompt3 = node(session, 'user/message', 'prompt #3')
    const plan = ok(await app.post({ sessionId: agent.id, action: 'plan', planAction: 'deleteFrom', seq: reply1 }))
    const expect = { replaceGeneration: plan.replaceGeneration, lastSeq: plan.lastSeq, removedCount: plan.removedCount }
    // A delete of a message inside the range from another tab, a moment earlier.
    const other = ok(await app.post({ sessionId: agent.id, action: 'delete', seq: prompt3 }))
    assert.deepEqual(other.shadowedSeqs, [prompt3])
    const onSurface = [...session.surface.nodes]
    const written = ok(await app.post({ sessionId: agent.id, action: 'deleteFrom', seq: reply1, expect }))
    assert.equal(messagesAmong(session, written.shadowedSeqs).length, plan.removedCount - 1)
    assert.deepEqual(written.shadowedSeqs, onSurface.slice(onSurface.indexOf(reply1)), 'every node from reply #1 on, the other tab\'s tombstone among them')
    assert.deepEqual(foldSurface(session.events).nodes, [...session.surface.nodes])
  })

  it('refuses a smaller confirmed count when this plugin\'s writes after the plan took none of its messages: a restore, a delete elsewhere', async () => {
    const agent = await app.createAgent({ seed: conversationLog(syntheticTurns(3, { toolSteps: 1, toolsPerStep: 2 })) })
    const session = agent.session
    const prompt1 = node(session, 'user/message', 'prompt #1')
    const prompt2 = node(session, 'user/message', 'prompt #2')
    const prompt3 = node(session, 'user/message', 'prompt #3')
    const removed = ok(await app.post({ sessionId: agent.id, action: 'delete', seq: prompt1 }))
    const plan = ok(await app.post({ sessionId: agent.id, action: 'plan', planAction: 'deleteFrom', seq: prompt3 }))
    const changes = [{ action: 'deleteFrom', seq: prompt3 }]
    // One more than the plan: a write that removes fewer than confirmed.
    const expect = { lastSeq: plan.lastSeq, removedCount: plan.removedCount + 1 }
    const refused = `message-recall: the confirmed plan removes ${plan.removedCount + 1} messages, but the surface changed since seq ${plan.lastSeq} and this write would now remove ${plan.removedCount}`
    const refuses = async (why: string) => {
      const before = session.seq
      const single = await app.post({ sessionId: agent.id, action: 'deleteFrom', seq: prompt3, expect })
      assert.deepEqual([single.status, single.json], [409, { ok: false, error: { code: 'STALE_VIEW', message: refused } }], `${why}: single`)
      const batch = await app.post({ sessionId: agent.id, action: 'apply', changes, expect })
      assert.deepEqual([batch.status, batch.json], [409, { ok: false, error: { code: 'STALE_VIEW', message: refused } }], `${why}: batch`)
      assert.equal(session.seq, before, `${why}: nothing appended`)
    }
    // Another tab restores the first prompt, outside the range, after the plan.
    ok(await app.post({ sessionId: agent.id, action: 'restore', tombstoneSeq: removed.tombstoneSeq }))
    await refuses('a restore after the plan')
    // Another tab deletes the second prompt, outside the range (the second turn's reply lies between).
    const other = ok(await app.post({ sessionId: agent.id, action: 'delete', seq: prompt2 }))
    assert.deepEqual(other.shadowedSeqs, [prompt2])
    await refuses('a delete elsewhere after the plan')
    // The plan's own count still lands.
    const written = ok(await app.post({ sessionId: agent.id, action: 'apply', changes, expect: { lastSeq: plan.lastSeq, removedCount: plan.removedCount } }))
    assert.equal(messagesAmong(session, written.results[0].shadowedSeqs).length, plan.removedCount)
  })

  it('lands two quick deletes planned on one view by two clients, each confirmed with its own count, whichever runs first', async () => {
    const agent = await app.createAgent({ seed: conversationLog(syntheticTurns(3, { toolSteps: 1, toolsPerStep: 2 })) })
    const session = agent.session
    const prompt2 = node(session, 'user/message', 'prompt #2')
    const result2 = node(session, 'tool/result', 'result #2.1.1')
    // Both plans see the same view; the step right after prompt #2 makes the second removal absorb the first's tombstone.
    const [first, second] = await Promise.all([
      app.post({ sessionId: agent.id, action: 'plan', planAction: 'delete', seq: prompt2 }),
      app.post({ sessionId: agent.id, action: 'plan', planAction: 'delete', seq: result2 }),
    ]).then((replies) => replies.map(ok))
    assert.equal(first!.lastSeq, second!.lastSeq)
    assert.deepEqual([first!.removedCount, second!.removedCount], [1, 3])
    const confirm = (plan: Record<string, any>, seq: number) => app.post({
      sessionId: agent.id, action: 'delete', seq, expect: { replaceGeneration: plan.replaceGeneration, lastSeq: plan.lastSeq, removedCount: plan.removedCount },
    })
    const [a, b] = (await Promise.all([confirm(first!, prompt2), confirm(second!, result2)])).map(ok)
    const step = second!.shadowedSeqs as number[]
    const tombstones = session.events.filter(isTombstoneEvent).map((event) => readTombstone(event as LogEvent)!)
    assert.equal(tombstones.length, 2, 'both deletes landed')
    assert.deepEqual(messagesAmong(session, a!.shadowedSeqs), [prompt2])
    assert.deepEqual(messagesAmong(session, b!.shadowedSeqs), step)
    for (const seq of [prompt2, ...step]) assert.ok(!session.surface.nodes.includes(seq), `seq ${seq} left the surface`)
    assert.deepEqual(foldSurface(session.events).nodes, [...session.surface.nodes])
  })
})
