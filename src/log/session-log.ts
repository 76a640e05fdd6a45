/**
 * Reading one rc.8 session log from disk, streamed: the file is read in chunks, complete zstd
 * frames are located by their headers (`zstd-frames.ts`, batched in `frame-batches.ts`), decoded
 * one at a time and handed to the record reader (`log-frames.ts`) as soon as they are complete,
 * so a multi-hundred-MB log never sits in memory whole. A torn final frame or record (a log still
 * being written) is a result, with its byte offset; so are frames that fail to decode and corrupt
 * structure. Never writes. Finding the file is `log-file.ts`; the `zstd` tool's batch path is
 * `zstd-cli-batches.ts`.
 *
 * Node only.
 *
 * @module dsh-message-recall/log/session-log
 */
import { DecoderUnavailableError, type DecoderName, type FrameDecoder } from './frame-decoder'
import { autoDecoderName, findZstdCli, openFrameDecoder } from './frame-decoder-node'
import { decodeBatch, FrameBatches, FrameRun, type DecodeTally, type FrameReport } from './frame-batches'
import { ChunkReader, openLog, type LogHandle, type SessionLogFile } from './log-file'
import { LogRecordReader, type LogHeader, type LogProblem, type LogRecord, type LogRecordReaderOptions } from './log-frames'
import { recoverableLines, type TornTail } from './torn-tail'
import { decodeBatchesWithZstdCli } from './zstd-cli-batches'
import { describeFrameStop, type FrameScanStop } from './zstd-frames'
import { counted } from './counted'
import { lineAt } from './log-position'

/** Options of {@link readSessionLog}. */
export interface ReadSessionLogOptions {
  /** Decoder to use (default `auto`). */
  readonly decoder?: DecoderName | 'auto'
  /** The read needs per-frame output ({@link onFrame}, frame numbers in problems): rules out `zstd-cli` under `auto`. */
  readonly needsFrames?: boolean
  /** Which records to parse (default all); see `LogRecordReaderOptions.parse`. */
  readonly parse?: LogRecordReaderOptions['parse']
  /** Expand records into events. */
  readonly expand?: boolean
  /** Line 1, once: the header when it is one (else `null`) and the line as stored. */
  readonly onHeader?: (header: LogHeader | null, text: string) => void
  readonly onRecord?: (record: LogRecord) => void
  /** Runs of stored lines as bytes; see `LogRecordReaderOptions.onLines`. */
  readonly onLines?: (bytes: Uint8Array) => void
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
  /** Seq of the first event, `-1` when none was read (0 in a whole log). */
  readonly firstSeq: number
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

/**
 * Read a session log from its first byte to its last.
 * @param file - from `resolveSessionLog` (`log-file.ts`).
 * @param options - decoder, callbacks and what to parse.
 * @returns header, totals, torn tail and problems. Problems in the log are results; only an
 * unreadable file or an unavailable decoder throws.
 * @throws SessionLogInputError when the file cannot be read; DecoderUnavailableError when the
 * named decoder is not available.
 */
export async function readSessionLog(file: SessionLogFile, options: ReadSessionLogOptions = {}): Promise<SessionLogRead> {
  const reader = new LogRecordReader({ parse: options.parse, expand: options.expand, onRecord: options.onRecord, onHeader: options.onHeader, onLines: options.onLines })
  const chunkBytes = options.chunkBytes ?? DEFAULT_CHUNK_BYTES
  const handle = await openLog(file.path)
  try {
    if (file.format === 'jsonl') return await readPlain(file, handle, reader, chunkBytes, options)
    return await readZstd(file, handle, reader, chunkBytes, options)
  } finally {
    await handle.close()
  }
}

async function readPlain(file: SessionLogFile, handle: LogHandle, reader: LogRecordReader, chunkBytes: number, options: ReadSessionLogOptions): Promise<SessionLogRead> {
  const chunks = new ChunkReader(handle, file.size, chunkBytes, true, options.onProgress)
  let carry: Uint8Array = new Uint8Array(0)
  let consumed = 0
  for (;;) {
    const bytes = await chunks.next(carry)
    if (bytes.length === carry.length) {
      carry = bytes
      break
    }
    const lastBreak = bytes.lastIndexOf(0x0a)
    if (lastBreak !== -1) {
      reader.push(bytes.subarray(0, lastBreak + 1), null, consumed)
      await options.flush?.()
      consumed += lastBreak + 1
    }
    carry = bytes.subarray(lastBreak + 1)
  }
  const totals = reader.finish()
  const tail: TornTail | null =
    carry.length > 0
      ? {
          start: consumed,
          bytes: carry.length,
          line: totals.lines + 1,
          description: `the last record, ${lineAt(totals.lines + 1, null, consumed)}, has no line break: ${counted(carry.length, 'byte')} of an unfinished write`,
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
    firstSeq: totals.firstSeq,
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

async function readZstd(file: SessionLogFile, handle: LogHandle, reader: LogRecordReader, chunkBytes: number, options: ReadSessionLogOptions): Promise<SessionLogRead> {
  const requested = options.decoder ?? 'auto'
  const name: DecoderName = requested === 'auto' ? autoDecoderName(options.needsFrames ?? false) : requested
  if (name === 'zstd-cli' && options.needsFrames) throw new DecoderUnavailableError('decoder "zstd-cli" decodes a run of frames at a time and cannot report frames one by one')
  const cli = name === 'zstd-cli' ? findZstdCli() : null
  if (name === 'zstd-cli' && cli === null) throw new DecoderUnavailableError('decoder "zstd-cli" is not available: no zstd command on PATH')

  const walk = new FrameBatches(new ChunkReader(handle, file.size, chunkBytes, cli === null, options.onProgress), options.magicScan === true, cli === null)
  const tally: DecodeTally = { checked: 0, decodedBytes: 0 }
  const sink = { reader, tally, onFrame: options.onFrame }
  let fallbackUsed = false
  if (cli !== null) {
    fallbackUsed = await decodeBatchesWithZstdCli(walk.batches(), cli, sink, { onRefusal: requested === 'auto' ? 'fzstd' : 'bisect', flush: options.flush })
  } else {
    const decoder: FrameDecoder = await openFrameDecoder(requested === 'auto' ? 'auto' : (name as Exclude<DecoderName, 'zstd-cli'>))
    try {
      // Buffers: the line split uses Buffer's native indexOf.
      const run = new FrameRun((bytes) => Buffer.allocUnsafe(bytes))
      for await (const batch of walk.batches()) {
        decodeBatch(batch, decoder, sink, run)
        await options.flush?.()
      }
    } finally {
      decoder.close()
    }
  }

  const totals = reader.finish()
  const problems = [...totals.problems]
  const stop = walk.stop
  if (stop.kind === 'corrupt') problems.push({ kind: 'corrupt-structure', offset: stop.offset, message: describeFrameStop(stop, file.size) })
  let tail: TornTail | null = null
  if (stop.kind === 'incomplete' && walk.tailBytes !== null) {
    const torn = walk.tailBytes
    const recoverable = options.recoverTail === false ? null : recoverableLines(torn)
    tail = { start: stop.start, bytes: torn.length, description: describeFrameStop(stop, file.size), stop, recoverableLines: recoverable }
  }
  return {
    file,
    decoder: name,
    fallbackDecoder: fallbackUsed ? 'fzstd' : null,
    header: totals.header,
    headerText: totals.headerText,
    lines: totals.lines,
    events: totals.events,
    firstSeq: totals.firstSeq,
    lastSeq: totals.lastSeq,
    frames: walk.frames,
    checkedFrames: tally.checked,
    bytesConsumed: walk.consumed,
    decodedBytes: tally.decodedBytes,
    tail,
    problems,
    magicFalsePositives: walk.falsePositives,
  }
}
