/**
 * The entry of the session header seat `conversation.session.header.utilities` (declared by
 * `dsh-client-ui-conversation`'s `ConversationSessionHeader`, where DSH puts its own session
 * utilities): an **Edit** button that opens the conversation editor ({@link EditorModal}) for the
 * session, also on the keyboard shortcut {@link EDITOR_SHORTCUT}. The dialog is rendered into the
 * document body; closing it returns the focus to the button.
 *
 * @module dsh-message-recall/client/editor/EditButton
 */
import { useEffect, useRef, useState, useSyncExternalStore } from 'react'
import { createPortal } from 'react-dom'
import { EDITOR_SHORTCUT } from './editor-locales'
import { EditorModal, type EditorKit } from './EditorModal'
import { EDITOR_CSS } from './editor-styles'
import type { LocaleService, SessionSnapshot, SnapshotSelectorHook } from '../wire/rc8'
import { selectReplacements } from '../wire/replacement-view'
import type { ContextBreakdown } from './context-map'

/** What the plugin injects into the entry's props. */
export interface EditButtonKit extends EditorKit {
  readonly locale: Pick<LocaleService, 'subscribe' | 'getSnapshot'>
}

/** Props the rc.8 seat gives the entry (standard props of a session-scoped seat) plus the kit. */
export interface EditButtonProps {
  readonly sessionId: string
  readonly useSession: SnapshotSelectorHook<SessionSnapshot>
  readonly editorKit: EditButtonKit
  /** The seat's projection hook (`useProjection('contextBreakdown')`); absent in a host without projections. */
  readonly useProjection?: (key: string) => unknown
}

const selectRunning = (s: SessionSnapshot) => s.running
const noProjection = (): unknown => undefined

/**
 * `dsh-token-meter`'s `contextBreakdown` projection value (its `contextBreakdownProjectionDefinition` view), when the page has it.
 * @param value - whatever the projection hook returned.
 * @returns the three token figures, or `undefined` when absent or not of that shape.
 */
export function readBreakdown(value: unknown): ContextBreakdown | undefined {
  if (typeof value !== 'object' || value === null) return undefined
  const { systemTokens, toolsTokens, messageTokens } = value as Record<string, unknown>
  const whole = (n: unknown): n is number => Number.isSafeInteger(n) && (n as number) >= 0
  return whole(systemTokens) && whole(toolsTokens) && whole(messageTokens) ? { systemTokens, toolsTokens, messageTokens } : undefined
}

/** True for the editor's shortcut (Alt+Shift+E, by physical key so a layout's Alt characters do not matter). */
export function isEditorShortcut(event: { altKey: boolean; shiftKey: boolean; ctrlKey: boolean; metaKey: boolean; code: string }): boolean {
  return event.altKey && event.shiftKey && !event.ctrlKey && !event.metaKey && event.code === 'KeyE'
}

/** Only one editor dialog at a time in a page, whichever header opened it. */
let openEditors = 0

/** The Edit button and, while open, the editor dialog. */
export function EditButton({ sessionId, useSession, useProjection = noProjection, editorKit }: EditButtonProps) {
  const running = useSession(selectRunning)
  const breakdown = readBreakdown(useProjection('contextBreakdown'))
  const replacements = useSession(selectReplacements)
  const locale = useSyncExternalStore(editorKit.locale.subscribe, editorKit.locale.getSnapshot)
  const [open, setOpen] = useState(false)
  const button = useRef<HTMLButtonElement>(null)

  useEffect(() => {
    const doc = button.current?.ownerDocument
    if (doc === undefined) return
    const onKey = (event: KeyboardEvent) => {
      if (!isEditorShortcut(event) || openEditors > 0) return
      event.preventDefault()
      setOpen(true)
    }
    doc.addEventListener('keydown', onKey)
    return () => doc.removeEventListener('keydown', onKey)
  }, [])
  useEffect(() => {
    if (!open) return
    openEditors++
    return () => { openEditors-- }
  }, [open])

  const t = editorKit.t
  return (
    <>
      <button type="button" ref={button} data-message-recall-edit="" aria-haspopup="dialog" aria-label={t('button.label', { shortcut: EDITOR_SHORTCUT })} aria-keyshortcuts="Alt+Shift+E" onClick={() => setOpen(true)}>
        {t('button')}
      </button>
      {open && button.current !== null && createPortal(
        <>
          <style>{EDITOR_CSS}</style>
          <EditorModal sessionId={sessionId} running={running} replacementCount={replacements.length} breakdown={breakdown} locale={locale.active} kit={editorKit} onClose={() => { setOpen(false); button.current?.focus() }} />
        </>,
        button.current.ownerDocument.body,
      )}
    </>
  )
}
