/**
 * The removal planner: given the current surface (node seqs in surface order), a way to look up
 * one event by seq, and an action's planning (its shape and target, from the action table in
 * `shared/actions.ts`), decide which inclusive surface range the tombstone shadows, or refuse with
 * a typed reason. It never reads an action's name, so every action of one shape plans alike. Pure:
 * no `Context`, no `Session`, no I/O, and no fold of the whole log (`foldSurface` is never called
 * here).
 *
 * Rules (all in surface order, never numeric seq order, because after a replace a high seq sits
 * at a low position — `replacementRange` in `dsh-session`):
 * - target `prompt` (`recall`): the target must be a message the person sent
 *   (`source.kind === 'user'`).
 * - shape `message`: the target node alone, with the session-reference snapshot a prompt caused
 *   when that is still on the surface (`reference-snapshot.ts`: it sits right after the prompt).
 * - shape `step` (`delete`, `exclude`): a message the person sent with its session-reference
 *   snapshot, as for `message`; a session-reference snapshot alone; an `assistant/message` or
 *   `tool/result` takes its whole model step: every surface node of that `(turn, step)`, which
 *   must sit contiguously.
 * - shape `onward` (`deleteFrom`): from the target to the last surface node, the start widened
 *   back to the first node of the step it sits in, and further back while a tool result in the
 *   range answers a call that sits before it.
 * - Tombstones, compaction checkpoints, other plugins' replacements and harness-injected context
 *   are never a target ({@link describePlanRefusal} says why for each).
 * - Tombstones of this plugin adjacent to the range are absorbed into it, so one gap never holds
 *   more than one tombstone.
 * - No range splits a tool call from its result. The rc.8 Session accepts such a range
 *   (`foldSurface` checks provenance, not pairing), but the next request carries an orphan tool message and
 *   `dsh-compaction`'s `toolPairingBalancedBefore/After` then throw "corrupt surface".
 *
 * Cost: one `indexOf` over the nodes (from `searchFrom`) plus the scanned neighbourhood of the target (the step and
 * the user messages around it); shape `onward` scans the range it shadows. A full scan of the nodes
 * happens only to resolve a `messageId` target or to locate the partner of a call or result that
 * the neighbourhood does not close.
 *
 * @module dsh-message-recall/host/surface-plan
 */
import type { LogEvent } from '../shared/events'
import {
  classifyNode,
  isStepMember,
  messageIdOf,
  stepOf,
  type NodeKind,
  type StepKey,
} from '../shared/surface-node'
import type { RemovalPlanning } from '../shared/actions'
import { nearestBefore, nearestOutside, ToolPairingIndex } from '../shared/tool-pairing'
import { snapshotCitedBy } from './reference-snapshot'

export type { NodeKind, StepKey } from '../shared/surface-node'

/**
 * Look up one session event by seq.
 * @returns the event whose `seq` is the argument, or `undefined` when there is none.
 */
export type EventLookup = (seq: number) => LogEvent | undefined

/** The node a request addresses: by surface seq, or by the id of the message it derives to. */
export type PlanTarget = { readonly seq: number } | { readonly messageId: string }

/** Everything the planner reads. */
export interface PlanInput {
  /** Current surface node seqs in surface order (`session.surface.nodes`, or a stable copy). */
  readonly nodes: readonly number[]
  /** One event by seq; called only for surface nodes near the target. */
  readonly lookup: EventLookup
  /** The action's shape and target (`removalPlanning(action)`, `shared/actions.ts`). */
  readonly planning: RemovalPlanning
  readonly target: PlanTarget
  /**
   * A position near a `seq` target, where its search starts (see {@link positionOf}); default 0.
   * Only a speed hint: a node seq occurs once on the surface, so the result does not depend on it.
   */
  readonly searchFrom?: number
}

/** A validated removal: the replace range to write and what it shadows. */
export interface RemovalPlan {
  /** Seq of the addressed surface node. */
  readonly targetSeq: number
  readonly targetNodeKind: NodeKind
  /** Inclusive surface seq of the first shadowed node (the replace op's `start`). */
  readonly start: number
  /** Inclusive surface seq of the last shadowed node (the replace op's `end`); may be numerically smaller than `start`. */
  readonly end: number
  /** Position of `start` in the planned-against `nodes`. */
  readonly startIdx: number
  /** Position of `end` in the planned-against `nodes` (inclusive). */
  readonly endIdx: number
  /** Every shadowed node seq, in surface order: `nodes.slice(startIdx, endIdx + 1)`. */
  readonly shadowedSeqs: readonly number[]
  /** Node kind of each shadowed node, aligned with `shadowedSeqs`. */
  readonly nodeKinds: readonly NodeKind[]
  /** Seqs of this plugin's earlier tombstones absorbed at either edge of the range. */
  readonly absorbedTombstoneSeqs: readonly number[]
  /** The model step removed whole (shape `step` on a model row) or widened into (shape `onward`); `null` otherwise. */
  readonly stepKey: StepKey | null
}

/** The target is not a current surface node. */
export interface TargetNotFoundRefusal {
  readonly code: 'TARGET_NOT_FOUND'
  readonly target: PlanTarget
  /** `not-on-surface`: the seq is unknown, already shadowed, or folded by compaction. */
  readonly reason: 'not-on-surface' | 'unknown-message-id' | 'ambiguous-message-id'
  /** Surface seqs carrying the message id (two or more when ambiguous, else empty). */
  readonly matchingSeqs: readonly number[]
}

/** An action that targets a `prompt` (`recall`) addressed something other than a message the person sent. */
export interface NotAUserMessageRefusal {
  readonly code: 'NOT_A_USER_MESSAGE'
  readonly seq: number
  readonly nodeKind: NodeKind
}

/** The target is a tombstone, a compaction checkpoint, another plugin's replacement, or injected context. */
export interface NotDeletableRefusal {
  readonly code: 'NOT_DELETABLE'
  readonly seq: number
  readonly nodeKind: Exclude<NodeKind, 'user' | 'reference' | 'assistant' | 'tool'>
  /**
   * Only for `context`: what injected it, read from its `source` (`source.plugin` for a plugin
   * source, else `source.kind`; `@deepseek-ai/dsh-system-prompt` is the agent loop's runtime context).
   */
  readonly producer?: string
  /**
   * Only for `checkpoint`: the removal addressed a message the checkpoint folded and would take
   * every message its summary is made from (a Delete onward from the first one), so no summary
   * could be written (`folded-plan.ts`).
   */
  readonly wholeSummary?: true
}

/** A model step cannot be removed atomically: a foreign node sits inside it. */
export interface SpanNotContiguousRefusal {
  readonly code: 'SPAN_NOT_CONTIGUOUS'
  /** The addressed node. */
  readonly seq: number
  readonly turn: number
  readonly step: number
  /** The first node between two parts of the step that does not belong to it. */
  readonly foreignSeq: number
}

/** Every refusal the planner can return. */
export type PlanRefusal = TargetNotFoundRefusal | NotAUserMessageRefusal | NotDeletableRefusal | SpanNotContiguousRefusal

/** Planner result: a plan, or a refusal value (expected business outcomes are not thrown). */
export type PlanResult = { readonly ok: true; readonly plan: RemovalPlan } | { readonly ok: false; readonly refusal: PlanRefusal }

const NOT_DELETABLE_KINDS = new Set<NodeKind>(['tombstone', 'checkpoint', 'replacement', 'context'])

/** Reads surface nodes by position, failing loudly on a surface/log mismatch. */
class SurfaceView {
  private pairingIndex: ToolPairingIndex | undefined

  constructor(
    readonly nodes: readonly number[],
    private readonly lookup: EventLookup,
  ) {}

  get length(): number {
    return this.nodes.length
  }

  seq(idx: number): number {
    return this.nodes[idx] as number
  }

  event(idx: number): LogEvent {
    const seq = this.nodes[idx] as number
    const event = this.lookup(seq)
    if (event === undefined || event.seq !== seq) {
      throw new Error(`message-recall: surface seq ${seq} has no matching session event (corrupt surface)`)
    }
    return event
  }

  nodeKind(idx: number): NodeKind {
    return classifyNode(this.event(idx))
  }

  /** The tool-call pairing of these nodes, made on first use. */
  pairing(): ToolPairingIndex {
    this.pairingIndex ??= new ToolPairingIndex(this.nodes, (idx) => this.event(idx))
    return this.pairingIndex
  }
}

/**
 * Plan one removal against the current surface.
 * @param input - surface nodes in surface order, an event lookup, the action's planning and the target.
 * @returns `{ ok: true, plan }`, or `{ ok: false, refusal }` with `TARGET_NOT_FOUND`,
 * `NOT_A_USER_MESSAGE`, `NOT_DELETABLE` or `SPAN_NOT_CONTIGUOUS` and the offending facts.
 * @throws when a surface node has no event under `lookup` (corrupt surface or wrong lookup), or
 * a surface node is not a surface-eligible event.
 */
export function planRemoval(input: PlanInput): PlanResult {
  const view = new SurfaceView(input.nodes, input.lookup)
  const found = resolveTarget(view, input.target, input.searchFrom ?? 0)
  if (typeof found !== 'number') return { ok: false, refusal: found }
  const idx = found
  const targetSeq = view.seq(idx)
  const targetEvent = view.event(idx)
  const targetNodeKind = classifyNode(targetEvent)

  const { plans, targets } = input.planning
  if (targets === 'prompt' && targetNodeKind !== 'user') {
    return { ok: false, refusal: { code: 'NOT_A_USER_MESSAGE', seq: targetSeq, nodeKind: targetNodeKind } }
  }
  if (NOT_DELETABLE_KINDS.has(targetNodeKind)) {
    const nodeKind = targetNodeKind as NotDeletableRefusal['nodeKind']
    const refusal: NotDeletableRefusal = nodeKind === 'context'
      ? { code: 'NOT_DELETABLE', seq: targetSeq, nodeKind, producer: producerOf(targetEvent) }
      : { code: 'NOT_DELETABLE', seq: targetSeq, nodeKind }
    return { ok: false, refusal }
  }

  let startIdx = idx
  let endIdx = idx
  let stepKey: StepKey | null = null
  if (plans === 'step' && (targetNodeKind === 'assistant' || targetNodeKind === 'tool')) {
    stepKey = stepOf(targetEvent)
    if (stepKey === null) throw new Error(`message-recall: model row seq ${targetSeq} carries no turn/step`)
    const span = stepSpan(view, idx, stepKey)
    if ('code' in span) return { ok: false, refusal: span }
    ;[startIdx, endIdx] = [span.a, span.b]
  } else if (plans === 'onward') {
    const widened = onwardStart(view, idx)
    startIdx = widened.startIdx
    stepKey = widened.stepKey
    endIdx = view.length - 1
  } else if (targetNodeKind === 'user') {
    // A prompt takes the session-reference snapshot it caused (delete onward covers it anyway).
    const snapshotIdx = snapshotCitedBy(input.nodes, input.lookup, idx)
    if (snapshotIdx !== -1) endIdx = snapshotIdx
  }

  const absorbed: number[] = []
  while (startIdx > 0 && view.nodeKind(startIdx - 1) === 'tombstone') absorbed.unshift(view.seq(--startIdx))
  while (endIdx < view.length - 1 && view.nodeKind(endIdx + 1) === 'tombstone') absorbed.push(view.seq(++endIdx))

  const shadowedSeqs = input.nodes.slice(startIdx, endIdx + 1)
  const nodeKinds: NodeKind[] = []
  for (let p = startIdx; p <= endIdx; p++) nodeKinds.push(view.nodeKind(p))
  return {
    ok: true,
    plan: {
      targetSeq,
      targetNodeKind,
      start: view.seq(startIdx),
      end: view.seq(endIdx),
      startIdx,
      endIdx,
      shadowedSeqs,
      nodeKinds,
      absorbedTombstoneSeqs: absorbed,
      stepKey,
    },
  }
}

/**
 * Position of `seq` in `nodes`, searched forward from `from` and then backward before it: the
 * same answer as `nodes.indexOf(seq)` (a node seq occurs once on the surface), found after
 * scanning only the distance between `from` and the node when `from` is near it.
 * @param nodes - surface node seqs in surface order.
 * @param seq - the seq to find.
 * @param from - where the search starts (clamped to the list).
 * @returns the position, or -1 when `seq` is not on the list.
 */
export function positionOf(nodes: readonly number[], seq: number, from: number): number {
  const start = Math.min(Math.max(0, from), nodes.length)
  const idx = nodes.indexOf(seq, start)
  return idx !== -1 || start === 0 ? idx : nodes.lastIndexOf(seq, start - 1)
}

/** Position of the target, or the refusal. */
function resolveTarget(view: SurfaceView, target: PlanTarget, searchFrom: number): number | TargetNotFoundRefusal {
  if ('seq' in target) {
    const idx = positionOf(view.nodes, target.seq, searchFrom)
    return idx === -1 ? { code: 'TARGET_NOT_FOUND', target, reason: 'not-on-surface', matchingSeqs: [] } : idx
  }
  const matches: number[] = []
  for (let p = 0; p < view.length; p++) if (messageIdOf(view.event(p)) === target.messageId) matches.push(p)
  if (matches.length === 1) return matches[0] as number
  return {
    code: 'TARGET_NOT_FOUND',
    target,
    reason: matches.length === 0 ? 'unknown-message-id' : 'ambiguous-message-id',
    matchingSeqs: matches.map((p) => view.seq(p)),
  }
}

/**
 * Outermost positions of the step's members around `idx`, scanning outward over user messages
 * and stopping at the first model row of another step.
 */
function stepEdges(view: SurfaceView, idx: number, key: StepKey): { a: number; b: number } {
  let a = idx
  let b = idx
  for (let p = idx - 1; p >= 0; p--) {
    const event = view.event(p)
    if (event.type === 'user/message') continue
    if (!isStepMember(event, key)) break
    a = p
  }
  for (let p = idx + 1; p < view.length; p++) {
    const event = view.event(p)
    if (event.type === 'user/message') continue
    if (!isStepMember(event, key)) break
    b = p
  }
  return { a, b }
}

/** The contiguous span of a whole model step, or why it is not contiguous. */
function stepSpan(view: SurfaceView, idx: number, key: StepKey): { a: number; b: number } | SpanNotContiguousRefusal {
  const { a, b } = stepEdges(view, idx, key)
  const refuse = (foreignIdx: number): SpanNotContiguousRefusal => ({
    code: 'SPAN_NOT_CONTIGUOUS',
    seq: view.seq(idx),
    turn: key.turn,
    step: key.step,
    foreignSeq: view.seq(foreignIdx),
  })
  for (let p = a + 1; p < b; p++) if (!isStepMember(view.event(p), key)) return refuse(p)

  // Pairing closure: a call or result whose partner is on the surface outside [a, b] would be split.
  const pairing = view.pairing()
  const { calls, answered } = pairing.window(a, b)
  for (const id of calls) {
    if (answered.has(id)) continue
    const partner = nearestOutside(pairing.resultPositions(id), a, b)
    if (partner !== -1) return refuse(firstNonMemberBetween(view, partner, a, b, key))
  }
  for (const id of answered) {
    if (calls.has(id)) continue
    const partner = nearestOutside(pairing.callPositions(id), a, b)
    if (partner !== -1) return refuse(firstNonMemberBetween(view, partner, a, b, key))
  }
  return { a, b }
}

/** First node between `partner` (outside the span) and the span `[a, b]` that is not a step member. */
function firstNonMemberBetween(view: SurfaceView, partner: number, a: number, b: number, key: StepKey): number {
  if (partner < a) {
    for (let p = a - 1; p > partner; p--) if (!isStepMember(view.event(p), key)) return p
  } else {
    for (let p = b + 1; p < partner; p++) if (!isStepMember(view.event(p), key)) return p
  }
  return partner
}

/**
 * Start of a `deleteFrom` range: the target, widened back to the first node of its step, then
 * further back while a tool result in the range answers a call that sits before the start.
 */
function onwardStart(view: SurfaceView, idx: number): { startIdx: number; stepKey: StepKey | null } {
  let startIdx = idx
  let stepKey = stepOf(view.event(idx))
  if (stepKey !== null) startIdx = stepEdges(view, idx, stepKey).a

  const pairing = view.pairing()
  const inRange = pairing.window(startIdx, view.length - 1)
  const unresolvable = new Set<string>()
  for (;;) {
    let partner = -1
    for (const id of inRange.answered) {
      if (inRange.calls.has(id) || unresolvable.has(id)) continue
      const found = nearestBefore(pairing.callPositions(id), startIdx)
      if (found === -1) unresolvable.add(id)
      else partner = partner === -1 ? found : Math.min(partner, found)
    }
    if (partner === -1) return { startIdx, stepKey }
    stepKey = stepOf(view.event(partner))
    const next = stepKey === null ? partner : stepEdges(view, partner, stepKey).a
    pairing.extend(inRange, next, startIdx - 1)
    startIdx = next
  }
}

/** Longest part of a message id a refusal quotes, in UTF-16 code units (ids DSH mints are uuids, 36; the route accepts 512). */
export const QUOTED_ID_MAX = 80

/**
 * A message id quoted for a refusal: whole when it is at most {@link QUOTED_ID_MAX} long, else its
 * first {@link QUOTED_ID_MAX} code units (one fewer rather than half a surrogate pair) with `…` and
 * its length in code units (`"aaaa…" (512 characters)`).
 * @param id - the message id asked for.
 */
export function quotedMessageId(id: string): string {
  if (id.length <= QUOTED_ID_MAX) return `"${id}"`
  // Not between the two halves of a surrogate pair.
  const end = /[\uD800-\uDBFF]/.test(id[QUOTED_ID_MAX - 1]!) ? QUOTED_ID_MAX - 1 : QUOTED_ID_MAX
  return `"${id.slice(0, end)}…" (${id.length} characters)`
}

/**
 * A one-line English description of a planner refusal, prefixed `message-recall:` and naming the
 * offending values (for logs and the HTTP `error.message`; user-facing text belongs to the client).
 * @param refusal - any {@link PlanRefusal}.
 * @returns the message.
 */
export function describePlanRefusal(refusal: PlanRefusal): string {
  switch (refusal.code) {
    case 'TARGET_NOT_FOUND': {
      const { target } = refusal
      if ('seq' in target) return `message-recall: target seq ${target.seq} is not on the current surface`
      if (refusal.reason === 'ambiguous-message-id') {
        return `message-recall: message id ${quotedMessageId(target.messageId)} is carried by ${refusal.matchingSeqs.length} surface nodes (seqs ${refusal.matchingSeqs.join(', ')}); address one by seq`
      }
      return `message-recall: no current surface node carries message id ${quotedMessageId(target.messageId)}`
    }
    case 'NOT_A_USER_MESSAGE':
      return `message-recall: seq ${refusal.seq} is ${NODE_KIND_PHRASE[refusal.nodeKind]}, not a message the person sent; only those can be recalled`
    case 'NOT_DELETABLE':
      return `message-recall: seq ${refusal.seq} cannot be removed: ${notDeletableReason(refusal)}`
    case 'SPAN_NOT_CONTIGUOUS':
      return `message-recall: turn ${refusal.turn} step ${refusal.step} of seq ${refusal.seq} is not contiguous on the surface: seq ${refusal.foreignSeq} sits inside it`
  }
}

/** Each node kind as a noun phrase with its article (`an assistant node`), for refusal messages. */
const NODE_KIND_PHRASE: Record<NodeKind, string> = {
  user: 'a user node',
  reference: 'a session-reference snapshot',
  context: 'a context node',
  tombstone: 'a tombstone node',
  checkpoint: 'a checkpoint node',
  replacement: 'a replacement node',
  assistant: 'an assistant node',
  tool: 'a tool node',
}

/** `source.plugin` of the agent loop's runtime context (`dsh-agent-loop`, `RuntimeContextProjection`). */
const RUNTIME_CONTEXT_PRODUCER = '@deepseek-ai/dsh-system-prompt'

/** What injected a `context` node: its `source.plugin` for a plugin source, else its `source.kind`. */
function producerOf(event: LogEvent): string {
  const source = (event.data as { source?: unknown } | null)?.source
  if (source === null || typeof source !== 'object') return 'unknown'
  const { kind, plugin } = source as { kind?: unknown; plugin?: unknown }
  if (kind === 'plugin' && typeof plugin === 'string') return plugin
  return typeof kind === 'string' ? kind : 'unknown'
}

/** The true reason each kind that is never a target stays where it is. */
function notDeletableReason(refusal: NotDeletableRefusal): string {
  switch (refusal.nodeKind) {
    case 'tombstone':
      return 'it is a tombstone of this plugin, which stands for messages already removed; a restore or a copy from before it undoes it'
    case 'checkpoint':
      if (refusal.wholeSummary === true) return 'Delete onward from it would take every message the compaction summary is made from, and a summary of nothing cannot be written; start Delete onward at a later summarized message, or remove the messages after the summary'
      return 'it is a compaction checkpoint, which stands for the messages compaction folded; they are no longer on the surface to remove'
    case 'replacement':
      return "it is another plugin's surface replacement, which that plugin owns"
    case 'context':
      return refusal.producer === RUNTIME_CONTEXT_PRODUCER
        ? 'it is the agent loop\'s runtime context, which the loop injects again at the next step once it is gone'
        : `it is context that "${refusal.producer ?? 'unknown'}" injected, not a message the person caused; only those and the model's steps can be removed`
  }
}
