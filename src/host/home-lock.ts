/**
 * An exclusive lock file in a DSH home, so that two hosts never write one home's session logs at
 * once (rc.8 has no cross-process writer lock: two `dsh web` processes on one home each append to
 * the same session log, and the first one's next append finds a seq gap).
 *
 * The lock file holds one JSON line `{ pid, startedAt, owner, token }` (`startedAt` an ISO time,
 * `token` random per claim). It is created exclusively (written to a temporary file beside it, then
 * hard-linked to its name, which fails when the name exists, so a reader never sees a half-written
 * lock). A lock whose pid no longer runs is stale and taken over; a lock of this very process counts
 * as held while the claim that wrote it has not been released (two compositions in one process); a
 * lock whose pid runs but started after the lock was taken (Linux `/proc`) is another process that
 * reused the pid, and stale too.
 * `npm start` (`tools/start.ts`) and the host plugin (`index.ts`) each claim their own file; the
 * log tool's `erase` claims the plugin's file for as long as it rewrites a log
 * (`scripts/support/home-holder.ts` `claimHome`), so a host started meanwhile refuses writes.
 *
 * @module dsh-message-recall/host/home-lock
 */
import { linkSync, mkdirSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs'
import { randomBytes } from 'node:crypto'
import { dirname, join } from 'node:path'

/** What a lock file says about its holder. */
export interface LockHolder {
  /** Process id of the holder. */
  readonly pid: number
  /** When the holder took the lock (ISO 8601). */
  readonly startedAt: string
  /** Who took it (`npm start`, `message-recall`). */
  readonly owner: string
  /** Random per claim; tells two claims of one process apart. */
  readonly token: string
}

/** A claim that succeeded: the lock is this caller's until `release()`. */
export interface HeldLock {
  readonly ok: true
  readonly file: string
  readonly holder: LockHolder
  /** Remove the lock file when it is still this claim's; idempotent, never throws. */
  release(): void
}

/** Outcome of {@link claimLock}: held, or refused with the live holder. */
export type LockClaim = HeldLock | { readonly ok: false; readonly holder: LockHolder }

/** Tokens of the claims this process holds now. */
const heldHere = new Set<string>()

/**
 * Whether a process with this pid runs (a pid owned by another user counts as running).
 * @param pid - process id.
 * @returns true when `kill(pid, 0)` succeeds or is refused with `EPERM`.
 */
export function pidRuns(pid: number): boolean {
  if (!Number.isSafeInteger(pid) || pid <= 0) return false
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM'
  }
}

/**
 * When a process started, in ms since the epoch, from Linux's `/proc` (`/proc/<pid>/stat` field 22,
 * clock ticks of 1/100 s since boot, plus `btime` of `/proc/stat`).
 * @param pid - process id.
 * @returns the start time, or `undefined` where `/proc` is not there or cannot be read.
 */
export function processStartMs(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    // Fields after the command name (which may hold spaces) start at field 3 (state); starttime is field 22.
    const ticks = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19])
    const boot = Number(/^btime (\d+)$/m.exec(readFileSync('/proc/stat', 'utf8'))?.[1])
    return Number.isFinite(ticks) && Number.isFinite(boot) ? boot * 1000 + ticks * 10 : undefined
  } catch {
    return undefined
  }
}

/** Slack for the start-time compare: `btime` is whole seconds, and ticks may be other than 1/100 s. */
const START_SLACK_MS = 5_000

/**
 * Whether the holder written in a lock file still holds it.
 * @param holder - the lock file's content.
 * @param runs - the pid check (default {@link pidRuns}).
 * @returns for this process, whether that claim is still held; else whether the pid runs and,
 *   where the process's start time can be read, started before the lock was taken (a later start
 *   is another process that reused the pid).
 */
export function holderLive(holder: LockHolder, runs: (pid: number) => boolean = pidRuns): boolean {
  if (holder.pid === process.pid) return heldHere.has(holder.token)
  if (!runs(holder.pid)) return false
  const started = processStartMs(holder.pid)
  const taken = Date.parse(holder.startedAt)
  return started === undefined || Number.isNaN(taken) || started <= taken + START_SLACK_MS
}

/** The lock file's holder, or `undefined` when the file is missing or unreadable (treated as stale). */
function readHolder(file: string): LockHolder | undefined | 'missing' {
  let text: string
  try {
    text = readFileSync(file, 'utf8')
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 'missing'
    throw error
  }
  try {
    const value = JSON.parse(text) as Partial<LockHolder>
    if (typeof value.pid === 'number' && typeof value.token === 'string') {
      return { pid: value.pid, token: value.token, startedAt: String(value.startedAt ?? ''), owner: String(value.owner ?? '') }
    }
  } catch { /* unreadable: stale */ }
  return undefined
}

/**
 * The live holder of a lock file, for a process that only looks (the log tool's `erase` at
 * `npm start`'s lock, `npm start` looking at the plugin's lock): the holder the file names when {@link holderLive} says it still
 * holds it.
 * @param file - the lock file's path.
 * @returns the live holder, or `null` when the file is missing, unreadable, or its holder is gone
 *   (a stale lock).
 */
export function liveHolder(file: string): LockHolder | null {
  let holder: LockHolder | undefined | 'missing'
  try {
    holder = readHolder(file)
  } catch {
    return null
  }
  return holder !== 'missing' && holder !== undefined && holderLive(holder) ? holder : null
}

/**
 * Claim the lock file `file` for this process (its folder is created when missing).
 * @param file - the lock file's path.
 * @param owner - who claims it, written into the file.
 * @returns the held lock, or the live holder that has it.
 * @throws when the folder or file cannot be written (permissions, disk full).
 */
export function claimLock(file: string, owner: string): LockClaim {
  mkdirSync(dirname(file), { recursive: true })
  const holder: LockHolder = { pid: process.pid, startedAt: new Date().toISOString(), owner, token: randomBytes(8).toString('hex') }
  const temp = `${file}.${holder.token}.tmp`
  writeFileSync(temp, JSON.stringify(holder) + '\n', { mode: 0o644 })
  try {
    for (let attempt = 0; ; attempt++) {
      try {
        linkSync(temp, file)
        heldHere.add(holder.token)
        return { ok: true, file, holder, release: () => releaseLock(file, holder.token) }
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST' || attempt >= 5) throw error
      }
      const current = readHolder(file)
      if (current === 'missing') continue
      if (current !== undefined && holderLive(current)) return { ok: false, holder: current }
      // Stale (its pid is gone, or the file is unreadable): take it over.
      try { unlinkSync(file) } catch (error) { if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error }
    }
  } finally {
    try { unlinkSync(temp) } catch { /* already gone */ }
  }
}

/** Remove `file` when it still carries `token`. */
function releaseLock(file: string, token: string): void {
  heldHere.delete(token)
  try {
    const current = readHolder(file)
    if (current !== 'missing' && current !== undefined && current.token === token) unlinkSync(file)
  } catch { /* gone or unreadable: nothing to release */ }
}

/**
 * The one line naming who holds a lock.
 * @param holder - the live holder.
 * @returns e.g. `npm start (pid 4242, since 2026-12-01T19:55:00.000Z)`.
 */
export function describeHolder(holder: LockHolder): string {
  return `${holder.owner || 'another process'} (pid ${holder.pid}${holder.startedAt ? `, since ${holder.startedAt}` : ''})`
}

/** Name of the lock file `npm start` (`tools/start.ts`) holds in its DSH home while it runs. */
export const START_LOCK_FILE = 'npm-start.lock'

/** Name of the host plugin's lock file, in the session persistence's root (`<DSH_HOME>/sessions`). */
export const PLUGIN_LOCK_FILE = '.message-recall.lock'

/**
 * The host plugin's claim on its session persistence's root: taken at plugin start and again
 * before each write while another host holds it (it is taken over once that host is gone),
 * released when the plugin is disposed. A host without a root (no JSONL persistence) has nothing
 * to share and is never refused.
 */
export class PluginHomeLock {
  private held: HeldLock | undefined
  private reported: string | undefined

  /**
   * @param root - the session persistence's root folder, `undefined` while none is loaded.
   * @param warn - where the one line about a refusing lock goes (the plugin's logger).
   */
  constructor(private readonly root: () => string | undefined, private readonly warn: (message: string) => void) {}

  /**
   * Claim the lock when not yet held.
   * @returns `null` when this plugin may write, else the live holder (logged once per holder).
   */
  check(): LockHolder | null {
    const root = this.root()
    if (root === undefined) return null
    const file = join(root, PLUGIN_LOCK_FILE)
    if (this.held?.file === file) return null
    this.held?.release()
    this.held = undefined
    const claim = claimLock(file, 'message-recall')
    if (claim.ok) {
      this.held = claim
      return null
    }
    if (this.reported !== claim.holder.token) {
      this.reported = claim.holder.token
      this.warn(`${homeInUseMessage(claim.holder)} (lock file ${PLUGIN_LOCK_FILE} in the sessions folder)`)
    }
    return claim.holder
  }

  /** Release the lock when held. */
  dispose(): void {
    this.held?.release()
    this.held = undefined
  }
}

/**
 * The message of `HOME_IN_USE`.
 * @param holder - the live holder of the plugin's lock.
 * @returns one line naming the holder's pid.
 */
export function homeInUseMessage(holder: LockHolder): string {
  return `message-recall: another host writes this DSH home's sessions (${describeHolder(holder)}); this host refuses writes through message-recall until that host stops`
}
