/**
 * The export without removed messages: the archive DSH's own Session log export writes
 * (`dsh-host-apiproxy`, `downloads.sessionLog` / `sessionLogZipEntries`), from the same services
 * and in the same order — the session's log as `session.jsonl`, every subagent descendant the
 * session-query service traces as `subagents/<id>/session.jsonl`, then every image the included
 * logs reference as `media/<attachmentId>.<ext>` — with each log rewritten by
 * `log/log-without-removed.ts`: the content of removed messages and of every event that copied it
 * left out, every event, seq and type kept, and images that only removed messages referenced not
 * bundled. A descendant that is a copy of its lineage parent (Open a copy, Branch: its header names
 * that parent as `parentSession` and has a `seedLength`) holds the parent's events below
 * `seedLength` as they were, so the parent's removals are left out of those too, besides the
 * copy's own: the archive never ships a copy's text of what the exported session removed.
 *
 * A read: nothing is appended. As in DSH's export, a live session is flushed before its stored
 * log is read (its own pending events, nothing of this plugin); a session with an agent is read
 * inside the agent's maintenance slot (`dsh-agent-loop`, `runMaintenance`), so a turn that is
 * running answers `AGENT_BUSY` and none starts until the log is read.
 *
 * @module dsh-message-recall/host/session-export
 */
import type { Agent } from '@deepseek-ai/dsh-agent'
import type { Session, SessionId } from '@deepseek-ai/dsh-session'
import type { ExportErrorCode } from '../shared/export-protocol'
import { logWithoutRemovedContent, type InheritedRemovals, type LoggedImageRef, type LogWithoutRemoved } from '../log/log-without-removed'
import { errorText } from '../shared/error-text'
import { noSessionMessage } from './refusals'

/** The part of `ctx.sessionPersistence` (`dsh-session-persistence`, `SessionPersistence`) the export reads. */
export interface RawLogSource {
  /** Whether {@link RawLogSource.readRaw} is implemented (the JSONL backend: true). */
  readonly supportsRawArtifacts: boolean
  /** The stored log's text (`{ filename, content }`), or `undefined` for an unknown session. */
  readRaw(id: SessionId, signal?: AbortSignal): Promise<{ readonly filename: string; readonly content: string } | undefined>
}

/** One node of a lineage trace (`dsh-session-query`, `SessionLineageNode`). */
export interface LineageNode {
  readonly session: { readonly header: { readonly id: string } }
  readonly descendants: readonly LineageNode[]
}

/** The part of `ctx.sessionQuery` (`dsh-session-query`) the export reads. */
export interface LineageSource {
  /** Known ancestry and descendants of a session (`SessionQuery.traceSession`). */
  traceSession(id: SessionId, signal?: AbortSignal): Promise<{ readonly descendants: readonly LineageNode[] }>
}

/** The part of `ctx.attachments` (`dsh-attachment`, `AttachmentService`) the export reads. */
export interface ImageSource {
  /** The stored bytes of one image (`readImage`; throws when the object is missing or does not verify). */
  readImage(ref: LoggedImageRef, signal?: AbortSignal): Promise<{ readonly data: Uint8Array }>
}

/** What the export reaches at request time. */
export interface ExportServices {
  readonly sessions: { get(id: SessionId): Session | undefined; flush(session: Session): Promise<unknown> }
  readonly agents: { get(id: SessionId): Agent | undefined }
  /** `ctx.get('sessionPersistence')`, read at call time. */
  persistence(): RawLogSource | undefined
  /** `ctx.get('sessionQuery')`, read at call time. */
  lineage(): LineageSource | undefined
  /** `ctx.get('attachments')`, read at call time. */
  images(): ImageSource | undefined
}

/** A refused export. */
export interface ExportRefusal {
  readonly code: Exclude<ExportErrorCode, 'INVALID_REQUEST' | 'FORBIDDEN' | 'METHOD_NOT_ALLOWED' | 'INTERNAL'>
  readonly message: string
}

/** One archive entry: a path and its bytes (a string is UTF-8). */
export interface ExportEntry {
  readonly path: string
  readonly data: string | Uint8Array
}

/** What an accepted export holds before its entries are produced. */
export interface PreparedExport {
  /** Events in the root log. */
  readonly eventCount: number
  /** Events of the root log whose content was replaced. */
  readonly carrierCount: number
  /** The entries in archive order; descendants and images are read as the consumer pulls. */
  entries(signal?: AbortSignal): AsyncGenerator<ExportEntry>
}

/** Zip extension per accepted image media type (`dsh-host-apiproxy`, `MEDIA_TYPE_EXTENSIONS`). */
const MEDIA_EXTENSIONS: Readonly<Record<string, string>> = { 'image/png': 'png', 'image/jpeg': 'jpg', 'image/webp': 'webp', 'image/gif': 'gif' }

/**
 * The parent's removals a descendant's log inherits: when its header names `parentId` as its
 * `parentSession` and carries a `seedLength` (its seed is the parent's events below it).
 */
function inheritedFrom(content: string, parentId: string, parent: LogWithoutRemoved['removedAt'] | undefined): InheritedRemovals | undefined {
  if (parent === undefined) return undefined
  let header: { parentSession?: unknown; seedLength?: unknown }
  try {
    header = JSON.parse(content.slice(0, content.indexOf('\n') === -1 ? content.length : content.indexOf('\n'))) as typeof header
  } catch {
    return undefined
  }
  const below = header.seedLength
  if (header.parentSession !== parentId || typeof below !== 'number' || !Number.isSafeInteger(below) || below <= 0) return undefined
  return { below, at: parent }
}

/** One safe path segment from a session id, as DSH's export makes it (`safeSessionIdSegment`). */
function safeSegment(id: string): string {
  return id.replace(/[^A-Za-z0-9_-]/g, '_')
}

async function readFlushed(services: ExportServices, persistence: RawLogSource, id: SessionId, signal?: AbortSignal) {
  const live = services.sessions.get(id)
  if (live !== undefined) await services.sessions.flush(live)
  signal?.throwIfAborted()
  return persistence.readRaw(id, signal)
}

/**
 * Check and read the root session; the rest is read as the entries are pulled.
 * @param services - sessions, agents and the optional persistence, lineage and image services.
 * @param sessionId - the session to export.
 * @param signal - cancels reads (the request's or the response's end).
 * @returns the prepared export, or a refusal: `EXPORT_UNAVAILABLE` when a service DSH's export
 * needs is missing, `AGENT_BUSY` when the session's agent has work, `SESSION_NOT_FOUND` when the
 * session is neither live nor stored.
 * @throws what the persistence backend throws reading a damaged log.
 */
export async function prepareExport(services: ExportServices, sessionId: SessionId, signal?: AbortSignal): Promise<{ ok: true; value: PreparedExport } | { ok: false; refusal: ExportRefusal }> {
  const persistence = services.persistence()
  const lineage = services.lineage()
  const images = services.images()
  if (persistence === undefined || !persistence.supportsRawArtifacts || lineage === undefined || images === undefined) {
    return { ok: false, refusal: { code: 'EXPORT_UNAVAILABLE', message: 'message-recall: the export needs the session persistence (with raw logs), session query and attachments services, as DSH\'s own Session log export does' } }
  }
  const agent = services.agents.get(sessionId)
  let root: Awaited<ReturnType<RawLogSource['readRaw']>>
  if (agent !== undefined) {
    let read: Promise<typeof root>
    try {
      // runMaintenance throws synchronously while a turn, a compaction or other maintenance runs.
      read = agent.runMaintenance(() => readFlushed(services, persistence, sessionId, signal))
    } catch (error) {
      return { ok: false, refusal: { code: 'AGENT_BUSY', message: `message-recall: session "${sessionId}" is busy: ${errorText(error)}` } }
    }
    root = await read
  } else {
    root = await readFlushed(services, persistence, sessionId, signal)
  }
  if (root === undefined) return { ok: false, refusal: { code: 'SESSION_NOT_FOUND', message: noSessionMessage(sessionId) } }
  const rootLog = logWithoutRemovedContent(root.content)
  const rootFile = root.filename
  return {
    ok: true,
    value: {
      eventCount: rootLog.eventCount,
      carrierCount: rootLog.carriers.size,
      async *entries(entrySignal) {
        const media = new Map<string, LoggedImageRef>(rootLog.images)
        yield { path: rootFile, data: rootLog.text }
        const seen = new Set<string>([sessionId])
        // The removals of each log read so far (not its text): a copy below it inherits them.
        const removals = new Map<string, LogWithoutRemoved['removedAt']>([[sessionId, rootLog.removedAt]])
        const trace = await lineage.traceSession(sessionId, entrySignal)
        const pending = trace.descendants.map((node) => ({ node, parentId: sessionId as string }))
        // Depth first, in lineage order, as DSH's export walks it.
        while (pending.length > 0) {
          entrySignal?.throwIfAborted()
          const { node, parentId } = pending.shift() as { node: LineageNode; parentId: string }
          const id = node.session.header.id
          if (seen.has(id)) continue
          seen.add(id)
          pending.unshift(...node.descendants.map((child) => ({ node: child, parentId: id })))
          const raw = await readFlushed(services, persistence, id as SessionId, entrySignal)
          if (raw === undefined) throw new Error(`message-recall: subagent "${id}" has no stored log artifact`)
          const log = logWithoutRemovedContent(raw.content, undefined, inheritedFrom(raw.content, parentId, removals.get(parentId)))
          removals.set(id, log.removedAt)
          for (const [key, ref] of log.images) if (!media.has(key)) media.set(key, ref)
          yield { path: `subagents/${safeSegment(id)}/${raw.filename}`, data: log.text }
        }
        for (const [key, ref] of media) {
          entrySignal?.throwIfAborted()
          const stored = await images.readImage(ref, entrySignal)
          yield { path: `media/${key}.${MEDIA_EXTENSIONS[ref.mediaType] ?? 'bin'}`, data: stored.data }
        }
      },
    },
  }
}
