/**
 * DOM writes of the plugin, and nothing else: the action cluster inside a row, the plugin's own
 * hiding attribute, and the style sheet. Every mark is an element or attribute of this plugin
 * (`data-message-recall-*`, plus `data-armed`/`data-busy` on its own buttons); attributes the UI
 * owns are never read for writing or changed, so undoing a mark can only reveal what the plugin hid.
 *
 * DOM contract (shared with the end-to-end suite):
 * - a decorated row holds one `[data-message-recall-actions]` cluster, absolutely positioned at the
 *   row's top-right corner (no layout shift), shown on row hover and on focus within the row;
 * - buttons are `<button type="button" data-message-recall-action="recall|delete|deleteFrom">`
 *   with a localized `aria-label`; an armed button has `data-armed="true"` and shows the count;
 * - a hidden row carries `data-message-recall-hidden` (the style sheet hides it);
 * - a row error shows in `[data-message-recall-error]` inside the row.
 *
 * @module dsh-message-recall/client/decorate
 */
import type { RemovalAction } from '../shared/tombstone'
import type { ArmedState, PendingState, RowError } from './controller'
import type { Translate } from './rc8'
import { countedKey } from './locales'

/** Attribute names of the DOM contract. */
export const ATTR = {
  actions: 'data-message-recall-actions',
  action: 'data-message-recall-action',
  hidden: 'data-message-recall-hidden',
  error: 'data-message-recall-error',
  row: 'data-message-recall-row',
  active: 'data-message-recall-active',
  armed: 'data-armed',
  busy: 'data-busy',
  style: 'data-message-recall-style',
} as const

/** What one row should show. */
export interface RowDecoration {
  readonly hidden: boolean
  /** Buttons to show, in order; empty removes the cluster. */
  readonly actions: readonly RemovalAction[]
  /** The row stands for a model step (Delete label names the step). */
  readonly isStepRow: boolean
  readonly armed: ArmedState | null
  readonly pending: PendingState | null
  readonly error: RowError | null
  /** Localized error sentence when `error` is set. */
  readonly errorText: string | null
}

/** Localized button texts for one locale revision. */
export interface ClusterTexts {
  readonly text: Readonly<Record<RemovalAction, string>>
  readonly label: Readonly<Record<RemovalAction | 'deleteStep', string>>
  readonly busy: string
}

/**
 * Read the button texts from the locale.
 * @param t - translate bound to the plugin namespace.
 * @returns the texts of the current locale revision.
 */
export function clusterTexts(t: Translate): ClusterTexts {
  return {
    text: { recall: t('action.recall'), delete: t('action.delete'), deleteFrom: t('action.deleteFrom') },
    label: {
      recall: t('label.recall'), delete: t('label.delete.message'), deleteStep: t('label.delete.step'), deleteFrom: t('label.deleteFrom'),
    },
    busy: t('busy'),
  }
}

/**
 * Builds clusters by cloning one prepared template per button set, so first decoration of many
 * rows costs one `cloneNode` each. Templates belong to one locale revision; make a new factory
 * when the locale changes.
 */
export class ClusterFactory {
  private readonly templates = new Map<string, HTMLElement>()

  constructor(private readonly doc: Document, private readonly texts: ClusterTexts) {}

  /**
   * @param actions - buttons in order.
   * @param isStepRow - label Delete as a step delete.
   * @returns a new detached cluster element.
   */
  create(actions: readonly RemovalAction[], isStepRow: boolean): HTMLElement {
    const id = `${actions.join(',')}|${isStepRow}`
    let template = this.templates.get(id)
    if (template === undefined) {
      template = this.doc.createElement('div')
      template.setAttribute(ATTR.actions, '')
      template.setAttribute('role', 'group')
      for (const action of actions) {
        const button = this.doc.createElement('button')
        button.type = 'button'
        button.setAttribute(ATTR.action, action)
        applyIdle(button, action, isStepRow, this.texts)
        template.appendChild(button)
      }
      this.templates.set(id, template)
    }
    return template.cloneNode(true) as HTMLElement
  }
}

function idleLabel(action: RemovalAction, isStepRow: boolean, texts: ClusterTexts): string {
  return action === 'delete' && isStepRow ? texts.label.deleteStep : texts.label[action]
}

function applyIdle(button: HTMLElement, action: RemovalAction, isStepRow: boolean, texts: ClusterTexts): void {
  button.textContent = texts.text[action]
  const label = idleLabel(action, isStepRow, texts)
  button.setAttribute('aria-label', label)
  button.setAttribute('title', label)
}

/**
 * The cluster a row holds.
 * @param row - a row element.
 * @returns the row's `[data-message-recall-actions]` child, or `null`.
 */
export function clusterOf(row: Element): HTMLElement | null {
  for (let child = row.lastElementChild; child !== null; child = child.previousElementSibling) {
    if (child.hasAttribute(ATTR.actions)) return child as HTMLElement
  }
  return null
}

/**
 * Bring one row to `decoration`.
 * @param row - the row element (`[data-chat-flow-key]`).
 * @param decoration - what the row should show.
 * @param factory - cluster factory of the current locale revision.
 * @param t - translate bound to the plugin namespace (armed texts carry the count).
 * @param texts - button texts of the same revision as `factory`.
 * @param fresh - the cluster must be rebuilt (locale or button set changed).
 * @returns the row's cluster after the update, or `null` when it has none.
 */
export function decorateRow(
  row: HTMLElement,
  decoration: RowDecoration,
  factory: ClusterFactory,
  t: Translate,
  texts: ClusterTexts,
  fresh: boolean,
): HTMLElement | null {
  if (decoration.hidden !== row.hasAttribute(ATTR.hidden)) {
    if (decoration.hidden) row.setAttribute(ATTR.hidden, '')
    else row.removeAttribute(ATTR.hidden)
  }
  let cluster = clusterOf(row)
  if (decoration.actions.length === 0) {
    cluster?.remove()
    if (row.hasAttribute(ATTR.row)) row.removeAttribute(ATTR.row)
    return null
  }
  if (cluster !== null && fresh) {
    cluster.remove()
    cluster = null
  }
  if (cluster === null) {
    cluster = factory.create(decoration.actions, decoration.isStepRow)
    row.appendChild(cluster)
  }
  if (!row.hasAttribute(ATTR.row)) row.setAttribute(ATTR.row, '')
  const armed = decoration.armed
  const pending = decoration.pending
  for (let button = cluster.firstElementChild; button !== null; button = button.nextElementSibling) {
    const action = button.getAttribute(ATTR.action) as RemovalAction | null
    if (action === null) continue
    const isArmed = armed !== null && armed.action === action
    if (isArmed) {
      button.setAttribute(ATTR.armed, 'true')
      button.textContent = t(`armed.${action}`, { count: armed.count })
      button.setAttribute('aria-label', t(countedKey('armed.label', armed.count), { count: armed.count }))
    } else if (button.hasAttribute(ATTR.armed)) {
      button.removeAttribute(ATTR.armed)
      applyIdle(button as HTMLElement, action, decoration.isStepRow, texts)
    }
    const isBusy = pending !== null && pending.action === action
    if (isBusy) {
      button.setAttribute(ATTR.busy, 'true')
      button.setAttribute('aria-busy', 'true')
    } else if (button.hasAttribute(ATTR.busy)) {
      button.removeAttribute(ATTR.busy)
      button.removeAttribute('aria-busy')
    }
  }
  let errorNode = cluster.querySelector(`[${ATTR.error}]`)
  if (decoration.errorText !== null) {
    if (errorNode === null) {
      errorNode = cluster.ownerDocument.createElement('span')
      errorNode.setAttribute(ATTR.error, '')
      errorNode.setAttribute('role', 'alert')
      cluster.appendChild(errorNode)
    }
    if (errorNode.textContent !== decoration.errorText) errorNode.textContent = decoration.errorText
    if (decoration.error !== null) errorNode.setAttribute('data-code', decoration.error.code)
  } else errorNode?.remove()
  const active = armed !== null || pending !== null || decoration.errorText !== null
  if (active !== cluster.hasAttribute(ATTR.active)) {
    if (active) cluster.setAttribute(ATTR.active, '')
    else cluster.removeAttribute(ATTR.active)
  }
  return cluster
}

/**
 * Remove every mark of this plugin from a row.
 * @param row - a row element.
 */
export function undecorateRow(row: Element): void {
  clusterOf(row)?.remove()
  row.removeAttribute(ATTR.row)
  row.removeAttribute(ATTR.hidden)
}

/**
 * Remove every mark of this plugin under `root`.
 * @param root - a flow or the document.
 */
export function undecorateAll(root: ParentNode): void {
  for (const row of root.querySelectorAll(`[${ATTR.row}],[${ATTR.hidden}]`)) undecorateRow(row)
  for (const cluster of root.querySelectorAll(`[${ATTR.actions}]`)) cluster.remove()
}

/** The plugin's style sheet: hiding, the corner cluster, focus and armed states, the recall notice. */
export const STYLE_TEXT = `
[${ATTR.hidden}]{display:none!important}
[${ATTR.row}]{position:relative}
[${ATTR.actions}]{position:absolute;top:-14px;right:0;z-index:3;display:flex;align-items:center;gap:2px;padding:2px;border-radius:8px;
background:var(--dsw-alias-bg-base,#fff);border:1px solid var(--dsw-alias-border-l2,rgba(0,0,0,.12));
box-shadow:var(--dsw-shadow-lv2,0 2px 6px rgba(0,0,0,.12));opacity:0;transition:opacity .12s ease}
[${ATTR.row}]:hover>[${ATTR.actions}],[${ATTR.row}]:focus-within>[${ATTR.actions}],[${ATTR.actions}][${ATTR.active}]{opacity:1}
[${ATTR.action}]{font:inherit;font-size:12px;line-height:18px;padding:1px 8px;border:none;border-radius:6px;background:transparent;
color:var(--dsw-alias-label-secondary,#444);cursor:pointer;white-space:nowrap}
[${ATTR.action}]:hover{background:var(--dsw-alias-interactive-bg-hover,rgba(0,0,0,.06))}
[${ATTR.action}]:focus-visible{outline:2px solid var(--dsw-alias-state-business-primary,#4d6bfe);outline-offset:1px}
[${ATTR.action}][${ATTR.armed}=true]{background:var(--dsw-alias-state-error-primary,#d93025);color:#fff}
[${ATTR.action}][${ATTR.busy}=true]{opacity:.6;cursor:progress}
[${ATTR.error}]{font-size:12px;line-height:18px;padding:0 6px;max-width:320px;color:var(--dsw-alias-state-error-primary,#d93025)}
[data-message-recall-notice]{position:absolute;bottom:calc(100% + 8px);left:12px;right:12px;z-index:20;display:flex;gap:8px;align-items:center;
padding:6px 10px;border-radius:8px;font-size:12px;line-height:18px;background:var(--dsw-specific-tip,#fff8e1);color:var(--dsw-alias-label-secondary,#444);
border:1px solid var(--dsw-alias-border-l2,rgba(0,0,0,.12))}
[data-message-recall-notice] button{font:inherit;margin-left:auto;border:none;background:transparent;cursor:pointer;color:inherit;text-decoration:underline}
`

/**
 * Add the style sheet to a document.
 * @param doc - the page document.
 * @returns removes the sheet.
 */
export function installStyles(doc: Document): () => void {
  const style = doc.createElement('style')
  style.setAttribute(ATTR.style, '')
  style.textContent = STYLE_TEXT
  doc.head.appendChild(style)
  return () => style.remove()
}
