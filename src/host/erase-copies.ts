/**
 * The other sessions that hold the text an erase takes, for the confirmation of Erase for good
 * (`plan` with `planAction: 'erase'`) and the log tool's `erase`. A copy is a session whose header
 * names its source as `parentSession` with a `seedLength` (the web UI's Branch,
 * `dsh-host-apiproxy` `sessions.fork`; a subagent fork; `SessionStore.fork`; the plugin's own
 * `forkBefore`), and a copy of such a copy, and so on: a seed is its source's events
 * `0 … seedLength - 1` with the same seqs. So the same event at seq `q` is held by a copy exactly
 * when `q` lies below its seed length (and below that of every copy between it and the session
 * the event was first written in), and an erased message of a session that is itself a copy came
 * from its source when its seq lies below the session's seed length. For each erased seq the
 * finding walks up to that origin (the source, the source's source, … while the seq lies below
 * each seed length) and lists every session of the origin's copy tree that holds it: the erased
 * session's copies, its sources, and their other copies (siblings, cousins), never the erased
 * session itself.
 *
 * Which sessions hold them is found from the session headers alone (the stored listing the plugin keeps,
 * `stored-listing.ts`, and the live sessions), without reading any log; only the logs of the
 * sessions that hold a message are read (`SessionPersistence.readRaw`, after a flush when the host
 * holds the session open), once each, for:
 * - its own removals of those messages: every distinct tombstone that decides the fate of a held
 *   message removed there and not erased yet (`shared/fate.ts` `Fates.fateOf`): an inherited
 *   tombstone, the source's own tombstone when the seed holds it (a Branch made after the
 *   removal), a source's own removal of them, or several of these (a Branch made before the
 *   removal that removed some of them itself), each with how many messages an erase of it there
 *   takes (which may be more than the erase being confirmed: a wider removal there); and how
 *   many held messages are not removed there (a copy made before the removal, or a copy from
 *   before it; a source when they were removed in the copy alone; also folded by a compaction).
 *   Held messages whose removal there was erased already (itself, or a later removal there that
 *   absorbed it) are no longer held; a session where all
 *   of them are is left out;
 * - its current title (`session-titles.ts` `titleOfRawLog`: the newest `session/title` line).
 *
 * @module dsh-message-recall/host/erase-copies
 */
import type { SessionHeader } from '@deepseek-ai/dsh-session'
import type { EraseCopyValue } from '../shared/protocol'
import { parseLogText } from '../log/log-without-removed'
import { erasedThrough } from '../log/log-erase'
import { readFates, replacementEvents } from '../shared/fate'
import { findRemovedContent } from '../shared/removed-content'
import { titleOfRawLog } from './session-titles'

/** What finding the sessions that hold the text reads. */
export interface CopyServices {
  /** The headers of every session, stored or live (each id once). */
  headers(): Promise<readonly SessionHeader[]>
  /** A stored log's text (`SessionPersistence.readRaw`), `undefined` when it is not stored. */
  readRaw(id: string): Promise<string | undefined>
  /** Whether the host holds a session open; such a session is flushed before its log is read. */
  isOpen(id: string): boolean
  /** Flush an open session's pending events to its log. */
  flush(id: string): Promise<void>
}

/** How a listed session is related to the erased one. */
export type CopyRelation =
  /** A copy of the erased session (a copy of a copy too). */
  | 'copy'
  /** A session the erased one was copied from (its `parentSession`, or that one's, …). */
  | 'source'
  /** Another copy of one of those sources (a sibling, a cousin, and their copies). */
  | 'source-copy'

/** A session that holds some of the erased messages in its events: the origin of their seqs, or a seed of it. */
export interface HoldingCopy {
  readonly header: SessionHeader
  /** The erased messages' seqs it holds, ascending. */
  readonly seqs: readonly number[]
  readonly relation: CopyRelation
}

/** A header's copy link: its source and seed length, or `null` when it is no copy. */
function linkOf(header: SessionHeader | undefined): { readonly parent: string; readonly seedLength: number } | null {
  if (header?.parentSession === undefined || header.seedLength === undefined || header.seedLength <= 0) return null
  return { parent: header.parentSession, seedLength: header.seedLength }
}

/**
 * The sessions that hold any of the given seqs of a session as the same events: for each seq,
 * its origin (walking up `parentSession` while the seq lies below that link's `seedLength`), then
 * every session of the origin's copy tree whose seeds, on the way down from the origin, all reach
 * past the seq (the origin itself too). Pure.
 * @param headers - every session's header (each id once; a later duplicate is ignored).
 * @param sessionId - the session whose removal is erased; never listed itself.
 * @param messageSeqs - the seqs of the erased messages, ascending.
 * @returns the holding sessions, nearest first: by the number of copy links between them and the
 *   erased session, at equal distance in creation order (`createdAt`, so a source comes before
 *   the copies at its distance; at the same millisecond by id), each with the seqs it holds and its relation; every id at most
 *   once. A source whose header is not in `headers` (a deleted session) is not listed, but its
 *   other copies are.
 */
export function copiesHolding(headers: readonly SessionHeader[], sessionId: string, messageSeqs: readonly number[]): HoldingCopy[] {
  const byId = new Map<string, SessionHeader>()
  const children = new Map<string, SessionHeader[]>()
  for (const header of headers) {
    if (byId.has(header.id)) continue
    byId.set(header.id, header)
    const link = linkOf(header)
    if (link === null) continue
    const list = children.get(link.parent) ?? []
    list.push(header)
    children.set(link.parent, list)
  }
  // The erased session's sources, nearest first (a cycle of broken headers ends the walk).
  const chain = [sessionId]
  for (let link = linkOf(byId.get(sessionId)); link !== null && !chain.includes(link.parent); link = linkOf(byId.get(link.parent))) chain.push(link.parent)
  const held = new Map<string, number[]>()
  for (const seq of messageSeqs) {
    let origin = 0
    while (origin + 1 < chain.length && seq < linkOf(byId.get(chain[origin]!))!.seedLength) origin++
    // Down the origin's copy tree, through the copies whose seed holds the seq.
    const seen = new Set<string>()
    const stack = [chain[origin]!]
    while (stack.length > 0) {
      const id = stack.pop()!
      if (seen.has(id)) continue
      seen.add(id)
      if (id !== sessionId && byId.has(id)) {
        const seqs = held.get(id)
        if (seqs === undefined) held.set(id, [seq])
        else seqs.push(seq)
      }
      for (const child of children.get(id) ?? []) if (seq < child.seedLength!) stack.push(child.id)
    }
  }
  const found = [...held].map(([id, seqs]) => {
    // Up from the session to the first of the erased session's chain: the links between them.
    let steps = 0
    let at = id
    while (!chain.includes(at) && steps <= byId.size) {
      at = linkOf(byId.get(at))!.parent
      steps++
    }
    const up = chain.indexOf(at)
    const relation: CopyRelation = up === 0 ? 'copy' : steps === 0 ? 'source' : 'source-copy'
    return { holding: { header: byId.get(id)!, seqs, relation }, distance: steps + up }
  })
  found.sort((a, b) => a.distance - b.distance || a.holding.header.createdAt - b.holding.header.createdAt || (a.holding.header.id < b.holding.header.id ? -1 : 1))
  return found.map((f) => f.holding)
}

/** One removal in a holding session of some of the held messages: a tombstone there in effect, not erased yet. */
export interface CopyRemoval {
  readonly tombstoneSeq: number
  /** How many messages an erase of it there takes (all it removed, held or not; `log-erase.ts` counts the same). */
  readonly messageCount: number
}

/** What a holding session's log says about the held messages ({@link copyRemoval}). */
export interface CopyRemovals {
  /**
   * Every distinct removal there of held messages not erased yet, in the order of the first held
   * message each removes; empty when none of them is removed there.
   */
  readonly removals: readonly CopyRemoval[]
  /** How many held messages are there not removed (a copy made before the removal, a removal in the other session alone, a compaction's fold). */
  readonly notRemovedCount: number
  /** Its current title, or `null`. */
  readonly title: string | null
}

/**
 * What a holding session's log says about the held messages: each of its removals of them, the
 * ones not removed there, and its title. A held message whose removal there was erased already is
 * no longer held.
 * @param content - the session's stored log text.
 * @param seqs - the held messages' seqs.
 * @returns the removals and the count not removed (see {@link CopyRemovals}), or `null` when every
 *   held message's removal there was erased already.
 * @throws what `parseLogText` throws (a packed row DSH's reader would refuse).
 */
export function copyRemoval(content: string, seqs: readonly number[]): CopyRemovals | null {
  const { events } = parseLogText(content)
  const fates = readFates(replacementEvents(events.length, (seq) => events[seq]))
  const title = titleOfRawLog(content) ?? null
  const tombstones: number[] = []
  let notRemovedCount = 0
  for (const seq of seqs) {
    const fate = fates.fateOf(seq)
    if (fate.state !== 'removed' || fate.rewrite === true || fate.tombstoneSeq === null) {
      notRemovedCount++
      continue
    }
    const tombstone = events[fate.tombstoneSeq]
    // Erased there already, by this removal or by a later one that absorbed it.
    if (tombstone !== undefined && erasedThrough(events, fates, fate.tombstoneSeq)) continue
    if (!tombstones.includes(fate.tombstoneSeq)) tombstones.push(fate.tombstoneSeq)
  }
  if (tombstones.length === 0 && notRemovedCount === 0) return null
  const removals = tombstones.map((tombstoneSeq) => {
    const { carriers } = findRemovedContent(events.length, (seq) => events[seq], tombstoneSeq)
    return { tombstoneSeq, messageCount: [...carriers.values()].filter((kind) => kind === 'message').length }
  })
  return { removals, notRemovedCount, title }
}

/**
 * The other sessions that hold any of an erase's messages: its copies, its sources and their
 * other copies (see the module doc).
 * @param services - the headers, the logs and the open sessions.
 * @param sessionId - the session whose removal is erased.
 * @param messageSeqs - the seqs of the erased messages, ascending.
 * @returns one entry per session that still holds the text, nearest first (as
 *   {@link copiesHolding} orders them); one whose log is not stored (yet) is left out.
 * @throws what the listing, a flush or a log read throws.
 */
export async function erasePlanCopies(services: CopyServices, sessionId: string, messageSeqs: readonly number[]): Promise<EraseCopyValue[]> {
  if (messageSeqs.length === 0) return []
  const copies: EraseCopyValue[] = []
  for (const { header, seqs } of copiesHolding(await services.headers(), sessionId, messageSeqs)) {
    const live = services.isOpen(header.id)
    if (live) await services.flush(header.id)
    const content = await services.readRaw(header.id)
    if (content === undefined) continue
    const removal = copyRemoval(content, seqs)
    if (removal === null) continue
    copies.push({
      sessionId: header.id, title: removal.title, tombstoneSeq: removal.removals[0]?.tombstoneSeq ?? null,
      removals: removal.removals, notRemovedCount: removal.notRemovedCount, live,
    })
  }
  return copies
}
