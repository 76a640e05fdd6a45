/**
 * The list watch of `src/client/wire/open-session.ts` (`relistDroppedSessions`) over a list store that
 * behaves like the rc.8 `SessionRuntime` list for what the watch reads: a `session.list` pull
 * lands asynchronously and brings back what the host still lists; an entry leaves on a removal.
 * The real list and the real host frames are exercised in `test/e2e/stored-write.test.ts`.
 */
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { relistDroppedSessions } from '../../src/client/wire/open-session'

/** A session list with a host behind it: `hostIds` is what a pull answers. */
class ListedSessions {
  ids: string[] = []
  phase: 'pending' | 'ready' = 'pending'
  hostIds: string[] = []
  pulls = 0
  private readonly listeners = new Set<() => void>()
  readonly list = {
    getSnapshot: () => ({ ids: this.ids, byId: Object.fromEntries(this.ids.map((id) => [id, { id }])), phase: this.phase }),
    subscribe: (listener: () => void) => {
      this.listeners.add(listener)
      return () => { this.listeners.delete(listener) }
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
