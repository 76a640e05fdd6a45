/**
 * The one fate reader: where a message ended up after the replacements that shadowed it, and
 * whether each tombstone of this plugin is still in effect, read from a session's replacement
 * events. The chat's hiding (`hidden-rows.ts`), the conversation editor's units
 * (`client/editor-model.ts`), the Removed panel (`client/removal-list.ts`), `inspect`
 * (`host/inspect.ts`) and `explain-session` (`log/session-explain.ts`, and `--rows` through
 * `hidden-rows.ts`) all read it, so they cannot disagree.
 *
 * rc.8 shadows every surface node at most once, and a replacement cites every node it shadows in
 * its `sourceEventSeqs` (`dsh-session` `assertProvenance`); a later citation of an already
 * shadowed node is provenance (a restore cites the removed message after its tombstone). So the
 * replacements that follow a message form a chain: the node, its shadower, that one's shadower,
 * and so on, until a node still on the surface. The walk follows that chain:
 *
 * - a **tombstone** of this plugin: the first one removes the message (Recall, Delete, Delete
 *   onward) or excludes it (Exclude: it stays in view, the model no longer sees it). A later
 *   tombstone that absorbed the first (nested tombstones) keeps a removed message removed and an
 *   excluded one excluded, except a Delete onward, which takes everything from its start and so
 *   removes an excluded message too ({@link takesOver}); a Recall or Delete that absorbed a
 *   neighbouring exclusion at the edge of its range (the planner takes adjacent tombstones along,
 *   `host/surface-plan.ts`) did not remove the excluded message;
 * - a **restore** (`restore.ts`: a copy of the removed message replacing exactly its tombstone)
 *   undoes the tombstone: the message is current again and lives on as the copy, which later
 *   tombstones may shadow in turn;
 * - a **copy of one message** (a replacement of exactly that node citing only it: the tool-result
 *   prune of `dsh-compaction-tool-result-pruner`): the message lives on as the copy;
 * - any other replacement (a compaction checkpoint, another plugin's replacement) **folds** what it
 *   shadows: a current message is folded (the model sees the summary instead; the transcript still
 *   shows it), a removed or excluded one stays so. The walk ends there for the message itself, and
 *   goes on along the checkpoint's own chain: the last **summary rewrite** of this plugin on it
 *   (`summary-rewrite.ts`: a compaction checkpoint whose source records the folded messages this
 *   plugin took out of the summary) decides a folded message's fate. Named there, it is removed
 *   or excluded by that rewrite (`tombstoneSeq` is then the rewrite's checkpoint, not a tombstone);
 *   left out (a later rewrite put it back), it is folded again.
 *
 * A tombstone is in effect until a restore undid it, or undid the later tombstone that absorbed
 * it; a compaction that folded it keeps the removed messages out of the model's view, so it stays
 * in effect. Whether a tombstone can be restored in place is `restorable.ts`' one rule, applied to
 * a tombstone on the surface.
 *
 * Pure and browser-safe: no DOM, no Node built-ins, no DSH runtime imports.
 *
 * @module dsh-message-recall/shared/fate
 */
import { SURFACE_EVENT_TYPES, type LogEvent } from './events'
import { readReplaceOp } from './replace-op'
import { readRestore, type RestoreRecord } from './restore'
import { notRestorableReason, type NotRestorableReason } from './restorable'
import { classifyNode, type NodeKind } from './surface-node'
import { ACTIONS, type TombstoneAction } from './actions'
import { readTombstone, type TombstoneRecord } from './tombstone'
import { isCheckpointEvent, readRewriteCheckpoint, removalOf, type RewriteCheckpoint } from './summary-rewrite'

/**
 * Where a message stands now: `current` (on the surface, itself or as a copy: never removed, or
 * restored), `removed`, `excluded` (in view, not sent to the model), or `folded` (a compaction
 * checkpoint or another plugin's replacement shadows it; the transcript still shows it).
 */
export type FateState = 'current' | 'removed' | 'excluded' | 'folded'

/** The fate of one message. */
export interface MessageFate {
  readonly state: FateState
  /**
   * The tombstone that decides a `removed` or `excluded` state, or for a folded message removed
   * from its summary the seq of the summary rewrite's checkpoint (see {@link MessageFate.rewrite});
   * `null` otherwise.
   */
  readonly tombstoneSeq: number | null
  /** True when a summary rewrite, not a tombstone, decides the state (`tombstoneSeq` is a checkpoint). */
  readonly rewrite?: true
  /**
   * The node that stands for the message last: the message itself, the restoring copy after a
   * restore, or a tool-result prune's copy. On the surface when `state` is `current`, so a removal
   * of the message targets this seq.
   */
  readonly actingSeq: number
}

/** Whether one tombstone of this plugin is in effect. */
export interface RemovalStatus {
  /** Seq of the tombstone. */
  readonly seq: number
  /** Seq of the replacement that shadowed the tombstone (a later tombstone, a restore, a compaction), or `null` while it is on the surface. */
  readonly shadowedBy: number | null
  /** Seq of the restoring copy that undid it, or `null`. */
  readonly restoredBy: number | null
  /**
   * False once a restore undid the tombstone, or undid the later tombstone of this plugin that
   * absorbed it; true otherwise (on the surface, absorbed by a later tombstone in effect, or
   * folded by a compaction, which keeps the removed messages out of the model's view).
   */
  readonly inEffect: boolean
}

/**
 * Why a tombstone cannot be restored in place: `not-a-tombstone` (no tombstone of this plugin at
 * that seq), `not-on-surface` (already restored, absorbed by a later removal, or compacted), or
 * one of `restorable.ts`' reasons.
 */
export type RestoreBlock = 'not-a-tombstone' | 'not-on-surface' | NotRestorableReason

/**
 * Node kind of a shadowed node the replacement events do not hold (an appended message), or
 * `null` when the caller does not know it.
 */
export type KindLookup = (seq: number) => NodeKind | null

const SURFACE_TYPES: ReadonlySet<string> = new Set(SURFACE_EVENT_TYPES)

/** What a replacement does to the node it shadows, in the walk. */
type Step =
  | { readonly kind: 'tombstone'; readonly tombstone: TombstoneRecord }
  | { readonly kind: 'restore'; readonly restore: RestoreRecord }
  | { readonly kind: 'copy' }
  | { readonly kind: 'fold'; readonly rewrite: RewriteCheckpoint | null }

/**
 * Whether a tombstone decides the fate of a message that reached it in `state`: any tombstone
 * decides a current message; a removal planned onward (Delete onward, `plans: 'onward'` in the
 * action table) also removes an excluded one; nothing changes a removed one (the first removal
 * names its fate).
 * @param action - the tombstone's action.
 * @param state - the message's state before the tombstone (never `folded`: a fold ends the walk).
 * @returns true when the tombstone sets the state and becomes the deciding tombstone.
 */
export function takesOver(action: TombstoneAction, state: FateState): boolean {
  if (state === 'current') return true
  const spec = ACTIONS[action]
  return state === 'excluded' && spec.plans === 'onward' && spec.effect === 'removed'
}

/**
 * The replacement events of a log read by seq, for callers that hold a lookup rather than an array.
 * @param count - number of events (seqs `0 … count - 1`).
 * @param lookup - one event by seq.
 * @returns the events with a replace op, in seq order.
 */
export function replacementEvents(count: number, lookup: (seq: number) => LogEvent | undefined): LogEvent[] {
  const out: LogEvent[] = []
  for (let seq = 0; seq < count; seq++) {
    const event = lookup(seq)
    if (event !== undefined && readReplaceOp(event.surfaceOp) !== null) out.push(event)
  }
  return out
}

/**
 * The node kinds of a whole log, for {@link Fates.canRestore} where every event is at hand (the
 * editor's log, the host's and the log tools' logs).
 * @param log - the events, in any order.
 * @returns the kind of a surface event's seq (`surface-node.ts` `classifyNode`), `null` otherwise.
 */
export function logKinds(log: readonly LogEvent[]): KindLookup {
  const bySeq = new Map(log.map((event) => [event.seq, event]))
  return (seq) => {
    const event = bySeq.get(seq)
    return event === undefined || !SURFACE_TYPES.has(event.type) ? null : classifyNode(event)
  }
}

/**
 * Every tombstone of this plugin in `events`.
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
 * Every restore in `events` (`restore.ts` `readRestore`: a copy replacing exactly one tombstone of
 * this plugin, citing it first in `sourceEventSeqs`).
 * @param events - any slice of a session log that holds the tombstones the restores undo, in any order.
 * @returns the restores, sorted by seq.
 */
export function readRestores(events: readonly LogEvent[]): RestoreRecord[] {
  const bySeq = new Map(events.map((e) => [e.seq, e]))
  const out: RestoreRecord[] = []
  for (const event of events) {
    const record = readRestore(event, (seq) => bySeq.get(seq))
    if (record !== null) out.push(record)
  }
  return out.sort((a, b) => a.seq - b.seq)
}

/**
 * The fates of a session's messages and tombstones, read once from its replacement events. Build
 * it with {@link readFates}.
 */
export class Fates {
  /** Tombstones of this plugin, in seq order (undone ones included). */
  readonly tombstones: readonly TombstoneRecord[]
  /** Restores, in seq order. */
  readonly restores: readonly RestoreRecord[]
  /** Tombstone seq → seq of the restoring copy that undid it. */
  readonly restoredBy: ReadonlyMap<number, number>
  /** Summary rewrites of this plugin (`summary-rewrite.ts`), in seq order (later ones included). */
  readonly rewrites: readonly RewriteCheckpoint[]
  private readonly shadowers = new Map<number, number>()
  private readonly steps = new Map<number, Step>()
  private readonly events = new Map<number, LogEvent>()
  private readonly tombstoneBySeq: ReadonlyMap<number, TombstoneRecord>
  private readonly memo = new Map<number, MessageFate>()

  /**
   * @param events - the session's events, or any subset that holds all its replacements (the
   *   client passes the replacement view), in any order; events without a replace op are ignored.
   */
  constructor(events: readonly LogEvent[]) {
    const replacements = events.filter((e) => readReplaceOp(e.surfaceOp) !== null).sort((a, b) => a.seq - b.seq)
    const lookup = (seq: number) => this.events.get(seq)
    for (const event of replacements) this.events.set(event.seq, event)
    const tombstones: TombstoneRecord[] = []
    const restores: RestoreRecord[] = []
    const rewrites: RewriteCheckpoint[] = []
    for (const event of replacements) {
      const tombstone = readTombstone(event)
      const restore = tombstone === null ? readRestore(event, lookup) : null
      const cited = tombstone?.shadowedSeqs ?? event.sourceEventSeqs ?? []
      // The first replacement that cites a node shadowed it; later citations are provenance.
      for (const seq of cited) if (!this.shadowers.has(seq)) this.shadowers.set(seq, event.seq)
      if (tombstone !== null) {
        tombstones.push(tombstone)
        this.steps.set(event.seq, { kind: 'tombstone', tombstone })
      } else if (restore !== null) {
        restores.push(restore)
        this.steps.set(event.seq, { kind: 'restore', restore })
      } else {
        const range = readReplaceOp(event.surfaceOp)!
        const copy = range.start === range.end && cited.length === 1 && cited[0] === range.start
        const rewrite = copy ? null : readRewriteCheckpoint(event)
        if (rewrite !== null) rewrites.push(rewrite)
        this.steps.set(event.seq, copy ? { kind: 'copy' } : { kind: 'fold', rewrite })
      }
    }
    this.tombstones = tombstones
    this.restores = restores
    this.rewrites = rewrites
    this.restoredBy = new Map(restores.map((r) => [r.tombstoneSeq, r.seq]))
    this.tombstoneBySeq = new Map(tombstones.map((t) => [t.seq, t]))
  }

  /**
   * The chain of replacements that followed a node: its shadower, that one's shadower, and so on,
   * each with the node it shadowed (`from`). rc.8 shadows each node once, so the chain ends; the
   * bound only guards a malformed log.
   */
  private *chain(seq: number): Generator<{ readonly from: number; readonly by: number; readonly step: Step }> {
    let at = seq
    for (let guard = 0; guard <= this.steps.size; guard++) {
      const by = this.shadowers.get(at)
      const step = by === undefined ? undefined : this.steps.get(by)
      if (by === undefined || step === undefined) return
      yield { from: at, by, step }
      at = by
    }
  }

  /**
   * The replacement that shadowed a node.
   * @param seq - any seq.
   * @returns the shadower's seq, or `null` when no replacement in these events cites it.
   */
  shadowerOf(seq: number): number | null {
    return this.shadowers.get(seq) ?? null
  }

  /**
   * The tombstone of this plugin at a seq.
   * @param seq - any seq.
   * @returns its record, or `undefined`.
   */
  tombstone(seq: number): TombstoneRecord | undefined {
    return this.tombstoneBySeq.get(seq)
  }

  /**
   * The messages one removal takes for good: those it shadows, also through the earlier tombstones
   * it absorbed, whose fate is removed by it or by one of those (never an excluded message in view,
   * nor one a later tombstone removed). What an erase of the removal takes and what its entry counts.
   * @param tombstoneSeq - seq of a tombstone of this plugin.
   * @returns the surface seqs (a restoring copy stands for its message), ascending; empty for an
   *   exclusion, a removal a restore undid, or an unknown seq.
   */
  removedBy(tombstoneSeq: number): number[] {
    const { tree, messages } = this.under(tombstoneSeq)
    return messages.filter((seq) => {
      const fate = this.fateOf(seq)
      return fate.state === 'removed' && fate.rewrite !== true && fate.tombstoneSeq !== null && tree.has(fate.tombstoneSeq) && this.tombstoneBySeq.has(fate.tombstoneSeq)
    }).sort((a, b) => a - b)
  }

  /**
   * The messages a tombstone of this plugin covers: the nodes it shadows, and through each earlier
   * tombstone it absorbed (directly or through others) the nodes that one shadows, whatever their
   * fate now.
   * @param tombstoneSeq - seq of a tombstone of this plugin.
   * @returns the message seqs, in walk order (unsorted).
   */
  messagesUnder(tombstoneSeq: number): number[] {
    return this.under(tombstoneSeq).messages
  }

  /** The walk of {@link Fates.messagesUnder}, with the tombstones met on the way (`tree`, the start included). */
  private under(tombstoneSeq: number): { readonly tree: Set<number>; readonly messages: number[] } {
    const walk = [tombstoneSeq]
    const tree = new Set<number>()
    const messages: number[] = []
    while (walk.length > 0) {
      const seq = walk.pop() as number
      if (tree.has(seq)) continue
      tree.add(seq)
      const tombstone = this.tombstoneBySeq.get(seq)
      if (tombstone !== undefined) walk.push(...tombstone.shadowedSeqs)
      else messages.push(seq)
    }
    return { tree, messages }
  }

  /**
   * Follow a message along the replacements that shadowed it (see the module rules).
   * @param seq - the seq of an appended message (any seq: one nothing shadows is `current`).
   * @returns its fate (memoized per seq).
   */
  fateOf(seq: number): MessageFate {
    const known = this.memo.get(seq)
    if (known !== undefined) return known
    let state: FateState = 'current'
    let tombstoneSeq: number | null = null
    let message = seq
    for (const { from, by, step } of this.chain(seq)) {
      if (step.kind === 'tombstone') {
        if (takesOver(step.tombstone.action, state)) {
          state = ACTIONS[step.tombstone.action].effect === 'excluded' ? 'excluded' : 'removed'
          tombstoneSeq = by
        }
        continue
      }
      if (step.kind === 'restore') {
        // A restore brings back the one message its tombstone took: this one, or another's.
        if (step.restore.originalSeq !== message) break
        state = 'current'
        tombstoneSeq = null
        message = by
        continue
      }
      if (step.kind === 'copy' && from === message) {
        message = by
        continue
      }
      if (state === 'current') {
        state = 'folded'
        const rewrite = this.rewriteOn(by)
        const removal = rewrite === null ? undefined : removalOf(rewrite, message)
        if (removal !== undefined) {
          const fate: MessageFate = { state: ACTIONS[removal.action].effect === 'excluded' ? 'excluded' : 'removed', tombstoneSeq: rewrite!.seq, actingSeq: message, rewrite: true }
          this.memo.set(seq, fate)
          return fate
        }
      }
      break
    }
    const fate = { state, tombstoneSeq, actingSeq: message }
    this.memo.set(seq, fate)
    return fate
  }

  /**
   * The last summary rewrite on a checkpoint's chain: the checkpoint itself and the compactions
   * that folded it in turn.
   * @param checkpointSeq - the replacement that folded a message.
   * @returns the last rewrite record, or `null` when no rewrite of this plugin is on the chain.
   */
  rewriteOn(checkpointSeq: number): RewriteCheckpoint | null {
    const own = this.steps.get(checkpointSeq)
    let last = own?.kind === 'fold' ? own.rewrite : null
    for (const { step } of this.chain(checkpointSeq)) if (step.kind === 'fold' && step.rewrite !== null) last = step.rewrite
    return last
  }

  /**
   * Whether a Delete onward from a folded message leaves something for its summary: an original
   * message of the checkpoint that stands for it, before it in the log, still summarized (a
   * compaction checkpoint cites `[startSeq, summarySeq, ...shadowedSeqs]`; a cited checkpoint is
   * read through to its own originals). The host plans exactly (`host/folded-plan.ts`); this is
   * what a row offers.
   * @param seq - a folded message's seq.
   * @returns false when the message is not folded, or every original before it is already out of the summary.
   */
  summaryKeepsBefore(seq: number): boolean {
    if (this.fateOf(seq).state !== 'folded') return false
    const standing = this.standingFor(seq)
    if (standing === null) return false
    const visit = (checkpoint: number, depth: number): boolean => {
      const event = this.events.get(checkpoint)
      if (event === undefined || depth > this.steps.size) return false
      const cited = event.sourceEventSeqs ?? []
      for (const original of isCheckpointEvent(event) ? cited.slice(2) : cited) {
        // A nested checkpoint is newer than the messages it stands for: read it through whatever its seq.
        const inner = this.events.get(original)
        if (inner !== undefined && isCheckpointEvent(inner)) {
          if (visit(original, depth + 1)) return true
        } else if (original < seq && this.fateOf(original).state === 'folded') return true
      }
      return false
    }
    return visit(standing, 0)
  }

  /**
   * The checkpoint on the surface that stands for a folded message now: the end of the chain of
   * replacements from the one that folded it.
   * @param seq - a message's seq.
   * @returns the seq of the last replacement on the chain, or `null` when nothing shadows the message.
   */
  standingFor(seq: number): number | null {
    let last: number | null = null
    for (const { by } of this.chain(seq)) last = by
    return last
  }

  /**
   * Whether a tombstone is still in effect (see the module rules).
   * @param tombstoneSeq - a tombstone's seq.
   * @returns its status, or `undefined` when no tombstone of this plugin is at that seq.
   */
  statusOf(tombstoneSeq: number): RemovalStatus | undefined {
    if (!this.tombstoneBySeq.has(tombstoneSeq)) return undefined
    let inEffect = true
    // Absorbed by later tombstones, up to a restore (undone) or anything else (still in effect).
    for (const { step } of this.chain(tombstoneSeq)) {
      if (step.kind === 'restore') inEffect = false
      if (step.kind !== 'tombstone') break
    }
    return { seq: tombstoneSeq, shadowedBy: this.shadowerOf(tombstoneSeq), restoredBy: this.restoredBy.get(tombstoneSeq) ?? null, inEffect }
  }

  /**
   * The status of every tombstone.
   * @returns tombstone seq → status, in seq order.
   */
  statuses(): Map<number, RemovalStatus> {
    return new Map(this.tombstones.map((t) => [t.seq, this.statusOf(t.seq)!]))
  }

  /**
   * The node kind of a seq as the replacement events tell it (`surface-node.ts` `classifyNode`:
   * a tombstone, a restoring copy of the person's message, a checkpoint, a prune's copy).
   * @param seq - any seq.
   * @returns the kind, or `null` for a seq these events do not hold.
   */
  kindOf(seq: number): NodeKind | null {
    const event = this.events.get(seq)
    return event === undefined || !SURFACE_TYPES.has(event.type) ? null : classifyNode(event)
  }

  /**
   * Why a tombstone cannot be restored in place, by `restorable.ts`' rule applied to a tombstone
   * on the surface.
   * @param tombstoneSeq - the tombstone's seq.
   * @param kindOf - the node kind of a shadowed node the replacement events do not hold.
   * @returns the reason, or `null` when it can be restored in place.
   */
  restoreBlock(tombstoneSeq: number, kindOf: KindLookup): RestoreBlock | null {
    const tombstone = this.tombstoneBySeq.get(tombstoneSeq)
    if (tombstone === undefined) return 'not-a-tombstone'
    if (this.shadowers.has(tombstoneSeq)) return 'not-on-surface'
    return notRestorableReason(tombstone.shadowedSeqs.map((seq) => this.kindOf(seq) ?? kindOf(seq)))
  }

  /**
   * Whether a tombstone can be restored in place ({@link restoreBlock} is `null`).
   * @param tombstoneSeq - the tombstone's seq.
   * @param kindOf - the node kind of a shadowed node the replacement events do not hold.
   */
  canRestore(tombstoneSeq: number, kindOf: KindLookup): boolean {
    return this.restoreBlock(tombstoneSeq, kindOf) === null
  }
}

/**
 * Read the fates of a session.
 * @param events - the session's events, or any subset that holds all its replacements, in any
 *   order. Never throws on malformed events: an event that is not a well-formed tombstone or
 *   restore of this plugin counts as a fold (or a copy of one message).
 * @returns the fate reader.
 */
export function readFates(events: readonly LogEvent[]): Fates {
  return new Fates(events)
}
