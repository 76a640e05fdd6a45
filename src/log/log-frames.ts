/**
 * Decoded frame text of an rc.8 session log turned into numbered JSONL records: the header line,
 * then every event line or packed chunk row, with the checks DSH's own reader makes
 * (`dsh-session-persistence-jsonl/lib/index.js`, `SessionLogScanner`): every record parses, seqs
 * are contiguous from 0, packed rows are well formed, and each complete zstd frame ends on a line
 * break. Problems are collected as values with the line, frame and byte offset, never thrown,
 * so a reader can report everything intact before a damaged spot.
 *
 * Input is text that ends on a line break (a whole frame, or a chunk of a plain `session.jsonl`
 * cut at its last line break by the caller). Pure and browser-safe.
 *
 * @module dsh-message-recall/log/log-frames
 */
import { isRecord, type LogEvent } from '../shared/events'
import { expandStorageRecord, isChunkRowTagged, recordSeqRange } from './chunk-rows'

/** The header line (`{"type":"session",…}`) as the backend writes it (`toHeaderLine`). */
export interface LogHeader {
  readonly type: 'session'
  readonly version: number
  readonly id: string
  readonly createdAt: number
  readonly cwd?: string
  readonly [key: string]: unknown
}

/** Where a record or problem sits: 1-based line, frame index (or `null` in a plain log), file byte offset of its frame or chunk. */
export interface LogPosition {
  readonly line: number
  readonly frame: number | null
  readonly byte: number
}

/** A problem found while reading; `message` is one complete sentence with the numbers in it. */
export type LogProblem =
  | { readonly kind: 'bad-header'; readonly at: LogPosition; readonly message: string }
  | { readonly kind: 'unparsable-line'; readonly at: LogPosition; readonly message: string }
  | { readonly kind: 'malformed-row'; readonly at: LogPosition; readonly message: string }
  | { readonly kind: 'seq-gap'; readonly at: LogPosition; readonly expected: number; readonly got: number; readonly message: string }
  | { readonly kind: 'frame-not-line-aligned'; readonly at: LogPosition; readonly message: string }
  | { readonly kind: 'frame-failed'; readonly at: LogPosition; readonly message: string }
  | { readonly kind: 'corrupt-structure'; readonly offset: number; readonly message: string }

/** One JSONL record after the header. */
export interface LogRecord {
  readonly at: LogPosition
  /** The line exactly as stored, without its line break. */
  readonly text: string
  /** Event type, or the storage row tag (`text-chunks`, …). */
  readonly type: string
  /** First seq the record covers (`seq0` of a row), or `null` when unknown. */
  readonly seq: number | null
  /** Parsed value, when the reader was asked to parse this type. */
  readonly value?: unknown
  /** Events the record stores (a row expanded), when the reader was asked to expand. */
  readonly events?: readonly LogEvent[]
}

/** Options of {@link LogRecordReader}. */
export interface LogRecordReaderOptions {
  /**
   * Which records to parse, by type and stored line (default: all). Lines not parsed are only
   * counted and their seq read from the line prefix, which keeps a scan of large logs cheap.
   */
  readonly parse?: (type: string, text: string) => boolean
  /** Expand parsed records into events (`LogRecord.events`); default `false`. */
  readonly expand?: boolean
  /** Called once with line 1: the header when it is one (else `null`) and the line as stored. */
  readonly onHeader?: (header: LogHeader | null, text: string) => void
  /** Called for every record after the header, in log order. */
  readonly onRecord?: (record: LogRecord) => void
}

/** Totals of a read; `lastSeq` is `-1` when no event was read. */
export interface LogRecordTotals {
  readonly header: LogHeader | null
  readonly headerText: string | null
  /** Lines including the header. */
  readonly lines: number
  /** Events stored (packed rows counted by members). */
  readonly events: number
  readonly lastSeq: number
  readonly problems: readonly LogProblem[]
}

/** `{"type":"x","seq":12,` or `{"type":"text-chunks","seq0":12,`: how `JSON.stringify` lays out envelopes. */
const PREFIX = /^\{"type":"([^"\\]+)","seq(0?)":(\d+),/

/** Largest number of problems kept; later ones are counted only. */
export const MAX_PROBLEMS = 100

/**
 * Reads decoded log text line by line. Feed whole-line text with {@link push}; call
 * {@link finish} once at the end.
 */
export class LogRecordReader {
  private readonly options: LogRecordReaderOptions
  private headerValue: LogHeader | null = null
  private headerText: string | null = null
  private line = 0
  private events = 0
  private lastSeq = -1
  /** Next seq the log must continue with, or `null` after an unparsed packed row (resynchronised on the next line). */
  private expected: number | null = 0
  private pendingRow: { text: string; at: LogPosition; seq0: number } | null = null
  private readonly problems: LogProblem[] = []
  private dropped = 0
  private carry = ''
  private carryAt: LogPosition | null = null

  constructor(options: LogRecordReaderOptions = {}) {
    this.options = options
  }

  /**
   * Record a problem found outside the text (a frame that failed to decode, corrupt structure).
   * @param problem - the problem; kept up to {@link MAX_PROBLEMS}.
   */
  report(problem: LogProblem): void {
    if (this.problems.length < MAX_PROBLEMS) this.problems.push(problem)
    else this.dropped++
  }

  /** The header, once line 1 was read and is a session header; otherwise `null`. */
  get header(): LogHeader | null {
    return this.headerValue
  }

  /** Line 1 as stored, once read and valid; otherwise `null`. */
  get headerLine(): string | null {
    return this.headerText
  }

  /** Number of lines read so far, header included. */
  get lineCount(): number {
    return this.line
  }

  /**
   * Feed decoded text.
   * @param text - UTF-8-decoded text; normally ends with a line break.
   * @param frame - frame index the text came from, or `null` for a plain log.
   * @param byte - file byte offset of that frame or chunk.
   * @param frameEnd - `true` when `text` is a whole zstd frame: a missing final line break is then
   *   reported (`frame-not-line-aligned`) and the partial line carried into the next frame.
   */
  push(text: string, frame: number | null, byte: number, frameEnd = false): void {
    let from = 0
    if (this.carry !== '') {
      const nl = text.indexOf('\n')
      if (nl === -1) {
        this.carry += text
        return
      }
      this.take(this.carry + text.slice(0, nl), this.carryAt ?? { line: this.line + 1, frame, byte })
      this.carry = ''
      this.carryAt = null
      from = nl + 1
    }
    for (let nl = text.indexOf('\n', from); nl !== -1; nl = text.indexOf('\n', from)) {
      this.take(text.slice(from, nl), { line: this.line + 1, frame, byte })
      from = nl + 1
    }
    if (from < text.length) {
      this.carry = text.slice(from)
      this.carryAt = { line: this.line + 1, frame, byte }
      if (frameEnd) {
        this.report({
          kind: 'frame-not-line-aligned',
          at: this.carryAt,
          message: `frame ${frame} (byte ${byte}) ends inside line ${this.line + 1}; a complete frame must end on a line break`,
        })
      }
    }
  }

  /**
   * Text left after the last line break (a record without its line break), or `''`.
   */
  get pending(): string {
    return this.carry
  }

  /**
   * Finish reading: resolves a trailing packed row's seq range and returns the totals. A partial
   * record still pending is not read (the caller reports it as a torn tail).
   */
  finish(): LogRecordTotals {
    this.flushRow()
    const problems = [...this.problems]
    if (this.dropped > 0) {
      problems.push({ kind: 'unparsable-line', at: { line: this.line, frame: null, byte: 0 }, message: `${this.dropped} further problems not listed` })
    }
    if (this.headerValue === null && this.line === 0 && problems.length === 0) {
      problems.push({ kind: 'bad-header', at: { line: 1, frame: null, byte: 0 }, message: 'the log holds no complete header line' })
    }
    return { header: this.headerValue, headerText: this.headerText, lines: this.line, events: this.events, lastSeq: this.lastSeq, problems }
  }

  private take(text: string, at: LogPosition): void {
    this.line++
    if (this.line === 1) {
      this.takeHeader(text, at)
      return
    }
    const match = PREFIX.exec(text)
    const type = match?.[1]
    if (match !== null && type !== undefined && !(this.options.parse?.(type, text) ?? true)) {
      const seq = Number(match[3])
      this.settleRow(seq)
      this.checkSeq(seq, at)
      if (match[2] === '0' && isChunkRowTagged({ type })) {
        // A packed row read without parsing: the next line's seq tells where it ends.
        this.pendingRow = { text, at, seq0: seq }
        this.events++
        this.lastSeq = seq
        this.expected = null
      } else {
        this.advance(seq, seq)
      }
      this.options.onRecord?.({ at, text, type, seq })
      return
    }
    let value: unknown
    try {
      value = JSON.parse(text)
    } catch (error) {
      this.flushRow()
      this.report({ kind: 'unparsable-line', at, message: `line ${at.line}${where(at)} is not valid JSON: ${(error as Error).message}` })
      this.expected = null
      return
    }
    const range = recordSeqRange(value)
    const recordType = isRecord(value) && typeof value.type === 'string' ? value.type : '?'
    let events: LogEvent[] | undefined
    if (this.options.expand || isChunkRowTagged(value)) {
      try {
        events = expandStorageRecord(value)
      } catch (error) {
        this.flushRow()
        this.report({ kind: 'malformed-row', at, message: `line ${at.line}${where(at)}: ${(error as Error).message}` })
        this.expected = null
        return
      }
    }
    if (range === null) {
      this.flushRow()
      this.report({ kind: 'unparsable-line', at, message: `line ${at.line}${where(at)} has no event seq` })
      this.expected = null
      return
    }
    this.settleRow(range[0])
    this.checkSeq(range[0], at)
    this.advance(range[0], range[1])
    this.options.onRecord?.({ at, text, type: recordType, seq: range[0], value, ...(this.options.expand && events ? { events } : {}) })
  }

  private takeHeader(text: string, at: LogPosition): void {
    let value: unknown
    try {
      value = JSON.parse(text)
    } catch (error) {
      this.report({ kind: 'bad-header', at, message: `line 1${where(at)} (the header) is not valid JSON: ${(error as Error).message}` })
      this.options.onHeader?.(null, text)
      return
    }
    if (!isRecord(value) || value.type !== 'session' || typeof value.id !== 'string' || typeof value.version !== 'number' || typeof value.createdAt !== 'number') {
      this.report({ kind: 'bad-header', at, message: 'line 1 is not a session header ({"type":"session","version","id","createdAt",…})' })
      this.options.onHeader?.(null, text)
      return
    }
    this.headerValue = value as LogHeader
    this.headerText = text
    this.options.onHeader?.(this.headerValue, text)
  }

  /** An unparsed packed row ends just before the line that follows it at `nextSeq`. */
  private settleRow(nextSeq: number): void {
    const row = this.pendingRow
    if (row === null) return
    this.pendingRow = null
    if (nextSeq > row.seq0) {
      this.events += nextSeq - row.seq0 - 1
      this.lastSeq = nextSeq - 1
      this.expected = nextSeq
    } else {
      this.expected = row.seq0 + 1
    }
  }

  /** An unparsed packed row with no usable successor (end of log, damaged next line) is parsed for its seq range. */
  private flushRow(): void {
    const row = this.pendingRow
    if (row === null) return
    this.pendingRow = null
    let value: unknown
    try {
      value = JSON.parse(row.text)
    } catch (error) {
      this.report({ kind: 'unparsable-line', at: row.at, message: `line ${row.at.line}${where(row.at)} is not valid JSON: ${(error as Error).message}` })
      return
    }
    const range = recordSeqRange(value)
    if (range === null) return
    this.events += range[1] - range[0]
    this.lastSeq = range[1]
    this.expected = range[1] + 1
  }

  private checkSeq(first: number, at: LogPosition): void {
    if (this.expected !== null && first !== this.expected) {
      this.report({
        kind: 'seq-gap',
        at,
        expected: this.expected,
        got: first,
        message: `line ${at.line}${where(at)} continues the log at seq ${first}; expected ${this.expected}`,
      })
    }
  }

  private advance(first: number, last: number): void {
    this.events += last - first + 1
    this.lastSeq = last
    this.expected = last + 1
  }
}

function where(at: LogPosition): string {
  return at.frame === null ? ` (chunk at byte ${at.byte})` : ` (frame ${at.frame} at byte ${at.byte})`
}
