/**
 * The transcript rows of a session rebuilt from its log alone, with the rc.8 row kinds and keys
 * the chat store uses (`dsh-client-runtime/lib/client.js` `conversationContextKey`:
 * `${kind.length}:${kind}${id}`, and the Definitions of `dsh-client-ui-conversation`), so that
 * `explain-session --rows` can run the client's own `deriveHiddenRows` over a log file.
 *
 * Rows, in log order of their anchor:
 * - `user` / `steering` / `context`: an append-origin `user/message` (`input-message<id>`);
 *   `user` when the person sent it in step 1 of a turn, `steering` when sent in a later step,
 *   `context` when the harness injected it (`source.kind !== 'user'`);
 * - `assistant-step`: a model step whose `assistant/message` has content other than tool calls
 *   (a message carrying only tool calls has no row of its own in rc.8);
 * - `tool-call`: an append-origin `tool/result`, anchored at its `tool/call` event;
 * - `turn-tail` for every `turn/end`, plus `turn-error` / `turn-max-tokens` for those endings;
 * - `model-retry` for `llm/retry`; `compaction` for a compaction checkpoint.
 *
 * The live chat store may hold rows this rebuild does not know (other plugins' kinds, rows of a
 * turn still running); the hiding rules do not depend on them. Pure and browser-safe.
 *
 * @module dsh-message-recall/log/log-rows
 */
import { isRecord, type LogEvent } from '../shared/events'
import type { TranscriptRow } from '../shared/hidden-rows'
import { readReplaceOp } from '../shared/replace-op'
import { classifyNode, contentOf, messageIdOf, stepOf, toolResultCallId } from '../shared/surface-node'

/** rc.8 row key: `${kind.length}:${kind}${id}`. */
export function rowKey(kind: string, id: string): string {
  return `${kind.length}:${kind}${id}`
}

/**
 * Rebuild the transcript rows of a log.
 * @param events - the whole log in seq order.
 * @returns rows in log order; see the module rules.
 */
export function transcriptRows(events: readonly LogEvent[]): TranscriptRow[] {
  const rows: TranscriptRow[] = []
  let turn: number | null = null
  let step = 0
  for (const event of events) {
    const data = isRecord(event.data) ? event.data : {}
    switch (event.type) {
      case 'turn/start':
        turn = typeof data.turn === 'number' ? data.turn : turn
        step = 0
        break
      case 'step/start':
        step = typeof data.step === 'number' ? data.step : step
        break
      case 'turn/end': {
        const ended = typeof data.turn === 'number' ? data.turn : turn
        const reason = isRecord(data.reason) ? data.reason.kind : undefined
        const id = String(ended)
        if (reason === 'error') rows.push({ key: rowKey('turn-error', id), rowKind: 'turn-error', seq: null, anchorSeq: event.seq, turn: ended })
        if (reason === 'max-tokens') rows.push({ key: rowKey('turn-max-tokens', id), rowKind: 'turn-max-tokens', seq: null, anchorSeq: event.seq, turn: ended })
        rows.push({ key: rowKey('turn-tail', id), rowKind: 'turn-tail', seq: null, anchorSeq: event.seq, turn: ended })
        turn = null
        break
      }
      case 'llm/retry': {
        const id = typeof data.retryId === 'string' ? data.retryId : String(event.seq)
        rows.push({ key: rowKey('model-retry', id), rowKind: 'model-retry', seq: null, anchorSeq: event.seq, turn })
        break
      }
      case 'user/message': {
        if (event.surfaceOp === 'append') {
          const rowKind = classifyNode(event) === 'user' ? (turn !== null && step > 1 ? 'steering' : 'user') : 'context'
          rows.push({ key: rowKey('input-message', messageIdOf(event) ?? String(event.seq)), rowKind, seq: event.seq, anchorSeq: event.seq, turn })
        } else if (readReplaceOp(event.surfaceOp) !== null && classifyNode(event) === 'checkpoint') {
          const source = isRecord(data.source) ? data.source : {}
          const id = typeof source.compactionId === 'string' ? source.compactionId : String(event.seq)
          rows.push({ key: rowKey('compaction', id), rowKind: 'compaction', seq: event.seq, anchorSeq: event.seq, turn })
        }
        break
      }
      case 'assistant/message': {
        if (event.surfaceOp !== 'append') break
        const key = stepOf(event)
        const visible = contentOf(event).some((block) => isRecord(block) && block.type !== 'tool-call')
        if (key !== null && visible) {
          rows.push({ key: rowKey('assistant-step', `${key.turn}:${key.step}`), rowKind: 'assistant-step', seq: event.seq, anchorSeq: event.seq, turn: key.turn })
        }
        break
      }
      case 'tool/result': {
        if (event.surfaceOp !== 'append') break
        const callId = toolResultCallId(event) ?? String(event.seq)
        const anchor = event.sourceEventSeqs?.[0] ?? event.seq
        rows.push({ key: rowKey('tool-call', callId), rowKind: 'tool-call', seq: event.seq, anchorSeq: anchor, turn: stepOf(event)?.turn ?? turn })
        break
      }
      default:
        break
    }
  }
  return rows
}
