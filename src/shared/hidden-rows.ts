/**
 * Which transcript rows this plugin hides or dims, derived from the session log alone. The browser
 * client runs it on every sync pass over the replacement events it read from the session's durable
 * history, and `explain-session --rows` runs the same function over a log file, so the two cannot
 * disagree.
 *
 * Each row's message gets its fate from the one fate reader (`fate.ts`): removed by a tombstone of
 * this plugin (Recall, Delete, Delete onward), excluded (Exclude: the row stays in view, dimmed,
 * and the model stops seeing it), current again after a restore (the row then acts on the
 * restoring copy), or folded by a compaction, which hides nothing: DSH keeps showing what
 * compaction folded. Nested tombstones, exclusions a later removal absorbed and restores are
 * `fate.ts`' rules, shared with the editor, the Removed panel and `inspect`.
 *
 * Rules, in order:
 * 1. A row that stands for a surface node (its `seq`) is hidden when the node's fate is removed,
 *    dimmed when it is excluded, and shown otherwise; a restored message shows in its original row,
 *    and actions on that row target the copy's seq (`MessageFate.actingSeq`).
 * 2. A Delete-onward tombstone that is not undone also hides the log-only rows (turn bars, turn
 *    errors, retries, running or interrupted tool and step rows, commands) whose log position lies
 *    after the first shadowed seq and before the tombstone itself. Nothing logged after the
 *    tombstone is hidden.
 * 3. A turn bar belongs to its turn's final answer: the turn's `turn-tail`, `turn-error`,
 *    `turn-max-tokens` and `model-retry` rows go once that answer is removed, even while the prompt
 *    or earlier steps stay, and stay while it stays, whatever else of the turn went. The final
 *    answer is the turn bar's own (`TranscriptRow.answerSeq`, rc.8 `closing.finalNode.seq`, the
 *    message its Copy copies), else the turn's last `assistant-step` row. A turn without an answer
 *    loses these rows once all its content rows (`user`, `steering`, `assistant-step`,
 *    `tool-call`) are removed.
 * 4. A turn whose content rows are all removed loses its `context` rows (the runtime-context
 *    snapshot the harness injects with a step, `dsh-agent-loop` `RuntimeContextProjection`), so no
 *    lone "Context injection" row stays behind where it would read as part of the next turn. A
 *    turn that never had a content row hides nothing by this rule.
 *
 * Ranges are inclusive and the shadowed set is the tombstone's `sourceEventSeqs` (which rc.8
 * requires to list every shadowed surface node), not a numeric interval: after an earlier replace a
 * surface range is not a seq interval.
 *
 * Pure and browser-safe: no DOM, no Node built-ins, no DSH runtime imports.
 *
 * @module dsh-message-recall/shared/hidden-rows
 */
import type { LogEvent } from './events'
import { readFates, type Fates, type MessageFate } from './fate'
import type { RestoreRecord } from './restore'
import type { TombstoneRecord } from './tombstone'
import { ACTIONS } from './actions'

/**
 * One transcript row, as the client reads it from the rc.8 chat store or a script rebuilds it
 * from a log. `rowKind` is the rc.8 row kind (`data-chat-flow-kind`), not a surface node kind.
 */
export interface TranscriptRow {
  /** Stable row key (the rc.8 chat key, e.g. `13:input-message<id>`). */
  readonly key: string
  /** rc.8 row kind: `user`, `steering`, `context`, `assistant-step`, `tool-call`, `turn-tail`, … */
  readonly rowKind: string
  /**
   * Seq of the surface node the row stands for: the message of a `user`/`steering`/`context` row,
   * the final `assistant/message` of an `assistant-step` row, the `tool/result` of a `tool-call`
   * row, the checkpoint of a `compaction` row. `null` for a log-only row.
   */
  readonly seq: number | null
  /**
   * Log position the row is anchored at, used by the Delete-onward span rule: the seq of the event
   * the row is anchored to, rc.8's `anchorSeq` (the `tool/call` of a tool row), except that a
   * turn-scoped log-only row takes the seq of the event it stands for (`turn/end` of a turn bar or
   * turn error, `llm/retry`, `command/run`) where rc.8 anchors it at a fractional position. May be
   * fractional for other synthetic rows.
   */
  readonly anchorSeq: number
  /** Turn the row belongs to, or `null` for rows outside any turn. */
  readonly turn: number | null
  /**
   * `turn-tail` rows only, optional: seq of the turn's final answer, the `assistant/message` the
   * bar's Copy copies (rc.8 turn-tail data `closing.finalNode.seq`). Absent or `null` (a bar
   * without a text answer, or rows rebuilt from a log): the turn's last `assistant-step` row.
   */
  readonly answerSeq?: number | null
}

/**
 * Why a row is hidden; see the module rules: `shadowed` (rule 1), `span` (rule 2),
 * `answer-removed` (rule 3, the turn's final answer went), `empty-turn` (rules 3 and 4, nothing
 * of the turn's content is left).
 */
export type HiddenReason = 'shadowed' | 'span' | 'answer-removed' | 'empty-turn'

/** One hidden row and the tombstone that caused it (`null` for `empty-turn`). */
export interface HiddenRow {
  readonly key: string
  readonly rowKind: string
  readonly reason: HiddenReason
  readonly tombstoneSeq: number | null
}

/** One excluded row: shown dimmed, not sent to the model; `tombstoneSeq` is the exclusion. */
export interface ExcludedRow {
  readonly key: string
  readonly rowKind: string
  readonly tombstoneSeq: number
}

/** Result of {@link deriveHiddenRows}. */
export interface HiddenRowsResult {
  /** Tombstones of this plugin found in `events`, in log order (undone ones included). */
  readonly tombstones: readonly TombstoneRecord[]
  /** Restores found in `events`, in log order. */
  readonly restores: readonly RestoreRecord[]
  /** Tombstone seq → seq of the copy that undid it. */
  readonly restoredBy: ReadonlyMap<number, number>
  /** The fate reader over the same events (restorability, statuses, shadowers). */
  readonly fates: Fates
  /** Hidden rows, in the order of the `rows` argument. */
  readonly hidden: readonly HiddenRow[]
  /** Keys of the hidden rows. */
  readonly hiddenKeys: ReadonlySet<string>
  /** Excluded (dimmed) rows, in the order of the `rows` argument; never hidden at the same time. */
  readonly excluded: readonly ExcludedRow[]
  /** Keys of the excluded rows. */
  readonly excludedKeys: ReadonlySet<string>
  /** Row key → seq its actions target, for rows whose message was restored (the copy's seq). */
  readonly actingSeqs: ReadonlyMap<string, number>
  /**
   * The fate of any surface seq under these events (also seqs without a row, e.g. rows of
   * pages not loaded yet).
   */
  fateOf(seq: number): MessageFate
}

/** Row kinds that carry a turn's conversation (rules 3 and 4). */
export const CONTENT_ROW_KINDS: ReadonlySet<string> = new Set(['user', 'steering', 'assistant-step', 'tool-call'])

/** Turn-scoped log-only row kinds that go with their turn's final answer (rule 3). */
export const TURN_LOG_ROW_KINDS: ReadonlySet<string> = new Set(['turn-tail', 'turn-error', 'turn-max-tokens', 'model-retry'])

/**
 * Every row kind rules 3 and 4 may hide for its turn: {@link TURN_LOG_ROW_KINDS} plus `context`
 * (harness-injected messages; they carry a seq, but no one removes them on their own).
 */
export const EMPTY_TURN_ROW_KINDS: ReadonlySet<string> = new Set([...TURN_LOG_ROW_KINDS, 'context'])

/**
 * Decide which rows this plugin hides and which it dims.
 * @param events - the session's events, or any subset that contains its replacements (the client
 *   passes only the replacement events it collected); other events are ignored.
 * @param rows - the transcript rows in display order; see {@link TranscriptRow}.
 * @returns the hidden and excluded rows with their reasons; rows in neither stay as they are.
 *   Never throws on malformed events: an event that is not a well-formed tombstone or restore of
 *   this plugin is skipped.
 */
export function deriveHiddenRows(events: readonly LogEvent[], rows: readonly TranscriptRow[]): HiddenRowsResult {
  const fates = readFates(events)
  const { tombstones, restores, restoredBy } = fates
  const fateOf = (seq: number): MessageFate => fates.fateOf(seq)
  const spans = onwardSpans(fates)
  const reasons = new Map<string, { reason: HiddenReason; tombstoneSeq: number | null }>()
  const excluded = new Map<string, number>()
  const actingSeqs = new Map<string, number>()

  for (const row of rows) {
    if (row.seq !== null) {
      const fate = fateOf(row.seq)
      if (fate.actingSeq !== row.seq) actingSeqs.set(row.key, fate.actingSeq)
      if (fate.state === 'removed') reasons.set(row.key, { reason: 'shadowed', tombstoneSeq: fate.tombstoneSeq })
      else if (fate.state === 'excluded') excluded.set(row.key, fate.tombstoneSeq!)
      continue
    }
    const span = spanOf(spans, row.anchorSeq)
    if (span !== null) reasons.set(row.key, { reason: 'span', tombstoneSeq: span })
  }

  // Rules 3 and 4, per turn: its final answer and how much of its content is left.
  const turns = new Map<number, { content: number; removed: number; answer: number | null; lastStep: number | null }>()
  const tally = (turn: number) => {
    let t = turns.get(turn)
    if (t === undefined) turns.set(turn, t = { content: 0, removed: 0, answer: null, lastStep: null })
    return t
  }
  for (const row of rows) {
    if (row.turn === null) continue
    if (row.rowKind === 'turn-tail' && row.answerSeq !== undefined && row.answerSeq !== null) tally(row.turn).answer = row.answerSeq
    if (!CONTENT_ROW_KINDS.has(row.rowKind)) continue
    const t = tally(row.turn)
    t.content++
    if (reasons.has(row.key)) t.removed++
    if (row.rowKind === 'assistant-step' && row.seq !== null && (t.lastStep === null || row.seq > t.lastStep)) t.lastStep = row.seq
  }
  for (const row of rows) {
    if (row.turn === null || !EMPTY_TURN_ROW_KINDS.has(row.rowKind) || reasons.has(row.key)) continue
    const t = turns.get(row.turn)
    if (t === undefined) continue
    const empty = t.content > 0 && t.removed === t.content
    if (row.rowKind === 'context') {
      if (empty) reasons.set(row.key, { reason: 'empty-turn', tombstoneSeq: null })
      continue
    }
    const answer = t.answer ?? t.lastStep
    if (answer !== null) {
      const fate = fateOf(answer)
      if (fate.state === 'removed') reasons.set(row.key, { reason: 'answer-removed', tombstoneSeq: fate.tombstoneSeq })
    } else if (empty) reasons.set(row.key, { reason: 'empty-turn', tombstoneSeq: null })
  }

  const hidden: HiddenRow[] = []
  const excludedRows: ExcludedRow[] = []
  for (const row of rows) {
    const why = reasons.get(row.key)
    if (why !== undefined) hidden.push({ key: row.key, rowKind: row.rowKind, reason: why.reason, tombstoneSeq: why.tombstoneSeq })
    const by = excluded.get(row.key)
    if (by !== undefined) excludedRows.push({ key: row.key, rowKind: row.rowKind, tombstoneSeq: by })
  }
  return {
    tombstones, restores, restoredBy, fates, hidden, hiddenKeys: new Set(reasons.keys()),
    excluded: excludedRows, excludedKeys: new Set(excluded.keys()), actingSeqs, fateOf,
  }
}

/** Open log interval `(after, before)` of one Delete-onward tombstone. */
interface OnwardSpan {
  readonly after: number
  readonly before: number
}

/** The spans of the Delete-onward tombstones still in effect (rule 2). */
function onwardSpans(fates: Fates): OnwardSpan[] {
  const spans: OnwardSpan[] = []
  for (const tombstone of fates.tombstones) {
    if (ACTIONS[tombstone.action].plans !== 'onward' || tombstone.shadowedSeqs.length === 0 || !fates.statusOf(tombstone.seq)!.inEffect) continue
    spans.push({ after: Math.min(...tombstone.shadowedSeqs), before: tombstone.seq })
  }
  return spans
}

/** Seq of the latest Delete-onward tombstone whose span holds `anchorSeq`, or `null`. */
function spanOf(spans: readonly OnwardSpan[], anchorSeq: number): number | null {
  let found: number | null = null
  for (const span of spans) {
    if (anchorSeq > span.after && anchorSeq < span.before && (found === null || span.before > found)) found = span.before
  }
  return found
}
