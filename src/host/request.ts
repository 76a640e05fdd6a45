/**
 * Validation of a parsed request body into a typed request. Unknown fields are refused, so a
 * misspelled field (`startSeq`, `messageID`) fails instead of being ignored.
 *
 * @module dsh-message-recall/host/request
 */
import { ERASE_WHEN, ROUTE_ACTIONS, type EraseWhen, type RouteAction, type ViewExpectation } from '../shared/protocol'
import { isRecord, isSeq } from '../shared/events'
import type { PlanTarget } from './surface-plan'
import { ACTIONS, isTombstoneAction, TOMBSTONE_ACTIONS, type TombstoneAction } from '../shared/actions'
import { batchFieldsOf, parseBatchRequest, takesNoText, type BatchRouteRequest, type RequestRefusal } from './batch-request'
import { valueText } from './value-text'
import type { SummaryEditIntent } from './summary-edit'
import type { SummaryRefreshIntent } from './summary-refresh'

/** A validated request of the route. */
export type RouteRequest =
  | { readonly action: 'inspect' | 'flush'; readonly sessionId: string }
  | { readonly action: TombstoneAction; readonly sessionId: string; readonly target: PlanTarget; readonly expect?: ViewExpectation }
  | { readonly action: 'plan'; readonly planAction: TombstoneAction; readonly sessionId: string; readonly target: PlanTarget; readonly expect?: ViewExpectation }
  | { readonly action: 'restore'; readonly sessionId: string; readonly tombstoneSeq: number; readonly expect?: ViewExpectation }
  | { readonly action: 'forkBefore' | 'cancelErase'; readonly sessionId: string; readonly tombstoneSeq: number }
  | { readonly action: 'erase'; readonly sessionId: string; readonly tombstoneSeq: number; readonly when?: EraseWhen }
  | { readonly action: 'pendingErases'; readonly sessionId: string }
  | { readonly action: 'plan'; readonly planAction: 'erase'; readonly sessionId: string; readonly tombstoneSeq: number }
  | BatchRouteRequest
  | SummaryEditIntent
  | SummaryRefreshIntent

/** Longest accepted session id, in UTF-16 code units (ids DSH mints are `session-<uuid>`, 44); the POST route and the export refuse a longer one with `INVALID_REQUEST`. */
export const MAX_SESSION_ID_LENGTH = 512

/** Longest accepted `messageId`, in UTF-16 code units (message ids DSH mints are uuids, 36); a longer one is refused with `INVALID_REQUEST`, named by its length. */
export const MAX_MESSAGE_ID_LENGTH = 512

/** Every field a request body takes, with the actions that take it (`'*'`: all), in the order the messages list them. */
const FIELD_TABLE: ReadonlyArray<readonly [field: string, actions: '*' | readonly RouteAction[]]> = [
  ['sessionId', '*'],
  ['action', '*'],
  ['seq', [...TOMBSTONE_ACTIONS, 'plan']],
  ['messageId', [...TOMBSTONE_ACTIONS, 'plan']],
  ['tombstoneSeq', ['restore', 'forkBefore', 'erase', 'cancelErase']],
  ['planAction', ['plan']],
  ['checkpointSeq', ['editSummary', 'undoRewrite', 'rewriteSummary', 'plan']],
  ['summary', ['editSummary']],
  ['expect', [...TOMBSTONE_ACTIONS, 'restore', 'plan', 'apply', 'editSummary', 'undoRewrite', 'rewriteSummary']],
  ['changes', ['apply', 'plan']],
  ['detail', ['plan']],
  // `now` (default) or `next-start`: kept for the host's next start; asked again for a removal whose
  // erase failed at a start, the failed record is made pending again (no field of its own).
  ['when', ['erase']],
]

/** Every field of any request, in table order: the list the `unknown field` refusal quotes. */
export const REQUEST_FIELDS: readonly string[] = FIELD_TABLE.map(([field]) => field)
const FIELDS = REQUEST_FIELDS

/**
 * The fields an action takes, in table order.
 * @param action - a route action.
 * @returns e.g. `['sessionId', 'action', 'checkpointSeq', 'summary', 'expect']` for `editSummary`.
 */
export function fieldsOf(action: RouteAction): string[] {
  return FIELD_TABLE.filter(([, actions]) => actions === '*' || actions.includes(action)).map(([field]) => field)
}

/**
 * The first field of `body` a request form does not take, with its refusal message: a field no
 * request takes is `unknown field "…" (allowed: <every field>)`, a field of other actions is
 * `batch-request.ts` {@link takesNoText}.
 * @param body - the request object.
 * @param label - the form's name in the message.
 * @param fields - the fields the form takes.
 * @returns the field and the message, or `undefined` when the form takes every field of `body`.
 */
function strayField(body: Record<string, unknown>, label: string, fields: readonly string[]): { readonly field: string; readonly text: string } | undefined {
  const field = Object.keys(body).find((key) => !fields.includes(key))
  if (field === undefined) return undefined
  return { field, text: FIELDS.includes(field) ? takesNoText(label, field, fields) : unknownFieldText(field) }
}

/** `unknown field "<name>" (allowed: <every field of any request>)`. */
function unknownFieldText(field: string): string {
  return `unknown field "${field}" (allowed: ${FIELDS.join(', ')})`
}

/** The fields of a `plan` of one removal (`planAction` a removal): a removal's own, and `planAction`. */
const REMOVAL_PLAN_FIELDS = FIELDS.filter((field) => field === 'planAction' || fieldsOf('delete').includes(field))

/**
 * Check a request's `sessionId`: a non-empty string of at most {@link MAX_SESSION_ID_LENGTH}
 * characters.
 * @param sessionId - the body's `sessionId` (any JSON value, or `undefined` when missing).
 * @returns `{ ok: true, sessionId }` with the string, or `{ ok: false, problem }` with the refusal
 *   message (a value that is not a non-empty string echoed, a long one named by its length).
 */
function checkSessionId(sessionId: unknown): { readonly ok: true; readonly sessionId: string } | { readonly ok: false; readonly problem: string } {
  if (typeof sessionId !== 'string' || sessionId.length === 0) return { ok: false, problem: `sessionId must be a non-empty string, got ${valueText(sessionId)}` }
  if (sessionId.length > MAX_SESSION_ID_LENGTH) return { ok: false, problem: `sessionId must be at most ${MAX_SESSION_ID_LENGTH} characters, got ${sessionId.length}` }
  return { ok: true, sessionId }
}
const EXPECT_FIELDS = ['replaceGeneration', 'lastSeq', 'removedCount']

/**
 * Validate a parsed JSON body.
 * @param body - the parsed body (any JSON value).
 * @returns the typed request, or an `INVALID_REQUEST` refusal naming the offending field and value
 *   (with `index` when it is about one change of `changes`; a missing one reads `got nothing`); a
 *   field the action does not take in one sentence for every action (`batch-request.ts` {@link takesNoText}); a
 *   `sessionId` longer than {@link MAX_SESSION_ID_LENGTH} or a `messageId` longer than
 *   {@link MAX_MESSAGE_ID_LENGTH} is named by its length, never echoed.
 */
export function parseRouteRequest(body: unknown): { ok: true; request: RouteRequest } | { ok: false; refusal: RequestRefusal } {
  const invalid = (message: string): { ok: false; refusal: RequestRefusal } => ({ ok: false, refusal: { code: 'INVALID_REQUEST', message: `message-recall: ${message}` } })
  if (!isRecord(body)) return invalid(`request body must be a JSON object, got ${body === null ? 'null' : Array.isArray(body) ? 'an array' : `a ${typeof body}`}`)
  if (body.action === 'editSummary' || body.action === 'undoRewrite') return parseSummaryEdit(body, invalid)
  if (body.action === 'rewriteSummary' || (body.action === 'plan' && body.planAction === 'rewriteSummary')) return parseSummaryRefresh(body, invalid)
  if (body.action === 'plan' && body.planAction === 'erase') return parseErasePlan(body, invalid)
  const unknown = Object.keys(body).find((key) => !FIELDS.includes(key))
  if (unknown !== undefined) return invalid(unknownFieldText(unknown))

  const { action, seq, messageId, planAction, expect } = body
  const checked = checkSessionId(body.sessionId)
  if (!checked.ok) return invalid(checked.problem)
  const { sessionId } = checked
  if (!ROUTE_ACTIONS.includes(action as RouteAction)) return invalid(`action must be one of ${ROUTE_ACTIONS.join(', ')}, got ${valueText(action)}`)

  if (action === 'apply' || (action === 'plan' && body.changes !== undefined)) {
    const stray = strayField(body, action === 'apply' ? 'apply' : 'plan with changes', batchFieldsOf(action))
    if (stray !== undefined) return invalid(stray.text)
    const expectation = parseExpect(expect)
    if (typeof expectation === 'string') return invalid(expectation)
    return parseBatchRequest(body, expectation)
  }
  // A field the action does not take, named with the fields it takes; the actions that address a
  // tombstone also say how (a plan of one removal takes a removal's fields and its planAction).
  const addressesTombstone = action === 'forkBefore' || action === 'erase' || action === 'cancelErase' || (action !== 'plan' && ACTIONS[action as keyof typeof ACTIONS]?.plans === 'restore')
  const [label, fields] = action === 'plan'
    ? [`plan of ${isTombstoneAction(planAction) ? planAction : 'a removal'}`, REMOVAL_PLAN_FIELDS]
    : [action as string, fieldsOf(action as RouteAction)]
  const stray = strayField(body, label, fields)
  if (stray !== undefined) {
    const byTombstone = addressesTombstone && (stray.field === 'seq' || stray.field === 'messageId')
    return invalid(byTombstone ? `${stray.text}; address the tombstone by tombstoneSeq` : stray.text)
  }
  if (action === 'inspect' || action === 'flush' || action === 'pendingErases') return { ok: true, request: { action, sessionId } }
  // A plan names what it plans before what it plans it on.
  let plannedAction: TombstoneAction | undefined
  if (action === 'plan') {
    if (!isTombstoneAction(planAction)) {
      return invalid(`planAction must be one of ${[...TOMBSTONE_ACTIONS, 'rewriteSummary', 'erase'].join(', ')}, got ${valueText(planAction)}`)
    }
    plannedAction = planAction
  }

  const expectation = parseExpect(expect)
  if (typeof expectation === 'string') return invalid(expectation)
  const withExpect = expectation === undefined ? {} : { expect: expectation }

  // Left here: the action table's actions, `forkBefore`, the erase actions and `plan`. A fork, an
  // erase and a table action of the `restore` shape address a tombstone; the tombstone actions and
  // `plan` address a surface node.
  if (addressesTombstone) {
    const { tombstoneSeq } = body
    if (!isSeq(tombstoneSeq)) return invalid(`tombstoneSeq must be a non-negative safe integer, got ${valueText(tombstoneSeq)}`)
    if (action === 'erase') {
      const { when } = body
      if (when !== undefined && !ERASE_WHEN.includes(when as EraseWhen)) return invalid(`when must be one of ${ERASE_WHEN.join(', ')}, got ${valueText(when)}`)
      return { ok: true, request: { action, sessionId, tombstoneSeq, ...(when === undefined ? {} : { when: when as EraseWhen }) } }
    }
    return action === 'forkBefore' || action === 'cancelErase'
      ? { ok: true, request: { action, sessionId, tombstoneSeq } }
      : { ok: true, request: { action: 'restore', sessionId, tombstoneSeq, ...withExpect } }
  }

  if (seq !== undefined && !isSeq(seq)) return invalid(`seq must be a non-negative safe integer, got ${valueText(seq)}`)
  if (messageId !== undefined && (typeof messageId !== 'string' || messageId.length === 0)) {
    return invalid(`messageId must be a non-empty string, got ${valueText(messageId)}`)
  }
  // A long id is named by its length, never echoed (as a long sessionId).
  if (typeof messageId === 'string' && messageId.length > MAX_MESSAGE_ID_LENGTH) return invalid(`messageId must be at most ${MAX_MESSAGE_ID_LENGTH} characters, got ${messageId.length}`)
  if ((seq === undefined) === (messageId === undefined)) return invalid('exactly one of seq and messageId is required')
  const target: PlanTarget = seq !== undefined ? { seq } : { messageId: messageId as string }

  if (plannedAction !== undefined) return { ok: true, request: { action: 'plan', planAction: plannedAction, sessionId, target, ...withExpect } }
  return { ok: true, request: { action: action as TombstoneAction, sessionId, target, ...withExpect } }
}

/** The `expect` object, `undefined` when absent, or the message saying what is wrong with it. */
function parseExpect(expect: unknown): ViewExpectation | undefined | string {
  if (expect === undefined) return undefined
  if (!isRecord(expect)) return `expect must be an object, got ${valueText(expect)}`
  const stray = Object.keys(expect).find((key) => !EXPECT_FIELDS.includes(key))
  if (stray !== undefined) return `unknown field "expect.${stray}" (allowed: ${EXPECT_FIELDS.join(', ')})`
  for (const key of EXPECT_FIELDS) {
    if (expect[key] !== undefined && !isSeq(expect[key])) return `expect.${key} must be a non-negative safe integer, got ${valueText(expect[key])}`
  }
  return expect as ViewExpectation
}


/** `editSummary` (`checkpointSeq`, a non-empty `summary`) and `undoRewrite` (`checkpointSeq`), with an optional `expect`. */
function parseSummaryEdit(body: Record<string, unknown>, invalid: (message: string) => { ok: false; refusal: RequestRefusal }): { ok: true; request: RouteRequest } | { ok: false; refusal: RequestRefusal } {
  const action = body.action as 'editSummary' | 'undoRewrite'
  const stray = strayField(body, action, fieldsOf(action))
  if (stray !== undefined) return invalid(stray.text)
  const { checkpointSeq, summary } = body
  const checked = checkSessionId(body.sessionId)
  if (!checked.ok) return invalid(checked.problem)
  const { sessionId } = checked
  if (!isSeq(checkpointSeq)) return invalid(`checkpointSeq must be a non-negative safe integer, got ${valueText(checkpointSeq)}`)
  const expectation = parseExpect(body.expect)
  if (typeof expectation === 'string') return invalid(expectation)
  const withExpect = expectation === undefined ? {} : { expect: expectation }
  if (action === 'undoRewrite') return { ok: true, request: { action, sessionId, checkpointSeq, ...withExpect } }
  if (typeof summary !== 'string' || summary.trim().length === 0) return invalid(`summary must be a non-empty string, got ${valueText(summary)}`)
  return { ok: true, request: { action, sessionId, checkpointSeq, summary, ...withExpect } }
}


/** `rewriteSummary` (`checkpointSeq`, an optional `expect`), and its `plan` (`planAction: 'rewriteSummary'`). */
function parseSummaryRefresh(body: Record<string, unknown>, invalid: (message: string) => { ok: false; refusal: RequestRefusal }): { ok: true; request: RouteRequest } | { ok: false; refusal: RequestRefusal } {
  const preview = body.action === 'plan'
  // A plan of a rewrite takes the rewrite's fields and its planAction.
  const fields = preview ? FIELDS.filter((f) => f === 'planAction' || fieldsOf('rewriteSummary').includes(f)) : fieldsOf('rewriteSummary')
  const stray = strayField(body, preview ? 'plan of rewriteSummary' : 'rewriteSummary', fields)
  if (stray !== undefined) return invalid(stray.text)
  const { checkpointSeq } = body
  const checked = checkSessionId(body.sessionId)
  if (!checked.ok) return invalid(checked.problem)
  const { sessionId } = checked
  if (!isSeq(checkpointSeq)) return invalid(`checkpointSeq must be a non-negative safe integer, got ${valueText(checkpointSeq)}`)
  const expectation = parseExpect(body.expect)
  if (typeof expectation === 'string') return invalid(expectation)
  return { ok: true, request: { action: 'rewriteSummary', sessionId, checkpointSeq, ...(expectation === undefined ? {} : { expect: expectation }), ...(preview ? { preview: true as const } : {}) } }
}

const ERASE_PLAN_FIELDS = ['sessionId', 'action', 'planAction', 'tombstoneSeq']

/** The `plan` of an erase (`planAction: 'erase'`, `tombstoneSeq`): what the confirmation of Erase for good shows. */
function parseErasePlan(body: Record<string, unknown>, invalid: (message: string) => { ok: false; refusal: RequestRefusal }): { ok: true; request: RouteRequest } | { ok: false; refusal: RequestRefusal } {
  const stray = strayField(body, 'plan of erase', ERASE_PLAN_FIELDS)
  if (stray !== undefined) return invalid(stray.text)
  const { tombstoneSeq } = body
  const checked = checkSessionId(body.sessionId)
  if (!checked.ok) return invalid(checked.problem)
  const { sessionId } = checked
  if (!isSeq(tombstoneSeq)) return invalid(`tombstoneSeq must be a non-negative safe integer, got ${valueText(tombstoneSeq)}`)
  return { ok: true, request: { action: 'plan', planAction: 'erase', sessionId, tombstoneSeq } }
}
