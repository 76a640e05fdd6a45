/**
 * A removal's durable answer hides its rows before the tombstone's live event, in a real DOM
 * (happy-dom) with real React 18, the real rc.8 conversation engine and Chat Definitions and this
 * plugin's entries (`support/removals-page.tsx`). The host is the fake `fetch` of
 * `support/fake-host.ts`: each write appends its tombstone to the test's real rc.8 Session, and the
 * test decides when that event reaches the page live (the web host sends it after the shadow
 * price's frames) and when the answer's body can be read after its headers.
 */
import { settle } from './support/dom'
import assert from 'node:assert/strict'
import { afterEach, describe, it } from 'node:test'
import { act } from 'react'
import type { LogEvent } from '../../src/shared/events'
import { durableHeaderOf } from '../../src/shared/durable-header'
import { plainText } from '../../src/shared/message-text'
import { durableTombstoneOf } from '../../src/client/rows/durable-tombstones'
import { replacementRecord, selectReplacements } from '../../src/client/wire/replacement-view'
import { deriveHiddenRows } from '../../src/shared/hidden-rows'
import { resolveRow } from '../../src/client/rows/resolve-row'
import { hostLike, refusal, type Answer } from './support/fake-host'
import { appendTombstone } from './support/page'
import { click, mountRemovals, type RemovalsPage } from './support/removals-page'

const pages: RemovalsPage[] = []
afterEach(async () => {
  for (const p of pages.splice(0)) await p.unmount()
})
async function mount(): Promise<RemovalsPage> {
  const p = await mountRemovals()
  pages.push(p)
  return p
}

const snapshot = () => (globalThis as any).__DSH_MESSAGE_RECALL__.snapshot()
const seqOf = (key: string) => snapshot().anchors.find((a: any) => a.key === key).seq as number
const row = (p: RemovalsPage, key: string) => p.container.querySelector(`[data-chat-flow-key="${key}"]`) as HTMLElement
const hidden = (p: RemovalsPage, key: string) => row(p, key).hasAttribute('data-message-recall-hidden')
const hiddenKeys = (p: RemovalsPage) => [...p.container.querySelectorAll('[data-message-recall-hidden]')].map((r) => r.getAttribute('data-chat-flow-key'))
const button = (p: RemovalsPage, key: string, action: string) => row(p, key).querySelector(`[data-message-recall-action="${action}"]`) as HTMLButtonElement | null
const notices = (p: RemovalsPage) => [...p.container.querySelectorAll('[data-message-recall-undo] [data-message-recall-undo-text]')].map((n) => n.textContent)
const rowError = (p: RemovalsPage, key: string) => row(p, key).querySelector('[data-message-recall-error]')?.textContent ?? null

/** A write whose tombstone is in the Session but not yet in the page, and how it was answered. */
interface HeldWrite {
  /** The tombstone event the live stream has not delivered yet. */
  readonly event: LogEvent
  /** Lets the answer's body be read. */
  readonly releaseBody: () => void
}

/**
 * Script the host for the second prompt: `plan` as the route plans it; the write appends its
 * tombstone to the real Session (nothing reaches the page live) and answers with `answerOf`.
 */
function holdLiveEvents(p: RemovalsPage, answerOf: (value: Record<string, unknown>, event: LogEvent) => Exclude<Answer, 'network'>): { key: string; seq: number; writes: HeldWrite[] } {
  const key = p.harness.keys('user')[1]!
  const seq = seqOf(key)
  const plans = hostLike(p.session, p.harness, { [seq]: [seq] })
  const writes: HeldWrite[] = []
  p.host.script = (body) => {
    if (body.action === 'plan') return plans(body)
    const event = appendTombstone(p.session, body.action, [seq]) as unknown as LogEvent
    let releaseBody = () => {}
    const bodyAfter = new Promise<void>((resolve) => { releaseBody = resolve })
    writes.push({ event, releaseBody: () => releaseBody() })
    const value = { action: body.action, tombstoneSeq: event.seq, range: { start: seq, end: seq }, shadowedSeqs: [seq], nodeKinds: ['user'], replaceGeneration: p.session.surface.replaceGeneration, persisted: true }
    return { ...answerOf(value, event), bodyAfter }
  }
  return { key, seq, writes }
}

/** Deliver a held tombstone live, as the web host's event stream finally does. */
async function deliver(p: RemovalsPage, event: LogEvent): Promise<void> {
  await act(async () => {
    p.harness.append(event)
    await settle()
  })
}

/** Let a held answer's body be read. */
async function releaseBody(write: HeldWrite): Promise<void> {
  await act(async () => {
    write.releaseBody()
    await settle()
  })
}

/** Arm Delete on the row, then the second click. */
async function deleteTwice(p: RemovalsPage, key: string): Promise<void> {
  await click(button(p, key, 'delete'))
  assert.equal(button(p, key, 'delete')!.getAttribute('data-armed'), 'true', 'the first click armed Delete')
  await click(button(p, key, 'delete'))
}

describe('the durable answer hides the rows', () => {
  it('on its header, before the body is read and before the live event; the live event keeps the same rows hidden, with one notice', async () => {
    const p = await mount()
    const { key, writes } = holdLiveEvents(p, (value) => ({ status: 200, body: { ok: true, value }, headers: { 'x-message-recall-tombstone': durableHeaderOf(value)! } }))
    await deleteTwice(p, key)
    assert.equal(writes.length, 1)
    assert.equal(hidden(p, key), true, 'hidden on the answer\'s header')
    assert.deepEqual(hiddenKeys(p), [key])
    assert.deepEqual(notices(p), [], 'the undo notice waits for the body')
    await releaseBody(writes[0]!)
    assert.deepEqual(hiddenKeys(p), [key])
    assert.deepEqual(notices(p), ['Deleted 1 message'])
    const before = snapshot()
    assert.deepEqual(before.hidden.map((h: any) => [h.key, h.tombstoneSeq]), [[key, writes[0]!.event.seq]])
    await deliver(p, writes[0]!.event)
    assert.deepEqual(hiddenKeys(p), [key], 'the live event confirms the same row')
    assert.deepEqual(notices(p), ['Deleted 1 message'], 'no second notice')
    assert.deepEqual(snapshot().hidden, before.hidden, 'the fate reader reads the same fates from the live event')
    assert.deepEqual(snapshot().tombstones, before.tombstones)
  })

  it('on its body when the header is absent, while the live event is delayed', async () => {
    const p = await mount()
    const { key, writes } = holdLiveEvents(p, (value) => ({ status: 200, body: { ok: true, value } }))
    await deleteTwice(p, key)
    assert.equal(hidden(p, key), false, 'no header: nothing is known before the body')
    await releaseBody(writes[0]!)
    assert.equal(hidden(p, key), true, 'hidden once the answer is read, the live event still delayed')
    assert.deepEqual(notices(p), ['Deleted 1 message'])
    await deliver(p, writes[0]!.event)
    assert.deepEqual(hiddenKeys(p), [key])
    assert.deepEqual(notices(p), ['Deleted 1 message'])
  })

  it('Recall: the durable answer\'s header brings the text into the composer once, before the body and the live event', async () => {
    const p = await mount()
    const { key, seq, writes } = holdLiveEvents(p, (value) => {
      const content = (p.session.events[seq]!.data as any).content
      const full = { ...value, content, text: plainText(content) }
      return { status: 200, body: { ok: true, value: full }, headers: { 'x-message-recall-tombstone': durableHeaderOf(full)! } }
    })
    const text = plainText((p.session.events[seq]!.data as any).content)
    await click(button(p, key, 'recall'))
    assert.equal(hidden(p, key), true)
    assert.deepEqual(p.composer.drafts, [text], 'the page\'s copy of the prompt, on the header')
    await releaseBody(writes[0]!)
    await deliver(p, writes[0]!.event)
    assert.deepEqual(p.composer.drafts, [text], 'neither the body nor the live event brings it again')
    assert.deepEqual(notices(p), ['Recalled your message'])
    assert.deepEqual(hiddenKeys(p), [key])
  })

  it('a refused write hides nothing (STALE_VIEW, even with a tombstone header on the refusal); the row shows the refusal', async () => {
    const p = await mount()
    const key = p.harness.keys('user')[1]!
    const seq = seqOf(key)
    const plans = hostLike(p.session, p.harness, { [seq]: [seq] })
    const count = p.session.events.length
    const forged = durableHeaderOf({ action: 'delete', tombstoneSeq: count, range: { start: seq, end: seq }, shadowedSeqs: [seq], persisted: true })!
    p.host.script = (body) => body.action === 'plan' ? plans(body) : { ...refusal('STALE_VIEW') as Exclude<Answer, 'network'>, headers: { 'x-message-recall-tombstone': forged } }
    await deleteTwice(p, key)
    assert.equal(p.session.events.length, count, 'nothing appended')
    assert.deepEqual(hiddenKeys(p), [])
    assert.equal(rowError(p, key), 'The conversation just changed. Try again.')
    assert.deepEqual(notices(p), [])
    assert.deepEqual(snapshot().hidden, [])
  })

  it('a write in effect but not saved (PERSIST_FAILED) is hidden only by its live event, and a failed request hides nothing', async () => {
    const p = await mount()
    const { key, writes } = holdLiveEvents(p, (value) => ({ status: 500, body: { ok: false, error: { code: 'PERSIST_FAILED', message: 'message-recall: not yet durable', applied: true, value: { ...value, persisted: false } } } }))
    await deleteTwice(p, key)
    await releaseBody(writes[0]!)
    assert.equal(hidden(p, key), false, 'not durable: the answer hides nothing')
    await deliver(p, writes[0]!.event)
    assert.equal(hidden(p, key), true, 'the tombstone in the live log hides it, as before')

    const q = await mount()
    const other = q.harness.keys('user')[1]!
    const plans = hostLike(q.session, q.harness, { [seqOf(other)]: [seqOf(other)] })
    q.host.script = (body) => body.action === 'plan' ? plans(body) : 'network'
    await deleteTwice(q, other)
    assert.deepEqual(hiddenKeys(q), [])
    assert.equal(rowError(q, other), 'Could not reach the host.')
  })

  it('the record built from the answer is the replacement view\'s record of the live tombstone (time apart), so every row reads the same fate', async () => {
    const p = await mount()
    const key = p.harness.keys('assistant-step')[0]!
    const step = seqOf(key)
    const tools = p.session.events.filter((e) => e.type === 'tool/result' && e.surfaceOp === 'append').slice(0, 2).map((e) => e.seq)
    const shadowed = [step, ...tools].sort((a, b) => p.session.surface.nodes.indexOf(a) - p.session.surface.nodes.indexOf(b))
    const event = appendTombstone(p.session, 'delete', shadowed) as unknown as LogEvent
    const facts = { action: 'delete' as const, tombstoneSeq: event.seq, range: { start: shadowed[0]!, end: shadowed.at(-1)! }, shadowedSeqs: shadowed }
    const fromAnswer = durableTombstoneOf(facts, 0)
    const fromLive = replacementRecord(event)
    assert.deepEqual({ ...fromAnswer, time: 0 }, { ...fromLive, time: 0 })
    const anchors = p.harness.snapshot.chat.order.map((k) => resolveRow(p.harness.node(k)))
    const viewBefore = selectReplacements(p.harness.snapshot)
    const byAnswer = deriveHiddenRows([...viewBefore, fromAnswer], anchors)
    const byLive = deriveHiddenRows([...viewBefore, fromLive], anchors)
    assert.deepEqual([...byAnswer.hiddenKeys].sort(), [...byLive.hiddenKeys].sort())
    assert.ok(byAnswer.hiddenKeys.has(key))
    assert.deepEqual(byAnswer.hidden, byLive.hidden)
  })
})
