/**
 * The `apply` action and the batch form of `plan`: a list of changes planned as a whole
 * (`planBatchOnView`, `view-plans.ts`) on the session's current view, then, for `apply`, written by the
 * session's one writer (`SessionAccess.write`: inside the agent's `runMaintenance`, or the
 * plugin's own hold of a stored session) in one synchronous block of appends followed by one
 * durability flush and one reply. Any refused change refuses the batch with nothing appended. A
 * batch with changes that take messages a compaction folded goes to `summary-batch.ts` (the
 * summary rewritten in the same step), and its `plan` says so (`summaryRewrite`, with the
 * estimated input tokens of the model call).
 *
 * Planning runs in slices ({@link runSliced}), so a batch of thousands of changes never holds the
 * host's event loop for more than one slice: other requests, this plugin's and the web host's,
 * are served between slices. `apply` plans inside the session's one writer on a view of the
 * session taken when the writer starts; when an event was appended meanwhile (a web host call
 * such as a rename may append while the agent is in maintenance), it plans again (twice at
 * most, then once in one piece), and appends synchronously after its last slice, so the plan it
 * writes is the plan of the session it writes to. Before planning it saves what the session
 * holds, so the batch is a durable write of its own ({@link startOwnFrame}).
 *
 * @module dsh-message-recall/host/batch-service
 */
import type { Session, SessionId } from '@deepseek-ai/dsh-session'
import type { ApplyValue, BatchPlanCounts, BatchPlanDetail, BatchPlanValue, PlannedWrite } from '../shared/protocol'
import { estimateBatchSteps, type BatchPlan } from './batch-plan'
import { appendBatch } from './batch-writer'
import { needsAgent, type Outcome } from './refusals'
import type { RemovalServices } from './removal-service'
import { runSessionWrite } from './session-write'
import { viewOfSession, type SessionView } from './session-view'
import { runSliced } from './time-slice'
import { planBatchOnView, planBatchOnViewSteps, type BatchIntent } from './view-plans'
import { applyWithRewrite, foldedIndexes, planMixedOnView } from './summary-batch'
import { contentOf } from '../shared/surface-node'
import type { LogEvent } from '../shared/events'
import { estimateTokens } from '../shared/token-estimate'

/** Plan in slices of the event loop ({@link runSliced}); the same result as `planBatchOnView` on the same view. */
function planInSlices(view: SessionView, request: BatchIntent): Promise<Outcome<BatchPlan>> {
  return runSliced(planBatchOnViewSteps(view, request))
}

/**
 * Save what the session holds before the batch, so the batch's events are the whole of the next
 * durable write: one zstd frame of their own (`dsh-session-persistence-jsonl` writes one frame
 * per write-behind batch, `SessionWriteBehind.startWrite`). A frame of at most one zstd block
 * (128 KiB of log text) is all or nothing across a torn write: DSH's loader recovers only the
 * complete blocks of a torn final frame (`readZstdPrefix`, `decompressZstdPrefix`), and a cut
 * block decodes to nothing. A failure here is left to the batch's own flush to report.
 */
async function startOwnFrame(services: RemovalServices, session: Session): Promise<void> {
  try {
    await services.sessions.flush(session)
  } catch {
    // The batch's flush retries and answers PERSIST_FAILED if the disk is still failing.
  }
}

/** How often `apply` plans in slices again when the session changed meanwhile, before it plans in one piece. */
const SLICED_ATTEMPTS = 3

/**
 * The writes of a batch `plan` as the reply shows them. A tombstone's `shadowedSeqs` are seqs the
 * session holds; an event the batch itself appends (its own earlier tombstone, or the copy a
 * restore of it puts back), which has no seq until it is written, is named instead by that
 * write's position in `writes`, in `shadowedWrites` (present only then).
 * @param view - the session's view the plan was made on.
 * @param writes - the planned writes, in write order (the answered `writes` start with them).
 * @param index - the request's change index of a planned write's change index (a sub-batch's
 *   indexes are its own).
 */
function plannedWrites(view: SessionView, writes: BatchPlan['writes'], index: (i: number) => number): PlannedWrite[] {
  // The planner gives the batch's own events virtual seqs from `nextSeq` on.
  const positionOf = new Map(writes.map((w, position) => [w.virtualSeq, position]))
  return writes.map((w) => {
    if (w.kind === 'restore') return { kind: 'restore', changeIndexes: w.changeIndexes.map(index), tombstoneSeq: w.tombstoneSeq, restoredSeq: w.originalSeq }
    const shadowedSeqs = w.shadowedSeqs.filter((seq) => seq < view.nextSeq)
    const shadowedWrites = w.shadowedSeqs.filter((seq) => seq >= view.nextSeq).map((seq) => positionOf.get(seq)!)
    return { kind: 'tombstone', changeIndexes: w.changeIndexes.map(index), action: w.action, shadowedSeqs, ...(shadowedWrites.length === 0 ? {} : { shadowedWrites }) }
  })
}

/** The planned writes with their tombstone and restore counts, as a batch `plan` value holds them. */
function writeCounts(writes: PlannedWrite[]): Pick<BatchPlanValue, 'writes' | 'tombstoneCount' | 'restoreCount'> {
  return {
    writes,
    tombstoneCount: writes.filter((w) => w.kind === 'tombstone').length,
    restoreCount: writes.filter((w) => w.kind === 'restore').length,
  }
}

/**
 * The batch `plan` of a batch with folded changes (`summary-batch.ts`): the current writes, the
 * tail of a folded Delete onward as one more tombstone, and `summaryRewrite` for the rewrite.
 */
async function previewMixed(view: SessionView, request: BatchIntent): Promise<Outcome<BatchPlanValue>> {
  const planned = planMixedOnView(view, request)
  if (!planned.ok) return planned
  const { current, folded, tail } = planned.value
  const writes = plannedWrites(view, current?.plan.writes ?? [], (i) => current!.indexes[i]!)
  if (tail !== null) {
    const onward = folded.indexes.filter((i) => request.changes[i]!.action === 'deleteFrom')
    writes.push({ kind: 'tombstone', changeIndexes: [...onward, ...tail.indexes].sort((a, b) => a - b), action: 'deleteFrom', shadowedSeqs: tail.range.shadowedSeqs })
  }
  const currentEstimate = current === null ? { estimatedTokens: 0, restoredTokens: 0 } : await runSliced(estimateBatchSteps(current.plan))
  const content = (seqs: readonly number[]) => seqs.map((seq) => contentOf(view.lookup(seq) as LogEvent))
  const tailRemoved = tail === null ? [] : tail.range.shadowedSeqs.filter((_, i) => tail.range.nodeKinds[i] !== 'tombstone')
  return {
    ok: true,
    value: {
      action: 'plan',
      ...writeCounts(writes),
      removedSeqs: planned.value.removedSeqs,
      restoredSeqs: current?.plan.restoredSeqs ?? [],
      estimatedTokens: currentEstimate.estimatedTokens + estimateTokens(content([...folded.plan.removedSeqs, ...tailRemoved])),
      restoredTokens: currentEstimate.restoredTokens,
      replaceGeneration: view.replaceGeneration,
      lastSeq: view.lastSeq,
      summaryRewrite: {
        checkpointSeq: folded.plan.checkpointSeq, removedSeqs: folded.plan.removedSeqs,
        inputMessages: folded.plan.keptSeqs.length, estimatedInputTokens: estimateTokens(content(folded.plan.keptSeqs)),
      },
    },
  }
}

/** The counts-only answer of a batch `plan` with folded changes (`detail: 'counts'`). */
function countsOfMixed(value: BatchPlanValue): BatchPlanCounts {
  const rewrite = value.summaryRewrite
  return {
    action: 'plan', detail: 'counts',
    tombstoneCount: value.tombstoneCount, restoreCount: value.restoreCount,
    removedCount: value.removedSeqs.length, restoredCount: value.restoredSeqs.length,
    replaceGeneration: value.replaceGeneration, lastSeq: value.lastSeq,
    ...(rewrite === undefined ? {} : {
      summaryRewrite: { checkpointSeq: rewrite.checkpointSeq, removedCount: rewrite.removedSeqs.length, inputMessages: rewrite.inputMessages, estimatedInputTokens: rewrite.estimatedInputTokens },
    }),
  }
}

/**
 * Apply a batch: plan it whole, then append every write (each replace with its shadow price and
 * title effects), flush once, answer once.
 * @param services - the removal services (queue, session access, index, tombstone text, effects).
 * @param request - the validated batch.
 * @param signal - aborts a summary rewrite's model call (the request was cancelled).
 * @returns `{ action: 'apply', results, replaceGeneration, persisted }` once durable, or a refusal:
 * a change's (with its index), `STALE_VIEW`, `SESSION_NOT_LIVE` (also, `reason: 'needs-agent'`, a
 * batch with folded changes on a session no agent drives) or `AGENT_BUSY`; nothing is
 * appended on any.
 * @throws {@link MessageRecallError} `PERSIST_FAILED` (`applied: true`) when every flush attempt
 * failed, `INTERNAL` when the Session refused an append.
 */
export async function applyChanges(services: RemovalServices, request: BatchIntent, signal?: AbortSignal): Promise<Outcome<ApplyValue>> {
  // Folded changes need the session's agent and a target off the surface: the common case costs one pass over the surface.
  const agent = services.agents.get(request.sessionId as SessionId)
  if (agent !== undefined && foldedIndexes(viewOfSession(agent.session, services.index.lookup(agent.session), 'agent'), request.changes).length > 0) {
    return applyWithRewrite({ ...services, summarizer: services.summarizer ?? (() => undefined) }, request, signal)
  }
  return runSessionWrite<ApplyValue>(
    services,
    request.sessionId,
    async (session, origin) => {
      let planned: Outcome<BatchPlan> | undefined
      for (let attempt = 0; attempt < SLICED_ATTEMPTS && planned === undefined; attempt++) {
        await startOwnFrame(services, session)
        const view = viewOfSession(session, services.index.lookup(session), origin)
        const sliced = await planInSlices(view, request)
        // Appended to meanwhile: the plan may be stale; plan again on the session as it is now.
        if (session.seq === view.nextSeq) planned = sliced
      }
      // From here to the last append nothing awaits: no other write can come between.
      const now = viewOfSession(session, services.index.lookup(session), origin)
      // Folded changes need a summary rewrite, which needs the session's agent (taken above when there is one).
      if (origin !== 'agent' && foldedIndexes(now, request.changes).length > 0) return { ok: false, refusal: needsAgent(request.sessionId) }
      planned ??= planBatchOnView(now, request)
      if (!planned.ok) return planned
      const effects = services.effects?.()
      const results = appendBatch(session, planned.value, request.changes, {
        tombstoneText: services.tombstoneText,
        lookup: () => services.index.lookup(session),
        ...(effects === undefined ? {} : { effects }),
      })
      return { ok: true, value: { action: 'apply', results, replaceGeneration: session.surface.replaceGeneration }, seq: session.seq - 1 }
    },
    {
      maintenance: true,
      precheck: async (view) => {
        // A stored session has no agent to write a summary with.
        if (foldedIndexes(view, request.changes).length > 0) return needsAgent(request.sessionId)
        const planned = await planInSlices(view, request)
        return planned.ok ? null : planned.refusal
      },
    },
  )
}

/**
 * Plan a batch without writing: what `apply` would write now, with counts and token estimates, or
 * with `detail: 'counts'` the counts alone (no writes, seqs or estimates are built or sent).
 * @param services - the session access (a stored session is read without entering it).
 * @param request - the validated batch, and how much of the plan to answer (default `writes`).
 * @returns the plan value (send `removedSeqs.length`, or `removedCount` of the counts, back as
 *   `expect.removedCount` with its view), or the same refusals `apply` would answer (except `AGENT_BUSY`).
 */
export async function previewChanges(services: Pick<RemovalServices, 'access'>, request: BatchIntent & { readonly detail?: BatchPlanDetail }): Promise<Outcome<BatchPlanValue | BatchPlanCounts>> {
  const read = await services.access.read(request.sessionId)
  if (!read.ok) return read
  const view = read.value
  // The surface's own plan first: it plans every change only when each targets the surface, so a
  // batch with folded changes is always refused here, and only then is the surface searched for them.
  const planned = await planInSlices(view, request)
  if (!planned.ok && foldedIndexes(view, request.changes).length > 0) {
    // As `apply` answers: only a session an agent drives can have its summary rewritten.
    if (view.origin !== 'agent') return { ok: false, refusal: needsAgent(request.sessionId) }
    const mixed = await previewMixed(view, request)
    if (!mixed.ok || request.detail !== 'counts') return mixed
    return { ok: true, value: countsOfMixed(mixed.value) }
  }
  if (!planned.ok) return planned
  const plan = planned.value
  if (request.detail === 'counts') {
    let tombstoneCount = 0
    for (const w of plan.writes) if (w.kind === 'tombstone') tombstoneCount++
    let removedCount = 0
    for (const seq of plan.removedSeqs) if (seq < view.nextSeq) removedCount++
    return {
      ok: true,
      value: {
        action: 'plan',
        detail: 'counts',
        tombstoneCount,
        restoreCount: plan.writes.length - tombstoneCount,
        removedCount,
        restoredCount: plan.restoredSeqs.length,
        replaceGeneration: view.replaceGeneration,
        lastSeq: view.lastSeq,
      },
    }
  }
  const estimate = await runSliced(estimateBatchSteps(plan))
  const writes = plannedWrites(view, plan.writes, (i) => i)
  return {
    ok: true,
    value: {
      action: 'plan',
      ...writeCounts(writes),
      removedSeqs: plan.removedSeqs.filter((seq) => seq < view.nextSeq),
      restoredSeqs: plan.restoredSeqs,
      ...estimate,
      replaceGeneration: view.replaceGeneration,
      lastSeq: view.lastSeq,
    },
  }
}
