/**
 * The native Zstandard decoders available to Node, and the choice between them:
 *
 * - `zlib` (Node ≥ 22.15): one `node:zlib` zstd context reused for every frame. Node exposes
 *   synchronous zstd decoding only as a one-shot call that builds and frees a context per call;
 *   this decoder drives the native handle of one `createZstdDecompress` stream directly, the way
 *   DSH's own reader does (`dsh-session-persistence-jsonl/lib/index.js`,
 *   `NodePrivateZstdFrameDecoder`), after probing the same private shape. When a Node release
 *   changes that shape, the choice falls back to `zlib-oneshot`.
 * - `zlib-oneshot`: `zstdDecompressSync` on each frame.
 * - `zstd-cli`: the `zstd` tool (`zstd -dcq`), one run per batch of complete frames (the frames
 *   of one chunk read, `zstd-cli-batches.ts`). A run's output has no frame boundaries, so it
 *   serves only reads that need no frame index.
 * - `fzstd`: the portable decoder from `frame-decoder.ts`.
 *
 * All of them verify each frame's XXH64 checksum.
 *
 * @module dsh-message-recall/log/frame-decoder-node
 */
import { spawn, spawnSync } from 'node:child_process'
import * as zlib from 'node:zlib'
import { createFzstdDecoder, DecoderUnavailableError, type DecoderName, type FrameDecoder, type PlaintextRun } from './frame-decoder'
import { counted } from './counted'

/** Output scratch of the reused zlib context, in bytes. */
const OUTPUT_CHUNK_BYTES = 1024 * 1024

interface ZstdStreamInternals {
  _handle: { writeSync(flush: number, input: Uint8Array, inOff: number, inLen: number, out: Uint8Array, outOff: number, outLen: number): void } | null
  _writeState: Uint32Array
  _defaultFlushFlag: number
  close(): void
  on(event: 'error', listener: (error: Error) => void): void
  [key: symbol]: unknown
}

type ZlibWithZstd = typeof zlib & {
  createZstdDecompress?: (options?: { chunkSize?: number }) => unknown
  zstdDecompressSync?: (input: Uint8Array) => Uint8Array
}

const nodeZlib = zlib as ZlibWithZstd

/** True when this Node has zstd in `node:zlib` (22.15 and later). */
export function hasZlibZstd(): boolean {
  return typeof nodeZlib.createZstdDecompress === 'function' && typeof nodeZlib.zstdDecompressSync === 'function'
}

/** Open one zstd stream and check the private members the reused-context decoder drives. */
function openZstdStream(): { stream: ZstdStreamInternals; errorKey: symbol } | null {
  if (!hasZlibZstd()) return null
  const stream = nodeZlib.createZstdDecompress!({ chunkSize: OUTPUT_CHUNK_BYTES }) as unknown as ZstdStreamInternals
  const errorKey = Reflect.ownKeys(stream).find((key): key is symbol => typeof key === 'symbol' && key.description === 'kError')
  const handle = stream._handle
  const usable =
    handle !== null &&
    typeof handle === 'object' &&
    typeof handle.writeSync === 'function' &&
    stream._writeState instanceof Uint32Array &&
    stream._writeState.length >= 2 &&
    typeof stream._defaultFlushFlag === 'number' &&
    errorKey !== undefined &&
    stream[errorKey] === null
  if (!usable) {
    stream.close()
    return null
  }
  // An error also destroys the stream, which emits 'error' later; it is already reported.
  stream.on('error', () => {})
  return { stream, errorKey }
}

/**
 * Create the reused-context `node:zlib` decoder.
 * @returns the decoder, or `null` when this Node has no zstd in `node:zlib` or its stream no
 * longer has the private shape the decoder drives.
 */
export function createZlibDecoder(): FrameDecoder | null {
  let opened = openZstdStream()
  if (opened === null) return null
  const output = Buffer.allocUnsafe(OUTPUT_CHUNK_BYTES)
  let closed = false

  const decodeOnce = (frame: Uint8Array, start: number, end: number): Uint8Array => {
    const { stream, errorKey } = opened!
    const handle = stream._handle!
    let inputOffset = start
    let inputRemaining = end - start
    // Output beyond one scratch buffer; created only for frames that need it.
    let chunks: Buffer[] | null = null
    let total = 0
    for (;;) {
      handle.writeSync(stream._defaultFlushFlag, frame, inputOffset, inputRemaining, output, 0, output.length)
      const failure = stream[errorKey]
      if (failure !== null && failure !== undefined) throw failure instanceof Error ? failure : new Error(String(failure))
      const outputLeft = stream._writeState[0]!
      const inputLeft = stream._writeState[1]!
      const produced = output.length - outputLeft
      total += produced
      if (outputLeft !== 0) {
        if (inputLeft !== 0) throw new Error(`zstd frame decoder left ${counted(inputLeft, 'byte')} of the frame unread`)
        if (chunks === null) return output.subarray(0, produced)
        chunks.push(Buffer.from(output.subarray(0, produced)))
        return Buffer.concat(chunks, total)
      }
      ;(chunks ??= []).push(Buffer.from(output))
      inputOffset += inputRemaining - inputLeft
      inputRemaining = inputLeft
    }
  }

  // The same calls as `decodeOnce`, writing after the run's bytes and growing it when full.
  const appendOnce = (run: PlaintextRun, frame: Uint8Array, start: number, end: number): void => {
    const { stream, errorKey } = opened!
    const handle = stream._handle!
    let inputOffset = start
    let inputRemaining = end - start
    let at = run.length
    for (;;) {
      const room = run.bytes.length - at
      handle.writeSync(stream._defaultFlushFlag, frame, inputOffset, inputRemaining, run.bytes, at, room)
      const failure = stream[errorKey]
      if (failure !== null && failure !== undefined) throw failure instanceof Error ? failure : new Error(String(failure))
      const outputLeft = stream._writeState[0]!
      const inputLeft = stream._writeState[1]!
      at += room - outputLeft
      if (outputLeft !== 0) {
        if (inputLeft !== 0) throw new Error(`zstd frame decoder left ${counted(inputLeft, 'byte')} of the frame unread`)
        run.length = at
        return
      }
      run.grow(at)
      inputOffset += inputRemaining - inputLeft
      inputRemaining = inputLeft
    }
  }

  /** The open context, reopened after a failed frame. */
  const context = (): void => {
    if (closed) throw new Error('cannot decode with a closed zlib frame decoder')
    if (opened === null) {
      opened = openZstdStream()
      if (opened === null) throw new Error('node:zlib zstd stream could not be reopened')
    }
  }
  /** A failed frame leaves the context destroyed; the next frame gets a fresh one. */
  const discard = (): void => {
    opened?.stream.close()
    opened = null
  }

  return {
    name: 'zlib',
    verifiesChecksum: true,
    decode(source: Uint8Array, start = 0, end = source.length): Uint8Array {
      context()
      try {
        return decodeOnce(source, start, end)
      } catch (error) {
        discard()
        throw error
      }
    },
    appendTo(run: PlaintextRun, source: Uint8Array, start: number, end: number): void {
      context()
      try {
        appendOnce(run, source, start, end)
      } catch (error) {
        discard()
        throw error
      }
    },
    close(): void {
      if (closed) return
      closed = true
      opened?.stream.close()
      opened = null
    },
  }
}

/**
 * Create the one-shot `node:zlib` decoder (a fresh native context per frame).
 * @returns the decoder, or `null` when this Node has no zstd in `node:zlib`.
 */
export function createZlibOneshotDecoder(): FrameDecoder | null {
  if (!hasZlibZstd()) return null
  let closed = false
  return {
    name: 'zlib-oneshot',
    verifiesChecksum: true,
    decode(source: Uint8Array, start = 0, end = source.length): Uint8Array {
      if (closed) throw new Error('cannot decode with a closed zlib-oneshot frame decoder')
      return nodeZlib.zstdDecompressSync!(source.subarray(start, end))
    },
    close(): void {
      closed = true
    },
  }
}

/** How the `zstd` tool is invoked, or `null` when it is not on `PATH`. */
export interface ZstdCli {
  readonly command: string
  readonly args: readonly string[]
  readonly version: string
}

let cliProbe: ZstdCli | null | undefined

/**
 * Find the `zstd` command-line tool (once per process).
 * @param command - command to run (default `zstd`, from `PATH`).
 * @returns its invocation for decoding to stdout, with `--no-asyncio` when the tool accepts it
 * (zstd 1.5.3 and later; its I/O threads cost more than they save on logs of many small frames),
 * or `null` when it does not run.
 */
export function findZstdCli(command = 'zstd'): ZstdCli | null {
  if (cliProbe !== undefined && command === 'zstd') return cliProbe
  const probe = (extra: string[]) => spawnSync(command, [...extra, '-V'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] })
  let found: ZstdCli | null = null
  const plain = probe([])
  if (plain.status === 0) {
    const version = /v(\d+\.\d+\.\d+)/.exec(plain.stdout + plain.stderr)?.[1] ?? 'unknown'
    const noAsync = probe(['--no-asyncio']).status === 0
    found = { command, args: ['-dcq', ...(noAsync ? ['--no-asyncio'] : [])], version }
  }
  if (command === 'zstd') cliProbe = found
  return found
}

/**
 * Decode a stream of complete frames with the `zstd` tool.
 * @param cli - from {@link findZstdCli}.
 * @param frames - complete frames, in file order.
 * @returns the plaintext of all frames, in order, in chunks of any size.
 * @throws when the tool exits with an error (its stderr is in the message).
 */
export async function* decodeWithZstdCli(cli: ZstdCli, frames: AsyncIterable<Uint8Array> | Iterable<Uint8Array>): AsyncGenerator<Uint8Array> {
  const child = spawn(cli.command, [...cli.args], { stdio: ['pipe', 'pipe', 'pipe'] })
  let stderr = ''
  child.stderr.setEncoding('utf8')
  child.stderr.on('data', (text: string) => {
    stderr += text
  })
  const exited = new Promise<number | null>((resolve, reject) => {
    child.on('error', reject)
    child.on('close', (code) => resolve(code))
  })
  child.stdin.on('error', () => {
    // EPIPE when zstd stops early on bad input; the exit status reports it.
  })
  const feeding = (async () => {
    for await (const frame of frames) {
      if (!child.stdin.write(frame)) await new Promise<void>((resolve) => child.stdin.once('drain', resolve))
      if (child.stdin.destroyed) break
    }
    child.stdin.end()
  })()
  try {
    for await (const chunk of child.stdout as AsyncIterable<Buffer>) yield chunk
    await feeding
    const code = await exited
    if (code !== 0) throw new Error(`${cli.command} exited with status ${code}: ${stderr.trim() || 'no message'}`)
  } finally {
    if (child.exitCode === null) child.kill()
  }
}

/**
 * Open a per-frame decoder by name.
 * @param name - a decoder name other than `zstd-cli`, or `auto` for the fastest available:
 * `zlib`, then `zlib-oneshot`, then `fzstd`.
 * @returns the decoder.
 * @throws DecoderUnavailableError when the named decoder is not available in this Node (`zlib` needs Node ≥ 22.15).
 */
export async function openFrameDecoder(name: Exclude<DecoderName, 'zstd-cli'> | 'auto'): Promise<FrameDecoder> {
  if (name === 'auto') return createZlibDecoder() ?? createZlibOneshotDecoder() ?? (await createFzstdDecoder())
  if (name === 'fzstd') return createFzstdDecoder()
  const decoder = name === 'zlib' ? createZlibDecoder() : createZlibOneshotDecoder()
  if (decoder === null) throw new DecoderUnavailableError(`decoder "${name}" is not available: node:zlib has no zstd in Node ${process.version} (it needs 22.15 or later)`)
  return decoder
}

/**
 * Pick the decoder `auto` means for a read.
 * @param needsFrames - `true` when the read needs each frame's plaintext on its own (a frame
 *   index, per-frame checks); the `zstd` tool is then not eligible.
 * @returns `zlib` when Node has zstd, else `zstd-cli` when allowed and installed, else `fzstd`.
 */
export function autoDecoderName(needsFrames: boolean): DecoderName {
  if (hasZlibZstd()) return 'zlib'
  if (!needsFrames && findZstdCli() !== null) return 'zstd-cli'
  return 'fzstd'
}
