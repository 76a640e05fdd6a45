/**
 * The `expect` every request carries: what this view has seen of the session's surface, so the
 * host answers `STALE_VIEW` instead of acting on a conversation the person is not looking at.
 *
 * - `lastSeq` (the wire name) carries the view's newest seq: the newest surface seq the view holds,
 *   from the durable seqs of every Chat node (hidden ones included, e.g. an assistant message that
 *   only carries tool calls) and every replacement event in the window. It is not the log's last
 *   seq: log-only events after it do not make a view stale.
 * - `replaceGeneration` counts the surface replacements (`SurfaceManager.replaceGeneration` in
 *   `dsh-session/lib/index.js` adds one per replace op). The view can count them only when it holds
 *   the whole log (`hasMore === false`), or from a baseline: the `replaceGeneration` the host
 *   reported at a seq (a plan's `lastSeq`, a write's `tombstoneSeq`), plus the replacements this
 *   view holds after that seq.
 *   Otherwise it is left out, and only `lastSeq` is checked.
 *
 * @module dsh-message-recall/client/rows/view-expectation
 */
import type { ViewExpectation } from '../../shared/protocol'
import { resolveRow } from './resolve-row'
import type { ChatSnapshot } from '../wire/rc8'
import type { ReplacementSnapshot } from '../wire/replacement-view'

export type { ViewExpectation }

/** A known generation at a seq: the host's `replaceGeneration` right after the tombstone `atSeq`. */
export interface GenerationBaseline {
  readonly replaceGeneration: number
  readonly atSeq: number
}

/**
 * Compute the expectation of a view.
 * @param chat - the session's Chat snapshot.
 * @param replacements - the replacement events of the window (seq order).
 * @param hasMore - older history exists outside the window.
 * @param baseline - last write result of this view, or `null`.
 * @returns `{ lastSeq, replaceGeneration? }` (`lastSeq`: the view's newest seq); `lastSeq` is absent only for an empty view.
 */
export function viewExpectation(
  chat: ChatSnapshot,
  replacements: ReplacementSnapshot,
  hasMore: boolean,
  baseline: GenerationBaseline | null,
): ViewExpectation {
  let newestSeq = -1
  for (const node of chat.nodes.values()) {
    const seq = resolveRow(node).seq
    if (seq !== null && seq > newestSeq) newestSeq = seq
  }
  for (const event of replacements) if (event.seq > newestSeq) newestSeq = event.seq

  let replaceGeneration: number | undefined
  if (!hasMore) replaceGeneration = replacements.length
  else if (baseline !== null) {
    replaceGeneration = baseline.replaceGeneration + replacements.filter((event) => event.seq > baseline.atSeq).length
  }
  return {
    ...(replaceGeneration === undefined ? {} : { replaceGeneration }),
    ...(newestSeq < 0 ? {} : { lastSeq: newestSeq }),
  }
}
