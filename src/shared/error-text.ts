/**
 * The message of a thrown value, for error messages and logs, in every half.
 *
 * @module dsh-message-recall/shared/error-text
 */

/**
 * The message of an unknown thrown value.
 * @param error - anything a `catch` or a rejection handler received.
 * @returns `error.message` for an `Error`, else `String(error)`.
 */
export function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error)
}
