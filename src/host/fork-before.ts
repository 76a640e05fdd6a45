/**
 * `forkBefore`: a new stored session holding the conversation exactly as it was before one of
 * this plugin's tombstones, the way back for what cannot be undone in place (a model step, a
 * delete onward, nested removals). The original session is not touched.
 *
 * The path follows what DSH's own turn-bar "Branch" does (`dsh-host-apiproxy` `session.fork`),
 * with the cut the plugin needs:
 * - the copy is created like `SessionStore.fork` creates a child (`dsh-session`): a new session
 *   seeded with the source log up to and including `boundary` = the event just before the
 *   tombstone (tombstones are written between turns, so it never ends inside an open turn),
 *   with `cwd`, `parentSession` and `seedLength` in its header. The apiproxy's RPC cannot make
 *   this cut: it snaps to the end of a completed turn and takes every event up to the next
 *   `turn/start`, the tombstone included;
 * - the header also names the source's agent preset, as the apiproxy's fork does
 *   (`meta.agentPreset`), so that opening the copy composes the same agent: the preset a session
 *   runs is its newest `agent-preset/selected` event, else its header's `agentPreset`
 *   (`dsh-agent-presets` `resolveSessionPreset`), and the apiproxy mounts that preset when it
 *   resumes a stored session. `SessionStore.fork` itself drops the field;
 * - the copy is created in a child fiber of the plugin, flushed, and the fiber disposed, so the
 *   copy is stored and not left live (a session left live in the plugin's fiber makes the UI's
 *   resume fail with "cannot prepare session … while it is live");
 * - like Branch, the copy gets its own `session/title` (a `user` title, as the web UI's fork
 *   rename writes): the title the conversation had at that point, marked as a copy with the
 *   next copy number no other session's title uses (see `copy-title`, `session-titles`);
 *   copies are made one at a time, so two at once never pick the same number;
 * - it joins the workspace of its source (`ctx.workspaceRegistry`, `dsh-workspace`,
 *   `Workspace.attachSession`), so the sidebar lists it under the same workspace. A subagent
 *   session (header `origin: 'subagent'`) is usually in no workspace itself: then the copy joins
 *   the workspace of its nearest ancestor that is in one, following `parentSession`, as the
 *   apiproxy's fork resolves it (`forkWorkspace` over `dsh-session-query` `traceSession`).
 *
 * @module dsh-message-recall/host/fork-before
 */
import { randomUUID } from 'node:crypto'
import type { Agent } from '@deepseek-ai/dsh-agent'
import type { CreateSessionOptions, Session, SessionEvent, SessionHeader, SessionId } from '@deepseek-ai/dsh-session'
import type { ForkBeforeValue } from '../shared/protocol'
import type { EventLookup } from './surface-plan'
import { isRecord, type LogEvent } from '../shared/events'
import { isTombstoneEvent } from '../shared/tombstone'
import { nextCopyTitle } from './copy-title'
import { flushWithRetry, type FlushRetryPolicy } from './durable-flush'
import type { SessionEventIndex } from './event-index'
import { MessageRecallError, type WriteRefusal } from './refusals'
import type { Outcome } from './refusals'
import { sessionTitles, type TitleSources } from './session-titles'
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
  create(id: SessionId, options: CreateSessionOptions): Session
  flush(session: Session): Promise<boolean>
}

/** One workspace as a fork sees it (`dsh-workspace` `Workspace`). */
export interface ForkWorkspace {
  readonly id: string
  readonly sessionIds: readonly string[]
  attachSession(id: SessionId): Promise<void>
}

/** The part of `ctx.workspaceRegistry` (`dsh-workspace` `WorkspaceRegistry`) a fork uses. */
export interface WorkspaceLookup {
  list(): readonly ForkWorkspace[]
}

/** The sessions a fork looks across: for the titles in use and for a subagent's ancestors. */
export interface SessionCatalog extends Omit<TitleSources, 'warn' | 'live'> {
  /** The live sessions (`SessionStore.list`). */
  readonly live: () => readonly { readonly id: SessionId; readonly header: SessionHeader; readonly events: readonly SessionEvent[] }[]
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
  /** Live and stored sessions, and the projection cache when loaded. */
  readonly catalog: SessionCatalog
  readonly titleLimits: () => TitleLimits
  readonly flushRetry?: FlushRetryPolicy
  warn(message: string): void
}

/**
 * The title of a copy made before `tombstoneSeq`, before numbering: the title in effect at that
 * point, else the first-prompt fallback of the copied part; `null` when the copied part has
 * neither. The copy's title is {@link nextCopyTitle} of it.
 */
export function copiedTitle(tombstoneSeq: number, lookup: EventLookup, limits: TitleLimits): string | null {
  let base = titleBefore(tombstoneSeq, lookup)?.title
  for (let seq = 0; base === undefined && seq < tombstoneSeq; seq++) {
    const event = lookup(seq)
    if (event?.type !== 'user/message' || event.surfaceOp !== 'append' || classifyNode(event) !== 'user') continue
    const title = fallbackTitle(plainText(contentOf(event)), limits)
    if (title.length > 0) base = title
  }
  return base ?? null
}

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
 * The workspace a copy of `source` joins: the one that lists `source`; for a subagent session
 * that none lists, the one that lists its nearest ancestor (`parentSession`, read from the live
 * session or its stored header).
 * @returns the workspace, or `undefined` (the copy stays a loose session).
 */
async function workspaceOf(services: ForkServices, source: Session): Promise<ForkWorkspace | undefined> {
  const workspaces = services.workspaces()?.list()
  if (workspaces === undefined) return undefined
  const holding = (id: string) => workspaces.find((workspace) => workspace.sessionIds.includes(id))
  const direct = holding(source.id)
  if (direct !== undefined || source.header.origin !== 'subagent') return direct
  const headers = new Map<string, SessionHeader>()
  for (const session of services.catalog.live()) headers.set(session.id, session.header)
  for (const header of (await services.catalog.stored()?.list()) ?? []) if (!headers.has(header.id)) headers.set(header.id, header)
  const seen = new Set<string>([source.id])
  for (let parent = source.header.parentSession; parent !== undefined && !seen.has(parent); parent = headers.get(parent)?.parentSession) {
    seen.add(parent)
    const workspace = holding(parent)
    if (workspace !== undefined) return workspace
  }
  return undefined
}

/** Per plugin instance (keyed by its event index): the end of the chain of copies being made. */
const copying = new WeakMap<object, Promise<unknown>>()

/** Run `task` after every copy this plugin instance is already making (copy numbers are chosen against the stored titles). */
function oneCopyAtATime<T>(key: object, task: () => Promise<T>): Promise<T> {
  const result = (copying.get(key) ?? Promise.resolve()).then(task)
  copying.set(key, result.catch(() => undefined))
  return result
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
 * stored, `INTERNAL` when the store refused the copy.
 */
export async function forkBefore(services: ForkServices, request: ForkBeforeRequest): Promise<Outcome<ForkBeforeValue>> {
  // A stored session that is not live is entered for the fork and released afterwards.
  return services.access.use<ForkBeforeValue, WriteRefusal>(request.sessionId, (source) => forkFrom(services, source, request))
}

async function forkFrom(services: ForkServices, source: Session, request: ForkBeforeRequest): Promise<Outcome<ForkBeforeValue>> {
  const lookup = services.index.lookup(source)
  const tombstone = lookup(request.tombstoneSeq)
  if (tombstone === undefined || !isTombstoneEvent(tombstone)) {
    const refusal: WriteRefusal = { code: 'TARGET_NOT_FOUND', tombstoneSeq: request.tombstoneSeq, reason: 'not-a-tombstone' }
    return { ok: false, refusal }
  }
  const boundarySeq = request.tombstoneSeq - 1
  const limits = services.titleLimits()
  const base = copiedTitle(request.tombstoneSeq, lookup, limits)
  const seed = source.events.slice(0, boundarySeq + 1)
  const agentPreset = sessionPreset(source)
  const meta: CreateSessionOptions['meta'] = {
    ...(source.header.cwd === undefined ? {} : { cwd: source.header.cwd }),
    parentSession: source.id,
    seedLength: seed.length,
    ...(agentPreset === undefined ? {} : { agentPreset }),
  }
  const forkedSessionId = `session-${randomUUID()}`
  const failed = (error: unknown): MessageRecallError =>
    new MessageRecallError('INTERNAL', `message-recall: could not fork session "${request.sessionId}" before tombstone seq ${request.tombstoneSeq}: ${error instanceof Error ? error.message : String(error)}`, { cause: error })
  const lastTurnMark = seed.findLast((event) => event.type === 'turn/start' || event.type === 'turn/end')
  if (lastTurnMark?.type === 'turn/start') throw failed(new Error(`the boundary seq ${boundarySeq} ends inside an open turn`))
  // Resolved before the copy exists, as the apiproxy's fork does: a failure leaves nothing behind.
  let workspace: ForkWorkspace | undefined
  try {
    workspace = await workspaceOf(services, source)
  } catch (error) {
    throw failed(error)
  }

  const made = await oneCopyAtATime(services.index, async () => {
    let title: string | null = null
    if (base !== null) {
      let taken: Set<string>
      try {
        taken = await sessionTitles({ ...services.catalog, warn: (message) => services.warn(message) })
      } catch (error) {
        throw failed(error)
      }
      title = nextCopyTitle(base, taken, limits.maxTitleBytes)
    }
    const persisted = await services.inChildFiber(async (store) => {
      let child: Session
      try {
        child = store.create(forkedSessionId as SessionId, { seed, meta })
        if (title !== null) appendTitle(child, { title, messageSeqs: [], source: { kind: 'user' } })
      } catch (error) {
        throw failed(error)
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
    return { title, persisted }
  })

  if (workspace !== undefined) {
    try {
      await workspace.attachSession(forkedSessionId as SessionId)
    } catch (error) {
      // The copy is stored; it is listed as a loose session instead of under the workspace.
      services.warn(`message-recall: the copy "${forkedSessionId}" was stored but could not join workspace "${workspace.id}": ${error instanceof Error ? error.message : String(error)}`)
    }
  }
  return { ok: true, value: { action: 'forkBefore', tombstoneSeq: request.tombstoneSeq, forkedSessionId, boundarySeq, title: made.title, persisted: made.persisted } }
}
