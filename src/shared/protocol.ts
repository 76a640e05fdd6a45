/**
 * The HTTP contract of `POST {path}` (default {@link DEFAULT_ROUTE_PATH}), shared by the host
 * route and the browser client: request body, success values, error codes and the reply envelope.
 * Types and constants only. The actions of the action table (`actions.ts`) are the route's
 * surface actions; a reply names the nodes a replace covers `shadowedSeqs` with their `nodeKinds`,
 * and the messages that leave the model's context `removedSeqs` (a tombstone's durable
 * `source.removedSeqs` is its `shadowedSeqs`; see `tombstone.ts`).
 *
 * @module dsh-message-recall/shared/protocol
 */
import type { NodeKind } from './surface-node'
import type { TombstoneRecord } from './tombstone'
import { SURFACE_ACTIONS, type BatchRemovalAction, type SurfaceAction, type TombstoneAction } from './actions'
import type { CutShortBatch } from './batch-mark'

/** The route's default exact pathname (`Config.path`), used by the host config and the client. */
export const DEFAULT_ROUTE_PATH = '/dsh-message-recall'

/** The route actions outside the action table, in a stable order. */
const OTHER_ROUTE_ACTIONS = ['forkBefore', 'flush', 'plan', 'apply', 'inspect', 'erase', 'cancelErase', 'pendingErases', 'editSummary', 'undoRewrite', 'rewriteSummary'] as const

/** The route actions that read and never append: a second host on the same DSH home may still answer them (`HOME_IN_USE` refuses the rest). */
export const READ_ROUTE_ACTIONS: readonly RouteAction[] = ['plan', 'inspect', 'pendingErases']

/**
 * Route actions: the actions of the action table (`actions.ts`: the tombstone actions `recall`,
 * `delete`, `deleteFrom`, `exclude`, and `restore`, which undoes one tombstone in place);
 * `forkBefore` (a fork: a new session holding the conversation as it was before a tombstone);
 * `flush` (only the durability flush); the dry-run `plan`; `apply` (a list of changes written all
 * or nothing); the read-only `inspect`; `erase` (the content one removal took, replaced for
 * good in the stored log, with the images and tool output files only it referenced; with
 * `when: 'next-start'`, kept as a pending erase that runs when the host next starts);
 * `cancelErase` (a pending erase dropped); `pendingErases` (a session's pending erases, read-only);
 * `editSummary` (a compaction summary written by hand), `undoRewrite` (the summary a rewrite
 * replaced put back) and `rewriteSummary` (the summary made again from the originals minus every
 * removed message, a model call: for a summary written before a removal of messages it holds,
 * `summary-flag.ts`).
 */
export type RouteAction = SurfaceAction | (typeof OTHER_ROUTE_ACTIONS)[number]

/** All route actions: the action table's, then the others, in a stable order. */
export const ROUTE_ACTIONS: readonly RouteAction[] = Object.freeze([...SURFACE_ACTIONS, ...OTHER_ROUTE_ACTIONS])

/**
 * The view a client planned against. When given, a write or plan is refused with `STALE_VIEW`
 * if the surface's `replaceGeneration` differs, or a surface node newer than `lastSeq` exists
 * (this plugin's own writes after `lastSeq` excepted), or, for a confirmed write, when the write
 * would now remove a message its plan did not.
 */
export interface ViewExpectation {
  /** The surface's `replaceGeneration` the client saw. */
  readonly replaceGeneration?: number
  /** Seq of the log's last event the client's view includes (a plan's `lastSeq`). */
  readonly lastSeq?: number
  /**
   * A confirmed write: how many messages the plan it confirms removes (a single `plan`'s
   * `removedCount`, a batch `plan`'s `removedSeqs.length`). The write is refused with `STALE_VIEW`
   * when its own plan removes another number (fewer only passes when this plugin's own writes after
   * `lastSeq` took some of them), or a message that came back after `lastSeq` (a restore).
   */
  readonly removedCount?: number
}

/**
 * Request body as sent over the wire (JSON).
 * - removals, `exclude` and `plan`: exactly one of `seq`/`messageId`; `plan` also `planAction`;
 * - `restore`, `forkBefore`, `erase` and `cancelErase`: `tombstoneSeq` (`restore` also takes
 *   `expect`, `erase` also `when`);
 * - `flush`, `inspect` and `pendingErases`: `sessionId` only.
 */
export interface RecallRequestBody {
  readonly sessionId: string
  readonly action: RouteAction
  readonly seq?: number
  /** The target by its message id, at most 512 characters (as `sessionId`). */
  readonly messageId?: string
  /** `restore` and `forkBefore`: seq of a tombstone of this plugin. */
  readonly tombstoneSeq?: number
  /** Required for `plan`: the removal to preview (`exclude` included), or `erase` (with `tombstoneSeq`). */
  readonly planAction?: TombstoneAction | 'erase'
  readonly expect?: ViewExpectation
  /** `erase` only: `now` (the default) or `next-start`. */
  readonly when?: EraseWhen
}

/**
 * When an `erase` runs: `now` (the session must not be open in the host) or `next-start` (the
 * removal is checked as for `now`, then kept as a pending erase that runs when the host next
 * starts, before the session can be opened again).
 */
export const ERASE_WHEN = ['now', 'next-start'] as const
/** One of {@link ERASE_WHEN}. */
export type EraseWhen = (typeof ERASE_WHEN)[number]

/** A pending erase as the route answers it (`erase` with `when: 'next-start'`, `pendingErases`). */
export interface PendingEraseValue {
  readonly tombstoneSeq: number
  /** When it was asked for (ISO 8601). */
  readonly scheduledAt: string
  /** How many messages the erase takes. */
  readonly messageCount: number
  /** Images the erase deletes unless another session references them. */
  readonly imageCount: number
  /** Tool output files the erase deletes unless another session names them. */
  readonly fileCount: number
  /** `pending`, or `failed`: a run at start did not verify or threw (nothing changed); kept, and run again only once asked for again (`erase` with `when: 'next-start'`, which makes it `pending`). */
  readonly state: 'pending' | 'failed'
  /** `failed` only: why, the host's English sentence (no absolute paths). */
  readonly problem?: string
}

/** Success value of `erase` with `when: 'next-start'` (the same for a second request of a removal pending already; a failed one comes back pending). */
export interface ScheduledEraseValue {
  readonly action: 'erase'
  readonly when: 'next-start'
  readonly erase: PendingEraseValue
}

/** Success value of `plan` with `planAction: 'erase'`: what an erase of the removal would take, nothing written. */
export interface ErasePlanValue {
  readonly action: 'plan'
  readonly planAction: 'erase'
  readonly tombstoneSeq: number
  readonly messageCount: number
  /** Images the erase deletes unless another session references them. */
  readonly imageCount: number
  /** Tool output files the erase deletes unless another session names them. */
  readonly fileCount: number
  /**
   * The other sessions that hold any of the erased messages as the same events
   * (`host/erase-copies.ts`), nearest first: the session's copies (their seed holds them), and
   * when the session is itself a copy, the sessions it was copied from (for the messages below its
   * seed) and their other copies.
   */
  readonly copies: readonly EraseCopyValue[]
}

/**
 * A session related to an erased one through copies (a copy of it, a session it was copied from,
 * or another copy of such a source) that holds messages the erase takes.
 */
export interface EraseCopyValue {
  readonly sessionId: string
  /** Its current title, or `null` when it has none. */
  readonly title: string | null
  /**
   * The first of `removals` (its own removal of the first held message removed there), or `null`
   * when it holds them all not removed (a copy made before the removal, or a copy from before it;
   * a source when they were removed in the copy alone): remove them there first. Kept for clients
   * that read one removal; `removals` and `notRemovedCount` say the whole.
   */
  readonly tombstoneSeq: number | null
  /**
   * Every removal there of held messages, not erased yet (a copy inherited it, or its seed holds
   * the source's; a source's own removal; a copy's own later removal of some of them), in the
   * order of the first held message each removes; an erase there addresses each apart.
   */
  readonly removals: readonly EraseCopyRemovalValue[]
  /** How many of the messages it holds are not removed there (none of its removals would erase them): remove them there first. */
  readonly notRemovedCount: number
  /** Whether the host holds the session open (its erase waits for the host's next start). */
  readonly live: boolean
}

/** One removal in a related session ({@link EraseCopyValue}). */
export interface EraseCopyRemovalValue {
  readonly tombstoneSeq: number
  /** How many messages an erase of it there takes: all it removed there, which may be more than the erase being confirmed. */
  readonly messageCount: number
}

/** Success value of `cancelErase`: whether a pending erase was there to drop. */
export interface CancelEraseValue {
  readonly action: 'cancelErase'
  readonly tombstoneSeq: number
  readonly cancelled: boolean
}

/** Success value of `pendingErases`: the session's pending erases, in the order they were asked for. */
export interface PendingErasesValue {
  readonly action: 'pendingErases'
  readonly erases: readonly PendingEraseValue[]
}

/** Every error code the route answers with (HTTP statuses: see the README's error table). */
export const ERROR_CODES = [
  'INVALID_REQUEST',
  'FORBIDDEN',
  'METHOD_NOT_ALLOWED',
  'PAYLOAD_TOO_LARGE',
  'UNSUPPORTED_MEDIA_TYPE',
  'SESSION_NOT_LIVE',
  'HOME_IN_USE',
  'TARGET_NOT_FOUND',
  'NOT_A_USER_MESSAGE',
  'NOT_DELETABLE',
  'SPAN_NOT_CONTIGUOUS',
  'NOT_RESTORABLE',
  'STALE_VIEW',
  'AGENT_BUSY',
  'NOT_ERASABLE',
  'ERASE_NOT_VERIFIED',
  'ERASE_UNAVAILABLE',
  'ERASE_PENDING',
  'NOT_A_SUMMARY',
  'SUMMARY_FAILED',
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

/** Success value of `recall`, `delete`, `deleteFrom` and `exclude`. */
export interface RemovalValue {
  readonly action: TombstoneAction
  /** Seq of the appended tombstone. */
  readonly tombstoneSeq: number
  readonly range: SurfaceRange
  /** Shadowed surface seqs, in surface order (absorbed tombstones included). */
  readonly shadowedSeqs: readonly number[]
  /** Node kind of each shadowed node, aligned with `shadowedSeqs`. */
  readonly nodeKinds: readonly NodeKind[]
  /** The surface's `replaceGeneration` after the append. */
  readonly replaceGeneration: number
  /** True when a persistence listener took part in the durability flush (`SessionStore.flush`). */
  readonly persisted: boolean
  /** `recall` only: the recalled message's content blocks, as logged. */
  readonly content?: readonly unknown[]
  /** `recall` only: the plain text of `content` (text blocks joined). */
  readonly text?: string
  /**
   * A removal of messages a compaction folded (a summary rewrite): `tombstoneSeq` is the new
   * checkpoint, `range` and `shadowedSeqs` the checkpoint it replaced; `removedSeqs` are the folded
   * messages taken out of the summary.
   */
  readonly removedSeqs?: readonly number[]
  readonly summaryRewrite?: { readonly checkpointSeq: number; readonly compactionId: string; readonly startSeq: number; readonly endSeq: number }
}

/**
 * Response header of a removal answered `persisted: true` with one tombstone: the facts of
 * {@link DurableTombstoneFacts} as compact JSON, sent with the answer (so only after the
 * durability flush), beside the same facts in the body. A page can read it when the response
 * starts, before it reads the body; see `durable-header.ts`. Absent on every other answer, and when
 * the facts would exceed {@link DURABLE_TOMBSTONE_HEADER_MAX} characters (the body still has them).
 */
export const DURABLE_TOMBSTONE_HEADER = 'x-message-recall-tombstone'

/** Longest {@link DURABLE_TOMBSTONE_HEADER} value sent, in characters (a removal of about 1,000 nodes). */
export const DURABLE_TOMBSTONE_HEADER_MAX = 8192

/** The tombstone a durable removal wrote: what {@link DURABLE_TOMBSTONE_HEADER} carries. */
export type DurableTombstoneFacts = Pick<RemovalValue, 'action' | 'tombstoneSeq' | 'range' | 'shadowedSeqs'>

/** Success value of `restore`: the tombstone was undone in place by a copy of the removed message. */
export interface RestoreValue {
  readonly action: 'restore'
  readonly tombstoneSeq: number
  /** Seq of the restoring copy, the new surface node where the tombstone was. */
  readonly restoredSeq: number
  /** Id of the restored message (the original's id; the restoring copy keeps it). */
  readonly messageId: string
  /** Seq of the removed message the restoring copy was made from. */
  readonly originalSeq: number
  /** The surface's `replaceGeneration` after the append. */
  readonly replaceGeneration: number
  /** True when a persistence listener took part in the durability flush. */
  readonly persisted: boolean
}

/**
 * Success value of `forkBefore`: a new stored session holding the log up to `boundarySeq`, the
 * event just before the tombstone. The original session is not touched.
 */
export interface ForkBeforeValue {
  readonly action: 'forkBefore'
  readonly tombstoneSeq: number
  readonly forkedSessionId: string
  /** Last source event copied into the new session (`tombstoneSeq - 1`). */
  readonly boundarySeq: number
  /** The `session/title` the new session carries, or `null` when it has none. */
  readonly title: string | null
  /** True when a persistence listener took part in the durability flush. */
  readonly persisted: boolean
}

/** Success value of `flush`: the live log is durable through `lastSeq`. */
export interface FlushValue {
  readonly action: 'flush'
  /** Seq of the last event of the live log when the flush settled. */
  readonly lastSeq: number
  /** True when a persistence listener took part in the durability flush. */
  readonly persisted: boolean
}

/** Success value of `plan`: what the `planAction` would remove; nothing is appended. */
export interface PlanValue {
  readonly action: TombstoneAction
  readonly range: SurfaceRange
  /** Shadowed surface seqs, in surface order (absorbed tombstones included). */
  readonly shadowedSeqs: readonly number[]
  /** Node kind of each shadowed node, aligned with `shadowedSeqs`. */
  readonly nodeKinds: readonly NodeKind[]
  /** How many messages would leave the model's context: the shadowed nodes that are not tombstones. Send it back as `expect.removedCount`. */
  readonly removedCount: number
  /** Rough token count of the removed messages (characters / 4; see `src/shared/token-estimate.ts`). */
  readonly estimatedTokens: number
  /** The model step removed whole or widened into, when any. */
  readonly turn?: number
  readonly step?: number
  /** The view this plan was made against; send it back as `expect` (with `removedCount`) to write exactly this plan. */
  readonly replaceGeneration: number
  readonly lastSeq: number
  /**
   * Present when the target is a message a compaction folded: the write is a summary rewrite, a
   * model call over the compacted range's original messages without the removed ones, replacing
   * the checkpoint `checkpointSeq` (then `range` and `shadowedSeqs` name that checkpoint, and
   * `removedCount` and `estimatedTokens` the folded messages).
   */
  readonly summaryRewrite?: SummaryRewritePlan
}

/** What a summary rewrite would send the model, as a `plan` reports it. */
export interface SummaryRewritePlan {
  /** The checkpoint on the surface the rewrite replaces. */
  readonly checkpointSeq: number
  /** The folded messages that would leave the summary, in log order. */
  readonly removedSeqs: readonly number[]
  /** How many original messages the new summary is made from. */
  readonly inputMessages: number
  /** Rough token count of those messages (characters / 4), the model call's input without the system prompt and tools. */
  readonly estimatedInputTokens: number
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
  /** Batches (`apply`) of which the log holds only some writes: a torn write kept a prefix (see `batch-mark.ts`). */
  readonly cutShortBatches: readonly CutShortBatch[]
}

/** A tombstone as `inspect` reports it (`action` includes `exclude`). */
export interface InspectedTombstone extends TombstoneRecord {
  /** False once a later replace (a tombstone, a restore or a compaction) shadowed it. */
  readonly onSurface: boolean
  /**
   * False once a restore undid the tombstone (or undid the later tombstone of this plugin that
   * absorbed it); true otherwise: on the surface, absorbed by a later tombstone in effect, or
   * folded by a compaction (the removed messages stay out of the model's view).
   */
  readonly inEffect: boolean
  /** Seq of the restoring copy that undid this tombstone, or `null`. */
  readonly restoredBy: number | null
}

/** Success value of `inspect`; a side is `null` where it is unavailable. */
export interface InspectValue {
  readonly live: LogSummary | null
  readonly disk: LogSummary | null
}

/**
 * Success value of `editSummary` and `undoRewrite`: a new compaction replaced the checkpoint
 * `replacedSeq` with `checkpointSeq` (no model call).
 */
export interface SummaryEditValue {
  readonly action: 'editSummary' | 'undoRewrite' | 'rewriteSummary'
  /** Seq of the new checkpoint. */
  readonly checkpointSeq: number
  /** Seq of the checkpoint it replaced. */
  readonly replacedSeq: number
  readonly compactionId: string
  readonly replaceGeneration: number
  readonly persisted: boolean
  /** `rewriteSummary` only: the removed messages the new summary leaves out that the old one held (`summary-flag.ts`), in log order. */
  readonly removedSeqs?: readonly number[]
}

/**
 * Body of `rewriteSummary`: the summary on the surface at `checkpointSeq` made again (a model
 * call) from the originals of its range minus every removed message; with `action: 'plan'` and
 * `planAction: 'rewriteSummary'`, what that call would be (a {@link SummaryRefreshPlanValue}).
 */
export interface SummaryRefreshRequestBody {
  readonly sessionId: string
  readonly action: 'rewriteSummary' | 'plan'
  readonly planAction?: 'rewriteSummary'
  readonly checkpointSeq: number
  readonly expect?: ViewExpectation
}

/** Success value of a `plan` of `rewriteSummary`: what the model call would be made from; nothing is appended. */
export interface SummaryRefreshPlanValue {
  readonly action: 'plan'
  readonly planAction: 'rewriteSummary'
  readonly checkpointSeq: number
  /** The removed messages the current summary still holds (`summary-flag.ts`), which the new one leaves out, in log order. */
  readonly removedSeqs: readonly number[]
  /** How many original messages the new summary is made from. */
  readonly inputMessages: number
  /** Rough token count of those messages (characters / 4), the model call's input without the system prompt and tools. */
  readonly estimatedInputTokens: number
  readonly replaceGeneration: number
  readonly lastSeq: number
}

/** Body of `editSummary` (`summary`: the new summary text, non-empty) and `undoRewrite`. */
export interface SummaryEditRequestBody {
  readonly sessionId: string
  readonly action: 'editSummary' | 'undoRewrite'
  /** The compaction checkpoint on the surface (for `undoRewrite`, a summary rewrite of this plugin). */
  readonly checkpointSeq: number
  readonly summary?: string
  readonly expect?: ViewExpectation
}

/** Every success value a write answers with. */
export type WriteValue = RemovalValue | RestoreValue | ForkBeforeValue | FlushValue | ApplyValue | SummaryEditValue

/** The error body of a refused or failed request. */
export interface RouteError {
  readonly code: ErrorCode
  /** English, prefixed `message-recall:`, naming the offending values; never an absolute machine path. */
  readonly message: string
  /**
   * `PERSIST_FAILED` only. `true`: the write is in the live log (the model already no longer sees
   * the removed rows, or sees the restored one) but the durability flush still failed after its
   * retries; a later successful flush (`{ "action": "flush" }`, any later write, turn or graceful
   * stop) makes it permanent, a crash before that loses it. `false`: nothing of this request
   * remains (a `forkBefore` whose fork could not be stored).
   */
  readonly applied?: boolean
  /** `PERSIST_FAILED` with `applied: true`: the value the write would have answered, with `persisted: false`. */
  readonly value?: WriteValue
  /** `PERSIST_FAILED` of a `recall`: the recalled content blocks (as in {@link RemovalValue.content}). */
  readonly content?: readonly unknown[]
  /** `PERSIST_FAILED` of a `recall`: the recalled plain text. */
  readonly text?: string
  /** `apply` and batch `plan`: index of the refused change in `changes`. */
  readonly index?: number
  /**
   * `NOT_ERASABLE` only: why (`NOT_A_TOMBSTONE`, `EXCLUSION`, `NOT_IN_EFFECT`, `ALREADY_ERASED`,
   * `session-open`; see the host's `erase-session.ts`).
   */
  readonly reason?: string
  /** `HOME_IN_USE` only: pid of the other host's process that holds the DSH home. */
  readonly holderPid?: number
}

/** The reply envelope. */
export type RouteReply<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly error: RouteError }

/** One change of an `apply` or batch `plan`: a removal by surface seq, or an in-place restore by tombstone seq. */
export type ChangeBody =
  | { readonly action: BatchRemovalAction; readonly seq: number }
  | { readonly action: 'restore'; readonly tombstoneSeq: number }

/**
 * How much of its plan a batch `plan` answers: `writes` (the default) answers a
 * {@link BatchPlanValue}, every write with its seqs; `counts` answers a {@link BatchPlanCounts},
 * the counts alone (a 500-change plan answers about 200 bytes instead of about 45 KB).
 */
export type BatchPlanDetail = 'writes' | 'counts'

/** Body of `apply`, and of a batch `plan` (same fields, `action: 'plan'`, and `detail`). */
export interface ApplyRequestBody {
  readonly sessionId: string
  readonly action: 'apply' | 'plan'
  readonly changes: readonly ChangeBody[]
  readonly expect?: ViewExpectation
  /** Batch `plan` only: how much of the plan to answer; default `writes`. */
  readonly detail?: BatchPlanDetail
}

/** What one change of an `apply` wrote. Merged changes name the same tombstone. */
export interface ApplyChangeResult {
  /** Index of the change in the request's list. */
  readonly index: number
  readonly action: ChangeBody['action']
  /** The tombstone written for a removal, or the restored tombstone of a restore. */
  readonly tombstoneSeq: number
  /** Restore only: seq of the restoring copy. */
  readonly restoredSeq?: number
  /** Removal only: the tombstone's inclusive surface range. */
  readonly range?: SurfaceRange
  /** Removal only: every node the tombstone shadows, in surface order. */
  readonly shadowedSeqs?: readonly number[]
}

/** Success value of `apply`. */
export interface ApplyValue {
  readonly action: 'apply'
  readonly results: readonly ApplyChangeResult[]
  /** The surface's `replaceGeneration` after the batch. */
  readonly replaceGeneration: number
  /** True when a persistence listener took part in the durability flush. */
  readonly persisted: boolean
}

/** One write a batch would make, as a batch `plan` reports it. */
export interface PlannedWrite {
  readonly kind: 'tombstone' | 'restore'
  /** Indexes of the changes this write carries. */
  readonly changeIndexes: readonly number[]
  /** Tombstone: its action and the seqs it shadows that the session holds now, in surface order. */
  readonly action?: BatchRemovalAction
  readonly shadowedSeqs?: readonly number[]
  /**
   * Tombstone: the batch's own earlier writes it shadows (their events have no seq before they are
   * written), by position in `writes`: an earlier tombstone of the batch (an exclusion a later
   * removal covers), or the copy an earlier restore puts back. Absent when it shadows none.
   */
  readonly shadowedWrites?: readonly number[]
  /** Restore: the tombstone undone and the message that comes back. */
  readonly tombstoneSeq?: number
  readonly restoredSeq?: number
}

/**
 * Success value of a batch `plan` with `detail: 'counts'`: the counts of what `apply` would write,
 * without the writes, their seqs or the token estimates (the editor reads only `removedCount`);
 * nothing is appended.
 */
export interface BatchPlanCounts {
  readonly action: 'plan'
  readonly detail: 'counts'
  readonly tombstoneCount: number
  readonly restoreCount: number
  /** How many messages would leave the model context (a {@link BatchPlanValue}'s `removedSeqs.length`); send it back as `expect.removedCount`. */
  readonly removedCount: number
  /** How many removed messages would come back (`restoredSeqs.length`). */
  readonly restoredCount: number
  readonly replaceGeneration: number
  readonly lastSeq: number
  /** Present when the batch takes folded messages: the rewrite's counts (a {@link SummaryRewritePlan} without its seqs). */
  readonly summaryRewrite?: SummaryRewriteCounts
}

/** A {@link SummaryRewritePlan} as a counts-only batch `plan` answers it. */
export interface SummaryRewriteCounts {
  readonly checkpointSeq: number
  /** How many folded messages would leave the summary. */
  readonly removedCount: number
  readonly inputMessages: number
  readonly estimatedInputTokens: number
}

/** Success value of a batch `plan`: what `apply` would write; nothing is appended. */
export interface BatchPlanValue {
  readonly action: 'plan'
  readonly writes: readonly PlannedWrite[]
  readonly tombstoneCount: number
  readonly restoreCount: number
  /** Seqs of the messages that would leave the model context; send their count back as `expect.removedCount`. */
  readonly removedSeqs: readonly number[]
  /** Seqs of removed messages that would come back. */
  readonly restoredSeqs: readonly number[]
  /** Rough token total of what leaves / comes back (characters / 4). */
  readonly estimatedTokens: number
  readonly restoredTokens: number
  readonly replaceGeneration: number
  readonly lastSeq: number
  /**
   * Present when changes take messages a compaction folded: `apply` rewrites that summary with a
   * model call (its `removedSeqs` are the folded messages; `removedSeqs` above holds them too).
   */
  readonly summaryRewrite?: SummaryRewritePlan
}
