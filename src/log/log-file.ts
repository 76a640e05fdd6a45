/**
 * Finding a session log on disk and telling its encoding: the log file itself
 * (`session.jsonl.zstd` or the plain `session.jsonl`, told apart by their first bytes) or a
 * session folder holding one of them (`<root>/--<project>--/<session id>/`,
 * `dsh-session-persistence-jsonl` `logPath`). Also the chunked reads every reader makes.
 *
 * Node only. Never writes.
 *
 * @module dsh-message-recall/log/log-file
 */
import { open, readdir, stat } from 'node:fs/promises'
import { join } from 'node:path'
import { ZSTD_MAGIC_BYTES } from './zstd-frames'

/** File names the JSONL backend writes (`logSuffix`). */
export const LOG_FILE_NAMES = ['session.jsonl.zstd', 'session.jsonl'] as const

/** Why a path cannot be read as a session log; the scripts exit 2 on these. */
export class SessionLogInputError extends Error {
  /**
   * @param message - one sentence naming the path.
   * @param code - `not-found` (no such path), `no-log` (a folder without a log, or both
   *   encodings in one folder), `not-a-log` (a file that is neither zstd nor JSONL),
   *   `unreadable` (the file system refused).
   */
  constructor(message: string, readonly code: 'not-found' | 'no-log' | 'not-a-log' | 'unreadable') {
    super(message)
    this.name = 'SessionLogInputError'
  }
}

/** A located log file. */
export interface SessionLogFile {
  readonly path: string
  readonly format: 'zstd' | 'jsonl'
  /** Bytes. */
  readonly size: number
  /** Last modification, epoch ms. */
  readonly mtimeMs: number
}

/**
 * Locate the log a path names.
 * @param path - a log file or a session folder.
 * @returns the file, its format (from its first four bytes) and size.
 * @throws SessionLogInputError when there is no readable log there.
 */
export async function resolveSessionLog(path: string): Promise<SessionLogFile> {
  let info
  try {
    info = await stat(path)
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    if (code === 'ENOENT' || code === 'ENOTDIR') throw new SessionLogInputError(`no such file or folder: ${path}`, 'not-found')
    throw new SessionLogInputError(`cannot read ${path}: ${(error as Error).message}`, 'unreadable')
  }
  if (info.isDirectory()) {
    let names: string[]
    try {
      names = await readdir(path)
    } catch (error) {
      throw new SessionLogInputError(`cannot list ${path}: ${(error as Error).message}`, 'unreadable')
    }
    const present = LOG_FILE_NAMES.filter((name) => names.includes(name))
    if (present.length === 0) throw new SessionLogInputError(`${path} holds no session.jsonl.zstd or session.jsonl`, 'no-log')
    if (present.length > 1) throw new SessionLogInputError(`${path} holds both session.jsonl.zstd and session.jsonl; DSH refuses a session folder with two encodings`, 'no-log')
    return resolveSessionLog(join(path, present[0]!))
  }
  if (!info.isFile()) throw new SessionLogInputError(`${path} is not a file or folder`, 'not-a-log')
  const format = await sniffFormat(path, info.size)
  return { path, format, size: info.size, mtimeMs: info.mtimeMs }
}

/**
 * A log's encoding from its first bytes, the rule every reader of a log file uses (the file name
 * does not count): the zstd frame magic (or, for a file shorter than four bytes, the start of it),
 * or `{` for JSONL.
 * @param head - the file's first bytes (four are enough; the whole file will do).
 * @param size - the file's size in bytes.
 * @returns `zstd`, `jsonl`, or `null` for an empty file or one with other first bytes (no log).
 */
export function logFormatOf(head: Uint8Array, size: number): 'zstd' | 'jsonl' | null {
  const present = Buffer.from(head.buffer, head.byteOffset, Math.min(head.byteLength, 4))
  if (present.length === 4 && present.equals(ZSTD_MAGIC_BYTES)) return 'zstd'
  if (present.length >= 1 && present[0] === 0x7b /* { */) return 'jsonl'
  // Fewer than four bytes that begin the magic number: a zstd log whose first write is torn.
  if (size > 0 && present.length < 4 && present.length === size && present.equals(ZSTD_MAGIC_BYTES.subarray(0, present.length))) return 'zstd'
  return null
}

/**
 * Tell the encoding from the first bytes ({@link logFormatOf}). The file name does not count: a
 * file with other first bytes is no log, whatever its name.
 */
async function sniffFormat(path: string, size: number): Promise<'zstd' | 'jsonl'> {
  const handle = await openLog(path)
  try {
    const head = Buffer.alloc(4)
    const { bytesRead } = await handle.read(head, 0, 4, 0)
    const present = head.subarray(0, bytesRead)
    const format = logFormatOf(present, size)
    if (format !== null) return format
    if (size === 0) throw new SessionLogInputError(`${path} is empty`, 'not-a-log')
    throw new SessionLogInputError(`${path} is neither a Zstandard log nor a JSONL log (first bytes ${present.toString('hex')})`, 'not-a-log')
  } finally {
    await handle.close()
  }
}

/** An open log file. */
export type LogHandle = Awaited<ReturnType<typeof open>>

/**
 * Open a log for reading.
 * @throws SessionLogInputError (`unreadable`) when the file system refuses.
 */
export async function openLog(path: string): Promise<LogHandle> {
  try {
    return await open(path, 'r')
  } catch (error) {
    throw new SessionLogInputError(`cannot open ${path}: ${(error as Error).message}`, 'unreadable')
  }
}

/** Room kept in front of each read for the bytes carried over from the previous chunk. */
const CARRY_ROOM = 256 * 1024

/**
 * Reads a file from its first byte in chunks, each read placed right after the bytes the caller
 * carries over from the previous chunk (the start of a frame or line the chunk cut), so chunks
 * are never concatenated. The next chunk is read while the caller works on this one.
 */
export class ChunkReader {
  private position = 0
  /** The read in flight: its buffer and promised byte count. */
  private ahead: { buffer: Buffer; read: Promise<number> } | null = null
  /** A buffer free for the next read (with `reuse`). */
  private spare: Buffer | null = null
  private current: Buffer | null = null

  /**
   * @param handle - from {@link openLog}.
   * @param size - file size, passed on to `onProgress`.
   * @param chunkBytes - bytes per read.
   * @param reuse - `true` to read into two buffers in turn (a chunk is then only valid until the
   *   next call); `false` for a fresh buffer each time.
   * @param onProgress - called after each read with bytes read so far and `size`.
   */
  constructor(
    private readonly handle: LogHandle,
    private readonly size: number,
    private readonly chunkBytes: number,
    private readonly reuse: boolean,
    private readonly onProgress?: (read: number, size: number) => void,
  ) {}

  private startRead(): void {
    const buffer = this.spare !== null && this.spare.length >= CARRY_ROOM + this.chunkBytes ? this.spare : Buffer.allocUnsafe(CARRY_ROOM + this.chunkBytes)
    this.spare = null
    const at = this.position
    const read = this.handle.read(buffer, CARRY_ROOM, this.chunkBytes, at).then(
      ({ bytesRead }) => bytesRead,
      (error: unknown) => {
        throw new SessionLogInputError(`cannot read at byte ${at}: ${(error as Error).message}`, 'unreadable')
      },
    )
    // A failure is reported by the `next` call that waits for it.
    read.catch(() => {})
    this.ahead = { buffer, read }
  }

  /**
   * Read the next chunk.
   * @param carry - bytes to put in front of it (may be a view into the previous chunk).
   * @returns `carry` followed by the bytes read; just (a copy of) `carry` at the end of the file.
   *   Views into earlier chunks, `carry` included, are not valid afterwards: use the result.
   * @throws SessionLogInputError (`unreadable`) naming the offset when a read fails.
   */
  async next(carry: Uint8Array): Promise<Buffer> {
    if (this.ahead === null) this.startRead()
    const { buffer, read } = this.ahead!
    this.ahead = null
    const bytesRead = await read
    this.position += bytesRead
    let result: Buffer
    if (carry.length <= CARRY_ROOM) {
      buffer.set(carry, CARRY_ROOM - carry.length)
      result = buffer.subarray(CARRY_ROOM - carry.length, CARRY_ROOM + bytesRead)
    } else {
      // A frame larger than the room in front: one copy of it and the new bytes.
      result = Buffer.allocUnsafe(carry.length + bytesRead)
      result.set(carry, 0)
      result.set(buffer.subarray(CARRY_ROOM, CARRY_ROOM + bytesRead), carry.length)
    }
    if (this.reuse) {
      // The previous chunk (where `carry` pointed) is free now; this one stays until the next call.
      this.spare = this.current
      this.current = buffer
    }
    if (bytesRead > 0) {
      this.onProgress?.(this.position, this.size)
      if (this.position < this.size) this.startRead()
    }
    return result
  }
}
