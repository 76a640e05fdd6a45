/**
 * What a replace (a tombstone or a restore) brings along in the same synchronous block: the
 * shadow price right before it when a token meter is loaded ({@link ./shadow-price}), and the
 * session title after it ({@link ./title}). Independent of HTTP, shared by every writer.
 *
 * @module dsh-message-recall/host/write-effects
 */
import type { Session } from '@deepseek-ai/dsh-session'
import type { EventLookup } from './surface-plan'
import { appendShadowPrice, meterPricer, shadowPrice, type MessagePricer } from './shadow-price'
import { appendTitle, titleAfterRemoval, titleAfterRestore, titleBefore, type TitleChange, type TitleLimits } from './title'

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
    effects.warn(`message-recall: the session title of "${session.id}" was not updated: ${error instanceof Error ? error.message : String(error)}`)
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
    current: titleBefore(session.seq, lookup),
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
    current: titleBefore(session.seq, lookup),
    beforeTombstone: titleBefore(restore.tombstoneSeq, lookup),
    ...restore,
    nodes: session.surface.nodes,
    lookup,
    limits: effects.titleLimits,
  })
  return writeTitle(session, effects, change)
}
