/**
 * The editor dialog in a real DOM (happy-dom) with real React 18, over a log built through the
 * real rc.8 `Session`. The wire is the fake `fetch` of `support/fake-host.ts`: it serves the
 * history call page by page from that log, and answers batch `plan`/`apply` with the real batch
 * planner and writer on the same Session, as the host does. Busy agent, inline refusals,
 * keyboard, Discard and Apply; the context map: costs and shares, the context figure, largest
 * first keeping the selection, Exclude per unit and for the whole selection, the quick selections;
 * units a compaction summarized (marked, selectable, the rewrite's preview and cost, the armed
 * Apply, its progress, Escape and Cancel, a failed model call), in English and Chinese.
 */
import { page, settle } from './support/dom'
import assert from 'node:assert/strict'
import { afterEach, describe, it } from 'node:test'
import { act } from 'react'
import { createRoot } from 'react-dom/client'
import { EditorModal, type EditorKit } from '../../src/client/editor/EditorModal'
import { PLAN_DEBOUNCE_MS } from '../../src/client/editor/editor-plan'
import { createRecallSender, type FetchLike } from '../../src/client/wire/api'
import { UnsavedWrites } from '../../src/client/stores/unsaved-writes'
import { editorEn, editorZh } from '../../src/client/editor/editor-locales'
import { en as recallEn, zh as recallZh } from '../../src/client/text/locales'
import { describeBatchRefusal, planBatch, type BatchChange } from '../../src/host/batch-plan'
import { appendBatch } from '../../src/host/batch-writer'
import { planRestore } from '../../src/host/restore-plan'
import { appendRestore } from '../../src/host/restore-writer'
import { describeRefusal } from '../../src/host/refusals'
import { viewOfSession } from '../../src/host/session-view'
import { planBatchOnView } from '../../src/host/view-plans'
import type { LogEvent } from '../../src/shared/events'
import { FakeHost, type Answer } from './support/fake-host'
import { planMixedOnView } from '../../src/host/summary-batch'
import { contentOf } from '../../src/shared/surface-node'
import { estimateTokens } from '../../src/shared/token-estimate'
import type { ContextBreakdown } from '../../src/client/editor/context-map'
import { readFates } from '../../src/shared/fate'
import { LogBuilder } from '../host/log-builder'
import { fill } from '../e2e/ui'

const translate = (dict: Record<string, string>) => (key: string, params: Record<string, string | number> = {}) => fill(dict[key] ?? key, params)

const cleanups: (() => Promise<void> | void)[] = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

function conversation() {
  const b = new LogBuilder('editor-modal')
  const t1 = b.turn('first prompt', [{ text: 'Reading a.', calls: ['a'] }, { text: 'Read a.' }], { context: true })
  const t2 = b.turn('second prompt', [{ text: 'Second answer.' }])
  const t3 = b.turn('third prompt', [{ text: 'Third answer.' }])
  return { b, t1, t2, t3 }
}

/**
 * A host over the builder's session: history in pages of `pageEvents`, batch plan and apply by the
 * real planner. With `flush` `'fails'`, an apply is appended and then answered `PERSIST_FAILED`
 * with `applied: true`, as the route answers when every flush attempt failed.
 */
function hostOver(host: FakeHost, b: LogBuilder, pageEvents: number, flush: () => 'ok' | 'fails') {
  host.script = (body) => {
    if (body.type === 'client-request') {
      const before = body.payload.beforeSeq ?? b.session.seq
      const from = Math.max(0, before - pageEvents)
      const events = (b.events as LogEvent[]).slice(from, before).map((event) => ({ event }))
      return { status: 200, body: { type: 'server-response', rpcId: body.rpcId, result: { ok: true, value: { events, hasMore: from > 0 } } } }
    }
    const changes = body.changes as BatchChange[]
    // The host's own planning on its view: the view check (a turn since the dialog's `lastSeq` makes
    // it stale), the batch planner, and the check of a confirmed count.
    const planned = planBatchOnView(viewOfSession(b.session, b.lookup, 'live'), { changes, ...(body.expect === undefined ? {} : { expect: body.expect }) })
    if (!planned.ok) {
      const refusal = planned.refusal
      return { status: 409, body: { ok: false, error: { code: refusal.code, message: describeRefusal(refusal), ...('index' in refusal ? { index: refusal.index } : {}) } } }
    }
    if (body.action === 'plan') {
      // The dialog asks for the counts alone (`detail: 'counts'`): it reads how many messages the plan removes.
      const restores = planned.value.writes.filter((w) => w.kind === 'restore').length
      return { status: 200, body: { ok: true, value: {
        action: 'plan', detail: 'counts', tombstoneCount: planned.value.writes.length - restores, restoreCount: restores,
        removedCount: planned.value.removedSeqs.filter((seq) => seq < b.session.seq).length, restoredCount: planned.value.restoredSeqs.length,
        replaceGeneration: b.session.surface.replaceGeneration, lastSeq: b.session.seq - 1,
      } } }
    }
    const results = appendBatch(b.session, planned.value, changes)
    const value = { action: 'apply', results, replaceGeneration: b.session.surface.replaceGeneration }
    if (flush() === 'fails') {
      return { status: 500, body: { ok: false, error: {
        code: 'PERSIST_FAILED', applied: true, value: { ...value, persisted: false },
        message: `message-recall: seq ${b.session.seq - 1} (apply) was appended to session "session-e" and is in effect, but it is not yet durable: the durability flush failed 4 times: EIO: i/o error`,
      } } }
    }
    return { status: 200, body: { ok: true, value: { ...value, persisted: true } } }
  }
}

async function mount(options: { running?: boolean; pageEvents?: number; b?: LogBuilder; locale?: 'en' | 'zh'; unsaved?: UnsavedWrites; breakdown?: ContextBreakdown } = {}) {
  const built = options.b === undefined ? conversation() : null
  const b = options.b ?? built!.b
  const host = new FakeHost()
  let flush: 'ok' | 'fails' = 'ok'
  hostOver(host, b, options.pageEvents ?? 1000, () => flush)
  const fetchImpl: FetchLike = (url, init) => (globalThis.fetch as unknown as FetchLike)(url, init)
  const zh = options.locale === 'zh'
  const send = createRecallSender(fetchImpl)
  const unsaved = options.unsaved ?? new UnsavedWrites({ sessionId: 'session-e', send })
  const kit: EditorKit = { t: translate(zh ? editorZh : editorEn), tRecall: translate(zh ? recallZh : recallEn), send, fetch: fetchImpl, unsaved: () => unsaved }
  const closed: boolean[] = []
  const container = page.document.createElement('div') as unknown as HTMLElement
  page.document.body.appendChild(container as never)
  const root = createRoot(container)
  const render = (running: boolean, replacementCount = 0) => root.render(<EditorModal sessionId="session-e" running={running} replacementCount={replacementCount} breakdown={options.breakdown} locale={zh ? 'zh' : 'en'} kit={kit} onClose={(applied) => closed.push(applied)} />)
  await act(async () => render(options.running ?? false))
  await act(async () => settle())
  cleanups.push(async () => {
    await act(async () => root.unmount())
    container.remove()
    host.restore()
    unsaved.dispose()
  })
  const q = <E extends Element = HTMLElement>(selector: string) => container.querySelector(selector) as E | null
  const unit = (key: string) => q(`li[data-editor-unit="${key}"]`)!
  const click = async (el: Element | null) => {
    assert.ok(el, 'the control exists')
    await act(async () => (el as HTMLElement).click())
  }
  const key = async (k: string) => {
    // Keys go to the focused control and bubble to the dialog, as in a browser.
    const target = (page.document.activeElement as unknown as Element | null) ?? q('[data-message-recall-editor]')!
    await act(async () => { target.dispatchEvent(new page.KeyboardEvent('keydown', { key: k, bubbles: true }) as never) })
  }
  /** Wait out the plan debounce and its reply. */
  const planned = async () => {
    await act(async () => { await new Promise((r) => setTimeout(r, PLAN_DEBOUNCE_MS + 20)); await settle() })
  }
  /** The unit key of the focused control (compared as text: a failing comparison of DOM nodes would print the whole tree). */
  const focused = () => (page.document.activeElement as unknown as Element | null)?.closest('li[data-editor-unit]')?.getAttribute('data-editor-unit') ?? null
  const failFlush = (fails: boolean) => { flush = fails ? 'fails' : 'ok' }
  return { b, built, host, closed, q, unit, click, key, planned, render, focused, unsaved, failFlush }
}

describe('editor dialog', () => {
  it('reads every history page, lists the units by turn with accessible names, and focuses the first', async () => {
    const m = await mount({ pageEvents: 7 })
    const history = m.host.requests.filter((r) => r.url === '/api/session.history')
    assert.ok(history.length >= 3, `several pages were read (${history.length})`)
    assert.deepEqual(history.map((r) => r.body.payload.beforeSeq), [undefined, ...history.slice(1).map((_, i) => m.b.session.seq - 7 * (i + 1))])
    const units = [...m.q('[data-editor-units]')!.querySelectorAll('li[data-editor-unit]')].map((el) => el.getAttribute('data-editor-unit'))
    assert.equal(units.length, 7, 'three prompts and four model steps')
    assert.deepEqual([...m.q('[data-editor-units]')!.querySelectorAll('li[data-editor-turn]')].map((el) => el.textContent), ['Turn 1', 'Turn 2', 'Turn 3'])
    const first = m.unit(units[0]!)
    assert.equal(first.querySelector('[data-editor-select]')!.getAttribute('aria-label'), 'Remove this message: first prompt')
    assert.equal(m.unit(units[1]!).querySelector('[data-editor-select]')!.getAttribute('aria-label'), 'Remove this step (the answer and its tool results): Reading a.')
    assert.equal(first.querySelector('[data-editor-from]')!.getAttribute('aria-label'), 'Remove this and everything after it: first prompt')
    for (const button of m.q('[data-message-recall-editor]')!.querySelectorAll('button')) {
      assert.equal(button.getAttribute('type'), 'button')
      assert.ok((button.getAttribute('aria-label') ?? button.textContent ?? '').length > 0)
    }
    assert.equal(m.focused(), units[0])
    assert.ok(page.document.activeElement === (first.querySelector('[data-editor-select]') as unknown), 'the first unit\'s toggle has the focus')
    assert.equal(m.q('[data-editor-counter]')!.textContent, 'Nothing selected yet')
    assert.equal(m.q<HTMLButtonElement>('[data-editor-apply]')!.disabled, true)
  })

  it('while the agent works, Apply is disabled with the reason; when the turn ends the history is read again, the selection kept', async () => {
    const m = await mount({ running: true })
    await m.click(m.unit('s2.1').querySelector('[data-editor-select]'))
    await m.planned()
    assert.equal(m.q('[data-editor-counter]')!.textContent, '1 message, ~4 tokens leave the context')
    assert.equal(m.q<HTMLButtonElement>('[data-editor-apply]')!.disabled, true)
    assert.equal(m.q('[data-editor-busy]')!.textContent, 'The agent is working; Apply is possible once it stops')
    assert.equal(m.q('[data-editor-apply]')!.getAttribute('aria-describedby'), 'dsh-message-recall-editor-busy')
    await m.key('Enter')
    assert.equal(m.host.requests.filter((r) => r.body.action === 'apply').length, 0, 'Enter does not apply while busy')
    const reads = () => m.host.requests.filter((r) => r.url === '/api/session.history').length
    const before = reads()
    m.b.turn('a prompt the turn answered', [{ text: 'The answer of that turn.' }])
    await act(async () => m.render(false))
    await act(async () => settle())
    assert.equal(m.q<HTMLButtonElement>('[data-editor-apply]')!.disabled, false, 'enabled once the turn ended')
    assert.equal(reads(), before + 1, 'the history was read again when the turn ended')
    assert.ok(m.q('[data-editor-units]')!.textContent!.includes('a prompt the turn answered'), 'the new turn is listed')
    assert.equal(m.q('[data-editor-counter]')!.textContent, '1 message, ~4 tokens leave the context', 'the selection is kept')
    assert.equal(m.q('[data-editor-busy]'), null)
  })

  it('shows the host refusal on the refused row, and Apply stays disabled', async () => {
    const m = await mount()
    // The prompt is removed after the dialog read the history: the host refuses that change.
    const { t2 } = m.built!
    m.b.tombstone('delete', t2.prompt, t2.prompt)
    await m.click(m.unit('s1.2').querySelector('[data-editor-select]'))
    await m.click(m.unit(`u${t2.prompt}`).querySelector('[data-editor-select]'))
    await m.planned()
    const plans = m.host.requests.filter((r) => r.body.action === 'plan')
    assert.deepEqual(plans.at(-1)!.body.changes, [{ action: 'delete', seq: m.built!.t1.steps[1]!.assistant }, { action: 'delete', seq: t2.prompt }])
    assert.ok(plans.every((r) => r.body.detail === 'counts'), 'the dialog asks for the counts alone')
    assert.equal(m.unit(`u${t2.prompt}`).querySelector('[data-editor-refusal]')!.textContent, 'Not possible: This message is no longer in the conversation.')
    assert.equal(m.unit('s1.2').querySelector('[data-editor-refusal]'), null)
    assert.equal(m.q<HTMLButtonElement>('[data-editor-apply]')!.disabled, true)
    // Unselecting it clears the refusal.
    await m.click(m.unit(`u${t2.prompt}`).querySelector('[data-editor-select]'))
    await m.planned()
    assert.equal(m.q('[data-editor-refusal]'), null)
    assert.equal(m.q<HTMLButtonElement>('[data-editor-apply]')!.disabled, false)
  })

  it('keyboard: arrows move, Enter applies one batch and closes; Escape and Discard write nothing', async () => {
    const m = await mount()
    const { t1, t3 } = m.built!
    await m.key('ArrowDown')
    assert.equal(m.focused(), 's1.1')
    await m.key('ArrowDown')
    assert.equal(m.focused(), 's1.2')
    await m.key('ArrowUp')
    await m.key('ArrowUp')
    await m.key('ArrowUp')
    assert.equal(m.focused(), `u${t1.prompt}`, 'ArrowUp stops at the first unit')
    // Tab from the last control comes back to the first one.
    ;(m.q('[data-editor-discard]') as HTMLElement).focus()
    await m.key('Tab')
    assert.equal((page.document.activeElement as unknown as Element | null)?.hasAttribute('data-editor-sort'), true, 'Apply is disabled, so Discard is the last control: Tab wraps to the first, the sort toggle')
    await m.click(m.unit('s1.1').querySelector('[data-editor-select]'))
    await m.click(m.unit(`u${t3.prompt}`).querySelector('[data-editor-from]'))
    assert.deepEqual([...m.q('[data-editor-units]')!.querySelectorAll('li[data-editor-preview="going"]')].map((el) => el.getAttribute('data-editor-unit')), ['s1.1', `u${t3.prompt}`, 's3.1'])
    assert.equal(m.unit('s3.1').querySelector<HTMLButtonElement>('[data-editor-select]')!.disabled, true, 'a unit after From here is part of it')
    await m.planned()
    const count = m.b.session.seq
    await m.key('Escape')
    assert.deepEqual(m.closed, [false])
    await m.click(m.q('[data-editor-discard]'))
    assert.deepEqual(m.closed, [false, false])
    assert.equal(m.b.session.seq, count, 'nothing written')
    await m.key('Enter')
    await act(async () => settle())
    const applies = m.host.requests.filter((r) => r.body.action === 'apply')
    assert.equal(applies.length, 1)
    assert.deepEqual(applies[0]!.body.changes, [{ action: 'delete', seq: t1.steps[0]!.assistant }, { action: 'deleteFrom', seq: t3.prompt }])
    // The batch plan's count goes back with Apply: the answer's step with its tool results, and turn 3 whole.
    const stepOf = (s: { assistant: number; results: readonly number[] }) => 1 + s.results.length
    assert.deepEqual(applies[0]!.body.expect, { lastSeq: count - 1, removedCount: stepOf(t1.steps[0]!) + 1 + t3.steps.reduce((n, s) => n + stepOf(s), 0) })
    assert.equal(m.b.session.seq, count + 2)
    assert.deepEqual(m.closed, [false, false, true])
  })

  it('shows a removed prompt struck through with a Restore toggle that previews it coming back', async () => {
    const { b, t2 } = conversation()
    b.tombstone('delete', t2.prompt, t2.prompt)
    const m = await mount({ b })
    const row = m.unit(`u${t2.prompt}`)
    assert.equal(row.getAttribute('data-editor-state'), 'removed')
    assert.equal(row.querySelector('[data-editor-state-label]')!.textContent, 'Removed')
    assert.equal(row.querySelector('[data-editor-select]'), null)
    const restore = row.querySelector('[data-editor-restore]')!
    assert.equal(restore.getAttribute('aria-label'), 'Bring this message back in place: second prompt')
    await m.click(restore)
    assert.equal(restore.getAttribute('aria-pressed'), 'true')
    assert.equal(row.getAttribute('data-editor-preview'), 'coming')
    assert.equal(m.q('[data-editor-counter]')!.textContent, '1 comes back')
  })

  it('speaks Chinese when the locale is zh: labels, turns, counter, busy reason and refusal', async () => {
    const m = await mount({ locale: 'zh', running: true })
    const { t2 } = m.built!
    assert.equal(m.q('h2')!.textContent, '编辑对话')
    assert.deepEqual([...m.q('[data-editor-units]')!.querySelectorAll('li[data-editor-turn]')].map((el) => el.textContent), ['第 1 轮', '第 2 轮', '第 3 轮'])
    assert.equal(m.unit(`u${t2.prompt}`).querySelector('[data-editor-select]')!.getAttribute('aria-label'), '移除这条消息：second prompt')
    m.b.tombstone('delete', t2.prompt, t2.prompt)
    await m.click(m.unit('s1.2').querySelector('[data-editor-select]'))
    await m.click(m.unit(`u${t2.prompt}`).querySelector('[data-editor-select]'))
    await m.planned()
    // "Read a." and "second prompt": ceil(7 / 4) + ceil(13 / 4) estimated tokens.
    assert.equal(m.q('[data-editor-counter]')!.textContent, '2 条消息、约 6 个词元将离开上下文')
    assert.equal(m.q('[data-editor-busy]')!.textContent, '智能体正在工作，停下后才能应用')
    assert.equal(m.unit(`u${t2.prompt}`).querySelector('[data-editor-refusal]')!.textContent, '无法执行：这条消息已不在对话中')
    assert.deepEqual([m.q('[data-editor-discard]')!.textContent, m.q('[data-editor-apply]')!.textContent], ['放弃', '应用'])
  })

  it('a removal made elsewhere while the dialog is open (the page\'s replacement count moves) reads the history again, keeping the selection', async () => {
    const m = await mount()
    const { t2, t3 } = m.built!
    await m.click(m.unit(`u${t3.prompt}`).querySelector('[data-editor-select]'))
    await m.planned()
    const reads = () => m.host.requests.filter((r) => r.url === '/api/session.history').length
    const before = reads()
    // Another tab deleted the second prompt: its tombstone reaches the page's replacement view.
    m.b.tombstone('delete', t2.prompt, t2.prompt)
    await act(async () => m.render(false, 1))
    await act(async () => settle())
    assert.equal(reads(), before + 1)
    assert.equal(m.unit(`u${t2.prompt}`).getAttribute('data-editor-state'), 'removed', 'the removal shows in place')
    assert.equal(m.q('[data-editor-counter]')!.textContent, '1 message, ~3 tokens leave the context', 'the selection is kept')
    await act(async () => m.render(false, 1))
    await act(async () => settle())
    assert.equal(reads(), before + 1, 'a render with the same count reads nothing')
  })

  it('after a STALE_VIEW answer reads the history again, keeps the selection, and the second Apply writes', async () => {
    const m = await mount()
    const { t3 } = m.built!
    await m.click(m.unit(`u${t3.prompt}`).querySelector('[data-editor-select]'))
    await m.planned()
    const reads = () => m.host.requests.filter((r) => r.url === '/api/session.history').length
    const before = reads()
    // A turn ran meanwhile: the dialog's view is stale.
    m.b.turn('a prompt sent meanwhile', [{ text: 'An answer meanwhile.' }])
    await m.click(m.q('[data-editor-apply]'))
    await act(async () => settle())
    assert.equal(m.q('[data-editor-refusal]')!.textContent, 'Nothing was changed: The conversation just changed. Try again.')
    assert.equal(reads(), before + 1, 'the history was read again')
    assert.equal(m.q('[data-editor-counter]')!.textContent, '1 message, ~3 tokens leave the context', 'the selection is kept')
    assert.ok(m.q('[data-editor-units]')!.textContent!.includes('a prompt sent meanwhile'), 'the new turn is listed')
    const count = m.b.session.seq
    await m.click(m.q('[data-editor-apply]'))
    await act(async () => settle())
    assert.equal(m.b.session.seq, count + 1)
    assert.deepEqual(m.closed, [true])
  })

  it('an Apply whose From here range a restore from elsewhere changed is refused, nothing is written, and the Apply over the history read again writes', async () => {
    const b = new LogBuilder('editor-confirmed')
    const t1 = b.turn('first prompt', [{ text: 'Reading a.', calls: ['a'] }, { text: 'Read a.' }])
    const t2 = b.turn('second prompt', [{ text: 'Second answer.' }])
    b.turn('third prompt', [{ text: 'Third answer.' }])
    const recalled = b.tombstone('recall', t2.prompt, t2.prompt)
    const m = await mount({ b })
    await m.click(m.unit('s1.2').querySelector('[data-editor-from]'))
    await m.planned()
    const plan = m.host.requests.filter((r) => r.body.action === 'plan').at(-1)!
    assert.deepEqual(plan.body.changes, [{ action: 'deleteFrom', seq: t1.steps[1]!.assistant }])
    // Another tab restores the recalled prompt: it comes back inside the From here range.
    const restore = planRestore({ nodes: b.nodes, lookup: b.lookup, tombstoneSeq: recalled })
    assert.ok(restore.ok)
    const copy = appendRestore(b.session, restore.plan)
    const count = b.session.seq
    await m.click(m.q('[data-editor-apply]'))
    await act(async () => settle())
    const applies = m.host.requests.filter((r) => r.body.action === 'apply')
    // Read a.; second answer; third prompt and its answer: the recalled prompt was no message then.
    assert.deepEqual(applies[0]!.body.expect, { lastSeq: recalled, removedCount: 4 })
    assert.equal(m.q('[data-editor-refusal]')!.textContent, 'Nothing was changed: The conversation just changed. Try again.')
    assert.equal(b.session.seq, count, 'nothing written')
    await m.planned()
    const back = m.unit(`u${t2.prompt}`)
    assert.deepEqual([back.getAttribute('data-editor-state'), back.getAttribute('data-editor-preview')], ['current', 'going'], 'the restored prompt is listed again, inside the From here range')
    await m.click(m.q('[data-editor-apply]'))
    await act(async () => settle())
    assert.deepEqual(m.host.requests.filter((r) => r.body.action === 'apply')[1]!.body.expect, { lastSeq: copy.seq, removedCount: 5 }, 'the plan over the history read again, the restored prompt counted')
    assert.equal(b.session.seq, count + 1)
    assert.deepEqual(m.closed, [true])
  })

  it('a batch applied but not saved closes the dialog and marks the session unsaved; a durable apply clears it', async () => {
    const m = await mount()
    const { t2, t3 } = m.built!
    m.failFlush(true)
    await m.click(m.unit(`u${t2.prompt}`).querySelector('[data-editor-select]'))
    await m.click(m.unit(`u${t3.prompt}`).querySelector('[data-editor-select]'))
    await m.planned()
    const count = m.b.session.seq
    await m.click(m.q('[data-editor-apply]'))
    await act(async () => settle())
    assert.equal(m.b.session.seq, count + 2, 'the batch is in the log')
    assert.deepEqual(m.closed, [true], 'closed as on success, not left open with an error')
    assert.deepEqual(m.unsaved.getSnapshot(), { id: 1, action: 'apply', count: 2, phase: 'unsaved', error: null })
    assert.equal(m.q('[data-editor-refusal]'), null)

    // The editor opened again on the same session: a durable apply saved everything before it too.
    const again = await mount({ b: m.b, unsaved: m.unsaved })
    await again.click(again.unit('s3.1').querySelector('[data-editor-select]'))
    await again.planned()
    await again.click(again.q('[data-editor-apply]'))
    await act(async () => settle())
    assert.equal(m.b.session.seq, count + 3)
    assert.deepEqual(again.closed, [true])
    assert.equal(m.unsaved.getSnapshot(), null)
  })
})

/** Four turns; a large tool output in turn 1, a small one in turn 2, the largest in the last turn (4). */
function mapConversation() {
  const b = new LogBuilder('editor-map')
  b.startTurn().startStep()
  const p1 = b.user('first prompt')
  const big = b.assistant('Reading big.', ['big'])
  b.result('big', 'B'.repeat(8000))
  b.startStep()
  b.assistant('Read it.')
  b.endTurn()
  b.startTurn().startStep()
  const p2 = b.user('second prompt')
  const small = b.assistant('Reading small.', ['small'])
  b.result('small', 'small text')
  b.endTurn()
  const t3 = b.turn('third prompt', [{ text: 'Third answer.' }])
  b.startTurn().startStep()
  const p4 = b.user('fourth prompt')
  b.assistant('Reading last.', ['last'])
  b.result('last', 'L'.repeat(12000))
  b.endTurn()
  return { b, p1, big, p2, small, p3: t3.prompt, p4 }
}

/** The page's `contextBreakdown`: a system prompt and tools, and the messages as the meter prices them (5,187). */
const BREAKDOWN: ContextBreakdown = { systemTokens: 30000, toolsTokens: 6145, messageTokens: 5187 }

describe('editor dialog as a context map', () => {
  const keys = (m: Awaited<ReturnType<typeof mount>>) => [...m.q('[data-editor-units]')!.querySelectorAll('li[data-editor-unit]')].map((el) => el.getAttribute('data-editor-unit'))
  const cost = (m: Awaited<ReturnType<typeof mount>>, key: string) => m.unit(key).querySelector('[data-editor-cost]')!.textContent

  it('shows each unit\'s cost and share and the context now and after; largest first keeps the selection', async () => {
    const { b, p1, p2, p3, p4 } = mapConversation()
    b.tombstone('delete', p3, p3)
    const m = await mount({ b, breakdown: BREAKDOWN })
    assert.equal(m.q('[data-editor-context]')!.textContent, 'Context: 41,332 → 41,332 tokens (token meter estimate)')
    assert.equal(m.q('[data-editor-context]')!.getAttribute('data-editor-basis'), 'meter')
    assert.equal(cost(m, 's1.1'), '2,034 tokens · 4.9% of the context')
    assert.equal(cost(m, 's4.1'), '3,035 tokens · 7.3% of the context')
    assert.equal(cost(m, `u${p1}`), '11 tokens · 0% of the context')
    assert.equal(cost(m, `u${p3}`), 'Costs nothing now', 'a removed prompt costs nothing')

    await m.click(m.unit('s2.1').querySelector('[data-editor-select]'))
    assert.equal(m.q('[data-editor-context]')!.textContent, 'Context: 41,332 → 41,294 tokens (token meter estimate)')
    const counter = m.q('[data-editor-counter]')!.textContent
    // The counter keeps the characters ÷ 4 estimate of the host's `plan`: ⌈(14 + 9 + 16 + 10) ÷ 4⌉ and ⌈13 ÷ 4⌉.
    assert.equal(counter, '2 messages, ~13 tokens leave the context')

    const sort = m.q<HTMLButtonElement>('[data-editor-sort]')!
    assert.deepEqual([sort.textContent, sort.getAttribute('aria-label'), sort.getAttribute('aria-pressed')], ['Largest first', 'Sort by tokens in the context now, largest first (press again for conversation order)', 'false'])
    await m.click(sort)
    assert.equal(sort.getAttribute('aria-pressed'), 'true')
    assert.deepEqual(keys(m), ['s4.1', 's1.1', 's2.1', `u${p2}`, 's3.1', `u${p4}`, `u${p1}`, 's1.2', `u${p3}`])
    assert.equal(m.q('[data-editor-units]')!.querySelectorAll('li[data-editor-turn]').length, 0, 'no turn headings: each unit names its turn')
    assert.equal(m.unit('s4.1').querySelector('[data-editor-unit-turn]')!.textContent, 'Turn 4')
    assert.equal(m.unit('s2.1').querySelector('[data-editor-select]')!.getAttribute('aria-pressed'), 'true', 'the selection is kept')
    assert.equal(m.q('[data-editor-counter]')!.textContent, counter)
    // The arrow keys follow the order shown.
    ;(m.unit('s4.1').querySelector('[data-editor-select]') as HTMLElement).focus()
    await m.key('ArrowDown')
    assert.equal(m.focused(), 's1.1')
    await m.click(sort)
    assert.deepEqual(keys(m), [`u${p1}`, 's1.1', 's1.2', `u${p2}`, 's2.1', `u${p3}`, 's3.1', `u${p4}`, 's4.1'])
    assert.equal(m.unit('s2.1').querySelector('[data-editor-select]')!.getAttribute('aria-pressed'), 'true')
  })

  it('without the meter\'s projection, counts characters ÷ 4 and says so', async () => {
    const { b } = mapConversation()
    const m = await mount({ b })
    // Each unit's ⌈characters ÷ 4⌉: 3 + 2,009 + 2 + 4 + 13 + 3 + 4 + 4 + 3,010.
    assert.equal(m.q('[data-editor-context]')!.getAttribute('data-editor-basis'), 'chars')
    assert.equal(m.q('[data-editor-context]')!.textContent, 'Context: 5,052 → 5,052 tokens (estimated as characters ÷ 4)')
    assert.equal(cost(m, 's1.1'), '2,009 tokens · 39.8% of the context')
  })

  it('Exclude per unit and for the whole selection: dimmed, counted apart, written as exclusions in one apply', async () => {
    const { b, p1, big, p2, small } = mapConversation()
    const m = await mount({ b, breakdown: BREAKDOWN })
    const exclude = m.unit('s1.1').querySelector<HTMLButtonElement>('[data-editor-exclude]')!
    assert.deepEqual([exclude.textContent, exclude.getAttribute('aria-label')], ['Exclude', 'Exclude instead of delete (keep it in view, hide it from the model): Reading big.'])
    await m.click(exclude)
    assert.equal(exclude.getAttribute('aria-pressed'), 'true')
    assert.equal(m.unit('s1.1').querySelector('[data-editor-select]')!.getAttribute('aria-pressed'), 'true', 'Exclude selects the unit')
    assert.equal(m.unit('s1.1').getAttribute('data-editor-preview'), 'excluding')
    await m.click(m.unit(`u${p1}`).querySelector('[data-editor-select]'))
    assert.equal(m.unit(`u${p1}`).getAttribute('data-editor-preview'), 'going')
    assert.equal(m.q('[data-editor-counter]')!.textContent, '3 messages, ~2,012 tokens leave the context, 2 of them stay in view')
    assert.equal(m.q('[data-editor-context]')!.textContent, 'Context: 41,332 → 39,287 tokens (token meter estimate)')

    const all = m.q<HTMLButtonElement>('[data-editor-exclude-all]')!
    assert.deepEqual([all.textContent, all.getAttribute('aria-pressed')], ['Exclude all selected', 'false'])
    await m.click(all)
    assert.deepEqual([all.getAttribute('aria-pressed'), m.unit(`u${p1}`).getAttribute('data-editor-preview')], ['true', 'excluding'])
    assert.equal(m.q('[data-editor-counter]')!.textContent, '3 messages, ~2,012 tokens leave the context, 3 of them stay in view')
    await m.click(all)
    assert.deepEqual([...m.q('[data-editor-units]')!.querySelectorAll('li[data-editor-preview="going"]')].map((el) => el.getAttribute('data-editor-unit')), [`u${p1}`, 's1.1'], 'pressed again: all Delete')
    // Back to Exclude for the step alone, and a Delete of the prompt of turn 2 besides it.
    await m.click(exclude)
    await m.click(m.unit(`u${p1}`).querySelector('[data-editor-select]'))
    await m.click(m.unit(`u${p2}`).querySelector('[data-editor-select]'))
    await m.click(m.unit('s2.1').querySelector('[data-editor-exclude]'))
    await m.planned()
    assert.equal(m.q('[data-editor-refusal]'), null)
    const count = m.b.session.seq
    await m.click(m.q('[data-editor-apply]'))
    await act(async () => settle())
    const applies = m.host.requests.filter((r) => r.body.action === 'apply')
    assert.deepEqual(applies.map((r) => r.body.changes), [[{ action: 'exclude', seq: big }, { action: 'delete', seq: p2 }, { action: 'exclude', seq: small }]])
    assert.deepEqual(m.closed, [true])
    assert.ok(m.b.session.seq > count)
    const fates = readFates(m.b.events)
    assert.deepEqual([big, big + 2, p2, small, small + 2].map((seq) => fates.fateOf(seq).state), ['excluded', 'excluded', 'removed', 'excluded', 'excluded'])
  })

  it('quick selections select what they say, with N and K editable, never the most recent turn', async () => {
    const { b, p2, p4 } = mapConversation()
    const m = await mount({ b, breakdown: BREAKDOWN })
    const group = m.q('[data-editor-presets]')!
    assert.deepEqual([group.getAttribute('role'), group.getAttribute('aria-label')], ['group', 'Quick selections (never the most recent turn)'])
    const old = m.q<HTMLButtonElement>('[data-editor-preset="old"]')!
    assert.equal(old.getAttribute('aria-label'), 'Select tool output older than the last 2 turns')
    const going = () => [...m.q('[data-editor-units]')!.querySelectorAll('li[data-editor-preview="going"]')].map((el) => el.getAttribute('data-editor-unit'))
    await m.click(old)
    assert.deepEqual(going(), ['s1.1', 's2.1'])
    assert.equal(m.q('[data-editor-counter]')!.textContent, '4 messages, ~2,022 tokens leave the context')
    // Each only selects: unselect, then N = 3.
    await m.click(m.unit('s1.1').querySelector('[data-editor-select]'))
    await m.click(m.unit('s2.1').querySelector('[data-editor-select]'))
    const turns = m.q<HTMLInputElement>('[data-editor-preset-turns]')!
    await act(async () => setInput(turns, '3'))
    assert.equal(old.getAttribute('aria-label'), 'Select tool output older than the last 3 turns')
    await m.click(old)
    assert.deepEqual(going(), ['s1.1'])
    await m.click(m.unit('s1.1').querySelector('[data-editor-select]'))

    const large = m.q<HTMLButtonElement>('[data-editor-preset="large"]')!
    assert.equal(large.getAttribute('aria-label'), 'Select tool output larger than 1000 tokens')
    await m.click(large)
    assert.deepEqual(going(), ['s1.1'], 'the last turn\'s 3,012 tokens of tool output are never selected')
    await m.click(m.unit('s1.1').querySelector('[data-editor-select]'))
    await act(async () => setInput(m.q<HTMLInputElement>('[data-editor-preset-tokens]')!, '5'))
    await m.click(large)
    assert.deepEqual(going(), ['s1.1', 's2.1'])
    assert.ok(!going().includes('s4.1') && !going().includes(`u${p4}`))
    void p2
    assert.equal(m.q<HTMLButtonElement>('[data-editor-preset="compaction"]')!.disabled, true, 'no compaction yet')
    // Enter in a number field does not apply.
    turns.focus()
    await m.key('Enter')
    assert.equal(m.host.requests.filter((r) => r.body.action === 'apply').length, 0)
    assert.deepEqual(m.closed, [])
  })

  it('everything before the last compaction selects what the compaction kept, never the last turn', async () => {
    const c = new LogBuilder('editor-map-compaction')
    const t1 = c.turn('one', [{ text: 'One.' }])
    const t2 = c.turn('two', [{ text: 'Two.', calls: ['x'] }])
    c.checkpoint(t1.prompt, t1.steps[0]!.assistant)
    c.turn('three', [{ text: 'Three.' }])
    const m = await mount({ b: c })
    const preset = m.q<HTMLButtonElement>('[data-editor-preset="compaction"]')!
    assert.deepEqual([preset.disabled, preset.textContent, preset.getAttribute('aria-label')], [false, 'Everything before the last compaction', 'Select everything still in the context from before the last compaction'])
    await m.click(preset)
    assert.deepEqual([...m.q('[data-editor-units]')!.querySelectorAll('li[data-editor-preview="going"]')].map((el) => el.getAttribute('data-editor-unit')), [`u${t2.prompt}`, 's2.1'])
    assert.equal(cost(m, `u${t1.prompt}`), 'In the compaction summary', 'a folded prompt costs nothing itself: it is in the summary')
  })

  it('speaks Chinese: the figure, costs, sort, Exclude, the counter and the quick selections', async () => {
    const { b, p1 } = mapConversation()
    const m = await mount({ b, locale: 'zh', breakdown: BREAKDOWN })
    assert.equal(m.q('[data-editor-context]')!.textContent, '上下文：41,332 → 41,332 个词元（词元计量器的估算）')
    assert.equal(cost(m, 's1.1'), '2,034 个词元 · 占上下文 4.9%')
    const sort = m.q('[data-editor-sort]')!
    assert.deepEqual([sort.textContent, sort.getAttribute('aria-label')], ['最大的在前', '按现在占用的词元排序，最大的在前（再按一次恢复对话顺序）'])
    const exclude = m.unit('s1.1').querySelector('[data-editor-exclude]')!
    assert.deepEqual([exclude.textContent, exclude.getAttribute('aria-label')], ['排除', '改为排除而非删除（留在视图中，对模型隐藏）：Reading big.'])
    await m.click(exclude)
    await m.click(m.unit(`u${p1}`).querySelector('[data-editor-select]'))
    assert.equal(m.q('[data-editor-counter]')!.textContent, '3 条消息、约 2,012 个词元将离开上下文，其中 2 条仍留在视图中')
    assert.deepEqual([m.q('[data-editor-exclude-all]')!.textContent, m.q('[data-editor-exclude-all]')!.getAttribute('aria-label')], ['全部改为排除', '把所有选中的内容改为排除而非删除（留在视图中，对模型隐藏）'])
    assert.equal(m.q('[data-editor-presets]')!.getAttribute('aria-label'), '快速选择（不会选中最近一轮）')
    assert.deepEqual([...m.q('[data-editor-presets]')!.querySelectorAll('button')].map((el) => [el.textContent, el.getAttribute('aria-label')]), [
      ['早于最近 N 轮的工具输出', '选中早于最近 2 轮的工具输出'],
      ['超过 K 个词元的工具输出', '选中超过 1000 个词元的工具输出'],
      ['最近一次压缩之前的全部内容', '选中最近一次压缩之前仍在上下文中的全部内容'],
    ])
    assert.deepEqual([...m.q('[data-editor-presets]')!.querySelectorAll('label')].map((el) => el.textContent!.trim()), ['轮数 N', '词元数 K'])
  })
})

describe('editor dialog: a long list', () => {
  it('renders a window of the units with spacers; the arrow keys scroll to units outside it and focus them', async () => {
    const b = new LogBuilder('editor-long')
    for (let i = 1; i <= 120; i++) b.turn(`prompt ${i}`, [{ text: `answer ${i}` }])
    const m = await mount({ b })
    const list = m.q('[data-editor-units]')!
    assert.equal(list.getAttribute('data-editor-count'), '240')
    const rendered = () => [...list.querySelectorAll('li[data-editor-unit]')].map((el) => el.getAttribute('data-editor-unit'))
    // The top: 800 px assumed visible (no layout here): items 0 … 13 (a turn is a 30 px heading and two
    // 76 px units), and 12 items of overscan below: 26 items, 17 of them units.
    assert.equal(rendered().length, 17)
    assert.equal(list.querySelector('li[data-editor-spacer]')!.getAttribute('aria-hidden'), 'true')
    assert.equal(m.focused(), 'u2', 'the first unit has the focus')
    for (let i = 0; i < 60; i++) await m.key('ArrowDown')
    await act(async () => settle())
    // The 61st unit: turn 31's prompt (six events per turn from seq 2).
    assert.equal(m.focused(), `u${2 + 30 * 6}`, 'the 61st unit, outside the first window, has the focus')
    assert.ok(rendered().includes('u182') && !rendered().includes('u2'), 'the window moved with it')
    await m.click(m.unit('u182').querySelector('[data-editor-select]'))
    assert.equal(m.unit('u182').querySelector('[data-editor-select]')!.getAttribute('aria-pressed'), 'true')
    for (let i = 0; i < 60; i++) await m.key('ArrowUp')
    await act(async () => settle())
    assert.equal(m.focused(), 'u2')
    assert.equal(m.q('[data-editor-counter]')!.textContent, '1 message, ~3 tokens leave the context', 'the selection outlives the window')
  })
})

/** Type into a number field as React sees it (the value setter of the element's prototype, then an input event). */
function setInput(input: HTMLInputElement, value: string): void {
  const setter = Object.getOwnPropertyDescriptor(Object.getPrototypeOf(input), 'value')!.set!
  setter.call(input, value)
  input.dispatchEvent(new page.Event('input', { bubbles: true }) as never)
}

describe('editor dialog: summarized units', () => {
  /** Two turns a compaction folded (the summary holds a canary), then a current third turn. */
  function folded() {
    const b = new LogBuilder('editor-folded')
    const t1 = b.turn('first prompt CANARY-31', [{ text: 'One.' }])
    const t2 = b.turn('second prompt', [{ text: 'Two.' }])
    b.checkpoint(t1.prompt, t2.steps[0]!.assistant, 'The user gave CANARY-31.')
    const t3 = b.turn('third prompt', [{ text: 'Three.' }])
    return { b, t1, t2, t3 }
  }

  /**
   * The host over the builder's session with folded changes planned as the route plans them
   * (`planMixedOnView`); `apply` waits for the test's answer (`answerApply`), as a rewrite waits
   * for its model call.
   */
  async function mountFolded(locale: 'en' | 'zh') {
    const { b, t1, t2, t3 } = folded()
    const m = await mount({ b, locale })
    const pending: ((answer: Answer) => void)[] = []
    m.host.script = (body) => {
      if (body.type === 'client-request') {
        const events = (b.events as LogEvent[]).map((event) => ({ event }))
        return { status: 200, body: { type: 'server-response', rpcId: body.rpcId, result: { ok: true, value: { events, hasMore: false } } } }
      }
      if (body.action === 'apply') return new Promise<Answer>((resolve) => pending.push(resolve))
      const view = viewOfSession(b.session, b.lookup, 'live')
      const planned = planMixedOnView(view, { changes: body.changes as BatchChange[] })
      if (!planned.ok) return { status: 409, body: { ok: false, error: { code: planned.refusal.code, message: describeRefusal(planned.refusal) } } }
      const kept = planned.value.folded.plan.keptSeqs.map((seq) => contentOf(b.lookup(seq) as LogEvent))
      // The dialog asks for the counts alone (`detail: 'counts'`), as the route answers them.
      assert.equal(body.detail, 'counts')
      return { status: 200, body: { ok: true, value: {
        action: 'plan', detail: 'counts', removedCount: planned.value.removedSeqs.length,
        summaryRewrite: { checkpointSeq: planned.value.folded.plan.checkpointSeq, removedCount: planned.value.folded.plan.removedSeqs.length, inputMessages: kept.length, estimatedInputTokens: estimateTokens(kept) },
      } } }
    }
    // Read the history again through the script above.
    await act(async () => m.render(false, 1))
    await act(async () => settle())
    const answerApply = async (answer: Answer) => {
      await act(async () => { pending.shift()!(answer); await settle() })
    }
    return { ...m, t1, t2, t3, answerApply, inputTokens: (kept: readonly number[]) => estimateTokens(kept.map((seq) => contentOf(b.lookup(seq) as LogEvent))) }
  }

  it('marks summarized units, selects them with current ones, previews the rewrite and its cost; Apply asks again, Escape cancels the rewrite with nothing written, a failed call says why', async () => {
    const m = await mountFolded('en')
    const p1 = m.unit(`u${m.t1.prompt}`)
    assert.equal(p1.getAttribute('data-editor-state'), 'folded')
    assert.equal(p1.querySelector('[data-editor-state-label]')!.textContent, 'Summarized')
    assert.equal(p1.querySelector('[data-editor-cost]')!.textContent, 'In the compaction summary')
    assert.equal(p1.querySelector('[data-editor-select]')!.getAttribute('aria-label'), 'Remove this message: first prompt CANARY-31')
    assert.equal(p1.querySelector('[data-editor-from]')!.getAttribute('aria-label'), 'Remove this and everything after it: first prompt CANARY-31')

    await m.click(p1.querySelector('[data-editor-select]'))
    await m.click(m.unit(`u${m.t3.prompt}`).querySelector('[data-editor-select]'))
    await m.planned()
    assert.equal(m.q('[data-editor-counter]')!.textContent, '2 messages, ~3 tokens leave the context', 'the summarized prompt leaves, its tokens are not in the context now')
    const tokens = m.inputTokens([m.t1.steps[0]!.assistant, m.t2.prompt, m.t2.steps[0]!.assistant])
    assert.equal(m.q('[data-editor-rewrite]')!.textContent, `The compaction summary is rewritten without 1 summarized message: a model call of about ${tokens} input tokens`)

    // The first Apply only names the model call.
    const seq = m.b.session.seq
    await m.click(m.q('[data-editor-apply]'))
    assert.equal(m.q('[data-editor-apply]')!.textContent, `Apply and rewrite the summary? (model call, ~${tokens} tokens)`)
    assert.equal(m.host.of('apply').length, 0, 'nothing sent yet')
    await m.click(m.q('[data-editor-apply]'))
    assert.deepEqual(m.host.of('apply')[0]!.changes, [{ action: 'delete', seq: m.t1.prompt }, { action: 'delete', seq: m.t3.prompt }])
    assert.equal(m.host.of('apply')[0]!.expect.removedCount, 2)
    const progress = m.q('[data-editor-rewriting]')!
    assert.equal(progress.getAttribute('role'), 'status')
    assert.equal(progress.textContent, 'Rewriting the summary… (Esc cancels) Cancel')
    assert.equal(m.q('[data-editor-cancel]')!.getAttribute('aria-label'), 'Cancel the summary rewrite; nothing is written')
    await m.key('Escape')
    await m.answerApply('network')
    assert.equal(m.q('[role="alert"][data-editor-refusal]')!.textContent, 'Cancelled. The summary was not rewritten.')
    assert.deepEqual(m.closed, [], 'Escape cancelled the rewrite; the dialog stays open')
    assert.equal(m.b.session.seq, seq, 'nothing written')
    assert.equal(m.q('[data-editor-rewriting]'), null)

    // A failed model call writes nothing and says why.
    await m.click(m.q('[data-editor-apply]'))
    await m.click(m.q('[data-editor-apply]'))
    await m.answerApply({ status: 502, body: { ok: false, error: { code: 'SUMMARY_FAILED', message: 'message-recall: the summary of session "session-e" was not rewritten (model): 500 upstream error' } } })
    assert.equal(m.q('[role="alert"][data-editor-refusal]')!.textContent, 'Nothing was changed: The summary could not be rewritten; nothing changed. (the summary of session "session-e" was not rewritten (model): 500 upstream error)')
    assert.deepEqual(m.closed, [])

    // From here on a summarized unit takes the summarized units after it and every current one.
    await m.click(m.unit(`u${m.t3.prompt}`).querySelector('[data-editor-select]'))
    await m.click(p1.querySelector('[data-editor-select]'))
    await m.click(m.unit(`u${m.t2.prompt}`).querySelector('[data-editor-from]'))
    assert.deepEqual([...m.q('[data-editor-units]')!.querySelectorAll('li[data-editor-preview="going"]')].map((el) => el.getAttribute('data-editor-unit')), [`u${m.t2.prompt}`, 's2.1', `u${m.t3.prompt}`, 's3.1'])
    await m.planned()
    assert.equal(m.q('[data-editor-rewrite]')!.textContent, `The compaction summary is rewritten without 2 summarized messages: a model call of about ${m.inputTokens([m.t1.prompt, m.t1.steps[0]!.assistant])} input tokens`)
  })

  it('speaks Chinese: the summarized mark, its cost, the rewrite preview, the armed Apply and the progress', async () => {
    const m = await mountFolded('zh')
    const p1 = m.unit(`u${m.t1.prompt}`)
    assert.equal(p1.querySelector('[data-editor-state-label]')!.textContent, '已压缩进摘要')
    assert.equal(p1.querySelector('[data-editor-cost]')!.textContent, '在压缩摘要中')
    await m.click(p1.querySelector('[data-editor-select]'))
    await m.planned()
    const tokens = m.inputTokens([m.t1.steps[0]!.assistant, m.t2.prompt, m.t2.steps[0]!.assistant])
    assert.equal(m.q('[data-editor-rewrite]')!.textContent, `压缩摘要将重写，去掉 1 条已压缩的消息：调用一次模型，输入约 ${tokens} 个词元`)
    await m.click(m.q('[data-editor-apply]'))
    assert.equal(m.q('[data-editor-apply]')!.textContent, `应用并重写摘要？（调用模型，约 ${tokens} 个词元）`)
    await m.click(m.q('[data-editor-apply]'))
    assert.equal(m.q('[data-editor-rewriting]')!.textContent, '正在重写摘要…（Esc 取消） 取消')
    assert.equal(m.q('[data-editor-cancel]')!.getAttribute('aria-label'), '取消重写摘要，什么都不会写入')
    await m.click(m.q('[data-editor-cancel]'))
    await m.answerApply('network')
    assert.equal(m.q('[role="alert"][data-editor-refusal]')!.textContent, '已取消，摘要没有重写')
  })
})
