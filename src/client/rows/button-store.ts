/**
 * The button store: per-session state of the row buttons, which destructive button is armed, which
 * request is in flight and which rows show an error. A store on {@link SnapshotStore} (immutable
 * snapshots) with no DOM and no React, so the decoration pass and the component read the same
 * state. The notice naming a recall's images that could not come back is its own store
 * (`recall/image-notice.ts`); the timers are `stores/timers.ts`.
 *
 * Protocol per press:
 * - Recall commits at once (its text comes back to the composer, so nothing is lost), except on a
 *   folded row, where it arms first like the others (the write is a model call).
 * - Delete, Delete onward and Exclude arm first: the press asks the host for a `plan` and, on success,
 *   arms the button with the number of messages that would go. A second press of the same button
 *   on the same row within `armMs` commits; the timer, {@link ButtonStore.disarm} (called by
 *   the state owner on any other click, focus move or Escape) or another press disarms it.
 * - Every request carries an expectation: a plan or a recall the view's own, given with the press
 *   by the state owner (`session-client.ts`), a commit the view the plan was made against. A refusal is kept as the row's error for
 *   `errorMs` and changes nothing else.
 * - The `replaceGeneration` and seq of the last plan or write give a baseline, so the view can
 *   state its generation even when older history is not loaded.
 * - One request at a time per session; presses while one is in flight are ignored.
 * - A removal answered `PERSIST_FAILED` with `applied: true` is in effect but not yet durable: it
 *   goes to `onUnsaved` (no row error; the row is gone from the model's view) and a recall's text
 *   from the error body still goes to the composer.
 * - A recall that fails without a refusal (no reply, `INTERNAL`, an unknown code) stays pending
 *   while `confirmRecall` checks whether it landed; if it did, the composer gets the page's copy.
 * - A row whose message a compaction folded: the plan answers `summaryRewrite` (the write is a
 *   model call that writes the summary again without the message), so the armed state carries its
 *   estimated input tokens, and the commit's pending state says it rewrites; while it runs,
 *   {@link ButtonStore.cancel} (Escape, or pressing the busy button) aborts the request, and the
 *   host cancels the model call with nothing written.
 *
 * @module dsh-message-recall/client/rows/button-store
 */
import { plainText } from '../../shared/message-text'
import type { DurableTombstoneFacts, PlanValue, RemovalValue, ViewExpectation } from '../../shared/protocol'
import { ACTIONS, isConfirmed, type ConfirmedAction, type TombstoneAction } from '../../shared/actions'
import { SnapshotStore } from '../stores/snapshot-store'
import { BROWSER_TIMERS, type Timers } from '../stores/timers'
import type { RecallError, RecallSender } from '../wire/api'
import { isRefusal } from '../wire/refusal'
import type { GenerationBaseline } from './view-expectation'

/** What a button press targets. */
export interface RowTarget {
  /** Row key (`data-chat-flow-key`). */
  readonly key: string
  /** Durable seq the row acts on. */
  readonly seq: number
  readonly action: TombstoneAction
  /** The row's message is folded into a compaction summary: Recall too arms first, its plan naming the model call. */
  readonly folded?: true
}

/** The actions that arm first and commit on a second press (`confirm` in the action table). */
export type ArmingAction = Extract<ConfirmedAction, TombstoneAction>

/**
 * An armed destructive button. `count` is the number of messages the host's plan would remove;
 * `expect` is the view the plan was made against (the plan's `replaceGeneration` and `lastSeq`)
 * with the plan's `removedCount`, sent with the commit so the host writes exactly the confirmed
 * removal or answers `STALE_VIEW`.
 */
export interface ArmedState {
  readonly key: string
  readonly seq: number
  /** The arming action; Recall only on a folded row (see {@link RowTarget.folded}). */
  readonly action: ArmingAction | 'recall'
  readonly count: number
  readonly expect: ViewExpectation
  /** The message is folded: the write rewrites the compaction summary with a model call of about `tokens` input tokens. */
  readonly rewrite?: { readonly tokens: number }
}

/** A request in flight: the plan of an arming press, or the commit. */
export interface PendingState {
  readonly key: string
  readonly action: TombstoneAction
  readonly phase: 'plan' | 'commit'
  /** The commit rewrites a compaction summary (a model call; {@link ButtonStore.cancel} aborts it). */
  readonly rewrite?: true
}

/** The error shown on a row. */
export interface RowError extends RecallError {
  readonly key: string
}

/** One immutable snapshot of the button store. */
export interface ButtonState {
  readonly armed: ArmedState | null
  readonly pending: PendingState | null
  /** Row key → error; entries expire after `errorMs`. */
  readonly errors: ReadonlyMap<string, RowError>
}

/** What a recall hands to the composer. */
export interface RecalledMessage {
  /** Plain text of the recalled message (the reply's `text`). */
  readonly text: string
  /** Its content blocks as logged (the image blocks go back into the composer). */
  readonly content: readonly unknown[]
}

/** Construction options of {@link ButtonStore}. */
export interface ButtonStoreOptions {
  readonly sessionId: string
  readonly send: RecallSender
  /** Called after a successful recall. */
  readonly onRecalled: (message: RecalledMessage) => void
  /** Called after every successful removal or exclusion (recall included, after `onRecalled`). */
  readonly onRemoved?: (value: RemovalValue) => void
  /**
   * Called when a removal's answer starts and names its tombstone as durable (the response header,
   * `shared/durable-header.ts`), before its body is read and before `onRemoved`.
   */
  readonly onDurable?: (facts: DurableTombstoneFacts) => void
  /**
   * Called when a removal is in effect but not yet durable (`PERSIST_FAILED`, `applied: true`),
   * with the action and the number of messages it removed (after `onRecalled` for a recall).
   */
  readonly onUnsaved?: (action: TombstoneAction, count: number) => void
  /**
   * Called when a recall failed without a refusal; resolves with the page's copy of the prompt
   * when the recall turns out to have landed, else `null`. Without it such a failure is a row error.
   */
  readonly confirmRecall?: (target: RowTarget) => Promise<RecalledMessage | null>
  /** How long an armed button waits for the second press, ms (default 4000). */
  readonly armMs?: number
  /** How long a row error stays, ms (default 6000). */
  readonly errorMs?: number
  readonly timers?: Timers
}

/**
 * Result of {@link ButtonStore.press}: `unsaved` is a commit in effect but not yet durable;
 * `refused` covers every failure the row shows.
 */
export type PressOutcome = 'armed' | 'committed' | 'unsaved' | 'refused' | 'ignored' | 'disposed'

const EMPTY_ERRORS: ReadonlyMap<string, RowError> = new Map()
const INITIAL: ButtonState = Object.freeze({ armed: null, pending: null, errors: EMPTY_ERRORS })

/** The per-session button store; see the module description. */
export class ButtonStore extends SnapshotStore<ButtonState> {
  private readonly timers: Timers
  private armTimer: unknown = undefined
  private readonly errorTimers = new Map<string, unknown>()
  private baseline: GenerationBaseline | null = null
  private disposed = false
  private cancelling: AbortController | null = null

  constructor(private readonly options: ButtonStoreOptions) {
    super(INITIAL)
    this.timers = options.timers ?? BROWSER_TIMERS
  }

  /** The generation baseline learned from this view's last successful write, or `null`. */
  get generationBaseline(): GenerationBaseline | null {
    return this.baseline
  }

  /**
   * Handle one button press.
   * @param target - the row, its seq and the pressed action.
   * @param expect - the view's expectation now (`viewExpectation` with {@link ButtonStore.generationBaseline});
   *   sent with a plan or a recall. A commit sends the armed plan's view instead.
   * @returns `'armed'` (first press of a destructive button), `'committed'`, `'refused'` (the
   *   host or the network said no; the row shows the error), `'ignored'` (a request is in flight)
   *   or `'disposed'`.
   */
  async press(target: RowTarget, expect: ViewExpectation): Promise<PressOutcome> {
    if (this.disposed) return 'disposed'
    const pending = this.state.pending
    if (pending !== null) {
      // A second press on a rewriting button cancels the rewrite (as Escape does).
      if (pending.rewrite === true && pending.key === target.key && pending.action === target.action) this.cancel()
      return 'ignored'
    }
    this.clearError(target.key)
    const armed = this.state.armed
    if (!isConfirmed(target.action) && target.folded !== true) return this.commit(target, expect)
    if (armed !== null && armed.key === target.key && armed.action === target.action && armed.seq === target.seq) {
      return this.commit(target, armed.expect, armed.rewrite !== undefined)
    }
    return this.arm(target as RowTarget & { action: ArmingAction | 'recall' }, expect)
  }

  /**
   * Cancel a summary rewrite in flight (the commit of a folded row): the request is aborted, the
   * host cancels the model call and writes nothing, and the row shows "Cancelled".
   * @returns true when there was one to cancel.
   */
  cancel(): boolean {
    if (this.cancelling === null) return false
    this.cancelling.abort()
    return true
  }

  /** Disarm the armed button, if any. */
  disarm(): void {
    if (this.disposed || this.state.armed === null) return
    this.stopArmTimer()
    this.set({ armed: null })
  }

  /** Stop every timer, drop listeners; later presses resolve `'disposed'` and replies in flight are ignored. */
  dispose(): void {
    if (this.disposed) return
    this.disposed = true
    this.stopArmTimer()
    for (const handle of this.errorTimers.values()) this.timers.clearTimeout(handle)
    this.errorTimers.clear()
    this.dropListeners()
  }

  private async arm(target: RowTarget & { action: ArmingAction | 'recall' }, expect: ViewExpectation): Promise<PressOutcome> {
    this.stopArmTimer()
    this.set({ armed: null, pending: { key: target.key, action: target.action, phase: 'plan' } })
    const reply = await this.options.send({
      sessionId: this.options.sessionId, action: 'plan', planAction: target.action, seq: target.seq, expect,
    })
    if (this.disposed) return 'disposed'
    if (!reply.ok) {
      this.fail(target.key, reply.error)
      return 'refused'
    }
    const count = planCount(reply.value)
    const { replaceGeneration, lastSeq, removedCount, summaryRewrite } = reply.value
    this.baseline = { replaceGeneration, atSeq: lastSeq }
    const rewrite = summaryRewrite === undefined ? {} : { rewrite: { tokens: summaryRewrite.estimatedInputTokens } }
    this.set({ pending: null, armed: { key: target.key, seq: target.seq, action: target.action, count, expect: { replaceGeneration, lastSeq, removedCount }, ...rewrite } })
    this.armTimer = this.timers.setTimeout(() => this.disarm(), this.options.armMs ?? 4000)
    return 'armed'
  }

  private async commit(target: RowTarget, expect: ViewExpectation, rewrite = false): Promise<PressOutcome> {
    this.stopArmTimer()
    this.set({ armed: null, pending: { key: target.key, action: target.action, phase: 'commit', ...(rewrite ? { rewrite: true as const } : {}) } })
    const cancelling = rewrite ? new AbortController() : null
    this.cancelling = cancelling
    const onDurable = this.options.onDurable
    const reply = await this.options.send({ sessionId: this.options.sessionId, action: target.action, seq: target.seq, expect }, {
      ...(cancelling === null ? {} : { signal: cancelling.signal }),
      ...(onDurable === undefined ? {} : { onDurable: (facts: DurableTombstoneFacts) => { if (!this.disposed) onDurable(facts) } }),
    })
    if (this.cancelling === cancelling) this.cancelling = null
    if (this.disposed) return 'disposed'
    if (reply.ok) {
      this.committed(target, reply.value)
      return 'committed'
    }
    const error = reply.error
    if (error.code === 'PERSIST_FAILED' && error.applied === true) {
      this.unsaved(target, error)
      return 'unsaved'
    }
    if (ACTIONS[target.action].returnsContent && !isRefusal(error.code) && this.options.confirmRecall !== undefined) {
      const copy = await this.options.confirmRecall(target)
      if (this.disposed) return 'disposed'
      if (copy !== null) {
        this.set({ pending: null })
        this.options.onRecalled(copy)
        return 'committed'
      }
    }
    this.fail(target.key, error)
    return 'refused'
  }

  private committed(target: RowTarget, value: RemovalValue): void {
    this.baseline = { replaceGeneration: value.replaceGeneration, atSeq: value.tombstoneSeq }
    this.set({ pending: null })
    if (ACTIONS[target.action].returnsContent) this.options.onRecalled(recalledMessage(value))
    this.options.onRemoved?.(value)
  }

  private unsaved(target: RowTarget, error: RecallError): void {
    const value = error.value !== undefined && error.value.action === target.action ? error.value as RemovalValue : undefined
    if (value !== undefined) this.baseline = { replaceGeneration: value.replaceGeneration, atSeq: value.tombstoneSeq }
    this.set({ pending: null })
    if (ACTIONS[target.action].returnsContent) {
      const text = error.text ?? value?.text
      const content = error.content ?? value?.content
      if (text !== undefined || content !== undefined) this.options.onRecalled(recalledMessage({ ...(text === undefined ? {} : { text }), ...(content === undefined ? {} : { content }) }))
    }
    this.options.onUnsaved?.(target.action, value === undefined ? 1 : planCount(value))
  }

  private fail(key: string, error: RecallError): void {
    const errors = new Map(this.state.errors)
    errors.set(key, { key, code: error.code, message: error.message })
    this.set({ pending: null, errors })
    this.timers.clearTimeout(this.errorTimers.get(key))
    this.errorTimers.set(key, this.timers.setTimeout(() => this.clearError(key), this.options.errorMs ?? 6000))
  }

  private clearError(key: string): void {
    if (this.disposed || !this.state.errors.has(key)) return
    this.timers.clearTimeout(this.errorTimers.get(key))
    this.errorTimers.delete(key)
    const errors = new Map(this.state.errors)
    errors.delete(key)
    this.set({ errors: errors.size === 0 ? EMPTY_ERRORS : errors })
  }

  private stopArmTimer(): void {
    this.timers.clearTimeout(this.armTimer)
    this.armTimer = undefined
  }

  private set(patch: Partial<ButtonState>): void {
    this.publish(Object.freeze({ ...this.state, ...patch }))
  }
}

/**
 * Number of messages a plan removes, for the armed label: the plan's nodes without the tombstones
 * it absorbs (they were never messages the person saw), told by the plan's `nodeKinds`; for a
 * summary rewrite (a folded message), the messages it takes: a plan's `removedCount` (the folded
 * ones and, for Delete onward, those after the summary), a write's `removedSeqs`.
 * @param value - the `plan` reply value, or a removal's value.
 * @returns at least 1.
 */
export function planCount(value: Pick<PlanValue, 'nodeKinds'> & { readonly summaryRewrite?: object; readonly removedSeqs?: readonly number[]; readonly removedCount?: number }): number {
  const rewrite = value.summaryRewrite as { readonly removedSeqs?: readonly number[] } | undefined
  // A folded Delete onward also takes the messages after the summary: the plan's count says all.
  if (rewrite?.removedSeqs !== undefined && value.removedCount !== undefined) return Math.max(1, value.removedCount)
  const folded = rewrite?.removedSeqs ?? value.removedSeqs
  if (folded !== undefined) return Math.max(1, folded.length)
  return Math.max(1, value.nodeKinds.filter((nodeKind) => nodeKind !== 'tombstone').length)
}

/**
 * Read a recall reply (or the page's copy of a prompt): its text and its content.
 * @param value - the `recall` reply value, or `{ content }`.
 * @returns the reply's `text` (else the text of `content` by the one rule, `plainText` in
 *   `shared/message-text.ts`) and the content blocks (`[]` when absent).
 */
export function recalledMessage(value: Pick<RemovalValue, 'text' | 'content'>): RecalledMessage {
  const content = value.content ?? []
  return { text: value.text ?? plainText(content), content }
}
