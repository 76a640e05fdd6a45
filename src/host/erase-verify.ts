/**
 * The check an erased log passes before it replaces the stored one: event by event against the
 * log it was made from, over two event lists (both as rc.8's JSONL reader returned them).
 * - Same number of events; each with the same seq, type, time, surface op and `sourceEventSeqs`.
 * - Every event the erase did not rewrite is equal to the old one, field for field; a rewritten
 *   one (a carrier, or the tombstone with its erase mark) may differ only in `data`.
 * - The same surface: the new log's `Session` has the nodes `foldSurface` (`@deepseek-ai/dsh-session`)
 *   gives for the old one, and as many replacements.
 * - The invariants DSH's packages own: the new log is loaded under the session, compaction and
 *   agent-loop invariant companions (`invariant-load.ts`); a violation is the problem, with the
 *   companion's words.
 * - The same derived messages: that `Session` of the new log (created as DSH's persistence creates
 *   one, which validates every event's envelope, the seq contiguity and each surface transition)
 *   derives exactly the messages of the old log (`deriveEventMessage` over its fold, the rule
 *   `Session.deriveMessages` applies) (an erased message is off the surface, so none of them changes), but for
 *   the erase mark in a tombstone's `source` (`source.erased`; `dsh-llm-deepseek` sends no
 *   `source` to the provider).
 *
 * @module dsh-message-recall/host/erase-verify
 */
import { isDeepStrictEqual } from 'node:util'
import { sameJson } from '../shared/same-json'
import { deriveEventMessage, foldSurface, type SessionEvent, type SessionHeader } from '@deepseek-ai/dsh-session'
import { loadUnderInvariants } from './invariant-load'
import { errorText } from '../shared/error-text'

/** A derived message without the erase mark of its tombstone source (`source.erased`, which no provider request carries). */
function withoutEraseMark(message: unknown): unknown {
  const m = message as { source?: Record<string, unknown> }
  if (m.source === undefined || !('erased' in m.source)) return message
  const { erased: _erased, ...source } = m.source
  return { ...m, source }
}

/**
 * Check an erased log against the old one.
 * @param id - the session id.
 * @param before - the stored events.
 * @param after - the erased log's events, read back with DSH's own reader.
 * @param rewritten - seqs whose `data` the erase replaced (the carriers and the tombstone).
 * @param header - the new log's header as DSH's reader parsed it: the new log is then loaded as
 *   DSH loads a stored session (`seedSource: 'persistence'`, which takes the events over; pass
 *   fresh events), else as a snapshot (the events are copied).
 * @returns `null` when it passes, else the first difference or violation in words (no content quoted).
 */
export async function verifyErasedLog(id: string, before: readonly SessionEvent[], after: readonly SessionEvent[], rewritten: ReadonlySet<number>, header?: SessionHeader): Promise<string | null> {
  if (after.length !== before.length) return `the new log holds ${after.length} events, the old one ${before.length}`
  for (let i = 0; i < before.length; i++) {
    const a = before[i] as unknown as Record<string, unknown>
    const b = after[i] as unknown as Record<string, unknown>
    // The whole event first (one pass, the common case); the envelope only to name a difference.
    if (!rewritten.has(i) && sameJson(a, b)) continue
    for (const key of ['seq', 'type', 'time', 'surfaceOp', 'sourceEventSeqs'] as const) {
      if (!sameJson(a[key], b[key])) return `event ${i} differs in ${key}`
    }
    if (!rewritten.has(i)) return `event ${i} differs, and the erase did not rewrite it`
    const { data: _a, ...restA } = a
    const { data: _b, ...restB } = b
    if (!sameJson(restA, restB)) return `event ${i} differs outside its data`
  }
  let foldA: ReturnType<typeof foldSurface>
  try {
    foldA = foldSurface(before)
  } catch (error) {
    return `the old log does not fold: ${errorText(error)}`
  }
  // Loading the new log validates every envelope, the seq contiguity and each surface transition,
  // then runs the invariant companions over it.
  const load = await loadUnderInvariants(id, after, header)
  if (!load.ok) return load.problem
  const loaded = load.session
  if (!isDeepStrictEqual([...foldA.nodes], [...loaded.surface.nodes])) return 'the new log folds to another surface'
  if (foldA.replacements.length !== loaded.surface.replaceGeneration) return 'the new log folds with other replacements'
  // The old log is the stored one: its messages by DSH's per-node rule over its fold (what
  // `Session.deriveMessages` folds).
  const derivedA = JSON.stringify(foldA.nodes.map((seq) => deriveEventMessage(before[seq]!)).filter((m) => m !== null).map(withoutEraseMark))
  const derivedB = JSON.stringify(load.messages.map(withoutEraseMark))
  if (derivedA !== derivedB) return 'the new log derives other messages'
  return null
}
