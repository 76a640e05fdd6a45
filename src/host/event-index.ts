/**
 * One event by seq, cheaply, for the write path. DSH 0.1.0-rc.8's `Session` has no public
 * accessor for a single event: `session.events` is the only read, and its first read after an
 * append copies the whole log (`dsh-session`, `Session.events`: `eventsSnapshot ??=
 * Object.freeze([...this.log])`). So this index copies the log once per session, on first use,
 * and then grows by the events the plugin observes on `session/event` (post-commit, synchronous,
 * emitted by `Session.append` in `dsh-session`). A session whose events are not observed (a detached session,
 * or one created before the listener existed and appended to since) is re-read only when the
 * index's length disagrees with `session.seq`.
 *
 * @module dsh-message-recall/host/event-index
 */
import type { LogEvent } from '../shared/events'
import type { EventLookup } from './surface-plan'

/** The part of a DSH `Session` the index reads. */
export interface IndexedSession {
  /** The next event's seq (the log length). */
  readonly seq: number
  /** Immutable snapshot of the whole log. */
  readonly events: readonly LogEvent[]
}

interface Entry {
  /** The snapshot read from `session.events`. */
  readonly base: readonly LogEvent[]
  /** Events observed since, in seq order, starting at seq `base.length`. */
  readonly tail: LogEvent[]
}

/** A per-session seq → event index kept current by observed appends. */
export class SessionEventIndex {
  private readonly entries = new WeakMap<IndexedSession, Entry>()

  /**
   * Record an appended event (call from a `session/event` listener).
   * @param session - the session that appended.
   * @param event - the logged event; ignored when the session is not indexed yet, and the
   * entry is dropped (re-read on next use) when the event does not continue it.
   */
  observe(session: IndexedSession, event: LogEvent): void {
    const entry = this.entries.get(session)
    if (entry === undefined) return
    if (event.seq === entry.base.length + entry.tail.length) entry.tail.push(event)
    else this.entries.delete(session)
  }

  /**
   * Forget a session (call from `session/disposed`).
   * @param session - the session to drop.
   */
  forget(session: IndexedSession): void {
    this.entries.delete(session)
  }

  /**
   * A lookup over the session's current log.
   * @param session - the session to read.
   * @returns `seq => event`, valid until the session's next append; O(1) per call. Reads
   * `session.events` (one copy of the log) only when the index is absent or out of step.
   */
  lookup(session: IndexedSession): EventLookup {
    let entry = this.entries.get(session)
    if (entry === undefined || entry.base.length + entry.tail.length !== session.seq) {
      entry = { base: session.events, tail: [] }
      this.entries.set(session, entry)
    }
    const { base, tail } = entry
    return (seq) => (seq < base.length ? base[seq] : tail[seq - base.length])
  }
}
