/**
 * The `GET {path}/export?sessionId=<id>` handler: the export without removed messages
 * (`session-export.ts`) behind the same trust fence as `POST {path}` (`http.ts`, `checkTrust`).
 * The reply is the ZIP archive (`application/zip`, `attachment; filename="…"`,
 * `shared/export-protocol.ts`, `exportFilename`), streamed entry by entry with backpressure, or a
 * JSON error `{ ok: false, error: { code, message } }` before any archive byte (codes and statuses
 * in `ExportErrorCode`). Nothing is appended to any session.
 *
 * @module dsh-message-recall/host/export-route
 */
import type { IncomingMessage, ServerResponse } from 'node:http'
import type { Context } from '@deepseek-ai/cordis'
import type { SessionId } from '@deepseek-ai/dsh-session'
import { EXPORT_PATH_SUFFIX, EXPORT_STATUS, exportFilename, type ExportErrorCode, type ExportErrorReply } from '../shared/export-protocol'
import type { MessageRecallConfig } from './config'
import { checkTrust } from './http'
import { shortenPaths } from './shorten-paths'
import { errorText } from '../shared/error-text'
import { prepareExport, type ExportServices, type ImageSource, type LineageSource, type RawLogSource } from './session-export'
import { ZipWriter } from './zip-writer'
import { MAX_SESSION_ID_LENGTH } from './request'

function fail(res: ServerResponse, code: ExportErrorCode, message: string, headers: Record<string, string> = {}): void {
  const body: ExportErrorReply = { ok: false, error: { code, message: shortenPaths(message) } }
  const text = JSON.stringify(body)
  res.writeHead(EXPORT_STATUS[code], { 'content-type': 'application/json; charset=utf-8', 'content-length': String(Buffer.byteLength(text)), 'cache-control': 'no-store', ...headers })
  res.end(text)
}

/**
 * Read the query: exactly one `sessionId`, non-empty, at most {@link MAX_SESSION_ID_LENGTH} long;
 * every parameter valid percent-encoded UTF-8 (a broken escape is refused, not read as U+FFFD).
 * @param url - the request target (path and query).
 * @returns the session id, or the `INVALID_REQUEST` message.
 */
export function parseExportQuery(url: string | undefined): { ok: true; sessionId: string } | { ok: false; message: string } {
  const parsed = new URL(url ?? '/', 'http://host')
  // URLSearchParams decodes a broken percent-encoding (`%E0%A4%A`) to U+FFFD; decodeURIComponent refuses it.
  for (const part of parsed.search.slice(1).split('&')) {
    try {
      decodeURIComponent(part.replace(/\+/g, ' '))
    } catch {
      return { ok: false, message: `message-recall: the query is not valid percent-encoded UTF-8 (${JSON.stringify(part.length > 80 ? `${part.slice(0, 80)}…` : part)})` }
    }
  }
  const query = parsed.searchParams
  const keys = [...query.keys()]
  const unknown = keys.find((key) => key !== 'sessionId')
  if (unknown !== undefined) return { ok: false, message: `message-recall: unknown query parameter ${JSON.stringify(unknown)} (allowed: sessionId)` }
  const ids = query.getAll('sessionId')
  if (ids.length !== 1) return { ok: false, message: `message-recall: the query needs exactly one sessionId (got ${ids.length})` }
  const sessionId = ids[0] as string
  if (sessionId.length === 0 || sessionId.length > MAX_SESSION_ID_LENGTH) return { ok: false, message: `message-recall: sessionId must be 1 to ${MAX_SESSION_ID_LENGTH} characters` }
  return { ok: true, sessionId }
}

/**
 * Build the export route handler.
 * @param services - the export's services (see {@link ExportServices}).
 * @param trustedHosts - the plugin's `trustedHosts`.
 * @param warn - where unexpected failures are reported.
 * @returns a `webServer` route handler; it never throws (a failure before the archive starts
 * answers `INTERNAL`, one after it aborts the response, so a torn archive never looks whole).
 */
export function createExportHandler(services: ExportServices, trustedHosts: readonly string[], warn: (message: string) => void): (req: IncomingMessage, res: ServerResponse) => Promise<void> {
  return async (req, res) => {
    const abort = new AbortController()
    const onClose = (): void => {
      if (!res.writableFinished) abort.abort(new Error('message-recall: the export response was closed'))
    }
    res.on('close', onClose)
    try {
      const fence = checkTrust(req.headers, trustedHosts)
      if (fence !== null) return fail(res, fence.code as ExportErrorCode, fence.message)
      if (req.method !== 'GET') return fail(res, 'METHOD_NOT_ALLOWED', `message-recall: method ${req.method ?? '(none)'} is not allowed; use GET`, { allow: 'GET' })
      const query = parseExportQuery(req.url)
      if (!query.ok) return fail(res, 'INVALID_REQUEST', query.message)
      const prepared = await prepareExport(services, query.sessionId as SessionId, abort.signal)
      if (!prepared.ok) return fail(res, prepared.refusal.code, prepared.refusal.message)
      res.writeHead(200, {
        'content-type': 'application/zip',
        'content-disposition': `attachment; filename="${exportFilename(query.sessionId)}"`,
        'cache-control': 'no-store',
      })
      const zip = new ZipWriter((bytes) => new Promise<void>((resolve, reject) => {
        if (abort.signal.aborted) return reject(abort.signal.reason)
        if (res.write(bytes)) return resolve()
        const drained = (): void => { res.off('close', closed); resolve() }
        const closed = (): void => { res.off('drain', drained); reject(new Error('message-recall: the export response was closed')) }
        res.once('drain', drained)
        res.once('close', closed)
      }))
      for await (const entry of prepared.value.entries(abort.signal)) await zip.add(entry.path, entry.data)
      await zip.finish()
      res.end()
    } catch (error) {
      const message = `message-recall: export failed: ${errorText(error)}`
      if (!abort.signal.aborted) warn(message)
      if (!res.headersSent) fail(res, 'INTERNAL', message)
      else res.destroy()
    } finally {
      res.off('close', onClose)
    }
  }
}

/**
 * Register `GET {config.path}/export` on the web server for the life of `ctx`.
 * @param ctx - the plugin context (`sessions`, `agents`, `webServer`; `sessionPersistence`,
 * `sessionQuery` and `attachments` are read per request).
 * @param config - the resolved plugin config (`path`, `trustedHosts`).
 * @param warn - where unexpected failures are reported.
 * @throws at load when the path is already registered (`webserver: duplicate exact route "<path>"`).
 */
export function installExportRoute(ctx: Context, config: Pick<MessageRecallConfig, 'path' | 'trustedHosts'>, warn: (message: string) => void): void {
  const handler = createExportHandler({
    sessions: ctx.sessions,
    agents: ctx.agents,
    persistence: () => ctx.get('sessionPersistence') as RawLogSource | undefined,
    lineage: () => ctx.get('sessionQuery') as LineageSource | undefined,
    images: () => ctx.get('attachments') as ImageSource | undefined,
  }, config.trustedHosts, warn)
  const path = `${config.path}${EXPORT_PATH_SUFFIX}`
  ctx.effect(() => ctx.webServer.register({ kind: 'exact', path, handler }), `message-recall: ${path} route`)
}
