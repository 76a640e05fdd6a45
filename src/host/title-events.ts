/**
 * The `session/title` events of a log, read and written: the title in effect before a seq, the
 * current title found incrementally on the write path, and the append of a new title. rc.8
 * titles are log-only events `{ title, messageSeqs, source }`; the newest wins
 * (`dsh-session-title` `foldSessionTitle`). What the new title is comes from the rules in `title`.
 *
 * @module dsh-message-recall/host/title-events
 */
import type { Session } from '@deepseek-ai/dsh-session'
// Type-only: merges `session/title` into the session event map (`dsh-session-title` types).
import type {} from '@deepseek-ai/dsh-session-title'
import { isRecord } from '../shared/events'
import type { EventLookup } from './surface-plan'
import type { TitleChange, TitleRecord } from './title'

/**
 * The title in effect before `beforeSeq`.
 * @param beforeSeq - exclusive upper bound (the log length for the current title).
 * @param lookup - one event by seq.
 * @returns the newest `session/title` event below `beforeSeq`, or `undefined`.
 */
export function titleBefore(beforeSeq: number, lookup: EventLookup): TitleRecord | undefined {
  for (let seq = beforeSeq - 1; seq >= 0; seq--) {
    const event = lookup(seq)
    if (event?.type !== 'session/title' || !isRecord(event.data)) continue
    const { title, messageSeqs, source } = event.data
    if (typeof title !== 'string' || !Array.isArray(messageSeqs) || !isRecord(source) || typeof source.kind !== 'string') return undefined
    return { title, messageSeqs: messageSeqs as number[], source: source as TitleRecord['source'], eventSeq: seq }
  }
  return undefined
}

/** Per session: how far the log was searched for titles, and the newest title seq found so far. */
const titleSeen = new WeakMap<object, { upTo: number; seq: number | undefined }>()

/**
 * The current title of a session, found incrementally: each call searches only the events
 * appended since the previous call for the same session (the first call searches the whole log
 * once), so the write path does not scan a long log per write.
 * @param session - the session (the cache key).
 * @param count - its event count (`session.seq`).
 * @param lookup - one event by seq over its log.
 * @returns the newest `session/title`, or `undefined`.
 */
export function currentTitle(session: object, count: number, lookup: EventLookup): TitleRecord | undefined {
  const seen = titleSeen.get(session)
  const from = seen !== undefined && seen.upTo <= count ? seen.upTo : 0
  let seq = from === 0 ? undefined : seen?.seq
  for (let at = count - 1; at >= from; at--) {
    if (lookup(at)?.type === 'session/title') {
      seq = at
      break
    }
  }
  titleSeen.set(session, { upTo: count, seq })
  return seq === undefined ? undefined : titleBefore(seq + 1, lookup)
}

/**
 * Append a title change.
 * @param session - the session.
 * @param change - from the rules of `title` (`titleAfterRemoval`, `titleAfterRestore`, `titleAfterPrompt`), or a copy's own title.
 * @returns the logged event's seq.
 * @throws the Session's or an invariant's error when the event is refused.
 */
export function appendTitle(session: Session, change: TitleChange): number {
  return session.append('session/title', {
    title: change.title,
    messageSeqs: [...change.messageSeqs],
    source: { ...change.source } as never,
  }).seq
}
