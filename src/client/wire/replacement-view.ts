/**
 * How the client reads tombstones: a conversation Definition plus a view target registered with
 * the rc.8 client runtime (`ctx.conversationEvents.register`, `ctx.conversationViews.register`;
 * contract in `dsh-client-runtime/lib/types/client/contract/conversation.d.ts`). The runtime runs
 * the Definition over the session's durable history (the loaded window, older pages as they load,
 * and every live event) and publishes the view beside the Chat target, so components read it with
 * `useSession(s => s.views.get(REPLACEMENT_VIEW))`. No list is kept by the plugin itself.
 *
 * The Definition matches every surface replacement (tombstones, compaction checkpoints, tool-result
 * prunes), because the replacements in the window also give the view's `replaceGeneration` and
 * newest seq. It keeps only the envelope fields and `data.source`, never message content. It copies
 * `sourceEventSeqs` from the raw event: `start()` receives the wire event unchanged
 * (`ConversationNodeAssembler.acceptMatch` in `dsh-client-runtime/lib/client.js` spreads the
 * `{ event, view }` input into the match).
 *
 * @module dsh-message-recall/client/wire/replacement-view
 */
import { isRecord, SURFACE_EVENT_TYPES, type LogEvent } from '../../shared/events'
import { isCheckpointEvent } from '../../shared/summary-rewrite'
import { readReplaceOp } from '../../shared/replace-op'
import type { ConversationNodeDefinition, ConversationViewDefinition, ConversationViewNode, SessionSnapshot } from './rc8'

/** View target name (also the key of `s.views.get`). */
export const REPLACEMENT_VIEW = 'dsh-message-recall'

/** Definition kind (unique among the runtime's Definitions). */
export const REPLACEMENT_KIND = 'dsh-message-recall-replacement'

/** The view snapshot: the replacement events of the loaded window, in seq order, frozen. */
export type ReplacementSnapshot = readonly LogEvent[]

/** Snapshot before any replacement was seen. */
export const EMPTY_REPLACEMENTS: ReplacementSnapshot = Object.freeze([])

const SURFACE_TYPES: ReadonlySet<string> = new Set(SURFACE_EVENT_TYPES)

/**
 * True when `event` replaced a surface range (rc.8 `isReplacementSurfaceEvent` with a well-formed
 * replace op).
 * @param event - a raw session event.
 * @returns true for a tombstone, a compaction checkpoint or a tool-result prune; false otherwise.
 */
export function isReplacementEvent(event: LogEvent): boolean {
  return SURFACE_TYPES.has(event.type) && readReplaceOp(event.surfaceOp) !== null
}

/**
 * The part of a replacement event the view keeps: envelope, replace op, `sourceEventSeqs` and
 * `data.source`; content is dropped, except a compaction checkpoint's (the summary the model
 * reads, which the Summary dialog shows).
 * @param event - a replacement event.
 * @returns a new frozen event record.
 */
export function replacementRecord(event: LogEvent): LogEvent {
  const source = isRecord(event.data) ? event.data.source : undefined
  // A compaction checkpoint keeps its content: the Summary button shows the summary the model reads.
  const content = isCheckpointEvent(event) && isRecord(event.data) ? event.data.content : undefined
  return Object.freeze({
    type: event.type,
    seq: event.seq,
    time: event.time,
    data: Object.freeze(content === undefined ? { source } : { source, content }),
    surfaceOp: event.surfaceOp,
    ...(Array.isArray(event.sourceEventSeqs) ? { sourceEventSeqs: Object.freeze([...event.sourceEventSeqs]) } : {}),
  })
}

/** The conversation Definition: one Context per replacement event, started by that event. */
export const replacementDefinition: ConversationNodeDefinition<LogEvent> = {
  kind: REPLACEMENT_KIND,
  target: REPLACEMENT_VIEW,
  match: (event) => (isReplacementEvent(event) ? { id: String(event.seq), role: 'start' } : null),
  start: (_context, match) => replacementRecord(match.event),
  update: (context) => context.state,
  publication: () => 'immediate',
  buildViewNode: (context) => context.state === undefined
    ? null
    : { key: context.key, kind: context.kind, id: context.id, target: REPLACEMENT_VIEW, data: context.state },
}

/** The view target: keeps the records by key and publishes them sorted by seq. */
export const replacementView: ConversationViewDefinition<ConversationViewNode, ReplacementSnapshot> = {
  target: REPLACEMENT_VIEW,
  create() {
    let byKey = new Map<string, LogEvent>()
    let snapshot: ReplacementSnapshot = EMPTY_REPLACEMENTS
    const publish = (): ReplacementSnapshot => {
      snapshot = Object.freeze([...byKey.values()].sort((a, b) => a.seq - b.seq))
      return snapshot
    }
    return {
      empty: EMPTY_REPLACEMENTS,
      replace({ nodes }) {
        byKey = new Map(nodes.map((node) => [node.key, node.data as LogEvent]))
        return publish()
      },
      apply({ upserts }) {
        // The runtime also calls apply for timeline-only changes; keep the identity then.
        if (upserts.length === 0) return snapshot
        for (const node of upserts) byKey.set(node.key, node.data as LogEvent)
        return publish()
      },
    }
  },
}

/**
 * Read the view from a session snapshot's view store.
 * @param value - `s.views.get(REPLACEMENT_VIEW)` (undefined before the target is registered).
 * @returns the replacement events, or {@link EMPTY_REPLACEMENTS}.
 */
export function readReplacements(value: unknown): ReplacementSnapshot {
  return Array.isArray(value) ? (value as ReplacementSnapshot) : EMPTY_REPLACEMENTS
}

/**
 * The `useSession` selector of the view: a session snapshot's replacement events.
 * @param s - the session snapshot.
 * @returns {@link readReplacements} of its view (stable until the view changes).
 */
export const selectReplacements = (s: SessionSnapshot): ReplacementSnapshot => readReplacements(s.views.get(REPLACEMENT_VIEW))
