/**
 * The notices of the overlay entry, stacked in one column above the composer (inside the
 * composer card): the images of a recall that could not come back, each group with its reason;
 * the "applied, not yet saved" state of a removal whose flush failed, with **Save again**; and the
 * undo notice. Every control is a `<button>` with an accessible name.
 *
 * DOM contract: the column `[data-message-recall-notices]`; the image notice
 * `[data-message-recall-notice]` (role `status`) with one `[data-message-recall-notice-line]` per
 * reason (`data-reason`) and a Dismiss button; the unsaved notice `[data-message-recall-unsaved]`
 * (role `status`, `data-phase="unsaved|saving|saved"`), its text in
 * `[data-message-recall-unsaved-text]`, the button `[data-message-recall-unsaved-action="save"]`,
 * the last failure in `[data-message-recall-unsaved-error]` (role `alert`).
 *
 * @module dsh-message-recall/client/notices/RecallNotices
 */
import type { ReactNode } from 'react'
import { useSyncExternalStore } from 'react'
import type { RecallNotice } from '../recall/image-notice'
import { ACTIONS } from '../../shared/actions'
import { countedKey, describeError } from '../text/locales'
import type { Translate } from '../wire/rc8'
import type { LostImage, LostReason } from '../recall/recall-images'
import type { UnsavedState, UnsavedWrites } from '../stores/unsaved-writes'

const REASONS: readonly LostReason[] = ['unreadable', 'unsupported', 'busy', 'unavailable']

/**
 * The lines of the image notice: one per reason, in a fixed order, naming its images.
 * @param t - translate bound to the plugin namespace.
 * @param lost - the images left behind.
 * @returns `[reason, sentence]` pairs, only for reasons that occur.
 */
export function imageNoticeLines(t: Translate, lost: readonly LostImage[]): Array<readonly [LostReason, string]> {
  return REASONS.flatMap((reason) => {
    const names = lost.filter((image) => image.reason === reason).map((image) => image.name)
    return names.length === 0 ? [] : [[reason, t(countedKey(`notice.images.${reason}`, names.length), { count: names.length, names: names.join(', ') })] as const]
  })
}

/**
 * The sentence of the unsaved notice.
 * @param t - translate bound to the plugin namespace.
 * @param state - the unsaved write.
 * @returns e.g. "Deleted 1 message, but it is not saved to disk yet. …", or "Saved to disk."
 */
export function unsavedText(t: Translate, state: UnsavedState): string {
  if (state.phase === 'saved') return t('unsaved.saved')
  return t(countedKey(state.action === 'apply' ? 'unsaved.apply' : ACTIONS[state.action].texts.unsaved, state.count), { count: state.count })
}

/** The unsaved notice, or nothing. */
function UnsavedView({ unsaved, t }: { unsaved: UnsavedWrites; t: Translate }) {
  const state = useSyncExternalStore(unsaved.subscribe, unsaved.getSnapshot)
  if (state === null) return null
  const saving = state.phase === 'saving'
  const error = state.error === null ? null
    : state.error.code === 'PERSIST_FAILED' ? t('unsaved.stillFailing') : describeError(t, state.error.code)
  return (
    <div data-message-recall-unsaved="" data-phase={state.phase} role="status" key={state.id}>
      <span data-message-recall-unsaved-text="">{unsavedText(t, state)}</span>
      {error !== null && <span data-message-recall-unsaved-error="" role="alert">{error}</span>}
      {state.phase !== 'saved' && (
        <button type="button" data-message-recall-unsaved-action="save" aria-label={t('unsaved.label.save')} aria-busy={saving || undefined} disabled={saving} onClick={() => void unsaved.saveAgain()}>
          {saving ? t('unsaved.saving') : t('unsaved.save')}
        </button>
      )}
    </div>
  )
}

/** Props of {@link RecallNotices}. */
export interface RecallNoticesProps {
  readonly notice: RecallNotice | null
  readonly onDismiss: () => void
  readonly unsaved: UnsavedWrites
  readonly t: Translate
  /** The undo notice, shown last (nearest the composer). */
  readonly children?: ReactNode
}

/** The notice column; see the module description. */
export function RecallNotices({ notice, onDismiss, unsaved, t, children }: RecallNoticesProps) {
  return (
    <div data-message-recall-notices="">
      {notice !== null && (
        <div data-message-recall-notice="" role="status" key={notice.id}>
          <span>
            {imageNoticeLines(t, notice.lost).map(([reason, line]) => <span data-message-recall-notice-line="" data-reason={reason} key={reason}>{line}</span>)}
          </span>
          <button type="button" aria-label={t('notice.dismiss')} onClick={onDismiss}>{t('notice.dismiss')}</button>
        </div>
      )}
      <UnsavedView unsaved={unsaved} t={t} />
      {children}
    </div>
  )
}
