/**
 * The composer side of Recall. rc.8 `InputActions` has `setDraft` but no focus, so the textarea
 * is found in the DOM: the overlay renders inside the composer (`conversation.input.overlay`
 * sits in the InputBar card), so the nearest textarea up the tree is the composer's.
 *
 * @module dsh-message-recall/client/recall/composer
 */

/**
 * The draft after a recall: the recalled text, then a blank line and the draft the person had
 * started, if any.
 * @param recalled - plain text of the recalled message.
 * @param draft - the composer's current draft.
 * @returns the next draft.
 */
export function composeDraft(recalled: string, draft: string): string {
  return draft.trim() === '' ? recalled : `${recalled}\n\n${draft}`
}

/**
 * The textarea of the composer an element sits in: the nearest one up the tree.
 * @param from - an element inside the composer (the overlay's anchor).
 * @returns the textarea, or `null`.
 */
export function composerTextarea(from: Element | null): HTMLTextAreaElement | null {
  for (let node = from?.parentElement ?? null; node !== null; node = node.parentElement) {
    const textarea = node.querySelector('textarea')
    if (textarea !== null) return textarea
  }
  return null
}

/**
 * Focus the composer's textarea and put the caret at the end once the new draft has rendered.
 * @param from - an element inside the composer.
 */
export function focusComposer(from: Element | null): void {
  const textarea = composerTextarea(from)
  if (textarea === null) return
  textarea.focus()
  const place = () => {
    const end = textarea.value.length
    textarea.setSelectionRange(end, end)
  }
  const view = textarea.ownerDocument.defaultView
  if (view?.requestAnimationFrame !== undefined) view.requestAnimationFrame(place)
  else place()
}
