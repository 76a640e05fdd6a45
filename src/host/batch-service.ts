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
import type { ApplyValue, BatchPlanValue, PlannedWrite, ViewExpectation } from '../shared/protocol'
import { describePlanRefusal } from './surface-plan'
import { describeBatchRefusal, estimateBatch, planBatch, type BatchChange, type BatchPlan, type BatchRefusal } from './batch-plan'
import { appendBatch } from './batch-writer'
import type { BatchChangeRefusal, WriteRefusal } from './refusals'
import type { SessionReadView } from './stored-session'
import type { RemovalServices } from './removal-service'
import { runSessionWrite, type WriteOutcome } from './session-write'
import { checkExpectation } from './view-expectation'

/** A validated `apply`, or a `plan` with `changes`. */
export interface BatchRequest {
  readonly sessionId: string
  readonly changes: readonly BatchChange[]
  readonly expect?: ViewExpectation
}

function changeRefusal(refusal: BatchRefusal): BatchChangeRefusal {
  return { code: refusal.refusal.code, index: refusal.index, message: describeBatchRefusal(refusal, describePlanRefusal) }
}

function planOn(view: SessionReadView, request: BatchRequest): { ok: true; plan: BatchPlan } | { ok: false; refusal: WriteRefusal } {
  const stale = checkExpectation(view, request.expect, view.lookup)
  if (stale !== null) return { ok: false, refusal: stale }
  const planned = planBatch({ nodes: view.nodes, lookup: view.lookup, nextSeq: view.nextSeq, changes: request.changes })
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
 * Apply a batch: plan it whole, then append every write (each replace with its shadow price and
 * title effects), flush once, answer once.
 * @param services - the removal services (queue, session access, index, tombstone text, effects).
 * @param request - the validated batch.
 * @returns `{ action: 'apply', results, replaceGeneration, persisted }` once durable, or a refusal:
 * a change's (with its index), `STALE_VIEW`, `SESSION_NOT_LIVE` or `AGENT_BUSY`; nothing is
 * appended on any.
 * @throws {@link MessageRecallError} `PERSIST_FAILED` (`applied: true`) when every flush attempt
 * failed, `INTERNAL` when the Session refused an append.
 */
export function applyChanges(services: RemovalServices, request: BatchRequest): Promise<WriteOutcome<ApplyValue>> {
  return runSessionWrite<ApplyValue>(
    services,
    request.sessionId,
    (session) => {
      const planned = planOn(liveView(services, session), request)
      if (!planned.ok) return planned
      const effects = services.effects?.()
      const results = appendBatch(session, planned.plan, request.changes, {
        tombstoneText: services.tombstoneText,
        lookup: () => services.index.lookup(session),
        ...(effects === undefined ? {} : { effects }),
      })
      return { ok: true, value: { action: 'apply', results, replaceGeneration: session.surface.replaceGeneration }, seq: session.seq - 1 }
    },
    {
      maintenance: true,
      precheck: (view) => {
        const planned = planOn(view, request)
        return planned.ok ? null : planned.refusal
      },
    },
  )
}

/**
 * Plan a batch without writing: what `apply` would write now, with counts and token estimates.
 * @param services - the session access (a stored session is read without entering it).
 * @param request - the validated batch.
 * @returns the plan value, or the same refusals `apply` would answer (except `AGENT_BUSY`).
 */
export async function previewChanges(services: Pick<RemovalServices, 'access'>, request: BatchRequest): Promise<WriteOutcome<BatchPlanValue>> {
  const read = await services.access.read(request.sessionId)
  if (!read.ok) return read
  const view = read.value
  const planned = planOn(view, request)
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
      ...estimateBatch(plan),
      replaceGeneration: view.replaceGeneration,
      lastSeq: view.lastSeq,
    },
  }
}
