/**
 * The browser side of the host route `POST /dsh-message-recall` (issue 2 contract): request
 * body, reply union, and a sender over `fetch`. Same-origin JSON; the host checks Host, Origin and
 * `sec-fetch-site` itself.
 *
 * @module dsh-message-recall/client/api
 */
import { isRecord } from '../shared/events'
import type { RemovalAction as RecallAction } from '../shared/tombstone'
import { DEFAULT_ROUTE_PATH, type ViewExpectation } from '../shared/protocol'

/** Default route path of the host half (`Config.path`). */
export { DEFAULT_ROUTE_PATH }

/** Body of one request. Exactly one of `seq` / `messageId` is set by the sender here: `seq`. */
export interface RecallRequest {
  readonly sessionId: string
  readonly action: RecallAction | 'plan'
  readonly seq: number
  /** For `plan`: the action whose removal is planned. */
  readonly planAction?: RecallAction
  readonly expect?: ViewExpectation
}

/** A refusal or failure: a host code (issue 2 table) or the client's `NETWORK`. */
export interface RecallError {
  readonly code: string
  readonly message: string
}

/** The reply: `{ ok: true, value }` or `{ ok: false, error }`. */
export type RecallReply =
  | { readonly ok: true; readonly value: Record<string, unknown> }
  | { readonly ok: false; readonly error: RecallError }

/** Sends one request and resolves with its reply; never rejects. */
export type RecallSender = (request: RecallRequest) => Promise<RecallReply>

/** Structural `fetch`: the subset of the WHATWG signature used here. */
export type FetchLike = (url: string, init: { method: string; headers: Record<string, string>; body: string; credentials: 'same-origin' }) => Promise<{ readonly status: number; text(): Promise<string> }>

/**
 * Build a sender over `fetch`.
 * @param fetchImpl - the fetch to use (read at call time by the caller's closure if it may change).
 * @param path - route path, default {@link DEFAULT_ROUTE_PATH}.
 * @returns a sender that resolves every outcome into a {@link RecallReply}: a network failure or a
 *   reply that is not the contract's JSON becomes `{ ok: false, error: { code: 'NETWORK' } }`.
 */
export function createRecallSender(fetchImpl: FetchLike, path: string = DEFAULT_ROUTE_PATH): RecallSender {
  return async (request) => {
    let status = 0
    let text = ''
    try {
      const response = await fetchImpl(path, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(request),
        credentials: 'same-origin',
      })
      status = response.status
      text = await response.text()
    } catch (error) {
      return { ok: false, error: { code: 'NETWORK', message: error instanceof Error ? error.message : String(error) } }
    }
    return parseReply(status, text)
  }
}

/**
 * Read a reply body.
 * @param status - HTTP status (only used in the message of an unreadable reply).
 * @param text - the body.
 * @returns the parsed reply, or a `NETWORK` error when the body is not `{ ok: true, value }` /
 *   `{ ok: false, error: { code } }`.
 */
export function parseReply(status: number, text: string): RecallReply {
  let body: unknown
  try {
    body = JSON.parse(text)
  } catch {
    return { ok: false, error: { code: 'NETWORK', message: `HTTP ${status}: reply is not JSON` } }
  }
  if (isRecord(body) && body.ok === true && isRecord(body.value)) return { ok: true, value: body.value }
  if (isRecord(body) && body.ok === false && isRecord(body.error) && typeof body.error.code === 'string') {
    const message = typeof body.error.message === 'string' ? body.error.message : body.error.code
    return { ok: false, error: { code: body.error.code, message } }
  }
  return { ok: false, error: { code: 'NETWORK', message: `HTTP ${status}: reply does not follow the route contract` } }
}
