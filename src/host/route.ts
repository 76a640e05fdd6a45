/**
 * The `POST {path}` handler: trust fence, method, media type, capped JSON body, request
 * validation, then one of the writes (`recall` / `delete` / `deleteFrom` / `exclude` write a
 * tombstone, `restore` undoes one in place, `apply` writes a batch of changes all or nothing),
 * `forkBefore` (a fork: a stored session from before a tombstone), `erase` (`erase-session.ts`; with
 * `when: 'next-start'` kept for the host's next start, `erase-at-start.ts`), `cancelErase` and
 * `pendingErases`, `flush` (only the durability flush),
 * `plan` (dry run of one removal, of a batch or of a `rewriteSummary`), `editSummary`, `undoRewrite`,
 * `rewriteSummary` (`summary-refresh.ts`) or `inspect` (read-only).
 * Every reply is `{ ok: true, value }` or `{ ok: false, error: { code, message, … } }` (see
 * `RouteError`); the status comes from {@link statusOf}; no message carries an absolute path.
 * A removal answered `persisted: true` with one tombstone also carries its facts in the
 * `x-message-recall-tombstone` header (`shared/durable-header.ts`), which a page reads before the body.
 *
 * @module dsh-message-recall/host/route
 */
import type { IncomingMessage, ServerResponse } from 'node:http'
import { DURABLE_TOMBSTONE_HEADER, READ_ROUTE_ACTIONS, type ErrorCode, type RouteError } from '../shared/protocol'
import { durableHeaderOf } from '../shared/durable-header'
import type { MessageRecallConfig } from './config'
import type { DiskSummaryCache } from './disk-summary-cache'
import { forkBefore, type ForkServices } from './fork-before'
import { checkContentEncoding, checkContentType, checkMethod, checkTrust, readJsonBody, sendJson, sendJsonInSlices } from './http'
import { inspectSession, type PersistenceReader } from './inspect'
import { shortenPaths } from './shorten-paths'
import { describeRefusal, MessageRecallError, type Outcome, type WriteRefusal } from './refusals'
import { errorText } from '../shared/error-text'
import { parseRouteRequest } from './request'
import { restoreMessage } from './restore-writer'
import { applyChanges, previewChanges } from './batch-service'
import type { BatchIntent } from './view-plans'
import { previewRemoval, removeMessages, type RemovalServices } from './removal-service'
import { flushSession } from './session-write'
import type { EraseServices } from './erase-session'
import { cancelErase, eraseNow, listPendingErases, pendingEraseRefusal, planErase, scheduleErase, type EraseLaterServices } from './erase-at-start'
import { editSummary } from './summary-edit'
import { previewSummaryRefresh, refreshSummary } from './summary-refresh'
import type { WriteQueue } from './write-queue'
import { homeInUseMessage, type LockHolder } from './home-lock'

/** What the handler reaches at request time. */
export interface RouteServices extends Omit<RemovalServices, 'tombstoneText' | 'queue'> {
  /** The per-session queue of this plugin's writes. */
  readonly queue: WriteQueue
  /** The persistence service when one is loaded (`ctx.get('sessionPersistence')`), else `undefined`. */
  persistence(): PersistenceReader | undefined
  /** Stored-log summaries for `inspect`. */
  readonly diskSummaries: DiskSummaryCache
  /** The child-fiber, workspace, session catalog and title services of `forkBefore`. */
  readonly fork: Pick<ForkServices, 'inChildFiber' | 'workspaces' | 'catalog' | 'titleLimits' | 'language'>
  /** The erase's services (`erase-session.ts`). */
  readonly erase: EraseServices
  /** An erase kept for the host's next start (`erase-at-start.ts`): the open session and the pending file. */
  readonly eraseLater: Omit<EraseLaterServices, 'erase'>
  /** Where unexpected failures are reported (the plugin's logger). */
  warn(message: string): void
  /**
   * The host plugin's claim on the DSH home (`home-lock.ts`): `null` when this plugin may write,
   * else the live holder, and every action but `plan`, `inspect` and `pendingErases` answers `HOME_IN_USE`. Absent: never refused.
   */
  homeLock?(): LockHolder | null
}

function assertNever(value: never): never {
  throw new Error(`message-recall: unhandled error code ${JSON.stringify(value)}`)
}

/**
 * HTTP status of an error code.
 * @param code - any route error code.
 * @returns 400, 403, 405, 409, 413, 415, 423, 500, 501 or 502.
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
    case 'HOME_IN_USE':
    case 'TARGET_NOT_FOUND':
    case 'NOT_A_USER_MESSAGE':
    case 'NOT_DELETABLE':
    case 'SPAN_NOT_CONTIGUOUS':
    case 'NOT_RESTORABLE':
    case 'NOT_A_SUMMARY':
    case 'STALE_VIEW':
      return 409
    case 'NOT_ERASABLE':
    case 'ERASE_NOT_VERIFIED':
    case 'ERASE_PENDING':
      return 409
    case 'AGENT_BUSY':
      return 423
    case 'ERASE_UNAVAILABLE':
      return 501
    case 'SUMMARY_FAILED':
      return 502
    case 'PERSIST_FAILED':
    case 'INTERNAL':
      return 500
    default:
      return assertNever(code)
  }
}

function fail(res: ServerResponse, code: ErrorCode, message: string, headers?: Record<string, string>, details: Omit<RouteError, 'code' | 'message'> = {}): void {
  // No absolute machine path leaves the host (persistence errors name the sessions root and the project folder).
  sendJson(res, statusOf(code), { ok: false, error: { code, message: shortenPaths(message), ...details } }, headers)
}

function refuse(res: ServerResponse, refusal: WriteRefusal): void {
  // A refused change of a batch names its index in the error body.
  fail(res, refusal.code, describeRefusal(refusal), undefined, 'index' in refusal ? { index: refusal.index } : {})
}

async function answer(res: ServerResponse, outcome: Outcome<unknown>): Promise<void> {
  // A batch's value lists every change: written in slices, like its planning.
  if (outcome.ok) await sendJsonInSlices(res, 200, { ok: true, value: outcome.value })
  else refuse(res, outcome.refusal)
}

/** {@link answer} for a removal: a durable tombstone's facts also go in a header the page reads before the body. */
async function answerRemoval(res: ServerResponse, outcome: Outcome<unknown>): Promise<void> {
  const durable = outcome.ok ? durableHeaderOf(outcome.value) : null
  if (outcome.ok) await sendJsonInSlices(res, 200, { ok: true, value: outcome.value }, durable === null ? {} : { [DURABLE_TOMBSTONE_HEADER]: durable })
  else refuse(res, outcome.refusal)
}

/**
 * Refuse a batch (`apply`, or its `plan`) that restores a removal whose erase is pending: answers
 * `ERASE_PENDING` with the first such change's `index`, as `restore` alone would be refused.
 * @returns true when the request was answered (refused), false when it may go on.
 */
async function refusedPendingRestore(res: ServerResponse, services: RouteServices, request: BatchIntent): Promise<boolean> {
  for (const [index, change] of request.changes.entries()) {
    if (change.action !== 'restore') continue
    const pending = await pendingEraseRefusal(services.eraseLater.pending, request.sessionId, change.tombstoneSeq)
    if (pending !== null) {
      fail(res, pending.code, pending.message, undefined, { index })
      return true
    }
  }
  return false
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
      const early = checkTrust(req.headers, config.trustedHosts) ?? checkMethod(req.method) ?? checkContentType(req.headers['content-type']) ?? checkContentEncoding(req.headers['content-encoding'])
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
      const parsed = parseRouteRequest(body.value)
      if (!parsed.ok) {
        const { index } = parsed.refusal
        fail(res, parsed.refusal.code, parsed.refusal.message, undefined, index === undefined ? {} : { index })
        return
      }
      const request = parsed.request
      // Another host writes this home's sessions: only reads go on (a write here would break its log).
      const holder = READ_ROUTE_ACTIONS.includes(request.action) ? null : services.homeLock?.() ?? null
      if (holder !== null) {
        fail(res, 'HOME_IN_USE', homeInUseMessage(holder), undefined, { holderPid: holder.pid })
        return
      }
      switch (request.action) {
        case 'inspect':
          await answer(res, await inspectSession({ sessions: services.sessions, index: services.index, persistence: services.persistence(), diskSummaries: services.diskSummaries }, request.sessionId))
          return
        case 'apply': {
          if (await refusedPendingRestore(res, services, request)) return
          const cancel = new AbortController()
          res.once('close', () => { if (!res.writableFinished) cancel.abort() })
          await answer(res, await applyChanges({ ...services, tombstoneText: config.tombstoneText }, request, cancel.signal))
          return
        }
        case 'plan':
          // The plan refuses what apply would: the editor's live check must not preview a restore Apply refuses.
          if ('changes' in request) {
            if (!(await refusedPendingRestore(res, services, request))) await answer(res, await previewChanges(services, request))
          }
          else if (request.planAction === 'erase') {
            const planned = await planErase({ ...services.eraseLater, erase: services.erase }, request)
            if (planned.ok) sendJson(res, 200, { ok: true, value: planned.value })
            else fail(res, planned.refusal.code, planned.refusal.message, undefined, 'reason' in planned.refusal ? { reason: planned.refusal.reason } : {})
          }
          else await answer(res, await previewRemoval(services, { ...request, action: request.planAction }))
          return
        case 'restore':
        case 'forkBefore': {
          // The person chose to erase this removal: it cannot come back, nor be copied from before it.
          const pending = await pendingEraseRefusal(services.eraseLater.pending, request.sessionId, request.tombstoneSeq)
          if (pending !== null) fail(res, pending.code, pending.message)
          else if (request.action === 'restore') await answer(res, await restoreMessage(services, request))
          else await answer(res, await forkBefore({ ...services, ...services.fork }, request))
          return
        }
        case 'cancelErase':
        case 'pendingErases': {
          const later = { ...services.eraseLater, erase: services.erase }
          const done = request.action === 'cancelErase' ? await cancelErase(later, request) : await listPendingErases(later, request.sessionId)
          if (done.ok) sendJson(res, 200, { ok: true, value: done.value })
          else fail(res, done.refusal.code, done.refusal.message)
          return
        }
        case 'flush':
          await answer(res, await flushSession(services, request.sessionId))
          return
        case 'erase': {
          const erased = request.when === 'next-start'
            ? await scheduleErase({ ...services.eraseLater, erase: services.erase }, request)
            : await eraseNow({ pending: services.eraseLater.pending, erase: services.erase }, request)
          if (erased.ok) sendJson(res, 200, { ok: true, value: erased.value })
          else fail(res, erased.refusal.code, erased.refusal.message, undefined, 'reason' in erased.refusal ? { reason: erased.refusal.reason } : {})
          return
        }
        case 'editSummary':
        case 'undoRewrite':
          await answer(res, await editSummary({ ...services, meter: () => services.effects?.().meter }, request))
          return
        case 'rewriteSummary': {
          if (request.preview === true) {
            await answer(res, await previewSummaryRefresh(services, request))
            return
          }
          // A model call: a client that goes away cancels it, and nothing is written.
          const cancel = new AbortController()
          res.once('close', () => { if (!res.writableFinished) cancel.abort() })
          await answer(res, await refreshSummary({ ...services, summarizer: services.summarizer ?? (() => undefined), meter: () => services.effects?.().meter }, request, cancel.signal))
          return
        }
        default: {
          // A removal of folded messages waits for a model call: a client that goes away cancels it.
          const cancel = new AbortController()
          res.once('close', () => { if (!res.writableFinished) cancel.abort() })
          await answerRemoval(res, await removeMessages({ ...services, tombstoneText: config.tombstoneText }, request, cancel.signal))
          return
        }
      }
    } catch (error) {
      const known = error instanceof MessageRecallError
      const message = known ? error.message : `message-recall: ${errorText(error)}`
      services.warn(message)
      if (!res.headersSent) fail(res, known ? error.code : 'INTERNAL', message, undefined, known ? error.details : {})
      else res.destroy()
    }
  }
}
