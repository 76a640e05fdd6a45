/**
 * The removal request service: runs the tombstone writer as the session's one writer
 * (`SessionAccess.write`: inside the agent's maintenance slot when an agent drives the session,
 * `agent.runMaintenance` in `dsh-agent-loop`, which excludes turns, manual compaction and other
 * maintenance; or the plugin's own hold of a stored session that is not live), answers only after
 * the durability flush (`ctx.sessions.flush`), and previews a removal without writing.
 *
 * @module dsh-message-recall/host/removal-service
 */
import type { LogEvent } from '../shared/events'
import type { PlanValue, RemovalValue } from '../shared/protocol'
import { contentOf } from '../shared/surface-node'
import type { SessionEventIndex } from './event-index'
import type { WriteRefusal } from './refusals'
import { estimateTokens } from '../shared/token-estimate'
import type { SessionAccess, SessionReadView } from './stored-session'
import { planRemoval, type RemovalPlan } from './surface-plan'
import { planningAction, writeTombstone, type RemovalIntent } from './tombstone-writer'
import { checkExpectation } from './view-expectation'
import { runSessionWrite, type SessionWriteServices } from './session-write'
import type { WriteEffects } from './write-effects'

/** A validated removal or plan request: the writer's intent, addressed to one session. */
export interface RemovalRequest extends RemovalIntent {
  readonly sessionId: string
}

/** Outcome of a write or plan: a value, or a refusal value. */
export type Outcome<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly refusal: WriteRefusal }

/** What the removal service reaches: the session write services, the event index, the tombstone text and the write effects. */
export interface RemovalServices extends SessionWriteServices {
  readonly index: SessionEventIndex
  /** Text of the tombstone's single text block; `''` writes empty content. */
  readonly tombstoneText: string
  /** The token meter and title limits, read at request time; absent: no price, no title rebuild. */
  readonly effects?: () => WriteEffects
}

/**
 * Remove messages from a session, live or stored: as its one writer (`SessionAccess.write`: the
 * agent's maintenance slot, or the plugin's own hold of a stored session), write the tombstone,
 * and await `ctx.sessions.flush(session)`.
 * @param services - sessions, agents, the event index, the session access and the tombstone text.
 * @param request - the validated request.
 * @returns the removal value once durable (`persisted` tells whether a persistence listener
 * took part), or `SESSION_NOT_LIVE` (neither live nor stored), `AGENT_BUSY`, `STALE_VIEW` or a
 * planner refusal; nothing is appended on any refusal.
 * @throws {@link MessageRecallError} `PERSIST_FAILED` when the flush rejected (the tombstone is in
 * the live log but not known to be durable), `INTERNAL` when the Session refused the append.
 */
export async function removeMessages(services: RemovalServices, request: RemovalRequest): Promise<Outcome<RemovalValue>> {
  return runSessionWrite<RemovalValue>(
    services,
    request.sessionId,
    (session) => {
      const effects = services.effects?.()
      const written = writeTombstone(session, services.index.lookup(session), request, services.tombstoneText, effects, () => services.index.lookup(session))
      if (!written.ok) return written
      const { persisted: _persisted, ...value } = written.value
      const recalled = value.content !== undefined && value.text !== undefined ? { content: value.content, text: value.text } : undefined
      return { ok: true, value, seq: written.event.seq, ...(recalled === undefined ? {} : { recalled }) }
    },
    {
      maintenance: true,
      precheck: (view) => {
        const planned = planOnView(view, request)
        return planned.ok ? null : planned.refusal
      },
    },
  )
}

/**
 * Plan a removal on a read view, after checking `expect`.
 * @param view - a session's surface, seqs and lookup (live or stored).
 * @param request - action, target and optional expectation.
 * @returns the plan, or `STALE_VIEW` or a planner refusal.
 */
export function planOnView(view: SessionReadView, request: RemovalIntent): { ok: true; plan: RemovalPlan } | { ok: false; refusal: WriteRefusal } {
  const stale = checkExpectation(view, request.expect, view.lookup)
  if (stale !== null) return { ok: false, refusal: stale }
  return planRemoval({ nodes: view.nodes, lookup: view.lookup, action: planningAction(request.action), target: request.target })
}

/**
 * Preview a removal: the same plan a write would make now, with a token estimate; appends nothing.
 * @param services - the session access (live, or stored and read without entering it).
 * @param request - the validated request (its `action` is the `planAction`).
 * @returns the plan value, or `SESSION_NOT_LIVE` (neither live nor stored), `STALE_VIEW` or a planner refusal.
 */
export async function previewRemoval(services: Pick<RemovalServices, 'access'>, request: RemovalRequest): Promise<Outcome<PlanValue>> {
  const read = await services.access.read(request.sessionId)
  if (!read.ok) return read
  const view = read.value
  const planned = planOnView(view, request)
  if (!planned.ok) return planned
  const { plan } = planned
  const contents = plan.shadowedSeqs.map((seq) => contentOf(view.lookup(seq) as LogEvent))
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
