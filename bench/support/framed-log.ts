/**
 * A large session log framed exactly as the rc.8 JSONL backend frames it, for the decode
 * benchmarks: a header frame, then one checksummed frame per durable batch (`zstdCompress` with
 * `ZSTD_c_checksumFlag`, as `dsh-session-persistence-jsonl` `compressZstdFrame` does), each batch
 * packed by dsh-session's real `packChunkRuns`. Batches of a few events mimic a streaming turn
 * flushed every `writeBatchMaxDelayMs`. Seqs run contiguously from 0 over the whole file, and each
 * event's keys are in the order `Session.append` writes them (`type`, `seq`, `time`, `data`, …).
 *
 * @module bench/support/framed-log
 */
import { closeSync, mkdirSync, openSync, writeSync } from 'node:fs'
import { dirname } from 'node:path'
import { constants, zstdCompressSync } from 'node:zlib'
import { packChunkRuns } from '@deepseek-ai/dsh-session'
import { conversationLog, syntheticTurns } from '../../test/support/conversation'

/** Options of {@link writeFramedLog}. */
export interface FramedLogOptions {
  /** Session id written into the header line. */
  readonly id: string
  /** Stop once the file holds this many frames (header frame included). */
  readonly frames?: number
  /** Stop once the file holds at least this many bytes on disk. */
  readonly fileBytes?: number
  /** Events per batch (per frame); default 4. */
  readonly eventsPerBatch?: number
}

/** What {@link writeFramedLog} wrote. */
export interface FramedLog {
  readonly path: string
  readonly frames: number
  readonly events: number
  /** Bytes on disk. */
  readonly fileBytes: number
  /** Decoded bytes (the JSONL text). */
  readonly plainBytes: number
}

/** Window descriptor byte for 2 MiB (`2^(10+11)`, RFC 8878 §3.1.1.1.2). */
const WINDOW_2_MIB = 0x58

/**
 * One frame with the header the rc.8 backend writes: it compresses each batch through a stream
 * (`zstdCompress`), so the header carries a checksum flag, no content size and a 2 MiB window.
 * The synchronous one-shot call would declare the content size instead; compressing without it
 * and declaring the stream's window gives the same header (a larger declared window is always
 * valid for the same blocks).
 */
function frame(text: string): Buffer {
  const bytes = zstdCompressSync(Buffer.from(text), { params: { [constants.ZSTD_c_checksumFlag]: 1, [constants.ZSTD_c_contentSizeFlag]: 0 } })
  if (bytes[4] !== 0x04) throw new Error(`unexpected frame header descriptor 0x${bytes[4]!.toString(16)}`)
  bytes[5] = WINDOW_2_MIB
  return bytes
}

/**
 * Write a framed log to `path` (its folder is created), streaming, until `frames` or `fileBytes` is reached.
 * @throws Error when neither limit is given.
 */
export function writeFramedLog(path: string, options: FramedLogOptions): FramedLog {
  if (options.frames === undefined && options.fileBytes === undefined) throw new Error('writeFramedLog needs frames or fileBytes')
  const perBatch = options.eventsPerBatch ?? 4
  const done = () => (options.frames !== undefined && frames >= options.frames) || (options.fileBytes !== undefined && fileBytes >= options.fileBytes)
  mkdirSync(dirname(path), { recursive: true })
  const fd = openSync(path, 'w')
  let frames = 0
  let fileBytes = 0
  let plainBytes = 0
  let events = 0
  const put = (text: string) => {
    const bytes = frame(text)
    writeSync(fd, bytes)
    frames++
    fileBytes += bytes.length
    plainBytes += Buffer.byteLength(text)
  }
  try {
    put(JSON.stringify({ type: 'session', version: 0, id: options.id, createdAt: 1_700_000_000_000, cwd: '/bench', delegationDepth: 0 }) + '\n')
    // One round of turns, renumbered for every repetition.
    const round = conversationLog(syntheticTurns(50, { textChars: 240 }))
    while (!done()) {
      const shifted = round.map((e) => {
        const { type, seq, time, data, ...rest } = e as unknown as { type: string; seq: number; time: number; data: unknown; sourceEventSeqs?: number[] }
        // The key order `Session.append` writes (dsh-session `lib/index.js`, `Session.append`).
        return { type, seq: seq + events, time, data, ...rest, ...(rest.sourceEventSeqs ? { sourceEventSeqs: rest.sourceEventSeqs.map((s) => s + events) } : {}) }
      }) as unknown as typeof round
      for (let i = 0; i < shifted.length && !done(); i += perBatch) {
        const batch = shifted.slice(i, i + perBatch)
        put(packChunkRuns(batch).map((r) => JSON.stringify(r)).join('\n') + '\n')
        events += batch.length
      }
    }
  } finally {
    closeSync(fd)
  }
  return { path, frames, events, fileBytes, plainBytes }
}
