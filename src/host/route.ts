/**
 * The `POST {path}` handler: trust fence, method, media type, capped JSON body, request
 * validation, then one of `recall` / `delete` / `deleteFrom` (write), `plan` (dry run) or
 * `inspect` (read-only). Every reply is `{ ok: true, value }` or
 * `{ ok: false, error: { code, message } }`; the status comes from {@link statusOf}.
 *
 * @module dsh-message-recall/host/route
 */
import type { IncomingMessage, ServerResponse } from 'node:http'
import type { ErrorCode } from '../shared/protocol'
import type { MessageRecallConfig } from './config'
import { checkContentType, checkMethod, checkTrust, readJsonBody, sendJson } from './http'
import { inspectSession, type PersistenceReader } from './inspect'
import { describeRefusal, errorText, MessageRecallError, type WriteRefusal } from './refusals'
import { parseRecallRequest } from './request'
import { applyChanges, previewChanges, type BatchChangeRefusal } from './batch-service'
import { previewRemoval, removeMessages, type RemovalServices } from './removal-service'

/** What the handler reaches at request time. */
export interface RouteServices extends Omit<RemovalServices, 'tombstoneText'> {
  /** The persistence service when one is loaded (`ctx.get('sessionPersistence')`), else `undefined`. */
  persistence(): PersistenceReader | undefined
  /** Where unexpected failures are reported (the plugin's logger). */
  warn(message: string): void
}

function assertNever(value: never): never {
  throw new Error(`message-recall: unhandled error code ${JSON.stringify(value)}`)
}

/**
 * HTTP status of an error code.
 * @param code - any route error code.
 * @returns 400, 403, 405, 409, 413, 415, 423 or 500.
 */
export function statusOf(code: ErrorCode): number {
  switch (code) {
    case 'INVALID_REQUEST':
      return 400
    case 'FORBIDDEN':
      return 403
    case 'METHOD_NOT_ALLOWED':
      return 405
    case 'PAYLOAD_TOO_LARGE':
      return 413
    case 'UNSUPPORTED_MEDIA_TYPE':
      return 415
    case 'SESSION_NOT_LIVE':
    case 'TARGET_NOT_FOUND':
    case 'NOT_A_USER_MESSAGE':
    case 'NOT_DELETABLE':
    case 'SPAN_NOT_CONTIGUOUS':
    case 'NOT_RESTORABLE':
    case 'STALE_VIEW':
      return 409
    case 'AGENT_BUSY':
      return 423
    case 'PERSIST_FAILED':
    case 'INTERNAL':
      return 500
    default:
      return assertNever(code)
  }
}

function fail(res: ServerResponse, code: ErrorCode, message: string, headers?: Record<string, string>): void {
  sendJson(res, statusOf(code), { ok: false, error: { code, message } }, headers)
}

function refuse(res: ServerResponse, refusal: WriteRefusal): void {
  fail(res, refusal.code, describeRefusal(refusal))
}

function refuseBatch(res: ServerResponse, refusal: BatchChangeRefusal | WriteRefusal): void {
  if ('index' in refusal && 'message' in refusal) sendJson(res, statusOf(refusal.code), { ok: false, error: { code: refusal.code, message: refusal.message, index: refusal.index } })
  else refuse(res, refusal)
}

/**
 * Build the route handler.
 * @param services - sessions, agents, the event index, the optional persistence reader and a logger.
 * @param config - the resolved plugin config.
 * @returns a `webServer` route handler; it never throws (failures answer `INTERNAL` or `PERSIST_FAILED`).
 */
export function createRouteHandler(services: RouteServices, config: MessageRecallConfig): (req: IncomingMessage, res: ServerResponse) => Promise<void> {
  return async (req, res) => {
    try {
      const early = checkTrust(req.headers, config.trustedHosts) ?? checkMethod(req.method) ?? checkContentType(req.headers['content-type'])
      if (early !== null) {
        // An unread body must not keep the connection for the next request.
        fail(res, early.code, early.message, early.code === 'METHOD_NOT_ALLOWED' ? { allow: 'POST', connection: 'close' } : { connection: 'close' })
        return
      }
      const body = await readJsonBody(req, config.maxBodyBytes)
      if (!body.ok) {
        fail(res, body.refusal.code, body.refusal.message, body.refusal.code === 'PAYLOAD_TOO_LARGE' ? { connection: 'close' } : undefined)
        return
      }
      const parsed = parseRecallRequest(body.value)
      if (!parsed.ok) {
        fail(res, parsed.refusal.code, parsed.refusal.message)
        return
      }
      const request = parsed.request
      switch (request.action) {
        case 'inspect': {
          const inspected = await inspectSession({ sessions: services.sessions, index: services.index, persistence: services.persistence() }, request.sessionId)
          if (inspected.ok) sendJson(res, 200, { ok: true, value: inspected.value })
          else refuse(res, inspected.refusal)
          return
        }
        case 'apply': {
          const applied = await applyChanges({ ...services, tombstoneText: config.tombstoneText }, request)
          if (applied.ok) sendJson(res, 200, { ok: true, value: applied.value })
          else refuseBatch(res, applied.refusal)
          return
        }
        case 'plan': {
          if ('changes' in request) {
            const planned = await previewChanges(services, request)
            if (planned.ok) sendJson(res, 200, { ok: true, value: planned.value })
            else refuseBatch(res, planned.refusal)
            return
          }
          const planned = await previewRemoval(services, { ...request, action: request.planAction })
          if (planned.ok) sendJson(res, 200, { ok: true, value: planned.value })
          else refuse(res, planned.refusal)
          return
        }
        default: {
          const removed = await removeMessages({ ...services, tombstoneText: config.tombstoneText }, request)
          if (removed.ok) sendJson(res, 200, { ok: true, value: removed.value })
          else refuse(res, removed.refusal)
          return
        }
      }
    } catch (error) {
      const known = error instanceof MessageRecallError
      const message = known ? error.message : `message-recall: ${errorText(error)}`
      services.warn(message)
      if (!res.headersSent) fail(res, known ? error.code : 'INTERNAL', message)
      else res.destroy()
    }
  }
}
