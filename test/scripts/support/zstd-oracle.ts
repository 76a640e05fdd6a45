/**
 * An independent reading of a session.jsonl.zstd file for the log-tool tests, written from the
 * Zstandard format (RFC 8878) and not from the tools' own reader: the frames with their byte
 * ranges, blocks and stored content checksums, each frame decompressed by `node:zlib`, and the
 * state of an incomplete last frame. The tests derive the tools' expected output from it and from
 * what the real backend wrote, so no expected value is computed by the code under test.
 *
 * @module test/scripts/support/zstd-oracle
 */
import { createHash } from 'node:crypto'
import { zstdDecompressSync } from 'node:zlib'

/** One block: where its 3-byte header starts, its payload range, its type. */
export interface OracleBlock {
  readonly header: number
  readonly payloadStart: number
  readonly payloadEnd: number
  readonly last: boolean
}

/** One complete frame. */
export interface OracleFrame {
  readonly index: number
  readonly start: number
  readonly end: number
  readonly blocks: readonly OracleBlock[]
  /** The stored content checksum (the low 32 bits of XXH64, little-endian), or `null` without one. */
  readonly checksum: number | null
  /** The frame decompressed. */
  readonly text: Buffer
}

/** An incomplete last frame: its start and the first block it cannot complete. */
export interface OracleTail {
  /** The incomplete frame's number in the file (the count of complete frames before it). */
  readonly index: number
  readonly start: number
  readonly blocksComplete: number
  /** The incomplete block's index, the start of its payload and the payload bytes it needs. */
  readonly block: { readonly index: number; readonly payloadStart: number; readonly needed: number }
}

const MAGIC = 0xfd2fb528

/** Frame header size from the descriptor byte (RFC 8878 §3.1.1.1). */
function frameHeaderSize(bytes: Buffer, start: number): number {
  const descriptor = bytes[start + 4]!
  const fcsFlag = descriptor >> 6
  const singleSegment = (descriptor >> 5) & 1
  const dictFlag = descriptor & 3
  const window = singleSegment ? 0 : 1
  const dict = [0, 1, 2, 4][dictFlag]!
  const fcs = [singleSegment, 2, 4, 8][fcsFlag]!
  return 4 + 1 + window + dict + fcs
}

/**
 * Walk the frames of a zstd log.
 * @param bytes - the whole file.
 * @returns the complete frames, the incomplete tail (or `null`), and `garbageAt`, the offset of
 * bytes that are not a frame (or `null`).
 */
export function readFrames(bytes: Buffer): { frames: OracleFrame[]; tail: OracleTail | null; garbageAt: number | null } {
  const frames: OracleFrame[] = []
  let at = 0
  while (at < bytes.length) {
    if (at + 4 > bytes.length || bytes.readUInt32LE(at) !== MAGIC) return { frames, tail: null, garbageAt: at }
    const start = at
    const checksumFlag = (bytes[start + 4]! >> 2) & 1
    let cursor = start + frameHeaderSize(bytes, start)
    const blocks: OracleBlock[] = []
    for (;;) {
      const header = bytes.readUIntLE(cursor, 3)
      const last = (header & 1) === 1
      const type = (header >> 1) & 3
      const size = header >> 3
      const payload = type === 1 ? 1 : size
      if (cursor + 3 + payload > bytes.length) {
        return { frames, tail: { index: frames.length, start, blocksComplete: blocks.length, block: { index: blocks.length, payloadStart: cursor + 3, needed: payload } }, garbageAt: null }
      }
      blocks.push({ header: cursor, payloadStart: cursor + 3, payloadEnd: cursor + 3 + payload, last })
      cursor += 3 + payload
      if (last) break
    }
    const end = cursor + (checksumFlag ? 4 : 0)
    const frame = bytes.subarray(start, end)
    frames.push({ index: frames.length, start, end, blocks, checksum: checksumFlag ? bytes.readUInt32LE(end - 4) : null, text: zstdDecompressSync(frame) })
    at = end
  }
  return { frames, tail: null, garbageAt: null }
}

/** Lines (line breaks) in a text. */
export function lineCount(text: Buffer | string): number {
  const buffer = typeof text === 'string' ? Buffer.from(text) : text
  let count = 0
  for (let i = buffer.indexOf(0x0a); i !== -1; i = buffer.indexOf(0x0a, i + 1)) count++
  return count
}

/** The first 16 hex digits of a text's SHA-256. */
export function sha256Prefix(text: Buffer | string): string {
  return createHash('sha256').update(text).digest('hex').slice(0, 16)
}
