/**
 * The inheritance planner: which of a copy's messages a removal in its source takes, when the
 * removal lies after the copy's cut. Pure: no `Context`, no `Session`, no I/O.
 *
 * A copy (a branch, a subagent fork, any `SessionStore.fork` child; `dsh-session`
 * `SessionStore.fork`, `dsh-host-apiproxy` `sessions.fork`, `dsh-subagent-fork-in-process`
 * `completedTurnPrefix`) is seeded with the source's events `0 … cut - 1`, so a seq below the cut
 * names the same event in both logs. Tombstones inside the copied part come along with it. What
 * the copy misses is a tombstone at or after the cut that shadows messages before it; this module
 * finds those messages from the source's events `cut …` alone:
 * - the source's top-level replacements after the cut are the replacing surface events that no
 *   later replacement cites (`sourceEventSeqs` covers every shadowed node: `dsh-session`
 *   `assertProvenance`);
 * - each is followed down through what it shadows: a tombstone of this plugin shadows its
 *   `sourceEventSeqs` with its action; a compaction or another plugin's replacement passes its
 *   sources through without removing anything itself (the copy keeps what only a compaction
 *   folded); a restoring copy of this plugin stands for the message it restored;
 * - a seq below the cut reached through a tombstone is removed in the copy, when it is still on
 *   the copy's surface, with the fate the source gives it (`shared/fate.ts`): excluded when the
 *   tombstone that shadows it excluded and no removal planned onward further out took that over,
 *   else removed with the outermost removal's action.
 *
 * A summary rewrite after the cut (`shared/summary-rewrite.ts`: a compaction checkpoint whose
 * `source.messageRecall` records the folded messages it took out) counts as a removal too:
 * - a message its record names that the copy still holds on its surface (the copy's cut lies
 *   before the compaction that folded it) is removed in the copy with the record's action, like
 *   a tombstone's;
 * - a compaction checkpoint of the copy whose summary was written from a message the record names
 *   (the copy's cut lies between the compaction and the rewrite) still holds that message's
 *   content: the plan names it ({@link InheritedSummary}), and the copy gets the source's
 *   summary, the text the source's model reads now, over the nodes of the copy that summary
 *   stands for. A source summary that was made of messages after the cut tells the copy of them
 *   too; that is the one summary without the removed content there is, short of a model call.
 * Only the outermost rewrite of a chain counts (its record is cumulative; an Undo of a rewrite
 * records less).
 *
 * The removed nodes are grouped into runs of adjacent surface positions with one action, one
 * tombstone per run. A run never splits a model step or a tool call from its result: a step only
 * partly in a run (the cut fell inside the removed range) leaves the run, and a run that still
 * splits a tool pair is dropped and reported.
 *
 * Cost: O(events after the cut) to find the removals; only when there is one, O(copy surface
 * nodes) to place them; for a rewrite, O(its originals) per checkpoint of the copy it stands for.
 *
 * @module dsh-message-recall/host/inherit-plan
 */
import type { LogEvent } from '../shared/events'
import { readReplaceOp } from '../shared/replace-op'
import { readRestore } from '../shared/restore'
import { stepOf, type StepKey } from '../shared/surface-node'
import { readTombstone } from '../shared/tombstone'
import { ACTIONS, type TombstoneAction } from '../shared/actions'
import { takesOver } from '../shared/fate'
import { isCheckpointEvent, originalsOf, readRewriteCheckpoint, summaryBlocksOf, type FoldedRemoval } from '../shared/summary-rewrite'
import type { SummaryTextBlock } from './summary-rewrite'
import { isRecord } from '../shared/events'
import { ToolPairingIndex } from '../shared/tool-pairing'
import type { EventLookup } from './surface-plan'

/** What the planner reads. */
export interface InheritInput {
  /** The copy's seed length: seqs `0 … cut - 1` are the same events in the source and the copy. */
  readonly cut: number
  /** The source's events from seq `cut` on, contiguous and in seq order (may be empty). */
  readonly suffix: readonly LogEvent[]
  /** The copy's surface node seqs in surface order (`session.surface.nodes`). */
  readonly copyNodes: readonly number[]
  /** One event by seq over the copy's log (seqs below `cut` are the source's too). */
  readonly copyLookup: EventLookup
}

/** One tombstone to write in the copy. */
export interface InheritedRemoval {
  readonly action: TombstoneAction
  /** Inclusive surface seq of the first shadowed node. */
  readonly start: number
  /** Inclusive surface seq of the last shadowed node. */
  readonly end: number
  /** Every shadowed node, in surface order. */
  readonly shadowedSeqs: readonly number[]
  /** Seqs in the source of the replacements on its surface this removal comes from: tombstones, or a compaction that folded one. */
  readonly fromSourceSeqs: readonly number[]
}

/** A run the planner left out, because writing it would split a tool call from its result. */
export interface DroppedRun {
  readonly shadowedSeqs: readonly number[]
  /** The tool-call ids the run would split. */
  readonly splitCallIds: readonly string[]
}

/**
 * A summary the copy takes from its source: the copy's checkpoints in `holding` were summarized
 * from messages a rewrite after the cut took out, so the nodes `standsFor` are replaced (after
 * the plan's tombstones) by one compaction with the source's summary and record.
 */
export interface InheritedSummary {
  /** Seq in the source of the checkpoint on its surface whose summary the copy takes. */
  readonly fromSourceSeq: number
  /** That checkpoint's summary (its `compaction/summary`'s text blocks). */
  readonly summary: readonly SummaryTextBlock[]
  /** The copy's surface nodes that checkpoint stands for (seqs below the cut), in surface order, before the plan's tombstones. */
  readonly standsFor: readonly number[]
  /** The copy's checkpoints among them whose summary holds a removed message. */
  readonly holding: readonly number[]
  /** The record the copy's checkpoint carries: the source's, for the messages folded in the copy. */
  readonly removals: readonly FoldedRemoval[]
}

/** The planner's answer: the tombstones to write, in surface order, any run left out, and the summaries to take. */
export interface InheritPlan {
  readonly removals: readonly InheritedRemoval[]
  readonly dropped: readonly DroppedRun[]
  /** Written after the tombstones, in source seq order. */
  readonly summaries: readonly InheritedSummary[]
}

interface Mark {
  action: TombstoneAction
  from: number
}

/**
 * The tombstones a walk came through, outermost first: the innermost one (`direct`, the one that
 * shadows the message), the innermost removal planned onward among them (`onward`) and the
 * outermost removal (`outer`).
 */
interface Via {
  readonly direct: TombstoneAction
  readonly onward: TombstoneAction | null
  readonly outer: TombstoneAction | null
}

/**
 * The action a message inherits. Its fate follows the fate rule (`shared/fate.ts` `takesOver`):
 * the tombstone that shadows it decides, except that an exclusion is taken over by a removal
 * planned onward further out (Delete onward). An excluded message inherits the exclusion; a
 * removed one the outermost removal's action, so one source removal stays one run in the copy.
 * @param via - the tombstones the walk came through.
 * @returns the action of the inherited tombstone.
 */
function fateAction(via: Via): TombstoneAction {
  const excluded = ACTIONS[via.direct].effect === 'excluded' && (via.onward === null || !takesOver(via.onward, 'excluded'))
  return excluded ? via.direct : (via.outer ?? via.direct)
}

/** The walk's state below one more tombstone. */
function through(via: Via | null, action: TombstoneAction): Via {
  const spec = ACTIONS[action]
  const removal = spec.effect === 'removed'
  const onward = removal && spec.plans === 'onward' ? action : (via?.onward ?? null)
  return { direct: action, onward, outer: via?.outer ?? (removal ? action : null) }
}

const sameStep = (a: StepKey | null, b: StepKey | null): boolean => a !== null && b !== null && a.turn === b.turn && a.step === b.step

/**
 * The copy's messages that the source's removals after the cut take.
 * @param input - the cut, the source's events after it, the copy's surface and lookup.
 * @returns the tombstones to write (in surface order), the runs left out and the summaries to
 * take; all empty when nothing after the cut removes a message before it.
 * @throws `Error` when `suffix` does not start at `cut` or is not contiguous.
 */
export function planInheritance(input: InheritInput): InheritPlan {
  const { cut, suffix } = input
  if (suffix.length > 0 && suffix[0]!.seq !== cut) throw new Error(`inherit-plan: the source suffix starts at seq ${suffix[0]!.seq}, not at the cut ${cut}`)
  const at = (seq: number): LogEvent | undefined => (seq >= cut ? suffix[seq - cut] : input.copyLookup(seq))

  // Top-level replacements after the cut: replacing surface events no later replacement cites.
  const cited = new Set<number>()
  const replacements: LogEvent[] = []
  for (let i = suffix.length - 1; i >= 0; i--) {
    const event = suffix[i]!
    if (event.seq !== cut + i) throw new Error(`inherit-plan: the source suffix is not contiguous at seq ${cut + i}`)
    if (readReplaceOp(event.surfaceOp) === null) continue
    if (!cited.has(event.seq)) replacements.push(event)
    for (const seq of event.sourceEventSeqs ?? []) cited.add(seq)
  }
  if (replacements.length === 0) return { removals: [], dropped: [], summaries: [] }

  const marks = new Map<number, Mark>()
  // Per top-level replacement: the seqs below the cut it reached, and its outermost rewrites' records.
  let reached = new Set<number>()
  let records = new Map<number, TombstoneAction>()
  const visit = (seq: number, via: Via | null, from: number, record: ReadonlyMap<number, TombstoneAction> | null): void => {
    if (seq < cut) {
      reached.add(seq)
      if (marks.has(seq)) return
      if (via !== null) marks.set(seq, { action: fateAction(via), from })
      else if (record?.has(seq) === true) marks.set(seq, { action: record.get(seq)!, from })
      return
    }
    const event = at(seq)
    if (event === undefined || readReplaceOp(event.surfaceOp) === null) return
    const tombstone = readTombstone(event)
    if (tombstone !== null) {
      const below = through(via, tombstone.action)
      for (const s of tombstone.shadowedSeqs) visit(s, below, from, record)
      return
    }
    const restore = readRestore(event, at)
    if (restore !== null) {
      // A restoring copy stands for the message it restored; on its own it removes nothing.
      if (via !== null) visit(restore.originalSeq, via, from, record)
      return
    }
    let inner = record
    if (record === null) {
      const rewrite = readRewriteCheckpoint(event)
      if (rewrite !== null) {
        const own = new Map<number, TombstoneAction>()
        for (const removal of rewrite.removals) for (const s of removal.seqs) own.set(s, removal.action)
        for (const [s, action] of own) records.set(s, action)
        inner = own
      }
    }
    for (const s of event.sourceEventSeqs ?? []) visit(s, via, from, inner)
  }
  const taken: Array<{ readonly top: LogEvent; readonly reached: ReadonlySet<number>; readonly records: ReadonlyMap<number, TombstoneAction> }> = []
  // Oldest first, so a message reached twice keeps the earlier removal's source.
  for (let i = replacements.length - 1; i >= 0; i--) {
    const top = replacements[i]!
    reached = new Set()
    records = new Map()
    visit(top.seq, null, top.seq, null)
    if (records.size > 0 && isCheckpointEvent(top)) taken.push({ top, reached, records })
  }
  const summaries = summariesToTake(input, taken, marks, at)
  if (marks.size === 0) return { removals: [], dropped: [], summaries }

  const nodes = input.copyNodes
  const positions: number[] = []
  for (let p = 0; p < nodes.length; p++) if (marks.has(nodes[p]!)) positions.push(p)
  if (positions.length === 0) return { removals: [], dropped: [], summaries }

  // Runs of adjacent positions with one action.
  const runs: number[][] = []
  for (const p of positions) {
    const last = runs.at(-1)
    if (last !== undefined && last.at(-1) === p - 1 && marks.get(nodes[p - 1]!)!.action === marks.get(nodes[p]!)!.action) last.push(p)
    else runs.push([p])
  }

  const eventAt = (p: number): LogEvent => {
    const event = input.copyLookup(nodes[p]!)
    if (event === undefined) throw new Error(`inherit-plan: surface node ${nodes[p]} has no event in the copy`)
    return event
  }
  const pairing = new ToolPairingIndex(nodes, eventAt)
  const removals: InheritedRemoval[] = []
  const dropped: DroppedRun[] = []
  for (let run of runs) {
    // A model step only partly in the run leaves it (the cut fell inside the removed range).
    while (run.length > 0 && run[0]! > 0 && sameStep(stepOf(eventAt(run[0]! - 1)), stepOf(eventAt(run[0]!)))) {
      const step = stepOf(eventAt(run[0]!))
      run = run.filter((p) => !sameStep(stepOf(eventAt(p)), step))
    }
    while (run.length > 0 && run.at(-1)! < nodes.length - 1 && sameStep(stepOf(eventAt(run.at(-1)! + 1)), stepOf(eventAt(run.at(-1)!)))) {
      const step = stepOf(eventAt(run.at(-1)!))
      run = run.filter((p) => !sameStep(stepOf(eventAt(p)), step))
    }
    if (run.length === 0) continue
    const first = run[0]!
    const last = run.at(-1)!
    const shadowedSeqs = run.map((p) => nodes[p]!)
    const split = pairing.splitBy(first, last)
    if (split.length > 0) {
      dropped.push({ shadowedSeqs, splitCallIds: split })
      continue
    }
    const action = marks.get(nodes[first]!)!.action
    const fromSourceSeqs = [...new Set(shadowedSeqs.map((s) => marks.get(s)!.from))].sort((a, b) => a - b)
    removals.push({ action, start: nodes[first]!, end: nodes[last]!, shadowedSeqs, fromSourceSeqs })
  }
  return { removals, dropped, summaries }
}

/**
 * The summaries the copy takes: for each top-level checkpoint after the cut whose chain holds a
 * rewrite, the copy's checkpoints it stands for that were summarized from a message the rewrite
 * took out (read through nested compactions, `originalsOf`).
 */
function summariesToTake(
  input: InheritInput,
  taken: ReadonlyArray<{ readonly top: LogEvent; readonly reached: ReadonlySet<number>; readonly records: ReadonlyMap<number, TombstoneAction> }>,
  marks: ReadonlyMap<number, Mark>,
  at: (seq: number) => LogEvent | undefined,
): InheritedSummary[] {
  const summaries: InheritedSummary[] = []
  for (const { top, reached, records } of taken) {
    const standsFor = input.copyNodes.filter((seq) => reached.has(seq))
    const holding = standsFor.filter((seq) => {
      const event = input.copyLookup(seq)
      return !marks.has(seq) && event !== undefined && isCheckpointEvent(event) && originalsOf(seq, input.copyLookup).seqs.some((s) => records.has(s))
    })
    if (holding.length === 0) continue
    const blocks = summaryBlocksOf(top, at)
    if (blocks === null) throw new Error(`inherit-plan: the checkpoint at seq ${top.seq} cites no compaction/summary`)
    const summary = blocks.filter((b): b is SummaryTextBlock => isRecord(b) && b.type === 'text' && typeof b.text === 'string').map((b) => ({ type: 'text' as const, text: b.text }))
    // The record keeps what stays folded in the copy: seqs below the cut that got no tombstone.
    const byAction = new Map<TombstoneAction, number[]>()
    for (const [seq, action] of [...records].sort((a, b) => a[0] - b[0])) {
      if (seq >= input.cut || marks.has(seq)) continue
      byAction.set(action, [...(byAction.get(action) ?? []), seq])
    }
    summaries.push({ fromSourceSeq: top.seq, summary, standsFor, holding, removals: [...byAction].map(([action, seqs]) => ({ action, seqs })) })
  }
  return summaries
}
