/**
 * The undo notice after a removal, as state: for a few seconds after every Recall, Delete, Delete
 * onward or Exclude it names what went and offers **Undo** when the removal can be restored in
 * place (one message the person sent), else **Open a copy**. It stays while the pointer or the
 * keyboard focus is on it, and goes on its timer, on Escape or on Dismiss. A plain store
 * (`getSnapshot`/`subscribe`, immutable snapshots), no DOM and no React.
 *
 * @module dsh-message-recall/client/notices/undo-notice
 */
import { notRestorableReason } from '../../shared/restorable'
import type { RemovalValue } from '../../shared/protocol'
import { ACTIONS, type TombstoneAction } from '../../shared/actions'
import { planCount } from '../rows/button-store'
import { BROWSER_TIMERS, type Timers } from '../stores/timers'
import { SnapshotStore } from '../stores/snapshot-store'

/** What the notice is about. */
export interface UndoEntry {
  /** Increases per removal, so a new notice re-renders. */
  readonly id: number
  readonly action: TombstoneAction
  /** Messages that went (absorbed tombstones not counted). */
  readonly count: number
  readonly tombstoneSeq: number
  /** Undo in place is offered; false once the host answered `NOT_RESTORABLE`. */
  readonly restorable: boolean
  /** The Undo succeeded: the message is back in place. */
  readonly restored: boolean
  /** The removal rewrote a compaction summary: Undo puts the earlier summary back (`undoRewrite`). */
  readonly rewrite?: true
}

/** Construction options of {@link UndoNotice}. */
export interface UndoNoticeOptions {
  /** How long the notice stays after a removal, ms (default 8000). */
  readonly visibleMs?: number
  /** How long it stays after a successful Undo, ms (default 4000). */
  readonly restoredMs?: number
  readonly timers?: Timers
}

/**
 * True when a removal can be undone in place: its action can (`undoInPlace` in the action table)
 * and the one rule of `shared/restorable.ts` holds over the node kinds it shadowed (exactly one
 * node, a message the person sent; a model step can come back only in a fork). The tombstone was
 * just written, so it is on the surface.
 * @param value - the removal's reply value.
 */
export function restorableInPlace(value: Pick<RemovalValue, 'action' | 'nodeKinds'>): boolean {
  return ACTIONS[value.action].undoInPlace && notRestorableReason(value.nodeKinds) === null
}

/** The notice store; see the module description. */
export class UndoNotice extends SnapshotStore<UndoEntry | null> {
  private readonly timers: Timers
  private timer: unknown = undefined
  private held = false
  private nextId = 0

  constructor(private readonly options: UndoNoticeOptions = {}) {
    super(null)
    this.timers = options.timers ?? BROWSER_TIMERS
  }

  /**
   * Show the notice for a removal that just succeeded (replaces any earlier one).
   * @param value - the removal's reply value.
   */
  show(value: Pick<RemovalValue, 'action' | 'nodeKinds' | 'tombstoneSeq' | 'removedSeqs' | 'summaryRewrite'>): void {
    const rewrite = value.summaryRewrite !== undefined
    this.set({
      id: ++this.nextId, action: value.action, count: planCount(value), tombstoneSeq: value.tombstoneSeq,
      restorable: rewrite || restorableInPlace(value), restored: false, ...(rewrite ? { rewrite: true as const } : {}),
    }, this.options.visibleMs ?? 8000)
  }

  /**
   * The Undo of `tombstoneSeq` succeeded.
   * @param tombstoneSeq - the tombstone the notice is about (another one changes nothing).
   */
  restored(tombstoneSeq: number): void {
    if (this.state?.tombstoneSeq !== tombstoneSeq) return
    this.set({ ...this.state, restored: true }, this.options.restoredMs ?? 4000)
  }

  /**
   * The host cannot restore `tombstoneSeq` in place: offer Open a copy instead.
   * @param tombstoneSeq - the tombstone the notice is about (another one changes nothing).
   */
  notRestorable(tombstoneSeq: number): void {
    if (this.state?.tombstoneSeq !== tombstoneSeq || !this.state.restorable) return
    this.set({ ...this.state, restorable: false }, this.options.visibleMs ?? 8000)
  }

  /**
   * Keep the notice while the pointer or focus is on it; on release it gets its full time again.
   * @param held - the pointer or focus is on the notice.
   */
  hold(held: boolean): void {
    if (this.held === held) return
    this.held = held
    if (this.state === null) return
    if (held) this.stopTimer()
    else this.startTimer(this.state.restored ? this.options.restoredMs ?? 4000 : this.options.visibleMs ?? 8000)
  }

  /** Hide the notice. */
  dismiss(): void {
    if (this.state === null) return
    this.stopTimer()
    this.held = false
    this.publish(null)
  }

  /** Stop the timer and drop listeners. */
  dispose(): void {
    this.stopTimer()
    this.dropListeners()
  }

  private set(entry: UndoEntry, ms: number): void {
    if (!this.held) this.startTimer(ms)
    this.publish(Object.freeze(entry))
  }

  private startTimer(ms: number): void {
    this.stopTimer()
    this.timer = this.timers.setTimeout(() => this.dismiss(), ms)
  }

  private stopTimer(): void {
    this.timers.clearTimeout(this.timer)
    this.timer = undefined
  }

}
