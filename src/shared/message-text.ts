/**
 * The one rule for the plain text of a message: its `text` content blocks joined without a
 * separator, as `dsh-llm-deepseek` flattens a user message for the model (`flattenText` in
 * `@deepseek-ai/dsh-llm-deepseek`, `lib/index.js`). The host uses it for the `text` of a recall
 * reply and the log tools for their previews; the client, for a recall reply without `text`.
 * Browser-safe, pure.
 *
 * @module dsh-message-recall/shared/message-text
 */
import { isRecord } from './events'

/**
 * Plain text of content blocks.
 * @param content - a message's content blocks (anything else in the array is skipped).
 * @returns the `text` of every `{ type: 'text', text }` block, in order, joined by `''`; `''` for none.
 */
export function plainText(content: readonly unknown[]): string {
  return content
    .filter((block): block is { type: 'text'; text: string } => isRecord(block) && block.type === 'text' && typeof block.text === 'string')
    .map((block) => block.text)
    .join('')
}
