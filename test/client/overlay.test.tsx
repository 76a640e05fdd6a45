/**
 * The client half in a real DOM (happy-dom) with real React 18, the real rc.8 conversation engine
 * and Chat Definitions, the real SlotRegistry and LocaleRuntime, and this plugin loaded into a
 * cordis root. The host route is the fake `fetch` of `support/fake-host.ts` (the wire); writes it
 * accepts are appended to a real rc.8 Session and delivered to the page like live events.
 */
import { page, settle, waitFor } from './support/dom'
import assert from 'node:assert/strict'
import { afterEach, describe, it } from 'node:test'
import { act } from 'react'
import { createRoot, type Root } from 'react-dom/client'
import type { Session } from '@deepseek-ai/dsh-session'
import type { LogEvent } from '../../src/shared/events'
import { appended, richLog } from './support/log'
import { conversationLog, syntheticTurns } from '../support/conversation'
import { FakeHost, hostLike, refusal } from './support/fake-host'
import { bootClient, ChatPane, ComposerStore, liveSession, overlayEntries, overlayProps, type BootedClient, type SessionHarness } from './support/page'

interface Mounted {
  client: BootedClient
  plugin: { dispose(): Promise<void> }
  session: Session
  harness: SessionHarness
  composer: ComposerStore
  host: FakeHost
  container: HTMLElement
  root: Root
  render(): void
}

const cleanups: (() => Promise<void> | void)[] = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

async function mount(options: { locale?: 'zh' | 'en'; id?: string; events?: readonly LogEvent[]; hasMore?: boolean } = {}): Promise<Mounted> {
  const id = options.id ?? 'session-a'
  const client = await bootClient({ locale: options.locale ?? 'en' })
  const plugin = await client.loadPlugin()
  const session = liveSession(id, (options.events ?? richLog()) as never)
  const harness = client.session(id)
  harness.load([...session.events] as LogEvent[], options.hasMore ?? false)
  const composer = new ComposerStore()
  const host = new FakeHost()
  const container = page.document.createElement('div') as unknown as HTMLElement
  page.document.body.appendChild(container as never)
  const root = createRoot(container)
  const render = () => {
    const [entry] = overlayEntries(client)
    const Overlay = entry?.component
    root.render(<ChatPane harness={harness} composer={composer} overlay={Overlay ? <Overlay {...overlayProps(client, entry, harness, composer)} /> : null} />)
  }
  await act(async () => render())
  await settle()
  cleanups.push(async () => {
    await act(async () => root.unmount())
    container.remove()
    host.restore()
    await client.dispose()
  })
  return { client, plugin, session, harness, composer, host, container, root, render }
}

const row = (m: Mounted, key: string) => m.container.querySelector(`[data-chat-flow-key="${key}"]`) as HTMLElement
const buttonOf = (m: Mounted, key: string, action: string) => row(m, key).querySelector(`[data-message-recall-action="${action}"]`) as HTMLButtonElement | null
const hiddenRows = (m: Mounted) => [...m.container.querySelectorAll('[data-message-recall-hidden]')].map((r) => r.getAttribute('data-chat-flow-kind'))
const snapshot = () => (globalThis as any).__DSH_MESSAGE_RECALL__.snapshot()
async function click(element: Element | null): Promise<void> {
  assert.ok(element, 'element to click exists')
  await act(async () => {
    ;(element as HTMLElement).click()
    await settle()
  })
}
const seqOf = (m: Mounted, key: string) => snapshot().anchors.find((a: any) => a.key === key).seq as number

describe('client overlay in the page', () => {
  it('mounts headless in conversation.input.overlay and decorates exactly the rows that map to durable messages', async () => {
    const m = await mount()
    const [entry] = overlayEntries(m.client)
    assert.equal(entry.options.id, 'dsh-message-recall')
    const anchor = m.container.querySelector('.overlayAnchor')!
    assert.deepEqual([...anchor.children].map((c) => `${c.tagName}:${c.hasAttribute('hidden')}`), ['SPAN:true', 'DIV:false'])
    assert.equal(anchor.querySelector('[data-message-recall-notices]')!.childElementCount, 0, 'the notice column is empty until a notice shows')
    const byKind = new Map<string, string[]>()
    for (const r of m.container.querySelectorAll('[data-chat-flow-key]')) {
      const actions = [...r.querySelectorAll('[data-message-recall-action]')].map((b) => b.getAttribute('data-message-recall-action')).join(',')
      byKind.set(r.getAttribute('data-chat-flow-kind')!, [...(byKind.get(r.getAttribute('data-chat-flow-kind')!) ?? []), actions])
    }
    assert.deepEqual(byKind.get('user'), Array(4).fill('recall,delete,deleteFrom,exclude'))
    assert.deepEqual(byKind.get('steering'), ['recall,delete,deleteFrom,exclude'])
    assert.ok(byKind.get('assistant-step')!.every((a) => a === 'delete,deleteFrom,exclude'))
    assert.deepEqual(byKind.get('tool-call'), ['delete,deleteFrom,exclude', 'delete,deleteFrom,exclude', 'delete,deleteFrom,exclude', ''], 'the running tool has none')
    for (const kind of ['context', 'turn-tail', 'turn-error']) assert.ok(byKind.get(kind)!.every((a) => a === ''), kind)
    for (const b of m.container.querySelectorAll('[data-message-recall-action]')) {
      assert.equal(b.tagName, 'BUTTON')
      assert.equal(b.getAttribute('type'), 'button')
      assert.ok((b.getAttribute('aria-label') ?? '').length > 5)
    }
    assert.equal(m.container.querySelectorAll('[data-message-recall-actions]').length, m.container.querySelectorAll('[data-message-recall-row]').length)
    assert.match((globalThis as any).__DSH_MESSAGE_RECALL__.stamp, /^(dev|\d+\.\d+\.\d+\+[0-9a-f]{10})$/)
  })

  it('withdraws everything with the plugin fiber: entry, marks, style, dictionaries, debug hook', async () => {
    const m = await mount()
    const user = m.harness.keys('user')[0]!
    m.container.querySelector('[data-chat-flow-kind="turn-tail"]')!.setAttribute('hidden', '')
    assert.ok(page.document.querySelector('style[data-message-recall-style]'))
    await act(async () => {
      await m.plugin.dispose()
      m.render()
      await settle()
    })
    assert.equal(overlayEntries(m.client).length, 0)
    assert.equal(m.container.querySelectorAll('[data-message-recall-actions],[data-message-recall-row],[data-message-recall-hidden]').length, 0)
    assert.equal(page.document.querySelector('style[data-message-recall-style]'), null)
    assert.equal(m.client.locale.bind('dsh-message-recall')('action.delete'), 'action.delete')
    assert.ok(!m.client.events.entries().some((d: any) => d.kind === 'dsh-message-recall-replacement'))
    assert.equal((globalThis as any).__DSH_MESSAGE_RECALL__, undefined)
    assert.ok(row(m, user))
    assert.ok(m.container.querySelector('[data-chat-flow-kind="turn-tail"]')!.hasAttribute('hidden'), 'a UI-owned attribute is left alone')
  })

  it('arms Delete with the plan count on the first click and commits on the second, with the plan\'s view as expect', async () => {
    const m = await mount()
    const stepKey = m.harness.keys('assistant-step')[0]!
    const stepSeq = seqOf(m, stepKey)
    const tools = appended(m.session.events, 'tool/result').slice(0, 2).map((e) => e.seq)
    m.host.script = hostLike(m.session, m.harness, { [stepSeq]: [stepSeq, ...tools] })
    await click(buttonOf(m, stepKey, 'delete'))
    const [plan] = m.host.of('plan')
    assert.deepEqual(plan, { sessionId: 'session-a', action: 'plan', planAction: 'delete', seq: stepSeq, expect: { replaceGeneration: 0, lastSeq: Math.max(...m.session.surface.nodes) } })
    const armed = buttonOf(m, stepKey, 'delete')!
    assert.equal(armed.getAttribute('data-armed'), 'true')
    assert.equal(armed.textContent, 'Delete 3?')
    assert.equal(armed.getAttribute('aria-label'), 'Click again to delete 3 messages')
    assert.equal(m.host.of('delete').length, 0)
    await click(armed)
    const [commit] = m.host.of('delete')
    assert.deepEqual(commit, { sessionId: 'session-a', action: 'delete', seq: stepSeq, expect: { ...plan!.expect, removedCount: 3 } }, 'the plan\'s view and its count, confirmed')
    assert.deepEqual(hiddenRows(m), ['assistant-step', 'tool-call', 'tool-call'])
    const hidden = snapshot().hidden
    assert.deepEqual(hidden.map((h: any) => h.reason), ['shadowed', 'shadowed', 'shadowed'])
    assert.equal(hidden[0].tombstoneSeq, m.session.events.length - 1)
  })

  it('disarms on a click elsewhere, on Escape and on another button, and never commits then', async () => {
    const m = await mount()
    const [u1, u2] = m.harness.keys('user')
    m.host.script = hostLike(m.session, m.harness, { [seqOf(m, u1!)]: [seqOf(m, u1!)], [seqOf(m, u2!)]: [seqOf(m, u2!)] })
    await click(buttonOf(m, u1!, 'delete'))
    assert.equal(buttonOf(m, u1!, 'delete')!.getAttribute('data-armed'), 'true')
    assert.equal(buttonOf(m, u1!, 'delete')!.getAttribute('aria-label'), 'Click again to delete 1 message', 'one message reads singular')
    await act(async () => {
      page.document.body.dispatchEvent(new page.PointerEvent('pointerdown', { bubbles: true }))
      await settle()
    })
    assert.equal(buttonOf(m, u1!, 'delete')!.hasAttribute('data-armed'), false)
    assert.equal(buttonOf(m, u1!, 'delete')!.textContent, 'Delete')
    await click(buttonOf(m, u1!, 'delete'))
    await act(async () => {
      page.document.dispatchEvent(new page.KeyboardEvent('keydown', { key: 'Escape', bubbles: true }))
      await settle()
    })
    assert.equal(buttonOf(m, u1!, 'delete')!.hasAttribute('data-armed'), false)
    await click(buttonOf(m, u1!, 'delete'))
    await click(buttonOf(m, u2!, 'deleteFrom'))
    assert.equal(buttonOf(m, u1!, 'delete')!.hasAttribute('data-armed'), false)
    assert.equal(buttonOf(m, u2!, 'deleteFrom')!.getAttribute('data-armed'), 'true')
    await click(buttonOf(m, u1!, 'delete'))
    assert.equal(buttonOf(m, u2!, 'deleteFrom')!.hasAttribute('data-armed'), false, 'arming another button disarms the first')
    assert.equal(m.host.of('delete').length + m.host.of('deleteFrom').length, 0)
    assert.equal(m.host.of('plan').length, 5)
    assert.deepEqual(hiddenRows(m), [])
  })

  it('recalls a prompt into the composer, focuses it, hides the row and names images it cannot restore, with the reason', async () => {
    const m = await mount()
    const key = m.harness.keys('user')[1]!
    const seq = seqOf(m, key)
    const base = hostLike(m.session, m.harness, { [seq]: [seq] })
    m.host.script = (body) => {
      const answer = base(body)
      if (answer === 'network') return answer
      const value = (answer.body as any).value
      value.content = [...value.content, { type: 'image', attachment: { attachmentId: 'a1', mediaType: 'image/png', bytes: 10, width: 4, height: 3, name: 'diagram.png' } }]
      return answer
    }
    await act(async () => m.composer.type('half-written idea'))
    const lastSeq = Math.max(...m.session.surface.nodes)
    await click(buttonOf(m, key, 'recall'))
    const [request] = m.host.of('recall')
    assert.deepEqual(request, { sessionId: 'session-a', action: 'recall', seq, expect: { replaceGeneration: 0, lastSeq } })
    assert.equal(m.host.of('plan').length, 0, 'recall needs no confirmation')
    assert.equal(m.composer.draft, 'list the sources\n\nhalf-written idea')
    const textarea = m.container.querySelector('textarea')!
    assert.equal(page.document.activeElement, textarea)
    assert.equal(textarea.value, 'list the sources\n\nhalf-written idea')
    assert.equal(row(m, key).hasAttribute('data-message-recall-hidden'), true)
    await settle()
    const notice = m.container.querySelector('[data-message-recall-notice]')!
    // This pane's composer has no image input (no `conversation` service, no `addImages`).
    assert.equal(notice.querySelector('[data-message-recall-notice-line]')!.textContent, "Recalled. This page's composer cannot take images, so 1 image did not go back: diagram.png")
    await click(notice.querySelector('button'))
    assert.equal(m.container.querySelector('[data-message-recall-notice]'), null)
  })

  it('puts a recall\'s text into the composer when its tombstone arrives live, before the reply, and only once', async () => {
    const m = await mount()
    const key = m.harness.keys('user')[1]!
    const seq = seqOf(m, key)
    const base = hostLike(m.session, m.harness, { [seq]: [seq] })
    // The host appends (the live event reaches the page) and answers only after its flush.
    let release = () => {}
    const replied = new Promise<void>((resolve) => { release = resolve })
    m.host.script = async (body) => {
      const answer = base(body)
      await replied
      return answer
    }
    await act(async () => m.composer.type('half-written idea'))
    await click(buttonOf(m, key, 'recall'))
    await waitFor(() => m.composer.draft === 'list the sources\n\nhalf-written idea', 'the recalled text in the composer before the reply')
    assert.equal(row(m, key).hasAttribute('data-message-recall-hidden'), true)
    assert.equal(m.host.of('recall').length, 1)
    await act(async () => {
      release()
      await settle()
    })
    await settle()
    assert.equal(m.composer.draft, 'list the sources\n\nhalf-written idea', 'the reply brings the text no second time')
  })

  it('shows a short localized error on the row and changes nothing', async () => {
    const m = await mount()
    const key = m.harness.keys('user')[0]!
    const before = m.session.events.length
    const cases: [unknown, string][] = [
      [refusal('STALE_VIEW'), 'The conversation just changed. Try again.'],
      [refusal('AGENT_BUSY', 423), 'The agent is working. Try again when it stops.'],
      [refusal('NOT_A_USER_MESSAGE'), 'Only messages you sent can be recalled.'],
      [refusal('SOMETHING_NEW'), 'Failed (SOMETHING_NEW).'],
      ['network', 'Could not reach the host.'],
      [{ status: 502, body: 'Bad gateway' }, 'Could not reach the host.'],
    ]
    // The live log without the recall's tombstone, as `inspect` reports it.
    const live = { eventCount: before, lastSeq: before - 1, surfaceNodeCount: m.session.surface.nodes.length, replaceGeneration: 0, tombstones: [] }
    for (const [answer, text] of cases) {
      const inspects = m.host.of('inspect').length
      m.host.script = (body) => body.action === 'inspect' ? { status: 200, body: { ok: true, value: { live, disk: null } } } : answer as never
      await click(buttonOf(m, key, 'recall'))
      await waitFor(() => row(m, key).querySelector('[data-message-recall-error]') !== null, `the error of ${JSON.stringify(answer)}`)
      const error = row(m, key).querySelector('[data-message-recall-error]')
      assert.equal(error?.textContent, text)
      assert.equal(error?.getAttribute('role'), 'alert')
      // A refusal is an answer; any other failure first asks twice whether the recall landed.
      const refused = typeof answer === 'object' && (answer as any).status === 409 || (answer as any).status === 423
      const unknownCode = (answer as any)?.body?.error?.code === 'SOMETHING_NEW'
      assert.equal(m.host.of('inspect').length - inspects, refused && !unknownCode ? 0 : 2, `inspects after ${JSON.stringify(answer)}`)
    }
    assert.equal(m.session.events.length, before)
    assert.equal(m.composer.drafts.length, 0)
    assert.deepEqual(hiddenRows(m), [])
    m.host.script = () => refusal('STALE_VIEW')
    await click(buttonOf(m, key, 'delete'))
    assert.equal(buttonOf(m, key, 'delete')!.hasAttribute('data-armed'), false, 'a refused plan does not arm')
  })

  it('hides rows shadowed by tombstones already in the history, and keeps them hidden across React re-renders and re-created rows', async () => {
    const events = richLog()
    const session = liveSession('session-a', events as never)
    const users = appended(session.events, 'user/message').filter((u) => (u.data as any).source.kind === 'user')
    const { appendTombstone } = await import('./support/page')
    appendTombstone(session, 'recall', [users[0]!.seq])
    const m = await mount({ events: session.events as LogEvent[] })
    assert.deepEqual(hiddenRows(m), ['user'])
    const hiddenKey = m.harness.keys('user')[0]!
    // A live event re-renders rows; a new flow element re-creates every row without any store change.
    await act(async () => {
      m.harness.append({ type: 'session/title', seq: m.session.events.length, time: Date.now(), data: { title: 'x' } } as unknown as LogEvent)
      await settle()
    })
    assert.equal(row(m, hiddenKey).hasAttribute('data-message-recall-hidden'), true)
    const before = row(m, hiddenKey)
    await act(async () => {
      m.harness.remountFlow()
      await settle()
    })
    assert.notEqual(row(m, hiddenKey), before, 'the row element was re-created')
    assert.equal(row(m, hiddenKey).hasAttribute('data-message-recall-hidden'), true)
    assert.deepEqual(hiddenRows(m), ['user'])
  })

  it('Delete onward hides the span with its turn bars and errors, and nothing that arrives after it', async () => {
    const m = await mount()
    const key = m.harness.keys('user')[1]!
    const seq = seqOf(m, key)
    const onward = [...m.session.surface.nodes].filter((s) => s >= seq)
    m.host.script = hostLike(m.session, m.harness, { [seq]: onward })
    await click(buttonOf(m, key, 'deleteFrom'))
    assert.equal(buttonOf(m, key, 'deleteFrom')!.textContent, `Delete ${onward.length} onward?`)
    await click(buttonOf(m, key, 'deleteFrom'))
    const kinds = [...m.container.querySelectorAll('[data-chat-flow-key]')].map((r) => `${r.getAttribute('data-chat-flow-kind')}${r.hasAttribute('data-message-recall-hidden') ? '-' : '+'}`)
    const firstHidden = kinds.indexOf('user-')
    assert.ok(kinds.slice(0, firstHidden).every((k) => k.endsWith('+')), 'turn 1 stays')
    assert.ok(kinds.slice(firstHidden).every((k) => k.endsWith('-')), `everything from the target is hidden: ${kinds.slice(firstHidden)}`)
    assert.ok(kinds.includes('turn-error-') && kinds.includes('turn-tail-'))
    const reasons = new Set(snapshot().hidden.map((h: any) => `${h.rowKind}:${h.reason}`))
    assert.ok(reasons.has('turn-tail:span') && reasons.has('turn-error:span'))
    // A new turn after the tombstone stays visible.
    const next = m.session.events.length
    await act(async () => {
      m.harness.append(
        { type: 'turn/start', seq: next, time: Date.now(), data: { turn: 5 } },
        { type: 'step/start', seq: next + 1, time: Date.now(), data: { turn: 5, step: 1 } },
        { type: 'user/message', seq: next + 2, time: Date.now(), surfaceOp: 'append', data: { id: 'late', role: 'user', content: [{ type: 'text', text: 'after' }], source: { kind: 'user' } } },
      )
      await settle()
    })
    const late = m.container.querySelector('[data-chat-flow-key$="late"]')!
    assert.equal(late.hasAttribute('data-message-recall-hidden'), false)
    assert.ok(late.querySelector('[data-message-recall-action="recall"]'))
  })

  it('offers no Recall where DSH shows a read-only composer (a one-shot subagent record), and the other actions stay', async () => {
    const m = await mount()
    const actionsOf = (kind: string) => m.harness.keys(kind).map((key) => [...row(m, key).querySelectorAll('[data-message-recall-action]')].map((b) => b.getAttribute('data-message-recall-action')).join(','))
    assert.deepEqual(actionsOf('user'), Array(4).fill('recall,delete,deleteFrom,exclude'))
    await act(async () => m.harness.setSubagent({ address: { mode: 'one-shot' }, parentAvailable: true }))
    await settle()
    assert.deepEqual(actionsOf('user'), Array(4).fill('delete,deleteFrom,exclude'))
    assert.deepEqual(actionsOf('steering'), ['delete,deleteFrom,exclude'])
    // A continuable subagent whose parent is live keeps its composer, and so Recall.
    await act(async () => m.harness.setSubagent({ address: { mode: 'continuable' }, parentAvailable: true }))
    await settle()
    assert.deepEqual(actionsOf('user'), Array(4).fill('recall,delete,deleteFrom,exclude'))
    // Its parent gone and no turn running: DSH's read-only composer again.
    await act(async () => m.harness.setSubagent({ address: { mode: 'continuable' }, parentAvailable: false }))
    await settle()
    assert.deepEqual(actionsOf('user'), Array(4).fill('delete,deleteFrom,exclude'))
  })

  it('shows no buttons while the agent runs and restores them afterwards', async () => {
    const m = await mount()
    const count = m.container.querySelectorAll('[data-message-recall-action]').length
    await act(async () => { m.harness.setRunning(true); await settle() })
    assert.equal(m.container.querySelectorAll('[data-message-recall-actions]').length, 0)
    await act(async () => { m.harness.setRunning(false); await settle() })
    assert.equal(m.container.querySelectorAll('[data-message-recall-action]').length, count)
  })

  it('follows the active locale live (zh is the key source of truth)', async () => {
    const m = await mount({ locale: 'zh' })
    const key = m.harness.keys('user')[0]!
    assert.equal(buttonOf(m, key, 'recall')!.textContent, '撤回')
    assert.equal(buttonOf(m, key, 'deleteFrom')!.getAttribute('aria-label'), '从这里删除到对话末尾')
    await act(async () => { m.client.locale.setLocale('en'); await settle() })
    assert.equal(buttonOf(m, key, 'recall')!.textContent, 'Recall')
    assert.equal(buttonOf(m, key, 'delete')!.getAttribute('aria-label'), 'Delete this message')
    assert.equal(buttonOf(m, m.harness.keys('assistant-step')[0]!, 'delete')!.getAttribute('aria-label'), 'Delete this step: the answer and its tool results')
    m.host.script = () => refusal('AGENT_BUSY', 423)
    await act(async () => { m.client.locale.setLocale('zh'); await settle() })
    await click(buttonOf(m, key, 'recall'))
    assert.equal(row(m, key).querySelector('[data-message-recall-error]')!.textContent, '智能体正在工作，请等它停下再试')
  })

  it('leaves a foreign session\'s rows untouched, even rows with the same keys', async () => {
    const m = await mount()
    const other = m.client.session('session-b')
    other.load([...liveSession('session-b', richLog() as never).events] as LogEvent[])
    const otherBox = page.document.createElement('div') as unknown as HTMLElement
    page.document.body.appendChild(otherBox as never)
    const otherRoot = createRoot(otherBox)
    await act(async () => { otherRoot.render(<ChatPane harness={other} composer={new ComposerStore()} />); await settle() })
    cleanups.push(async () => { await act(async () => otherRoot.unmount()); otherBox.remove() })
    const shared = m.harness.keys('assistant-step')[0]!
    assert.ok(otherBox.querySelector(`[data-chat-flow-key="${shared}"]`), 'both sessions render the same step key')
    // A row of another session inside this session's flow gets nothing either.
    const flow = m.container.querySelector('[data-chat-flow]')!
    const stray = page.document.createElement('div')
    stray.setAttribute('data-chat-flow-key', '13:input-messageforeign')
    stray.setAttribute('data-chat-flow-kind', 'user')
    flow.appendChild(stray as never)
    await act(async () => { m.harness.setRunning(false); await settle() })
    assert.equal(otherBox.querySelectorAll('[data-message-recall-actions],[data-message-recall-hidden]').length, 0)
    assert.equal(stray.querySelector('[data-message-recall-actions]'), null)
    assert.deepEqual(snapshot().unresolved, ['13:input-messageforeign'])
  })

  it('sends replaceGeneration only when it knows it: whole log, or a baseline from the host', async () => {
    const m = await mount({ hasMore: true })
    const [u1, u2] = m.harness.keys('user')
    m.host.script = hostLike(m.session, m.harness, { [seqOf(m, u1!)]: [seqOf(m, u1!)], [seqOf(m, u2!)]: [seqOf(m, u2!)] })
    await click(buttonOf(m, u1!, 'delete'))
    assert.deepEqual(Object.keys(m.host.of('plan')[0]!.expect), ['lastSeq'])
    await click(buttonOf(m, u1!, 'delete'))
    await click(buttonOf(m, u2!, 'recall'))
    assert.deepEqual(m.host.of('recall')[0]!.expect, { replaceGeneration: 1, lastSeq: m.session.events.length - 2 })
    assert.deepEqual(snapshot().expect, { replaceGeneration: 2, lastSeq: m.session.events.length - 1 })
  })

  it('touches only the rows that changed when a turn arrives', async () => {
    const m = await mount()
    const rows = m.container.querySelectorAll('[data-chat-flow-key]').length
    const next = m.session.events.length
    await act(async () => {
      m.harness.append({ type: 'user/message', seq: next, time: Date.now(), surfaceOp: 'append', data: { id: 'n1', role: 'user', content: [{ type: 'text', text: 'one more' }], source: { kind: 'user' } } })
      await settle()
    })
    const pass = snapshot()
    assert.equal(pass.rows, rows + 1)
    assert.equal(pass.touched, 0, 'the pass after the new row was decorated found nothing left to do')
    assert.ok(m.container.querySelector('[data-chat-flow-key$="n1"] [data-message-recall-action="recall"]'))
  })

  it('decorates a long conversation lazily: the last rows at once, others as they come near the viewport or get pointer or focus', async () => {
    // happy-dom has no layout, so its IntersectionObserver never reports; this one is driven by the test.
    const observed = new Set<Element>()
    let report: ((entries: { target: Element; isIntersecting: boolean }[]) => void) | null = null
    const original = (page as any).IntersectionObserver
    ;(page as any).IntersectionObserver = class {
      constructor(callback: typeof report) { report = callback }
      observe(target: Element) { observed.add(target) }
      unobserve(target: Element) { observed.delete(target) }
      disconnect() { observed.clear() }
    }
    cleanups.push(() => { (page as any).IntersectionObserver = original })
    const m = await mount({ events: conversationLog(syntheticTurns(30)) as unknown as LogEvent[] })
    const rows = [...m.container.querySelectorAll('[data-chat-flow-key]')]
    assert.equal(rows.length, 180)
    const withButtons = () => rows.filter((r) => r.querySelector('[data-message-recall-actions]') !== null)
    const actionable = (list: Element[]) => list.filter((r) => r.getAttribute('data-chat-flow-kind') !== 'turn-tail')
    const tail = actionable(rows.slice(-64))
    assert.deepEqual(withButtons(), tail)
    assert.deepEqual([...observed], rows.slice(0, -64).filter((_, i) => i % 8 === 0), 'every 8th row further up is observed')
    await act(async () => { report!([{ target: rows[16]!, isIntersecting: true }, { target: rows[40]!, isIntersecting: false }]); await settle() })
    assert.deepEqual(withButtons(), [...actionable(rows.slice(8, 25)), ...tail], 'a row near the viewport brings its 8 neighbours on each side')
    assert.ok(!observed.has(rows[16]!) && !observed.has(rows[24]!) && observed.has(rows[40]!))
    await act(async () => { rows[100]!.querySelector('[data-slot]')!.dispatchEvent(new page.PointerEvent('pointerover', { bubbles: true }) as unknown as Event); await settle() })
    assert.equal(rows[100]!.getAttribute('data-chat-flow-kind'), 'assistant-step')
    assert.ok(rows[100]!.querySelector('[data-message-recall-action="delete"]'), 'pointer entry adds the buttons before the click')
    await act(async () => { rows[102]!.dispatchEvent(new page.FocusEvent('focusin', { bubbles: true }) as unknown as Event); await settle() })
    assert.ok(rows[102]!.querySelector('[data-message-recall-action="recall"]'))
    assert.equal(withButtons().length, actionable(rows.slice(8, 25)).length + tail.length + 2)
  })

  it('hides rows of an older page that loads after the tombstone', async () => {
    const session = liveSession('session-a', richLog() as never)
    const users = appended(session.events, 'user/message').filter((u) => (u.data as any).source.kind === 'user')
    const { appendTombstone } = await import('./support/page')
    const tomb = appendTombstone(session, 'recall', [users[0]!.seq])
    const all = [...session.events] as LogEvent[]
    const cut = users[1]!.seq - 3
    const m = await mount({ events: all, hasMore: true })
    await act(async () => { m.harness.load(all.slice(cut), true); await settle() })
    assert.equal(m.container.querySelector(`[data-chat-flow-kind="user"]`)?.textContent?.includes('read the config'), false)
    assert.deepEqual(hiddenRows(m), [])
    await act(async () => { m.harness.prepend(all.slice(0, cut), false); await settle() })
    const first = m.harness.keys('user')[0]!
    assert.equal(row(m, first).hasAttribute('data-message-recall-hidden'), true)
    assert.deepEqual(snapshot().hidden.map((h: any) => [h.key, h.tombstoneSeq]), [[first, tomb.seq]])
  })
})
