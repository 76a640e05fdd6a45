/**
 * The rewrite at the heart of an erase: a session log's JSONL text with the content one removal
 * took replaced for good. Pure and browser-safe; the host's erase (`host/erase-session.ts`) feeds
 * it the text `sessionPersistence.readRaw` returns and writes the result back.
 *
 * **Scope: one removal.** Erasing tombstone `T` rewrites the messages whose fate (`shared/fate.ts`)
 * is removed by `T` or by an earlier tombstone it absorbed, and every event that copied
 * their content, by the carrier rules of `shared/removed-content.ts` (`findRemovedContent` with
 * `T`). Other removals in effect are left as they are: the person confirms what goes per removal.
 * An exclusion is never erased (its messages are still in the transcript), nor a removal a
 * restore undid.
 *
 * **What stays.** Every line keeps its event, seq, type, time, surface op, provenance and
 * structural fields (`log-without-removed.ts`), so the log folds to the same surface and derives
 * the same messages but for the erased content. Lines that carry none of it are the stored bytes.
 *
 * **The record of the erase.** The tombstone's own line gets `data.source.erased: { at }` (ISO
 * time of the erase): the session's log says which removal was erased and when, without the
 * erased text. The tombstone is a `user/message` whose `source` DSH keeps as it is (`dsh-llm`,
 * `createUserMessage`; rc.8 reads only `kind`), and the line already exists, so no new event type
 * is needed: rc.8 refuses to read a log holding an event type outside
 * `KNOWN_SESSION_EVENT_TYPES` (`dsh-session`, `known-event-types`) unless it is marked ignorable.
 *
 * @module dsh-message-recall/log/log-erase
 */
import { isRecord, type LogEvent } from '../shared/events'
import { isTombstoneEvent, readTombstone } from '../shared/tombstone'
import { readFates, replacementEvents, type Fates } from '../shared/fate'
import type { CarrierKind } from '../shared/removed-content'
import { ACTIONS } from '../shared/actions'
import { collectEventImages, parseLogText, rewriteLinesWithoutRemoved, type LoggedImageRef } from './log-without-removed'

/** `data.source.erased` of an erased tombstone. */
export interface ErasedMark {
  /** When the erase was made (ISO 8601). */
  readonly at: string
}

/**
 * Why a removal cannot be erased: no tombstone of this plugin at the seq (`NOT_A_TOMBSTONE`), an
 * exclusion (`EXCLUSION`: its messages are still in the transcript), a removal a restore undid
 * (`NOT_IN_EFFECT`), or one erased before, itself or through a later removal that absorbed it
 * (`ALREADY_ERASED`).
 */
export type EraseBlock = 'NOT_A_TOMBSTONE' | 'EXCLUSION' | 'NOT_IN_EFFECT' | 'ALREADY_ERASED'

/** The rewritten log and what the erase takes along. */
export interface LogErase {
  /** The rewritten JSONL text (same lines, same line breaks). */
  readonly text: string
  /** Number of events the log holds (packed rows expanded). */
  readonly eventCount: number
  /**
   * The old log's events, as the rewrite parsed them from the text (one `JSON.parse` per line,
   * packed rows expanded by `chunk-rows.ts`), indexed by seq: what the new log is checked against.
   */
  readonly events: readonly LogEvent[]
  /** Seq of the tombstone whose removal is erased. */
  readonly tombstoneSeq: number
  /** Every event whose content was replaced, by seq, with why (the tombstone's own mark not counted). */
  readonly carriers: ReadonlyMap<number, CarrierKind>
  /** Seqs of the erased messages (surface events), ascending. */
  readonly messageSeqs: readonly number[]
  /** Attachment ids the log referenced before and no longer does. */
  readonly erasedImages: readonly string[]
  /** Tool output files (spill, process output) erased events named and no line of the rewritten log names. */
  readonly erasedFiles: readonly string[]
}

/** The result of {@link eraseRemovalInLog}: the rewrite, or why the removal cannot be erased. */
export type LogEraseOutcome = { readonly ok: true; readonly value: LogErase } | { readonly ok: false; readonly code: EraseBlock }

/**
 * Absolute paths of DSH's tool output files a text names: spill files (`dsh-spill-local`, a
 * `dsh-spill-*` temporary folder) and process output (`dsh-subprocess-local`, a `dsh-subprocess-*`
 * folder). A path ends at white space, a quote, a bracket or a backquote; trailing `.`, `,`, `:`,
 * `;` and `)` are not part of it.
 * @param text - any text (a log line's JSON, a tool result's text).
 * @returns the distinct paths, in order of first mention.
 */
export function toolOutputPathsIn(text: string): string[] {
  const found = new Set<string>()
  for (const match of text.matchAll(/\/[^\s"'`<>()[\]{}\\]*dsh-(?:spill|subprocess)-[^\s"'`<>()[\]{}\\]*/g)) {
    found.add(match[0].replace(/[.,:;]+$/, ''))
  }
  return [...found]
}

/**
 * Whether a tombstone event carries the erase mark.
 * @param event - any session event.
 * @returns the mark, or `null`.
 */
export function erasedMarkOf(event: LogEvent): ErasedMark | null {
  if (!isTombstoneEvent(event) || !isRecord(event.data) || !isRecord(event.data.source)) return null
  const erased = event.data.source.erased
  return isRecord(erased) && typeof erased.at === 'string' ? { at: erased.at } : null
}

/**
 * Whether a removal's content is erased already: its own tombstone carries the erase mark, or a
 * later tombstone of this plugin that absorbed it (directly or through others) does, since that
 * erase took the messages of the removals it absorbed (`Fates.removedBy`).
 * @param events - the log's events by seq.
 * @param fates - their fates (`readFates`).
 * @param tombstoneSeq - seq of a tombstone of this plugin.
 * @returns true when it or an absorbing tombstone is erased.
 */
export function erasedThrough(events: readonly (LogEvent | undefined)[], fates: Fates, tombstoneSeq: number): boolean {
  const seen = new Set<number>()
  for (let seq: number | null = tombstoneSeq; seq !== null && !seen.has(seq) && fates.tombstone(seq) !== undefined; seq = fates.shadowerOf(seq)) {
    seen.add(seq)
    const event = events[seq]
    if (event !== undefined && erasedMarkOf(event) !== null) return true
  }
  return false
}

/**
 * Rewrite a log's JSONL text with the content one removal took erased (see the module doc).
 * @param content - the whole log text (header line, then one event or packed chunk row per line).
 * @param tombstoneSeq - seq of a tombstone of this plugin in effect.
 * @param at - the erase time written into the tombstone (ISO 8601).
 * @returns the rewrite, or an {@link EraseBlock}.
 * @throws what `logWithoutRemovedContent` throws (a packed row DSH's reader would refuse).
 */
export function eraseRemovalInLog(content: string, tombstoneSeq: number, at: string): LogEraseOutcome {
  const log = parseLogText(content)
  const { parsed, events } = log
  const tombstoneEvent = events[tombstoneSeq]
  const tombstone = tombstoneEvent === undefined ? null : readTombstone(tombstoneEvent)
  if (tombstoneEvent === undefined || tombstone === null) return { ok: false, code: 'NOT_A_TOMBSTONE' }
  if (ACTIONS[tombstone.action].effect !== 'removed') return { ok: false, code: 'EXCLUSION' }
  const fates = readFates(replacementEvents(events.length, (seq) => events[seq]))
  if (fates.statusOf(tombstoneSeq)?.inEffect !== true) return { ok: false, code: 'NOT_IN_EFFECT' }
  // Erased itself, or through a later removal that absorbed it (its messages are the marker already).
  if (erasedThrough(events, fates, tombstoneSeq)) return { ok: false, code: 'ALREADY_ERASED' }

  const rewritten = rewriteLinesWithoutRemoved(log, tombstoneSeq)
  const out = rewritten.lines
  // The record of the erase, on the tombstone's own line (a tombstone is never a packed row).
  const line = out.findIndex((_, i) => {
    const value = parsed[i]
    return i > 0 && isRecord(value) && value.seq === tombstoneSeq && value.type === 'user/message'
  })
  const marked = tombstoneEvent.data as Record<string, unknown>
  out[line] = JSON.stringify({ ...tombstoneEvent, data: { ...marked, source: { ...(marked.source as Record<string, unknown>), erased: { at } } } })

  // Only carriers changed: the images and files they named that the rewritten log no longer names.
  const before = new Map<string, LoggedImageRef>()
  const named = new Set<string>()
  for (const seq of rewritten.carriers.keys()) {
    collectEventImages(events[seq], before)
    for (const path of toolOutputPathsIn(JSON.stringify(events[seq]))) named.add(path)
  }
  const erasedImages = [...before.keys()].filter((id) => !rewritten.images.has(id))
  const text = out.join('\n')
  const erasedFiles = [...named].filter((path) => !text.includes(path) && !text.includes(JSON.stringify(path).slice(1, -1)))

  const messageSeqs = [...rewritten.carriers].filter(([, kind]) => kind === 'message').map(([seq]) => seq)
  return { ok: true, value: { text, eventCount: rewritten.eventCount, events, tombstoneSeq, carriers: rewritten.carriers, messageSeqs, erasedImages, erasedFiles } }
}
