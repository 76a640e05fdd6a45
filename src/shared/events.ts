/**
 * Structural view of a DSH session event as this project reads it: the envelope written by
 * `Session.append` and persisted line by line in the JSONL log (`dsh-session/lib/types/types.d.ts`,
 * `SessionEvent`). Kept structural on purpose, so the browser bundle and the log scripts can use
 * it without importing DSH's branded types.
 *
 * @module dsh-message-recall/shared/events
 */

/** One session event: `seq` is its log position (`seq === index`), `time` epoch milliseconds. */
export interface LogEvent {
  readonly type: string
  readonly seq: number
  readonly time: number
  readonly data: unknown
  /** Surface marker: `'append'`, or a replace op (shape in `replace-op.ts`). Only on surface-eligible types. */
  readonly surfaceOp?: unknown
  /** Seqs of earlier events this event cites; a replacement lists every shadowed surface node. */
  readonly sourceEventSeqs?: readonly number[]
  readonly ignorable?: true
}

/** The three surface-eligible event types of rc.8 (`dsh-session/lib/types/surface.js`, `isSurfaceEligibleType`). */
export const SURFACE_EVENT_TYPES = ['user/message', 'assistant/message', 'tool/result'] as const

/**
 * True when `value` can be an event seq: a non-negative safe integer (`seq === index` in the log).
 * rc.8's fractional row positions (`anchorSeq` of synthetic rows) are not seqs.
 */
export function isSeq(value: unknown): value is number {
  return Number.isSafeInteger(value) && (value as number) >= 0
}

/** True when `value` is a plain (non-array) object. */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}
