/**
 * The HTTP contract of `POST {path}` (default {@link DEFAULT_ROUTE_PATH}), shared by the host
 * route and the browser client: request body, success values, error codes and the reply envelope.
 * Types and constants only. Wire field names stay as written: `removedSeqs` carries the shadowed
 * surface seqs and `kinds` their node kinds.
 *
 * @module dsh-message-recall/shared/protocol
 */
import type { NodeKind } from './surface-node'
import type { RemovalAction, TombstoneRecord } from './tombstone'

/** The route's default exact pathname (`Config.path`), used by the host config and the client. */
export const DEFAULT_ROUTE_PATH = '/dsh-message-recall'

/** Route actions: the three removals, the dry-run `plan`, and the read-only `inspect`. */
export type RouteAction = RemovalAction | 'plan' | 'inspect'

/** All route actions, in a stable order. */
export const ROUTE_ACTIONS: readonly RouteAction[] = ['recall', 'delete', 'deleteFrom', 'plan', 'inspect']

/**
 * The view a client planned against. When given, a write or plan is refused with `STALE_VIEW`
 * if the surface's `replaceGeneration` differs, or a surface node newer than `lastSeq` exists.
 */
export interface ViewExpectation {
  /** The surface's `replaceGeneration` the client saw. */
  readonly replaceGeneration?: number
  /** Seq of the log's last event the client's view includes (a plan's `lastSeq`). */
  readonly lastSeq?: number
}

/** Request body as sent over the wire (JSON). Exactly one of `seq`/`messageId` except for `inspect`. */
export interface RecallRequestBody {
  readonly sessionId: string
  readonly action: RouteAction
  readonly seq?: number
  readonly messageId?: string
  /** Required for `plan`: the removal to preview. */
  readonly planAction?: RemovalAction
  readonly expect?: ViewExpectation
}

/** Every error code the route answers with (HTTP statuses: see the README's error table). */
export const ERROR_CODES = [
  'INVALID_REQUEST',
  'FORBIDDEN',
  'METHOD_NOT_ALLOWED',
  'PAYLOAD_TOO_LARGE',
  'UNSUPPORTED_MEDIA_TYPE',
  'SESSION_NOT_LIVE',
  'TARGET_NOT_FOUND',
  'NOT_A_USER_MESSAGE',
  'NOT_DELETABLE',
  'SPAN_NOT_CONTIGUOUS',
  'STALE_VIEW',
  'AGENT_BUSY',
  'PERSIST_FAILED',
  'INTERNAL',
] as const

/** A route error code. */
export type ErrorCode = (typeof ERROR_CODES)[number]

/** Inclusive surface range of a replace: `start`/`end` are surface seqs. */
export interface SurfaceRange {
  readonly start: number
  readonly end: number
}

/** Success value of `recall`, `delete` and `deleteFrom`. */
export interface RemovalValue {
  readonly action: RemovalAction
  /** Seq of the appended tombstone. */
  readonly tombstoneSeq: number
  readonly range: SurfaceRange
  /** Shadowed surface seqs, in surface order (absorbed tombstones included). */
  readonly removedSeqs: readonly number[]
  /** Kind of each removed node, aligned with `removedSeqs`. */
  readonly kinds: readonly NodeKind[]
  /** The surface's `replaceGeneration` after the append. */
  readonly replaceGeneration: number
  /** True when a persistence listener took part in the durability flush (`SessionStore.flush`). */
  readonly persisted: boolean
  /** `recall` only: the recalled message's content blocks, as logged. */
  readonly content?: readonly unknown[]
  /** `recall` only: the plain text of `content` (text blocks joined). */
  readonly text?: string
}

/** Success value of `plan`: what the `planAction` would remove; nothing is appended. */
export interface PlanValue {
  readonly action: RemovalAction
  readonly range: SurfaceRange
  readonly removedSeqs: readonly number[]
  readonly kinds: readonly NodeKind[]
  /** Rough token count of the removed messages (characters / 4; see `src/host/token-estimate.ts`). */
  readonly estimatedTokens: number
  /** The model step removed whole or widened into, when any. */
  readonly turn?: number
  readonly step?: number
  /** The view this plan was made against; send it back as `expect` to write exactly this plan. */
  readonly replaceGeneration: number
  readonly lastSeq: number
}

/** Summary of one log (live or on disk). */
export interface LogSummary {
  readonly eventCount: number
  /** Seq of the last event, or -1 for an empty log. */
  readonly lastSeq: number
  readonly surfaceNodeCount: number
  readonly replaceGeneration: number
  /** Every tombstone of this plugin in the log, in seq order. */
  readonly tombstones: readonly InspectedTombstone[]
}

/** A tombstone as `inspect` reports it. */
export interface InspectedTombstone extends TombstoneRecord {
  /** False once a later replace (a tombstone or a compaction) shadowed it. */
  readonly onSurface: boolean
}

/** Success value of `inspect`; a side is `null` where it is unavailable. */
export interface InspectValue {
  readonly live: LogSummary | null
  readonly disk: LogSummary | null
}

/** The reply envelope. */
export type RouteReply<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly error: { readonly code: ErrorCode; readonly message: string } }
