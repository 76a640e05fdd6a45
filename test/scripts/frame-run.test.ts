/**
 * Frames decoded back to back into one buffer and read in one pass (`LogRecordReader.pushFrames`,
 * the zlib reader's path) give exactly what pushing each frame on its own gives: the same
 * records with the same line, frame and byte, the same stored bytes, the same totals and the
 * same problems in the same order, for frames that end inside a line, a line spread over three
 * frames (one of them empty), empty frames, packed rows at a frame's end and seq gaps. And the reader over a log
 * with such frames and a damaged frame reads the same with `zlib` (runs) and `fzstd` (frame by frame).
 */
import assert from 'node:assert/strict'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, describe, it } from 'node:test'
import { constants, zstdCompressSync } from 'node:zlib'
import { LogRecordReader, type LogRecord, type LogRecordReaderOptions } from '../../src/log/log-frames'
import { resolveSessionLog } from '../../src/log/log-file'
import { readSessionLog } from '../../src/log/session-log'

const scratch = mkdtempSync(join(tmpdir(), 'mr-frame-run-'))
after(() => rmSync(scratch, { recursive: true, force: true }))

const header = '{"type":"session","version":0,"id":"s-run","createdAt":1700000000000}\n'
const event = (seq: number) => `{"type":"turn/start","seq":${seq},"time":${1700000000000 + seq},"data":{"turn":${seq}}}\n`
const row = (seq0: number, n: number) =>
  `{"type":"text-chunks","seq0":${seq0},"time0":${1700000000000 + seq0},"data":{"turn":1,"step":1,"index":0,"dt":${JSON.stringify(Array(n - 1).fill(1))},"texts":${JSON.stringify(Array.from({ length: n }, (_, i) => `c${i}`))}}}\n`

/** Plaintext of each frame: cut so frames end inside lines, one line spans three frames, one frame is empty. */
const body = header + event(0) + event(1) + row(2, 3) + event(5) + event(6) + event(9) + row(10, 3) + event(13) + event(14)
const cuts = [header.length, header.length + 30, header.length + 30, header.length + 60, header.length + 200, body.length - event(14).length - 7, body.length - 3, body.length]
const framesText = cuts.map((end, k) => body.slice(k === 0 ? 0 : cuts[k - 1], end))

function collect(options: LogRecordReaderOptions, feed: (reader: LogRecordReader) => void) {
  const records: Omit<LogRecord, 'value' | 'events'>[] = []
  const stored: number[] = []
  const reader = new LogRecordReader({
    ...options,
    onRecord: options.parse === false ? undefined : (r) => records.push({ at: r.at, text: r.text, type: r.type, seq: r.seq }),
    onLines: (bytes) => stored.push(...bytes),
  })
  feed(reader)
  return { records, stored: Buffer.from(stored).toString(), totals: reader.finish() }
}

describe('frames read as one run', () => {
  for (const parse of [true, false]) {
    it(`match the frames pushed one by one (${parse ? 'every record parsed' : 'nothing parsed, packed rows settled by the next seq'})`, () => {
      const parts = framesText.map((text) => Buffer.from(text))
      const offsets = parts.map((_, k) => 1000 + 100 * k)
      const single = collect({ parse }, (reader) => parts.forEach((p, k) => reader.push(p, k, offsets[k]!, true)))
      const run = collect({ parse }, (reader) => {
        const ends: number[] = []
        parts.reduce((n, p) => (ends.push(n + p.length), n + p.length), 0)
        reader.pushFrames(Buffer.concat(parts), { count: parts.length, ends, frames: parts.map((_, k) => k), offsets })
      })
      assert.deepEqual(run, single)
      assert.equal(run.stored, body, 'every stored line, the header included, exactly once')
      assert.equal(run.totals.lines, 10)
      assert.equal(run.totals.events, 13)
      assert.deepEqual(
        run.totals.problems.map((p) => p.message),
        [
          'frame 1 at byte 1100 ends inside line 2; a complete frame must end on a line break',
          'frame 4 at byte 1400 ends inside line 4; a complete frame must end on a line break',
          'line 7 (frame 5 at byte 1500) continues the log at seq 9; expected 7',
          'frame 5 at byte 1500 ends inside line 9; a complete frame must end on a line break',
          'frame 6 at byte 1600 ends inside line 10; a complete frame must end on a line break',
        ],
      )
    })
  }
})

describe('the zlib reader (runs) and the fzstd reader (frame by frame) on the same log', () => {
  it('read the same records, totals and problems, a damaged frame included', async () => {
    const frame = (text: string) => zstdCompressSync(Buffer.from(text), { params: { [constants.ZSTD_c_checksumFlag]: 1 } })
    const frames = [...framesText.map(frame), frame(event(15))]
    const damaged = Buffer.from(frames[3]!)
    damaged[damaged.length - 6] = damaged[damaged.length - 6]! ^ 0xff
    frames[3] = damaged
    const path = join(scratch, 'session.jsonl.zstd')
    writeFileSync(path, Buffer.concat(frames))
    const read = async (decoder: 'zlib' | 'fzstd') => {
      const records: Omit<LogRecord, 'value' | 'events'>[] = []
      const result = await readSessionLog(await resolveSessionLog(path), { decoder, onRecord: (r) => records.push({ at: r.at, text: r.text, type: r.type, seq: r.seq }) })
      return { records, lines: result.lines, events: result.events, lastSeq: result.lastSeq, frames: result.frames, checked: result.checkedFrames, decoded: result.decodedBytes, problems: result.problems.map((p) => p.kind) }
    }
    const zlib = await read('zlib')
    assert.deepEqual(zlib, await read('fzstd'))
    // Frame 3 (the middle of line 2) fails: line 2 loses it and no longer parses.
    assert.deepEqual(zlib.problems, ['frame-not-line-aligned', 'frame-failed', 'unparsable-line', 'frame-not-line-aligned', 'seq-gap', 'frame-not-line-aligned', 'frame-not-line-aligned'])
    assert.equal(zlib.frames, 9)
    assert.equal(zlib.checked, 8)
  })
})
