/**
 * The **Summary** button in the session header (`conversation.session.header.utilities`, beside
 * Removed), shown while a compaction summary is on the surface. It opens a dialog with the summary
 * the model reads now, editable: **Save** writes it (the route's `editSummary`: a new compaction
 * with the person's text, no model call), **Cancel** and Escape close it with nothing written. A
 * refusal stays in the dialog, in words.
 *
 * DOM contract: the button `[data-message-recall-summary]`, the dialog
 * `[data-message-recall-summary-dialog]` (role `dialog`) with its `textarea`, the buttons
 * `[data-message-recall-summary-action="save|cancel"]` and a refusal in
 * `[data-message-recall-summary-error]` (role `alert`).
 *
 * @module dsh-message-recall/client/panel/SummaryButton
 */
import { useEffect, useMemo, useRef, useState } from 'react'
import type { SnapshotSelectorHook, SessionSnapshot, Translate } from '../wire/rc8'
import { selectReplacements } from '../wire/replacement-view'
import type { RecallSender } from '../wire/api'
import { describeError } from '../text/locales'
import { currentSummary } from './summary-text'
import { useDialogToggle } from './dialog-toggle'

/** What the entry reads from the plugin's kit. */
export interface SummaryKit {
  readonly t: Translate
  readonly send: RecallSender
}

/** Props the rc.8 header seat gives the entry plus the kit. */
export interface SummaryButtonProps {
  readonly sessionId: string
  readonly useSession: SnapshotSelectorHook<SessionSnapshot>
  readonly kit: SummaryKit
}

/** The button and, while open, its dialog. */
export function SummaryButton({ sessionId, useSession, kit }: SummaryButtonProps) {
  const replacements = useSession(selectReplacements)
  const summary = useMemo(() => currentSummary(replacements), [replacements])
  const { open, button, toggle, close } = useDialogToggle()
  if (summary === null) return null
  const t = kit.t
  return (
    <div data-message-recall-removed-seat="">
      <button ref={button} type="button" data-message-recall-summary="" aria-haspopup="dialog" aria-expanded={open} aria-label={t('summary.label')} onClick={toggle}>
        <span>{t('summary.button')}</span>
      </button>
      {open && <SummaryDialog key={summary.checkpointSeq} sessionId={sessionId} checkpointSeq={summary.checkpointSeq} text={summary.text} kit={kit} onClose={close} />}
    </div>
  )
}

/** Props of {@link SummaryDialog}. */
interface SummaryDialogProps {
  readonly sessionId: string
  readonly checkpointSeq: number
  readonly text: string
  readonly kit: SummaryKit
  readonly onClose: () => void
}

function SummaryDialog({ sessionId, checkpointSeq, text, kit, onClose }: SummaryDialogProps) {
  const t = kit.t
  const [draft, setDraft] = useState(text)
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<string | null>(null)
  const area = useRef<HTMLTextAreaElement>(null)
  useEffect(() => {
    area.current?.focus()
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') onClose()
    }
    globalThis.document.addEventListener('keydown', onKey)
    return () => globalThis.document.removeEventListener('keydown', onKey)
  }, [onClose])
  const save = async () => {
    setBusy(true)
    setError(null)
    const reply = await kit.send({ sessionId, action: 'editSummary', checkpointSeq, summary: draft })
    setBusy(false)
    if (reply.ok || (reply.error.code === 'PERSIST_FAILED' && reply.error.applied === true)) onClose()
    else setError(describeError(t, reply.error.code))
  }
  return (
    <div data-message-recall-summary-dialog="" data-message-recall-panel="" role="dialog" aria-label={t('summary.title')}>
      <p>{t('summary.hint')}</p>
      <textarea ref={area} aria-label={t('summary.textLabel')} value={draft} rows={12} cols={60} onChange={(event) => setDraft(event.target.value)} />
      {error !== null && <span data-message-recall-summary-error="" role="alert">{error}</span>}
      <div>
        <button type="button" data-message-recall-summary-action="save" disabled={busy || draft.trim().length === 0 || draft === text} aria-busy={busy || undefined} onClick={() => void save()}>{t('summary.save')}</button>
        <button type="button" data-message-recall-summary-action="cancel" onClick={onClose}>{t('summary.cancel')}</button>
      </div>
    </div>
  )
}
