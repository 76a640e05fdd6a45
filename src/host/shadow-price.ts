/**
 * The shadow price of a surface replace, for `dsh-token-meter`'s persisted projections
 * (`contextBreakdown`, `contextPressure`). Those folds subtract a replaced range only when the
 * event immediately before the replacement is a metering event (`compaction/summary` or
 * `compaction/prune`) stating the heuristic price of exactly that range
 * (`dsh-token-meter/lib/index.js` `foldSurfaceProjection`); a bare replace folds with zero
 * delta, so the meter would keep counting removed tokens until the next provider usage sample.
 *
 * So before each tombstone and each restore, when a token meter is loaded, the writer appends
 * `compaction/prune { shadowedRange, shadowedSeqs, shadowedTokenCount }` (a known, log-only
 * rc.8 event type, `dsh-compaction` `SessionEventMap['compaction/prune']`) synchronously right
 * before the replacement, with the range exactly the replacement's and the count the meter's own
 * `estimateMessage` summed over the shadowed nodes. Any event in between cancels the claim, so
 * the two appends sit in one synchronous block, after planning succeeded. If the replacement is
 * then refused, the price stays as a log-only event that the next event disarms (rc.8 has no
 * batch append).
 *
 * The pure part ({@link shadowPrice}) takes a per-node price; {@link meterPricer} reads it from
 * the loaded meter.
 *
 * @module dsh-message-recall/host/shadow-price
 */
import type { Message } from '@deepseek-ai/dsh-llm'
import { deriveEventMessage, type Session, type SessionEvent } from '@deepseek-ai/dsh-session'
import type { EventLookup } from './surface-plan'

/** `compaction/prune` data: the shared shadow-price protocol of rc.8. */
export interface ShadowPrice {
  /** The replacement's `start`/`end` (surface seqs, positional order). */
  readonly shadowedRange: { readonly start: number; readonly end: number }
  /** Every shadowed surface node, in surface order. */
  readonly shadowedSeqs: readonly number[]
  /** Σ of the meter's heuristic price over the shadowed nodes, in tokens. */
  readonly shadowedTokenCount: number
}

/**
 * The price event data for a replace.
 * @param range - the replacement's inclusive surface range.
 * @param shadowedSeqs - every node it shadows, in surface order.
 * @param priceOf - tokens of one shadowed node (0 for a node that derives no message).
 * @returns fresh `compaction/prune` data.
 */
export function shadowPrice(range: { start: number; end: number }, shadowedSeqs: readonly number[], priceOf: (seq: number) => number): ShadowPrice {
  let tokens = 0
  for (const seq of shadowedSeqs) tokens += priceOf(seq)
  return { shadowedRange: { start: range.start, end: range.end }, shadowedSeqs: [...shadowedSeqs], shadowedTokenCount: tokens }
}

/** The part of `ctx.tokenMeter` (`dsh-token-meter` `TokenMeter`) the price reads. */
export interface MessagePricer {
  estimateMessage(message: Message): number
}

/**
 * A per-node price read from the loaded meter: `deriveEventMessage` (`dsh-session`) of the node's
 * event, priced by `meter.estimateMessage`, the estimator the meter folds appends with.
 * @param meter - the token meter.
 * @param lookup - one event by seq over the session's current log.
 * @returns `seq => tokens`.
 * @throws when a seq has no event under `lookup`.
 */
export function meterPricer(meter: MessagePricer, lookup: EventLookup): (seq: number) => number {
  return (seq) => {
    const event = lookup(seq)
    if (event === undefined) throw new Error(`message-recall: shadowed seq ${seq} has no session event`)
    const message = deriveEventMessage(event as SessionEvent)
    return message === null ? 0 : meter.estimateMessage(message)
  }
}

/**
 * Append the price right before a replacement (the caller appends the replacement next, in the
 * same synchronous block).
 * @param session - the session to append to.
 * @param price - from {@link shadowPrice}.
 * @returns the logged event's seq.
 * @throws the Session's or an invariant's error when the event is refused.
 */
export function appendShadowPrice(session: Session, price: ShadowPrice): number {
  return session.append('compaction/prune', {
    shadowedRange: { ...price.shadowedRange },
    shadowedSeqs: [...price.shadowedSeqs],
    shadowedTokenCount: price.shadowedTokenCount,
  }).seq
}
