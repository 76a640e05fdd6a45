/**
 * The open state of a header button's dialog: the button toggles it, closing puts focus back on
 * the button. Shared by the Removed button and the Summary button.
 *
 * @module dsh-message-recall/client/panel/dialog-toggle
 */
import { useRef, useState, type RefObject } from 'react'

/** What {@link useDialogToggle} gives a header button. */
export interface DialogToggle {
  /** The dialog is open. */
  readonly open: boolean
  /** The header button's ref (focus returns to it on close). */
  readonly button: RefObject<HTMLButtonElement>
  /** Open a closed dialog, close an open one (the button's click). */
  toggle(): void
  /** Close the dialog and focus the button (Escape, Close, a press outside). */
  close(): void
}

/**
 * A header button's dialog state.
 * @returns the open flag, the button ref, `toggle` and `close`.
 */
export function useDialogToggle(): DialogToggle {
  const [open, setOpen] = useState(false)
  const button = useRef<HTMLButtonElement>(null)
  return {
    open,
    button,
    toggle: () => setOpen(!open),
    close: () => {
      setOpen(false)
      button.current?.focus()
    },
  }
}
