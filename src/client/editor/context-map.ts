/**
 * The editor as a context map, pure: what each unit costs in the model's context now and its
 * share of the whole, the context now and after a selection, the two orders of the list
 * (conversation order, largest first), and the selection presets (old tool output, large tool
 * output, everything before the last compaction). Browser-safe.
 *
 * Two cost bases, and the dialog says which one it shows:
 * - `meter`: `dsh-token-meter`'s own estimator (`meter-estimate.ts`), with
 *   the whole context from the page's `contextBreakdown` projection (system prompt, tools and
 *   messages), used when the page has that projection loaded;
 * - `chars`: characters ÷ 4 (`shared/token-estimate.ts`, the counter's and `plan`'s estimate), with
 *   the whole context the sum of the units' costs, when it is not.
 *
 * @module dsh-message-recall/client/editor/context-map
 */
import type { LogEvent } from '../../shared/events'
import { classifyNode } from '../../shared/surface-node'
import { readReplaceOp } from '../../shared/replace-op'
import type { EditorPreview, EditorUnit } from './editor-model'

/** Which estimate the costs use: the token meter's (its projection is loaded) or characters ÷ 4. */
export type CostBasis = 'meter' | 'chars'

/** The order of the list: the conversation's, or by cost now, largest first. */
export type UnitOrder = 'conversation' | 'largest'

/** `dsh-token-meter`'s `contextBreakdown` projection value as the page reads it (tokens). */
export interface ContextBreakdown {
  readonly systemTokens: number
  readonly toolsTokens: number
  readonly messageTokens: number
}

/**
 * What a unit costs in the context now: the estimate of what stands for its messages on the
 * surface (a tool result a prune shortened costs its shorter copy), nothing when it is removed,
 * excluded or folded into a compaction.
 * @param unit - an editor unit.
 * @param basis - which estimate.
 * @returns tokens.
 */
export function costNow(unit: EditorUnit, basis: CostBasis): number {
  if (unit.state !== 'current') return 0
  return unit.now[basis]
}

/** The context figure at the top of the editor. */
export interface ContextFigure {
  readonly basis: CostBasis
  /** Tokens in the context now. */
  readonly now: number
  /** Tokens in the context once the selection is applied (never below 0). */
  readonly after: number
}

/**
 * The context now and after the selection.
 * @param units - the editor's units.
 * @param preview - the selection's preview (units that leave, units that come back).
 * @param breakdown - the page's `contextBreakdown` projection, or `undefined` when it is not loaded.
 * @returns the basis (`meter` with a breakdown, `chars` without), the context now (the breakdown's
 *   system, tools and messages; otherwise the sum of the units' costs) and after (now, less the
 *   cost of the units that leave, plus the estimate of the units that come back).
 */
export function contextFigure(units: readonly EditorUnit[], preview: Pick<EditorPreview, 'going' | 'coming'>, breakdown: ContextBreakdown | undefined): ContextFigure {
  const basis: CostBasis = breakdown === undefined ? 'chars' : 'meter'
  let sum = 0
  let leaving = 0
  let coming = 0
  for (const unit of units) {
    const cost = costNow(unit, basis)
    sum += cost
    if (preview.going.has(unit.key)) leaving += cost
    if (preview.coming.has(unit.key)) coming += basis === 'meter' ? unit.meterTokens : unit.tokens
  }
  const now = breakdown === undefined ? sum : breakdown.systemTokens + breakdown.toolsTokens + breakdown.messageTokens
  return { basis, now, after: Math.max(0, now - leaving + coming) }
}

/**
 * A unit's share of the whole context now.
 * @param cost - the unit's cost now ({@link costNow}).
 * @param now - the context now ({@link ContextFigure.now}).
 * @returns a fraction in [0, 1] (0 for an empty context).
 */
export function shareOf(cost: number, now: number): number {
  return now <= 0 ? 0 : Math.min(1, cost / now)
}

/**
 * The units in the chosen order. The selection is keyed by unit, so a new order keeps it.
 * @param units - the units in conversation order.
 * @param order - `conversation` (as given) or `largest` (cost now, largest first; ties and the
 *   units that cost nothing keep conversation order).
 * @param basis - which estimate ranks them.
 * @returns a new array for `largest`, the same array for `conversation`.
 */
export function orderUnits(units: readonly EditorUnit[], order: UnitOrder, basis: CostBasis): readonly EditorUnit[] {
  if (order === 'conversation') return units
  const ranked = units.map((unit, index) => ({ unit, index, cost: costNow(unit, basis) }))
  ranked.sort((a, b) => b.cost - a.cost || a.index - b.index)
  return ranked.map((r) => r.unit)
}

/** The newest turn among the units (`null` when no unit belongs to a turn). */
function lastTurnOf(units: readonly EditorUnit[]): number | null {
  let last: number | null = null
  for (const unit of units) if (unit.turn !== null && (last === null || unit.turn > last)) last = unit.turn
  return last
}

/** A unit a preset may select: on the surface, and not in the most recent turn (the model is likely still using it). */
function selectable(unit: EditorUnit, lastTurn: number | null): boolean {
  return unit.state === 'current' && (lastTurn === null || unit.turn !== lastTurn)
}

/**
 * What a step unit's tool results cost in the context now (a pruned result its shorter copy).
 * @param unit - an editor unit.
 * @param basis - which estimate.
 * @returns tokens (0 for a prompt or a step without tool results).
 */
export function toolOutputTokens(unit: EditorUnit, basis: CostBasis): number {
  let tokens = 0
  for (const row of unit.rows) if (row.role === 'tool') tokens += row.now[basis]
  return tokens
}

/**
 * Preset "tool output older than the last N turns": the current model steps with tool results whose
 * turn is older than the last `n` turns. Never a unit of the most recent turn.
 * @param units - the editor's units.
 * @param n - turns kept (an integer ≥ 1; a step of turn t is selected when t ≤ last turn − n).
 * @returns the unit keys, in conversation order.
 */
export function presetOldToolOutput(units: readonly EditorUnit[], n: number): string[] {
  const lastTurn = lastTurnOf(units)
  if (lastTurn === null) return []
  return units.filter((u) => selectable(u, lastTurn) && u.kind === 'step' && u.turn !== null && u.turn <= lastTurn - n && u.rows.some((r) => r.role === 'tool')).map((u) => u.key)
}

/**
 * Preset "tool output larger than K tokens": the current model steps whose tool results together
 * cost more than `k` tokens. Never a unit of the most recent turn.
 * @param units - the editor's units.
 * @param k - tokens (a step is selected when its tool results cost strictly more).
 * @param basis - which estimate.
 * @returns the unit keys, in conversation order.
 */
export function presetLargeToolOutput(units: readonly EditorUnit[], k: number, basis: CostBasis): string[] {
  const lastTurn = lastTurnOf(units)
  return units.filter((u) => selectable(u, lastTurn) && u.kind === 'step' && u.rows.some((r) => r.role === 'tool') && toolOutputTokens(u, basis) > k).map((u) => u.key)
}

/**
 * Preset "everything before the last compaction": the current units whose first message was
 * appended before the session's last compaction checkpoint (what the compaction kept in full).
 * Never a unit of the most recent turn.
 * @param units - the editor's units.
 * @param compactionSeq - the seq of the last compaction checkpoint ({@link lastCompactionSeq}), or `null`.
 * @returns the unit keys, in conversation order (none without a compaction).
 */
export function presetBeforeCompaction(units: readonly EditorUnit[], compactionSeq: number | null): string[] {
  if (compactionSeq === null) return []
  const lastTurn = lastTurnOf(units)
  return units.filter((u) => selectable(u, lastTurn) && (u.rows[0]?.seq ?? Infinity) < compactionSeq).map((u) => u.key)
}

/**
 * The seq of a log's last compaction checkpoint (a `user/message` replace written by DSH's
 * compaction, `shared/surface-node.ts` kind `checkpoint`).
 * @param log - every event of the session in ascending seq order.
 * @returns the seq, or `null` when the session was never compacted.
 */
export function lastCompactionSeq(log: readonly LogEvent[]): number | null {
  for (let i = log.length - 1; i >= 0; i--) {
    const event = log[i]!
    if (event.type === 'user/message' && readReplaceOp(event.surfaceOp) !== null && classifyNode(event) === 'checkpoint') return event.seq
  }
  return null
}
