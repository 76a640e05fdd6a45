/**
 * What a replace (a tombstone or a restore) brings along in the same synchronous block: the
 * shadow price right before it when a token meter is loaded ({@link ./shadow-price}), and the
 * session title after it (the rules of `title`, read and written through `title-events`).
 * Independent of HTTP, shared by every writer.
 *
 * @module dsh-message-recall/host/write-effects
 */
import type { Session } from '@deepseek-ai/dsh-session'
import type { EventLookup } from './surface-plan'
import { appendShadowPrice, meterPricer, shadowPrice, type MessagePricer } from './shadow-price'
import type { LogEvent } from '../shared/events'
import { classifyNode } from '../shared/surface-node'
import { titleAfterPrompt, titleAfterRemoval, titleAfterRestore, type TitleChange, type TitleLimits } from './title'
import { appendTitle, currentTitle, titleBefore } from './title-events'
import { errorText } from '../shared/error-text'

/** The optional services a replace consults, read at request time. */
export interface WriteEffects {
  /** `ctx.tokenMeter` when loaded (`dsh-token-meter`), else `undefined`: no price is appended. */
  readonly meter: MessagePricer | undefined
  /** Fallback title limits (`titleLimitsOf(ctx.get('sessionTitle'))`). */
  readonly titleLimits: TitleLimits
  /** Where a refused title append is reported; the replace itself stands. */
  readonly warn: (message: string) => void
}

/**
 * Append the shadow price of a replace when a meter is loaded. Call right before the replace,
 * in the same synchronous block, after planning succeeded.
 * @param session - the session.
 * @param effects - the meter, if any.
 * @param lookup - one event by seq over the current log.
 * @param range - the replace's `start`/`end`.
 * @param shadowedSeqs - every node it shadows, in surface order.
 * @returns the price event's seq, or `null` when no meter is loaded.
 * @throws the Session's or an invariant's error when the price event is refused (nothing appended).
 */
export function priceReplace(session: Session, effects: WriteEffects | undefined, lookup: EventLookup, range: { start: number; end: number }, shadowedSeqs: readonly number[]): number | null {
  if (effects?.meter === undefined) return null
  return appendShadowPrice(session, shadowPrice(range, shadowedSeqs, meterPricer(effects.meter, lookup)))
}

function writeTitle(session: Session, effects: WriteEffects, change: TitleChange | null): number | null {
  if (change === null) return null
  try {
    return appendTitle(session, change)
  } catch (error) {
    effects.warn(`message-recall: the session title of "${session.id}" was not updated: ${errorText(error)}`)
    return null
  }
}

/**
 * Rebuild the title after a tombstone, when the current title cites a shadowed message.
 * @param session - the session, with the tombstone appended.
 * @param effects - title limits and the logger.
 * @param lookup - one event by seq over the current log (the tombstone included).
 * @param tombstone - the tombstone's seq and shadowed nodes.
 * @returns the `session/title` event's seq, or `null` when the title stays.
 */
export function retitleAfterRemoval(session: Session, effects: WriteEffects | undefined, lookup: EventLookup, tombstone: { seq: number; shadowedSeqs: readonly number[] }): number | null {
  if (effects === undefined) return null
  const change = titleAfterRemoval({
    current: currentTitle(session, session.seq, lookup),
    shadowedSeqs: tombstone.shadowedSeqs,
    tombstoneSeq: tombstone.seq,
    nodes: session.surface.nodes,
    lookup,
    limits: effects.titleLimits,
  })
  return writeTitle(session, effects, change)
}

/**
 * Put the title back after a restore.
 * @param session - the session, with the restoring copy appended.
 * @param effects - title limits and the logger.
 * @param lookup - one event by seq over the current log (the copy included).
 * @param restore - the tombstone, the original message and the copy.
 * @returns the `session/title` event's seq, or `null` when the title stays.
 */
export function retitleAfterRestore(
  session: Session,
  effects: WriteEffects | undefined,
  lookup: EventLookup,
  restore: { tombstoneSeq: number; originalSeq: number; restoredSeq: number },
): number | null {
  if (effects === undefined) return null
  const change = titleAfterRestore({
    current: currentTitle(session, session.seq, lookup),
    beforeTombstone: titleBefore(restore.tombstoneSeq, lookup),
    ...restore,
    nodes: session.surface.nodes,
    lookup,
    limits: effects.titleLimits,
  })
  return writeTitle(session, effects, change)
}

/**
 * After a prompt is appended: when the title is the no-prompt placeholder, title the session from
 * this prompt. Call from a `session/event` listener; the title is appended in a microtask,
 * because `Session.append` refuses to reenter while an event is being published.
 * @param session - the session that appended.
 * @param effectsOf - title limits and the logger, read only for a prompt.
 * @param lookupOf - a lookup over the session's log at the time the microtask runs.
 * @param event - the appended event (anything but a prompt is ignored at once).
 */
export function followPrompt(session: Session, effectsOf: () => Pick<WriteEffects, 'titleLimits' | 'warn'>, lookupOf: () => EventLookup, event: LogEvent): void {
  if (event.type !== 'user/message' || event.surfaceOp !== 'append' || classifyNode(event) !== 'user') return
  queueMicrotask(() => {
    const effects = effectsOf()
    try {
      const lookup = lookupOf()
      writeTitle(session, { ...effects, meter: undefined }, titleAfterPrompt(currentTitle(session, session.seq, lookup), event, lookup, effects.titleLimits))
    } catch (error) {
      effects.warn(`message-recall: the session title of "${session.id}" was not updated: ${errorText(error)}`)
    }
  })
}
