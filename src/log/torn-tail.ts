/**
 * The incomplete end of a session log (a log DSH is still writing), and how many complete lines
 * DSH's own loader would still recover from it.
 *
 * Node only.
 *
 * @module dsh-message-recall/log/torn-tail
 */
import * as zlib from 'node:zlib'
import { Decompress } from 'fzstd'
import type { FrameScanStop } from './zstd-frames'
import { frameAt, lineAt } from './log-position'

/** The incomplete end of a log. */
export interface TornTail {
  /** Absolute offset where the incomplete frame or record begins. */
  readonly start: number
  /** Bytes present from `start` to the end of the file. */
  readonly bytes: number
  /** One sentence naming the offsets. */
  readonly description: string
  /** The zstd scan stop, for a zstd log (its `index` numbers the incomplete frame). */
  readonly stop?: Extract<FrameScanStop, { kind: 'incomplete' }>
  /** The unfinished line's number, for a plain JSONL log. */
  readonly line?: number
  /**
   * Complete lines decodable from the incomplete frame (DSH's loader keeps these events when it
   * repairs the log); not passed to the record reader. `null` when recovery was not attempted.
   */
  readonly recoverableLines: number | null
}

/**
 * Where a torn tail begins, as the tools name a frame or a line (`log-position.ts`).
 * @param tail - a torn tail of a zstd log (with its `stop`) or a plain log (with its `line`).
 * @returns e.g. `frame 8 at byte 6012`, or `line 131 (at byte 6585)` in a plain log (`byte 6585`
 *   for a tail that carries neither).
 */
export function tailAt(tail: Pick<TornTail, 'start' | 'stop' | 'line'>): string {
  if (tail.stop !== undefined) return frameAt(tail.stop.index, tail.start)
  return tail.line !== undefined ? lineAt(tail.line, null, tail.start) : `byte ${tail.start}`
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
