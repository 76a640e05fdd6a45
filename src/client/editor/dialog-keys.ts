/**
 * The editor dialog's keyboard: the focus trap (Tab past the last control comes back to the first,
 * Shift+Tab before the first goes to the last), ArrowUp/ArrowDown between units, and the first
 * focus when the list appears. Escape and Enter are the dialog's own (discard, apply).
 *
 * @module dsh-message-recall/client/editor/dialog-keys
 */
import { useEffect, type RefObject } from 'react'

/**
 * Keep Tab inside a dialog (its enabled buttons and fields).
 * @param dialog - the dialog element.
 * @param shiftKey - Shift+Tab.
 * @returns the control to focus instead of the browser's next one, or `null` to let Tab move on.
 */
export function trapTab(dialog: HTMLElement, shiftKey: boolean): HTMLElement | null {
  const focusable = [...dialog.querySelectorAll<HTMLElement>('button:not([disabled]), input:not([disabled])')]
  const first = focusable[0]
  const last = focusable.at(-1)
  const active = dialog.ownerDocument.activeElement
  if (first === undefined || last === undefined) return null
  if (shiftKey ? active === first || active === dialog : active === last) return shiftKey ? last : first
  return null
}

/**
 * The unit an arrow key moves to.
 * @param order - keys of the focusable units, in list order.
 * @param at - index of the unit holding the focus, `-1` for none.
 * @param down - ArrowDown (else ArrowUp).
 * @returns the key to focus (the first unit when none holds the focus), or `undefined` for an empty list.
 */
export function arrowTarget(order: readonly string[], at: number, down: boolean): string | undefined {
  const next = at === -1 ? 0 : Math.min(order.length - 1, Math.max(0, at + (down ? 1 : -1)))
  return order[next]
}

/**
 * Focus the first unit's control once the list appears, else the dialog itself.
 * @param ready - the list is shown.
 * @param first - the first unit's control, when there is one.
 * @param dialog - the dialog element.
 */
export function useFirstFocus(ready: boolean, first: () => HTMLElement | undefined, dialog: RefObject<HTMLElement | null>): void {
  useEffect(() => {
    const control = ready ? first() : undefined
    if (control !== undefined) control.focus()
    else dialog.current?.focus()
    // Only when the list first appears.
  }, [ready])
}
