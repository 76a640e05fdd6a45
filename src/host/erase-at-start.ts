/**
 * Erase for good of a session the host holds open, carried out when the host next starts. rc.8
 * gives a plugin no way to let go of a session the host keeps in memory (the web host resumes an
 * agent and keeps it until it stops), so `erase` with `when: 'next-start'`:
 * 1. checks the removal as `erase` does, on the stored log once the session's pending events are
 *    flushed (`log/log-erase.ts` `eraseRemovalInLog`, nothing written: `NOT_ERASABLE` with
 *    `NOT_A_TOMBSTONE`, `EXCLUSION`, `NOT_IN_EFFECT` or `ALREADY_ERASED`), inside the session's
 *    write queue, so no write of this plugin interleaves;
 * 2. keeps a pending erase in the plugin's file (`pending-erases.ts`) and answers once that file is
 *    durable; a second request for the same removal answers the pending record kept, and a request
 *    for a removal whose erase failed at a start is checked afresh and replaces the failed record
 *    with a pending one (the panel's **Try again at next start**).
 * {@link planErase} (`plan` with `planAction: 'erase'`) makes the same check and answers the counts
 * alone, for the confirmation, with the other sessions that hold the same messages (its copies,
 * the sessions it was copied from and their other copies: `erase-copies.ts`). While it is pending, `restore` and `forkBefore` of that removal answer `ERASE_PENDING`
 * ({@link pendingEraseRefusal}); `cancelErase` drops it.
 * When the plugin starts and the session persistence is there, {@link runPendingErases} runs each
 * through `erase-session.ts` `eraseRemoval` (which holds the session as every stored write does,
 * so a page resuming it meanwhile waits or is refused, never interleaves): done or no longer
 * possible (restored, erased already, session gone) is dropped with a log line; a session open
 * already (a page got there first) is kept pending for the next start; a failed verification or
 * a thrown error is kept as `failed` with why (the erase path leaves nothing half-done) and is not
 * run again until it is asked for again ({@link scheduleErase}) or cancelled; a failed one whose
 * session is gone (neither stored nor asked for again) is dropped at start with a log line, as a
 * pending one is. An erase carried out now ({@link eraseNow}, the route's `erase`) drops the
 * pending or failed record of that removal once the log is replaced, so nothing waits for an erase
 * that happened.
 *
 * @module dsh-message-recall/host/erase-at-start
 */
import type { Session, SessionHeader } from '@deepseek-ai/dsh-session'
import type { CancelEraseValue, ErasePlanValue, PendingEraseValue, PendingErasesValue, ScheduledEraseValue } from '../shared/protocol'
import { eraseRemovalInLog } from '../log/log-erase'
import { errorText, withoutPrefix } from '../shared/error-text'
import { eraseRemoval, notErasable, type EraseRefusal, type EraseServices } from './erase-session'
import type { PendingErase, PendingErases } from './pending-erases'
import { shortenPaths } from './shorten-paths'
import { erasePlanCopies } from './erase-copies'
import { noSessionMessage } from './refusals'

/** What scheduling reaches: the erase's services, the session open in the host, the pending file. */
export interface EraseLaterServices {
  readonly erase: EraseServices
  /** The session open in the host (an agent's, or a live one), or `undefined`. */
  open(sessionId: string): Session | undefined
  readonly pending: PendingErases
  /** The headers of every session, stored (the plugin's stored listing) or live, each id once: where {@link planErase} finds the sessions that hold the same messages. */
  headers(): Promise<readonly SessionHeader[]>
}

/** `restore` and `forkBefore` of a removal with a pending erase. */
export interface ErasePendingRefusal {
  readonly code: 'ERASE_PENDING'
  readonly message: string
}

/**
 * The answer shape of a pending erase.
 * @param record - the kept record.
 * @returns its route value.
 */
export function pendingEraseValue(record: PendingErase): PendingEraseValue {
  return {
    tombstoneSeq: record.tombstoneSeq,
    scheduledAt: record.scheduledAt,
    messageCount: record.messageSeqs.length,
    imageCount: record.imageCount,
    fileCount: record.fileCount,
    state: record.state,
    ...(record.problem === undefined ? {} : { problem: record.problem }),
  }
}

/**
 * Keep an erase of one removal for the host's next start (see the module doc).
 * @param services - the erase's services, the open session and the pending file.
 * @param request - the session and the removal's tombstone seq.
 * @returns the record kept (the earlier pending one for a second request; a failed one is
 *   checked afresh and replaced by a pending one with the time and counts of now), or a refusal
 *   with nothing written (a failed record stays as it was): `NOT_ERASABLE` (with its reason), `SESSION_NOT_LIVE` (no stored log of that id),
 *   `AGENT_BUSY` (this plugin's earlier writes did not finish in 2 s), `ERASE_UNAVAILABLE`.
 * @throws file system errors of the pending file (nothing kept).
 */
export async function scheduleErase(services: EraseLaterServices, request: { readonly sessionId: string; readonly tombstoneSeq: number }): Promise<{ readonly ok: true; readonly value: ScheduledEraseValue } | { readonly ok: false; readonly refusal: EraseRefusal }> {
  const { sessionId, tombstoneSeq } = request
  const earlier = await services.pending.get(sessionId, tombstoneSeq)
  if (earlier?.state === 'pending') return { ok: true, value: { action: 'erase', when: 'next-start', erase: pendingEraseValue(earlier) } }
  // None kept, or a failed one: checked afresh, then kept pending (a failed record replaced).
  return checkErase(services, request, async (record) => ({ action: 'erase', when: 'next-start', erase: pendingEraseValue(await services.pending.add(record)) }))
}

/**
 * What an erase of one removal would take, as the confirmation shows it (`plan` with
 * `planAction: 'erase'`): checked as {@link scheduleErase} checks it, nothing written.
 * @param services - the erase's services and the open session.
 * @param request - the session and the removal's tombstone seq.
 * @returns the counts and the related sessions that hold the same messages (each with its own removal of
 *   them, or none), or the same refusals as {@link scheduleErase}.
 * @throws file system errors of the logs' reads and the listing.
 */
export async function planErase(services: Omit<EraseLaterServices, 'pending'>, request: { readonly sessionId: string; readonly tombstoneSeq: number }): Promise<{ readonly ok: true; readonly value: ErasePlanValue } | { readonly ok: false; readonly refusal: EraseRefusal }> {
  const checked = await checkErase(services, request, async (record) => record)
  if (!checked.ok) return checked
  const record = checked.value
  const backend = services.erase.backend()!
  // After the session's queue: each related session is read on its own, an open one flushed first.
  const copies = await erasePlanCopies({
    headers: () => services.headers(),
    readRaw: async (id) => (await backend.readRaw(id).catch(() => undefined))?.content,
    isOpen: (id) => services.open(id) !== undefined,
    flush: async (id) => {
      const open = services.open(id)
      if (open !== undefined) await services.erase.sessions.flush(open)
    },
  }, request.sessionId, record.messageSeqs)
  return { ok: true, value: {
    action: 'plan', planAction: 'erase', tombstoneSeq: record.tombstoneSeq, messageCount: record.messageSeqs.length, imageCount: record.imageCount, fileCount: record.fileCount, copies,
  } }
}

/** The check both share: inside the session's write queue, the open session flushed, the stored log read and rewritten in memory; `then` gets the record it would keep. */
async function checkErase<V>(services: Omit<EraseLaterServices, 'pending'>, request: { readonly sessionId: string; readonly tombstoneSeq: number }, then: (record: PendingErase) => Promise<V>): Promise<{ readonly ok: true; readonly value: V } | { readonly ok: false; readonly refusal: EraseRefusal }> {
  const backend = services.erase.backend()
  if (backend === undefined) return { ok: false, refusal: { code: 'ERASE_UNAVAILABLE', message: 'message-recall: erase needs DSH\'s JSONL session persistence' } }
  const { sessionId, tombstoneSeq } = request
  const queued = await services.erase.queue.run(sessionId, async () => {
    const open = services.open(sessionId)
    if (open !== undefined) await services.erase.sessions.flush(open)
    const raw = await backend.readRaw(sessionId).catch(() => undefined)
    if (raw === undefined) {
      // Not stored: an id neither open nor stored reads as on every other action.
      const message = open === undefined ? noSessionMessage(sessionId) : `message-recall: session "${sessionId}" has no stored log to erase from`
      return { ok: false as const, refusal: { code: 'SESSION_NOT_LIVE' as const, message } }
    }
    const scheduledAt = (services.erase.now?.() ?? new Date()).toISOString()
    const checked = eraseRemovalInLog(raw.content, tombstoneSeq, scheduledAt)
    if (!checked.ok) return { ok: false as const, refusal: notErasable(checked.code, tombstoneSeq) }
    const value = await then({
      sessionId, tombstoneSeq, scheduledAt, messageSeqs: checked.value.messageSeqs,
      imageCount: checked.value.erasedImages.length, fileCount: checked.value.erasedFiles.length, state: 'pending',
    })
    return { ok: true as const, value }
  })
  if (!queued.ok) return { ok: false, refusal: { code: 'AGENT_BUSY', message: `message-recall: session "${sessionId}" is busy with ${queued.ahead} earlier write(s)` } }
  return queued.value
}

/** `cancelErase` and `pendingErases` of an id that is neither open in the host nor stored. */
export interface UnknownSessionRefusal {
  readonly code: 'SESSION_NOT_LIVE'
  readonly message: string
}

/**
 * `SESSION_NOT_LIVE` for an id that is neither open in the host nor stored, as every other action
 * answers it; `null` for a session that is (open first: the Removed panel asks about an open one).
 */
async function unknownSession(services: Pick<EraseLaterServices, 'open' | 'erase'>, sessionId: string): Promise<UnknownSessionRefusal | null> {
  if (services.open(sessionId) !== undefined || (await services.erase.access.isStored(sessionId))) return null
  return { code: 'SESSION_NOT_LIVE', message: noSessionMessage(sessionId) }
}

/**
 * Drop the pending erase of one removal (a failed one too). The pending file is read first: a
 * record of a session deleted since (a failed one is never run again) is dropped all the same.
 * @param services - the pending file, the open session and the erase's session access.
 * @param request - the session and the removal's tombstone seq.
 * @returns whether one was there (`cancelled: false` for a session, open or stored, without one);
 *   once it answers, the file no longer holds it; `SESSION_NOT_LIVE` for an id with no such
 *   record that is neither open nor stored.
 * @throws file system errors of the pending file, the persistence service's listing errors.
 */
export async function cancelErase(services: Pick<EraseLaterServices, 'pending' | 'open' | 'erase'>, request: { readonly sessionId: string; readonly tombstoneSeq: number }): Promise<{ readonly ok: true; readonly value: CancelEraseValue } | { readonly ok: false; readonly refusal: UnknownSessionRefusal }> {
  // A record is dropped whether or not its session still exists; only without one is the id checked.
  const cancelled = await services.pending.update(request.sessionId, request.tombstoneSeq, undefined)
  if (!cancelled) {
    const unknown = await unknownSession(services, request.sessionId)
    if (unknown !== null) return { ok: false, refusal: unknown }
  }
  return { ok: true, value: { action: 'cancelErase', tombstoneSeq: request.tombstoneSeq, cancelled } }
}

/**
 * A session's pending erases.
 * @param services - the pending file, the open session and the erase's session access.
 * @param sessionId - the session.
 * @returns them in the order they were asked for (none for a session, open or stored, without
 *   any), or `SESSION_NOT_LIVE` for an id neither open nor stored.
 * @throws file system errors of the pending file, the persistence service's listing errors.
 */
export async function listPendingErases(services: Pick<EraseLaterServices, 'pending' | 'open' | 'erase'>, sessionId: string): Promise<{ readonly ok: true; readonly value: PendingErasesValue } | { readonly ok: false; readonly refusal: UnknownSessionRefusal }> {
  const unknown = await unknownSession(services, sessionId)
  if (unknown !== null) return { ok: false, refusal: unknown }
  return { ok: true, value: { action: 'pendingErases', erases: (await services.pending.all()).filter((e) => e.sessionId === sessionId).map(pendingEraseValue) } }
}

/**
 * The refusal of a `restore` or `forkBefore` of a removal with a pending erase.
 * @param pending - the pending file.
 * @param sessionId - the session.
 * @param tombstoneSeq - the tombstone the request addresses.
 * @returns `ERASE_PENDING`, or `null` when no erase of it is pending.
 */
export async function pendingEraseRefusal(pending: PendingErases, sessionId: string, tombstoneSeq: number): Promise<ErasePendingRefusal | null> {
  const record = await pending.get(sessionId, tombstoneSeq)
  if (record === undefined) return null
  return { code: 'ERASE_PENDING', message: record.state === 'failed'
    ? `message-recall: an erase for good of removal ${tombstoneSeq} failed at the host's start and is kept; try it again or cancel it (cancelErase) to restore it`
    : `message-recall: removal ${tombstoneSeq} is to be erased for good when the host next starts; cancel the erase (cancelErase) to restore it or open a copy from before it` }
}

/**
 * Erase one removal now (`erase-session.ts` {@link eraseRemoval}) and then drop its pending or
 * failed record, if any: the erase happened, so nothing waits for it at the next start, the panel
 * no longer shows it pending, and `restore` or a new request no longer answers from the record.
 * @param services - the erase's services and the pending file.
 * @param request - the session and the removal's tombstone seq.
 * @returns the erase's outcome, as {@link eraseRemoval}; on success the pending file no longer
 *   holds the removal (durable) when it answers.
 * @throws as {@link eraseRemoval}, and the pending file's errors (the log is erased already then).
 */
export async function eraseNow(services: Pick<EraseLaterServices, 'erase' | 'pending'>, request: { readonly sessionId: string; readonly tombstoneSeq: number }): ReturnType<typeof eraseRemoval> {
  const erased = await eraseRemoval(services.erase, request)
  if (erased.ok) await services.pending.update(request.sessionId, request.tombstoneSeq, undefined)
  return erased
}

/** What one pending erase came to at start. */
export interface StartRun {
  readonly sessionId: string
  readonly tombstoneSeq: number
  /** `erased`; `dropped` (restored, erased already, no longer a removal, or the session is gone); `kept` (open or busy: next start); `failed`. */
  readonly outcome: 'erased' | 'dropped' | 'kept' | 'failed'
  readonly detail: string
}

/**
 * Run every pending erase through the erase path, one at a time (see the module doc).
 * @param services - the erase's services and the pending file.
 * @param log - where each outcome is reported (the plugin's logger), one line each, with the outcome.
 * @returns what each came to, in order.
 * @throws only the pending file's errors (each erase's own error is kept as `failed`).
 */
export async function runPendingErases(services: Pick<EraseLaterServices, 'erase' | 'pending'>, log: (line: string, outcome: StartRun['outcome']) => void): Promise<StartRun[]> {
  const runs: StartRun[] = []
  for (const record of await services.pending.all()) {
    const { sessionId, tombstoneSeq } = record
    let run: StartRun
    if (record.state !== 'pending') {
      // A failed one waits to be asked for again, unless its session is gone: then it never can be.
      if (await services.erase.access.isStored(sessionId).catch(() => true)) continue
      run = { sessionId, tombstoneSeq, outcome: 'dropped', detail: noSessionMessage(sessionId) }
    } else {
      run = await eraseOnce(services, sessionId, tombstoneSeq)
    }
    const detail = shortenPaths(run.detail)
    if (run.outcome === 'erased' || run.outcome === 'dropped') await services.pending.update(sessionId, tombstoneSeq, undefined)
    else if (run.outcome === 'failed') await services.pending.update(sessionId, tombstoneSeq, { ...record, state: 'failed', problem: detail })
    log(`message-recall: pending erase of removal ${tombstoneSeq} of session "${sessionId}": ${run.outcome}: ${withoutPrefix(detail)}`, run.outcome)
    runs.push({ ...run, detail })
  }
  return runs
}

/** One pending erase run through the erase path: what it came to (see {@link runPendingErases}). */
async function eraseOnce(services: Pick<EraseLaterServices, 'erase'>, sessionId: string, tombstoneSeq: number): Promise<StartRun> {
  try {
    const erased = await eraseRemoval(services.erase, { sessionId, tombstoneSeq })
    if (erased.ok) {
      return { sessionId, tombstoneSeq, outcome: 'erased', detail: `${erased.value.messageSeqs.length} message(s), ${erased.value.rewrittenEvents} event(s) rewritten, ${erased.value.deletedImages.length} image(s) and ${erased.value.deletedFiles.length} file(s) deleted` }
    }
    const refusal = erased.refusal
    const reason = 'reason' in refusal ? refusal.reason : undefined
    if (refusal.code === 'SESSION_NOT_LIVE' || (refusal.code === 'NOT_ERASABLE' && reason !== 'session-open')) return { sessionId, tombstoneSeq, outcome: 'dropped', detail: refusal.message }
    if (refusal.code === 'AGENT_BUSY' || reason === 'session-open') return { sessionId, tombstoneSeq, outcome: 'kept', detail: refusal.message }
    return { sessionId, tombstoneSeq, outcome: 'failed', detail: refusal.message }
  } catch (error) {
    return { sessionId, tombstoneSeq, outcome: 'failed', detail: `message-recall: ${errorText(error)}` }
  }
}
