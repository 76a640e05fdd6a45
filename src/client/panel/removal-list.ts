/**
 * The entries of the removed-messages panel, from what the page already holds: the replacement
 * events of the session's durable history (the replacement view) and the Chat store's rows. No
 * request is made and no content leaves the page. Pure.
 *
 * Per tombstone of this plugin, newest first: when, which action, how many messages (for a
 * removal in effect, as many as its erase takes), the first words of what went and a token estimate (both from the rows
 * the page holds, following a restored message back to its original row; `null` when none of
 * them is loaded), whether it is still in effect or was restored, and whether it can be restored
 * in place (on the surface, shadowing exactly one message the person sent): both from the one fate
 * reader (`shared/fate.ts`), the same answers `inspect` and the editor give.
 *
 * Per summary rewrite of this plugin (a compaction checkpoint whose record names the folded
 * messages taken out of the summary, `shared/summary-rewrite.ts`), newest first: when, how many
 * messages it newly left out of the summary (its record against the one of the summary it
 * replaced), and whether it is still the summary the model reads (then it can be undone).
 *
 * @module dsh-message-recall/client/panel/removal-list
 */
import { cutShortBatches, type BatchChangeMark } from '../../shared/batch-mark'
import { isRecord, type LogEvent } from '../../shared/events'
import { readFates, type KindLookup } from '../../shared/fate'
import { readableToolText } from '../text/tool-result-text'
import { plainText } from '../../shared/message-text'
import type { NodeKind } from '../../shared/surface-node'
import { estimateTokens } from '../../shared/token-estimate'
import { ACTIONS, type TombstoneAction } from '../../shared/actions'
import type { ChatNode, ChatSnapshot } from '../wire/rc8'
import type { ReplacementSnapshot } from '../wire/replacement-view'
import { resolveRow } from '../rows/resolve-row'
import { summaryContent } from '../../shared/summary-flag'

/** One panel entry. */
export interface RemovalEntry {
  readonly tombstoneSeq: number
  /** When the tombstone was written, epoch ms. */
  readonly time: number
  readonly action: TombstoneAction
  /**
   * Messages it took out; at least 1. A removal in effect: what its erase takes, also the messages of
   * the removals it absorbed whose fate it decides, never an excluded one in view (`Fates.removedBy`);
   * an exclusion or an undone removal: its own messages (tombstones it absorbed not counted).
   */
  readonly count: number
  /** The first words of what went, or `null` when none of it is in the loaded rows. */
  readonly excerpt: string | null
  /** Estimated tokens of what went (characters / 4 over the loaded rows), or `null`. */
  readonly tokens: number | null
  /** False once a restore undid it (or undid the later removal that absorbed it). */
  readonly inEffect: boolean
  /** Seq of the restoring copy, or `null`. */
  readonly restoredBy: number | null
  /** Restore in place is offered. */
  readonly canRestore: boolean
  /** The removal was erased for good (its tombstone's `source.erased`): nothing of it can come back. */
  readonly erased: boolean
}

/** Longest excerpt, in characters (cut at a word boundary, then "…"). */
export const EXCERPT_CHARS = 80

/** What the page holds of one message: its plain text, content for the estimate, and its node kind. */
interface Held {
  readonly text: string
  readonly content: readonly unknown[]
  /** `user` for a `user`/`steering` row the person sent, `context`, `assistant` or `tool`. */
  readonly kind: NodeKind
}

/**
 * Build the panel's entries.
 * @param replacements - the session's replacement events (the replacement view).
 * @param chat - the session's Chat store.
 * @returns one entry per tombstone of this plugin, newest first.
 */
export function removalEntries(replacements: ReplacementSnapshot, chat: ChatSnapshot): RemovalEntry[] {
  const fates = readFates(replacements)
  const tombstones = fates.tombstones
  if (tombstones.length === 0) return []
  const bySeq = new Map<number, LogEvent>(replacements.map((e) => [e.seq, e]))
  const originalOf = new Map(fates.restores.map((r) => [r.seq, r.originalSeq]))
  const tombstoneSeqs = new Set(tombstones.map((t) => t.seq))
  const held = heldMessages(chat)
  const lookup = (seq: number): Held | undefined => held.get(originalOf.get(seq) ?? seq)
  const kindOf: KindLookup = (seq) => lookup(seq)?.kind ?? null

  return tombstones.map((tombstone) => {
    const status = fates.statusOf(tombstone.seq)!
    const messages = tombstone.shadowedSeqs.filter((seq) => !tombstoneSeqs.has(seq))
    const known = messages.map(lookup).filter((m): m is Held => m !== undefined)
    return {
      tombstoneSeq: tombstone.seq,
      time: bySeq.get(tombstone.seq)?.time ?? 0,
      action: tombstone.action,
      // A removal in effect counts what its erase takes (`Fates.removedBy`: also the messages of the
      // removals it absorbed, never an excluded one in view); an exclusion or an undone one its own.
      count: Math.max(1, status.inEffect && ACTIONS[tombstone.action].effect === 'removed' ? fates.removedBy(tombstone.seq).length : messages.length),
      excerpt: known.length === 0 ? null : excerpt(known.map((m) => m.text).join(' ')),
      tokens: known.length === 0 ? null : estimateTokens(known.map((m) => m.content)),
      inEffect: status.inEffect,
      restoredBy: status.restoredBy,
      canRestore: fates.canRestore(tombstone.seq, kindOf),
      erased: isErased(bySeq.get(tombstone.seq)),
    }
  }).reverse()
}

/** Whether a tombstone event carries the erase mark (`data.source.erased`, written by the host's erase). */
function isErased(event: LogEvent | undefined): boolean {
  const data = event?.data as { readonly source?: { readonly erased?: unknown } } | undefined
  return typeof data === 'object' && data !== null && typeof data.source === 'object' && data.source !== null && data.source.erased !== undefined
}

/** One summary rewrite in the panel. */
export interface RewriteEntry {
  /** Seq of the rewrite's checkpoint. */
  readonly checkpointSeq: number
  /** When it was written, epoch ms. */
  readonly time: number
  /** Messages it left out of the summary that the summary it replaced held (0 for an edit, or an Undo). */
  readonly leftOut: number
  /** It is the summary the model reads now (nothing replaced it), so Undo is offered. */
  readonly onSurface: boolean
}

/**
 * The panel's summary rewrites.
 * @param replacements - the session's replacement events.
 * @returns one entry per summary rewrite of this plugin, newest first.
 */
export function rewriteEntries(replacements: ReplacementSnapshot): RewriteEntry[] {
  const fates = readFates(replacements)
  if (fates.rewrites.length === 0) return []
  const bySeq = new Map<number, LogEvent>(replacements.map((e) => [e.seq, e]))
  const lookup = (seq: number) => bySeq.get(seq)
  return fates.rewrites.map((rewrite) => {
    const replaced = lookup(rewrite.seq)?.sourceEventSeqs?.[2]
    const before = new Set(replaced === undefined ? [] : summaryContent(replaced, lookup).recorded.flatMap((r) => r.seqs))
    const now = new Set(rewrite.removals.flatMap((r) => r.seqs))
    return { checkpointSeq: rewrite.seq, time: lookup(rewrite.seq)?.time ?? 0, leftOut: [...now].filter((seq) => !before.has(seq)).length, onSurface: fates.shadowerOf(rewrite.seq) === null }
  }).reverse()
}

/** A batch (`apply`) of which the history holds only some writes: a torn write kept a prefix of it. */
export interface CutShortEntry {
  /** Seq of the batch's first tombstone. */
  readonly firstSeq: number
  /** Changes the batch held; `null` when the history lacks the tombstone that lists them. */
  readonly changes: number | null
  /** Changes that did not take effect (writes, when the list is missing). */
  readonly missingCount: number
  /** The first {@link CUT_SHORT_SHOWN} of them: the action and the first words of its target (`null` when not loaded). */
  readonly missing: readonly { readonly action: BatchChangeMark['action']; readonly excerpt: string | null }[]
}

/** Missing changes a cut-short entry names one by one. */
export const CUT_SHORT_SHOWN = 5

/**
 * The batches cut short (`shared/batch-mark.ts`, the same answer `inspect` gives), newest first.
 * @param replacements - the session's replacement events (tombstones and restores).
 * @param chat - the session's Chat store, for the first words of each missing change's target.
 */
export function cutShortEntries(replacements: ReplacementSnapshot, chat: ChatSnapshot): CutShortEntry[] {
  const bySeq = new Map<number, LogEvent>(replacements.map((e) => [e.seq, e]))
  const last = replacements.reduce((max, e) => Math.max(max, e.seq), -1)
  const batches = cutShortBatches(last + 1, (seq) => bySeq.get(seq))
  if (batches.length === 0) return []
  const held = heldMessages(chat)
  return batches.map((batch) => ({
    firstSeq: batch.firstSeq,
    changes: batch.changes,
    missingCount: batch.missing?.length ?? batch.writes - batch.written,
    missing: (batch.missing ?? []).slice(0, CUT_SHORT_SHOWN).map((change) => {
      const seq = change.action === 'restore' ? bySeq.get(change.tombstoneSeq)?.sourceEventSeqs?.[0] : change.seq
      const text = seq === undefined ? undefined : held.get(seq)?.text
      return { action: change.action, excerpt: text === undefined ? null : excerpt(text) }
    }),
  })).reverse()
}

/**
 * How many removals the history holds and how many of them are in effect, for the header button
 * (from the replacement events alone, so streaming text does not recompute it).
 * @param replacements - the session's replacement events.
 * @returns `{ total, inEffect, rewrites }` (tombstones, those in effect, summary rewrites).
 */
export function removalCounts(replacements: ReplacementSnapshot): { readonly total: number; readonly inEffect: number; readonly rewrites: number } {
  const fates = readFates(replacements)
  const statuses = [...fates.statuses().values()]
  return { total: statuses.length, inEffect: statuses.filter((s) => s.inEffect).length, rewrites: fates.rewrites.length }
}

/**
 * The first words of a text: whitespace collapsed, cut at a word boundary within
 * {@link EXCERPT_CHARS}, "…" appended when cut.
 * @param text - any text.
 */
export function excerpt(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim()
  if (flat.length <= EXCERPT_CHARS) return flat
  const cut = flat.slice(0, EXCERPT_CHARS)
  const space = cut.lastIndexOf(' ')
  return `${(space > EXCERPT_CHARS / 2 ? cut.slice(0, space) : cut).trimEnd()}…`
}

/** Every message the Chat store holds, by the seq its row stands for. */
function heldMessages(chat: ChatSnapshot): Map<number, Held> {
  const held = new Map<number, Held>()
  for (const node of chat.nodes.values()) {
    const seq = resolveRow(node).seq
    if (seq === null) continue
    const message = heldMessage(node)
    if (message !== null) held.set(seq, message)
  }
  return held
}

function heldMessage(node: ChatNode): Held | null {
  const data = isRecord(node.data) ? node.data : {}
  switch (node.kind) {
    case 'user':
    case 'steering':
    case 'context': {
      const content = Array.isArray(data.content) ? data.content : []
      return { text: plainText(content), content, kind: node.kind !== 'context' && isRecord(data.source) && data.source.kind === 'user' ? 'user' : 'context' }
    }
    case 'assistant-step': {
      const final = isRecord(data.finalNode) ? data.finalNode : {}
      const blocks = Array.isArray(final.blocks) ? final.blocks.filter(isRecord) : []
      // rc.8 assistant blocks (`kind`) back to content blocks (`type`) for the estimate.
      const content = blocks.map((b) => b.kind === 'tool-call'
        ? { type: 'tool-call', name: b.name, arguments: b.argsRaw }
        : { type: b.kind, text: b.text })
      return { text: plainText(content), content, kind: 'assistant' }
    }
    case 'tool-call': {
      const root = isRecord(data.root) ? data.root : {}
      const content = Array.isArray(root.content) ? root.content : []
      const call = isRecord(root.call) ? root.call : {}
      const name = typeof call.name === 'string' ? call.name : ''
      const text = readableToolText(plainText(content))
      return { text: name === '' ? text : `${name}: ${text}`, content, kind: 'tool' }
    }
    default:
      return null
  }
}
