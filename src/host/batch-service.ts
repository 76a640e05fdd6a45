/**
 * The `apply` action and the batch form of `plan`: a list of changes planned as a whole
 * (`planBatchOnView`, `view-plans.ts`) on the session's current view, then, for `apply`, written by the
 * session's one writer (`SessionAccess.write`: inside the agent's `runMaintenance`, or the
 * plugin's own hold of a stored session) in one synchronous block of appends followed by one
 * durability flush and one reply. Any refused change refuses the batch with nothing appended. A
 * batch with changes that take messages a compaction folded goes to `summary-batch.ts` (the
 * summary rewritten in the same step).
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
import type { ApplyValue, BatchPlanValue, PlannedWrite } from '../shared/protocol'
import { estimateBatchSteps, type BatchPlan } from './batch-plan'
import { appendBatch } from './batch-writer'
import { needsAgent, type Outcome } from './refusals'
import type { RemovalServices } from './removal-service'
import { runSessionWrite } from './session-write'
import { viewOfSession, type SessionView } from './session-view'
import { runSliced } from './time-slice'
import { planBatchOnView, planBatchOnViewSteps, type BatchIntent } from './view-plans'

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
import { applyWithRewrite, foldedIndexes } from './summary-batch'

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
  // Folded changes need the session's agent and a target off the surface: the common case costs one look at the surface.
  const agent = services.agents.get(request.sessionId as SessionId)
  const surface = agent === undefined ? null : new Set(agent.session.surface.nodes)
  const offSurface = surface !== null && request.changes.some((change) => 'seq' in change && !surface.has(change.seq))
  if (agent !== undefined && offSurface && foldedIndexes(viewOfSession(agent.session, services.index.lookup(agent.session), 'agent'), request.changes).length > 0) {
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
        if (foldedIndexes(view, request.changes).length > 0) return needsAgent(request.sessionId)
        const planned = await planInSlices(view, request)
        return planned.ok ? null : planned.refusal
      },
    },
  )
}

/**
 * Plan a batch without writing: what `apply` would write now, with counts and token estimates.
 * @param services - the session access (a stored session is read without entering it).
 * @param request - the validated batch.
 * @returns the plan value (send `removedSeqs.length` back as `expect.removedCount` with its view),
 *   or the same refusals `apply` would answer (except `AGENT_BUSY`).
 */
export async function previewChanges(services: Pick<RemovalServices, 'access'>, request: BatchIntent): Promise<Outcome<BatchPlanValue>> {
  const read = await services.access.read(request.sessionId)
  if (!read.ok) return read
  const view = read.value
  const planned = await planInSlices(view, request)
  if (!planned.ok) return planned
  const plan = planned.value
  const estimate = await runSliced(estimateBatchSteps(plan))
  const real = (seq: number): number | null => (seq < view.nextSeq ? seq : null)
  const writes: PlannedWrite[] = plan.writes.map((w) => w.kind === 'tombstone'
    ? { kind: 'tombstone', changeIndexes: w.changeIndexes, action: w.action, shadowedSeqs: w.shadowedSeqs.map(real) }
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
      ...estimate,
      replaceGeneration: view.replaceGeneration,
      lastSeq: view.lastSeq,
    },
  }
}
