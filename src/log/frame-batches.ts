/**
 * Complete zstd frames of a log file, batch by batch as the file is read, and their decoding one
 * frame at a time into the record reader. A batch is the complete frames of one chunk read (plus
 * the carried start of a frame cut by the previous read), so decoding a batch needs no await.
 * Where the walk stops (the end, a torn final frame, corrupt structure) is kept for the caller.
 *
 * Pure: the file is read through a {@link ChunkReader}.
 *
 * @module dsh-message-recall/log/frame-batches
 */
import type { FrameDecoder } from './frame-decoder'
import type { ChunkReader } from './log-file'
import type { LogRecordReader } from './log-frames'
import { magicFalsePositives, scanZstdFrames, type FrameScanStop, type ZstdFrame } from './zstd-frames'

/** Complete frames of one chunk read, the bytes they span, and the file offset of those bytes. */
export interface FrameBatch {
  readonly frames: ZstdFrame[]
  readonly bytes: Uint8Array
  /** Absolute file offset of `bytes[0]`. */
  readonly at: number
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

/**
 * Walks the frames of a file as its chunks arrive. Iterate {@link batches} once; afterwards
 * {@link stop}, {@link tailBytes} and the counters describe the whole file.
 */
export class FrameBatches {
  /** Complete frames found. */
  frames = 0
  /** Bytes covered by complete frames. */
  consumed = 0
  /** Why the walk ended: `end`, `incomplete` (a torn tail) or `corrupt`. */
  stop: FrameScanStop = { kind: 'end' }
  /** Bytes from the start of the incomplete final frame to the end of the file, when there is one. */
  tailBytes: Uint8Array | null = null
  /** With `magicScan`: offsets of the magic number that are not frame starts. */
  readonly falsePositives: number[] = []

  /**
   * @param chunks - the file, read in chunks that may reuse one buffer.
   * @param magicScan - look for the magic number inside frames.
   */
  constructor(
    private readonly chunks: ChunkReader,
    private readonly magicScan: boolean,
  ) {}

  /**
   * Complete frames in file order, one batch per chunk read. A batch's bytes stay valid until
   * the next batch is requested, unless the chunk reader was made with `reuse: false`.
   */
  async *batches(): AsyncGenerator<FrameBatch> {
    let carry: Uint8Array = new Uint8Array(0)
    let carryAt = 0
    for (;;) {
      const bytes = await this.chunks.next(carry)
      if (bytes.length === carry.length) {
        carry = bytes
        break
      }
      const scan = scanZstdFrames(bytes, { baseOffset: carryAt, firstIndex: this.frames })
      if (this.magicScan && scan.frames.length > 0) {
        const starts = new Set(scan.frames.map((f) => f.start))
        this.falsePositives.push(...magicFalsePositives(bytes.subarray(0, scan.next - carryAt), starts, carryAt))
      }
      if (scan.frames.length > 0) {
        this.frames += scan.frames.length
        this.consumed = scan.next
        yield { frames: scan.frames, bytes: bytes.subarray(0, scan.next - carryAt), at: carryAt }
      }
      if (scan.stop.kind === 'corrupt') {
        this.stop = scan.stop
        return
      }
      carry = bytes.subarray(scan.next - carryAt)
      carryAt = scan.next
    }
    if (carry.length > 0) {
      const scan = scanZstdFrames(carry, { baseOffset: carryAt, firstIndex: this.frames })
      this.stop = scan.stop
      this.tailBytes = new Uint8Array(carry)
      if (this.magicScan) this.falsePositives.push(...magicFalsePositives(carry, new Set([carryAt]), carryAt))
    }
  }
}

/** Counts kept while frames are decoded. */
export interface DecodeTally {
  /** Frames whose checksum was verified. */
  checked: number
  /** Plaintext bytes decoded. */
  decodedBytes: number
}

/** Where decoded frames go. */
export interface FrameSink {
  readonly reader: LogRecordReader
  readonly tally: DecodeTally
  readonly onFrame?: ((report: FrameReport) => void) | undefined
}

/**
 * Decode a batch's frames one by one, pushing each frame's text to the reader and reporting each
 * frame that fails (as a `frame-failed` problem and a failed {@link FrameReport}).
 */
export function decodeBatch(batch: FrameBatch, decoder: FrameDecoder, sink: FrameSink): void {
  const { reader, tally, onFrame } = sink
  for (const frame of batch.frames) {
    const firstLine = reader.lineCount + 1
    if (frame.kind === 'skippable') {
      onFrame?.({ frame, decodedBytes: 0, firstLine, lastLine: firstLine - 1 })
      continue
    }
    let plaintext: Uint8Array
    try {
      plaintext = decoder.decode(batch.bytes, frame.start - batch.at, frame.end - batch.at)
    } catch (error) {
      const message = (error as Error).message
      reader.report({ kind: 'frame-failed', at: { line: firstLine, frame: frame.index, byte: frame.start }, message: `frame ${frame.index} at byte ${frame.start} failed to decode: ${message}` })
      onFrame?.({ frame, decodedBytes: null, firstLine, lastLine: firstLine - 1, error: message })
      continue
    }
    if (decoder.verifiesChecksum && frame.checksum !== null) tally.checked++
    tally.decodedBytes += plaintext.length
    reader.push(plaintext, frame.index, frame.start, true)
    onFrame?.({ frame, decodedBytes: plaintext.length, firstLine, lastLine: reader.lineCount })
  }
}
