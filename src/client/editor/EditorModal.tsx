/**
 * The conversation editor: a modal dialog listing every message of the session from its whole
 * durable history, grouped by turn. A toggle per unit (a prompt alone, or a model step: the answer
 * with its tool rows) selects it for removal, **From here** selects it and everything after it,
 * removed and excluded units stay in place struck through with a **Restore** toggle when they can
 * be undone in place. The preview updates while selecting (going struck through in red, coming
 * back in green, a counter), and the host is asked with a debounced batch `plan` whether it would
 * accept the selection, so a refusal shows on its row before anything is written. **Apply** sends
 * one `apply` (when the host answers that the conversation moved meanwhile, the history is read
 * again and the selection kept, so a second Apply writes against the new state; the same happens
 * when a turn ends, or a removal or restore is made elsewhere, while the dialog is open). A batch the host
 * answers `PERSIST_FAILED` with `applied: true` is in effect: the dialog closes as on success and
 * the session's unsaved notice (above the composer, with Save again) says it is not saved yet.
 * **Discard** and Escape close with nothing written.
 *
 * Keyboard: ArrowUp/ArrowDown move between units, Space toggles the focused control, Enter
 * applies, Escape discards, Tab stays inside the dialog. Every control is a `<button>` with an
 * accessible name.
 *
 * This module is the dialog's state and view; each job it composes has its own module: reading
 * the history (`editor-history.ts`), the debounced `plan` (`editor-plan.ts`), Apply
 * (`editor-apply.ts`), the keyboard (`dialog-keys.ts`), the units and the preview
 * (`editor-model.ts`), the style sheet (`editor-styles.ts`).
 *
 * @module dsh-message-recall/client/editor/EditorModal
 */
import { useMemo, useRef, useState, type KeyboardEvent } from 'react'
import type { FetchLike, RecallErrorCode, RecallSender } from '../wire/api'
import type { UnsavedSink } from '../stores/unsaved-writes'
import { describeError } from '../text/locales'
import type { Translate } from '../wire/rc8'
import { arrowTarget, trapTab, useFirstFocus } from './dialog-keys'
import { useEditorApply } from './editor-apply'
import { useEditorHistory } from './editor-history'
import { counterText } from './editor-locales'
import { EMPTY_SELECTION, previewSelection, type EditorSelection } from './editor-model'
import { usePlanCheck } from './editor-plan'

/** What the editor reaches. */
export interface EditorKit {
  /** Translate bound to the editor namespace. */
  readonly t: Translate
  /** Translate bound to the plugin namespace (error sentences). */
  readonly tRecall: Translate
  readonly send: RecallSender
  readonly fetch: FetchLike
  /** The applied-but-unsaved state of a session (shared with the overlay, which shows it). */
  readonly unsaved: (sessionId: string) => UnsavedSink
}

/** Props of {@link EditorModal}. */
export interface EditorModalProps {
  readonly sessionId: string
  /** A turn is running: Apply is disabled with the reason. */
  readonly running: boolean
  /**
   * Replacement events in the session's durable history as the page knows them (the replacement
   * view); when the number changes while the dialog is open (a removal or a restore from another
   * tab or entry), the history is read again, the selection kept.
   */
  readonly replacementCount?: number
  /** Active locale id (`en` / `zh`). */
  readonly locale: string
  readonly kit: EditorKit
  /** Close the dialog; `applied` tells whether an `apply` was written. */
  onClose(applied: boolean): void
}

function toggled(set: ReadonlySet<string>, key: string): Set<string> {
  const next = new Set(set)
  if (!next.delete(key)) next.add(key)
  return next
}

/** The editor dialog. */
export function EditorModal({ sessionId, running, replacementCount, locale, kit, onClose }: EditorModalProps) {
  const { t } = kit
  const { load, reread } = useEditorHistory(kit.fetch, sessionId, running, replacementCount)
  const [selection, setSelection] = useState<EditorSelection>(EMPTY_SELECTION)
  const controls = useRef(new Map<string, HTMLButtonElement>())
  const dialog = useRef<HTMLDivElement>(null)

  const units = load.status === 'ready' ? load.units : []
  const preview = useMemo(() => previewSelection(units, selection), [units, selection])
  const { refusal, checking, planned } = usePlanCheck(kit.send, sessionId, preview, load.status === 'ready' ? load.lastSeq : -1)
  const { applying, applyError, apply } = useEditorApply({
    send: kit.send, sessionId, unsaved: kit.unsaved(sessionId), preview, lastSeq: load.status === 'ready' ? load.lastSeq : null, planned,
    enabled: load.status === 'ready' && preview.changes.length > 0 && !running && refusal === null, reread, onClose,
  })
  const canApply = load.status === 'ready' && preview.changes.length > 0 && !running && !applying && refusal === null

  const order = units.filter((u) => u.state === 'current' || u.restorable).map((u) => u.key)
  useFirstFocus(load.status === 'ready', () => controls.current.get(order[0] ?? ''), dialog)

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.key === 'Escape') {
      event.preventDefault()
      onClose(false)
    } else if (event.key === 'Enter') {
      event.preventDefault()
      void apply()
    } else if (event.key === 'Tab') {
      const target = dialog.current === null ? null : trapTab(dialog.current, event.shiftKey)
      if (target !== null) {
        event.preventDefault()
        target.focus()
      }
    } else if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault()
      const at = order.findIndex((key) => controls.current.get(key)?.closest('li')?.contains(event.target as Node))
      const key = arrowTarget(order, at, event.key === 'ArrowDown')
      if (key !== undefined) controls.current.get(key)?.focus()
    }
  }

  const shown = applyError ?? refusal
  const reason = (code: RecallErrorCode) => describeError(kit.tRecall, code)
  let lastTurn: number | null | undefined
  return (
    <div data-message-recall-editor-backdrop="">
      <div ref={dialog} role="dialog" aria-modal="true" aria-labelledby="dsh-message-recall-editor-title" tabIndex={-1} data-message-recall-editor="" onKeyDown={onKeyDown}>
        <h2 id="dsh-message-recall-editor-title">{t('title')}</h2>
        <p data-editor-keys="">{t('keys')}</p>
        {load.status === 'loading' && <p role="status">{t('loading')}</p>}
        {load.status === 'failed' && <p role="alert">{t('loadFailed', { message: load.message })}</p>}
        {load.status === 'ready' && units.length === 0 && <p>{t('empty')}</p>}
        {load.status === 'ready' && units.length > 0 && (
          <ol data-editor-units="">
            {units.map((unit) => {
              const heading = unit.turn !== lastTurn ? (unit.turn === null ? t('beforeTurns') : t('turn', { turn: unit.turn })) : null
              lastTurn = unit.turn
              const going = preview.going.has(unit.key)
              const coming = preview.coming.has(unit.key)
              const text = unit.rows.map((r) => r.text).find((s) => s !== '') ?? ''
              const refused = shown !== null && shown.unit === unit.key
              const ref = (el: HTMLButtonElement | null) => { if (el) controls.current.set(unit.key, el); else controls.current.delete(unit.key) }
              const onward = selection.from !== null && going && !selection.remove.has(unit.key) && selection.from !== unit.key
              return [
                heading !== null && <li key={`h-${unit.key}`} data-editor-turn="" aria-hidden="true">{heading}</li>,
                <li key={unit.key} data-editor-unit={unit.key} data-editor-state={unit.state} data-editor-preview={going ? 'going' : coming ? 'coming' : ''}>
                  {unit.state === 'current' && (
                    <button type="button" ref={ref} aria-pressed={going} disabled={onward} data-editor-select=""
                      aria-label={t(unit.kind === 'prompt' ? 'select.prompt' : 'select.step', { text })}
                      onClick={() => setSelection((s) => ({ ...s, remove: toggled(s.remove, unit.key) }))}>
                      {going ? '☑' : '☐'}
                    </button>
                  )}
                  {unit.state !== 'current' && unit.restorable && (
                    <button type="button" ref={ref} aria-pressed={coming} data-editor-restore="" aria-label={t('restore.label', { text })}
                      onClick={() => setSelection((s) => ({ ...s, restore: toggled(s.restore, unit.key) }))}>
                      {t('restore')}
                    </button>
                  )}
                  <div data-editor-rows="">
                    {unit.rows.map((row) => (
                      <p key={row.seq} data-editor-row={row.seq} data-editor-role={row.role}>
                        <span data-editor-role-label="">{t(`role.${row.role}`)}</span> <span data-editor-text="">{row.text}</span>
                      </p>
                    ))}
                  </div>
                  {unit.state !== 'current' && <span data-editor-state-label="">{t(`state.${unit.state}`)}</span>}
                  {unit.state === 'current' && (
                    <button type="button" aria-pressed={selection.from === unit.key} data-editor-from="" aria-label={t('from.label', { text })}
                      onClick={() => setSelection((s) => ({ ...s, from: s.from === unit.key ? null : unit.key }))}>
                      {t('from')}
                    </button>
                  )}
                  {refused && <p role="alert" data-editor-refusal={shown.code}>{t(applyError !== null ? 'applyFailed' : 'refused', { reason: reason(shown.code) })}</p>}
                </li>,
              ]
            })}
          </ol>
        )}
        {shown !== null && shown.unit === null && <p role="alert" data-editor-refusal={shown.code}>{t(applyError !== null ? 'applyFailed' : 'refused', { reason: reason(shown.code) })}</p>}
        <p data-editor-counter="" aria-live="polite">{counterText(t, locale, preview)}</p>
        {running && <p id="dsh-message-recall-editor-busy" data-editor-busy="" role="status">{t('busy')}</p>}
        {checking && !running && <p data-editor-checking="" role="status">{t('checking')}</p>}
        <div data-editor-actions="">
          <button type="button" data-editor-discard="" onClick={() => onClose(false)}>{t('discard')}</button>
          <button type="button" data-editor-apply="" disabled={!canApply} aria-describedby={running ? 'dsh-message-recall-editor-busy' : undefined} onClick={() => void apply()}>{t('apply')}</button>
        </div>
      </div>
    </div>
  )
}
