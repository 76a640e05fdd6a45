/**
 * `forkBefore`: a new stored session holding the conversation exactly as it was before one of
 * this plugin's tombstones, the way back for what cannot be undone in place (a model step, a
 * delete onward, nested removals). The source is not touched, live or stored, whether the copy is
 * made or refused.
 *
 * The path follows what DSH's own turn-bar Branch does (`dsh-host-apiproxy` `session.fork`),
 * with the cut the plugin needs; each step has its own module:
 * 1. `fork-source`: read the source without entering it (live in memory, or the stored log);
 * 2. `fork-plan`: the boundary (the event before the tombstone), the seed and the copy's header;
 * 3. `fork-workspace`: the workspace the copy joins, resolved before the copy exists, as the
 *    apiproxy's fork does, so a failure leaves nothing behind;
 * 4. `copy-title` and `session-titles`: the copy's title, the title at the cut marked as a copy
 *    with the next copy number no other session's title uses (the stored sessions through
 *    `stored-listing`); copies are made one at a time, so two at once never pick the same number;
 * 5. `fork-store`: create, title and flush the copy in a child fiber, and let it go;
 * 6. attach the copy to the workspace (a failure there leaves a loose session and a warning).
 *
 * @module dsh-message-recall/host/fork-before
 */
import { randomUUID } from 'node:crypto'
import type { SessionHeader, SessionId } from '@deepseek-ai/dsh-session'
import type { ForkBeforeValue } from '../shared/protocol'
import { copiedTitle, nextCopyTitle, type CopyTitleLanguage } from './copy-title'
import { planFork, type ForkRefusal } from './fork-plan'
import { readForkSource, type ForkSource, type ForkSourceServices, type StoredLogReader } from './fork-source'
import { forkFailed, storeCopy, type CopyStoreServices } from './fork-store'
import { workspaceOf, type ForkWorkspace, type WorkspaceLookup } from './fork-workspace'
import type { SessionNotLiveRefusal } from './refusals'
import { sessionTitles, type LiveTitled, type StoredTitleReader, type TitleSources } from './session-titles'
import type { TitleLimits } from './title'
import { errorText } from '../shared/error-text'

/** A validated `forkBefore` request. */
export interface ForkBeforeRequest {
  readonly sessionId: string
  readonly tombstoneSeq: number
}

/** The sessions a fork looks across: for its source, the titles in use and a subagent's ancestors. */
export interface SessionCatalog extends Omit<TitleSources, 'warn' | 'stored' | 'live'> {
  /** The live sessions (`SessionStore.list`). */
  readonly live: () => readonly (LiveTitled & { readonly header: SessionHeader })[]
  /** The persistence service when loaded (read at call time). */
  readonly stored: () => (StoredLogReader & StoredTitleReader) | undefined
}

/** What `forkBefore` reaches. */
export interface ForkServices extends Omit<ForkSourceServices, 'stored'>, CopyStoreServices {
  /** The workspace registry when loaded. */
  workspaces(): WorkspaceLookup | undefined
  /** Live and stored sessions, and the projection cache when loaded. */
  readonly catalog: SessionCatalog
  readonly titleLimits: () => TitleLimits
  /** The language of the person's UI, for the copy's title (`ui-language.ts`). */
  readonly language: () => CopyTitleLanguage
  warn(message: string): void
}

/** The outcome of `forkBefore`: the copy, or a refusal that appended nothing anywhere. */
export type ForkOutcome = { readonly ok: true; readonly value: ForkBeforeValue } | { readonly ok: false; readonly refusal: ForkRefusal | SessionNotLiveRefusal }

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
 * live or only stored, and is only read.
 * @param services - see {@link ForkServices}.
 * @param request - the source session and the tombstone seq.
 * @returns the new session's id, the boundary and its title, once stored; or `SESSION_NOT_LIVE`
 * (the source is neither live in this process nor stored) or `TARGET_NOT_FOUND` (no tombstone of
 * this plugin at that seq, current or shadowed). A refusal writes nothing.
 * @throws `MessageRecallError` (`refusals`) `PERSIST_FAILED` (`applied: false`) when the copy could not be
 * stored, `INTERNAL` when the source could not be read, the cut ends inside an open turn, or the
 * store refused the copy.
 */
export async function forkBefore(services: ForkServices, request: ForkBeforeRequest): Promise<ForkOutcome> {
  const { sessionId, tombstoneSeq } = request
  const subject = `session "${sessionId}" before tombstone seq ${tombstoneSeq}`
  let source: ForkSource | null
  try {
    source = await readForkSource({ ...services, stored: services.catalog.stored }, sessionId)
  } catch (error) {
    throw forkFailed(subject, error)
  }
  if (source === null) return { ok: false, refusal: { code: 'SESSION_NOT_LIVE', sessionId } }
  // Planned at once: a live source's log grows while this awaits.
  const planned = planFork(source, tombstoneSeq)
  if (!planned.ok) {
    if (planned.refusal.code === 'TARGET_NOT_FOUND') return { ok: false, refusal: planned.refusal }
    throw forkFailed(subject, new Error(`the boundary seq ${planned.refusal.boundarySeq} ends inside an open turn`))
  }
  const { plan } = planned
  const limits = services.titleLimits()
  const base = copiedTitle(tombstoneSeq, source.lookup, limits)
  const header = source.header

  let workspace: ForkWorkspace | undefined
  try {
    workspace = await workspaceOf({
      workspaces: () => services.workspaces(),
      liveHeaders: () => services.catalog.live().map((session) => session.header),
      storedHeaders: async () => services.catalog.stored()?.list(),
    }, header)
  } catch (error) {
    throw forkFailed(subject, error)
  }

  const forkedSessionId = `session-${randomUUID()}`
  const made = await oneCopyAtATime(services.index, async () => {
    let title: string | null = null
    if (base !== null) {
      let taken: Set<string>
      try {
        taken = await sessionTitles({ ...services.catalog, warn: (message) => services.warn(message) })
      } catch (error) {
        throw forkFailed(subject, error)
      }
      title = nextCopyTitle(base, taken, limits.maxTitleBytes, services.language())
    }
    const { persisted, header: copyHeader } = await storeCopy(services, { id: forkedSessionId, plan, title, subject })
    const stored = services.catalog.stored()
    if (stored !== undefined) {
      // The next copy's naming then reads the copy's title from here, not from its whole log.
      await services.catalog.storedTitles.remember(stored, services.catalog.storedLogs, copyHeader, title).catch((error: unknown) => {
        services.warn(`message-recall: the title of the copy "${forkedSessionId}" was not kept (the next copy reads it from its log): ${errorText(error)}`)
      })
    }
    return { title, persisted }
  })

  if (workspace !== undefined) {
    try {
      await workspace.attachSession(forkedSessionId as SessionId)
    } catch (error) {
      // The copy is stored; it is listed as a loose session instead of under the workspace.
      services.warn(`message-recall: the copy "${forkedSessionId}" was stored but could not join workspace "${workspace.id}": ${errorText(error)}`)
    }
  }
  return { ok: true, value: { action: 'forkBefore', tombstoneSeq, forkedSessionId, boundarySeq: plan.boundarySeq, title: made.title, persisted: made.persisted } }
}
