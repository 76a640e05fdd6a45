/**
 * A Recall whose reply was lost. When the host wrote the tombstone but the reply never arrived
 * (a connection reset, the host stopping mid-request, a reply that is not the route's JSON), a
 * retry answers `TARGET_NOT_FOUND` and the prompt's text would be nowhere. So on any failure that
 * is not a refusal, the client checks whether the tombstone landed: in the session's next history
 * update (the replacement view) or through `inspect`, a few times with a growing pause. If it
 * landed, the composer is filled from the page's own copy of the prompt.
 *
 * @module dsh-message-recall/client/recall/recall-landing
 */
import type { LogEvent } from '../../shared/events'
import type { LogSummary } from '../../shared/protocol'
import { readTombstone } from '../../shared/tombstone'
import type { Timers } from '../stores/timers'
import type { RecallSender } from '../wire/api'

/** Pauses before each check, ms: the first check runs at once; about 7.5 s in all. */
export const LANDING_DELAYS_MS: readonly number[] = [0, 500, 1000, 2000, 4000]

/**
 * True when a recall tombstone of this plugin that shadows `seq` is among `events` (the
 * replacement events of the loaded window).
 * @param events - replacement events (the plugin's replacement view).
 * @param seq - the recalled prompt's seq.
 */
export function recallInEvents(events: readonly LogEvent[], seq: number): boolean {
  return events.some((event) => {
    const tombstone = readTombstone(event)
    return tombstone !== null && tombstone.action === 'recall' && tombstone.shadowedSeqs.includes(seq)
  })
}

/**
 * True when an `inspect` summary holds a recall tombstone in effect that shadows `seq`.
 * @param summary - the live (or stored) summary.
 * @param seq - the recalled prompt's seq.
 */
export function recallInSummary(summary: LogSummary, seq: number): boolean {
  return summary.tombstones.some((tombstone) => tombstone.action === 'recall' && tombstone.inEffect && tombstone.shadowedSeqs.includes(seq))
}

/** What {@link recallLanded} reads. */
export interface LandingCheck {
  readonly sessionId: string
  /** The recalled prompt's seq. */
  readonly seq: number
  readonly send: RecallSender
  /** Reads the replacement view as it is now (it follows the session's history updates). */
  readonly inView: () => boolean
  readonly timers: Timers
  /** Default {@link LANDING_DELAYS_MS}. */
  readonly delaysMs?: readonly number[]
  /** Stop early (the overlay unmounted). */
  readonly cancelled?: () => boolean
}

/**
 * Decide whether a recall whose reply was lost took effect.
 * @param check - see {@link LandingCheck}.
 * @returns `true` once the tombstone is seen (view or `inspect`); `false` when two `inspect`
 *   answers, a pause apart, lack it (the host's live log, else its stored log; the pause lets a
 *   write still queued on the host land), when every check failed to reach the host, or when
 *   cancelled. Never rejects.
 */
export async function recallLanded(check: LandingCheck): Promise<boolean> {
  let absent = 0
  for (const delay of check.delaysMs ?? LANDING_DELAYS_MS) {
    if (delay > 0) await new Promise<void>((done) => check.timers.setTimeout(done, delay))
    if (check.cancelled?.() === true) return false
    if (check.inView()) return true
    const reply = await check.send({ sessionId: check.sessionId, action: 'inspect' })
    if (check.inView()) return true
    if (!reply.ok) continue
    const summary = reply.value.live ?? reply.value.disk
    if (summary === null) continue
    if (recallInSummary(summary, check.seq)) return true
    if (++absent === 2) return false
  }
  return false
}
