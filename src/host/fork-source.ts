/**
 * The source of a `forkBefore`, read without writing to it. A live session (with or without an
 * agent) is read in memory through the event index; a session that is only stored is read from
 * its stored log with `SessionPersistence.readFrom(id, 0)` (`dsh-session-persistence`), a
 * detached physical read that publishes nothing and commits nothing. The source is never entered
 * into the session store: making a `Session` of a stored log appends `session/end-seed` to it
 * when the log does not already end with one (`dsh-session`, `Session` constructor), and a fork
 * must leave its source as it was, whether it succeeds or is refused.
 *
 * @module dsh-message-recall/host/fork-source
 */
import type { Agent } from '@deepseek-ai/dsh-agent'
import type { Session, SessionEvent, SessionHeader, SessionId } from '@deepseek-ai/dsh-session'
import type { LogEvent } from '../shared/events'
import type { SessionEventIndex } from './event-index'
import type { EventLookup } from './surface-plan'

/** The part of `ctx.sessionPersistence` (`dsh-session-persistence` `SessionPersistence`) a fork reads its source through. */
export interface StoredLogReader {
  /** Headers of every materialized session (`SessionPersistence.list`). */
  list(): Promise<readonly SessionHeader[]>
  /** The stored header and events from `fromSeq` on (`SessionPersistence.readFrom`). */
  readFrom(id: SessionId, fromSeq: number): Promise<{ readonly meta: SessionHeader; readonly events: readonly SessionEvent[] }>
}

/** What reading a fork's source reaches. */
export interface ForkSourceServices {
  readonly sessions: { get(id: SessionId): Session | undefined }
  readonly agents: { get(id: SessionId): Agent | undefined }
  readonly index: SessionEventIndex
  /** The persistence service when loaded, else `undefined` (read at call time). */
  readonly stored: () => StoredLogReader | undefined
}

/** A fork's source as read: its header and its log, live or stored. */
export interface ForkSource {
  readonly id: string
  readonly header: SessionHeader
  /** The log, contiguous from seq 0 (a live session's own array: read it before the next await). */
  readonly events: readonly SessionEvent[]
  readonly lookup: EventLookup
  /** `live`: the session is live in this process; `stored`: read from its stored log. */
  readonly origin: 'live' | 'stored'
}

/**
 * Read the source of a fork without writing to it.
 * @param services - see {@link ForkSourceServices}.
 * @param sessionId - the source session's id.
 * @returns the source, or `null` when the session is neither live in this process nor stored.
 * @throws the persistence service's errors when the stored log cannot be read.
 */
export async function readForkSource(services: ForkSourceServices, sessionId: string): Promise<ForkSource | null> {
  const id = sessionId as SessionId
  const live = services.agents.get(id)?.session ?? services.sessions.get(id)
  if (live !== undefined) return { id: sessionId, header: live.header, events: live.events, lookup: services.index.lookup(live), origin: 'live' }
  const stored = services.stored()
  if (stored === undefined || !(await stored.list()).some((header) => header.id === sessionId)) return null
  const { meta, events } = await stored.readFrom(id, 0)
  const log = events as readonly LogEvent[]
  return { id: sessionId, header: meta, events, lookup: (seq) => log[seq], origin: 'stored' }
}
