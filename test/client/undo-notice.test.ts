/**
 * The undo notice's timing (`src/client/notices/undo-notice.ts`) with controlled timers: it goes on its
 * timer, stays while held (pointer or focus on it), and a successful Undo gives it a shorter time.
 */
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { restorableInPlace, UndoNotice } from '../../src/client/notices/undo-notice'

/** Timers that run only when the test advances the clock. */
class Clock {
  now = 0
  private next = 1
  private readonly pending = new Map<number, { at: number; run: () => void }>()
  readonly timers = {
    setTimeout: (run: () => void, ms: number) => { const id = this.next++; this.pending.set(id, { at: this.now + ms, run }); return id },
    clearTimeout: (id: unknown) => { this.pending.delete(id as number) },
  }
  advance(ms: number): void {
    this.now += ms
    for (const [id, timer] of [...this.pending].sort((a, b) => a[1].at - b[1].at)) {
      if (timer.at > this.now) continue
      this.pending.delete(id)
      timer.run()
    }
  }
}

const removal = { action: 'delete' as const, nodeKinds: ['user' as const], tombstoneSeq: 40 }

describe('undo notice timing', () => {
  it('goes after 8 s, stays while held and gets its full time again on release', () => {
    const clock = new Clock()
    const notice = new UndoNotice({ timers: clock.timers })
    notice.show(removal)
    clock.advance(7_999)
    assert.equal(notice.getSnapshot()?.tombstoneSeq, 40)
    notice.hold(true)
    clock.advance(60_000)
    assert.ok(notice.getSnapshot(), 'held: it stays')
    notice.hold(false)
    clock.advance(7_999)
    assert.ok(notice.getSnapshot())
    clock.advance(1)
    assert.equal(notice.getSnapshot(), null)
  })

  it('after a successful Undo it reads restored and goes after 4 s; a later removal replaces it', () => {
    const clock = new Clock()
    const notice = new UndoNotice({ timers: clock.timers })
    notice.show(removal)
    notice.restored(41)
    assert.equal(notice.getSnapshot()?.restored, false, 'another tombstone changes nothing')
    notice.restored(40)
    assert.equal(notice.getSnapshot()?.restored, true)
    clock.advance(3_999)
    assert.ok(notice.getSnapshot())
    clock.advance(1)
    assert.equal(notice.getSnapshot(), null)
    notice.show(removal)
    const first = notice.getSnapshot()!.id
    notice.show({ action: 'deleteFrom', nodeKinds: ['user', 'assistant', 'tombstone'], tombstoneSeq: 50 })
    assert.deepEqual({ ...notice.getSnapshot()!, id: 0 }, { id: 0, action: 'deleteFrom', count: 2, tombstoneSeq: 50, restorable: false, restored: false })
    assert.ok(notice.getSnapshot()!.id > first)
  })

  it('offers Undo only for one message the person sent', () => {
    assert.equal(restorableInPlace({ action: 'delete', nodeKinds: ['user'] }), true)
    assert.equal(restorableInPlace({ action: 'delete', nodeKinds: ['context'] }), false)
    assert.equal(restorableInPlace({ action: 'delete', nodeKinds: ['assistant', 'tool'] }), false)
    assert.equal(restorableInPlace({ action: 'delete', nodeKinds: ['user', 'assistant'] }), false)
  })
})
