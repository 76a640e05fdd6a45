/**
 * Open a session in the web UI, the way the stock turn-bar Branch does after `session.fork`
 * (`sessions.open(childId)` in `dsh-client-ui-conversation`): through the client's `sessions`
 * service. A session the host made a moment ago may not be in the list yet, so the list is pulled
 * again first when it does not hold the id.
 *
 * @module dsh-message-recall/client/open-session
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
