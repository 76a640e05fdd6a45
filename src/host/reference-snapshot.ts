/**
 * The session-reference snapshot a prompt caused, found on the surface so that it goes with the
 * prompt when the prompt is recalled, deleted or excluded. Pure: reads surface nodes and events by
 * seq, no `Session`, no I/O.
 *
 * How rc.8 writes a snapshot (`dsh-session-reference`, `SessionReferenceResolver`, its
 * `agent/pre-step` listener and `prepareDirectMessages`): when a message the person sent carries
 * `@[label](dsh-session:…)` mentions, the resolver replaces each mention by `@label` in the message
 * and places one aggregated snapshot, a `user/message` with `source.kind: 'session-reference'`,
 * immediately after it in the step's messages; the agent loop (`dsh-agent-loop`, `AgentLoop.turn`)
 * appends them in that order, so the snapshot's seq is the prompt's seq + 1. The snapshot is
 * written once and never re-injected. The rc.8 web client pairs them the same way
 * (`dsh-client-ui-conversation`, `ReferenceLabelProjector`: the recall event that immediately
 * follows a message).
 *
 * Both being on the surface means they sit side by side there: every replace covers one
 * contiguous range and takes each node in it off the surface, and a restoring copy of the prompt
 * takes the place of a tombstone that shadowed the prompt alone. So the snapshot is looked for
 * only in the position right after the prompt; when it is not there, it is no longer on the
 * surface (already removed, compacted or replaced) and nothing goes with the prompt.
 *
 * @module dsh-message-recall/host/reference-snapshot
 */
import type { LogEvent } from '../shared/events'
import { readReplaceOp } from '../shared/replace-op'
import { classifyNode } from '../shared/surface-node'

/**
 * The seq of the message the person originally sent that a surface node of kind `user` stands
 * for: its own seq, or, for a restoring copy (a replace citing `[tombstone, original]`), the
 * original's, followed through copies of copies.
 * @param event - a surface node of kind `user`.
 * @param lookup - one event by seq over the session's log.
 * @returns the seq of the first `user/message` of the chain that is not a restoring copy.
 */
export function originalPromptSeq(event: LogEvent, lookup: (seq: number) => LogEvent | undefined): number {
  let current = event
  // Each step goes to a strictly lower seq, so the walk ends.
  for (;;) {
    const cited = current.sourceEventSeqs
    if (readReplaceOp(current.surfaceOp) === null || cited?.length !== 2) return current.seq
    const original = lookup(cited[1] as number)
    if (original === undefined || original.seq >= current.seq || classifyNode(original) !== 'user') return current.seq
    current = original
  }
}

/**
 * Position of the session-reference snapshot the prompt at `promptIdx` caused, when it is still on
 * the surface.
 * @param nodes - surface node seqs in surface order.
 * @param lookup - one event by seq over the session's log.
 * @param promptIdx - position of a node of kind `user` in `nodes`.
 * @returns `promptIdx + 1` when the node there is a session-reference snapshot whose seq is the
 * original prompt's seq + 1; otherwise -1.
 */
export function snapshotCitedBy(nodes: readonly number[], lookup: (seq: number) => LogEvent | undefined, promptIdx: number): number {
  const next = promptIdx + 1
  if (next >= nodes.length) return -1
  const candidate = lookup(nodes[next] as number)
  const prompt = lookup(nodes[promptIdx] as number)
  if (candidate === undefined || prompt === undefined || classifyNode(candidate) !== 'reference') return -1
  return candidate.seq === originalPromptSeq(prompt, lookup) + 1 ? next : -1
}
