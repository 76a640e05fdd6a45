/**
 * Browser half of dsh-message-recall: a cordis plugin the rc.8 web shell loads from
 * `lib/client.js` (`exports["./client"]`). It only registers, each registration tied to this
 * plugin's fiber so unloading the plugin withdraws all of it:
 *
 * - the zh/en dictionaries (`ctx.locale.register`);
 * - the replacement-event Definition and its view target, through which the overlay reads the
 *   tombstones from the session's durable history (`ctx.conversationEvents` / `ctx.conversationViews`;
 *   both registries bind the registration to the caller's fiber themselves);
 * - the style sheet and the page-console debug hook;
 * - the headless entry `dsh-message-recall` in the session-scoped seat `conversation.input.overlay`
 *   (`ctx.slots.inject` waits for the seat's declaration by ui-conversation), which also shows the
 *   undo notice;
 * - the Removed button and its panel in the session header's `conversation.session.header.utilities`
 *   list, registered like `dsh-session-log-export` registers its Session log button there;
 * - the conversation editor's dictionaries and its Edit button `dsh-message-recall-edit` in the
 *   same seat;
 * - the Trajectory marks' dictionaries, the page's one Trajectory decorator and the headless entry
 *   `dsh-message-recall-trajectory` in the same seat that feeds it;
 * - the To-dos strip switch and its headless entry `dsh-message-recall-todos` in the same seat;
 * - the export button "Session log without removed messages" `dsh-message-recall-export` in the
 *   same seat (`export/install.ts`);
 * - a watch on the page's session list that pulls it again when an entry leaves it, so a stored
 *   session this plugin wrote to stays listed (see `open-session.ts`).
 *
 * `inject` names only services the rc.8 client provides: a plugin waiting for a missing service
 * never activates, and the rc.8 web boot then fails as a whole.
 *
 * @module dsh-message-recall/client
 */
import { DEFAULT_ROUTE_PATH } from '../shared/protocol'
import { createRecallSender, type FetchLike } from './wire/api'
import { DebugRegistry, installDebugHook } from './debug'
import { undecorateAll } from './rows/decorate'
import { DICTIONARIES, LOCALE_NS } from './text/locales'
import { RecallOverlay, type OverlayKit } from './Overlay'
import { keepStoredSessionsListed, relistDroppedSessions, sessionOpener } from './wire/open-session'
import { installPromptRetry } from './wire/prompt-retry'
import type { ConversationEventRegistry, ConversationViewRegistry, LocaleService, SessionsService, SlotService } from './wire/rc8'
import { pageImageSource } from './recall/page-images'
import { RemovedButton } from './panel/RemovedPanel'
import { SummaryButton } from './panel/SummaryButton'
import { replacementDefinition, replacementView } from './wire/replacement-view'
import { BUILD_STAMP } from './build-stamp'
import { installStyleSheets } from './style-sheets'
import { SessionStores } from './stores/session-stores'
import { EraseRequests } from './stores/erase-requests'
import { TombstoneActions } from './stores/tombstone-actions'
import { UnsavedWrites } from './stores/unsaved-writes'
import { SummaryRefresh } from './stores/summary-refresh'
import { EditButton, type EditButtonKit } from './editor/EditButton'
import { EDITOR_DICTIONARIES, EDITOR_LOCALE_NS } from './editor/editor-locales'
import { TrajectoryDecorator } from './trajectory/trajectory-decorate'
import { TRAJECTORY_DICTIONARIES, TRAJECTORY_LOCALE_NS } from './trajectory/trajectory-locales'
import { TrajectoryMarks } from './trajectory/TrajectoryMarks'
import { TodoStrip, TodoStripHider } from './side-state/TodoStrip'
import { installExportButton } from './export/install'

/** Plugin name (the package name). */
export const name = 'dsh-message-recall'

/** rc.8 client services used; all four exist in the stock rc.8 web client. */
export const inject = ['slots', 'locale', 'conversationEvents', 'conversationViews']

/** Id of the overlay entry in `conversation.input.overlay`. */
export const OVERLAY_ENTRY_ID = 'dsh-message-recall'

/** Id of the Removed button in `conversation.session.header.utilities` (beside DSH's Session log). */
export const REMOVED_ENTRY_ID = 'dsh-message-recall-removed'
/** Id of the Summary entry in the session header. */
export const SUMMARY_ENTRY_ID = 'dsh-message-recall-summary'
/** Id of the Edit button entry in `conversation.session.header.utilities`. */
export const EDIT_ENTRY_ID = 'dsh-message-recall-edit'

/** Id of the headless entry in `conversation.session.header.utilities` that marks removals in the Trajectory tab. */
export const TRAJECTORY_ENTRY_ID = 'dsh-message-recall-trajectory'

/** Id of the headless entry in `conversation.session.header.utilities` that hides a To-dos strip only removed steps wrote. */
export const TODO_STRIP_ENTRY_ID = 'dsh-message-recall-todos'

/** Optional client config. */
export interface ClientConfig {
  /** Route path of the host half (default `DEFAULT_ROUTE_PATH` of `shared/protocol.ts`, the host's default `path`). */
  readonly path?: string
}

/** The context this plugin's `apply` receives: a cordis client context with the injected services. */
export interface ClientContext {
  effect(execute: () => () => void, label?: string): unknown
  readonly slots: SlotService
  readonly locale: LocaleService
  readonly conversationEvents: ConversationEventRegistry
  readonly conversationViews: ConversationViewRegistry
  /** A service by name, `undefined` when absent (cordis `Context.get`); used for `sessions`, which opens a copy. */
  get(name: string): unknown
}

let announced = false

/**
 * Register the client half.
 * @param ctx - the client context (see {@link ClientContext}).
 * @param config - optional; see {@link ClientConfig}.
 */
export function apply(ctx: ClientContext, config?: ClientConfig): void {
  if (!announced) {
    announced = true
    console.info(`dsh-message-recall client ${BUILD_STAMP}`)
  }
  const path = config?.path ?? DEFAULT_ROUTE_PATH
  const debug = new DebugRegistry(BUILD_STAMP)
  ctx.effect(() => ctx.locale.register(LOCALE_NS, DICTIONARIES), 'dsh-message-recall: dictionaries')
  ctx.conversationEvents.register(replacementDefinition)
  ctx.conversationViews.register(replacementView)
  ctx.effect(() => {
    const doc = globalThis.document
    const remove = installStyleSheets(doc)
    return () => {
      undecorateAll(doc)
      remove()
    }
  }, 'dsh-message-recall: styles')
  ctx.effect(() => installDebugHook(globalThis as unknown as Record<string, unknown>, debug), 'dsh-message-recall: debug hook')
  const locale = ctx.locale
  const fetchImpl: FetchLike = (url, init) => (globalThis.fetch as unknown as FetchLike)(url, init)
  const send = createRecallSender(fetchImpl, path)
  const openSession = sessionOpener(() => ctx.get('sessions') as SessionsService | undefined)
  ctx.effect(() => {
    const sessions = ctx.get('sessions') as SessionsService | undefined
    if (sessions === undefined) return () => {}
    const keep = keepStoredSessionsListed(sessions)
    const relist = relistDroppedSessions(sessions)
    return () => {
      relist()
      keep()
    }
  }, 'dsh-message-recall: stored sessions stay listed after a write')
  ctx.effect(() => installPromptRetry(globalThis as unknown as Parameters<typeof installPromptRetry>[0]), 'dsh-message-recall: a prompt refused while a write holds its session is sent again')
  const unsaved = new SessionStores((sessionId) => new UnsavedWrites({ sessionId, send }))
  const tombstones = new SessionStores((sessionId) => new TombstoneActions({ sessionId, send, openSession, unsaved: unsaved.get(sessionId) }))
  const summaries = new SessionStores((sessionId) => new SummaryRefresh({ sessionId, send }))
  const erases = new SessionStores((sessionId) => new EraseRequests({ sessionId, send }))
  ctx.effect(() => () => {
    erases.dispose()
    tombstones.dispose()
    unsaved.dispose()
    summaries.dispose()
  }, 'dsh-message-recall: restore and copy requests, unsaved writes, summary rewrites')
  const kit: OverlayKit = {
    // Bound once: LocaleRuntime's methods read `this`, and useSyncExternalStore wants stable functions.
    locale: { subscribe: (listener) => locale.subscribe(listener), getSnapshot: () => locale.getSnapshot() },
    t: locale.bind(LOCALE_NS),
    send,
    debug,
    tombstones,
    unsaved,
    summaries,
    erases,
    images: pageImageSource((name) => ctx.get(name)),
  }
  // Both entries get the same kit: the header's panel and the overlay share the restore and copy requests.
  const entry = (seat: string, id: string, order: number, component: unknown) => ctx.slots.inject(seat, () => ctx.slots.register({
    name: seat, id, order, locale: LOCALE_NS, inject: () => ({ kit }),
  }, component))
  entry('conversation.input.overlay', OVERLAY_ENTRY_ID, 100, RecallOverlay)
  entry('conversation.session.header.utilities', REMOVED_ENTRY_ID, 90, RemovedButton)
  entry('conversation.session.header.utilities', SUMMARY_ENTRY_ID, 95, SummaryButton)
  ctx.effect(() => ctx.locale.register(EDITOR_LOCALE_NS, EDITOR_DICTIONARIES), 'dsh-message-recall: editor dictionaries')
  const editorKit: EditButtonKit = { locale: kit.locale, t: locale.bind(EDITOR_LOCALE_NS), tRecall: kit.t, send: kit.send, fetch: fetchImpl, unsaved: (sessionId) => unsaved.get(sessionId) }
  ctx.slots.inject('conversation.session.header.utilities', () => ctx.slots.register({
    name: 'conversation.session.header.utilities',
    id: EDIT_ENTRY_ID,
    order: 100,
    locale: EDITOR_LOCALE_NS,
    inject: () => ({ editorKit }),
  }, EditButton))
  ctx.effect(() => ctx.locale.register(TRAJECTORY_LOCALE_NS, TRAJECTORY_DICTIONARIES), 'dsh-message-recall: Trajectory dictionaries')
  const decorator = { current: undefined as TrajectoryDecorator | undefined }
  ctx.effect(() => {
    decorator.current = new TrajectoryDecorator(globalThis.document)
    return () => decorator.current?.dispose()
  }, 'dsh-message-recall: Trajectory marks')
  ctx.slots.inject('conversation.session.header.utilities', () => ctx.slots.register({
    name: 'conversation.session.header.utilities', id: TRAJECTORY_ENTRY_ID, order: 110, locale: TRAJECTORY_LOCALE_NS,
    inject: () => ({ trajectoryKit: { decorator: decorator.current!, fetch: fetchImpl, locale: kit.locale, t: locale.bind(TRAJECTORY_LOCALE_NS), tRecall: kit.t } }),
  }, TrajectoryMarks))
  const hider = { current: undefined as TodoStripHider | undefined }
  ctx.effect(() => {
    hider.current = new TodoStripHider(globalThis.document)
    return () => hider.current?.dispose()
  }, 'dsh-message-recall: To-dos strip')
  ctx.slots.inject('conversation.session.header.utilities', () => ctx.slots.register({
    name: 'conversation.session.header.utilities', id: TODO_STRIP_ENTRY_ID, order: 120,
    inject: () => ({ todoKit: { hider: hider.current!, fetch: fetchImpl } }),
  }, TodoStrip))
  installExportButton(ctx, (url, init) => globalThis.fetch(url, init), path)
}
