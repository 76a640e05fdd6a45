/**
 * `verify --cross-check`'s count of failed frames (`failedFrames` in `scripts/commands/verify.ts`):
 * every `frame-failed` problem counts, also one that names no frame, so a read with such a failure
 * never agrees with a read that decoded everything; other problems are not failed frames.
 */
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { decodersAgree, failedFrames } from '../../scripts/commands/verify'
import type { LogProblem } from '../../src/log/log-frames'

describe('verify --cross-check: failed frames', () => {
  const problems: LogProblem[] = [
    { kind: 'frame-failed', at: { line: 4, frame: 3, byte: 248 }, message: 'frame 3 at byte 248 failed to decode: bad block' },
    { kind: 'seq-gap', at: { line: 9, frame: 5, byte: 600 }, expected: 8, got: 10, message: 'seq gap' },
    { kind: 'frame-failed', at: { line: 12, frame: null, byte: 900 }, message: 'a run of frames at byte 900 failed to decode: bad block' },
  ]

  it('names every frame-failed problem, one without a frame by its byte', () => {
    assert.deepEqual(failedFrames(problems), [
      { at: 'frame 3 at byte 248', message: 'frame 3 at byte 248 failed to decode: bad block' },
      { at: 'at byte 900', message: 'a run of frames at byte 900 failed to decode: bad block' },
    ])
    assert.deepEqual(failedFrames([problems[1]!]), [])
  })

  it('a read whose failure names no frame does not agree with one that read everything', () => {
    const failed = failedFrames([problems[2]!]).map((f) => f.at)
    assert.deepEqual(failed, ['at byte 900'])
    const read = (failedFrames: string[]) => ({ decoder: 'fzstd' as const, sha256: 'aa', lines: 3, failedFrames })
    assert.equal(decodersAgree([read(failed), { ...read([]), decoder: 'zlib' }]), false)
    assert.equal(decodersAgree([read(failed), { ...read(failed), decoder: 'zlib' }]), true)
  })
})
