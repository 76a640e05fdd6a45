/**
 * The tool-pairing index over real rc.8 logs: the ids a window opens and answers, what a replace
 * of a window would split, the nearest partner outside a window, and the unpaired calls and
 * results of a node list.
 */
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import type { LogEvent } from '../../src/shared/events'
import { nearestBefore, nearestOutside, ToolPairingIndex } from '../../src/shared/tool-pairing'
import { LogBuilder } from '../host/log-builder'

/** prompt, assistant with calls a and b, result a, result b, a text-only second step. */
function twoCallTurn() {
  const log = new LogBuilder('tool-pairing')
  const { prompt, steps } = log.turn('read two files', [{ text: 'reading', calls: ['a', 'b'] }, { text: 'done' }])
  const [first, second] = steps as [(typeof steps)[0], (typeof steps)[0]]
  const index = (nodes: readonly number[]) => new ToolPairingIndex(nodes, (idx) => log.lookup(nodes[idx]!)!)
  return { log, prompt, assistant: first.assistant, results: first.results, text: second.assistant, index }
}

describe('tool-pairing index', () => {
  it('lists the ids a window opens and answers, in surface order', () => {
    const { log, index } = twoCallTurn()
    const pairing = index(log.nodes)
    const opened = pairing.window(1, 1)
    assert.deepEqual([...opened.calls], ['call-1-1-a', 'call-1-1-b'])
    assert.deepEqual([...opened.answered], [])
    const results = pairing.window(2, 3)
    assert.deepEqual([...results.calls], [])
    assert.deepEqual([...results.answered], ['call-1-1-a', 'call-1-1-b'])
    pairing.extend(results, 1, 1)
    assert.deepEqual([...results.calls], ['call-1-1-a', 'call-1-1-b'])
    assert.deepEqual(pairing.resultPositions('call-1-1-b'), [3])
    assert.deepEqual(pairing.callPositions('call-1-1-b'), [1])
    assert.deepEqual(pairing.callPositions('call-9-9-z'), [])
  })

  it('names the ids a replace of a window would split, and none for a balanced window', () => {
    const { log, index } = twoCallTurn()
    const pairing = index(log.nodes)
    assert.deepEqual(pairing.splitBy(1, 2), ['call-1-1-b'])
    assert.deepEqual(pairing.splitBy(2, 3), ['call-1-1-a', 'call-1-1-b'])
    assert.deepEqual(pairing.splitBy(1, 3), [])
    assert.deepEqual(pairing.splitBy(0, 0), [])
  })

  it('reports unanswered calls and orphan results of a node list by seq', () => {
    const { prompt, assistant, results, text, index } = twoCallTurn()
    assert.deepEqual(index([prompt, assistant, results[0]!, text]).unpaired(), {
      unansweredCalls: [{ seq: assistant, callId: 'call-1-1-b' }],
      orphanResults: [],
    })
    assert.deepEqual(index([prompt, results[1]!]).unpaired(), {
      unansweredCalls: [],
      orphanResults: [{ seq: results[1]!, callId: 'call-1-1-b' }],
    })
    assert.deepEqual(index([prompt, assistant, ...results, text]).unpaired(), { unansweredCalls: [], orphanResults: [] })
  })

  it('keeps every position of a repeated call id, and reports its last node when unpaired', () => {
    const call = (seq: number): LogEvent => ({
      type: 'assistant/message', seq, time: 0,
      data: { turn: 1, step: seq, message: { id: `m${seq}`, role: 'assistant', content: [{ type: 'tool-call', id: 'x', name: 'read_file', arguments: '{}' }] } },
      surfaceOp: 'append',
    })
    const events = [call(0), call(1)]
    const pairing = new ToolPairingIndex([0, 1], (idx) => events[idx]!)
    assert.deepEqual(pairing.callPositions('x'), [0, 1])
    assert.deepEqual(pairing.unpaired().unansweredCalls, [{ seq: 1, callId: 'x' }])
  })

  it('picks the nearest position outside a window, the earlier one at equal distance', () => {
    assert.equal(nearestOutside([1, 8], 4, 6), 8)
    assert.equal(nearestOutside([2, 8], 4, 6), 2)
    assert.equal(nearestOutside([0, 5], 4, 6), 0)
    assert.equal(nearestOutside([5], 4, 6), -1)
    assert.equal(nearestOutside([], 4, 6), -1)
    assert.equal(nearestBefore([1, 3, 7], 5), 3)
    assert.equal(nearestBefore([7], 5), -1)
  })
})
