/**
 * Realistic rc.8 session logs without running the agent loop, for seeding sessions
 * (`ctx.sessions.create(id, { seed })`, `ctx.agents.create({ seed })`) in tests and benchmarks.
 *
 * Events follow the order `dsh-agent-loop@0.1.0-rc.8` writes (`turn()`, `step()`,
 * `appendToolCall`, `appendToolResult` in `dsh-agent-loop/lib/index.js`):
 * `agent/inbox/spliced` (prompt queued) → `turn/start` → `agent/inbox/spliced` (prompt claimed) →
 * `step/start` → the prompt `user/message` → `request/header` and `request/context` (first request
 * only) → `assistant/chunk`* → `assistant/message` (`sourceEventSeqs` = its chunks) → for each
 * call `tool/call` then `tool/result` (`sourceEventSeqs` = `[tool/call seq]`) → `step/end` → next
 * step … → `turn/end`. Messages are made with dsh-llm's own `createUserMessage`,
 * `createAssistantMessage` and `createToolResultMessage`. The smoke test
 * (`test/support/dsh-app.test.ts`) checks this order against a turn the real loop wrote.
 *
 * @module test/support/conversation
 */
import { CallId, createAssistantMessage, createToolResultMessage, createUserMessage, type ContentBlock } from '@deepseek-ai/dsh-llm'
import type { SessionEvent } from '@deepseek-ai/dsh-session'
import { MODEL, PROVIDER } from './dsh-app'

/** One tool call of a model step and the text its result carries. */
export interface ToolCallSpec {
  readonly name?: string
  /** Raw JSON arguments (default `{"path":"."}`). */
  readonly arguments?: string
  readonly result: string
  readonly isError?: boolean
}

/** One model step: optional text, then zero or more tool calls answered in the same step. */
export interface StepSpec {
  readonly text?: string
  readonly tools?: readonly ToolCallSpec[]
}

/** One turn: the person's prompt, then the model steps (the last one normally has no tools). */
export interface TurnSpec {
  readonly prompt: string
  readonly steps: readonly StepSpec[]
  /**
   * The prompt mentioned another session: the session-reference snapshot `dsh-session-reference`
   * appends right after the prompt (`SessionReferenceResolver.prepare`), with this label and one
   * user message of that session's conversation.
   */
  readonly reference?: { readonly label: string; readonly text: string }
}

/**
 * The session-reference snapshot message `dsh-session-reference` builds for one referenced session
 * (`SessionReferenceResolver.prepare`: source `{ kind: 'session-reference', form: 'recall', version: 1, references }`,
 * one text block with the untrusted-snapshot preamble and the `<referenced-sessions>` JSON).
 * @param label - the referenced session's label (its id is `session-<label>`).
 * @param text - the one user message of the referenced conversation.
 */
export function referenceSnapshotMessage(label: string, text: string): ReturnType<typeof createUserMessage> {
  const data = [{ sessionId: `session-${label}`, label, cwd: null, capturedThroughSeq: 7, conversation: [{ role: 'user', text }] }]
  const source = {
    kind: 'session-reference', form: 'recall', version: 1,
    references: [{ sessionId: `session-${label}`, label, capturedThroughSeq: 7, compacted: false, originalMessages: 1, retainedMessages: 1, omittedMessages: 0, omittedBytes: 0, truncated: false, inputIndex: 0 }],
  }
  const body = `## Referenced sessions\n\nThe JSON below is an untrusted, read-only snapshot from other sessions.\n\n<referenced-sessions>\n${JSON.stringify(data)}\n</referenced-sessions>`
  return createUserMessage({ content: [{ type: 'text', text: body }], source: source as never })
}

/** Options of {@link conversationLog}. */
export interface ConversationOptions {
  /** `time` of the first event, epoch ms (default 1_700_000_000_000); each event adds 1 ms. */
  readonly startTime?: number
  /** Code points per text delta chunk (default 8, like the mock model). */
  readonly chunkSize?: number
  /** System prompt recorded in the first `request/header`. */
  readonly system?: string
}

type Draft = Omit<SessionEvent, 'seq' | 'time'> & { surfaceOp?: unknown; sourceEventSeqs?: number[] }

/**
 * Build a complete, balanced session log (every turn closed, every tool call answered).
 * @param turns - the conversation; see {@link TurnSpec}.
 * @param options - see {@link ConversationOptions}.
 * @returns fresh events with `seq === index`, ready to use as a seed.
 * @throws `Error('conversationLog: turn N has no steps')` for a turn without steps.
 */
export function conversationLog(turns: readonly TurnSpec[], options: ConversationOptions = {}): SessionEvent[] {
  const events: SessionEvent[] = []
  const start = options.startTime ?? 1_700_000_000_000
  const chunkSize = options.chunkSize ?? 8
  const push = (draft: Draft): number => {
    const seq = events.length
    events.push({ ...draft, seq, time: start + seq } as unknown as SessionEvent)
    return seq
  }
  let headerWritten = false
  turns.forEach((turnSpec, t) => {
    const turn = t + 1
    if (turnSpec.steps.length === 0) throw new Error(`conversationLog: turn ${turn} has no steps`)
    const prompt = createUserMessage({ content: [{ type: 'text', text: turnSpec.prompt }], source: { kind: 'user' } })
    push({ type: 'agent/inbox/spliced', data: { target: 'next-turn', start: 0, inserted: [prompt] } } as Draft)
    push({ type: 'turn/start', data: { turn } } as Draft)
    push({ type: 'agent/inbox/spliced', data: { target: 'next-turn', start: 0, removedCount: 1, inserted: [] } } as Draft)
    turnSpec.steps.forEach((stepSpec, s) => {
      const step = s + 1
      push({ type: 'step/start', data: { turn, step } } as Draft)
      if (step === 1) push({ type: 'user/message', data: prompt, surfaceOp: 'append' } as Draft)
      if (step === 1 && turnSpec.reference !== undefined) {
        push({ type: 'user/message', data: referenceSnapshotMessage(turnSpec.reference.label, turnSpec.reference.text), surfaceOp: 'append' } as Draft)
      }
      if (!headerWritten) {
        headerWritten = true
        push({ type: 'request/header', data: {
          header: { config: { provider: PROVIDER, model: MODEL, maxTokens: 256000, reasoningEffort: 'high' },
            adapterDefaults: { reasoningEffort: true, maxTokens: true }, system: options.system ?? 'You are an AI agent powered by DeepSeek Harness.' },
          reason: 'initial' } } as Draft)
        push({ type: 'request/context', data: { provider: PROVIDER, model: MODEL, contextWindow: 1_000_000 } } as Draft)
      }
      const tools = (stepSpec.tools ?? []).map((tool, i) => ({
        ...tool, id: CallId(`call-${turn}-${step}-${i + 1}`), name: tool.name ?? 'read_file', arguments: tool.arguments ?? '{"path":"."}',
      }))
      const content: ContentBlock[] = []
      const chunkSeqs: number[] = []
      const chunk = (c: unknown) => chunkSeqs.push(push({ type: 'assistant/chunk', data: { turn, step, chunk: c } } as Draft))
      let index = 0
      if (stepSpec.text !== undefined || tools.length === 0) {
        const text = stepSpec.text ?? ''
        chunk({ type: 'block-start', index, blockType: 'text' })
        const points = [...text]
        for (let i = 0; i < points.length; i += chunkSize) chunk({ type: 'text-delta', index, text: points.slice(i, i + chunkSize).join('') })
        chunk({ type: 'block-end', index, block: { type: 'text', text } })
        content.push({ type: 'text', text })
        index++
      }
      for (const tool of tools) {
        chunk({ type: 'block-start', index, blockType: 'tool-call' })
        const args = [...tool.arguments]
        for (let i = 0; i < args.length; i += chunkSize) {
          chunk({ type: 'tool-call-delta', index, id: tool.id, name: tool.name, argumentsDelta: args.slice(i, i + chunkSize).join('') })
        }
        const block = { type: 'tool-call' as const, id: tool.id, name: tool.name, arguments: tool.arguments }
        chunk({ type: 'block-end', index, block })
        content.push(block)
        index++
      }
      const usage = { inputTokens: 100 * turn + step, outputTokens: 10 + content.length }
      chunk({ type: 'usage', usage })
      chunk({ type: 'finish', reason: { kind: tools.length ? 'tool-calls' : 'stop' } })
      const message = createAssistantMessage({ content, source: { provider: PROVIDER, model: MODEL } })
      push({ type: 'assistant/message', data: { turn, step, message, usage }, surfaceOp: 'append', sourceEventSeqs: chunkSeqs } as Draft)
      for (const tool of tools) {
        const callSeq = push({ type: 'tool/call', data: { turn, step, callId: tool.id, name: tool.name, arguments: tool.arguments } } as Draft)
        const result = createToolResultMessage({ callId: tool.id, content: [{ type: 'text', text: tool.result }], isError: tool.isError ?? false })
        push({ type: 'tool/result', data: { turn, step, message: result }, surfaceOp: 'append', sourceEventSeqs: [callSeq] } as Draft)
      }
      push({ type: 'step/end', data: { turn, step } } as Draft)
    })
    push({ type: 'turn/end', data: { turn, reason: { kind: 'completed' } } } as Draft)
  })
  return events
}

/** Shape of the turns {@link syntheticTurns} generates. */
export interface SyntheticShape {
  /** Model steps with tool calls before the final reply (default 1). */
  readonly toolSteps?: number
  /** Tool calls per tool step (default 2). */
  readonly toolsPerStep?: number
  /** Approximate characters of each reply and tool result (default 160). */
  readonly textChars?: number
}

const LOREM = 'The build reads the configuration, resolves every module, bundles the client and writes the output next to the sources. '

function textOf(label: string, chars: number): string {
  let text = `${label}: `
  while (text.length < chars) text += LOREM
  return text.slice(0, chars)
}

/**
 * Deterministic turns with distinct, searchable texts: turn `n`'s prompt contains `prompt #n`,
 * its tool results `result #n.s.i`, its reply `reply #n`.
 * @param count - number of turns.
 * @param shape - see {@link SyntheticShape}.
 */
export function syntheticTurns(count: number, shape: SyntheticShape = {}): TurnSpec[] {
  const toolSteps = shape.toolSteps ?? 1
  const toolsPerStep = shape.toolsPerStep ?? 2
  const chars = shape.textChars ?? 160
  return Array.from({ length: count }, (_, t) => {
    const n = t + 1
    const steps: StepSpec[] = []
    for (let s = 1; s <= toolSteps; s++) {
      steps.push({
        text: `Checking step ${s} of prompt #${n}.`,
        tools: Array.from({ length: toolsPerStep }, (_, i) => ({
          name: i % 2 ? 'list_dir' : 'read_file',
          arguments: JSON.stringify({ path: `src/file-${n}-${s}-${i + 1}.ts` }),
          result: textOf(`result #${n}.${s}.${i + 1}`, chars),
        })),
      })
    }
    steps.push({ text: textOf(`reply #${n}`, chars) })
    return { prompt: `prompt #${n}: ${textOf('please look at the project', Math.min(chars, 80))}`, steps }
  })
}

/**
 * A realistic log of at least `minEvents` events, made of whole {@link syntheticTurns} turns
 * (with the default shape one turn is 59 events, 5 of them surface nodes).
 * @param minEvents - lower bound on the event count.
 * @param shape - see {@link SyntheticShape}.
 */
export function logOfSize(minEvents: number, shape: SyntheticShape = {}): SessionEvent[] {
  const perTurn = conversationLog(syntheticTurns(2, shape)).length - conversationLog(syntheticTurns(1, shape)).length
  const turns = Math.max(1, Math.ceil((minEvents - 2) / perTurn))
  return conversationLog(syntheticTurns(turns, shape))
}
