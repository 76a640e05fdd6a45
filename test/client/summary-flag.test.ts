/**
 * The flag of a summary written before a removal of messages it holds, in the page: on a log built
 * through the real rc.8 `Session` (two turns, a compaction checkpoint as `dsh-compaction-basic`
 * commits one, a turn, then a tombstone that replaces the new prompt and also cites the folded
 * prompt and its answer, as a log written before the rewrite existed has it), `summaryFlags` counts
 * the two; the flag's texts in English and Chinese through the real rc.8 LocaleRuntime, one and
 * several messages, idle, armed with the cost and running; the flag written into the summary's
 * row (a `manual-compaction` and a `compaction` row, real `<button>`s with their accessible names)
 * and removed once the flag is gone; the Rewrite summary store's steps (plan, confirm with the
 * plan's view, Cancel aborts, a refusal kept); the Removed panel's rewrite entries.
 */
import './support/dom'
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { Context } from '@deepseek-ai/cordis'
import { DICTIONARIES, LOCALE_NS } from '../../src/client/text/locales'
import { clientLocale } from './support/rc8-client'
import { LogBuilder } from '../host/log-builder'
import { appendTombstone } from '../../src/host/tombstone-append'
import { summaryFlags } from '../../src/shared/summary-flag'
import { decorateSummaryRows, flagView, FLAG_ATTR } from '../../src/client/rows/summary-flag-row'
import { SummaryRefresh, type SummaryRefreshState } from '../../src/client/stores/summary-refresh'
import { rewriteEntries } from '../../src/client/panel/removal-list'
import { rewriteCheckpointSource } from '../../src/shared/summary-rewrite'
import type { RecallSender } from '../../src/client/wire/api'
import type { ChatSnapshot } from '../../src/client/wire/rc8'
import type { LogEvent } from '../../src/shared/events'
import { createUserMessage } from '@deepseek-ai/dsh-llm'
import { replaceOp } from '../../src/shared/replace-op'

/** Two turns folded by a checkpoint, a current turn, and a tombstone over the new prompt that also cites the folded prompt and answer. */
function leakedLog() {
  const log = new LogBuilder('flag-fixture')
  const first = log.turn('Remember CANARY-7 please', [{ text: 'Noted the code.' }])
  const second = log.turn('List the steps', [{ text: 'Test, stage, ship.' }])
  const checkpoint = log.checkpoint(first.prompt, second.steps[0]!.assistant, 'The user gave CANARY-7 and asked for steps.')
  const third = log.turn('Which is second?', [{ text: 'Stage.' }])
  const tombstone = appendTombstone(log.session, { action: 'delete', start: third.prompt, end: third.prompt, shadowedSeqs: [first.prompt, first.steps[0]!.assistant, third.prompt] }).seq
  return { log, checkpoint, tombstone, folded: [first.prompt, first.steps[0]!.assistant], kept: second.prompt }
}

function locale() {
  const runtime = new clientLocale.LocaleRuntime(new Context())
  runtime.register(LOCALE_NS, DICTIONARIES)
  return { runtime, t: runtime.bind(LOCALE_NS) }
}

const IDLE: SummaryRefreshState = { phase: 'idle', checkpointSeq: null, error: null }

describe('a summary written before a removal of messages it holds', () => {
  it('is flagged with the removed messages it holds, not with the ones it never held', () => {
    const { log, checkpoint, tombstone, folded } = leakedLog()
    assert.deepEqual(summaryFlags(log.events), [{ checkpointSeq: checkpoint, removals: [{ tombstoneSeq: tombstone, action: 'delete', seqs: folded }], removedSeqs: folded }])
    // The working order: a removal before the compaction is not flagged.
    const ok = new LogBuilder('ok-fixture')
    const a = ok.turn('Remember CANARY-8', [{ text: 'Noted.' }])
    const b = ok.turn('Go on', [{ text: 'Going.' }])
    const t = ok.tombstone('delete', a.prompt, a.prompt)
    ok.checkpoint(t, b.steps[0]!.assistant)
    assert.deepEqual(summaryFlags(ok.events), [])
  })

  it('says so in English and Chinese, with the cost when armed and the progress while running', () => {
    const { runtime, t } = locale()
    const flag = { checkpointSeq: 9, removedSeqs: [1, 2] }
    runtime.setLocale('en')
    assert.deepEqual(flagView(t, flag, IDLE), {
      note: 'This summary was written before you removed 2 messages', button: 'Rewrite summary',
      buttonLabel: 'Rewrite this summary from the original messages without the 2 removed messages (model call)', busy: false, armed: false, cancel: false, error: null,
    })
    assert.equal(flagView(t, { checkpointSeq: 9, removedSeqs: [1] }, IDLE).note, 'This summary was written before you removed 1 message')
    assert.equal(flagView(t, { checkpointSeq: 9, removedSeqs: [1] }, IDLE).buttonLabel, 'Rewrite this summary from the original messages without the 1 removed message (model call)')
    const armed: SummaryRefreshState = { phase: 'armed', checkpointSeq: 9, error: null, tokens: 1234, expect: { replaceGeneration: 3, lastSeq: 40 } }
    assert.deepEqual(flagView(t, flag, armed), {
      note: 'This summary was written before you removed 2 messages', button: 'Rewrite the summary? (model call, ~1,234 tokens)',
      buttonLabel: 'Click again to have the model write the summary again from the original messages without the removed ones, from about 1,234 input tokens', busy: false, armed: true, cancel: true, error: null,
    })
    const running: SummaryRefreshState = { phase: 'running', checkpointSeq: 9, error: null }
    assert.equal(flagView(t, flag, running).button, 'Rewriting the summary… (Esc cancels)')
    assert.equal(flagView(t, flag, running).buttonLabel, 'The model is writing the compaction summary again; press Escape to cancel, and nothing is written')
    assert.equal(flagView(t, flag, { phase: 'idle', checkpointSeq: null, error: { checkpointSeq: 9, code: 'CANCELLED' } }).error, 'Cancelled. The summary was not rewritten.')
    assert.equal(flagView(t, flag, { ...armed, checkpointSeq: 11 }).armed, false, 'another summary\'s confirm is not this one\'s')
    runtime.setLocale('zh')
    assert.deepEqual(flagView(t, flag, IDLE), {
      note: '这份摘要写于你移除 2 条消息之前', button: '重写摘要',
      buttonLabel: '用原始消息重新写这份摘要，不含已移除的 2 条消息（调用模型）', busy: false, armed: false, cancel: false, error: null,
    })
    assert.equal(flagView(t, { checkpointSeq: 9, removedSeqs: [1] }, IDLE).note, '这份摘要写于你移除 1 条消息之前')
    assert.equal(flagView(t, flag, armed).button, '重写摘要？（调用模型，约 1,234 个 token）')
    assert.equal(flagView(t, flag, armed).buttonLabel, '再点一次，模型会用原始消息重新写一份不含已移除消息的摘要，输入约 1,234 个 token')
    assert.equal(flagView(t, flag, running).button, '正在重写摘要…（Esc 取消）')
  })

  it('is written into the summary\'s row with real buttons, and goes when the flag goes', () => {
    const { runtime, t } = locale()
    runtime.setLocale('en')
    const flow = document.createElement('div')
    const rowOf = (key: string, kind: string) => {
      const row = document.createElement('div')
      row.setAttribute('data-chat-flow-key', key)
      row.setAttribute('data-chat-flow-kind', kind)
      flow.appendChild(row)
      return row
    }
    const manual = rowOf('m', 'manual-compaction')
    const auto = rowOf('c', 'compaction')
    const prompt = rowOf('u', 'user')
    const chat = {
      order: ['m', 'c', 'u'],
      nodes: new Map<string, unknown>([
        ['m', { key: 'm', kind: 'manual-compaction', data: { command: {}, compaction: { seq: 30 } } }],
        ['c', { key: 'c', kind: 'compaction', data: { seq: 50 } }],
        ['u', { key: 'u', kind: 'user', data: { seq: 31 } }],
      ]),
    } as unknown as ChatSnapshot
    const pressed: number[] = []
    let cancelled = 0
    const input = (flags: { checkpointSeq: number; removedSeqs: number[] }[], state: SummaryRefreshState = IDLE) => ({
      flags: flags.map((f) => ({ ...f, removals: [{ tombstoneSeq: 40, action: 'delete' as const, seqs: f.removedSeqs }] })), state,
      onRewrite: (seq: number) => pressed.push(seq), onCancel: () => cancelled++,
    })
    decorateSummaryRows(flow, chat, input([{ checkpointSeq: 30, removedSeqs: [3, 4] }]), t)
    const flag = manual.querySelector(`[${FLAG_ATTR.flag}]`) as HTMLElement
    assert.equal(flag.getAttribute(FLAG_ATTR.flag), '30')
    assert.equal(flag.getAttribute('role'), 'note')
    assert.equal(flag.querySelector(`[${FLAG_ATTR.text}]`)!.textContent, 'This summary was written before you removed 2 messages')
    const rewrite = flag.querySelector(`[${FLAG_ATTR.action}="rewrite"]`) as HTMLButtonElement
    assert.equal(rewrite.tagName, 'BUTTON')
    assert.equal(rewrite.type, 'button')
    assert.equal(rewrite.textContent, 'Rewrite summary')
    assert.equal(rewrite.getAttribute('aria-label'), 'Rewrite this summary from the original messages without the 2 removed messages (model call)')
    const cancel = flag.querySelector(`[${FLAG_ATTR.action}="cancel"]`) as HTMLButtonElement
    assert.equal(cancel.hidden, true, 'no Cancel while idle')
    assert.equal(auto.querySelector(`[${FLAG_ATTR.flag}]`), null, 'another summary is not flagged')
    assert.equal(prompt.querySelector(`[${FLAG_ATTR.flag}]`), null)
    rewrite.click()
    assert.deepEqual(pressed, [30])

    decorateSummaryRows(flow, chat, input([{ checkpointSeq: 30, removedSeqs: [3, 4] }], { phase: 'running', checkpointSeq: 30, error: null }), t)
    assert.equal(rewrite.textContent, 'Rewriting the summary… (Esc cancels)')
    assert.equal(rewrite.getAttribute('aria-busy'), 'true')
    assert.equal(cancel.hidden, false)
    assert.equal(cancel.textContent, 'Cancel')
    assert.equal(cancel.getAttribute('aria-label'), 'Cancel rewriting the summary; nothing is written')
    cancel.click()
    assert.equal(cancelled, 1)

    // The rewrite landed: its own compaction row stands for the new summary, and no flag is left.
    decorateSummaryRows(flow, chat, input([]), t)
    assert.equal(flow.querySelector(`[${FLAG_ATTR.flag}]`), null)
  })

  it('Rewrite summary asks for the plan, confirms with its view, and Cancel aborts the model call', async () => {
    const sent: unknown[] = []
    let release: (() => void) | null = null
    const send = (async (request: any, options?: { signal?: AbortSignal }) => {
      sent.push(request)
      if (request.action === 'plan') return { ok: true, value: { action: 'plan', planAction: 'rewriteSummary', checkpointSeq: 30, removedSeqs: [3, 4], inputMessages: 2, estimatedInputTokens: 321, replaceGeneration: 4, lastSeq: 41 } }
      await new Promise<void>((resolve) => {
        release = resolve
        options?.signal?.addEventListener('abort', () => resolve())
      })
      if (options?.signal?.aborted === true) return { ok: false, error: { code: 'CANCELLED', message: 'message-recall: cancelled; nothing was written' } }
      return { ok: true, value: { action: 'rewriteSummary', checkpointSeq: 45, replacedSeq: 30, compactionId: 'x', replaceGeneration: 5, persisted: true, removedSeqs: [3, 4] } }
    }) as unknown as RecallSender
    const store = new SummaryRefresh({ sessionId: 'session-a', send })
    assert.equal(await store.press(30), 'armed')
    assert.deepEqual(store.getSnapshot(), { phase: 'armed', checkpointSeq: 30, error: null, tokens: 321, expect: { replaceGeneration: 4, lastSeq: 41 } })
    assert.equal(store.cancel(), true, 'Escape disarms')
    assert.equal(store.getSnapshot().phase, 'idle')
    await store.press(30)
    const running = store.press(30)
    assert.equal(store.getSnapshot().phase, 'running')
    assert.equal(await store.press(30), 'ignored', 'one request at a time')
    store.cancel()
    assert.equal(await running, 'refused')
    assert.deepEqual(store.getSnapshot(), { phase: 'idle', checkpointSeq: null, error: { checkpointSeq: 30, code: 'CANCELLED' } })
    await store.press(30)
    const done = store.press(30)
    release!()
    assert.equal(await done, 'done')
    assert.deepEqual(store.getSnapshot(), IDLE)
    assert.deepEqual(sent.filter((r: any) => r.action === 'rewriteSummary').at(-1), { sessionId: 'session-a', action: 'rewriteSummary', checkpointSeq: 30, expect: { replaceGeneration: 4, lastSeq: 41 } })
    assert.deepEqual(sent[0], { sessionId: 'session-a', action: 'plan', planAction: 'rewriteSummary', checkpointSeq: 30 })
    store.dispose()
  })

  it('the Removed panel lists a summary rewrite with what it left out, Undo while it is the summary on the surface', () => {
    const { log, checkpoint, folded } = leakedLog()
    const lookup = (seq: number) => log.events[seq]
    // A rewrite as `rewriteSummary` writes it: a new compaction replacing the checkpoint, its record naming the folded messages.
    const append = log.session.append.bind(log.session) as (type: string, data: unknown, opts?: unknown) => { seq: number }
    const startSeq = append('compaction/start', { compactionId: 'rw', turn: null }).seq
    const summarySeq = append('compaction/summary', { compactionId: 'rw', summary: [{ type: 'text', text: 'Steps only.' }], shadowedRange: { start: checkpoint, end: checkpoint }, shadowedSeqs: [checkpoint], shadowedTokenCount: 10, provider: 'p', model: 'm' }).seq
    const message = createUserMessage({ content: [{ type: 'text', text: 'Steps only.' }], source: rewriteCheckpointSource('rw', { removals: [{ action: 'delete', seqs: folded }] }) as never })
    const rewrite = append('user/message', message, { surfaceOp: replaceOp(checkpoint, checkpoint), sourceEventSeqs: [startSeq, summarySeq, checkpoint] }).seq
    append('compaction/end', { compactionId: 'rw', turn: null })
    assert.equal(lookup(rewrite)?.type, 'user/message')
    assert.deepEqual(summaryFlags(log.events as LogEvent[]), [], 'the flag is gone')
    assert.deepEqual(rewriteEntries(log.events as LogEvent[]).map(({ time: _, ...e }) => e), [{ checkpointSeq: rewrite, leftOut: 2, onSurface: true }])
  })
})
