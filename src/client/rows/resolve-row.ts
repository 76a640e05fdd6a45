/**
 * From an rc.8 Chat node to the durable seq a row acts on, and the actions it offers. Pure; the
 * node shapes are those the rc.8 Definitions build (`dsh-client-ui-conversation/lib/client.js`,
 * region `conversation-nodes`):
 *
 * | row kind | `data` | seq acted on |
 * |---|---|---|
 * | `user`, `steering` | `{ seq, content, source }` | `data.seq` (the `user/message`) |
 * | `context` | same, `source.kind !== 'user'` | `data.seq`; a session-reference snapshot (`source.kind: 'session-reference'`, shown as a recall of the cited sessions) offers Delete, Delete onward and Exclude, any other context nothing (harness-injected) |
 * | `assistant-step` | `{ turn, step, blocks, finalNode? }` | `data.finalNode.seq` (the `assistant/message`) |
 * | `tool-call` | `{ root }` | `data.root.seq` when `root.kind === 'tool-result'` (the `tool/result`; the node's `anchorSeq` is the log-only `tool/call`) |
 * | `compaction` | `{ seq, … }` | `data.seq` (the checkpoint), no actions |
 * | `turn-tail` | `{ seq, turn, closing }` | log-only, no actions; `closing.finalNode.seq` is its final answer (`answerSeq`) |
 * | `turn-error`, `turn-max-tokens`, `model-retry`, `command` | `{ seq, turn? }` | log-only, no actions |
 *
 * A running step or tool, or a synthetic interrupted one (rc.8 gives it a fractional seq), has no
 * durable message yet and offers nothing.
 *
 * @module dsh-message-recall/client/rows/resolve-row
 */
import { isRecord, isSeq } from '../../shared/events'
import { SESSION_REFERENCE_SOURCE_KIND } from '../../shared/surface-node'
import type { TranscriptRow } from '../../shared/hidden-rows'
import { actionsOfferedOn, type SurfaceAction } from '../../shared/actions'
import type { ChatNode } from '../wire/rc8'

/** A row resolved against the session's chat store. */
export interface RowAnchor extends TranscriptRow {
  /** Actions this row offers while the agent is idle, in button order; empty for none. */
  readonly actions: readonly RowAction[]
  /** The row stands for a model step (assistant or tool row): Delete removes the whole step. */
  readonly isStepRow: boolean
}

/**
 * A row button: an action of the action table (`shared/actions.ts`; the removals and the exclusion
 * of the row's message, or, on a row whose message is excluded, Restore of that exclusion), or
 * Open a copy (a fork from before the exclusion, opened).
 */
export type RowAction = SurfaceAction | 'forkBefore'

/** Buttons of a message the person sent, and of any other message a removal may take (the action table's `offeredOn`). */
const USER_ACTIONS: readonly RowAction[] = actionsOfferedOn('prompt')
const STEP_ACTIONS: readonly RowAction[] = actionsOfferedOn('message')
/** A session-reference snapshot: removable on its own; Recall is not offered (it is not text the person wrote, so there is nothing to put back in the composer). */
const SNAPSHOT_ACTIONS: readonly RowAction[] = actionsOfferedOn('message')
const NO_ACTIONS: readonly RowAction[] = Object.freeze([])

const LOG_ONLY_ROW_KINDS: ReadonlySet<string> = new Set(['turn-tail', 'turn-error', 'turn-max-tokens', 'model-retry', 'command'])

const anchors = new WeakMap<ChatNode, RowAnchor>()

/**
 * Resolve a Chat node to its row anchor. Memoized per node object (rc.8 nodes are immutable and
 * replaced on change).
 * @param node - a node read from `chat.nodes.get(key)`.
 * @returns the anchor; never throws on unknown shapes (they resolve to a log-only row without actions).
 */
export function resolveRow(node: ChatNode): RowAnchor {
  let anchor = anchors.get(node)
  if (anchor === undefined) {
    anchor = Object.freeze(computeAnchor(node))
    anchors.set(node, anchor)
  }
  return anchor
}

function computeAnchor(node: ChatNode): RowAnchor {
  const data = isRecord(node.data) ? node.data : {}
  const turn = turnOf(node, data)
  const base = { key: node.key, rowKind: node.kind, turn }
  switch (node.kind) {
    case 'user':
    case 'steering': {
      const seq = isSeq(data.seq) ? data.seq : null
      const fromPerson = isRecord(data.source) && data.source.kind === 'user'
      const actions = seq === null ? NO_ACTIONS : fromPerson ? USER_ACTIONS : STEP_ACTIONS
      return { ...base, seq, anchorSeq: seq ?? node.anchorSeq, actions, isStepRow: false }
    }
    case 'context': {
      const seq = isSeq(data.seq) ? data.seq : null
      const snapshot = isRecord(data.source) && data.source.kind === SESSION_REFERENCE_SOURCE_KIND
      return { ...base, seq, anchorSeq: seq ?? node.anchorSeq, actions: seq !== null && snapshot ? SNAPSHOT_ACTIONS : NO_ACTIONS, isStepRow: false }
    }
    case 'compaction':
    case 'unknown': {
      const seq = isSeq(data.seq) ? data.seq : null
      return { ...base, seq, anchorSeq: seq ?? node.anchorSeq, actions: NO_ACTIONS, isStepRow: false }
    }
    case 'assistant-step': {
      const final = isRecord(data.finalNode) ? data.finalNode : null
      const seq = final !== null && final.kind === 'assistant' && isSeq(final.seq) ? final.seq : null
      return { ...base, seq, anchorSeq: seq ?? node.anchorSeq, actions: seq === null ? NO_ACTIONS : STEP_ACTIONS, isStepRow: true }
    }
    case 'tool-call': {
      const root = isRecord(data.root) ? data.root : null
      const seq = root !== null && root.kind === 'tool-result' && isSeq(root.seq) ? root.seq : null
      return { ...base, seq, anchorSeq: node.anchorSeq, actions: seq === null ? NO_ACTIONS : STEP_ACTIONS, isStepRow: true }
    }
    default: {
      const anchorSeq = LOG_ONLY_ROW_KINDS.has(node.kind) && typeof data.seq === 'number' ? data.seq : node.anchorSeq
      if (node.kind === 'turn-tail') return { ...base, seq: null, anchorSeq, answerSeq: closingSeq(data), actions: NO_ACTIONS, isStepRow: false }
      return { ...base, seq: null, anchorSeq, actions: NO_ACTIONS, isStepRow: false }
    }
  }
}

/** The final answer of a turn bar: the seq of its `closing` step's `assistant/message` (what its Copy copies), or `null`. */
function closingSeq(data: Record<string, unknown>): number | null {
  const closing = isRecord(data.closing) ? data.closing : null
  const final = closing !== null && isRecord(closing.finalNode) ? closing.finalNode : null
  return final !== null && isSeq(final.seq) ? final.seq : null
}

function turnOf(node: ChatNode, data: Record<string, unknown>): number | null {
  const location = node.location
  if (location !== undefined && (location.kind === 'step' || location.kind === 'turn')) return location.turn.turn
  return isSeq(data.turn) ? data.turn : null
}
