/**
 * Pure: the compaction summary the model reads now, from a session's replacement events: the
 * checkpoint on the surface (a compaction checkpoint no later replacement shadowed) and its summary
 * text without DSH's framing (`dsh-compaction-basic` `frameSummary`: a preamble block ending with
 * `<compacted-summary>`, the summary blocks, a closing `</compacted-summary>` block).
 *
 * @module dsh-message-recall/client/panel/summary-text
 */
import { isRecord, type LogEvent } from '../../shared/events'
import { readFates } from '../../shared/fate'
import { isCheckpointEvent } from '../../shared/summary-rewrite'

/** The summary on the surface. */
export interface CurrentSummary {
  /** Seq of its checkpoint. */
  readonly checkpointSeq: number
  /** The summary's text (its text blocks joined by blank lines), without the framing. */
  readonly text: string
}

/**
 * The compaction summary on the surface.
 * @param replacements - the session's replacement events, in any order.
 * @returns the newest checkpoint that nothing shadowed, with its text, or `null` when there is none.
 */
export function currentSummary(replacements: readonly LogEvent[]): CurrentSummary | null {
  const fates = readFates(replacements)
  const checkpoint = [...replacements].sort((a, b) => b.seq - a.seq).find((e) => isCheckpointEvent(e) && fates.shadowerOf(e.seq) === null)
  if (checkpoint === undefined || !isRecord(checkpoint.data) || !Array.isArray(checkpoint.data.content)) return null
  const texts = (checkpoint.data.content as unknown[]).flatMap((b) => (isRecord(b) && b.type === 'text' && typeof b.text === 'string' ? [b.text] : []))
  const framed = texts.length >= 2 && texts[0]!.endsWith('<compacted-summary>') && texts.at(-1) === '</compacted-summary>'
  return { checkpointSeq: checkpoint.seq, text: (framed ? texts.slice(1, -1) : texts).join('\n\n').trim() }
}
