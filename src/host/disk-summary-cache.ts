/**
 * The stored-log half of `inspect` without a full read per call. A full read of a long log costs
 * tens of milliseconds and many parallel reads slow every other request, so the summary of each
 * stored log is kept keyed by the log's persistence revision, and a log is read again only when
 * that revision changed. The revision is the persistence service's own change token
 * (`SessionPersistence.listSnapshots`, `dsh-session-persistence`; for the JSONL backend the log
 * file's device, inode, size, mtime and ctime), which changes whenever the stored log changes.
 * Concurrent requests for one log share one read: never two full reads of one log at once.
 *
 * A log that is gone from its place (its folder removed, moved aside or replaced by a file) has
 * no stored summary: `null`, as for a session that was never stored, not an error (see
 * `stored-log-presence`). rc.8's JSONL listing itself fails then: a log moved aside inside the
 * sessions root no longer matches the path its header names (`dsh-session-persistence-jsonl`
 * `assertStoredIdentity`), and a file in the folder's place fails with `ENOTDIR`.
 *
 * @module dsh-message-recall/host/disk-summary-cache
 */
import type { SessionEvent, SessionHeader, SessionId } from '@deepseek-ai/dsh-session'
import type { LogEvent } from '../shared/events'
import type { LogSummary } from '../shared/protocol'
import { storedLogMissing, type LogPresenceProbe } from './stored-log-presence'

/** The part of `ctx.sessionPersistence` (`dsh-session-persistence`) the stored summary reads. */
export interface PersistenceReader extends LogPresenceProbe {
  /** Stored events from `fromSeq` on (`SessionPersistence.readFrom`). */
  readFrom(id: SessionId, fromSeq: number): Promise<{ events: readonly SessionEvent[] }>
  /** Headers of every materialized session (`SessionPersistence.list`). */
  list(): Promise<readonly StoredHeader[]>
  /** Headers with per-log change tokens, without loading logs (`SessionPersistence.listSnapshots`). */
  listSnapshots?(): Promise<readonly { readonly header: StoredHeader; readonly revision: string }[]>
}

/** The header fields the stored summary reads: the id, and a copy's `seedLength`. */
export interface StoredHeader {
  readonly id: string
  readonly seedLength?: number
}

interface Entry {
  readonly revision: string
  readonly summary: LogSummary
}

/** Counters, for tests and the bench. */
export interface DiskSummaryStats {
  /** Full reads of a stored log. */
  readonly reads: number
  /** Answers served from the cache. */
  readonly hits: number
  /** Answers that joined a read already running for the same log. */
  readonly joined: number
}

/** Stored-log summaries keyed by persistence revision, with one read in flight per log. */
export class DiskSummaryCache {
  private readonly entries = new Map<string, Entry>()
  private readonly inFlight = new Map<string, Promise<LogSummary>>()
  private counts = { reads: 0, hits: 0, joined: 0 }

  /** @param summarize - the summary of a stored log (`summarizeStored`). */
  constructor(private readonly summarize: (events: readonly LogEvent[], header?: StoredHeader) => LogSummary) {}

  /**
   * The summary of a stored log.
   * @param persistence - the persistence service.
   * @param sessionId - the session id.
   * @param header - the session's header when it is live (to find where its log belongs).
   * @returns the summary, or `null` when nothing is stored for that id or its log is gone from
   * its place.
   * @throws when the stored log is there but cannot be read or folded (the cache keeps nothing then).
   */
  async summary(persistence: PersistenceReader, sessionId: string, header?: SessionHeader): Promise<LogSummary | null> {
    try {
      return await this.read(persistence, sessionId)
    } catch (error) {
      if (await storedLogMissing(persistence, sessionId, header)) return this.forget(sessionId)
      throw error
    }
  }

  private async read(persistence: PersistenceReader, sessionId: string): Promise<LogSummary | null> {
    let revision: string | undefined
    let header: StoredHeader | undefined
    if (persistence.listSnapshots !== undefined) {
      const snapshot = (await persistence.listSnapshots()).find((entry) => entry.header.id === sessionId)
      if (snapshot === undefined) return this.forget(sessionId)
      revision = String(snapshot.revision)
      header = snapshot.header
      const cached = this.entries.get(sessionId)
      if (cached !== undefined && cached.revision === revision) {
        this.counts.hits++
        return cached.summary
      }
    } else {
      header = (await persistence.list()).find((stored) => stored.id === sessionId)
      if (header === undefined) return this.forget(sessionId)
    }
    const running = this.inFlight.get(sessionId)
    if (running !== undefined) {
      this.counts.joined++
      return running
    }
    const read = (async () => {
      this.counts.reads++
      const summary = this.summarize((await persistence.readFrom(sessionId as SessionId, 0)).events, header)
      // Keyed by the revision seen before the read: a write during the read changes the next revision.
      if (revision !== undefined) this.entries.set(sessionId, { revision, summary })
      return summary
    })()
    this.inFlight.set(sessionId, read)
    try {
      return await read
    } finally {
      this.inFlight.delete(sessionId)
    }
  }

  /** Counters since construction. */
  stats(): DiskSummaryStats {
    return { ...this.counts }
  }

  private forget(sessionId: string): null {
    this.entries.delete(sessionId)
    return null
  }
}
