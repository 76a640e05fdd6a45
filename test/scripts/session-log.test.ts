/**
 * Reading session logs the real rc.8 JSONL backend wrote (zstd and plain): every decoder yields
 * exactly the events the live session held and the backend's own cold read returns; a log cut
 * inside its last frame or record is a torn-tail result with exact offsets and the intact events
 * before it; a frame whose bytes contain the magic number is not split; damage inside a frame is
 * reported with its frame and byte offset and reading goes on.
 */
import assert from 'node:assert/strict'
import { createHash } from 'node:crypto'
import { readFileSync, statSync, writeFileSync, appendFileSync, mkdtempSync, rmSync, truncateSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import { zstdCompressSync, constants } from 'node:zlib'
import { SessionId, packChunkRuns, type SessionEvent } from '@deepseek-ai/dsh-session'
import type { LogEvent } from '../../src/shared/events'
import { type DecoderName } from '../../src/log/frame-decoder'
import type { LogProblem } from '../../src/log/log-frames'
import { findZstdCli } from '../../src/log/frame-decoder-node'
import { resolveSessionLog, SessionLogInputError } from '../../src/log/log-file'
import { readSessionLog, type ReadSessionLogOptions, type SessionLogRead } from '../../src/log/session-log'
import { scanZstdFrames } from '../../src/log/zstd-frames'
import { conversationLog, syntheticTurns } from '../support/conversation'
import { openLogStore, writeConversation, type WrittenLog } from './support/real-logs'

const scratch = mkdtempSync(join(tmpdir(), 'mr-session-log-'))
after(() => rmSync(scratch, { recursive: true, force: true }))

async function readAll(path: string, options: ReadSessionLogOptions = {}): Promise<{ read: SessionLogRead; events: LogEvent[]; lines: string[] }> {
  const events: LogEvent[] = []
  const lines: string[] = []
  const read = await readSessionLog(await resolveSessionLog(path), {
    ...options,
    expand: true,
    onHeader: (_h, text) => lines.push(text),
    onRecord: (record) => {
      lines.push(record.text)
      events.push(...(record.events ?? []))
    },
  })
  return { read, events, lines }
}

/** The events DSH's own backend reads back from `root` for `id`, on a fresh composition. */
async function backendEvents(root: string, id: string, compression: 'zstd' | 'none'): Promise<readonly SessionEvent[]> {
  const store = await openLogStore(root, compression)
  try {
    const inspection = await store.ctx.sessionPersistence.inspect(SessionId(id))
    return inspection.events
  } finally {
    await store.dispose()
  }
}

const turns = syntheticTurns(3, { toolSteps: 1, toolsPerStep: 2, textChars: 300 })

describe('a zstd log written by the real backend', () => {
  let log: WrittenLog
  before(async () => {
    log = await writeConversation({ root: join(scratch, 'zstd'), turns })
  })

  const decoders: DecoderName[] = ['zlib', 'zlib-oneshot', 'fzstd', 'zstd-cli']
  for (const decoder of decoders) {
    it(`decodes to exactly the live session's events with the ${decoder} decoder`, async (t) => {
      if (decoder === 'zstd-cli' && findZstdCli() === null) {
        t.skip('no zstd command on PATH')
        return
      }
      const { read, events } = await readAll(log.path, { decoder })
      assert.equal(read.decoder, decoder)
      assert.deepEqual(events, log.events)
      assert.equal(read.events, log.events.length)
      assert.equal(read.lastSeq, log.events.length - 1)
      assert.equal(read.header?.id, log.id)
      assert.equal(read.header?.cwd, '/projects/demo project')
      assert.equal(read.tail, null)
      assert.deepEqual(read.problems, [])
      assert.equal(read.bytesConsumed, statSync(log.path).size)
    })
  }

  it('holds one frame for the header and one per flushed turn, and matches the backend’s cold read', async () => {
    const frames: number[] = []
    const { read, events } = await readAll(log.path, { needsFrames: true, onFrame: (r) => frames.push(r.lastLine - r.firstLine + 1) })
    // appendTurns flushes after every turn/end and once more at the end (an empty flush writes nothing).
    assert.equal(read.frames, 1 + turns.length)
    assert.equal(frames[0], 1, 'frame 0 is the header line alone')
    assert.equal(read.checkedFrames, read.frames)
    assert.deepEqual(events, await backendEvents(log.root, log.id, 'zstd'))
  })

  it('reads packed chunk rows: fewer stored lines than events, rows shown as stored', async () => {
    const { read, lines } = await readAll(log.path)
    assert.ok(lines.some((l) => l.startsWith('{"type":"text-chunks","seq0":')), 'the backend packed text deltas into rows')
    assert.ok(read.lines - 1 < read.events, `${read.lines - 1} stored lines for ${read.events} events`)
  })

  it('accepts the session folder as well as the file, and refuses what is not a log', async () => {
    assert.equal((await resolveSessionLog(log.dir)).path, log.path)
    await assert.rejects(resolveSessionLog(join(scratch, 'missing')), (e: unknown) => e instanceof SessionLogInputError && e.code === 'not-found')
    await assert.rejects(resolveSessionLog(scratch), (e: unknown) => e instanceof SessionLogInputError && e.code === 'no-log')
    const junk = join(scratch, 'junk.bin')
    writeFileSync(junk, Buffer.from([0, 1, 2, 3, 4]))
    await assert.rejects(resolveSessionLog(junk), (e: unknown) => e instanceof SessionLogInputError && e.code === 'not-a-log' && /neither a Zstandard log nor a JSONL log/.test(e.message))
  })
})

describe('a plain JSONL log written by the real backend', () => {
  it('reads to the same events as the live session and the backend', async () => {
    const log = await writeConversation({ root: join(scratch, 'raw'), compression: 'none', turns })
    assert.ok(log.path.endsWith('session.jsonl'))
    const { read, events } = await readAll(log.path)
    assert.equal(read.decoder, null)
    assert.deepEqual(events, log.events)
    assert.deepEqual(events, await backendEvents(log.root, log.id, 'none'))
    assert.equal(read.tail, null)
  })

  it('reports a last record without its line break as a torn tail at its byte offset', async () => {
    const log = await writeConversation({ root: join(scratch, 'raw-torn'), compression: 'none', turns })
    const size = statSync(log.path).size
    const text = readFileSync(log.path, 'utf8')
    const lastStart = text.lastIndexOf('\n', text.length - 2) + 1
    truncateSync(log.path, size - 7)
    const { read, events } = await readAll(log.path)
    assert.deepEqual(read.tail && { start: read.tail.start, bytes: read.tail.bytes }, { start: Buffer.byteLength(text.slice(0, lastStart)), bytes: size - 7 - Buffer.byteLength(text.slice(0, lastStart)) })
    assert.deepEqual(events, log.events.slice(0, events.length))
    assert.equal(events.length, log.events.length - 1)
    assert.deepEqual(read.problems, [])
  })
})

describe('a zstd log cut inside its last frame (a session still being written)', () => {
  let log: WrittenLog
  let lastFrame: { index: number; start: number; end: number }
  before(async () => {
    log = await writeConversation({ root: join(scratch, 'torn'), turns })
    const { frames } = scanZstdFrames(readFileSync(log.path))
    lastFrame = frames.at(-1)!
  })

  it('returns the intact frames and the torn tail with exact offsets, for every cut inside the frame', async () => {
    const original = readFileSync(log.path)
    const { events: all } = await readAll(log.path)
    const prefix = join(scratch, 'torn-prefix.zstd')
    writeFileSync(prefix, original.subarray(0, lastFrame.start))
    const { events: intact } = await readAll(prefix)
    assert.ok(intact.length > 0 && intact.length < all.length)
    assert.deepEqual(intact, all.slice(0, intact.length))
    const copy = join(scratch, 'torn-cut.zstd')
    // Every cut inside the frame: in the magic, the frame header, block headers, block payload, checksum.
    const cuts = new Set([1, 3, 4, 5, 6, 7, 8, 9, 10, 20, lastFrame.end - lastFrame.start - 5, lastFrame.end - lastFrame.start - 1])
    for (const decoder of ['zlib', 'fzstd'] as const) {
      for (const cut of cuts) {
        writeFileSync(copy, original.subarray(0, lastFrame.start + cut))
        const { read, events } = await readAll(copy, { decoder })
        assert.equal(read.tail?.start, lastFrame.start, `cut ${cut}: torn frame starts at the last frame`)
        assert.equal(read.tail?.bytes, cut)
        assert.equal(read.bytesConsumed, lastFrame.start)
        assert.deepEqual(events, intact, `cut ${cut} (${decoder}): exactly the events before the torn frame`)
        assert.deepEqual(read.problems, [], `cut ${cut}: a torn tail is not a problem inside the log`)
        assert.match(read.tail!.description, new RegExp(`^frame ${lastFrame.index} at byte ${lastFrame.start} is incomplete: .* the file ends at byte ${lastFrame.start + cut} `))
      }
    }
  })

  it('counts the complete lines DSH recovers from the torn frame, and neither reader writes to the file', async () => {
    const root = join(scratch, 'torn-dsh')
    const copy = await writeConversation({ root, turns, id: 'session-torn-dsh' })
    const { frames } = scanZstdFrames(readFileSync(copy.path))
    const last = frames.at(-1)!
    const bytes = readFileSync(copy.path)
    const cut = last.start + Math.floor((last.end - last.start) * 0.8)
    writeFileSync(copy.path, bytes.subarray(0, cut))
    const before = readFileSync(copy.path)
    const { read, events } = await readAll(copy.path)
    const dsh = await backendEvents(root, copy.id, 'zstd')
    assert.deepEqual(readFileSync(copy.path), before, 'neither reader wrote to the torn file')
    assert.deepEqual(events, dsh.slice(0, events.length), 'DSH reads the same intact prefix')
    assert.ok(read.tail !== null && read.tail.recoverableLines !== null)
    assert.ok(dsh.length >= events.length)
  })
})

describe('a frame whose bytes contain the magic number 28 b5 2f fd', () => {
  it('is one frame to the header walk, decodes, and the backend reads it back too', async () => {
    const root = join(scratch, 'magic')
    const log = await writeConversation({ root, turns: turns.slice(0, 2), id: 'session-magic' })
    const frame = magicFrame(log.events.length)
    appendFileSync(log.path, frame.bytes)
    const file = readFileSync(log.path)
    const offset = file.length - frame.bytes.length
    assert.deepEqual([...file.subarray(offset + 5, offset + 9)], [0x28, 0xb5, 0x2f, 0xfd], 'the magic sits inside the frame')
    const { read, events } = await readAll(log.path, { magicScan: true, needsFrames: true })
    assert.deepEqual(read.problems, [])
    assert.equal(read.tail, null)
    assert.ok(read.magicFalsePositives.includes(offset + 5))
    assert.deepEqual(events.slice(log.events.length), frame.events)
    assert.deepEqual(events, await backendEvents(root, log.id, 'zstd'))
    // What a magic-searching splitter would see: one more "frame" than there is.
    let hits = 0
    for (let i = file.indexOf(Buffer.from([0x28, 0xb5, 0x2f, 0xfd])); i !== -1; i = file.indexOf(Buffer.from([0x28, 0xb5, 0x2f, 0xfd]), i + 1)) hits++
    assert.ok(hits > read.frames)
  })
})

describe('damage inside a complete log', () => {
  it('names the frame and byte of a payload that fails its checksum and goes on with the next frame', async () => {
    const log = await writeConversation({ root: join(scratch, 'damaged'), turns })
    const bytes = readFileSync(log.path)
    const { frames } = scanZstdFrames(bytes)
    const victim = frames[2]!
    const damaged = Buffer.from(bytes)
    damaged[victim.end - 6] = damaged[victim.end - 6]! ^ 0xff
    const copy = join(scratch, 'damaged.zstd')
    writeFileSync(copy, damaged)
    for (const decoder of ['zlib', 'zlib-oneshot', 'fzstd'] as const) {
      const { read, events } = await readAll(copy, { decoder })
      const failed = read.problems.filter((p) => p.kind === 'frame-failed')
      assert.equal(failed.length, 1, decoder)
      assert.match(failed[0]!.message, new RegExp(`^frame 2 at byte ${victim.start} failed to decode: `))
      assert.ok(read.problems.some((p) => p.kind === 'seq-gap'), 'the events of the lost frame show up as a seq gap')
      assert.equal(read.frames, frames.length)
      assert.equal(events.at(-1)!.seq, log.events.at(-1)!.seq, `${decoder}: frames after the damage are still read`)
    }
  })

  it('stops at corrupt structure with its byte offset, keeping the frames before it', async () => {
    const log = await writeConversation({ root: join(scratch, 'corrupt'), turns })
    const bytes = Buffer.from(readFileSync(log.path))
    const { frames } = scanZstdFrames(bytes)
    bytes[frames[3]!.start] = 0x00
    const copy = join(scratch, 'corrupt.zstd')
    writeFileSync(copy, bytes)
    const { read } = await readAll(copy)
    assert.equal(read.frames, 3)
    assert.deepEqual(read.problems.map((p) => p.kind), ['corrupt-structure'])
    assert.match(read.problems[0]!.message, new RegExp(`^corrupt Zstandard structure at byte ${frames[3]!.start}: invalid frame magic`))
  })
})

describe('a log read in small chunks', () => {
  it('gives the same result whatever the read size, frames spanning chunk borders', async () => {
    const log = await writeConversation({ root: join(scratch, 'chunks'), turns })
    const whole = await readAll(log.path)
    for (const chunkBytes of [7, 64, 1000]) {
      const small = await readAll(log.path, { chunkBytes })
      assert.deepEqual(small.events, whole.events, `chunkBytes ${chunkBytes}`)
      assert.equal(small.read.frames, whole.read.frames)
    }
  })
})

/** Frame and byte a problem names. */
function located(problem: LogProblem): { frame: number | null; byte: number } {
  return 'at' in problem ? { frame: problem.at.frame, byte: problem.at.byte } : { frame: null, byte: problem.offset }
}

describe('the zstd tool over many batches with a damaged frame', () => {
  it('reads what fzstd reads with --decoder zstd-cli, halving a refused batch down to the failing frame (the auto fallback to fzstd runs under Node 20 in scripts.test.ts)', async (t) => {
    if (findZstdCli() === null) {
      t.skip('zstd not installed')
      return
    }
    const log = await writeConversation({ root: join(scratch, 'cli-batches'), turns })
    const bytes = Buffer.from(readFileSync(log.path))
    const { frames } = scanZstdFrames(bytes)
    const hit = frames[Math.floor(frames.length / 2)]!
    bytes[hit.end - 5] = bytes[hit.end - 5]! ^ 0x01
    const copy = join(scratch, 'cli-batches.zstd')
    writeFileSync(copy, bytes)
    const portable = await readAll(copy, { decoder: 'fzstd' })
    assert.deepEqual(located(portable.read.problems[0]!), { frame: hit.index, byte: hit.start })
    // Small reads: many batches, one zstd run each, decoded ahead of the one being parsed.
    for (const chunkBytes of [64, 1000, 1 << 20]) {
      const named = await readAll(copy, { decoder: 'zstd-cli', chunkBytes })
      assert.deepEqual(named.lines, portable.lines, `zstd-cli, chunkBytes ${chunkBytes}`)
      assert.deepEqual(named.read.problems.map((p) => [p.kind, located(p).byte]), portable.read.problems.map((p) => [p.kind, located(p).byte]))
      assert.deepEqual(located(named.read.problems[0]!), { frame: hit.index, byte: hit.start })
      assert.equal(named.read.fallbackDecoder, null)
    }
  })
})

/** `length` hex digits derived from `seed` (varied text, so the compressed size varies with the seed). */
function noise(seed: number, length: number): string {
  let out = ''
  for (let i = 0; out.length < length; i++) out += createHash('sha256').update(`${seed}:${i}`).digest('hex')
  return out.slice(0, length)
}

/**
 * One valid zstd frame holding a whole turn (continuing a log at `nextSeq`) whose header bytes
 * contain the magic number at frame offset 5: window descriptor `0x28` (32 KiB), then a 2-byte
 * content size `b5 2f` (12469 bytes), then a last compressed block whose header starts with
 * `fd`. The block comes from `node:zlib` zstd; the system prompt is padded to the exact size and
 * a nonce and pseudo-random padding varied until the block's size ends in binary 11111.
 */
function magicFrame(nextSeq: number): { bytes: Buffer; events: LogEvent[] } {
  const contentSize = 0x2fb5 + 256
  for (let nonce = 0; nonce < 10_000; nonce++) {
    const draft = (system: string) => {
      const events = conversationLog([{ prompt: 'magic prompt', steps: [{ text: 'a reply in the frame with the magic header' }] }], { system, startTime: 1_800_000_000_000 })
      const moved = events.map((e) => {
        const event = e as unknown as LogEvent & Record<string, unknown>
        return { ...event, seq: event.seq + nextSeq, ...(event.sourceEventSeqs ? { sourceEventSeqs: event.sourceEventSeqs.map((s) => s + nextSeq) } : {}) }
      })
      const text = packChunkRuns(moved as unknown as SessionEvent[]).map((r) => JSON.stringify(r)).join('\n') + '\n'
      return { events: moved as LogEvent[], text }
    }
    const stamp = `nonce ${String(nonce).padStart(5, '0')} `
    const probe = draft(stamp)
    const padding = contentSize - Buffer.byteLength(probe.text)
    if (padding < 0) throw new Error('magic frame content too large')
    const { events, text } = draft(stamp + noise(nonce, padding))
    const content = Buffer.from(text)
    assert.equal(content.length, contentSize)
    const compressed = zstdCompressSync(content, { params: { [constants.ZSTD_c_checksumFlag]: 1 } })
    const [frame] = scanZstdFrames(compressed).frames
    if (!frame || frame.blocks !== 1) continue
    const descriptor = compressed[4]!
    const singleSegment = (descriptor & 0x20) !== 0
    const sizeFlag = descriptor >> 6
    const dictionaryBytes = [0, 1, 2, 4][descriptor & 3]!
    const headerBytes = 5 + (singleSegment ? 0 : 1) + dictionaryBytes + (sizeFlag === 0 ? (singleSegment ? 1 : 0) : 1 << sizeFlag)
    const block = compressed.subarray(headerBytes, compressed.length - 4)
    if (block[0] !== 0xfd || block.readUIntLE(0, 3) >>> 3 !== block.length - 3) continue
    const bytes = Buffer.concat([Buffer.from([0x28, 0xb5, 0x2f, 0xfd, 0x44, 0x28, 0xb5, 0x2f]), block, compressed.subarray(compressed.length - 4)])
    return { bytes, events }
  }
  throw new Error('no nonce gave a block header starting with fd')
}
