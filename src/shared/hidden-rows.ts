/**
 * Which transcript rows this plugin hides, derived from the session log alone. The browser client
 * runs it on every sync pass over the tombstones it read from the session's durable history, and
 * `explain-session --rows` runs the same function over a log file, so the two cannot disagree.
 *
 * Rules, in order:
 * 1. A row that stands for a surface node (its `seq`) is hidden when a tombstone of this plugin
 *    shadows that seq. Every tombstone in `events` counts, including one a later tombstone shadowed
 *    in turn (nested tombstones), so what an earlier removal hid stays hidden.
 * 2. A Delete-onward tombstone also hides the log-only rows (turn bars, turn errors, retries, running
 *    or interrupted tool and step rows, commands) whose log position lies after the first shadowed
 *    seq and before the tombstone itself. Nothing logged after the tombstone is hidden.
 * 3. A turn whose content rows (`user`, `steering`, `assistant-step`, `tool-call`) are all hidden
 *    loses its turn-scoped log-only rows too (`turn-tail`, `turn-error`, `turn-max-tokens`,
 *    `model-retry`) and its `context` rows (the runtime-context snapshot the harness injects with
 *    a step, `dsh-agent-loop` `RuntimeContextProjection`): neither a turn bar nor a lone "Context
 *    injection" row stays behind for an empty turn, where it would read as part of the next one.
 *    A turn with any visible content row keeps all of them, and a turn that never had a content
 *    row hides nothing by this rule.
 *
 * Compaction checkpoints and tool-result prunes are replacements too, but they are not tombstones
 * (`isTombstoneEvent`), so they never hide a row: DSH keeps showing what compaction folded.
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
import { readTombstone, type TombstoneRecord } from './tombstone'

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
}

/** Why a row is hidden; see the module rules. */
export type HiddenReason = 'shadowed' | 'span' | 'empty-turn'

/** One hidden row and the tombstone that caused it (`null` for `empty-turn`). */
export interface HiddenRow {
  readonly key: string
  readonly rowKind: string
  readonly reason: HiddenReason
  readonly tombstoneSeq: number | null
}

/** Result of {@link deriveHiddenRows}. */
export interface HiddenRowsResult {
  /** Tombstones of this plugin found in `events`, in log order. */
  readonly tombstones: readonly TombstoneRecord[]
  /** Every seq a tombstone shadows, mapped to the latest tombstone that shadows it. */
  readonly shadowed: ReadonlyMap<number, number>
  /** Hidden rows, in the order of the `rows` argument. */
  readonly hidden: readonly HiddenRow[]
  /** Keys of the hidden rows. */
  readonly hiddenKeys: ReadonlySet<string>
}

/** Row kinds that carry a turn's conversation (rule 3). */
export const CONTENT_ROW_KINDS: ReadonlySet<string> = new Set(['user', 'steering', 'assistant-step', 'tool-call'])

/** Turn-scoped log-only row kinds that go when their turn has no content left (rule 3). */
export const TURN_LOG_ROW_KINDS: ReadonlySet<string> = new Set(['turn-tail', 'turn-error', 'turn-max-tokens', 'model-retry'])

/**
 * Every row kind rule 3 hides when its turn has no content left: {@link TURN_LOG_ROW_KINDS} plus
 * `context` (harness-injected messages; they carry a seq, but no one removes them on their own).
 */
export const EMPTY_TURN_ROW_KINDS: ReadonlySet<string> = new Set([...TURN_LOG_ROW_KINDS, 'context'])

/**
 * Read every tombstone of this plugin out of `events`.
 * @param events - any slice of a session log (other events are skipped), in any order.
 * @returns the tombstone records, sorted by seq.
 */
export function readTombstones(events: readonly LogEvent[]): TombstoneRecord[] {
  const out: TombstoneRecord[] = []
  for (const event of events) {
    const record = readTombstone(event)
    if (record !== null) out.push(record)
  }
  return out.sort((a, b) => a.seq - b.seq)
}

/**
 * Map each shadowed seq to the latest tombstone that shadows it.
 * @param tombstones - records from {@link readTombstones}, in seq order.
 * @returns shadowed seq → tombstone seq.
 */
export function shadowedSeqs(tombstones: readonly TombstoneRecord[]): Map<number, number> {
  const shadowed = new Map<number, number>()
  for (const tombstone of tombstones) {
    for (const seq of tombstone.shadowedSeqs) shadowed.set(seq, tombstone.seq)
  }
  return shadowed
}

/**
 * Decide which rows this plugin hides.
 * @param events - the session's events, or any subset that contains its tombstones (the client
 *   passes only the replacement events it collected); non-tombstone events are ignored.
 * @param rows - the transcript rows in display order; see {@link TranscriptRow}.
 * @returns the hidden rows with their reasons; rows not listed stay visible. Never throws on
 *   malformed events: an event that is not a well-formed tombstone of this plugin is skipped.
 */
export function deriveHiddenRows(events: readonly LogEvent[], rows: readonly TranscriptRow[]): HiddenRowsResult {
  const tombstones = readTombstones(events)
  const shadowed = shadowedSeqs(tombstones)
  const spans = onwardSpans(tombstones)
  const reasons = new Map<string, { reason: HiddenReason; tombstoneSeq: number | null }>()

  for (const row of rows) {
    if (row.seq !== null) {
      const by = shadowed.get(row.seq)
      if (by !== undefined) reasons.set(row.key, { reason: 'shadowed', tombstoneSeq: by })
      continue
    }
    const span = spanOf(spans, row.anchorSeq)
    if (span !== null) reasons.set(row.key, { reason: 'span', tombstoneSeq: span })
  }

  // Rule 3: turns whose content rows are all hidden lose their bars and context rows.
  const turns = new Map<number, { content: number; hidden: number }>()
  for (const row of rows) {
    if (row.turn === null || !CONTENT_ROW_KINDS.has(row.rowKind)) continue
    const tally = turns.get(row.turn) ?? { content: 0, hidden: 0 }
    tally.content++
    if (reasons.has(row.key)) tally.hidden++
    turns.set(row.turn, tally)
  }
  for (const row of rows) {
    if (row.turn === null || !EMPTY_TURN_ROW_KINDS.has(row.rowKind) || reasons.has(row.key)) continue
    const tally = turns.get(row.turn)
    if (tally !== undefined && tally.content > 0 && tally.hidden === tally.content) {
      reasons.set(row.key, { reason: 'empty-turn', tombstoneSeq: null })
    }
  }

  const hidden: HiddenRow[] = []
  for (const row of rows) {
    const why = reasons.get(row.key)
    if (why !== undefined) hidden.push({ key: row.key, rowKind: row.rowKind, reason: why.reason, tombstoneSeq: why.tombstoneSeq })
  }
  return { tombstones, shadowed, hidden, hiddenKeys: new Set(reasons.keys()) }
}

/** Open log interval `(after, before)` of one Delete-onward tombstone. */
interface OnwardSpan {
  readonly after: number
  readonly before: number
}

function onwardSpans(tombstones: readonly TombstoneRecord[]): OnwardSpan[] {
  const spans: OnwardSpan[] = []
  for (const tombstone of tombstones) {
    if (tombstone.action !== 'deleteFrom' || tombstone.shadowedSeqs.length === 0) continue
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
