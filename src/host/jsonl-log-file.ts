/**
 * A session log file replaced whole, in the physical format of rc.8's JSONL backend
 * (`@deepseek-ai/dsh-session-persistence-jsonl`, `JsonlSessionPersistence`), and read back with
 * that backend's own reader. The one home of the backend's file shapes this plugin writes:
 * - zstd (`session.jsonl.zstd`): independently decodable, checksummed Zstandard frames, the header
 *   line in a frame of its own (`encodeMaterialization`: `compressZstdFrame(header)`, then the event
 *   lines in one frame), compressed with `ZSTD_c_checksumFlag` as `compressZstdFrame` does;
 * - none (`session.jsonl`): the UTF-8 text.
 * The new file is written beside the old one (`<log>.<hex>.erase.tmp`, mode 0600 like the
 * backend's `writeSyncedTempFile`) and fsynced; {@link readLogFileWithDsh} reads it with the
 * backend's `readPrefix` (its frame walk, checksum, header and JSONL record checks, packed-chunk
 * expansion), and {@link publishLogFile} renames it over the old log and fsyncs the directory, so
 * a crash leaves the old log or the new one, never a mix.
 *
 * @module dsh-message-recall/host/jsonl-log-file
 */
import { open, readdir, rename, rm } from 'node:fs/promises'
import { randomBytes } from 'node:crypto'
import { basename, dirname, join } from 'node:path'
import { constants, zstdCompressSync, zstdDecompressSync } from 'node:zlib'
import type { SessionEvent, SessionHeader } from '@deepseek-ai/dsh-session'
import { scanZstdFrames } from '../log/zstd-frames'

/** The backend's reader of one log file: the service itself, or its prototype over a compression (the log tool). */
export interface JsonlReader {
  /** `'zstd'` or `'none'` (`Config.compression`). */
  readonly compression: 'zstd' | 'none'
  /** The backend's reader of one log file (`readPrefix(path, expectedId)`; private in the typings, present at rc.8). */
  readPrefix(path: string, expectedId: string): Promise<{ readonly meta: { readonly id: string }; readonly events: readonly SessionEvent[]; readonly tornMarker?: unknown }>
  /** The identity check `readPrefix` runs on the file's path (it must be the session's own path). */
  assertStoredIdentity(path: string, meta: unknown, expectedId: string | undefined): Promise<void>
}

/** The parts of rc.8's `JsonlSessionPersistence` read here (structural; the service is `ctx.sessionPersistence`). */
export interface JsonlBackend extends JsonlReader {
  /** `'zstd'` or `'none'` (`Config.compression`). */
  readonly compression: 'zstd' | 'none'
  /** The session's log text as stored (`readRaw`): header line, then events and packed chunk rows. */
  readRaw(id: string): Promise<{ readonly meta: { readonly id: string; readonly cwd?: string }; readonly content: string } | undefined>
  /** Where a session's log lives (`locate`). */
  locate(meta: { readonly id: string; readonly cwd?: string }): { readonly kind: string; readonly path: string }
}

/**
 * Whether a service looks like rc.8's JSONL backend (the members {@link JsonlBackend} names).
 * @param service - `ctx.sessionPersistence` (any value).
 * @returns true when every member is there.
 */
export function isJsonlBackend(service: unknown): service is JsonlBackend {
  const s = service as Partial<JsonlBackend> | null | undefined
  return s != null && (s.compression === 'zstd' || s.compression === 'none') && typeof s.readRaw === 'function' && typeof s.locate === 'function' && typeof s.readPrefix === 'function' && typeof s.assertStoredIdentity === 'function'
}

/**
 * Decode a log file's bytes to its JSONL text (every zstd frame; a torn final frame throws).
 * @param bytes - the file's bytes.
 * @param compression - the backend's compression.
 * @returns the text.
 */
export function decodeLogBytes(bytes: Buffer, compression: 'zstd' | 'none'): string {
  if (compression === 'none') return bytes.toString('utf8')
  const scan = scanZstdFrames(bytes)
  if (scan.stop.kind !== 'end') throw new Error('the log does not end at a frame boundary (a torn or damaged tail)')
  return Buffer.concat(scan.frames.filter((f) => f.kind === 'zstd').map((f) => zstdDecompressSync(bytes.subarray(f.start, f.end)))).toString('utf8')
}

/**
 * A log file's header line alone, read from its first bytes: the first zstd frame, which holds
 * only the header line (`encodeMaterialization`), or a plain log's first line. Reads 64 KiB, and
 * twice as much each time the frame or line does not end within what was read.
 * @param path - the log file.
 * @param compression - the backend's compression (`session.jsonl.zstd`: `zstd`).
 * @returns the header line's text, without its line break.
 * @throws the file system's errors; `no header line` when the file ends before one, or a zstd
 *   error of the first frame.
 */
export async function readHeaderLine(path: string, compression: 'zstd' | 'none'): Promise<string> {
  const file = await open(path, 'r')
  try {
    for (let size = 64 * 1024; ; size *= 2) {
      const buffer = Buffer.alloc(size)
      const { bytesRead } = await file.read(buffer, 0, size, 0)
      const bytes = buffer.subarray(0, bytesRead)
      let text: string | undefined
      if (compression === 'none') text = bytes.toString('utf8')
      else {
        const first = scanZstdFrames(bytes).frames.find((f) => f.kind === 'zstd')
        if (first !== undefined) text = zstdDecompressSync(bytes.subarray(first.start, first.end)).toString('utf8')
      }
      const newline = text?.indexOf('\n') ?? -1
      if (newline >= 0) return text!.slice(0, newline)
      if (bytesRead < size) throw new Error('no header line')
    }
  } finally {
    await file.close()
  }
}

/**
 * Encode a log's JSONL text as the backend stores it.
 * @param text - the whole text (header line first; ends with a line break, as stored).
 * @param compression - the backend's compression.
 * @returns the file bytes.
 */
export function encodeLogText(text: string, compression: 'zstd' | 'none'): Buffer {
  if (compression === 'none') return Buffer.from(text, 'utf8')
  const cut = text.indexOf('\n') + 1
  const options = { params: { [constants.ZSTD_c_checksumFlag]: 1 } }
  const header = zstdCompressSync(Buffer.from(text.slice(0, cut), 'utf8'), options)
  const rest = text.slice(cut)
  return rest === '' ? header : Buffer.concat([header, zstdCompressSync(Buffer.from(rest, 'utf8'), options)])
}

/** fsync a directory, so an entry created or renamed in it survives a crash. */
export async function syncDirectory(dir: string): Promise<void> {
  const handle = await open(dir, 'r')
  try {
    await handle.sync()
  } finally {
    await handle.close()
  }
}

/**
 * Write bytes to a new file beside a log and fsync it.
 * @param logPath - the log it will replace.
 * @param bytes - the new file's bytes.
 * @returns the new file's path (`<logPath>.<12 hex>.erase.tmp`).
 * @throws the file system's errors; a partly written file is removed first.
 */
export async function writeBeside(logPath: string, bytes: Buffer): Promise<string> {
  const path = `${logPath}.${randomBytes(6).toString('hex')}.erase.tmp`
  const handle = await open(path, 'wx', 0o600)
  try {
    await handle.writeFile(bytes)
    await handle.sync()
  } catch (error) {
    await handle.close().catch(() => {})
    await rm(path, { force: true })
    throw error
  } finally {
    await handle.close().catch(() => {})
  }
  return path
}

/**
 * Remove what an interrupted erase left beside a log: new files written by {@link writeBeside}
 * and never renamed (`<log>.<12 hex>.erase.tmp`; DSH ignores them).
 * @param logPath - the log.
 * @returns the names removed.
 */
export async function removeLeftovers(logPath: string): Promise<string[]> {
  const prefix = `${basename(logPath)}.`
  const names = (await readdir(dirname(logPath)).catch(() => [] as string[])).filter((n) => n.startsWith(prefix) && /^\.[0-9a-f]{12}\.erase\.tmp$/.test(n.slice(prefix.length - 1)))
  for (const name of names) await rm(join(dirname(logPath), name), { force: true })
  return names
}

/**
 * Read a log file with the backend's own reader, wherever it lies (the identity check of the
 * session's own path is left out; the header's id is checked against `expectedId` here).
 * @param backend - the JSONL backend.
 * @param path - the file.
 * @param expectedId - the session id its header must name.
 * @returns its events.
 * @throws the backend's read errors; `torn tail` when the file ends inside a record or frame; a
 *   header naming another session.
 */
export async function readLogFileWithDsh(backend: JsonlReader, path: string, expectedId: string): Promise<readonly SessionEvent[]> {
  return (await readLogAndHeaderWithDsh(backend, path, expectedId)).events
}

/**
 * {@link readLogFileWithDsh} with the header the reader parsed (`SessionHeader` of `dsh-session`).
 * @returns the header and the events; the events are fresh objects the caller may own.
 * @throws as {@link readLogFileWithDsh}.
 */
export async function readLogAndHeaderWithDsh(backend: JsonlReader, path: string, expectedId: string): Promise<{ readonly meta: SessionHeader; readonly events: readonly SessionEvent[] }> {
  const reader: JsonlReader = Object.create(backend, { assertStoredIdentity: { value: async () => {} } })
  const prefix = await reader.readPrefix.call(reader, path, expectedId)
  if (prefix.meta.id !== expectedId) throw new Error(`the log names session "${prefix.meta.id}", not "${expectedId}"`)
  if (prefix.tornMarker !== undefined) throw new Error('the log has a torn tail')
  return { meta: prefix.meta as unknown as SessionHeader, events: prefix.events }
}

/**
 * Put a new file in the place of a log: an atomic rename, then an fsync of the folder.
 * @param newPath - the file written by {@link writeBeside}.
 * @param logPath - the log it replaces.
 * @throws the file system's errors (before the rename the old log is untouched).
 */
export async function publishLogFile(newPath: string, logPath: string): Promise<void> {
  await rename(newPath, logPath)
  await syncDirectory(dirname(logPath))
}
