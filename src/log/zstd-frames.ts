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
 * Walk the frames in `bytes` from its first byte.
 * @param bytes - file bytes that begin at a frame boundary (offset `baseOffset` in the file).
 * @param options - absolute offset and frame numbering of `bytes[0]`.
 * @returns the complete frames, the offset after the last one, and why scanning stopped. An
 * incomplete final frame and corrupt structure are results, never exceptions; a corrupt header
 * stops the scan (nothing after it can be located reliably).
 */
export function scanZstdFrames(bytes: Uint8Array, options: FrameScanOptions = {}): FrameScan {
  const base = options.baseOffset ?? 0
  let index = options.firstIndex ?? 0
  const frames: ZstdFrame[] = []
  let offset = 0
  const length = bytes.length
  const incomplete = (start: number, part: FramePart, at: number, needed: number | null, blocksComplete: number): FrameScan => ({
    frames,
    next: base + start,
    stop: { kind: 'incomplete', start: base + start, part, at: base + at, needed, blocksComplete },
  })
  const corrupt = (start: number, at: number, reason: string): FrameScan => ({
    frames,
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
      frames.push({ index: index++, start: base + start, end: base + offset, kind: 'skippable', contentSize: null, windowSize: null, checksum: null, blocks: 0 })
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
    let windowSize: number | null = null
    if (!singleSegment) {
      const windowDescriptor = bytes[cursor]!
      const exponent = windowDescriptor >>> 3
      const windowBase = 2 ** (10 + exponent)
      windowSize = windowBase + (windowBase / 8) * (windowDescriptor & 0x07)
      cursor += 1
    }
    cursor += dictionaryBytes
    let contentSize: number | null = null
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
      if (type !== 1 && size > MAX_BLOCK_BYTES) return corrupt(start, offset, `block ${blocks} declares ${size} bytes (at most ${MAX_BLOCK_BYTES})`)
      const payload = type === 1 ? 1 : size
      if (length - offset - 3 < payload) return incomplete(start, 'block', offset + 3, payload, blocks)
      offset += 3 + payload
      blocks++
      if (last) break
    }
    let checksum: number | null = null
    if (hasChecksum) {
      if (length - offset < 4) return incomplete(start, 'checksum', offset, 4, blocks)
      checksum = u32(bytes, offset)
      offset += 4
    }
    frames.push({ index: index++, start: base + start, end: base + offset, kind: 'zstd', contentSize, windowSize, checksum, blocks })
  }
  return { frames, next: base + offset, stop: { kind: 'end' } }
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
 * @returns e.g. `frame at byte 1200 is incomplete: block 2 payload needs 97 bytes from byte 1290, the file ends at byte 1349`.
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
  const needs = stop.needed === null ? '' : ` needs ${stop.needed} bytes`
  return `frame at byte ${stop.start} is incomplete: ${what[stop.part]}${needs} from byte ${stop.at}, the file ends at byte ${fileSize} (${fileSize - stop.start} bytes of the frame present, ${stop.blocksComplete} complete blocks)`
}
