/**
 * How the access layer reaches a session that is stored and not live (`stored-session`
 * `SessionAccess`), on the real rc.8 composition (JSONL persistence, the real agent loop and DSH's
 * mock model), watching which `sessionPersistence` calls it makes: a write reads the stored log,
 * writes the `session/end-seed` marker and prepares the session without listing every stored
 * session; a refusal of the pre-check enters and appends nothing; an id that was never stored is
 * refused after one failed read and one listing.
 */
import assert from 'node:assert/strict'
import { after, describe, it } from 'node:test'
import { SessionId, type SessionEvent } from '@deepseek-ai/dsh-session'
import { SessionEventIndex } from '../../src/host/event-index'
import { SessionAccess, type StoredSessionSource } from '../../src/host/stored-session'
import type { DshApp } from '../support/dsh-app'
import { Roots, seededAgent } from './helpers'

const roots = new Roots()
after(() => roots.dispose())

/** The app's persistence service, with the name of every call recorded in `calls`. */
function recorded(app: DshApp, calls: string[]): StoredSessionSource {
  const persistence = app.ctx.sessionPersistence
  return {
    list: () => (calls.push('list'), persistence.list()),
    inspect: (id) => (calls.push('inspect'), persistence.inspect(id)),
    prepare: (id) => (calls.push('prepare'), persistence.prepare(id)),
    append: (id, events: readonly SessionEvent[]) => (calls.push('append'), persistence.append(id, events)),
  }
}

describe('SessionAccess on a stored session', () => {
  it('enters it without listing the stored sessions, refuses before entering, and lists only to refuse an id never stored', async () => {
    const root = roots.root()
    let app = await roots.boot(root)
    const agent = await seededAgent(app, 2)
    await app.prompt(agent, 'prompt #3: one more')
    const id = agent.id
    await roots.shut(app)
    app = await roots.boot(root)

    const stored = async () => (await app.ctx.sessionPersistence.readFrom(SessionId(id), 0)).events as readonly SessionEvent[]
    const before = await stored()
    assert.equal(before.at(-1)?.type, 'turn/end')
    const calls: string[] = []
    const index = new SessionEventIndex()
    const access = new SessionAccess({ sessions: app.ctx.sessions, agents: app.ctx.agents, lookup: (session) => index.lookup(session), persistence: () => recorded(app, calls) })

    const refused = await access.write(id, async () => {
      throw new Error('a refused pre-check runs no task')
    }, () => 'REFUSED' as const)
    assert.deepEqual(refused, { ok: false, refusal: 'REFUSED' })
    assert.deepEqual(calls, ['inspect'], 'one read, no listing')
    assert.equal((await stored()).length, before.length, 'nothing appended')
    assert.equal(app.ctx.sessions.get(SessionId(id)), undefined, 'nothing entered')

    calls.length = 0
    const nextSeqs: number[] = []
    const written = await access.write(id, async (session, origin) => ({ ok: true, value: { origin, seq: session.seq } }), (view) => {
      nextSeqs.push(view.nextSeq)
      return null
    })
    assert.deepEqual(written, { ok: true, value: { origin: 'stored', seq: before.length + 1 } })
    assert.deepEqual(nextSeqs, [before.length + 1], 'the pre-check saw where the write goes')
    assert.deepEqual(calls, ['inspect', 'inspect', 'append', 'prepare'], 'read, read again on entering, seal, prepare: no listing')
    const after = await stored()
    assert.deepEqual(after.slice(before.length).map((event) => [event.seq, event.type]), [[before.length, 'session/end-seed']])
    assert.equal(app.ctx.sessions.get(SessionId(id)), undefined, 'let go after the write')

    calls.length = 0
    const missing = 'session-never-stored'
    assert.deepEqual(await access.write(missing, async () => ({ ok: true, value: null }), () => null), { ok: false, refusal: { code: 'SESSION_NOT_LIVE', sessionId: missing } })
    assert.deepEqual(calls, ['inspect', 'list'])
    calls.length = 0
    assert.deepEqual(await access.write(missing, async () => ({ ok: true, value: null })), { ok: false, refusal: { code: 'SESSION_NOT_LIVE', sessionId: missing } })
    assert.deepEqual(calls, ['inspect', 'list'], 'without a pre-check too')
    await roots.shut(app)
  })
})
