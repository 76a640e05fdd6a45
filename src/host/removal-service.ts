/**
 * The removal request service: runs the tombstone writer through the write runner
 * (`session-write.ts`: this plugin's queue, the session's one writer — the agent's maintenance slot
 * when an agent drives the session, `agent.runMaintenance` in `dsh-agent-loop`, or the plugin's own
 * hold of a stored session — and the durability flush before the reply), and previews a removal
 * without writing. The write, the stored-session precheck and the preview plan alike
 * (`view-plans.ts`). A Recall, Delete or Exclude of a message a compaction already folded goes to
 * the summary rewrite instead (`summary-rewrite.ts`), which plans with `folded-plan.ts`; a Delete
 * onward of one goes to `summary-batch.ts` (the summary rewritten and every message after it removed, in one step).
 *
 * @module dsh-message-recall/host/removal-service
 */
import type { Agent } from '@deepseek-ai/dsh-agent'
import type { SessionId } from '@deepseek-ai/dsh-session'
import type { LogEvent } from '../shared/events'
import type { PlanValue, RemovalValue } from '../shared/protocol'
import { contentOf } from '../shared/surface-node'
import type { SessionEventIndex } from './event-index'
import { needsAgent, type Outcome } from './refusals'
import { estimateTokens } from '../shared/token-estimate'
import { viewOfSession } from './session-view'
import type { EventLookup } from './surface-plan'
import { writeTombstone } from './tombstone-writer'
import { planRemovalOnView, type RemovalIntent } from './view-plans'
import { runSessionWrite, type SessionWriteServices } from './session-write'
import type { WriteEffects } from './write-effects'
import { planFoldedOnView, rewriteSummary, type CompactionSummarizer, type FoldedRemovalValue } from './summary-rewrite'
import type { MessagePricer } from './shadow-price'
import type { FoldedPlan, FoldedTail } from './folded-plan'
import { ACTIONS } from '../shared/actions'
import { deleteOnwardFolded, planMixedOnView, singleRefusal } from './summary-batch'
import type { SessionView } from './session-view'

/** What the removal service reaches: the session write services, the event index, the tombstone text and the write effects. */
export interface RemovalServices extends SessionWriteServices {
  readonly index: SessionEventIndex
  /** Text of the tombstone's single text block; `''` writes empty content. */
  readonly tombstoneText: string
  /** The token meter and title limits, read at request time; absent: no price, no title rebuild. */
  readonly effects?: () => WriteEffects
  /** The compaction service serving an agent, at request time, for a removal of folded messages; absent: none is loaded. */
  readonly summarizer?: (agent: Agent) => CompactionSummarizer | undefined
}

/**
 * The folded plan of a removal by seq on a view, or `null` when its target is not folded (a target
 * on the surface never is); `summary-rewrite.ts` `planFoldedOnView`'s outcome otherwise. A Delete onward's folded plan is only its folded part: its `expect` is
 * checked where the whole (folded part and tail) is known, `summary-batch.ts` `planMixedOnView`,
 * so it is left out here (a confirmed count of the whole would never match the folded part).
 * @param view - the session's view.
 * @param intent - the removal, by seq.
 * @returns the folded plan or its refusal, or `null`.
 */
export function foldedPlan(view: SessionView, intent: RemovalIntent): ReturnType<typeof planFoldedOnView> {
  if (!('seq' in intent.target) || view.nodes.includes(intent.target.seq)) return null
  const expect = intent.expect === undefined || ACTIONS[intent.action].plans === 'onward' ? {} : { expect: intent.expect }
  return planFoldedOnView(view, { action: intent.action, seq: intent.target.seq, ...expect })
}

/**
 * Remove messages from a session, live or stored: as its one writer, write the tombstone, and
 * answer after the durability flush.
 * @param services - sessions, agents, the event index, the session access and the tombstone text.
 * @param intent - the validated removal.
 * @returns the removal value once durable (`persisted` tells whether a persistence listener
 * took part), or `SESSION_NOT_LIVE` (neither live nor stored; or, `reason: 'needs-agent'`, a folded
 * target on a session no agent drives), `AGENT_BUSY`, `STALE_VIEW` or a planner refusal; nothing
 * is appended on any refusal.
 * @throws {@link MessageRecallError} `PERSIST_FAILED` when the flush rejected (the tombstone is in
 * the live log but not known to be durable), `INTERNAL` when the Session refused the append.
 */
export async function removeMessages(services: RemovalServices, intent: RemovalIntent, signal?: AbortSignal): Promise<Outcome<RemovalValue | FoldedRemovalValue>> {
  // Only a session an agent drives can rewrite a summary (the summary is made with its model), and
  // only a target off the surface can be folded: the common case costs one look at the surface.
  const agent = services.agents.get(intent.sessionId as SessionId)
  if ('seq' in intent.target && agent !== undefined && !agent.session.surface.nodes.includes(intent.target.seq)) {
    const view = viewOfSession(agent.session, services.index.lookup(agent.session), 'agent')
    if (foldedPlan(view, intent) !== null) {
      const summarizer = services.summarizer ?? (() => undefined)
      if (ACTIONS[intent.action].plans === 'onward') {
        return deleteOnwardFolded({ ...services, summarizer }, { sessionId: intent.sessionId, seq: intent.target.seq, ...(intent.expect === undefined ? {} : { expect: intent.expect }) }, signal)
      }
      const meter = () => services.effects?.().meter as MessagePricer | undefined
      return rewriteSummary({ ...services, summarizer: services.summarizer ?? (() => undefined), meter }, { sessionId: intent.sessionId, action: intent.action, seq: intent.target.seq, ...(intent.expect === undefined ? {} : { expect: intent.expect }) }, signal)
    }
  }
  return runSessionWrite<RemovalValue>(
    services,
    intent.sessionId,
    (session, origin) => {
      const lookup = (): EventLookup => services.index.lookup(session)
      // A folded target needs a summary rewrite, which needs the session's agent (taken above when there is one).
      if (origin !== 'agent' && foldedPlan(viewOfSession(session, lookup(), origin), intent) !== null) return { ok: false, refusal: needsAgent(intent.sessionId) }
      const written = writeTombstone(session, viewOfSession(session, lookup(), origin), intent, services.tombstoneText, services.effects?.(), lookup)
      if (!written.ok) return written
      const { value } = written
      const recalled = value.content !== undefined && value.text !== undefined ? { content: value.content, text: value.text } : undefined
      return { ok: true, value, seq: written.event.seq, ...(recalled === undefined ? {} : { recalled }) }
    },
    {
      maintenance: true,
      precheck: (view) => {
        if (foldedPlan(view, intent) !== null) return needsAgent(intent.sessionId)
        const planned = planRemovalOnView(view, intent)
        return planned.ok ? null : planned.refusal
      },
    },
  )
}

/**
 * Preview a removal: the same plan a write would make now, with a token estimate; appends nothing.
 * @param services - the session access (live, or stored and read without entering it).
 * @param intent - the validated request (its `action` is the `planAction`).
 * @returns the plan value, or `SESSION_NOT_LIVE` (neither live nor stored), `STALE_VIEW` or a planner refusal.
 */
export async function previewRemoval(services: Pick<RemovalServices, 'access'>, intent: RemovalIntent): Promise<Outcome<PlanValue>> {
  const read = await services.access.read(intent.sessionId)
  if (!read.ok) return read
  const view = read.value
  const folded = foldedPlan(view, intent)
  if (folded !== null && ACTIONS[intent.action].plans === 'onward' && 'seq' in intent.target) {
    // The folded part and the tail, planned as the write plans them.
    const mixed = planMixedOnView(view, { changes: [{ action: 'deleteFrom', seq: intent.target.seq }], ...(intent.expect === undefined ? {} : { expect: intent.expect }) })
    if (!mixed.ok) return { ok: false, refusal: singleRefusal(mixed.refusal) }
    return { ok: true, value: foldedPreview(view, intent, mixed.value.folded.plan, mixed.value.tail?.range ?? null) }
  }
  if (folded !== null) return folded.ok ? { ok: true, value: foldedPreview(view, intent, folded.value, null) } : folded
  const planned = planRemovalOnView(view, intent)
  if (!planned.ok) return planned
  const plan = planned.value
  const contents = plan.shadowedSeqs.map((seq) => contentOf(view.lookup(seq) as LogEvent))
  return {
    ok: true,
    value: {
      action: intent.action,
      range: { start: plan.start, end: plan.end },
      shadowedSeqs: plan.shadowedSeqs,
      nodeKinds: plan.nodeKinds,
      removedCount: plan.nodeKinds.filter((kind) => kind !== 'tombstone').length,
      estimatedTokens: estimateTokens(contents),
      ...(plan.stepKey === null ? {} : { turn: plan.stepKey.turn, step: plan.stepKey.step }),
      replaceGeneration: view.replaceGeneration,
      lastSeq: view.lastSeq,
    },
  }
}

/**
 * The preview of a removal of folded messages: the checkpoint it replaces, the messages it takes,
 * and what the summary rewrite sends the model.
 * @param view - the session's view.
 * @param intent - the removal.
 * @param plan - its folded plan.
 * @param tail - a Delete onward's messages after the checkpoint (`folded-plan.ts` `foldedTail`), or `null`.
 * @returns the plan value with `summaryRewrite` (see `PlanValue`); `removedCount` counts the tail's messages too.
 */
function foldedPreview(view: SessionView, intent: RemovalIntent, plan: FoldedPlan, tail: FoldedTail | null): PlanValue {
  const tailRemoved = tail === null ? [] : tail.shadowedSeqs.filter((_, i) => tail.nodeKinds[i] !== 'tombstone')
  const removed = [...plan.removedSeqs, ...tailRemoved].map((seq) => contentOf(view.lookup(seq) as LogEvent))
  const kept = plan.keptSeqs.map((seq) => contentOf(view.lookup(seq) as LogEvent))
  return {
    action: intent.action,
    range: { start: plan.checkpointSeq, end: tail?.end ?? plan.checkpointSeq },
    shadowedSeqs: [plan.checkpointSeq, ...(tail?.shadowedSeqs ?? [])],
    nodeKinds: ['checkpoint', ...(tail?.nodeKinds ?? [])],
    removedCount: plan.removedSeqs.length + tailRemoved.length,
    estimatedTokens: estimateTokens(removed),
    replaceGeneration: view.replaceGeneration,
    lastSeq: view.lastSeq,
    summaryRewrite: { checkpointSeq: plan.checkpointSeq, removedSeqs: plan.removedSeqs, inputMessages: plan.keptSeqs.length, estimatedInputTokens: estimateTokens(kept) },
  }
}
