/**
 * The batch planner: plans a whole list of changes (removals by seq, in-place restores by
 * tombstone seq) against one surface before anything is written, so a batch is all or nothing.
 * Pure: no `Session`, no I/O. Each change is planned with the single-action rules
 * ({@link planRemoval}, {@link planRestore}) on a simulated copy of the node list,
 * and its replace is then applied to that copy, so later changes see the earlier ones.
 *
 * Merging, in list order on the simulated surface:
 * - a change that repeats an earlier one (the same action on the same seq) joins the write that
 *   carries it, so a repeat never changes the plan;
 * - a removal whose target an earlier change of the batch already removed joins that removal; a
 *   removal of a target the batch only excluded turns that exclusion into its own removal; an
 *   exclusion of a target the batch already covers joins what covers it (see `joinedDraft`);
 *   a `deleteFrom` on a removed target continues from the first removable node after that range,
 *   and on an only excluded one starts its range at that exclusion (and so removes it);
 * - a removal whose planned range touches or covers a range of this batch (the planner absorbs
 *   an adjacent tombstone at either edge) becomes one range with it: one tombstone per gap, and
 *   this batch's tombstones that hide alike (two removals, two exclusions) merge into one. The
 *   batch writes a tombstone that shadows another of its own only in these cases, so that every
 *   message's fate (`fate.ts`) is the one the changes sent one by one leave it, where each of them
 *   applies one by one (the joins above are the batch's own):
 *   - where an exclusion and a removal meet, the earlier one is its own tombstone and the later
 *     one shadows it (they hide differently);
 *   - an exclusion a later removal of its message turned into a removal (`retarget`) stays its
 *     own tombstone inside the Delete that had absorbed it: a removal inside a removal;
 *   - a Recall or Delete that takes a `deleteFrom` of the batch along is written as that
 *     `deleteFrom` (the exclusions inside it stay removed), unless the Recall or Delete directly
 *     holds an exclusion, of the batch or already in the log (at its edge, or inside a Recall or
 *     Delete of the batch it merges with), which it leaves excluded and a Delete onward would
 *     remove: then the `deleteFrom` stays its own tombstone inside it;
 * - a restore whose tombstone an earlier change shadowed is refused, naming that change.
 *
 * The plan lists the writes in an order in which each one's range exists on the real surface
 * when it is written: a merged range is written at the position of its last contributing change.
 * Seqs the batch will create are *virtual* here (`nextSeq`, `nextSeq + 1`, …, one per simulated
 * write); the writer maps them to the real seqs as it appends.
 *
 * Cost: per change, one planner call over the simulated nodes (a search that starts where the
 * previous change landed, plus the scanned neighbourhood, see `surface-plan.ts`) and one splice of
 * the node copy.
 *
 * @module dsh-message-recall/host/batch-plan
 */
import { isRecord, type LogEvent } from '../shared/events'
import { replaceOp } from '../shared/replace-op'
import { classifyNode, contentOf, type NodeKind } from '../shared/surface-node'
import { planRemoval, positionOf, type EventLookup, type PlanRefusal } from './surface-plan'
import { countChars, estimateTokens, tokensOfChars } from '../shared/token-estimate'
import { describeRestoreRefusal, planRestore, type RestoreRefusal } from './restore-plan'
import { readTombstone, tombstoneSource } from '../shared/tombstone'
import { ACTIONS, BATCH_REMOVAL_ACTIONS, removalPlanning, type BatchRemovalAction } from '../shared/actions'
import { withoutPrefix } from '../shared/error-text'

export type { BatchRemovalAction } from '../shared/actions'

/** One change of a batch, as the route receives it. */
export type BatchChange =
  | { readonly action: BatchRemovalAction; readonly seq: number }
  | { readonly action: 'restore'; readonly tombstoneSeq: number }

/** Everything the batch planner reads. */
export interface BatchInput {
  /** Current surface node seqs in surface order (a stable copy). */
  readonly nodes: readonly number[]
  /** One event by seq over the current log. */
  readonly lookup: EventLookup
  /** The seq the next appended event will get (`session.seq`). */
  readonly nextSeq: number
  readonly changes: readonly BatchChange[]
}

/** A tombstone the batch writes. `shadowedSeqs` may name virtual seqs of this batch's restores. */
export interface BatchTombstoneWrite {
  readonly kind: 'tombstone'
  /** The action of the last change that shaped this range. */
  readonly action: BatchRemovalAction
  readonly start: number
  readonly end: number
  /** Every shadowed node, in surface order. */
  readonly shadowedSeqs: readonly number[]
  /** Node kind of each shadowed node, aligned with `shadowedSeqs`. */
  readonly nodeKinds: readonly NodeKind[]
  /** Indexes of the changes merged into this tombstone, ascending. */
  readonly changeIndexes: readonly number[]
  /** Placeholder seq of the tombstone in the simulation. */
  readonly virtualSeq: number
}

/** A restoring copy the batch writes. `tombstoneSeq` is a seq of the current log. */
export interface BatchRestoreWrite {
  readonly kind: 'restore'
  readonly tombstoneSeq: number
  readonly originalSeq: number
  readonly data: unknown
  /** Indexes of the changes that asked for this restore (duplicates merge), ascending. */
  readonly changeIndexes: readonly number[]
  readonly virtualSeq: number
}

/** One write of a batch. */
export type BatchWrite = BatchTombstoneWrite | BatchRestoreWrite

/** A whole planned batch. */
export interface BatchPlan {
  /** The writes, in write order. */
  readonly writes: readonly BatchWrite[]
  /** For each change (by index), the position in `writes` of the write that carries it. */
  readonly writeOfChange: readonly number[]
  /** The simulated surface after every write, with virtual seqs for the batch's own events. */
  readonly nodes: readonly number[]
  /** One event by seq over the current log plus the batch's simulated events. */
  readonly lookup: EventLookup
  /** Seqs of messages that leave the model context (tombstones of earlier removals not counted). */
  readonly removedSeqs: readonly number[]
  /** Seqs of removed messages that come back (the originals the restores copy). */
  readonly restoredSeqs: readonly number[]
}

/** Why a batch cannot be written: the first refused change. */
export interface BatchRefusal {
  /** Index of the refused change in the list. */
  readonly index: number
  readonly change: BatchChange
  readonly refusal:
    | PlanRefusal
    | RestoreRefusal
    /** A restore whose tombstone change `shadowedByIndex` of this batch already shadowed. */
    | { readonly code: 'TARGET_NOT_FOUND'; readonly shadowedByIndex: number; readonly tombstoneSeq: number }
}

/** Batch planner result. */
export type BatchResult = { readonly ok: true; readonly plan: BatchPlan } | { readonly ok: false; readonly refusal: BatchRefusal }

/** A small number per batch removal action, for {@link planBatchSteps}' duplicate key. */
const ACTION_CODE = new Map(BATCH_REMOVAL_ACTIONS.map((action, i) => [action, i]))
const NOT_REMOVABLE = new Set<NodeKind>(['tombstone', 'checkpoint', 'replacement', 'context'])
const MESSAGE_KINDS = new Set<NodeKind>(['user', 'reference', 'context', 'assistant', 'tool'])

interface Draft {
  kind: 'tombstone' | 'restore'
  action: BatchRemovalAction | 'restore'
  shadowedSeqs: number[]
  nodeKinds: NodeKind[]
  changeIndexes: number[]
  virtualSeq: number
  tombstoneSeq: number
  originalSeq: number
  data: unknown
  /** Order key: the simulation step that last shaped this write. */
  order: number
  live: boolean
}

/**
 * Plan a batch.
 * @param input - the surface, a lookup, the next seq and the changes.
 * @returns the plan, or the first refused change with its index and refusal; an empty change
 * list plans to no writes.
 * @throws when a surface node has no event under `lookup` (corrupt surface), as the planner does.
 */
export function planBatch(input: BatchInput): BatchResult {
  const steps = planBatchSteps(input)
  for (;;) {
    const step = steps.next()
    if (step.done) return step.value
  }
}

/**
 * {@link planBatch} one change at a time, so a caller can let other work run between changes
 * (`time-slice.ts`): the generator yields before every change after the first and returns the
 * result. `input.nodes` is copied when the first step runs; `input.lookup` must keep answering
 * the same events until the last.
 * @param input - as for {@link planBatch}.
 * @returns a generator whose return value is {@link planBatch}'s result.
 * @throws as {@link planBatch}, from the step that meets the corrupt node.
 */
export function* planBatchSteps(input: BatchInput): Generator<void, BatchResult, void> {
  const nodes = [...input.nodes]
  const virtual = new Map<number, LogEvent>()
  // Virtual seqs start at nextSeq, so one comparison tells the simulated events from the log's.
  const lookup: EventLookup = (seq) => (seq >= input.nextSeq ? virtual.get(seq) : input.lookup(seq))
  const drafts: Draft[] = []
  /** Virtual seq of a simulated write → its draft. */
  const draftOf = new Map<number, Draft>()
  /** Seq (real, or a restore's virtual) shadowed by a tombstone draft of this batch → that draft. */
  const coveredBy = new Map<number, Draft>()
  /** Each change's draft; kept current when a draft merges into another. */
  const ownerOf: Draft[] = []
  /** A removal change's (seq, action) key → the index of its first occurrence. */
  const firstOf = new Map<number, number>()
  let next = input.nextSeq
  let order = 0
  // Where the last change landed: changes listed in surface order are each found a short search
  // away from it (the editor sends them so), instead of one search from the top per change.
  let near = 0

  const refuse = (index: number, refusal: BatchRefusal['refusal']): BatchResult => ({ ok: false, refusal: { index, change: input.changes[index]!, refusal } })
  /**
   * Let change `index` join `draft`'s write. Changes are planned in list order, so `index` is above
   * every index the draft holds and `changeIndexes` stays ascending.
   */
  const joinDraft = (draft: Draft, index: number): void => {
    draft.changeIndexes.push(index)
    ownerOf[index] = draft
  }
  /** Give a tombstone draft another action, in its write and in its simulated event. */
  const retarget = (draft: Draft, action: BatchRemovalAction): void => {
    draft.action = action
    const event = virtual.get(draft.virtualSeq)!
    virtual.set(draft.virtualSeq, { ...event, data: { ...(event.data as Record<string, unknown>), source: tombstoneSource(action, draft.shadowedSeqs) } })
  }
  /** The tombstone draft on the simulated surface that holds `draft` (itself when nothing of this batch shadows it). */
  const outermost = (draft: Draft | undefined): Draft | undefined => {
    let at = draft
    for (let next = at && coveredBy.get(at.virtualSeq); next !== undefined; next = coveredBy.get(next.virtualSeq)) at = next
    return at
  }

  /**
   * The draft a change joins whose target the batch already covers, `covering` being the draft
   * that shadows the target itself. Its chain of covering drafts alternates between exclusions and
   * removals (drafts that hide alike merge), and the fate rules (`fate.ts` `takesOver`) read it:
   * the target is removed by `covering` when that is a removal, or by a Delete onward that
   * absorbed the exclusion `covering`; an outer Recall or Delete that absorbed an exclusion at
   * its edge leaves the target excluded. An exclusion change, and a removal of a removed target
   * (another message of a step the batch removed, say), join what already excludes or removes it; a
   * removal of a target only excluded joins that exclusion, which the caller then turns into the removal.
   */
  const joinedDraft = (covering: Draft, removal: boolean): Draft => {
    if (!removal || effectOf(covering.action) === 'removed') return covering
    for (let outer = coveredBy.get(covering.virtualSeq); outer !== undefined; outer = coveredBy.get(outer.virtualSeq)) {
      if (effectOf(outer.action) === 'removed' && ACTIONS[outer.action].plans === 'onward') return outer
    }
    return covering
  }

  for (const [index, change] of input.changes.entries()) {
    if (index > 0) yield
    order++
    if (change.action === 'restore') {
      const shadowing = coveredBy.get(change.tombstoneSeq)
      if (shadowing !== undefined) {
        return refuse(index, { code: 'TARGET_NOT_FOUND', shadowedByIndex: shadowing.changeIndexes[0]!, tombstoneSeq: change.tombstoneSeq })
      }
      const again = drafts.find((d) => d.live && d.kind === 'restore' && d.tombstoneSeq === change.tombstoneSeq)
      if (again !== undefined) {
        joinDraft(again, index)
        continue
      }
      if (change.tombstoneSeq >= input.nextSeq) {
        return refuse(index, { code: 'TARGET_NOT_FOUND', tombstoneSeq: change.tombstoneSeq, reason: 'not-a-tombstone' })
      }
      const planned = planRestore({ nodes, lookup, tombstoneSeq: change.tombstoneSeq })
      if (!planned.ok) return refuse(index, planned.refusal)
      const step = planned.plan
      const seq = next++
      const copy: LogEvent = {
        type: 'user/message', seq, time: 0, data: step.data,
        surfaceOp: replaceOp(step.start, step.end), sourceEventSeqs: [...step.sourceEventSeqs],
      }
      virtual.set(seq, copy)
      const draft: Draft = {
        kind: 'restore', action: 'restore', shadowedSeqs: [change.tombstoneSeq], nodeKinds: ['tombstone'], changeIndexes: [index], virtualSeq: seq,
        tombstoneSeq: change.tombstoneSeq, originalSeq: step.originalSeq, data: step.data, order, live: true,
      }
      near = positionOf(nodes, change.tombstoneSeq, near)
      nodes.splice(near, 1, seq)
      drafts.push(draft)
      draftOf.set(seq, draft)
      ownerOf[index] = draft
      continue
    }

    let targetSeq = change.seq
    if (targetSeq >= input.nextSeq) {
      return refuse(index, { code: 'TARGET_NOT_FOUND', target: { seq: targetSeq }, reason: 'not-on-surface', matchingSeqs: [] })
    }
    // A duplicate (the same action on the same seq) joins the write that carries the change it repeats.
    // One number per (seq, action): seqs here are below `nextSeq`, far inside the safe integer range.
    const key = targetSeq * BATCH_REMOVAL_ACTIONS.length + ACTION_CODE.get(change.action)!
    const repeated = firstOf.get(key)
    if (repeated !== undefined) {
      joinDraft(ownerOf[repeated]!, index)
      continue
    }
    firstOf.set(key, index)
    const covering = coveredBy.get(targetSeq)
    /** Position of the outermost draft over an only-excluded target of a `deleteFrom`, which its range starts at. */
    let from: number | undefined
    if (covering !== undefined) {
      const joined = joinedDraft(covering, ACTIONS[change.action].effect === 'removed')
      const at = ACTIONS[change.action].plans === 'onward' ? positionOf(nodes, outermost(covering)!.virtualSeq, near) : -1
      const after = at === -1 ? undefined : firstRemovableAfter(nodes, lookup, at)
      if (after !== undefined && effectOf(joined.action) === 'excluded') from = at
      if (after === undefined) {
        joinDraft(joined, index)
        // A removal of what an earlier change of the batch only excluded removes it: the later change wins.
        if (effectOf(joined.action) === 'excluded' && ACTIONS[change.action].effect === 'removed') retarget(joined, change.action)
        continue
      }
      targetSeq = after
    }
    const planned = planRemoval({ nodes, lookup, planning: removalPlanning(change.action), target: { seq: targetSeq }, searchFrom: near })
    if (!planned.ok) return refuse(index, planned.refusal)
    // A Delete onward from a message the batch only excluded takes that exclusion too (a Delete onward
    // over an exclusion removes it, `fate.ts` `takesOver`), and the nodes no removal may target
    // between it and the continuation's start: one contiguous range to the end.
    const plan = from === undefined ? planned.plan : {
      ...planned.plan,
      start: nodes[from]!,
      startIdx: from,
      shadowedSeqs: [...nodes.slice(from, planned.plan.startIdx), ...planned.plan.shadowedSeqs],
      nodeKinds: [...nodes.slice(from, planned.plan.startIdx).map((seq) => classifyNode(lookup(seq)!)), ...planned.plan.nodeKinds],
    }

    // Expand this batch's own tombstones inside the range into what they shadow, when they hide
    // alike; an exclusion inside a removal (or a removal inside an exclusion) stays its own
    // tombstone, written first and shadowed by this one, as the same changes one by one would be:
    // the hiding rules read the two differently (`hidden-rows.ts`). A Recall or Delete that takes
    // a Delete onward of the batch along (at the onward's start) is written as that Delete onward,
    // which the exclusions inside it need to stay removed (`fate.ts` `takesOver`); when its range
    // also directly holds an exclusion (one of the batch or one already in the log, at its edge or
    // inside a Recall or Delete of the batch it expands), which it leaves excluded but a Delete
    // onward would remove, the Delete onward stays its own tombstone inside it instead.
    const onward = ACTIONS[change.action].plans === 'onward'
    const alike = (inner: Draft | undefined): inner is Draft => inner !== undefined && inner.kind === 'tombstone' && effectOf(inner.action) === ACTIONS[change.action].effect
    const holdsExclusion = !onward && plan.shadowedSeqs.some((seq) => {
      const inner = draftOf.get(seq)
      if (!alike(inner)) return isExclusion(seq, draftOf, lookup)
      return ACTIONS[inner.action].plans !== 'onward' && inner.shadowedSeqs.some((held) => isExclusion(held, draftOf, lookup))
    })
    let action = change.action
    const shadowedSeqs: number[] = []
    const nodeKinds: NodeKind[] = []
    const changeIndexes = [index]
    for (const [i, seq] of plan.shadowedSeqs.entries()) {
      const inner = draftOf.get(seq)
      const innerOnward = inner !== undefined && ACTIONS[inner.action].plans === 'onward'
      if (alike(inner) && !(innerOnward && holdsExclusion)) {
        if (innerOnward && !onward) action = inner.action as BatchRemovalAction
        inner.live = false
        shadowedSeqs.push(...inner.shadowedSeqs)
        nodeKinds.push(...inner.nodeKinds)
        changeIndexes.push(...inner.changeIndexes)
      } else {
        shadowedSeqs.push(seq)
        nodeKinds.push(plan.nodeKinds[i]!)
      }
    }
    changeIndexes.sort((a, b) => a - b)
    const seq = next++
    const draft: Draft = {
      kind: 'tombstone', action, shadowedSeqs, nodeKinds, changeIndexes, virtualSeq: seq,
      tombstoneSeq: -1, originalSeq: -1, data: undefined, order, live: true,
    }
    virtual.set(seq, {
      type: 'user/message', seq, time: 0,
      data: { id: `batch-${seq}`, role: 'user', content: [], source: tombstoneSource(action, shadowedSeqs) },
      surfaceOp: replaceOp(shadowedSeqs[0]!, shadowedSeqs.at(-1)!), sourceEventSeqs: shadowedSeqs,
    })
    nodes.splice(plan.startIdx, plan.endIdx - plan.startIdx + 1, seq)
    near = plan.startIdx
    drafts.push(draft)
    draftOf.set(seq, draft)
    for (const i of changeIndexes) ownerOf[i] = draft
    for (const shadowed of shadowedSeqs) coveredBy.set(shadowed, draft)
  }

  const live = drafts.filter((d) => d.live).sort((a, b) => a.order - b.order)
  const position = new Map(live.map((d, i) => [d, i]))
  const writes = live.map(toWrite)
  const removedSeqs: number[] = []
  const restoredSeqs: number[] = []
  for (const d of live) {
    if (d.kind === 'restore') restoredSeqs.push(d.originalSeq)
    else for (const [i, seq] of d.shadowedSeqs.entries()) if (MESSAGE_KINDS.has(d.nodeKinds[i]!)) removedSeqs.push(seq)
  }
  return {
    ok: true,
    plan: {
      writes,
      writeOfChange: input.changes.map((_, i) => position.get(ownerOf[i]!)!),
      nodes,
      lookup,
      removedSeqs,
      restoredSeqs,
    },
  }
}

/**
 * Rough token totals of a batch plan (see `token-estimate.ts`): what leaves the model context and
 * what comes back. Only the `plan` preview needs them, so `apply` does not pay for them.
 * @param plan - a plan from {@link planBatch}.
 * @returns `{ estimatedTokens, restoredTokens }`.
 */
export function estimateBatch(plan: BatchPlan): { estimatedTokens: number; restoredTokens: number } {
  const steps = estimateBatchSteps(plan)
  for (;;) {
    const step = steps.next()
    if (step.done) return step.value
  }
}

/** Removed messages counted between two steps of {@link estimateBatchSteps}. */
const ESTIMATE_STEP = 1024

/**
 * {@link estimateBatch} in steps of {@link ESTIMATE_STEP} removed messages, for planning in
 * slices (`time-slice.ts`).
 * @param plan - a plan from {@link planBatch}.
 * @returns a generator whose return value is {@link estimateBatch}'s result.
 */
export function* estimateBatchSteps(plan: BatchPlan): Generator<void, { estimatedTokens: number; restoredTokens: number }, void> {
  const restored = plan.writes.flatMap((w) => (w.kind === 'restore' && isRecord(w.data) && Array.isArray(w.data.content) ? [w.data.content as readonly unknown[]] : []))
  let chars = 0
  for (let start = 0; start < plan.removedSeqs.length; start += ESTIMATE_STEP) {
    if (start > 0) yield
    chars += countChars(plan.removedSeqs.slice(start, start + ESTIMATE_STEP).map((seq) => contentOf(plan.lookup(seq)!)))
  }
  return { estimatedTokens: tokensOfChars(chars), restoredTokens: estimateTokens(restored) }
}

/** What a draft's action does to its rows (a restore draft: `restored`). */
function effectOf(action: Draft['action']): (typeof ACTIONS)[keyof typeof ACTIONS]['effect'] {
  return ACTIONS[action].effect
}

function toWrite(d: Draft): BatchWrite {
  if (d.kind === 'restore') {
    return { kind: 'restore', tombstoneSeq: d.tombstoneSeq, originalSeq: d.originalSeq, data: d.data, changeIndexes: d.changeIndexes, virtualSeq: d.virtualSeq }
  }
  return {
    kind: 'tombstone', action: d.action as BatchRemovalAction, start: d.shadowedSeqs[0]!, end: d.shadowedSeqs.at(-1)!,
    shadowedSeqs: d.shadowedSeqs, nodeKinds: d.nodeKinds, changeIndexes: d.changeIndexes, virtualSeq: d.virtualSeq,
  }
}

/**
 * Whether the node `seq` is an exclusion tombstone: one this batch simulates (its draft's action,
 * which a later removal may have retargeted) or one already in the log.
 */
function isExclusion(seq: number, draftOf: ReadonlyMap<number, Draft>, lookup: EventLookup): boolean {
  const draft = draftOf.get(seq)
  if (draft !== undefined) return draft.kind === 'tombstone' && effectOf(draft.action) === 'excluded'
  const event = lookup(seq)
  const tombstone = event === undefined ? null : readTombstone(event)
  return tombstone !== null && ACTIONS[tombstone.action].effect === 'excluded'
}

/** Seq of the first node after position `from` that a removal may target, or `undefined`. */
function firstRemovableAfter(nodes: readonly number[], lookup: EventLookup, from: number): number | undefined {
  for (let p = from + 1; p < nodes.length; p++) {
    const event = lookup(nodes[p]!)
    if (event !== undefined && !NOT_REMOVABLE.has(classifyNode(event))) return nodes[p]
  }
  return undefined
}

/**
 * A one-line English description of a batch refusal, naming the change's index, prefixed
 * `message-recall:` (for the HTTP `error.message`).
 * @param refusal - a {@link BatchRefusal}.
 * @param describe - describes the planner's own refusals (`describePlanRefusal`).
 * @returns the message.
 */
export function describeBatchRefusal(refusal: BatchRefusal, describe: (refusal: PlanRefusal) => string): string {
  const { index, change } = refusal
  const what = change.action === 'restore' ? `restore of tombstone ${change.tombstoneSeq}` : `${change.action} of seq ${change.seq}`
  const inner = refusal.refusal
  // A restore's refusal comes from restore planning (or this batch), a removal's from the removal planner.
  const why = 'shadowedByIndex' in inner
    ? `tombstone seq ${inner.tombstoneSeq} is shadowed by change ${inner.shadowedByIndex} of this batch`
    : withoutPrefix(change.action === 'restore' ? describeRestoreRefusal(inner as RestoreRefusal) : describe(inner as PlanRefusal))
  return `message-recall: change ${index} (${what}) refused: ${why}`
}
