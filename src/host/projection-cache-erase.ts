/**
 * An erased session's entry in DSH's persisted projection cache, dropped and rebuilt from the
 * erased log. `dsh-session-projection-cache` `SessionProjectionCache` keeps one record per session
 * in the `session_projcache` storage domain (the JSON backend, `dsh-storage-json`, writes it to
 * `<DSH home>/storages/session_projcache.json` as `{ unit, global, tables: { sessions: { <id>:
 * { identity, rows } } } }`): the checkpointed state of every projection unit (to-dos, goal,
 * title, …), folded from the session's events, so it holds text the erase took (a removed step's
 * to-do, the title made from a removed prompt).
 *
 * The cache is a fold shortcut, never an authority: without a record, DSH folds the projections
 * from the stored log again (`coldSnapshot`: no cached rows → `restoreFloor` 0 → `readFrom(id, 0)`
 * → `sessionProjections.restore` → the record written back). So an erase drops the record and,
 * in a running host, has DSH rebuild it at once from the erased log:
 * - {@link rebuildCacheEntry} (the route): `sessionProjectionCache`'s table `delete(id)` (the
 *   domain's write chain republishes the file atomically), then `coldSnapshot(id)`. It runs after
 *   the plugin let the session go: the hold's detach makes the cache write a checkpoint of the
 *   session's in-memory projections (`session/disposed`), which still hold the old content.
 * - {@link dropCacheEntryInFile} (the log tool, host stopped): the file rewritten without the
 *   record, atomically (a new file beside it, fsynced, renamed, folder fsynced, as
 *   `dsh-storage-json` `writeAtomic` publishes); DSH folds it again when the session is next read
 *   cold or checkpointed.
 *
 * @module dsh-message-recall/host/projection-cache-erase
 */
import { open, readFile, rename, rm } from 'node:fs/promises'
import { randomBytes } from 'node:crypto'
import { dirname, join } from 'node:path'
import { syncDirectory } from './jsonl-log-file'

/** The cache file under the DSH home's storage root (`dsh-storage-json`: `<root>/<domain>.json`). */
export const PROJECTION_CACHE_FILE = 'session_projcache.json'

/** The parts of rc.8's `SessionProjectionCache` used here (structural; `ctx.sessionProjectionCache`). */
export interface ProjectionCacheWriter {
  /** The domain table (`requireTable()`; private in the typings, present at rc.8). */
  requireTable(): { get(id: string): unknown; delete(id: string): Promise<boolean> }
  /** Fold one stored session's projections from its log and write the record back. */
  coldSnapshot(id: string): Promise<unknown>
}

/** What became of a session's cache record. */
export type CacheEntryOutcome =
  /** The record was dropped and DSH folded it again from the erased log. */
  | 'rebuilt'
  /** The record was dropped; DSH folds it again when it next reads the session. */
  | 'dropped'
  /** There was no record for the session (or no cache). */
  | 'absent'

/**
 * Whether a value is rc.8's `SessionProjectionCache` (the members {@link ProjectionCacheWriter} names).
 * @param service - `ctx.sessionProjectionCache` (any value).
 */
export function isProjectionCacheWriter(service: unknown): service is ProjectionCacheWriter {
  const s = service as Partial<ProjectionCacheWriter> | null | undefined
  return s != null && typeof s.requireTable === 'function' && typeof s.coldSnapshot === 'function'
}

/**
 * Drop a session's record from a running host's projection cache and have DSH fold it again
 * from the stored (erased) log.
 * @param cache - `ctx.sessionProjectionCache`.
 * @param id - the session id.
 * @returns `'rebuilt'`; `'dropped'` when the fold failed (DSH's cache is fail-soft too: it folds
 *   the record on a later read or checkpoint); `'absent'` when the cache held no record for it.
 * @throws the domain's write errors of the drop (the record is then as it was).
 */
export async function rebuildCacheEntry(cache: ProjectionCacheWriter, id: string): Promise<CacheEntryOutcome> {
  const table = cache.requireTable()
  if (table.get(id) === undefined) return 'absent'
  await table.delete(id)
  try {
    await cache.coldSnapshot(id)
  } catch {
    return 'dropped'
  }
  return 'rebuilt'
}

/**
 * The cache file's text without one session's record, in the backend's format (pretty-printed
 * JSON with two spaces and a final line break, `dsh-storage-json` `serialize`).
 * @param text - the file's text.
 * @param id - the session id.
 * @returns the new text, or `null` when the file holds no record for the session.
 * @throws when the text is not a `session_projcache` unit (`not a session_projcache file`).
 */
export function cacheTextWithout(text: string, id: string): string | null {
  const document = JSON.parse(text) as { unit?: { name?: unknown }; tables?: { sessions?: Record<string, unknown> } }
  if (document?.unit?.name !== 'session_projcache') throw new Error('not a session_projcache file')
  const sessions = document.tables?.sessions
  if (sessions === undefined || !Object.hasOwn(sessions, id)) return null
  delete sessions[id]
  return `${JSON.stringify(document, null, 2)}\n`
}

/**
 * Drop a session's record from the cache file of a stopped host (see the module doc).
 * @param storageRoot - the DSH home's storage root (`<DSH home>/storages`).
 * @param id - the session id.
 * @returns `'dropped'`, or `'absent'` (no file, or no record for the session).
 * @throws file system errors, or a file that is not a `session_projcache` unit (then it is left as it is).
 */
export async function dropCacheEntryInFile(storageRoot: string, id: string): Promise<CacheEntryOutcome> {
  const path = join(storageRoot, PROJECTION_CACHE_FILE)
  let text: string
  try {
    text = await readFile(path, 'utf8')
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 'absent'
    throw error
  }
  const next = cacheTextWithout(text, id)
  if (next === null) return 'absent'
  const temporary = join(dirname(path), `.${PROJECTION_CACHE_FILE}.${randomBytes(6).toString('hex')}.tmp`)
  try {
    const handle = await open(temporary, 'wx', 0o600)
    try {
      await handle.writeFile(next, 'utf8')
      await handle.sync()
    } finally {
      await handle.close()
    }
    await rename(temporary, path)
  } catch (error) {
    await rm(temporary, { force: true })
    throw error
  }
  await syncDirectory(dirname(path))
  return 'dropped'
}
