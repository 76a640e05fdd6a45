/**
 * The hidden-row derivation (`src/shared/hidden-rows.ts`) over realistic logs: tombstones are
 * appended to a real rc.8 `Session` (so every one passes the Session's surface validation), rows
 * are described the way the client reads them from the chat store.
 */
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { SessionId, Session, type SessionEvent } from '@deepseek-ai/dsh-session'
import { deriveHiddenRows, type TranscriptRow } from '../../src/shared/hidden-rows'
import { readTombstones } from '../../src/shared/fate'
import type { LogEvent } from '../../src/shared/events'
import { replaceOp } from '../../src/shared/replace-op'
import { tombstoneSource } from '../../src/shared/tombstone'
import { conversationLog } from '../support/conversation'
import { appendTombstone } from './support/page'
import { insertAfter } from './support/log'
import { createUserMessage } from '@deepseek-ai/dsh-llm'

/** Turn 1: prompt, a step with two tool calls, a reply. Turn 2: prompt, reply. Turn 3: prompt, reply. */
function threeTurns(): Session {
  return Session.create(SessionId('session-hidden'), conversationLog([
    { prompt: 'first', steps: [{ text: 'looking', tools: [{ result: 'a' }, { result: 'b' }] }, { text: 'reply one' }] },
    { prompt: 'second', steps: [{ text: 'reply two' }] },
    { prompt: 'third', steps: [{ text: 'reply three' }] },
  ]))
}

/** {@link threeTurns} with the loop's runtime-context snapshot after the prompts of turns 2 and 3 (`dsh-agent-loop` commits it with the step's claimed messages). */
function threeTurnsWithContext(): Session {
  let events = threeTurns().events as readonly SessionEvent[]
  for (const prompt of ['second', 'third']) {
    const at = events.findIndex((e) => e.type === 'user/message' && JSON.stringify(e.data).includes(`"${prompt}"`))
    const context = createUserMessage({ content: [{ type: 'text', text: `Current runtime context: before ${prompt}.` }], source: { kind: 'plugin', plugin: '@deepseek-ai/dsh-system-prompt' } as never })
    events = insertAfter(events, at, [{ type: 'user/message', data: context, surfaceOp: 'append' }])
  }
  return Session.create(SessionId('session-context'), events)
}

/** Rows as the client resolves them: one per prompt, assistant step (final message), tool result and turn bar. */
function rowsOf(events: readonly SessionEvent[]): TranscriptRow[] {
  const rows: TranscriptRow[] = []
  let turn = 0
  for (const e of events as readonly LogEvent[]) {
    const data = e.data as Record<string, any>
    if (e.type === 'turn/start') turn = data.turn
    if (e.surfaceOp !== 'append') {
      if (e.type === 'turn/end') rows.push({ key: `tail-${data.turn}`, rowKind: 'turn-tail', seq: null, anchorSeq: e.seq, turn: data.turn })
      continue
    }
    if (e.type === 'user/message') rows.push({ key: `user-${e.seq}`, rowKind: data.source.kind === 'user' ? 'user' : 'context', seq: e.seq, anchorSeq: e.seq, turn })
    if (e.type === 'assistant/message') rows.push({ key: `step-${data.turn}:${data.step}`, rowKind: 'assistant-step', seq: e.seq, anchorSeq: e.seq, turn: data.turn })
    if (e.type === 'tool/result') rows.push({ key: `tool-${e.seq}`, rowKind: 'tool-call', seq: e.seq, anchorSeq: e.sourceEventSeqs![0]!, turn: data.turn })
  }
  return rows
}

const seqsOf = (events: readonly SessionEvent[], type: string) => (events as readonly LogEvent[]).filter((e) => e.type === type && e.surfaceOp === 'append').map((e) => e.seq)
const hiddenKeys = (events: readonly SessionEvent[]) => deriveHiddenRows(events as readonly LogEvent[], rowsOf(events)).hidden.map((h) => `${h.key}:${h.reason}`)

describe('deriveHiddenRows', () => {
  it('hides nothing in a log without tombstones', () => {
    const session = threeTurns()
    const result = deriveHiddenRows(session.events as readonly LogEvent[], rowsOf(session.events))
    assert.deepEqual(result.hidden, [])
    assert.deepEqual(result.tombstones, [])
  })

  it('hides exactly the recalled prompt and keeps the turn bar while the answer remains', () => {
    const session = threeTurns()
    const [, second] = seqsOf(session.events, 'user/message')
    const tomb = appendTombstone(session, 'recall', [second!])
    const result = deriveHiddenRows(session.events as readonly LogEvent[], rowsOf(session.events))
    assert.deepEqual(result.hidden, [{ key: `user-${second}`, rowKind: 'user', reason: 'shadowed', tombstoneSeq: tomb.seq }])
    assert.deepEqual(result.tombstones, [{ seq: tomb.seq, start: second, end: second, shadowedSeqs: [second], action: 'recall' }])
  })

  it('hides a deleted step: its assistant row and every tool row, nothing of the next step', () => {
    const session = threeTurns()
    const [stepOne] = seqsOf(session.events, 'assistant/message')
    const tools = seqsOf(session.events, 'tool/result')
    appendTombstone(session, 'delete', [stepOne!, ...tools])
    assert.deepEqual(hiddenKeys(session.events), [`step-1:1:shadowed`, `tool-${tools[0]}:shadowed`, `tool-${tools[1]}:shadowed`])
  })

  it('hides the turn bar once its final answer goes, across two tombstones', () => {
    const session = threeTurns()
    const users = seqsOf(session.events, 'user/message')
    const assistants = seqsOf(session.events, 'assistant/message')
    appendTombstone(session, 'recall', [users[1]!])
    assert.ok(!hiddenKeys(session.events).includes('tail-2:empty-turn'))
    appendTombstone(session, 'delete', [assistants[2]!])
    assert.deepEqual(hiddenKeys(session.events), [`user-${users[1]}:shadowed`, `step-2:1:shadowed`, 'tail-2:answer-removed'])
  })

  it('hides a turn\'s context row once the turn has no content left, and never while any content remains', () => {
    const session = threeTurnsWithContext()
    const users = seqsOf(session.events, 'user/message')
    const [, context2, , context3] = users.slice(1)
    const prompts = users.filter((seq) => seq !== context2 && seq !== context3)
    const assistants = seqsOf(session.events, 'assistant/message')
    assert.deepEqual(rowsOf(session.events).filter((r) => r.rowKind === 'context').map((r) => [r.seq, r.turn]), [[context2, 2], [context3, 3]])
    appendTombstone(session, 'recall', [prompts[1]!])
    assert.deepEqual(hiddenKeys(session.events), [`user-${prompts[1]}:shadowed`], 'the answer remains, so the context row stays')
    appendTombstone(session, 'delete', [assistants[2]!])
    assert.deepEqual(hiddenKeys(session.events), [`user-${prompts[1]}:shadowed`, `user-${context2}:empty-turn`, `step-2:1:shadowed`, 'tail-2:answer-removed'])
    appendTombstone(session, 'delete', [assistants[3]!])
    assert.ok(!hiddenKeys(session.events).includes(`user-${context3}:empty-turn`), 'turn 3 keeps its prompt, so its context row stays')
    const result = deriveHiddenRows(session.events as readonly LogEvent[], rowsOf(session.events))
    assert.deepEqual(result.hidden.find((h) => h.rowKind === 'context'), { key: `user-${context2}`, rowKind: 'context', reason: 'empty-turn', tombstoneSeq: null })
  })

  it('keeps the context row of a turn that never had a content row, and a context row outside any turn', () => {
    const rows: TranscriptRow[] = [
      { key: 'ctx-1', rowKind: 'context', seq: 3, anchorSeq: 3, turn: 1 }, { key: 'tail-1', rowKind: 'turn-tail', seq: null, anchorSeq: 4, turn: 1 },
      { key: 'ctx-x', rowKind: 'context', seq: 6, anchorSeq: 6, turn: null },
      { key: 'u-2', rowKind: 'user', seq: 8, anchorSeq: 8, turn: 2 }, { key: 'ctx-2', rowKind: 'context', seq: 9, anchorSeq: 9, turn: 2 },
    ]
    const tomb: LogEvent = { type: 'user/message', seq: 12, time: 0, data: { source: tombstoneSource('recall', [8]) }, surfaceOp: replaceOp(8, 8), sourceEventSeqs: [8] }
    assert.deepEqual(deriveHiddenRows([tomb], rows).hidden.map((h) => `${h.key}:${h.reason}`), ['u-2:shadowed', 'ctx-2:empty-turn'])
  })

  it('Delete onward hides the log-only rows of the span up to the tombstone, and nothing logged after it', () => {
    const session = threeTurns()
    const users = seqsOf(session.events, 'user/message')
    const surfaceAfter = [...session.surface.nodes].filter((seq) => seq >= users[1]!)
    const tomb = appendTombstone(session, 'deleteFrom', surfaceAfter)
    // A fourth turn arrives after the tombstone: it stays visible.
    const more = Session.create(SessionId('session-more'), conversationLog([{ prompt: 'fourth', steps: [{ text: 'reply four' }] }]))
    const events = [...session.events, ...more.events.map((e) => ({ ...e, seq: e.seq + session.events.length }))] as LogEvent[]
    const rows = [...rowsOf(session.events), { key: 'tail-4', rowKind: 'turn-tail', seq: null, anchorSeq: events.length - 1, turn: 4 }]
    const result = deriveHiddenRows(events, rows)
    assert.deepEqual(result.hidden.map((h) => `${h.key}:${h.reason}`), [
      `user-${users[1]}:shadowed`, 'step-2:1:shadowed', 'tail-2:span', `user-${users[2]}:shadowed`, 'step-3:1:shadowed', 'tail-3:span',
    ])
    assert.ok(result.hidden.every((h) => h.tombstoneSeq === tomb.seq))
  })

  it('keeps what an earlier tombstone hid when a later Delete onward absorbs it (nested tombstones)', () => {
    const session = threeTurns()
    const users = seqsOf(session.events, 'user/message')
    const inner = appendTombstone(session, 'recall', [users[2]!])
    const nodes = [...session.surface.nodes]
    const from = nodes.indexOf(seqsOf(session.events, 'assistant/message')[3]!)
    const outer = appendTombstone(session, 'deleteFrom', nodes.slice(from - 1))
    assert.deepEqual(nodes.slice(from - 1)[0], inner.seq, 'the outer range starts at the inner tombstone')
    const result = deriveHiddenRows(session.events as readonly LogEvent[], rowsOf(session.events))
    const byKey = new Map(result.hidden.map((h) => [h.key, h]))
    assert.equal(byKey.get(`user-${users[2]}`)?.tombstoneSeq, inner.seq)
    assert.equal(byKey.get('step-3:1')?.tombstoneSeq, outer.seq)
    assert.equal(result.fates.shadowerOf(inner.seq), outer.seq)
    assert.ok(!byKey.has(`user-${users[1]}`))
  })

  it('hides nothing for a compaction checkpoint or a replace op in a later-version shape', () => {
    const session = threeTurns()
    const users = seqsOf(session.events, 'user/message')
    session.append('user/message', { id: 'cp', role: 'user', content: [{ type: 'text', text: 'summary' }], source: { kind: 'plugin', plugin: 'compact', compactionId: 'c1' } } as never,
      { surfaceOp: replaceOp(users[0]!, users[0]!), sourceEventSeqs: [users[0]!] } as never)
    const foreign: LogEvent = { type: 'user/message', seq: session.events.length, time: 0, data: { source: tombstoneSource('delete', [users[1]!]) },
      surfaceOp: { op: 'replace', startSeq: users[1], endSeq: users[1] }, sourceEventSeqs: [users[1]!] }
    const events = [...session.events, foreign] as LogEvent[]
    assert.deepEqual(deriveHiddenRows(events, rowsOf(session.events)).hidden, [])
  })

  it('reads the shadowed seqs from source.removedSeqs when the envelope has no sourceEventSeqs', () => {
    const tomb: LogEvent = { type: 'user/message', seq: 9, time: 0, data: { source: tombstoneSource('delete', [4, 5]) }, surfaceOp: replaceOp(4, 5) }
    const rows: TranscriptRow[] = [
      { key: 'a', rowKind: 'user', seq: 4, anchorSeq: 4, turn: 1 }, { key: 'b', rowKind: 'assistant-step', seq: 5, anchorSeq: 5, turn: 1 },
      { key: 'c', rowKind: 'user', seq: 8, anchorSeq: 8, turn: 2 },
    ]
    assert.deepEqual(readTombstones([tomb])[0]?.shadowedSeqs, [4, 5])
    assert.deepEqual([...deriveHiddenRows([tomb], rows).hiddenKeys], ['a', 'b'])
  })
})
