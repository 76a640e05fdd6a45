/**
 * The text of the log tools' progress line, pure: logs done over a root with megabytes and rate,
 * megabytes of one file, the rate before any time passed, and "1 log" for one.
 */
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { progressLine } from '../../scripts/support/progress'

describe('progressLine', () => {
  it('counts logs over a root with megabytes read and the rate', () => {
    assert.equal(progressLine('list', 'logs', { done: 3, total: 12, bytes: 4_250_000, seconds: 2 }), 'list: 3/12 logs, 4.3 MB, 2.1 MB/s')
    assert.equal(progressLine('scan', 'logs', { done: 1, total: 1, bytes: 120_000, seconds: 0.5 }), 'scan: 1/1 log, 0.1 MB, 0.2 MB/s')
  })

  it('counts megabytes of one file', () => {
    assert.equal(progressLine('read', 'MB', { done: 26_500_000, total: 56_123_456, bytes: 26_500_000, seconds: 0.25 }), 'read: 26.5/56.1 MB, 106.0 MB/s')
  })

  it('shows no rate before any time passed', () => {
    assert.equal(progressLine('verify', 'MB', { done: 0, total: 60_000_000, bytes: 0, seconds: 0 }), 'verify: 0.0/60.0 MB, … MB/s')
  })
})
