/**
 * Read-only summaries of a session's log for the `inspect` action: the live log (through the
 * event index, so no copy of the log is made per request) and the persisted log (through the
 * optional `sessionPersistence` service's `readFrom(id, 0)`, a detached physical read that adds
 * no synthetic closers and publishes nothing). Neither path appends.
 *
 * @module dsh-message-recall/host/inspect
 */
import { foldSurface, type Session, type SessionEvent, type SessionId } from '@deepseek-ai/dsh-session'
import type { LogEvent } from '../shared/events'
import type { InspectedTombstone, InspectValue, LogSummary } from '../shared/protocol'
import type { EventLookup } from './surface-plan'
import { readFates, replacementEvents } from '../shared/fate'
import { cutShortBatches } from '../shared/batch-mark'
import { readTombstone } from '../shared/tombstone'
import type { SessionEventIndex } from './event-index'
import type { DiskSummaryCache, PersistenceReader } from './disk-summary-cache'
import type { SessionNotLiveRefusal } from './refusals'

export type { PersistenceReader } from './disk-summary-cache'

function tombstonesOf(count: number, lookup: EventLookup, onSurface: (seq: number) => boolean): InspectedTombstone[] {
  const found: InspectedTombstone[] = []
  // In effect and restored by, from the one fate reader the chat, the editor and the panel read too.
  for (const status of readFates(replacementEvents(count, lookup)).statuses().values()) {
    const record = readTombstone(lookup(status.seq) as LogEvent)
    if (record !== null) found.push({ ...record, onSurface: onSurface(record.seq), inEffect: status.inEffect, restoredBy: status.restoredBy })
  }
  return found
}

/**
 * Summarize a live session.
 * @param session - a live session.
 * @param lookup - one event by seq over its current log.
 * @returns event count, last seq, surface size, `replaceGeneration`, and every tombstone of this plugin.
 */
export function summarizeLive(session: Session, lookup: EventLookup): LogSummary {
  const nodes = new Set(session.surface.nodes)
  return {
    eventCount: session.seq,
    lastSeq: session.seq - 1,
    surfaceNodeCount: nodes.size,
    replaceGeneration: session.surface.replaceGeneration,
    tombstones: tombstonesOf(session.seq, lookup, (seq) => nodes.has(seq)),
    cutShortBatches: cutShortBatches(session.seq, lookup, session.header.seedLength),
  }
}

/**
 * Summarize a stored log by replaying it through `foldSurface` (`dsh-session`).
 * @param events - the stored events, contiguous from seq 0.
 * @param header - the stored header, when read: a copy's `seedLength` leaves out a batch its seed ends inside.
 * @returns the summary; `replaceGeneration` is the number of replacements folded.
 * @throws when the stored log violates the surface rules (`foldSurface`'s errors).
 */
export function summarizeStored(events: readonly LogEvent[], header?: { readonly seedLength?: number }): LogSummary {
  const fold = foldSurface(events as readonly SessionEvent[])
  const nodes = new Set(fold.nodes)
  return {
    eventCount: events.length,
    lastSeq: events.length - 1,
    surfaceNodeCount: fold.nodes.length,
    replaceGeneration: fold.replacements.length,
    tombstones: tombstonesOf(events.length, (seq) => events[seq], (seq) => nodes.has(seq)),
    cutShortBatches: cutShortBatches(events.length, (seq) => events[seq], header?.seedLength),
  }
}

/**
 * Inspect a session live and on disk.
 * @param services - the live store, the event index, the persistence service when loaded, and
 * the stored-summary cache.
 * @param sessionId - the session id.
 * @returns `{ live, disk }` (`null` where unavailable: not live in this process, no persistence
 * service, nothing stored yet, or the stored log gone from its place), or `SESSION_NOT_LIVE` when
 * both are unavailable.
 * @throws when the stored log is there but cannot be read or folded.
 */
export async function inspectSession(
  services: { sessions: { get(id: SessionId): Session | undefined }; index: SessionEventIndex; persistence: PersistenceReader | undefined; diskSummaries: DiskSummaryCache },
  sessionId: string,
): Promise<{ ok: true; value: InspectValue } | { ok: false; refusal: SessionNotLiveRefusal }> {
  const id = sessionId as SessionId
  const session = services.sessions.get(id)
  const live = session === undefined ? null : summarizeLive(session, services.index.lookup(session))
  const disk = services.persistence === undefined ? null : await services.diskSummaries.summary(services.persistence, sessionId, session?.header)
  if (live === null && disk === null) return { ok: false, refusal: { code: 'SESSION_NOT_LIVE', sessionId } }
  return { ok: true, value: { live, disk } }
}
