/**
 * A summary written before a removal of messages it holds (the order that leaked), with the real
 * agent loop, DSH's compaction engine (`dsh-compaction-basic` from the pinned host set), the token
 * meter and the invariant companions; the scripted mock model answers the turns and the
 * summarizer. `/compact`'s summary holds a canary; then a tombstone of this plugin is appended as a
 * log written before the rewrite existed has it: it replaces a current prompt and also cites the
 * folded canary prompt and its answer. The flag counts exactly those two; the model still reads the
 * canary; `rewriteSummary` (its `plan` names the cost) makes the summary again from the originals
 * without them: the summarization request lacks the canary, the flag is gone, the next request
 * reads the new summary, the meter stays exact, and a cold reload agrees.
 */
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import type { Session } from '@deepseek-ai/dsh-session'
import { compactionHost, LAUNCH_FILLER, launchScript } from '../support/compaction-host'
import { readFates } from '../../src/shared/fate'
import type { LogEvent } from '../../src/shared/events'
import { summaryFlags } from '../../src/shared/summary-flag'
import { readRewriteCheckpoint } from '../../src/shared/summary-rewrite'
import { appendTombstone } from '../../src/host/tombstone-append'
import { appendShadowPrice, meterPricer, shadowPrice } from '../../src/host/shadow-price'
import { derived } from './helpers'

const host = compactionHost()
const { roots, boot, compaction, meter, restart } = host

const FILLER = LAUNCH_FILLER
const { P1, A1, P2, A2, P3, A3, SUMMARY1, SUMMARY2 } = launchScript('CANARY-5521')

function seqOf(session: Session, type: string, text: string): number {
  const hit = session.events.find((e) => e.type === type && JSON.stringify(e.data).includes(text.slice(0, 40)))
  assert.ok(hit, `a ${type} ${JSON.stringify(text.slice(0, 40))}`)
  return hit.seq
}

function requestText(request: { body: { messages: Array<{ content?: unknown }> } }): string {
  return JSON.stringify(request.body.messages)
}

function flags(session: Session) {
  return summaryFlags(session.events as unknown as LogEvent[])
}

describe('a summary written before a removal of messages it holds', () => {
  it('is flagged with the exact count; rewriteSummary makes it from the originals without them, the flag clears, a cold reload agrees', async () => {
    const root = roots.root()
    let app = await boot(root)
    let agent = await app.createAgent()
    let session = agent.session
    host.model.script([A1, A2])
    await app.prompt(agent, P1)
    await app.prompt(agent, P2)
    host.model.script([SUMMARY1])
    assert.ok(await compaction(app).compactNow(agent, new AbortController().signal), 'compactNow compacted')
    const checkpoint = session.surface.nodes[0]!
    host.model.script([A3])
    await app.prompt(agent, P3)
    const p1 = seqOf(session, 'user/message', P1)
    const a1 = seqOf(session, 'assistant/message', A1)
    const p3 = seqOf(session, 'user/message', P3)
    assert.deepEqual(flags(session), [], 'nothing removed yet')

    // The leaking order: a tombstone written after the compaction, naming folded messages besides the node it replaces.
    await agent.runMaintenance(async () => {
      const lookup = (seq: number) => session.events[seq] as never
      appendShadowPrice(session, shadowPrice({ start: p3, end: p3 }, [p3], meterPricer(app.ctx.tokenMeter, lookup)))
      appendTombstone(session, { action: 'delete', start: p3, end: p3, shadowedSeqs: [p1, a1, p3] })
    })
    await app.ctx.sessions.flush(session)
    const tombstoneSeq = session.seq - 1
    assert.deepEqual(flags(session), [{ checkpointSeq: checkpoint, removals: [{ tombstoneSeq, action: 'delete', seqs: [p1, a1] }], removedSeqs: [p1, a1] }])
    assert.equal(readFates(session.events as unknown as LogEvent[]).fateOf(p1).state, 'folded', 'the summary still stands for it')
    let m = meter(app, session)
    assert.equal(m.breakdown, m.measure)

    // The leak: the next request's summary still holds the canary.
    host.model.script(['Fine.'])
    await app.prompt(agent, `What is left to do?${FILLER}`)
    assert.equal(requestText(host.model.requests.at(-1)!).includes('CANARY-5521'), true, 'the summary still carries the removed prompt')

    // The plan names the cost; a refused model call writes nothing and the flag stays.
    const plan = await app.post({ sessionId: agent.id, action: 'plan', planAction: 'rewriteSummary', checkpointSeq: checkpoint })
    assert.equal(plan.status, 200, plan.text)
    assert.equal(plan.json.value.action, 'plan')
    assert.equal(plan.json.value.planAction, 'rewriteSummary')
    assert.equal(plan.json.value.checkpointSeq, checkpoint)
    assert.deepEqual(plan.json.value.removedSeqs, [p1, a1])
    // DSH's compaction folded P1, A1 and P2 (it keeps the last answer on the surface): P2 alone is left to summarize.
    const p2 = seqOf(session, 'user/message', P2)
    assert.deepEqual((session.events[checkpoint] as unknown as LogEvent).sourceEventSeqs?.slice(2), [p1, a1, p2])
    assert.equal(plan.json.value.inputMessages, 1)
    assert.equal(plan.json.value.estimatedInputTokens, Math.ceil(P2.length / 4))
    const seq = session.seq
    host.model.script([{ behavior: 'server_error' }])
    const failed = await app.post({ sessionId: agent.id, action: 'rewriteSummary', checkpointSeq: checkpoint })
    assert.equal(failed.status, 502, failed.text)
    assert.equal(failed.json.error.code, 'SUMMARY_FAILED')
    assert.equal(session.seq, seq, 'nothing appended')
    assert.equal(flags(session).length, 1)

    // Rewrite summary: from the originals minus every removed message.
    const calls = host.model.requests.length
    host.model.script([SUMMARY2])
    const reply = await app.post({ sessionId: agent.id, action: 'rewriteSummary', checkpointSeq: checkpoint, expect: { replaceGeneration: plan.json.value.replaceGeneration, lastSeq: plan.json.value.lastSeq } })
    assert.equal(reply.status, 200, reply.text)
    assert.equal(host.model.requests.length, calls + 1, 'one model call: the summarizer')
    const input = requestText(host.model.requests[calls]!)
    assert.equal(input.includes('CANARY-5521'), false, 'the summarization request lacks the canary')
    assert.equal(input.includes('Noted: the code word'), false, 'and the removed answer')
    assert.equal(input.includes('Now list the three launch steps'), true, 'the kept originals are in')
    assert.equal(input.includes('This is an automatically generated checkpoint'), false, 'never the old summary')
    assert.equal(reply.json.value.action, 'rewriteSummary')
    assert.equal(reply.json.value.replacedSeq, checkpoint)
    assert.deepEqual(reply.json.value.removedSeqs, [p1, a1])
    const added = session.events.slice(seq) as unknown as LogEvent[]
    assert.deepEqual(added.map((e) => e.type), ['compaction/start', 'compaction/summary', 'user/message', 'compaction/end'])
    assert.equal(reply.json.value.checkpointSeq, added[2]!.seq)
    assert.deepEqual(readRewriteCheckpoint(added[2]!)?.removals, [{ action: 'delete', seqs: [p1, a1] }])
    assert.deepEqual(flags(session), [], 'the flag is gone')
    assert.deepEqual(readFates(session.events as unknown as LogEvent[]).fateOf(p1), { state: 'removed', tombstoneSeq: added[2]!.seq, actingSeq: p1, rewrite: true })
    m = meter(app, session)
    assert.equal(m.breakdown, m.measure, 'contextBreakdown == measure() after the rewrite')

    host.model.script(['Done.'])
    await app.prompt(agent, `Anything else?${FILLER}`)
    const next = requestText(host.model.requests.at(-1)!)
    assert.equal(next.includes('CANARY-5521'), false, 'the next request lacks the canary')
    assert.equal(next.includes(SUMMARY2), true, 'and reads the new summary')

    // A cold reload folds the same, with no flag.
    const live = derived(session)
    const id = agent.id
    app = await restart(app, root)
    agent = await app.resumeAgent(id)
    session = agent.session
    assert.deepEqual(derived(session).slice(0, live.length), live, 'a cold reload folds the same')
    assert.deepEqual(flags(session), [])
    m = meter(app, session)
    assert.equal(m.breakdown, m.measure)

    // Bad input: a prompt's seq, a stray field.
    const notSummary = await app.post({ sessionId: id, action: 'rewriteSummary', checkpointSeq: p2 })
    assert.equal(notSummary.status, 409)
    assert.equal(notSummary.json.error.message, `message-recall: seq ${p2} is not a compaction summary`)
    const stray = await app.post({ sessionId: id, action: 'rewriteSummary', checkpointSeq: checkpoint, summary: 'x' })
    assert.equal(stray.status, 400)
    assert.equal(stray.json.error.message, 'message-recall: rewriteSummary takes no summary (fields of rewriteSummary: sessionId, action, checkpointSeq, expect)')
  })

  it('a removal written before the compaction is not flagged: the summary was made without it', async () => {
    const app = await boot(roots.root())
    const agent = await app.createAgent()
    const session = agent.session
    host.model.script([A1, A2])
    await app.prompt(agent, P1)
    await app.prompt(agent, P2)
    const p1 = seqOf(session, 'user/message', P1)
    const removed = await app.post({ sessionId: agent.id, action: 'delete', seq: p1 })
    assert.equal(removed.status, 200, removed.text)
    host.model.script([SUMMARY2])
    assert.ok(await compaction(app).compactNow(agent, new AbortController().signal))
    assert.equal(requestText(host.model.requests.at(-1)!).includes('CANARY-5521'), false, 'the summarizer read the surface without it')
    assert.deepEqual(flags(session), [])
  })
})
