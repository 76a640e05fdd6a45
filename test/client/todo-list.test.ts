/**
 * Whether the To-dos strip shows a list only a removed model step wrote (`staleTodoList`), over
 * logs shaped like rc.8's: `todo/write` appended while the `todo_write` call of a step runs.
 */
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import type { LogEvent } from '../../src/shared/events'
import { tombstoneSource } from '../../src/shared/tombstone'
import { staleTodoList } from '../../src/client/side-state/todo-list'

/** Turn 1: prompt (1), step 1 writes list A (2–5), step 2 writes list B (6–9). */
function turn(): LogEvent[] {
  const events: LogEvent[] = []
  const add = (type: string, data: unknown, surfaceOp?: unknown) => events.push({ type, seq: events.length, time: events.length, data, ...(surfaceOp === undefined ? {} : { surfaceOp }) } as LogEvent)
  add('turn/start', { turn: 1 })
  add('user/message', { role: 'user', id: 'p', content: [{ type: 'text', text: 'plan' }], source: { kind: 'user' } }, 'append')
  for (const [step, list] of [[1, 'A'], [2, 'B']] as const) {
    add('assistant/message', { turn: 1, step, message: { role: 'assistant', content: [{ type: 'tool-call', id: `c${step}`, name: 'todo_write', arguments: '{}' }] } }, 'append')
    add('tool/call', { turn: 1, step, callId: `c${step}`, name: 'todo_write', arguments: '{}' })
    add('todo/write', { todos: [{ content: list, status: 'pending' }] })
    add('tool/result', { turn: 1, step, message: { role: 'tool', source: { kind: 'tool', callId: `c${step}` }, content: [] } }, 'append')
  }
  add('turn/end', { turn: 1, reason: { kind: 'stop' } })
  return events
}

function withTombstone(events: LogEvent[], shadowed: number[]): LogEvent[] {
  const seq = events.length
  return [...events, { type: 'user/message', seq, time: seq, data: { role: 'user', id: 't', content: [], source: tombstoneSource('delete', shadowed) }, surfaceOp: { op: 'replace', start: shadowed[0]!, end: shadowed.at(-1)! }, sourceEventSeqs: shadowed } as LogEvent]
}

describe('staleTodoList', () => {
  it('is false while the step that wrote the list stays', () => {
    assert.equal(staleTodoList(turn()), false)
    assert.equal(staleTodoList(withTombstone(turn(), [1])), false, 'only the prompt went')
    assert.equal(staleTodoList(withTombstone(turn(), [2, 5])), false, 'an earlier list-writing step went; the last list stays')
  })

  it('is true when the step that wrote the last list is removed, and false again after the next turn starts', () => {
    const removed = withTombstone(turn(), [6, 9])
    assert.equal(staleTodoList(removed), true)
    assert.equal(staleTodoList([...removed, { type: 'turn/start', seq: removed.length, time: 0, data: { turn: 2 } } as LogEvent]), false)
  })

  it('counts a history with seqs left out', () => {
    const removed = withTombstone(turn(), [6, 9]).filter((e) => e.type !== 'tool/call')
    assert.equal(staleTodoList(removed), true)
  })
})
