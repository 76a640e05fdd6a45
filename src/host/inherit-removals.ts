/**
 * Copies inherit removals: every session DSH makes by copying another's log carries the source's
 * removals of the messages it copied, written before the copy's first model request.
 *
 * Which sessions: a session announced on `session/created` (`dsh-session` `SessionStore.announce`)
 * whose header names a `parentSession` and a `seedLength`, and which was just made (its first
 * live seq, `Session.firstLiveSeq`, is the seed length; a resumed copy's is its whole stored log).
 * That covers the web UI's Branch (`dsh-host-apiproxy` `sessions.fork`, cut at the next turn
 * start), a subagent fork (`dsh-subagent-fork-in-process` `completedTurnPrefix`, cut after the
 * parent's last `turn/end`, through `dsh-subagent` `childSessionMeta`) and `SessionStore.fork`.
 * The plugin's own `forkBefore` copies are left alone on purpose (they hold the conversation as it
 * was before a removal): the caller names them in {@link InheritDeps.exempt}.
 *
 * When: the copy's seed is the source's events `0 … seedLength - 1` with the same seqs, and the
 * tombstones inside it come along. The source's events from `seedLength` on are planned by
 * `inherit-plan.ts`; its tombstones are appended to the copy (each with its shadow price, then
 * the title check, like any removal), and then, where the copy holds a compaction summary that a
 * summary rewrite after the cut replaced because it held removed messages, the source's current
 * summary over the nodes it stands for (one compaction of this plugin, `summary-rewrite.ts`
 * `appendSummaryCompaction`, no model call), synchronously inside `session/created`, so before the agent
 * that owns the copy is published and before any reply names it, when the source is live (a
 * subagent fork's parent always is; so is `SessionStore.fork`'s source, and a session the web UI
 * has open). When the source is only stored (a fork of a session no agent holds), its events from
 * the cut on are read with `sessionPersistence.readFrom` inside the copy agent's
 * `runMaintenance` (`dsh-agent-loop` `ReactLoopAgent`), which holds a prompt's turn back until
 * the tombstones are written. Either way the copy's first model request waits on `agent/request`
 * (`dsh-agent`, a waterfall every agent's request passes) until they are flushed.
 *
 * @module dsh-message-recall/host/inherit-removals
 */
import type { Session, SessionEvent, SessionId } from '@deepseek-ai/dsh-session'
import type { LogEvent } from '../shared/events'
import { flushWithRetry } from './durable-flush'
import { planInheritance, type InheritedSummary, type InheritPlan } from './inherit-plan'
import type { EventLookup } from './surface-plan'
import { appendTombstone } from './tombstone-append'
import { priceReplace, retitleAfterRemoval, type WriteEffects } from './write-effects'
import { appendSummaryCompaction } from './summary-rewrite'
import { errorText } from '../shared/error-text'

/** The part of `ctx.sessionPersistence` (`dsh-session-persistence`) a stored source is read through. */
export interface SuffixReader {
  /** Stored header and the stored events with `seq >= fromSeq`. */
  readFrom(id: SessionId, fromSeq: number): Promise<{ events: SessionEvent[] }>
}

/** The part of an rc.8 agent (`dsh-agent-loop` `ReactLoopAgent`) the stored path uses. */
export interface MaintainedAgent {
  /** Run `job` while no turn runs; a prompt sent meanwhile starts its turn after it. Throws at once when the agent is busy. */
  runMaintenance<T>(job: () => Promise<T>): Promise<T>
}

/** What the inheritance reads, looked up when a copy is announced. */
export interface InheritDeps {
  /** The live sessions (`ctx.sessions`): the source when it is live, and the copy's flush. */
  readonly sessions: { get(id: SessionId): Session | undefined; flush(session: Session): Promise<boolean> }
  /** The live agents (`ctx.agents`): the copy's agent, whose maintenance slot holds its first turn back while a stored source is read. */
  readonly agents: { get(id: SessionId): MaintainedAgent | undefined }
  /** `ctx.sessionPersistence` when loaded: a stored source's events after the cut. */
  readonly persistence: () => SuffixReader | undefined
  /** One event by seq over a live session's current log (the plugin's event index). */
  readonly lookup: (session: Session) => EventLookup
  /** The token meter, title limits and logger a removal uses. */
  readonly effects: () => WriteEffects
  /** The configured tombstone text (`''` for empty tombstones). */
  readonly tombstoneText: string
  /** Whether a copy is one of the plugin's own `forkBefore` copies, which inherit nothing. */
  readonly exempt: (id: string) => boolean
}

/** What was written into one copy. */
export interface InheritOutcome {
  /** Seqs of the tombstones appended to the copy, in write order. */
  readonly tombstoneSeqs: readonly number[]
  /** Whether the flush after them succeeded (true also when nothing was written). */
  readonly durable: boolean
}

/**
 * Whether a session announced on `session/created` is a fresh copy of another session's log.
 * @param session - the announced session.
 * @returns its source id and seed length, or `null` (no lineage, an empty seed, or a resumed copy).
 */
export function copyLineage(session: Session): { parent: SessionId; cut: number } | null {
  const { parentSession, seedLength } = session.header
  if (parentSession === undefined || seedLength === undefined || seedLength <= 0) return null
  if (session.firstLiveSeq !== seedLength) return null
  return { parent: parentSession as SessionId, cut: seedLength }
}

/** The inherited removals of every copy this host makes; one per plugin instance. */
export class RemovalInheritance {
  private readonly pending = new WeakMap<Session, Promise<InheritOutcome>>()

  /** @param deps - the services and settings the inheritance reads (see {@link InheritDeps}). */
  constructor(private readonly deps: InheritDeps) {}

  /**
   * Call from `session/created`. A fresh copy of a live source gets its tombstones before this
   * returns; a copy of a stored source gets them when the source's suffix is read. Never throws:
   * a failure is logged and the copy stays as DSH made it.
   * @param session - the announced session.
   */
  onCreated(session: Session): void {
    const lineage = copyLineage(session)
    if (lineage === null || this.deps.exempt(session.id)) return
    const source = this.deps.sessions.get(lineage.parent)
    if (source !== undefined) {
      const lookup = this.deps.lookup(source)
      const suffix: LogEvent[] = []
      for (let seq = lineage.cut; seq < source.seq; seq++) suffix.push(lookup(seq) as LogEvent)
      if (!this.samePrefix(session, lineage.cut, lookup(lineage.cut - 1))) return
      const written = this.write(session, lineage.cut, suffix)
      if (written.length > 0) this.pending.set(session, this.flush(session, written))
      return
    }
    const reader = this.deps.persistence()
    if (reader === undefined) return
    // The agent that owns the copy is published right after `session/created` (`dsh-agent-loop`
    // `prepare().publish`); a microtask later its maintenance slot holds the first turn back
    // until the stored source is read and the tombstones are written.
    let resolve!: (outcome: Promise<InheritOutcome>) => void
    this.pending.set(session, new Promise<InheritOutcome>((r) => (resolve = r)))
    queueMicrotask(() => {
      const job = () => this.fromStored(session, reader, lineage.parent, lineage.cut)
      const agent = this.deps.agents.get(session.id as SessionId)
      let run: Promise<InheritOutcome>
      try {
        run = agent === undefined ? job() : agent.runMaintenance(job)
      } catch {
        run = job()
      }
      resolve(run)
    })
  }

  /**
   * Wait until a copy's inherited tombstones are written and flushed (call before its model request).
   * @param session - any session.
   * @returns the outcome for a copy with inherited tombstones, else `undefined` at once.
   */
  settled(session: Session): Promise<InheritOutcome> | undefined {
    return this.pending.get(session)
  }

  private async fromStored(session: Session, reader: SuffixReader, parent: SessionId, cut: number): Promise<InheritOutcome> {
    let events: readonly LogEvent[]
    try {
      events = (await reader.readFrom(parent, cut - 1)).events as readonly LogEvent[]
    } catch (error) {
      this.warn(session, `its source "${parent}" could not be read: ${errorText(error)}`)
      return { tombstoneSeqs: [], durable: true }
    }
    if (this.deps.sessions.get(session.id as SessionId) !== session) return { tombstoneSeqs: [], durable: true }
    if (!this.samePrefix(session, cut, events[0])) return { tombstoneSeqs: [], durable: true }
    if (openTurn(this.deps.lookup(session), session.seq, cut)) {
      this.warn(session, 'a turn started before its source was read')
      return { tombstoneSeqs: [], durable: true }
    }
    const written = this.write(session, cut, events.slice(1))
    return written.length === 0 ? { tombstoneSeqs: [], durable: true } : this.flush(session, written)
  }

  /** The copy's last seed event must be the source's event at that seq. */
  private samePrefix(session: Session, cut: number, sourceLast: LogEvent | undefined): boolean {
    const copyLast = this.deps.lookup(session)(cut - 1)
    const same = sourceLast !== undefined && copyLast !== undefined && sourceLast.seq === copyLast.seq && sourceLast.type === copyLast.type && (sourceLast as { time?: unknown }).time === (copyLast as { time?: unknown }).time
    if (!same) this.warn(session, `its seed is not the first ${cut} events of its source`)
    return same
  }

  /** Plan and append, synchronously; returns the tombstone seqs written. */
  private write(session: Session, cut: number, suffix: readonly LogEvent[]): number[] {
    let plan: InheritPlan
    try {
      plan = planInheritance({ cut, suffix, copyNodes: [...session.surface.nodes], copyLookup: this.deps.lookup(session) })
    } catch (error) {
      this.warn(session, errorText(error))
      return []
    }
    for (const run of plan.dropped) this.warn(session, `a removal of seqs ${run.shadowedSeqs.join(', ')} would split tool calls ${run.splitCallIds.join(', ')}; left out`)
    if (plan.removals.length === 0 && plan.summaries.length === 0) return []
    const effects = this.deps.effects()
    const written: number[] = []
    // Which tombstone now stands for each node it shadowed, for the summaries written after them.
    const standing = new Map<number, number>()
    for (const removal of plan.removals) {
      try {
        priceReplace(session, effects, this.deps.lookup(session), removal, removal.shadowedSeqs)
        const event = appendTombstone(session, removal, this.deps.tombstoneText)
        written.push(event.seq)
        for (const seq of removal.shadowedSeqs) standing.set(seq, event.seq)
        retitleAfterRemoval(session, effects, this.deps.lookup(session), { seq: event.seq, shadowedSeqs: removal.shadowedSeqs })
      } catch (error) {
        this.warn(session, `the removal of seqs ${removal.shadowedSeqs.join(', ')} was refused: ${errorText(error)}`)
      }
    }
    for (const summary of plan.summaries) {
      for (const run of summaryRuns(session.surface.nodes, summary, standing)) {
        try {
          const appended = appendSummaryCompaction(session, { shadowedSeqs: run, removals: summary.removals }, { summary: summary.summary, provider: 'dsh-message-recall', model: 'inherited' }, effects.meter, this.deps.lookup(session))
          written.push(appended.checkpointSeq)
        } catch (error) {
          this.warn(session, `the summary of seqs ${run.join(', ')} (the source's checkpoint at seq ${summary.fromSourceSeq}) was refused: ${errorText(error)}`)
        }
      }
    }
    return written
  }

  private async flush(session: Session, written: number[]): Promise<InheritOutcome> {
    const outcome = await flushWithRetry(() => this.deps.sessions.flush(session))
    if (!outcome.ok) this.warn(session, `its inherited removals are not saved yet: ${outcome.reason}`)
    return { tombstoneSeqs: written, durable: outcome.ok }
  }

  private warn(session: Session, reason: string): void {
    this.deps.effects().warn(`message-recall: the copy "${session.id}" did not inherit every removal of its source: ${reason}`)
  }
}

/**
 * The runs of the copy's surface an inherited summary replaces: the nodes it stands for (each, or
 * the tombstone the plan wrote over it) when they lie side by side on the surface; else each
 * checkpoint that holds removed content on its own.
 * @param nodes - the copy's surface now, in surface order.
 * @param summary - the planned summary.
 * @param standing - node seq → the inherited tombstone that shadows it.
 * @returns runs of adjacent surface nodes, in surface order.
 */
export function summaryRuns(nodes: readonly number[], summary: InheritedSummary, standing: ReadonlyMap<number, number>): number[][] {
  const index = new Map(nodes.map((seq, i) => [seq, i]))
  const positions = [...new Set(summary.standsFor.map((seq) => index.get(seq) ?? index.get(standing.get(seq) ?? -1)).filter((p): p is number => p !== undefined))].sort((a, b) => a - b)
  if (positions.length > 0 && positions.at(-1)! - positions[0]! + 1 === positions.length) return [nodes.slice(positions[0], positions.at(-1)! + 1)]
  return summary.holding.filter((seq) => index.has(seq)).map((seq) => [seq])
}

/** Whether a `turn/start` after the seed has no `turn/end` yet. */
function openTurn(lookup: EventLookup, count: number, from: number): boolean {
  for (let seq = count - 1; seq >= from; seq--) {
    const type = lookup(seq)?.type
    if (type === 'turn/end') return false
    if (type === 'turn/start') return true
  }
  return false
}
