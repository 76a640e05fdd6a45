/**
 * The list watch of `src/client/wire/open-session.ts` (`relistDroppedSessions`) and the held-back
 * removal (`keepStoredSessionsListed`) over a list store that behaves like the rc.8
 * `SessionRuntime` list for what they read: a `session.list` pull lands asynchronously and brings
 * back what the host still lists; an entry leaves on a removal frame, which reaches the list
 * through the manager's `handleHostEnvelope` as in rc.8.
 * The real list and the real host frames are exercised in `test/e2e/stored-write.test.ts`.
 */
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { keepStoredSessionsListed, relistDroppedSessions } from '../../src/client/wire/open-session'
import type { HostEnvelope } from '../../src/client/wire/rc8'

/** A session list with a host behind it: `hostIds` is what a pull answers. */
class ListedSessions {
  ids: string[] = []
  phase: 'pending' | 'ready' = 'pending'
  hostIds: string[] = []
  pulls = 0
  private readonly listeners = new Set<() => void>()
  readonly list = {
    getSnapshot: () => ({ ids: this.ids, byId: Object.fromEntries(this.ids.map((id) => [id, this.subagents.has(id) ? { id, origin: 'subagent' } : { id }])), phase: this.phase }),
    subscribe: (listener: () => void) => {
      this.listeners.add(listener)
      return () => { this.listeners.delete(listener) }
    },
  }
  /** Subagent sessions among the listed ones (their summary's `origin`). */
  subagents = new Set<string>()
  /** Every frame the manager handled, as `type sessionId`. */
  handled: string[] = []
  readonly manager = {
    handleHostEnvelope: (envelope: HostEnvelope): void => {
      const { type, sessionId } = envelope.payload as { type: string; sessionId: string }
      this.handled.push(`${type} ${sessionId}`)
      if (type === 'host/session-removed') this.remove(sessionId)
    },
  }
  open(): void {}
  async refresh(): Promise<void> {
    this.pulls++
    await Promise.resolve()
    this.set([...this.hostIds], 'ready')
  }
  /** The host's removal frame for `id`: the entry leaves the list. */
  remove(id: string): void {
    this.set(this.ids.filter((other) => other !== id), this.phase)
  }
  set(ids: string[], phase: 'pending' | 'ready'): void {
    this.ids = ids
    this.phase = phase
    for (const listener of this.listeners) listener()
  }
  get watchers(): number {
    return this.listeners.size
  }
}

/** Let the watch's deferred pull and the pull's answer run. */
async function settle(): Promise<void> {
  for (let i = 0; i < 5; i++) await Promise.resolve()
}

describe('relistDroppedSessions', () => {
  it('pulls the list again when an entry leaves it, which brings back a session that is still stored', async () => {
    const sessions = new ListedSessions()
    sessions.hostIds = ['session-a', 'session-b']
    sessions.set(['session-a', 'session-b'], 'ready')
    const stop = relistDroppedSessions(sessions)
    sessions.remove('session-a')
    assert.deepEqual(sessions.ids, ['session-b'])
    await settle()
    assert.equal(sessions.pulls, 1)
    assert.deepEqual(sessions.ids, ['session-a', 'session-b'])
    stop()
  })

  it('a session that is really gone stays gone after one pull', async () => {
    const sessions = new ListedSessions()
    sessions.set(['session-a', 'session-b'], 'ready')
    sessions.hostIds = ['session-b']
    const stop = relistDroppedSessions(sessions)
    sessions.remove('session-a')
    await settle()
    assert.equal(sessions.pulls, 1)
    assert.deepEqual(sessions.ids, ['session-b'])
    stop()
  })

  it('no pull for an added entry, for changes before the first pull landed, nor after the disposer ran', async () => {
    const sessions = new ListedSessions()
    const stop = relistDroppedSessions(sessions)
    sessions.set([], 'pending')
    sessions.set(['session-a'], 'ready')
    sessions.set(['session-a', 'session-b'], 'ready')
    await settle()
    assert.equal(sessions.pulls, 0)
    stop()
    assert.equal(sessions.watchers, 0)
    sessions.remove('session-a')
    await settle()
    assert.equal(sessions.pulls, 0)
  })

  it('a removal seen while it is disposed in the same tick is not pulled for', async () => {
    const sessions = new ListedSessions()
    sessions.set(['session-a'], 'ready')
    const stop = relistDroppedSessions(sessions)
    sessions.remove('session-a')
    stop()
    await settle()
    assert.equal(sessions.pulls, 0)
  })
})

/** A host frame for `sessionId`. */
function frame(type: string, sessionId: string): HostEnvelope {
  return { type: 'host', payload: { type, sessionId } }
}

describe('keepStoredSessionsListed', () => {
  it('holds back the removal of a listed session, pulls the list, and turns the removal into a status frame while the host still lists it', async () => {
    const sessions = new ListedSessions()
    sessions.hostIds = ['session-a', 'session-b']
    sessions.set(['session-a', 'session-b'], 'ready')
    const seen: string[][] = []
    sessions.list.subscribe(() => seen.push([...sessions.ids]))
    const stop = keepStoredSessionsListed(sessions)
    sessions.manager.handleHostEnvelope(frame('host/session-removed', 'session-a'))
    assert.deepEqual(sessions.ids, ['session-a', 'session-b'], 'the entry stays at once')
    assert.deepEqual(sessions.handled, [])
    await settle()
    assert.equal(sessions.pulls, 1)
    assert.deepEqual(sessions.handled, ['host/session-status session-a'])
    assert.ok(seen.every((ids) => ids.includes('session-a')), 'no list state without the entry')
    stop()
  })

  it('delivers the removal as it came when the pull no longer lists the session', async () => {
    const sessions = new ListedSessions()
    sessions.hostIds = ['session-b']
    sessions.set(['session-a', 'session-b'], 'ready')
    const stop = keepStoredSessionsListed(sessions)
    sessions.manager.handleHostEnvelope(frame('host/session-removed', 'session-a'))
    await settle()
    assert.deepEqual(sessions.handled, ['host/session-removed session-a'])
    assert.deepEqual(sessions.ids, ['session-b'])
    stop()
  })

  it('a session-added while the removal is held drops it; two removals of one session make one pull', async () => {
    const sessions = new ListedSessions()
    sessions.hostIds = ['session-a']
    sessions.set(['session-a'], 'ready')
    const stop = keepStoredSessionsListed(sessions)
    sessions.manager.handleHostEnvelope(frame('host/session-removed', 'session-a'))
    sessions.manager.handleHostEnvelope(frame('host/session-removed', 'session-a'))
    sessions.manager.handleHostEnvelope(frame('host/session-added', 'session-a'))
    await settle()
    assert.equal(sessions.pulls, 1)
    assert.deepEqual(sessions.handled, ['host/session-added session-a'])
    assert.deepEqual(sessions.ids, ['session-a'])
    stop()
  })

  it('passes at once the removal of a subagent (DSH keeps those), of an unlisted session, and every other frame', async () => {
    const sessions = new ListedSessions()
    sessions.subagents.add('session-child')
    sessions.set(['session-a', 'session-child'], 'ready')
    const stop = keepStoredSessionsListed(sessions)
    sessions.manager.handleHostEnvelope(frame('host/session-removed', 'session-child'))
    sessions.manager.handleHostEnvelope(frame('host/session-removed', 'session-z'))
    sessions.manager.handleHostEnvelope(frame('host/session-status', 'session-a'))
    assert.deepEqual(sessions.handled, ['host/session-removed session-child', 'host/session-removed session-z', 'host/session-status session-a'])
    await settle()
    assert.equal(sessions.pulls, 0)
    stop()
  })

  it('the disposer puts the entry point back and delivers a removal still held', async () => {
    const sessions = new ListedSessions()
    sessions.hostIds = ['session-a']
    sessions.set(['session-a'], 'ready')
    const own = sessions.manager.handleHostEnvelope
    const stop = keepStoredSessionsListed(sessions)
    assert.notEqual(sessions.manager.handleHostEnvelope, own)
    sessions.manager.handleHostEnvelope(frame('host/session-removed', 'session-a'))
    stop()
    assert.equal(sessions.manager.handleHostEnvelope, own)
    assert.deepEqual(sessions.handled, ['host/session-removed session-a'])
    await settle()
    assert.deepEqual(sessions.handled, ['host/session-removed session-a'], 'the pull that lands later delivers nothing more')
  })

  it('wraps nothing on a sessions service without the entry point', () => {
    const sessions = new ListedSessions()
    const bare = { open: () => {}, refresh: () => Promise.resolve(), list: sessions.list }
    const stop = keepStoredSessionsListed(bare)
    stop()
  })
})
