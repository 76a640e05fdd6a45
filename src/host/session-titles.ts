/**
 * The current titles of every session the host knows, live or only stored, for naming a copy so
 * that the sidebar never lists two sessions under one title. A session's title is the newest
 * `session/title` event of its log (`dsh-session-title` `foldSessionTitle`); each session is read
 * the cheapest way available:
 * - a live session: its in-memory log;
 * - a stored session with a usable row in the persisted projection cache
 *   (`dsh-session-projection-cache` `SessionProjectionCache.cachedSnapshot(header)`, the
 *   zero-I/O read DSH's own session list uses): the `title` projection that `dsh-session-title`
 *   registers, as of the last checkpoint (written at every `turn/end` and when a session leaves
 *   memory, so a stored session's row is current);
 * - otherwise: its stored log (`SessionPersistence.readFrom(id, 0)`).
 *
 * @module dsh-message-recall/host/session-titles
 */
import type { SessionEvent, SessionHeader, SessionId } from '@deepseek-ai/dsh-session'
import type { LogEvent } from '../shared/events'
import { titleBefore } from './title-events'
import { errorText } from '../shared/error-text'

/** The part of `ctx.sessionPersistence` read here. */
export interface StoredTitleReader {
  /** Headers of every materialized session (`SessionPersistence.list`). */
  list(): Promise<readonly SessionHeader[]>
  /** Stored events from `fromSeq` on (`SessionPersistence.readFrom`). */
  readFrom(id: SessionId, fromSeq: number): Promise<{ readonly events: readonly SessionEvent[] }>
}

/** The part of `ctx.sessionProjectionCache` (`dsh-session-projection-cache`) read here. */
export interface ProjectionCacheReader {
  /** Projection values of a stored session from its cached rows, or `undefined` without a usable row. */
  cachedSnapshot(header: SessionHeader): { readonly values: Readonly<Record<string, unknown>> } | undefined
}

/** Where titles are read from. */
export interface TitleSources {
  /** The live sessions (`SessionStore.list`). */
  readonly live: () => readonly { readonly id: SessionId; readonly events: readonly SessionEvent[] }[]
  /** The persistence service when loaded. */
  readonly stored: () => StoredTitleReader | undefined
  /** The persisted projection cache when loaded. */
  readonly cache: () => ProjectionCacheReader | undefined
  /** Where an unreadable stored session is reported (it is left out). */
  warn(message: string): void
}

/** The newest `session/title` text of a log, or `undefined`. */
function titleOfLog(events: readonly SessionEvent[]): string | undefined {
  return titleBefore(events.length, (seq) => events[seq] as LogEvent | undefined)?.title
}

/**
 * The current title of every live and stored session.
 * @param sources - see {@link TitleSources}.
 * @returns the set of titles in use (sessions without a title add nothing).
 * @throws what `SessionPersistence.list` throws; a stored log that cannot be read is reported
 * through `warn` and skipped.
 */
export async function sessionTitles(sources: TitleSources): Promise<Set<string>> {
  const titles = new Set<string>()
  const live = new Set<string>()
  for (const session of sources.live()) {
    live.add(session.id)
    const title = titleOfLog(session.events)
    if (title !== undefined) titles.add(title)
  }
  const stored = sources.stored()
  if (stored === undefined) return titles
  const cache = sources.cache()
  for (const header of await stored.list()) {
    if (live.has(header.id)) continue
    const cached = cache?.cachedSnapshot(header)?.values
    if (cached !== undefined && 'title' in cached) {
      if (typeof cached.title === 'string') titles.add(cached.title)
      continue
    }
    try {
      const title = titleOfLog((await stored.readFrom(header.id, 0)).events)
      if (title !== undefined) titles.add(title)
    } catch (error) {
      sources.warn(`message-recall: the title of stored session "${header.id}" could not be read: ${errorText(error)}`)
    }
  }
  return titles
}
