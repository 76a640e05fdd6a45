/**
 * The undo notice near the composer (rendered by the overlay entry, inside the composer card):
 * what went, **Undo** or **Open a copy**, and Dismiss (Undo of a removal that rewrote a compaction
 * summary puts the earlier summary back, `undoRewrite`). Every control is a `<button>` in the tab
 * order; Escape anywhere on the page dismisses the notice while it shows. The state is
 * {@link UndoNotice}; requests go through the session's {@link TombstoneActions}, and a restore in
 * effect reaches the notice through the session client's `onRestored` listener, whichever entry
 * asked for it.
 *
 * DOM contract: `[data-message-recall-undo]` (role `status`), its text in
 * `[data-message-recall-undo-text]`, buttons `[data-message-recall-undo-action="undo|forkBefore|dismiss"]`,
 * a refusal in `[data-message-recall-undo-error]` (role `alert`).
 *
 * @module dsh-message-recall/client/notices/UndoNotice
 */
import { useEffect, useSyncExternalStore } from 'react'
import { ACTIONS } from '../../shared/actions'
import { countedKey, describeError } from '../text/locales'
import type { Translate } from '../wire/rc8'
import type { TombstoneActions } from '../stores/tombstone-actions'
import type { UndoEntry, UndoNotice } from './undo-notice'

/** Props of {@link UndoNoticeView}. */
export interface UndoNoticeProps {
  readonly notice: UndoNotice
  readonly actions: TombstoneActions
  readonly t: Translate
  /** Another notice shows in the same place: sit above it. */
  readonly stacked?: boolean
}

/**
 * The sentence of a notice.
 * @param t - translate bound to the plugin namespace.
 * @param entry - the notice's entry.
 * @returns e.g. "Deleted 3 messages", "Recalled your message", "The message is back in place".
 */
export function undoText(t: Translate, entry: UndoEntry): string {
  // A restored recall says the composer keeps its text.
  if (entry.restored) return t(entry.rewrite === true ? 'undo.restored.rewrite' : ACTIONS[entry.action].returnsContent ? 'undo.restored.recall' : 'undo.restored')
  return t(countedKey(ACTIONS[entry.action].texts.undo, entry.count), { count: entry.count })
}

/** The notice, or nothing while there is none. */
export function UndoNoticeView({ notice, actions, t, stacked = false }: UndoNoticeProps) {
  const entry = useSyncExternalStore(notice.subscribe, notice.getSnapshot)
  const state = useSyncExternalStore(actions.subscribe, actions.getSnapshot)
  const shown = entry !== null
  useEffect(() => {
    if (!shown) return
    const doc = globalThis.document
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') notice.dismiss()
    }
    doc.addEventListener('keydown', onKey)
    return () => doc.removeEventListener('keydown', onKey)
  }, [shown, notice])
  if (entry === null) return null
  const busy = state.pending?.tombstoneSeq === entry.tombstoneSeq
  const error = state.errors.get(entry.tombstoneSeq) ?? null
  const undo = async () => {
    if (entry.rewrite === true) {
      // A summary rewrite: the earlier summary comes back; the rows come back as summarized.
      const outcome = await actions.undoRewrite(entry.tombstoneSeq)
      if (outcome.ok) notice.restored(entry.tombstoneSeq)
      return
    }
    const outcome = await actions.restore(entry.tombstoneSeq)
    if (!outcome.ok && outcome.error?.code === 'NOT_RESTORABLE') notice.notRestorable(entry.tombstoneSeq)
  }
  const forkBefore = async () => {
    const outcome = await actions.forkBefore(entry.tombstoneSeq)
    if (outcome.ok) notice.dismiss()
  }
  return (
    <div
      data-message-recall-undo="" data-stacked={stacked ? '' : undefined} role="status" key={entry.id}
      onPointerEnter={() => notice.hold(true)} onPointerLeave={() => notice.hold(false)}
      onFocus={() => notice.hold(true)} onBlur={() => notice.hold(false)}
    >
      <span data-message-recall-undo-text="">{undoText(t, entry)}</span>
      {error !== null && <span data-message-recall-undo-error="" role="alert">{describeError(t, error.code)}</span>}
      {!entry.restored && entry.restorable && (
        <button type="button" data-message-recall-undo-action="undo" aria-label={t('undo.label.undo')} aria-busy={busy || undefined} disabled={busy} onClick={() => void undo()}>
          {t('undo.undo')}
        </button>
      )}
      {!entry.restored && !entry.restorable && (
        <button type="button" data-message-recall-undo-action="forkBefore" aria-label={t('label.forkBefore')} aria-busy={busy || undefined} disabled={busy} onClick={() => void forkBefore()}>
          {t('action.forkBefore')}
        </button>
      )}
      <button type="button" data-message-recall-undo-action="dismiss" aria-label={t('notice.dismiss')} onClick={() => notice.dismiss()}>×</button>
    </div>
  )
}
