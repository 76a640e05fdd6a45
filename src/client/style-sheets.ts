/**
 * The plugin's style sheets in the page: one `<style data-message-recall-style="…">` per feature
 * (the chat rows, the notices above the composer, the session header's entries and panel), added
 * when the plugin loads and removed when it unloads. The hidden-row sheets of the mounted
 * sessions are separate (`rows/hidden-row-sheet.ts`).
 *
 * @module dsh-message-recall/client/style-sheets
 */
import { NOTICE_STYLE_TEXT } from './notices/notice-styles'
import { PANEL_STYLE_TEXT } from './panel/panel-styles'
import { ATTR } from './rows/row-marks'
import { ROW_STYLE_TEXT } from './rows/row-styles'

/** Each sheet by the value of its `data-message-recall-style` attribute. */
export const STYLE_SHEETS: Readonly<Record<'rows' | 'notices' | 'panel', string>> = {
  rows: ROW_STYLE_TEXT,
  notices: NOTICE_STYLE_TEXT,
  panel: PANEL_STYLE_TEXT,
}

/**
 * Add every sheet to a document's head.
 * @param doc - the page document.
 * @returns removes the sheets.
 */
export function installStyleSheets(doc: Document): () => void {
  const styles = Object.entries(STYLE_SHEETS).map(([name, text]) => {
    const style = doc.createElement('style')
    style.setAttribute(ATTR.style, name)
    style.textContent = text
    doc.head.appendChild(style)
    return style
  })
  return () => {
    for (const style of styles) style.remove()
  }
}
