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
   * @param frame - exactly one frame's bytes (from `start` to `end` of a scanned frame).
   * @returns the plaintext; the view may be reused by the next call, so copy what must outlive it.
   * @throws when the frame fails to decode or its checksum does not match.
   */
  decode(frame: Uint8Array): Uint8Array
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
 * Create the portable decoder (fzstd, checksums through xxhash-wasm).
 * @returns a decoder that verifies each frame's XXH64 checksum (its low 32 bits, RFC 8878 §3.1.1).
 */
export async function createFzstdDecoder(): Promise<FrameDecoder> {
  const { h64Raw } = await xxhash()
  let closed = false
  return {
    name: 'fzstd',
    verifiesChecksum: true,
    decode(frame: Uint8Array): Uint8Array {
      if (closed) throw new Error('cannot decode with a closed fzstd frame decoder')
      const plaintext = decompress(frame)
      const stored = storedChecksum(frame)
      if (stored !== null) {
        const computed = Number(h64Raw(plaintext, 0n) & 0xffffffffn)
        if (computed !== stored) throw new Error(`content checksum mismatch: stored ${hex32(stored)}, computed ${hex32(computed)}`)
      }
      return plaintext
    },
    close(): void {
      closed = true
    },
  }
}
