/**
 * The two codecs the log scripts carry themselves, checked against the real ones: packed chunk
 * rows expand exactly as `dsh-session`'s `decodeStorageRecord` does (same events, same error
 * messages) for batches packed by its `packChunkRuns`; the frame-header walk finds exactly the
 * frames `node:zlib` zstd wrote, never throws on any prefix of a log, and names corrupt bytes; the
 * fzstd decoder's reused window gives exactly what zstd wrote, whatever the frame.
 */
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { promisify } from 'node:util'
import { zstdCompress, zstdCompressSync, constants } from 'node:zlib'
import fc from 'fast-check'
import { decodeStorageRecord, packChunkRuns, type SessionEvent } from '@deepseek-ai/dsh-session'
import { expandStorageRecord } from '../../src/log/chunk-rows'
import { createFzstdDecoder } from '../../src/log/frame-decoder'
import { magicFalsePositives, scanZstdFrames } from '../../src/log/zstd-frames'

const zstdCompressAsync = promisify(zstdCompress)
const frameOf = (text: string) => zstdCompressSync(Buffer.from(text), { params: { [constants.ZSTD_c_checksumFlag]: 1 } })

/** Arbitrary batches of chunk events: runs of text, reasoning and tool-call deltas, other chunks and events between them. */
const chunkBatch = fc
  .array(
    fc.record({
      kind: fc.constantFrom('text-delta', 'reasoning-delta', 'tool-call-delta', 'block-end', 'other'),
      index: fc.integer({ min: 0, max: 1 }),
      step: fc.integer({ min: 1, max: 2 }),
      named: fc.boolean(),
      members: fc.array(fc.record({ text: fc.string({ maxLength: 6 }), gap: fc.integer({ min: -3, max: 50 }) }), { minLength: 1, maxLength: 6 }),
    }),
    { maxLength: 12 },
  )
  .map((runs) => {
    let time = 1_700_000_000_000
    const events: unknown[] = []
    for (const run of runs) {
      for (const member of run.members) {
        time += member.gap
        const seq = events.length
        const chunk =
          run.kind === 'text-delta' || run.kind === 'reasoning-delta'
            ? { type: run.kind, index: run.index, text: member.text }
            : run.kind === 'tool-call-delta'
              ? { type: run.kind, index: run.index, id: `call-${run.index}`, ...(run.named ? { name: 'read_file' } : {}), argumentsDelta: member.text }
              : run.kind === 'block-end'
                ? { type: 'block-end', index: run.index, block: { type: 'text', text: member.text } }
                : null
        events.push(chunk === null ? { type: 'step/start', seq, time, data: { turn: 1, step: run.step } } : { type: 'assistant/chunk', seq, time, data: { turn: 1, step: run.step, chunk } })
      }
    }
    return events as SessionEvent[]
  })

describe('packed chunk rows', () => {
  it('expand exactly as dsh-session decodes them, for any batch its packer writes', () => {
    let rows = 0
    fc.assert(
      fc.property(chunkBatch, (events) => {
        const stored = packChunkRuns(events).map((record) => JSON.parse(JSON.stringify(record)) as unknown)
        rows += stored.filter((record) => /-chunks$/.test((record as { type: string }).type)).length
        const ours = stored.flatMap((record) => expandStorageRecord(record))
        const theirs = stored.flatMap((record) => decodeStorageRecord(record as never))
        assert.deepEqual(ours, theirs)
        assert.deepEqual(ours, JSON.parse(JSON.stringify(events)))
      }),
      { numRuns: 300 },
    )
    assert.ok(rows > 100, `the generated batches packed into ${rows} rows`)
  })

  const malformed: [string, unknown][] = [
    ['extra envelope key', { type: 'text-chunks', seq0: 1, time0: 1, data: {}, x: 1 }],
    ['negative seq0', { type: 'text-chunks', seq0: -1, time0: 1, data: {} }],
    ['fractional time0', { type: 'reasoning-chunks', seq0: 1, time0: 1.5, data: {} }],
    ['data not an object', { type: 'text-chunks', seq0: 1, time0: 1, data: 3 }],
    ['wrong data keys', { type: 'text-chunks', seq0: 1, time0: 1, data: { turn: 1, step: 1, index: 0, dt: [] } }],
    ['empty texts', { type: 'text-chunks', seq0: 1, time0: 1, data: { turn: 1, step: 1, index: 0, dt: [], texts: [] } }],
    ['dt arity', { type: 'text-chunks', seq0: 1, time0: 1, data: { turn: 1, step: 1, index: 0, dt: [1, 2], texts: ['a', 'b'] } }],
    ['non-integer gap', { type: 'text-chunks', seq0: 1, time0: 1, data: { turn: 1, step: 1, index: 0, dt: [0.5], texts: ['a', 'b'] } }],
    ['tool id not a string', { type: 'tool-call-chunks', seq0: 1, time0: 1, data: { turn: 1, step: 1, index: 0, id: 3, dt: [], args: ['a'] } }],
    ['turn not a number', { type: 'tool-call-chunks', seq0: 1, time0: 1, data: { turn: '1', step: 1, index: 0, id: 'c', dt: [], args: ['a'] } }],
    ['times leave the safe range', { type: 'text-chunks', seq0: 1, time0: Number.MAX_SAFE_INTEGER, data: { turn: 1, step: 1, index: 0, dt: [1], texts: ['a', 'b'] } }],
  ]
  for (const [label, row] of malformed) {
    it(`refuse a malformed row with dsh-session's message: ${label}`, () => {
      let expected = ''
      try {
        decodeStorageRecord(row as never)
      } catch (error) {
        expected = (error as Error).message
      }
      assert.notEqual(expected, '')
      assert.throws(() => expandStorageRecord(row), { message: expected })
    })
  }

  it('pass every other value through as one event', () => {
    const event = { type: 'turn/start', seq: 0, time: 1, data: { turn: 1 } }
    assert.deepEqual(expandStorageRecord(event), [event])
  })
})

describe('the frame-header walk', () => {
  const texts = ['{"type":"session"}\n', 'a'.repeat(300_000) + '\n', 'line one\nline two\n', '']
  const frames = texts.map(frameOf)
  const file = Buffer.concat(frames)

  it('finds exactly the frames that were concatenated, with their checksums', () => {
    const scan = scanZstdFrames(file)
    assert.deepEqual(scan.stop, { kind: 'end' })
    assert.equal(scan.next, file.length)
    let at = 0
    scan.frames.forEach((frame, i) => {
      assert.equal(frame.start, at)
      assert.equal(frame.end, at + frames[i]!.length)
      assert.equal(frame.checksum, frames[i]!.readUInt32LE(frames[i]!.length - 4))
      at = frame.end
    })
    assert.equal(scan.frames.length, frames.length)
    assert.ok(scan.frames[1]!.blocks >= 1)
  })

  it('never throws on any prefix: complete frames plus an incomplete stop at the first cut frame', () => {
    const ends = scanZstdFrames(file).frames.map((f) => f.end)
    fc.assert(
      fc.property(fc.integer({ min: 0, max: file.length }), (cut) => {
        const scan = scanZstdFrames(file.subarray(0, cut))
        const complete = ends.filter((end) => end <= cut).length
        assert.equal(scan.frames.length, complete)
        if (ends.includes(cut) || cut === 0) assert.deepEqual(scan.stop, { kind: 'end' })
        else {
          assert.equal(scan.stop.kind, 'incomplete')
          assert.equal(scan.stop.kind === 'incomplete' && scan.stop.start, complete === 0 ? 0 : ends[complete - 1])
          assert.equal(scan.stop.kind === 'incomplete' && scan.stop.index, complete, 'the cut frame is numbered after the complete ones')
        }
      }),
      { numRuns: 500 },
    )
  })

  it('resumes at an absolute offset and frame number', () => {
    const scan = scanZstdFrames(file.subarray(frames[0]!.length), { baseOffset: frames[0]!.length, firstIndex: 1 })
    assert.equal(scan.frames[0]!.index, 1)
    assert.equal(scan.frames[0]!.start, frames[0]!.length)
    assert.equal(scan.next, file.length)
  })

  it('steps over skippable frames and reports them', () => {
    const skippable = Buffer.concat([Buffer.from([0x50, 0x2a, 0x4d, 0x18, 3, 0, 0, 0]), Buffer.from([1, 2, 3])])
    const scan = scanZstdFrames(Buffer.concat([frames[0]!, skippable, frames[2]!]))
    assert.deepEqual(scan.frames.map((f) => f.kind), ['zstd', 'skippable', 'zstd'])
    assert.deepEqual(scan.stop, { kind: 'end' })
  })

  it('names the byte of corrupt structure', () => {
    const badMagic = Buffer.concat([frames[0]!, Buffer.from('not a frame')])
    assert.deepEqual(scanZstdFrames(badMagic).stop, { kind: 'corrupt', offset: frames[0]!.length, reason: 'invalid frame magic 0x20746f6e (expected 28 b5 2f fd)' })
    const reserved = Buffer.from(frames[2]!)
    reserved[4] = reserved[4]! | 0x08
    assert.deepEqual(scanZstdFrames(reserved).stop, { kind: 'corrupt', offset: 4, reason: 'reserved bit set in the frame header descriptor' })
  })

  it('counts magic bytes that are not frame starts', () => {
    const payload = Buffer.concat([frames[0]!, Buffer.from([0x28, 0xb5, 0x2f, 0xfd])])
    assert.deepEqual(magicFalsePositives(payload, new Set([0])), [frames[0]!.length])
    assert.deepEqual(magicFalsePositives(file, new Set(scanZstdFrames(file).frames.map((f) => f.start))), [])
  })
})

describe('the fzstd decoder with one reused window', () => {
  /** A frame as the rc.8 backend writes it: through a stream, so no content size and a 2 MiB window. */
  const streamedFrame = async (text: string | Buffer): Promise<Buffer> => zstdCompressAsync(typeof text === 'string' ? Buffer.from(text) : text, { params: { [constants.ZSTD_c_checksumFlag]: 1 } })
  const line = (seq: number, text: string) => JSON.stringify({ type: 'session/title', seq, time: 1_700_000_000_000 + seq, data: { title: text } }) + '\n'
  const big = Array.from({ length: 1200 }, (_, i) => line(i, `title ${i} `.repeat(30))).join('')

  it('decodes frames without a content size, with one, of several blocks, and with a zero byte, exactly as zstd wrote them', async () => {
    const texts = [line(0, 'a'), big, line(1, 'b'.repeat(3000)), 'with a zero \u0000 byte inside\n', line(2, '雨'.repeat(200)), line(3, 'c')]
    const frames = [...(await Promise.all(texts.map(streamedFrame))), frameOf(line(4, 'content size declared'))]
    assert.equal(scanZstdFrames(frames[0]!).frames[0]!.contentSize, null, 'the streamed frame declares no content size')
    assert.equal(scanZstdFrames(frames.at(-1)!).frames[0]!.contentSize, Buffer.byteLength(line(4, 'content size declared')))
    assert.ok(scanZstdFrames(frames[1]!).frames[0]!.blocks > 1, 'the large text takes several blocks')
    const decoder = await createFzstdDecoder()
    const expected = [...texts, line(4, 'content size declared')]
    // Twice over, so every frame also follows a larger one in the same window.
    for (const round of [0, 1]) {
      for (const [i, frame] of frames.entries()) assert.equal(Buffer.from(decoder.decode(frame)).toString('utf8'), expected[i], `round ${round}, frame ${i}`)
    }
  })

  it('refuses a frame whose payload was altered with the checksum mismatch, as with a window per frame', async () => {
    const frame = await streamedFrame(big)
    frame[frame.length - 40]! ^= 0xff
    const messageOf = async (reuseWindow: boolean) => {
      const decoder = await createFzstdDecoder({ reuseWindow })
      try {
        decoder.decode(frame)
        return null
      } catch (error) {
        return (error as Error).message
      }
    }
    const reused = await messageOf(true)
    assert.ok(reused !== null, 'the altered frame is refused')
    assert.equal(reused, await messageOf(false))
  })
})
