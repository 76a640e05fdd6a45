/**
 * A rough, dependency-free token estimate for the messages a removal would take out of model
 * context, for the host's `plan` preview, the client's removed-messages panel and the editor's
 * counter (every half counts the same way). It is not the provider's tokenizer: it counts the
 * characters that reach the wire (text, reasoning, tool-call name and arguments, tool-result
 * text) and divides by four. Browser-safe.
 *
 * @module dsh-message-recall/shared/token-estimate
 */
import { isRecord } from './events'

/** Characters per estimated token. */
export const CHARS_PER_TOKEN = 4

function blockChars(block: unknown): number {
  if (!isRecord(block)) return 0
  switch (block.type) {
    case 'text':
    case 'reasoning':
      return typeof block.text === 'string' ? block.text.length : 0
    case 'tool-call':
      return (typeof block.name === 'string' ? block.name.length : 0) + (typeof block.arguments === 'string' ? block.arguments.length : 0)
    case 'tool-result':
      return Array.isArray(block.content) ? block.content.reduce((sum: number, inner) => sum + blockChars(inner), 0) : 0
    default:
      return 0
  }
}

/**
 * Estimate the tokens of some messages' content.
 * @param contents - the content block arrays of the messages.
 * @returns `ceil(characters / CHARS_PER_TOKEN)` over text-bearing blocks (UTF-16 code units);
 * images and unknown blocks count 0.
 */
export function estimateTokens(contents: Iterable<readonly unknown[]>): number {
  return tokensOfChars(countChars(contents))
}

/**
 * The characters {@link estimateTokens} counts, for a caller that sums them in parts.
 * @param contents - the content block arrays of the messages.
 * @returns the text-bearing characters (UTF-16 code units).
 */
export function countChars(contents: Iterable<readonly unknown[]>): number {
  let chars = 0
  for (const content of contents) for (const block of content) chars += blockChars(block)
  return chars
}

/**
 * @param chars - a sum of {@link countChars}.
 * @returns `ceil(chars / CHARS_PER_TOKEN)`.
 */
export function tokensOfChars(chars: number): number {
  return Math.ceil(chars / CHARS_PER_TOKEN)
}
