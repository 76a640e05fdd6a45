/**
 * How every write path reaches the session it writes, live or only stored.
 *
 * - A session with a live agent is written inside `agent.runMaintenance`, which excludes turns,
 *   manual compaction and other maintenance (`dsh-agent-loop`, `ReactLoopAgent.runMaintenance`);
 *   a busy agent answers `AGENT_BUSY`.
 * - A live session without an agent is written directly.
 * - A session that exists only in the host's session persistence is entered by the plugin itself,
 *   the way the agent loop resumes one but without creating an agent (`dsh-agent-loop`,
 *   `AgentLoop.resumeWith` / `setupAndPublish`): seal the seed → `sessionPersistence.prepare(id)` →
 *   `sessions.enter(session)` → `sessions.announce(session)` → release the preparation → the
 *   write (which flushes) → a last flush → detach. Entering a stored session appends
 *   `session/end-seed` when the log does not end with one (`dsh-session`, `Session` constructor),
 *   as every cold open does; the plugin first writes that marker to the stored log itself
 *   (`sessionPersistence.append`), so the session it enters has nothing of its own to persist. In
 *   rc.8 the persistence writes such a marker once, when the session enters the store
 *   (`dsh-session-persistence`, `PersistenceCoordinator.attachPrepared`); when that one write
 *   fails, every later flush of that Session object fails with it and the id cannot be resumed
 *   again in this process. A marker the plugin cannot write refuses the write with nothing
 *   appended (`PERSIST_FAILED`, `applied: false`).
 * - A stored session is let go only once it is saved. When the last flush of a held stored
 *   session fails (the write answered `PERSIST_FAILED` with `applied: true`), the plugin keeps it
 *   in the store, retries the flush on its own (after 1, 2, 4, 8 and then every 15 s) and lets it
 *   go after the first flush that succeeds; Save again (`flush`) or any later write to it saves
 *   it and lets it go at once. Detaching an unsaved session would lose the write (rc.8 retires a
 *   detached session with one flush, `PersistenceCoordinator.retire`, and a failed retirement
 *   keeps the id owned until the host restarts).
 * - While the plugin holds a stored session, it is live in the store, so `sessionPersistence.prepare`
 *   refuses a concurrent resume (`cannot prepare session "<id>" while it is live`): no agent ever
 *   writes alongside. When the session becomes live while the plugin prepares it, the preparation
 *   is dropped and the write goes through the live path above (waits for an idle agent's
 *   maintenance slot, or answers `AGENT_BUSY`).
 * - Writes of this plugin to one held stored session share the hold; the last one detaches it.
 *   The detach emits `session/disposed`, which the rc.8 web host sends every open page as a
 *   session removal (`dsh-host-apiproxy`, `host/session-removed`); rc.8 has no way to end a hold
 *   without it (only an announced session is retired by the persistence service, and announcing
 *   is what the page is told about), so the plugin's client holds such a removal back until a pull
 *   of the page's session list says the session is gone (`client/open-session`,
 *   `keepStoredSessionsListed`), and pulls the list again when an entry leaves it anyway
 *   (`relistDroppedSessions`).
 *
 * rc.8 has no writer lock across processes: only the host process that owns the DSH home may
 * write a session (two writers corrupt the log with a seq gap).
 *
 * Reads (`plan`) of a stored session use `sessionPersistence.inspect(id)`, which commits and
 * publishes nothing. The stored sessions are listed (`sessionPersistence.list`, which reads the
 * header of every stored log) only when a read fails, to tell an id that was never stored
 * (`SESSION_NOT_LIVE`) from a stored log that cannot be read (the read's error). Entering reads
 * the log once more through `inspect`, which rc.8 answers from the preparation the first read
 * left while the log's revision is unchanged (`dsh-session-persistence`,
 * `PersistenceCoordinator.inspect`).
 *
 * @module dsh-message-recall/host/stored-session
 */
import type { Agent } from '@deepseek-ai/dsh-agent'
import { foldSurface, type Session, type SessionEvent, type SessionId, type SessionPreparation } from '@deepseek-ai/dsh-session'
import type { LogEvent } from '../shared/events'
import type { EventLookup } from './surface-plan'
import { errorText } from '../shared/error-text'
import { flushWithRetry } from './durable-flush'
import { MessageRecallError, type AgentBusyRefusal, type SessionNotLiveRefusal } from './refusals'
import { stableViewOfSession, type SessionOrigin, type SessionView } from './session-view'

/** The part of `ctx.sessionPersistence` (`dsh-session-persistence`, `SessionPersistence`) used here. */
export interface StoredSessionSource {
  /** Headers of every materialized session (`SessionPersistence.list`). */
  list(): Promise<readonly { readonly id: string }[]>
  /** The unpublished Session a resume would use (`SessionPersistence.prepare`). */
  prepare(id: SessionId): Promise<SessionPreparation>
  /** An immutable view of the stored log (`SessionPersistence.inspect`). */
  inspect(id: SessionId): Promise<{ readonly events: readonly SessionEvent[] }>
  /**
   * Durably append events to a stored session that is not live (`SessionPersistence.append`): the
   * first seq must be the stored next seq; rejects when the write fails, nothing appended.
   */
  append(id: SessionId, events: readonly SessionEvent[]): Promise<void>
}

/** A stored log as `SessionPersistence.inspect` reads it. */
type StoredLog = { readonly events: readonly SessionEvent[] }

/** What the access layer reaches (structural views of `ctx.sessions`, `ctx.agents`, `ctx.sessionPersistence`). */
export interface SessionAccessServices {
  readonly sessions: {
    get(id: SessionId): Session | undefined
    enter(session: Session): () => void
    announce(session: Session): void
    /** The durability flush (`SessionStore.flush`): resolves once the session's log is on disk, rejects when it is not. */
    flush(session: Session): Promise<boolean>
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
  /** The pending retry of the flush of a hold whose last flush failed (the hold stays until one succeeds). */
  retry?: ReturnType<typeof setTimeout>
  /** How many retries of that flush ran. */
  retries: number
}

/** Waits before each retry of an unsaved stored session's flush, in ms; the last repeats. */
export const UNSAVED_RETRY_MS: readonly number[] = Object.freeze([1000, 2000, 4000, 8000, 15_000])

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
    precheck?: (view: SessionView) => R | null | Promise<R | null>,
  ): Promise<AccessOutcome<T, R | AccessRefusal>> {
    return this.reach(sessionId, () => this.runLive(sessionId as SessionId, task), task, precheck)
  }

  /** The live path when there is one, else the stored session entered for `task` (retried when it became live meanwhile). */
  private async reach<T, R>(
    sessionId: string,
    live: () => Promise<AccessOutcome<T, R | AccessRefusal>> | undefined,
    task: (session: Session, origin: SessionOrigin) => Promise<AccessOutcome<T, R>>,
    precheck?: (view: SessionView) => R | null | Promise<R | null>,
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
        const refusal = await precheck(read.value)
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
        await this.release(id, held)
      }
    }
  }

  /**
   * Whether the session persistence holds a session with this id (`list`).
   * @param sessionId - the session id.
   * @returns false without a persistence service.
   */
  async isStored(sessionId: string): Promise<boolean> {
    const persistence = this.services.persistence()
    return persistence !== undefined && (await isStored(persistence, sessionId))
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
    if (persistence === undefined) return { ok: false, refusal: { code: 'SESSION_NOT_LIVE', sessionId } }
    let events: readonly SessionEvent[]
    try {
      ;({ events } = await persistence.inspect(id))
    } catch (error) {
      // Listed only when the read fails: a read of a stored log needs no listing of every log first.
      if (!(await isStored(persistence, sessionId))) return { ok: false, refusal: { code: 'SESSION_NOT_LIVE', sessionId } }
      throw error
    }
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
    const held = this.join(id, (session) => task(session, 'stored'))
    if (held !== undefined) return held
    const session = this.services.sessions.get(id)
    return session === undefined ? undefined : task(session, 'live')
  }

  /**
   * Run a task on a stored session this access holds (for instance one whose last save failed),
   * sharing the hold: when the task ends, the session is flushed and let go if it was the last
   * user and the flush succeeded.
   * @param sessionId - the session id.
   * @param task - gets the held session; must not hold it past its returned promise.
   * @returns the task's promise, or `undefined` when this access holds no such session.
   */
  join<T>(sessionId: string, task: (session: Session) => Promise<T>): Promise<T> | undefined {
    const held = this.holds.get(sessionId)
    if (held === undefined) return undefined
    held.users++
    return task(held.session).finally(() => this.release(sessionId, held))
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
    if (persistence === undefined) return 'absent'
    if (this.isLive(id)) return 'live'
    let stored: StoredLog
    try {
      stored = await persistence.inspect(id)
    } catch (error) {
      if (this.isLive(id)) return 'live'
      // Listed only when the read fails, as in `read`.
      if (!(await isStored(persistence, id))) return 'absent'
      throw error
    }
    if ((await this.sealSeed(persistence, id, stored)) === 'live') return 'live'
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
      const hold: Hold = { session, users: 1, detach: once(detach), retries: 0 }
      this.holds.set(id, hold)
      return hold
    } finally {
      preparation[Symbol.dispose]()
    }
  }

  /**
   * Write the `session/end-seed` that entering a stored session would append, durably, before
   * entering it, unless the stored log already ends with one. The write is retried like a flush.
   * @param stored - the stored log as `inspect` just read it.
   * @returns `'live'` when the session became live meanwhile (nothing written), else `'sealed'`.
   * @throws {@link MessageRecallError} `PERSIST_FAILED` with `applied: false` when every attempt failed.
   */
  private async sealSeed(persistence: StoredSessionSource, id: SessionId, { events }: StoredLog): Promise<'sealed' | 'live'> {
    if (events.at(-1)?.type === 'session/end-seed') return 'sealed'
    if (this.isLive(id)) return 'live'
    // The same event the Session constructor appends to a seed (`dsh-session`, `Session`).
    const seal = { type: 'session/end-seed', seq: events.length, time: Date.now(), data: {} } as SessionEvent
    const written = await flushWithRetry(async () => {
      if (this.isLive(id)) return false
      await persistence.append(id, [seal])
      return true
    })
    if (written.ok) return written.persisted ? 'sealed' : 'live'
    if (this.isLive(id)) return 'live'
    throw new MessageRecallError(
      'PERSIST_FAILED',
      `message-recall: session "${id}" was not changed: its stored log could not be opened for the write, writing its session/end-seed failed ${written.attempts} times: ${written.reason}`,
      { cause: written.error, details: { applied: false } },
    )
  }

  /**
   * Let go of every stored session this access still holds (when the plugin unloads mid-write):
   * each is detached from the store, so a later resume can prepare it again; rc.8 flushes a
   * detached session once more as it retires it, and the persistence service flushes every
   * session still in its care when it stops.
   */
  dispose(): void {
    for (const [id, hold] of [...this.holds]) {
      this.holds.delete(id)
      if (hold.retry !== undefined) clearTimeout(hold.retry)
      hold.detach()
    }
  }

  private isLive(id: SessionId): boolean {
    return this.services.agents.get(id) !== undefined || this.services.sessions.get(id) !== undefined
  }

  /** One user fewer; the last one flushes the session and lets it go, or keeps it unsaved and retries later. */
  private async release(id: string, hold: Hold): Promise<void> {
    if (--hold.users > 0) return
    if (this.holds.get(id) !== hold) return
    let saved = true
    try {
      await this.services.sessions.flush(hold.session)
    } catch {
      saved = false
    }
    // Another write may have joined while the flush ran; the last user decides.
    if (hold.users > 0 || this.holds.get(id) !== hold) return
    if (!saved && this.services.sessions.get(id as SessionId) === hold.session) {
      this.scheduleRetry(id, hold)
      return
    }
    if (hold.retry !== undefined) clearTimeout(hold.retry)
    this.holds.delete(id)
    hold.detach()
  }

  /** Retry an unsaved hold's flush after the next wait of {@link UNSAVED_RETRY_MS}. */
  private scheduleRetry(id: string, hold: Hold): void {
    if (hold.retry !== undefined) return
    const wait = UNSAVED_RETRY_MS[Math.min(hold.retries, UNSAVED_RETRY_MS.length - 1)]!
    hold.retry = setTimeout(() => {
      hold.retry = undefined
      hold.retries++
      if (this.holds.get(id) !== hold || hold.users > 0) return
      hold.users++
      void this.release(id, hold)
    }, wait)
    hold.retry.unref?.()
  }
}

/** Whether the persistence service lists the session (`SessionPersistence.list`: reads the header of every stored log). */
async function isStored(persistence: StoredSessionSource, sessionId: string): Promise<boolean> {
  return (await persistence.list()).some((header) => header.id === sessionId)
}
