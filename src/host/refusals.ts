/**
 * Why a write or plan did not happen. Expected outcomes are values (the planner's refusals plus
 * the three the writer adds); operational failures throw {@link MessageRecallError}.
 *
 * @module dsh-message-recall/host/refusals
 */
import type { ErrorCode, RouteError, ViewExpectation } from '../shared/protocol'
import { describePlanRefusal, type PlanRefusal } from './surface-plan'
import { describeRestoreRefusal, type RestoreRefusal } from './restore-plan'
import { counted } from '../log/counted'

/**
 * `expect` was given and the surface moved since the client's view, or a confirmed write would
 * no longer write what was confirmed (`changed`).
 */
export interface StaleViewRefusal {
  readonly code: 'STALE_VIEW'
  readonly expected: ViewExpectation
  /** The surface's current `replaceGeneration`. */
  readonly replaceGeneration: number
  /** This plugin's own replacements after `expected.lastSeq`, counted out of the generation (0 without `expected.lastSeq`). */
  readonly ownReplacements: number
  /** A surface node seq newer than `expected.lastSeq`, or `null` when it is not about a newer node. */
  readonly newerSeq: number | null
  /**
   * A confirmed write whose removal does not match what was confirmed: how many messages it would
   * remove now, which of them came back after `expected.lastSeq`, and whether the session has
   * events after `expected.lastSeq` (`false`: the confirmed count never matched this write).
   */
  readonly changed?: { readonly removedCount: number; readonly cameBackSeqs: readonly number[]; readonly surfaceChanged: boolean }
}

/** The session's agent has active work (a turn or another maintenance task). */
export interface AgentBusyRefusal {
  readonly code: 'AGENT_BUSY'
  readonly sessionId: string
  /** The agent's own words (`agent "<id>" already has active work` on rc.8). */
  readonly detail: string
}

/**
 * A summary rewrite (removing messages a compaction folded, `summary-rewrite.ts`) wrote nothing:
 * no compaction engine is loaded (`no-engine`), the model call failed or was refused (`model`),
 * it was cancelled (`cancelled`), or the compacted history changed meanwhile (`changed`).
 */
export interface SummaryFailedRefusal {
  readonly code: 'SUMMARY_FAILED'
  readonly sessionId: string
  readonly reason: 'no-engine' | 'model' | 'cancelled' | 'changed'
  /** The cause in words (the model's error for `model`). */
  readonly detail: string
}

/**
 * `editSummary` or `undoRewrite` addressed something else than a compaction summary on the surface:
 * no checkpoint at that seq, one no longer on the surface, or (Undo) not a summary rewrite of this
 * plugin.
 */
export interface NotASummaryRefusal {
  readonly code: 'NOT_A_SUMMARY'
  readonly seq: number
  readonly reason: 'not-a-checkpoint' | 'not-on-surface' | 'not-a-rewrite'
}

/**
 * No session with that id: neither live in this process nor stored; with `reason: 'not-live'`,
 * the session is stored but the action needs it live (`flush`); with `reason: 'needs-agent'`, the
 * session exists (stored, or live without an agent) but the write changes a compaction summary,
 * which needs the session's agent: a summary rewrite, a batch with folded changes, `editSummary`, `undoRewrite`.
 */
export interface SessionNotLiveRefusal {
  readonly code: 'SESSION_NOT_LIVE'
  readonly sessionId: string
  readonly reason?: 'needs-agent' | 'not-live'
}

/**
 * The message of a session that is neither live nor stored, the same on every route (the POST
 * route's `SESSION_NOT_LIVE`, the export's `SESSION_NOT_FOUND`, the erase's).
 * @param sessionId - the id asked for.
 * @returns `message-recall: no session "<id>" (neither open in this host nor stored)`.
 */
export function noSessionMessage(sessionId: string): string {
  return `message-recall: no session "${sessionId}" (neither open in this host nor stored)`
}

/**
 * The refusal of a write that changes a compaction summary on a session no agent drives.
 * @param sessionId - the session.
 * @returns `SESSION_NOT_LIVE` with `reason: 'needs-agent'`.
 */
export function needsAgent(sessionId: string): SessionNotLiveRefusal {
  return { code: 'SESSION_NOT_LIVE', sessionId, reason: 'needs-agent' }
}

/**
 * One change of a batch (`apply`, or `plan` with `changes`) was refused: the change's own code,
 * its index in the list, and the message naming both. The batch appended nothing.
 */
export interface BatchChangeRefusal {
  readonly code: PlanRefusal['code'] | RestoreRefusal['code']
  /** The refused change's index; absent when a one-change batch stood for a single request (a folded Delete onward). */
  readonly index?: number
  readonly message: string
}

/** Every refusal of a write or plan. */
export type WriteRefusal = PlanRefusal | RestoreRefusal | StaleViewRefusal | AgentBusyRefusal | SessionNotLiveRefusal | BatchChangeRefusal | SummaryFailedRefusal | NotASummaryRefusal

/** Outcome of a write, a plan or a read: its value, or a refusal value. */
export type Outcome<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly refusal: WriteRefusal }

/** Codes of operational failures. */
export type FailureCode = Extract<ErrorCode, 'PERSIST_FAILED' | 'INTERNAL'>

/**
 * An operational failure: the durability flush rejected (`PERSIST_FAILED`) or anything
 * unexpected (`INTERNAL`). `cause` carries the original error.
 */
export class MessageRecallError extends Error {
  /** Extra fields of the error body (`applied`, `value`, `content`, `text`; see `RouteError`). */
  readonly details: Omit<RouteError, 'code' | 'message'>

  /**
   * @param code - `PERSIST_FAILED` or `INTERNAL`.
   * @param message - prefixed `message-recall:` with the offending values.
   * @param options - `{ cause, details }`.
   */
  constructor(
    readonly code: FailureCode,
    message: string,
    options?: { cause?: unknown; details?: Omit<RouteError, 'code' | 'message'> },
  ) {
    super(message, options)
    this.name = 'MessageRecallError'
    this.details = options?.details ?? {}
  }
}

/**
 * One-line English description of a refusal, prefixed `message-recall:` with the offending values.
 * @param refusal - any {@link WriteRefusal}.
 * @returns the message.
 */
export function describeRefusal(refusal: WriteRefusal): string {
  if ('message' in refusal) return refusal.message
  switch (refusal.code) {
    case 'STALE_VIEW':
      return describeStaleView(refusal)
    case 'AGENT_BUSY':
      return `message-recall: session "${refusal.sessionId}" is busy: ${refusal.detail}`
    case 'SESSION_NOT_LIVE':
      return refusal.reason === 'needs-agent'
        ? `message-recall: session "${refusal.sessionId}" is not open in this host; a compaction summary is rewritten, edited or put back only while the session is open (its agent writes the summary): open it, then try again`
        : refusal.reason === 'not-live' ? `message-recall: no live session "${refusal.sessionId}"`
        : noSessionMessage(refusal.sessionId)
    case 'NOT_A_SUMMARY':
      return `message-recall: seq ${refusal.seq} ${refusal.reason === 'not-a-checkpoint' ? 'is not a compaction summary' : refusal.reason === 'not-on-surface' ? 'is a compaction summary no longer on the surface (a later compaction or removal replaced it)' : 'is not a summary rewrite of this plugin; only those can be undone'}`
    case 'SUMMARY_FAILED':
      return `message-recall: the summary of session "${refusal.sessionId}" was not rewritten (${refusal.reason}): ${refusal.detail}`
    case 'NOT_RESTORABLE':
      return describeRestoreRefusal(refusal)
    default:
      return 'tombstoneSeq' in refusal ? describeRestoreRefusal(refusal) : describePlanRefusal(refusal)
  }
}

/** What a `STALE_VIEW` refusal says: the newer node, the changed removal, or the generation compared. */
function describeStaleView(refusal: StaleViewRefusal): string {
  const { expected, changed } = refusal
  if (refusal.newerSeq !== null) return `message-recall: surface node seq ${refusal.newerSeq} is newer than the expected last seq ${expected.lastSeq}`
  if (changed !== undefined) {
    const since = expected.lastSeq === undefined ? '' : ` since seq ${expected.lastSeq}`
    const back = changed.cameBackSeqs.length === 0 ? ''
      : ` (${changed.cameBackSeqs.length === 1 ? 'seq' : 'seqs'} ${changed.cameBackSeqs.join(', ')} came back by a restore after the plan)`
    const confirmed = counted(expected.removedCount ?? 0, 'message')
    if (!changed.surfaceChanged) return `message-recall: the confirmed plan removes ${confirmed}, but this write removes ${changed.removedCount}${back}`
    return `message-recall: the confirmed plan removes ${confirmed}, but the surface changed${since} and this write would now remove ${changed.removedCount}${back}`
  }
  if (refusal.ownReplacements === 0) return `message-recall: surface replaceGeneration is ${refusal.replaceGeneration}, expected ${expected.replaceGeneration}`
  const own = counted(refusal.ownReplacements, 'replacement')
  return `message-recall: surface replaceGeneration is ${refusal.replaceGeneration}, ${refusal.replaceGeneration - refusal.ownReplacements} without this plugin's ${own} after seq ${expected.lastSeq}; expected ${expected.replaceGeneration}`
}
