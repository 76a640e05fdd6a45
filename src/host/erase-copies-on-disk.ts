/**
 * The copies of an erased session that still hold its erased messages, found on the disk of a
 * stopped host, for `dsh-message-recall-log erase` (`scripts/commands/erase.ts`): the same finding
 * as the route's confirmation (`erase-copies.ts`: `copiesHolding` over the session headers, then
 * `copyRemoval` over each holding copy's log), with the headers and logs read from the files
 * under the DSH home's sessions root instead of the host's listing.
 * - The header of every log is read from its first bytes alone (`jsonl-log-file.ts`
 *   `readHeaderLine`: the first zstd frame, or the first line).
 * - Only the logs of the copies whose seed holds an erased message are read whole, once each.
 * - A log whose header or text cannot be read is not dropped silently: a copy whose log cannot
 *   be read is named with the error (it may still hold the text); a log whose header cannot be
 *   read cannot be told to be a copy, and is left out.
 *
 * @module dsh-message-recall/host/erase-copies-on-disk
 */
import { readdir, readFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { SessionHeader } from '@deepseek-ai/dsh-session'
import { copiesHolding, copyRemoval } from './erase-copies'
import { decodeLogBytes, readHeaderLine } from './jsonl-log-file'
import { errorText } from '../shared/error-text'

/** A copy on disk that still holds some of the erased messages. */
export interface DiskCopy {
  readonly sessionId: string
  /** Its current title (the newest `session/title`), or `null` when it has none or its log could not be read. */
  readonly title: string | null
  /**
   * Its own removal of those messages, which an erase of the copy addresses (`erase <log>
   * --tombstone <seq>`); `null` when it holds them not removed (remove them there first) or its
   * log could not be read.
   */
  readonly tombstoneSeq: number | null
  /** The copy's log file. */
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
    else if (entry.name === 'session.jsonl' || entry.name === 'session.jsonl.zstd') found.push(path)
  }
  return found
}

const compressionOf = (path: string): 'zstd' | 'none' => (path.endsWith('.zstd') ? 'zstd' : 'none')

/**
 * The copies of a session, and copies of those, under a sessions root whose logs still hold any
 * of the erased messages (see the module doc).
 * @param logs - the log files under the sessions root ({@link logFilesUnder}); the erased log may be among them.
 * @param sourceId - the erased session's id.
 * @param messageSeqs - the erased messages' seqs, ascending.
 * @returns one entry per copy that still holds them, nearest first (as `copiesHolding` orders
 *   them); a copy whose removal of them was erased already is left out.
 */
export async function copiesOnDisk(logs: readonly string[], sourceId: string, messageSeqs: readonly number[]): Promise<DiskCopy[]> {
  if (messageSeqs.length === 0) return []
  const headers: SessionHeader[] = []
  const pathOf = new Map<string, string>()
  for (const path of logs) {
    let header: SessionHeader
    try {
      header = JSON.parse(await readHeaderLine(path, compressionOf(path))) as SessionHeader
    } catch {
      continue
    }
    if (typeof header?.id !== 'string' || pathOf.has(header.id)) continue
    pathOf.set(header.id, path)
    headers.push(header)
  }
  const copies: DiskCopy[] = []
  for (const { header, seqs } of copiesHolding(headers, sourceId, messageSeqs)) {
    const log = pathOf.get(header.id)!
    let removal: ReturnType<typeof copyRemoval>
    try {
      removal = copyRemoval(decodeLogBytes(await readFile(log), compressionOf(log)), seqs)
    } catch (error) {
      copies.push({ sessionId: header.id, title: null, tombstoneSeq: null, log, error: errorText(error) })
      continue
    }
    if (removal === null) continue
    copies.push({ sessionId: header.id, title: removal.title, tombstoneSeq: removal.tombstoneSeq, log, error: null })
  }
  return copies
}
