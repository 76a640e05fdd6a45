/**
 * A property test over every route action, wire-level, on the real rc.8 composition (session
 * store, agent loop, JSONL persistence on disk, web server over HTTP, the token meter, the
 * invariant companions; the model is DSH's mock server). Each run seeds two or three agent
 * sessions with realistic logs (multi-tool steps, steering messages, runtime context) and then
 * plays a random sequence of steps: `recall`, `delete`, `deleteFrom`, `exclude`, `restore`,
 * `apply` (mixed batches), `forkBefore`, `plan` (single and batch), `inspect`, `flush`, real turns
 * through the agent loop, compactions (a checkpoint as `dsh-compaction-basic` commits one, inside
 * `agent.runMaintenance`), tool-result prunes (as `dsh-compaction-tool-result-pruner` writes them,
 * from an `agent/pre-step` listener inside a real turn), cold reloads from disk (so the sessions are
 * stored and not live) and resumes. Targets are drawn from the surface, with seqs past the log now
 * and then. After every step:
 *
 * - no reply is a 5xx;
 * - a refusal appends nothing to any session (live: the log's length; stored: the file's bytes) and
 *   stores no new session; a batch is all or nothing (a refused `apply` is a refusal);
 * - no tool call is split from its result on the surface, nor on the wire of the next model request;
 * - `foldSurface(events).nodes` equals the live surface;
 * - the text of every removed or excluded message is in neither `deriveMessages()` nor the next
 *   model request, and a restored message is derived exactly as it was;
 * - every consumer of the fate reader agrees row by row (`test/client/support/fate-check.ts`);
 * - a copy holds exactly the source's events before its tombstone;
 * - `inspect` lists exactly the tombstones of the live log and of the stored log;
 * - the token meter's `contextBreakdown` projection equals `measure()` on every live session.
 *
 * `PROPERTY_RUNS` (default 10) and `PROPERTY_STEPS` (default 20, the most steps per run) size the
 * run; `PROPERTY_SEED` and `PROPERTY_PATH` replay a reported failure. A failure prints the seed, the
 * path and the step list; shrinking is off (each run boots a host) unless `PROPERTY_SHRINK=1`.
 */
import '../client/support/dom'
import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { after, before, describe, it } from 'node:test'
import fc from 'fast-check'
import type { Agent } from '@deepseek-ai/dsh-agent'
import { createUserMessage } from '@deepseek-ai/dsh-llm'
import { foldSurface, Session, SessionId, type SessionEvent } from '@deepseek-ai/dsh-session'
import { toolPairingBalancedAfter } from '@deepseek-ai/dsh-compaction'
import type { DshApp } from '../support/dsh-app'
import { toolPairingProblems, wireMessages, wireText } from '../support/wire'
import {
  applyResultsOf, batchBody, forkBody, forkOf, inspectedTombstones, planBody, removalBody, removalOf, restoreBody, restoreOf, sessionBody,
  type RemovalActionName, type WireChange,
} from '../support/recall-wire'
import { replacementDefinition, replacementView } from '../../src/client/wire/replacement-view'
import type { LogEvent } from '../../src/shared/events'
import { readTombstone } from '../../src/shared/tombstone'
import { toolCallIds, toolResultCallId } from '../../src/shared/surface-node'
import { plainText } from '../../src/shared/message-text'
import { bootClient, type BootedClient } from '../client/support/page'
import { assertFatesAgree, noSituations } from '../client/support/fate-check'
import { LogBuilder } from './log-builder'
import { Roots, sessionFile } from './helpers'

const RUNS = Number(process.env.PROPERTY_RUNS ?? 10)
const MAX_STEPS = Number(process.env.PROPERTY_STEPS ?? 20)
const SEED = process.env.PROPERTY_SEED === undefined ? undefined : Number(process.env.PROPERTY_SEED)
const PATH = process.env.PROPERTY_PATH
const SHRINK = process.env.PROPERTY_SHRINK === '1'

// ---------------------------------------------------------------- generators

interface SeedShape { turns: { steps: { calls: number; steer: boolean }[]; context: boolean }[] }
const seedShape: fc.Arbitrary<SeedShape> = fc.record({
  turns: fc.array(fc.record({
    steps: fc.array(fc.record({ calls: fc.integer({ min: 0, max: 3 }), steer: fc.boolean() }), { minLength: 1, maxLength: 3 }),
    context: fc.boolean(),
  }), { minLength: 2, maxLength: 5 }),
})

type StepKind = RemovalActionName | 'restore' | 'apply' | 'forkBefore' | 'plan' | 'planBatch' | 'inspect' | 'flush'
  | 'turn' | 'compact' | 'prune' | 'reload' | 'resume'
interface Step { kind: StepKind; s: number; p: number; picks: number[]; acts: number[]; bad: number }
const weighted = (kind: StepKind, weight: number) => ({ arbitrary: fc.constant(kind), weight })
const stepKind = fc.oneof(
  weighted('recall', 2), weighted('delete', 4), weighted('deleteFrom', 2), weighted('exclude', 3), weighted('restore', 4),
  weighted('apply', 4), weighted('forkBefore', 2), weighted('plan', 2), weighted('planBatch', 1), weighted('inspect', 2),
  weighted('flush', 1), weighted('turn', 3), weighted('compact', 1), weighted('prune', 1), weighted('reload', 2), weighted('resume', 1),
)
const step: fc.Arbitrary<Step> = fc.record({
  kind: stepKind, s: fc.nat(), p: fc.nat(), bad: fc.nat({ max: 11 }),
  picks: fc.array(fc.nat(), { minLength: 1, maxLength: 5 }), acts: fc.array(fc.nat({ max: 3 }), { minLength: 5, maxLength: 5 }),
})

// ---------------------------------------------------------------- the world of one run

interface World {
  app: DshApp
  root: string
  /** Every session of the run: the seeded ones and the copies. */
  ids: string[]
  /** Live agents by session id (a reload empties it). */
  agents: Map<string, Agent>
  /** Per session: what each write's reply said, by the seq it wrote: texts removed or excluded, or a text restored. */
  history: Map<string, { seq: number; removed: string[]; restored: string | null }[]>
  /** Counters for unique texts. */
  serial: number
  /** A prune armed for the next turn of this session id. */
  pruneFor: string | null
}

const BOOT = { tokenMeter: true } as const

/** The events of one session: the live log when it is live, else the stored log. */
async function eventsOf(w: World, id: string): Promise<{ events: readonly LogEvent[]; live: Session | undefined }> {
  const live = w.app.ctx.sessions.get(SessionId(id))
  if (live) return { events: live.events as readonly LogEvent[], live }
  return { events: (await w.app.ctx.sessionPersistence.readFrom(SessionId(id), 0)).events as readonly LogEvent[], live: undefined }
}

/** A fingerprint of every session and of the stored list: equal before and after a refusal. */
async function fingerprint(w: World): Promise<string> {
  const parts: string[] = []
  for (const id of w.ids) {
    const live = w.app.ctx.sessions.get(SessionId(id))
    parts.push(live ? `${id}:live:${live.seq}` : `${id}:stored:${readFileSync(sessionFile(w.root, id)).toString('base64')}`)
  }
  parts.push((await w.app.ctx.sessionPersistence.list()).map((h) => h.id).sort().join(','))
  return parts.join('\n')
}

/** The plain text of a message event, or null. */
function textOf(event: LogEvent | undefined): string | null {
  const data = event?.data as { message?: { content?: unknown }; content?: unknown } | undefined
  const content = data?.message?.content ?? data?.content
  if (!Array.isArray(content)) return null
  // A tool result's blocks carry their own content blocks.
  const blocks = content.flatMap((b: { content?: unknown }) => (Array.isArray(b?.content) ? b.content : [b]))
  const text = plainText(blocks)
  return text === '' ? null : text
}

/** The message id of a message event, or null. */
function messageIdOf(event: LogEvent | undefined): string | null {
  const data = event?.data as { id?: string; message?: { id?: string } } | undefined
  return data?.message?.id ?? data?.id ?? null
}

/** Texts that name one message: every event carrying the text carries the same message id. */
function trackable(events: readonly LogEvent[], text: string): boolean {
  const ids = new Set<string | null>()
  for (const e of events) if (textOf(e) === text) ids.add(messageIdOf(e))
  return ids.size === 1
}

/** Record that the write at `seq` removed the texts of `seqs` on session `id` (texts naming more than one message are skipped). */
function markRemoved(w: World, id: string, events: readonly LogEvent[], seq: number, seqs: readonly number[]): void {
  const texts = seqs.map((s) => textOf(events[s])).filter((text): text is string => text !== null && trackable(events, text))
  history(w, id).push({ seq, removed: texts, restored: null })
}

/** Record that the write at `seq` restored the text `text` on session `id`. */
function markRestored(w: World, id: string, seq: number, text: string | null): void {
  history(w, id).push({ seq, removed: [], restored: text })
}

function history(w: World, id: string): { seq: number; removed: string[]; restored: string | null }[] {
  const list = w.history.get(id) ?? []
  w.history.set(id, list)
  return list
}

/** The texts removed on session `id` by its writes before seq `before` and not restored since. */
function removedTexts(w: World, id: string, before = Infinity): Set<string> {
  const set = new Set<string>()
  for (const h of [...history(w, id)].sort((a, b) => a.seq - b.seq)) {
    if (h.seq >= before) break
    for (const text of h.removed) set.add(text)
    if (h.restored !== null) set.delete(h.restored)
  }
  return set
}

/** A unique realistic log for a seeded session. */
function seedLog(shape: SeedShape, k: number): LogEvent[] {
  const b = new LogBuilder(`seed-${k}`)
  shape.turns.forEach((turn, t) => {
    b.startTurn()
    turn.steps.forEach((s, i) => {
      b.startStep()
      if (i === 0) b.user(`prompt s${k} t${t}: please look at the project.`)
      else if (s.steer) b.user(`steer s${k} t${t}.${i}: also check the tests.`)
      if (turn.context) b.context()
      const calls = Array.from({ length: s.calls }, (_, c) => `f${c}`)
      b.assistant(`answer s${k} t${t}.${i}: reading files.`, calls)
      for (const name of calls) b.result(name, `result s${k} t${t}.${i}.${name}: file contents.`)
    })
    b.endTurn()
  })
  return [...b.events]
}

// ---------------------------------------------------------------- checks

/** Unanswered calls and unasked results on a surface. */
function surfacePairing(events: readonly LogEvent[], nodes: readonly number[]): string[] {
  const calls = new Set<string>()
  const results = new Set<string>()
  for (const seq of nodes) {
    for (const id of toolCallIds(events[seq]!)) calls.add(id)
    const id = toolResultCallId(events[seq]!)
    if (id !== null) results.add(id)
  }
  return [...[...calls].filter((id) => !results.has(id)).map((id) => `call ${id} has no result`),
    ...[...results].filter((id) => !calls.has(id)).map((id) => `result ${id} has no call`)]
}

let client: BootedClient
const seen = noSituations()
const tally = { codes: {} as Record<string, number>, steps: 0, runs: 0, refusals: 0, prunes: 0, compactions: 0, turns: 0, copies: 0, byKind: {} as Record<string, number>, okByKind: {} as Record<string, number> }

/** Every invariant of one session after a step. */
async function checkSession(w: World, id: string, where: string): Promise<void> {
  const { events, live } = await eventsOf(w, id)
  const fold = foldSurface(events as readonly SessionEvent[]).nodes
  if (live) assert.deepEqual([...fold], [...live.surface.nodes], `${where}: foldSurface equals the live surface of ${id}`)
  assert.deepEqual(surfacePairing(events, fold), [], `${where}: no split tool pair on ${id}`)
  const session = live ?? Session.create(SessionId(`check-${id}`), events as readonly SessionEvent[])
  const derived = JSON.stringify(session.deriveMessages())
  for (const text of removedTexts(w, id)) {
    // A text another message carries now (DSH's runtime-context note, written again by a later turn) names no one message.
    if (!trackable(events, text)) continue
    assert.ok(!derived.includes(JSON.stringify(text).slice(1, -1)), `${where}: removed text ${JSON.stringify(text)} is not derived on ${id}`)
  }
  assertFatesAgree(client, events, seen)
  if (live) {
    const values = w.app.ctx.sessionProjections.snapshot(live).values as { contextBreakdown: { messageTokens: number } }
    assert.equal(values.contextBreakdown.messageTokens, w.app.ctx.tokenMeter.measure(live).surfaceTokens, `${where}: the token meter's projection equals measure() on ${id}`)
  }
}

/** The last model request carries no removed text of `id` and pairs every tool call. */
async function checkWire(w: World, id: string, where: string): Promise<void> {
  const { events } = await eventsOf(w, id)
  const messages = wireMessages(w.app.mock)
  assert.deepEqual(toolPairingProblems(messages), [], `${where}: the model request pairs every tool call`)
  const text = wireText(messages)
  for (const removed of removedTexts(w, id)) {
    if (!trackable(events, removed)) continue
    assert.ok(!text.includes(JSON.stringify(removed).slice(1, -1)), `${where}: removed text ${JSON.stringify(removed)} is not sent to the model`)
  }
}

// ---------------------------------------------------------------- steps

async function agentFor(w: World, id: string): Promise<Agent | null> {
  const agent = w.agents.get(id)
  if (agent) return agent
  if (w.app.ctx.sessions.get(SessionId(id))) return null // live without an agent here: leave it
  const resumed = (await w.app.ctx.agents.resume({ resumeSessionId: SessionId(id), agentOptions: { provider: 'deepseek-official', model: 'deepseek-v4-flash' } })).agent
  w.agents.set(id, resumed)
  return resumed
}

/** A target seq: a surface node by `pick`, or now and then a seq past the log. */
function target(events: readonly LogEvent[], nodes: readonly number[], pick: number, bad: number): number {
  if (bad === 0 || nodes.length === 0) return events.length + 3
  // Half the time a message the person sent, so restores have something to undo.
  const prompts = nodes.filter((seq) => events[seq]!.type === 'user/message' && (events[seq]!.data as { source?: { kind?: string } }).source?.kind === 'user')
  if (bad % 2 === 1 && prompts.length > 0) return prompts[pick % prompts.length]!
  return nodes[pick % nodes.length]!
}

/** A tombstone of this plugin on the log by `pick`, or a non-tombstone now and then. */
function tombstonePick(events: readonly LogEvent[], pick: number, bad: number): number {
  const all = events.filter((e) => readTombstone(e) !== null).map((e) => e.seq)
  // Mostly tombstones still on the surface (the ones a restore can undo), now and then any.
  const surface = new Set(foldSurface(events as readonly SessionEvent[]).nodes)
  const current = all.filter((seq) => surface.has(seq))
  const tombstones = bad % 3 === 0 || current.length === 0 ? all : current
  if (bad <= 1 || tombstones.length === 0) return bad === 0 ? events.length + 2 : 1 + (pick % Math.max(1, events.length - 1))
  return tombstones[pick % tombstones.length]!
}

const REMOVALS: readonly ('delete' | 'deleteFrom' | 'exclude')[] = ['delete', 'deleteFrom', 'exclude']

async function runStep(w: World, st: Step, n: number, log: string[]): Promise<void> {
  const id = w.ids[st.s % w.ids.length]!
  const where = `step ${n} (${st.kind} on ${id})`
  tally.steps++
  tally.byKind[st.kind] = (tally.byKind[st.kind] ?? 0) + 1

  if (st.kind === 'reload') {
    log.push(`${n}: reload`)
    await roots.shut(w.app)
    w.app = await bootApp(w)
    w.agents.clear()
    for (const each of w.ids) await checkSession(w, each, where)
    return
  }
  if (st.kind === 'resume' || st.kind === 'turn' || st.kind === 'prune') {
    const agent = await agentFor(w, id)
    log.push(`${n}: ${st.kind} ${id}`)
    if (st.kind !== 'resume' && agent) {
      if (st.kind === 'prune') w.pruneFor = id
      const before = w.app.mock.requests.length
      await w.app.prompt(agent, `turn ${w.serial++} of ${id}: carry on.`)
      w.pruneFor = null
      assert.ok(w.app.mock.requests.length > before, `${where}: the turn reached the model`)
      tally.turns++
      await checkWire(w, id, where)
      assert.equal(await w.app.ctx.sessions.flush(agent.session), true)
    }
    await checkSession(w, id, where)
    return
  }
  if (st.kind === 'compact') {
    const agent = await agentFor(w, id)
    log.push(`${n}: compact ${id}`)
    if (agent) await compact(w, agent, st.p)
    await checkSession(w, id, where)
    return
  }

  // A request to the route.
  const { events } = await eventsOf(w, id)
  const nodes = foldSurface(events as readonly SessionEvent[]).nodes
  let body: Record<string, unknown>
  switch (st.kind) {
    case 'recall': case 'delete': case 'deleteFrom': case 'exclude':
      body = removalBody(id, st.kind, target(events, nodes, st.p, st.bad)); break
    case 'plan':
      body = planBody(id, (['recall', 'delete', 'deleteFrom', 'exclude'] as const)[st.acts[0]!]!, target(events, nodes, st.p, st.bad)); break
    case 'restore': body = restoreBody(id, tombstonePick(events, st.p, st.bad)); break
    case 'forkBefore': body = forkBody(id, tombstonePick(events, st.p, st.bad)); break
    case 'inspect': case 'flush': body = sessionBody(id, st.kind); break
    default: {
      const changes: WireChange[] = st.picks.map((pick, i) => (st.acts[i]! === 3
        ? { action: 'restore' as const, tombstoneSeq: tombstonePick(events, pick, st.bad + 2) }
        : { action: REMOVALS[st.acts[i]!]!, seq: target(events, nodes, pick, i === 0 ? st.bad : 1) }))
      body = batchBody(id, st.kind === 'apply' ? 'apply' : 'plan', changes)
    }
  }
  log.push(`${n}: ${JSON.stringify(body)}`)
  const mark = await fingerprint(w)
  const reply = await w.app.post(body)
  assert.ok(reply.status < 500, `${where}: no 5xx: ${reply.status} ${reply.text}`)
  const read = st.kind === 'inspect' || st.kind === 'plan' || st.kind === 'planBatch' || st.kind === 'flush'
  if (reply.status !== 200 || read) {
    if (reply.status !== 200) {
      tally.refusals++
      const code = `${st.kind}:${reply.json?.error?.code}`
      tally.codes[code] = (tally.codes[code] ?? 0) + 1
      if (process.env.PROPERTY_DEBUG) console.log(`${where}: ${reply.text}`)
      assert.equal(reply.json?.ok, false, `${where}: a refusal says ok: false`)
    }
    assert.equal(await fingerprint(w), mark, `${where}: ${reply.status === 200 ? 'a read' : 'a refusal'} appends nothing to any session: ${reply.text}`)
  }
  if (reply.status === 200) {
    tally.okByKind[st.kind] = (tally.okByKind[st.kind] ?? 0) + 1
    await checkSuccess(w, id, st.kind, body, reply.json.value, events, where)
  }
  await checkSession(w, id, where)
}

/** What a successful reply must have done. */
async function checkSuccess(w: World, id: string, kind: StepKind, body: Record<string, unknown>, value: any, before: readonly LogEvent[], where: string): Promise<void> {
  const { events } = await eventsOf(w, id)
  const nodes = new Set(foldSurface(events as readonly SessionEvent[]).nodes)
  if (kind === 'recall' || kind === 'delete' || kind === 'deleteFrom' || kind === 'exclude') {
    const removal = removalOf(value)
    assert.ok(nodes.has(removal.tombstoneSeq), `${where}: the tombstone is on the surface`)
    for (const seq of removal.shadowed) assert.ok(!nodes.has(seq), `${where}: seq ${seq} left the surface`)
    markRemoved(w, id, events, removal.tombstoneSeq, removal.shadowed)
    if (kind === 'recall') assert.equal(removal.text, textOf(before[body.seq as number]) ?? '', `${where}: recall answers the prompt's text`)
  } else if (kind === 'restore') {
    const restored = restoreOf(value)
    const original = events[restored.originalSeq]!
    assert.ok(nodes.has(restored.restoredSeq) && !nodes.has(restored.tombstoneSeq), `${where}: the copy replaced the tombstone`)
    assert.deepEqual(events[restored.restoredSeq]!.data, original.data, `${where}: the restored message is exactly the removed one`)
    markRestored(w, id, restored.restoredSeq, textOf(original))
    const { live } = await eventsOf(w, id)
    const session = live ?? Session.create(SessionId(`check-${id}`), events as readonly SessionEvent[])
    const derived = session.deriveMessages() as { id: string }[]
    assert.deepEqual(derived.filter((m) => m.id === restored.messageId), [(original.data as object)], `${where}: the restored message is derived exactly as it was`)
  } else if (kind === 'apply') {
    const results = applyResultsOf(value)
    const changes = body.changes as WireChange[]
    assert.deepEqual(results.map((r) => r.index), changes.map((_, i) => i), `${where}: one result per change`)
    for (const r of results) {
      if (r.shadowed) {
        for (const seq of r.shadowed) assert.ok(!nodes.has(seq), `${where}: change ${r.index}: seq ${seq} left the surface`)
        markRemoved(w, id, events, r.tombstoneSeq, r.shadowed)
      }
      if (r.restoredSeq !== undefined) markRestored(w, id, r.restoredSeq, textOf(events[r.restoredSeq]))
    }
  } else if (kind === 'inspect') {
    const { live } = await eventsOf(w, id)
    const tombstonesOf = (log: readonly LogEvent[]) => log.filter((e) => readTombstone(e) !== null).map((e) => e.seq)
    const inspected = inspectedTombstones(value)
    assert.deepEqual(inspected.live, live ? tombstonesOf(events) : null, `${where}: inspect's live side lists the live log's tombstones`)
    const stored = (await w.app.ctx.sessionPersistence.readFrom(SessionId(id), 0)).events as readonly LogEvent[]
    assert.deepEqual(inspected.disk, tombstonesOf(stored), `${where}: inspect's disk side lists the stored log's tombstones`)
  } else if (kind === 'forkBefore') {
    const fork = forkOf(value)
    const tombstoneSeq = body.tombstoneSeq as number
    assert.equal(fork.boundarySeq, tombstoneSeq - 1, `${where}: the boundary is the event before the tombstone`)
    const copy = (await w.app.ctx.sessionPersistence.readFrom(SessionId(fork.copyId), 0)).events as readonly LogEvent[]
    assert.deepEqual(JSON.parse(JSON.stringify(copy.slice(0, tombstoneSeq))), JSON.parse(JSON.stringify(events.slice(0, tombstoneSeq))), `${where}: the copy equals the source before its tombstone`)
    // rc.8's Session appends `session/end-seed` after a seed that does not end with one (`dsh-session` `Session` constructor).
    const rest = copy.slice(tombstoneSeq).map((e) => e.type).filter((type) => type !== 'session/end-seed')
    assert.deepEqual(rest, ['session/title'], `${where}: then only DSH's seed marker and its own title`)
    // The copy's removals are those the source's writes made before the tombstone.
    w.history.set(fork.copyId, history(w, id).filter((h) => h.seq < tombstoneSeq))
    tally.copies++
    if (w.ids.length < 5) w.ids.push(fork.copyId)
    await checkSession(w, fork.copyId, `${where} (the copy)`)
  }
}

/** A compaction checkpoint over a balanced prefix of the surface, as `dsh-compaction-basic` commits one. */
async function compact(w: World, agent: Agent, pick: number): Promise<void> {
  await agent.runMaintenance(async () => {
    const session = agent.session
    const nodes = session.surface.nodes
    const ends = nodes.slice(1).filter((seq) => toolPairingBalancedAfter(session, seq))
    if (ends.length === 0) return
    const end = ends[pick % ends.length]!
    const start = nodes[0]!
    const shadowed = nodes.slice(0, nodes.indexOf(end) + 1)
    const price = shadowed.reduce((sum, seq) => {
      const message = session.deriveEventMessage(session.events[seq]!)
      return sum + (message === null ? 0 : w.app.ctx.tokenMeter.estimateMessage(message))
    }, 0)
    const compactionId = `compaction-${w.serial++}`
    const summary = `summary ${compactionId}: the earlier conversation.`
    const append = session.append.bind(session) as (type: string, data: unknown, ...o: unknown[]) => { seq: number }
    const startSeq = append('compaction/start', { compactionId, turn: null }).seq
    const summarySeq = append('compaction/summary', {
      compactionId, summary: [{ type: 'text', text: summary }], shadowedRange: { start, end }, shadowedSeqs: shadowed, shadowedTokenCount: price,
      provider: 'deepseek-official', model: 'deepseek-v4-flash',
    }).seq
    const message = createUserMessage({ content: [{ type: 'text', text: summary }], source: { kind: 'plugin', plugin: 'compact', compactionId } as never })
    append('user/message', message, { surfaceOp: { op: 'replace', start, end }, sourceEventSeqs: [startSeq, summarySeq, ...shadowed] })
    append('compaction/end', { compactionId, turn: null })
    tally.compactions++
  })
  assert.equal(await w.app.ctx.sessions.flush(agent.session), true)
}

/** Prune one tool result of the session inside the turn, as the tool-result pruner does. */
function pruneOne(w: World, session: Session): void {
  const events = session.events as readonly LogEvent[]
  const results = session.surface.nodes.filter((seq) => events[seq]!.type === 'tool/result' && !JSON.stringify(events[seq]!.data).includes('middle pruned'))
  if (results.length === 0) return
  const seq = results[w.serial++ % results.length]!
  const original = events[seq] as unknown as { data: { message: { content: { content: unknown }[] } } }
  const block = original.data.message.content[0]!
  const message = session.deriveEventMessage(session.events[seq]!)
  const price = message === null ? 0 : w.app.ctx.tokenMeter.estimateMessage(message)
  const append = session.append.bind(session) as (type: string, data: unknown, ...o: unknown[]) => { seq: number }
  append('compaction/prune', { shadowedRange: { start: seq, end: seq }, shadowedSeqs: [seq], shadowedTokenCount: price })
  const data = { ...original.data, message: { ...original.data.message, content: [{ ...block, content: [{ type: 'text', text: 'head\n\n[... tool result middle pruned ...]\n\ntail' }] }] } }
  append('tool/result', data, { surfaceOp: { op: 'replace', start: seq, end: seq }, sourceEventSeqs: [seq] })
  tally.prunes++
}

// ---------------------------------------------------------------- the property

/** Boot the composition on the world's root, with the pruner's hook: inside a real turn, before its step, when a prune is armed. */
async function bootApp(w: World): Promise<DshApp> {
  const app = await roots.boot(w.root, BOOT)
  app.ctx.on('agent/pre-step' as never, ((_payload: unknown, next: () => unknown) => {
    const agent = w.pruneFor === null ? undefined : w.agents.get(w.pruneFor)
    if (agent) {
      w.pruneFor = null
      pruneOne(w, agent.session)
    }
    return next()
  }) as never)
  return app
}

const roots = new Roots()
after(() => roots.dispose())

describe('every action, at random, on live and stored sessions', () => {
  before(async () => {
    client = await bootClient()
    client.events.register(replacementDefinition)
    client.views.register(replacementView)
  })
  after(async () => {
    await client.dispose()
  })

  it('keeps every invariant after every step', async () => {
    const started = Date.now()
    let lastLog: string[] = []
    const property = fc.asyncProperty(fc.array(seedShape, { minLength: 2, maxLength: 3 }), fc.array(step, { minLength: Math.min(8, MAX_STEPS), maxLength: MAX_STEPS }), async (shapes, steps) => {
      tally.runs++
      const root = roots.root()
      const w: World = { app: undefined as unknown as DshApp, root, ids: [], agents: new Map(), history: new Map(), serial: 0, pruneFor: null }
      w.app = await bootApp(w)
      const app = w.app
      const log: string[] = []
      lastLog = log
      try {
        for (const [k, shape] of shapes.entries()) {
          const agent = await app.createAgent({ seed: seedLog(shape, k) as SessionEvent[] })
          w.ids.push(agent.id)
          w.agents.set(agent.id, agent)
          assert.equal(await app.ctx.sessions.flush(agent.session), true)
        }
        let n = 0
        for (const st of steps) await runStep(w, st, n++, log)
      } finally {
        await roots.shut(w.app).catch(() => {})
      }
    })
    try {
      await fc.assert(property, {
        numRuns: RUNS, ...(SEED === undefined ? {} : { seed: SEED }), ...(PATH === undefined ? {} : { path: PATH }), endOnFailure: !SHRINK,
        reporter: (details) => {
          if (details.failed) {
            console.error(`property failed: seed ${details.seed}, path ${details.counterexamplePath}; replay with PROPERTY_SEED=${details.seed} PROPERTY_PATH=${details.counterexamplePath}`)
            console.error(`steps of the failing run:\n${lastLog.join('\n')}`)
            const cause = details.errorInstance as Error | undefined
            throw new Error(`${cause?.message ?? 'no error'}\n${fc.defaultReportMessage(details)}`, { cause })
          }
        },
      })
    } finally {
      console.log(`property: ${tally.runs} runs, ${tally.steps} steps, ${tally.refusals} refusals, ${((Date.now() - started) / 1000).toFixed(1)} s`)
      console.log(`real turns ${tally.turns}, prunes ${tally.prunes}, compactions ${tally.compactions}, copies ${tally.copies}`)
      console.log(`steps by kind: ${JSON.stringify(tally.byKind)}`)
      console.log(`successful requests by kind: ${JSON.stringify(tally.okByKind)}`)
      console.log(`refusals by kind and code: ${JSON.stringify(tally.codes)}`)
      console.log(`fate situations: ${JSON.stringify(seen)}`)
    }
  })
})
