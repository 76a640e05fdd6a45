/**
 * The one owner of the client's state for one mounted session: the view the overlay last rendered
 * (chat store, running flag, `hasMore`, replacement view, locale revision), the composer draft, the
 * {@link RecallController} and the {@link RowSync}. Everything else only reports to it or reads
 * from it, and data moves one way:
 *
 * ```text
 *   session snapshot ──useSession──▶ RecallOverlay ──setView────▶ ┐
 *   composer draft ──useInput──▶ DraftMirror ──setDraft─────────▶ │ SessionClient
 *   row button click ──▶ ClickDelegate (in RowSync) ──press─────▶ ┘ (view, draft)
 *        │
 *        ├─ press(target, viewExpectation(view, baseline)) ──▶ RecallController ──send──▶ host route
 *        │      the controller's state changes ──subscribe──▶ RecallOverlay re-renders
 *        │      a recall commits ──onRecalled──▶ inputActions.setDraft(composeDraft(text, draft)), focus
 *        │
 *        └─ pass(), before paint after every render and on row mutations or reveals:
 *               RowSync.run(view + controller state) ──▶ row DOM
 *               ──▶ debug record; armed row now hidden, or a turn started ──▶ controller.disarm()
 * ```
 *
 * The overlay component writes the view during render ({@link SessionClient.setView}, plain field
 * writes, no notification) and runs {@link SessionClient.pass} before paint; the controller never
 * reads the view, it gets the expectation with each press.
 *
 * @module dsh-message-recall/client/session-client
 */
import type { RecallSender } from './api'
import { composeDraft, focusComposer } from './composer'
import { RecallController, type RecalledMessage, type RowTarget, type Timers } from './controller'
import type { DebugRegistry } from './debug'
import { disarmOnOtherInput } from './disarm'
import { viewExpectation, type ViewExpectation } from './expectation'
import type { InputActions, Translate } from './rc8'
import { RowSync, type SyncInput } from './sync'

/** What the overlay reads from the session snapshot and the locale on each render: the pass's input without the controller state, plus `hasMore`. */
export interface SessionViewInput extends Omit<SyncInput, 'controller'> {
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
  /** Timers for the controller; the browser's by default. */
  readonly timers?: Timers
}

/** The per-session state owner; see the module description. */
export class SessionClient {
  /** The button state store; the overlay subscribes to it to re-render. */
  readonly controller: RecallController
  private readonly sync: RowSync
  private view: SessionViewInput | null = null
  private inputActions: InputActions | null = null
  private draft = ''
  private marker: Element | null = null
  private wasRunning = false

  constructor(private readonly options: SessionClientOptions) {
    this.controller = new RecallController({
      sessionId: options.sessionId,
      send: options.send,
      onRecalled: (message) => this.recalled(message),
      ...(options.timers === undefined ? {} : { timers: options.timers }),
    })
    this.sync = new RowSync({ t: options.t, onPress: (target) => void this.press(target) })
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
    return view === null ? {} : viewExpectation(view.chat, view.replacements, view.hasMore, this.controller.generationBaseline)
  }

  /**
   * Press a row button with the view's current expectation.
   * @param target - the row, its seq and the action.
   * @returns the controller's outcome.
   */
  press(target: RowTarget): ReturnType<RecallController['press']> {
    return this.controller.press(target, this.expectation())
  }

  /**
   * Run one sync pass over the current view, record it for the debug hook, and disarm the armed
   * button when its row is now hidden or a turn has just started.
   */
  pass(): void {
    const view = this.view
    if (view === null) return
    const state = this.controller.getSnapshot()
    const record = this.sync.run({ ...view, controller: state })
    this.options.debug.record(this.options.sessionId, record, () => this.expectation())
    const started = view.running && !this.wasRunning
    this.wasRunning = view.running
    if (state.armed !== null && (started || record.hidden.hiddenKeys.has(state.armed.key))) this.controller.disarm()
  }

  /**
   * Start the page-side effects: passes on row mutations and reveals, and disarming on any other
   * pointer press, focus move or Escape.
   * @param doc - the page document, or `null`.
   * @returns stops them, removes every mark of the plugin and disposes the controller.
   */
  mount(doc: Document | null): () => void {
    const stopWatching = this.sync.watch(() => this.pass())
    const stopDisarming = disarmOnOtherInput(doc, this.controller)
    return () => {
      stopDisarming()
      stopWatching()
      this.sync.detach()
      this.controller.dispose()
    }
  }

  private recalled(message: RecalledMessage): void {
    const actions = this.inputActions
    if (actions === null) return
    const text = composeDraft(message.text, this.draft)
    actions.setDraft(text)
    this.draft = text
    focusComposer(this.marker)
  }
}
