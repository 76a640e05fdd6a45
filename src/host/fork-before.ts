/**
 * `forkBefore`: a new stored session holding the conversation exactly as it was before one of
 * this plugin's tombstones, the way back for what cannot be undone in place (a model step, a
 * delete onward, nested removals). The original session is not touched.
 *
 * The path follows what DSH's own turn-bar "Branch" does (`dsh-host-apiproxy` `sessions.fork`),
 * with the cut the plugin needs:
 * - `SessionStore.fork(source, boundary, childId)` (`dsh-session`) copies the source log up to
 *   and including `boundary` = the event just before the tombstone (tombstones are written
 *   between turns, so it never ends inside an open turn) and records `parentSession` and
 *   `seedLength` in the new session's header. The apiproxy's RPC cannot make this cut: it snaps
 *   to the end of a completed turn and takes every event up to the next `turn/start`, the
 *   tombstone included;
 * - the copy is created in a child fiber of the plugin, flushed, and the fiber disposed, so the
 *   copy is stored and not left live (a session left live in the plugin's fiber makes the UI's
 *   resume fail with "cannot prepare session … while it is live");
 * - like Branch, the copy gets its own `session/title` (a `user` title, as the web UI's fork
 *   rename writes): the title the conversation had at that point, marked as a copy;
 * - it joins the source's workspace (`ctx.workspaceRegistry`, `dsh-workspace`,
 *   `Workspace.attachSession`), so the sidebar lists it under the same workspace.
 *
 * @module dsh-message-recall/host/fork-before
 */
import { randomUUID } from 'node:crypto'
import type { Agent } from '@deepseek-ai/dsh-agent'
import type { Session, SessionId } from '@deepseek-ai/dsh-session'
import type { ForkBeforeValue } from '../shared/protocol'
import type { EventLookup } from './surface-plan'
import { isTombstoneEvent } from '../shared/tombstone'
import { flushWithRetry, type FlushRetryPolicy } from './durable-flush'
import type { SessionEventIndex } from './event-index'
import { MessageRecallError, type WriteRefusal } from './refusals'
import type { WriteOutcome } from './session-write'
import type { SessionAccess } from './stored-session'
import { appendTitle, fallbackTitle, titleBefore, type TitleLimits } from './title'
import { classifyNode, contentOf, plainText } from '../shared/surface-node'

/** A validated `forkBefore` request. */
export interface ForkBeforeRequest {
  readonly sessionId: string
  readonly tombstoneSeq: number
}

/** The part of `SessionStore` a fork uses, as seen from the child fiber. */
export interface ForkingStore {
  fork(source: Session, boundary: number, childId: SessionId): Session
  flush(session: Session): Promise<boolean>
}

/** The part of `ctx.workspaceRegistry` (`dsh-workspace` `WorkspaceRegistry`) a fork uses. */
export interface WorkspaceLookup {
  list(): readonly { readonly id: string; readonly sessionIds: readonly string[]; attachSession(id: SessionId): Promise<void> }[]
}

/** What `forkBefore` reaches. */
export interface ForkServices {
  readonly sessions: { get(id: SessionId): Session | undefined }
  readonly agents: { get(id: SessionId): Agent | undefined }
  readonly index: SessionEventIndex
  /** Reaches the source, live or stored (see `SessionAccess.use`). */
  readonly access: SessionAccess
  /**
   * Run `body` with the session store of a fresh child fiber of the plugin, and dispose the fiber
   * once `body` settled (so a session created there does not stay live).
   */
  inChildFiber<T>(body: (store: ForkingStore) => Promise<T>): Promise<T>
  /** The workspace registry when loaded. */
  workspaces(): WorkspaceLookup | undefined
  readonly titleLimits: () => TitleLimits
  readonly flushRetry?: FlushRetryPolicy
  warn(message: string): void
}

/** Suffix of a copy's title. */
export const COPY_TITLE_SUFFIX = ' (copy)'

/**
 * The title of a copy made before `tombstoneSeq`: the title in effect at that point, else the
 * first-prompt fallback of the copied part, with {@link COPY_TITLE_SUFFIX}; `null` when the
 * copied part has neither.
 */
export function copyTitle(tombstoneSeq: number, lookup: EventLookup, limits: TitleLimits): string | null {
  let base = titleBefore(tombstoneSeq, lookup)?.title
  for (let seq = 0; base === undefined && seq < tombstoneSeq; seq++) {
    const event = lookup(seq)
    if (event?.type !== 'user/message' || event.surfaceOp !== 'append' || classifyNode(event) !== 'user') continue
    const title = fallbackTitle(plainText(contentOf(event)), limits)
    if (title.length > 0) base = title
  }
  return base === undefined ? null : `${base}${COPY_TITLE_SUFFIX}`
}

/**
 * Make a copy of a session's conversation from before one of its tombstones; the session may be
 * live or only stored.
 * @param services - see {@link ForkServices}.
 * @param request - the source session and the tombstone seq.
 * @returns the new session's id, the boundary and its title, once stored; or `SESSION_NOT_LIVE`
 * (the source is neither live in this process nor stored) or `TARGET_NOT_FOUND` (no tombstone of this plugin at
 * that seq, current or shadowed).
 * @throws {@link MessageRecallError} `PERSIST_FAILED` (`applied: false`) when the copy could not be
 * stored, `INTERNAL` when the store refused the fork.
 */
export async function forkBefore(services: ForkServices, request: ForkBeforeRequest): Promise<WriteOutcome<ForkBeforeValue>> {
  // A stored session that is not live is entered for the fork and released afterwards.
  return services.access.use<ForkBeforeValue, WriteRefusal>(request.sessionId, (source) => forkFrom(services, source, request))
}

async function forkFrom(services: ForkServices, source: Session, request: ForkBeforeRequest): Promise<WriteOutcome<ForkBeforeValue>> {
  const lookup = services.index.lookup(source)
  const tombstone = lookup(request.tombstoneSeq)
  if (tombstone === undefined || !isTombstoneEvent(tombstone)) {
    const refusal: WriteRefusal = { code: 'TARGET_NOT_FOUND', tombstoneSeq: request.tombstoneSeq, reason: 'not-a-tombstone' }
    return { ok: false, refusal }
  }
  const boundarySeq = request.tombstoneSeq - 1
  const title = copyTitle(request.tombstoneSeq, lookup, services.titleLimits())
  const forkedSessionId = `session-${randomUUID()}`

  const persisted = await services.inChildFiber(async (store) => {
    let child: Session
    try {
      child = store.fork(source, boundarySeq, forkedSessionId as SessionId)
      if (title !== null) appendTitle(child, { title, messageSeqs: [], source: { kind: 'user' } })
    } catch (error) {
      throw new MessageRecallError('INTERNAL', `message-recall: could not fork session "${request.sessionId}" before tombstone seq ${request.tombstoneSeq}: ${error instanceof Error ? error.message : String(error)}`, { cause: error })
    }
    const flushed = await flushWithRetry(() => store.flush(child), services.flushRetry)
    if (!flushed.ok) {
      throw new MessageRecallError(
        'PERSIST_FAILED',
        `message-recall: the copy of session "${request.sessionId}" before tombstone seq ${request.tombstoneSeq} could not be stored: the durability flush failed ${flushed.attempts} times: ${flushed.reason}`,
        { cause: flushed.error, details: { applied: false } },
      )
    }
    return flushed.persisted
  })

  const workspace = services.workspaces()?.list().find((candidate) => candidate.sessionIds.includes(request.sessionId))
  if (workspace !== undefined) {
    try {
      await workspace.attachSession(forkedSessionId as SessionId)
    } catch (error) {
      // The copy is stored; it is listed as a loose session instead of under the workspace.
      services.warn(`message-recall: the copy "${forkedSessionId}" was stored but could not join workspace "${workspace.id}": ${error instanceof Error ? error.message : String(error)}`)
    }
  }
  return { ok: true, value: { action: 'forkBefore', tombstoneSeq: request.tombstoneSeq, forkedSessionId, boundarySeq, title, persisted } }
}
