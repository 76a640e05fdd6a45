/**
 * What the replacements in a session log did to its surface: the canonical fold
 * (`foldSurface` from `@deepseek-ai/dsh-session/surface`, the same validation DSH runs on load),
 * every tombstone of this plugin (removals and exclusions) with its inclusive range as written,
 * the nodes it shadows, its surface neighbours when it was written, which later replacement
 * shadows it in turn, whether it is still in effect or a restore undid it, when it was erased for
 * good (the erase mark of `log-erase.ts`), every restore, and whether any range split a tool call
 * from its result; and, from the header, the session a fork was copied from. Pure and
 * browser-safe.
 *
 * @module dsh-message-recall/log/session-explain
 */
import { foldSurface } from '@deepseek-ai/dsh-session/surface'
import type { SessionEvent } from '@deepseek-ai/dsh-session/types'
import { isRecord, type LogEvent } from '../shared/events'
import { readReplaceOp } from '../shared/replace-op'
import { classifyNode, contentOf, plainText, stepOf, type NodeKind } from '../shared/surface-node'
import { readFates } from '../shared/fate'
import { readRestore } from '../shared/restore'
import { readTombstone } from '../shared/tombstone'
import type { TombstoneAction } from '../shared/actions'
import { ToolPairingIndex } from '../shared/tool-pairing'
import type { LogHeader } from './log-frames'
import { sameJson } from '../shared/same-json'
import { erasedMarkOf } from './log-erase'

/** One surface node, described for people. */
export interface NodeSummary {
  readonly seq: number
  readonly type: string
  readonly kind: NodeKind
  /** Model step of an assistant or tool node. */
  readonly turn: number | null
  readonly step: number | null
  /** First characters of the message text, or a bracketed description (`[tool-call read_file]`). */
  readonly preview: string
}

/**
 * Kind of a replacement: this plugin's tombstones and restores, and what DSH's packages write
 * (compaction checkpoints, tool-result prunes); `replacement` for any other.
 */
export type ReplacementKind = 'tombstone' | 'restore' | 'checkpoint' | 'prune' | 'replacement'

/** One replacement in log order. `start`/`end` are inclusive surface seqs, as written. */
export interface ReplacementSummary {
  readonly seq: number
  readonly kind: ReplacementKind
  readonly start: number
  readonly end: number
  readonly shadowedSeqs: readonly number[]
}

/** One tombstone of this plugin, explained. */
export interface TombstoneExplanation {
  readonly seq: number
  /** `recall`, `delete`, `deleteFrom`, or `exclude` (the rows stay in view, the model no longer sees them). */
  readonly action: TombstoneAction
  /** Inclusive surface range as the host wrote it (`surfaceOp.start` … `surfaceOp.end`). */
  readonly start: number
  readonly end: number
  /** Surface nodes the range held when the tombstone was appended, in surface order. */
  readonly shadowedSeqs: readonly number[]
  readonly inside: readonly NodeSummary[]
  /** Earlier tombstones of this plugin inside the range (a Delete onward over earlier removals). */
  readonly nestedTombstones: readonly number[]
  /** Surface node just before the range and just after it, when the tombstone was appended. */
  readonly before: NodeSummary | null
  readonly after: NodeSummary | null
  /** The later replacement that shadows this tombstone, or `null` while it is on the surface. */
  readonly shadowedBy: number | null
  /** Seq of the restore that undid it in place, or `null`. */
  readonly restoredBy: number | null
  /** False once a restore undid it (or undid the later tombstone that absorbed it). */
  readonly inEffect: boolean
  /** Tool-call ids whose call and result the range separated (empty for a balanced range). */
  readonly splitCalls: readonly string[]
  /** `data.source.removedSeqs` equals the shadowed nodes. */
  readonly sourceAgrees: boolean
  /**
   * When the removal was erased for good (ISO 8601, the erase mark `data.source.erased.at` that
   * `log-erase.ts` writes on the tombstone), or `null` when it was not erased.
   */
  readonly erasedAt: string | null
}

/** A restore of this plugin: a copy of a removed message that replaces the tombstone in place. */
export interface RestoreExplanation {
  /** Seq of the restoring copy. */
  readonly seq: number
  readonly tombstoneSeq: number
  /** Seq of the removed message the copy was made from. */
  readonly originalSeq: number
  /** The copy, as a surface node. */
  readonly message: NodeSummary
  /** `data` of the copy equals the removed message's (id, content and `source` included). */
  readonly exactCopy: boolean
}

/** Where a forked session came from, as its header says (`SessionStore.fork` in `@deepseek-ai/dsh-session`). */
export interface ForkOrigin {
  /** Id of the session it was forked from (`parentSession`). */
  readonly parentSession: string
  /** Events copied from that session (seqs `0 … seedLength - 1`), or `null` when the header does not say. */
  readonly seedLength: number | null
}

/** Tool pairing on the final surface. */
export interface PairingSummary {
  /** Assistant tool calls on the surface without a result on the surface. */
  readonly unansweredCalls: readonly { readonly seq: number; readonly callId: string }[]
  /** Tool results on the surface whose call is not on the surface. */
  readonly orphanResults: readonly { readonly seq: number; readonly callId: string }[]
}

/** Result of {@link explainSession}. */
export interface SessionExplanation {
  /** `null` when the whole log folds; otherwise DSH's error and the seq it stopped at. */
  readonly foldError: { readonly seq: number; readonly message: string } | null
  /** Events the explanation covers (all of them, or those before `foldError.seq`). */
  readonly foldedEvents: number
  /** Final surface, in surface order. */
  readonly surface: readonly NodeSummary[]
  readonly replacements: readonly ReplacementSummary[]
  readonly tombstones: readonly TombstoneExplanation[]
  readonly restores: readonly RestoreExplanation[]
  readonly pairing: PairingSummary
}

/**
 * Where a session was forked from, when its header says so.
 * @param header - the log's header line, or `null`.
 * @returns the origin (`parentSession` and `seedLength`, which `SessionStore.fork` writes into
 *   the child's header), or `null` for a session that was not forked.
 */
export function forkOrigin(header: LogHeader | null): ForkOrigin | null {
  if (header === null || typeof header.parentSession !== 'string') return null
  const seedLength = Number.isSafeInteger(header.seedLength) ? (header.seedLength as number) : null
  return { parentSession: header.parentSession, seedLength }
}

/** Characters of text kept in a preview. */
export const PREVIEW_CHARS = 60

function preview(event: LogEvent): string {
  const content = contentOf(event)
  const text = plainText(content).replace(/\s+/g, ' ').trim()
  const calls = content.filter((b): b is { type: 'tool-call'; name?: unknown } => isRecord(b) && b.type === 'tool-call').map((b) => `[tool-call ${String(b.name ?? '?')}]`)
  const parts: string[] = []
  if (text) parts.push(JSON.stringify(text.length > PREVIEW_CHARS ? text.slice(0, PREVIEW_CHARS) + '…' : text))
  parts.push(...calls)
  if (event.type === 'tool/result' && !text) parts.push('[tool result]')
  if (parts.length === 0) parts.push(content.length === 0 ? '[empty]' : '[no text]')
  return parts.join(' ')
}

/**
 * Describe one surface node.
 * @param event - a `user/message`, `assistant/message` or `tool/result`.
 */
export function summarizeNode(event: LogEvent): NodeSummary {
  const key = stepOf(event)
  return { seq: event.seq, type: event.type, kind: classifyNode(event), turn: key?.turn ?? null, step: key?.step ?? null, preview: preview(event) }
}

function replacementKind(event: LogEvent, lookup: (seq: number) => LogEvent | undefined): ReplacementKind {
  if (event.type === 'tool/result') return 'prune'
  if (event.type !== 'user/message') return 'replacement'
  const kind = classifyNode(event)
  if (kind === 'tombstone' || kind === 'checkpoint') return kind
  return readRestore(event, lookup) !== null ? 'restore' : 'replacement'
}

/** Fold a prefix; the largest prefix that folds when the whole log does not. */
function foldPrefix(events: readonly LogEvent[]): { count: number; error: { seq: number; message: string } | null } {
  try {
    foldSurface(events as unknown as SessionEvent[])
    return { count: events.length, error: null }
  } catch (error) {
    let good = 0
    let bad = events.length
    while (bad - good > 1) {
      const mid = (good + bad) >> 1
      try {
        foldSurface(events.slice(0, mid) as unknown as SessionEvent[])
        good = mid
      } catch {
        bad = mid
      }
    }
    let message = (error as Error).message
    try {
      foldSurface(events.slice(0, bad) as unknown as SessionEvent[])
    } catch (first) {
      message = (first as Error).message
    }
    return { count: good, error: { seq: events[good]?.seq ?? good, message } }
  }
}

/**
 * Tool pairing along a fold, with one {@link ToolPairingIndex} for every surface state before the
 * last: the index is built once over every node the surface ever holds (appended or replacing,
 * in log order), and a question about the current state keeps only the partners on the surface
 * now. A replace moves positions, so an index over the current node list would have to be built
 * again after each one; this one never changes.
 */
class SurfaceHistory {
  /** The pairing index over {@link SurfaceHistory.seqs}. */
  private readonly index: ToolPairingIndex
  /** Seqs of every surface node of the fold, in log order. */
  private readonly seqs: readonly number[]
  /** `1` at a seq while that node is on the current surface. */
  private readonly live: Uint8Array

  /**
   * @param events - the folded events (`events[seq].seq === seq`).
   * @param nodes - the current surface, in surface order; later changes come through
   *   {@link enter} and {@link replace}.
   */
  constructor(
    private readonly events: readonly LogEvent[],
    nodes: readonly number[],
  ) {
    const seqs: number[] = []
    for (const event of events) if (event.surfaceOp === 'append' || readReplaceOp(event.surfaceOp) !== null) seqs.push(event.seq)
    this.seqs = seqs
    this.index = new ToolPairingIndex(seqs, (idx) => events[seqs[idx]!]!)
    this.live = new Uint8Array(events.length)
    for (const seq of nodes) this.live[seq] = 1
  }

  /** Node `seq` was appended to the surface. */
  enter(seq: number): void {
    this.live[seq] = 1
  }

  /** The nodes `shadowed` left the surface for `seq`, which replaced them. */
  replace(shadowed: readonly number[], seq: number): void {
    for (const s of shadowed) this.live[s] = 0
    this.live[seq] = 1
  }

  /**
   * What `ToolPairingIndex.splitBy` answers for a window of the current surface: the ids with one
   * side inside `window` and the other side on the surface outside it.
   * @param window - seqs of a contiguous run of current surface nodes, in surface order.
   * @returns the ids, calls opened inside first, then results answered inside, each in surface
   *   order; `[]` for a balanced window.
   */
  splitBy(window: readonly number[]): string[] {
    const inside = new Set(window)
    return this.index.splitAcross(window.map((seq) => this.events[seq]!), (p) => {
      const seq = this.seqs[p]!
      return this.live[seq] === 1 && !inside.has(seq)
    })
  }
}

/**
 * Explain a session log.
 * @param events - the log's events in seq order (packed rows expanded).
 * @returns the explanation; a log that DSH would refuse to fold is explained up to the event
 * that breaks it (`foldError`). Never throws.
 */
export function explainSession(events: readonly LogEvent[]): SessionExplanation {
  const { count, error } = foldPrefix(events)
  const folded = events.slice(0, count)
  const nodes: number[] = []
  const replacements: ReplacementSummary[] = []
  const tombstones: Omit<TombstoneExplanation, 'shadowedBy' | 'restoredBy' | 'inEffect'>[] = []
  const restores: RestoreExplanation[] = []
  const byId = (seq: number) => folded[seq]!
  const lookup = (seq: number): LogEvent | undefined => folded[seq]

  // Built at the first tombstone: a log without one never needs it.
  let history: SurfaceHistory | null = null

  for (const event of folded) {
    if (event.surfaceOp === 'append') {
      nodes.push(event.seq)
      history?.enter(event.seq)
      continue
    }
    const range = readReplaceOp(event.surfaceOp)
    if (range === null) continue
    const startIdx = nodes.indexOf(range.start)
    const endIdx = nodes.indexOf(range.end)
    const shadowed = nodes.slice(startIdx, endIdx + 1)
    const kind = replacementKind(event, lookup)
    replacements.push({ seq: event.seq, kind, start: range.start, end: range.end, shadowedSeqs: shadowed })
    const restore = kind === 'restore' ? readRestore(event, lookup) : null
    if (restore !== null) {
      const original = lookup(restore.originalSeq)
      restores.push({ ...restore, message: summarizeNode(event), exactCopy: original !== undefined && sameJson(event.data, original.data) })
    }
    const tombstone = readTombstone(event)
    if (tombstone !== null) {
      const source = isRecord(event.data) && isRecord(event.data.source) ? event.data.source : {}
      const removed = Array.isArray(source.removedSeqs) ? source.removedSeqs : []
      tombstones.push({
        seq: event.seq,
        action: tombstone.action,
        start: range.start,
        end: range.end,
        shadowedSeqs: shadowed,
        inside: shadowed.map((seq) => summarizeNode(byId(seq))),
        nestedTombstones: shadowed.filter((seq) => readTombstone(byId(seq)) !== null),
        before: startIdx > 0 ? summarizeNode(byId(nodes[startIdx - 1]!)) : null,
        after: endIdx + 1 < nodes.length ? summarizeNode(byId(nodes[endIdx + 1]!)) : null,
        splitCalls: (history ??= new SurfaceHistory(folded, nodes)).splitBy(shadowed),
        sourceAgrees: removed.length === shadowed.length && removed.every((seq, i) => seq === shadowed[i]),
        erasedAt: erasedMarkOf(event)?.at ?? null,
      })
    }
    nodes.splice(startIdx, endIdx - startIdx + 1, event.seq)
    history?.replace(shadowed, event.seq)
  }
  const statuses = readFates(folded).statuses()
  return {
    foldError: error,
    foldedEvents: count,
    surface: nodes.map((seq) => summarizeNode(byId(seq))),
    replacements,
    tombstones: tombstones.map((t) => {
      const status = statuses.get(t.seq)
      return { ...t, shadowedBy: status?.shadowedBy ?? null, restoredBy: status?.restoredBy ?? null, inEffect: status?.inEffect ?? true }
    }),
    restores,
    pairing: new ToolPairingIndex(nodes, (idx) => byId(nodes[idx]!)).unpaired(),
  }
}
