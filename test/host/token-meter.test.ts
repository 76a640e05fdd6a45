/**
 * The shadow price with the real `dsh-token-meter` `TokenMeter` loaded (rc.8, with its invariant
 * companion and the session, agent-loop and compaction companions): after a removal or a restore
 * the persisted `contextBreakdown` projection equals `measure()` at once and after a cold reload;
 * a bare tombstone (no price) is shown to drift, so the check can fail; a tombstone refused by a
 * hook after its price was appended leaves the price as a disarmed log-only event and the meter
 * exact; a planning refusal appends no price.
 */
import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import type { Session } from '@deepseek-ai/dsh-session'
import type { DshApp } from '../support/dsh-app'
import { appendTombstone } from '../../src/host/tombstone-append'
import { assertError, node, Roots, seededAgent } from './helpers'

const roots = new Roots()
after(() => roots.dispose())

/** The breakdown's message figure and the exact positional measure. */
function meter(app: DshApp, session: Session): { breakdown: number; measure: number } {
  const values = app.ctx.sessionProjections.snapshot(session).values as { contextBreakdown: { messageTokens: number } }
  return { breakdown: values.contextBreakdown.messageTokens, measure: app.ctx.tokenMeter.measure(session).surfaceTokens }
}

describe('shadow price with the real token meter', () => {
  let app: DshApp
  let root: string
  let refuseNext = false
  before(async () => {
    root = roots.root()
    app = await roots.boot(root, { tokenMeter: true })
  })

  it('keeps contextBreakdown equal to measure() after a step delete, a recall and a restore, and after a cold reload', async () => {
    const agent = await seededAgent(app)
    const session = agent.session
    const start = meter(app, session)
    assert.equal(start.breakdown, start.measure)

    const del = await app.post({ sessionId: agent.id, action: 'delete', seq: node(session, 'tool/result', 'result #2.1.1') })
    assert.equal(del.status, 200, del.text)
    const price = session.events[del.json.value.tombstoneSeq - 1]!
    assert.equal(price.type, 'compaction/prune')
    const { shadowedRange, shadowedSeqs, shadowedTokenCount } = price.data as { shadowedRange: unknown; shadowedSeqs: number[]; shadowedTokenCount: number }
    assert.deepEqual(shadowedRange, del.json.value.range)
    assert.deepEqual(shadowedSeqs, del.json.value.shadowedSeqs)
    const afterDelete = meter(app, session)
    assert.equal(afterDelete.breakdown, afterDelete.measure)
    assert.ok(afterDelete.measure < start.measure - 80, `${start.measure} → ${afterDelete.measure}`)
    assert.ok(shadowedTokenCount > start.measure - afterDelete.measure, 'the price counts the step; the measure also gained the empty tombstone')

    const recall = await app.post({ sessionId: agent.id, action: 'recall', seq: node(session, 'user/message', 'prompt #3') })
    assert.equal(recall.status, 200, recall.text)
    const afterRecall = meter(app, session)
    assert.equal(afterRecall.breakdown, afterRecall.measure)
    const restore = await app.post({ sessionId: agent.id, action: 'restore', tombstoneSeq: recall.json.value.tombstoneSeq })
    assert.equal(restore.status, 200, restore.text)
    assert.equal(session.events[restore.json.value.restoredSeq - 1]!.type, 'compaction/prune', 'a restore is priced too')
    const afterRestore = meter(app, session)
    assert.equal(afterRestore.breakdown, afterRestore.measure)
    assert.equal(afterRestore.measure, afterDelete.measure, 'the restore gives back exactly what the recall took')

    const id = agent.id
    await roots.shut(app)
    app = await roots.boot(root, { tokenMeter: true })
    const resumed = await app.resumeAgent(id)
    const cold = meter(app, resumed.session)
    assert.equal(cold.breakdown, cold.measure)
    assert.equal(cold.measure, afterRestore.measure)
    await app.prompt(resumed, 'prompt #4: still counting?')
    const turn = meter(app, resumed.session)
    assert.equal(turn.breakdown, turn.measure, 'a real turn after the removals keeps the fold exact')
  })

  it('shows the drift of a bare tombstone, which the check above would catch', async () => {
    const agent = await seededAgent(app)
    const session = agent.session
    const target = node(session, 'assistant/message', 'reply #1')
    appendTombstone(session, { action: 'delete', start: target, end: target, shadowedSeqs: [target] })
    const bare = meter(app, session)
    assert.ok(bare.breakdown > bare.measure + 20, `a bare tombstone keeps the removed tokens: ${bare.breakdown} vs ${bare.measure}`)
  })

  it('leaves the meter exact when a hook refuses the tombstone after its price, and appends no price on a planning refusal', async () => {
    refuseNext = false
    // A hook that refuses this plugin's next tombstone once armed (a real pre-commit refusal).
    await app.ctx.invariants.register('recall-test-refuser', (ctx, fail) => {
      ctx.on('internal/dispatch', (_mode: unknown, name: string, args: unknown[]) => {
        const event = (args as [unknown, { type: string; data: { source?: { plugin?: string } } }])[1]
        if (name === 'session/event' && refuseNext && event.type === 'user/message' && event.data.source?.plugin === 'dsh-message-recall') {
          refuseNext = false
          fail('refused for the test')
        }
      }, { global: true })
    })
    const agent = await seededAgent(app)
    const session = agent.session
    const count = session.seq
    assertError(await app.post({ sessionId: agent.id, action: 'recall', seq: node(session, 'assistant/message', 'reply #1') }), 409, 'NOT_A_USER_MESSAGE', /^message-recall: seq \d+ is an assistant node/)
    assert.equal(session.seq, count, 'a planning refusal appends no price')

    refuseNext = true
    const target = node(session, 'tool/result', 'result #1.1.1')
    const refused = await app.post({ sessionId: agent.id, action: 'delete', seq: target })
    assertError(refused, 500, 'INTERNAL', /^message-recall: the session refused the tombstone for \[\d+, \d+\]: .*refused for the test/)
    assert.equal(session.seq, count + 1, 'only the price was appended')
    assert.equal(session.events.at(-1)!.type, 'compaction/prune')
    assert.ok(session.surface.nodes.includes(target), 'nothing was removed')
    const orphan = meter(app, session)
    assert.equal(orphan.breakdown, orphan.measure, 'the orphan price moves nothing')

    const again = await app.post({ sessionId: agent.id, action: 'delete', seq: target })
    assert.equal(again.status, 200, again.text)
    const exact = meter(app, session)
    assert.equal(exact.breakdown, exact.measure, 'the next priced tombstone folds exactly after the orphan')
    await app.prompt(agent, 'prompt #4: after the orphan')
    const turn = meter(app, session)
    assert.equal(turn.breakdown, turn.measure)
  })
})
