/**
 * Reading one rc.8 session log from disk, streamed: the file is read in chunks, complete zstd
 * frames are located by their headers (`zstd-frames.ts`), decoded one at a time and handed to the
 * record reader (`log-frames.ts`) as soon as they are complete, so a multi-hundred-MB log never
 * sits in memory whole. A torn final frame or record (a log still being written) is a result,
 * with its byte offset; so are frames that fail to decode and corrupt structure. Never writes.
 *
 * Accepts the log file itself (`session.jsonl.zstd` or the plain `session.jsonl`, told apart by
 * their first bytes) or a session folder holding one of them
 * (`<root>/--<project>--/<session id>/`, `dsh-session-persistence-jsonl` `logPath`).
 *
 * Node only.
 *
 * @module dsh-message-recall/shared/session-log
 */
import { open, readdir, stat } from 'node:fs/promises'
import { join } from 'node:path'
import * as zlib from 'node:zlib'
import { Decompress } from 'fzstd'
import { DecoderUnavailableError, type DecoderName, type FrameDecoder } from './frame-decoder'
import { autoDecoderName, decodeWithZstdCli, findZstdCli, openFrameDecoder, type ZstdCli } from './frame-decoder-node'
import { LogRecordReader, type LogHeader, type LogProblem, type LogRecord } from './log-frames'
import { describeFrameStop, magicFalsePositives, scanZstdFrames, ZSTD_FRAME_MAGIC, type FrameScanStop, type ZstdFrame } from './zstd-frames'

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

/** The frame magic number as it is stored (little-endian). */
const ZSTD_MAGIC_BYTES = Buffer.from([0x28, 0xb5, 0x2f, 0xfd])

/**
 * Tell the encoding from the first bytes: the zstd frame magic (or, for a file shorter than four
 * bytes, the start of it), or `{` for JSONL. The file name does not count: a file with other
 * first bytes is no log, whatever its name.
 */
async function sniffFormat(path: string, size: number): Promise<'zstd' | 'jsonl'> {
  let handle
  try {
    handle = await open(path, 'r')
  } catch (error) {
    throw new SessionLogInputError(`cannot open ${path}: ${(error as Error).message}`, 'unreadable')
  }
  try {
    const head = Buffer.alloc(4)
    const { bytesRead } = await handle.read(head, 0, 4, 0)
    if (bytesRead === 4 && head.readUInt32LE(0) === ZSTD_FRAME_MAGIC) return 'zstd'
    if (bytesRead >= 1 && head[0] === 0x7b /* { */) return 'jsonl'
    if (size === 0) throw new SessionLogInputError(`${path} is empty`, 'not-a-log')
    // Fewer than four bytes that begin the magic number: a zstd log whose first write is torn.
    if (bytesRead < 4 && bytesRead === size && head.subarray(0, bytesRead).equals(ZSTD_MAGIC_BYTES.subarray(0, bytesRead))) return 'zstd'
    throw new SessionLogInputError(`${path} is neither a Zstandard log nor a JSONL log (first bytes ${head.subarray(0, bytesRead).toString('hex')})`, 'not-a-log')
  } finally {
    await handle.close()
  }
}

/** One complete frame as read: where it is, what it decoded to, which lines it holds. */
export interface FrameReport {
  readonly frame: ZstdFrame
  /** Decoded bytes, or `null` when decoding failed. */
  readonly decodedBytes: number | null
  /** First and last line numbers the frame holds (1-based; `lastLine < firstLine` when none). */
  readonly firstLine: number
  readonly lastLine: number
  /** Why decoding failed, when it did. */
  readonly error?: string
}

/** The incomplete end of a log. */
export interface TornTail {
  /** Absolute offset where the incomplete frame or record begins. */
  readonly start: number
  /** Bytes present from `start` to the end of the file. */
  readonly bytes: number
  /** One sentence naming the offsets. */
  readonly description: string
  /** The zstd scan stop, for a zstd log. */
  readonly stop?: Extract<FrameScanStop, { kind: 'incomplete' }>
  /**
   * Complete lines decodable from the incomplete frame (DSH's loader keeps these events when it
   * repairs the log); not passed to the record reader. `null` when recovery was not attempted.
   */
  readonly recoverableLines: number | null
}

/** Options of {@link readSessionLog}. */
export interface ReadSessionLogOptions {
  /** Decoder to use (default `auto`). */
  readonly decoder?: DecoderName | 'auto'
  /** The read needs per-frame output ({@link onFrame}, frame numbers in problems): rules out `zstd-cli` under `auto`. */
  readonly needsFrames?: boolean
  /** Which record types to parse (default all); see `LogRecordReaderOptions.parse`. */
  readonly parse?: (type: string, text: string) => boolean
  /** Expand records into events. */
  readonly expand?: boolean
  /** Line 1, once: the header when it is one (else `null`) and the line as stored. */
  readonly onHeader?: (header: LogHeader | null, text: string) => void
  readonly onRecord?: (record: LogRecord) => void
  readonly onFrame?: (report: FrameReport) => void
  /** Called after each chunk read with bytes read so far and the file size. */
  readonly onProgress?: (bytesRead: number, size: number) => void
  /** Look for the magic number inside frames (where a magic-searching splitter would cut). */
  readonly magicScan?: boolean
  /** Try to decode complete lines out of a torn final frame (default `true`). */
  readonly recoverTail?: boolean
  /** Awaited after each frame or chunk is handed over: where a caller writes out what it collected. */
  readonly flush?: () => Promise<void>
  /** Bytes per read (default 4 MiB). */
  readonly chunkBytes?: number
}

/** Everything a read found. */
export interface SessionLogRead {
  readonly file: SessionLogFile
  /** Decoder used; `null` for a plain JSONL log. */
  readonly decoder: DecoderName | null
  /**
   * `fzstd` when `auto` picked `zstd-cli`, the tool refused a batch of frames, and those frames
   * were decoded again one by one with fzstd (which locates the frame that fails); else `null`.
   */
  readonly fallbackDecoder: 'fzstd' | null
  readonly header: LogHeader | null
  readonly headerText: string | null
  /** Lines read, header included. */
  readonly lines: number
  /** Events stored in those lines (packed rows counted by members). */
  readonly events: number
  readonly lastSeq: number
  /** Complete frames (zstd) read. */
  readonly frames: number
  /** Frames whose checksum was verified while decoding. */
  readonly checkedFrames: number
  /** Bytes of the file covered by complete frames or records. */
  readonly bytesConsumed: number
  /** Plaintext bytes decoded (the whole file for a plain log). */
  readonly decodedBytes: number
  readonly tail: TornTail | null
  readonly problems: readonly LogProblem[]
  /** With `magicScan`: offsets of the magic number that are not frame starts. */
  readonly magicFalsePositives: readonly number[]
}

const DEFAULT_CHUNK_BYTES = 4 * 1024 * 1024

function text(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8')
}

/**
 * Read a session log from its first byte to its last.
 * @param file - from {@link resolveSessionLog}.
 * @param options - decoder, callbacks and what to parse.
 * @returns header, totals, torn tail and problems. Problems in the log are results; only an
 * unreadable file or an unavailable decoder throws.
 * @throws SessionLogInputError when the file cannot be read; Error when the named decoder is
 * not available.
 */
export async function readSessionLog(file: SessionLogFile, options: ReadSessionLogOptions = {}): Promise<SessionLogRead> {
  const reader = new LogRecordReader({ parse: options.parse, expand: options.expand, onRecord: options.onRecord, onHeader: options.onHeader })
  const chunkBytes = options.chunkBytes ?? DEFAULT_CHUNK_BYTES
  let handle
  try {
    handle = await open(file.path, 'r')
  } catch (error) {
    throw new SessionLogInputError(`cannot open ${file.path}: ${(error as Error).message}`, 'unreadable')
  }
  try {
    if (file.format === 'jsonl') return await readPlain(file, handle, reader, chunkBytes, options)
    return await readZstd(file, handle, reader, chunkBytes, options)
  } finally {
    await handle.close()
  }
}

type FileHandle = Awaited<ReturnType<typeof open>>

async function* chunksOf(handle: FileHandle, size: number, chunkBytes: number, onProgress?: (read: number, size: number) => void): AsyncGenerator<Buffer> {
  let position = 0
  for (;;) {
    const buffer = Buffer.allocUnsafe(chunkBytes)
    let bytesRead
    try {
      ;({ bytesRead } = await handle.read(buffer, 0, chunkBytes, position))
    } catch (error) {
      throw new SessionLogInputError(`cannot read at byte ${position}: ${(error as Error).message}`, 'unreadable')
    }
    if (bytesRead === 0) return
    position += bytesRead
    onProgress?.(position, size)
    yield bytesRead === chunkBytes ? buffer : buffer.subarray(0, bytesRead)
  }
}

async function readPlain(
  file: SessionLogFile,
  handle: FileHandle,
  reader: LogRecordReader,
  chunkBytes: number,
  options: ReadSessionLogOptions,
): Promise<SessionLogRead> {
  let carry: Buffer = Buffer.alloc(0)
  let carryAt = 0
  let consumed = 0
  for await (const chunk of chunksOf(handle, file.size, chunkBytes, options.onProgress)) {
    const bytes = carry.length > 0 ? Buffer.concat([carry, chunk]) : chunk
    const lastBreak = bytes.lastIndexOf(0x0a)
    if (lastBreak === -1) {
      carry = Buffer.from(bytes)
      continue
    }
    reader.push(text(bytes.subarray(0, lastBreak + 1)), null, carryAt)
    await options.flush?.()
    consumed = carryAt + lastBreak + 1
    carry = Buffer.from(bytes.subarray(lastBreak + 1))
    carryAt = consumed
  }
  const totals = reader.finish()
  const tail: TornTail | null =
    carry.length > 0
      ? {
          start: consumed,
          bytes: carry.length,
          description: `the last record (line ${totals.lines + 1}, from byte ${consumed}) has no line break: ${carry.length} bytes of an unfinished write`,
          recoverableLines: 0,
        }
      : null
  return {
    file,
    decoder: null,
    fallbackDecoder: null,
    header: totals.header,
    headerText: totals.headerText,
    lines: totals.lines,
    events: totals.events,
    lastSeq: totals.lastSeq,
    frames: 0,
    checkedFrames: 0,
    bytesConsumed: consumed,
    decodedBytes: file.size,
    tail,
    problems: totals.problems,
    magicFalsePositives: [],
  }
}

async function readZstd(
  file: SessionLogFile,
  handle: FileHandle,
  reader: LogRecordReader,
  chunkBytes: number,
  options: ReadSessionLogOptions,
): Promise<SessionLogRead> {
  const requested = options.decoder ?? 'auto'
  const name: DecoderName = requested === 'auto' ? autoDecoderName(options.needsFrames ?? false) : requested
  if (name === 'zstd-cli' && options.needsFrames) throw new DecoderUnavailableError('decoder "zstd-cli" decodes all frames as one stream and cannot report frames one by one')
  const cli = name === 'zstd-cli' ? findZstdCli() : null
  if (name === 'zstd-cli' && cli === null) throw new DecoderUnavailableError('decoder "zstd-cli" is not available: no zstd command on PATH')
  const decoder: FrameDecoder | null = name === 'zstd-cli' ? null : await openFrameDecoder(requested === 'auto' ? 'auto' : (name as Exclude<DecoderName, 'zstd-cli'>))

  let frameCount = 0
  let checked = 0
  let decodedBytes = 0
  let consumed = 0
  let stop: FrameScanStop = { kind: 'end' }
  let tailBytes: Uint8Array | null = null
  const falsePositives: number[] = []

  /**
   * Complete frames in file order, one batch per chunk read (decoding a batch needs no await),
   * with the bytes they span; records scan results as it goes.
   */
  async function* batches(): AsyncGenerator<Batch> {
    let carry: Buffer = Buffer.alloc(0)
    let carryAt = 0
    for await (const chunk of chunksOf(handle, file.size, chunkBytes, options.onProgress)) {
      const bytes = carry.length > 0 ? Buffer.concat([carry, chunk]) : chunk
      const scan = scanZstdFrames(bytes, { baseOffset: carryAt, firstIndex: frameCount })
      if (options.magicScan && scan.frames.length > 0) {
        const starts = new Set(scan.frames.map((f) => f.start))
        falsePositives.push(...magicFalsePositives(bytes.subarray(0, scan.next - carryAt), starts, carryAt))
      }
      if (scan.frames.length > 0) {
        frameCount += scan.frames.length
        consumed = scan.next
        yield { frames: scan.frames, bytes: bytes.subarray(0, scan.next - carryAt), at: carryAt }
      }
      if (scan.stop.kind === 'corrupt') {
        stop = scan.stop
        return
      }
      carry = Buffer.from(bytes.subarray(scan.next - carryAt))
      carryAt = scan.next
    }
    if (carry.length > 0) {
      const scan = scanZstdFrames(carry, { baseOffset: carryAt, firstIndex: frameCount })
      stop = scan.stop
      tailBytes = carry
      if (options.magicScan) falsePositives.push(...magicFalsePositives(carry, new Set([carryAt]), carryAt))
    }
  }

  /** Decode a batch's frames one by one with `frameDecoder`, reporting each frame that fails. */
  const decodeEach = (batch: Batch, frameDecoder: FrameDecoder): void => {
    for (const frame of batch.frames) {
      const firstLine = reader.lineCount + 1
      if (frame.kind === 'skippable') {
        options.onFrame?.({ frame, decodedBytes: 0, firstLine, lastLine: firstLine - 1 })
        continue
      }
      let plaintext: Uint8Array
      try {
        plaintext = frameDecoder.decode(batch.bytes.subarray(frame.start - batch.at, frame.end - batch.at))
      } catch (error) {
        const message = (error as Error).message
        reader.report({ kind: 'frame-failed', at: { line: firstLine, frame: frame.index, byte: frame.start }, message: `frame ${frame.index} at byte ${frame.start} failed to decode: ${message}` })
        options.onFrame?.({ frame, decodedBytes: null, firstLine, lastLine: firstLine - 1, error: message })
        continue
      }
      if (frameDecoder.verifiesChecksum && frame.checksum !== null) checked++
      decodedBytes += plaintext.length
      reader.push(text(plaintext), frame.index, frame.start, true)
      options.onFrame?.({ frame, decodedBytes: plaintext.length, firstLine, lastLine: reader.lineCount })
    }
  }

  let fallback: FrameDecoder | null = null
  let fallbackUsed = false
  if (decoder !== null) {
    try {
      for await (const batch of batches()) {
        decodeEach(batch, decoder)
        await options.flush?.()
      }
    } finally {
      decoder.close()
    }
  } else {
    // One `zstd` run per batch, its output collected: a batch the tool refuses has handed nothing
    // to the reader yet, so it can be read again and still match the per-frame decoders (every
    // intact frame read, the failing frame and byte named). Under `auto` it is decoded frame by
    // frame with fzstd; with `zstd-cli` named, the tool decodes halves of it down to the frames
    // that fail. The next batch decodes while this one is parsed.
    /** Push the plaintext of complete frames decoded in one piece. */
    const pushDecoded = (batch: Batch, output: Buffer): void => {
      decodedBytes += output.length
      for (const frame of batch.frames) if (frame.kind === 'zstd' && frame.checksum !== null) checked++
      const last = batch.frames.at(-1)!
      const lastBreak = output.lastIndexOf(0x0a)
      if (lastBreak !== -1) reader.push(text(output.subarray(0, lastBreak + 1)), null, batch.frames[0]!.start)
      if (lastBreak + 1 < output.length) reader.push(text(output.subarray(lastBreak + 1)), last.index, last.start, true)
    }
    /**
     * With `--decoder zstd-cli` named: halve a refused run of frames and decode each half with the
     * tool again, down to the single frames that fail, so the problem names the frame and byte
     * and every intact frame is read.
     */
    const bisect = async (batch: Batch, failure: Error): Promise<void> => {
      if (batch.frames.length === 1) {
        const frame = batch.frames[0]!
        reader.report({
          kind: 'frame-failed',
          at: { line: reader.lineCount + 1, frame: frame.index, byte: frame.start },
          message: `frame ${frame.index} at byte ${frame.start} failed to decode: ${failure.message}`,
        })
        return
      }
      const middle = batch.frames.length >> 1
      for (const frames of [batch.frames.slice(0, middle), batch.frames.slice(middle)]) {
        const at = frames[0]!.start
        const part: Batch = { frames, bytes: batch.bytes.subarray(at - batch.at, frames.at(-1)!.end - batch.at), at }
        const output = await collectZstdCli(cli!, part.bytes)
        if (output instanceof Error) await bisect(part, output)
        else pushDecoded(part, output)
      }
    }
    const settle = async (job: { batch: Batch; output: Promise<Buffer | Error> }): Promise<void> => {
      const { batch } = job
      const output = await job.output
      if (!(output instanceof Error)) {
        pushDecoded(batch, output)
      } else if (requested === 'auto') {
        fallback ??= await openFrameDecoder('fzstd')
        fallbackUsed = true
        decodeEach(batch, fallback)
      } else {
        await bisect(batch, output)
      }
      await options.flush?.()
    }
    let pending: { batch: Batch; output: Promise<Buffer | Error> } | null = null
    try {
      for await (const batch of batches()) {
        const job = { batch, output: collectZstdCli(cli!, batch.bytes) }
        if (pending !== null) await settle(pending)
        pending = job
      }
      if (pending !== null) await settle(pending)
    } finally {
      ;(fallback as FrameDecoder | null)?.close()
    }
  }

  const totals = reader.finish()
  const problems = [...totals.problems]
  const finalStop = stop as FrameScanStop
  if (finalStop.kind === 'corrupt') {
    problems.push({ kind: 'corrupt-structure', offset: finalStop.offset, message: describeFrameStop(finalStop, file.size) })
  }
  let tail: TornTail | null = null
  if (finalStop.kind === 'incomplete' && tailBytes !== null) {
    const torn: Uint8Array = tailBytes
    const recoverable = options.recoverTail === false ? null : recoverableLines(torn)
    tail = { start: finalStop.start, bytes: torn.length, description: describeFrameStop(finalStop, file.size), stop: finalStop, recoverableLines: recoverable }
  }
  return {
    file,
    decoder: name,
    fallbackDecoder: fallbackUsed ? 'fzstd' : null,
    header: totals.header,
    headerText: totals.headerText,
    lines: totals.lines,
    events: totals.events,
    lastSeq: totals.lastSeq,
    frames: frameCount,
    checkedFrames: checked,
    bytesConsumed: consumed,
    decodedBytes,
    tail,
    problems,
    magicFalsePositives: falsePositives,
  }
}

/** Complete frames of one chunk read, the bytes they span, and the file offset of those bytes. */
interface Batch {
  readonly frames: ZstdFrame[]
  readonly bytes: Uint8Array
  readonly at: number
}

/**
 * Decode one batch of complete frames with the `zstd` tool.
 * @returns the plaintext, or the tool's error (never rejects).
 */
async function collectZstdCli(cli: ZstdCli, bytes: Uint8Array): Promise<Buffer | Error> {
  const parts: Uint8Array[] = []
  try {
    for await (const chunk of decodeWithZstdCli(cli, [bytes])) parts.push(chunk)
    return Buffer.concat(parts)
  } catch (error) {
    return error instanceof Error ? error : new Error(String(error))
  }
}

type ZlibWithFlush = typeof zlib & { zstdDecompressSync?: (input: Uint8Array, options: { finishFlush: number }) => Buffer; constants: { ZSTD_e_flush?: number } }

/**
 * Complete lines that can be decoded from an incomplete final frame, the way DSH's loader
 * recovers them (`decompressZstdPrefix`: zstd with `ZSTD_e_flush`, which stops without the frame
 * end and its checksum). Uses `node:zlib` when it has zstd, fzstd's streaming decoder otherwise.
 * @param torn - bytes from the start of the incomplete frame to the end of the file.
 * @returns the number of complete lines, or `0` when nothing decodes.
 */
export function recoverableLines(torn: Uint8Array): number {
  let plaintext: Uint8Array = new Uint8Array(0)
  const z = zlib as ZlibWithFlush
  try {
    if (typeof z.zstdDecompressSync === 'function' && z.constants.ZSTD_e_flush !== undefined) {
      plaintext = z.zstdDecompressSync(torn, { finishFlush: z.constants.ZSTD_e_flush })
    } else {
      const parts: Uint8Array[] = []
      const stream = new Decompress((data) => {
        parts.push(data)
      })
      stream.push(torn, false)
      plaintext = Buffer.concat(parts)
    }
  } catch {
    return 0
  }
  let lines = 0
  for (let i = plaintext.indexOf(0x0a); i !== -1; i = plaintext.indexOf(0x0a, i + 1)) lines++
  return lines
}
