/**
 * Open a session in the web UI, the way the stock turn-bar Branch does after `session.fork`
 * (`sessions.open(childId)` in `dsh-client-ui-conversation`): through the client's `sessions`
 * service. A session the host made a moment ago may not be in the list yet, so the list is pulled
 * again first when it does not hold the id. The same service keeps a stored session listed after
 * the host reported its detach as a removal ({@link relistDroppedSessions}).
 *
 * @module dsh-message-recall/client/wire/open-session
 */
import type { SessionsService } from './rc8'

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
