/**
 * The durability flush with retries. `ctx.sessions.flush(session)` (`dsh-session`
 * `SessionStore.flush`) rejects with the first persistence listener's failure, e.g. `ENOSPC` on a
 * full disk or `ENOTDIR` when the session folder went away; a transient failure often clears
 * within a fraction of a second. The write this flush follows is already in the live log, so a
 * failure is reported as "applied, not yet durable", never as "nothing changed".
 *
 * @module dsh-message-recall/host/durable-flush
 */
import { shortenPaths } from './shorten-paths'
import { errorText } from '../shared/error-text'

/** How often and how long to retry. */
export interface FlushRetryPolicy {
  /** Waits before the 2nd, 3rd, … attempt, in milliseconds (the attempt count is `length + 1`). */
  readonly backoffMs: readonly number[]
}

/** Default: four attempts over about 0.35 s. */
export const DEFAULT_FLUSH_RETRY: FlushRetryPolicy = Object.freeze({ backoffMs: Object.freeze([50, 100, 200]) })

/** Outcome of {@link flushWithRetry}. */
export type FlushOutcome =
  | { readonly ok: true; readonly persisted: boolean; readonly attempts: number }
  | { readonly ok: false; readonly attempts: number; readonly error: unknown; readonly reason: string }

/**
 * Flush, retrying with backoff while it rejects.
 * @param flush - one flush attempt (`() => ctx.sessions.flush(session)`); resolves `true` when a
 * persistence listener took part.
 * @param policy - the backoff schedule.
 * @returns `ok` with `persisted` after the first attempt that resolves, or the last error and its
 * message with absolute paths removed ({@link shortenPaths}).
 */
export async function flushWithRetry(flush: () => Promise<boolean>, policy: FlushRetryPolicy = DEFAULT_FLUSH_RETRY): Promise<FlushOutcome> {
  let attempts = 0
  for (;;) {
    attempts++
    try {
      return { ok: true, persisted: await flush(), attempts }
    } catch (error) {
      const wait = policy.backoffMs[attempts - 1]
      if (wait === undefined) return { ok: false, attempts, error, reason: shortenPaths(errorText(error)) }
      await new Promise((resolve) => setTimeout(resolve, wait))
    }
  }
}
