/**
 * Which events of a session log carry the content of removed messages, and what each becomes
 * without it. Pure and browser-safe: the host's export without removed messages rewrites a copy
 * of the log with it, and a rewrite of the log on disk can use the same rules.
 *
 * **Removed** means what the transcript hides as removed (the one fate reader, `fate.ts`): a
 * message a Recall, Delete or Delete onward took and no restore brought back, also when a later
 * tombstone absorbed that one, and a restored message whose copy was removed again; and what a
 * removed replacement stands for (a pruned tool result the result it pruned). Not removed: an
 * excluded message (it stays in the transcript, dimmed), also when a Recall or Delete of its
 * neighbour absorbed the exclusion (only a Delete onward takes it), and a restored message.
 *
 * **Carriers** are the removed messages themselves and every event that copied their content
 * (rc.8 writers named per kind in {@link CarrierKind}). A carrier keeps its type, seq, time,
 * surface op, provenance and every structural field (ids, call ids, turn, step, message roles,
 * block types); only the content strings become {@link REMOVED_CONTENT_MARKER} (or
 * {@link REMOVED_ARGUMENTS} for a tool call's raw JSON arguments, `''` for a streamed delta),
 * image blocks become a text block with the marker, and a tool's structured output for its
 * renderer (`data.meta` of a `tool/result` or `tool/call`) is left out. So the rewritten log folds to the same
 * surface (`foldSurface` reads only types, seqs, surface ops and provenance) and derives the same
 * messages: every carrier is off the surface or outside the messages.
 *
 * A compaction summary written from a message that was removed later (the order a summary
 * rewrite exists for, `summary-rewrite.ts`) carries it too, once a rewrite replaced it: such a
 * checkpoint is off the surface, and its originals (read through nested compactions,
 * `originalsOf`) include a removed message that no summary rewrite inside it had already left out.
 *
 * Kept on purpose (not carriers): a compaction summary still on the surface (what the model reads
 * now; an Undo of a rewrite puts the earlier summary back there and its messages are folded, not
 * removed), `goal/change` events (`dsh-goal` requires every change of
 * a goal to repeat its objective, so one cannot be rewritten alone), and the request the model
 * provider already received.
 *
 * @module dsh-message-recall/shared/removed-content
 */
import { isRecord, SURFACE_EVENT_TYPES, type LogEvent } from './events'
import { readReplaceOp } from './replace-op'
import { readFates, replacementEvents } from './fate'
import { messageOf, toolResultCallId } from './surface-node'
import type { TombstoneRecord } from './tombstone'
import { isCheckpointEvent, originalsOf } from './summary-rewrite'

/** The fixed text that stands where removed content was. */
export const REMOVED_CONTENT_MARKER = '[removed by dsh-message-recall]'

/** The raw JSON arguments of a tool call whose arguments were removed: a JSON object naming the marker. */
export const REMOVED_ARGUMENTS = JSON.stringify({ removed: REMOVED_CONTENT_MARKER })

/**
 * Why an event carries removed content, with the rc.8 writer of each kind:
 * - `message`: a removed `user/message`, `assistant/message` or `tool/result` (text, reasoning,
 *   images, tool call arguments, tool results).
 * - `inbox`: an `agent/inbox/spliced` event whose `inserted` messages include a removed one
 *   (`dsh-agent`, the queued prompt or steering message).
 * - `chunk`: an `assistant/chunk` a removed `assistant/message` was assembled from (its
 *   `sourceEventSeqs`; `dsh-agent-loop`).
 * - `tool-call`: the `tool/call` of a removed tool call (`dsh-agent-loop`, `appendToolCall`).
 * - `code-dispatch`: `tool/code-dispatch-start` / `tool/code-dispatch` of a tool a removed call
 *   ran (`dsh-tools`, `run_code` sub-calls).
 * - `approval`: an `approval/asked` for a removed call (`dsh-user-approval`; its `reason`).
 * - `todo`: a `todo/write` inside a removed model step (`dsh-tool-todo`; the list comes from the
 *   model's arguments).
 * - `title`: a `session/title` made from a removed message (`dsh-session-title`, fallback or
 *   provider title).
 * - `title-request`: a `session/title-llm-request` made from a removed message
 *   (`dsh-session-title-llm`; its framed input holds the message text).
 * - `checkpoint`: a compaction checkpoint (a replacing `user/message` of `dsh-compaction`'s
 *   `compact` source) a later checkpoint replaced, whose summary was written from a removed message.
 * - `summary`: that checkpoint's `compaction/summary` (its `summary` and the model's `rawOutput`;
 *   `dsh-compaction-basic` `commitCompactionBody`).
 */
export type CarrierKind = 'message' | 'inbox' | 'chunk' | 'tool-call' | 'code-dispatch' | 'approval' | 'todo' | 'title' | 'title-request' | 'checkpoint' | 'summary'

/** What the removals in effect took from a log. */
export interface RemovedContent {
  /** Seqs of the removed surface-eligible events (messages), ascending. */
  readonly messageSeqs: readonly number[]
  /** Every event carrying removed content, by seq, with why; ascending seq order. */
  readonly carriers: ReadonlyMap<number, CarrierKind>
  /** Ids of the removed messages (`data.id` of a `user/message`), which inbox events repeat. */
  readonly messageIds: ReadonlySet<string>
  /** Ids of the removed tool calls (tool-call blocks and tool results of removed messages). */
  readonly callIds: ReadonlySet<string>
}

function stepKey(data: unknown): string | null {
  if (!isRecord(data) || typeof data.turn !== 'number' || typeof data.step !== 'number') return null
  return `${data.turn}:${data.step}`
}


function messageSeqsOf(data: unknown): readonly number[] {
  return isRecord(data) && Array.isArray(data.messageSeqs) ? (data.messageSeqs as unknown[]).filter(Number.isSafeInteger) as number[] : []
}

/**
 * Find every event that carries the content of a removal in effect.
 * @param count - number of events (seqs `0 … count - 1`).
 * @param lookup - one event by seq.
 * @param tombstoneSeq - only what this one tombstone took: the messages it shadows, also through
 * the earlier tombstones it absorbed, whose fate is removed by it or by one it absorbed (an erase
 * of one removal); never an excluded message, nor one a later tombstone removed. Omitted: every
 * removal in effect.
 * @returns the removed messages and the carriers; empty when nothing is removed (also when the
 * only tombstones are exclusions or were restored).
 */
export function findRemovedContent(count: number, lookup: (seq: number) => LogEvent | undefined, tombstoneSeq?: number): RemovedContent {
  // Each node's fate from the one fate reader (`fate.ts`), which the transcript's hiding reads too:
  // the first removal names the fate and a later one that absorbed it keeps it; an exclusion gives
  // way only to a Delete onward; a restore hands the node on to its copy, which later tombstones may
  // take in turn.
  const fates = readFates(replacementEvents(count, lookup))
  const tombstones = new Map<number, TombstoneRecord>()
  for (const seq of fates.statuses().keys()) tombstones.set(seq, fates.tombstone(seq)!)
  const removedFate = (seq: number): boolean => fates.fateOf(seq).state === 'removed'
  const removed = new Set<number>()
  const pending: number[] = []
  if (tombstoneSeq === undefined) {
    for (const tombstone of tombstones.values()) {
      for (const seq of tombstone.shadowedSeqs) if (!tombstones.has(seq) && removedFate(seq)) pending.push(seq)
    }
  } else {
    // One removal: the messages whose fate it or a tombstone it absorbed decides as removed
    // (`Fates.removedBy`). An exclusion a Recall or Delete absorbed stays excluded (in view, its
    // text kept); one a later Delete onward took is removed by that one, not by this.
    pending.push(...fates.removedBy(tombstoneSeq))
  }
  // Folded messages a summary rewrite took out of a compaction summary (the last rewrite decides).
  for (const rewrite of fates.rewrites) for (const removal of rewrite.removals) for (const seq of removal.seqs) if (removedFate(seq)) pending.push(seq)
  while (pending.length > 0) {
    const seq = pending.pop() as number
    if (removed.has(seq)) continue
    const event = lookup(seq)
    if (event === undefined || !(SURFACE_EVENT_TYPES as readonly string[]).includes(event.type)) continue
    removed.add(seq)
    // A replacement (a restoring copy, a pruned tool result) stands for the messages it shadows.
    if (readReplaceOp(event.surfaceOp) !== null) for (const cited of event.sourceEventSeqs ?? []) if (!tombstones.has(cited)) pending.push(cited)
  }

  const carriers = new Map<number, CarrierKind>()
  const messageIds = new Set<string>()
  const callIds = new Set<string>()
  const steps = new Set<string>()
  for (const seq of removed) {
    const event = lookup(seq)!
    if (event.type !== 'user/message' && event.type !== 'assistant/message' && event.type !== 'tool/result') continue
    carriers.set(seq, 'message')
    const message = messageOf(event)
    if (event.type === 'user/message' && message !== undefined && typeof message.id === 'string') messageIds.add(message.id)
    if (event.type === 'assistant/message') {
      const key = stepKey(event.data)
      if (key !== null) steps.add(key)
      for (const cited of event.sourceEventSeqs ?? []) if (lookup(cited)?.type === 'assistant/chunk') carriers.set(cited, 'chunk')
      for (const block of Array.isArray(message?.content) ? (message.content as unknown[]) : []) {
        if (isRecord(block) && block.type === 'tool-call' && typeof block.id === 'string') callIds.add(block.id)
      }
    }
    if (event.type === 'tool/result') {
      for (const cited of event.sourceEventSeqs ?? []) if (lookup(cited)?.type === 'tool/call') carriers.set(cited, 'tool-call')
      const callId = toolResultCallId(event)
      if (callId !== null) callIds.add(callId)
    }
  }

  // Folded messages removed by a rewrite: the replaced summaries written from them (every removal only).
  const foldedRemoved = tombstoneSeq === undefined && fates.rewrites.length > 0
  let openStep: string | null = null
  for (let seq = 0; seq < count; seq++) {
    if (carriers.has(seq)) continue
    const event = lookup(seq)
    if (event === undefined) continue
    const data = event.data
    if (foldedRemoved && event.type === 'user/message' && fates.shadowerOf(seq) !== null && isCheckpointEvent(event)) {
      const originals = originalsOf(seq, lookup)
      const leftOut = new Set(originals.removals.flatMap((r) => r.seqs))
      if (originals.seqs.some((s) => !leftOut.has(s) && removed.has(s))) {
        carriers.set(seq, 'checkpoint')
        const summarySeq = event.sourceEventSeqs?.[1]
        if (summarySeq !== undefined && lookup(summarySeq)?.type === 'compaction/summary') carriers.set(summarySeq, 'summary')
      }
      continue
    }
    switch (event.type) {
      case 'step/start':
        openStep = stepKey(data)
        break
      case 'step/end':
        openStep = null
        break
      case 'agent/inbox/spliced':
        if (isRecord(data) && Array.isArray(data.inserted) && data.inserted.some((m) => isRecord(m) && typeof m.id === 'string' && messageIds.has(m.id))) carriers.set(seq, 'inbox')
        break
      case 'tool/call':
        if (isRecord(data) && typeof data.callId === 'string' && callIds.has(data.callId)) carriers.set(seq, 'tool-call')
        break
      case 'tool/code-dispatch-start':
      case 'tool/code-dispatch':
        if (isRecord(data) && [data.rootCallId, data.parentCallId].some((id) => typeof id === 'string' && callIds.has(id))) carriers.set(seq, 'code-dispatch')
        break
      case 'approval/asked':
        if (isRecord(data) && typeof data.callId === 'string' && callIds.has(data.callId)) carriers.set(seq, 'approval')
        break
      case 'todo/write':
        if (openStep !== null && steps.has(openStep)) carriers.set(seq, 'todo')
        break
      case 'session/title':
        if (messageSeqsOf(data).some((s) => removed.has(s))) carriers.set(seq, 'title')
        break
      case 'session/title-llm-request':
        if (messageSeqsOf(data).some((s) => removed.has(s))) carriers.set(seq, 'title-request')
        break
    }
  }
  return {
    messageSeqs: [...removed].filter((seq) => carriers.get(seq) === 'message').sort((a, b) => a - b),
    carriers: new Map([...carriers].sort((a, b) => a[0] - b[0])),
    messageIds,
    callIds,
  }
}

const MARKER_BLOCK = { type: 'text', text: REMOVED_CONTENT_MARKER } as const

/**
 * One content block without its content: text and reasoning keep their type with the marker as
 * text, a tool call keeps its id and name with {@link REMOVED_ARGUMENTS}, a tool result keeps its
 * call id and outcome with one marker block as content; an image or any other block becomes one
 * text block with the marker.
 * @param block - a content block (any value).
 * @returns a new block.
 */
export function blockWithoutContent(block: unknown): unknown {
  if (!isRecord(block)) return { ...MARKER_BLOCK }
  switch (block.type) {
    case 'text':
    case 'reasoning':
      return { ...block, text: REMOVED_CONTENT_MARKER }
    case 'tool-call':
      return { ...block, arguments: REMOVED_ARGUMENTS }
    case 'tool-result':
      return { ...block, content: [{ ...MARKER_BLOCK }] }
    default:
      return { ...MARKER_BLOCK }
  }
}

function contentWithout(content: unknown): unknown {
  return Array.isArray(content) ? content.map(blockWithoutContent) : [{ ...MARKER_BLOCK }]
}

function messageWithout(message: unknown): unknown {
  return isRecord(message) ? { ...message, content: contentWithout(message.content) } : message
}

function chunkWithout(chunk: unknown): unknown {
  if (!isRecord(chunk)) return chunk
  switch (chunk.type) {
    case 'text-delta':
    case 'reasoning-delta':
      return { ...chunk, text: '' }
    case 'tool-call-delta':
      return { ...chunk, argumentsDelta: '' }
    case 'block-end':
      return { ...chunk, block: blockWithoutContent(chunk.block) }
    default:
      return chunk
  }
}

/** A tool's structured output for its renderer (`data.meta` of a `tool/result`, e.g. the lines `read` returned) goes whole. */
function withoutMeta(data: Record<string, unknown>): Record<string, unknown> {
  if (!('meta' in data)) return data
  const { meta: _meta, ...rest } = data
  return rest
}

/**
 * A carrier event without the removed content (see the module doc for what stays).
 * @param event - the event, as found by {@link findRemovedContent}.
 * @param kind - its carrier kind.
 * @param removed - the same log's {@link RemovedContent} (an inbox event keeps the messages that were not removed).
 * @returns a new event; `event` is not changed. Fields the kind does not name are kept as they are.
 */
export function eventWithoutRemovedContent(event: LogEvent, kind: CarrierKind, removed: RemovedContent): LogEvent {
  const data = event.data
  if (!isRecord(data)) return event
  let next: Record<string, unknown>
  switch (kind) {
    case 'message':
      next = event.type === 'user/message' ? (messageWithout(data) as Record<string, unknown>) : withoutMeta({ ...data, message: messageWithout(data.message) })
      break
    case 'inbox':
      next = { ...data, inserted: (data.inserted as unknown[]).map((m) => (isRecord(m) && typeof m.id === 'string' && removed.messageIds.has(m.id) ? messageWithout(m) : m)) }
      break
    case 'chunk':
      next = { ...data, chunk: chunkWithout(data.chunk) }
      break
    case 'tool-call':
      next = withoutMeta({ ...data, arguments: REMOVED_ARGUMENTS })
      break
    case 'code-dispatch':
      next = { ...data, ...('arguments' in data ? { arguments: REMOVED_ARGUMENTS } : {}), ...('content' in data ? { content: contentWithout(data.content) } : {}) }
      break
    case 'approval':
      next = 'reason' in data ? { ...data, reason: REMOVED_CONTENT_MARKER } : data
      break
    case 'todo':
      // dsh-tool-todo refuses two items with the same content: number them.
      next = { ...data, todos: Array.isArray(data.todos) ? data.todos.map((todo, i) => (isRecord(todo) ? { ...todo, content: `${REMOVED_CONTENT_MARKER} ${i + 1}` } : todo)) : data.todos }
      break
    case 'title':
      next = { ...data, title: REMOVED_CONTENT_MARKER }
      break
    case 'title-request':
      next = { ...data, messages: Array.isArray(data.messages) ? data.messages.map(messageWithout) : data.messages }
      break
    case 'checkpoint':
      next = messageWithout(data) as Record<string, unknown>
      break
    case 'summary':
      next = { ...data, summary: contentWithout(data.summary), ...('rawOutput' in data ? { rawOutput: contentWithout(data.rawOutput) } : {}) }
      break
  }
  return { ...event, data: next }
}
