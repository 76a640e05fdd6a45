/**
 * Planning of a restore: may tombstone T be undone in place, and with what restoring copy. Pure: no
 * `Context`, no `Session`, no I/O; reads the current surface nodes and events by seq.
 *
 * What DSH 0.1.0-rc.8 allows (`dsh-session/lib/index.js` `planSurfaceEvent`, `assertProvenance`;
 * the session, agent-loop and compaction invariant companions):
 * - a replaced seq never returns to the surface, so a restore is a new copy at a new seq: one
 *   `user/message` whose `data` is an exact copy of the removed message's `data` (same id,
 *   content blocks, images and `source`), `surfaceOp` `{ op: 'replace', start: T, end: T }`,
 *   `sourceEventSeqs` `[T, P]`;
 * - only a message the person sent can come back this way. An `assistant/message` or
 *   `tool/result` copy outside a turn is refused by the session invariant (`… names turn 2/step 1
 *   but open is turn null/step null`), and opening a turn from a plugin desynchronizes the live
 *   agent's turn counter. Those removals are undone in a fork from before the tombstone
 *   (`forkBefore`, which the web UI calls a copy).
 *
 * @module dsh-message-recall/host/restore-plan
 */
import type { LogEvent } from '../shared/events'
import { notRestorableReason, type NotRestorableReason } from '../shared/restorable'
import { classifyNode, messageIdOf, type NodeKind } from '../shared/surface-node'
import { readTombstone } from '../shared/tombstone'
import type { TombstoneAction } from '../shared/actions'
import type { EventLookup } from './surface-plan'
import { erasedMarkOf } from '../log/log-erase'

/** Everything restore planning reads. */
export interface RestoreInput {
  /** Current surface node seqs in surface order (`session.surface.nodes`, or a stable copy). */
  readonly nodes: readonly number[]
  /** One event by seq over the session's current log. */
  readonly lookup: EventLookup
  /** Seq of the tombstone to undo. */
  readonly tombstoneSeq: number
}

/** A validated restore: the event to append. */
export interface RestorePlan {
  readonly tombstoneSeq: number
  /** The tombstone's action (`recall`, `delete`, `deleteFrom` or `exclude`). */
  readonly tombstoneAction: TombstoneAction
  /** Seq of the removed message. */
  readonly originalSeq: number
  /** Id of the removed message; the copy keeps it. */
  readonly messageId: string
  /** The copy's `data`: the removed event's `data`, unchanged (the logged, frozen object). */
  readonly data: unknown
  /** The copy's replace range: exactly the tombstone. */
  readonly start: number
  readonly end: number
  /** The copy's provenance: `[tombstoneSeq, originalSeq]`. */
  readonly sourceEventSeqs: readonly [number, number]
}

/** No current tombstone of this plugin at that seq. */
export interface RestoreTargetNotFoundRefusal {
  readonly code: 'TARGET_NOT_FOUND'
  readonly tombstoneSeq: number
  /**
   * `not-a-tombstone`: no event, or not a tombstone of this plugin; `not-on-surface`: already
   * restored, absorbed or compacted; `erased`: its content was erased for good (its tombstone, or
   * for `forkBefore` one that absorbed it, carries the erase mark), so nothing of it can come back.
   */
  readonly reason: 'not-a-tombstone' | 'not-on-surface' | 'erased'
}

/** The tombstone cannot be undone in place; a fork from before it can be opened instead. */
export interface NotRestorableRefusal {
  readonly code: 'NOT_RESTORABLE'
  readonly tombstoneSeq: number
  readonly reason: NotRestorableReason
  /** The nodes the tombstone shadows, in surface order, and their node kinds. */
  readonly shadowedSeqs: readonly number[]
  readonly nodeKinds: readonly NodeKind[]
}

/** Every refusal of restore planning. */
export type RestoreRefusal = RestoreTargetNotFoundRefusal | NotRestorableRefusal

/**
 * Decide whether tombstone `tombstoneSeq` can be undone in place.
 * @param input - surface nodes, event lookup and the tombstone seq.
 * @returns the plan, or `TARGET_NOT_FOUND` (not a current tombstone of this plugin) or
 * `NOT_RESTORABLE` with the reason (`shared/restorable.ts` `notRestorableReason`, checked in this
 * order: it absorbed another tombstone, it shadows a model step, it shadows several nodes, its one
 * node is not a message the person sent).
 * @throws when a shadowed seq has no event under `lookup` (corrupt log or wrong lookup).
 */
export function planRestore(input: RestoreInput): { ok: true; plan: RestorePlan } | { ok: false; refusal: RestoreRefusal } {
  const { tombstoneSeq, lookup } = input
  const event = lookup(tombstoneSeq)
  const record = event === undefined || event.seq !== tombstoneSeq ? null : readTombstone(event)
  if (record === null) return { ok: false, refusal: { code: 'TARGET_NOT_FOUND', tombstoneSeq, reason: 'not-a-tombstone' } }
  // Erased for good: the messages hold the erase marker now, nothing to put back.
  if (erasedMarkOf(event!) !== null) return { ok: false, refusal: { code: 'TARGET_NOT_FOUND', tombstoneSeq, reason: 'erased' } }
  if (!input.nodes.includes(tombstoneSeq)) return { ok: false, refusal: { code: 'TARGET_NOT_FOUND', tombstoneSeq, reason: 'not-on-surface' } }

  const shadowed = record.shadowedSeqs.map((seq) => {
    const node = lookup(seq)
    if (node === undefined || node.seq !== seq) throw new Error(`message-recall: tombstone seq ${tombstoneSeq} shadows seq ${seq}, which has no session event (corrupt log)`)
    return node
  })
  const kinds = shadowed.map((node) => classifyNode(node))
  const refuse = (reason: NotRestorableReason) => ({ ok: false as const, refusal: { code: 'NOT_RESTORABLE' as const, tombstoneSeq, reason, shadowedSeqs: record.shadowedSeqs, nodeKinds: kinds } })
  // The one rule of what is restorable in place (`shared/restorable.ts`), which the browser half applies too.
  const reason = notRestorableReason(kinds)
  if (reason !== null) return refuse(reason)
  const original = shadowed[0] as LogEvent
  const messageId = messageIdOf(original)
  // rc.8 gives every message an id; a message without one cannot be copied with its id.
  if (messageId === null) return refuse('not-a-prompt')
  return {
    ok: true,
    plan: {
      tombstoneSeq,
      tombstoneAction: record.action,
      originalSeq: original.seq,
      messageId,
      data: original.data,
      start: tombstoneSeq,
      end: tombstoneSeq,
      sourceEventSeqs: [tombstoneSeq, original.seq],
    },
  }
}

/** Each node kind as a counted noun: `[singular, plural]`. */
const KIND_NOUN: Record<NodeKind, readonly [string, string]> = {
  user: ['message the person sent', 'messages the person sent'],
  reference: ['session-reference snapshot', 'session-reference snapshots'],
  context: ['context message', 'context messages'],
  tombstone: ['tombstone', 'tombstones'],
  checkpoint: ['compaction checkpoint', 'compaction checkpoints'],
  replacement: ['replacement', 'replacements'],
  assistant: ['assistant message', 'assistant messages'],
  tool: ['tool result', 'tool results'],
}

/**
 * One-line English description of a restore refusal, prefixed `message-recall:`.
 * @param refusal - any {@link RestoreRefusal}.
 * @returns the message; `NOT_RESTORABLE` says why and that a fork from before it can be opened (the wire text says "a copy", as the web UI does).
 */
export function describeRestoreRefusal(refusal: RestoreRefusal): string {
  if (refusal.code === 'TARGET_NOT_FOUND') {
    if (refusal.reason === 'erased') return `message-recall: removal ${refusal.tombstoneSeq} was erased for good; nothing of it can come back (no restore, no copy from before it)`
    return refusal.reason === 'not-a-tombstone'
      ? `message-recall: seq ${refusal.tombstoneSeq} is not a tombstone of this plugin`
      : `message-recall: tombstone seq ${refusal.tombstoneSeq} is no longer on the surface (already restored, absorbed by a later removal, or compacted)`
  }
  const seqs = refusal.shadowedSeqs.join(', ')
  const why: Record<NotRestorableReason, string> = {
    'absorbed-tombstone': `absorbed an earlier tombstone (it shadows seqs ${seqs})`,
    'model-step': `shadows a model step (seqs ${seqs}: ${describeKinds(refusal.nodeKinds)}), which cannot be put back in place outside a turn`,
    'several-nodes': `shadows ${refusal.shadowedSeqs.length} messages (seqs ${seqs})`,
    'not-a-prompt': `shadows seq ${seqs}, which is not a message the person sent`,
  }
  return `message-recall: tombstone seq ${refusal.tombstoneSeq} cannot be undone in place: it ${why[refusal.reason]}; open a copy of the conversation from before it instead (action "forkBefore")`
}

function describeKinds(kinds: readonly NodeKind[]): string {
  const counts = new Map<NodeKind, number>()
  for (const kind of kinds) counts.set(kind, (counts.get(kind) ?? 0) + 1)
  return [...counts].map(([kind, n]) => `${n} ${KIND_NOUN[kind][n === 1 ? 0 : 1]}`).join(', ')
}
