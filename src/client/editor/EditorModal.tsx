/**
 * The conversation editor: a modal dialog listing every message of the session from its whole
 * durable history, grouped by turn. A toggle per unit (a prompt alone, or a model step: the answer
 * with its tool rows) selects it for removal, **From here** selects it and everything after it,
 * removed and excluded units stay in place struck through with a **Restore** toggle when they can
 * be undone in place. The preview updates while selecting (going struck through in red, coming
 * back in green, a counter), and the host is asked with a debounced batch `plan` whether it would
 * accept the selection, so a refusal shows on its row before anything is written. **Apply** sends
 * one `apply` (when the host answers that the conversation moved meanwhile, the history is read
 * again and the selection kept, so a second Apply writes against the new state; the same happens
 * when a turn ends, or a removal or restore is made elsewhere, while the dialog is open). A batch the host
 * answers `PERSIST_FAILED` with `applied: true` is in effect: the dialog closes as on success and
 * the session's unsaved notice (above the composer, with Save again) says it is not saved yet.
 * **Discard** and Escape close with nothing written.
 *
 * Units a compaction summarized are listed as **Summarized** and can be selected like current ones
 * (Delete, Exclude, From here): the host rewrites the compaction summary without them in the same
 * one `apply` (`host/summary-batch.ts`). The plan says so, with the model call's estimated input
 * tokens; Apply then asks once more naming the call, shows its progress with **Cancel** (Escape
 * too), and a cancelled or failed call writes nothing and says why (`editor-apply.ts`).
 *
 * As a context map: every unit says what it costs in the model's context now and its share of the
 * whole (nothing for a removed, excluded or folded unit), and the figure at the top says the context
 * now and after the selection, with which estimate (`context-map.ts`: the token meter's where the
 * page has its `contextBreakdown` projection, characters ÷ 4 otherwise). **Largest first** orders
 * the list by cost; the selection is kept by unit. A selected unit can be marked **Exclude** instead
 * of Delete (one unit, or **Exclude all selected**): previewed dimmed rather than struck through,
 * written as `exclude` changes in the same one `apply`, and counted apart ("3 of them stay in
 * view"). The quick selections add what they name to the selection (old tool output, large tool
 * output, everything before the last compaction), never a unit of the most recent turn.
 *
 * The list is windowed (`list-window.ts`): only the units near the visible part are in the DOM, so
 * thousands of units open, toggle and re-sort within a frame.
 *
 * Keyboard: ArrowUp/ArrowDown move between units (scrolling the list), Space toggles the focused control, Enter
 * applies, Escape discards, Tab stays inside the dialog. Every control is a `<button>` with an
 * accessible name.
 *
 * This module is the dialog's state and view; each job it composes has its own module: reading
 * the history (`editor-history.ts`), the debounced `plan` (`editor-plan.ts`), Apply
 * (`editor-apply.ts`), the keyboard (`dialog-keys.ts`), the units and the preview
 * (`editor-model.ts`), the style sheet (`editor-styles.ts`).
 *
 * @module dsh-message-recall/client/editor/EditorModal
 */
import { memo, useCallback, useEffect, useMemo, useRef, useState, type KeyboardEvent } from 'react'
import type { FetchLike, RecallErrorCode, RecallSender } from '../wire/api'
import type { UnsavedSink } from '../stores/unsaved-writes'
import { describeError } from '../text/locales'
import type { Translate } from '../wire/rc8'
import { arrowTarget, trapTab, useFirstFocus } from './dialog-keys'
import { useEditorApply } from './editor-apply'
import { useEditorHistory } from './editor-history'
import { applyText, contextText, costText, counterText, rewriteText } from './editor-locales'
import { EMPTY_SELECTION, previewSelection, selectable, type EditorSelection, type EditorUnit } from './editor-model'
import { usePlanCheck } from './editor-plan'
import {
  contextFigure, costNow, orderUnits, presetBeforeCompaction, presetLargeToolOutput, presetOldToolOutput, shareOf,
  type ContextBreakdown, type UnitOrder,
} from './context-map'
import { HEADING_HEIGHT, listWindow, offsetsOf, REFUSED_UNIT_HEIGHT, UNIT_HEIGHT, useScrollPosition } from './list-window'

/** What the editor reaches. */
export interface EditorKit {
  /** Translate bound to the editor namespace. */
  readonly t: Translate
  /** Translate bound to the plugin namespace (error sentences). */
  readonly tRecall: Translate
  readonly send: RecallSender
  readonly fetch: FetchLike
  /** The applied-but-unsaved state of a session (shared with the overlay, which shows it). */
  readonly unsaved: (sessionId: string) => UnsavedSink
}

/** Props of {@link EditorModal}. */
export interface EditorModalProps {
  readonly sessionId: string
  /** A turn is running: Apply is disabled with the reason. */
  readonly running: boolean
  /**
   * Replacement events in the session's durable history as the page knows them (the replacement
   * view); when the number changes while the dialog is open (a removal or a restore from another
   * tab or entry), the history is read again, the selection kept.
   */
  readonly replacementCount?: number
  /**
   * The page's `contextBreakdown` projection of `dsh-token-meter` (tokens), when loaded: the costs
   * then use the meter's estimate and the context figure is the meter's; characters ÷ 4 otherwise.
   */
  readonly breakdown?: ContextBreakdown
  /** Active locale id (`en` / `zh`). */
  readonly locale: string
  readonly kit: EditorKit
  /** Close the dialog; `applied` tells whether an `apply` was written. */
  onClose(applied: boolean): void
}

/** Default N of "tool output older than the last N turns". */
export const DEFAULT_PRESET_TURNS = 2
/** Default K of "tool output larger than K tokens". */
export const DEFAULT_PRESET_TOKENS = 1000

function toggled(set: ReadonlySet<string>, key: string): Set<string> {
  const next = new Set(set)
  if (!next.delete(key)) next.add(key)
  return next
}

function without(set: ReadonlySet<string> | undefined, key: string): Set<string> {
  const next = new Set(set)
  next.delete(key)
  return next
}

/** A whole number ≥ `min` from an input's text, or `fallback`. */
function wholeNumber(text: string, min: number, fallback: number): number {
  const value = Number(text)
  return Number.isSafeInteger(value) && value >= min ? value : fallback
}

/** The selection changes one unit's controls make; stable for the dialog's life. */
interface UnitActions {
  /** The unit's checkbox: select it for Delete, or let go of it (Delete or Exclude). */
  toggleRemove(key: string): void
  /** Exclude instead of Delete (selecting the unit), or back to Delete. */
  toggleExclude(key: string): void
  toggleFrom(key: string): void
  toggleRestore(key: string): void
  /** Keep the unit's first control for the arrow keys and the first focus. */
  register(key: string, el: HTMLButtonElement | null): void
}

interface UnitItemProps {
  readonly unit: EditorUnit
  /** The turn label shown inside the unit (largest first, where no turn headings are), or `null`. */
  readonly turnLabel: string | null
  readonly going: boolean
  readonly excluding: boolean
  readonly coming: boolean
  /** The unit is in the From-here span, not its first unit. */
  readonly onward: boolean
  readonly from: boolean
  /** The cost line. */
  readonly cost: string
  /** The refusal on this unit: its code and sentence. */
  readonly refusal: { readonly code: RecallErrorCode; readonly text: string } | null
  readonly t: Translate
  readonly actions: UnitActions
}

/** One unit of the list; re-rendered only when its own props change (5,000 units stay within a frame). */
const UnitItem = memo(function UnitItem({ unit, turnLabel, going, excluding, coming, onward, from, cost, refusal, t, actions }: UnitItemProps) {
  const text = unit.rows.map((r) => r.text).find((s) => s !== '') ?? ''
  const ref = useCallback((el: HTMLButtonElement | null) => actions.register(unit.key, el), [actions, unit.key])
  // A summarized unit is selectable too: its removal rewrites the compaction summary.
  const current = selectable(unit.state)
  return (
    <li data-editor-unit={unit.key} data-editor-refused={refusal === null ? undefined : ''} data-editor-state={unit.state} data-editor-preview={excluding ? 'excluding' : going ? 'going' : coming ? 'coming' : ''}>
      {current && (
        <button type="button" ref={ref} aria-pressed={going} disabled={onward} data-editor-select=""
          aria-label={t(unit.kind === 'prompt' ? 'select.prompt' : 'select.step', { text })}
          onClick={() => actions.toggleRemove(unit.key)}>
          {going ? '☑' : '☐'}
        </button>
      )}
      {!current && unit.restorable && (
        <button type="button" ref={ref} aria-pressed={coming} data-editor-restore="" aria-label={t('restore.label', { text })}
          onClick={() => actions.toggleRestore(unit.key)}>
          {t('restore')}
        </button>
      )}
      <div data-editor-rows="">
        {unit.rows.map((row) => (
          <p key={row.seq} data-editor-row={row.seq} data-editor-role={row.role}>
            <span data-editor-role-label="">{t(`role.${row.role}`)}</span> <span data-editor-text="">{row.text}</span>
          </p>
        ))}
      </div>
      <span data-editor-meta="">
        {turnLabel !== null && <span data-editor-unit-turn="">{turnLabel}</span>}
        <span data-editor-cost="">{cost}</span>
      </span>
      {unit.state !== 'current' && <span data-editor-state-label="">{t(`state.${unit.state}`)}</span>}
      {current && (
        <button type="button" aria-pressed={excluding} disabled={onward || from} data-editor-exclude="" aria-label={t('exclude.label', { text })}
          onClick={() => actions.toggleExclude(unit.key)}>
          {t('exclude')}
        </button>
      )}
      {current && (
        <button type="button" aria-pressed={from} data-editor-from="" aria-label={t('from.label', { text })}
          onClick={() => actions.toggleFrom(unit.key)}>
          {t('from')}
        </button>
      )}
      {refusal !== null && <p role="alert" data-editor-refusal={refusal.code}>{refusal.text}</p>}
    </li>
  )
})

/** One item of the windowed list: a turn heading (conversation order) or a unit. */
type ListItem = { readonly heading: string; readonly key: string } | { readonly unit: EditorUnit; readonly key: string }

/** The list in one order: its items, each item's index by key, the items' offsets (px, `offsetsOf`), and the keys of the units with a control, in list order (the arrow keys' order). */
interface ListLayout {
  readonly items: readonly ListItem[]
  readonly itemIndex: ReadonlyMap<string, number>
  readonly offsets: readonly number[]
  readonly focusOrder: readonly string[]
}

/** The list's items in one order (turn headings in conversation order, then the units) and their offsets. */
function listLayout(shown: readonly EditorUnit[], order: UnitOrder, turnLabel: (unit: EditorUnit) => string, refusedKey: string | null): ListLayout {
  const items: ListItem[] = []
  let lastTurn: number | null | undefined
  for (const unit of shown) {
    if (order === 'conversation' && unit.turn !== lastTurn) items.push({ heading: turnLabel(unit), key: `h-${unit.key}` })
    lastTurn = unit.turn
    items.push({ unit, key: unit.key })
  }
  return {
    items,
    itemIndex: new Map(items.map((item, i) => [item.key, i])),
    offsets: offsetsOf(items.map((item) => ('heading' in item ? HEADING_HEIGHT : item.key === refusedKey ? REFUSED_UNIT_HEIGHT : UNIT_HEIGHT))),
    focusOrder: shown.filter((u) => selectable(u.state) || u.restorable).map((u) => u.key),
  }
}

/** The editor dialog. */
export function EditorModal({ sessionId, running, replacementCount, breakdown, locale, kit, onClose }: EditorModalProps) {
  const { t } = kit
  const { load, reread } = useEditorHistory(kit.fetch, sessionId, running, replacementCount)
  const [selection, setSelection] = useState<EditorSelection>(EMPTY_SELECTION)
  const [order, setOrder] = useState<UnitOrder>('conversation')
  const [turnsText, setTurnsText] = useState(String(DEFAULT_PRESET_TURNS))
  const [tokensText, setTokensText] = useState(String(DEFAULT_PRESET_TOKENS))
  const controls = useRef(new Map<string, HTMLButtonElement>())
  const dialog = useRef<HTMLDivElement>(null)

  const units = load.status === 'ready' ? load.units : []
  const preview = useMemo(() => previewSelection(units, selection), [units, selection])
  const { refusal, checking, planned } = usePlanCheck(kit.send, sessionId, preview, load.status === 'ready' ? load.lastSeq : -1)
  const { applying, applyError, apply, armed, rewriting, cancel, rewrite } = useEditorApply({
    send: kit.send, sessionId, unsaved: kit.unsaved(sessionId), preview, lastSeq: load.status === 'ready' ? load.lastSeq : null, planned,
    enabled: load.status === 'ready' && preview.changes.length > 0 && !running && refusal === null, reread, onClose,
  })
  const canApply = load.status === 'ready' && preview.changes.length > 0 && !running && !applying && refusal === null

  const figure = useMemo(() => contextFigure(units, preview, breakdown), [units, preview, breakdown])
  const basis = figure.basis
  // Largest first is sorted once per history read and basis; switching back and forth reuses it.
  const largest = useMemo(() => orderUnits(units, 'largest', basis), [units, basis])
  const shown = order === 'largest' ? largest : units
  const costs = useMemo(() => new Map(units.map((unit) => {
    const tokens = costNow(unit, basis)
    return [unit.key, costText(t, locale, { tokens, share: shareOf(tokens, figure.now), inContext: unit.state === 'current', folded: unit.state === 'folded' })]
  })), [units, basis, figure.now, t, locale])


  // The list, windowed (`list-window.ts`): turn headings in conversation order, then the units.
  const turnLabel = useCallback((unit: EditorUnit) => (unit.turn === null ? t('beforeTurns') : t('turn', { turn: unit.turn })), [t])
  const problem = applyError ?? refusal
  const refusedKey = problem?.unit ?? null
  // Each order's items and their offsets are built once per history read (and refused unit), so a
  // re-sort only swaps which list the window reads from.
  const layouts = useMemo(() => new Map<UnitOrder, ListLayout>(), [units, largest, turnLabel, refusedKey])
  let layout = layouts.get(order)
  if (layout === undefined) {
    layout = listLayout(shown, order, turnLabel, refusedKey)
    layouts.set(order, layout)
  }
  const { items, itemIndex, offsets, focusOrder } = layout
  useFirstFocus(load.status === 'ready', () => controls.current.get(focusOrder[0] ?? ''), dialog)
  const list = useRef<HTMLOListElement>(null)
  const position = useScrollPosition(list)
  const view = listWindow(offsets, position.scrollTop, position.viewport)
  // A unit the arrow keys move to that is outside the window: scrolled to, then focused once rendered.
  const [pendingFocus, setPendingFocus] = useState<string | null>(null)
  useEffect(() => {
    if (pendingFocus === null) return
    const control = controls.current.get(pendingFocus)
    if (control !== undefined) {
      control.focus()
      setPendingFocus(null)
    }
  })
  const focusUnit = (key: string) => {
    const control = controls.current.get(key)
    const index = itemIndex.get(key)
    if (index === undefined) return
    const top = offsets[index]!
    const visible = top >= position.scrollTop && offsets[index + 1]! <= position.scrollTop + position.viewport
    if (control !== undefined && visible) {
      control.focus()
      return
    }
    if (!visible) position.scrollTo(Math.max(0, top - (position.viewport - UNIT_HEIGHT) / 2))
    if (control !== undefined) control.focus()
    else setPendingFocus(key)
  }

  const actions = useRef<UnitActions>({
    toggleRemove: (key) => setSelection((s) => (s.remove.has(key)
      ? { ...s, remove: without(s.remove, key), exclude: without(s.exclude, key) }
      : { ...s, remove: toggled(s.remove, key) })),
    toggleExclude: (key) => setSelection((s) => ({ ...s, remove: new Set(s.remove).add(key), exclude: toggled(s.exclude ?? new Set(), key) })),
    toggleFrom: (key) => setSelection((s) => ({ ...s, from: s.from === key ? null : key })),
    toggleRestore: (key) => setSelection((s) => ({ ...s, restore: toggled(s.restore, key) })),
    register: (key, el) => { if (el) controls.current.set(key, el); else controls.current.delete(key) },
  }).current

  // Exclude all selected: the units of the selection that can be excluded (selected alone, not in the From-here span).
  const excludable = useMemo(() => {
    const changed = new Set(preview.changeUnits)
    return [...selection.remove].filter((key) => preview.going.has(key) && changed.has(key) && key !== selection.from)
  }, [preview, selection])
  const allExcluded = excludable.length > 0 && excludable.every((key) => preview.excluding.has(key))
  const toggleExcludeAll = () => setSelection((s) => ({ ...s, exclude: allExcluded ? new Set() : new Set([...(s.exclude ?? []), ...excludable]) }))
  const select = (keys: readonly string[]) => setSelection((s) => ({ ...s, remove: new Set([...s.remove, ...keys]) }))
  const turnsN = wholeNumber(turnsText, 1, DEFAULT_PRESET_TURNS)
  const tokensK = wholeNumber(tokensText, 0, DEFAULT_PRESET_TOKENS)

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    // The number fields keep their own Enter and arrow keys.
    const inField = (event.target as Element).tagName === 'INPUT'
    if (event.key === 'Escape') {
      event.preventDefault()
      // Escape first cancels a summary rewrite in flight (or lets go of an armed Apply); then it discards.
      if (!cancel()) onClose(false)
    } else if (event.key === 'Enter' && !inField) {
      event.preventDefault()
      void apply()
    } else if (event.key === 'Tab') {
      const target = dialog.current === null ? null : trapTab(dialog.current, event.shiftKey)
      if (target !== null) {
        event.preventDefault()
        target.focus()
      }
    } else if ((event.key === 'ArrowDown' || event.key === 'ArrowUp') && !inField) {
      event.preventDefault()
      const at = focusOrder.findIndex((key) => controls.current.get(key)?.closest('li')?.contains(event.target as Node))
      const key = arrowTarget(focusOrder, at, event.key === 'ArrowDown')
      if (key !== undefined) focusUnit(key)
    }
  }

  const problemText = problem === null ? ''
    : problem.detail !== undefined && applyError !== null ? t('rewriteFailed', { reason: describeError(kit.tRecall, problem.code), detail: problem.detail })
    : problem.code === 'CANCELLED' ? describeError(kit.tRecall, problem.code)
    : t(applyError !== null ? 'applyFailed' : 'refused', { reason: describeError(kit.tRecall, problem.code) })
  return (
    <div data-message-recall-editor-backdrop="">
      <div ref={dialog} role="dialog" aria-modal="true" aria-labelledby="dsh-message-recall-editor-title" tabIndex={-1} data-message-recall-editor="" onKeyDown={onKeyDown}>
        <h2 id="dsh-message-recall-editor-title">{t('title')}</h2>
        <p data-editor-keys="">{t('keys')}</p>
        {load.status === 'loading' && <p role="status">{t('loading')}</p>}
        {load.status === 'failed' && <p role="alert">{t('loadFailed', { message: load.message })}</p>}
        {load.status === 'ready' && units.length === 0 && <p>{t('empty')}</p>}
        {load.status === 'ready' && units.length > 0 && (
          <>
            <p data-editor-context="" data-editor-basis={basis} aria-live="polite">{contextText(t, locale, figure)}</p>
            <div data-editor-tools="">
              <button type="button" data-editor-sort="" aria-pressed={order === 'largest'} aria-label={t('sort.label')}
                onClick={() => setOrder((o) => (o === 'largest' ? 'conversation' : 'largest'))}>
                {t('sort')}
              </button>
              <button type="button" data-editor-exclude-all="" aria-pressed={allExcluded} disabled={excludable.length === 0} aria-label={t('excludeAll.label')}
                onClick={toggleExcludeAll}>
                {t('excludeAll')}
              </button>
            </div>
            <div data-editor-presets="" role="group" aria-label={t('presets')}>
              <label data-editor-preset-field="">
                {t('preset.n')} <input type="number" min={1} step={1} value={turnsText} data-editor-preset-turns="" onChange={(e) => setTurnsText(e.currentTarget.value)} />
              </label>
              <button type="button" data-editor-preset="old" aria-label={t('preset.old.label', { n: turnsN })} onClick={() => select(presetOldToolOutput(units, turnsN))}>
                {t('preset.old')}
              </button>
              <label data-editor-preset-field="">
                {t('preset.k')} <input type="number" min={0} step={1} value={tokensText} data-editor-preset-tokens="" onChange={(e) => setTokensText(e.currentTarget.value)} />
              </label>
              <button type="button" data-editor-preset="large" aria-label={t('preset.large.label', { k: tokensK })} onClick={() => select(presetLargeToolOutput(units, tokensK, basis))}>
                {t('preset.large')}
              </button>
              <button type="button" data-editor-preset="compaction" aria-label={t('preset.compaction.label')} disabled={load.compactionSeq === null}
                onClick={() => select(presetBeforeCompaction(units, load.compactionSeq))}>
                {t('preset.compaction')}
              </button>
            </div>
            <ol ref={list} data-editor-units="" data-editor-order={order} data-editor-count={units.length}>
              {view.before > 0 && <li key="spacer-before" data-editor-spacer="" aria-hidden="true" style={{ height: view.before }} />}
              {items.slice(view.start, view.end).map((item) => {
                if ('heading' in item) return <li key={item.key} data-editor-turn="" aria-hidden="true">{item.heading}</li>
                const unit = item.unit
                const going = preview.going.has(unit.key)
                return (
                  <UnitItem key={unit.key} unit={unit} turnLabel={order === 'largest' ? turnLabel(unit) : null} going={going}
                    excluding={preview.excluding.has(unit.key)} coming={preview.coming.has(unit.key)}
                    onward={selection.from !== null && going && !selection.remove.has(unit.key) && selection.from !== unit.key}
                    from={selection.from === unit.key} cost={costs.get(unit.key) ?? ''}
                    refusal={problem !== null && problem.unit === unit.key ? { code: problem.code, text: problemText } : null} t={t} actions={actions} />
                )
              })}
              {view.after > 0 && <li key="spacer-after" data-editor-spacer="" aria-hidden="true" style={{ height: view.after }} />}
            </ol>
          </>
        )}
        {problem !== null && problem.unit === null && <p role="alert" data-editor-refusal={problem.code}>{problemText}</p>}
        <p data-editor-counter="" aria-live="polite">{counterText(t, locale, preview)}</p>
        {rewrite !== null && preview.changes.length > 0 && <p data-editor-rewrite="">{rewriteText(t, locale, rewrite)}</p>}
        {rewriting && (
          <p data-editor-rewriting="" role="status">
            {t('rewriting')}{' '}
            <button type="button" data-editor-cancel="" aria-label={t('cancel.label')} onClick={() => cancel()}>{t('cancel')}</button>
          </p>
        )}
        {running && <p id="dsh-message-recall-editor-busy" data-editor-busy="" role="status">{t('busy')}</p>}
        {checking && !running && <p data-editor-checking="" role="status">{t('checking')}</p>}
        <div data-editor-actions="">
          <button type="button" data-editor-discard="" onClick={() => { cancel(); onClose(false) }}>{t('discard')}</button>
          <button type="button" data-editor-apply="" data-editor-armed={armed ? '' : undefined} disabled={!canApply} aria-describedby={running ? 'dsh-message-recall-editor-busy' : undefined} onClick={() => void apply()}>
            {applyText(t, locale, armed && rewrite !== null ? rewrite.tokens : null)}
          </button>
        </div>
      </div>
    </div>
  )
}
