/**
 * One stored log erased in place, crash-safe and verified: the file-level half of an erase, shared
 * by the route (`erase-session.ts`, a session the plugin holds) and the log tool
 * (`dsh-message-recall-log erase`, a stopped host). The log is read once and its text rewritten by
 * `log/log-erase.ts`, written beside the old file in the backend's format and fsynced, read back
 * with the backend's own reader, checked against the old log and loaded under DSH's invariant
 * companions (`erase-verify.ts`), and only then
 * renamed over it (with the folder fsynced). A crash at any point leaves the old log or the new
 * one; a failed check removes the new file and changes nothing. New files an interrupted erase
 * left beside the log are removed before the next one writes its own.
 *
 * @module dsh-message-recall/host/erase-log
 */
import { readFile, rm } from 'node:fs/promises'
import type { SessionEvent } from '@deepseek-ai/dsh-session'
import { eraseRemovalInLog, type EraseBlock, type LogErase } from '../log/log-erase'
import { decodeLogBytes, encodeLogText, publishLogFile, readLogAndHeaderWithDsh, removeLeftovers, writeBeside, type JsonlReader } from './jsonl-log-file'
import { verifyErasedLog } from './erase-verify'
import { errorText } from '../shared/error-text'

/** The outcome of {@link eraseLogFile}: the rewrite in place, or why nothing changed. */
export type LogFileErase =
  | { readonly ok: true; readonly value: LogErase; readonly at: string }
  | { readonly ok: false; readonly code: EraseBlock }
  | { readonly ok: false; readonly code: 'ERASE_NOT_VERIFIED'; readonly problem: string }

/** Options of {@link eraseLogFile}. */
export interface EraseLogOptions {
  /** The erase time written into the tombstone (ISO 8601). */
  readonly at: string
  /** The number of events the log must hold (a held session's length), checked before the rename. */
  readonly expectedLength?: () => number
}

/**
 * Erase one removal of a stored log file in place.
 * @param reader - the JSONL backend (or its reader over a compression).
 * @param logPath - the session's log file.
 * @param id - the session id its header names.
 * @param tombstoneSeq - the removal's tombstone.
 * @param options - time and the expected length.
 * @returns the rewrite once the new file is in place, an {@link EraseBlock}, or
 *   `ERASE_NOT_VERIFIED` with the first problem (the old log is untouched).
 * @throws file system errors (before the rename the old log is untouched).
 */
export async function eraseLogFile(reader: JsonlReader, logPath: string, id: string, tombstoneSeq: number, options: EraseLogOptions): Promise<LogFileErase> {
  await removeLeftovers(logPath)
  // The old log is read once: its bytes decoded here, its events parsed by the rewrite. Lines the
  // erase does not rewrite are the stored bytes, so DSH's reading of the new file (below) is
  // checked against the parse of those same bytes.
  let text: string
  try {
    text = decodeLogBytes(await readFile(logPath), reader.compression)
  } catch (error) {
    return { ok: false, code: 'ERASE_NOT_VERIFIED', problem: `the stored log cannot be read whole: ${errorText(error)}` }
  }
  const rewrite = eraseRemovalInLog(text, tombstoneSeq, options.at)
  if (!rewrite.ok) return rewrite
  return replaceVerified(reader, logPath, id, rewrite.value, options)
}

/**
 * The second half of {@link eraseLogFile}: a rewrite written beside the log, read back with DSH's
 * reader, verified against the old events (`erase-verify.ts`), and only then renamed over the log.
 * @param reader - the JSONL backend (or its reader over a compression).
 * @param logPath - the session's log file.
 * @param id - the session id its header names.
 * @param erase - the rewrite (`log/log-erase.ts`): the new text, the old events, the rewritten seqs.
 * @param options - time and the expected length.
 * @returns the rewrite once the new file is in place, or `ERASE_NOT_VERIFIED` with the first
 *   problem (the new file removed, the old log untouched).
 * @throws file system errors (before the rename the old log is untouched).
 */
export async function replaceVerified(reader: JsonlReader, logPath: string, id: string, erase: LogErase, options: EraseLogOptions): Promise<LogFileErase> {
  const before = erase.events as readonly SessionEvent[]
  const expected = options.expectedLength?.()
  if (erase.eventCount !== before.length || (expected !== undefined && expected !== before.length)) {
    return { ok: false, code: 'ERASE_NOT_VERIFIED', problem: `the stored log holds ${before.length} events, the text ${erase.eventCount}${expected !== undefined ? `, the session ${expected}` : ''}` }
  }
  const newPath = await writeBeside(logPath, encodeLogText(erase.text, reader.compression))
  let problem: string | null
  try {
    const after = await readLogAndHeaderWithDsh(reader, newPath, id)
    problem = await verifyErasedLog(id, before, after.events, new Set([...erase.carriers.keys(), erase.tombstoneSeq]), after.meta)
  } catch (error) {
    problem = `DSH cannot read the new log: ${errorText(error)}`
  }
  if (problem === null && options.expectedLength !== undefined && options.expectedLength() !== before.length) problem = 'an event was appended during the erase'
  if (problem !== null) {
    await rm(newPath, { force: true })
    return { ok: false, code: 'ERASE_NOT_VERIFIED', problem }
  }
  await publishLogFile(newPath, logPath)
  return { ok: true, value: erase, at: options.at }
}
