/**
 * Zstandard frame headers walked without decompressing anything: exact byte ranges of the
 * frames in a `session.jsonl.zstd` log, and a precise account of where the bytes stop when the
 * final frame is incomplete (a log still being written) or the structure is corrupt.
 *
 * An rc.8 log is concatenated independent frames: one holding the header line, then one per
 * durable append batch, each with an XXH64 checksum (`dsh-session-persistence-jsonl/lib/index.js`,
 * `compressZstdFrame` and `scanZstdFrames`). Frames are found by walking each frame header and
 * block header to the next frame, never by searching for the magic number: compressed payload,
 * checksums and header fields can contain the bytes `28 b5 2f fd` anywhere, and a magic search
 * would split the file there.
 *
 * Structure follows RFC 8878 §3.1 (frame header, block headers, content checksum) and §3.1.2
 * (skippable frames). Pure and browser-safe: no Node built-ins.
 *
 * @module dsh-message-recall/log/zstd-frames
 */
import { counted } from './counted'
import { frameAt } from './log-position'

/** The four magic bytes that open every Zstandard data frame, in file order (RFC 8878 §3.1.1). */
export const ZSTD_MAGIC_BYTES: Readonly<Uint8Array> = Uint8Array.of(0x28, 0xb5, 0x2f, 0xfd)

/** The same magic number read as a little-endian 32-bit value (`0xfd2fb528`). */
export const ZSTD_FRAME_MAGIC = (ZSTD_MAGIC_BYTES[0]! | (ZSTD_MAGIC_BYTES[1]! << 8) | (ZSTD_MAGIC_BYTES[2]! << 16) | (ZSTD_MAGIC_BYTES[3]! << 24)) >>> 0

/** Largest block a valid frame may declare, in decompressed bytes (RFC 8878 §3.1.1.2.3). */
export const MAX_BLOCK_BYTES = 128 * 1024

/** One complete frame. Offsets are absolute byte offsets in the file; `end` is exclusive. */
export interface ZstdFrame {
  /** Position in the file, 0-based (the header frame of an rc.8 log is frame 0). */
  readonly index: number
  readonly start: number
  readonly end: number
  /** `zstd` for a data frame; `skippable` for a skippable frame (no output). */
  readonly kind: 'zstd' | 'skippable'
  /** Decompressed size declared in the frame header, or `null` when the header omits it. */
  readonly contentSize: number | null
  /** Window size in bytes declared by the header (`null` for skippable frames). */
  readonly windowSize: number | null
  /** Stored XXH64 content checksum (its low 32 bits, as stored), or `null` when the frame has none. */
  readonly checksum: number | null
  /** Number of blocks in the frame (0 for skippable frames). */
  readonly blocks: number
}

/** The part of a frame the bytes ran out in. */
export type FramePart = 'magic' | 'frame-header' | 'block-header' | 'block' | 'checksum' | 'skippable-payload'

/**
 * Where scanning stopped:
 * - `end`: every byte was consumed by complete frames;
 * - `incomplete`: the bytes end inside the frame that begins at `start` (a torn tail when no more
 *   bytes will come);
 * - `corrupt`: the bytes at `offset` cannot be a frame or block header.
 */
export type FrameScanStop =
  | { readonly kind: 'end' }
  | {
      readonly kind: 'incomplete'
      /** The number the incomplete frame has in the file (the count of frames before it). */
      readonly index: number
      /** Absolute offset of the incomplete frame. */
      readonly start: number
      /** The part that is cut short. */
      readonly part: FramePart
      /** Absolute offset where the cut part begins. */
      readonly at: number
      /** Bytes that part needs in total (payload size, header size), when known. */
      readonly needed: number | null
      /** Blocks of the incomplete frame that are complete. */
      readonly blocksComplete: number
    }
  | { readonly kind: 'corrupt'; readonly offset: number; readonly reason: string }

/** Result of {@link scanZstdFrames}. */
export interface FrameScan {
  readonly frames: ZstdFrame[]
  /** Absolute offset just past the last complete frame (where a later scan resumes). */
  readonly next: number
  readonly stop: FrameScanStop
}

/** Options of {@link scanZstdFrames}. */
export interface FrameScanOptions {
  /** Absolute file offset of `bytes[0]` (default 0). */
  readonly baseOffset?: number
  /** Index given to the first frame found (default 0). */
  readonly firstIndex?: number
}

const SKIPPABLE_MASK = 0xfffffff0
const SKIPPABLE_MAGIC = 0x184d2a50

function u32(bytes: Uint8Array, at: number): number {
  return (bytes[at]! | (bytes[at + 1]! << 8) | (bytes[at + 2]! << 16) | (bytes[at + 3]! << 24)) >>> 0
}

function uintLE(bytes: Uint8Array, at: number, size: number): number {
  let value = 0
  for (let i = size - 1; i >= 0; i--) value = value * 256 + bytes[at + i]!
  return value
}

/**
 * Complete frames of one walk, held column by column in typed arrays that grow and are reused
 * from walk to walk, so walking a log makes no object per frame. Frame `i` (0 ≤ i < `count`) is
 * file frame `firstIndex + i`; {@link frame} builds the {@link ZstdFrame} of one when a caller
 * needs it. Absent values (a skippable frame's window, a header without content size, a frame
 * without checksum) are stored as `-1`.
 */
export class FrameTable {
  /** Frames held. */
  count = 0
  /** File index of frame 0 of the table. */
  firstIndex = 0
  /** Absolute start and (exclusive) end offsets. */
  start = new Float64Array(256)
  end = new Float64Array(256)
  /** `1` for a skippable frame, `0` for a data frame. */
  skippable = new Uint8Array(256)
  contentSize = new Float64Array(256)
  windowSize = new Float64Array(256)
  checksum = new Float64Array(256)
  blocks = new Uint32Array(256)

  /** Empty the table; the next frame added is file frame `firstIndex`. */
  reset(firstIndex: number): void {
    this.count = 0
    this.firstIndex = firstIndex
  }

  /** Append one frame (offsets absolute; `-1` for an absent value). */
  add(start: number, end: number, skippable: boolean, contentSize: number, windowSize: number, checksum: number, blocks: number): void {
    if (this.count === this.start.length) this.grow()
    const i = this.count++
    this.start[i] = start
    this.end[i] = end
    this.skippable[i] = skippable ? 1 : 0
    this.contentSize[i] = contentSize
    this.windowSize[i] = windowSize
    this.checksum[i] = checksum
    this.blocks[i] = blocks
  }

  /** Frame `i` of the table as an object. */
  frame(i: number): ZstdFrame {
    const orNull = (value: number): number | null => (value < 0 ? null : value)
    return {
      index: this.firstIndex + i,
      start: this.start[i]!,
      end: this.end[i]!,
      kind: this.skippable[i] === 1 ? 'skippable' : 'zstd',
      contentSize: orNull(this.contentSize[i]!),
      windowSize: orNull(this.windowSize[i]!),
      checksum: orNull(this.checksum[i]!),
      blocks: this.blocks[i]!,
    }
  }

  /** Every frame of the table as objects, in order. */
  frames(): ZstdFrame[] {
    return Array.from({ length: this.count }, (_, i) => this.frame(i))
  }

  private grow(): void {
    const size = this.start.length * 2
    const widen = <T extends Float64Array | Uint8Array | Uint32Array>(old: T, make: (n: number) => T): T => {
      const next = make(size)
      next.set(old)
      return next
    }
    this.start = widen(this.start, (n) => new Float64Array(n))
    this.end = widen(this.end, (n) => new Float64Array(n))
    this.skippable = widen(this.skippable, (n) => new Uint8Array(n))
    this.contentSize = widen(this.contentSize, (n) => new Float64Array(n))
    this.windowSize = widen(this.windowSize, (n) => new Float64Array(n))
    this.checksum = widen(this.checksum, (n) => new Float64Array(n))
    this.blocks = widen(this.blocks, (n) => new Uint32Array(n))
  }
}

/** Scratch table of {@link scanZstdFrames}; one grown by a scan of a whole large file is not kept. */
let scanTable = new FrameTable()

/** Where a walk ended: the offset after the last complete frame and why it stopped. */
export interface FrameWalkEnd {
  /** Absolute offset just past the last complete frame (where a later walk resumes). */
  readonly next: number
  readonly stop: FrameScanStop
}

/**
 * Walk the frames in `bytes` from its first byte.
 * @param bytes - file bytes that begin at a frame boundary (offset `baseOffset` in the file).
 * @param options - absolute offset and frame numbering of `bytes[0]`.
 * @returns the complete frames, the offset after the last one, and why scanning stopped. An
 * incomplete final frame and corrupt structure are results, never exceptions; a corrupt header
 * stops the scan (nothing after it can be located reliably).
 */
export function scanZstdFrames(bytes: Uint8Array, options: FrameScanOptions = {}): FrameScan {
  // One scratch table for every scan: a scan is synchronous and returns objects, not the table.
  const table = scanTable
  table.reset(options.firstIndex ?? 0)
  const { next, stop } = walkZstdFrames(bytes, table, options.baseOffset ?? 0)
  const frames = table.frames()
  if (table.start.length > 4096) scanTable = new FrameTable()
  return { frames, next, stop }
}

/**
 * Walk the frames in `bytes` from its first byte into `table` (after the frames it holds), the
 * way {@link scanZstdFrames} does, without an object per frame.
 * @param bytes - file bytes that begin at a frame boundary.
 * @param table - receives the complete frames; reset it first to start a new batch.
 * @param base - absolute file offset of `bytes[0]`.
 * @returns the offset after the last complete frame and why the walk stopped (never throws).
 */
export function walkZstdFrames(bytes: Uint8Array, table: FrameTable, base: number): FrameWalkEnd {
  let offset = 0
  const length = bytes.length
  const incomplete = (start: number, part: FramePart, at: number, needed: number | null, blocksComplete: number): FrameWalkEnd => ({
    next: base + start,
    stop: { kind: 'incomplete', index: table.firstIndex + table.count, start: base + start, part, at: base + at, needed, blocksComplete },
  })
  const corrupt = (start: number, at: number, reason: string): FrameWalkEnd => ({
    next: base + start,
    stop: { kind: 'corrupt', offset: base + at, reason },
  })

  while (offset < length) {
    const start = offset
    if (length - offset < 4) return incomplete(start, 'magic', offset, 4, 0)
    const magic = u32(bytes, offset)
    if ((magic & SKIPPABLE_MASK) >>> 0 === SKIPPABLE_MAGIC) {
      if (length - offset < 8) return incomplete(start, 'frame-header', offset + 4, 4, 0)
      const size = u32(bytes, offset + 4)
      if (length - offset - 8 < size) return incomplete(start, 'skippable-payload', offset + 8, size, 0)
      offset += 8 + size
      table.add(base + start, base + offset, true, -1, -1, -1, 0)
      continue
    }
    if (magic !== ZSTD_FRAME_MAGIC) {
      return corrupt(start, offset, `invalid frame magic 0x${magic.toString(16).padStart(8, '0')} (expected 28 b5 2f fd)`)
    }
    offset += 4
    if (offset === length) return incomplete(start, 'frame-header', offset, null, 0)
    const descriptor = bytes[offset]!
    if ((descriptor & 0x08) !== 0) return corrupt(start, offset, 'reserved bit set in the frame header descriptor')
    const contentSizeFlag = descriptor >>> 6
    const singleSegment = (descriptor & 0x20) !== 0
    const hasChecksum = (descriptor & 0x04) !== 0
    const dictionaryFlag = descriptor & 0x03
    const dictionaryBytes = dictionaryFlag === 3 ? 4 : dictionaryFlag
    const contentSizeBytes = contentSizeFlag === 0 ? (singleSegment ? 1 : 0) : 1 << contentSizeFlag
    const headerBytes = 1 + (singleSegment ? 0 : 1) + dictionaryBytes + contentSizeBytes
    if (length - offset < headerBytes) return incomplete(start, 'frame-header', offset, headerBytes, 0)
    let cursor = offset + 1
    let windowSize = -1
    if (!singleSegment) {
      const windowDescriptor = bytes[cursor]!
      const exponent = windowDescriptor >>> 3
      const windowBase = exponent <= 20 ? 1 << (10 + exponent) : 2 ** (10 + exponent)
      windowSize = windowBase + (windowBase / 8) * (windowDescriptor & 0x07)
      cursor += 1
    }
    cursor += dictionaryBytes
    let contentSize = -1
    if (contentSizeBytes > 0) {
      contentSize = uintLE(bytes, cursor, contentSizeBytes) + (contentSizeBytes === 2 ? 256 : 0)
      cursor += contentSizeBytes
    }
    if (singleSegment) windowSize = contentSize
    offset = cursor
    let blocks = 0
    for (;;) {
      if (length - offset < 3) return incomplete(start, 'block-header', offset, 3, blocks)
      const header = bytes[offset]! | (bytes[offset + 1]! << 8) | (bytes[offset + 2]! << 16)
      const last = (header & 1) === 1
      const type = (header >>> 1) & 3
      const size = header >>> 3
      if (type === 3) return corrupt(start, offset, `reserved block type in block ${blocks} of the frame`)
      if (type !== 1 && size > MAX_BLOCK_BYTES) return corrupt(start, offset, `block ${blocks} declares ${counted(size, 'byte')} (at most ${MAX_BLOCK_BYTES})`)
      const payload = type === 1 ? 1 : size
      if (length - offset - 3 < payload) return incomplete(start, 'block', offset + 3, payload, blocks)
      offset += 3 + payload
      blocks++
      if (last) break
    }
    let checksum = -1
    if (hasChecksum) {
      if (length - offset < 4) return incomplete(start, 'checksum', offset, 4, blocks)
      checksum = u32(bytes, offset)
      offset += 4
    }
    table.add(base + start, base + offset, false, contentSize, windowSize, checksum, blocks)
  }
  return { next: base + offset, stop: { kind: 'end' } }
}

/**
 * Offsets where the four magic bytes occur in `bytes` but no frame starts: the places where a
 * splitter that searches for the magic number would cut a frame in two.
 * @param bytes - file bytes starting at offset `baseOffset`.
 * @param frameStarts - absolute offsets where frames really start.
 * @param baseOffset - absolute offset of `bytes[0]` (default 0).
 * @returns absolute offsets, ascending.
 */
export function magicFalsePositives(bytes: Uint8Array, frameStarts: ReadonlySet<number>, baseOffset = 0): number[] {
  const out: number[] = []
  const [m0, m1, m2, m3] = ZSTD_MAGIC_BYTES as Uint8Array
  for (let i = bytes.indexOf(m0!); i !== -1 && i + 3 < bytes.length; i = bytes.indexOf(m0!, i + 1)) {
    if (bytes[i + 1] === m1 && bytes[i + 2] === m2 && bytes[i + 3] === m3 && !frameStarts.has(baseOffset + i)) out.push(baseOffset + i)
  }
  return out
}

/**
 * One sentence for a stop that is not `end`, naming the byte offsets.
 * @param stop - an `incomplete` or `corrupt` stop from {@link scanZstdFrames}.
 * @param fileSize - total bytes in the file, to say how many bytes the torn frame holds.
 * @returns e.g. `frame 5 at byte 1200 is incomplete: block 2 payload needs 97 bytes from byte 1290, the file ends at byte 1349 (149 bytes of the frame present, 2 complete blocks)`
 *   (the frame named as {@link frameAt} names it).
 */
export function describeFrameStop(stop: Exclude<FrameScanStop, { kind: 'end' }>, fileSize: number): string {
  if (stop.kind === 'corrupt') return `corrupt Zstandard structure at byte ${stop.offset}: ${stop.reason}`
  const what: Record<FramePart, string> = {
    magic: 'frame magic',
    'frame-header': 'frame header',
    'block-header': `block ${stop.blocksComplete} header`,
    block: `block ${stop.blocksComplete} payload`,
    checksum: 'content checksum',
    'skippable-payload': 'skippable frame payload',
  }
  const needs = stop.needed === null ? '' : ` needs ${counted(stop.needed, 'byte')}`
  return `${frameAt(stop.index, stop.start)} is incomplete: ${what[stop.part]}${needs} from byte ${stop.at}, the file ends at byte ${fileSize} (${counted(fileSize - stop.start, 'byte')} of the frame present, ${counted(stop.blocksComplete, 'complete block')})`
}
