/**
 * `explainSession` answers which tool calls each tombstone's range splits from their results with
 * one pairing index for the whole fold. Checked against the direct reading: a fresh
 * `ToolPairingIndex` over the surface as it stood when each tombstone was appended, asked
 * `splitBy` over the range. The logs are conversations with tool steps into which tombstones over
 * random ranges are written as the fold goes (so some ranges split a call from its result, and
 * some partners are appended only after the tombstone).
 */
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import fc from 'fast-check'
import { foldSurface } from '@deepseek-ai/dsh-session/surface'
import type { SessionEvent } from '@deepseek-ai/dsh-session/types'
import { createUserMessage, type UserMessage } from '@deepseek-ai/dsh-llm'
import type { LogEvent } from '../../src/shared/events'
import { readReplaceOp, replaceOp } from '../../src/shared/replace-op'
import { tombstoneSource } from '../../src/shared/tombstone'
import { ToolPairingIndex } from '../../src/shared/tool-pairing'
import { explainSession } from '../../src/log/session-explain'
import { conversationLog, syntheticTurns } from '../support/conversation'

/** A tombstone to write before the conversation event at `at`, over surface positions `from` … `from + length - 1`. */
interface Cut {
  readonly at: number
  readonly from: number
  readonly length: number
}

/** The conversation with a tombstone written at each cut (`at` past the end: after the last event; a cut that finds no surface is skipped). */
function logWithCuts(turns: number, cuts: readonly Cut[]): LogEvent[] {
  const conversation = conversationLog(syntheticTurns(turns, { toolSteps: 2, toolsPerStep: 2, textChars: 20 })) as unknown as LogEvent[]
  const events: LogEvent[] = []
  const nodes: number[] = []
  const push = (event: Omit<LogEvent, 'seq'>): void => {
    const seq = events.length
    events.push({ ...event, seq } as LogEvent)
    if (event.surfaceOp === 'append') nodes.push(seq)
  }
  const sorted = [...cuts].sort((a, b) => a.at - b.at)
  let next = 0
  for (let i = 0; i <= conversation.length; i++) {
    for (; next < sorted.length && sorted[next]!.at <= i; next++) {
      const cut = sorted[next]!
      if (nodes.length === 0) continue
      const from = cut.from % nodes.length
      const to = Math.min(nodes.length - 1, from + cut.length - 1)
      const shadowed = nodes.slice(from, to + 1)
      const data = createUserMessage({ content: [], source: tombstoneSource('delete', shadowed) as unknown as UserMessage['source'] })
      const seq = events.length
      events.push({ type: 'user/message', seq, time: 0, data, surfaceOp: replaceOp(shadowed[0]!, shadowed.at(-1)!), sourceEventSeqs: shadowed } as unknown as LogEvent)
      nodes.splice(from, to - from + 1, seq)
    }
    if (i < conversation.length) push(conversation[i]!)
  }
  return events
}

/** The ids each replace splits, read with a fresh index over the surface before it. */
function splitsByFreshIndex(events: readonly LogEvent[]): string[][] {
  const out: string[][] = []
  const nodes: number[] = []
  for (const event of events) {
    if (event.surfaceOp === 'append') nodes.push(event.seq)
    const range = readReplaceOp(event.surfaceOp)
    if (range === null) continue
    const from = nodes.indexOf(range.start)
    const to = nodes.indexOf(range.end)
    out.push(new ToolPairingIndex([...nodes], (idx) => events[nodes[idx]!]!).splitBy(from, to))
    nodes.splice(from, to - from + 1, event.seq)
  }
  return out
}

describe('explainSession tool pairing', () => {
  it('names the calls a range splits exactly as a fresh index over that surface does', () => {
    const cut = fc.record({ at: fc.nat({ max: 400 }), from: fc.nat({ max: 60 }), length: fc.integer({ min: 1, max: 6 }) })
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 5 }), fc.array(cut, { maxLength: 12 }), (turns, cuts) => {
        const events = logWithCuts(turns, cuts)
        foldSurface(events as unknown as SessionEvent[])
        const explanation = explainSession(events)
        assert.equal(explanation.foldError, null)
        assert.deepEqual(explanation.tombstones.map((t) => t.splitCalls), splitsByFreshIndex(events))
      }),
      { numRuns: 200 },
    )
  })

  it('reports a range over a call without its results, and one over results without their call', () => {
    // The first four surface nodes: the prompt, step 1's assistant message with two calls, their two results.
    const events = logWithCuts(1, [])
    const nodes = events.filter((e) => e.surfaceOp === 'append').map((e) => e.seq)
    const [prompt, call, firstResult, secondResult] = nodes
    const ids = new ToolPairingIndex(nodes, (idx) => events[nodes[idx]!]!).window(1, 1).calls
    assert.equal(ids.size, 2)
    const [a, b] = [...ids]
    const cutCall = logWithCuts(1, [{ at: events.length, from: 1, length: 1 }])
    assert.deepEqual(explainSession(cutCall).tombstones.map((t) => [t.shadowedSeqs, t.splitCalls]), [[[call], [a, b]]])
    const cutResult = logWithCuts(1, [{ at: events.length, from: 3, length: 1 }])
    assert.deepEqual(explainSession(cutResult).tombstones.map((t) => [t.shadowedSeqs, t.splitCalls]), [[[secondResult], [b]]])
    const cutStep = logWithCuts(1, [{ at: events.length, from: 0, length: 4 }])
    assert.deepEqual(explainSession(cutStep).tombstones.map((t) => [t.shadowedSeqs, t.splitCalls]), [[[prompt, call, firstResult, secondResult], []]])
  })
})
