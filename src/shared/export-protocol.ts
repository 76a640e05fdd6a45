/**
 * The HTTP contract of the export without removed messages, shared by the host route and the
 * browser button: `GET {route path}/export?sessionId=<id>` answers a ZIP archive in the layout of
 * DSH's own Session log export (`dsh-host-apiproxy`, `streamSessionLogZip`: `session.jsonl`,
 * `subagents/<id>/session.jsonl` per descendant, `media/<attachmentId>.<ext>` per image), or a
 * JSON error `{ ok: false, error: { code, message } }`.
 *
 * @module dsh-message-recall/shared/export-protocol
 */

/** Path of the export route relative to the plugin's route path (`/dsh-message-recall/export` by default). */
export const EXPORT_PATH_SUFFIX = '/export'

/**
 * Error codes of the export route, with their HTTP status:
 * `INVALID_REQUEST` 400 (query other than exactly one non-empty `sessionId`), `FORBIDDEN` 403
 * (the trust fence), `SESSION_NOT_FOUND` 404 (neither live nor stored), `METHOD_NOT_ALLOWED` 405
 * (anything but GET), `AGENT_BUSY` 423 (a turn or other agent work is writing the session),
 * `EXPORT_UNAVAILABLE` 501 (the host lacks a service DSH's own export needs: raw log artifacts,
 * session lineage or attachments), `INTERNAL` 500.
 */
export type ExportErrorCode = 'INVALID_REQUEST' | 'FORBIDDEN' | 'SESSION_NOT_FOUND' | 'METHOD_NOT_ALLOWED' | 'AGENT_BUSY' | 'EXPORT_UNAVAILABLE' | 'INTERNAL'

/** HTTP status of each export error code. */
export const EXPORT_STATUS: Readonly<Record<ExportErrorCode, number>> = {
  INVALID_REQUEST: 400,
  FORBIDDEN: 403,
  SESSION_NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  AGENT_BUSY: 423,
  EXPORT_UNAVAILABLE: 501,
  INTERNAL: 500,
}

/** The JSON body of a refused export. */
export interface ExportErrorReply {
  readonly ok: false
  readonly error: { readonly code: ExportErrorCode; readonly message: string }
}

/**
 * The URL of one session's export.
 * @param routePath - the plugin's route path (e.g. `/dsh-message-recall`).
 * @param sessionId - the session to export.
 * @returns a same-origin path with the query, e.g. `/dsh-message-recall/export?sessionId=session-1`.
 */
export function exportUrl(routePath: string, sessionId: string): string {
  return `${routePath}${EXPORT_PATH_SUFFIX}?${new URLSearchParams({ sessionId })}`
}

/**
 * The archive's file name: DSH's `dsh-session-<id>.zip` (`sessionLogZipFilename`, the id with
 * every character outside `[A-Za-z0-9_-]` as `_`) with `-without-removed` before `.zip`.
 * @param sessionId - the exported session.
 * @returns the file name the browser saves.
 */
export function exportFilename(sessionId: string): string {
  return `dsh-session-${sessionId.replace(/[^A-Za-z0-9_-]/g, '_')}-without-removed.zip`
}
