/**
 * Removing messages a compaction already folded, with the real agent loop, DSH's own compaction
 * engine (`dsh-compaction-basic`, from the pinned host set), the real token meter and the session,
 * agent-loop and compaction invariant companions; the scripted mock model answers the turns and
 * the summarizer. A compaction summary holding a canary is rewritten without the deleted prompt:
 * the rewrite's summarization request lacks the canary, the next model request reads the new
 * summary, `contextBreakdown` equals `measure()`, a cold reload folds the same, and a later
 * compaction and a real turn still work. Also: nested compactions (the originals are read through
 * both, the earlier removal stays), a failed summarize call appends nothing, a planning refusal, a
 * confirmed count other than the plan's refused before any model call (single and batch).
 */
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import type { Agent } from '@deepseek-ai/dsh-agent'
import type { Session } from '@deepseek-ai/dsh-session'
import type { DshApp } from '../support/dsh-app'
import { compactionHost, LAUNCH_FILLER, launchScript } from '../support/compaction-host'
import { readFates } from '../../src/shared/fate'
import type { LogEvent } from '../../src/shared/events'
import { readRewriteCheckpoint } from '../../src/shared/summary-rewrite'
import { findRemovedContent } from '../../src/shared/removed-content'
import { derived } from './helpers'
import { foldedPlan } from '../../src/host/removal-service'
import { viewOfSession } from '../../src/host/session-view'

const host = compactionHost()
const { roots, boot, compaction, meter, restart } = host

const FILLER = LAUNCH_FILLER
const { P1, A1, P2, A2, P3, A3, SUMMARY1, SUMMARY2 } = launchScript('CANARY-4417')

/** The seq of the user message whose text starts with `text` (folded or not). */
function prompt(session: Session, text: string): number {
  const hit = session.events.find((e) => e.type === 'user/message' && JSON.stringify(e.data).includes(text.slice(0, 40)) && (e.data as { source?: { kind?: string } }).source?.kind === 'user')
  assert.ok(hit, `a prompt ${JSON.stringify(text.slice(0, 40))}`)
  return hit.seq
}

/** The text of every message of a wire request. */
function requestText(request: { body: { messages: Array<{ content?: unknown }> } }): string {
  return JSON.stringify(request.body.messages)
}

/** Two turns, then DSH's own manual compaction with a summary holding the canary. */
async function compactedAgent(app: DshApp): Promise<Agent> {
  const agent = await app.createAgent()
  host.model.script([A1, A2])
  await app.prompt(agent, P1)
  await app.prompt(agent, P2)
  host.model.script([SUMMARY1])
  const result = await compaction(app).compactNow(agent, new AbortController().signal)
  assert.ok(result, 'compactNow compacted')
  return agent
}

describe('removing folded messages rewrites the summary', () => {
  it('deletes a folded prompt: the rewrite lacks the canary, the model reads the new summary, the meter stays exact, a cold reload and later compaction work', async () => {
    const root = roots.root()
    let app = await boot(root)
    let agent = await compactedAgent(app)
    let session = agent.session
    const p1 = prompt(session, P1)
    assert.equal(readFates(session.events).fateOf(p1).state, 'folded')
    const checkpoint = session.surface.nodes[0]!
    const before = meter(app, session)
    assert.equal(before.breakdown, before.measure)

    const plan = await app.post({ sessionId: agent.id, action: 'plan', planAction: 'delete', seq: p1 })
    assert.equal(plan.status, 200, plan.text)
    assert.deepEqual(plan.json.value.summaryRewrite.removedSeqs, [p1])
    assert.equal(plan.json.value.summaryRewrite.checkpointSeq, checkpoint)
    assert.deepEqual(plan.json.value.shadowedSeqs, [checkpoint])
    assert.equal(plan.json.value.removedCount, 1)

    const count = host.model.requests.length
    const seqBefore = session.seq
    // A confirmed count other than the plan's is refused before any model call, nothing appended.
    for (const removedCount of [2, 0]) {
      const refused = await app.post({ sessionId: agent.id, action: 'delete', seq: p1, expect: { lastSeq: plan.json.value.lastSeq, removedCount } })
      assert.deepEqual([refused.status, refused.json.error], [409, { code: 'STALE_VIEW', message: `message-recall: the confirmed plan removes ${removedCount} messages, but this write removes 1` }])
    }
    assert.deepEqual([host.model.requests.length, session.seq], [count, seqBefore], 'no model call, nothing appended')
    host.model.script([SUMMARY2])
    const reply = await app.post({ sessionId: agent.id, action: 'delete', seq: p1, expect: { replaceGeneration: plan.json.value.replaceGeneration, lastSeq: plan.json.value.lastSeq, removedCount: 1 } })
    assert.equal(reply.status, 200, reply.text)
    assert.equal(host.model.requests.length, count + 1, 'one model call: the summarizer')
    const summarizer = host.model.requests[count]!
    assert.equal(requestText(summarizer).includes('CANARY-4417'), false, 'the rewrite is made from the originals without the deleted prompt')
    assert.equal(requestText(summarizer).includes('Now list the three launch steps'), true, 'and with the kept ones')
    assert.equal(requestText(summarizer).includes('This is an automatically generated checkpoint'), false, 'never from the old summary')

    const added = session.events.slice(seqBefore) as unknown as LogEvent[]
    assert.deepEqual(added.map((e) => e.type), ['compaction/start', 'compaction/summary', 'user/message', 'compaction/end'])
    assert.equal(reply.json.value.tombstoneSeq, added[2]!.seq)
    assert.deepEqual(reply.json.value.removedSeqs, [p1])
    assert.deepEqual(added[2]!.surfaceOp, { op: 'replace', start: checkpoint, end: checkpoint })
    assert.deepEqual(added[2]!.sourceEventSeqs, [added[0]!.seq, added[1]!.seq, checkpoint])
    assert.deepEqual(readRewriteCheckpoint(added[2]!)?.removals, [{ action: 'delete', seqs: [p1] }])
    assert.deepEqual(session.surface.nodes[0], added[2]!.seq, 'the new checkpoint stands where the old one stood')
    const fates = readFates(session.events as unknown as LogEvent[])
    assert.deepEqual(fates.fateOf(p1), { state: 'removed', tombstoneSeq: added[2]!.seq, actingSeq: p1, rewrite: true })
    assert.equal(fates.fateOf(prompt(session, P2)).state, 'folded')
    const log = session.events as unknown as LogEvent[]
    assert.deepEqual(findRemovedContent(log.length, (s) => log[s]).messageSeqs, [p1], 'the export and the telemetry filter leave the removed folded prompt out')
    const afterRewrite = meter(app, session)
    assert.equal(afterRewrite.breakdown, afterRewrite.measure, 'contextBreakdown == measure() after the rewrite')

    host.model.script([A3])
    await app.prompt(agent, P3)
    const next = host.model.requests.at(-1)!
    assert.equal(requestText(next).includes('CANARY-4417'), false)
    assert.equal(requestText(next).includes(SUMMARY2), true, 'the next request reads the new summary')
    const turn = meter(app, session)
    assert.equal(turn.breakdown, turn.measure)

    const live = derived(session)
    const id = agent.id
    app = await restart(app, root)
    agent = await app.resumeAgent(id)
    session = agent.session
    assert.deepEqual(derived(session).slice(0, live.length), live, 'a cold reload folds the same')
    const cold = meter(app, session)
    assert.equal(cold.breakdown, cold.measure)

    // A later compaction over the rewritten checkpoint, then a real turn.
    host.model.script(['Summary three: launch steps test, stage, ship; second is staging.'])
    assert.ok(await compaction(app).compactNow(agent, new AbortController().signal), 'a later compaction works')
    assert.equal(readFates(session.events).fateOf(p1).state, 'removed', 'the removal stays through a later compaction')
    host.model.script(['Fine.'])
    await app.prompt(agent, `And the last step?${FILLER}`)
    assert.equal(requestText(host.model.requests.at(-1)!).includes('CANARY-4417'), false)
    const last = meter(app, session)
    assert.equal(last.breakdown, last.measure)

    // Nested: the second compaction folded the rewrite; deleting P2 now reads the originals through both.
    const p2 = prompt(session, P2)
    const nested = host.model.requests.length
    host.model.script(['Summary four: the user asked which step is second; it is staging.'])
    const second = await app.post({ sessionId: agent.id, action: 'delete', seq: p2 })
    assert.equal(second.status, 200, second.text)
    const input = requestText(host.model.requests[nested]!)
    assert.equal(input.includes('CANARY-4417'), false, 'the earlier removal stays out')
    assert.equal(input.includes('Now list the three launch steps'), false, 'the deleted prompt is out')
    assert.equal(input.includes('Which step comes second?'), true, 'originals of the second compaction are in')
    assert.equal(input.includes('Summary three'), false, 'never the old summary')
    const checkpointEvent = session.events[second.json.value.tombstoneSeq]! as unknown as LogEvent
    assert.deepEqual(readRewriteCheckpoint(checkpointEvent)?.removals, [{ action: 'delete', seqs: [p1] }, { action: 'delete', seqs: [p2] }])
    const nestedFates = readFates(session.events)
    assert.equal(nestedFates.fateOf(p1).state, 'removed')
    assert.equal(nestedFates.fateOf(p2).state, 'removed')
    const end = meter(app, session)
    assert.equal(end.breakdown, end.measure)
  })

  it('a failed summarize call appends nothing and says why; a Recall of a folded answer is refused', async () => {
    const app = await boot(roots.root())
    const agent = await compactedAgent(app)
    const session = agent.session
    const p1 = prompt(session, P1)
    const seq = session.seq
    host.model.script([{ behavior: 'server_error' }])
    const failed = await app.post({ sessionId: agent.id, action: 'delete', seq: p1 })
    assert.equal(failed.status, 502, failed.text)
    assert.equal(failed.json.error.code, 'SUMMARY_FAILED')
    assert.match(failed.json.error.message, new RegExp(`^message-recall: the summary of session "${agent.id}" was not rewritten \\(model\\): `))
    assert.equal(session.seq, seq, 'nothing appended')
    assert.equal(readFates(session.events).fateOf(p1).state, 'folded')

    const answer = session.events.find((e) => e.type === 'assistant/message' && JSON.stringify(e.data).includes('Noted: the code word'))!.seq
    const recall = await app.post({ sessionId: agent.id, action: 'recall', seq: answer })
    assert.equal(recall.status, 409)
    assert.equal(recall.json.error.code, 'NOT_A_USER_MESSAGE')
    assert.equal(session.seq, seq)

    host.model.script([SUMMARY2])
    const recalled = await app.post({ sessionId: agent.id, action: 'recall', seq: p1 })
    assert.equal(recalled.status, 200, recalled.text)
    assert.equal(recalled.json.value.text, P1, 'a Recall of a folded prompt returns its text')
  })

  it('edits the summary by hand (no model call) and undoes a rewrite: the earlier summary comes back, the message is folded again', async () => {
    const app = await boot(roots.root())
    const agent = await compactedAgent(app)
    const session = agent.session
    const p1 = prompt(session, P1)
    host.model.script([SUMMARY2])
    const removed = await app.post({ sessionId: agent.id, action: 'delete', seq: p1 })
    assert.equal(removed.status, 200, removed.text)
    const rewriteSeq = removed.json.value.tombstoneSeq as number

    // Undo: the summary the rewrite replaced comes back; the message is folded again.
    const calls = host.model.requests.length
    const undo = await app.post({ sessionId: agent.id, action: 'undoRewrite', checkpointSeq: rewriteSeq })
    assert.equal(undo.status, 200, undo.text)
    assert.equal(host.model.requests.length, calls, 'no model call')
    assert.equal(undo.json.value.replacedSeq, rewriteSeq)
    const back = session.events[undo.json.value.checkpointSeq]! as unknown as LogEvent
    assert.deepEqual(readRewriteCheckpoint(back)?.removals, [], 'the earlier record: nothing removed')
    assert.equal(JSON.stringify(back.data).includes(SUMMARY1), true, 'the earlier summary text')
    assert.equal(readFates(session.events as unknown as LogEvent[]).fateOf(p1).state, 'folded')
    let m = meter(app, session)
    assert.equal(m.breakdown, m.measure)

    // An Undo of a checkpoint that is not a rewrite of this plugin, or not on the surface, is refused.
    const notRewrite = await app.post({ sessionId: agent.id, action: 'undoRewrite', checkpointSeq: rewriteSeq })
    assert.equal(notRewrite.status, 409)
    assert.equal(notRewrite.json.error.message, `message-recall: seq ${rewriteSeq} is a compaction summary no longer on the surface (a later compaction or removal replaced it)`)

    // The edit: the person's text is the summary the model reads, with the record kept.
    const seq = session.seq
    const edited = 'Edited by hand: the user wants the launch steps.'
    const edit = await app.post({ sessionId: agent.id, action: 'editSummary', checkpointSeq: undo.json.value.checkpointSeq, summary: edited })
    assert.equal(edit.status, 200, edit.text)
    assert.equal(host.model.requests.length, calls, 'still no model call')
    assert.deepEqual(session.events.slice(seq).map((e) => e.type), ['compaction/start', 'compaction/summary', 'user/message', 'compaction/end'])
    m = meter(app, session)
    assert.equal(m.breakdown, m.measure)
    host.model.script([A3])
    await app.prompt(agent, P3)
    const next = requestText(host.model.requests.at(-1)!)
    assert.equal(next.includes(edited), true, 'the next request reads the edited summary')
    assert.equal(next.includes('CANARY-4417'), false)

    const blank = await app.post({ sessionId: agent.id, action: 'editSummary', checkpointSeq: edit.json.value.checkpointSeq, summary: '  ' })
    assert.equal(blank.status, 400)
    assert.equal(blank.json.error.message, 'message-recall: summary must be a non-empty string, got "  "')
    const notSummary = await app.post({ sessionId: agent.id, action: 'editSummary', checkpointSeq: prompt(session, P3), summary: 'x' })
    assert.equal(notSummary.status, 409)
    assert.equal(notSummary.json.error.code, 'NOT_A_SUMMARY')
  })

  it('a batch mixing folded and current messages does both in one step; a refused change leaves everything as it was', async () => {
    const app = await boot(roots.root())
    const agent = await compactedAgent(app)
    const session = agent.session
    host.model.script([A3])
    await app.prompt(agent, P3)
    const p1 = prompt(session, P1)
    const p3 = prompt(session, P3)
    assert.equal(readFates(session.events as unknown as LogEvent[]).fateOf(p3).state, 'current')

    // All or nothing: a refused change refuses the batch before any model call.
    const seq = session.seq
    const calls = host.model.requests.length
    const refused = await app.post({ sessionId: agent.id, action: 'apply', changes: [{ action: 'delete', seq: p1 }, { action: 'delete', seq: 999_999 }] })
    assert.equal(refused.status, 409, refused.text)
    assert.equal(refused.json.error.index, 1)
    assert.equal(session.seq, seq, 'nothing appended')
    assert.equal(host.model.requests.length, calls, 'no model call')

    // The batch plan names the rewrite and its model call's input, with nothing written.
    const preview = await app.post({ sessionId: agent.id, action: 'plan', changes: [{ action: 'delete', seq: p3 }, { action: 'exclude', seq: p1 }] })
    assert.equal(preview.status, 200, preview.text)
    assert.equal(preview.json.value.summaryRewrite.checkpointSeq, session.surface.nodes[0])
    assert.deepEqual(preview.json.value.summaryRewrite.removedSeqs, [p1])
    assert.equal(preview.json.value.summaryRewrite.estimatedInputTokens > 0, true)
    assert.deepEqual([...preview.json.value.removedSeqs].sort((a: number, b: number) => a - b), [p1, ...preview.json.value.writes[0].shadowedSeqs].sort((a: number, b: number) => a - b))
    // The counts-only form (what the editor asks for) says the same in counts.
    const counts = await app.post({ sessionId: agent.id, action: 'plan', changes: [{ action: 'delete', seq: p3 }, { action: 'exclude', seq: p1 }], detail: 'counts' })
    assert.equal(counts.status, 200, counts.text)
    const full = preview.json.value
    assert.deepEqual(counts.json.value, {
      action: 'plan', detail: 'counts', tombstoneCount: full.tombstoneCount, restoreCount: full.restoreCount,
      removedCount: full.removedSeqs.length, restoredCount: full.restoredSeqs.length, replaceGeneration: full.replaceGeneration, lastSeq: full.lastSeq,
      summaryRewrite: { checkpointSeq: full.summaryRewrite.checkpointSeq, removedCount: 1, inputMessages: full.summaryRewrite.inputMessages, estimatedInputTokens: full.summaryRewrite.estimatedInputTokens },
    })
    assert.equal(session.seq, seq, 'a plan writes nothing')
    assert.equal(host.model.requests.length, calls, 'and calls no model')

    // A confirmed count other than the plan's is refused before the model call.
    const miscounted = await app.post({ sessionId: agent.id, action: 'apply', changes: [{ action: 'delete', seq: p3 }, { action: 'exclude', seq: p1 }], expect: { lastSeq: full.lastSeq, removedCount: full.removedSeqs.length + 1 } })
    assert.deepEqual([miscounted.status, miscounted.json.error], [409, { code: 'STALE_VIEW', message: `message-recall: the confirmed plan removes ${full.removedSeqs.length + 1} messages, but this write removes ${full.removedSeqs.length}` }])
    assert.deepEqual([session.seq, host.model.requests.length], [seq, calls], 'nothing appended, no model call')
    host.model.script([SUMMARY2])
    const mixed = await app.post({ sessionId: agent.id, action: 'apply', changes: [{ action: 'delete', seq: p3 }, { action: 'exclude', seq: p1 }], expect: { lastSeq: full.lastSeq, removedCount: full.removedSeqs.length } })
    assert.equal(mixed.status, 200, mixed.text)
    assert.equal(host.model.requests.length, calls + 1, 'one model call')
    assert.equal(requestText(host.model.requests[calls]!).includes('CANARY-4417'), false)
    const added = session.events.slice(seq) as unknown as LogEvent[]
    assert.deepEqual(added.map((e) => e.type), ['compaction/prune', 'user/message', 'compaction/start', 'compaction/summary', 'user/message', 'compaction/end'])
    const results = mixed.json.value.results as Array<{ index: number; action: string; tombstoneSeq: number }>
    assert.deepEqual(results.map((r) => [r.index, r.action, r.tombstoneSeq]), [[0, 'delete', added[1]!.seq], [1, 'exclude', added[4]!.seq]])
    const fates = readFates(session.events as unknown as LogEvent[])
    assert.equal(fates.fateOf(p3).state, 'removed')
    assert.deepEqual(fates.fateOf(p1), { state: 'excluded', tombstoneSeq: added[4]!.seq, actingSeq: p1, rewrite: true })
    const m = meter(app, session)
    assert.equal(m.breakdown, m.measure)
    host.model.script(['Fine.'])
    await app.prompt(agent, `One more question.${FILLER}`)
    const next = requestText(host.model.requests.at(-1)!)
    assert.equal(next.includes('CANARY-4417'), false)
    assert.equal(next.includes('Which step comes second?'), false, 'the current prompt is gone too')
  })

  it('deletes onward from a folded prompt: the summary is rewritten without it and what follows, every message after the summary goes, in one step', async () => {
    const root = roots.root()
    let app = await boot(root)
    let agent = await app.createAgent()
    const P2C = `Also remember the launch code CANARY-9020.${FILLER}`
    host.model.script([A1, A2])
    await app.prompt(agent, P1.replace('CANARY-4417', 'plain'))
    await app.prompt(agent, P2C)
    host.model.script([SUMMARY2])
    assert.ok(await compaction(app).compactNow(agent, new AbortController().signal), 'compactNow compacted')
    host.model.script([A3])
    await app.prompt(agent, P3)
    let session = agent.session
    const p1 = prompt(session, 'Write down the secret code word plain')
    const p2 = prompt(session, P2C)
    const p3 = prompt(session, P3)
    const a2 = session.events.find((e) => e.type === 'assistant/message' && JSON.stringify(e.data).includes('First test, then stage'))!.seq
    const checkpoint = session.surface.nodes[0]!
    const tail = session.surface.nodes.slice(1)
    assert.deepEqual(tail.slice(0, 2), [a2, p3], 'DSH kept the last answer after the summary, then the third turn')
    const fatesBefore = readFates(session.events as unknown as LogEvent[])
    assert.equal(fatesBefore.fateOf(p2).state, 'folded')

    // From the first summarized message nothing would be left to summarize: refused, nothing written, no model call.
    const seq0 = session.seq
    const calls0 = host.model.requests.length
    const whole = await app.post({ sessionId: agent.id, action: 'deleteFrom', seq: p1 })
    assert.equal(whole.status, 409, whole.text)
    assert.equal(whole.json.error.code, 'NOT_DELETABLE')
    assert.equal(whole.json.error.message, `message-recall: seq ${p1} cannot be removed: Delete onward from it would take every message the compaction summary is made from, and a summary of nothing cannot be written; start Delete onward at a later summarized message, or remove the messages after the summary`)
    assert.equal(whole.json.error.index, undefined)
    assert.equal(session.seq, seq0)
    assert.equal(host.model.requests.length, calls0)

    // No tombstone after the summary: every node of the tail is a message that goes.
    const tailMessages = tail
    const plan = await app.post({ sessionId: agent.id, action: 'plan', planAction: 'deleteFrom', seq: p2 })
    assert.equal(plan.status, 200, plan.text)
    assert.deepEqual(plan.json.value.summaryRewrite.removedSeqs, [p2])
    assert.equal(plan.json.value.summaryRewrite.checkpointSeq, checkpoint)
    assert.deepEqual(plan.json.value.shadowedSeqs, [checkpoint, ...tail])
    assert.equal(plan.json.value.removedCount, 1 + tailMessages.length)
    // The folded part alone is no confirmed write: the whole count (folded part and tail) is checked where the whole is known.
    const confirmed = { replaceGeneration: plan.json.value.replaceGeneration, lastSeq: plan.json.value.lastSeq, removedCount: plan.json.value.removedCount }
    const view = viewOfSession(session, (seq) => session.events[seq] as LogEvent | undefined, 'agent')
    const part = foldedPlan(view, { sessionId: agent.id, action: 'deleteFrom', target: { seq: p2 }, expect: confirmed })
    assert.ok(part !== null && part.ok, `the folded part of a confirmed Delete onward plans: ${JSON.stringify(part)}`)
    assert.deepEqual(part.value.removedSeqs, [p2])
    const short = await app.post({ sessionId: agent.id, action: 'deleteFrom', seq: p2, expect: { ...confirmed, removedCount: 1 } })
    assert.deepEqual([short.status, short.json.error?.code, short.json.error?.message], [409, 'STALE_VIEW', `message-recall: the confirmed plan removes 1 message, but this write removes ${1 + tailMessages.length}`])

    const count = host.model.requests.length
    const seqBefore = session.seq
    host.model.script(['The user set up the task; nothing else is known.'])
    const reply = await app.post({ sessionId: agent.id, action: 'deleteFrom', seq: p2, expect: { replaceGeneration: plan.json.value.replaceGeneration, lastSeq: plan.json.value.lastSeq, removedCount: plan.json.value.removedCount } })
    assert.equal(reply.status, 200, reply.text)
    assert.equal(host.model.requests.length, count + 1, 'one model call: the summarizer')
    const input = requestText(host.model.requests[count]!)
    assert.equal(input.includes('CANARY-9020'), false, 'the summary request lacks the removed folded prompt')
    assert.equal(input.includes('Write down the secret code word plain'), true, 'the folded messages before it are summarized again')
    assert.equal(input.includes('Which step comes second?'), false, 'the messages after the summary are not summarized')

    const added = session.events.slice(seqBefore) as unknown as LogEvent[]
    assert.deepEqual(added.map((e) => e.type), ['compaction/prune', 'user/message', 'compaction/start', 'compaction/summary', 'user/message', 'compaction/end'])
    const tombstone = added[1]!
    const rewritten = added[4]!
    assert.deepEqual(tombstone.surfaceOp, { op: 'replace', start: tail[0], end: tail.at(-1) })
    assert.deepEqual(rewritten.surfaceOp, { op: 'replace', start: checkpoint, end: checkpoint })
    assert.deepEqual(readRewriteCheckpoint(rewritten)?.removals, [{ action: 'deleteFrom', seqs: [p2] }])
    assert.deepEqual(session.surface.nodes, [rewritten.seq, tombstone.seq], 'the new summary, then the tombstone of the tail')
    assert.deepEqual(reply.json.value, {
      action: 'deleteFrom', tombstoneSeq: tombstone.seq, range: { start: checkpoint, end: tail.at(-1) }, shadowedSeqs: [checkpoint, ...tail],
      nodeKinds: plan.json.value.nodeKinds, replaceGeneration: session.surface.replaceGeneration, removedSeqs: [p2, ...tailMessages], persisted: true,
    })
    const fates = readFates(session.events as unknown as LogEvent[])
    assert.equal(fates.fateOf(p1).state, 'folded')
    assert.equal(fates.fateOf(p2).state, 'removed')
    assert.equal(fates.fateOf(a2).state, 'removed')
    assert.equal(fates.fateOf(p3).state, 'removed')
    const m = meter(app, session)
    assert.equal(m.breakdown, m.measure, 'contextBreakdown == measure()')

    const live = derived(session)
    const id = agent.id
    app = await restart(app, root)
    // Stored, not running: a folded change has no model to rewrite the summary with; nothing written.
    const storedCalls = host.model.requests.length
    const stored = await app.post({ sessionId: id, action: 'apply', changes: [{ action: 'delete', seq: p1 }] })
    assert.equal(stored.status, 409, stored.text)
    assert.equal(stored.json.error.message, `message-recall: session "${id}" is not open in this host; a compaction summary is rewritten, edited or put back only while the session is open (its agent writes the summary): open it, then try again`)
    assert.equal(host.model.requests.length, storedCalls)
    const storedPlan = await app.post({ sessionId: id, action: 'plan', changes: [{ action: 'delete', seq: p1 }] })
    assert.equal(storedPlan.status, 409, 'the batch plan answers as apply would')
    assert.equal(storedPlan.json.error.message, stored.json.error.message)
    agent = await app.resumeAgent(id)
    session = agent.session
    assert.deepEqual(derived(session).slice(0, live.length), live, 'a cold reload folds the same')
    assert.equal(readFates(session.events as unknown as LogEvent[]).fateOf(p1).state, 'folded', 'the refused apply wrote nothing')
    const cold = meter(app, session)
    assert.equal(cold.breakdown, cold.measure)

    host.model.script(['Fine.'])
    await app.prompt(agent, `What do we know so far?${FILLER}`)
    const next = requestText(host.model.requests.at(-1)!)
    assert.equal(next.includes('CANARY-9020'), false, 'a real turn after it lacks the removed messages')
    assert.equal(next.includes('Which step comes second?'), false)
    assert.equal(next.includes('First test, then stage'), false)
    assert.equal(next.includes('The user set up the task; nothing else is known.'), true, 'and reads the new summary')
    const last = meter(app, session)
    assert.equal(last.breakdown, last.measure)
  })
})
