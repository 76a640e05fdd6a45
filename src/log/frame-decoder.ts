/**
 * Decoding one Zstandard frame at a time, and the portable decoder: `fzstd` (pure JavaScript,
 * runs on Node 20 and in browsers) with the frame's XXH64 content checksum verified through
 * `xxhash-wasm`, since fzstd reads past checksums without checking them.
 *
 * Frames are always decoded one by one, on ranges found by `scanZstdFrames`: Node's one-shot
 * `zstdDecompressSync` and its streaming decoder stop silently after the first frame of a
 * concatenated file, and frame-by-frame decoding is what lets a reader name
 * the frame and byte offset that failed. The native decoders live in `frame-decoder-node.ts`.
 *
 * fzstd allocates a window for every frame it decodes (2 MiB for the frames the rc.8 backend
 * writes, which declare no content size), so it is the slow path for logs of many small frames.
 *
 * @module dsh-message-recall/log/frame-decoder
 */
import { decompress } from 'fzstd'
import xxhash from 'xxhash-wasm'
import { scanZstdFrames } from './zstd-frames'

/** Names of the decoders, in the order `auto` prefers them. */
export const DECODER_NAMES = ['zlib', 'zlib-oneshot', 'zstd-cli', 'fzstd'] as const

/**
 * A decoder name:
 * - `zlib`: Node ≥ 22.15 `node:zlib` zstd with one native context reused for every frame;
 * - `zlib-oneshot`: `node:zlib` `zstdDecompressSync` per frame (a fresh context each time);
 * - `zstd-cli`: the `zstd` command-line tool, one run per batch of complete frames (no per-frame output);
 * - `fzstd`: the pure-JavaScript decoder (Node 20, browsers).
 */
export type DecoderName = (typeof DECODER_NAMES)[number]

/** A decoder was asked for by name but this runtime does not have it. */
export class DecoderUnavailableError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'DecoderUnavailableError'
  }
}

/** Decodes single, complete frames. */
export interface FrameDecoder {
  readonly name: DecoderName
  /** `true` when {@link decode} verifies the frame's content checksum. */
  readonly verifiesChecksum: boolean
  /**
   * Decode one complete frame.
   * @param source - bytes holding the frame.
   * @param start - offset of the frame in `source` (default 0).
   * @param end - offset just past it (default `source.length`): exactly one scanned frame.
   * @returns the plaintext; the view may be reused by the next call, so copy what must outlive it.
   * @throws when the frame fails to decode or its checksum does not match.
   */
  decode(source: Uint8Array, start?: number, end?: number): Uint8Array
  /** Release native resources; further calls to {@link decode} throw. */
  close(): void
}

/** Stored checksum of a frame: the last four bytes, when the descriptor's checksum flag is set. */
function storedChecksum(frame: Uint8Array): number | null {
  if (frame.length < 9) return null
  if ((frame[4]! & 0x04) === 0) return null
  const at = frame.length - 4
  return (frame[at]! | (frame[at + 1]! << 8) | (frame[at + 2]! << 16) | (frame[at + 3]! << 24)) >>> 0
}

function hex32(value: number): string {
  return '0x' + value.toString(16).padStart(8, '0')
}

/**
 * The output view handed to fzstd. fzstd tells its buffer argument from a "size known" flag with
 * `w == 1`; for a plain typed array that comparison converts the whole array to a string of its
 * bytes. This class compares as `NaN` instead.
 */
class FzstdOutput extends Uint8Array {
  [Symbol.toPrimitive](): number {
    return Number.NaN
  }
}

/** Largest decoded size of one block (RFC 8878 §3.1.1.2.3); fzstd also stages literals in that span. */
const BLOCK_BYTES = 128 * 1024

/** Frame header facts the reused-window decoding needs. */
function frameFacts(frame: Uint8Array): { contentSize: number | null; blocks: number } | null {
  const scanned = scanZstdFrames(frame).frames[0]
  if (scanned === undefined || scanned.kind !== 'zstd') return null
  return { contentSize: scanned.contentSize, blocks: scanned.blocks }
}

/** Options of {@link createFzstdDecoder}. */
export interface FzstdDecoderOptions {
  /**
   * `true` (default): decode into one reused window. `false`: let fzstd allocate its own window
   * for every frame (how this decoder worked before; kept for the benchmark's comparison).
   */
  readonly reuseWindow?: boolean
}

/**
 * Create the portable decoder (fzstd, checksums through xxhash-wasm).
 *
 * With the reused window, a frame that declares its content size is decoded into exactly that
 * many bytes of one buffer. A frame that does not (every frame rc.8 writes) is decoded into a
 * zeroed span of the buffer, `blocks × 128 KiB` long, and its length read as the first zero byte
 * after the output: JSONL text holds no zero bytes. The frame's XXH64 checksum then confirms
 * that length and content; when it does not match, or the frame has no checksum, the frame is
 * decoded again with a window of its own, so the result is always fzstd's own. The buffer grows
 * to the largest frame seen and is zeroed again after each frame (the output and fzstd's literal
 * staging span).
 *
 * @returns a decoder that verifies each frame's XXH64 checksum (its low 32 bits, RFC 8878 §3.1.1).
 */
export async function createFzstdDecoder(options: FzstdDecoderOptions = {}): Promise<FrameDecoder> {
  const { h64Raw } = await xxhash()
  const reuse = options.reuseWindow ?? true
  let window = new FzstdOutput(BLOCK_BYTES * 2)
  /** Spans of `window` the last frame wrote, zeroed before the next one: `[start, end)` pairs. */
  let dirty: number[] = []
  const clean = (): void => {
    for (let i = 0; i < dirty.length; i += 2) window.fill(0, dirty[i], dirty[i + 1])
    dirty = []
  }
  let closed = false
  const checksumOf = (plaintext: Uint8Array): number => Number(h64Raw(plaintext, 0n) & 0xffffffffn)
  const verify = (plaintext: Uint8Array, stored: number | null): Uint8Array => {
    if (stored !== null) {
      const computed = checksumOf(plaintext)
      if (computed !== stored) throw new Error(`content checksum mismatch: stored ${hex32(stored)}, computed ${hex32(computed)}`)
    }
    return plaintext
  }
  /**
   * Decode into the reused window.
   * @returns the verified plaintext (a view into the window), or `null` when this frame must be
   *   decoded with a window of its own.
   */
  const decodeReused = (frame: Uint8Array, stored: number | null): Uint8Array | null => {
    const facts = frameFacts(frame)
    if (facts === null) return null
    clean()
    if (facts.contentSize !== null) {
      if (window.length < facts.contentSize) window = new FzstdOutput(facts.contentSize)
      const output = new FzstdOutput(window.buffer, 0, facts.contentSize)
      decompress(frame, output)
      // A frame of known size fills exactly its span; nothing is left for the sentinel search.
      return verify(output, stored)
    }
    if (stored === null) return null
    const span = facts.blocks * BLOCK_BYTES + 1
    if (window.length < span) window = new FzstdOutput(span)
    // Everything fzstd may write from here on is zeroed before the next frame.
    dirty = [0, span]
    decompress(frame, new FzstdOutput(window.buffer, 0, span))
    const length = window.indexOf(0)
    if (length === -1) return null
    const output = window.subarray(0, length)
    if (checksumOf(output) !== stored) return null
    // Written: the output, and the literals fzstd staged at the end of the block's 128 KiB span
    // (no more than the output's length) when the frame has one block.
    if (facts.blocks === 1) dirty = [0, length, Math.max(length, BLOCK_BYTES - length), BLOCK_BYTES]
    return output
  }
  return {
    name: 'fzstd',
    verifiesChecksum: true,
    decode(source: Uint8Array, start = 0, end = source.length): Uint8Array {
      if (closed) throw new Error('cannot decode with a closed fzstd frame decoder')
      const frame = source.subarray(start, end)
      const stored = storedChecksum(frame)
      if (reuse) {
        let reused: Uint8Array | null = null
        try {
          reused = decodeReused(frame, stored)
        } catch {
          // Decoded again below, where fzstd's (or the checksum's) own error is the one reported.
          dirty = [0, window.length]
        }
        if (reused !== null) return reused
      }
      return verify(decompress(frame), stored)
    },
    close(): void {
      closed = true
    },
  }
}
