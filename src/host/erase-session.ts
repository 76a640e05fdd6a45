/**
 * Erase for good: the content one removal took, replaced in the stored session log, then the
 * images and tool output files only that content referenced deleted. The steps, in order:
 * 1. The session is held as for every stored-session write (`stored-session.ts`): entered by the
 *    plugin, so no agent resumes it meanwhile; a session with an agent goes through its
 *    maintenance slot, so a running turn answers `AGENT_BUSY`. A session that is open in the host
 *    (an agent or a live session of its own) is refused with `NOT_ERASABLE` (`session-open`): its
 *    events are in the host's memory with the content, and rc.8 cannot swap them.
 * 2. Pending events are flushed; the log, located from the held session's header
 *    (`sessionPersistence.locate`), is read once and rewritten by
 *    `log/log-erase.ts`.
 * 3. The new log is written beside the old one in the backend's format and fsynced
 *    (`jsonl-log-file.ts`), read back with the backend's own reader, and checked event by event
 *    against the old log (`erase-verify.ts`); a failed check removes the new file and answers
 *    `ERASE_NOT_VERIFIED`, nothing changed.
 * 4. An atomic rename puts it in place and the folder is fsynced: a crash before leaves the old
 *    log, after it the new one.
 * 5. Then the side files go: image objects of the attachment store (`dsh-attachment-local`,
 *    `attachments/v1/objects/<2 hex>/<sha256>`) that the erased content referenced and no event of
 *    any other stored session or of the rewritten log references; tool output files (spill and
 *    process output) the erased tool results named and no other log names. What is kept is
 *    listed with why.
 * 6. Once the plugin let the session go, its record in DSH's projection cache is dropped and DSH
 *    folds it again from the erased log (`projection-cache-erase.ts`).
 *
 * @module dsh-message-recall/host/erase-session
 */
import { rm, stat } from 'node:fs/promises'
import { join } from 'node:path'
import type { Session } from '@deepseek-ai/dsh-session'
import type { SessionAccess } from './stored-session'
import type { WriteQueue } from './write-queue'
import { noSessionMessage } from './refusals'
import { toolOutputPathsIn, type EraseBlock, type LogErase } from '../log/log-erase'
import { collectEventImages, type LoggedImageRef } from '../log/log-without-removed'
import type { JsonlBackend } from './jsonl-log-file'
import { eraseLogFile } from './erase-log'
import { rebuildCacheEntry, type CacheEntryOutcome, type ProjectionCacheWriter } from './projection-cache-erase'

/** Why an erase is refused: the log rewrite's blocks, or the session is open in the host. */
export type EraseReason = EraseBlock | 'session-open'

/** A refused erase; nothing was changed. */
export type EraseRefusal =
  | { readonly code: 'NOT_ERASABLE'; readonly reason: EraseReason; readonly message: string }
  | { readonly code: 'ERASE_NOT_VERIFIED'; readonly message: string }
  | { readonly code: 'SESSION_NOT_LIVE' | 'AGENT_BUSY' | 'ERASE_UNAVAILABLE'; readonly message: string }

/** A side file kept, and why: another session or a message still in effect references it, or it was not there. */
export interface KeptFile {
  readonly name: string
  readonly reason: 'referenced' | 'absent' | 'no-attachment-store'
}

/** What an erase did. */
export interface EraseValue {
  readonly action: 'erase'
  readonly tombstoneSeq: number
  /** When (ISO 8601), as written into the tombstone's `source.erased.at`. */
  readonly erasedAt: string
  /** Seqs of the erased messages. */
  readonly messageSeqs: readonly number[]
  /** Number of events whose content was replaced. */
  readonly rewrittenEvents: number
  /** Attachment ids whose objects were deleted. */
  readonly deletedImages: readonly string[]
  /** Tool output files deleted (paths as the tool result named them). */
  readonly deletedFiles: readonly string[]
  /** Images and files kept, with why. */
  readonly kept: readonly KeptFile[]
  /**
   * The session's record in DSH's projection cache (`storages/session_projcache.json`):
   * `rebuilt` (dropped, then folded again by DSH from the erased log), `dropped` (folded again
   * when DSH next reads the session) or `absent` (no record, or no cache in this host).
   */
  readonly projectionCache: CacheEntryOutcome
}

/** What the erase reaches. */
export interface EraseServices {
  readonly access: SessionAccess
  readonly queue: WriteQueue
  readonly sessions: { flush(session: Session): Promise<boolean> }
  /** `ctx.sessionPersistence` when it is rc.8's JSONL backend, else `undefined`. */
  backend(): (JsonlBackend & { list(): Promise<readonly { readonly id: string }[]> }) | undefined
  /** The attachment store's root (`<DSH home>/attachments/v1`), or `undefined` without a local store. */
  attachmentRoot(): string | undefined
  /** `ctx.sessionProjectionCache` when it is rc.8's persisted projection cache, else `undefined`. */
  projectionCache?(): ProjectionCacheWriter | undefined
  /** The time written into the tombstone; default now. */
  readonly now?: () => Date
}

const REASON_TEXT: Record<EraseReason, string> = {
  'NOT_A_TOMBSTONE': 'there is no removal of this plugin at that seq',
  'EXCLUSION': 'an exclusion keeps its messages in the transcript; only a removal can be erased',
  'NOT_IN_EFFECT': 'that removal was undone (restored), so its messages are in the conversation again',
  'ALREADY_ERASED': 'that removal was erased already',
  'session-open': 'the session is open in the host; the host holds its messages in memory. Stop the host and use `dsh-message-recall-log erase`',
}

/**
 * The sentence of an erase that did not happen, shared by the route (prefixed `message-recall: `)
 * and the log tool's `erase` (text and `--json`).
 * @param failure - a reason the removal cannot be erased, or `ERASE_NOT_VERIFIED` with the first problem.
 * @param tombstoneSeq - the removal's tombstone seq.
 * @returns e.g. `cannot erase removal 12: that removal was erased already`, or
 *   `the erased log did not verify, nothing changed: <problem>`.
 */
export function eraseFailureText(failure: { readonly code: EraseReason } | { readonly code: 'ERASE_NOT_VERIFIED'; readonly problem: string }, tombstoneSeq: number): string {
  return failure.code === 'ERASE_NOT_VERIFIED'
    ? `the erased log did not verify, nothing changed: ${failure.problem}`
    : `cannot erase removal ${tombstoneSeq}: ${REASON_TEXT[failure.code]}`
}

/**
 * The `NOT_ERASABLE` refusal of a removal.
 * @param reason - why.
 * @param tombstoneSeq - the removal's tombstone seq.
 * @returns the refusal with its message.
 */
export function notErasable(reason: EraseReason, tombstoneSeq: number): EraseRefusal {
  return { code: 'NOT_ERASABLE', reason, message: `message-recall: ${eraseFailureText({ code: reason }, tombstoneSeq)}` }
}

type EraseOutcome = { readonly ok: true; readonly value: EraseValue } | { readonly ok: false; readonly refusal: EraseRefusal }
type HeldOutcome = { readonly ok: true; readonly value: Omit<EraseValue, 'projectionCache'> } | { readonly ok: false; readonly refusal: EraseRefusal }

/**
 * Erase one removal of a session for good (see the module doc).
 * @param services - access, queue, flush, the JSONL backend and the attachment root.
 * @param request - the session and the tombstone seq of a removal in effect.
 * @returns what went and what was kept, or a refusal with nothing changed: `NOT_ERASABLE` (with
 *   its reason), `ERASE_NOT_VERIFIED` (the new log failed the check), `SESSION_NOT_LIVE` (no such
 *   session), `AGENT_BUSY` (a turn runs, or this plugin's earlier writes did not finish in 2 s),
 *   `ERASE_UNAVAILABLE` (the persistence is not rc.8's JSONL backend).
 * @throws file system errors of the write (the old log stays in place) or of the side-file
 *   deletion (the log is already erased).
 */
export async function eraseRemoval(services: EraseServices, request: { readonly sessionId: string; readonly tombstoneSeq: number }): Promise<EraseOutcome> {
  const backend = services.backend()
  if (backend === undefined) return { ok: false, refusal: { code: 'ERASE_UNAVAILABLE', message: 'message-recall: erase needs DSH\'s JSONL session persistence' } }
  const { sessionId, tombstoneSeq } = request
  const queued = await services.queue.run(sessionId, () =>
    services.access.write<Omit<EraseValue, 'projectionCache'>, EraseRefusal>(sessionId, async (session, origin) => {
      if (origin !== 'stored') return { ok: false, refusal: notErasable('session-open', tombstoneSeq) }
      return eraseHeld(services, backend, session, tombstoneSeq)
    }),
  )
  if (!queued.ok) return { ok: false, refusal: { code: 'AGENT_BUSY', message: `message-recall: session "${sessionId}" is busy with ${queued.ahead} earlier write(s)` } }
  const outcome = queued.value
  if (outcome.ok) {
    // After the hold is let go: its detach checkpoints the session's in-memory projections, which
    // still hold the old content, into the cache (`projection-cache-erase.ts`).
    const cache = services.projectionCache?.()
    const projectionCache = cache === undefined ? 'absent' : await rebuildCacheEntry(cache, sessionId)
    return { ok: true, value: { ...outcome.value, projectionCache } }
  }
  const refusal = outcome.refusal
  // The access layer's own refusals carry the session id (`stored-session.ts`).
  if ('sessionId' in refusal) {
    return refusal.code === 'AGENT_BUSY'
      ? { ok: false, refusal: { code: 'AGENT_BUSY', message: `message-recall: session "${sessionId}" is busy: ${refusal.detail}` } }
      : { ok: false, refusal: { code: 'SESSION_NOT_LIVE', message: noSessionMessage(sessionId) } }
  }
  return { ok: false, refusal }
}

async function eraseHeld(services: EraseServices, backend: JsonlBackend & { list(): Promise<readonly { readonly id: string }[]> }, session: Session, tombstoneSeq: number): Promise<HeldOutcome> {
  const id = session.id as string
  await services.sessions.flush(session)
  // The held session's header is the stored one (`sessionPersistence.prepare`): it locates the log.
  const { cwd } = session.header
  const erasedAt = (services.now?.() ?? new Date()).toISOString()
  const done = await eraseLogFile(backend, backend.locate({ id, ...(cwd === undefined ? {} : { cwd }) }).path, id, tombstoneSeq, { at: erasedAt, expectedLength: () => session.seq })
  if (!done.ok) {
    return done.code === 'ERASE_NOT_VERIFIED'
      ? { ok: false, refusal: { code: 'ERASE_NOT_VERIFIED', message: `message-recall: ${eraseFailureText(done, tombstoneSeq)}` } }
      : { ok: false, refusal: notErasable(done.code, tombstoneSeq) }
  }
  const erase = done.value
  const others: string[] = []
  // The other sessions' logs are read only when the erase freed images or files to check against them.
  const freed = erase.erasedImages.length + erase.erasedFiles.length > 0
  for (const header of freed ? await backend.list() : []) {
    if (header.id === id) continue
    const other = await backend.readRaw(header.id).catch(() => undefined)
    if (other !== undefined) others.push(other.content)
  }
  const side = await deleteSideFiles(erase, others, services.attachmentRoot())
  return {
    ok: true,
    value: { action: 'erase', tombstoneSeq, erasedAt, messageSeqs: erase.messageSeqs, rewrittenEvents: erase.carriers.size, ...side },
  }
}

/**
 * Delete the image objects and tool output files an erase freed: those no other log references.
 * @param erase - the log rewrite (`erasedImages`, `erasedFiles`).
 * @param otherLogs - the JSONL text of every other stored session of the DSH home.
 * @param attachmentRoot - `<DSH home>/attachments/v1`, or `undefined` without a local store.
 * @returns what was deleted and what was kept, with why.
 * @throws the file system's errors of a deletion.
 */
export async function deleteSideFiles(erase: Pick<LogErase, 'erasedImages' | 'erasedFiles'>, otherLogs: readonly string[], attachmentRoot: string | undefined): Promise<Pick<EraseValue, 'deletedImages' | 'deletedFiles' | 'kept'>> {
  const otherImages = new Map<string, LoggedImageRef>()
  const otherPaths = new Set<string>()
  for (const content of otherLogs) {
    for (const line of content.split('\n')) {
      if (line === '') continue
      try {
        collectEventImages(JSON.parse(line), otherImages)
      } catch {
        continue
      }
    }
    for (const path of toolOutputPathsIn(content)) otherPaths.add(path)
  }
  const kept: KeptFile[] = []
  const deletedImages: string[] = []
  for (const image of erase.erasedImages) {
    if (otherImages.has(image)) kept.push({ name: image, reason: 'referenced' })
    else if (attachmentRoot === undefined) kept.push({ name: image, reason: 'no-attachment-store' })
    else {
      const sha = /^sha256:([a-f0-9]{64})$/.exec(image)?.[1]
      const object = sha === undefined ? undefined : join(attachmentRoot, 'objects', sha.slice(0, 2), sha)
      if (object === undefined || !(await exists(object))) kept.push({ name: image, reason: 'absent' })
      else {
        await rm(object, { force: true })
        deletedImages.push(image)
      }
    }
  }
  const deletedFiles: string[] = []
  for (const path of erase.erasedFiles) {
    if (otherPaths.has(path)) kept.push({ name: path, reason: 'referenced' })
    else if (!(await exists(path))) kept.push({ name: path, reason: 'absent' })
    else {
      await rm(path, { force: true })
      deletedFiles.push(path)
    }
  }
  return { deletedImages, deletedFiles, kept }
}

async function exists(path: string): Promise<boolean> {
  try {
    await stat(path)
    return true
  } catch {
    return false
  }
}

