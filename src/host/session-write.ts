/**
 * How every write of this plugin reaches its session: wait for this plugin's earlier writes to the
 * same session ({@link WriteQueue}), then as the session's one writer ({@link SessionAccess}: the
 * agent's maintenance slot when an agent drives it, `agent.runMaintenance` in `dsh-agent-loop`,
 * which excludes turns, manual compaction and other maintenance; or the plugin's own hold of a
 * stored session that is not live) run the synchronous append block, and answer only after the
 * durability flush ({@link flushWithRetry}). Independent of HTTP.
 *
 * @module dsh-message-recall/host/session-write
 */
import type { Agent } from '@deepseek-ai/dsh-agent'
import type { Session, SessionId } from '@deepseek-ai/dsh-session'
import type { FlushValue, WriteValue } from '../shared/protocol'
import { flushWithRetry, type FlushRetryPolicy } from './durable-flush'
import { MessageRecallError, type Outcome, type WriteRefusal } from './refusals'
import type { SessionAccess } from './stored-session'
import type { SessionOrigin, SessionView } from './session-view'
import { queueBusy, type WriteQueue } from './write-queue'

/**
 * What the synchronous block of a write answers: the value without `persisted` (this module alone
 * sets it, from the durability flush), or a refusal.
 */
export type AppendResult<V> =
  | {
      readonly ok: true
      readonly value: Omit<V, 'persisted'>
      /** Seq of the event the value is about (for messages). */
      readonly seq: number
      /** Recall only: what the error body carries when the flush fails. */
      readonly recalled?: { readonly content: readonly unknown[]; readonly text: string }
    }
  | { readonly ok: false; readonly refusal: WriteRefusal }

/** The services a write reaches (structural views of `ctx.sessions` and `ctx.agents`). */
export interface SessionWriteServices {
  readonly sessions: { get(id: SessionId): Session | undefined; flush(session: Session): Promise<boolean> }
  readonly agents: { get(id: SessionId): Agent | undefined }
  readonly queue: WriteQueue
  /** The one writer per session: live agent, live session, or a stored session entered for the write. */
  readonly access: SessionAccess
  /** Flush retries; default {@link DEFAULT_FLUSH_RETRY}. */
  readonly flushRetry?: FlushRetryPolicy
  /**
   * Runs right after a block that appended (same synchronous block, before the flush), with the
   * first seq it appended: the side state that follows the conversation (`./side-state`).
   */
  readonly afterAppend?: (session: Session, fromSeq: number) => void
}

/** Options of {@link runSessionWrite}. */
export interface SessionWriteOptions {
  /** `false` for a write that appends nothing (`flush`): live sessions only, no maintenance slot. */
  readonly maintenance: boolean
  /**
   * For a stored session, the same planning on its stored log before the plugin enters it (which
   * appends `session/end-seed`): a refusal it returns is answered with nothing appended.
   */
  readonly precheck?: (view: SessionView) => WriteRefusal | null | Promise<WriteRefusal | null>
}

/**
 * Run one write.
 * @param services - sessions, agents, the write queue and the flush policy.
 * @param sessionId - the session to write to.
 * @param append - the block: plan, check and append; it must append nothing when it refuses.
 * Gets the session and where it came from; runs inside the maintenance slot when `maintenance`
 * is true and an agent exists. It may await before it appends (a long plan in slices), but its
 * checks and appends run synchronously after its last await, so nothing else appends between them.
 * @param options - `maintenance: false` for a write that appends nothing (`flush`); `precheck`
 *   for a stored session (see {@link SessionWriteOptions}).
 * @returns the value with `persisted`, or `SESSION_NOT_LIVE` (neither live nor stored), `AGENT_BUSY` (a turn, a compaction
 * or other maintenance holds the agent, or this plugin's earlier writes did not finish within the
 * queue's wait) or the block's refusal.
 * @throws {@link MessageRecallError} `PERSIST_FAILED` with `details.applied: true` when every
 * flush attempt failed (the write is in the live log); whatever `append` throws.
 */
export async function runSessionWrite<V extends WriteValue>(
  services: SessionWriteServices,
  sessionId: string,
  append: (session: Session, origin: SessionOrigin) => AppendResult<V> | Promise<AppendResult<V>>,
  options: SessionWriteOptions = { maintenance: true },
): Promise<Outcome<V>> {
  const id = sessionId as SessionId
  const task = async (session: Session, origin: SessionOrigin): Promise<Outcome<V>> => {
    const fromSeq = session.seq
    const written = await append(session, origin)
    if (!written.ok) return written
    if (session.seq > fromSeq) services.afterAppend?.(session, fromSeq)
    const flushed = await flushWithRetry(() => services.sessions.flush(session), services.flushRetry)
    if (!flushed.ok) {
      const what = written.value.action === 'flush' ? `the live log of session "${sessionId}" through seq ${written.seq}` : `seq ${written.seq} (${written.value.action}) was appended to session "${sessionId}" and is in effect, but it`
      throw new MessageRecallError(
        'PERSIST_FAILED',
        `message-recall: ${what} is not yet durable: the durability flush failed ${flushed.attempts} times: ${flushed.reason}`,
        { cause: flushed.error, details: { applied: true, value: { ...written.value, persisted: false } as unknown as WriteValue, ...(written.recalled ?? {}) } },
      )
    }
    return { ok: true, value: { ...written.value, persisted: flushed.persisted } as V }
  }

  const queued = await services.queue.run(sessionId, async (): Promise<Outcome<V>> => {
    if (!options.maintenance) {
      // A stored session the plugin still holds because its last save failed: saved, then let go.
      const held = services.access.join(sessionId, (session) => task(session, 'stored'))
      if (held !== undefined) return held
      const agent = services.agents.get(id)
      const session = agent?.session ?? services.sessions.get(id)
      if (session !== undefined) return task(session, agent !== undefined ? 'agent' : 'live')
      return { ok: false, refusal: (await services.access.isStored(sessionId)) ? { code: 'SESSION_NOT_LIVE', sessionId, reason: 'not-live' } : { code: 'SESSION_NOT_LIVE', sessionId } }
    }
    return services.access.write<V, WriteRefusal>(sessionId, task, options.precheck)
  })
  if (queued.ok) return queued.value
  return { ok: false, refusal: queueBusy(sessionId, queued, services.queue.waitMs) }
}

/**
 * Only the durability flush of a live session (the `flush` action, "Save again" after a
 * `PERSIST_FAILED`): queued behind this plugin's writes to the session, without the maintenance
 * slot (nothing is appended), with the same retries.
 * @param services - sessions, agents, the write queue and the flush policy.
 * @param sessionId - the session.
 * @returns `{ action: 'flush', lastSeq, persisted }`, or `SESSION_NOT_LIVE` / `AGENT_BUSY`.
 * @throws {@link MessageRecallError} `PERSIST_FAILED` (`applied: true`) when every attempt failed.
 */
export function flushSession(services: SessionWriteServices, sessionId: string): Promise<Outcome<FlushValue>> {
  return runSessionWrite<FlushValue>(services, sessionId, (session) => ({ ok: true, value: { action: 'flush', lastSeq: session.seq - 1 }, seq: session.seq - 1 }), { maintenance: false })
}
