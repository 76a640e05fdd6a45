/**
 * The running host that holds the DSH home of a session log, for `erase`, which must not rewrite a
 * log a host may hold in memory and write again. Two lock files say a host runs
 * (`src/host/home-lock.ts`): the host plugin's `.message-recall.lock` in its session persistence's
 * root (the folder that holds the project folders, `<home>/sessions` in a DSH home) and
 * `npm start`'s `npm-start.lock` in the home. A lock whose holder is gone (its pid no longer runs,
 * or a later process reused it) is stale and holds nothing. While it writes, `erase` holds the
 * plugin's own lock itself ({@link claimHome}), so that a host started meanwhile has its plugin
 * refuse writes (`HOME_IN_USE`) instead of loading the old log and writing it again. Node only
 * (file system, processes).
 *
 * @module dsh-message-recall/scripts/support/home-holder
 */
import { existsSync } from 'node:fs'
import { basename, dirname, join } from 'node:path'
import { claimLock, liveHolder, PLUGIN_LOCK_FILE, START_LOCK_FILE, type HeldLock, type LockHolder } from '../../src/host/home-lock'

/** A live holder and the lock file that names it. */
export interface HomeHolder {
  readonly holder: LockHolder
  /** The lock file's path. */
  readonly file: string
}

/**
 * The session persistence's root a log lies in by its place: the folder above its project folder
 * (`--<project path>--` or `_no-cwd`, `dsh-session-persistence-jsonl` `projectDir`), which holds
 * `<project folder>/<session id>/session.jsonl[.zstd]`.
 * @param logPath - an absolute log path.
 * @returns the root, or `null` when the log does not lie in a project folder.
 */
export function persistenceRootOf(logPath: string): string | null {
  const project = dirname(dirname(logPath))
  const name = basename(project)
  return /^--.+--$/.test(name) || name === '_no-cwd' ? dirname(project) : null
}

/**
 * The lock files that say a host holds a log's DSH home.
 * @param logPath - an absolute log path.
 * @param home - the DSH home (`--home`, or the folder above `sessions` in the log's path), or
 *   `undefined` when there is none.
 * @returns the distinct paths, in the order checked: the plugin's lock in the persistence root the
 *   log lies in, the plugin's lock in `<home>/sessions`, `npm start`'s lock in the home.
 */
export function homeLockFiles(logPath: string, home: string | undefined): string[] {
  const root = persistenceRootOf(logPath)
  const files = [
    ...(root === null ? [] : [join(root, PLUGIN_LOCK_FILE)]),
    ...(home === undefined ? [] : [join(home, 'sessions', PLUGIN_LOCK_FILE), join(home, START_LOCK_FILE)]),
  ]
  return [...new Set(files)]
}

/** Who `erase` says it is in the plugin's lock file while it holds it (`describeHolder` names it so). */
export const ERASE_LOCK_OWNER = 'dsh-message-recall-log erase'

/** Outcome of {@link claimHome}: the home held until `release()`, or the live host that holds it. */
export type HomeClaim =
  | { readonly ok: true; readonly files: readonly string[]; release(): void }
  | { readonly ok: false; readonly held: HomeHolder }

/**
 * Hold a log's DSH home for `erase`: refuse when a live host holds one of its lock files
 * ({@link homeLockFiles}), else claim the host plugin's lock (`.message-recall.lock`, as
 * `src/host/home-lock.ts` `claimLock`) in each of its persistence roots that exists (the one the
 * log lies in, `<home>/sessions`), so that a host starting while the erase runs finds the lock
 * live and its plugin refuses writes. `npm start`'s lock is only looked at (a plugin's lock held
 * by another process makes `npm start` refuse too). A lock left by an erase that crashed is stale
 * once its process is gone, and is taken over.
 * @param logPath - an absolute log path.
 * @param home - as for {@link homeLockFiles}.
 * @param owner - written into the lock files (default {@link ERASE_LOCK_OWNER}).
 * @returns the claim (release it in `finally`; releasing twice is harmless), or the live holder
 *   and its lock file, with nothing claimed.
 * @throws when a lock file cannot be written (permissions, disk full); nothing stays claimed.
 */
export function claimHome(logPath: string, home: string | undefined, owner: string = ERASE_LOCK_OWNER): HomeClaim {
  const claimed: HeldLock[] = []
  const release = () => { for (const lock of claimed.splice(0).reverse()) lock.release() }
  // In order, the first live holder is named: `npm start`'s lock is only looked at; a plugin's
  // lock is claimed, which refuses when a live process holds it (`claimLock`).
  const refuse = (held: HomeHolder): HomeClaim => {
    release()
    return { ok: false, held }
  }
  try {
    for (const file of homeLockFiles(logPath, home)) {
      if (basename(file) !== PLUGIN_LOCK_FILE) {
        const holder = liveHolder(file)
        if (holder !== null) return refuse({ holder, file })
        continue
      }
      if (!existsSync(dirname(file))) continue
      const claim = claimLock(file, owner)
      if (!claim.ok) return refuse({ holder: claim.holder, file })
      claimed.push(claim)
    }
  } catch (error) {
    release()
    throw error
  }
  return { ok: true, files: claimed.map((lock) => lock.file), release }
}
