/**
 * Hiding that does not wait for a pass: a style sheet that lists the keys of the rows a session
 * hides, scoped to the session's pane. The sync pass marks the row elements it has seen
 * (`data-message-recall-hidden`), but a remount of the chat list (the session header's Trajectory
 * tab and back, a collapsed panel, a window resync) makes new row elements that no pass has seen
 * yet. The sheet matches them by what DSH renders on every row, `data-chat-flow-key`, under the
 * pane's scope element, which carries this sheet's token in `data-message-recall-scope`; so a new
 * row is hidden by the browser's style engine from its first frame, before any script runs.
 *
 * The token, not the session id, names the scope: one token per sheet (per mounted session
 * overlay), so a pane that switches sessions never applies another overlay's keys, and an
 * overlay that goes away takes its attribute off only when it is still its own.
 *
 * @module dsh-message-recall/client/rows/hidden-row-sheet
 */
import { FLOW_KEY, FLOW_SELECTOR } from '../wire/rc8'
import { cssString } from '../text/css-string'

/** Attributes of the hidden-row sheet: its `<style>` element, and the scope element's token. */
export const SHEET_ATTR = {
  style: 'data-message-recall-hidden-rows',
  scope: 'data-message-recall-scope',
} as const

let nextToken = 0


/**
 * The sheet's text: one rule hiding every listed row of the scope's chat flow.
 * @param token - the scope's token (value of `data-message-recall-scope`).
 * @param keys - row keys (`data-chat-flow-key` values) to hide, in any order.
 * @returns the CSS text; empty for no keys.
 */
export function hiddenRowRules(token: string, keys: Iterable<string>): string {
  const scope = `[${SHEET_ATTR.scope}=${cssString(token)}]`
  const selectors = [...keys].sort().map((key) => `${scope} ${FLOW_SELECTOR}>[${FLOW_KEY}=${cssString(key)}]`)
  return selectors.length === 0 ? '' : `${selectors.join(',\n')}{display:none!important}\n`
}

/** The hidden-row sheet of one session overlay; see the module description. */
export class HiddenRowSheet {
  private readonly token = `s${++nextToken}`
  private scope: Element | null = null
  private style: HTMLStyleElement | null = null
  private keys: ReadonlySet<string> | null = null
  private text = ''

  /**
   * Put the token on a new scope element (and take it off the old one).
   * @param scope - the pane's scope element, or `null` when the overlay has none.
   */
  setScope(scope: Element | null): void {
    if (scope === this.scope) return
    this.releaseScope()
    this.scope = scope
    if (scope === null) return
    scope.setAttribute(SHEET_ATTR.scope, this.token)
    if (this.style === null || this.style.ownerDocument !== scope.ownerDocument) {
      this.style?.remove()
      const style = scope.ownerDocument.createElement('style')
      style.setAttribute(SHEET_ATTR.style, this.token)
      style.textContent = this.text
      scope.ownerDocument.head.appendChild(style)
      this.style = style
    }
  }

  /**
   * Hide exactly these rows (the sheet is rewritten only when the set changes).
   * @param keys - the keys of the rows the session hides.
   */
  update(keys: ReadonlySet<string>): void {
    if (keys === this.keys) return
    this.keys = keys
    const text = hiddenRowRules(this.token, keys)
    if (text === this.text) return
    this.text = text
    if (this.style !== null) this.style.textContent = text
  }

  /** Remove the sheet and the scope's token. */
  dispose(): void {
    this.releaseScope()
    this.scope = null
    this.style?.remove()
    this.style = null
    this.keys = null
    this.text = ''
  }

  private releaseScope(): void {
    if (this.scope !== null && this.scope.getAttribute(SHEET_ATTR.scope) === this.token) this.scope.removeAttribute(SHEET_ATTR.scope)
  }
}
