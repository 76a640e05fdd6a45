/**
 * **Rewrite summary** for one session: the summary on the surface made again from the originals
 * minus every removed message (the route's `rewriteSummary`, a model call), for a summary written
 * before a removal of messages it holds (`shared/summary-flag.ts`). One store, read by the two
 * places that show the flag: the summary's row in the chat (`rows/summary-flag-row.ts`) and the
 * Removed panel (`panel/RemovedPanel.tsx`), so both show the same step.
 *
 * Steps, one request at a time:
 * - `press` on an idle flag asks the host for the `plan` (what the call would be made from) and
 *   arms with its estimated input tokens: the confirm names the cost;
 * - `press` again on the armed flag commits: `rewriteSummary` with the plan's view as `expect`,
 *   running until the reply; the new summary reaches the page with the session's live events, and
 *   the flag goes when the replacement view no longer holds it;
 * - `cancel` (Escape, or the Cancel button) disarms an armed flag, and aborts a running one: the
 *   request is aborted, the host cancels the model call and writes nothing (`CANCELLED`);
 * - a refusal or failure is kept as the flag's error until the next press.
 *
 * @module dsh-message-recall/client/stores/summary-refresh
 */
import type { ViewExpectation } from '../../shared/protocol'
import type { RecallErrorCode, RecallSender } from '../wire/api'
import { SnapshotStore } from './snapshot-store'

/** One immutable snapshot. */
export type SummaryRefreshState =
  | { readonly phase: 'idle'; readonly checkpointSeq: null; readonly error: { readonly checkpointSeq: number; readonly code: RecallErrorCode } | null }
  | { readonly phase: 'planning' | 'running'; readonly checkpointSeq: number; readonly error: null }
  | { readonly phase: 'armed'; readonly checkpointSeq: number; readonly error: null; readonly tokens: number; readonly expect: ViewExpectation }

/** Construction options of {@link SummaryRefresh}. */
export interface SummaryRefreshOptions {
  readonly sessionId: string
  readonly send: RecallSender
}

const IDLE: SummaryRefreshState = Object.freeze({ phase: 'idle', checkpointSeq: null, error: null })

/** The per-session store; see the module description. */
export class SummaryRefresh extends SnapshotStore<SummaryRefreshState> {
  private running: AbortController | null = null
  private disposed = false

  constructor(private readonly options: SummaryRefreshOptions) {
    super(IDLE)
  }

  /**
   * A press of **Rewrite summary** (or of its confirm).
   * @param checkpointSeq - the flagged summary's checkpoint.
   * @returns `'armed'`, `'done'`, `'refused'` (the error is kept) or `'ignored'` (a request is in flight).
   */
  async press(checkpointSeq: number): Promise<'armed' | 'done' | 'refused' | 'ignored'> {
    const state = this.state
    if (this.disposed || state.phase === 'planning' || state.phase === 'running') return 'ignored'
    if (state.phase === 'armed' && state.checkpointSeq === checkpointSeq) return this.commit(checkpointSeq, state.expect)
    this.publish(Object.freeze({ phase: 'planning', checkpointSeq, error: null }))
    const reply = await this.options.send({ sessionId: this.options.sessionId, action: 'plan', planAction: 'rewriteSummary', checkpointSeq })
    if (this.disposed) return 'ignored'
    if (!reply.ok) return this.fail(checkpointSeq, reply.error.code)
    const { estimatedInputTokens, replaceGeneration, lastSeq } = reply.value
    this.publish(Object.freeze({ phase: 'armed', checkpointSeq, error: null, tokens: estimatedInputTokens, expect: { replaceGeneration, lastSeq } }))
    return 'armed'
  }

  /**
   * Escape or Cancel: an armed flag goes back to idle; a running rewrite is aborted (nothing is written).
   * @returns true when there was something to cancel.
   */
  cancel(): boolean {
    if (this.state.phase === 'armed') {
      this.publish(IDLE)
      return true
    }
    if (this.state.phase === 'running' && this.running !== null) {
      this.running.abort()
      return true
    }
    return false
  }

  /** Abort a request in flight and drop listeners; later presses are ignored. */
  dispose(): void {
    this.disposed = true
    this.running?.abort()
    this.dropListeners()
  }

  private async commit(checkpointSeq: number, expect: ViewExpectation): Promise<'done' | 'refused' | 'ignored'> {
    const controller = new AbortController()
    this.running = controller
    this.publish(Object.freeze({ phase: 'running', checkpointSeq, error: null }))
    const reply = await this.options.send({ sessionId: this.options.sessionId, action: 'rewriteSummary', checkpointSeq, expect }, { signal: controller.signal })
    this.running = null
    if (this.disposed) return 'ignored'
    if (reply.ok || (reply.error.code === 'PERSIST_FAILED' && reply.error.applied === true)) {
      this.publish(IDLE)
      return 'done'
    }
    return this.fail(checkpointSeq, reply.error.code)
  }

  private fail(checkpointSeq: number, code: RecallErrorCode): 'refused' {
    this.publish(Object.freeze({ phase: 'idle', checkpointSeq: null, error: { checkpointSeq, code } }))
    return 'refused'
  }
}
