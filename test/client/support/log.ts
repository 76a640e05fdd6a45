/**
 * Logs for the client tests: the realistic turns of `test/support/conversation.ts`, with the rows
 * that generator does not write spliced in at the positions the rc.8 agent loop writes them —
 * the loop's runtime-context message after the first prompt, a steering message admitted at a
 * step start, a failed turn, and an open turn whose tool call has no result yet. Every returned
 * log is replayed by a real `Session` (`liveSession`), so it passes rc.8's surface validation.
 *
 * @module test/client/support/log
 */
import type { SessionEvent } from '@deepseek-ai/dsh-session'
import { createAssistantMessage, createUserMessage, CallId } from '@deepseek-ai/dsh-llm'
import { MODEL, PROVIDER } from '../../support/dsh-app'
import { conversationLog, type TurnSpec } from '../../support/conversation'

type Draft = { type: string; data: unknown; surfaceOp?: unknown; sourceEventSeqs?: number[] }

/**
 * Insert events after the event at `index`, renumbering seqs and every seq reference
 * (`sourceEventSeqs`, replace ops).
 * @returns a new log with `seq === index`.
 */
export function insertAfter(events: readonly SessionEvent[], index: number, drafts: readonly Draft[]): SessionEvent[] {
  const out: SessionEvent[] = []
  const map = new Map<number, number>()
  const push = (event: Record<string, unknown>, oldSeq?: number) => {
    const seq = out.length
    if (oldSeq !== undefined) map.set(oldSeq, seq)
    const refs = Array.isArray(event.sourceEventSeqs) ? { sourceEventSeqs: (event.sourceEventSeqs as number[]).map((s) => map.get(s) ?? s) } : {}
    const op = event.surfaceOp as Record<string, number> | string | undefined
    const surfaceOp = typeof op === 'object' && op !== null ? { surfaceOp: { op: 'replace', start: map.get(op.start!) ?? op.start, end: map.get(op.end!) ?? op.end } } : {}
    out.push({ ...event, seq, time: (event.time as number | undefined) ?? 1_700_000_000_000 + seq, ...refs, ...surfaceOp } as unknown as SessionEvent)
  }
  events.forEach((event, i) => {
    push(event as unknown as Record<string, unknown>, event.seq)
    if (i === index) for (const draft of drafts) push(draft as Record<string, unknown>)
  })
  return out
}

const indexOf = (events: readonly SessionEvent[], test: (e: SessionEvent & { data: any }) => boolean, nth = 0): number => {
  let seen = 0
  const i = events.findIndex((e) => test(e as SessionEvent & { data: any }) && seen++ === nth)
  if (i < 0) throw new Error('insert point not found')
  return i
}

/** Ids of the special messages in {@link richLog}. */
export const RICH = { contextText: 'Current runtime context: cwd /project.', steeringText: 'also check the tests', steeringId: 'steer-1' } as const

/**
 * Four turns: (1) prompt, runtime context, a step with two tool calls, a reply; (2) prompt, a step
 * with one tool call, then a steering message admitted at step 2 and the reply; (3) a prompt and
 * a reply, ending in a turn error; (4) an open turn: prompt and a step whose tool call is running.
 */
export function richLog(): SessionEvent[] {
  const turns: TurnSpec[] = [
    { prompt: 'read the config', steps: [{ text: 'Reading.', tools: [{ result: 'config a' }, { result: 'config b' }] }, { text: 'The config is fine.' }] },
    { prompt: 'list the sources', steps: [{ text: 'Listing.', tools: [{ result: 'src/a.ts' }] }, { text: 'Two files.' }] },
    { prompt: 'run the build', steps: [{ text: 'Building now.' }] },
  ]
  let events = conversationLog(turns)
  // (1) The loop's runtime-context message follows the first prompt.
  const context = createUserMessage({ content: [{ type: 'text', text: RICH.contextText }], source: { kind: 'plugin', plugin: 'runtime-context' } as never })
  events = insertAfter(events, indexOf(events, (e) => e.type === 'user/message'), [{ type: 'user/message', data: context, surfaceOp: 'append' }])
  // (2) A steering message claimed from the next-step inbox at turn 2, step 2.
  const steering = { ...createUserMessage({ content: [{ type: 'text', text: RICH.steeringText }], source: { kind: 'user' } }), id: RICH.steeringId }
  events = insertAfter(events, indexOf(events, (e) => e.type === 'step/start' && e.data.turn === 2 && e.data.step === 2), [
    { type: 'agent/inbox/spliced', data: { target: 'next-step', start: 0, inserted: [steering] } },
    { type: 'agent/inbox/spliced', data: { target: 'next-step', start: 0, removedCount: 1, inserted: [] } },
    { type: 'user/message', data: steering, surfaceOp: 'append' },
  ])
  // (3) Turn 3 ends in an error.
  events = events.map((e) => e.type === 'turn/end' && (e.data as any).turn === 3
    ? { ...e, data: { turn: 3, reason: { kind: 'error', error: { code: 'PROVIDER', message: 'upstream closed' } } } } as unknown as SessionEvent
    : e)
  // (4) An open turn with a running tool call.
  const prompt = createUserMessage({ content: [{ type: 'text', text: 'deploy it' }], source: { kind: 'user' } })
  const call = { type: 'tool-call' as const, id: CallId('call-open'), name: 'bash', arguments: '{"cmd":"deploy"}' }
  const message = createAssistantMessage({ content: [call], source: { provider: PROVIDER, model: MODEL } })
  const tail: Draft[] = [
    { type: 'turn/start', data: { turn: 4 } },
    { type: 'step/start', data: { turn: 4, step: 1 } },
    { type: 'user/message', data: prompt, surfaceOp: 'append' },
    { type: 'assistant/message', data: { turn: 4, step: 1, message }, surfaceOp: 'append' },
    { type: 'tool/call', data: { turn: 4, step: 1, callId: 'call-open', name: 'bash', arguments: '{"cmd":"deploy"}' } },
  ]
  return insertAfter(events, events.length - 1, tail)
}

/** Surface-append events of a type, in log order. */
export function appended(events: readonly SessionEvent[], type: string): SessionEvent[] {
  return events.filter((e) => e.type === type && (e as { surfaceOp?: unknown }).surfaceOp === 'append')
}
