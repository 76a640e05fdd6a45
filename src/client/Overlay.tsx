/**
 * The headless entry of the `conversation.input.overlay` seat: one per mounted session. It draws
 * nothing of its own except the recall notice; it wires the session's snapshot, the controller and
 * the sync pass together:
 *
 * - every render (any change of the chat store, the running flag, the replacement view, the
 *   controller or the locale) runs a pass before paint, and a MutationObserver runs one when rows
 *   are re-created outside a store change;
 * - a press goes to the controller; a recall puts the text into the composer with
 *   `inputActions.setDraft` and focuses the composer's textarea (rc.8 `InputActions` has no focus);
 * - any pointer press, focus move or Escape outside the armed button disarms it, and so does a
 *   turn starting.
 *
 * @module dsh-message-recall/client/Overlay
 */
import { useEffect, useLayoutEffect, useMemo, useRef, useSyncExternalStore, type MutableRefObject } from 'react'
import type { RecallSender } from './api'
import { RecallController, type ControllerState } from './controller'
import type { DebugRegistry } from './debug'
import { viewExpectation, type GenerationBaseline, type ViewExpectation } from './expectation'
import type { InputActions, InputState, LocaleService, SessionSnapshot, SnapshotSelectorHook, Translate } from './rc8'
import { readReplacements, REPLACEMENT_VIEW, type ReplacementSnapshot } from './replacement-view'
import { RowSync } from './sync'
import { isTombstoneEvent } from '../shared/tombstone'
import { composeDraft, focusComposer } from './composer'
import { disarmOnOtherInput } from './disarm'
import { countedKey } from './locales'

/** What the plugin injects into the entry's props (`register({ inject })`). */
export interface OverlayKit {
  /** Locale revision source (stable functions, as `useSyncExternalStore` needs). */
  readonly locale: Pick<LocaleService, 'subscribe' | 'getSnapshot'>
  /** Translate bound to the plugin namespace. */
  readonly t: Translate
  readonly send: RecallSender
  readonly debug: DebugRegistry
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
const selectReplacements = (s: SessionSnapshot) => readReplacements(s.views.get(REPLACEMENT_VIEW))
const selectDraft = (s: InputState) => s.draft

interface Live {
  chat: SessionSnapshot['chat']
  running: boolean
  hasMore: boolean
  replacements: ReplacementSnapshot
  controller: ControllerState
  localeRevision: number
  draft: string
  inputActions: InputActions
}

/** The overlay entry component. */
export function RecallOverlay({ sessionId, useSession, useInput, inputActions, kit }: RecallOverlayProps) {
  const chat = useSession(selectChat)
  const running = useSession(selectRunning)
  const hasMore = useSession(selectHasMore)
  const replacements = useSession(selectReplacements)
  const locale = useSyncExternalStore(kit.locale.subscribe, kit.locale.getSnapshot)
  const marker = useRef<HTMLSpanElement>(null)
  const live = useRef<Live | null>(null)

  const controller = useMemo(() => new RecallController({
    sessionId,
    send: kit.send,
    expectation: (baseline) => expectationOf(live.current, baseline),
    tombstoneSeqs: () => new Set((live.current?.replacements ?? []).filter(isTombstoneEvent).map((e) => e.seq)),
    onRecalled: (message) => {
      const current = live.current
      if (current === null) return
      const text = composeDraft(message.text, current.draft)
      current.inputActions.setDraft(text)
      current.draft = text
      focusComposer(marker.current)
    },
  }), [sessionId, kit])
  const state = useSyncExternalStore(controller.subscribe, controller.getSnapshot)
  live.current = {
    chat, running, hasMore, replacements, controller: state, localeRevision: locale.revision,
    draft: live.current?.draft ?? '', inputActions,
  }

  const sync = useMemo(() => new RowSync({ t: kit.t, onPress: (target) => void controller.press(target) }), [controller, kit])
  const pass = useMemo(() => () => {
    const input = live.current
    if (input === null) return
    const record = sync.run(input)
    kit.debug.record(sessionId, record, () => expectationOf(live.current, controller.generationBaseline))
    const armed = input.controller.armed
    if (armed !== null && record.hidden.hiddenKeys.has(armed.key)) controller.disarm()
  }, [sync, kit, sessionId, controller])

  useLayoutEffect(() => {
    sync.setMarker(marker.current)
    pass()
  })
  useEffect(() => {
    const stop = sync.watch(pass)
    return () => {
      stop()
      sync.detach()
      controller.dispose()
    }
  }, [sync, pass, controller])
  useEffect(() => {
    if (running) controller.disarm()
  }, [running, controller])
  useEffect(() => disarmOnOtherInput(marker.current?.ownerDocument ?? null, controller), [controller])

  return (
    <>
      <span ref={marker} hidden data-message-recall-overlay="" />
      {useInput !== undefined && <DraftMirror useInput={useInput} live={live} />}
      {state.notice !== null && (
        <div data-message-recall-notice="" role="status" key={state.notice.id}>
          <span>{kit.t(countedKey('notice.images', state.notice.images.length), { count: state.notice.images.length, names: state.notice.images.join(', ') })}</span>
          <button type="button" onClick={() => controller.dismissNotice()}>{kit.t('notice.dismiss')}</button>
        </div>
      )}
    </>
  )
}

/** Keeps the composer draft in `live` without re-rendering the overlay on every keystroke. */
function DraftMirror({ useInput, live }: { useInput: SnapshotSelectorHook<InputState>; live: MutableRefObject<Live | null> }) {
  const draft = useInput(selectDraft)
  useLayoutEffect(() => {
    if (live.current !== null) live.current.draft = draft
  }, [draft, live])
  return null
}

function expectationOf(live: Live | null, baseline: GenerationBaseline | null): ViewExpectation {
  return live === null ? {} : viewExpectation(live.chat, live.replacements, live.hasMore, baseline)
}
