/**
 * The workspace a copy joins: the one its source is in (`ctx.workspaceRegistry`, `dsh-workspace`
 * `WorkspaceRegistry`), so the sidebar lists the copy under the same workspace. A subagent
 * session (header `origin: 'subagent'`) is usually in no workspace itself: then the copy joins
 * the workspace of its nearest ancestor that is in one, following `parentSession`, as DSH's own
 * Branch resolves it (`dsh-host-apiproxy` `forkWorkspace` over `dsh-session-query`
 * `traceSession`).
 *
 * @module dsh-message-recall/host/fork-workspace
 */
import type { SessionHeader, SessionId } from '@deepseek-ai/dsh-session'

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

/** Where the workspaces and the headers of a subagent's ancestors are read. */
export interface WorkspaceSources {
  /** The workspace registry when loaded. */
  workspaces(): WorkspaceLookup | undefined
  /** Headers of the live sessions (`SessionStore.list`). */
  liveHeaders(): Iterable<SessionHeader>
  /** Headers of the stored sessions (`SessionPersistence.list`), or `undefined` without persistence. */
  storedHeaders(): Promise<readonly SessionHeader[] | undefined>
}

/**
 * The workspace a copy of a session joins.
 * @param sources - see {@link WorkspaceSources}.
 * @param source - the source session's header.
 * @returns the workspace that lists the source; for a subagent session that none lists, the one
 * that lists its nearest ancestor (`parentSession`, read from the live or stored headers); else
 * `undefined` (the copy stays a loose session).
 * @throws what the header reads throw.
 */
export async function workspaceOf(sources: WorkspaceSources, source: SessionHeader): Promise<ForkWorkspace | undefined> {
  const workspaces = sources.workspaces()?.list()
  if (workspaces === undefined) return undefined
  const holding = (id: string) => workspaces.find((workspace) => workspace.sessionIds.includes(id))
  const direct = holding(source.id)
  if (direct !== undefined || source.origin !== 'subagent') return direct
  const headers = new Map<string, SessionHeader>()
  for (const header of sources.liveHeaders()) headers.set(header.id, header)
  for (const header of (await sources.storedHeaders()) ?? []) if (!headers.has(header.id)) headers.set(header.id, header)
  const seen = new Set<string>([source.id])
  for (let parent = source.parentSession; parent !== undefined && !seen.has(parent); parent = headers.get(parent)?.parentSession) {
    seen.add(parent)
    const workspace = holding(parent)
    if (workspace !== undefined) return workspace
  }
  return undefined
}
