/**
 * The plugin's DOM writes in the Trajectory tab: one style sheet that masks the content cell of
 * every removed row and labels removed and excluded rows at the cell's end (so a row is masked from its first paint,
 * with no pass needed), and a pass, run by a `MutationObserver` before the page paints, that puts
 * the removal's label into the row's `aria-label` and, while a removed row is selected, hides the
 * inspector's content behind a notice with a "Show removed content" button.
 *
 * @module dsh-message-recall/client/trajectory/trajectory-decorate
 */
import type { TrajectoryMark } from './trajectory-marks'
import { INSPECTOR_SELECTOR, ROW_KEY_ATTRIBUTE, ROW_SELECTOR, SELECTED_ROW_SELECTOR } from './trajectory-rc8'
import { cssString } from '../text/css-string'

/** Attribute on the inspector while its removed content is hidden. */
export const INSPECTOR_MASKED = 'data-message-recall-removed'
/** Attribute of the notice the plugin puts into the inspector. */
export const INSPECTOR_NOTICE = 'data-message-recall-notice'
/** Attribute keeping DSH's own `aria-label` of a row while the plugin's label stands in for it. */
export const ROW_LABEL_KEPT = 'data-message-recall-label'
/** Attribute of the marks' style sheet. */
export const TRAJECTORY_STYLE = 'data-message-recall-trajectory'

/** The texts of the marks, in the page's language. */
export interface MarkTexts {
  /** A row's label. */
  row(mark: TrajectoryMark): string
  /** The inspector's notice. */
  inspector(mark: TrajectoryMark): string
  /** The reveal button's text. */
  readonly show: string
}


const STATIC_RULES = [
  `aside[${INSPECTOR_MASKED}] > :not([${INSPECTOR_NOTICE}]) { display: none !important; }`,
  `[${INSPECTOR_NOTICE}] { padding: 12px 14px; border-bottom: 1px solid var(--dsw-alias-border-l1); color: var(--dsw-alias-label-secondary); font: var(--dsw-font-xs-13); white-space: normal; }`,
  `[${INSPECTOR_NOTICE}] p { margin: 0; }`,
  `[${INSPECTOR_NOTICE}] button { margin-top: 8px; padding: 3px 10px; border: 1px solid var(--dsw-alias-border-l2); border-radius: 6px; background: var(--dsw-alias-bg-layer-1); color: var(--dsw-alias-label-primary); font: inherit; cursor: pointer; }`,
  `[${INSPECTOR_NOTICE}] button:focus-visible { outline: 2px solid var(--dsw-alias-state-business-primary); outline-offset: 1px; }`,
]

/**
 * The style sheet of a set of marks.
 * @param marks - row key → mark.
 * @param texts - the labels.
 * @returns CSS text: the static rules, then two rules per marked row.
 */
export function trajectoryStyleText(marks: ReadonlyMap<string, TrajectoryMark>, texts: MarkTexts): string {
  const rules = [...STATIC_RULES]
  for (const [key, mark] of marks) {
    const cell = `tr[${ROW_KEY_ATTRIBUTE}=${cssString(key)}] > td:last-child`
    if (mark.action !== 'exclude') rules.push(`${cell} > * { display: none !important; }`)
    // ::after, because rc.8 draws the turn separator with the cells' ::before.
    rules.push(`${cell} { position: relative; }`)
    rules.push(`${cell}::after { content: ${cssString(texts.row(mark))} !important; position: absolute; top: 0; bottom: 0; right: 8px; display: flex; align-items: center; padding-left: 8px; background: var(--dsw-alias-bg-layer-1); color: var(--dsw-alias-label-tertiary); font-style: italic; }`)
  }
  return rules.join('\n')
}

/** Marks the Trajectory tab of the page; one per page. */
export class TrajectoryDecorator {
  private marks: ReadonlyMap<string, TrajectoryMark> = new Map()
  private texts: MarkTexts | undefined
  private revealed: string | null = null
  private selected: string | null = null
  /** True once a pass with no marks has put everything back: later DOM changes need no pass. */
  private clean = false
  private readonly style: HTMLStyleElement
  private readonly observer: MutationObserver

  /** @param doc - the page's document. */
  constructor(private readonly doc: Document) {
    this.style = doc.createElement('style')
    this.style.setAttribute(TRAJECTORY_STYLE, '')
    doc.head.appendChild(this.style)
    const View = doc.defaultView as (Window & { MutationObserver: typeof MutationObserver }) | null
    this.observer = new (View?.MutationObserver ?? MutationObserver)(() => this.pass())
    this.observer.observe(doc.body, { childList: true, subtree: true, attributes: true, attributeFilter: ['data-selected', 'aria-label'] })
  }

  /**
   * Show another set of marks (a removal, a restore, another session, another language).
   * @param marks - row key → mark; empty to mark nothing.
   * @param texts - the labels.
   */
  update(marks: ReadonlyMap<string, TrajectoryMark>, texts: MarkTexts): void {
    this.marks = marks
    this.texts = texts
    this.style.textContent = marks.size === 0 ? '' : trajectoryStyleText(marks, texts)
    this.pass()
  }

  /** Row labels and the inspector, as the marks say. Writes only what differs. */
  pass(): void {
    if (this.marks.size === 0 && this.clean) return
    this.clean = this.marks.size === 0
    const texts = this.texts
    for (const row of this.doc.querySelectorAll(ROW_SELECTOR)) {
      const mark = this.marks.get(row.getAttribute(ROW_KEY_ATTRIBUTE) ?? '')
      if (mark !== undefined && mark.action !== 'exclude' && texts !== undefined) {
        const label = texts.row(mark)
        if (row.getAttribute('aria-label') === label) continue
        if (!row.hasAttribute(ROW_LABEL_KEPT)) row.setAttribute(ROW_LABEL_KEPT, row.getAttribute('aria-label') ?? '')
        row.setAttribute('aria-label', label)
      } else if (row.hasAttribute(ROW_LABEL_KEPT)) {
        row.setAttribute('aria-label', row.getAttribute(ROW_LABEL_KEPT)!)
        row.removeAttribute(ROW_LABEL_KEPT)
      }
    }
    const inspector = this.doc.querySelector(INSPECTOR_SELECTOR)
    if (inspector === null) return
    const key = this.doc.querySelector(SELECTED_ROW_SELECTOR)?.getAttribute(ROW_KEY_ATTRIBUTE) ?? null
    if (key !== this.selected) {
      this.selected = key
      this.revealed = null
    }
    const mark = key === null ? undefined : this.marks.get(key)
    const masked = mark !== undefined && mark.action !== 'exclude' && this.revealed !== key
    if (masked) {
      if (!inspector.hasAttribute(INSPECTOR_MASKED)) inspector.setAttribute(INSPECTOR_MASKED, '')
    } else if (inspector.hasAttribute(INSPECTOR_MASKED)) inspector.removeAttribute(INSPECTOR_MASKED)
    this.notice(inspector, mark === undefined || texts === undefined ? null : { text: texts.inspector(mark), button: masked ? texts.show : null })
  }

  private notice(inspector: Element, want: { text: string; button: string | null } | null): void {
    let notice = inspector.querySelector(`:scope > [${INSPECTOR_NOTICE}]`)
    if (want === null) {
      notice?.remove()
      return
    }
    if (notice === null) {
      notice = this.doc.createElement('div')
      notice.setAttribute(INSPECTOR_NOTICE, '')
      notice.setAttribute('role', 'note')
      notice.appendChild(this.doc.createElement('p'))
      inspector.insertBefore(notice, inspector.firstChild)
    }
    const paragraph = notice.querySelector('p')!
    if (paragraph.textContent !== want.text) paragraph.textContent = want.text
    let button = notice.querySelector('button')
    if (want.button === null) {
      button?.remove()
      return
    }
    if (button === null) {
      button = this.doc.createElement('button')
      button.type = 'button'
      button.addEventListener('click', () => {
        this.revealed = this.selected
        this.pass()
      })
      notice.appendChild(button)
    }
    if (button.textContent !== want.button) button.textContent = want.button
  }

  /** Remove the style sheet, the notice and the observer. */
  dispose(): void {
    this.observer.disconnect()
    this.style.remove()
    const inspector = this.doc.querySelector(INSPECTOR_SELECTOR)
    inspector?.removeAttribute(INSPECTOR_MASKED)
    inspector?.querySelector(`:scope > [${INSPECTOR_NOTICE}]`)?.remove()
  }
}
