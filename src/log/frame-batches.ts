/**
 * Complete zstd frames of a log file, batch by batch as the file is read, and their decoding one
 * frame at a time into the record reader (with a decoder that can append, the frames of a batch
 * are decoded back to back into one reused buffer and read as one run, {@link FrameRun}). A batch is the complete frames of one chunk read (plus
 * the carried start of a frame cut by the previous read), so decoding a batch needs no await.
 * Where the walk stops (the end, a torn final frame, corrupt structure) is kept for the caller.
 *
 * Pure: the file is read through a {@link ChunkReader}.
 *
 * @module dsh-message-recall/log/frame-batches
 */
import { PlaintextRun, type FrameDecoder } from './frame-decoder'
import type { ChunkReader } from './log-file'
import type { LogRecordReader } from './log-frames'
import { frameAt } from './log-position'
import { FrameTable, magicFalsePositives, walkZstdFrames, type FrameScanStop, type ZstdFrame } from './zstd-frames'

/** Complete frames of one chunk read, the bytes they span, and the file offset of those bytes. */
export interface FrameBatch {
  /** The frames, column by column (valid as long as `bytes`). */
  readonly table: FrameTable
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

  /** The table every batch reuses (with `reuse`). */
  private readonly shared = new FrameTable()

  /**
   * @param chunks - the file, read in chunks that may reuse one buffer.
   * @param magicScan - look for the magic number inside frames.
   * @param reuse - `true` to walk every batch into one frame table (a batch is then only valid
   *   until the next is requested, like the chunks of a reusing chunk reader); `false` for a
   *   table per batch.
   */
  constructor(
    private readonly chunks: ChunkReader,
    private readonly magicScan: boolean,
    private readonly reuse = true,
  ) {}

  /**
   * Complete frames in file order, one batch per chunk read. A batch's bytes and table stay
   * valid until the next batch is requested, unless made with `reuse: false` (and a chunk reader
   * with `reuse: false`).
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
      const table = this.reuse ? this.shared : new FrameTable()
      table.reset(this.frames)
      const scan = walkZstdFrames(bytes, table, carryAt)
      if (this.magicScan && table.count > 0) {
        const starts = new Set(table.start.subarray(0, table.count))
        this.falsePositives.push(...magicFalsePositives(bytes.subarray(0, scan.next - carryAt), starts, carryAt))
      }
      if (table.count > 0) {
        this.frames += table.count
        this.consumed = scan.next
        yield { table, bytes: bytes.subarray(0, scan.next - carryAt), at: carryAt }
      }
      if (scan.stop.kind === 'corrupt') {
        this.stop = scan.stop
        return
      }
      carry = bytes.subarray(scan.next - carryAt)
      carryAt = scan.next
    }
    if (carry.length > 0) {
      const table = new FrameTable()
      table.reset(this.frames)
      this.stop = walkZstdFrames(carry, table, carryAt).stop
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

/** Plaintext bytes after which a run of decoded frames goes to the reader. */
const RUN_BYTES = 1024 * 1024

/**
 * Frames decoded back to back into one buffer ({@link FrameDecoder.appendTo}) before they go to
 * the reader in one {@link LogRecordReader.pushFrames} call; reused from batch to batch.
 */
export class FrameRun {
  readonly plaintext: PlaintextRun
  count = 0
  ends = new Float64Array(1024)
  frames = new Float64Array(1024)
  offsets = new Float64Array(1024)

  /** @param allocate - makes the plaintext buffer; see {@link PlaintextRun}. */
  constructor(allocate?: (bytes: number) => Uint8Array) {
    this.plaintext = new PlaintextRun(RUN_BYTES + 256 * 1024, allocate)
  }

  /** Note the frame whose plaintext was just appended. */
  add(frame: number, offset: number): void {
    if (this.count === this.ends.length) {
      const widen = (old: Float64Array) => {
        const next = new Float64Array(old.length * 2)
        next.set(old)
        return next
      }
      this.ends = widen(this.ends)
      this.frames = widen(this.frames)
      this.offsets = widen(this.offsets)
    }
    const k = this.count++
    this.ends[k] = this.plaintext.length
    this.frames[k] = frame
    this.offsets[k] = offset
  }

  /** Hand the frames appended so far to the reader and start an empty run. */
  flush(reader: LogRecordReader): void {
    if (this.count > 0) reader.pushFrames(this.plaintext.bytes, this)
    this.count = 0
    this.plaintext.length = 0
  }
}

/**
 * Decode a batch's frames one by one, pushing each frame's text to the reader and reporting each
 * frame that fails (as a `frame-failed` problem and a failed {@link FrameReport}). With a
 * decoder that appends (`appendTo`), a `run` and no `onFrame`, the frames are decoded back to
 * back into the run and reach the reader a run at a time, with the same records and problems.
 */
export function decodeBatch(batch: FrameBatch, decoder: FrameDecoder, sink: FrameSink, run?: FrameRun): void {
  if (run !== undefined && decoder.appendTo !== undefined && sink.onFrame === undefined) {
    decodeBatchIntoRun(batch, decoder, sink, run)
    return
  }
  const { reader, tally, onFrame } = sink
  const { table, bytes, at } = batch
  const { start, end, skippable, checksum } = table
  const verifies = decoder.verifiesChecksum
  for (let i = 0; i < table.count; i++) {
    const firstLine = reader.lineCount + 1
    if (skippable[i] === 1) {
      onFrame?.({ frame: table.frame(i), decodedBytes: 0, firstLine, lastLine: firstLine - 1 })
      continue
    }
    const index = table.firstIndex + i
    const byte = start[i]!
    let plaintext: Uint8Array
    try {
      plaintext = decoder.decode(bytes, byte - at, end[i]! - at)
    } catch (error) {
      const message = (error as Error).message
      reader.report({ kind: 'frame-failed', at: { line: firstLine, frame: index, byte }, message: `${frameAt(index, byte)} failed to decode: ${message}` })
      onFrame?.({ frame: table.frame(i), decodedBytes: null, firstLine, lastLine: firstLine - 1, error: message })
      continue
    }
    if (verifies && checksum[i]! >= 0) tally.checked++
    tally.decodedBytes += plaintext.length
    reader.push(plaintext, index, byte, true)
    onFrame?.({ frame: table.frame(i), decodedBytes: plaintext.length, firstLine, lastLine: reader.lineCount })
  }
}

function decodeBatchIntoRun(batch: FrameBatch, decoder: FrameDecoder, sink: FrameSink, run: FrameRun): void {
  const { reader, tally } = sink
  const { table, bytes, at } = batch
  const { start, end, skippable, checksum } = table
  const plaintext = run.plaintext
  const verifies = decoder.verifiesChecksum
  for (let i = 0; i < table.count; i++) {
    if (skippable[i] === 1) continue
    const index = table.firstIndex + i
    const byte = start[i]!
    const before = plaintext.length
    try {
      decoder.appendTo!(plaintext, bytes, byte - at, end[i]! - at)
    } catch (error) {
      // The lines before the frame are read first, so the problem names the line it stops at.
      run.flush(reader)
      const message = (error as Error).message
      reader.report({ kind: 'frame-failed', at: { line: reader.lineCount + 1, frame: index, byte }, message: `${frameAt(index, byte)} failed to decode: ${message}` })
      continue
    }
    if (verifies && checksum[i]! >= 0) tally.checked++
    tally.decodedBytes += plaintext.length - before
    run.add(index, byte)
    if (plaintext.length >= RUN_BYTES) run.flush(reader)
  }
  run.flush(reader)
}
