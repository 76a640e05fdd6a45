/**
 * The one owner of the client's state for one mounted session: the view the overlay last rendered
 * (chat store, running flag, `hasMore`, replacement view, locale revision), the composer draft, the
 * {@link ButtonStore}, the notices ({@link UndoNotice}, {@link ImageNotice}) and the {@link RowSync}. Everything else only reports to it or reads
 * from it, and data moves one way:
 *
 * ```text
 *   session snapshot ──useSession──▶ RecallOverlay ──setView────▶ ┐
 *   composer draft ──useInput──▶ DraftMirror ──setDraft─────────▶ │ SessionClient
 *   row button click ──▶ ClickDelegate (in RowSync) ──pressRow──▶ ┘ (view, draft)
 *        │
 *        ├─ press(target, viewExpectation(view, baseline)) ──▶ ButtonStore ──send──▶ host route
 *        │      the button store's state changes ──subscribe──▶ RecallOverlay re-renders
 *        │      a recall commits ──onRecalled──▶ inputActions.setDraft(composeDraft(text, draft)), focus,
 *        │          its images ──readAttachment──▶ createDraftImages ──▶ inputActions.addImages,
 *        │          those left behind ──▶ ImageNotice.show
 *        │      a recall's reply is lost ──confirmRecall──▶ landed? (view, inspect) ──▶ the page's copy
 *        │      applied, flush failed ──onUnsaved──▶ UnsavedWrites ──▶ Save again ──▶ flush
 *        │      any removal commits ──onRemoved──▶ UndoNotice.show ──▶ Undo / Open a copy ──▶ TombstoneActions
 *        │      its answer `persisted: true` (header, then body) ──onDurable──▶ DurableTombstones ──▶ pass()
 *        │          (its rows hidden before the tombstone's live event; the view then brings the same event)
 *        │      a restore in effect, from any entry ──onRestored──▶ UndoNotice.restored (that tombstone's notice)
 *        │
 *        └─ pass(), before paint after every render and on row mutations or reveals:
 *               RowSync.run(view + durable tombstones not yet in it + button state) ──▶ row DOM, the hidden-row
 *                   sheet, the flag on a summary written before a removal (Rewrite summary ──▶ SummaryRefresh,
 *                   shared with the panel)
 *               ──▶ debug record; armed row now hidden, or a turn started ──▶ buttons.disarm()
 * ```
 *
 * The overlay component writes the view during render ({@link SessionClient.setView}, plain field
 * writes, no notification) and runs {@link SessionClient.pass} before paint; the button store never
 * reads the view, it gets the expectation with each press.
 *
 * @module dsh-message-recall/client/session-client
 */
import { isRecord } from '../shared/events'
import type { RecallSender } from './wire/api'
import { composeDraft, focusComposer } from './recall/composer'
import { ButtonStore, recalledMessage, type RecalledMessage, type RowTarget } from './rows/button-store'
import { ImageNotice } from './recall/image-notice'
import { BROWSER_TIMERS, type Timers } from './stores/timers'
import type { RowPress } from './rows/button-clicks'
import type { DebugRegistry } from './debug'
import { disarmOnOtherInput } from './rows/disarm-on-input'
import { viewExpectation, type ViewExpectation } from './rows/view-expectation'
import type { InputActions, Translate } from './wire/rc8'
import { imageRefs, restoreImages, type ImageSource } from './recall/recall-images'
import { recallInEvents, recallLanded } from './recall/recall-landing'
import { RowSync, type SyncInput } from './rows/row-sync'
import { DurableTombstones } from './rows/durable-tombstones'
import { durableFactsOf } from '../shared/durable-header'
import type { DurableTombstoneFacts } from '../shared/protocol'
import type { UnsavedWrites } from './stores/unsaved-writes'
import type { TombstoneActions } from './stores/tombstone-actions'
import { UndoNotice } from './notices/undo-notice'
import { ACTIONS } from '../shared/actions'
import type { SummaryRefresh } from './stores/summary-refresh'

/** What the overlay reads from the session snapshot and the locale on each render: the pass's input without the button state, plus `hasMore`. */
export interface SessionViewInput extends Omit<SyncInput, 'buttons'> {
  /** Older history exists outside the loaded window. */
  readonly hasMore: boolean
}

/** Construction options of {@link SessionClient}. */
export interface SessionClientOptions {
  readonly sessionId: string
  readonly send: RecallSender
  /** Translate bound to the plugin namespace. */
  readonly t: Translate
  readonly debug: DebugRegistry
  /** Restore and Open a copy for this session (shared with the session header's panel). */
  readonly tombstones: TombstoneActions
  /** The session's applied-but-unsaved state (shared with the panel and the editor). */
  readonly unsaved: UnsavedWrites
  /** Rewrite summary for this session (shared with the panel): the flag on a summary's row. */
  readonly summary?: SummaryRefresh
  /** Timers for the button store and the noticess; the browser's by default. */
  readonly timers?: Timers
  /** Where a recall's images are read back and put into the composer; without it they are named as lost. */
  readonly images?: ImageSource
  /** Pauses of the landing check of a recall whose reply was lost, ms (default `LANDING_DELAYS_MS`). */
  readonly landingDelaysMs?: readonly number[]
}

/** The per-session state owner; see the module description. */
export class SessionClient {
  /** The button state store; the overlay subscribes to it to re-render. */
  readonly buttons: ButtonStore
  /** The undo notice after each removal; the overlay renders it. */
  readonly notice: UndoNotice
  /** The images a recall could not bring back into the composer; the overlay renders it. */
  readonly imageNotice: ImageNotice
  /** A write in effect whose flush failed, with Save again; the overlay renders it. */
  readonly unsaved: UnsavedWrites
  private readonly sync: RowSync
  /** Tombstones answered as durable that the live events have not brought yet (hidden at once). */
  private readonly durable = new DurableTombstones()
  private view: SessionViewInput | null = null
  private inputActions: InputActions | null = null
  private draft = ''
  private marker: Element | null = null
  private wasRunning = false
  private disposed = false
  /** Row key → the prompt's content as the page held it when Recall was pressed. */
  private readonly pageCopies = new Map<string, readonly unknown[]>()
  /** The recall whose request is in flight, and whether its text went to the composer already. */
  private recallInFlight: { readonly key: string; readonly seq: number; delivered: boolean } | null = null

  constructor(private readonly options: SessionClientOptions) {
    const timers = options.timers === undefined ? {} : { timers: options.timers }
    this.notice = new UndoNotice(timers)
    this.imageNotice = new ImageNotice(timers)
    this.unsaved = options.unsaved
    this.buttons = new ButtonStore({
      sessionId: options.sessionId,
      send: options.send,
      onRecalled: (message) => {
        // The text went to the composer already when the tombstone reached the view or the answer's
        // header named it (see pass()); else it goes now, and no later pass brings it again.
        const inFlight = this.recallInFlight
        if (inFlight?.delivered === true) return
        if (inFlight !== null) inFlight.delivered = true
        this.recalled(message)
      },
      // A durable answer hides its rows at once, before the tombstone's live event (which the web
      // host sends after the shadow price's frames); the live event then confirms the same fates.
      onDurable: (facts) => this.holdDurable(facts),
      onRemoved: (value) => {
        const facts = durableFactsOf(value)
        if (facts !== null) this.holdDurable(facts)
        if (value.persisted) this.unsaved.settled()
        this.notice.show(value)
      },
      onUnsaved: (action, count) => this.unsaved.mark(action, count),
      confirmRecall: (target) => this.confirmRecall(target),
      ...timers,
    })
    this.sync = new RowSync({ t: options.t, onPress: (press) => this.pressRow(press) })
  }

  /**
   * Take the view of this render. Plain writes: safe to call while rendering.
   * @param view - what the overlay selected from the session snapshot.
   * @param inputActions - the composer face of this render.
   */
  setView(view: SessionViewInput, inputActions: InputActions): void {
    this.view = view
    this.inputActions = inputActions
  }

  /**
   * Take the composer's current draft (kept without re-rendering the overlay per keystroke).
   * @param draft - the draft text.
   */
  setDraft(draft: string): void {
    this.draft = draft
  }

  /**
   * Set the overlay's anchor element: the chat flow and the composer are found from it.
   * @param marker - the element, or `null` on unmount.
   */
  setMarker(marker: Element | null): void {
    this.marker = marker
    this.sync.setMarker(marker)
  }

  /** The `expect` a request would carry now (`{}` before the first render). */
  expectation(): ViewExpectation {
    const view = this.view
    return view === null ? {} : viewExpectation(view.chat, view.replacements, view.hasMore, this.buttons.generationBaseline)
  }

  /**
   * Press a row button with the view's current expectation.
   * @param target - the row, its seq and the action.
   * @returns the button store's outcome.
   */
  press(target: RowTarget): ReturnType<ButtonStore['press']> {
    // An action that returns content (Recall) keeps the page's copy of the prompt, for a reply that is lost.
    if (ACTIONS[target.action].returnsContent) {
      const data = this.view?.chat.nodes.get(target.key)?.data
      const content = isRecord(data) && Array.isArray(data.content) ? data.content as readonly unknown[] : null
      if (content === null) this.pageCopies.delete(target.key)
      else this.pageCopies.set(target.key, content)
      if (this.buttons.getSnapshot().pending !== null) return this.buttons.press(target, this.expectation())
      const inFlight = { key: target.key, seq: target.seq, delivered: false }
      this.recallInFlight = inFlight
      return this.buttons.press(target, this.expectation()).finally(() => {
        if (this.recallInFlight === inFlight) this.recallInFlight = null
      })
    }
    return this.buttons.press(target, this.expectation())
  }

  /**
   * A row button was pressed: Restore and Open a copy (on an excluded row) go to the session's
   * {@link TombstoneActions}, every other action to the button store.
   * @param press - the row, the seq its offer acts on, and the action.
   */
  pressRow(press: RowPress): void {
    const { action, seq } = press
    if (action === 'restore') void this.options.tombstones.restore(seq)
    else if (action === 'forkBefore') void this.options.tombstones.forkBefore(seq)
    else void this.press({ key: press.key, seq, action, ...(press.folded === true ? { folded: true as const } : {}) })
  }

  /**
   * Run one sync pass over the current view, record it for the debug hook, and disarm the armed
   * button when its row is now hidden or a turn has just started.
   */
  pass(): void {
    const view = this.view
    if (view === null) return
    const state = this.buttons.getSnapshot()
    const summary = this.options.summary
    const replacements = this.durable.merge(view.replacements)
    const record = this.sync.run({
      ...view, replacements, buttons: state, tombstoneErrors: this.options.tombstones.getSnapshot().errors,
      ...(summary === undefined ? {} : { summary: { state: summary.getSnapshot(), onRewrite: (seq: number) => void summary.press(seq), onCancel: () => summary.cancel() } }),
    })
    this.options.debug.record(this.options.sessionId, record, () => this.expectation())
    this.deliverLandedRecall(replacements)
    const started = view.running && !this.wasRunning
    this.wasRunning = view.running
    if (state.armed !== null && (started || record.hidden.hiddenKeys.has(state.armed.key))) this.buttons.disarm()
  }

  /**
   * Start the page-side effects: passes on row mutations and reveals, and disarming on any other
   * pointer press, focus move or Escape.
   * @param doc - the page document, or `null`.
   * @returns stops them, removes every mark of the plugin and disposes the button store and the notices.
   */
  mount(doc: Document | null): () => void {
    const stopWatching = this.sync.watch(() => this.pass())
    const stopDisarming = disarmOnOtherInput(doc, this.buttons)
    // Escape cancels Rewrite summary too: disarms its confirm, or aborts the model call (nothing is written).
    const summary = this.options.summary
    const onEscape = (event: KeyboardEvent) => { if (event.key === 'Escape') summary?.cancel() }
    doc?.addEventListener('keydown', onEscape, true)
    const stopRestored = this.options.tombstones.onRestored((tombstoneSeq) => this.notice.restored(tombstoneSeq))
    return () => {
      this.disposed = true
      stopRestored()
      stopDisarming()
      doc?.removeEventListener('keydown', onEscape, true)
      stopWatching()
      this.sync.detach()
      this.buttons.dispose()
      this.notice.dispose()
      this.imageNotice.dispose()
    }
  }

  /** Hold a durable answer's tombstone for the passes until the view brings it; a pass hides its rows now. */
  private holdDurable(facts: DurableTombstoneFacts): void {
    if (this.durable.add(facts) && !this.disposed) this.pass()
  }

  private recalled(message: RecalledMessage): void {
    const actions = this.inputActions
    if (actions === null) return
    const text = composeDraft(message.text, this.draft)
    actions.setDraft(text)
    this.draft = text
    focusComposer(this.marker)
    const refs = imageRefs(message.content)
    if (refs.length === 0) return
    const images = this.options.images
    const addImages = actions.addImages
    void restoreImages(refs, {
      readAttachment: images?.reader(this.options.sessionId),
      drafts: images?.drafts(),
      addImages: addImages === undefined ? undefined : (ids) => addImages.call(actions, ids),
    }).then((outcome) => this.imageNotice.show(outcome.lost))
  }

  /**
   * The recall in flight has its tombstone in the view, or its durable answer named it (the
   * answer's header, read before its body; the live event and the body come later): its text goes
   * to the composer now, from the page's copy of the prompt, and the body's copy is then dropped. A
   * tombstone in the view is in effect, so the reply can only be a success or "applied, not yet
   * saved", which both bring the text back; a durable answer is a success.
   * @param replacements - the replacement view with the durable answers it has not brought yet.
   */
  private deliverLandedRecall(replacements: SessionViewInput['replacements']): void {
    const inFlight = this.recallInFlight
    if (inFlight === null || inFlight.delivered) return
    const content = this.pageCopies.get(inFlight.key)
    if (content === undefined || !recallInEvents(replacements, inFlight.seq)) return
    inFlight.delivered = true
    this.recalled(recalledMessage({ content }))
  }

  /** A recall failed without a refusal: if its tombstone landed, the page's copy of the prompt. */
  private async confirmRecall(target: RowTarget): Promise<RecalledMessage | null> {
    const content = this.pageCopies.get(target.key)
    this.pageCopies.delete(target.key)
    if (content === undefined) return null
    const landed = await recallLanded({
      sessionId: this.options.sessionId,
      seq: target.seq,
      send: this.options.send,
      inView: () => this.view !== null && recallInEvents(this.view.replacements, target.seq),
      timers: this.options.timers ?? BROWSER_TIMERS,
      cancelled: () => this.disposed,
      ...(this.options.landingDelaysMs === undefined ? {} : { delaysMs: this.options.landingDelaysMs }),
    })
    return landed ? recalledMessage({ content }) : null
  }
}
