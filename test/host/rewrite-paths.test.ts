/**
 * A summary rewrite holds on every path: copies, the export without removed messages, and a
 * session that is only stored. The real agent loop, DSH's compaction engine
 * (`dsh-compaction-basic`), the token meter and the session, agent-loop and compaction invariant
 * companions, JSONL persistence; the scripted mock model answers the turns and the summarizer.
 * A first prompt holds a canary; `/compact`'s summary repeats it; deleting the folded prompt
 * rewrites the summary without it, while the earlier summary stays in the log.
 * - Copies cut between the compaction and the rewrite (`SessionStore.fork`, a subagent fork seeded
 *   by `completedTurnPrefix`): the copy's checkpoint is replaced by the source's rewritten summary
 *   (no canary in its derived messages, its first model request, after a cold reload and a real
 *   turn; the token meter exact); a Branch of a stored source gets it after the read, before its
 *   first turn; a copy cut before the compaction gets a tombstone over the
 *   prompt from the rewrite's record. `forkBefore` of a removal after the rewrite holds the
 *   rewritten summary.
 * - The export's log text leaves out the earlier summary's `compaction/summary` text and its
 *   checkpoint, keeps seqs and types, and DSH's own backend loads it deriving the same messages.
 * - A stored session (no agent in this host): a folded removal, `editSummary`, `undoRewrite` and a
 *   batch with a folded change answer `SESSION_NOT_LIVE` with the reason, and the stored log stays
 *   byte for byte.
 */
import assert from 'node:assert/strict'
import { randomUUID } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { describe, it } from 'node:test'
import type { Agent } from '@deepseek-ai/dsh-agent'
import { SessionId, type Session, type SessionEvent } from '@deepseek-ai/dsh-session'
import { foldSurface } from '@deepseek-ai/dsh-session/surface'
import { MODEL, PROVIDER, type DshApp } from '../support/dsh-app'
import { compactionHost, launchScript } from '../support/compaction-host'
import { eventsOfLogText, loadWithDshPersistence } from '../support/export-archive'
import { readFates } from '../../src/shared/fate'
import type { LogEvent } from '../../src/shared/events'
import { readRewriteCheckpoint } from '../../src/shared/summary-rewrite'
import { readTombstone } from '../../src/shared/tombstone'
import { findRemovedContent, REMOVED_CONTENT_MARKER } from '../../src/shared/removed-content'
import { logWithoutRemovedContent } from '../../src/log/log-without-removed'
import { assertError, derived, sessionFile } from './helpers'

const host = compactionHost()
const { roots, boot, compaction, meter, restart } = host

const CANARY = 'CANARY-8831'
const FILLER = ' Keep every detail of this request in mind for the rest of the work, including the names, the numbers, the paths and the order of the steps.'
const { P1, A1, P2, A2, P3, A3, SUMMARY1, SUMMARY2 } = launchScript(CANARY, FILLER)
const agentOptions = { provider: PROVIDER, model: MODEL }

/** The seq of the prompt whose text starts like `text` (folded or not). */
function prompt(session: Session, text: string): number {
  const hit = session.events.find((e) => e.type === 'user/message' && JSON.stringify(e.data).includes(text.slice(0, 40)) && (e.data as { source?: { kind?: string } }).source?.kind === 'user')
  assert.ok(hit, `a prompt ${JSON.stringify(text.slice(0, 40))}`)
  return hit.seq
}

const lastSeqOf = (events: readonly SessionEvent[], type: string): number => events.findLast((e) => e.type === type)!.seq
const modelText = (session: Session): string => JSON.stringify(session.deriveMessages())
const requestText = (index: number): string => JSON.stringify(host.model.requests[index]!.body.messages)
/** Derived messages without message and compaction ids (fresh in each log). */
const withoutIds = (session: Session): unknown => JSON.parse(JSON.stringify(session.deriveMessages(), (key, value) => (key === 'id' || key === 'compactionId' ? undefined : value)))
/** The surface nodes a log folds to. */
const foldedNodes = (events: readonly SessionEvent[]): number[] => [...foldSurface(events as SessionEvent[]).nodes]
const tombstones = (events: readonly SessionEvent[]) => events.map((e) => readTombstone(e)).filter((t) => t !== null)

/**
 * Two turns (P1 with the canary, P2), DSH's manual compaction (its summary repeats the canary),
 * optionally a third turn, then Delete of the folded P1: the summary rewritten without it.
 */
async function rewrittenAgent(app: DshApp, thirdTurn: boolean): Promise<{ agent: Agent; p1: number; oldCheckpoint: number; rewrite: number; compactionEnd: number }> {
  const agent = await app.createAgent()
  host.model.script([A1, A2])
  await app.prompt(agent, P1)
  await app.prompt(agent, P2)
  host.model.script([SUMMARY1])
  assert.ok(await compaction(app).compactNow(agent, new AbortController().signal), 'compactNow compacted')
  const session = agent.session
  const compactionEnd = lastSeqOf(session.events, 'compaction/end')
  const oldCheckpoint = session.surface.nodes[0]!
  assert.match(JSON.stringify(session.events[oldCheckpoint]!.data), new RegExp(CANARY), "the compaction's summary holds the canary")
  if (thirdTurn) {
    host.model.script([A3])
    await app.prompt(agent, P3)
  }
  const p1 = prompt(session, P1)
  host.model.script([SUMMARY2])
  const reply = await app.post({ sessionId: agent.id, action: 'delete', seq: p1 })
  assert.equal(reply.status, 200, reply.text)
  assert.doesNotMatch(modelText(session), new RegExp(CANARY))
  return { agent, p1, oldCheckpoint, rewrite: reply.json.value.tombstoneSeq as number, compactionEnd }
}

/** The copy's events after its seed. */
const appended = (copy: Session): LogEvent[] => copy.events.slice(copy.header.seedLength! + 1) as unknown as LogEvent[]

describe('copies cut before a summary rewrite take the rewritten summary', () => {
  it('SessionStore.fork between the compaction and the rewrite: the copy reads the rewritten summary, after a cold reload and in a real turn too', async () => {
    const root = roots.root()
    let app = await boot(root)
    const { agent, p1, oldCheckpoint, rewrite, compactionEnd } = await rewrittenAgent(app, true)
    const source = agent.session
    const cut = lastSeqOf(source.events.slice(0, rewrite), 'turn/end')
    assert.ok(cut > compactionEnd, 'the cut lies after the compaction')
    const copy = app.ctx.sessions.fork(source, cut)
    assert.equal(copy.header.seedLength, cut + 1)

    const added = appended(copy)
    assert.deepEqual(added.map((e) => e.type), ['compaction/start', 'compaction/summary', 'user/message', 'compaction/end'])
    const [start, summary, checkpoint] = added as [LogEvent, LogEvent, LogEvent]
    assert.deepEqual(checkpoint.surfaceOp, { op: 'replace', start: oldCheckpoint, end: oldCheckpoint })
    assert.deepEqual(checkpoint.sourceEventSeqs, [start.seq, summary.seq, oldCheckpoint])
    assert.deepEqual((summary.data as { summary: unknown }).summary, [{ type: 'text', text: SUMMARY2 }])
    assert.deepEqual(readRewriteCheckpoint(checkpoint)?.removals, [{ action: 'delete', seqs: [p1] }])
    assert.deepEqual(checkpoint.data, { ...(source.events[rewrite]!.data as object), id: (checkpoint.data as { id: string }).id, source: { ...(source.events[rewrite]!.data as { source: object }).source, compactionId: (start.data as { compactionId: string }).compactionId } }, "the source's checkpoint message, with the copy's own ids")
    assert.equal(copy.surface.nodes[0], checkpoint.seq)
    assert.doesNotMatch(modelText(copy), new RegExp(CANARY), 'the canary is not model-visible in the copy')
    assert.deepEqual(withoutIds(copy), withoutIds(source), 'the copy derives what the source derives')
    assert.deepEqual(readFates(copy.events).fateOf(p1), { state: 'removed', tombstoneSeq: checkpoint.seq, actingSeq: p1, rewrite: true })
    const m = meter(app, copy)
    assert.equal(m.breakdown, m.measure, 'contextBreakdown == measure() in the copy')
    const copyLog = copy.events as unknown as LogEvent[]
    const oldSummary = copyLog[oldCheckpoint]!.sourceEventSeqs![1]!
    const carriers = findRemovedContent(copyLog.length, (seq) => copyLog[seq]).carriers
    assert.deepEqual([carriers.get(oldSummary), carriers.get(oldCheckpoint)], ['summary', 'checkpoint'], "the copy's log without removed messages leaves its copy of the earlier summary out too")

    const id = copy.id
    app = await restart(app, root)
    const resumed = await app.resumeAgent(id)
    assert.deepEqual(appended(resumed.session).map((e) => e.type), ['compaction/start', 'compaction/summary', 'user/message', 'compaction/end', 'session/end-seed'], 'a resume inherits nothing again')
    assert.doesNotMatch(modelText(resumed.session), new RegExp(CANARY))
    const cold = meter(app, resumed.session)
    assert.equal(cold.breakdown, cold.measure)
    const count = host.model.requests.length
    host.model.script(['Fine.'])
    await app.prompt(resumed, `And the last step?${FILLER}`)
    assert.equal(host.model.requests.length, count + 1)
    assert.equal(requestText(count).includes(CANARY), false, "the copy's model request lacks the canary")
    assert.equal(requestText(count).includes(SUMMARY2), true, 'and reads the rewritten summary')
  })

  it("a subagent fork seeded by completedTurnPrefix after the rewrite: the child's first request reads the rewritten summary", async () => {
    const app = await boot(roots.root())
    const { agent: parent, oldCheckpoint } = await rewrittenAgent(app, true)
    // completedTurnPrefix (dsh-subagent-fork-in-process): every event up to the last turn/end; the rewrite is after it.
    const events = parent.session.events
    const seed = events.slice(0, lastSeqOf(events, 'turn/end') + 1)
    assert.equal(seed.some((e) => e.seq === oldCheckpoint), true, 'the seed holds the earlier summary')
    const child: Agent = (await app.ctx.agents.create({
      sessionId: SessionId(randomUUID()), seed, agentOptions,
      meta: { cwd: parent.session.header.cwd!, parentSession: parent.id, origin: 'subagent', delegationDepth: 1, seedLength: seed.length },
    })).agent
    assert.doesNotMatch(modelText(child.session), new RegExp(CANARY))
    const count = host.model.requests.length
    host.model.script(['Sub answer.'])
    await app.prompt(child, 'sub task #1: summarize the launch')
    assert.equal(requestText(count).includes(CANARY), false, "the child's first request lacks the canary")
    assert.equal(requestText(count).includes(SUMMARY2), true)
    assert.equal(requestText(count).includes('Staging comes second.'), true, 'and holds the turn after the compaction')
    const m = meter(app, child.session)
    assert.equal(m.breakdown, m.measure)
  })

  it('a Branch of a stored source, cut at the turn after the compaction: the rewritten summary follows the read, before the first turn', async () => {
    const root = roots.root()
    let app = await boot(root)
    const { agent: source, oldCheckpoint } = await rewrittenAgent(app, true)
    app = await restart(app, root)
    assert.equal(app.ctx.sessions.get(SessionId(source.id)), undefined, 'the source is stored only')
    // As dsh-host-apiproxy sessions.fork: the stored events, cut at the turn start after the compaction.
    const { events } = await app.ctx.sessionPersistence.readFrom(SessionId(source.id), 0)
    const cut = events.findIndex((e) => e.type === 'turn/start' && e.seq > oldCheckpoint)
    const branch = (await app.ctx.agents.create({
      sessionId: SessionId(`session-${randomUUID()}`), seed: events.slice(0, cut), agentOptions,
      meta: { cwd: source.session.header.cwd!, parentSession: source.id, seedLength: cut },
    })).agent
    const count = host.model.requests.length
    host.model.script(['Branch answer.'])
    await app.prompt(branch, `Another question.${FILLER}`)
    const after = (branch.session.events as unknown as LogEvent[]).slice(cut + 1)
    const start = after.findIndex((e) => e.type === 'compaction/start')
    assert.deepEqual(after.slice(start, start + 4).map((e) => e.type), ['compaction/start', 'compaction/summary', 'user/message', 'compaction/end'])
    assert.ok(start + 4 <= after.findIndex((e) => e.type === 'turn/start'), 'the summary is written before the first turn')
    assert.deepEqual(after[start + 2]!.surfaceOp, { op: 'replace', start: oldCheckpoint, end: oldCheckpoint })
    assert.equal(requestText(count).includes(CANARY), false, "the branch's first request lacks the canary")
    assert.equal(requestText(count).includes(SUMMARY2), true)
  })

  it('a Branch cut between two compactions takes the rewritten summary over its checkpoint and the turn after it, and cannot undo it', async () => {
    const app = await boot(roots.root())
    const source = await app.createAgent()
    host.model.script([A1, A2])
    await app.prompt(source, P1)
    await app.prompt(source, P2)
    host.model.script([SUMMARY1])
    assert.ok(await compaction(app).compactNow(source, new AbortController().signal))
    const first = source.session.surface.nodes[0]!
    host.model.script([A3])
    await app.prompt(source, P3)
    let cut = lastSeqOf(source.session.events, 'turn/end') + 1
    host.model.script([`Ship comes last.${FILLER}`])
    await app.prompt(source, `And the last step?${FILLER}`)
    host.model.script([`Summary: the code word ${CANARY}, the launch steps, staging second, ship last.`])
    assert.ok(await compaction(app).compactNow(source, new AbortController().signal), 'a second compaction folds the first and both turns')
    host.model.script([SUMMARY2])
    const reply = await app.post({ sessionId: source.id, action: 'delete', seq: prompt(source.session, P1) })
    assert.equal(reply.status, 200, reply.text)

    // As Branch from turn 3 (dsh-host-apiproxy sessions.fork): cut at the next turn start.
    while (source.session.events[cut]!.type !== 'turn/start') cut++
    const kept = source.session.events.slice(0, cut)
    const copyNodes = foldedNodes(kept)
    assert.equal(copyNodes[0], first, "the copy's surface starts with the first compaction's checkpoint")
    const branch = (await app.ctx.agents.create({
      sessionId: SessionId(`session-${randomUUID()}`), seed: kept, agentOptions,
      meta: { cwd: source.session.header.cwd!, parentSession: source.id, seedLength: cut },
    })).agent
    const copy = branch.session
    const added = appended(copy)
    assert.deepEqual(added.map((e) => e.type), ['compaction/start', 'compaction/summary', 'user/message', 'compaction/end'])
    assert.deepEqual(added[2]!.sourceEventSeqs, [added[0]!.seq, added[1]!.seq, ...copyNodes], 'one compaction over the checkpoint and the turn after it')
    assert.deepEqual(added[2]!.surfaceOp, { op: 'replace', start: copyNodes[0], end: copyNodes.at(-1) })
    assert.deepEqual([...copy.surface.nodes], [added[2]!.seq])
    assert.doesNotMatch(modelText(copy), new RegExp(CANARY))
    const m = meter(app, copy)
    assert.equal(m.breakdown, m.measure)

    const seq = copy.seq
    assertError(await app.post({ sessionId: copy.id, action: 'undoRewrite', checkpointSeq: added[2]!.seq }), 409, 'NOT_A_SUMMARY', `message-recall: seq ${added[2]!.seq} is not a summary rewrite of this plugin; only those can be undone`)
    assert.equal(copy.seq, seq, 'nothing appended')
    const count = host.model.requests.length
    host.model.script(['Fine.'])
    await app.prompt(branch, `What comes after staging?${FILLER}`)
    assert.equal(requestText(count).includes(CANARY), false)
    assert.equal(requestText(count).includes(SUMMARY2), true)
  })

  it('a copy cut before the compaction removes the prompt the rewrite took out, with its action', async () => {
    const app = await boot(roots.root())
    const { agent, p1, compactionEnd } = await rewrittenAgent(app, false)
    const source = agent.session
    const cut = lastSeqOf(source.events.slice(0, compactionEnd), 'turn/end')
    const copy = app.ctx.sessions.fork(source, cut)
    assert.deepEqual(tombstones(copy.events).map((t) => [t.action, t.shadowedSeqs]), [['delete', [p1]]])
    assert.equal(appended(copy).some((e) => e.type.startsWith('compaction/start')), false, 'the copy is not compacted (the compaction came after its cut)')
    assert.doesNotMatch(modelText(copy), new RegExp(CANARY))
    assert.match(modelText(copy), /Now list the three launch steps/)
    const m = meter(app, copy)
    assert.equal(m.breakdown, m.measure)
  })

  it('forkBefore of a removal after the rewrite holds the rewritten summary', async () => {
    const app = await boot(roots.root())
    const { agent, rewrite } = await rewrittenAgent(app, true)
    const p3 = prompt(agent.session, P3)
    const removed = await app.post({ sessionId: agent.id, action: 'delete', seq: p3 })
    assert.equal(removed.status, 200, removed.text)
    const reply = await app.post({ sessionId: agent.id, action: 'forkBefore', tombstoneSeq: removed.json.value.tombstoneSeq })
    assert.equal(reply.status, 200, reply.text)
    const copy = await app.resumeAgent(reply.json.value.forkedSessionId)
    assert.equal(copy.session.surface.nodes[0], rewrite, "the copy's summary is the rewrite")
    assert.doesNotMatch(modelText(copy.session), new RegExp(CANARY))
    assert.match(modelText(copy.session), /Which step comes second\?/, 'the message removed after the rewrite is back in the copy')
    const count = host.model.requests.length
    host.model.script(['Fine.'])
    await app.prompt(copy, `And the last step?${FILLER}`)
    assert.equal(requestText(count).includes(CANARY), false)
    assert.equal(requestText(count).includes(SUMMARY2), true)
  })
})

describe('the log without removed messages leaves out a summary a rewrite replaced', () => {
  it("rewrites the earlier compaction's summary and checkpoint, keeps the rewrite's, and DSH's backend loads it deriving the same messages", async () => {
    const app = await boot(roots.root())
    const { agent, p1, oldCheckpoint, rewrite } = await rewrittenAgent(app, true)
    const session = agent.session
    const summarySeq = (session.events[oldCheckpoint] as unknown as LogEvent).sourceEventSeqs![1]!
    const inbox = session.events.find((e) => e.type === 'agent/inbox/spliced' && JSON.stringify(e.data).includes(CANARY))!.seq
    const raw = await app.ctx.sessionPersistence.readRaw(SessionId(agent.id))
    assert.ok(raw !== undefined)
    assert.equal(raw.content.split(CANARY).length - 1, 5, "the stored log (what DSH's own Session log export archives) holds the canary in the prompt, its inbox event, the earlier summary (its text and the model's raw output) and its checkpoint")

    const out = logWithoutRemovedContent(raw.content)
    assert.deepEqual([...out.carriers], [[inbox, 'inbox'], [p1, 'message'], [summarySeq, 'summary'], [oldCheckpoint, 'checkpoint']])
    assert.equal(out.text.includes(CANARY), false, 'no canary anywhere in the exported log')
    const before = eventsOfLogText(raw.content)
    const events = eventsOfLogText(out.text)
    assert.deepEqual(events.map((e) => [e.seq, e.type]), before.map((e) => [e.seq, e.type]), 'every event, seq and type kept')
    const summary = events[summarySeq]!.data as { summary: unknown; rawOutput: unknown; shadowedTokenCount: number }
    assert.deepEqual(summary.summary, [{ type: 'text', text: REMOVED_CONTENT_MARKER }])
    assert.deepEqual(summary.rawOutput, [{ type: 'text', text: REMOVED_CONTENT_MARKER }])
    assert.equal(summary.shadowedTokenCount, (before[summarySeq]!.data as { shadowedTokenCount: number }).shadowedTokenCount, "the token meter's shadow price stays")
    const marker = { type: 'text', text: REMOVED_CONTENT_MARKER }
    assert.deepEqual((events[oldCheckpoint]!.data as { content: unknown }).content, [marker, marker, marker], "the checkpoint's three blocks (DSH's framing and the summary) each the marker")
    assert.deepEqual(events[oldCheckpoint]!.surfaceOp, before[oldCheckpoint]!.surfaceOp)
    assert.deepEqual(events[rewrite], before[rewrite], "the rewrite's checkpoint (what the model reads) is kept whole")
    assert.deepEqual(events[rewrite - 1], before[rewrite - 1], "and its compaction/summary")

    const loaded = await loadWithDshPersistence(out.text, agent.id)
    assert.deepEqual(loaded.derived, derived(session), "DSH's backend loads it, deriving the same messages")
  })
})

describe('a summary change on a session that is only stored is refused', () => {
  it('a folded removal, a batch with one (and its plan), editSummary and undoRewrite answer SESSION_NOT_LIVE with the reason; the stored log stays byte for byte, no model call; opened again, the rewrite works', async () => {
    const root = roots.root()
    let app = await boot(root)
    const { agent, rewrite } = await rewrittenAgent(app, false)
    const id = agent.id
    const p2 = prompt(agent.session, P2)
    app = await restart(app, root)
    assert.equal(app.ctx.sessions.get(SessionId(id)), undefined, 'stored only')
    const file = sessionFile(root, id)
    const bytes = readFileSync(file)
    const calls = host.model.requests.length
    const message = `message-recall: session "${id}" is not open in this host; a compaction summary is rewritten, edited or put back only while the session is open (its agent writes the summary): open it, then try again`
    for (const body of [
      { action: 'delete', seq: p2 },
      { action: 'exclude', seq: p2 },
      { action: 'recall', seq: p2 },
      { action: 'apply', changes: [{ action: 'delete', seq: p2 }] },
      { action: 'plan', changes: [{ action: 'delete', seq: p2 }] },
      { action: 'plan', changes: [{ action: 'delete', seq: p2 }], detail: 'counts' },
      { action: 'editSummary', checkpointSeq: rewrite, summary: 'Edited by hand.' },
      { action: 'undoRewrite', checkpointSeq: rewrite },
    ]) assertError(await app.post({ sessionId: id, ...body }), 409, 'SESSION_NOT_LIVE', message)
    assertError(await app.post({ sessionId: 'session-nobody', action: 'editSummary', checkpointSeq: rewrite, summary: 'x' }), 409, 'SESSION_NOT_LIVE', 'message-recall: no session "session-nobody" (neither open in this host nor stored)')
    assert.deepEqual(readFileSync(file), bytes, 'nothing appended, not even session/end-seed')
    assert.equal(host.model.requests.length, calls, 'no model call')
    assert.equal(app.ctx.sessions.get(SessionId(id)), undefined, 'still stored only')
    const preview = await app.post({ sessionId: id, action: 'plan', planAction: 'delete', seq: p2 })
    assert.equal(preview.status, 200, 'plan only reads, also on a stored session')

    const resumed = await app.resumeAgent(id)
    host.model.script(['The user asked nothing that remains.'])
    const reply = await app.post({ sessionId: id, action: 'delete', seq: p2 })
    assert.equal(reply.status, 200, reply.text)
    assert.deepEqual(readRewriteCheckpoint(resumed.session.events[reply.json.value.tombstoneSeq]! as unknown as LogEvent)?.removals.map((r) => r.action), ['delete', 'delete'])
  })
})
