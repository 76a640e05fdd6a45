/**
 * The carrier kinds of `src/shared/removed-content.ts` that the seeded sessions of the host tests
 * do not write (an approval request, a to-do list, `run_code` sub-calls, a title and a title
 * request), over one hand-built log in rc.8's event order with two tombstones written by the
 * shared tombstone helpers: every kind found at its seq, and no removed text in any rewritten
 * event, with ids, statuses and structure kept.
 */
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import type { LogEvent } from '../../src/shared/events'
import { REMOVED_ARGUMENTS, REMOVED_CONTENT_MARKER, eventWithoutRemovedContent, findRemovedContent } from '../../src/shared/removed-content'
import { replaceOp } from '../../src/shared/replace-op'
import { tombstoneSource } from '../../src/shared/tombstone'

const prompt = { id: 'm-prompt', role: 'user', content: [{ type: 'text', text: 'SECRET prompt' }], source: { kind: 'user' } }
const drafts: Array<Omit<LogEvent, 'seq' | 'time'>> = [
  { type: 'agent/inbox/spliced', data: { target: 'next-turn', start: 0, inserted: [prompt] } },
  { type: 'turn/start', data: { turn: 1 } },
  { type: 'step/start', data: { turn: 1, step: 1 } },
  { type: 'user/message', data: prompt, surfaceOp: 'append' },
  { type: 'assistant/chunk', data: { turn: 1, step: 1, chunk: { type: 'text-delta', index: 0, text: 'SECRET' } } },
  {
    type: 'assistant/message', surfaceOp: 'append', sourceEventSeqs: [4],
    data: { turn: 1, step: 1, message: { id: 'm-step', role: 'assistant', content: [{ type: 'reasoning', text: 'SECRET thought' }, { type: 'text', text: 'SECRET step' }, { type: 'tool-call', id: 'c1', name: 'todo_write', arguments: '{"todos":"SECRET"}' }] } },
  },
  { type: 'tool/call', data: { turn: 1, step: 1, callId: 'c1', name: 'todo_write', arguments: '{"todos":"SECRET"}' } },
  { type: 'approval/asked', data: { id: 'a1', toolName: 'todo_write', callId: 'c1', reason: 'SECRET reason' } },
  { type: 'todo/write', data: { todos: [{ content: 'SECRET task', status: 'in_progress' }, { content: 'SECRET task two', status: 'pending' }] } },
  { type: 'tool/code-dispatch-start', data: { rootCallId: 'c1', parentCallId: 'c1', subCallId: 's1', name: 'read', arguments: '{"path":"SECRET"}' } },
  { type: 'tool/code-dispatch', data: { rootCallId: 'c1', parentCallId: 'c1', subCallId: 's1', name: 'read', arguments: '{"path":"SECRET"}', isError: false, content: [{ type: 'text', text: 'SECRET file' }] } },
  {
    type: 'tool/result', surfaceOp: 'append', sourceEventSeqs: [6],
    data: { turn: 1, step: 1, message: { id: 'm-result', role: 'user', source: { kind: 'tool', callId: 'c1' }, content: [{ type: 'tool-result', toolCallId: 'c1', content: [{ type: 'text', text: 'SECRET out' }], isError: false }] }, meta: { shown: 'SECRET' } },
  },
  { type: 'step/end', data: { turn: 1, step: 1 } },
  { type: 'session/title', data: { title: 'SECRET title', messageSeqs: [3], source: { kind: 'fallback' } } },
  { type: 'session/title-llm-request', data: { titleProvider: 'llm', messageSeqs: [3], messages: [{ id: 'x', role: 'user', content: [{ type: 'text', text: '<m>SECRET prompt</m>' }], source: { kind: 'plugin', plugin: 'dsh-session-title-llm' } }] } },
  { type: 'turn/end', data: { turn: 1, reason: { kind: 'completed' } } },
  { type: 'user/message', surfaceOp: replaceOp(3, 3), sourceEventSeqs: [3], data: { id: 't1', role: 'user', content: [], source: tombstoneSource('recall', [3]) } },
  { type: 'user/message', surfaceOp: replaceOp(5, 11), sourceEventSeqs: [5, 11], data: { id: 't2', role: 'user', content: [], source: tombstoneSource('delete', [5, 11]) } },
  { type: 'session/title', data: { title: 'New Session', messageSeqs: [16], source: { kind: 'fallback' } } },
]
const log: LogEvent[] = drafts.map((draft, seq) => ({ ...draft, seq, time: 1_700_000_000_000 + seq }) as LogEvent)

describe('removed content', () => {
  it('finds every carrier kind of a recalled prompt and a deleted tool step, and rewrites each without the removed text', () => {
    const removed = findRemovedContent(log.length, (seq) => log[seq])
    assert.deepEqual([...removed.carriers], [
      [0, 'inbox'], [3, 'message'], [4, 'chunk'], [5, 'message'], [6, 'tool-call'], [7, 'approval'], [8, 'todo'],
      [9, 'code-dispatch'], [10, 'code-dispatch'], [11, 'message'], [13, 'title'], [14, 'title-request'],
    ])
    assert.deepEqual(removed.messageSeqs, [3, 5, 11])
    assert.deepEqual([...removed.messageIds], ['m-prompt'])
    assert.deepEqual([...removed.callIds], ['c1'])

    const rewritten = log.map((event) => {
      const kind = removed.carriers.get(event.seq)
      return kind === undefined ? event : eventWithoutRemovedContent(event, kind, removed)
    })
    assert.equal(JSON.stringify(rewritten).includes('SECRET'), false)
    for (const [i, event] of rewritten.entries()) {
      assert.deepEqual([event.seq, event.type, event.time, event.surfaceOp, event.sourceEventSeqs], [log[i]!.seq, log[i]!.type, log[i]!.time, log[i]!.surfaceOp, log[i]!.sourceEventSeqs])
    }
    const data = (seq: number) => rewritten[seq]!.data as any
    assert.deepEqual(data(3).content, [{ type: 'text', text: REMOVED_CONTENT_MARKER }])
    assert.equal(data(3).id, 'm-prompt')
    assert.deepEqual(data(5).message.content, [
      { type: 'reasoning', text: REMOVED_CONTENT_MARKER }, { type: 'text', text: REMOVED_CONTENT_MARKER }, { type: 'tool-call', id: 'c1', name: 'todo_write', arguments: REMOVED_ARGUMENTS },
    ])
    assert.deepEqual(data(4).chunk, { type: 'text-delta', index: 0, text: '' })
    assert.deepEqual(data(8).todos, [{ content: `${REMOVED_CONTENT_MARKER} 1`, status: 'in_progress' }, { content: `${REMOVED_CONTENT_MARKER} 2`, status: 'pending' }])
    assert.deepEqual(data(11), { turn: 1, step: 1, message: { id: 'm-result', role: 'user', source: { kind: 'tool', callId: 'c1' }, content: [{ type: 'tool-result', toolCallId: 'c1', content: [{ type: 'text', text: REMOVED_CONTENT_MARKER }], isError: false }] } })
    assert.equal(data(13).title, REMOVED_CONTENT_MARKER)
    assert.deepEqual(data(18), log[18]!.data, 'the title made after the removal is kept')
    assert.deepEqual(rewritten[16], log[16], 'tombstones are kept')
  })

  it('finds nothing when the only tombstone is an exclusion', () => {
    const excluded = log.slice(0, 16).concat([{ ...log[17]!, data: { ...(log[17]!.data as object), source: tombstoneSource('exclude', [5, 11]) } }, ])
    const seqd = excluded.map((event, seq) => ({ ...event, seq }))
    const removed = findRemovedContent(seqd.length, (seq) => seqd[seq])
    assert.equal(removed.carriers.size, 0)
  })
})
