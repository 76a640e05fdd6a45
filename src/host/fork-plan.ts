/**
 * The plan of a `forkBefore`, pure: where the copy is cut and what its new session is created
 * with. The copy is created like `SessionStore.fork` creates a child (`dsh-session`): a new
 * session seeded with the source log up to and including `boundary` = the event just before the
 * tombstone (tombstones are written between turns, so it never ends inside an open turn), with
 * `cwd`, `parentSession` and `seedLength` in its header. DSH's own Branch (`dsh-host-apiproxy`
 * `session.fork`) cannot make this cut: it snaps to the end of a completed turn and takes every
 * event up to the next `turn/start`, the tombstone included. The header also names the source's
 * agent preset, as the apiproxy's fork does (`meta.agentPreset`), so that opening the copy
 * composes the same agent; `SessionStore.fork` itself drops the field.
 *
 * @module dsh-message-recall/host/fork-plan
 */
import type { CreateSessionOptions, SessionEvent, SessionHeader } from '@deepseek-ai/dsh-session'
import { isRecord, type LogEvent } from '../shared/events'
import { isTombstoneEvent } from '../shared/tombstone'
import { readRewriteCheckpoint } from '../shared/summary-rewrite'
import type { ForkSource } from './fork-source'
import type { RestoreTargetNotFoundRefusal } from './restore-plan'
import { erasedThrough } from '../log/log-erase'
import { readFates } from '../shared/fate'

/** What a copy is created with (`SessionStore.create(id, { seed, meta })`). */
export interface ForkPlan {
  /** Seq of the last event copied: the one just before the tombstone. */
  readonly boundarySeq: number
  /** The source's events `0 … boundarySeq`. */
  readonly seed: readonly SessionEvent[]
  /** The copy's header fields: the source's `cwd`, `parentSession`, `seedLength`, and the source's agent preset. */
  readonly meta: NonNullable<CreateSessionOptions['meta']>
}

/** `forkBefore` refused before anything is made: no tombstone of this plugin at that seq (current or shadowed). */
export type ForkRefusal = RestoreTargetNotFoundRefusal & { readonly reason: 'not-a-tombstone' | 'erased' }

/** The cut would end inside an open turn (`SessionStore.fork`'s `OPEN_TURN`); the log breaks the rule that tombstones sit between turns. */
export interface OpenTurnBoundary {
  readonly code: 'OPEN_TURN'
  readonly boundarySeq: number
}

/** The plan, or why there is none. */
export type ForkPlanOutcome = { readonly ok: true; readonly plan: ForkPlan } | { readonly ok: false; readonly refusal: ForkRefusal | OpenTurnBoundary }

/**
 * The agent preset a session runs, as `dsh-agent-presets` `resolveSessionPreset` reads it: the
 * newest `agent-preset/selected` event's `agentPreset`, else the header's `agentPreset`.
 * @param session - its header and log.
 * @returns the preset id, or `undefined` when the session records none.
 */
export function sessionPreset(session: { readonly header: SessionHeader; readonly events: readonly SessionEvent[] }): string | undefined {
  for (let at = session.events.length - 1; at >= 0; at--) {
    // A type the session's event map does not name (`dsh-agent-presets` adds it to the log).
    const event = session.events[at] as unknown as LogEvent
    if (event.type === 'agent-preset/selected' && isRecord(event.data) && typeof event.data.agentPreset === 'string') return event.data.agentPreset
  }
  return session.header.agentPreset
}

/**
 * Plan a copy of `source` from before its tombstone at `tombstoneSeq`.
 * @param source - the source's header and log (read at once: a live log grows).
 * @param tombstoneSeq - seq of a tombstone of this plugin, current or shadowed, or of a summary
 *   rewrite's checkpoint (`shared/summary-rewrite.ts`), whose copy is cut before its
 *   `compaction/start` (the first seq it cites), so the copy holds no open bracket.
 * @returns the plan; `TARGET_NOT_FOUND` (`not-a-tombstone`) when no tombstone of this plugin is at
 * that seq, (`erased`) when its removal was erased for good (itself or through one that absorbed it); `OPEN_TURN` when the event before it lies inside an open turn.
 */
export function planFork(source: ForkSource, tombstoneSeq: number): ForkPlanOutcome {
  const tombstone = source.lookup(tombstoneSeq)
  const rewrite = tombstone !== undefined && readRewriteCheckpoint(tombstone) !== null
  if (tombstone === undefined || (!rewrite && !isTombstoneEvent(tombstone))) return { ok: false, refusal: { code: 'TARGET_NOT_FOUND', tombstoneSeq, reason: 'not-a-tombstone' } }
  // A copy from before an erased removal would hold the erase marker where its messages were.
  if (!rewrite && erasedThrough(source.events as readonly LogEvent[], readFates(source.events as readonly LogEvent[]), tombstoneSeq)) {
    return { ok: false, refusal: { code: 'TARGET_NOT_FOUND', tombstoneSeq, reason: 'erased' } }
  }
  const boundarySeq = (rewrite ? tombstone.sourceEventSeqs?.[0] ?? tombstoneSeq : tombstoneSeq) - 1
  const seed = source.events.slice(0, boundarySeq + 1)
  const lastTurnMark = seed.findLast((event) => event.type === 'turn/start' || event.type === 'turn/end')
  if (lastTurnMark?.type === 'turn/start') return { ok: false, refusal: { code: 'OPEN_TURN', boundarySeq } }
  const agentPreset = sessionPreset(source)
  const meta: ForkPlan['meta'] = {
    ...(source.header.cwd === undefined ? {} : { cwd: source.header.cwd }),
    parentSession: source.header.id,
    seedLength: seed.length,
    ...(agentPreset === undefined ? {} : { agentPreset }),
  }
  return { ok: true, plan: { boundarySeq, seed, meta } }
}
