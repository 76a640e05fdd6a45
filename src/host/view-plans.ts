/**
 * One "plan on a view" per planner: check the client's `expect` against the view, plan, and, for a
 * confirmed write, check that the plan still removes what was confirmed. The `plan` previews, the
 * writers (on the view of the session they append to) and the stored-session precheck (on the
 * stored log, before the plugin enters the session) all plan through these, so the three never
 * disagree.
 *
 * @module dsh-message-recall/host/view-plans
 */
import { removalPlanning, type TombstoneAction } from '../shared/actions'
import type { ViewExpectation } from '../shared/protocol'
import { describeBatchRefusal, planBatchSteps, type BatchChange, type BatchPlan } from './batch-plan'
import type { BatchChangeRefusal, Outcome } from './refusals'
import { planRestore, type RestorePlan } from './restore-plan'
import type { SessionView } from './session-view'
import { describePlanRefusal, planRemoval, type PlanTarget, type RemovalPlan } from './surface-plan'
import { checkConfirmed, checkExpectation } from './view-expectation'

/** A removal (or an exclusion) addressed to a session: the action, its target and the client's view, if it sent one. */
export interface RemovalIntent {
  readonly sessionId: string
  readonly action: TombstoneAction
  readonly target: PlanTarget
  readonly expect?: ViewExpectation
}

/** A restore addressed to a session: the tombstone to undo and the client's view, if it sent one. */
export interface RestoreIntent {
  readonly sessionId: string
  readonly tombstoneSeq: number
  readonly expect?: ViewExpectation
}

/** A batch addressed to a session (`apply`, or `plan` with `changes`). */
export interface BatchIntent {
  readonly sessionId: string
  readonly changes: readonly BatchChange[]
  readonly expect?: ViewExpectation
}

/**
 * Plan a removal on a view.
 * @param view - the session's view (live or stored).
 * @param intent - action, target and optional expectation.
 * @returns the plan, or `STALE_VIEW` (the view moved, or a confirmed plan changed) or a planner refusal.
 * @throws when the surface and the lookup disagree (corrupt surface).
 */
export function planRemovalOnView(view: SessionView, intent: Omit<RemovalIntent, 'sessionId'>): Outcome<RemovalPlan> {
  const stale = checkExpectation(view, intent.expect)
  if (stale !== null) return { ok: false, refusal: stale }
  const planned = planRemoval({ nodes: view.nodes, lookup: view.lookup, planning: removalPlanning(intent.action), target: intent.target })
  if (!planned.ok) return planned
  const removed = planned.plan.shadowedSeqs.filter((_, i) => planned.plan.nodeKinds[i] !== 'tombstone')
  const changed = checkConfirmed(view, intent.expect, removed, planned.plan.shadowedSeqs)
  return changed === null ? { ok: true, value: planned.plan } : { ok: false, refusal: changed }
}

/**
 * Plan a restore on a view. A restore removes nothing, so a confirmed count never refuses it.
 * @param view - the session's view (live or stored).
 * @param intent - the tombstone seq and optional expectation.
 * @returns the plan, or `STALE_VIEW`, `TARGET_NOT_FOUND` or `NOT_RESTORABLE`.
 * @throws when a shadowed seq has no event (corrupt log).
 */
export function planRestoreOnView(view: SessionView, intent: Omit<RestoreIntent, 'sessionId'>): Outcome<RestorePlan> {
  const stale = checkExpectation(view, intent.expect)
  if (stale !== null) return { ok: false, refusal: stale }
  const planned = planRestore({ nodes: view.nodes, lookup: view.lookup, tombstoneSeq: intent.tombstoneSeq })
  return planned.ok ? { ok: true, value: planned.plan } : planned
}

/**
 * Plan a batch on a view.
 * @param view - the session's view (live or stored); the batch's own events get seqs from `view.nextSeq`.
 * @param intent - the changes and optional expectation.
 * @returns the plan, or `STALE_VIEW` or the first refused change (its code, index and message).
 * @throws when a surface node has no event (corrupt surface).
 */
export function planBatchOnView(view: SessionView, intent: Omit<BatchIntent, 'sessionId'>): Outcome<BatchPlan> {
  const steps = planBatchOnViewSteps(view, intent)
  for (;;) {
    const step = steps.next()
    if (step.done) return step.value
  }
}

/**
 * {@link planBatchOnView} as steps that yield between changes, for a caller that plans in slices
 * of the event loop (`time-slice.ts` `runSliced`); the same result on the same view.
 * @param view - the session's view; it must not change while the steps run (the caller checks).
 * @param intent - the changes and optional expectation.
 * @returns a generator whose return value is the plan or the refusal.
 */
export function* planBatchOnViewSteps(view: SessionView, intent: Omit<BatchIntent, 'sessionId'>): Generator<void, Outcome<BatchPlan>, void> {
  const stale = checkExpectation(view, intent.expect)
  if (stale !== null) return { ok: false, refusal: stale }
  const planned = yield* planBatchSteps({ nodes: view.nodes, lookup: view.lookup, nextSeq: view.nextSeq, changes: intent.changes })
  if (!planned.ok) {
    const refusal: BatchChangeRefusal = { code: planned.refusal.refusal.code, index: planned.refusal.index, message: describeBatchRefusal(planned.refusal, describePlanRefusal) }
    return { ok: false, refusal }
  }
  // Only a confirmed write (`expect.removedCount`) has a count to check.
  const changed = intent.expect?.removedCount === undefined ? null : checkConfirmed(view, intent.expect, planned.plan.removedSeqs.filter((seq) => seq < view.nextSeq), takenByBatch(planned.plan, view.nextSeq))
  return changed === null ? { ok: true, value: planned.plan } : { ok: false, refusal: changed }
}

/**
 * The nodes of the current log a batch's tombstones shadow, the log's tombstones they take in
 * included (for `view-expectation.ts` `checkConfirmed`).
 * @param plan - a batch plan.
 * @param nextSeq - the first seq the batch writes; seqs from it on are the batch's own.
 * @returns the seqs, in write order.
 */
export function takenByBatch(plan: BatchPlan, nextSeq: number): number[] {
  return plan.writes.flatMap((w) => (w.kind === 'tombstone' ? w.shadowedSeqs.filter((seq) => seq < nextSeq) : []))
}
