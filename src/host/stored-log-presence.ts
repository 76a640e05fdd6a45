/**
 * Whether a session's stored log is missing from where its persistence keeps it: its folder was
 * removed, moved aside, or replaced by a file. Read only after a read of the stored log failed,
 * to tell a log that is gone (the stored half of `inspect` is then unavailable) from one that is
 * there but cannot be read (an error).
 *
 * Two typed probes of `SessionPersistence` (`dsh-session-persistence`), no error text matched:
 * - with the session's header, `locate(meta)` names the log's path without reading it, and a
 *   `stat` of that path failing with `ENOENT` or `ENOTDIR` means it is gone;
 * - without it (a session that is not live), `readRaw(id)` of a backend that keeps one artifact
 *   per session (`supportsRawArtifacts`) answers `undefined` when the session has none, or fails
 *   with `ENOENT`/`ENOTDIR` when its folder is a file.
 *
 * @module dsh-message-recall/host/stored-log-presence
 */
import { stat } from 'node:fs/promises'
import type { SessionHeader, SessionId } from '@deepseek-ai/dsh-session'

/** The optional parts of `ctx.sessionPersistence` the probe uses. */
export interface LogPresenceProbe {
  /** Where the backend keeps a session's artifact (`SessionPersistence.locate`). */
  locate?(meta: SessionHeader): { readonly path: string } | undefined
  /** Whether {@link readRaw} is supported (`SessionPersistence.supportsRawArtifacts`). */
  readonly supportsRawArtifacts?: boolean
  /** The session's artifact verbatim, or `undefined` when it has none (`SessionPersistence.readRaw`). */
  readRaw?(id: SessionId): Promise<unknown>
}

/**
 * Whether a file system error says the path is not there.
 * @param error - what a `node:fs` call threw.
 * @returns true for `ENOENT` (missing) and `ENOTDIR` (a folder on the way is a file).
 */
export function isMissingPath(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException | null)?.code
  return code === 'ENOENT' || code === 'ENOTDIR'
}

/**
 * Whether the stored log of a session is missing from its place.
 * @param persistence - the persistence service.
 * @param sessionId - the session id.
 * @param header - the session's header when known (a live session), for `locate`.
 * @returns `true` when the log is known to be gone; `false` when it is there or the backend
 * offers no way to tell.
 */
export async function storedLogMissing(persistence: LogPresenceProbe, sessionId: string, header?: SessionHeader): Promise<boolean> {
  const located = header === undefined ? undefined : persistence.locate?.(header)
  if (located !== undefined) {
    try {
      await stat(located.path)
      return false
    } catch (error) {
      return isMissingPath(error)
    }
  }
  if (persistence.supportsRawArtifacts !== true || persistence.readRaw === undefined) return false
  try {
    return (await persistence.readRaw(sessionId as SessionId)) === undefined
  } catch (error) {
    return isMissingPath(error)
  }
}
