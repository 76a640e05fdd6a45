/**
 * The session-header entry (`conversation.session.header.utilities`, where DSH's own Session log
 * button sits): a **Removed** button with the number of removals in effect, opening a panel that
 * lists this session's removals, newest first (`removal-list.ts`), each with **Restore** (in place,
 * when allowed) and **Open a copy**. Restored entries read "Restored". The entry renders nothing
 * while the session's history holds no removal of this plugin.
 *
 * Keyboard: the button toggles the panel; opening moves focus into it, Escape or Close returns
 * focus to the button, a pointer press outside closes it.
 *
 * A summary on the surface written before a removal of messages it holds (`shared/summary-flag.ts`)
 * shows first, as a note with **Rewrite summary** (`stores/summary-refresh.ts`, shared with the
 * summary's row; the texts of `rows/summary-flag-row.ts` `flagView`). The summary rewrites
 * (`removal-list.ts` `rewriteEntries`) follow the removals, each with **Undo** (the route's
 * `undoRewrite`) while it is the summary the model reads.
 *
 * A long list is rendered in steps: the first {@link PANEL_FIRST_WINDOW} entries (the newest, at
 * the top) in the panel's first frame, then {@link PANEL_STEP} more per animation frame until all
 * are in the DOM, so opening the panel on a session with a thousand removals paints at once.
 *
 * Each removal in effect (not an exclusion) offers **Erase for good…** (`stores/erase-requests.ts`):
 * a confirmation in the entry says how many messages go, that nothing of them can come back, and
 * that the erase happens when the host next starts (the panel only ever shows a session the host
 * holds open); once confirmed the entry reads "Erase pending" with **Cancel erase** instead of
 * Restore and Open a copy. The confirmation also lists the other sessions that hold the same
 * messages (the session's copies, the sessions it was copied from and their other copies, read
 * "related sessions"), with a checkbox for each removal of them in such a session (a session may
 * hold them under several removals, or some not removed), with how many messages it takes there,
 * to erase it there as well: checked unless it takes more messages than this erase, which its label
 * says; a line says which a session holds not removed. One whose erase was refused is named on the entry. An erase that failed at the host's last
 * start says so, with the host's reason (its English sentence, as a detail under the line), and
 * offers **Try again at next start** (pending again) beside **Cancel erase**. An erased removal
 * reads "Erased for good" and offers nothing.
 *
 * A batch (`apply`) that a torn write cut short shows first, as a note naming how many of its
 * changes did not take effect and the first of them (`removal-list.ts`, `cutShortEntries`), once the
 * host's `inspect` names it too: a copy's seed may end inside a batch (`cut-short-check.ts`).
 *
 * DOM contract: `button[data-message-recall-removed]` (its count in `[data-count]`),
 * `[data-message-recall-panel]` (role `dialog`), `[data-message-recall-cut-short=<first seq>]`
 * (role `note`) per batch cut short, one `li[data-message-recall-entry=<tombstoneSeq>]`
 * per removal with `data-action`, `data-restored` once restored, and buttons
 * `[data-message-recall-entry-action="restore|forkBefore"]`, `[data-message-recall-erase-action="open|confirm|keep|retry|cancel"]`,
 * `[data-message-recall-erase-confirm]` (role `alertdialog`; inside it `[data-message-recall-erase-copies]`,
 * `[data-message-recall-erase-copy=<copy id>]` with `data-message-recall-erase-copy-removal=<its tombstone seq>` (a label holding its checkbox, one per removal) and
 * `[data-message-recall-erase-copy-held=<copy id>]`), `[data-message-recall-erase-copy-error=<copy id>]` (role `alert`), `[data-message-recall-erase-pending="pending|failed"]`
 * (role `status`; a failed one holds `[data-message-recall-erase-problem]`) and `[data-message-recall-entry-erased]`; `[data-message-recall-panel-flag=<checkpoint seq>]`
 * (role `note`) per flagged summary with `[data-message-recall-summary-flag-action="rewrite|cancel"]`;
 * one `li[data-message-recall-rewrite=<checkpoint seq>]` per summary rewrite with
 * `[data-message-recall-entry-action="undoRewrite"]`.
 *
 * @module dsh-message-recall/client/panel/RemovedPanel
 */
import { useEffect, useMemo, useRef, useState, useSyncExternalStore, type KeyboardEvent as ReactKeyboardEvent } from 'react'
import { ACTIONS } from '../../shared/actions'
import { countedKey, describeError } from '../text/locales'
import type { LocaleService, SessionSnapshot, SnapshotSelectorHook, Translate } from '../wire/rc8'
import { cutShortEntries, removalCounts, removalEntries, rewriteEntries } from './removal-list'
import { useConfirmedCutShort } from './cut-short-check'
import type { RecallSender } from '../wire/api'
import { useDialogToggle } from './dialog-toggle'
import { summaryFlags } from '../../shared/summary-flag'
import { FLAG_ATTR, flagView } from '../rows/summary-flag-row'
import type { SummaryRefresh } from '../stores/summary-refresh'
import { selectReplacements } from '../wire/replacement-view'
import type { SessionStores } from '../stores/session-stores'
import type { TombstoneActions } from '../stores/tombstone-actions'
import { copyRemovalKey, type EraseRequests, type EraseRequestsState } from '../stores/erase-requests'
import type { EraseCopyValue, ErasePlanValue } from '../../shared/protocol'
import { withoutPrefix } from '../../shared/error-text'

/** What the panel's entry needs of the plugin's kit (the overlay's kit satisfies it). */
export interface PanelKit {
  /** Locale revision source (stable functions, as `useSyncExternalStore` needs). */
  readonly locale: Pick<LocaleService, 'subscribe' | 'getSnapshot'>
  /** Translate bound to the plugin namespace. */
  readonly t: Translate
  /** Restore / Open a copy per session, shared with the overlay's excluded rows. */
  readonly tombstones: SessionStores<TombstoneActions>
  /** Rewrite summary per session, shared with the summary's row (absent: no flag in the panel). */
  readonly summaries?: SessionStores<SummaryRefresh>
  /** Erase for good per session (absent: the panel offers no erase). */
  readonly erases?: SessionStores<EraseRequests>
  /** The route sender, to ask the host about a batch the page finds cut short (absent: the page's finding stands). */
  readonly send?: RecallSender
}

/** Props the rc.8 header seat gives the entry (the session kit) plus the plugin's kit. */
export interface RemovedButtonProps {
  readonly sessionId: string
  readonly useSession: SnapshotSelectorHook<SessionSnapshot>
  readonly kit: PanelKit
}

const selectChat = (s: SessionSnapshot) => s.chat

const pad2 = (n: number): string => String(n).padStart(2, '0')

/**
 * When a removal happened, in the chat's own clock (`formatMessageClock` in
 * `@deepseek-ai/dsh-client-ui-conversation`, `lib/client.js`, not exported): `HH:mm` (24-hour,
 * local time) on the same day as `now`, the `panel.clock.md` date before it earlier in the same
 * year, `panel.clock.ymd` in another year; the templates are the chat's `clock.md` / `clock.ymd`.
 * @param time - epoch ms.
 * @param t - translate bound to the plugin namespace (`{y}`, `{m}`, `{d}` filled).
 * @param now - the reference instant for the day and year cut, epoch ms (the wall clock by default).
 * @returns e.g. `17:55`, `11/30 17:55`, `2025-11-30 17:55` (`11月30日 17:55` in Chinese).
 */
export function removalTime(time: number, t: Translate, now: number = Date.now()): string {
  const d = new Date(time)
  const n = new Date(now)
  const clock = `${pad2(d.getHours())}:${pad2(d.getMinutes())}`
  if (d.getFullYear() === n.getFullYear() && d.getMonth() === n.getMonth() && d.getDate() === n.getDate()) return clock
  const params = { y: d.getFullYear(), m: d.getMonth() + 1, d: d.getDate() }
  return `${t(d.getFullYear() === n.getFullYear() ? 'panel.clock.md' : 'panel.clock.ymd', params)} ${clock}`
}

/** Entries the panel renders in its first frame (more than a tall window shows). */
export const PANEL_FIRST_WINDOW = 30

/** Entries added per animation frame after the first, until the list is whole. */
export const PANEL_STEP = 100

/** The header button and its panel. */
export function RemovedButton({ sessionId, useSession, kit }: RemovedButtonProps) {
  const replacements = useSession(selectReplacements)
  // Rendered again when the language changes: `t` is stable, its answers are not.
  useSyncExternalStore(kit.locale.subscribe, kit.locale.getSnapshot)
  const { open, button, toggle, close } = useDialogToggle()
  const counts = useMemo(() => removalCounts(replacements), [replacements])
  if (counts.total === 0 && counts.rewrites === 0) return null
  const count = counts.inEffect
  const t = kit.t
  return (
    <div data-message-recall-removed-seat="">
      <button
        ref={button} type="button" data-message-recall-removed="" aria-haspopup="dialog" aria-expanded={open}
        aria-label={t(countedKey('panel.label', count), { count })} onClick={toggle}
      >
        <span>{t('panel.button')}</span>
        {count > 0 && <span data-count="">{count}</span>}
      </button>
      {open && (
        <RemovedPanel sessionId={sessionId} send={kit.send} useSession={useSession} actions={kit.tombstones.get(sessionId)} summary={kit.summaries?.get(sessionId)} erase={kit.erases?.get(sessionId)} t={t} onClose={close} anchor={button.current} />
      )}
    </div>
  )
}

/** Props of {@link RemovedPanel}. */
interface RemovedPanelProps {
  readonly sessionId: string
  readonly send: RecallSender | undefined
  readonly useSession: SnapshotSelectorHook<SessionSnapshot>
  readonly actions: TombstoneActions
  readonly summary: SummaryRefresh | undefined
  readonly erase: EraseRequests | undefined
  readonly t: Translate
  readonly onClose: () => void
  /** The toggle button: a press on it is not "outside". */
  readonly anchor: Element | null
}

function RemovedPanel({ sessionId, send, useSession, actions, summary, erase, t, onClose, anchor }: RemovedPanelProps) {
  const chat = useSession(selectChat)
  const replacements = useSession(selectReplacements)
  // Only while open: the entries read the Chat rows, which change with every streamed token.
  const entries = useMemo(() => removalEntries(replacements, chat), [replacements, chat])
  const found = useMemo(() => cutShortEntries(replacements, chat), [replacements, chat])
  // Only the batches the host names too: a copy's seed may end inside a batch (`cut-short-check.ts`).
  const cutShort = useConfirmedCutShort(found, sessionId, send)
  const rewrites = useMemo(() => rewriteEntries(replacements), [replacements])
  const flags = useMemo(() => summaryFlags(replacements), [replacements])
  const state = useSyncExternalStore(actions.subscribe, actions.getSnapshot)
  const refresh = useSyncExternalStore(summary?.subscribe ?? noSubscribe, summary?.getSnapshot ?? noSnapshot)
  const erasing = useSyncExternalStore(erase?.subscribe ?? noSubscribe, erase?.getSnapshot ?? noSnapshot)
  // Read again at every opening: a restart of the host ran the pending erases.
  useEffect(() => {
    void erase?.load(true)
    return () => erase?.dismiss()
  }, [erase])
  // Where focus goes once the entry's erase controls have re-rendered (`[data-message-recall-erase-action=…]`).
  const [refocus, setRefocus] = useState<{ readonly seq: number; readonly action: string } | null>(null)
  useEffect(() => {
    if (refocus === null) return
    const target = panel.current?.querySelector<HTMLElement>(`[data-message-recall-entry="${refocus.seq}"] [data-message-recall-erase-action="${refocus.action}"]`)
    if (target != null) {
      target.focus()
      setRefocus(null)
    }
  }, [refocus, erasing])
  const [shown, setShown] = useState(PANEL_FIRST_WINDOW)
  useEffect(() => {
    if (shown >= entries.length) return
    const frame = requestAnimationFrame(() => setShown((n) => n + PANEL_STEP))
    return () => cancelAnimationFrame(frame)
  }, [shown, entries.length])
  const panel = useRef<HTMLDivElement>(null)
  useEffect(() => {
    const root = panel.current
    root?.focus()
    const doc = root?.ownerDocument
    if (doc === undefined) return
    const onKey = (event: KeyboardEvent) => {
      // An open erase confirmation takes its own Escape (and marks it handled).
      if (event.key === 'Escape' && !event.defaultPrevented) onClose()
    }
    const onPointer = (event: Event) => {
      const target = event.target as Node | null
      if (target !== null && !root!.contains(target) && !(anchor?.contains(target) ?? false)) onClose()
    }
    doc.addEventListener('keydown', onKey)
    doc.addEventListener('pointerdown', onPointer, true)
    return () => {
      doc.removeEventListener('keydown', onKey)
      doc.removeEventListener('pointerdown', onPointer, true)
    }
  }, [onClose, anchor])
  return (
    <div ref={panel} data-message-recall-panel="" role="dialog" aria-label={t('panel.title')} tabIndex={-1}>
      <div data-message-recall-panel-head="">
        <strong>{t('panel.title')}</strong>
        <button type="button" data-message-recall-panel-close="" onClick={onClose}>{t('panel.close')}</button>
      </div>
      {summary !== undefined && refresh !== null && flags.map((flag) => {
        const view = flagView(t, flag, refresh)
        return (
          <div key={flag.checkpointSeq} data-message-recall-panel-flag={flag.checkpointSeq} role="note">
            <p>{view.note}</p>
            <button type="button" {...{ [FLAG_ATTR.action]: 'rewrite' }} data-armed={view.armed ? 'true' : undefined} aria-label={view.buttonLabel} title={view.buttonLabel}
              aria-busy={view.busy || undefined} onClick={() => void summary.press(flag.checkpointSeq)}>{view.button}</button>
            {view.cancel && <button type="button" {...{ [FLAG_ATTR.action]: 'cancel' }} aria-label={t('flag.cancelLabel')} onClick={() => summary.cancel()}>{t('flag.cancel')}</button>}
            {view.error !== null && <span {...{ [FLAG_ATTR.error]: '' }} role="alert">{view.error}</span>}
          </div>
        )
      })}
      {cutShort.map((batch) => (
        <div key={batch.firstSeq} data-message-recall-cut-short={batch.firstSeq} role="note">
          <p>{t(countedKey('panel.cutShort', batch.missingCount), { count: batch.missingCount, total: batch.changes ?? '?' })}</p>
          {batch.missing.length > 0 && (
            <ul>
              {batch.missing.map((change, i) => (
                <li key={i}>{t(`panel.cutShort.action.${change.action}`)}: {change.excerpt ?? t('panel.notLoaded')}</li>
              ))}
              {batch.missingCount > batch.missing.length && <li>{t(countedKey('panel.cutShort.more', batch.missingCount - batch.missing.length), { count: batch.missingCount - batch.missing.length })}</li>}
            </ul>
          )}
        </div>
      ))}
      <ol>
        {entries.slice(0, shown).map((entry) => {
          const busy = state.pending?.tombstoneSeq === entry.tombstoneSeq
          const error = state.errors.get(entry.tombstoneSeq) ?? null
          // Erase for good: a removal in effect (not an exclusion), not erased yet, once the host's list is read.
          const eraseable = erasing !== null && erasing.loaded && entry.inEffect && !entry.erased && ACTIONS[entry.action].effect === 'removed'
          const pending = erasing?.erases.get(entry.tombstoneSeq)
          const eraseBusy = erasing?.busy === entry.tombstoneSeq
          return (
            <li key={entry.tombstoneSeq} data-message-recall-entry={entry.tombstoneSeq} data-action={entry.action} data-restored={entry.inEffect ? undefined : ''}>
              <div data-message-recall-entry-meta="">
                <time dateTime={new Date(entry.time).toISOString()}>{removalTime(entry.time, t)}</time>
                <span data-message-recall-entry-what="">{t(ACTIONS[entry.action].texts.panel)}</span>
                <span>{t(countedKey('panel.count', entry.count), { count: entry.count })}</span>
                {entry.tokens !== null && <span>{t(countedKey('panel.tokens', entry.tokens), { count: entry.tokens })}</span>}
                {!entry.inEffect && <span data-message-recall-entry-restored="">{t('panel.restored')}</span>}
              </div>
              <div data-message-recall-entry-excerpt="">{entry.excerpt ?? t('panel.notLoaded')}</div>
              {error !== null && <div data-message-recall-entry-error="" role="alert">{describeError(t, error.code)}</div>}
              {entry.erased && <div data-message-recall-entry-erased="">{t('panel.erased')}</div>}
              {eraseable && pending?.state !== 'pending' && erasing !== null && erasing.errors.has(entry.tombstoneSeq) && (
                <div data-message-recall-entry-error="" role="alert">{describeError(t, erasing.errors.get(entry.tombstoneSeq)!.code)}</div>
              )}
              {erasing?.copyErrors.get(entry.tombstoneSeq)?.map(({ copy, tombstoneSeq: removalSeq, error: refusal }) => (
                <div key={copyRemovalKey(copy.sessionId, removalSeq)} data-message-recall-erase-copy-error={copy.sessionId} role="alert">
                  {t('panel.erase.copyFailed', { title: copy.title ?? t('panel.erase.untitled'), reason: describeError(t, refusal.code) })}
                </div>
              ))}
              {pending !== undefined && erase !== undefined && (
                <div data-message-recall-erase-pending={pending.state} role="status">
                  <span>{t(pending.state === 'failed' ? 'panel.erase.failed' : 'panel.erase.pending')}</span>
                  {pending.state === 'failed' && pending.problem !== undefined && (
                    <p data-message-recall-erase-problem="">{t('panel.erase.problem', { problem: withoutPrefix(pending.problem) })}</p>
                  )}
                  {pending.state === 'failed' && (
                    <button type="button" data-message-recall-erase-action="retry" aria-label={t('panel.erase.retryLabel')} disabled={eraseBusy} aria-busy={eraseBusy || undefined}
                      onClick={() => void erase.retry(entry.tombstoneSeq).then((ok) => setRefocus({ seq: entry.tombstoneSeq, action: ok ? 'cancel' : 'retry' }))}>{t('panel.erase.retry')}</button>
                  )}
                  <button type="button" data-message-recall-erase-action="cancel" aria-label={t('panel.erase.cancelLabel')} disabled={eraseBusy} aria-busy={eraseBusy || undefined}
                    onClick={() => void erase.cancel(entry.tombstoneSeq).then(() => setRefocus({ seq: entry.tombstoneSeq, action: 'open' }))}>{t('panel.erase.cancel')}</button>
                </div>
              )}
              {eraseable && pending === undefined && erase !== undefined && erasing?.confirming === entry.tombstoneSeq && (
                <EraseConfirm
                  t={t} plan={erasing.plan?.tombstoneSeq === entry.tombstoneSeq ? erasing.plan : null} entryCount={entry.count}
                  checked={erasing.checked}
                  onCheck={(sessionId, removalSeq, checked) => erase.check(sessionId, removalSeq, checked)}
                  onConfirm={() => void erase.schedule(entry.tombstoneSeq).then((ok) => setRefocus({ seq: entry.tombstoneSeq, action: ok ? 'cancel' : 'open' }))}
                  onKeep={() => {
                    erase.dismiss()
                    setRefocus({ seq: entry.tombstoneSeq, action: 'open' })
                  }}
                />
              )}
              {pending === undefined && !entry.erased && <div data-message-recall-entry-actions="">
                {entry.canRestore && (
                  <button type="button" data-message-recall-entry-action="restore" aria-label={t('label.restore')} disabled={busy} aria-busy={busy || undefined}
                    onClick={() => void actions.restore(entry.tombstoneSeq)}>{t('action.restore')}</button>
                )}
                <button type="button" data-message-recall-entry-action="forkBefore" aria-label={t('label.forkBefore')} disabled={busy} aria-busy={busy || undefined}
                  onClick={() => void actions.forkBefore(entry.tombstoneSeq)}>{t('action.forkBefore')}</button>
                {eraseable && erase !== undefined && erasing?.confirming !== entry.tombstoneSeq && (
                  <button type="button" data-message-recall-erase-action="open" aria-label={t('panel.erase.label')} aria-haspopup="dialog" disabled={eraseBusy || busy}
                    onClick={() => void erase.confirm(entry.tombstoneSeq)}>{t('panel.erase')}</button>
                )}
              </div>}
            </li>
          )
        })}
        {rewrites.map((entry) => {
          const busy = state.pending?.tombstoneSeq === entry.checkpointSeq
          const error = state.errors.get(entry.checkpointSeq) ?? null
          return (
            <li key={`rewrite-${entry.checkpointSeq}`} data-message-recall-rewrite={entry.checkpointSeq}>
              <div data-message-recall-entry-meta="">
                <time dateTime={new Date(entry.time).toISOString()}>{removalTime(entry.time, t)}</time>
                <span data-message-recall-entry-what="">{t('panel.rewrite')}</span>
                {entry.leftOut > 0 && <span>{t(countedKey('panel.rewrite.left', entry.leftOut), { count: entry.leftOut })}</span>}
                {!entry.onSurface && <span data-message-recall-entry-restored="">{t('panel.rewrite.replaced')}</span>}
              </div>
              {error !== null && <div data-message-recall-entry-error="" role="alert">{describeError(t, error.code)}</div>}
              {entry.onSurface && (
                <div data-message-recall-entry-actions="">
                  <button type="button" data-message-recall-entry-action="undoRewrite" aria-label={t('panel.rewrite.undoLabel')} disabled={busy} aria-busy={busy || undefined}
                    onClick={() => void actions.undoRewrite(entry.checkpointSeq)}>{t('undo.undo')}</button>
                </div>
              )}
            </li>
          )
        })}
      </ol>
    </div>
  )
}

/** Props of {@link EraseConfirm}. */
interface EraseConfirmProps {
  readonly t: Translate
  /**
   * The host's plan of this erase once it is read: the messages, images and tool output files it
   * takes and the related sessions (copies, sources, their other copies) that hold the same
   * messages. Until then (`null`) Confirm is disabled, so no session the plan would list is missed.
   */
  readonly plan: ErasePlanValue | null
  /** The entry's own message count, shown until the plan is read. */
  readonly entryCount: number
  /** The related sessions' removals checked to be erased along (`copyRemovalKey`). */
  readonly checked: ReadonlySet<string>
  readonly onCheck: (sessionId: string, tombstoneSeq: number, checked: boolean) => void
  readonly onConfirm: () => void
  readonly onKeep: () => void
}

/**
 * The confirmation of **Erase for good** inside an entry (role `alertdialog`): what goes (the
 * messages, and the images and tool output files the host's plan counts), which related sessions
 * hold the same messages (a checkbox per removal of them in such a session, with how many messages
 * it takes there, to erase it there too, and a line for the ones a session holds not removed),
 * that it cannot be undone, and that
 * it happens when the host next starts. Focus starts on **Keep**; Tab and Shift+Tab stay among its
 * checkboxes and two buttons; Escape is Keep (and does not close the panel).
 */
function EraseConfirm({ t, plan, entryCount, checked, onCheck, onConfirm, onKeep }: EraseConfirmProps) {
  // How many messages the erase takes (a related session's wider removal is compared with it).
  const count = plan?.messageCount ?? entryCount
  const images = plan?.imageCount ?? 0
  const files = plan?.fileCount ?? 0
  const copies: readonly EraseCopyValue[] = plan?.copies ?? []
  const planned = plan !== null
  const box = useRef<HTMLDivElement>(null)
  useEffect(() => {
    box.current?.querySelector<HTMLElement>('[data-message-recall-erase-action="keep"]')?.focus()
  }, [])
  const onKeyDown = (event: ReactKeyboardEvent<HTMLDivElement>) => {
    if (event.key === 'Escape') {
      event.preventDefault()
      event.stopPropagation()
      onKeep()
      return
    }
    if (event.key !== 'Tab') return
    const buttons = [...(box.current?.querySelectorAll<HTMLElement>('button, input') ?? [])]
    const at = buttons.indexOf(event.target as HTMLElement)
    event.preventDefault()
    buttons[(at + (event.shiftKey ? buttons.length - 1 : 1)) % buttons.length]?.focus()
  }
  const title = t(countedKey('panel.erase.title', count), { count })
  const also = [
    ...(images > 0 ? [t(countedKey('panel.erase.images', images), { count: images })] : []),
    ...(files > 0 ? [t(countedKey('panel.erase.files', files), { count: files })] : []),
  ]
  const titleOf = (copy: EraseCopyValue) => copy.title ?? t('panel.erase.untitled')
  return (
    <div ref={box} data-message-recall-erase-confirm="" role="alertdialog" aria-label={title} onKeyDown={onKeyDown}>
      <p data-message-recall-erase-title=""><strong>{title}</strong></p>
      {also.length > 0 && <p data-message-recall-erase-also="">{t('panel.erase.also', { what: also.join(t('panel.erase.and')) })}</p>}
      {copies.length > 0 && (
        <div data-message-recall-erase-copies="">
          <p>{t(countedKey('panel.erase.copies', copies.length), { count: copies.length, titles: copies.map((copy) => t('panel.erase.quoted', { title: titleOf(copy) })).join(t('panel.erase.listSep')) })}</p>
          {copies.map((copy) => [
            ...copy.removals.map((removal) => {
              const key = copyRemovalKey(copy.sessionId, removal.tombstoneSeq)
              const wider = removal.messageCount > count
              return (
                <label key={key} data-message-recall-erase-copy={copy.sessionId} data-message-recall-erase-copy-removal={removal.tombstoneSeq}>
                  <input type="checkbox" checked={checked.has(key)} onChange={(event) => onCheck(copy.sessionId, removal.tombstoneSeq, event.currentTarget.checked)} />
                  {t(countedKey(wider ? 'panel.erase.copyWider' : 'panel.erase.copyRemoval', removal.messageCount), { title: titleOf(copy), count: removal.messageCount })}
                </label>
              )
            }),
            ...(copy.notRemovedCount === 0 ? [] : [
              <p key={`${copy.sessionId}#held`} data-message-recall-erase-copy-held={copy.sessionId}>
                {copy.removals.length === 0 ? t('panel.erase.copyNotRemoved', { title: titleOf(copy) }) : t(countedKey('panel.erase.copyPartlyNotRemoved', copy.notRemovedCount), { title: titleOf(copy), count: copy.notRemovedCount })}
              </p>,
            ]),
          ])}
        </div>
      )}
      <p data-message-recall-erase-body="">{t('panel.erase.body')}</p>
      <button type="button" data-message-recall-erase-action="confirm" disabled={!planned} aria-busy={!planned || undefined} onClick={onConfirm}>{t('panel.erase.confirm')}</button>
      <button type="button" data-message-recall-erase-action="keep" aria-label={t('panel.erase.keepLabel')} onClick={onKeep}>{t('panel.erase.keep')}</button>
    </div>
  )
}

const noSubscribe = (): (() => void) => () => {}
const noSnapshot = (): null => null
