/**
 * A builder of realistic rc.8 logs over the real detached `Session` (`Session.create`), for the
 * planner and writer tests. Events go through `session.append` in the order the rc.8 agent loop
 * writes them (`dsh-agent-loop/lib/index.js` `turn()`, `step()`, `appendToolCall`,
 * `appendToolResult`), with the shapes the other rc.8 writers use: the loop's runtime-context
 * message (source plugin `@deepseek-ai/dsh-system-prompt`), steering messages at a step start,
 * the tool-result pruner's content-only `tool/result` replace after `compaction/prune`
 * (`dsh-compaction-tool-result-pruner` `pruneSession`), a compaction checkpoint
 * (`compaction/start` → `compaction/summary` → replacing `user/message` with source plugin
 * `compact` → `compaction/end`, as `dsh-compaction-basic` commits one), and this plugin's
 * tombstones. Chunks are left out: they are log-only and never reach the planner.
 *
 * @module test/host/log-builder
 */
import { CallId, createAssistantMessage, createToolResultMessage, createUserMessage, type ContentBlock } from '@deepseek-ai/dsh-llm'
import { Session, SessionId, type SessionEvent } from '@deepseek-ai/dsh-session'
import type { LogEvent } from '../../src/shared/events'
import { replaceOp } from '../../src/shared/replace-op'
import { referenceSnapshotMessage } from '../support/conversation'
import { appendTombstone } from '../../src/host/tombstone-append'
import type { RemovalAction, TombstoneAction } from '../../src/shared/actions'

export const PROVIDER = 'deepseek-official'
export const MODEL = 'deepseek-v4-flash'

/** Seqs of one model step. */
export interface StepSeqs {
  readonly assistant: number
  /** Tool results, in call order. */
  readonly results: number[]
  readonly turn: number
  readonly step: number
}

/** Builds one session log through the real `Session.append`. */
export class LogBuilder {
  readonly session: Session
  private turnNo = 0
  private stepNo = 0
  private open: 'none' | 'turn' | 'step' = 'none'
  private compactions = 0

  constructor(id = 'planner-fixture') {
    this.session = Session.create(SessionId(id))
  }

  /** The session's events, as the planner reads them. */
  get events(): readonly LogEvent[] {
    return this.session.events as readonly LogEvent[]
  }

  /** One event by seq (the planner's lookup). */
  readonly lookup = (seq: number): LogEvent | undefined => this.session.events[seq] as LogEvent | undefined

  /** Current surface nodes (a copy). */
  get nodes(): number[] {
    return [...this.session.surface.nodes]
  }

  private append(type: string, data: unknown, opts?: { surfaceOp: unknown; sourceEventSeqs?: number[] }): number {
    const append = this.session.append.bind(this.session) as (type: string, data: unknown, ...opts: unknown[]) => SessionEvent
    return (opts === undefined ? append(type, data) : append(type, data, opts)).seq
  }

  /** `turn/start` of the next turn. */
  startTurn(): this {
    this.endStepIfOpen()
    if (this.open === 'turn') this.endTurn()
    this.turnNo += 1
    this.stepNo = 0
    this.append('turn/start', { turn: this.turnNo })
    this.open = 'turn'
    return this
  }

  /** `step/start` of the next step of the open turn. */
  startStep(): this {
    this.endStepIfOpen()
    this.stepNo += 1
    this.append('step/start', { turn: this.turnNo, step: this.stepNo })
    this.open = 'step'
    return this
  }

  private endStepIfOpen(): void {
    if (this.open === 'step') {
      this.append('step/end', { turn: this.turnNo, step: this.stepNo })
      this.open = 'turn'
    }
  }

  /** `turn/end` (completed), closing an open step first. */
  endTurn(): this {
    this.endStepIfOpen()
    if (this.open === 'turn') this.append('turn/end', { turn: this.turnNo, reason: { kind: 'completed' } })
    this.open = 'none'
    return this
  }

  /** A message the person sent (prompt or steering). */
  user(text: string): number {
    return this.append('user/message', createUserMessage({ content: [{ type: 'text', text }], source: { kind: 'user' } }), { surfaceOp: 'append' })
  }

  /** The loop's runtime-context snapshot message. */
  context(text = 'Current runtime context: cwd /project'): number {
    const source = { kind: 'plugin', plugin: '@deepseek-ai/dsh-system-prompt', form: 'snapshot' } as const
    return this.append('user/message', createUserMessage({ content: [{ type: 'text', text }], source: source as never }), { surfaceOp: 'append' })
  }

  /**
   * The session-reference snapshot `dsh-session-reference` appends right after a prompt that
   * mentions other sessions (`SessionReferenceResolver.prepare`: one aggregated `user/message`,
   * `source.kind: 'session-reference'`, the `<referenced-sessions>` JSON as one text block).
   */
  referenceSnapshot(label: string, text: string): number {
    return this.append('user/message', referenceSnapshotMessage(label, text), { surfaceOp: 'append' })
  }

  /**
   * A turn whose prompt mentions another session: the prompt (its mention already rewritten to
   * `@label`), its session-reference snapshot, optionally the runtime context, then one reply.
   */
  citingTurn(prompt: string, label: string, snapshotText: string, reply: string, options: { context?: boolean } = {}): { prompt: number; snapshot: number; reply: number } {
    this.startTurn().startStep()
    const promptSeq = this.user(`${prompt} @${label}`)
    const snapshot = this.referenceSnapshot(label, snapshotText)
    if (options.context) this.context()
    const replySeq = this.assistant(reply)
    this.endTurn()
    return { prompt: promptSeq, snapshot, reply: replySeq }
  }

  /** The assistant message of the open step, with `calls` tool calls (ids `call-<turn>-<step>-<name>`). */
  assistant(text: string, calls: readonly string[] = []): number {
    const content: ContentBlock[] = []
    if (text) content.push({ type: 'text', text })
    for (const name of calls) content.push({ type: 'tool-call', id: CallId(this.callId(name)), name: 'read_file', arguments: JSON.stringify({ path: name }) })
    const message = createAssistantMessage({ content, source: { provider: PROVIDER, model: MODEL } })
    return this.append('assistant/message', { turn: this.turnNo, step: this.stepNo, message }, { surfaceOp: 'append', sourceEventSeqs: [] })
  }

  private callId(name: string): string {
    return `call-${this.turnNo}-${this.stepNo}-${name}`
  }

  /** `tool/call` then `tool/result` for the call `name` of the open step. */
  result(name: string, text: string): number {
    const callId = CallId(this.callId(name))
    const callSeq = this.append('tool/call', { turn: this.turnNo, step: this.stepNo, callId, name: 'read_file', arguments: JSON.stringify({ path: name }) })
    const message = createToolResultMessage({ callId, content: [{ type: 'text', text }], isError: false })
    return this.append('tool/result', { turn: this.turnNo, step: this.stepNo, message }, { surfaceOp: 'append', sourceEventSeqs: [callSeq] })
  }

  /** A whole model step: step/start, optional steering, the assistant message, every result, step/end. */
  modelStep(text: string, calls: readonly string[] = [], options: { steer?: string; context?: boolean } = {}): StepSeqs {
    this.startStep()
    if (options.steer !== undefined) this.user(options.steer)
    if (options.context) this.context()
    const assistant = this.assistant(text, calls)
    const results = calls.map((name) => this.result(name, `${name} contents for ${text}`))
    const seqs = { assistant, results, turn: this.turnNo, step: this.stepNo }
    this.endStepIfOpen()
    return seqs
  }

  /**
   * A whole turn: the prompt (and runtime context) in step 1, then each model step.
   * @returns the prompt seq and each step's seqs.
   */
  turn(prompt: string, steps: readonly { text: string; calls?: readonly string[]; steer?: string }[], options: { context?: boolean } = {}): { prompt: number; steps: StepSeqs[] } {
    this.startTurn().startStep()
    const promptSeq = this.user(prompt)
    if (options.context) this.context()
    const out: StepSeqs[] = []
    steps.forEach((spec, i) => {
      if (i > 0) {
        this.startStep()
        if (spec.steer !== undefined) this.user(spec.steer)
      }
      const assistant = this.assistant(spec.text, spec.calls ?? [])
      const results = (spec.calls ?? []).map((name) => this.result(name, `${name} contents for ${spec.text}`))
      out.push({ assistant, results, turn: this.turnNo, step: this.stepNo })
    })
    this.endTurn()
    return { prompt: promptSeq, steps: out }
  }

  /**
   * Prune a tool result the way `dsh-compaction-tool-result-pruner` does: `compaction/prune`, then
   * a `tool/result` replace of that one node changing only the result text.
   * @returns the replacement's seq.
   */
  prune(resultSeq: number): number {
    const original = this.session.events[resultSeq] as SessionEvent<'tool/result'>
    const block = original.data.message.content[0]!
    this.append('compaction/prune', { shadowedRange: { start: resultSeq, end: resultSeq }, shadowedSeqs: [resultSeq], shadowedTokenCount: 10 })
    const data = { ...original.data, message: { ...original.data.message, content: [{ ...block, content: [{ type: 'text', text: 'head\n\n[... tool result middle pruned ...]\n\ntail' }] }] } }
    return this.append('tool/result', data, { surfaceOp: replaceOp(resultSeq, resultSeq), sourceEventSeqs: [resultSeq] })
  }

  /**
   * A compaction checkpoint over the surface range `start` … `end` (surface seqs), as
   * `dsh-compaction-basic` commits one.
   * @returns the checkpoint's seq.
   */
  checkpoint(start: number, end: number, summary = 'Summary of the earlier conversation.'): number {
    const nodes = this.session.surface.nodes
    const shadowed = nodes.slice(nodes.indexOf(start), nodes.indexOf(end) + 1)
    const compactionId = `compaction-${++this.compactions}`
    const startSeq = this.append('compaction/start', { compactionId, turn: null })
    const summarySeq = this.append('compaction/summary', {
      compactionId, summary: [{ type: 'text', text: summary }], shadowedRange: { start, end }, shadowedSeqs: shadowed, shadowedTokenCount: 100, provider: PROVIDER, model: MODEL,
    })
    const message = createUserMessage({ content: [{ type: 'text', text: summary }], source: { kind: 'plugin', plugin: 'compact', compactionId } as never })
    const seq = this.append('user/message', message, { surfaceOp: replaceOp(start, end), sourceEventSeqs: [startSeq, summarySeq, ...shadowed] })
    this.append('compaction/end', { compactionId, turn: null })
    return seq
  }

  /** A tombstone of this plugin over the surface range `start` … `end`, written directly. */
  tombstone(action: TombstoneAction, start: number, end: number): number {
    const nodes = this.session.surface.nodes
    const shadowed = nodes.slice(nodes.indexOf(start), nodes.indexOf(end) + 1)
    return appendTombstone(this.session, { action, start, end, shadowedSeqs: shadowed }).seq
  }
}
