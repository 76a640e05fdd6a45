/**
 * Open a session in the web UI, the way the stock turn-bar Branch does after `session.fork`
 * (`sessions.open(childId)` in `dsh-client-ui-conversation`): through the client's `sessions`
 * service. A session the host made a moment ago may not be in the list yet, so the list is pulled
 * again first when it does not hold the id. The same service keeps a stored session listed when
 * the host reports its detach as a removal: the removal is held back until a list pull says the
 * session is gone ({@link keepStoredSessionsListed}), and an entry that left anyway is listed again
 * ({@link relistDroppedSessions}).
 *
 * @module dsh-message-recall/client/wire/open-session
 */
import type { HostEnvelope, SessionsService } from './rc8'

/**
 * Build the opener over a way to reach the `sessions` service.
 * @param sessions - returns the service, or `undefined` when the page has none.
 * @returns `open(id)`, resolving once the session is selected.
 * @throws (from the returned function) `Error` when there is no `sessions` service.
 */
export function sessionOpener(sessions: () => SessionsService | undefined): (sessionId: string) => Promise<void> {
  return async (sessionId) => {
    const service = sessions()
    if (service === undefined) throw new Error('the page has no sessions service to open the copy with')
    if (!(sessionId in service.list.getSnapshot().byId)) await service.refresh()
    service.open(sessionId)
  }
}

/**
 * Keep sessions that are still stored in the page's session list when the host drops them.
 *
 * A write of this plugin to a session that is only stored enters it into the host's session store
 * for the write and detaches it afterwards (`host/stored-session`). The rc.8 web host reports
 * every detach of an announced session to every open page as a removal: `session/disposed`
 * becomes the `host/session-removed` frame of the `host` live stream (`dsh-host-apiproxy`, the
 * `events.host` handler), and the page's list removes the entry for it
 * (`dsh-client-runtime`, `SessionsManager.handleHostEnvelope`, every session but a durable
 * subagent), although the session is still on disk and `session.list` still lists it. So whenever
 * an id leaves the ready list, the list is pulled again (`refresh`, single-flight): the host's
 * answer brings back a session that is still stored and confirms one that is really gone. A pull
 * whose answer drops nothing new is not followed by another.
 *
 * @param service - the page's `sessions` service.
 * @returns the disposer: stops watching the list.
 */
export function relistDroppedSessions(service: SessionsService): () => void {
  const listed = (): Set<string> | undefined => {
    const snapshot = service.list.getSnapshot()
    return snapshot.phase === 'ready' ? new Set(snapshot.ids) : undefined
  }
  let known = listed() ?? new Set<string>()
  let stopped = false
  const unsubscribe = service.list.subscribe(() => {
    const now = listed()
    if (now === undefined) return
    const dropped = [...known].some((id) => !now.has(id))
    known = now
    // Not from inside the list's own notification: the pull records into the same store.
    if (dropped) queueMicrotask(() => { if (!stopped) service.refresh().catch(() => {}) })
  })
  return () => {
    stopped = true
    unsubscribe()
  }
}

/**
 * Keep a session that is still stored in the page's session list, on screen, while the host
 * reports its detach as a removal.
 *
 * The plugin's write to a stored session ends with a detach, which the rc.8 web host sends every
 * open page as `host/session-removed` (see {@link relistDroppedSessions}); the page's session layer
 * drops the entry on it at once (`SessionsManager.handleHostEnvelope`: a `remove` mutation, the
 * session's projections dropped), so the entry would leave the sidebar until a list pull put it
 * back. Here every host frame passes through a wrapper on that entry point
 * (`SessionRuntime.handleHostEnvelope` calls `this.manager.handleHostEnvelope`): a removal of a
 * listed session that is not a subagent (DSH keeps those itself) is held back and the list is
 * pulled (`refresh`, single-flight). When the pull still lists the session, the removal becomes
 * what DSH does for a durable subagent, a `host/session-status` frame with `running: false`;
 * when it does not, the held removal is delivered as it came. A `host/session-added` of the
 * session while its removal is held drops the removal (the session is in the host again). Other
 * frames pass unchanged and in order. A real removal therefore takes effect one list pull later.
 *
 * @param service - the page's `sessions` service.
 * @returns the disposer: puts the entry point back and delivers any removal still held. Without
 *   the entry point (another DSH build) nothing is wrapped and the disposer does nothing.
 */
export function keepStoredSessionsListed(service: SessionsService): () => void {
  const manager = service.manager
  if (manager === undefined || typeof manager.handleHostEnvelope !== 'function') return () => {}
  const own = manager.handleHostEnvelope
  const deliver = (envelope: HostEnvelope): void => { own.call(manager, envelope) }
  const held = new Map<string, HostEnvelope>()
  let stopped = false
  const listedTopLevel = (id: string): boolean => {
    const snapshot = service.list.getSnapshot()
    if (snapshot.phase !== 'ready' || !Object.hasOwn(snapshot.byId, id)) return false
    const summary = snapshot.byId[id] as { readonly origin?: unknown } | undefined
    return summary?.origin !== 'subagent'
  }
  const confirm = async (id: string): Promise<void> => {
    try {
      await service.refresh()
    } catch {
      // A failed pull decides nothing: the removal is delivered below unless the list still holds the id.
    }
    const envelope = held.get(id)
    if (envelope === undefined || stopped) return
    held.delete(id)
    if (listedTopLevel(id)) deliver({ ...envelope, payload: { type: 'host/session-status', sessionId: id, running: false } })
    else deliver(envelope)
  }
  const wrapper = (envelope: HostEnvelope): void => {
    const frame = envelope?.payload
    const id = typeof frame?.sessionId === 'string' ? frame.sessionId : undefined
    if (!stopped && id !== undefined && frame?.type === 'host/session-removed' && (held.has(id) || listedTopLevel(id))) {
      const first = !held.has(id)
      held.set(id, envelope)
      if (first) void confirm(id)
      return
    }
    if (id !== undefined && frame?.type === 'host/session-added') held.delete(id)
    deliver(envelope)
  }
  manager.handleHostEnvelope = wrapper
  return () => {
    stopped = true
    if (manager.handleHostEnvelope === wrapper) manager.handleHostEnvelope = own
    const left = [...held.values()]
    held.clear()
    for (const envelope of left) deliver(envelope)
  }
}
