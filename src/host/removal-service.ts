/**
 * The removal request service: finds the live session once, runs the tombstone writer through
 * {@link runSessionWrite} (this plugin's per-session write queue, the agent's maintenance slot when
 * an agent drives the session — `agent.runMaintenance`, `dsh-agent-loop`, excludes turns, manual
 * compaction and other maintenance —, and the durability flush with retries), and previews a
 * removal without writing.
 *
 * @module dsh-message-recall/host/removal-service
 */
import type { Agent } from '@deepseek-ai/dsh-agent'
import type { Session, SessionId } from '@deepseek-ai/dsh-session'
import type { LogEvent } from '../shared/events'
import type { PlanValue, RemovalValue } from '../shared/protocol'
import { contentOf } from '../shared/surface-node'
import type { SessionEventIndex } from './event-index'
import type { SessionNotLiveRefusal, WriteRefusal } from './refusals'
import { runSessionWrite, type SessionWriteServices } from './session-write'
import { estimateTokens } from '../shared/token-estimate'
import { planForSession, writeTombstone, type RemovalIntent } from './tombstone-writer'
import type { WriteEffects } from './write-effects'
import { WriteQueue } from './write-queue'

/** A validated removal or plan request: the writer's intent, addressed to one session. */
export interface RemovalRequest extends RemovalIntent {
  readonly sessionId: string
}

/** Outcome of a write or plan: a value, or a refusal value. */
export type Outcome<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly refusal: WriteRefusal }

/** What the removal service reaches: structural views of `ctx.sessions` and `ctx.agents`, the event index, the tombstone text. */
export interface RemovalServices extends Omit<SessionWriteServices, 'queue'> {
  readonly index: SessionEventIndex
  /** Text of the tombstone's single text block; `''` writes empty content. */
  readonly tombstoneText: string
  /** The per-session write queue; absent: a queue of this call alone. */
  readonly queue?: SessionWriteServices['queue']
  /** The token meter and title limits, read at request time; absent: no price, no title rebuild. */
  readonly effects?: () => WriteEffects
}

/**
 * The live session a request addresses, and its agent when one drives it.
 * @param services - `ctx.sessions` and `ctx.agents` (structural views).
 * @param sessionId - the request's session id.
 * @returns the session (the agent's own when there is an agent), or `SESSION_NOT_LIVE`.
 */
export function liveSession(
  services: Pick<RemovalServices, 'sessions' | 'agents'>,
  sessionId: string,
): { ok: true; session: Session; agent: Agent | undefined } | { ok: false; refusal: SessionNotLiveRefusal } {
  const id = sessionId as SessionId
  const agent = services.agents.get(id)
  const session = agent?.session ?? services.sessions.get(id)
  return session === undefined ? { ok: false, refusal: { code: 'SESSION_NOT_LIVE', sessionId } } : { ok: true, session, agent }
}

/**
 * Remove messages from a live session through {@link runSessionWrite}: the write queue, the
 * agent's maintenance slot when an agent drives it, the tombstone (with its price and title),
 * and the durability flush with retries.
 * @param services - sessions, agents, the event index, the queue, the tombstone text and effects.
 * @param request - the validated request.
 * @returns the removal value once durable (`persisted` tells whether a persistence listener
 * took part), or `SESSION_NOT_LIVE`, `AGENT_BUSY`, `STALE_VIEW` or a planner refusal; nothing is
 * appended on any refusal.
 * @throws {@link MessageRecallError} `PERSIST_FAILED` (`applied: true`, for recall with the
 * recalled `content`/`text`) when every flush attempt failed: the tombstone is in the live log but
 * not known to be durable; `INTERNAL` when the Session refused the append.
 */
export async function removeMessages(services: RemovalServices, request: RemovalRequest): Promise<Outcome<RemovalValue>> {
  const queue = services.queue ?? new WriteQueue()
  return runSessionWrite<RemovalValue>({ ...services, queue }, request.sessionId, (session) => {
    const written = writeTombstone(session, services.index.lookup(session), request, services.tombstoneText, services.effects?.(), () => services.index.lookup(session))
    if (!written.ok) return written
    const { persisted: _persisted, ...value } = written.value
    const recalled = value.content !== undefined && value.text !== undefined ? { content: value.content, text: value.text } : undefined
    return { ok: true, value, seq: written.event.seq, ...(recalled === undefined ? {} : { recalled }) }
  })
}

/**
 * Preview a removal: the same plan a write would make now, with a token estimate; appends nothing.
 * @param services - sessions, agents and the event index.
 * @param request - the validated request (its `action` is the `planAction`).
 * @returns the plan value, or `SESSION_NOT_LIVE`, `STALE_VIEW` or a planner refusal.
 */
export function previewRemoval(services: Pick<RemovalServices, 'sessions' | 'agents' | 'index'>, request: RemovalRequest): Outcome<PlanValue> {
  const live = liveSession(services, request.sessionId)
  if (!live.ok) return live
  const { session } = live
  const lookup = services.index.lookup(session)
  const planned = planForSession(session, lookup, request)
  if (!planned.ok) return planned
  const { plan, view } = planned
  const contents = plan.shadowedSeqs.map((seq) => contentOf(lookup(seq) as LogEvent))
  return {
    ok: true,
    value: {
      action: request.action,
      range: { start: plan.start, end: plan.end },
      removedSeqs: plan.shadowedSeqs,
      kinds: plan.nodeKinds,
      estimatedTokens: estimateTokens(contents),
      ...(plan.stepKey === null ? {} : { turn: plan.stepKey.turn, step: plan.stepKey.step }),
      replaceGeneration: view.replaceGeneration,
      lastSeq: view.lastSeq,
    },
  }
}

