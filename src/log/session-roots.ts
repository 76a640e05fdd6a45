/**
 * Walking a DSH sessions root (`$DSH_HOME/sessions`: `<root>/--<project>--/<session id>/session.jsonl[.zstd]`,
 * `dsh-session-persistence-jsonl` `logPath`) and summarizing every log in it, newest first. One
 * unreadable or damaged log is recorded and the walk goes on. Never writes. Node only.
 *
 * @module dsh-message-recall/log/session-roots
 */
import { readdir, stat } from 'node:fs/promises'
import { homedir } from 'node:os'
import { join, resolve } from 'node:path'
import { DecoderUnavailableError, type DecoderName } from './frame-decoder'
import type { LogHeader, LogProblem } from './log-frames'
import { LOG_FILE_NAMES, resolveSessionLog, type SessionLogFile } from './log-file'
import { readSessionLog } from './session-log'
import type { TornTail } from './torn-tail'
import { SummaryBuilder, type SessionSummary } from './session-summary'

/** How the default DSH home is found (the folder above {@link defaultSessionsRoot}), for help and messages. */
export const DSH_HOME_RULE = '$DSH_HOME, or ~/.dsh when DSH_HOME is unset'

/** How {@link defaultSessionsRoot} is found, for help and messages. */
export const SESSIONS_ROOT_RULE = '$DSH_HOME/sessions, or ~/.dsh/sessions when DSH_HOME is unset'

/**
 * The sessions root DSH uses when none is given: `<DSH home>/sessions`, the home being `$DSH_HOME`
 * when set and not blank, else `~/.dsh`, with a leading `~` expanded (`dsh-home-paths` `resolveDshHome`),
 * where DSH 0.1.0-rc.8 keeps its `sessions` folder.
 * @param env - environment holding `DSH_HOME`.
 * @returns an absolute path; whether it exists is not checked.
 */
export function defaultSessionsRoot(env: NodeJS.ProcessEnv = process.env): string {
  const fromEnv = env.DSH_HOME
  const home = fromEnv !== undefined && fromEnv.trim().length > 0 ? fromEnv : '~/.dsh'
  const expanded = home === '~' ? homedir() : home.startsWith('~/') || home.startsWith('~\\') ? join(homedir(), home.slice(2)) : home
  return join(resolve(expanded), 'sessions')
}

/** A log file found under a root. */
export interface FoundLog {
  readonly path: string
  readonly size: number
  readonly mtimeMs: number
}

/** Folder levels searched below the root: project folder, session folder, log file. */
export const ROOT_DEPTH = 3

/**
 * Find session logs under `root` (the root itself may also be a project or session folder).
 * @param root - a sessions root.
 * @param sinceMs - keep only logs modified at or after this epoch ms (`undefined`: all).
 * @returns the logs, newest first; folders that cannot be listed are skipped and returned in `skipped`.
 */
export async function findSessionLogs(root: string, sinceMs?: number): Promise<{ logs: FoundLog[]; skipped: { path: string; message: string }[] }> {
  const logs: FoundLog[] = []
  const skipped: { path: string; message: string }[] = []
  const walk = async (dir: string, depth: number): Promise<void> => {
    let entries
    try {
      entries = await readdir(dir, { withFileTypes: true })
    } catch (error) {
      skipped.push({ path: dir, message: (error as Error).message })
      return
    }
    for (const entry of entries) {
      const path = join(dir, entry.name)
      if (entry.isDirectory() && depth < ROOT_DEPTH - 1) await walk(path, depth + 1)
      else if (entry.isFile() && (LOG_FILE_NAMES as readonly string[]).includes(entry.name)) {
        try {
          const info = await stat(path)
          if (sinceMs === undefined || info.mtimeMs >= sinceMs) logs.push({ path, size: info.size, mtimeMs: info.mtimeMs })
        } catch (error) {
          skipped.push({ path, message: (error as Error).message })
        }
      }
    }
  }
  await walk(root, 0)
  logs.sort((a, b) => b.mtimeMs - a.mtimeMs || a.path.localeCompare(b.path))
  return { logs, skipped }
}

/** One summarized session, or why it could not be read. */
export interface SessionEntry {
  readonly path: string
  readonly size: number
  readonly mtimeMs: number
  readonly header: LogHeader | null
  readonly events: number
  readonly summary: SessionSummary | null
  /** Incomplete final frame or record (a session being written); not an error. */
  readonly tail: TornTail | null
  /** Damage found in the log (corrupt frames, bad lines, seq gaps). */
  readonly problems: readonly LogProblem[]
  /** Set when the log could not be read at all. */
  readonly error: string | null
}

/** Options of {@link summarizeRoot}. */
export interface SummarizeOptions {
  readonly sinceMs?: number
  readonly decoder?: DecoderName | 'auto'
  /** Called after each log with the count done, the total, and bytes read so far. */
  readonly onProgress?: (done: number, total: number, bytes: number) => void
}

/**
 * Summarize every log under a root.
 * @returns entries newest first, plus folders that could not be listed.
 */
export async function summarizeRoot(root: string, options: SummarizeOptions = {}): Promise<{ entries: SessionEntry[]; skipped: { path: string; message: string }[] }> {
  const { logs, skipped } = await findSessionLogs(root, options.sinceMs)
  const entries: SessionEntry[] = []
  let bytes = 0
  for (const [i, log] of logs.entries()) {
    entries.push(await summarizeLog(log, options.decoder ?? 'auto'))
    bytes += log.size
    options.onProgress?.(i + 1, logs.length, bytes)
  }
  return { entries, skipped }
}

/**
 * Summarize one log; a log that cannot be read becomes an entry with `error`.
 * @param log - the file.
 * @param decoder - decoder name or `auto`.
 * @throws DecoderUnavailableError when the named decoder does not exist in this runtime.
 */
export async function summarizeLog(log: FoundLog, decoder: DecoderName | 'auto'): Promise<SessionEntry> {
  const builder = new SummaryBuilder()
  let file: SessionLogFile
  try {
    file = await resolveSessionLog(log.path)
    const read = await readSessionLog(file, { decoder, parse: (type, text) => builder.wants(type, text), onRecord: (record) => builder.add(record), recoverTail: false })
    return { ...log, header: read.header, events: read.events, summary: builder.result(), tail: read.tail, problems: read.problems, error: null }
  } catch (error) {
    if (error instanceof DecoderUnavailableError) throw error
    return { ...log, header: null, events: 0, summary: null, tail: null, problems: [], error: (error as Error).message }
  }
}
