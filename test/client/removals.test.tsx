/**
 * Undo, Restore, Open a copy, Exclude and the Removed panel in a real DOM (happy-dom) with real
 * React 18, the real rc.8 conversation engine and Chat Definitions, the real SlotRegistry and
 * LocaleRuntime, and this plugin loaded into a cordis root with both of its entries mounted (the
 * composer overlay and the session header's utilities list). The host is the fake `fetch` of
 * `support/removals-page.tsx`; its writes land in a real rc.8 Session and reach the page live.
 */
import { page, settle, waitFor } from './support/dom'
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { act } from 'react'
import type { LogEvent } from '../../src/shared/events'
import { appended } from './support/log'
import { click, removalsPages, press, type RemovalsPage } from './support/removals-page'

const { mount, unmount } = removalsPages()

const snapshot = () => (globalThis as any).__DSH_MESSAGE_RECALL__.snapshot()
const seqOf = (key: string) => snapshot().anchors.find((a: any) => a.key === key).seq as number
const row = (p: RemovalsPage, key: string) => p.container.querySelector(`[data-chat-flow-key="${key}"]`) as HTMLElement
const button = (p: RemovalsPage, key: string, action: string) => row(p, key).querySelector(`[data-message-recall-action="${action}"]`) as HTMLButtonElement | null
const actionsOf = (p: RemovalsPage, key: string) => [...row(p, key).querySelectorAll('[data-message-recall-action]')].map((b) => b.getAttribute('data-message-recall-action')).join(',')
const notice = (p: RemovalsPage) => p.container.querySelector('[data-message-recall-undo]') as HTMLElement | null
const noticeText = (p: RemovalsPage) => notice(p)?.querySelector('[data-message-recall-undo-text]')?.textContent ?? null
const noticeButton = (p: RemovalsPage, action: string) => notice(p)?.querySelector(`[data-message-recall-undo-action="${action}"]`) as HTMLButtonElement | null
const removedButton = (p: RemovalsPage) => p.header.querySelector('button[data-message-recall-removed]') as HTMLButtonElement | null
const entries = (p: RemovalsPage) => [...p.header.querySelectorAll('[data-message-recall-entry]')] as HTMLElement[]

/** Press a row button twice: arm, then commit. */
async function twice(p: RemovalsPage, key: string, action: string): Promise<void> {
  await click(button(p, key, action))
  await click(button(p, key, action))
}

/** The `index`-th prompt row, with the host set to remove just that prompt. */
function prompt(p: RemovalsPage, index: number): { key: string; seq: number } {
  const key = p.harness.keys('user')[index]!
  const seq = seqOf(key)
  p.removals({ [seq]: [seq] })
  return { key, seq }
}

/** The step of turn 1 (an answer with two tool calls) and its tool rows. */
function firstStep(p: RemovalsPage) {
  const step = p.harness.keys('assistant-step')[0]!
  const tools = p.harness.keys('tool-call').slice(0, 2)
  const stepSeq = seqOf(step)
  const toolSeqs = appended(p.session.events, 'tool/result').slice(0, 2).map((e) => e.seq)
  return { step, tools, stepSeq, removed: [stepSeq, ...toolSeqs] }
}

describe('undo notice after a removal', () => {
  it('Delete of a prompt: "Deleted 1 message" with Undo; Undo restores the row in place and later actions target the copy', async () => {
    const p = await mount()
    const { key, seq } = prompt(p, 1)
    await twice(p, key, 'delete')
    assert.equal(row(p, key).hasAttribute('data-message-recall-hidden'), true)
    assert.equal(noticeText(p), 'Deleted 1 message')
    assert.equal(notice(p)!.getAttribute('role'), 'status')
    const undo = noticeButton(p, 'undo')!
    assert.equal(undo.tagName, 'BUTTON')
    assert.equal(undo.textContent, 'Undo')
    assert.equal(undo.getAttribute('aria-label'), 'Undo this removal and put the message back in place')
    assert.equal(noticeButton(p, 'forkBefore'), null)
    const tombstoneSeq = p.session.events.length - 1
    await click(undo)
    assert.deepEqual(p.host.of('restore'), [{ sessionId: 'session-a', action: 'restore', tombstoneSeq }])
    assert.equal(row(p, key).hasAttribute('data-message-recall-hidden'), false, 'the row is back')
    assert.equal(noticeText(p), 'The message is back in place')
    assert.equal(noticeButton(p, 'undo'), null)
    const copySeq = p.session.events.length - 1
    assert.equal(seqOf(key), seq, 'the row still stands for its original message')
    // A later action on the row acts on the restoring copy.
    p.removals({ [copySeq]: [copySeq] })
    await click(button(p, key, 'delete'))
    assert.equal(p.host.of('plan').at(-1)!.seq, copySeq)
  })

  it('Recall: "Recalled your message"; after Undo the composer keeps what it holds, and the notice says so', async () => {
    const p = await mount()
    const { key } = prompt(p, 0)
    await click(button(p, key, 'recall'))
    assert.equal(p.composer.draft, 'read the config')
    assert.equal(noticeText(p), 'Recalled your message')
    await act(async () => p.composer.type('read the config, then the tests'))
    await click(noticeButton(p, 'undo'))
    assert.equal(row(p, key).hasAttribute('data-message-recall-hidden'), false)
    assert.equal(p.composer.draft, 'read the config, then the tests')
    assert.deepEqual(p.composer.drafts, ['read the config'], 'the undo wrote nothing into the composer')
    assert.equal(noticeText(p), 'The message is back in place. The composer keeps its text.')
  })

  it('Delete of a model step: "Deleted 3 messages" with Open a copy, which asks for a copy from before and opens it', async () => {
    const p = await mount()
    const { step, stepSeq, removed } = firstStep(p)
    p.removals({ [stepSeq]: removed })
    await twice(p, step, 'delete')
    assert.equal(noticeText(p), 'Deleted 3 messages')
    assert.equal(noticeButton(p, 'undo'), null, 'a model step cannot come back in place')
    const open = noticeButton(p, 'forkBefore')!
    assert.equal(open.textContent, 'Open a copy')
    assert.equal(open.getAttribute('aria-label'), 'Open a new session with the conversation from before this removal')
    const tombstoneSeq = p.session.events.length - 1
    p.sessions.pendingIds.push(`session-copy-${tombstoneSeq}`)
    await click(open)
    assert.deepEqual(p.host.of('forkBefore'), [{ sessionId: 'session-a', action: 'forkBefore', tombstoneSeq }])
    assert.deepEqual(p.sessions.opened, [`session-copy-${tombstoneSeq}`])
    assert.equal(p.sessions.refreshes, 1, 'the list is pulled first, since it did not hold the copy yet')
    assert.equal(notice(p), null)
  })

  it('Undo answered NOT_RESTORABLE offers Open a copy instead, with the reason', async () => {
    const p = await mount()
    const key = p.harness.keys('user')[1]!
    const seq = seqOf(key)
    const next = seqOf(p.harness.keys('assistant-step')[2]!)
    p.removals({ [seq]: [seq] })
    await click(button(p, key, 'recall'))
    // The host says no (here: a later removal absorbed the tombstone before the Undo).
    const script = p.host.script
    p.host.script = (body) => body.action === 'restore'
      ? { status: 409, body: { ok: false, error: { code: 'NOT_RESTORABLE', message: 'message-recall: tombstone 90 absorbed another tombstone' } } }
      : script(body)
    await click(noticeButton(p, 'undo'))
    assert.equal(noticeButton(p, 'undo'), null)
    assert.ok(noticeButton(p, 'forkBefore'))
    assert.equal(notice(p)!.querySelector('[data-message-recall-undo-error]')!.textContent, 'This removal cannot be undone in place. Open a copy instead.')
    assert.ok(next > seq)
  })

  it('Escape and Dismiss close it; Dismiss is a button with an accessible name', async () => {
    const p = await mount()
    const [a, b] = p.harness.keys('user')
    p.removals({ [seqOf(a!)]: [seqOf(a!)], [seqOf(b!)]: [seqOf(b!)] })
    await click(button(p, a!, 'recall'))
    assert.ok(notice(p))
    await press('Escape')
    assert.equal(notice(p), null)
    await click(button(p, b!, 'recall'))
    const dismiss = noticeButton(p, 'dismiss')!
    assert.equal(dismiss.getAttribute('aria-label'), 'Dismiss')
    await click(dismiss)
    assert.equal(notice(p), null)
  })
})

describe('Exclude', () => {
  it('arms with the plan count, commits on the second press, and keeps the rows in view: dimmed, labelled, Open a copy only', async () => {
    const p = await mount()
    const { step, tools, stepSeq, removed } = firstStep(p)
    p.removals({ [stepSeq]: removed })
    const exclude = button(p, step, 'exclude')!
    assert.equal(exclude.textContent, 'Exclude')
    assert.equal(exclude.getAttribute('aria-label'), "Exclude from the model's context; it stays visible")
    await click(exclude)
    assert.deepEqual(p.host.of('plan').at(-1), { sessionId: 'session-a', action: 'plan', planAction: 'exclude', seq: stepSeq, expect: p.host.of('plan').at(-1)!.expect })
    const armed = button(p, step, 'exclude')!
    assert.equal(armed.getAttribute('data-armed'), 'true')
    assert.equal(armed.textContent, 'Exclude 3?')
    assert.equal(armed.getAttribute('aria-label'), "Click again to exclude 3 messages from the model's context")
    await click(armed)
    assert.equal(p.host.of('exclude').length, 1)
    for (const key of [step, ...tools]) {
      const r = row(p, key)
      assert.equal(r.hasAttribute('data-message-recall-hidden'), false, `${key} stays in view`)
      assert.equal(r.hasAttribute('data-message-recall-excluded'), true)
      assert.equal(r.querySelector('[data-message-recall-excluded-badge]')!.textContent, 'Not sent to the model')
      assert.equal(actionsOf(p, key), 'forkBefore', 'a model step offers only a copy')
    }
    assert.equal(noticeText(p), "Excluded 3 messages from the model's context")
    assert.ok(noticeButton(p, 'forkBefore'))
    assert.deepEqual(snapshot().hidden, [])
    const tombstoneSeq = p.session.events.length - 1
    await click(button(p, tools[0]!, 'forkBefore'))
    assert.deepEqual(p.host.of('forkBefore'), [{ sessionId: 'session-a', action: 'forkBefore', tombstoneSeq }])
    // A refusal shows on the rows of the exclusion.
    const script = p.host.script
    p.host.script = (body) => body.action === 'forkBefore'
      ? { status: 409, body: { ok: false, error: { code: 'SESSION_NOT_LIVE', message: 'message-recall: session is not live' } } }
      : script(body)
    await click(button(p, step, 'forkBefore'))
    for (const key of [step, ...tools]) {
      assert.equal(row(p, key).querySelector('[data-message-recall-error]')?.textContent, 'This session is not loaded on the host.', key)
    }
  })

  it('an excluded prompt offers Restore, which ends the exclusion in place', async () => {
    const p = await mount()
    const { key } = prompt(p, 2)
    await twice(p, key, 'exclude')
    assert.equal(noticeText(p), "Excluded 1 message from the model's context")
    assert.equal(actionsOf(p, key), 'restore,forkBefore')
    const restore = button(p, key, 'restore')!
    assert.equal(restore.getAttribute('aria-label'), 'Put this message back in place; the model sees it again')
    await click(restore)
    assert.equal(p.host.of('restore').length, 1)
    assert.equal(row(p, key).hasAttribute('data-message-recall-excluded'), false)
    assert.equal(row(p, key).querySelector('[data-message-recall-excluded-badge]'), null)
    assert.equal(actionsOf(p, key), 'recall,delete,deleteFrom,exclude')
  })
})

describe('Removed panel in the session header', () => {
  it('shows nothing before any removal, then "Removed" with the count in effect', async () => {
    const p = await mount()
    assert.equal(removedButton(p), null)
    const [a, b] = p.harness.keys('user')
    p.removals({ [seqOf(a!)]: [seqOf(a!)], [seqOf(b!)]: [seqOf(b!)] })
    await click(button(p, a!, 'recall'))
    await twice(p, b!, 'delete')
    const toggle = removedButton(p)!
    assert.equal(toggle.getAttribute('type'), 'button')
    assert.equal(toggle.querySelector('span')!.textContent, 'Removed')
    assert.equal(toggle.querySelector('[data-count]')!.textContent, '2')
    assert.equal(toggle.getAttribute('aria-label'), 'Removed messages: 2 removals in effect')
    await click(noticeButton(p, 'undo'))
    assert.equal(removedButton(p)!.getAttribute('aria-label'), 'Removed messages: 1 removal in effect')
  })

  it('lists the removals newest first with what, how many, the first words, tokens; Restore and Open a copy per entry; restored ones read Restored', async () => {
    const p = await mount()
    const prompt = p.harness.keys('user')[1]!
    const promptSeq = seqOf(prompt)
    const { step, stepSeq, removed } = firstStep(p)
    p.removals({ [promptSeq]: [promptSeq], [stepSeq]: removed })
    await click(button(p, prompt, 'recall'))
    const recallSeq = p.session.events.length - 1
    await twice(p, step, 'delete')
    const deleteSeq = p.session.events.length - 1
    await click(removedButton(p))
    assert.equal(removedButton(p)!.getAttribute('aria-expanded'), 'true')
    const dialog = p.header.querySelector('[data-message-recall-panel]')!
    assert.equal(dialog.getAttribute('role'), 'dialog')
    assert.equal(dialog.getAttribute('aria-label'), 'Removed messages')
    assert.equal(page.document.activeElement, dialog, 'focus moves into the panel')
    const list = entries(p)
    assert.deepEqual(list.map((e) => Number(e.getAttribute('data-message-recall-entry'))), [deleteSeq, recallSeq], 'newest first')
    const [del, rec] = list
    const meta = (e: HTMLElement) => [...e.querySelector('[data-message-recall-entry-meta]')!.children].slice(1).map((c) => c.textContent)
    // "Reading." + two tool calls (read_file {"path":"."}) + "config a" / "config b": 8 + 2×(9+12) + 8 + 8 = 66 characters.
    assert.deepEqual(meta(del!), ['Deleted', '3 messages', '≈ 17 tokens'])
    assert.equal(del!.querySelector('[data-message-recall-entry-excerpt]')!.textContent, 'Reading. read_file: config a read_file: config b')
    assert.deepEqual([...del!.querySelectorAll('[data-message-recall-entry-action]')].map((b) => b.textContent), ['Open a copy'])
    assert.deepEqual(meta(rec!), ['Recalled', '1 message', '≈ 4 tokens'])
    assert.equal(rec!.querySelector('[data-message-recall-entry-excerpt]')!.textContent, 'list the sources')
    const time = rec!.querySelector('time')!
    assert.equal(time.getAttribute('datetime'), new Date(p.session.events[recallSeq]!.time).toISOString())
    // The chat's clock: the removal was written today, so 24-hour HH:mm alone.
    const at = new Date(p.session.events[recallSeq]!.time)
    assert.equal(time.textContent, `${String(at.getHours()).padStart(2, '0')}:${String(at.getMinutes()).padStart(2, '0')}`)
    assert.deepEqual([...rec!.querySelectorAll('[data-message-recall-entry-action]')].map((b) => b.textContent), ['Restore', 'Open a copy'])

    await click(rec!.querySelector('[data-message-recall-entry-action="restore"]'))
    assert.deepEqual(p.host.of('restore'), [{ sessionId: 'session-a', action: 'restore', tombstoneSeq: recallSeq }])
    const restored = entries(p).find((e) => Number(e.getAttribute('data-message-recall-entry')) === recallSeq)!
    assert.equal(restored.hasAttribute('data-restored'), true)
    assert.equal(restored.querySelector('[data-message-recall-entry-restored]')!.textContent, 'Restored')
    assert.deepEqual([...restored.querySelectorAll('[data-message-recall-entry-action]')].map((b) => b.textContent), ['Open a copy'])
    assert.equal(row(p, prompt).hasAttribute('data-message-recall-hidden'), false)

    await click(entries(p)[0]!.querySelector('[data-message-recall-entry-action="forkBefore"]'))
    assert.deepEqual(p.host.of('forkBefore').map((b) => b.tombstoneSeq), [deleteSeq])
    assert.deepEqual(p.sessions.opened, [`session-copy-${deleteSeq}`])

    await press('Escape')
    assert.equal(p.header.querySelector('[data-message-recall-panel]'), null)
    assert.equal(page.document.activeElement, removedButton(p), 'focus returns to the button')
  })

  it('lists the removals already in the history when the page opens (read from the durable log, not from this page\'s requests)', async () => {
    const { liveSession, appendTombstone } = await import('./support/page')
    const { richLog } = await import('./support/log')
    const session = liveSession('session-a', richLog() as never)
    const users = appended(session.events, 'user/message').filter((u) => (u.data as any).source.kind === 'user')
    appendTombstone(session, 'recall', [users[0]!.seq])
    appendTombstone(session, 'exclude' as never, [users[1]!.seq])
    const p = await mount({ events: session.events as LogEvent[] })
    assert.equal(removedButton(p)!.querySelector('[data-count]')!.textContent, '2')
    await click(removedButton(p))
    assert.deepEqual(entries(p).map((e) => e.getAttribute('data-action')), ['exclude', 'recall'])
    assert.equal(entries(p)[0]!.querySelector('[data-message-recall-entry-what]')!.textContent, 'Excluded')
    assert.deepEqual(p.host.requests.map((r) => r.body.action), ['pendingErases'], 'nothing was asked of the host but its pending erases')
  })
})

describe('Removed panel with many removals', () => {
  it('renders the newest 30 entries in its first frame, then the rest in steps of 100 per frame, newest first', async () => {
    const { liveSession, appendTombstone } = await import('./support/page')
    const { conversationLog, syntheticTurns } = await import('../support/conversation')
    const { PANEL_FIRST_WINDOW, PANEL_STEP } = await import('../../src/client/panel/RemovedPanel')
    assert.deepEqual([PANEL_FIRST_WINDOW, PANEL_STEP], [30, 100])
    const session = liveSession('session-a', conversationLog(syntheticTurns(150)) as never)
    const users = appended(session.events, 'user/message').filter((u) => (u.data as any).source.kind === 'user')
    const tombstones = users.slice(0, 150).map((u) => appendTombstone(session, 'delete', [u.seq]).seq)
    assert.equal(tombstones.length, 150)
    const p = await mount({ events: session.events as LogEvent[] })
    // The click's own render, before any animation frame.
    act(() => { removedButton(p)!.click() })
    const seqs = () => entries(p).map((e) => Number(e.getAttribute('data-message-recall-entry')))
    assert.deepEqual(seqs(), tombstones.slice(-30).reverse(), 'the first frame: the newest 30')
    for (const deadline = Date.now() + 10_000; entries(p).length < 150 && Date.now() < deadline;) await act(() => new Promise<void>((resolve) => requestAnimationFrame(() => resolve())))
    assert.deepEqual(seqs(), [...tombstones].reverse(), 'then every entry, newest first')
  })
})

describe('an Apply cut short by a torn write', () => {
  it('the Removed panel names it and the changes that did not take effect, in English and Chinese', async () => {
    const { liveSession } = await import('./support/page')
    const { richLog } = await import('./support/log')
    const { planBatch } = await import('../../src/host/batch-plan')
    const { appendBatch } = await import('../../src/host/batch-writer')
    const full = liveSession('session-a', richLog() as never)
    const prompts = ['read the config', 'list the sources', 'run the build'].map((text) => appended(full.events, 'user/message').find((u) => (u.data as any).content[0].text === text)!.seq)
    const changes = prompts.map((seq) => ({ action: 'delete' as const, seq }))
    const planned = planBatch({ nodes: full.surface.nodes, lookup: (seq) => full.events[seq] as LogEvent, nextSeq: full.seq, changes })
    assert.ok(planned.ok)
    const results = appendBatch(full, planned.plan, changes)
    // What a power loss in the batch's second block leaves: only its first tombstone.
    const torn = full.events.slice(0, results[0]!.tombstoneSeq + 1) as LogEvent[]
    for (const locale of ['en', 'zh'] as const) {
      const p = await mount({ events: torn, locale })
      await click(removedButton(p))
      await waitFor(() => p.header.querySelector('[data-message-recall-cut-short]') !== null, 'the host names the batch too')
      assert.deepEqual(p.host.requests.filter((r) => r.body.action === 'inspect').map((r) => r.body), [{ sessionId: 'session-a', action: 'inspect' }], 'one inspect')
      const note = p.header.querySelector('[data-message-recall-cut-short]') as HTMLElement
      assert.equal(note.getAttribute('role'), 'note')
      assert.equal(note.querySelector('p')!.textContent, locale === 'en'
        ? 'An Apply was cut short while it was saved: 2 of its 3 changes did not take effect. Apply them again in the editor.'
        : '一次批量应用在写入磁盘时被中断：3 项改动中有 2 项没有生效，可以在编辑器中重新应用')
      assert.deepEqual([...note.querySelectorAll('li')].map((li) => li.textContent), locale === 'en'
        ? ['Delete: list the sources', 'Delete: run the build']
        : ['删除: list the sources', '删除: run the build'])
      assert.equal(entries(p).length, 1, 'the one tombstone on disk is listed')
      await unmount(p)
    }
  })

  it('a copy whose seed ends inside a batch (Open a copy of its later tombstone) names no Apply cut short', async () => {
    const { liveSession } = await import('./support/page')
    const { planBatch } = await import('../../src/host/batch-plan')
    const { appendBatch } = await import('../../src/host/batch-writer')
    const { planFork } = await import('../../src/host/fork-plan')
    const { conversationLog, syntheticTurns } = await import('../support/conversation')
    // Three finished turns: a copy is cut between turns.
    const full = liveSession('session-source', conversationLog(syntheticTurns(3, { toolSteps: 0 })))
    const changes = appended(full.events, 'user/message').map((u) => ({ action: 'delete' as const, seq: u.seq }))
    assert.equal(changes.length, 3)
    const planned = planBatch({ nodes: full.surface.nodes, lookup: (seq) => full.events[seq] as LogEvent, nextSeq: full.seq, changes })
    assert.ok(planned.ok)
    const results = appendBatch(full, planned.plan, changes)
    // The copy `forkBefore` makes of the batch's second tombstone: its seed and header.
    const fork = planFork({ id: full.id, header: full.header, events: full.events, lookup: (seq) => full.events[seq] as LogEvent, origin: 'live' }, results[1]!.tombstoneSeq)
    assert.ok(fork.ok, JSON.stringify(fork))
    const header = { version: full.header.version, id: 'session-a', createdAt: full.header.createdAt, ...fork.plan.meta } as never
    const p = await mount({ events: fork.plan.seed as LogEvent[], header })
    await click(removedButton(p))
    await waitFor(() => p.host.requests.some((r) => r.body.action === 'inspect'), 'the panel asks the host')
    await settle()
    assert.equal(p.header.querySelector('[data-message-recall-cut-short]'), null, 'no note in the copy')
    assert.equal(entries(p).length, 1, 'its one tombstone is listed')
    await unmount(p)

    // The same log without the copy's header: what a power loss leaves, and the note is back.
    const q = await mount({ events: fork.plan.seed as LogEvent[] })
    await click(removedButton(q))
    await waitFor(() => q.header.querySelector('[data-message-recall-cut-short]') !== null, 'the note of a torn batch')
    assert.equal(q.header.querySelector('[data-message-recall-cut-short] p')!.textContent, 'An Apply was cut short while it was saved: 2 of its 3 changes did not take effect. Apply them again in the editor.')
    await unmount(q)
  })
})

describe('turn bar and locale', () => {
  it('the turn bar goes with a deleted final answer while the prompt and the first step stay', async () => {
    const p = await mount()
    const answer = p.harness.keys('assistant-step')[1]!
    const tail = p.harness.keys('turn-tail')[0]!
    const seq = seqOf(answer)
    p.removals({ [seq]: [seq] })
    await twice(p, answer, 'delete')
    assert.equal(row(p, tail).hasAttribute('data-message-recall-hidden'), true)
    assert.deepEqual(snapshot().hidden.map((h: any) => `${h.rowKind}:${h.reason}`), ['assistant-step:shadowed', 'turn-tail:answer-removed'])
    for (const key of [p.harness.keys('user')[0]!, p.harness.keys('assistant-step')[0]!]) assert.equal(row(p, key).hasAttribute('data-message-recall-hidden'), false)
  })

  it('reads in Chinese: notice, Exclude, panel', async () => {
    const p = await mount({ locale: 'zh' })
    const { step, tools, stepSeq, removed } = firstStep(p)
    p.removals({ [stepSeq]: removed })
    assert.equal(button(p, step, 'exclude')!.textContent, '排除')
    assert.equal(button(p, step, 'exclude')!.getAttribute('aria-label'), '从模型上下文中排除；消息仍然可见')
    await click(button(p, step, 'exclude'))
    assert.equal(button(p, step, 'exclude')!.textContent, '确认排除 3 条？')
    await click(button(p, step, 'exclude'))
    assert.equal(noticeText(p), '已从模型上下文中排除 3 条消息')
    assert.equal(noticeButton(p, 'forkBefore')!.textContent, '打开副本')
    assert.equal(row(p, tools[0]!).querySelector('[data-message-recall-excluded-badge]')!.textContent, '不发送给模型')
    assert.equal(removedButton(p)!.querySelector('span')!.textContent, '已移除')
    assert.equal(removedButton(p)!.getAttribute('aria-label'), '已移除的消息：1 项仍在生效')
    await click(removedButton(p))
    const meta = [...entries(p)[0]!.querySelector('[data-message-recall-entry-meta]')!.children].slice(1).map((c) => c.textContent)
    assert.deepEqual(meta, ['排除', '3 条消息', '约 17 个 token'])
    await act(async () => { p.client.locale.setLocale('en'); await settle() })
    assert.equal(noticeText(p), "Excluded 3 messages from the model's context")
    assert.equal(removedButton(p)!.querySelector('span')!.textContent, 'Removed')
  })
})
