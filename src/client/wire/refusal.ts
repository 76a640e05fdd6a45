/**
 * Which failures of a request are refusals: the host answered with a code that reports an outcome
 * (the request was refused and nothing was appended), as opposed to a failure whose outcome is
 * unknown. The codes are `ERROR_CODES` of `shared/protocol.ts`.
 *
 * @module dsh-message-recall/client/wire/refusal
 */
import { ERROR_CODES } from '../../shared/protocol'
import type { RecallErrorCode } from './api'

/** The route codes that report an outcome: the request was refused and nothing was appended. */
const REFUSALS: ReadonlySet<string> = new Set(ERROR_CODES.filter((code) => code !== 'PERSIST_FAILED' && code !== 'INTERNAL'))

/**
 * Whether an error code is a refusal (the host answered and appended nothing), as opposed to a
 * failure whose outcome is unknown: `NETWORK` (no reply, or not the route's JSON), `INTERNAL`,
 * `PERSIST_FAILED` and any code this build does not know.
 * @param code - the error's code.
 */
export function isRefusal(code: RecallErrorCode): boolean {
  return REFUSALS.has(code)
}
