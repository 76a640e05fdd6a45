/**
 * A session's whole durable log, read page by page through the web host's own history call: the
 * `session.history` RPC of `dsh-host-apiproxy` (`POST /api/session.history`, the call the rc.8
 * client makes when it opens a session), which pages backwards from the tail in contiguous raw
 * ranges (`paginate`: each page holds every event from its cut up to `beforeSeq`) and reads a
 * session that is not live from the host's session persistence without resuming it.
 *
 * @module dsh-message-recall/client/wire/session-history
 */
import { isRecord, type LogEvent } from '../../shared/events'
import type { FetchLike } from './api'

/** The history call's path on the rc.8 web host. */
export const HISTORY_PATH = '/api/session.history'

/** Append-origin messages per page asked for. */
export const HISTORY_PAGE_MESSAGES = 500

/** Most pages read before giving up (a guard against a host that never ends the paging). */
const MAX_PAGES = 10_000

let rpcCounter = 0

/**
 * Read every event of a session.
 * @param fetchImpl - the page's `fetch`.
 * @param sessionId - the session id.
 * @returns the events in ascending seq order.
 * @throws `Error` naming the session when the host answers an error, a reply that is not the
 *   history contract, or pages that overlap.
 */
export async function readWholeHistory(fetchImpl: FetchLike, sessionId: string): Promise<LogEvent[]> {
  const pages: LogEvent[][] = []
  let beforeSeq: number | undefined
  for (let page = 0; page < MAX_PAGES; page++) {
    const payload = { sessionId, maxMessages: HISTORY_PAGE_MESSAGES, ...(beforeSeq === undefined ? {} : { beforeSeq }) }
    const response = await fetchImpl(HISTORY_PATH, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ type: 'client-request', rpcId: `dsh-message-recall-history-${++rpcCounter}`, method: 'session.history', payload }),
      credentials: 'same-origin',
    })
    const body: unknown = JSON.parse(await response.text())
    const result = isRecord(body) ? body.result : undefined
    if (!isRecord(result) || result.ok !== true || !isRecord(result.value) || !Array.isArray(result.value.events)) {
      const message = isRecord(result) && isRecord(result.error) && typeof result.error.message === 'string' ? result.error.message : `HTTP ${response.status}`
      throw new Error(`message-recall: history of session "${sessionId}" unavailable: ${message}`)
    }
    const events = (result.value.events as unknown[]).map((entry) => (isRecord(entry) ? entry.event : undefined)).filter((e): e is LogEvent => isRecord(e) && typeof e.seq === 'number')
    pages.unshift(events)
    if (result.value.hasMore !== true || events.length === 0) break
    beforeSeq = events[0]!.seq
  }
  const all = pages.flat()
  for (let i = 1; i < all.length; i++) {
    if (all[i]!.seq <= all[i - 1]!.seq) throw new Error(`message-recall: history pages of session "${sessionId}" overlap at seq ${all[i]!.seq}`)
  }
  return all
}
