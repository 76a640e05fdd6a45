/**
 * Tool-call pairing along a list of surface nodes: which positions open each tool-call id (the
 * `tool-call` blocks of an `assistant/message`) and which answer it (a `tool/result`), and the
 * questions the removal planner and the log explainer ask of that: the ids a window opens and
 * answers, the nearest partner outside a window, the ids a window separates from their partner,
 * and the calls and results left unpaired. Pure and browser-safe; no DSH runtime import.
 *
 * Positions are indexes into the node list (surface order), never seqs: after a replace a high
 * seq sits at a low position (`replacementRange` in `dsh-session`'s `surface.ts`). A call id
 * normally appears once on each side; the index keeps every position, so a repeated id still
 * resolves to its nearest partner.
 *
 * @module dsh-message-recall/shared/tool-pairing
 */
import type { LogEvent } from './events'
import { toolCallIds, toolResultCallId } from './surface-node'

/** Tool-call ids opened and answered inside one window of positions. */
export interface PairingWindow {
  /** Ids of the `tool-call` blocks opened in the window, in surface order. */
  readonly calls: ReadonlySet<string>
  /** Ids the window's `tool/result` nodes answer, in surface order. */
  readonly answered: ReadonlySet<string>
}

/** One tool-call id without its partner on the list, and where it sits. */
export interface UnpairedNode {
  /** Seq of the node (`nodes[idx]`). */
  readonly seq: number
  readonly callId: string
}

/**
 * The pairing index of one node list. Events are read through `eventAt` as the questions need
 * them; the id → positions maps are built on the first question that needs the whole list.
 */
export class ToolPairingIndex {
  private calls: Map<string, number[]> | null = null
  private results: Map<string, number[]> | null = null

  /**
   * @param nodes - surface node seqs in surface order.
   * @param eventAt - the event of the node at a position (`0 <= idx < nodes.length`); it may
   *   throw for a corrupt surface, and that error propagates from every method.
   */
  constructor(
    readonly nodes: readonly number[],
    private readonly eventAt: (idx: number) => LogEvent,
  ) {}

  /**
   * The ids opened and answered by the nodes at positions `from` … `to` (inclusive).
   * @param from - first position.
   * @param to - last position (inclusive); an empty window when `to < from`.
   * @returns both id sets, each in surface order.
   */
  window(from: number, to: number): PairingWindow {
    const calls = new Set<string>()
    const answered = new Set<string>()
    this.addWindow(calls, answered, from, to)
    return { calls, answered }
  }

  /**
   * Widen a window returned by {@link window} by the positions `from` … `to` (inclusive).
   * @param window - a window from this index; its sets grow in place.
   */
  extend(window: PairingWindow, from: number, to: number): void {
    this.addWindow(window.calls as Set<string>, window.answered as Set<string>, from, to)
  }

  /**
   * Ascending positions of the nodes that open tool call `id`.
   * @returns the positions; `[]` when no node opens it.
   */
  callPositions(id: string): readonly number[] {
    return this.maps().calls.get(id) ?? []
  }

  /**
   * Ascending positions of the `tool/result` nodes that answer tool call `id`.
   * @returns the positions; `[]` when no node answers it.
   */
  resultPositions(id: string): readonly number[] {
    return this.maps().results.get(id) ?? []
  }

  /**
   * Ids with one side (call or result) inside positions `from` … `to` and the other side on
   * the list outside it: what a replace of exactly that window would split.
   * @returns the ids, calls opened inside first, then results answered inside, each in surface
   *   order; `[]` for a balanced window.
   */
  splitBy(from: number, to: number): string[] {
    const window: LogEvent[] = []
    for (let p = from; p <= to; p++) window.push(this.eventAt(p))
    return this.splitAcross(window, (p) => p < from || p > to)
  }

  /**
   * Ids with one side (call or result) among the events of `window` and the other side at a
   * position of this index's list that `outside` accepts: {@link splitBy} for a window that is
   * not a run of this list (for example over an index of every node a fold ever held, where only
   * the nodes still on the surface count).
   * @param window - the events of a run of surface nodes, in surface order.
   * @param outside - whether the node at a position of this index's list counts as outside the window.
   * @returns the ids, calls opened inside first, then results answered inside, each in order; `[]` for a balanced window.
   */
  splitAcross(window: readonly LogEvent[], outside: (position: number) => boolean): string[] {
    const split = new Set<string>()
    for (const event of window) for (const id of toolCallIds(event)) if (this.resultPositions(id).some(outside)) split.add(id)
    for (const event of window) {
      const id = toolResultCallId(event)
      if (id !== null && this.callPositions(id).some(outside)) split.add(id)
    }
    return [...split]
  }

  /**
   * Calls on the list without a result on it, and results whose call is not on it.
   * @returns both lists in order of each id's first position; a repeated id reports its last node.
   */
  unpaired(): { readonly unansweredCalls: readonly UnpairedNode[]; readonly orphanResults: readonly UnpairedNode[] } {
    const { calls, results } = this.maps()
    const lone = (side: Map<string, number[]>, other: Map<string, number[]>): UnpairedNode[] =>
      [...side].filter(([id]) => !other.has(id)).map(([callId, positions]) => ({ seq: this.nodes[positions[positions.length - 1]!]!, callId }))
    return { unansweredCalls: lone(calls, results), orphanResults: lone(results, calls) }
  }

  private addWindow(calls: Set<string>, answered: Set<string>, from: number, to: number): void {
    for (let p = from; p <= to; p++) {
      const event = this.eventAt(p)
      for (const id of toolCallIds(event)) calls.add(id)
      const callId = toolResultCallId(event)
      if (callId !== null) answered.add(callId)
    }
  }

  private maps(): { calls: Map<string, number[]>; results: Map<string, number[]> } {
    if (this.calls === null || this.results === null) {
      const calls = new Map<string, number[]>()
      const results = new Map<string, number[]>()
      const push = (map: Map<string, number[]>, id: string, p: number): void => {
        const positions = map.get(id)
        if (positions === undefined) map.set(id, [p])
        else positions.push(p)
      }
      for (let p = 0; p < this.nodes.length; p++) {
        const event = this.eventAt(p)
        for (const id of toolCallIds(event)) push(calls, id, p)
        const callId = toolResultCallId(event)
        if (callId !== null) push(results, callId, p)
      }
      this.calls = calls
      this.results = results
    }
    return { calls: this.calls, results: this.results }
  }
}

/**
 * The position nearest to the window `a` … `b` among `positions` outside it; at equal distance
 * the one before the window.
 * @param positions - ascending positions (from {@link ToolPairingIndex.callPositions} or `resultPositions`).
 * @returns the position, or `-1` when every position lies inside the window (or there is none).
 */
export function nearestOutside(positions: readonly number[], a: number, b: number): number {
  let before = -1
  let after = -1
  for (const p of positions) {
    if (p < a) before = p
    else if (p > b && after === -1) after = p
  }
  if (before === -1) return after
  if (after === -1) return before
  return a - before <= after - b ? before : after
}

/**
 * The last of `positions` before `idx`.
 * @param positions - ascending positions.
 * @returns the position, or `-1` when none is before `idx`.
 */
export function nearestBefore(positions: readonly number[], idx: number): number {
  let found = -1
  for (const p of positions) if (p < idx) found = p
  return found
}
