/**
 * The browser side of the host route `POST {path}`: the requests the client sends, typed with the
 * route contract of `shared/protocol.ts`, the reply envelope it reads, and a sender over `fetch`.
 * Same-origin JSON; the host checks Host, Origin and `sec-fetch-site` itself.
 *
 * @module dsh-message-recall/client/wire/api
 */
import { isRecord } from '../../shared/events'
import { readDurableHeader } from '../../shared/durable-header'
import { DEFAULT_ROUTE_PATH, DURABLE_TOMBSTONE_HEADER, ERROR_CODES, type DurableTombstoneFacts, type ApplyRequestBody, type ApplyValue, type BatchPlanCounts, type BatchPlanValue, type CancelEraseValue, type ErasePlanValue, type ErrorCode, type PendingErasesValue, type ScheduledEraseValue, type FlushValue, type ForkBeforeValue, type InspectValue, type PlanValue, type RecallRequestBody, type RemovalValue, type RestoreValue, type RouteError, type SummaryEditValue, type SummaryRefreshPlanValue, type ViewExpectation, type WriteValue } from '../../shared/protocol'
import type { TombstoneAction } from '../../shared/actions'
import { errorText } from '../../shared/error-text'

/** Default route path of the host half (`Config.path`). */
export { DEFAULT_ROUTE_PATH }

/** A dry run: what `planAction` on the node at `seq` would remove. Answered with a {@link PlanValue}. */
export interface PlanRequest extends RecallRequestBody {
  readonly action: 'plan'
  readonly seq: number
  readonly planAction: TombstoneAction
}

/** A removal (or an exclusion) of the node at `seq`. Answered with a {@link RemovalValue}. */
export interface RemovalRequest extends RecallRequestBody {
  readonly action: TombstoneAction
  readonly seq: number
}

/** Undo the tombstone at `tombstoneSeq` in place. Answered with a {@link RestoreValue}. */
export interface RestoreRequest extends RecallRequestBody {
  readonly action: 'restore'
  readonly tombstoneSeq: number
}

/** A new session holding the conversation from before `tombstoneSeq`. Answered with a {@link ForkBeforeValue}. */
export interface ForkBeforeRequest extends RecallRequestBody {
  readonly action: 'forkBefore'
  readonly tombstoneSeq: number
}

/** Only the durability flush of the session's live log ("Save again"). Answered with a {@link FlushValue}. */
export interface FlushRequest extends RecallRequestBody {
  readonly action: 'flush'
}

/** The live and stored summaries of the session, tombstones included. Answered with an {@link InspectValue}. */
export interface InspectRequest extends RecallRequestBody {
  readonly action: 'inspect'
}

/** A batch: `apply` writes the changes all or nothing, `plan` says what it would write. */
export interface BatchRequest extends Omit<ApplyRequestBody, 'action'> {
  readonly action: 'apply' | 'plan'
}

/** Undo a summary rewrite: the summary it replaced back. Answered with a {@link SummaryEditValue}. */
export interface UndoRewriteRequest {
  readonly sessionId: string
  readonly action: 'undoRewrite'
  readonly checkpointSeq: number
  readonly expect?: ViewExpectation
}

/** The compaction summary on the surface written by hand. Answered with a {@link SummaryEditValue}. */
export interface EditSummaryRequest {
  readonly sessionId: string
  readonly action: 'editSummary'
  readonly checkpointSeq: number
  readonly summary: string
  readonly expect?: ViewExpectation
}

/** The summary on the surface made again from the originals minus every removed message (a model call). Answered with a {@link SummaryEditValue}. */
export interface RewriteSummaryRequest {
  readonly sessionId: string
  readonly action: 'rewriteSummary'
  readonly checkpointSeq: number
  readonly expect?: ViewExpectation
}

/** What a `rewriteSummary` would be made from. Answered with a {@link SummaryRefreshPlanValue}. */
export interface RewriteSummaryPlanRequest {
  readonly sessionId: string
  readonly action: 'plan'
  readonly planAction: 'rewriteSummary'
  readonly checkpointSeq: number
  readonly expect?: ViewExpectation
}

/** Body of `erase` with `when: 'next-start'`: erase a removal for good when the host next starts. */
export interface EraseLaterRequest extends RecallRequestBody {
  readonly action: 'erase'
  readonly when: 'next-start'
  readonly tombstoneSeq: number
}

/** Body of the `plan` of an erase: what it would take, nothing written. */
export interface ErasePlanRequest extends RecallRequestBody {
  readonly action: 'plan'
  readonly planAction: 'erase'
  readonly tombstoneSeq: number
}

/** Body of `cancelErase`: drop a pending erase. */
export interface CancelEraseRequest extends RecallRequestBody {
  readonly action: 'cancelErase'
  readonly tombstoneSeq: number
}

/** Body of `pendingErases`: the session's pending erases. */
export interface PendingErasesRequest extends RecallRequestBody {
  readonly action: 'pendingErases'
}

/** Every request the client sends: a row's node by `seq`, a tombstone by `tombstoneSeq`, a batch of changes, a summary's checkpoint, or the session alone. */
export type RecallRequest = PlanRequest | RemovalRequest | RestoreRequest | ForkBeforeRequest | FlushRequest | InspectRequest | BatchRequest | UndoRewriteRequest | EditSummaryRequest | RewriteSummaryRequest | RewriteSummaryPlanRequest | EraseLaterRequest | ErasePlanRequest | CancelEraseRequest | PendingErasesRequest

/** The success value the route answers a request with. */
export type ReplyValueOf<R extends RecallRequest> = R extends EraseLaterRequest
  ? ScheduledEraseValue
  : R extends ErasePlanRequest
  ? ErasePlanValue
  : R extends CancelEraseRequest
  ? CancelEraseValue
  : R extends PendingErasesRequest
  ? PendingErasesValue
  : R extends UndoRewriteRequest | EditSummaryRequest | RewriteSummaryRequest
  ? SummaryEditValue
  : R extends RewriteSummaryPlanRequest
  ? SummaryRefreshPlanValue
  : R extends BatchRequest
  ? R['action'] extends 'apply' ? ApplyValue : R['detail'] extends 'counts' ? BatchPlanCounts : BatchPlanValue
  : R extends PlanRequest
  ? PlanValue
  : R extends RestoreRequest
    ? RestoreValue
    : R extends ForkBeforeRequest
      ? ForkBeforeValue
      : R extends FlushRequest
        ? FlushValue
        : R extends InspectRequest
          ? InspectValue
          : RemovalValue

/**
 * A code this build does not know, from a newer host: carried verbatim so the row can still name
 * it ("Failed (CODE)"). Only {@link parseReply} makes one.
 */
export type UnknownErrorCode = string & { readonly unknownRouteCode: true }

/** What a refusal or failure is called: a route {@link ErrorCode}, the client's own `NETWORK` (no reply, or an unreadable one), or an unknown code. */
export type RecallErrorCode = ErrorCode | 'NETWORK' | 'CANCELLED' | UnknownErrorCode

/** A refusal or failure: the route's error body (`RouteError` in `shared/protocol.ts`), with the client's own codes. */
export interface RecallError extends Omit<RouteError, 'code'> {
  readonly code: RecallErrorCode
}

/** The reply envelope: `{ ok: true, value }` or `{ ok: false, error }`. */
export type RecallReply<T> =
  | { readonly ok: true; readonly value: T }
  | { readonly ok: false; readonly error: RecallError }

/** Sends one request and resolves with its reply; never rejects. */
export type RecallSender = <R extends RecallRequest>(request: R, options?: SendOptions) => Promise<RecallReply<ReplyValueOf<R>>>

/** Options of one send: `signal` aborts the request (the host then cancels a summary rewrite's model call). */
export interface SendOptions {
  readonly signal?: AbortSignal
  /**
   * Called once, when the response starts and before its body is read, with the tombstone of a
   * removal answered `persisted: true` (the `x-message-recall-tombstone` header,
   * `shared/durable-header.ts`). Not called for any other answer; the body still gives the value.
   */
  readonly onDurable?: (facts: DurableTombstoneFacts) => void
}

/** Structural `fetch`: the subset of the WHATWG signature used here. */
export type FetchLike = (url: string, init: { method: string; headers: Record<string, string>; body: string; credentials: 'same-origin'; signal?: AbortSignal }) => Promise<{ readonly status: number; readonly headers?: { get(name: string): string | null }; text(): Promise<string> }>

/**
 * Build a sender over `fetch`.
 * @param fetchImpl - the fetch to use (read at call time by the caller's closure if it may change).
 * @param path - route path, default {@link DEFAULT_ROUTE_PATH}.
 * @returns a sender that resolves every outcome into a {@link RecallReply}: a network failure or a
 *   reply that is not the contract's JSON becomes `{ ok: false, error: { code: 'NETWORK' } }`; a
 *   request aborted through `options.signal` becomes `{ ok: false, error: { code: 'CANCELLED' } }`.
 */
export function createRecallSender(fetchImpl: FetchLike, path: string = DEFAULT_ROUTE_PATH): RecallSender {
  return async <R extends RecallRequest>(request: R, options?: SendOptions): Promise<RecallReply<ReplyValueOf<R>>> => {
    let status = 0
    let text = ''
    try {
      const response = await fetchImpl(path, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(request),
        credentials: 'same-origin',
        ...(options?.signal === undefined ? {} : { signal: options.signal }),
      })
      status = response.status
      if (status === 200 && options?.onDurable !== undefined) {
        const facts = readDurableHeader(response.headers?.get(DURABLE_TOMBSTONE_HEADER) ?? null)
        if (facts !== null) {
          try {
            options.onDurable(facts)
          } catch (error) {
            // The write stands whatever a listener does; its body is still read below.
            console.warn(`message-recall: a durable answer's listener failed: ${errorText(error)}`)
          }
        }
      }
      text = await response.text()
    } catch (error) {
      if (options?.signal?.aborted === true) return { ok: false, error: { code: 'CANCELLED', message: 'message-recall: cancelled; nothing was written' } }
      return { ok: false, error: { code: 'NETWORK', message: errorText(error) } }
    }
    return parseReply<ReplyValueOf<R>>(status, text)
  }
}

const KNOWN_CODES: ReadonlySet<string> = new Set(ERROR_CODES)

/** The `PERSIST_FAILED` fields of an error body that have the contract's types (`RouteError` in `shared/protocol.ts`). */
function errorDetails(error: Record<string, unknown>): Pick<RecallError, 'applied' | 'value' | 'content' | 'text'> {
  return {
    ...(typeof error.applied === 'boolean' ? { applied: error.applied } : {}),
    ...(isRecord(error.value) ? { value: error.value as unknown as WriteValue } : {}),
    ...(Array.isArray(error.content) ? { content: error.content as readonly unknown[] } : {}),
    ...(typeof error.text === 'string' ? { text: error.text } : {}),
  }
}

/**
 * Read a reply body. The envelope is checked; the value is the route's answer to the request's
 * action (`T`), as the contract in `shared/protocol.ts` defines it, and is not re-validated.
 * @param status - HTTP status (only used in the message of an unreadable reply).
 * @param text - the body.
 * @returns the parsed reply, or a `NETWORK` error when the body is not `{ ok: true, value }` /
 *   `{ ok: false, error: { code } }`. An error without a message gets its code as the message;
 *   the `PERSIST_FAILED` fields (`applied`, `value`, `content`, `text`) are kept when well typed.
 */
export function parseReply<T>(status: number, text: string): RecallReply<T> {
  let body: unknown
  try {
    body = JSON.parse(text)
  } catch {
    return { ok: false, error: { code: 'NETWORK', message: `HTTP ${status}: reply is not JSON` } }
  }
  if (isRecord(body) && body.ok === true && isRecord(body.value)) return { ok: true, value: body.value as T }
  if (isRecord(body) && body.ok === false && isRecord(body.error) && typeof body.error.code === 'string') {
    const code = body.error.code
    const message = typeof body.error.message === 'string' ? body.error.message : code
    const index = Number.isSafeInteger(body.error.index) ? { index: body.error.index as number } : {}
    return { ok: false, error: { code: KNOWN_CODES.has(code) ? (code as ErrorCode) : (code as UnknownErrorCode), message, ...errorDetails(body.error), ...index } }
  }
  return { ok: false, error: { code: 'NETWORK', message: `HTTP ${status}: reply does not follow the route contract` } }
}
