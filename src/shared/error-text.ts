/**
 * The message of a thrown value, for error messages and logs, in every half, and a message
 * without the host plugin's `message-recall: ` prefix.
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

/** The prefix every message of the host plugin starts with (its name). */
export const MESSAGE_PREFIX = 'message-recall: '

/**
 * A message without its leading `message-recall: `, for text that names the plugin already or
 * quotes the message inside another one.
 * @param message - a message of the host plugin, or any text.
 * @returns the message without the prefix (unchanged when it has none).
 */
export function withoutPrefix(message: string): string {
  return message.startsWith(MESSAGE_PREFIX) ? message.slice(MESSAGE_PREFIX.length) : message
}
