/**
 * The conversation editor's model, from a session's whole durable log: every message the person
 * or the model wrote, grouped by turn into *units* (a prompt or steering message, with the
 * session-reference snapshot it caused; an answer with its tool results as one model step), each with its state on the surface, and the pure
 * preview of a selection: which units go, which come back, the counts, the token estimate, and
 * the `changes` list one `apply` sends. Pure and browser-safe.
 *
 * A node is on the surface when no replacement cites it (rc.8 requires a replace to cite every
 * node it shadows, `dsh-session` `assertProvenance`). A shadowed message follows its shadower:
 * a tombstone of this plugin makes it removed (or excluded), unless a restoring copy undid that
 * tombstone, when the copy stands for it; a tool-result prune's copy stands for the result; a
 * compaction checkpoint or another plugin's replacement folds it.
 *
 * @module dsh-message-recall/client/editor-model
 */
import { isRecord, type LogEvent } from '../shared/events'
import type { ChangeBody } from '../shared/protocol'
import { readReplaceOp } from '../shared/replace-op'
import { readRestore } from '../shared/restore'
import { classifyNode, contentOf, stepOf, toolCallIds } from '../shared/surface-node'
import { plainText } from '../shared/message-text'
import { estimateTokens } from '../shared/token-estimate'
import { readTombstone } from '../shared/tombstone'

/** Where a unit stands now. */
export type UnitState = 'current' | 'removed' | 'excluded' | 'folded'

/** One message row of a unit. */
export interface EditorRow {
  readonly seq: number
  readonly role: 'user' | 'assistant' | 'tool'
  /** A short plain-text preview (text blocks, or the tool calls' names). */
  readonly text: string
  readonly tokens: number
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
  /** The surface seq a removal targets (`current` only): the message itself, or the copy that stands for it. */
  readonly targetSeq: number | null
  /** The tombstone of this plugin that removed it (`removed` / `excluded`). */
  readonly tombstoneSeq: number | null
  /** True when that tombstone can be undone in place: on the surface, shadowing this one prompt alone. */
  readonly restorable: boolean
  /** Estimated tokens of the unit's messages. */
  readonly tokens: number
}

/** What the person chose in the editor, by unit key. */
export interface EditorSelection {
  /** Current units checked for removal. */
  readonly remove: ReadonlySet<string>
  /** The unit whose From here is set (it and every current unit after it go), or `null`. */
  readonly from: string | null
  /** Removed or excluded units toggled to come back. */
  readonly restore: ReadonlySet<string>
}

/** The live preview of a selection. */
export interface EditorPreview {
  /** Units that leave the context. */
  readonly going: ReadonlySet<string>
  /** Units that come back. */
  readonly coming: ReadonlySet<string>
  /** Message rows that leave, and their estimated tokens. */
  readonly messages: number
  readonly tokens: number
  /** Units that come back. */
  readonly back: number
  /** The `changes` of one `apply`, in unit order: removals, the From-here, restores. */
  readonly changes: readonly ChangeBody[]
  /** For each change (by index), the key of the unit it stands for. */
  readonly changeUnits: readonly string[]
}

/** The empty selection. */
export const EMPTY_SELECTION: EditorSelection = { remove: new Set(), from: null, restore: new Set() }

const PREVIEW_CHARS = 160

function rowOf(event: LogEvent): EditorRow {
  const content = contentOf(event)
  // A tool result's text sits inside its `tool-result` block.
  let text = plainText(content.flatMap((b) => (isRecord(b) && b.type === 'tool-result' && Array.isArray(b.content) ? b.content : [b])))
  if (text === '' && event.type === 'assistant/message') text = toolCallIds(event).length > 0 ? toolNames(content) : ''
  const role = event.type === 'user/message' ? 'user' : event.type === 'assistant/message' ? 'assistant' : 'tool'
  return { seq: event.seq, role, text: text.length > PREVIEW_CHARS ? `${text.slice(0, PREVIEW_CHARS)}…` : text, tokens: estimateTokens([content]) }
}

function toolNames(content: readonly unknown[]): string {
  return content.filter((b) => isRecord(b) && b.type === 'tool-call').map((b) => String((b as { name?: unknown }).name ?? '')).join(', ')
}

/**
 * Build the units of a session from its whole log.
 * @param log - every event of the session in ascending seq order (all history pages joined).
 * @returns the units in log order.
 */
export function buildEditorUnits(log: readonly LogEvent[]): EditorUnit[] {
  const bySeq = new Map(log.map((event) => [event.seq, event]))
  const lookup = (seq: number): LogEvent | undefined => bySeq.get(seq)
  const events = log
  const shadowedBy = new Map<number, number>()
  const restoreOf = new Map<number, { seq: number; originalSeq: number }>()
  for (const event of events) {
    if (readReplaceOp(event.surfaceOp) === null) continue
    for (const cited of event.sourceEventSeqs ?? []) if (!shadowedBy.has(cited)) shadowedBy.set(cited, event.seq)
    const restore = readRestore(event, lookup)
    if (restore !== null) restoreOf.set(restore.tombstoneSeq, { seq: restore.seq, originalSeq: restore.originalSeq })
  }

  /**
   * Follow a message through its shadowers to where it stands now; `at` is the node standing for
   * it last (the message itself, or the restoring copy a later tombstone shadowed).
   */
  const resolve = (seq: number): { state: UnitState; surfaceSeq: number | null; tombstoneSeq: number | null; at: number } => {
    let at = seq
    for (;;) {
      const by = shadowedBy.get(at)
      if (by === undefined) return { state: 'current', surfaceSeq: at, tombstoneSeq: null, at }
      const shadower = lookup(by)!
      const tombstone = readTombstone(shadower)
      if (tombstone !== null) {
        const restored = restoreOf.get(by)
        if (restored !== undefined && (restored.originalSeq === seq || restored.originalSeq === at)) {
          at = restored.seq
          continue
        }
        return { state: tombstone.action === 'exclude' ? 'excluded' : 'removed', surfaceSeq: null, tombstoneSeq: by, at }
      }
      const range = readReplaceOp(shadower.surfaceOp)
      if (shadower.type === lookup(at)!.type && range !== null && range.start === at && range.end === at) {
        at = by // a copy of this one message (a pruned tool result)
        continue
      }
      return { state: 'folded', surfaceSeq: null, tombstoneSeq: null, at }
    }
  }

  const units: { key: string; kind: 'prompt' | 'step'; turn: number | null; events: LogEvent[] }[] = []
  const steps = new Map<string, (typeof units)[number]>()
  let turn: number | null = null
  for (const event of events) {
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

  return units.map((u) => {
    const lead = u.events.find((e) => e.type !== 'tool/result') ?? u.events[0]!
    const where = resolve(lead.seq)
    const tombstone = where.tombstoneSeq === null ? null : readTombstone(lookup(where.tombstoneSeq)!)
    // In place only when the tombstone took exactly the node standing for this prompt (a restoring copy, after an earlier restore).
    const restorable = u.kind === 'prompt' && tombstone !== null && !shadowedBy.has(tombstone.seq) && tombstone.shadowedSeqs.length === 1 && tombstone.shadowedSeqs[0] === where.at
    const rows = u.events.map(rowOf)
    return {
      key: u.key,
      kind: u.kind,
      turn: u.turn,
      rows,
      state: where.state,
      targetSeq: where.surfaceSeq,
      tombstoneSeq: where.tombstoneSeq,
      restorable,
      tokens: estimateTokens(u.events.map(contentOf)),
    }
  })
}

/**
 * The preview of a selection over the units.
 * @param units - from {@link buildEditorUnits}.
 * @param selection - the person's choice; keys of units that cannot take the choice are ignored
 *   (a removal of a unit that is not current, a restore of one that is not restorable).
 * @returns what goes, what comes back, the counts and the `changes` list.
 */
export function previewSelection(units: readonly EditorUnit[], selection: EditorSelection): EditorPreview {
  const going = new Set<string>()
  const coming = new Set<string>()
  const changes: ChangeBody[] = []
  const changeUnits: string[] = []
  let messages = 0
  let tokens = 0
  const fromIndex = selection.from === null ? -1 : units.findIndex((u) => u.key === selection.from && u.state === 'current')
  for (const [i, unit] of units.entries()) {
    if (unit.state === 'current') {
      const onward = fromIndex !== -1 && i >= fromIndex
      if (!onward && !selection.remove.has(unit.key)) continue
      going.add(unit.key)
      messages += unit.rows.length
      tokens += unit.tokens
      if (i === fromIndex) {
        changes.push({ action: 'deleteFrom', seq: unit.targetSeq! })
        changeUnits.push(unit.key)
      } else if (!onward) {
        changes.push({ action: 'delete', seq: unit.targetSeq! })
        changeUnits.push(unit.key)
      }
    } else if (unit.restorable && selection.restore.has(unit.key)) {
      coming.add(unit.key)
      changes.push({ action: 'restore', tombstoneSeq: unit.tombstoneSeq! })
      changeUnits.push(unit.key)
    }
  }
  return { going, coming, messages, tokens, back: coming.size, changes, changeUnits }
}
