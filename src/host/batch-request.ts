/**
 * Validation of an `apply` body, and of a `plan` body that carries `changes`, into a typed batch
 * request. Unknown fields are refused at every level, like the single actions.
 *
 * @module dsh-message-recall/host/batch-request
 */
import { isRecord, isSeq } from '../shared/events'
import type { BatchPlanDetail, ViewExpectation } from '../shared/protocol'
import { BATCH_ACTIONS, isTombstoneAction, type BatchRemovalAction } from '../shared/actions'
import type { BatchChange } from './batch-plan'
import type { HttpRefusal } from './http'
import { valueText } from './value-text'

/** A validated batch: `apply`, or `plan` with `changes`. */
export interface BatchRouteRequest {
  readonly action: 'apply' | 'plan'
  readonly sessionId: string
  readonly changes: readonly BatchChange[]
  readonly expect?: ViewExpectation
  /** `plan` only: how much of the plan to answer (absent: `writes`). */
  readonly detail?: BatchPlanDetail
}

/**
 * A refused request body: an {@link HttpRefusal}, plus, when it is about one change of a batch,
 * that change's position in `changes` (`index`, from 0).
 */
export interface RequestRefusal extends HttpRefusal {
  readonly index?: number
}

/** Most changes one batch may carry. */
export const MAX_BATCH_CHANGES = 10_000

const FIELDS = ['sessionId', 'action', 'changes', 'expect']
/**
 * The refusal of a field a request form (or one change of a batch) does not take, one sentence for
 * every action and every change.
 * @param label - the form: an action (`inspect`), a qualified one (`plan of erase`, `plan with
 * changes`), or a change of a batch (`changes[2] (restore)`).
 * @param field - the field sent.
 * @param fields - the fields the form takes, in table order.
 * @param owner - what the fields belong to, when not `label` (`a restore change`).
 * @returns e.g. `inspect takes no seq (fields of inspect: sessionId, action)`.
 */
export function takesNoText(label: string, field: string, fields: readonly string[], owner = label): string {
  return `${label} takes no ${field} (fields of ${owner}: ${fields.join(', ')})`
}

/** A batch `plan` also takes `detail`. */
const PLAN_FIELDS = [...FIELDS, 'detail']

/**
 * The fields of a batch request.
 * @param action - `apply`, or `plan` (with `changes`).
 * @returns `sessionId, action, changes, expect`, and `detail` for a `plan`.
 */
export function batchFieldsOf(action: 'apply' | 'plan'): readonly string[] {
  return action === 'plan' ? PLAN_FIELDS : FIELDS
}
const DETAILS: readonly BatchPlanDetail[] = ['writes', 'counts']

/**
 * Validate a batch body.
 * @param body - the parsed body, already known to be an object with a valid `sessionId`, an
 *   `action` of `apply` or `plan`, no field {@link batchFieldsOf} does not list (the route,
 *   `request.ts`, names a stray one first), and (when present) a validated `expect`; a `plan` may
 *   carry `detail` (`writes` or `counts`).
 * @param expect - the validated `expect`, if any.
 * @returns the typed request, or an `INVALID_REQUEST` refusal naming the field (`changes[2].seq`) and value;
 *   a refusal about one change carries that change's position in `changes` as `index`, one about
 *   the whole body (a bad `detail`, no list, an empty or too long list) carries none.
 */
export function parseBatchRequest(body: Record<string, unknown>, expect: ViewExpectation | undefined): { ok: true; request: BatchRouteRequest } | { ok: false; refusal: RequestRefusal } {
  const invalid = (message: string, index?: number): { ok: false; refusal: RequestRefusal } => ({
    ok: false,
    refusal: { code: 'INVALID_REQUEST', message: `message-recall: ${message}`, ...(index === undefined ? {} : { index }) },
  })
  const { detail } = body
  if (detail !== undefined && !(DETAILS as readonly unknown[]).includes(detail)) return invalid(`detail must be one of ${DETAILS.join(', ')}, got ${valueText(detail)}`)
  const { changes } = body
  if (!Array.isArray(changes) || changes.length === 0) return invalid(`changes must be a non-empty array, got ${valueText(changes)}`)
  if (changes.length > MAX_BATCH_CHANGES) return invalid(`changes holds ${changes.length} entries; at most ${MAX_BATCH_CHANGES} are accepted`)
  const out: BatchChange[] = []
  // A change is named only in a refusal (no string built per change of a long list).
  const at = (i: number): string => `changes[${i}]`
  for (let i = 0; i < changes.length; i++) {
    const change: unknown = changes[i]
    if (!isRecord(change)) return invalid(`${at(i)} must be an object, got ${valueText(change)}`, i)
    const { action } = change
    if (!(BATCH_ACTIONS as readonly unknown[]).includes(action)) return invalid(`${at(i)}.action must be one of ${BATCH_ACTIONS.join(', ')}, got ${valueText(action)}`, i)
    // A tombstone action addresses a surface node by seq; a restore addresses its tombstone.
    const removal = isTombstoneAction(action)
    const key = removal ? 'seq' : 'tombstoneSeq'
    const extra = Object.keys(change).find((k) => k !== 'action' && k !== key)
    if (extra !== undefined) return invalid(takesNoText(`${at(i)} (${action})`, extra, ['action', key], `a ${action} change`), i)
    if (!isSeq(change[key])) return invalid(`${at(i)}.${key} must be a non-negative safe integer, got ${valueText(change[key])}`, i)
    // Exactly `{ action, seq }` or `{ action: 'restore', tombstoneSeq }` now: kept as parsed, not copied.
    out.push(change as unknown as BatchChange)
  }
  return { ok: true, request: { action: body.action as 'apply' | 'plan', sessionId: body.sessionId as string, changes: out, ...(expect === undefined ? {} : { expect }), ...(detail === undefined ? {} : { detail: detail as BatchPlanDetail }) } }
}
