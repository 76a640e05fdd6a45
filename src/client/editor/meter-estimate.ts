/**
 * One message priced as `dsh-token-meter` prices it (its `lib/index.js` `estimateMessage` over
 * `estimateContent`: ⌈characters ÷ 4⌉ per text and reasoning block, per tool-call name and per
 * tool-call arguments, a block's JSON for other blocks, plus 4 per block and 4 per message), for
 * the editor's costs where the page has the meter. The meter's estimator is not exported to the
 * browser, so its rule is written here once; a test compares it with the real one. Browser-safe.
 *
 * @module dsh-message-recall/client/editor/meter-estimate
 */
import { isRecord } from '../../shared/events'

/** Characters per token and the per-block and per-message overheads of `dsh-token-meter`'s estimator. */
const METER_CHARS_PER_TOKEN = 4
const METER_BLOCK_OVERHEAD = 4
const METER_MESSAGE_OVERHEAD = 4

function meterBlocks(blocks: readonly unknown[]): number {
  let tokens = 0
  for (const block of blocks) {
    if (!isRecord(block)) continue
    switch (block.type) {
      case 'text':
      case 'reasoning':
        tokens += Math.ceil((typeof block.text === 'string' ? block.text.length : 0) / METER_CHARS_PER_TOKEN) + METER_BLOCK_OVERHEAD
        break
      case 'tool-call':
        tokens += Math.ceil((typeof block.name === 'string' ? block.name.length : 0) / METER_CHARS_PER_TOKEN)
          + Math.ceil((typeof block.arguments === 'string' ? block.arguments.length : 0) / METER_CHARS_PER_TOKEN) + METER_BLOCK_OVERHEAD
        break
      case 'tool-result':
        tokens += meterBlocks(Array.isArray(block.content) ? block.content : []) + METER_BLOCK_OVERHEAD
        break
      default:
        tokens += METER_BLOCK_OVERHEAD + Math.ceil(JSON.stringify(block).length / METER_CHARS_PER_TOKEN)
    }
  }
  return tokens
}

/**
 * One message priced as `dsh-token-meter` prices it (`lib/index.js` `estimateMessage` over
 * `estimateContent`), from its content blocks.
 * @param content - the message's content blocks.
 * @returns the meter's heuristic tokens for the message (content, block overheads, role framing).
 */
export function meterMessageTokens(content: readonly unknown[]): number {
  return meterBlocks(content) + METER_MESSAGE_OVERHEAD
}
