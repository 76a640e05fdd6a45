/**
 * DOM writes of the plugin on chat rows, and nothing else: the action cluster inside a row, the
 * hiding attribute, the excluded mark and its label, the folded mark and its label, a row error
 * (the flag on a summary's row is `summary-flag-row.ts`'s, removed here with the rest). The marks are listed in
 * `row-marks.ts` (with the DOM contract), the rows' CSS in `row-styles.ts`. Attributes the UI owns
 * are never read for writing or changed, so undoing a mark can only reveal what the plugin hid.
 *
 * @module dsh-message-recall/client/rows/decorate
 */
import type { ArmedState, PendingState, RowError } from './button-store'
import { ATTR, EXCLUDED_ATTR, FOLDED_ATTR } from './row-marks'
import type { RowAction } from './resolve-row'
import { ACTIONS, SURFACE_ACTIONS, type ActionTexts } from '../../shared/actions'
import type { Translate } from '../wire/rc8'
import { countedKey } from '../text/locales'
import { undecorateSummaryRows } from './summary-flag-row'

/** The count the width of an arming button is reserved for (armed texts up to three digits fit). */
export const SIZER_COUNT = 888

/** What one row should show. */
export interface RowDecoration {
  readonly hidden: boolean
  /** The row's message is excluded from the model's context: dimmed, with a label. */
  readonly excluded: boolean
  /** The row's message is folded into a compaction summary: a "Summarized" label while pointed at. */
  readonly folded?: boolean
  /** Buttons to show, in order; empty removes the cluster. */
  readonly actions: readonly RowAction[]
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
  readonly text: Readonly<Record<RowAction, string>>
  readonly label: Readonly<Record<RowAction, string>>
  /** The accessible name on a model row, for the actions whose name differs there (the step goes whole). */
  readonly stepLabel: Readonly<Partial<Record<RowAction, string>>>
  readonly busy: string
  /** The label of an excluded row. */
  readonly excluded: string
  /** The label of a folded row. */
  readonly folded: string
  /** Per arming action, the text its width is reserved for ({@link SIZER_COUNT}). */
  readonly sizer: Readonly<Partial<Record<RowAction, string>>>
}

/**
 * Read the button texts from the locale.
 * @param t - translate bound to the plugin namespace.
 * @returns the texts of the current locale revision.
 */
export function clusterTexts(t: Translate): ClusterTexts {
  const text: Partial<Record<RowAction, string>> = { forkBefore: t('action.forkBefore') }
  const label: Partial<Record<RowAction, string>> = { forkBefore: t('label.forkBefore') }
  const step: Partial<Record<RowAction, string>> = {}
  const sizer: Partial<Record<RowAction, string>> = {}
  for (const action of SURFACE_ACTIONS) {
    const texts: ActionTexts = ACTIONS[action].texts
    text[action] = t(texts.button)
    label[action] = t(texts.label)
    if (texts.stepLabel !== undefined) step[action] = t(texts.stepLabel)
    if (texts.armed !== undefined) sizer[action] = t(texts.armed, { count: SIZER_COUNT })
  }
  return {
    text: text as Record<RowAction, string>, label: label as Record<RowAction, string>, stepLabel: step,
    busy: t('busy'),
    excluded: t('excluded.badge'),
    folded: t('folded.badge'),
    sizer,
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
  create(actions: readonly RowAction[], isStepRow: boolean): HTMLElement {
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
        const sizer = this.texts.sizer[action]
        if (sizer !== undefined) button.setAttribute(ATTR.sizer, sizer)
        applyIdle(button, action, isStepRow, this.texts)
        template.appendChild(button)
      }
      this.templates.set(id, template)
    }
    return template.cloneNode(true) as HTMLElement
  }
}

function idleLabel(action: RowAction, isStepRow: boolean, texts: ClusterTexts): string {
  return (isStepRow ? texts.stepLabel[action] : undefined) ?? texts.label[action]
}

function applyIdle(button: HTMLElement, action: RowAction, isStepRow: boolean, texts: ClusterTexts): void {
  button.textContent = texts.text[action]
  const label = idleLabel(action, isStepRow, texts)
  button.setAttribute('aria-label', label)
  button.setAttribute('title', label)
}

/**
 * Mark a row (attribute and label) or clear the mark: excluded ({@link EXCLUDED_ATTR}) or folded
 * ({@link FOLDED_ATTR}). The label is the row's first child, so it sits above the dimmed content it names.
 * @param row - the row element.
 * @param marks - the row attribute and the label attribute.
 * @param label - the label text, or `null` to clear.
 */
function markRow(row: HTMLElement, marks: { readonly row: string; readonly badge: string }, label: string | null): void {
  let badge: Element | null = null
  for (let child = row.firstElementChild; child !== null; child = child.nextElementSibling) {
    if (child.hasAttribute(marks.badge)) badge = child
  }
  if (label === null) {
    badge?.remove()
    if (row.hasAttribute(marks.row)) row.removeAttribute(marks.row)
    return
  }
  if (!row.hasAttribute(marks.row)) row.setAttribute(marks.row, '')
  if (badge === null) {
    badge = row.ownerDocument.createElement('span')
    badge.setAttribute(marks.badge, '')
    // First in the row, above its dimmed content: at the end it would sit next to the row below.
    row.insertBefore(badge, row.firstChild)
  }
  if (badge.textContent !== label) badge.textContent = label
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
  markRow(row, EXCLUDED_ATTR, decoration.excluded ? texts.excluded : null)
  markRow(row, FOLDED_ATTR, decoration.folded === true ? texts.folded : null)
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
    const action = button.getAttribute(ATTR.action) as RowAction | null
    if (action === null) continue
    const isArmed = armed !== null && armed.action === action
    const rewriting = pending !== null && pending.action === action && pending.rewrite === true
    if (isArmed && armed.rewrite !== undefined) {
      // A folded message: the second click rewrites the summary with a model call; say so, with its cost.
      button.setAttribute(ATTR.armed, 'true')
      const values = { count: armed.count, tokens: armed.rewrite.tokens.toLocaleString('en-US') }
      button.textContent = t(`armed.rewrite.${armed.action}`, values)
      button.setAttribute('aria-label', t(countedKey(REWRITE_LABELS[armed.action], armed.count), values))
    } else if (isArmed && armed.action !== 'recall') {
      button.setAttribute(ATTR.armed, 'true')
      const { armed: armedText, armedLabel } = ACTIONS[armed.action].texts
      button.textContent = t(armedText, { count: armed.count })
      button.setAttribute('aria-label', t(countedKey(armedLabel, armed.count), { count: armed.count }))
    } else if (rewriting) {
      if (button.hasAttribute(ATTR.armed)) button.removeAttribute(ATTR.armed)
      button.textContent = t('rewrite.progress')
      button.setAttribute('aria-label', t('rewrite.progressLabel'))
    } else if (button.hasAttribute(ATTR.armed) || button.textContent === t('rewrite.progress')) {
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
  markRow(row as HTMLElement, EXCLUDED_ATTR, null)
  markRow(row as HTMLElement, FOLDED_ATTR, null)
}

/**
 * Remove every mark of this plugin under `root`.
 * @param root - a flow or the document.
 */
export function undecorateAll(root: ParentNode): void {
  for (const row of root.querySelectorAll(`[${ATTR.row}],[${ATTR.hidden}],[${EXCLUDED_ATTR.row}],[${FOLDED_ATTR.row}]`)) undecorateRow(row)
  for (const cluster of root.querySelectorAll(`[${ATTR.actions}]`)) cluster.remove()
  undecorateSummaryRows(root)
}

/** The counted accessible name of an armed button on a folded row, per action (the write rewrites the summary). */
const REWRITE_LABELS = {
  recall: 'armed.rewriteRecallLabel', delete: 'armed.rewriteLabel', deleteFrom: 'armed.rewriteOnwardLabel', exclude: 'armed.rewriteExcludeLabel',
} as const
