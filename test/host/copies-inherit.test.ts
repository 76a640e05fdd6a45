/**
 * Copies DSH makes of a session's log inherit its removals, on the real rc.8 composition (JSONL
 * persistence, invariant companions, the session-title service, the real agent loop and DSH's
 * mock model):
 * - `SessionStore.fork` cut before a removal: the copy gets its own tombstone over the same
 *   messages (same action, same seqs), its derived messages equal the source's, the title
 *   follows, a cold reload keeps it, a resume does not inherit again, and a real turn in the copy
 *   sends no removed text;
 * - a cut inside a removed range writes the part that lies inside it, whole steps;
 * - an exclusion is inherited as an exclusion; a removal inside the copied part comes along and
 *   nothing is added;
 * - a subagent fork seeded the way `dsh-subagent-fork-in-process` seeds it (`completedTurnPrefix`:
 *   the parent's events up to its last `turn/end`, so a tombstone written after it is not in the
 *   seed) with the header `dsh-subagent` `childSessionMeta` writes: the child's first request lacks
 *   the removed prompt;
 * - a Branch of a stored source, seeded the way `dsh-host-apiproxy` `sessions.fork` seeds it: the
 *   tombstone follows the read of the stored source, and the first request waits for it;
 * - the plugin's own `forkBefore` copy inherits nothing (it is the conversation before the removal).
 */
import assert from 'node:assert/strict'
import { randomUUID } from 'node:crypto'
import { after, describe, it } from 'node:test'
import type { Agent } from '@deepseek-ai/dsh-agent'
import { SessionId, type Session, type SessionEvent } from '@deepseek-ai/dsh-session'
import { MODEL, PROVIDER, waitFor, type DshApp } from '../support/dsh-app'
import type { LogEvent } from '../../src/shared/events'
import { readTombstone } from '../../src/shared/tombstone'
import { ToolPairingIndex } from '../../src/shared/tool-pairing'
import { node, Roots, seededAgent } from './helpers'

const roots = new Roots()
after(() => roots.dispose())
const agentOptions = { provider: PROVIDER, model: MODEL }

/** POST a removal and return its tombstone seq. */
async function remove(app: DshApp, sessionId: string, body: object): Promise<number> {
  const reply = await app.post({ sessionId, ...body })
  assert.equal(reply.status, 200, reply.text)
  return reply.json.value.tombstoneSeq as number
}

/** The tombstones of this plugin in a log, as records. */
const tombstones = (events: readonly SessionEvent[]) => events.map((e) => readTombstone(e)).filter((t) => t !== null)

/** Derived messages without message ids and a tombstone's `removedSeqs` (its id is fresh in each log, and it names what it shadows in its own log). */
const withoutIds = (session: Session): unknown => JSON.parse(JSON.stringify(session.deriveMessages(), (key, value) => (key === 'id' || key === 'removedSeqs' ? undefined : value)))

/** The last `turn/end` seq below `before`. */
const lastTurnEndBefore = (events: readonly SessionEvent[], before: number): number => events.slice(0, before).findLast((e) => e.type === 'turn/end')!.seq

/** Every text a captured request carried, as one string. */
const requestText = (app: DshApp, index: number): string => JSON.stringify(app.mock.requests[index]?.body)

describe('SessionStore.fork inherits removals', () => {
  it('writes the removal after the cut into the copy: same action and seqs, same derived messages and title, after a cold reload too; a real turn sends no removed text', async () => {
    const root = roots.root()
    let app = await roots.boot(root, { sessionTitle: true, tokenMeter: true })
    const source = await app.createAgent()
    for (const text of ['prompt #1: canary-7f3 first question', 'prompt #2: second question', 'prompt #3: third question']) await app.prompt(source, text)
    assert.equal(app.ctx.sessionTitle.get(source.session)?.title, 'prompt #1: canary-7f3 first question')
    const removed = await remove(app, source.id, { action: 'recall', seq: node(source.session, 'user/message', 'prompt #1:') })
    const sourceTitle = app.ctx.sessionTitle.get(source.session)?.title
    assert.equal(sourceTitle, 'prompt #2: second question', 'the source was retitled from its first remaining prompt')

    const cut = lastTurnEndBefore(source.session.events, removed)
    const copy = app.ctx.sessions.fork(source.session, cut)
    assert.equal(copy.header.parentSession, source.id)
    assert.equal(copy.header.seedLength, cut + 1)
    for (let seq = 0; seq <= cut; seq++) assert.deepEqual(copy.events[seq], source.session.events[seq], `seq ${seq} is the same event in both logs`)
    assert.equal(copy.events[cut + 1]?.type, 'session/end-seed')

    const [inherited, ...more] = tombstones(copy.events)
    assert.deepEqual(more, [], 'one tombstone in the copy')
    const original = readTombstone(source.session.events[removed]!)!
    assert.deepEqual({ ...inherited, seq: 0 }, { ...original, seq: 0 }, 'the same action, range and shadowed seqs')
    assert.ok(inherited!.seq > cut + 1, 'written after the seed')
    assert.deepEqual(withoutIds(copy), withoutIds(source.session), 'the copy derives what the source derives')
    assert.doesNotMatch(JSON.stringify(copy.deriveMessages()), /canary-7f3/)
    assert.equal(app.ctx.sessionTitle.get(copy)?.title, sourceTitle, 'retitled the way the source was')

    await roots.shut(app)
    app = await roots.boot(root, { sessionTitle: true, tokenMeter: true })
    const resumed = await app.resumeAgent(copy.id)
    assert.deepEqual(tombstones(resumed.session.events).map((t) => t.seq), [inherited!.seq], 'a resume inherits nothing again')
    assert.doesNotMatch(JSON.stringify(resumed.session.deriveMessages()), /canary-7f3/)
    assert.equal(app.ctx.sessionTitle.get(resumed.session)?.title, sourceTitle)

    const before = app.mock.requests.length
    await app.prompt(resumed, 'prompt #4: go on')
    assert.equal(app.mock.requests.length, before + 1)
    assert.doesNotMatch(requestText(app, before), /canary-7f3/)
    assert.match(requestText(app, before), /prompt #4: go on/)
    assert.match(requestText(app, before), /prompt #2:/)
  })

  it('writes the part of a removed range that lies inside the cut, whole steps', async () => {
    const app = await roots.boot(roots.root())
    const source = await seededAgent(app, 3)
    const removed = await remove(app, source.id, { action: 'deleteFrom', seq: node(source.session, 'user/message', 'prompt #2:') })
    const original = readTombstone(source.session.events[removed]!)!
    // Cut after turn 2: the range runs on into turn 3.
    const turn2End = source.session.events.filter((e) => e.type === 'turn/end')[1]!.seq
    const copy = app.ctx.sessions.fork(source.session, turn2End)
    const [inherited, ...more] = tombstones(copy.events)
    assert.deepEqual(more, [])
    const inside = original.shadowedSeqs.filter((seq) => seq <= turn2End)
    assert.deepEqual(inherited!.shadowedSeqs, inside)
    assert.equal(inherited!.action, 'deleteFrom')
    assert.deepEqual([inherited!.start, inherited!.end], [inside[0], inside.at(-1)])
    const derived = JSON.stringify(copy.deriveMessages())
    assert.doesNotMatch(derived, /prompt #2:|result #2\.|reply #2/)
    assert.match(derived, /prompt #1:/)
    // Every tool call left in the copy keeps its result.
    const nodes = copy.surface.nodes
    const pairing = new ToolPairingIndex(nodes, (p) => copy.events[nodes[p]!]!)
    assert.deepEqual(pairing.unpaired(), { unansweredCalls: [], orphanResults: [] })
    await roots.shut(app)
  })

  it('inherits an exclusion as an exclusion, and adds nothing for a removal inside the copied part', async () => {
    const app = await roots.boot(roots.root())
    const source = await seededAgent(app, 3)
    const excluded = await remove(app, source.id, { action: 'exclude', seq: node(source.session, 'tool/result', 'result #2.1.1') })
    const excludedCopy = app.ctx.sessions.fork(source.session, lastTurnEndBefore(source.session.events, excluded))
    const [inherited] = tombstones(excludedCopy.events)
    assert.equal(inherited!.action, 'exclude')
    assert.deepEqual(inherited!.shadowedSeqs, readTombstone(source.session.events[excluded]!)!.shadowedSeqs)

    // A fork through the tombstone carries it in its seed: no second tombstone.
    const whole = app.ctx.sessions.fork(source.session)
    assert.deepEqual(tombstones(whole.events).map((t) => t.seq), [excluded])
    assert.deepEqual(withoutIds(whole), withoutIds(source.session))
    await roots.shut(app)
  })
})

describe('what the source did after the cut decides what is inherited', () => {
  it('inherits nothing for a removal undone after the cut, and removes again a restored message removed after it', async () => {
    const app = await roots.boot(roots.root())
    const source = await seededAgent(app, 3)
    const prompt2 = node(source.session, 'user/message', 'prompt #2:')
    const cutBefore = source.session.seq - 1
    const recalled = await remove(app, source.id, { action: 'recall', seq: prompt2 })
    const restore = await app.post({ sessionId: source.id, action: 'restore', tombstoneSeq: recalled })
    assert.equal(restore.status, 200, restore.text)

    const undone = app.ctx.sessions.fork(source.session, cutBefore)
    assert.deepEqual(tombstones(undone.events), [], 'the removal was undone: nothing to inherit')
    assert.match(JSON.stringify(undone.deriveMessages()), /prompt #2:/)

    // The restoring copy stands for the prompt: removing it again removes the prompt in the copy.
    const again = await remove(app, source.id, { action: 'delete', seq: node(source.session, 'user/message', 'prompt #2:') })
    assert.ok(again > recalled)
    const copy = app.ctx.sessions.fork(source.session, cutBefore)
    assert.deepEqual(tombstones(copy.events).map((t) => [t.action, t.shadowedSeqs]), [['delete', [prompt2]]])
    assert.deepEqual(withoutIds(copy), withoutIds(source.session))
    await roots.shut(app)
  })

  it('writes one removal for an exclusion that a later removal absorbed, with the later action', async () => {
    const app = await roots.boot(roots.root())
    const source = await seededAgent(app, 3)
    const cutBefore = source.session.seq - 1
    const prompt2 = node(source.session, 'user/message', 'prompt #2:')
    await remove(app, source.id, { action: 'exclude', seq: node(source.session, 'tool/result', 'result #2.1.1') })
    const onward = await remove(app, source.id, { action: 'deleteFrom', seq: prompt2 })
    const copy = app.ctx.sessions.fork(source.session, cutBefore)
    const expected = source.session.events.slice(0, cutBefore + 1)
      .filter((e) => e.seq >= prompt2 && ['user/message', 'assistant/message', 'tool/result'].includes(e.type) && (e as LogEvent).surfaceOp === 'append')
      .map((e) => e.seq)
    assert.deepEqual(tombstones(copy.events).map((t) => [t.action, t.shadowedSeqs]), [['deleteFrom', expected]])
    assert.ok(readTombstone(source.session.events[onward]!)!.shadowedSeqs.length < expected.length, 'in the source the exclusion sits nested inside')
    assert.deepEqual(withoutIds(copy), withoutIds(source.session))
    await roots.shut(app)
  })
})

describe('a subagent fork inherits the removal written between turns', () => {
  it("the child's first request lacks the removed prompt (seeded by completedTurnPrefix, header from childSessionMeta)", async () => {
    const app = await roots.boot(roots.root())
    const parent = await seededAgent(app, 2)
    const canary = 'prompt #1:'
    const removed = await remove(app, parent.id, { action: 'delete', seq: node(parent.session, 'user/message', canary) })
    // completedTurnPrefix (dsh-subagent-fork-in-process): every event up to the last turn/end.
    const events = parent.session.events
    const seed = events.slice(0, events.findLast((e) => e.type === 'turn/end')!.seq + 1)
    assert.ok(seed.length <= removed, 'the tombstone is not in the seed')
    const child: Agent = (await parent.ctx.agents.create({
      sessionId: SessionId(randomUUID()), seed, agentOptions,
      meta: { cwd: parent.session.header.cwd!, parentSession: parent.id, origin: 'subagent', delegationDepth: 1, seedLength: seed.length },
    })).agent
    assert.deepEqual(tombstones(child.session.events).map((t) => t.shadowedSeqs), [readTombstone(events[removed]!)!.shadowedSeqs])
    const before = app.mock.requests.length
    await app.prompt(child, 'sub task #1: summarize')
    assert.doesNotMatch(requestText(app, before), /prompt #1:/, "the child's first request")
    assert.match(requestText(app, before), /sub task #1: summarize/)
    assert.match(requestText(app, before), /prompt #2:/)
    await roots.shut(app)
  })
})

describe('a Branch of a stored source inherits after the read', () => {
  it('appends the tombstone once the stored source is read, and the first request waits for it', async () => {
    const root = roots.root()
    let app = await roots.boot(root)
    const source = await seededAgent(app, 3)
    const removed = await remove(app, source.id, { action: 'recall', seq: node(source.session, 'user/message', 'prompt #2:') })
    await roots.shut(app)
    app = await roots.boot(root)
    assert.equal(app.ctx.sessions.get(SessionId(source.id)), undefined, 'the source is stored only')
    // As dsh-host-apiproxy sessions.fork: the stored events, cut at the next turn start after a turn/end.
    const { events } = await app.ctx.sessionPersistence.readFrom(SessionId(source.id), 0)
    const turn2End = events.filter((e) => e.type === 'turn/end')[1]!.seq
    let cut = turn2End + 1
    while (events[cut]?.type !== 'turn/start') cut++
    const branch = (await app.ctx.agents.create({
      sessionId: SessionId(`session-${randomUUID()}`), seed: events.slice(0, cut), agentOptions,
      meta: { cwd: source.session.header.cwd!, parentSession: source.id, seedLength: cut },
    })).agent
    const before = app.mock.requests.length
    await app.prompt(branch, 'prompt #9: and now')
    const [inherited] = tombstones(branch.session.events)
    assert.deepEqual(inherited?.shadowedSeqs, readTombstone(events[removed]!)!.shadowedSeqs)
    assert.ok(inherited!.seq < branch.session.events.findIndex((e) => e.type === 'turn/start' && e.seq > cut), 'written before the first turn')
    assert.doesNotMatch(requestText(app, before), /prompt #2:/)
    assert.match(requestText(app, before), /prompt #9: and now/)
    await roots.shut(app)
  })
})

describe('forkBefore copies inherit nothing', () => {
  it('keeps the removed message in the copy made from before the removal', async () => {
    const app = await roots.boot(roots.root())
    const source = await seededAgent(app, 2)
    const removed = await remove(app, source.id, { action: 'recall', seq: node(source.session, 'user/message', 'prompt #2:') })
    const reply = await app.post({ sessionId: source.id, action: 'forkBefore', tombstoneSeq: removed })
    assert.equal(reply.status, 200, reply.text)
    const copy = await app.resumeAgent(reply.json.value.forkedSessionId)
    assert.deepEqual(tombstones(copy.session.events), [])
    assert.match(JSON.stringify(copy.session.deriveMessages()), /prompt #2:/)
    await roots.shut(app)
  })
})
