/**
 * The per-session button store: arming protocol, timers, one request at a time, refusals kept per
 * row, disposal, and the pure readers of plan and recall replies; the image notice after a recall. The sender is a recorded script
 * (the wire); timers are driven by hand.
 */
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { parseReply, type RecallReply, type RecallRequest, type RecallSender } from '../../src/client/wire/api'
import { planCount, ButtonStore, recalledMessage, type RecalledMessage, type RowTarget } from '../../src/client/rows/button-store'
import { ImageNotice } from '../../src/client/recall/image-notice'
import type { Timers } from '../../src/client/stores/timers'
import type { GenerationBaseline } from '../../src/client/rows/view-expectation'
import type { PlanValue, RemovalValue } from '../../src/shared/protocol'

class ManualTimers implements Timers {
  private next = 1
  readonly pending = new Map<number, { at: number; run: () => void }>()
  now = 0
  setTimeout(callback: () => void, ms: number): number {
    const id = this.next++
    this.pending.set(id, { at: this.now + ms, run: callback })
    return id
  }
  clearTimeout(handle: unknown): void {
    this.pending.delete(handle as number)
  }
  advance(ms: number): void {
    this.now += ms
    for (const [id, timer] of [...this.pending].sort((a, b) => a[1].at - b[1].at)) {
      if (timer.at <= this.now && this.pending.delete(id)) timer.run()
    }
  }
}

/** A reply as the route sends it, to a plan or to a removal. */
type Reply = RecallReply<PlanValue> | RecallReply<RemovalValue>

/** The view's expectation as the state owner computes it: a fixed newest seq, the baseline's generation once known. */
const expectation = (baseline: GenerationBaseline | null) => ({ lastSeq: 40, ...(baseline ? { replaceGeneration: baseline.replaceGeneration } : {}) })

function setup(answer: (request: RecallRequest) => Reply | Promise<Reply>) {
  const timers = new ManualTimers()
  const sent: RecallRequest[] = []
  const recalled: RecalledMessage[] = []
  // The wire stand-in answers any request; the route contract pairs each action with its value type.
  const send = (async (request: RecallRequest) => {
    sent.push(request)
    return answer(request)
  }) as RecallSender
  const buttons = new ButtonStore({ sessionId: 's1', send, onRecalled: (message) => recalled.push(message), timers })
  const press = (target: RowTarget) => buttons.press(target, expectation(buttons.generationBaseline))
  return { buttons, press, timers, sent, recalled }
}

const plan = (removedSeqs: number[]): Reply => ({ ok: true, value: {
  action: 'delete', range: { start: removedSeqs[0]!, end: removedSeqs.at(-1)! }, shadowedSeqs: removedSeqs, nodeKinds: removedSeqs.map(() => 'user'), removedCount: removedSeqs.length,
  estimatedTokens: 10, replaceGeneration: 3, lastSeq: 40,
} })
const removal = (patch: Partial<RemovalValue>): RemovalValue => ({
  action: 'recall', tombstoneSeq: 41, range: { start: 12, end: 12 }, shadowedSeqs: [12], nodeKinds: ['user'], replaceGeneration: 1, persisted: true, ...patch,
})
const written: Reply = { ok: true, value: removal({ action: 'delete', replaceGeneration: 4 }) }

describe('ButtonStore', () => {
  it('arms on the first press, commits on the second with the plan\'s view, and learns the generation baseline', async () => {
    const { buttons, press, sent } = setup((r) => (r.action === 'plan' ? plan([12, 13]) : written))
    assert.equal(await press({ key: 'k', seq: 12, action: 'delete' }), 'armed')
    assert.deepEqual(buttons.getSnapshot().armed, { key: 'k', seq: 12, action: 'delete', count: 2, expect: { replaceGeneration: 3, lastSeq: 40, removedCount: 2 } })
    assert.equal(await press({ key: 'k', seq: 12, action: 'delete' }), 'committed')
    assert.deepEqual(sent.map((r) => [r.action, r.expect]), [['plan', { lastSeq: 40 }], ['delete', { replaceGeneration: 3, lastSeq: 40, removedCount: 2 }]])
    assert.equal(buttons.getSnapshot().armed, null)
    assert.deepEqual(buttons.generationBaseline, { replaceGeneration: 4, atSeq: 41 })
  })

  it('on a folded row, Recall arms first with the rewrite\'s cost, commits on the second press, and a press while it runs cancels it', async () => {
    const rewritePlan: Reply = { ok: true, value: {
      action: 'recall', range: { start: 30, end: 30 }, shadowedSeqs: [30], nodeKinds: ['checkpoint'], removedCount: 1, estimatedTokens: 9, replaceGeneration: 3, lastSeq: 40,
      summaryRewrite: { checkpointSeq: 30, removedSeqs: [12], inputMessages: 4, estimatedInputTokens: 1234 },
    } }
    const recalledValue = removal({ action: 'recall', tombstoneSeq: 44, range: { start: 30, end: 30 }, shadowedSeqs: [30], nodeKinds: ['checkpoint'], removedSeqs: [12], text: 'folded prompt', content: [{ type: 'text', text: 'folded prompt' }] })
    const signals: (AbortSignal | undefined)[] = []
    let release: (reply: Reply) => void = () => {}
    const recalled: RecalledMessage[] = []
    const sent: RecallRequest[] = []
    const send = (async (request: RecallRequest, options?: { signal?: AbortSignal }) => {
      sent.push(request)
      signals.push(options?.signal)
      if (request.action === 'plan') return rewritePlan
      return new Promise<Reply>((resolve) => { release = resolve })
    }) as RecallSender
    const store = new ButtonStore({ sessionId: 's1', send, onRecalled: (message) => recalled.push(message), timers: new ManualTimers() })
    const target = { key: 'k', seq: 12, action: 'recall' as const, folded: true as const }
    assert.equal(await store.press(target, { lastSeq: 40 }), 'armed')
    assert.deepEqual(store.getSnapshot().armed, { key: 'k', seq: 12, action: 'recall', count: 1, expect: { replaceGeneration: 3, lastSeq: 40, removedCount: 1 }, rewrite: { tokens: 1234 } })
    const committing = store.press(target, { lastSeq: 40 })
    assert.deepEqual(store.getSnapshot().pending, { key: 'k', action: 'recall', phase: 'commit', rewrite: true })
    assert.equal(signals[1]?.aborted, false, 'the commit carries a signal')
    release({ ok: true, value: recalledValue })
    assert.equal(await committing, 'committed')
    assert.deepEqual(recalled, [{ text: 'folded prompt', content: [{ type: 'text', text: 'folded prompt' }] }])

    // A second press on the rewriting button cancels the request.
    assert.equal(await store.press(target, { lastSeq: 44 }), 'armed')
    const second = store.press(target, { lastSeq: 44 })
    assert.equal(await store.press(target, { lastSeq: 44 }), 'ignored')
    assert.equal(signals[3]?.aborted, true, 'cancelled')
    release({ ok: false, error: { code: 'CANCELLED', message: 'message-recall: cancelled; nothing was written' } } as Reply)
    assert.equal(await second, 'refused')
    assert.equal(store.getSnapshot().errors.get('k')?.code, 'CANCELLED')
  })

  it('disarms after armMs without committing', async () => {
    const { buttons, press, timers, sent } = setup((r) => (r.action === 'plan' ? plan([12]) : written))
    await press({ key: 'k', seq: 12, action: 'deleteFrom' })
    timers.advance(3999)
    assert.notEqual(buttons.getSnapshot().armed, null)
    timers.advance(1)
    assert.equal(buttons.getSnapshot().armed, null)
    assert.equal(await press({ key: 'k', seq: 12, action: 'deleteFrom' }), 'armed', 'a late second press arms again')
    assert.deepEqual(sent.map((r) => r.action), ['plan', 'plan'])
  })

  it('ignores presses while a request is in flight', async () => {
    let release!: (reply: Reply) => void
    const { buttons, press, sent } = setup(() => new Promise<Reply>((resolve) => { release = resolve }))
    const first = press({ key: 'k', seq: 12, action: 'recall' })
    assert.deepEqual(buttons.getSnapshot().pending, { key: 'k', action: 'recall', phase: 'commit' })
    assert.equal(await press({ key: 'j', seq: 14, action: 'delete' }), 'ignored')
    release({ ok: true, value: removal({ text: 'hello', content: [{ type: 'text', text: 'hello' }] }) })
    assert.equal(await first, 'committed')
    assert.equal(sent.length, 1)
  })

  it('keeps a refusal as the row error for errorMs, and a new press on the row clears it', async () => {
    const { buttons, press, timers } = setup(() => ({ ok: false, error: { code: 'STALE_VIEW', message: 'stale' } }))
    assert.equal(await press({ key: 'k', seq: 12, action: 'recall' }), 'refused')
    assert.deepEqual(buttons.getSnapshot().errors.get('k'), { key: 'k', code: 'STALE_VIEW', message: 'stale' })
    assert.equal(buttons.getSnapshot().pending, null)
    timers.advance(6000)
    assert.equal(buttons.getSnapshot().errors.size, 0)
    await press({ key: 'k', seq: 12, action: 'recall' })
    assert.equal(buttons.getSnapshot().errors.size, 1)
  })

  it('hands the recalled text and content to the composer; the image notice names what was left behind', async () => {
    const { buttons, press, recalled, timers } = setup(() => ({ ok: true, value: removal({ text: 'line one\nline two', content: [
      { type: 'text', text: 'line one\n' }, { type: 'image', attachment: { width: 2, height: 3 } }, { type: 'text', text: 'line two' },
    ] }) }))
    await press({ key: 'k', seq: 12, action: 'recall' })
    assert.deepEqual(recalled, [{ text: 'line one\nline two', content: [
      { type: 'text', text: 'line one\n' }, { type: 'image', attachment: { width: 2, height: 3 } }, { type: 'text', text: 'line two' },
    ] }])
    assert.deepEqual(Object.keys(buttons.getSnapshot()), ['armed', 'pending', 'errors'], 'the button store holds no notice')
    const notice = new ImageNotice({ timers })
    let notified = 0
    notice.subscribe(() => notified++)
    notice.show([])
    assert.equal(notice.getSnapshot(), null, 'the images go back first; only what did not is named')
    notice.show([{ name: '#1 2×3', reason: 'unreadable' }])
    assert.deepEqual(notice.getSnapshot(), { id: 1, lost: [{ name: '#1 2×3', reason: 'unreadable' }] })
    timers.advance(9_999)
    assert.equal(notice.getSnapshot()?.id, 1)
    timers.advance(1)
    assert.equal(notice.getSnapshot(), null)
    assert.equal(notified, 2)
    notice.show([{ name: '#2 4×4', reason: 'unreadable' }])
    notice.dispose()
    notice.dismiss()
    assert.equal(notice.getSnapshot()?.id, 2, 'after dispose nothing changes')
    assert.equal(timers.pending.size, 0, 'dispose stops the timer')
  })

  it('after dispose: presses resolve disposed, replies in flight change nothing, listeners are dropped', async () => {
    let release!: (reply: Reply) => void
    const { buttons, press, recalled } = setup(() => new Promise<Reply>((resolve) => { release = resolve }))
    let notified = 0
    buttons.subscribe(() => notified++)
    const inFlight = press({ key: 'k', seq: 12, action: 'recall' })
    const seen = notified
    buttons.dispose()
    release({ ok: true, value: removal({ text: 'late' }) })
    assert.equal(await inFlight, 'disposed')
    assert.equal(await press({ key: 'k', seq: 12, action: 'recall' }), 'disposed')
    assert.deepEqual(recalled, [])
    assert.equal(notified, seen)
  })
})

describe('reply readers', () => {
  it('counts the messages a plan removes without the tombstones it absorbs', () => {
    assert.equal(planCount({ nodeKinds: ['user', 'tombstone', 'assistant'] }), 2)
    assert.equal(planCount({ nodeKinds: ['tombstone'] }), 1)
  })

  it('reads a recall reply: text from `text`, else from the text blocks; the content as logged', () => {
    assert.deepEqual(recalledMessage({ text: 'exact', content: [{ type: 'text', text: 'other' }] }), { text: 'exact', content: [{ type: 'text', text: 'other' }] })
    assert.deepEqual(recalledMessage({ content: [{ type: 'image', attachment: { name: 'shot.png' } }] }), { text: '', content: [{ type: 'image', attachment: { name: 'shot.png' } }] })
    assert.deepEqual(recalledMessage({}), { text: '', content: [] })
  })

  it('parses the route envelope and turns anything else into NETWORK', () => {
    assert.deepEqual(parseReply(200, '{"ok":true,"value":{"a":1}}'), { ok: true, value: { a: 1 } })
    assert.deepEqual(parseReply(423, '{"ok":false,"error":{"code":"AGENT_BUSY","message":"busy"}}'), { ok: false, error: { code: 'AGENT_BUSY', message: 'busy' } })
    assert.deepEqual(parseReply(502, '<html>'), { ok: false, error: { code: 'NETWORK', message: 'HTTP 502: reply is not JSON' } })
    assert.deepEqual(parseReply(200, '{"ok":true}'), { ok: false, error: { code: 'NETWORK', message: 'HTTP 200: reply does not follow the route contract' } })
  })
})
