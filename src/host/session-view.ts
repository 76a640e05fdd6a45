/**
 * The one view a planner reads: a session's surface nodes, `replaceGeneration`, last and next seq,
 * and one event by seq, live (a session object) or stored (a log folded without entering it). The
 * `plan` previews, the writers and the stored-session precheck all plan on one.
 *
 * @module dsh-message-recall/host/session-view
 */
import type { Session } from '@deepseek-ai/dsh-session'
import type { EventLookup } from './surface-plan'

/** Where a view or a write's session came from: a live agent's session, a live session without an agent, or a stored session. */
export type SessionOrigin = 'agent' | 'live' | 'stored'

/** A session's surface and log as a planner reads them. */
export interface SessionView {
  /** Surface node seqs in surface order. */
  readonly nodes: readonly number[]
  /** Committed replacements of the surface (`session.surface.replaceGeneration`). */
  readonly replaceGeneration: number
  /** Seq of the last event of the log, -1 for an empty log. */
  readonly lastSeq: number
  /** Seq the next appended event gets (`session.seq`; for a stored session, after the `session/end-seed` entering it appends). */
  readonly nextSeq: number
  /** One event by seq over the log. */
  readonly lookup: EventLookup
  readonly origin: SessionOrigin
}

/**
 * The view of a session object, for planning inside the synchronous block of a write: the nodes
 * are the surface's own list, not a copy, so the view holds only until the next append.
 * @param session - a live or entered session.
 * @param lookup - one event by seq over its current log.
 * @param origin - where the session came from.
 * @returns the view.
 */
export function viewOfSession(session: Session, lookup: EventLookup, origin: SessionOrigin): SessionView {
  return { nodes: session.surface.nodes, replaceGeneration: session.surface.replaceGeneration, lastSeq: session.seq - 1, nextSeq: session.seq, lookup, origin }
}

/**
 * A view of a session object that stays put while the session moves (its nodes copied), for a
 * read that outlives the synchronous block.
 * @param session - a live or entered session.
 * @param lookup - one event by seq over its current log.
 * @param origin - where the session came from.
 * @returns the view, with its own copy of the nodes.
 */
export function stableViewOfSession(session: Session, lookup: EventLookup, origin: SessionOrigin): SessionView {
  return { ...viewOfSession(session, lookup, origin), nodes: [...session.surface.nodes] }
}
