/**
 * A session log's JSONL text without the content of its removed messages, line for line: the
 * header line and every line that carries no removed content stay byte for byte; a carrier line
 * (`shared/removed-content.ts`) is written again with its content replaced; a packed chunk row
 * (`chunk-rows.ts`) keeps its shape with the removed members' deltas emptied. Also collects the
 * images the rewritten log still references, with the carriers DSH's own export scans
 * (`dsh-host-apiproxy`, `collectEventImageRefs`: `data.content`, `data.message.content`,
 * `data.inserted[].content`, a `block-end` chunk's block; nested tool-result content included).
 *
 * Pure and browser-safe: the host's export feeds it the text `sessionPersistence.readRaw` returns;
 * a rewrite of a stored log can feed it decoded frame text.
 *
 * @module dsh-message-recall/log/log-without-removed
 */
import { isRecord, type LogEvent } from '../shared/events'
import { eventWithoutRemovedContent, findRemovedContent, type CarrierKind, type RemovedContent } from '../shared/removed-content'
import { expandStorageRecord, isChunkRowTagged } from './chunk-rows'

/** A durable image reference as a log holds it (`dsh-llm` `ImageAttachmentRef`; only these two fields are read). */
export interface LoggedImageRef {
  readonly attachmentId: string
  readonly mediaType: string
  readonly [key: string]: unknown
}

/** The result of {@link logWithoutRemovedContent}. */
export interface LogWithoutRemoved {
  /** The rewritten JSONL text (same line count, same line breaks). */
  readonly text: string
  /** Number of events the log holds (packed rows expanded). */
  readonly eventCount: number
  /** Every event whose content was replaced, by seq, with why. */
  readonly carriers: ReadonlyMap<number, CarrierKind>
  /** Number of lines that differ from the input's (the rest are the input's bytes). */
  readonly rewrittenLines: number
  /** Images the rewritten log references, keyed by attachment id, in first-reference order. */
  readonly images: ReadonlyMap<string, LoggedImageRef>
  /**
   * The removal behind each replaced event, by seq: this log's own, else (below the copy's seed
   * length) its source's ({@link InheritedRemovals}); what a copy of this log inherits in turn.
   */
  removedAt(seq: number): RemovalAt | undefined
}

/** Why one event's content was replaced: its carrier kind and the removals of the log that decided it. */
export interface RemovalAt {
  readonly kind: CarrierKind
  readonly removed: RemovedContent
}

/**
 * The source's removals a copy's log is rewritten by, too: a copy (`SessionStore.create` with a
 * seed, header `seedLength`) holds its source's events `0 … seedLength - 1` as they were, so the
 * source's removals take their content out of the copy as well, besides the copy's own.
 */
export interface InheritedRemovals {
  /** The copy's header `seedLength`: events below it are the source's. */
  readonly below: number
  /** The source's {@link LogWithoutRemoved.removedAt}. */
  at(seq: number): RemovalAt | undefined
}

function collectImages(content: unknown, images: Map<string, LoggedImageRef>): void {
  if (!Array.isArray(content)) return
  const pending: unknown[] = [...content]
  while (pending.length > 0) {
    const block = pending.shift()
    if (!isRecord(block)) continue
    if (block.type === 'image' && isRecord(block.attachment) && block.attachment.attachmentId !== undefined) {
      const ref = block.attachment as unknown as LoggedImageRef
      if (!images.has(String(ref.attachmentId))) images.set(String(ref.attachmentId), ref)
    }
    if (Array.isArray(block.content)) pending.push(...block.content)
  }
}

/**
 * Add the images one event references to a map (the carriers DSH's export scans; see the module doc).
 * @param event - a parsed log record (any value; a packed chunk row references none).
 * @param images - attachment id → reference, filled in first-reference order.
 */
export function collectEventImages(event: unknown, images: Map<string, LoggedImageRef>): void {
  if (!isRecord(event) || !isRecord(event.data)) return
  const data = event.data
  collectImages(data.content, images)
  if (isRecord(data.message)) collectImages(data.message.content, images)
  if (Array.isArray(data.inserted)) for (const message of data.inserted) if (isRecord(message)) collectImages(message.content, images)
  if (isRecord(data.chunk) && data.chunk.type === 'block-end') collectImages([data.chunk.block], images)
}

/**
 * Rewrite a session log's JSONL text without the content of its removed messages.
 * @param content - the whole log text: the header line, then one event or packed chunk row per
 * line (`\n`-separated; a final line break is kept as it is).
 * @param tombstoneSeq - only the content this one tombstone took (`findRemovedContent`); omitted:
 * every removal in effect.
 * @param inherited - for a copy's log: its source's removals, applied to the copy's seed events too.
 * @returns the rewritten text, the carriers, and the images it still references. A line that
 * does not parse is kept as it is (it holds no event this module can read).
 * @throws `malformed <tag> storage row: …` for a packed row DSH's own reader would refuse too;
 * `the log's seqs are not contiguous from 0: …` ({@link ParsedLogText.seqProblem}) for a log
 * whose events do not fold.
 */
export function logWithoutRemovedContent(content: string, tombstoneSeq?: number, inherited?: InheritedRemovals): LogWithoutRemoved {
  const log = parseLogText(content)
  if (log.seqProblem !== null) throw new Error(`the log's seqs are not contiguous from 0: ${log.seqProblem}`)
  return rewriteWithoutRemoved(log, tombstoneSeq, inherited)
}

/** A log's JSONL text split and parsed once ({@link parseLogText}). */
export interface ParsedLogText {
  /** The lines (`\n`-separated; the header first). */
  readonly lines: readonly string[]
  /** Each line's parsed value by line index (`undefined` for the header, empty and unparsable lines). */
  readonly parsed: readonly unknown[]
  /** Every event by seq, packed rows expanded. */
  readonly events: readonly LogEvent[]
  /**
   * Why the events' seqs do not run 0, 1, 2, … in order (`seq 5 follows seq 3`, `seq 4 appears
   * twice`, `the first event has seq 2`), or `null` when they do. DSH's session fold needs that
   * order; a log two writers appended to can break it.
   */
  readonly seqProblem: string | null
}

/**
 * Split and parse a log's JSONL text once, for {@link rewriteWithoutRemoved} and other readers.
 * @param content - the whole log text (header line first).
 * @returns the lines, the parsed values, the events by seq and whether their seqs run in order.
 * @throws `malformed <tag> storage row: …` for a packed row DSH's own reader would refuse too.
 */
export function parseLogText(content: string): ParsedLogText {
  const lines = content.split('\n')
  const events: LogEvent[] = []
  const parsed: unknown[] = new Array(lines.length)
  let seqProblem: string | null = null
  let previous = -1
  for (let i = 1; i < lines.length; i++) {
    const line = lines[i] as string
    if (line === '') continue
    let value: unknown
    try {
      value = JSON.parse(line)
    } catch {
      continue
    }
    parsed[i] = value
    for (const event of expandStorageRecord(value)) {
      if (!isRecord(event) || !Number.isSafeInteger(event.seq)) continue
      const seq = event.seq as number
      if (seqProblem === null && seq !== previous + 1) {
        seqProblem = events[seq] !== undefined ? `seq ${seq} appears twice`
          : previous === -1 ? `the first event has seq ${seq}`
          : `seq ${seq} follows seq ${previous}`
      }
      previous = seq
      events[seq] = event
    }
  }
  return { lines, parsed, events, seqProblem }
}

/**
 * {@link logWithoutRemovedContent} over a log parsed by {@link parseLogText}.
 * @param log - the parsed log (not changed).
 * @param tombstoneSeq - as for {@link logWithoutRemovedContent}.
 * @param inherited - as for {@link logWithoutRemovedContent}.
 * @returns as {@link logWithoutRemovedContent}.
 */
export function rewriteWithoutRemoved(log: ParsedLogText, tombstoneSeq?: number, inherited?: InheritedRemovals): LogWithoutRemoved {
  const { lines, ...rest } = rewriteLinesWithoutRemoved(log, tombstoneSeq, inherited)
  return { ...rest, text: lines.join('\n') }
}

/**
 * {@link rewriteWithoutRemoved} before the lines are joined, for a caller that edits more lines
 * (the erase marks its tombstone's) and joins once.
 * @param log - the parsed log (not changed).
 * @param tombstoneSeq - as for {@link logWithoutRemovedContent}.
 * @returns the rewritten lines (a new array) and the rest of {@link LogWithoutRemoved}.
 */
export function rewriteLinesWithoutRemoved(log: ParsedLogText, tombstoneSeq?: number, inherited?: InheritedRemovals): Omit<LogWithoutRemoved, 'text'> & { readonly lines: string[] } {
  const lines = [...log.lines]
  const { parsed, events } = log
  const own = findRemovedContent(events.length, (seq) => events[seq], tombstoneSeq)
  const removedAt = (seq: number): RemovalAt | undefined => {
    const kind = own.carriers.get(seq)
    if (kind !== undefined) return { kind, removed: own }
    return inherited !== undefined && seq < inherited.below ? inherited.at(seq) : undefined
  }
  // Every replaced event, the copy's seed events its source's removals took included.
  const carriers = new Map(own.carriers)
  if (inherited !== undefined) {
    for (let seq = 0; seq < Math.min(inherited.below, events.length); seq++) {
      const at = carriers.has(seq) ? undefined : inherited.at(seq)
      if (at !== undefined) carriers.set(seq, at.kind)
    }
  }
  const removed = { carriers }
  const images = new Map<string, LoggedImageRef>()
  let rewrittenLines = 0
  for (let i = 1; i < lines.length; i++) {
    const value = parsed[i]
    if (value === undefined) continue
    if (isChunkRowTagged(value)) {
      const row = value as unknown as { seq0: number; data: Record<string, unknown> }
      const key = Array.isArray(row.data.texts) ? 'texts' : 'args'
      const members = row.data[key] as string[]
      if (!members.some((_, k) => removed.carriers.has(row.seq0 + k))) continue
      lines[i] = JSON.stringify({ ...row, data: { ...row.data, [key]: members.map((m, k) => (removed.carriers.has(row.seq0 + k) ? '' : m)) } })
      rewrittenLines++
      continue
    }
    const seq = isRecord(value) ? value.seq : undefined
    const at = typeof seq === 'number' ? removedAt(seq) : undefined
    if (at === undefined) {
      collectEventImages(value, images)
      continue
    }
    const rewritten = eventWithoutRemovedContent(value as LogEvent, at.kind, at.removed)
    const next = JSON.stringify(rewritten)
    // A carrier with nothing to replace (a chunk's block start, usage or finish) keeps its bytes.
    if (next !== lines[i]) {
      lines[i] = next
      rewrittenLines++
    }
    collectEventImages(rewritten, images)
  }
  return { lines, eventCount: events.length, carriers, rewrittenLines, images, removedAt }
}
