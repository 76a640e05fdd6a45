/**
 * The tombstone writer: plans a removal against a stable copy of the live surface, checks the
 * client's view, appends one `user/message` tombstone, and answers only after the durability
 * flush. With an agent, all of it runs inside `agent.runMaintenance`, which excludes turns,
 * manual compaction and other maintenance (`dsh-agent-loop/lib/index.js:412-433`).
 *
 * The tombstone: a fresh message id (`createUserMessage`, `dsh-llm`), `content` empty or one text
 * block with the configured `tombstoneText`, `source` from `tombstoneSource()`, `surfaceOp` from
 * `replaceOp()`, and `sourceEventSeqs` = every shadowed node (`dsh-session` `assertProvenance`
 * requires complete coverage). It carries no copy of the removed text.
 *
 * @module dsh-message-recall/host/tombstone-writer
 */
import type { Agent } from '@deepseek-ai/dsh-agent'
import { createUserMessage, type UserMessage } from '@deepseek-ai/dsh-llm'
import type { Session, SessionEvent, SessionId } from '@deepseek-ai/dsh-session'
import type { LogEvent } from '../shared/events'
import type { PlanValue, RemovalValue, ViewExpectation } from '../shared/protocol'
import { replaceOp } from '../shared/replace-op'
import { contentOf, plainText } from '../shared/surface-node'
import { planRemoval, type EventLookup, type PlanTarget, type RemovalPlan } from '../shared/surface-plan'
import { estimateTokens } from '../shared/token-estimate'
import { tombstoneSource, type RecallAction, type TombstoneAction } from '../shared/tombstone'
import type { SessionEventIndex } from './event-index'
import { MessageRecallError, type StaleViewRefusal, type WriteRefusal } from './refusals'
import type { SessionAccess, SessionReadView } from './stored-session'

/** A validated removal or plan request. */
export interface RemovalRequest {
  readonly sessionId: string
  readonly action: RecallAction
  readonly target: PlanTarget
  readonly expect?: ViewExpectation
}

/** Outcome of a write or plan: a value, or a refusal value. */
export type Outcome<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly refusal: WriteRefusal }

/** The services the writer reaches (structural views of `ctx.sessions` and `ctx.agents`). */
export interface WriterServices {
  readonly sessions: { get(id: SessionId): Session | undefined; flush(session: Session): Promise<boolean> }
  readonly agents: { get(id: SessionId): Agent | undefined }
  readonly index: SessionEventIndex
  /** The one writer per session: live agent, live session, or a stored session entered for the write. */
  readonly access: SessionAccess
  /** Text of the tombstone's single text block; `''` writes empty content. */
  readonly tombstoneText: string
}

/** A surface snapshot that stays put while the live surface moves. */
interface StableView {
  readonly nodes: readonly number[]
  readonly replaceGeneration: number
  readonly lastSeq: number
}

function stableView(session: Session): StableView {
  return { nodes: [...session.surface.nodes], replaceGeneration: session.surface.replaceGeneration, lastSeq: session.seq - 1 }
}

/**
 * Check a client's `expect` against a view.
 * @returns the `STALE_VIEW` refusal, or `null` when the view matches (or nothing was expected).
 */
export function checkExpectation(view: StableView, expect: ViewExpectation | undefined): StaleViewRefusal | null {
  if (expect === undefined) return null
  const stale = (newerSeq: number | null): StaleViewRefusal => ({ code: 'STALE_VIEW', expected: expect, replaceGeneration: view.replaceGeneration, newerSeq })
  if (expect.replaceGeneration !== undefined && expect.replaceGeneration !== view.replaceGeneration) return stale(null)
  if (expect.lastSeq !== undefined) {
    const lastSeq = expect.lastSeq
    const newer = view.nodes.find((seq) => seq > lastSeq)
    if (newer !== undefined) return stale(newer)
  }
  return null
}

/**
 * Plan a removal against a stable copy of the session's surface, after checking `expect`.
 * @param session - a live or detached session.
 * @param lookup - one event by seq over the session's current log.
 * @param request - action, target and optional expectation.
 * @returns the plan and the view it was made against, or a refusal.
 * @throws when the surface and the lookup disagree (corrupt surface).
 */
export function planForSession(
  session: Session,
  lookup: EventLookup,
  request: Omit<RemovalRequest, 'sessionId'>,
): { ok: true; plan: RemovalPlan; view: StableView } | { ok: false; refusal: WriteRefusal } {
  const view = stableView(session)
  const stale = checkExpectation(view, request.expect)
  if (stale !== null) return { ok: false, refusal: stale }
  const planned = planRemoval({ nodes: view.nodes, lookup, action: request.action, target: request.target })
  return planned.ok ? { ok: true, plan: planned.plan, view } : planned
}

/** What a tombstone needs from a plan: the action, the inclusive surface range and every shadowed node. */
export type TombstoneRange = Pick<RemovalPlan, 'start' | 'end' | 'shadowedSeqs'> & { readonly action: TombstoneAction }

/**
 * Append the tombstone for a plan. Validation happens in `session.append` before the log
 * changes, so a rejected append leaves the log and the surface as they were.
 * @param session - the session the plan was made against.
 * @param plan - a plan from {@link planRemoval} over this session's current surface (or any
 *   range with the same fields; `shadowedSeqs` in surface order).
 * @param tombstoneText - `''` (default) for empty content, else the text of one text block.
 * @returns the logged tombstone event.
 * @throws the Session's error when it refuses the event (e.g. `surface replace: start seq N not
 * found in surface` for a plan made against an older surface, or an invariant companion's error).
 */
export function appendTombstone(session: Session, plan: TombstoneRange, tombstoneText = ''): SessionEvent<'user/message'> {
  const source = tombstoneSource(plan.action, plan.shadowedSeqs)
  const message = createUserMessage({
    content: tombstoneText === '' ? [] : [{ type: 'text', text: tombstoneText }],
    source: source as unknown as UserMessage['source'],
  })
  return session.append('user/message', message, {
    surfaceOp: replaceOp(plan.start, plan.end),
    sourceEventSeqs: [...plan.shadowedSeqs],
  })
}

/**
 * Plan, check and append synchronously: the part of a removal that must not interleave with
 * other writers. No flush.
 * @param session - a live or detached session.
 * @param lookup - one event by seq over the session's current log.
 * @param request - action, target and optional expectation.
 * @param tombstoneText - see {@link appendTombstone}.
 * @returns the removal value (with `persisted: false`) and the logged tombstone, or a refusal.
 * @throws {@link MessageRecallError} `INTERNAL` when the Session refuses the append; nothing was appended.
 */
export function writeTombstone(
  session: Session,
  lookup: EventLookup,
  request: Omit<RemovalRequest, 'sessionId'>,
  tombstoneText: string,
): { ok: true; value: RemovalValue; event: LogEvent } | { ok: false; refusal: WriteRefusal } {
  const planned = planForSession(session, lookup, request)
  if (!planned.ok) return planned
  const { plan } = planned
  let event: LogEvent
  try {
    event = appendTombstone(session, plan, tombstoneText)
  } catch (error) {
    throw new MessageRecallError('INTERNAL', `message-recall: the session refused the tombstone for [${plan.start}, ${plan.end}]: ${errorText(error)}`, { cause: error })
  }
  const recalled = plan.action === 'recall' ? contentOf(lookup(plan.targetSeq) as LogEvent) : undefined
  const value: RemovalValue = {
    action: plan.action,
    tombstoneSeq: event.seq,
    range: { start: plan.start, end: plan.end },
    removedSeqs: plan.shadowedSeqs,
    kinds: plan.kinds,
    replaceGeneration: session.surface.replaceGeneration,
    persisted: false,
    ...(recalled === undefined ? {} : { content: recalled, text: plainText(recalled) }),
  }
  return { ok: true, value, event }
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
export async function removeMessages(services: WriterServices, request: RemovalRequest): Promise<Outcome<RemovalValue>> {
  return services.access.write(
    request.sessionId,
    async (session) => {
      const written = writeTombstone(session, services.index.lookup(session), request, services.tombstoneText)
      if (!written.ok) return written
      const persisted = await flushWrite(services, session, `tombstone seq ${written.event.seq}`)
      return { ok: true, value: { ...written.value, persisted } }
    },
    (view) => {
      const planned = planOnView(view, request)
      return planned.ok ? null : planned.refusal
    },
  )
}

/**
 * Plan a removal on a read view, after checking `expect`.
 * @param view - a session's surface, seqs and lookup (live or stored).
 * @param request - action, target and optional expectation.
 * @returns the plan, or `STALE_VIEW` or a planner refusal.
 */
export function planOnView(view: SessionReadView, request: Omit<RemovalRequest, 'sessionId'>): { ok: true; plan: RemovalPlan } | { ok: false; refusal: WriteRefusal } {
  const stale = checkExpectation(view, request.expect)
  if (stale !== null) return { ok: false, refusal: stale }
  return planRemoval({ nodes: view.nodes, lookup: view.lookup, action: request.action, target: request.target })
}

/**
 * Await the durability flush of a write.
 * @param services - the session store.
 * @param session - the session written.
 * @param what - what was appended, for the error message (`tombstone seq 12`).
 * @returns whether a persistence listener took part.
 * @throws {@link MessageRecallError} `PERSIST_FAILED` when the flush rejected (the write is in the
 * live log but not known to be durable).
 */
export async function flushWrite(services: Pick<WriterServices, 'sessions'>, session: Session, what: string): Promise<boolean> {
  try {
    return await services.sessions.flush(session)
  } catch (error) {
    throw new MessageRecallError(
      'PERSIST_FAILED',
      `message-recall: ${what} was appended to session "${session.id}" but the durability flush rejected: ${errorText(error)}`,
      { cause: error },
    )
  }
}

/**
 * Preview a removal: the same plan a write would make now, with a token estimate; appends nothing.
 * @param services - the session access (live, or stored and read without entering it).
 * @param request - the validated request (its `action` is the `planAction`).
 * @returns the plan value, or `SESSION_NOT_LIVE` (neither live nor stored), `STALE_VIEW` or a planner refusal.
 */
export async function previewRemoval(services: Pick<WriterServices, 'access'>, request: RemovalRequest): Promise<Outcome<PlanValue>> {
  const read = await services.access.read(request.sessionId)
  if (!read.ok) return read
  const view = read.value
  const { lookup } = view
  const planned = planOnView(view, request)
  if (!planned.ok) return planned
  const { plan } = planned
  const contents = plan.shadowedSeqs.map((seq) => contentOf(lookup(seq) as LogEvent))
  return {
    ok: true,
    value: {
      action: plan.action,
      range: { start: plan.start, end: plan.end },
      removedSeqs: plan.shadowedSeqs,
      kinds: plan.kinds,
      estimatedTokens: estimateTokens(contents),
      ...(plan.step === null ? {} : { turn: plan.step.turn, step: plan.step.step }),
      replaceGeneration: view.replaceGeneration,
      lastSeq: view.lastSeq,
    },
  }
}

/** The message of an unknown thrown value. */
export function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error)
}
