/**
 * The copies of a session that hold the text an erase takes, for the confirmation of Erase for
 * good (`plan` with `planAction: 'erase'`). A copy is a session whose header names the session as
 * `parentSession` with a `seedLength` (the web UI's Branch, `dsh-host-apiproxy` `sessions.fork`; a
 * subagent fork; `SessionStore.fork`; the plugin's own `forkBefore`), and a copy of such a copy,
 * and so on: a seed is its source's events `0 … seedLength - 1` with the same seqs, so a copy
 * holds an erased message exactly when the message's seq lies below its seed length (and below
 * that of every copy between it and the session).
 *
 * Which copies are found from the session headers alone (the stored listing the plugin keeps,
 * `stored-listing.ts`, and the live sessions), without reading any log; only the logs of the
 * copies that hold a message are read (`SessionPersistence.readRaw`, after a flush when the host
 * holds the copy open), once each, for:
 * - its own removal of those messages: the tombstone that decides the fate of the first held
 *   message removed there and not erased yet (`shared/fate.ts` `Fates.fateOf`): an inherited
 *   tombstone, or the source's own tombstone when the seed holds it (a Branch made after the
 *   removal). A copy whose removal of them was erased already is left out (it no longer holds the
 *   text); a copy where they are not removed (made before the removal, or a copy from before it;
 *   also folded by a compaction of the copy) is listed with no tombstone;
 * - its current title (`session-titles.ts` `titleOfRawLog`: the newest `session/title` line).
 *
 * @module dsh-message-recall/host/erase-copies
 */
import type { SessionHeader } from '@deepseek-ai/dsh-session'
import type { EraseCopyValue } from '../shared/protocol'
import { parseLogText } from '../log/log-without-removed'
import { erasedMarkOf } from '../log/log-erase'
import { readFates, replacementEvents } from '../shared/fate'
import { titleOfRawLog } from './session-titles'

/** What finding the copies reads. */
export interface CopyServices {
  /** The headers of every session, stored or live (each id once). */
  headers(): Promise<readonly SessionHeader[]>
  /** A stored log's text (`SessionPersistence.readRaw`), `undefined` when it is not stored. */
  readRaw(id: string): Promise<string | undefined>
  /** Whether the host holds a session open; such a copy is flushed before its log is read. */
  isOpen(id: string): boolean
  /** Flush an open session's pending events to its log. */
  flush(id: string): Promise<void>
}

/** A copy that holds some of the erased messages in its seed. */
export interface HoldingCopy {
  readonly header: SessionHeader
  /** The erased messages' seqs its seed holds, ascending. */
  readonly seqs: readonly number[]
}

/**
 * The copies of a session, and copies of those, whose seeds hold any of the given seqs. Pure.
 * @param headers - every session's header.
 * @param sourceId - the session whose removal is erased.
 * @param messageSeqs - the seqs of the erased messages, ascending.
 * @returns the holding copies, nearest first (children, then grandchildren, …), each level in
 *   creation order; every id at most once.
 */
export function copiesHolding(headers: readonly SessionHeader[], sourceId: string, messageSeqs: readonly number[]): HoldingCopy[] {
  const children = new Map<string, SessionHeader[]>()
  for (const header of headers) {
    const parent = header.parentSession
    if (parent === undefined || header.seedLength === undefined || header.seedLength <= 0) continue
    const list = children.get(parent) ?? []
    list.push(header)
    children.set(parent, list)
  }
  const found: HoldingCopy[] = []
  const seen = new Set<string>([sourceId])
  let level: { readonly id: string; readonly seqs: readonly number[] }[] = [{ id: sourceId, seqs: messageSeqs }]
  while (level.length > 0) {
    const next: HoldingCopy[] = []
    for (const { id, seqs } of level) {
      for (const header of children.get(id) ?? []) {
        if (seen.has(header.id)) continue
        const held = seqs.filter((seq) => seq < header.seedLength!)
        if (held.length === 0) continue
        seen.add(header.id)
        next.push({ header, seqs: held })
      }
    }
    next.sort((a, b) => a.header.createdAt - b.header.createdAt)
    found.push(...next)
    level = next.map((copy) => ({ id: copy.header.id, seqs: copy.seqs }))
  }
  return found
}

/**
 * What a copy's log says about the held messages: its removal of them, and its title.
 * @param content - the copy's stored log text.
 * @param seqs - the held messages' seqs.
 * @returns `{ tombstoneSeq, title }` (the first removal there of a held message not erased yet;
 *   `null` when none of them is removed there), or `null` when every removal of them there was
 *   erased already.
 * @throws what `parseLogText` throws (a packed row DSH's reader would refuse).
 */
export function copyRemoval(content: string, seqs: readonly number[]): { readonly tombstoneSeq: number | null; readonly title: string | null } | null {
  const { events } = parseLogText(content)
  const fates = readFates(replacementEvents(events.length, (seq) => events[seq]))
  const title = titleOfRawLog(content) ?? null
  let holds = false
  for (const seq of seqs) {
    const fate = fates.fateOf(seq)
    if (fate.state !== 'removed' || fate.rewrite === true || fate.tombstoneSeq === null) {
      holds = true
      continue
    }
    const tombstone = events[fate.tombstoneSeq]
    if (tombstone !== undefined && erasedMarkOf(tombstone) !== null) continue
    return { tombstoneSeq: fate.tombstoneSeq, title }
  }
  return holds ? { tombstoneSeq: null, title } : null
}

/**
 * The copies of a session that hold any of an erase's messages (see the module doc).
 * @param services - the headers, the logs and the open sessions.
 * @param sourceId - the session whose removal is erased.
 * @param messageSeqs - the seqs of the erased messages, ascending.
 * @returns one entry per copy that still holds the text, nearest first; a copy whose log is not
 *   stored (yet) is left out.
 * @throws what the listing, a flush or a log read throws.
 */
export async function erasePlanCopies(services: CopyServices, sourceId: string, messageSeqs: readonly number[]): Promise<EraseCopyValue[]> {
  if (messageSeqs.length === 0) return []
  const copies: EraseCopyValue[] = []
  for (const { header, seqs } of copiesHolding(await services.headers(), sourceId, messageSeqs)) {
    const live = services.isOpen(header.id)
    if (live) await services.flush(header.id)
    const content = await services.readRaw(header.id)
    if (content === undefined) continue
    const removal = copyRemoval(content, seqs)
    if (removal === null) continue
    copies.push({ sessionId: header.id, title: removal.title, tombstoneSeq: removal.tombstoneSeq, live })
  }
  return copies
}
