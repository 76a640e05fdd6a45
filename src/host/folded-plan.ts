/**
 * The folded-removal planner: what a Recall, Delete or Exclude of a message a compaction already
 * folded takes, and what the rewritten summary is made from. Pure, over a view's surface and event
 * lookup and the one fate reader (`shared/fate.ts`).
 *
 * - The **target** must be folded (`fate.ts` state `folded`), and the node standing for it now (the
 *   end of its chain of replacements) must be a compaction checkpoint on the surface: the summary
 *   the model reads.
 * - The **originals** of that checkpoint are the messages of its compacted range, read back through
 *   every compaction in between: a checkpoint's `sourceEventSeqs` are `[startSeq, summarySeq,
 *   ...shadowedSeqs]` (`dsh-compaction-basic` `commitCompactionBody`), and a shadowed node that is a
 *   checkpoint itself (nested compactions, or this plugin's earlier rewrite) is replaced by its own
 *   originals. So a summary of a summary is rebuilt from the original messages, never from the old
 *   summary's text. Other shadowed nodes (a tombstone of this plugin, a tool-result prune's copy)
 *   are kept as they were summarized.
 * - What goes, by the action table's planning shape: a message the person sent goes with the
 *   session-reference snapshot right after it (`reference-snapshot.ts`' rule: the next seq, when it
 *   is an original too); a model step (an answer or a tool row) goes whole, every original of the
 *   same `(turn, step)`, so no tool call is summarized without its result or the reverse. Recall
 *   takes only a message the person sent. Delete onward takes the originals from there (a message,
 *   or the first original of its model step) to the end of the range; the messages after the
 *   checkpoint, which it takes too, are the tail {@link foldedTail} plans (`summary-batch.ts`
 *   writes both in one step). A Delete onward that would leave no original to summarize (from
 *   the first one) is refused (`NOT_DELETABLE`, `wholeSummary`): a summary of nothing cannot be
 *   written, and a tombstone over the checkpoint would leave its messages shown as summarized.
 * - **Cumulative**: the removals earlier rewrites recorded inside the checkpoint's range (the
 *   checkpoint itself, or a rewrite a later compaction folded) stay removed and are carried into
 *   the new record (`shared/summary-rewrite.ts`).
 *
 * @module dsh-message-recall/host/folded-plan
 */
import { ACTIONS, type TombstoneAction } from '../shared/actions'
import type { LogEvent } from '../shared/events'
import type { Fates } from '../shared/fate'
import { classifyNode, isStepMember, stepOf, type NodeKind } from '../shared/surface-node'
import { isCheckpointEvent, originalsOf, readRewriteCheckpoint, type FoldedRemoval } from '../shared/summary-rewrite'
import type { EventLookup, PlanRefusal } from './surface-plan'

/** What a removal of folded messages writes. */
export interface FoldedPlan {
  readonly action: TombstoneAction
  /** The checkpoint on the surface the new compaction replaces. */
  readonly checkpointSeq: number
  /** The folded messages this removal takes, in log order. */
  readonly removedSeqs: readonly number[]
  /** Every original of the checkpoint's range, in surface order at compaction time. */
  readonly originalSeqs: readonly number[]
  /** The originals the new summary is made from: `originalSeqs` minus every removal. */
  readonly keptSeqs: readonly number[]
  /** The new checkpoint's cumulative record: earlier removals, then this one. */
  readonly removals: readonly FoldedRemoval[]
}

/** Input of {@link planFoldedRemoval}. */
export interface FoldedPlanInput {
  /** The current surface, in surface order. */
  readonly nodes: readonly number[]
  readonly lookup: EventLookup
  /** The session's fates (its replacement events). */
  readonly fates: Fates
  readonly action: TombstoneAction
  /** Seq of the folded message addressed (a row's message). */
  readonly seq: number
}

/** The current messages after a checkpoint that a Delete onward from a folded message takes: one tombstone range. */
export interface FoldedTail {
  /** First and last shadowed surface node (the node right after the checkpoint, the last node). */
  readonly start: number
  readonly end: number
  /** Every surface node after the checkpoint, in surface order. */
  readonly shadowedSeqs: readonly number[]
  /** Node kind of each, aligned with `shadowedSeqs`. */
  readonly nodeKinds: readonly NodeKind[]
}

/**
 * The tail of a Delete onward from a folded message: every surface node after the checkpoint
 * (context and earlier tombstones included, as a Delete onward's range takes them). A checkpoint
 * closes a compacted range whole (DSH's compaction keeps tool calls with their results), so the
 * range splits no tool call from its result.
 * @param nodes - the surface, in surface order.
 * @param lookup - one event by seq.
 * @param checkpointSeq - the checkpoint on the surface.
 * @returns the range, or `null` when nothing follows the checkpoint.
 */
export function foldedTail(nodes: readonly number[], lookup: EventLookup, checkpointSeq: number): FoldedTail | null {
  const at = nodes.indexOf(checkpointSeq)
  if (at === -1 || at === nodes.length - 1) return null
  const shadowedSeqs = nodes.slice(at + 1)
  return { start: shadowedSeqs[0]!, end: shadowedSeqs.at(-1)!, shadowedSeqs, nodeKinds: shadowedSeqs.map((seq) => classifyNode(lookup(seq) as LogEvent)) }
}

/** Outcome of the planner: a plan, a refusal, or `null` when the target is not folded (the surface planner's case). */
export type FoldedPlanResult = { readonly ok: true; readonly plan: FoldedPlan } | { readonly ok: false; readonly refusal: PlanRefusal } | null

/**
 * Plan a removal of folded messages.
 * @param input - surface, lookup, fates, action and target.
 * @returns the plan (for Delete onward, the folded part only: see {@link foldedTail}); a refusal
 *   (`TARGET_NOT_FOUND` when no checkpoint on the surface stands for the message,
 *   `NOT_A_USER_MESSAGE` for a Recall of anything else, `NOT_DELETABLE` for injected context, a
 *   tombstone, a checkpoint or a replacement, and for a Delete onward that would leave nothing to
 *   summarize); or `null` when the target is not a folded message (the surface planner answers those).
 */
export function planFoldedRemoval(input: FoldedPlanInput): FoldedPlanResult {
  const { lookup, fates, seq, action } = input
  const spec = ACTIONS[action]
  const fate = fates.fateOf(seq)
  if (fate.state !== 'folded') return null
  const target = fate.actingSeq
  const standing = fates.standingFor(target)
  const checkpoint = standing === null ? undefined : lookup(standing)
  if (standing === null || checkpoint === undefined || !isCheckpointEvent(checkpoint) || !input.nodes.includes(standing)) {
    return { ok: false, refusal: { code: 'TARGET_NOT_FOUND', target: { seq }, reason: 'not-on-surface', matchingSeqs: [] } }
  }
  const event = lookup(target)!
  const kind = classifyNode(event)
  if (spec.targets === 'prompt' && kind !== 'user') return { ok: false, refusal: { code: 'NOT_A_USER_MESSAGE', seq, nodeKind: kind } }
  if (kind === 'context' || kind === 'tombstone' || kind === 'checkpoint' || kind === 'replacement') {
    return { ok: false, refusal: { code: 'NOT_DELETABLE', seq, nodeKind: kind } }
  }
  const { seqs: originals, removals: earlier } = originalsOf(standing, lookup)
  const gone = new Set(earlier.flatMap((r) => r.seqs))
  const widened = widen(target, kind, originals, lookup)
  const onward = spec.plans === 'onward' ? originals.slice(Math.max(0, originals.indexOf(widened[0]!))) : widened
  const takes = onward.filter((s) => !gone.has(s))
  if (takes.length === 0) return { ok: false, refusal: { code: 'TARGET_NOT_FOUND', target: { seq }, reason: 'not-on-surface', matchingSeqs: [] } }
  for (const s of takes) gone.add(s)
  if (spec.plans === 'onward' && originals.every((s) => gone.has(s))) {
    return { ok: false, refusal: { code: 'NOT_DELETABLE', seq, nodeKind: 'checkpoint', wholeSummary: true } }
  }
  return {
    ok: true,
    plan: {
      action, checkpointSeq: standing, removedSeqs: takes, originalSeqs: originals,
      keptSeqs: originals.filter((s) => !gone.has(s)),
      removals: [...earlier, { action, seqs: takes }],
    },
  }
}

/** The originals one removal takes: a message with its snapshot, or a whole model step. */
function widen(target: number, kind: string, originals: readonly number[], lookup: EventLookup): number[] {
  if (kind === 'user' || kind === 'reference') {
    const next = lookup(target + 1)
    const snapshot = kind === 'user' && next !== undefined && originals.includes(target + 1) && classifyNode(next) === 'reference'
    return snapshot ? [target, target + 1] : [target]
  }
  const key = stepOf(lookup(target) as LogEvent)
  if (key === null) return [target]
  return originals.filter((s) => {
    const e = lookup(s)
    return e !== undefined && isStepMember(e, key)
  }).sort((a, b) => a - b)
}
