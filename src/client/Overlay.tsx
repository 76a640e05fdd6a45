/**
 * The headless entry of the `conversation.input.overlay` seat: one per mounted session. It draws
 * nothing of its own except its notices (images a recall left behind, a removal not yet saved, undo). It selects the session's view, hands it to the
 * session's state owner ({@link SessionClient}, see its module for the data flow) on every render,
 * runs a sync pass before paint, and re-renders when the button store's state changes:
 *
 * - every render (any change of the chat store, the running flag, the replacement view, the
 *   button store or the locale) runs a pass before paint, and row mutations run one too;
 * - a recall puts the text into the composer with `inputActions.setDraft` and focuses the
 *   composer's textarea (rc.8 `InputActions` has no focus); where DSH shows a read-only composer
 *   instead (a one-shot subagent record), no row offers Recall;
 * - any pointer press, focus move or Escape outside the armed button disarms it, and so does a
 *   turn starting.
 *
 * @module dsh-message-recall/client/Overlay
 */
import { useEffect, useLayoutEffect, useMemo, useRef, useSyncExternalStore } from 'react'
import type { RecallSender } from './wire/api'
import type { DebugRegistry } from './debug'
import { composerReadOnly, type InputActions, type InputState, type LocaleService, type SessionSnapshot, type SnapshotSelectorHook, type Translate } from './wire/rc8'
import { selectReplacements } from './wire/replacement-view'
import { SessionClient } from './session-client'
import type { SessionStores } from './stores/session-stores'
import type { EraseRequests } from './stores/erase-requests'
import type { TombstoneActions } from './stores/tombstone-actions'
import type { UnsavedWrites } from './stores/unsaved-writes'
import type { SummaryRefresh } from './stores/summary-refresh'
import { RecallNotices } from './notices/RecallNotices'
import type { ImageSource } from './recall/recall-images'
import { UndoNoticeView } from './notices/UndoNotice'

/** What the plugin injects into the entry's props (`register({ inject })`). */
export interface OverlayKit {
  /** Locale revision source (stable functions, as `useSyncExternalStore` needs). */
  readonly locale: Pick<LocaleService, 'subscribe' | 'getSnapshot'>
  /** Translate bound to the plugin namespace. */
  readonly t: Translate
  readonly send: RecallSender
  readonly debug: DebugRegistry
  /** Restore / Open a copy per session, shared with the session header's panel. */
  readonly tombstones: SessionStores<TombstoneActions>
  /** The applied-but-unsaved state per session, shared with the panel and the editor. */
  readonly unsaved: SessionStores<UnsavedWrites>
  /** Rewrite summary per session, shared with the panel (absent: no flag on a summary's row). */
  readonly summaries?: SessionStores<SummaryRefresh>
  /** Erase for good per session (the Removed panel). */
  readonly erases?: SessionStores<EraseRequests>
  /** Where a recall's images are read back and put into the composer (absent: they are named as lost). */
  readonly images?: ImageSource
}

/** Props the rc.8 seat gives the entry (standard props of a session-scoped seat) plus the kit. */
export interface RecallOverlayProps {
  readonly sessionId: string
  readonly useSession: SnapshotSelectorHook<SessionSnapshot>
  readonly useInput?: SnapshotSelectorHook<InputState>
  readonly inputActions: InputActions
  readonly kit: OverlayKit
}

const selectChat = (s: SessionSnapshot) => s.chat
const selectRunning = (s: SessionSnapshot) => s.running
const selectHasMore = (s: SessionSnapshot) => s.hasMore
const selectRecallOffered = (s: SessionSnapshot) => !composerReadOnly(s)
const selectDraft = (s: InputState) => s.draft

/** The overlay entry component. */
export function RecallOverlay({ sessionId, useSession, useInput, inputActions, kit }: RecallOverlayProps) {
  const chat = useSession(selectChat)
  const running = useSession(selectRunning)
  const hasMore = useSession(selectHasMore)
  const recallOffered = useSession(selectRecallOffered)
  const replacements = useSession(selectReplacements)
  const locale = useSyncExternalStore(kit.locale.subscribe, kit.locale.getSnapshot)
  const marker = useRef<HTMLSpanElement>(null)
  const client = useMemo(() => new SessionClient({ sessionId, send: kit.send, t: kit.t, debug: kit.debug, tombstones: kit.tombstones.get(sessionId), unsaved: kit.unsaved.get(sessionId), ...(kit.summaries === undefined ? {} : { summary: kit.summaries.get(sessionId) }), ...(kit.images === undefined ? {} : { images: kit.images }) }), [sessionId, kit])
  useSyncExternalStore(client.buttons.subscribe, client.buttons.getSnapshot)
  const imageNotice = useSyncExternalStore(client.imageNotice.subscribe, client.imageNotice.getSnapshot)
  // Re-render (and so run a pass) when a Restore or Open a copy is refused: excluded rows show it.
  const tombstones = kit.tombstones.get(sessionId)
  useSyncExternalStore(tombstones.subscribe, tombstones.getSnapshot)
  // And when Rewrite summary moves a step: the summary's row shows it.
  const summaries = kit.summaries?.get(sessionId)
  useSyncExternalStore(summaries?.subscribe ?? noSubscribe, summaries?.getSnapshot ?? noSnapshot)
  client.setView({ chat, running, hasMore, replacements, localeRevision: locale.revision, recallOffered }, inputActions)

  useLayoutEffect(() => {
    client.setMarker(marker.current)
    client.pass()
  })
  useEffect(() => client.mount(marker.current?.ownerDocument ?? null), [client])

  return (
    <>
      <span ref={marker} hidden data-message-recall-overlay="" />
      {useInput !== undefined && <DraftMirror useInput={useInput} client={client} />}
      <RecallNotices notice={imageNotice} onDismiss={() => client.imageNotice.dismiss()} unsaved={client.unsaved} t={kit.t}>
        <UndoNoticeView notice={client.notice} actions={tombstones} t={kit.t} />
      </RecallNotices>
    </>
  )
}

const noSubscribe = (): (() => void) => () => {}
const noSnapshot = (): null => null

/** Keeps the composer draft in the state owner without re-rendering the overlay on every keystroke. */
function DraftMirror({ useInput, client }: { useInput: SnapshotSelectorHook<InputState>; client: SessionClient }) {
  const draft = useInput(selectDraft)
  useLayoutEffect(() => client.setDraft(draft), [draft, client])
  return null
}
