/**
 * Decoding a log's frames with the `zstd` command-line tool: one `zstd` run per batch of complete
 * frames, its output collected before anything reaches the record reader, so a batch the tool
 * refuses can be read again and the result still matches the per-frame decoders (every intact
 * frame read, the failing frame and byte named). Under `auto` a refused batch is decoded frame by
 * frame with fzstd; with `zstd-cli` named, the tool decodes halves of it down to the frames that
 * fail. The next batch decodes while this one is parsed.
 *
 * Node only.
 *
 * @module dsh-message-recall/log/zstd-cli-batches
 */
import type { FrameDecoder } from './frame-decoder'
import { decodeWithZstdCli, openFrameDecoder, type ZstdCli } from './frame-decoder-node'
import { decodeBatch, type FrameBatch, type FrameSink } from './frame-batches'
import { frameAt } from './log-position'
import type { ZstdFrame } from './zstd-frames'

/** A run of complete frames the tool decodes in one piece: the frames, their bytes and the file offset of those bytes. */
interface FrameRun {
  readonly frames: readonly ZstdFrame[]
  readonly bytes: Uint8Array
  readonly at: number
}

/** Options of {@link decodeBatchesWithZstdCli}. */
export interface ZstdCliBatchOptions {
  /** What a refused batch gets: `fzstd` (decode it frame by frame) or `bisect` (the tool again, on halves). */
  readonly onRefusal: 'fzstd' | 'bisect'
  /** Awaited after each batch is handed over. */
  readonly flush?: (() => Promise<void>) | undefined
}

/**
 * Decode every batch with the tool and push the text to the sink's reader.
 * @param batches - complete frames in file order.
 * @param cli - from `findZstdCli`.
 * @returns `true` when fzstd decoded a batch the tool refused.
 */
export async function decodeBatchesWithZstdCli(batches: AsyncIterable<FrameBatch>, cli: ZstdCli, sink: FrameSink, options: ZstdCliBatchOptions): Promise<boolean> {
  let fallback: FrameDecoder | null = null
  const settle = async (batch: FrameBatch, decoded: Promise<Buffer | Error>): Promise<void> => {
    const output = await decoded
    if (!(output instanceof Error)) {
      pushDecoded({ frames: batch.table.frames(), bytes: batch.bytes, at: batch.at }, output, sink)
    } else if (options.onRefusal === 'fzstd') {
      fallback ??= await openFrameDecoder('fzstd')
      decodeBatch(batch, fallback, sink)
    } else {
      await bisect({ frames: batch.table.frames(), bytes: batch.bytes, at: batch.at }, output, cli, sink)
    }
    await options.flush?.()
  }
  let pending: { batch: FrameBatch; output: Promise<Buffer | Error> } | null = null
  try {
    for await (const batch of batches) {
      const job = { batch, output: collectZstdCli(cli, batch.bytes) }
      if (pending !== null) await settle(pending.batch, pending.output)
      pending = job
    }
    if (pending !== null) await settle(pending.batch, pending.output)
  } finally {
    ;(fallback as FrameDecoder | null)?.close()
  }
  return fallback !== null
}

/** Push the plaintext of complete frames decoded in one piece. */
function pushDecoded(batch: FrameRun, output: Buffer, { reader, tally }: FrameSink): void {
  tally.decodedBytes += output.length
  for (const frame of batch.frames) if (frame.kind === 'zstd' && frame.checksum !== null) tally.checked++
  const last = batch.frames.at(-1)!
  const lastBreak = output.lastIndexOf(0x0a)
  if (lastBreak !== -1) reader.push(output.subarray(0, lastBreak + 1), null, batch.frames[0]!.start)
  if (lastBreak + 1 < output.length) reader.push(output.subarray(lastBreak + 1), last.index, last.start, true)
}

/**
 * Halve a refused run of frames and decode each half with the tool again, down to the single
 * frames that fail, so the problem names the frame and byte and every intact frame is read.
 */
async function bisect(batch: FrameRun, failure: Error, cli: ZstdCli, sink: FrameSink): Promise<void> {
  if (batch.frames.length === 1) {
    const frame = batch.frames[0]!
    sink.reader.report({
      kind: 'frame-failed',
      at: { line: sink.reader.lineCount + 1, frame: frame.index, byte: frame.start },
      message: `${frameAt(frame.index, frame.start)} failed to decode: ${failure.message}`,
    })
    return
  }
  const middle = batch.frames.length >> 1
  for (const frames of [batch.frames.slice(0, middle), batch.frames.slice(middle)]) {
    const at = frames[0]!.start
    const part: FrameRun = { frames, bytes: batch.bytes.subarray(at - batch.at, frames.at(-1)!.end - batch.at), at }
    const output = await collectZstdCli(cli, part.bytes)
    if (output instanceof Error) await bisect(part, output, cli, sink)
    else pushDecoded(part, output, sink)
  }
}

/**
 * Decode one batch of complete frames with the `zstd` tool.
 * @returns the plaintext, or the tool's error (never rejects).
 */
async function collectZstdCli(cli: ZstdCli, bytes: Uint8Array): Promise<Buffer | Error> {
  const parts: Uint8Array[] = []
  try {
    for await (const chunk of decodeWithZstdCli(cli, [bytes])) parts.push(chunk)
    return Buffer.concat(parts)
  } catch (error) {
    return error instanceof Error ? error : new Error(String(error))
  }
}
