/**
 * The `apply` action and the batch form of `plan`: a list of changes planned as a whole
 * ({@link planBatch}) against the session's current surface, then, for `apply`, written by the
 * session's one writer (`SessionAccess.write`: inside the agent's `runMaintenance`, or the
 * plugin's own hold of a stored session) in one synchronous block of appends followed by one
 * durability flush and one reply. Any refused change refuses the batch with nothing appended.
 *
 * @module dsh-message-recall/host/batch-service
 */
import type { Session } from '@deepseek-ai/dsh-session'
import type { ApplyValue, BatchPlanValue, ErrorCode, PlannedWrite, ViewExpectation } from '../shared/protocol'
import { describePlanRefusal } from './surface-plan'
import { describeBatchRefusal, planBatch, type BatchChange, type BatchPlan, type BatchRefusal, type RestorePlanner } from './batch-plan'
import { appendBatch, type BeforeReplace } from './batch-writer'
import { describeRefusal, type WriteRefusal } from './refusals'
import type { SessionReadView } from './stored-session'
import { flushWrite, type RemovalServices } from './removal-service'
import { checkExpectation } from './tombstone-writer'

/** A validated `apply`, or a `plan` with `changes`. */
export interface BatchRequest {
  readonly sessionId: string
  readonly changes: readonly BatchChange[]
  readonly expect?: ViewExpectation
}

/** A refused change of a batch, as the route answers it: the change's code, its index and the message. */
export interface BatchChangeRefusal {
  readonly code: ErrorCode
  readonly index: number
  readonly message: string
}

/** Refusal of a batch: one change refused, or the session-level refusals (`SESSION_NOT_LIVE`, `AGENT_BUSY`, `STALE_VIEW`). */
export type BatchOutcome<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly refusal: BatchChangeRefusal | WriteRefusal }

/** What the batch service reaches besides the writer's services. */
export interface BatchServices extends RemovalServices {
  /** In-place restore planning, when available. */
  readonly restore?: RestorePlanner
  /** Called right before each replace is appended (the shadow price, when a token meter is loaded). */
  readonly beforeReplace?: BeforeReplace
}

/**
 * The message of a refusal of the batch route: a change's, or a session-level one.
 * @param refusal - a {@link BatchChangeRefusal} or a {@link WriteRefusal}.
 * @returns the one-line English message.
 */
export function describeBatchOutcomeRefusal(refusal: BatchChangeRefusal | WriteRefusal): string {
  return 'index' in refusal && 'message' in refusal ? refusal.message : describeRefusal(refusal as WriteRefusal)
}

function changeRefusal(refusal: BatchRefusal): BatchChangeRefusal {
  return { code: refusal.refusal.code, index: refusal.index, message: describeBatchRefusal(refusal, describePlanRefusal) }
}

function planOn(view: SessionReadView, request: BatchRequest, restore: RestorePlanner | undefined): { ok: true; plan: BatchPlan } | { ok: false; refusal: BatchChangeRefusal | WriteRefusal } {
  const stale = checkExpectation(view, request.expect)
  if (stale !== null) return { ok: false, refusal: stale }
  const planned = planBatch({ nodes: view.nodes, lookup: view.lookup, nextSeq: view.nextSeq, changes: request.changes, ...(restore ? { restore } : {}) })
  return planned.ok ? planned : { ok: false, refusal: changeRefusal(planned.refusal) }
}

function liveView(services: RemovalServices, session: Session): SessionReadView {
  return {
    // planBatch copies the nodes before simulating; nothing appends while it runs.
    nodes: session.surface.nodes, replaceGeneration: session.surface.replaceGeneration, lastSeq: session.seq - 1, nextSeq: session.seq,
    lookup: services.index.lookup(session), origin: 'live',
  }
}

/**
 * Apply a batch: plan it whole, then append every write, flush once, answer once.
 * @param services - the writer's services, optional restore planning and shadow price.
 * @param request - the validated batch.
 * @returns `{ action: 'apply', results, replaceGeneration }` once durable, or a refusal: a change's
 * (with its index), `STALE_VIEW`, `SESSION_NOT_LIVE` or `AGENT_BUSY`; nothing is appended on any.
 * @throws {@link MessageRecallError} `PERSIST_FAILED` when the flush rejected, `INTERNAL` when the
 * Session refused an append.
 */
export async function applyChanges(services: BatchServices, request: BatchRequest): Promise<BatchOutcome<ApplyValue>> {
  return services.access.write(
    request.sessionId,
    async (session) => {
      const planned = planOn(liveView(services, session), request, services.restore)
      if (!planned.ok) return planned
      const results = appendBatch(session, planned.plan, request.changes, {
        tombstoneText: services.tombstoneText,
        ...(services.beforeReplace ? { beforeReplace: services.beforeReplace } : {}),
      })
      const seqs = [...new Set(results.map((r) => r.restoredSeq ?? r.tombstoneSeq))]
      await flushWrite(services, session, `batch seqs ${seqs.join(', ')}`)
      return { ok: true, value: { action: 'apply', results, replaceGeneration: session.surface.replaceGeneration } }
    },
    (view) => {
      const planned = planOn(view, request, services.restore)
      return planned.ok ? null : planned.refusal
    },
  )
}

/**
 * Plan a batch without writing: what `apply` would write now, with counts and token estimates.
 * @param services - the session access, optional restore planning.
 * @param request - the validated batch.
 * @returns the plan value, or the same refusals `apply` would answer (except `AGENT_BUSY`).
 */
export async function previewChanges(services: Pick<BatchServices, 'access' | 'restore'>, request: BatchRequest): Promise<BatchOutcome<BatchPlanValue>> {
  const read = await services.access.read(request.sessionId)
  if (!read.ok) return read
  const view = read.value
  const planned = planOn(view, request, services.restore)
  if (!planned.ok) return planned
  const { plan } = planned
  const real = (seq: number): number | null => (seq < view.nextSeq ? seq : null)
  const writes: PlannedWrite[] = plan.writes.map((w) => w.kind === 'tombstone'
    ? { kind: 'tombstone', changeIndexes: w.changeIndexes, action: w.action, removedSeqs: w.shadowedSeqs.map(real) }
    : { kind: 'restore', changeIndexes: w.changeIndexes, tombstoneSeq: w.tombstoneSeq, restoredSeq: w.originalSeq })
  return {
    ok: true,
    value: {
      action: 'plan',
      writes,
      tombstoneCount: writes.filter((w) => w.kind === 'tombstone').length,
      restoreCount: writes.filter((w) => w.kind === 'restore').length,
      removedSeqs: plan.removedSeqs.filter((seq) => seq < view.nextSeq),
      restoredSeqs: plan.restoredSeqs,
      estimatedTokens: plan.estimatedTokens,
      restoredTokens: plan.restoredTokens,
      replaceGeneration: view.replaceGeneration,
      lastSeq: view.lastSeq,
    },
  }
}
