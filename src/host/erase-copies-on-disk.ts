/**
 * The other sessions that still hold an erased session's erased messages (its copies, the
 * sessions it was copied from and their other copies), found on the disk of a stopped host, for
 * `dsh-message-recall-log erase` (`scripts/commands/erase.ts`): the same finding as the route's
 * confirmation (`erase-copies.ts`: `copiesHolding` over the session headers, then `copyRemoval`
 * over each holding session's log), with the headers and logs read from the files under the DSH
 * home's sessions root instead of the host's listing.
 * - The header of every log is read from its first bytes alone (`jsonl-log-file.ts`
 *   `readHeaderLine`: the first zstd frame, or the first line).
 * - Only the logs of the sessions that hold an erased message are read whole, once each.
 * - A log whose header or text cannot be read is not dropped silently: a holding session whose
 *   log cannot be read is named with the error (it may still hold the text); a log whose header
 *   cannot be read cannot be told to be related, and is left out.
 *
 * @module dsh-message-recall/host/erase-copies-on-disk
 */
import { readdir, readFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { SessionHeader } from '@deepseek-ai/dsh-session'
import { copiesHolding, copyRemoval, type CopyRelation, type CopyRemoval } from './erase-copies'
import { decodeLogBytes, readHeaderLine } from './jsonl-log-file'
import { errorText } from '../shared/error-text'
import { LOG_FILE_NAMES, resolveSessionLog } from '../log/log-file'

/** A session on disk that still holds some of the erased messages: a copy, a source, or another copy of a source. */
export interface DiskCopy {
  readonly sessionId: string
  /** How it is related to the erased session (`erase-copies.ts` `copiesHolding`). */
  readonly relation: CopyRelation
  /** Its current title (the newest `session/title`), or `null` when it has none or its log could not be read. */
  readonly title: string | null
  /** The first of `removals`, or `null` when there is none (kept for readers of one removal). */
  readonly tombstoneSeq: number | null
  /**
   * Its own removals of those messages (`erase-copies.ts` `copyRemoval`), each with how many
   * messages an erase of it there (`erase <log> --tombstone <seq>`) takes; none when it holds them
   * not removed or its log could not be read.
   */
  readonly removals: readonly CopyRemoval[]
  /** How many of the messages it holds are not removed there (remove them there first); 0 when its log could not be read. */
  readonly notRemovedCount: number
  /** Its log file. */
  readonly log: string
  /** Why its log could not be read (it may still hold the text), else `null`. */
  readonly error: string | null
}

/**
 * Every session log file under a folder (`session.jsonl.zstd` or `session.jsonl`), at any depth.
 * @param dir - a sessions root (`<DSH home>/sessions`); a folder that cannot be read yields nothing.
 * @returns the paths, in the order the folders list them.
 */
export async function logFilesUnder(dir: string): Promise<string[]> {
  const found: string[] = []
  for (const entry of await readdir(dir, { withFileTypes: true }).catch(() => [])) {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) found.push(...(await logFilesUnder(path)))
    else if ((LOG_FILE_NAMES as readonly string[]).includes(entry.name)) found.push(path)
  }
  return found
}

/** A log's compression from its first bytes (`log/log-file.ts` `resolveSessionLog`), whatever its name; throws for a file that is no log. */
async function compressionOf(path: string): Promise<'zstd' | 'none'> {
  return (await resolveSessionLog(path)).format === 'zstd' ? 'zstd' : 'none'
}

/**
 * The sessions under a sessions root related to the erased one (copies, sources, other copies of
 * a source) whose logs still hold any of the erased messages (see the module doc).
 * @param logs - the log files under the sessions root ({@link logFilesUnder}); the erased log
 *   should be among them (its header names its source; without it only its copies are found).
 * @param sessionId - the erased session's id (never listed itself).
 * @param messageSeqs - the erased messages' seqs, ascending.
 * @returns one entry per session that still holds them, nearest first (as `copiesHolding` orders
 *   them); one whose removal of them was erased already is left out.
 */
export async function copiesOnDisk(logs: readonly string[], sessionId: string, messageSeqs: readonly number[]): Promise<DiskCopy[]> {
  if (messageSeqs.length === 0) return []
  const headers: SessionHeader[] = []
  const pathOf = new Map<string, string>()
  for (const path of logs) {
    let header: SessionHeader
    try {
      header = JSON.parse(await readHeaderLine(path, await compressionOf(path))) as SessionHeader
    } catch {
      continue
    }
    if (typeof header?.id !== 'string' || pathOf.has(header.id)) continue
    pathOf.set(header.id, path)
    headers.push(header)
  }
  const copies: DiskCopy[] = []
  for (const { header, seqs, relation } of copiesHolding(headers, sessionId, messageSeqs)) {
    const log = pathOf.get(header.id)!
    let removal: ReturnType<typeof copyRemoval>
    try {
      removal = copyRemoval(decodeLogBytes(await readFile(log), await compressionOf(log)), seqs)
    } catch (error) {
      copies.push({ sessionId: header.id, relation, title: null, tombstoneSeq: null, removals: [], notRemovedCount: 0, log, error: errorText(error) })
      continue
    }
    if (removal === null) continue
    copies.push({ sessionId: header.id, relation, title: removal.title, tombstoneSeq: removal.removals[0]?.tombstoneSeq ?? null, removals: removal.removals, notRemovedCount: removal.notRemovedCount, log, error: null })
  }
  return copies
}
