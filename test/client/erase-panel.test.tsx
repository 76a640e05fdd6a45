/**
 * **Erase for good…** in the Removed panel (`src/client/panel/RemovedPanel.tsx`,
 * `src/client/stores/erase-requests.ts`) in a real DOM (happy-dom) with real React 18, the real
 * rc.8 conversation engine, SlotRegistry and LocaleRuntime, and this plugin's entries mounted. The
 * host is the fake `fetch` of `support/removals-page.tsx`, which keeps pending erases as the route
 * does. Exact strings in English and Chinese; the confirmation by keyboard (focus, Tab trapped,
 * Escape); pending, a pending erase that failed (the host's reason, Try again at next start by
 * keyboard, refused and kept), Cancel erase, and an erased removal; the related sessions (the
 * session's copies, a source it was copied from) that hold the same messages (a checkbox per
 * removal of them there with how many messages it takes, checked unless it takes more than this
 * erase, which its label says; a line for the ones a session holds not removed, all or some), the
 * erase asked for each checked removal (a source too, through its own tombstone), and a refusal named.
 */
import { page, settle } from './support/dom'
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { act } from 'react'
import type { LogEvent } from '../../src/shared/events'
import type { EraseCopyValue } from '../../src/shared/protocol'
import { appended } from './support/log'
import { click, removalsPages, type RemovalsPage } from './support/removals-page'

const { mount } = removalsPages()

const removedButton = (p: RemovalsPage) => p.header.querySelector('button[data-message-recall-removed]') as HTMLButtonElement
const entry = (p: RemovalsPage, seq: number) => p.header.querySelector(`[data-message-recall-entry="${seq}"]`) as HTMLElement
const eraseButton = (p: RemovalsPage, seq: number, action: string) => entry(p, seq).querySelector(`[data-message-recall-erase-action="${action}"]`) as HTMLButtonElement | null
const buttonsOf = (e: HTMLElement) => [...e.querySelectorAll('button')].map((b) => b.textContent)

/** A keydown on the focused element, bubbling as a real key press does. */
async function key(name: string, shiftKey = false): Promise<void> {
  await act(async () => {
    const target = page.document.activeElement ?? page.document.body
    target.dispatchEvent(new page.KeyboardEvent('keydown', { key: name, shiftKey, bubbles: true, cancelable: true }) as never)
    await settle()
  })
}

/** A session with a Delete of its second prompt and an Exclude of its third, already in its history. */
/** A related session as the host's erase plan lists it: its removals there as `[tombstoneSeq, messageCount]`. */
function related(sessionId: string, title: string | null, removals: readonly (readonly [number, number])[], notRemovedCount: number, live: boolean): EraseCopyValue {
  return { sessionId, title, tombstoneSeq: removals[0]?.[0] ?? null, removals: removals.map(([tombstoneSeq, messageCount]) => ({ tombstoneSeq, messageCount })), notRemovedCount, live }
}

async function withRemovals(locale: 'en' | 'zh', erased = false): Promise<{ p: RemovalsPage; deleted: number; excluded: number }> {
  const { liveSession, appendTombstone } = await import('./support/page')
  const { richLog } = await import('./support/log')
  const session = liveSession('session-a', richLog() as never)
  const users = appended(session.events, 'user/message').filter((u) => (u.data as any).source.kind === 'user')
  const deleted = appendTombstone(session, 'delete', [users[1]!.seq]).seq
  const excluded = appendTombstone(session, 'exclude' as never, [users[2]!.seq]).seq
  const events = (session.events as LogEvent[]).map((e) => {
    if (!erased || e.seq !== deleted) return e
    const data = e.data as any
    return { ...e, data: { ...data, source: { ...data.source, erased: { at: '2026-12-01T20:00:00.000Z' } } } } as LogEvent
  })
  const p = await mount({ locale, events })
  return { p, deleted, excluded }
}

describe('Erase for good in the Removed panel', () => {
  it('offers Erase for good… on a removal in effect (not on an exclusion), confirms by keyboard, shows the pending erase and cancels it', async () => {
    const { p, deleted, excluded } = await withRemovals('en')
    await click(removedButton(p))
    assert.deepEqual(p.host.of('pendingErases'), [{ sessionId: 'session-a', action: 'pendingErases' }], 'the panel reads the pending erases when it opens')
    assert.deepEqual(buttonsOf(entry(p, deleted)), ['Restore', 'Open a copy', 'Erase for good…'])
    assert.deepEqual(buttonsOf(entry(p, excluded)), ['Restore', 'Open a copy'], 'an exclusion offers no erase')
    const open = eraseButton(p, deleted, 'open')!
    assert.equal(open.getAttribute('type'), 'button')
    assert.equal(open.getAttribute('aria-label'), 'Erase the messages of this removal for good: deleted from the disk when the host next starts')

    // Keyboard: focus the button, Enter opens the confirmation (a button's click), focus on Keep.
    open.focus()
    await click(open)
    const confirm = entry(p, deleted).querySelector('[data-message-recall-erase-confirm]') as HTMLElement
    assert.equal(confirm.getAttribute('role'), 'alertdialog')
    assert.equal(confirm.getAttribute('aria-label'), 'Erase 1 message for good?')
    assert.equal(confirm.querySelector('[data-message-recall-erase-title]')!.textContent, 'Erase 1 message for good?')
    assert.equal(confirm.querySelector('[data-message-recall-erase-body]')!.textContent, 'Their text goes from the session log on disk, with the images and tool output files only they reference. This cannot be undone: afterwards there is no Undo, Restore or Open a copy from before it. It happens when the host next starts; restart the host to erase now.')
    assert.deepEqual(buttonsOf(confirm), ['Erase for good', 'Keep'])
    assert.equal(confirm.querySelector('[data-message-recall-erase-also]'), null, 'no images or files go with a prompt without any')
    assert.equal(eraseButton(p, deleted, 'keep')!.getAttribute('aria-label'), 'Do not erase; close this confirmation')
    assert.equal(page.document.activeElement, eraseButton(p, deleted, 'keep'), 'focus starts on Keep')
    await key('Tab')
    assert.equal(page.document.activeElement, eraseButton(p, deleted, 'confirm'), 'Tab stays inside the confirmation')
    await key('Tab')
    assert.equal(page.document.activeElement, eraseButton(p, deleted, 'keep'))
    await key('Tab', true)
    assert.equal(page.document.activeElement, eraseButton(p, deleted, 'confirm'))
    await key('Escape')
    assert.equal(entry(p, deleted).querySelector('[data-message-recall-erase-confirm]'), null, 'Escape is Keep')
    assert.notEqual(p.header.querySelector('[data-message-recall-panel]'), null, 'the panel stays open')
    assert.equal(page.document.activeElement, eraseButton(p, deleted, 'open'), 'focus returns to Erase for good…')
    assert.deepEqual(p.host.of('erase'), [], 'nothing was asked')

    await click(eraseButton(p, deleted, 'open'))
    await click(eraseButton(p, deleted, 'confirm'))
    assert.deepEqual(p.host.of('erase'), [{ sessionId: 'session-a', action: 'erase', when: 'next-start', tombstoneSeq: deleted }])
    const pending = entry(p, deleted).querySelector('[data-message-recall-erase-pending]') as HTMLElement
    assert.equal(pending.getAttribute('data-message-recall-erase-pending'), 'pending')
    assert.equal(pending.getAttribute('role'), 'status')
    assert.equal(pending.querySelector('span')!.textContent, 'Erase pending: it happens when the host restarts')
    assert.deepEqual(buttonsOf(entry(p, deleted)), ['Cancel erase'], 'no Restore, Open a copy or Erase while it is pending')
    const cancel = eraseButton(p, deleted, 'cancel')!
    assert.equal(cancel.getAttribute('aria-label'), 'Cancel the erase: the messages stay removed and can be restored again')
    assert.equal(page.document.activeElement, cancel, 'focus moves to Cancel erase')

    // Closed and opened again: read from the host.
    await click(p.header.querySelector('[data-message-recall-panel-close]'))
    await click(removedButton(p))
    assert.equal(p.host.of('pendingErases').length, 2)
    assert.equal(entry(p, deleted).querySelector('[data-message-recall-erase-pending] span')!.textContent, 'Erase pending: it happens when the host restarts')

    await click(eraseButton(p, deleted, 'cancel'))
    assert.deepEqual(p.host.of('cancelErase'), [{ sessionId: 'session-a', action: 'cancelErase', tombstoneSeq: deleted }])
    assert.deepEqual(buttonsOf(entry(p, deleted)), ['Restore', 'Open a copy', 'Erase for good…'])
    assert.equal(page.document.activeElement, eraseButton(p, deleted, 'open'))
  })

  it('reads in Chinese', async () => {
    const { p, deleted } = await withRemovals('zh')
    await click(removedButton(p))
    assert.deepEqual(buttonsOf(entry(p, deleted)), ['恢复', '打开副本', '永久抹除…'])
    assert.equal(eraseButton(p, deleted, 'open')!.getAttribute('aria-label'), '永久抹除这次移除的消息：主机下次启动时从磁盘上删除')
    await click(eraseButton(p, deleted, 'open'))
    const confirm = entry(p, deleted).querySelector('[data-message-recall-erase-confirm]') as HTMLElement
    assert.equal(confirm.querySelector('[data-message-recall-erase-title]')!.textContent, '永久抹除 1 条消息？')
    assert.equal(confirm.querySelector('[data-message-recall-erase-body]')!.textContent, '它们的文字会从磁盘上的会话日志中删除，只被它们引用的图片和工具输出文件也会删除。此操作无法撤销：之后不能再撤销、恢复，也不能打开它之前的副本。抹除在主机下次启动时进行；要立即抹除，请重启主机。')
    assert.deepEqual(buttonsOf(confirm), ['永久抹除', '保留'])
    await click(eraseButton(p, deleted, 'confirm'))
    assert.equal(entry(p, deleted).querySelector('[data-message-recall-erase-pending] span')!.textContent, '等待抹除：主机重启时进行')
    assert.deepEqual(buttonsOf(entry(p, deleted)), ['取消抹除'])
    assert.equal(eraseButton(p, deleted, 'cancel')!.getAttribute('aria-label'), '取消抹除：这些消息仍然是已移除状态，可以再恢复')
  })

  it('counts the messages of a removal of a step and the files the host\'s plan names: "Erase 3 messages for good?"', async () => {
    const p = await mount()
    const step = p.harness.keys('assistant-step')[0]!
    const snapshot = (globalThis as any).__DSH_MESSAGE_RECALL__.snapshot()
    const stepSeq = snapshot.anchors.find((a: any) => a.key === step).seq as number
    const toolSeqs = appended(p.session.events, 'tool/result').slice(0, 2).map((e) => e.seq)
    p.removals({ [stepSeq]: [stepSeq, ...toolSeqs] })
    const rowButton = () => p.container.querySelector(`[data-chat-flow-key="${step}"] [data-message-recall-action="delete"]`)
    await click(rowButton())
    await click(rowButton())
    const tombstone = p.session.events.length - 1
    await click(removedButton(p))
    await click(eraseButton(p, tombstone, 'open'))
    assert.deepEqual(p.host.of('plan').at(-1), { sessionId: 'session-a', action: 'plan', planAction: 'erase', tombstoneSeq: tombstone })
    assert.equal(entry(p, tombstone).querySelector('[data-message-recall-erase-title]')!.textContent, 'Erase 3 messages for good?')
    // The host's plan counts what goes with them (here the stand-in counts each tool result as a file).
    assert.equal(entry(p, tombstone).querySelector('[data-message-recall-erase-also]')!.textContent, 'Also deleted, unless another session uses them: 2 tool output files.')
    await act(async () => { p.client.locale.setLocale('zh'); await settle() })
    assert.equal(entry(p, tombstone).querySelector('[data-message-recall-erase-title]')!.textContent, '永久抹除 3 条消息？')
    assert.equal(entry(p, tombstone).querySelector('[data-message-recall-erase-also]')!.textContent, '同时删除（除非其他会话仍在使用）：2 个工具输出文件。')
  })

  it('a pending erase that failed at the last start says why, offers Try again at next start (by keyboard) and Cancel erase', async () => {
    const { p, deleted } = await withRemovals('en')
    const problem = 'message-recall: Path is a directory: rm returned EISDIR (is a directory) …/session.jsonl.zstd.0123456789ab.erase.tmp'
    p.erases.set(deleted, { tombstoneSeq: deleted, scheduledAt: new Date(0).toISOString(), messageCount: 1, imageCount: 0, fileCount: 0, state: 'failed', problem })
    await click(removedButton(p))
    const failed = entry(p, deleted).querySelector('[data-message-recall-erase-pending]') as HTMLElement
    assert.equal(failed.getAttribute('data-message-recall-erase-pending'), 'failed')
    assert.equal(failed.getAttribute('role'), 'status')
    assert.equal(failed.querySelector('span')!.textContent, 'Erase for good did not go through when the host started; nothing was changed')
    const reason = () => entry(p, deleted).querySelector('[data-message-recall-erase-problem]')!.textContent
    assert.equal(reason(), 'Reason from the host: Path is a directory: rm returned EISDIR (is a directory) …/session.jsonl.zstd.0123456789ab.erase.tmp')
    assert.deepEqual(buttonsOf(entry(p, deleted)), ['Try again at next start', 'Cancel erase'])
    const retry = eraseButton(p, deleted, 'retry')!
    assert.equal(retry.getAttribute('type'), 'button')
    assert.equal(retry.getAttribute('aria-label'), 'Try the erase for good again: it happens when the host next starts')

    await act(async () => { p.client.locale.setLocale('zh'); await settle() })
    assert.equal(failed.querySelector('span')!.textContent, '主机启动时永久抹除没有完成，什么都没有改变')
    assert.equal(reason(), '主机给出的原因：Path is a directory: rm returned EISDIR (is a directory) …/session.jsonl.zstd.0123456789ab.erase.tmp', 'the host\'s sentence as it came, under a translated label')
    assert.deepEqual(buttonsOf(entry(p, deleted)), ['下次启动时再试', '取消抹除'])
    assert.equal(eraseButton(p, deleted, 'retry')!.getAttribute('aria-label'), '再试一次永久抹除：主机下次启动时进行')
    await act(async () => { p.client.locale.setLocale('en'); await settle() })

    // Refused (the host's check answers): the refusal is named, the failed record stays, focus stays on Try again.
    const script = p.host.script
    p.host.script = async (body) => body.action === 'erase'
      ? { status: 423, body: { ok: false, error: { code: 'AGENT_BUSY', message: 'message-recall: session "session-a" is busy with 1 earlier write(s)' } } }
      : script(body)
    eraseButton(p, deleted, 'retry')!.focus()
    await click(eraseButton(p, deleted, 'retry'))
    assert.deepEqual(p.host.of('erase'), [{ sessionId: 'session-a', action: 'erase', when: 'next-start', tombstoneSeq: deleted }], 'the session\'s own removal, asked again')
    assert.equal(entry(p, deleted).querySelector('[data-message-recall-entry-error]')!.textContent, 'The agent is working. Try again when it stops.')
    assert.equal(entry(p, deleted).querySelector('[data-message-recall-erase-pending]')!.getAttribute('data-message-recall-erase-pending'), 'failed')
    assert.equal(page.document.activeElement, eraseButton(p, deleted, 'retry'), 'focus stays on Try again at next start')

    // Kept pending again: the line reads pending, no reason, Cancel erase focused.
    p.host.script = script
    await click(eraseButton(p, deleted, 'retry'))
    assert.equal(p.host.of('erase').length, 2)
    assert.deepEqual(p.erases.get(deleted), { tombstoneSeq: deleted, scheduledAt: new Date(0).toISOString(), messageCount: 1, imageCount: 0, fileCount: 0, state: 'pending' }, 'the host keeps it pending')
    const pending = entry(p, deleted).querySelector('[data-message-recall-erase-pending]') as HTMLElement
    assert.equal(pending.getAttribute('data-message-recall-erase-pending'), 'pending')
    assert.equal(pending.querySelector('span')!.textContent, 'Erase pending: it happens when the host restarts')
    assert.equal(entry(p, deleted).querySelector('[data-message-recall-erase-problem]'), null)
    assert.equal(entry(p, deleted).querySelector('[data-message-recall-entry-error]'), null, 'the refusal is gone with the new request')
    assert.deepEqual(buttonsOf(entry(p, deleted)), ['Cancel erase'])
    assert.equal(page.document.activeElement, eraseButton(p, deleted, 'cancel'), 'focus moves to Cancel erase')
  })

  it('a failed erase can still be cancelled', async () => {
    const { p, deleted } = await withRemovals('zh')
    p.erases.set(deleted, { tombstoneSeq: deleted, scheduledAt: new Date(0).toISOString(), messageCount: 1, imageCount: 0, fileCount: 0, state: 'failed', problem: 'message-recall: the erased log did not verify, nothing changed: the new log derives other messages' })
    await click(removedButton(p))
    assert.equal(entry(p, deleted).querySelector('[data-message-recall-erase-problem]')!.textContent, '主机给出的原因：the erased log did not verify, nothing changed: the new log derives other messages')
    await click(eraseButton(p, deleted, 'cancel'))
    assert.deepEqual(p.host.of('cancelErase'), [{ sessionId: 'session-a', action: 'cancelErase', tombstoneSeq: deleted }])
    assert.deepEqual(buttonsOf(entry(p, deleted)), ['恢复', '打开副本', '永久抹除…'])
    assert.equal(page.document.activeElement, eraseButton(p, deleted, 'open'))
  })

  it('an erased removal reads "Erased for good" and offers nothing', async () => {
    const { p, deleted } = await withRemovals('en', true)
    await click(removedButton(p))
    assert.equal(entry(p, deleted).querySelector('[data-message-recall-entry-erased]')!.textContent, 'Erased for good')
    assert.deepEqual(buttonsOf(entry(p, deleted)), [])
    await act(async () => { p.client.locale.setLocale('zh'); await settle() })
    assert.equal(entry(p, deleted).querySelector('[data-message-recall-entry-erased]')!.textContent, '已永久抹除')
  })

  it('keeps Confirm disabled until the host\'s plan (with the copies) is read', async () => {
    const { p, deleted } = await withRemovals('en')
    p.copies.listed = [related('copy-1', 'Audit (copy)', [[40, 1]], 0, true)]
    const script = p.host.script
    let release!: () => void
    const held = new Promise<void>((resolve) => { release = resolve })
    p.host.script = async (body) => {
      if (body.action === 'plan' && body.planAction === 'erase') await held
      return script(body)
    }
    await click(removedButton(p))
    await click(eraseButton(p, deleted, 'open'))
    const confirm = eraseButton(p, deleted, 'confirm')!
    assert.deepEqual([confirm.disabled, confirm.getAttribute('aria-busy')], [true, 'true'], 'Confirm waits for the plan')
    assert.equal(entry(p, deleted).querySelector('[data-message-recall-erase-copies]'), null)
    await act(async () => {
      release()
      await settle()
    })
    assert.deepEqual([eraseButton(p, deleted, 'confirm')!.disabled, eraseButton(p, deleted, 'confirm')!.getAttribute('aria-busy')], [false, null])
    assert.equal(entry(p, deleted).querySelector('[data-message-recall-erase-copies] p')!.textContent, 'Also in 1 related session: “Audit (copy)”.')
  })

  it('lists the related sessions that hold the same messages (the source among them), erases in each checked one too, and names one that refused', async () => {
    const { p, deleted } = await withRemovals('en')
    p.copies.listed = [
      related('source-1', 'Audit', [[12, 1]], 0, true),
      related('copy-2', 'Audit (copy 2)', [[41, 1], [43, 1]], 0, false),
      related('copy-3', null, [[42, 5]], 0, false),
      related('copy-part', 'Audit (part)', [[44, 1]], 2, false),
      related('copy-old', 'Audit (before)', [], 1, false),
    ]
    p.copies.refusals.set('copy-2', 'AGENT_BUSY')
    await click(removedButton(p))
    await click(eraseButton(p, deleted, 'open'))
    const confirm = entry(p, deleted).querySelector('[data-message-recall-erase-confirm]') as HTMLElement
    const copies = confirm.querySelector('[data-message-recall-erase-copies]') as HTMLElement
    assert.equal(copies.querySelector('p')!.textContent, 'Also in 5 related sessions: “Audit”, “Audit (copy 2)”, “Untitled session”, “Audit (part)”, “Audit (before)”.')
    const labels = [...copies.querySelectorAll('label')] as HTMLLabelElement[]
    assert.deepEqual(labels.map((l) => [l.getAttribute('data-message-recall-erase-copy'), l.getAttribute('data-message-recall-erase-copy-removal'), l.textContent]), [
      ['source-1', '12', 'Erase in “Audit” too (its removal there of 1 message)'],
      ['copy-2', '41', 'Erase in “Audit (copy 2)” too (its removal there of 1 message)'],
      ['copy-2', '43', 'Erase in “Audit (copy 2)” too (its removal there of 1 message)'],
      ['copy-3', '42', 'Erase in “Untitled session” too (its removal there of 5 messages, more than this erase takes, so not checked by default)'],
      ['copy-part', '44', 'Erase in “Audit (part)” too (its removal there of 1 message)'],
    ], 'one checkbox per removal there, with how many messages it takes')
    const boxes = labels.map((l) => l.querySelector('input') as HTMLInputElement)
    assert.deepEqual(boxes.map((b) => [b.type, b.checked]), [['checkbox', true], ['checkbox', true], ['checkbox', true], ['checkbox', false], ['checkbox', true]], 'a real checkbox in its label, checked by default unless it takes more than this erase')
    assert.deepEqual([...copies.querySelectorAll('[data-message-recall-erase-copy-held]')].map((e) => [e.getAttribute('data-message-recall-erase-copy-held'), e.textContent]), [
      ['copy-part', '2 of them are not removed in “Audit (part)”, so they are not erased there; remove them in that session first.'],
      ['copy-old', '“Audit (before)” holds them not removed, so they are not erased there; remove them in that session first.'],
    ])
    // Tab goes through the checkboxes and the two buttons, and stays inside.
    assert.equal(page.document.activeElement, eraseButton(p, deleted, 'keep'))
    await key('Tab')
    assert.equal(page.document.activeElement, boxes[0])
    await key('Tab', true)
    assert.equal(page.document.activeElement, eraseButton(p, deleted, 'keep'))

    await click(boxes[2])
    await click(boxes[3])
    assert.deepEqual(boxes.map((b) => b.checked), [true, true, false, true, true], 'one of two removals unchecked, the wider one checked')
    await click(eraseButton(p, deleted, 'confirm'))
    assert.deepEqual(p.host.of('erase'), [
      { sessionId: 'session-a', action: 'erase', when: 'next-start', tombstoneSeq: deleted },
      { sessionId: 'source-1', action: 'erase', when: 'next-start', tombstoneSeq: 12 },
      { sessionId: 'copy-2', action: 'erase', when: 'next-start', tombstoneSeq: 41 },
      { sessionId: 'copy-3', action: 'erase', when: 'next-start', tombstoneSeq: 42 },
      { sessionId: 'copy-part', action: 'erase', when: 'next-start', tombstoneSeq: 44 },
    ], 'the session and each checked removal (its source too), each in its own session')
    assert.equal(entry(p, deleted).querySelector('[data-message-recall-erase-pending] span')!.textContent, 'Erase pending: it happens when the host restarts')
    const refused = [...entry(p, deleted).querySelectorAll('[data-message-recall-erase-copy-error]')] as HTMLElement[]
    assert.deepEqual(refused.map((e) => [e.getAttribute('data-message-recall-erase-copy-error'), e.getAttribute('role'), e.textContent]), [
      ['copy-2', 'alert', 'The erase was not kept for the session “Audit (copy 2)”: The agent is working. Try again when it stops.'],
    ])
    await act(async () => { p.client.locale.setLocale('zh'); await settle() })
    assert.equal(refused[0]!.textContent, '没能在会话“Audit (copy 2)”中安排抹除：智能体正在工作，请等它停下再试')
  })

  it('reads the related sessions in Chinese, and one in English', async () => {
    const { p, deleted } = await withRemovals('zh')
    p.copies.listed = [related('copy-1', '审计（副本）', [[40, 1]], 0, true), related('copy-old', null, [], 1, false), related('copy-wide', '宽', [[45, 3]], 2, false)]
    await click(removedButton(p))
    await click(eraseButton(p, deleted, 'open'))
    const copies = entry(p, deleted).querySelector('[data-message-recall-erase-copies]') as HTMLElement
    assert.equal(copies.querySelector('p')!.textContent, '另有 3 个相关会话包含这些消息：“审计（副本）”、“未命名会话”、“宽”。')
    assert.deepEqual([...copies.querySelectorAll('label')].map((l) => [l.textContent, l.querySelector('input')!.checked]), [
      ['同时在“审计（副本）”中抹除（它在那里的这次移除共 1 条消息）', true],
      ['同时在“宽”中抹除（它在那里的这次移除共 3 条消息，多于这里抹除的，所以默认不勾选）', false],
    ])
    assert.deepEqual([...copies.querySelectorAll('[data-message-recall-erase-copy-held]')].map((e) => e.textContent), [
      '“未命名会话”中这些消息没有被移除，不会在那里抹除；要抹除，请先在那个会话中移除它们。',
      '其中 2 条消息在“宽”中没有被移除，不会在那里抹除；要抹除，请先在那个会话中移除它们。',
    ])
    p.copies.listed = [p.copies.listed[0]!]
    await click(eraseButton(p, deleted, 'keep'))
    await act(async () => { p.client.locale.setLocale('en'); await settle() })
    await click(eraseButton(p, deleted, 'open'))
    assert.equal(entry(p, deleted).querySelector('[data-message-recall-erase-copies] p')!.textContent, 'Also in 1 related session: “审计（副本）”.')
    await click(entry(p, deleted).querySelector('[data-message-recall-erase-copy="copy-1"] input'))
    await click(eraseButton(p, deleted, 'confirm'))
    assert.deepEqual(p.host.of('erase').map((b: any) => b.sessionId), ['session-a'], 'an unchecked copy is not asked')
    assert.equal(entry(p, deleted).querySelector('[data-message-recall-erase-copy-error]'), null)
  })
})
