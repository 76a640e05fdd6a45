/**
 * The conversation editor's model, from a session's whole durable log: every message the person
 * or the model wrote, grouped by turn into *units* (a prompt or steering message, with the
 * session-reference snapshot it caused; an answer with its tool results as one model step), each with its state on the surface, and the pure
 * preview of a selection: which units go, which come back, the counts, the token estimate, and
 * the `changes` list one `apply` sends. Pure and browser-safe.
 *
 * Three jobs, one function each: {@link groupUnits} groups the messages into units,
 * {@link unitStanding} reads each unit's state from the one fate reader (`shared/fate.ts`, which
 * the chat's hiding reads too, so the editor and the chat agree), and {@link buildEditorUnits}
 * joins them with the rows' previews and token estimates.
 *
 * @module dsh-message-recall/client/editor/editor-model
 */
import { isRecord, type LogEvent } from '../../shared/events'
import { logKinds, readFates, type FateState, type Fates, type KindLookup } from '../../shared/fate'
import type { ChangeBody } from '../../shared/protocol'
import { classifyNode, contentOf, stepOf, toolCallIds } from '../../shared/surface-node'
import { plainText } from '../../shared/message-text'
import { readableToolText } from '../text/tool-result-text'
import { estimateTokens } from '../../shared/token-estimate'
import { meterMessageTokens } from './meter-estimate'

/** Where a unit stands now: its lead message's fate (`shared/fate.ts`). */
export type UnitState = FateState

/** One message row of a unit. */
export interface EditorRow {
  readonly seq: number
  readonly role: 'user' | 'assistant' | 'tool'
  /** A short plain-text preview (text blocks, or the tool calls' names). */
  readonly text: string
  /** Estimated tokens, characters ÷ 4 (`shared/token-estimate.ts`). */
  readonly tokens: number
  /** Tokens as `dsh-token-meter` prices the message (`meter-estimate.ts`). */
  readonly meterTokens: number
  /**
   * What the message costs in the context now, both ways (`chars`: characters ÷ 4, `meter`: as the
   * token meter prices it): the node that stands for it on the surface (itself, a restoring copy,
   * or a tool-result prune's shorter copy), 0 when it is removed, excluded or folded.
   */
  readonly now: { readonly chars: number; readonly meter: number }
}

/** A prompt (or steering message) with the session-reference snapshot it caused, if any, or one model step. */
export interface EditorUnit {
  /** Stable key: `u<seq>` for a prompt, `s<turn>.<step>` for a step. */
  readonly key: string
  readonly kind: 'prompt' | 'step'
  /** Turn the unit belongs to (a prompt takes the turn it starts), or `null` before any turn. */
  readonly turn: number | null
  readonly rows: readonly EditorRow[]
  readonly state: UnitState
  /**
   * The seq a removal targets: for a `current` unit the surface node (the message itself, or the
   * copy that stands for it); for a `folded` one its message (the host rewrites the summary
   * without it); `null` otherwise.
   */
  readonly targetSeq: number | null
  /** The tombstone of this plugin that removed it (`removed` / `excluded`). */
  readonly tombstoneSeq: number | null
  /** True when that tombstone can be undone in place (`shared/restorable.ts`): on the surface, shadowing this one prompt alone. */
  readonly restorable: boolean
  /** Estimated tokens of the unit's messages, characters ÷ 4. */
  readonly tokens: number
  /** The unit's messages as `dsh-token-meter` prices them (the sum of its rows' `meterTokens`). */
  readonly meterTokens: number
  /** What the unit costs in the context now, both ways (the sum of its rows' `now`). */
  readonly now: { readonly chars: number; readonly meter: number }
}

/** What the person chose in the editor, by unit key. */
export interface EditorSelection {
  /** Current units checked for removal. */
  readonly remove: ReadonlySet<string>
  /** The unit whose From here is set (it and every current unit after it go), or `null`. */
  readonly from: string | null
  /** Removed or excluded units toggled to come back. */
  readonly restore: ReadonlySet<string>
  /**
   * Units of `remove` marked Exclude instead of Delete: they leave the model's context and stay in
   * view. A key not in `remove` is ignored (the From-here span is always a Delete). Absent: none.
   */
  readonly exclude?: ReadonlySet<string>
}

/** The live preview of a selection. */
export interface EditorPreview {
  /** Units that leave the context (deleted or excluded). */
  readonly going: ReadonlySet<string>
  /** The units of `going` that are excluded: they stay in view, dimmed. */
  readonly excluding: ReadonlySet<string>
  /** Units that come back. */
  readonly coming: ReadonlySet<string>
  /** Message rows that leave, and their estimated tokens. */
  readonly messages: number
  readonly tokens: number
  /** The message rows of `messages` that stay in view (excluded). */
  readonly inView: number
  /** Units that come back. */
  readonly back: number
  /** The `changes` of one `apply`, in unit order: deletes, exclusions, the From-here, restores. */
  readonly changes: readonly ChangeBody[]
  /** For each change (by index), the key of the unit it stands for. */
  readonly changeUnits: readonly string[]
}

/** The empty selection. */
export const EMPTY_SELECTION: EditorSelection = { remove: new Set(), from: null, restore: new Set(), exclude: new Set() }

const PREVIEW_CHARS = 160

const NOTHING = Object.freeze({ chars: 0, meter: 0 })

/** The cost now of a message whose node on the surface is `acting` (`undefined`: not on the surface). */
function costOf(acting: LogEvent | undefined): { chars: number; meter: number } {
  if (acting === undefined) return NOTHING
  const content = contentOf(acting)
  return { chars: estimateTokens([content]), meter: meterMessageTokens(content) }
}

function rowOf(event: LogEvent, acting: LogEvent | undefined): EditorRow {
  const content = contentOf(event)
  // A tool result's text sits inside its `tool-result` block.
  let text = readableToolText(plainText(content.flatMap((b) => (isRecord(b) && b.type === 'tool-result' && Array.isArray(b.content) ? b.content : [b]))))
  if (text === '' && event.type === 'assistant/message') text = toolCallIds(event).length > 0 ? toolNames(content) : ''
  const role = event.type === 'user/message' ? 'user' : event.type === 'assistant/message' ? 'assistant' : 'tool'
  return { seq: event.seq, role, text: text.length > PREVIEW_CHARS ? `${text.slice(0, PREVIEW_CHARS)}…` : text, tokens: estimateTokens([content]), meterTokens: meterMessageTokens(content), now: acting === event ? { chars: estimateTokens([content]), meter: meterMessageTokens(content) } : costOf(acting) }
}

function toolNames(content: readonly unknown[]): string {
  return content.filter((b) => isRecord(b) && b.type === 'tool-call').map((b) => String((b as { name?: unknown }).name ?? '')).join(', ')
}

/** The events of one unit, in log order, before its state is read. */
export interface UnitGroup {
  /** `u<seq>` for a prompt, `s<turn>.<step>` for a step (see {@link EditorUnit.key}). */
  readonly key: string
  readonly kind: 'prompt' | 'step'
  readonly turn: number | null
  /** A prompt's one `user/message`; a step's `assistant/message` and `tool/result` events. */
  readonly events: readonly LogEvent[]
}

/**
 * Group a log's appended messages into units: each message the person sent alone (a prompt or a
 * steering message, with the turn it was sent in), and each model step's messages together (keyed
 * by the step's turn and number). Injected context messages and replacements are skipped.
 * @param log - every event of the session in ascending seq order.
 * @returns the groups in the log order of their first message.
 */
export function groupUnits(log: readonly LogEvent[]): UnitGroup[] {
  const units: { key: string; kind: 'prompt' | 'step'; turn: number | null; events: LogEvent[] }[] = []
  const steps = new Map<string, (typeof units)[number]>()
  let turn: number | null = null
  for (const event of log) {
    if (event.type === 'turn/start' && isRecord(event.data) && Number.isSafeInteger(event.data.turn)) turn = event.data.turn as number
    if (event.surfaceOp !== 'append') continue
    if (event.type === 'user/message') {
      const kind = classifyNode(event)
      // A session-reference snapshot goes with the prompt that cited it (the one right before it, as the host plans).
      const last = units.at(-1)
      if (kind === 'reference' && last?.kind === 'prompt' && last.events.length === 1 && last.events[0]!.seq === event.seq - 1) last.events.push(event)
      if (kind !== 'user') continue
      units.push({ key: `u${event.seq}`, kind: 'prompt', turn, events: [event] })
      continue
    }
    const step = stepOf(event)
    if (step === null) continue
    const key = `s${step.turn}.${step.step}`
    let unit = steps.get(key)
    if (unit === undefined) {
      unit = { key, kind: 'step', turn: step.turn, events: [] }
      steps.set(key, unit)
      units.push(unit)
    }
    unit.events.push(event)
  }
  return units
}

/**
 * Whether a unit in this state can be selected for removal: a `current` one, and a `folded` one (a
 * compaction summarized it: its removal rewrites the summary, `host/summary-batch.ts`).
 * @param state - the unit's state.
 * @returns true for `current` and `folded`.
 */
export function selectable(state: UnitState): boolean {
  return state === 'current' || state === 'folded'
}

/** Where a unit stands, from the fate reader; the fields mean what they mean on {@link EditorUnit}. */
export interface UnitStanding {
  readonly state: UnitState
  readonly targetSeq: number | null
  readonly tombstoneSeq: number | null
  readonly restorable: boolean
}

/**
 * Where a unit stands: the fate (`shared/fate.ts`) of its lead message (a prompt's message, a
 * step's `assistant/message`), and whether a prompt's removal can be undone in place
 * (`shared/restorable.ts`' rule, through {@link Fates.canRestore}).
 * @param group - the unit's events.
 * @param fates - the fate reader over the whole log.
 * @param kindOf - node kind of any seq of the log.
 * @returns the state, the seq a removal targets (`current` only), the deciding tombstone and restorability.
 */
export function unitStanding(group: UnitGroup, fates: Fates, kindOf: KindLookup): UnitStanding {
  const lead = group.events.find((e) => e.type !== 'tool/result') ?? group.events[0]!
  const fate = fates.fateOf(lead.seq)
  const restorable = group.kind === 'prompt' && fate.tombstoneSeq !== null && fates.canRestore(fate.tombstoneSeq, kindOf)
  return { state: fate.state, targetSeq: selectable(fate.state) ? fate.actingSeq : null, tombstoneSeq: fate.tombstoneSeq, restorable }
}

/**
 * Build the units of a session from its whole log: {@link groupUnits}, then each unit's standing
 * ({@link unitStanding}), rows and token estimate.
 * @param log - every event of the session in ascending seq order (all history pages joined).
 * @returns the units in log order.
 */
export function buildEditorUnits(log: readonly LogEvent[]): EditorUnit[] {
  const fates = readFates(log)
  const kindOf = logKinds(log)
  const bySeq = new Map<number, LogEvent>()
  for (const event of log) bySeq.set(event.seq, event)
  const acting = (event: LogEvent): LogEvent | undefined => {
    const fate = fates.fateOf(event.seq)
    return fate.state !== 'current' ? undefined : fate.actingSeq === event.seq ? event : bySeq.get(fate.actingSeq)
  }
  return groupUnits(log).map((group) => {
    const rows = group.events.map((event) => rowOf(event, acting(event)))
    return {
      key: group.key,
      kind: group.kind,
      turn: group.turn,
      rows,
      ...unitStanding(group, fates, kindOf),
      tokens: estimateTokens(group.events.map(contentOf)),
      meterTokens: rows.reduce((sum, row) => sum + row.meterTokens, 0),
      now: { chars: rows.reduce((sum, row) => sum + row.now.chars, 0), meter: rows.reduce((sum, row) => sum + row.now.meter, 0) },
    }
  })
}

/**
 * The preview of a selection over the units.
 * @param units - from {@link buildEditorUnits}.
 * @param selection - the person's choice; keys of units that cannot take the choice are ignored
 *   (a removal of a unit that is neither current nor folded, a restore of one that is not
 *   restorable). A folded unit's messages count as leaving, its tokens do not (it costs nothing
 *   in the context now); From here on a folded unit takes the folded units after it too.
 * @returns what goes (and which of it is excluded), what comes back, the counts and the `changes` list.
 */
export function previewSelection(units: readonly EditorUnit[], selection: EditorSelection): EditorPreview {
  const going = new Set<string>()
  const excluding = new Set<string>()
  const coming = new Set<string>()
  const changes: ChangeBody[] = []
  const changeUnits: string[] = []
  let messages = 0
  let tokens = 0
  let inView = 0
  const fromIndex = selection.from === null ? -1 : units.findIndex((u) => u.key === selection.from && selectable(u.state))
  // From a summarized unit, the span takes the summarized units after it too (the host rewrites the summary without them).
  const fromFolded = fromIndex !== -1 && units[fromIndex]!.state === 'folded'
  // An index loop: `entries()` makes a pair per unit, thousands per toggle.
  for (let i = 0; i < units.length; i++) {
    const unit = units[i]!
    if (selectable(unit.state)) {
      const onward = fromIndex !== -1 && i >= fromIndex && (unit.state === 'current' || fromFolded)
      if (!onward && !selection.remove.has(unit.key)) continue
      going.add(unit.key)
      messages += unit.rows.length
      // A summarized unit costs nothing in the context now: its messages leave the summary, not the count.
      if (unit.state === 'current') tokens += unit.tokens
      if (i === fromIndex) {
        changes.push({ action: 'deleteFrom', seq: unit.targetSeq! })
        changeUnits.push(unit.key)
      } else if (!onward) {
        const exclude = selection.exclude?.has(unit.key) === true
        if (exclude) {
          excluding.add(unit.key)
          inView += unit.rows.length
        }
        changes.push({ action: exclude ? 'exclude' : 'delete', seq: unit.targetSeq! })
        changeUnits.push(unit.key)
      }
    } else if (unit.restorable && selection.restore.has(unit.key)) {
      coming.add(unit.key)
      changes.push({ action: 'restore', tombstoneSeq: unit.tombstoneSeq! })
      changeUnits.push(unit.key)
    }
  }
  return { going, excluding, coming, messages, tokens, inView, back: coming.size, changes, changeUnits }
}
