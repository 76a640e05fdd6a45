/**
 * The running host that holds the DSH home of a session log, for `erase`, which must not rewrite a
 * log a host may hold in memory and write again. Two lock files say a host runs
 * (`src/host/home-lock.ts`): the host plugin's `.message-recall.lock` in its session persistence's
 * root (the folder that holds the project folders, `<home>/sessions` in a DSH home) and
 * `npm start`'s `npm-start.lock` in the home. A lock whose holder is gone (its pid no longer runs,
 * or a later process reused it) is stale and holds nothing. Node only (file system, processes).
 *
 * @module dsh-message-recall/scripts/support/home-holder
 */
import { basename, dirname, join } from 'node:path'
import { liveHolder, PLUGIN_LOCK_FILE, START_LOCK_FILE, type LockHolder } from '../../src/host/home-lock'

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

/**
 * The first live host holding a log's DSH home.
 * @param logPath - an absolute log path.
 * @param home - as for {@link homeLockFiles}.
 * @returns the holder and its lock file, or `null` when no live host holds one (no lock file, or
 *   only stale ones).
 */
export function hostHoldingHome(logPath: string, home: string | undefined): HomeHolder | null {
  for (const file of homeLockFiles(logPath, home)) {
    const holder = liveHolder(file)
    if (holder !== null) return { holder, file }
  }
  return null
}
