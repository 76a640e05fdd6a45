/**
 * The chat and the conversation editor give a message the same fate, in one page: a real DOM
 * (happy-dom) with real React 18, the real rc.8 conversation engine and Chat Definitions, and this
 * plugin loaded with its overlay and both session-header entries (Removed and Edit) mounted. The
 * log is built through the real rc.8 `Session`; the editor reads it page by page through the fake
 * `fetch` of `support/fake-host.ts`, which answers the `session.history` call from that Session.
 */
import { settle } from './support/dom'
import assert from 'node:assert/strict'
import { afterEach, describe, it } from 'node:test'
import { act } from 'react'
import { createRoot, type Root } from 'react-dom/client'
import type { LogEvent } from '../../src/shared/events'
import { EDIT_ENTRY_ID } from '../../src/client/index'
import { LogBuilder } from '../host/log-builder'
import { page } from './support/dom'
import { overlayProps } from './support/page'
import { click, HEADER_SEAT, mountRemovals, type RemovalsPage } from './support/removals-page'

const pages: { p: RemovalsPage; root: Root; box: HTMLElement }[] = []
afterEach(async () => {
  for (const { p, root, box } of pages.splice(0)) {
    await act(async () => root.unmount())
    box.remove()
    await p.unmount()
  }
})

/** The pane over `events`, with the Edit entry mounted too and the history call answered from the page's Session. */
async function mountWithEditor(events: readonly LogEvent[]): Promise<RemovalsPage> {
  const p = await mountRemovals({ events })
  const removals = p.host.script
  p.host.script = (body) => {
    if (body.type !== 'client-request') return removals(body)
    const log = p.session.events as readonly LogEvent[]
    const before = body.payload.beforeSeq ?? log.length
    const from = Math.max(0, before - 4)
    const page = log.slice(from, before).map((event) => ({ event }))
    return { status: 200, body: { type: 'server-response', rpcId: body.rpcId, result: { ok: true, value: { events: page, hasMore: from > 0 } } } }
  }
  const edit = p.client.slots.entries(HEADER_SEAT).find((entry: any) => entry.id === EDIT_ENTRY_ID || entry.options?.id === EDIT_ENTRY_ID)
  assert.ok(edit, 'the Edit entry is registered in the session header')
  const box = page.document.createElement('div') as unknown as HTMLElement
  page.document.body.appendChild(box as never)
  const root = createRoot(box)
  const Edit = edit.component
  await act(async () => {
    root.render(<Edit {...overlayProps(p.client, edit, p.harness, p.composer)} />)
    await settle()
  })
  pages.push({ p, root, box })
  return p
}

const row = (p: RemovalsPage, key: string) => p.container.querySelector(`[data-chat-flow-key="${key}"]`) as HTMLElement

/** What the editor shows for one unit: its state, its state label and whether it offers Restore. */
function editorUnit(key: string) {
  const el = page.document.querySelector(`[data-message-recall-editor] li[data-editor-unit="${key}"]`) as unknown as HTMLElement | null
  assert.ok(el, `the editor lists ${key}`)
  return {
    state: el.getAttribute('data-editor-state'),
    label: el.querySelector('[data-editor-state-label]')?.textContent ?? null,
    restore: el.querySelector('[data-editor-restore]') !== null,
  }
}

describe('one fate for the chat and the editor', () => {
  it('an exclusion absorbed by a later Delete onward from an earlier row: the chat hides the prompt and the editor lists it as Removed', async () => {
    const b = new LogBuilder('one-fate')
    const t1 = b.turn('first prompt', [{ text: 'First answer.' }])
    const t2 = b.turn('second prompt', [{ text: 'Second answer.' }])
    const exclusion = b.tombstone('exclude', t2.prompt, t2.prompt)
    const onward = b.tombstone('deleteFrom', t1.steps[0]!.assistant, t2.steps[0]!.assistant)
    assert.deepEqual((b.events[onward] as LogEvent).sourceEventSeqs, [t1.steps[0]!.assistant, exclusion, t2.steps[0]!.assistant])

    const p = await mountWithEditor(b.events as readonly LogEvent[])
    const [first, second] = p.harness.keys('user')
    assert.ok(first !== undefined && second !== undefined)
    assert.equal(row(p, second).hasAttribute('data-message-recall-hidden'), true, 'the chat hides the excluded prompt the Delete onward took')
    assert.equal(row(p, second).hasAttribute('data-message-recall-excluded'), false, 'not dimmed as excluded')
    assert.equal(row(p, first).hasAttribute('data-message-recall-hidden'), false, 'the first prompt stays')

    await click(page.document.querySelector('[data-message-recall-edit]') as unknown as Element)
    await act(async () => settle())
    assert.deepEqual(editorUnit(`u${t2.prompt}`), { state: 'removed', label: 'Removed', restore: false }, 'the editor agrees: removed by the Delete onward, not excluded')
    assert.deepEqual(editorUnit(`u${t1.prompt}`), { state: 'current', label: null, restore: false })
    assert.deepEqual(editorUnit('s1.1'), { state: 'removed', label: 'Removed', restore: false })
    assert.deepEqual(editorUnit('s2.1'), { state: 'removed', label: 'Removed', restore: false })
  })

  it('a tool row whose result was pruned acts on the pruned copy, and once its step is deleted the chat hides it and the editor lists it as Removed', async () => {
    const b = new LogBuilder('one-fate-prune')
    const t1 = b.turn('first prompt', [{ text: 'Reading a.', calls: ['a'] }, { text: 'Read a.' }])
    b.turn('second prompt', [{ text: 'Second answer.' }])
    const result = t1.steps[0]!.results[0]!
    const pruned = b.prune(result)

    const p = await mountWithEditor(b.events as readonly LogEvent[])
    const [tool] = p.harness.keys('tool-call')
    const [step] = p.harness.keys('assistant-step')
    assert.ok(tool !== undefined && step !== undefined)
    const removed = [t1.steps[0]!.assistant, pruned]
    p.removals({ [pruned]: removed })
    const deleteButton = () => row(p, tool).querySelector('[data-message-recall-action="delete"]')
    await click(deleteButton())
    await click(deleteButton())
    assert.deepEqual(p.host.of('delete').map((body) => body.seq), [pruned], 'the Delete targets the pruned copy on the surface, not the replaced result')
    assert.deepEqual(p.host.of('plan').map((body) => body.seq), [pruned])
    assert.equal(row(p, tool).hasAttribute('data-message-recall-hidden'), true, 'the tool row is hidden')
    assert.equal(row(p, step).hasAttribute('data-message-recall-hidden'), true, 'with its step')

    await click(page.document.querySelector('[data-message-recall-edit]') as unknown as Element)
    await act(async () => settle())
    assert.deepEqual(editorUnit('s1.1'), { state: 'removed', label: 'Removed', restore: false })
    assert.deepEqual(editorUnit('s1.2'), { state: 'current', label: null, restore: false })
  })
})
