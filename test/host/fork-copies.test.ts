/**
 * What a copy made by `forkBefore` is called, which agent it runs, and where it is listed, on the
 * real rc.8 composition (JSONL persistence, invariant companions, the session-title service, the
 * web app's workspace registry, the real agent loop and DSH's mock model):
 * - copies of one session are numbered "(copy)", "(copy 2)", … against the titles of every live
 *   and stored session, also after a cold restart, when two are made at once and when another
 *   host on the same root renamed a copy or stored a session between two copies; a copy of a copy
 *   is numbered from the copy's title;
 * - the copy records the agent preset its source runs (header `agentPreset`, or the newest
 *   `agent-preset/selected` event), so the agent that opens it is composed from the same preset;
 * - the copy of a subagent session joins the workspace of its nearest listed ancestor; the copy
 *   of an ordinary loose session stays loose.
 */
import assert from 'node:assert/strict'
import { randomUUID } from 'node:crypto'
import { appendFileSync } from 'node:fs'
import { after, before, describe, it } from 'node:test'
import type { Agent } from '@deepseek-ai/dsh-agent'
import { SessionId, type SessionEvent } from '@deepseek-ai/dsh-session'
import { MODEL, PROVIDER, type DshApp } from '../support/dsh-app'
import { conversationLog, syntheticTurns } from '../support/conversation'
import { node, Roots, seededAgent, sessionFile } from './helpers'

const roots = new Roots()
after(() => roots.dispose())

const agentOptions = { provider: PROVIDER, model: MODEL }
const seed = (): SessionEvent[] => conversationLog(syntheticTurns(2, { toolSteps: 1, toolsPerStep: 1 }))

/** POST a removal and return its tombstone seq. */
async function tombstone(app: DshApp, sessionId: string, body: object): Promise<number> {
  const reply = await app.post({ sessionId, ...body })
  assert.equal(reply.status, 200, reply.text)
  return reply.json.value.tombstoneSeq as number
}

/** POST `forkBefore` and return the reply's value. */
async function fork(app: DshApp, sessionId: string, tombstoneSeq: number): Promise<{ forkedSessionId: string; title: string | null }> {
  const reply = await app.post({ sessionId, action: 'forkBefore', tombstoneSeq })
  assert.equal(reply.status, 200, reply.text)
  return reply.json.value
}

describe('forkBefore: distinct copy titles', () => {
  it('numbers copies of one session (copy), (copy 2), then (copy 3) after a cold restart, and never twice when made at once', async () => {
    const root = roots.root()
    let app = await roots.boot(root, { sessionTitle: true })
    const source = await seededAgent(app, 3)
    const base = 'prompt #1: please look at'
    const removed = await tombstone(app, source.id, { action: 'delete', seq: node(source.session, 'tool/result', 'result #2.1.2') })

    const first = await fork(app, source.id, removed)
    const second = await fork(app, source.id, removed)
    assert.equal(first.title, `${base} (copy)`)
    assert.equal(second.title, `${base} (copy 2)`)
    // Both copies are stored only: the second title was chosen against the first one's stored log.
    assert.equal(app.ctx.sessions.get(SessionId(first.forkedSessionId)), undefined)

    await roots.shut(app)
    app = await roots.boot(root, { sessionTitle: true })
    const third = await fork(app, source.id, removed)
    assert.equal(third.title, `${base} (copy 3)`, 'after a restart the stored copies still count')

    const together = await Promise.all([fork(app, source.id, removed), fork(app, source.id, removed)])
    assert.deepEqual(together.map((c) => c.title).sort(), [`${base} (copy 4)`, `${base} (copy 5)`])

    // A copy of the first copy is named from its title "… (copy)": the next free number.
    const copy = await app.resumeAgent(first.forkedSessionId)
    assert.equal(app.ctx.sessionTitle.get(copy.session)?.title, `${base} (copy)`)
    const inCopy = await tombstone(app, copy.id, { action: 'delete', seq: node(copy.session, 'tool/result', 'result #1.1.1') })
    const copyOfCopy = await fork(app, copy.id, inCopy)
    assert.equal(copyOfCopy.title, `${base} (copy 6)`)
    const stored = await app.ctx.sessionPersistence.list()
    assert.equal(stored.length, 7, 'the source and six copies')
    await roots.shut(app)
  })

  it('numbers exactly after another host renamed a copy or stored a session between two copies', async () => {
    const root = roots.root()
    const app = await roots.boot(root, { sessionTitle: true })
    const source = await seededAgent(app, 2)
    app.ctx.sessionTitle.rename(source.session, 'Audit')
    const removed = await tombstone(app, source.id, { action: 'recall', seq: node(source.session, 'user/message', 'prompt #2') })
    const first = await fork(app, source.id, removed)
    assert.equal(first.title, 'Audit (copy)')

    // Another host on the same root renames the stored copy: "(copy)" is free again.
    let other = await roots.boot(root, { sessionTitle: true })
    other.ctx.sessionTitle.rename((await other.resumeAgent(first.forkedSessionId)).session, 'Audit notes')
    await roots.shut(other)
    assert.equal((await fork(app, source.id, removed)).title, 'Audit (copy)')

    // Another host stores a session titled "Audit (copy 2)": the next copy skips that number.
    other = await roots.boot(root, { sessionTitle: true })
    other.ctx.sessionTitle.rename((await seededAgent(other, 1)).session, 'Audit (copy 2)')
    await roots.shut(other)
    assert.equal((await fork(app, source.id, removed)).title, 'Audit (copy 3)')
    await roots.shut(app)
  })

  it('numbers the copy of a renamed session from the name the person gave it', async () => {
    const app = await roots.boot(roots.root(), { sessionTitle: true })
    const source = await seededAgent(app, 2)
    app.ctx.sessionTitle.rename(source.session, 'Deploy plan (copy 7)')
    const removed = await tombstone(app, source.id, { action: 'recall', seq: node(source.session, 'user/message', 'prompt #2') })
    assert.equal((await fork(app, source.id, removed)).title, 'Deploy plan (copy 8)')
    assert.equal((await fork(app, source.id, removed)).title, 'Deploy plan (copy 9)')

    // The longest title the service accepts (maxTitleBytes 80) keeps its copy number.
    const long = await seededAgent(app, 2)
    app.ctx.sessionTitle.rename(long.session, 'x'.repeat(100))
    const longRemoved = await tombstone(app, long.id, { action: 'recall', seq: node(long.session, 'user/message', 'prompt #2') })
    assert.equal((await fork(app, long.id, longRemoved)).title, `${'x'.repeat(73)} (copy)`)
    await roots.shut(app)
  })
})

describe('forkBefore: an unreadable stored session', () => {
  it('is left out of the titles in use, and the copy is still made', async () => {
    const root = roots.root()
    let app = await roots.boot(root, { sessionTitle: true })
    const source = await seededAgent(app, 2)
    const broken = await seededAgent(app, 2)
    await app.ctx.sessions.flush(broken.session)
    await roots.shut(app)
    appendFileSync(sessionFile(root, broken.id), Buffer.from('not a zstd frame\n'))
    app = await roots.boot(root, { sessionTitle: true })
    await assert.rejects(app.ctx.sessionPersistence.readFrom(SessionId(broken.id), 0), 'the stored log of the other session cannot be read')
    const removed = await tombstone(app, source.id, { action: 'recall', seq: node((await app.resumeAgent(source.id)).session, 'user/message', 'prompt #2') })
    assert.equal((await fork(app, source.id, removed)).title, 'prompt #1: please look at (copy)')
    await roots.shut(app)
  })
})

describe('forkBefore: the copy runs the source agent preset', () => {
  let app: DshApp
  let root: string
  before(async () => {
    root = roots.root()
    app = await roots.boot(root)
  })

  const createAgent = async (meta: { agentPreset?: string }, events: SessionEvent[]): Promise<Agent> =>
    (await app.ctx.agents.create({ sessionId: SessionId(`session-${randomUUID()}`), agentOptions, seed: events, meta: { cwd: '/projects/presets', ...meta } })).agent

  it('records the preset of the source header, and the agent resumed on the copy runs a real turn with it, also after a restart', async () => {
    const source = await createAgent({ agentPreset: 'code' }, seed())
    const removed = await tombstone(app, source.id, { action: 'delete', seq: node(source.session, 'tool/result', 'result #2.1.1') })
    const { forkedSessionId } = await fork(app, source.id, removed)

    const copy = await app.resumeAgent(forkedSessionId)
    assert.equal(copy.session.header.agentPreset, 'code')
    assert.equal(copy.session.header.parentSession, source.id)
    await app.prompt(copy, 'prompt #3: go on')
    const turnEnd = copy.session.events.findLast((e) => e.type === 'turn/end')
    assert.deepEqual(turnEnd?.type === 'turn/end' ? turnEnd.data.reason : undefined, { kind: 'completed' })
    assert.match(JSON.stringify(app.mock.requests.at(-1)?.body), /prompt #3: go on/)

    await roots.shut(app)
    app = await roots.boot(root)
    const stored = (await app.ctx.sessionPersistence.list()).find((header) => header.id === forkedSessionId)
    assert.equal(stored?.agentPreset, 'code', 'the stored header names the preset')
    assert.equal((await app.resumeAgent(forkedSessionId)).session.header.agentPreset, 'code')
  })

  it('records the preset the source switched to before its first turn (agent-preset/selected), not the one it was created with', async () => {
    const selected = { type: 'agent-preset/selected', seq: 0, time: 1_699_999_999_999, data: { agentPreset: 'minimal' } } as unknown as SessionEvent
    const events = [selected, ...seed().map((event) => ({ ...event, seq: event.seq + 1 }))]
    const source = await createAgent({ agentPreset: 'code' }, events)
    const removed = await tombstone(app, source.id, { action: 'recall', seq: node(source.session, 'user/message', 'prompt #2') })
    const { forkedSessionId } = await fork(app, source.id, removed)
    const copy = await app.resumeAgent(forkedSessionId)
    assert.equal(copy.session.header.agentPreset, 'minimal')
    assert.deepEqual(copy.session.events.filter((e) => (e.type as string) === 'agent-preset/selected').map((e) => e.data), [{ agentPreset: 'minimal' }])
  })

  it('records no preset when the source records none', async () => {
    const source = await createAgent({}, seed())
    const removed = await tombstone(app, source.id, { action: 'recall', seq: node(source.session, 'user/message', 'prompt #2') })
    const { forkedSessionId } = await fork(app, source.id, removed)
    const copy = await app.resumeAgent(forkedSessionId)
    assert.equal('agentPreset' in copy.session.header, false)
  })
})

describe('forkBefore: the workspace of a subagent copy', () => {
  it('joins the workspace of the nearest listed ancestor of a subagent session; a loose fork stays loose', async () => {
    const app = await roots.boot(roots.root(), { workspaces: true })
    const project = roots.root()
    const parent = await seededAgent(app, 2, project)
    await app.ctx.sessions.flush(parent.session)
    const workspace = await app.ctx.workspaceRegistry.create(project)
    await workspace.attachSession(parent.id as SessionId)

    // Subagent children, created the way `dsh-subagent` creates them: from the parent agent's context,
    // with `parentSession`, `origin: 'subagent'` and the delegation depth in the header.
    const child = (await parent.ctx.agents.create({
      sessionId: SessionId(`session-${randomUUID()}`), agentOptions, meta: { cwd: project, parentSession: parent.id, origin: 'subagent', delegationDepth: 1 },
    })).agent
    await app.prompt(child, 'sub task #1: read the notes')
    const grandchild = (await child.ctx.agents.create({
      sessionId: SessionId(`session-${randomUUID()}`), agentOptions, meta: { cwd: project, parentSession: child.id, origin: 'subagent', delegationDepth: 2 },
    })).agent
    await app.prompt(grandchild, 'sub task #2: count the lines')
    await app.prompt(grandchild, 'sub task #3: and the words')
    assert.equal(grandchild.session.header.origin, 'subagent')
    assert.ok(!workspace.sessionIds.includes(child.id as SessionId) && !workspace.sessionIds.includes(grandchild.id as SessionId), 'no subagent session is listed itself')

    const removed = await tombstone(app, grandchild.id, { action: 'recall', seq: node(grandchild.session, 'user/message', 'sub task #3') })
    const { forkedSessionId } = await fork(app, grandchild.id, removed)
    assert.ok(workspace.sessionIds.includes(SessionId(forkedSessionId)), 'the copy joined the workspace of the root session')
    const copy = await app.resumeAgent(forkedSessionId)
    assert.equal(copy.session.header.parentSession, grandchild.id)
    assert.equal(copy.session.header.origin, undefined, 'the copy is a session of its own, not a subagent')

    // A fork that is not a subagent session and is listed nowhere keeps its copies loose, as DSH's Branch does.
    const loose = (await app.ctx.agents.create({ sessionId: SessionId(`session-${randomUUID()}`), agentOptions, seed: seed(), meta: { cwd: project, parentSession: parent.id } })).agent
    const looseRemoved = await tombstone(app, loose.id, { action: 'recall', seq: node(loose.session, 'user/message', 'prompt #2') })
    const looseCopy = await fork(app, loose.id, looseRemoved)
    assert.ok(app.ctx.workspaceRegistry.list().every((w) => !w.sessionIds.includes(SessionId(looseCopy.forkedSessionId))), 'the copy of a loose fork is listed nowhere')
    await roots.shut(app)
  })
})
