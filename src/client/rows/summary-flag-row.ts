/**
 * The flag on a summary's row: a compaction summary written before the person removed messages it
 * holds (`shared/summary-flag.ts`) says so on its row in the chat, "This summary was written before
 * you removed 2 messages", with a **Rewrite summary** button (`stores/summary-refresh.ts`: the plan
 * names the model call's estimated input tokens, the second press rewrites, Escape or Cancel
 * aborts). The summary's row is rc.8's compaction marker: a `compaction` row (`data.seq`, the
 * checkpoint; DSH's automatic compaction and this plugin's rewrites) or a `manual-compaction` row
 * (`data.compaction.seq`, `/compact`), as `dsh-client-ui-conversation` builds them
 * (`compactSummary`).
 *
 * {@link flagView} gives the texts and the step for both places that show the flag (this row, and
 * the Removed panel, `panel/RemovedPanel.tsx`), so they read the same; {@link decorateSummaryRows}
 * writes them into the rows. DOM contract: `[data-message-recall-summary-flag=<checkpoint seq>]`
 * (role `note`) as the row's last child, its sentence in `[data-message-recall-summary-flag-text]`,
 * the buttons `[data-message-recall-summary-flag-action="rewrite|cancel"]` and a refusal in
 * `[data-message-recall-summary-flag-error]` (role `alert`).
 *
 * @module dsh-message-recall/client/rows/summary-flag-row
 */
import { isRecord, isSeq } from '../../shared/events'
import type { SummaryFlag } from '../../shared/summary-flag'
import { countedKey, describeError } from '../text/locales'
import { FLOW_KEY, FLOW_KIND, type ChatSnapshot, type Translate } from '../wire/rc8'
import type { SummaryRefreshState } from '../stores/summary-refresh'

/** Attributes of the flag's DOM contract. */
export const FLAG_ATTR = {
  flag: 'data-message-recall-summary-flag',
  text: 'data-message-recall-summary-flag-text',
  action: 'data-message-recall-summary-flag-action',
  error: 'data-message-recall-summary-flag-error',
} as const

/** What the flag of one summary shows now. */
export interface FlagView {
  /** "This summary was written before you removed {count} messages". */
  readonly note: string
  /** The rewrite button's text and accessible name: idle, armed (the cost) or running (progress). */
  readonly button: string
  readonly buttonLabel: string
  /** A request is in flight (the plan, or the rewrite). */
  readonly busy: boolean
  /** The confirm is armed (the next press rewrites). */
  readonly armed: boolean
  /** Cancel is offered (armed, or the rewrite is running). */
  readonly cancel: boolean
  /** The last refusal of a request about this summary, in words, or `null`. */
  readonly error: string | null
}

/**
 * The texts of one summary's flag.
 * @param t - translate bound to the plugin namespace.
 * @param flag - the summary's flag.
 * @param state - the session's Rewrite summary state.
 * @returns the flag's texts and step.
 */
export function flagView(t: Translate, flag: Pick<SummaryFlag, 'checkpointSeq' | 'removedSeqs'>, state: SummaryRefreshState): FlagView {
  const count = flag.removedSeqs.length
  const mine = state.checkpointSeq === flag.checkpointSeq
  const note = t(countedKey('flag.text', count), { count })
  if (mine && state.phase === 'armed') {
    const tokens = state.tokens.toLocaleString('en-US')
    return { note, button: t('flag.armed', { tokens }), buttonLabel: t('flag.armedLabel', { tokens }), busy: false, armed: true, cancel: true, error: null }
  }
  if (mine && state.phase === 'running') {
    return { note, button: t('rewrite.progress'), buttonLabel: t('rewrite.progressLabel'), busy: true, armed: false, cancel: true, error: null }
  }
  const error = state.error !== null && state.error.checkpointSeq === flag.checkpointSeq ? describeError(t, state.error.code) : null
  return { note, button: t('flag.rewrite'), buttonLabel: t(countedKey('flag.rewriteLabel', count), { count }), busy: mine && state.phase === 'planning', armed: false, cancel: false, error }
}

/**
 * The checkpoint a chat row stands for, when it is a compaction marker.
 * @param node - a Chat node (`kind`, `data`).
 * @returns the checkpoint's seq, or `null` for any other row.
 */
export function checkpointOfRow(node: { readonly kind: string; readonly data?: unknown }): number | null {
  const data = isRecord(node.data) ? node.data : {}
  if (node.kind === 'compaction') return isSeq(data.seq) ? data.seq : null
  if (node.kind === 'manual-compaction') {
    const compaction = isRecord(data.compaction) ? data.compaction : {}
    return isSeq(compaction.seq) ? compaction.seq : null
  }
  return null
}

/** What {@link decorateSummaryRows} needs besides the rows. */
export interface SummaryRowsInput {
  /** The flags of the summaries on the surface (`shared/summary-flag.ts`). */
  readonly flags: readonly SummaryFlag[]
  readonly state: SummaryRefreshState
  /** A press of the rewrite button of a flagged summary. */
  readonly onRewrite: (checkpointSeq: number) => void
  /** A press of Cancel. */
  readonly onCancel: () => void
}

/**
 * Bring the flag of every compaction row of a flow in line with the flags: written into a flagged
 * summary's row, removed from every other row.
 * @param flow - the chat flow element.
 * @param chat - the session's Chat store (each row's key resolved in it, never in the DOM).
 * @param input - flags, state and handlers.
 * @param t - translate bound to the plugin namespace.
 */
export function decorateSummaryRows(flow: Element, chat: ChatSnapshot, input: SummaryRowsInput, t: Translate): void {
  const bySeq = new Map(input.flags.map((f) => [f.checkpointSeq, f]))
  for (let row = flow.firstElementChild; row !== null; row = row.nextElementSibling) {
    const kind = row.getAttribute(FLOW_KIND)
    const existing = flagOf(row)
    if (kind !== 'compaction' && kind !== 'manual-compaction') {
      existing?.remove()
      continue
    }
    const key = row.getAttribute(FLOW_KEY)
    const node = key === null ? undefined : chat.nodes.get(key)
    const seq = node === undefined || node.kind !== kind ? null : checkpointOfRow(node)
    const flag = seq === null ? undefined : bySeq.get(seq)
    if (flag === undefined) {
      existing?.remove()
      continue
    }
    writeFlag(row, existing, flag.checkpointSeq, flagView(t, flag, input.state), input, t)
  }
}

/**
 * Remove every flag under `root`.
 * @param root - a flow or the document.
 */
export function undecorateSummaryRows(root: ParentNode): void {
  for (const flag of root.querySelectorAll(`[${FLAG_ATTR.flag}]`)) flag.remove()
}

function flagOf(row: Element): HTMLElement | null {
  for (let child = row.lastElementChild; child !== null; child = child.previousElementSibling) {
    if (child.hasAttribute(FLAG_ATTR.flag)) return child as HTMLElement
  }
  return null
}

function writeFlag(row: Element, existing: HTMLElement | null, checkpointSeq: number, view: FlagView, input: SummaryRowsInput, t: Translate): void {
  const doc = row.ownerDocument
  let box = existing
  if (box === null || box.getAttribute(FLAG_ATTR.flag) !== String(checkpointSeq)) {
    box?.remove()
    box = doc.createElement('div')
    box.setAttribute(FLAG_ATTR.flag, String(checkpointSeq))
    box.setAttribute('role', 'note')
    const text = doc.createElement('span')
    text.setAttribute(FLAG_ATTR.text, '')
    const rewrite = doc.createElement('button')
    rewrite.type = 'button'
    rewrite.setAttribute(FLAG_ATTR.action, 'rewrite')
    const cancel = doc.createElement('button')
    cancel.type = 'button'
    cancel.setAttribute(FLAG_ATTR.action, 'cancel')
    box.append(text, rewrite, cancel)
    row.appendChild(box)
  }
  const [text, rewrite, cancel] = [...box.children] as HTMLElement[]
  setText(text!, view.note)
  setText(rewrite!, view.button)
  setAttr(rewrite!, 'aria-label', view.buttonLabel)
  setAttr(rewrite!, 'title', view.buttonLabel)
  setAttr(rewrite!, 'data-armed', view.armed ? 'true' : null)
  setAttr(rewrite!, 'aria-busy', view.busy ? 'true' : null)
  setText(cancel!, t('flag.cancel'))
  setAttr(cancel!, 'aria-label', t('flag.cancelLabel'))
  cancel!.hidden = !view.cancel
  // Re-bound each pass: the handlers of the current pass, on the plugin's own elements.
  rewrite!.onclick = (event) => {
    event.preventDefault()
    event.stopPropagation()
    input.onRewrite(checkpointSeq)
  }
  cancel!.onclick = (event) => {
    event.preventDefault()
    event.stopPropagation()
    input.onCancel()
  }
  let error = box.querySelector(`[${FLAG_ATTR.error}]`)
  if (view.error === null) error?.remove()
  else {
    if (error === null) {
      error = doc.createElement('span')
      error.setAttribute(FLAG_ATTR.error, '')
      error.setAttribute('role', 'alert')
      box.appendChild(error)
    }
    setText(error as HTMLElement, view.error)
  }
}

function setText(element: HTMLElement, text: string): void {
  if (element.textContent !== text) element.textContent = text
}

function setAttr(element: HTMLElement, name: string, value: string | null): void {
  if (value === null) {
    if (element.hasAttribute(name)) element.removeAttribute(name)
  } else if (element.getAttribute(name) !== value) element.setAttribute(name, value)
}
