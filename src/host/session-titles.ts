/**
 * The current titles of every session the host knows, live or only stored, for naming a copy so
 * that the sidebar never lists two sessions under one title. A session's title is the newest
 * `session/title` event of its log (`dsh-session-title` `foldSessionTitle`); each session is read
 * the cheapest way available:
 * - a live session: its in-memory log, searched backwards for the newest `session/title` through
 *   the plugin's event index and `title-events` `currentTitle` (incremental: only the events
 *   appended since the previous search), never a copy of the log;
 * - a stored session with a usable row in the persisted projection cache
 *   (`dsh-session-projection-cache` `SessionProjectionCache.cachedSnapshot(header)`, the
 *   zero-I/O read DSH's own session list uses): the `title` projection that `dsh-session-title`
 *   registers, as of the last checkpoint (written at every `turn/end` and when a session leaves
 *   memory, so a stored session's row is current);
 * - a stored session whose title was read before at the same revision of its log (the change
 *   token `stored-listing` gives: for the JSONL backend the log file's device, inode, size, mtime
 *   and ctime, which change whenever the stored log changes, read without DSH's full listing on
 *   every call; else `SessionPersistence.listSnapshots`, `dsh-session-persistence`): that title,
 *   from a {@link StoredTitleCache};
 * - otherwise: its stored log, and the title is kept by the revision listed before the read. A
 *   backend that keeps each log as one text (`SessionPersistence.supportsRawArtifacts`, the JSONL
 *   backend) is read with `SessionPersistence.readRaw(id)` and only the newest line holding a
 *   `session/title` event is parsed ({@link titleOfRawLog}; the backend packs only
 *   `assistant/chunk` runs into shared rows, so a title is always a line of its own); any other
 *   backend with `SessionPersistence.readFrom(id, 0)`.
 * The stored sessions are listed through a {@link StoredLogListing} (`stored-listing`), which
 * reads the disk's folders and the logs' change tokens on each call and lists in full only when a
 * session folder it does not know appears.
 *
 * @module dsh-message-recall/host/session-titles
 */
import type { SessionEvent, SessionHeader, SessionId } from '@deepseek-ai/dsh-session'
import { isRecord, type LogEvent } from '../shared/events'
import type { IndexedSession } from './event-index'
import type { EventLookup } from './surface-plan'
import type { StoredLister, StoredLogListing } from './stored-listing'
import { currentTitle, titleBefore } from './title-events'
import { errorText } from '../shared/error-text'

/** The part of `ctx.sessionPersistence` read here: the listing's part (`stored-listing`), and the logs. */
export interface StoredTitleReader extends StoredLister {
  /** Stored events from `fromSeq` on (`SessionPersistence.readFrom`). */
  readFrom(id: SessionId, fromSeq: number): Promise<{ readonly events: readonly SessionEvent[] }>
  /** Whether {@link StoredTitleReader.readRaw} is implemented (`SessionPersistence.supportsRawArtifacts`; the JSONL backend: true). */
  readonly supportsRawArtifacts?: boolean
  /** The stored log's text, header line first, or `undefined` for an unknown session (`SessionPersistence.readRaw`). */
  readRaw?(id: SessionId): Promise<{ readonly content: string } | undefined>
}

/** The part of `ctx.sessionProjectionCache` (`dsh-session-projection-cache`) read here. */
export interface ProjectionCacheReader {
  /** Projection values of a stored session from its cached rows, or `undefined` without a usable row. */
  cachedSnapshot(header: SessionHeader): { readonly values: Readonly<Record<string, unknown>> } | undefined
}

/** The part of a live DSH `Session` read here (its `events` only through the event index, once per session). */
export interface LiveTitled extends IndexedSession {
  readonly id: SessionId
}

/**
 * The titles of stored logs, each kept with the persistence revision it was read at; an entry
 * is used only while the listed revision is the same. Holds one entry (an id, a revision string
 * and a title) per stored session; sessions no longer listed are dropped at the next listing.
 */
export class StoredTitleCache {
  private readonly entries = new Map<string, { readonly revision: string; readonly title: string | undefined }>()
  private counts = { reads: 0, hits: 0 }

  /**
   * The title kept for a log at a revision.
   * @param id - the stored session's id.
   * @param revision - its revision as listed now.
   * @returns `{ title }` (`title` `undefined` for a log without one) when this revision was read, else `undefined`.
   */
  get(id: string, revision: string): { readonly title: string | undefined } | undefined {
    const entry = this.entries.get(id)
    if (entry === undefined || entry.revision !== revision) return undefined
    this.counts.hits++
    return { title: entry.title }
  }

  /**
   * Keep the title a log had at a revision.
   * @param id - the stored session's id.
   * @param revision - the revision listed before the log was read.
   * @param title - its title, `undefined` for a log without one.
   */
  set(id: string, revision: string, title: string | undefined): void {
    this.entries.set(id, { revision, title })
  }

  /** Count one full read of a stored log. */
  countRead(): void {
    this.counts.reads++
  }

  /**
   * Drop every entry whose session is no longer stored.
   * @param listed - the ids the persistence service lists now.
   */
  keepOnly(listed: ReadonlySet<string>): void {
    for (const id of this.entries.keys()) if (!listed.has(id)) this.entries.delete(id)
  }

  /**
   * Keep the title of a log this process has just written and let go (a copy), by the revision
   * the listing gives its log now (one `stat` in the JSONL layout), so the next naming does not
   * read that log again.
   * @param stored - the persistence service.
   * @param listing - the listing the titles are named against.
   * @param header - the session just stored.
   * @param title - its title (`null`: none).
   * @throws what {@link StoredLogListing.revisionOf} throws.
   */
  async remember(stored: StoredTitleReader, listing: StoredLogListing, header: SessionHeader, title: string | null): Promise<void> {
    const revision = await listing.revisionOf(stored, header)
    if (revision !== undefined) this.set(header.id, revision, title ?? undefined)
  }

  /** Full reads of stored logs and answers served from kept titles since construction (for tests). */
  stats(): { readonly reads: number; readonly hits: number } {
    return { ...this.counts }
  }
}

/** Where titles are read from. */
export interface TitleSources {
  /** The live sessions (`SessionStore.list`). */
  readonly live: () => readonly LiveTitled[]
  /** One event by seq over a live session's current log (the plugin's event index). */
  readonly lookup: (session: LiveTitled) => EventLookup
  /** The persistence service when loaded. */
  readonly stored: () => StoredTitleReader | undefined
  /** The persisted projection cache when loaded. */
  readonly cache: () => ProjectionCacheReader | undefined
  /** The titles of stored logs already read, by revision. */
  readonly storedTitles: StoredTitleCache
  /** The stored sessions and their revisions, kept between calls. */
  readonly storedLogs: StoredLogListing
  /** Where an unreadable stored session is reported (it is left out). */
  warn(message: string): void
}

/** The newest `session/title` text of a log, or `undefined`. */
function titleOfLog(events: readonly SessionEvent[]): string | undefined {
  return titleBefore(events.length, (seq) => events[seq] as LogEvent | undefined)?.title
}

const TITLE_TYPE = '"session/title"'

/**
 * The current title in a stored log's text, as {@link titleOfLog} finds it in the parsed events:
 * the newest line whose event `type` is `session/title`, or `undefined` when there is none or
 * that event is malformed. Only lines holding the JSON string `"session/title"` are parsed
 * (inside a JSON string a quote is always escaped, so message text cannot hold it); a line that
 * does not parse (a torn tail) is passed over.
 * @param content - the log's JSONL text (a header line, then one event or packed row per line).
 * @returns the title text, or `undefined`.
 */
export function titleOfRawLog(content: string): string | undefined {
  let at = content.lastIndexOf(TITLE_TYPE)
  while (at >= 0) {
    const start = content.lastIndexOf('\n', at) + 1
    const newline = content.indexOf('\n', at)
    const line = content.slice(start, newline < 0 ? content.length : newline)
    let event: unknown
    try {
      event = JSON.parse(line)
    } catch {
      event = undefined
    }
    if (isRecord(event) && event.type === 'session/title') return titleOfLog([event as unknown as SessionEvent])
    at = start === 0 ? -1 : content.lastIndexOf(TITLE_TYPE, start - 1)
  }
  return undefined
}

/** The current title of a stored session, read as cheaply as the backend allows (see the module). */
async function readStoredTitle(stored: StoredTitleReader, id: SessionId): Promise<string | undefined> {
  if (stored.supportsRawArtifacts === true && stored.readRaw !== undefined) {
    const raw = await stored.readRaw(id)
    if (raw === undefined) throw new Error(`session "${id}" not found`)
    return titleOfRawLog(raw.content)
  }
  return titleOfLog((await stored.readFrom(id, 0)).events)
}

/**
 * The current title of every live and stored session.
 * @param sources - see {@link TitleSources}.
 * @returns the set of titles in use (sessions without a title add nothing).
 * @throws what the listing throws (`StoredLogListing.list`); a stored log that cannot be read is
 * reported through `warn` and skipped.
 */
export async function sessionTitles(sources: TitleSources): Promise<Set<string>> {
  const titles = new Set<string>()
  const live = new Set<string>()
  for (const session of sources.live()) {
    live.add(session.id)
    const title = currentTitle(session, session.seq, sources.lookup(session))?.title
    if (title !== undefined) titles.add(title)
  }
  const stored = sources.stored()
  if (stored === undefined) return titles
  const cache = sources.cache()
  const kept = sources.storedTitles
  const listing = await sources.storedLogs.list(stored, live)
  kept.keepOnly(new Set(listing.map((entry) => entry.header.id)))
  for (const { header, revision } of listing) {
    if (live.has(header.id)) continue
    const cached = cache?.cachedSnapshot(header)?.values
    if (cached !== undefined && 'title' in cached) {
      if (typeof cached.title === 'string') titles.add(cached.title)
      continue
    }
    const known = revision === undefined ? undefined : kept.get(header.id, revision)
    if (known !== undefined) {
      if (known.title !== undefined) titles.add(known.title)
      continue
    }
    try {
      kept.countRead()
      const title = await readStoredTitle(stored, header.id)
      // Keyed by the revision listed before the read: a write during the read changes the next revision.
      if (revision !== undefined) kept.set(header.id, revision, title)
      if (title !== undefined) titles.add(title)
    } catch (error) {
      sources.warn(`message-recall: the title of stored session "${header.id}" could not be read: ${errorText(error)}`)
    }
  }
  return titles
}
