/**
 * The erases a person asked for on a session the host holds open, kept until the host next
 * starts: one small JSON file of the plugin's own under the DSH home,
 * `<DSH home>/message-recall/pending-erases.json`, `{ "version": 1, "erases": [PendingErase…] }`.
 * Every change rewrites the whole file beside it, fsyncs it, renames it over the old one and fsyncs
 * the folder, so a crash leaves the old list or the new one; changes are made one at a time. A
 * missing file is an empty list; a damaged one is refused (`PendingErasesDamaged`) rather than
 * overwritten, so a pending erase is never lost silently.
 *
 * Why a file of its own and not DSH's storage service (`dsh-storage-domain`): the service is
 * optional in a composition (the web app mounts it, a bare host need not), and its domains need a
 * zod schema and an `open` per domain name; the list is a few records written rarely.
 *
 * @module dsh-message-recall/host/pending-erases
 */
import { mkdir, open, readFile, rename, rm } from 'node:fs/promises'
import { homedir } from 'node:os'
import { dirname, join, resolve } from 'node:path'

/** One pending erase: a removal of a session, to be erased when the host next starts. */
export interface PendingErase {
  readonly sessionId: string
  /** The removal's tombstone seq. */
  readonly tombstoneSeq: number
  /** When it was asked for (ISO 8601). */
  readonly scheduledAt: string
  /** Seqs of the messages the erase takes, as counted when it was asked for. */
  readonly messageSeqs: readonly number[]
  /** Images the erase frees (attachment ids the log then no longer references). */
  readonly imageCount: number
  /** Tool output files (spill, process output) the erase frees. */
  readonly fileCount: number
  /** `pending`, or `failed` when a run at start did not verify or threw (kept for the panel to say so, not run again until asked for again). */
  readonly state: 'pending' | 'failed'
  /** `failed` only: why, as the erase said it (no absolute paths). */
  readonly problem?: string
}

/** The pending-erase file could not be read as one; nothing was written. */
export class PendingErasesDamaged extends Error {}

/** Folder of the plugin's own under the DSH home. */
export const PLUGIN_HOME_FOLDER = 'message-recall'
/** The file's name in that folder. */
export const PENDING_ERASES_FILE = 'pending-erases.json'

/**
 * The DSH home as DSH resolves it (`dsh-home-paths` `resolveDshHome`): `DSH_HOME` when set and not
 * blank (a leading `~` expanded), else `~/.dsh`.
 * @param value - the `DSH_HOME` value the host was launched with, or `undefined`.
 * @returns an absolute path; whether it exists is not checked.
 */
export function dshHomeOf(value: string | undefined): string {
  const home = value !== undefined && value.trim().length > 0 ? value : '~/.dsh'
  const expanded = home === '~' ? homedir() : home.startsWith('~/') || home.startsWith('~\\') ? join(homedir(), home.slice(2)) : home
  return resolve(expanded)
}

/**
 * The pending-erase file of a DSH home.
 * @param home - the DSH home (absolute).
 * @returns `<home>/message-recall/pending-erases.json`.
 */
export function pendingErasesPath(home: string): string {
  return join(home, PLUGIN_HOME_FOLDER, PENDING_ERASES_FILE)
}

function isPendingErase(value: unknown): value is PendingErase {
  const v = value as Partial<PendingErase> | null
  return v !== null && typeof v === 'object' && typeof v.sessionId === 'string' && Number.isSafeInteger(v.tombstoneSeq) && typeof v.scheduledAt === 'string'
    && Array.isArray(v.messageSeqs) && Number.isSafeInteger(v.imageCount) && Number.isSafeInteger(v.fileCount) && (v.state === 'pending' || v.state === 'failed')
}

/** The pending erases of one DSH home, read once and then kept in memory; changes one at a time, each durable before it settles. */
export class PendingErases {
  private list: PendingErase[] | undefined
  private chain: Promise<unknown> = Promise.resolve()

  /** @param path - the file ({@link pendingErasesPath}). */
  constructor(readonly path: string) {}

  /**
   * Every pending erase, in the order they were asked for.
   * @returns a copy of the list.
   * @throws {@link PendingErasesDamaged} when the file is not a pending-erase list; file system errors.
   */
  async all(): Promise<readonly PendingErase[]> {
    return this.serial(async () => [...(await this.load())])
  }

  /**
   * The pending erase of one removal.
   * @param sessionId - the session.
   * @param tombstoneSeq - the removal's tombstone seq.
   * @returns the record, or `undefined`.
   * @throws as {@link PendingErases.all}.
   */
  async get(sessionId: string, tombstoneSeq: number): Promise<PendingErase | undefined> {
    return (await this.all()).find((e) => e.sessionId === sessionId && e.tombstoneSeq === tombstoneSeq)
  }

  /**
   * Add a pending erase unless one for the same removal is pending; a failed one is replaced in
   * its place (asked for again). Settles once the file is durable.
   * @param record - the new record (`state: 'pending'`).
   * @returns the record now kept (the earlier one when the removal had one pending already).
   * @throws as {@link PendingErases.all}, and the write's file system errors (the old file stays).
   */
  async add(record: PendingErase): Promise<PendingErase> {
    return this.serial(async () => {
      const list = await this.load()
      const at = list.findIndex((e) => e.sessionId === record.sessionId && e.tombstoneSeq === record.tombstoneSeq)
      if (at >= 0 && list[at]!.state === 'pending') return list[at]!
      await this.save(at < 0 ? [...list, record] : list.map((e, i) => (i === at ? record : e)))
      return record
    })
  }

  /**
   * Replace or drop the record of one removal; settles once the file is durable.
   * @param sessionId - the session.
   * @param tombstoneSeq - the removal's tombstone seq.
   * @param next - the new record, or `undefined` to drop it.
   * @returns whether a record was there.
   * @throws as {@link PendingErases.add}.
   */
  async update(sessionId: string, tombstoneSeq: number, next: PendingErase | undefined): Promise<boolean> {
    return this.serial(async () => {
      const list = await this.load()
      const at = list.findIndex((e) => e.sessionId === sessionId && e.tombstoneSeq === tombstoneSeq)
      if (at < 0) return false
      await this.save(next === undefined ? list.filter((_, i) => i !== at) : list.map((e, i) => (i === at ? next : e)))
      return true
    })
  }

  private serial<T>(task: () => Promise<T>): Promise<T> {
    const run = this.chain.then(task, task)
    this.chain = run.catch(() => undefined)
    return run
  }

  private async load(): Promise<PendingErase[]> {
    if (this.list !== undefined) return this.list
    let text: string
    try {
      text = await readFile(this.path, 'utf8')
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error
      this.list = []
      return this.list
    }
    let parsed: unknown
    try {
      parsed = JSON.parse(text)
    } catch {
      throw new PendingErasesDamaged(`${PENDING_ERASES_FILE} is not JSON`)
    }
    const erases = (parsed as { version?: unknown; erases?: unknown } | null)?.erases
    if ((parsed as { version?: unknown }).version !== 1 || !Array.isArray(erases) || !erases.every(isPendingErase)) {
      throw new PendingErasesDamaged(`${PENDING_ERASES_FILE} is not a version 1 pending-erase list`)
    }
    this.list = erases
    return this.list
  }

  private async save(list: PendingErase[]): Promise<void> {
    const folder = dirname(this.path)
    await mkdir(folder, { recursive: true })
    const beside = `${this.path}.${process.pid}.new`
    const file = await open(beside, 'w')
    try {
      await file.writeFile(`${JSON.stringify({ version: 1, erases: list }, null, 2)}\n`, 'utf8')
      await file.sync()
    } finally {
      await file.close()
    }
    try {
      await rename(beside, this.path)
    } catch (error) {
      await rm(beside, { force: true })
      throw error
    }
    const dir = await open(folder, 'r')
    try {
      await dir.sync()
    } finally {
      await dir.close()
    }
    this.list = list
  }
}
