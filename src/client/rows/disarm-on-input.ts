/**
 * "Anything else disarms": page-wide listeners that put an armed Delete or Delete onward button
 * back when the person presses the pointer or moves focus anywhere but on that button, or
 * presses Escape. Escape also cancels a summary rewrite in flight (`ButtonStore.cancel`).
 *
 * @module dsh-message-recall/client/rows/disarm-on-input
 */
import type { ButtonStore } from './button-store'
import { ATTR } from './row-marks'

const ARMED_BUTTON = `[${ATTR.action}][${ATTR.armed}="true"]`

/**
 * Listen on a document (capture phase) and disarm the button store on any other input.
 * @param doc - the page document, or `null` (nothing is installed).
 * @param buttons - the session's button store.
 * @returns removes the listeners.
 */
export function disarmOnOtherInput(doc: Document | null, buttons: Pick<ButtonStore, 'getSnapshot' | 'disarm'> & Partial<Pick<ButtonStore, 'cancel'>>): () => void {
  if (doc === null) return () => {}
  const onPointerOrFocus = (event: Event) => {
    if (buttons.getSnapshot().armed === null) return
    const target = event.target as Element | null
    if (target?.closest?.(ARMED_BUTTON) == null) buttons.disarm()
  }
  const onKey = (event: KeyboardEvent) => {
    if (event.key !== 'Escape') return
    buttons.disarm()
    buttons.cancel?.()
  }
  doc.addEventListener('pointerdown', onPointerOrFocus, true)
  doc.addEventListener('focusin', onPointerOrFocus, true)
  doc.addEventListener('keydown', onKey, true)
  return () => {
    doc.removeEventListener('pointerdown', onPointerOrFocus, true)
    doc.removeEventListener('focusin', onPointerOrFocus, true)
    doc.removeEventListener('keydown', onKey, true)
  }
}
