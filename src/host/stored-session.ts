/**
 * How every write path reaches the session it writes, live or only stored.
 *
 * - A session with a live agent is written inside `agent.runMaintenance`, which excludes turns,
 *   manual compaction and other maintenance (`dsh-agent-loop`, `ReactLoopAgent.runMaintenance`);
 *   a busy agent answers `AGENT_BUSY`.
 * - A live session without an agent is written directly.
 * - A session that exists only in the host's session persistence is entered by the plugin itself,
 *   the way the agent loop resumes one but without creating an agent (`dsh-agent-loop`,
 *   `AgentLoop.resumeWith` / `setupAndPublish`): `sessionPersistence.prepare(id)` →
 *   `sessions.enter(session)` → `sessions.announce(session)` → release the preparation → the
 *   write (which flushes) → detach. Entering a stored session appends `session/end-seed` when the
 *   log does not end with one (`dsh-session`, `Session` constructor), as every cold open does.
 *   While the plugin holds it, the session is live in the store, so `sessionPersistence.prepare`
 *   refuses a concurrent resume (`cannot prepare session "<id>" while it is live`): no agent ever
 *   writes alongside. When the session becomes live while the plugin prepares it, the preparation
 *   is dropped and the write goes through the live path above (waits for an idle agent's
 *   maintenance slot, or answers `AGENT_BUSY`).
 * - Writes of this plugin to one held stored session share the hold; the last one detaches it.
 *   The detach emits `session/disposed`, which the rc.8 web host sends every open page as a
 *   session removal (`dsh-host-apiproxy`, `host/session-removed`); rc.8 has no way to end a hold
 *   without it (only an announced session is retired by the persistence service, and announcing
 *   is what the page is told about), so the plugin's client pulls the page's session list again
 *   when an entry leaves it (`client/open-session`, `relistDroppedSessions`).
 *
 * rc.8 has no writer lock across processes: only the host process that owns the DSH home may
 * write a session (two writers corrupt the log with a seq gap).
 *
 * Reads (`plan`) of a stored session use `sessionPersistence.inspect(id)`, which commits and
 * publishes nothing.
 *
 * @module dsh-message-recall/host/stored-session
 */
import type { Agent } from '@deepseek-ai/dsh-agent'
import { foldSurface, type Session, type SessionEvent, type SessionId, type SessionPreparation } from '@deepseek-ai/dsh-session'
import type { LogEvent } from '../shared/events'
import type { EventLookup } from './surface-plan'
import { errorText } from '../shared/error-text'
import type { AgentBusyRefusal, SessionNotLiveRefusal } from './refusals'
import { stableViewOfSession, type SessionOrigin, type SessionView } from './session-view'

/** The part of `ctx.sessionPersistence` (`dsh-session-persistence`, `SessionPersistence`) used here. */
export interface StoredSessionSource {
  /** Headers of every materialized session (`SessionPersistence.list`). */
  list(): Promise<readonly { readonly id: string }[]>
  /** The unpublished Session a resume would use (`SessionPersistence.prepare`). */
  prepare(id: SessionId): Promise<SessionPreparation>
  /** An immutable view of the stored log (`SessionPersistence.inspect`). */
  inspect(id: SessionId): Promise<{ readonly events: readonly SessionEvent[] }>
}

/** What the access layer reaches (structural views of `ctx.sessions`, `ctx.agents`, `ctx.sessionPersistence`). */
export interface SessionAccessServices {
  readonly sessions: {
    get(id: SessionId): Session | undefined
    enter(session: Session): () => void
    announce(session: Session): void
  }
  readonly agents: { get(id: SessionId): Agent | undefined }
  /** One event by seq over a live session's current log (the plugin's event index). */
  lookup(session: Session): EventLookup
  /** The persistence service when one is loaded, else `undefined` (read at call time). */
  persistence(): StoredSessionSource | undefined
}

/** Refusals of the access layer itself. */
export type AccessRefusal = SessionNotLiveRefusal | AgentBusyRefusal

/** A task's outcome: its value, or a refusal of the task's own kind. */
export type AccessOutcome<T, R> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly refusal: R }

interface Hold {
  readonly session: Session
  users: number
  /** Detaches the session from the store, once (later calls do nothing). */
  readonly detach: () => void
}

/** A detach disposer that runs once. */
function once(detach: () => void): () => void {
  let done = false
  return () => {
    if (done) return
    done = true
    detach()
  }
}

/** One writer per session: the live agent's maintenance slot, or the plugin's own hold of a stored session. */
export class SessionAccess {
  private readonly holds = new Map<string, Hold>()
  private readonly entering = new Map<string, Promise<Hold | 'live' | 'absent'>>()

  /** @param services - sessions, agents and the optional persistence service. */
  constructor(private readonly services: SessionAccessServices) {}

  /**
   * Run a write task as the one writer of a session.
   * @param sessionId - the session id.
   * @param task - plans, appends and flushes; gets the session and where it came from. It must not
   *   hold the session past its returned promise.
   * @param precheck - for a stored session, run first on its stored log (nothing entered yet): a
   *   refusal it returns is answered without entering the session, so nothing is appended.
   * @returns the task's outcome, or `SESSION_NOT_LIVE` (neither live nor stored) or `AGENT_BUSY`
   *   (the agent has active work); nothing is appended on a refusal of this layer.
   * @throws what the task throws, and the persistence service's errors other than a concurrent
   *   resume (a stored log that cannot be read, for instance).
   */
  async write<T, R>(
    sessionId: string,
    task: (session: Session, origin: SessionOrigin) => Promise<AccessOutcome<T, R>>,
    precheck?: (view: SessionView) => R | null,
  ): Promise<AccessOutcome<T, R | AccessRefusal>> {
    return this.reach(sessionId, () => this.runLive(sessionId as SessionId, task), task, precheck)
  }

  /** The live path when there is one, else the stored session entered for `task` (retried when it became live meanwhile). */
  private async reach<T, R>(
    sessionId: string,
    live: () => Promise<AccessOutcome<T, R | AccessRefusal>> | undefined,
    task: (session: Session, origin: SessionOrigin) => Promise<AccessOutcome<T, R>>,
    precheck?: (view: SessionView) => R | null,
  ): Promise<AccessOutcome<T, R | AccessRefusal>> {
    const id = sessionId as SessionId
    for (let attempt = 0; ; attempt++) {
      const running = live()
      if (running !== undefined) return running
      if (precheck !== undefined && !this.holds.has(sessionId) && !this.entering.has(sessionId)) {
        // Entering a stored session appends `session/end-seed`: refuse bad input before that.
        const read = await this.read(sessionId)
        if (!read.ok) return read
        if (read.value.origin !== 'stored') continue
        const refusal = precheck(read.value)
        if (refusal !== null) return { ok: false, refusal }
      }
      const held = await this.hold(id)
      if (held === 'absent') return { ok: false, refusal: { code: 'SESSION_NOT_LIVE', sessionId } }
      if (held === 'live') {
        if (attempt < 2) continue
        return { ok: false, refusal: { code: 'AGENT_BUSY', sessionId, detail: `session "${sessionId}" became live while it was being opened` } }
      }
      try {
        return await task(held.session, 'stored')
      } finally {
        this.release(id, held)
      }
    }
  }

  /**
   * A read-only view for planning: the live session's surface, or the stored log folded.
   * @param sessionId - the session id.
   * @returns the view, or `SESSION_NOT_LIVE` when the session is neither live nor stored.
   * @throws the persistence service's read errors, or `foldSurface`'s on a log that breaks the surface rules.
   */
  async read(sessionId: string): Promise<AccessOutcome<SessionView, SessionNotLiveRefusal>> {
    const id = sessionId as SessionId
    const agent = this.services.agents.get(id)
    const session = agent?.session ?? this.services.sessions.get(id)
    if (session !== undefined) {
      return { ok: true, value: stableViewOfSession(session, this.services.lookup(session), agent !== undefined ? 'agent' : this.holds.has(sessionId) ? 'stored' : 'live') }
    }
    const persistence = this.services.persistence()
    if (persistence === undefined || !(await isStored(persistence, sessionId))) return { ok: false, refusal: { code: 'SESSION_NOT_LIVE', sessionId } }
    const { events } = await persistence.inspect(id)
    const fold = foldSurface(events)
    const log = events as readonly LogEvent[]
    // Entering the session appends `session/end-seed` unless the log already ends with one.
    const nextSeq = log.length + (log.at(-1)?.type === 'session/end-seed' ? 0 : 1)
    return {
      ok: true,
      value: { nodes: fold.nodes, replaceGeneration: fold.replacements.length, lastSeq: log.length - 1, nextSeq, lookup: (seq) => log[seq], origin: 'stored' },
    }
  }

  /** The live path, or `undefined` when the session is not live in this process. */
  private runLive<T, R>(id: SessionId, task: (session: Session, origin: SessionOrigin) => Promise<AccessOutcome<T, R>>): Promise<AccessOutcome<T, R | AccessRefusal>> | undefined {
    const agent = this.services.agents.get(id)
    if (agent !== undefined) {
      try {
        // rc.8 signals "busy" only by this synchronous throw (no code, no subclass).
        return agent.runMaintenance(() => task(agent.session, 'agent'))
      } catch (error) {
        return Promise.resolve({ ok: false, refusal: { code: 'AGENT_BUSY', sessionId: id, detail: errorText(error) } })
      }
    }
    const held = this.holds.get(id)
    if (held !== undefined) {
      held.users++
      return task(held.session, 'stored').finally(() => this.release(id, held))
    }
    const session = this.services.sessions.get(id)
    return session === undefined ? undefined : task(session, 'live')
  }

  /** Enter a stored session (or join the hold in progress). */
  private async hold(id: SessionId): Promise<Hold | 'live' | 'absent'> {
    const existing = this.holds.get(id)
    if (existing !== undefined) {
      existing.users++
      return existing
    }
    const pending = this.entering.get(id)
    if (pending !== undefined) {
      const result = await pending
      if (typeof result === 'string') return result
      result.users++
      return result
    }
    const entering = this.enter(id)
    this.entering.set(id, entering)
    try {
      return await entering
    } finally {
      this.entering.delete(id)
    }
  }

  private async enter(id: SessionId): Promise<Hold | 'live' | 'absent'> {
    const persistence = this.services.persistence()
    if (persistence === undefined || !(await isStored(persistence, id))) return 'absent'
    if (this.isLive(id)) return 'live'
    let preparation: SessionPreparation
    try {
      preparation = await persistence.prepare(id)
    } catch (error) {
      if (this.isLive(id)) return 'live'
      throw error
    }
    try {
      if (this.isLive(id)) return 'live'
      const session = preparation.session
      const detach = this.services.sessions.enter(session)
      try {
        this.services.sessions.announce(session)
      } catch (error) {
        detach()
        throw error
      }
      const hold: Hold = { session, users: 1, detach: once(detach) }
      this.holds.set(id, hold)
      return hold
    } finally {
      preparation[Symbol.dispose]()
    }
  }

  /**
   * Let go of every stored session this access still holds (when the plugin unloads mid-write):
   * each is detached from the store, so a later resume can prepare it again.
   */
  dispose(): void {
    for (const [id, hold] of [...this.holds]) {
      this.holds.delete(id)
      hold.detach()
    }
  }

  private isLive(id: SessionId): boolean {
    return this.services.agents.get(id) !== undefined || this.services.sessions.get(id) !== undefined
  }

  private release(id: string, hold: Hold): void {
    if (--hold.users > 0) return
    if (this.holds.get(id) === hold) this.holds.delete(id)
    hold.detach()
  }
}

async function isStored(persistence: StoredSessionSource, sessionId: string): Promise<boolean> {
  return (await persistence.list()).some((header) => header.id === sessionId)
}
