/**
 * What can be done with a removal afterwards, for one session: **Restore** it in place (the route's
 * `restore`, one tombstone undone by a copy of the removed message) or **Open a copy** from before
 * it (the route's `forkBefore`, then the new session is opened in the UI). The undo notice, the
 * removed-messages panel and the buttons of excluded rows all act through this one store, so a
 * request started in one shows as pending in the others.
 *
 * A plain store (`getSnapshot`/`subscribe`, immutable snapshots), no DOM and no React. One request
 * at a time per session; a press while one is in flight is ignored. A refusal is kept per tombstone
 * for `errorMs`. A restore the host answered `PERSIST_FAILED` with `applied: true` is in effect:
 * it counts as done, and the session's unsaved notice ({@link UnsavedWrites}) says it is not saved
 * yet; a durable restore clears that notice. Listeners of {@link TombstoneActions.onRestored} hear
 * of every restore in effect, whichever entry asked for it.
 *
 * @module dsh-message-recall/client/stores/tombstone-actions
 */
import type { ForkBeforeValue, RestoreValue , SummaryEditValue } from '../../shared/protocol'
import type { RecallError, RecallSender } from '../wire/api'
import { BROWSER_TIMERS, type Timers } from './timers'
import { SnapshotStore } from './snapshot-store'
import type { UnsavedSink } from './unsaved-writes'
import { errorText } from '../../shared/error-text'

/** The two things a removal offers afterwards. */
export type TombstoneVerb = 'restore' | 'forkBefore' | 'undoRewrite'

/** The request in flight. */
export interface TombstonePending {
  readonly tombstoneSeq: number
  readonly verb: TombstoneVerb
}

/** A refusal kept for one tombstone. */
export interface TombstoneError extends RecallError {
  readonly verb: TombstoneVerb
}

/** One immutable snapshot. */
export interface TombstoneActionsState {
  readonly pending: TombstonePending | null
  /** Tombstone seq → the last refusal of a request about it; entries expire after `errorMs`. */
  readonly errors: ReadonlyMap<number, TombstoneError>
}

/** Opens a session in the UI (rc.8 `SessionRuntime.open`, after the list knows it). */
export type OpenSession = (sessionId: string) => Promise<void>

/** Construction options of {@link TombstoneActions}. */
export interface TombstoneActionsOptions {
  readonly sessionId: string
  readonly send: RecallSender
  readonly openSession: OpenSession
  /** The session's applied-but-unsaved state (restores report to it). */
  readonly unsaved?: UnsavedSink
  /** How long a refusal stays, ms (default 8000). */
  readonly errorMs?: number
  readonly timers?: Timers
}

/** Outcome of a press: done, refused (the error is kept), ignored (another request is in flight). */
export type TombstoneOutcome<V> = { readonly ok: true; readonly value: V } | { readonly ok: false; readonly error: RecallError | null }

const EMPTY_ERRORS: ReadonlyMap<number, TombstoneError> = new Map()
const INITIAL: TombstoneActionsState = Object.freeze({ pending: null, errors: EMPTY_ERRORS })

/** The per-session store; see the module description. */
export class TombstoneActions extends SnapshotStore<TombstoneActionsState> {
  private readonly timers: Timers
  private readonly errorTimers = new Map<number, unknown>()
  private readonly restoredListeners = new Set<(tombstoneSeq: number) => void>()

  constructor(private readonly options: TombstoneActionsOptions) {
    super(INITIAL)
    this.timers = options.timers ?? BROWSER_TIMERS
  }

  /**
   * Undo one tombstone in place (`{ action: 'restore', sessionId, tombstoneSeq }`). The restored
   * message comes back through the session's live events; nothing is changed here but the state.
   * @param tombstoneSeq - the tombstone.
   * @returns the route's value, or the refusal (`error: null` when ignored).
   */
  async restore(tombstoneSeq: number): Promise<TombstoneOutcome<RestoreValue>> {
    const outcome = await this.run(tombstoneSeq, 'restore', async () => {
      const reply = await this.options.send({ sessionId: this.options.sessionId, action: 'restore', tombstoneSeq })
      if (reply.ok) {
        if (reply.value.persisted) this.options.unsaved?.settled()
        return reply
      }
      const { error } = reply
      // In effect, not yet durable: done as far as the conversation goes; the notice says the rest.
      if (error.code === 'PERSIST_FAILED' && error.applied === true && error.value?.action === 'restore') {
        this.options.unsaved?.mark('restore', 1)
        return { ok: true as const, value: error.value as RestoreValue }
      }
      return reply
    })
    if (outcome.ok) for (const listener of [...this.restoredListeners]) listener(tombstoneSeq)
    return outcome
  }

  /**
   * Undo a summary rewrite (`{ action: 'undoRewrite', sessionId, checkpointSeq }`): the summary it
   * replaced comes back, and the messages it took out are folded again (through the live events).
   * @param checkpointSeq - the rewrite's checkpoint (what the removal answered as `tombstoneSeq`).
   * @returns the route's value, or the refusal (`error: null` when ignored).
   */
  undoRewrite(checkpointSeq: number): Promise<TombstoneOutcome<SummaryEditValue>> {
    return this.run(checkpointSeq, 'undoRewrite', async () => {
      const reply = await this.options.send({ sessionId: this.options.sessionId, action: 'undoRewrite', checkpointSeq })
      if (reply.ok && reply.value.persisted) this.options.unsaved?.settled()
      return reply
    })
  }

  /**
   * Hear of every restore in effect, from whichever entry asked for it.
   * @param listener - called with the restored tombstone's seq.
   * @returns unsubscribe.
   */
  onRestored(listener: (tombstoneSeq: number) => void): () => void {
    this.restoredListeners.add(listener)
    return () => this.restoredListeners.delete(listener)
  }

  /**
   * Make a new session holding the conversation from before a tombstone
   * (`{ action: 'forkBefore', sessionId, tombstoneSeq }`) and open it.
   * @param tombstoneSeq - the tombstone.
   * @returns the route's value once the new session is opened, or the refusal.
   */
  forkBefore(tombstoneSeq: number): Promise<TombstoneOutcome<ForkBeforeValue>> {
    return this.run(tombstoneSeq, 'forkBefore', async () => {
      const reply = await this.options.send({ sessionId: this.options.sessionId, action: 'forkBefore', tombstoneSeq })
      if (reply.ok) {
        try {
          await this.options.openSession(reply.value.forkedSessionId)
        } catch (error) {
          return { ok: false as const, error: { code: 'NETWORK' as const, message: errorText(error) } }
        }
      }
      return reply
    })
  }

  /** Stop the timers and drop listeners. */
  dispose(): void {
    for (const handle of this.errorTimers.values()) this.timers.clearTimeout(handle)
    this.errorTimers.clear()
    this.restoredListeners.clear()
    this.dropListeners()
  }

  private async run<V>(
    tombstoneSeq: number,
    verb: TombstoneVerb,
    request: () => Promise<{ readonly ok: true; readonly value: V } | { readonly ok: false; readonly error: RecallError }>,
  ): Promise<TombstoneOutcome<V>> {
    if (this.state.pending !== null) return { ok: false, error: null }
    const errors = new Map(this.state.errors)
    errors.delete(tombstoneSeq)
    this.set({ pending: { tombstoneSeq, verb }, errors: errors.size === 0 ? EMPTY_ERRORS : errors })
    const reply = await request()
    if (reply.ok) {
      this.set({ pending: null })
      return reply
    }
    const failed = new Map(this.state.errors)
    failed.set(tombstoneSeq, { verb, code: reply.error.code, message: reply.error.message })
    this.set({ pending: null, errors: failed })
    this.timers.clearTimeout(this.errorTimers.get(tombstoneSeq))
    this.errorTimers.set(tombstoneSeq, this.timers.setTimeout(() => this.expire(tombstoneSeq), this.options.errorMs ?? 8000))
    return reply
  }

  private expire(tombstoneSeq: number): void {
    this.errorTimers.delete(tombstoneSeq)
    if (!this.state.errors.has(tombstoneSeq)) return
    const errors = new Map(this.state.errors)
    errors.delete(tombstoneSeq)
    this.set({ errors: errors.size === 0 ? EMPTY_ERRORS : errors })
  }

  private set(patch: Partial<TombstoneActionsState>): void {
    this.publish(Object.freeze({ ...this.state, ...patch }))
  }
}
