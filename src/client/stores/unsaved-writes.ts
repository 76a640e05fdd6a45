/**
 * "Applied, not yet saved": a write the host answered `PERSIST_FAILED` with `applied: true` (a
 * removal, a restore, or a batch from the editor). The write is in the host's live log, so the
 * model and the page already show its result, but the durability flush failed after its retries.
 * Until a flush succeeds, a crash of the host undoes it (removed rows come back, a restored one
 * goes again); a later successful flush (Save again, any later write of this plugin, a turn, a
 * graceful stop) makes it permanent.
 *
 * A store per session on {@link SnapshotStore} (immutable snapshots), shared by the
 * overlay, the removed-messages panel and the editor: {@link UnsavedWrites.mark} records the
 * write, {@link UnsavedWrites.saveAgain} sends `{ action: 'flush', sessionId }`, and
 * {@link UnsavedWrites.settled} clears the state when a later write of this plugin was durable.
 *
 * @module dsh-message-recall/client/stores/unsaved-writes
 */
import type { SurfaceAction } from '../../shared/actions'
import type { RecallError, RecallSender } from '../wire/api'
import { SnapshotStore } from './snapshot-store'
import { BROWSER_TIMERS, type Timers } from './timers'

/** The route action of a write that can be applied but not yet saved. */
export type UnsavedAction = SurfaceAction | 'apply'

/** What the writers of a session report to its {@link UnsavedWrites}. */
export type UnsavedSink = Pick<UnsavedWrites, 'mark' | 'settled'>

/** The unsaved write shown, or `null`. */
export interface UnsavedState {
  /** Increases per mark, so a new unsaved write re-renders. */
  readonly id: number
  readonly action: UnsavedAction
  /** For the counted text: messages a removal took out or a restore brought back, changes of a batch. */
  readonly count: number
  /** `unsaved` (Save again offered), `saving` (flush in flight) or `saved` (shown briefly, then cleared). */
  readonly phase: 'unsaved' | 'saving' | 'saved'
  /** Why the last Save again failed, or `null`. */
  readonly error: RecallError | null
}

/** Construction options of {@link UnsavedWrites}. */
export interface UnsavedOptions {
  readonly sessionId: string
  readonly send: RecallSender
  /** How long "Saved" stays before the notice goes, ms (default 4000). */
  readonly savedMs?: number
  readonly timers?: Timers
}

/** The per-session store; see the module description. */
export class UnsavedWrites extends SnapshotStore<UnsavedState | null> {
  private readonly timers: Timers
  private clearTimer: unknown = undefined
  private ids = 0
  private disposed = false

  constructor(private readonly options: UnsavedOptions) {
    super(null)
    this.timers = options.timers ?? BROWSER_TIMERS
  }

  /**
   * Record an applied write whose flush failed (replaces an earlier one: a flush saves the
   * whole live log, so Save again covers both).
   * @param action - the write's route action.
   * @param count - messages it removed or restored; for `apply`, the changes of the batch.
   */
  mark(action: UnsavedAction, count: number): void {
    if (this.disposed) return
    this.timers.clearTimeout(this.clearTimer)
    this.set({ id: ++this.ids, action, count, phase: 'unsaved', error: null })
  }

  /**
   * Ask the host to flush the session's live log.
   * @returns `'saved'`, `'failed'` (the state stays, with the error), or `'ignored'` (nothing
   *   unsaved, a flush already in flight, or disposed).
   */
  async saveAgain(): Promise<'saved' | 'failed' | 'ignored'> {
    const current = this.state
    if (this.disposed || current === null || current.phase !== 'unsaved') return 'ignored'
    this.set({ ...current, phase: 'saving' })
    const reply = await this.options.send({ sessionId: this.options.sessionId, action: 'flush' })
    if (this.disposed || this.state?.id !== current.id) return 'ignored'
    if (!reply.ok) {
      this.set({ ...current, phase: 'unsaved', error: reply.error })
      return 'failed'
    }
    this.set({ ...current, phase: 'saved', error: null })
    this.clearTimer = this.timers.setTimeout(() => this.clear(current.id), this.options.savedMs ?? 4000)
    return 'saved'
  }

  /** A later write of this plugin was flushed: everything before it is durable too. */
  settled(): void {
    if (this.state !== null && this.state.phase !== 'saving') this.clear(this.state.id)
  }

  /** Stop the timer and drop listeners. */
  dispose(): void {
    this.disposed = true
    this.timers.clearTimeout(this.clearTimer)
    this.dropListeners()
  }

  private clear(id: number): void {
    if (this.disposed || this.state?.id !== id) return
    this.timers.clearTimeout(this.clearTimer)
    this.set(null)
  }

  private set(state: UnsavedState | null): void {
    this.publish(state === null ? null : Object.freeze(state))
  }
}
