/**
 * What one surface node is, read from its session event: the node kind the removal rules
 * branch on, the `(turn, step)` a model row belongs to, the tool-call ids it opens or answers,
 * and the message id it derives to. Pure and browser-safe; no DSH runtime import.
 *
 * Event shapes are those of `dsh-session/lib/types/types.d.ts` (`SessionEventMap`) at 0.1.0-rc.8:
 * `user/message` data is the message itself and carries no turn/step; `assistant/message` and
 * `tool/result` data are `{ turn, step, message }`. A step's tool call and result pair on
 * `tool-call` block `id` === `tool/result.data.message.source.callId`.
 *
 * @module dsh-message-recall/shared/surface-node
 */
import { isRecord, type LogEvent } from './events'
import { readReplaceOp } from './replace-op'
import { isTombstoneSource } from './tombstone'

/**
 * Kind of a surface node, as the removal rules see it:
 * - `user`: a `user/message` the person sent (`source.kind === 'user'`: prompts and steering),
 *   also as a restoring copy (a replace of one tombstone `T` citing `[T, P]`);
 * - `reference`: a session-reference snapshot (`source.kind === 'session-reference'`,
 *   `dsh-session-reference`): the untrusted snapshot of other sessions that DSH appends once,
 *   right after the prompt whose `@` mention caused it, and never writes again;
 * - `context`: any other append-origin `user/message` the harness injects (the agent loop's
 *   runtime context, agent instructions, skill and catalog messages, another plugin's notes);
 * - `tombstone`: a tombstone of this plugin;
 * - `checkpoint`: a compaction checkpoint (replacing `user/message` with source plugin `compact`);
 * - `replacement`: any other replacing `user/message` (another plugin's marker). The value is
 *   kept as written because plan values, refusals and `explain-session --json` carry it; in code,
 *   a "replacement" without a qualifier is any replacing event (`isReplacementSurfaceEvent` in
 *   `dsh-session`), and this kind is "another plugin's replacement";
 * - `assistant`: an `assistant/message`; `tool`: a `tool/result` (pruned replacements included).
 */
export type NodeKind = 'user' | 'reference' | 'context' | 'tombstone' | 'checkpoint' | 'replacement' | 'assistant' | 'tool'

/** A model step: the `turn` and `step` numbers of `step/start` (both 1-based in the rc.8 loop). */
export interface StepKey {
  readonly turn: number
  readonly step: number
}

/** `source.kind` of a session-reference snapshot (`dsh-session-reference`, `SessionReferenceSource`). */
export const SESSION_REFERENCE_SOURCE_KIND = 'session-reference'

/** `source.plugin` of compaction checkpoints (`dsh-compaction`, `compactCheckpointSource`). */
export const COMPACTION_CHECKPOINT_PLUGIN = 'compact'

/**
 * The message an event carries: a `user/message`'s data is the message; `assistant/message` and
 * `tool/result` carry it under `data.message`.
 * @param event - any session event.
 * @returns the message object, or `undefined` when the event carries none.
 */
export function messageOf(event: LogEvent): Record<string, unknown> | undefined {
  if (!isRecord(event.data)) return undefined
  if (event.type === 'user/message') return event.data
  const message = event.data.message
  return isRecord(message) ? message : undefined
}

/**
 * Classify a surface node.
 * @param event - the node's session event (`user/message`, `assistant/message` or `tool/result`).
 * @returns its {@link NodeKind}.
 * @throws when `event` is not one of the three surface-eligible types.
 */
export function classifyNode(event: LogEvent): NodeKind {
  switch (event.type) {
    case 'assistant/message':
      return 'assistant'
    case 'tool/result':
      return 'tool'
    case 'user/message': {
      const source = isRecord(event.data) ? event.data.source : undefined
      if (readReplaceOp(event.surfaceOp) !== null) {
        if (isTombstoneSource(source)) return 'tombstone'
        if (isRecord(source) && source.kind === 'plugin' && source.plugin === COMPACTION_CHECKPOINT_PLUGIN) return 'checkpoint'
        // A restoring copy (`restore.ts`) keeps the person's own source: it is their message again.
        if (isRecord(source) && source.kind === 'user' && isRestoreShape(event)) return 'user'
        return 'replacement'
      }
      if (!isRecord(source)) return 'context'
      return source.kind === 'user' ? 'user' : source.kind === SESSION_REFERENCE_SOURCE_KIND ? 'reference' : 'context'
    }
    default:
      throw new Error(`message-recall: event seq ${event.seq} of type "${event.type}" is not a surface node`)
  }
}

/**
 * The shape of a restoring copy (`restore.ts` `readRestore` checks the tombstone too): a replace
 * of exactly one node `T` with `sourceEventSeqs` `[T, P]`.
 */
function isRestoreShape(event: LogEvent): boolean {
  const range = readReplaceOp(event.surfaceOp)
  const cited = event.sourceEventSeqs
  return range !== null && range.start === range.end && cited !== undefined && cited.length === 2 && cited[0] === range.start && cited[1] !== range.start
}

/**
 * The model step of an `assistant/message` or `tool/result`.
 * @param event - any session event.
 * @returns `{ turn, step }`, or `null` for a `user/message` (which carries none) and for data
 * without integer `turn`/`step`.
 */
export function stepOf(event: LogEvent): StepKey | null {
  if (event.type !== 'assistant/message' && event.type !== 'tool/result') return null
  if (!isRecord(event.data)) return null
  const { turn, step } = event.data
  return Number.isSafeInteger(turn) && Number.isSafeInteger(step) ? { turn: turn as number, step: step as number } : null
}

/**
 * Whether a session event belongs to a model step.
 * @param event - any session event.
 * @param key - the step's `(turn, step)`.
 * @returns true when `event` is an `assistant/message` or `tool/result` of that step.
 */
export function isStepMember(event: LogEvent, key: StepKey): boolean {
  if (event.type !== 'assistant/message' && event.type !== 'tool/result') return false
  const data = event.data as { turn?: unknown; step?: unknown } | null
  return data !== null && typeof data === 'object' && data.turn === key.turn && data.step === key.step
}

/**
 * Tool-call ids an `assistant/message` opens (its `tool-call` blocks, in order).
 * @param event - any session event.
 * @returns the ids; `[]` for any other event or a message without calls.
 */
export function toolCallIds(event: LogEvent): string[] {
  if (event.type !== 'assistant/message') return []
  const content = messageOf(event)?.content
  if (!Array.isArray(content)) return []
  const ids: string[] = []
  for (const block of content) {
    if (isRecord(block) && block.type === 'tool-call' && typeof block.id === 'string') ids.push(block.id)
  }
  return ids
}

/**
 * The tool-call id a `tool/result` answers (`message.source.callId`, falling back to the
 * `tool-result` block's `toolCallId`).
 * @param event - any session event.
 * @returns the id, or `null` for any other event.
 */
export function toolResultCallId(event: LogEvent): string | null {
  if (event.type !== 'tool/result') return null
  const message = messageOf(event)
  const source = message?.source
  if (isRecord(source) && typeof source.callId === 'string') return source.callId
  const block = Array.isArray(message?.content) ? message.content[0] : undefined
  return isRecord(block) && typeof block.toolCallId === 'string' ? block.toolCallId : null
}

/**
 * The id of the message a surface node derives to (`deriveEventMessage` in `dsh-session`).
 * Ids are not unique per log: the tool-result pruner's replacement reuses the original id.
 * @param event - a surface node's session event.
 * @returns the id, or `null` when the event carries none.
 */
export function messageIdOf(event: LogEvent): string | null {
  const id = messageOf(event)?.id
  return typeof id === 'string' && id.length > 0 ? id : null
}

/**
 * The content blocks of the message a surface node derives to.
 * @param event - a surface node's session event.
 * @returns the blocks (the logged, frozen array), or `[]` when absent.
 */
export function contentOf(event: LogEvent): readonly unknown[] {
  const content = messageOf(event)?.content
  return Array.isArray(content) ? content : []
}

/** The plain-text rule lives in `message-text.ts`; re-exported for the readers of surface nodes. */
export { plainText } from './message-text'
