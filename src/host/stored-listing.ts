/**
 * The stored sessions, each with a change token, for naming a copy without DSH's full listing on
 * every copy. DSH's listing (`SessionPersistence.listSnapshots`, `dsh-session-persistence`; for the
 * JSONL backend, per session folder: two existence checks, the header frame read and decoded, an
 * identity check and a `stat`, one session after the other) grows with the number of stored
 * sessions and cost more than DSH's own Branch of a short session. Where the backend keeps each
 * session's log in a folder of its own (`SessionPersistence.locate`: `<root>/<project>/<session>/<log
 * file>`, the rc.8 JSONL layout, `dsh-session-persistence-jsonl` `logPath`), the full listing is
 * made once and later listings are answered from what it kept, checked against the disk each time:
 * - the folders under the root and under each project folder are read (`readdir`), so a session
 *   stored since, by this process or another, is seen: a session folder not known makes the next
 *   answer a full listing again, unless it belongs to a session created in this process
 *   ({@link StoredLogListing.noteCreated}, from `session/created`), whose header is then known;
 *   a folder that held no log at the last full listing is watched, and makes a full listing once a
 *   log appears in it;
 * - every known log is `stat`ed, all at once; its change token is the file's device, inode, size,
 *   and modification and change times in nanoseconds, which change whenever the log is written,
 *   appended to or replaced (by this process or another); a log that is gone is left out; the log
 *   of a session live in this process is not `stat`ed (its title is read from memory).
 * A backend without `locate`, or whose logs do not sit in that layout, is listed in full every
 * time (`listSnapshots`, else `list` without tokens).
 *
 * @module dsh-message-recall/host/stored-listing
 */
import { readdir, stat } from 'node:fs/promises'
import { basename, dirname, join } from 'node:path'
import type { SessionHeader, SessionId } from '@deepseek-ai/dsh-session'
import { isMissingPath } from './stored-log-presence'

/** One stored session as listed with its change token (`SessionPersistence.listSnapshots`). */
export interface StoredSnapshot {
  readonly header: SessionHeader
  /** Opaque; changes whenever the stored log changes. */
  readonly revision: string
}

/** One stored session as this listing answers it: its header and, when known, its change token. */
export interface ListedLog {
  readonly header: SessionHeader
  /** Opaque; changes whenever the stored log changes; absent when the backend gives none. */
  readonly revision?: string
}

/** The part of `ctx.sessionPersistence` (`dsh-session-persistence` `SessionPersistence`) a listing reads. */
export interface StoredLister {
  /** Headers of every materialized session (`SessionPersistence.list`). */
  list(): Promise<readonly SessionHeader[]>
  /** Headers with per-log change tokens, without loading logs (`SessionPersistence.listSnapshots`). */
  listSnapshots?(): Promise<readonly StoredSnapshot[]>
  /** Where a session's log lives, without touching the disk (`SessionPersistence.locate`), or `undefined`. */
  locate?(meta: SessionHeader): { readonly path: string } | undefined
}

/** Where the logs sit: `<root>/<project>/<session>/<logName>`. */
interface Layout {
  readonly root: string
  readonly logName: string
}

/** The most notes of sessions created in this process and not yet seen stored. */
const MAX_CREATED = 1000

/** A header no session has, to learn the layout from `locate` when nothing is stored yet. */
const PROBE = { version: 1, id: 'message-recall-layout-probe' as SessionId, createdAt: 0 } as SessionHeader

/** The change token of a file (`null` when it does not exist). */
async function tokenOf(path: string): Promise<string | null> {
  try {
    const s = await stat(path, { bigint: true })
    return `${s.dev}:${s.ino}:${s.size}:${s.mtimeNs}:${s.ctimeNs}`
  } catch (error) {
    if (isMissingPath(error)) return null
    throw error
  }
}

/** The folders inside `path` (none when it does not exist). */
async function foldersIn(path: string): Promise<string[]> {
  try {
    return (await readdir(path, { withFileTypes: true })).filter((entry) => entry.isDirectory()).map((entry) => join(path, entry.name))
  } catch (error) {
    if (isMissingPath(error)) return []
    throw error
  }
}

/** Every session folder under the root: `<root>/<project>/<session>`. */
async function sessionFolders(layout: Layout): Promise<string[]> {
  const projects = await foldersIn(layout.root)
  return (await Promise.all(projects.map((project) => foldersIn(project)))).flat()
}

/** A log's place in the layout: its session folder, or `undefined` when it does not fit. */
function folderOf(layout: Layout, log: string | undefined): string | undefined {
  if (log === undefined || basename(log) !== layout.logName) return undefined
  const folder = dirname(log)
  return dirname(dirname(folder)) === layout.root ? folder : undefined
}

/** Where the backend keeps a session's log, or `undefined` (also when `locate` refuses the header, as for an empty `cwd`). */
function logOf(stored: StoredLister, header: SessionHeader): string | undefined {
  try {
    return stored.locate?.(header)?.path
  } catch {
    return undefined
  }
}

/** The backend's full listing, with DSH's change tokens when it lists them. */
async function listInFull(stored: StoredLister): Promise<readonly ListedLog[]> {
  if (stored.listSnapshots !== undefined) return (await stored.listSnapshots()).map(({ header, revision }) => ({ header, revision: String(revision) }))
  return (await stored.list()).map((header) => ({ header }))
}

/**
 * The stored sessions of one persistence service with their change tokens, kept between calls
 * (see the module). Holds one header and log path per stored session, one path per session
 * folder without a log, and the headers of up to 1,000 sessions created in this process and not
 * yet seen stored. Calls must not overlap (`forkBefore` makes one copy at a time).
 */
export class StoredLogListing {
  /** `undefined`: no full listing yet; `null`: the backend's layout is not the one this listing reads. */
  private layout: Layout | null | undefined
  /** Known stored sessions, by session folder. */
  private sessions = new Map<string, { readonly header: SessionHeader; readonly log: string }>()
  /** Session folders that held no log at the last full listing. */
  private empty = new Set<string>()
  /** Sessions created in this process and not yet seen stored, by id. */
  private readonly created = new Map<string, SessionHeader>()
  private counts = { full: 0, checked: 0 }

  /**
   * Note a session created in this process (`session/created`), so its folder is known when its
   * log is stored.
   * @param header - the session's header.
   */
  noteCreated(header: SessionHeader): void {
    // Bounded: past the cap the notes are dropped, and their folders make a full listing.
    if (this.created.size >= MAX_CREATED) this.created.clear()
    this.created.set(header.id, header)
  }

  /**
   * Every stored session with its change token.
   * @param stored - the persistence service.
   * @param live - ids of sessions live in this process, whose logs are not `stat`ed (listed
   *   without a token; their titles are read from memory).
   * @returns one entry per stored log (as `SessionPersistence.listSnapshots` lists them; a log
   *   written during the call may be listed before or after the write).
   * @throws what the backend's listing, `readdir` or `stat` throw (other than a missing file).
   */
  async list(stored: StoredLister, live: ReadonlySet<string> = new Set()): Promise<readonly ListedLog[]> {
    if (stored.locate === undefined || this.layout === null) return listInFull(stored)
    if (this.layout !== undefined) {
      const checked = await this.check(stored, this.layout, live)
      if (checked !== undefined) return checked
    }
    return this.full(stored, live)
  }

  /**
   * The change token of one stored session's log, as {@link StoredLogListing.list} gives it (the
   * session becomes known to the listing).
   * @param stored - the persistence service.
   * @param header - the stored session's header.
   * @returns its token, or `undefined` when its log is not stored.
   * @throws what `stat` (or, outside the layout, the backend's listing) throws.
   */
  async revisionOf(stored: StoredLister, header: SessionHeader): Promise<string | undefined> {
    const layout = this.layout
    const log = layout ? logOf(stored, header) : undefined
    const folder = layout && log !== undefined ? folderOf(layout, log) : undefined
    if (folder === undefined || log === undefined) return (await listInFull(stored)).find((entry) => entry.header.id === header.id)?.revision
    this.sessions.set(folder, { header, log })
    this.empty.delete(folder)
    return (await tokenOf(log)) ?? undefined
  }

  /** Full listings and listings answered from what was kept, since construction (for tests). */
  stats(): { readonly full: number; readonly checked: number } {
    return { ...this.counts }
  }

  /** The backend's listing, then every session folder and token read from the disk. */
  private async full(stored: StoredLister, live: ReadonlySet<string>): Promise<readonly ListedLog[]> {
    this.counts.full++
    const probe = logOf(stored, PROBE)
    if (probe === undefined) {
      this.layout = null
      return listInFull(stored)
    }
    const layout: Layout = { root: dirname(dirname(dirname(probe))), logName: basename(probe) }
    const headers = await stored.list()
    for (const header of headers) this.created.delete(header.id)
    const sessions = new Map<string, { readonly header: SessionHeader; readonly log: string }>()
    for (const header of headers) {
      const log = logOf(stored, header)
      const folder = folderOf(layout, log)
      if (folder === undefined || log === undefined) {
        this.layout = null
        return listInFull(stored)
      }
      sessions.set(folder, { header, log })
    }
    const found = await sessionFolders(layout)
    this.layout = layout
    this.sessions = sessions
    this.empty = new Set()
    const others = found.filter((folder) => !sessions.has(folder))
    const [listed, otherTokens] = await Promise.all([
      this.tokens([...sessions.values()], live),
      Promise.all(others.map((folder) => tokenOf(join(folder, layout.logName)))),
    ])
    // A folder whose log the backend did not list stays unknown, so the next call lists in full again.
    others.forEach((folder, i) => otherTokens[i] === null && this.empty.add(folder))
    return listed
  }

  /** The known sessions with their logs' tokens, all `stat`ed at once; a live one without a token, a missing log left out. */
  private async tokens(known: readonly { readonly header: SessionHeader; readonly log: string }[], live: ReadonlySet<string>): Promise<ListedLog[]> {
    const tokens = await Promise.all(known.map((entry) => (live.has(entry.header.id) ? undefined : tokenOf(entry.log))))
    return known.flatMap((entry, i) => {
      const token = tokens[i]
      if (token === null) return []
      return [token === undefined ? { header: entry.header } : { header: entry.header, revision: token }]
    })
  }

  /** The listing from what was kept and the disk now, or `undefined` when a full listing is needed. */
  private async check(stored: StoredLister, layout: Layout, live: ReadonlySet<string>): Promise<readonly ListedLog[] | undefined> {
    const found = await sessionFolders(layout)
    const present = new Set(found)
    const created = new Map<string, SessionHeader>()
    for (const header of this.created.values()) {
      const folder = folderOf(layout, logOf(stored, header))
      // A session already known (one resumed here) needs no note.
      if (folder === undefined || this.sessions.has(folder)) this.created.delete(header.id)
      else created.set(folder, header)
    }
    for (const folder of found) {
      if (this.sessions.has(folder) || this.empty.has(folder)) continue
      const header = created.get(folder)
      if (header === undefined) return undefined
      this.sessions.set(folder, { header, log: join(folder, layout.logName) })
      this.created.delete(header.id)
    }
    for (const folder of this.sessions.keys()) if (!present.has(folder)) this.sessions.delete(folder)
    for (const folder of this.empty) if (!present.has(folder)) this.empty.delete(folder)
    const empty = [...this.empty]
    const [listed, emptyTokens] = await Promise.all([
      this.tokens([...this.sessions.values()], live),
      Promise.all(empty.map((folder) => tokenOf(join(folder, layout.logName)))),
    ])
    if (emptyTokens.some((token) => token !== null)) return undefined
    this.counts.checked++
    return listed
  }
}
