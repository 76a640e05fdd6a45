/**
 * The one place that knows the shape of a surface `replace` op. DSH 0.1.0-rc.8 accepts exactly
 * the own keys `op`, `start`, `end` (`SurfaceOp` in `dsh-session/lib/types/types.d.ts`, validator
 * `isReplaceOp` in `dsh-session/lib/types/surface.js`); `start` and `end` are inclusive surface
 * seqs, ordered by surface position, not numerically, and any other key is refused with
 * `session event "user/message" carries an invalid replace surfaceOp`. Later DSH lines spell the
 * op differently; CONTRIBUTING's list of what is coupled to rc.8 names the change.
 *
 * @module dsh-message-recall/shared/replace-op
 */
import { isRecord } from './events'

/** The rc.8 replace op: inclusive surface seqs `start` … `end`. */
export interface ReplaceOp {
  readonly op: 'replace'
  readonly start: number
  readonly end: number
}

/**
 * Build the replace op for the inclusive surface range `start` … `end`.
 * @param start - seq of the first shadowed surface node.
 * @param end - seq of the last shadowed surface node (may be numerically smaller than `start`).
 * @returns a fresh `{ op: 'replace', start, end }`.
 */
export function replaceOp(start: number, end: number): ReplaceOp {
  return { op: 'replace', start, end }
}

/**
 * Read a `surfaceOp` value as a replace range.
 * @param surfaceOp - the `surfaceOp` field of an event envelope (any value).
 * @returns `{ start, end }` when it is an rc.8 replace op, otherwise `null` (`'append'`, absent, or another shape).
 */
export function readReplaceOp(surfaceOp: unknown): { start: number; end: number } | null {
  if (!isRecord(surfaceOp) || surfaceOp.op !== 'replace') return null
  const { start, end } = surfaceOp
  if (!Number.isSafeInteger(start) || !Number.isSafeInteger(end)) return null
  return { start: start as number, end: end as number }
}
