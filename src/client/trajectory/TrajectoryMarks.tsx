/**
 * The headless entry that marks removals in the Trajectory tab. It sits in the session header's
 * `conversation.session.header.utilities` seat, which stays mounted in every view of the session:
 * it reads the session's whole history again whenever the replacement view lists another
 * replacement (`session.history`, {@link readWholeHistory}), computes the marks
 * ({@link trajectoryMarks}) and hands them with the page's texts to the page's
 * {@link TrajectoryDecorator}. Renders nothing.
 *
 * @module dsh-message-recall/client/trajectory/TrajectoryMarks
 */
import { useEffect, useSyncExternalStore } from 'react'
import { isTombstoneEvent } from '../../shared/tombstone'
import type { FetchLike } from '../wire/api'
import { readWholeHistory } from '../wire/session-history'
import type { LocaleSnapshot, SessionSnapshot, SnapshotSelectorHook, Translate } from '../wire/rc8'
import { selectReplacements } from '../wire/replacement-view'
import type { MarkTexts, TrajectoryDecorator } from './trajectory-decorate'
import { markTime, trajectoryMarks, type TrajectoryMark } from './trajectory-marks'
import { errorText } from '../../shared/error-text'

/** What the plugin injects into the entry. */
export interface TrajectoryKit {
  /** The page's one decorator. */
  readonly decorator: TrajectoryDecorator
  /** `fetch` for the history pages. */
  readonly fetch: FetchLike
  /** The locale store (for re-rendering on a language switch). */
  readonly locale: { subscribe(listener: () => void): () => void; getSnapshot(): LocaleSnapshot }
  /** Bound to the marks' namespace. */
  readonly t: Translate
  /** Bound to the plugin's main namespace (the action names). */
  readonly tRecall: Translate
}

/** Props of the entry: the seat's standard props plus the kit. */
export interface TrajectoryMarksProps {
  readonly sessionId: string
  readonly useSession: SnapshotSelectorHook<SessionSnapshot>
  readonly trajectoryKit: TrajectoryKit
}

/**
 * The texts of the marks.
 * @param t - bound to the marks' namespace.
 * @param tRecall - bound to the main namespace.
 * @returns the row label, the inspector notice and the reveal button's text.
 */
export function markTexts(t: Translate, tRecall: Translate): MarkTexts {
  const params = (mark: TrajectoryMark) => ({ action: tRecall(`action.${mark.action}`), time: markTime(mark.time) })
  return {
    row: (mark) => (mark.action === 'exclude' ? t('row.excluded') : t('row.removed', params(mark))),
    inspector: (mark) => (mark.action === 'exclude' ? t('inspector.excluded', params(mark)) : t('inspector.removed', params(mark))),
    show: t('inspector.show'),
  }
}

/**
 * The entry.
 * @param props - see {@link TrajectoryMarksProps}.
 * @returns `null`.
 */
export function TrajectoryMarks({ sessionId, useSession, trajectoryKit: kit }: TrajectoryMarksProps): null {
  const replacements = useSession(selectReplacements)
  const locale = useSyncExternalStore(kit.locale.subscribe, kit.locale.getSnapshot)
  useEffect(() => {
    const texts = markTexts(kit.t, kit.tRecall)
    if (!replacements.some(isTombstoneEvent)) {
      kit.decorator.update(new Map(), texts)
      return undefined
    }
    let current = true
    readWholeHistory(kit.fetch, sessionId).then(
      (events) => { if (current) kit.decorator.update(trajectoryMarks(events), texts) },
      (error: unknown) => console.warn(`dsh-message-recall: Trajectory marks of session "${sessionId}" not updated: ${errorText(error)}`),
    )
    return () => { current = false }
  }, [sessionId, replacements, locale, kit])
  useEffect(() => () => kit.decorator.update(new Map(), markTexts(kit.t, kit.tRecall)), [kit])
  return null
}
