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
 * @module dsh-message-recall/client/EditorModal
 */
import { useCallback, useEffect, useMemo, useRef, useState, type KeyboardEvent } from 'react'
import type { LogEvent } from '../shared/events'
import type { FetchLike, RecallErrorCode, RecallSender } from './api'
import { buildEditorUnits, EMPTY_SELECTION, previewSelection, type EditorSelection, type EditorUnit } from './editor-model'
import { counterText } from './editor-locales'
import { readWholeHistory } from './history'
import type { UnsavedSink } from './unsaved'
import { describeError } from './locales'
import type { Translate } from './rc8'
import { errorText } from '../shared/error-text'

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

/** Debounce of the host `plan` after a selection change, in ms. */
export const PLAN_DEBOUNCE_MS = 200

type Load = { readonly status: 'loading' } | { readonly status: 'failed'; readonly message: string } | { readonly status: 'ready'; readonly units: readonly EditorUnit[]; readonly lastSeq: number }

interface Refusal {
  readonly unit: string | null
  readonly code: RecallErrorCode
}

function toggled(set: ReadonlySet<string>, key: string): Set<string> {
  const next = new Set(set)
  if (!next.delete(key)) next.add(key)
  return next
}

/** The editor dialog. */
export function EditorModal({ sessionId, running, replacementCount, locale, kit, onClose }: EditorModalProps) {
  const { t } = kit
  const [load, setLoad] = useState<Load>({ status: 'loading' })
  const [selection, setSelection] = useState<EditorSelection>(EMPTY_SELECTION)
  const [refusal, setRefusal] = useState<Refusal | null>(null)
  const [checking, setChecking] = useState(false)
  const [applying, setApplying] = useState(false)
  const [applyError, setApplyError] = useState<Refusal | null>(null)
  /** The host's last batch plan of a selection over one history read: how many messages it removes (`expect.removedCount` of Apply). */
  const [planned, setPlanned] = useState<{ readonly changesKey: string; readonly lastSeq: number; readonly removedCount: number } | null>(null)
  /** Bumped to read the history again (after the host answered that the conversation moved). */
  const [historyRead, setHistoryRead] = useState(0)
  const controls = useRef(new Map<string, HTMLButtonElement>())
  const dialog = useRef<HTMLDivElement>(null)

  useEffect(() => {
    let live = true
    readWholeHistory(kit.fetch, sessionId).then(
      (events: LogEvent[]) => live && setLoad({ status: 'ready', units: buildEditorUnits(events), lastSeq: events.at(-1)?.seq ?? -1 }),
      (error: unknown) => live && setLoad({ status: 'failed', message: errorText(error) }),
    )
    return () => { live = false }
  }, [kit, sessionId, historyRead])

  // A turn that ended, or a removal or restore made elsewhere, while the dialog was open changed the
  // conversation: read it again, keeping the selection.
  const seen = useRef({ running, replacementCount })
  useEffect(() => {
    const before = seen.current
    if ((before.running && !running) || before.replacementCount !== replacementCount) setHistoryRead((n) => n + 1)
    seen.current = { running, replacementCount }
  }, [running, replacementCount])

  const units = load.status === 'ready' ? load.units : []
  const preview = useMemo(() => previewSelection(units, selection), [units, selection])
  const changesKey = JSON.stringify(preview.changes)
  // A history read again plans the same selection again: what Apply confirms is the plan over what the dialog shows.
  const readSeq = load.status === 'ready' ? load.lastSeq : -1

  // Ask the host whether it would take this selection, debounced; nothing is written. A new
  // selection clears the last answers at once; the same selection over a history read again keeps
  // them (an Apply refusal stays in view) until the new plan answers.
  const plannedSelection = useRef(changesKey)
  useEffect(() => {
    if (plannedSelection.current !== changesKey) {
      plannedSelection.current = changesKey
      setRefusal(null)
      setApplyError(null)
    }
    if (preview.changes.length === 0) {
      setChecking(false)
      return
    }
    setChecking(true)
    let live = true
    const timer = setTimeout(() => {
      void kit.send({ action: 'plan', sessionId, changes: preview.changes }).then((reply) => {
        if (!live) return
        setChecking(false)
        if (!reply.ok) {
          setRefusal({ unit: reply.error.index === undefined ? null : preview.changeUnits[reply.error.index] ?? null, code: reply.error.code })
          return
        }
        setRefusal(null)
        // What Apply confirms: the host answers STALE_VIEW when the batch would remove more, or a message that came back since.
        setPlanned({ changesKey, lastSeq: readSeq, removedCount: reply.value.removedSeqs.length })
      })
    }, PLAN_DEBOUNCE_MS)
    return () => {
      live = false
      clearTimeout(timer)
    }
    // changesKey stands for preview.changes / changeUnits.
  }, [changesKey, readSeq, kit, sessionId])

  const order = units.filter((u) => u.state === 'current' || u.restorable).map((u) => u.key)
  const focusUnit = (key: string | undefined) => { if (key !== undefined) controls.current.get(key)?.focus() }
  useEffect(() => {
    const first = load.status === 'ready' ? controls.current.get(order[0] ?? '') : undefined
    if (first !== undefined) first.focus()
    else dialog.current?.focus()
    // Only when the list first appears.
  }, [load.status])

  const canApply = load.status === 'ready' && preview.changes.length > 0 && !running && !applying && refusal === null
  const apply = useCallback(async () => {
    if (!canApply || load.status !== 'ready') return
    setApplying(true)
    const confirmed = planned?.changesKey === changesKey && planned.lastSeq === load.lastSeq ? { removedCount: planned.removedCount } : {}
    const reply = await kit.send({ action: 'apply', sessionId, changes: preview.changes, expect: { lastSeq: load.lastSeq, ...confirmed } })
    setApplying(false)
    if (reply.ok) {
      if (reply.value.persisted) kit.unsaved(sessionId).settled()
      onClose(true)
    } else if (reply.error.code === 'PERSIST_FAILED' && reply.error.applied === true) {
      // In effect, not yet durable: the conversation already shows the batch.
      kit.unsaved(sessionId).mark('apply', preview.changes.length)
      onClose(true)
    } else {
      setApplyError({ unit: reply.error.index === undefined ? null : preview.changeUnits[reply.error.index] ?? null, code: reply.error.code })
      // The conversation moved since the history was read: read it again, keeping the selection.
      if (reply.error.code === 'STALE_VIEW') setHistoryRead((n) => n + 1)
    }
  }, [canApply, load, kit, sessionId, preview, changesKey, planned, onClose])

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.key === 'Escape') {
      event.preventDefault()
      onClose(false)
    } else if (event.key === 'Enter') {
      event.preventDefault()
      void apply()
    } else if (event.key === 'Tab') {
      // Keep the focus inside the dialog: Tab past the last control comes back to the first.
      const focusable = [...(dialog.current?.querySelectorAll<HTMLButtonElement>('button:not([disabled])') ?? [])]
      const first = focusable[0]
      const last = focusable.at(-1)
      const active = dialog.current?.ownerDocument.activeElement
      if (first !== undefined && last !== undefined && (event.shiftKey ? active === first || active === dialog.current : active === last)) {
        event.preventDefault()
        ;(event.shiftKey ? last : first).focus()
      }
    } else if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault()
      const at = order.findIndex((key) => controls.current.get(key)?.closest('li')?.contains(event.target as Node))
      const next = at === -1 ? 0 : Math.min(order.length - 1, Math.max(0, at + (event.key === 'ArrowDown' ? 1 : -1)))
      focusUnit(order[next])
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

/** The editor's style sheet (scoped by its data attributes). */
export const EDITOR_CSS = `
[data-message-recall-editor-backdrop] { position: fixed; inset: 0; z-index: 1000; display: flex; align-items: center; justify-content: center; background: rgba(0,0,0,.35); }
[data-message-recall-editor] { background: var(--dsw-specific-menu, var(--dsw-alias-bg-base, #fff)); color: var(--dsw-alias-label-primary, #222); width: min(760px, 94vw); max-height: 86vh; display: flex; flex-direction: column; gap: 8px; padding: 16px 18px; box-sizing: border-box; border-radius: 12px; border: 1px solid var(--dsw-alias-border-inverted, rgba(0,0,0,.12)); box-shadow: var(--dsw-shadow-lv3, 0 8px 32px rgba(0,0,0,.3)); outline: none; font-size: 13px; line-height: 20px; }
[data-message-recall-editor] h2 { margin: 0; font-size: 16px; line-height: 24px; font-weight: 600; }
[data-message-recall-editor] [data-editor-keys] { margin: 0; font-size: 12px; color: var(--dsw-alias-label-secondary, #666); }
[data-message-recall-editor] ol { list-style: none; margin: 0; padding: 0; overflow: auto; flex: 1; }
[data-message-recall-editor] li[data-editor-turn] { font-size: 12px; font-weight: 600; color: var(--dsw-alias-label-secondary, #666); margin: 10px 0 2px; }
[data-message-recall-editor] li[data-editor-unit] { display: flex; gap: 8px; align-items: flex-start; padding: 4px 6px; border-radius: 8px; }
[data-message-recall-editor] li[data-editor-unit]:hover, [data-message-recall-editor] li[data-editor-unit]:focus-within { background: var(--dsw-alias-interactive-bg-hover, rgba(0,0,0,.04)); }
[data-message-recall-editor] [data-editor-rows] { flex: 1; min-width: 0; }
[data-message-recall-editor] li[data-editor-unit] > [data-editor-rows]:first-child { margin-left: 32px; }
[data-message-recall-editor] [data-editor-busy], [data-message-recall-editor] [data-editor-checking] { margin: 0; font-size: 12px; color: var(--dsw-alias-label-secondary, #666); }
[data-message-recall-editor] [data-editor-rows] p { margin: 0; overflow-wrap: anywhere; }
[data-message-recall-editor] [data-editor-role-label] { font-weight: 600; font-size: 12px; color: var(--dsw-alias-label-secondary, #666); }
[data-message-recall-editor] [data-editor-state-label] { font-size: 12px; color: var(--dsw-alias-label-secondary, #666); white-space: nowrap; }
[data-message-recall-editor] li[data-editor-state="removed"] [data-editor-rows], [data-message-recall-editor] li[data-editor-state="excluded"] [data-editor-rows] { text-decoration: line-through; opacity: .6; }
[data-message-recall-editor] li[data-editor-preview="going"] [data-editor-rows] { text-decoration: line-through; color: #c62828; }
[data-message-recall-editor] li[data-editor-preview="coming"] [data-editor-rows] { text-decoration: none; color: #2e7d32; opacity: 1; }
[data-message-recall-editor] [data-editor-refusal] { color: #c62828; margin: 2px 0 0; font-size: 12px; }
[data-message-recall-editor] [data-editor-actions] { display: flex; justify-content: flex-end; gap: 8px; }
[data-message-recall-editor] [data-editor-counter] { margin: 0; font-weight: 600; }
[data-message-recall-editor] button { font: inherit; font-size: 12px; line-height: 18px; padding: 2px 10px; border-radius: 6px; cursor: pointer; white-space: nowrap; border: 1px solid var(--dsw-alias-border-l2, rgba(0,0,0,.12)); background: transparent; color: var(--dsw-alias-label-primary, #222); }
[data-message-recall-editor] button:hover:not(:disabled) { background: var(--dsw-alias-interactive-bg-hover, rgba(0,0,0,.06)); }
[data-message-recall-editor] button:focus-visible { outline: 2px solid var(--dsw-alias-state-business-primary, #4d6bfe); outline-offset: 1px; }
[data-message-recall-editor] button:disabled { opacity: .45; cursor: default; }
[data-message-recall-editor] [data-editor-select] { width: 24px; height: 24px; padding: 0; flex: none; display: inline-flex; align-items: center; justify-content: center; font-size: 14px; }
[data-message-recall-editor] [data-editor-select][aria-pressed="true"] { border-color: #c62828; color: #c62828; }
[data-message-recall-editor] [data-editor-from] { flex: none; border-color: transparent; color: var(--dsw-alias-label-secondary, #666); }
[data-message-recall-editor] [data-editor-from][aria-pressed="true"] { border-color: #c62828; color: #c62828; }
[data-message-recall-editor] [data-editor-restore] { flex: none; }
[data-message-recall-editor] [data-editor-restore][aria-pressed="true"] { border-color: #2e7d32; color: #2e7d32; }
[data-message-recall-editor] [data-editor-actions] button { font-size: 13px; line-height: 20px; padding: 5px 16px; border-radius: 8px; }
[data-message-recall-editor] [data-editor-actions] [data-editor-apply] { background: var(--dsw-alias-state-business-primary, #4d6bfe); border-color: var(--dsw-alias-state-business-primary, #4d6bfe); color: #fff; }
[data-message-recall-editor] [data-editor-actions] [data-editor-apply]:hover:not(:disabled) { background: var(--dsw-alias-state-business-primary, #4d6bfe); filter: brightness(1.08); }
`
