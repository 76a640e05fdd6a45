/**
 * Decoded frame text of an rc.8 session log turned into numbered JSONL records: the header line,
 * then every event line or packed chunk row, with the checks DSH's own reader makes
 * (`dsh-session-persistence-jsonl/lib/index.js`, `SessionLogScanner`): every record parses, seqs
 * are contiguous from 0, packed rows are well formed, and each complete zstd frame ends on a line
 * break. Problems are collected as values with the line, frame and byte offset, never thrown,
 * so a reader can report everything intact before a damaged spot.
 *
 * Input is bytes (a whole decoded frame, or a chunk of a plain `session.jsonl` cut at its last
 * line break by the caller). Lines are split on the bytes and their envelope prefix read from the
 * bytes too, so a line that is not parsed never becomes a string unless a callback asks for its
 * text. Pure and browser-safe.
 *
 * @module dsh-message-recall/log/log-frames
 */
import { isRecord, type LogEvent } from '../shared/events'
import { CHUNK_ROW_TYPES, expandStorageRecord, isChunkRowTagged, recordSeqRange } from './chunk-rows'
import { counted } from './counted'
import { frameAt, lineAt } from './log-position'

/** The header line (`{"type":"session",…}`) as the backend writes it (`toHeaderLine`). */
export interface LogHeader {
  readonly type: 'session'
  readonly version: number
  readonly id: string
  readonly createdAt: number
  readonly cwd?: string
  readonly [key: string]: unknown
}

/**
 * Where a record or problem sits: 1-based line, frame index (or `null` in a plain log), and file
 * byte offset: of its frame in a zstd log (a line has no file offset inside compressed bytes), of
 * the line itself in a plain log.
 */
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
   * Which records to parse: `true` (default) all, `false` none, or a predicate over the type and
   * the stored line. Lines not parsed are only counted and their seq read from the line prefix,
   * which keeps a scan of large logs cheap.
   */
  readonly parse?: boolean | ((type: string, text: string) => boolean)
  /** Expand parsed records into events (`LogRecord.events`); default `false`. */
  readonly expand?: boolean
  /** Called once with line 1: the header when it is one (else `null`) and the line as stored. */
  readonly onHeader?: (header: LogHeader | null, text: string) => void
  /** Called for every record after the header, in log order. */
  readonly onRecord?: (record: LogRecord) => void
  /**
   * Called with runs of lines exactly as stored, line breaks included: line 1 (whatever it holds)
   * and every line {@link onRecord} is called for, in log order. The view is only valid during
   * the call.
   */
  readonly onLines?: (bytes: Uint8Array) => void
}

/** The frames of a {@link LogRecordReader.pushFrames} call. */
export interface FrameRunIndex {
  readonly count: number
  /** Offset just past each frame's plaintext in the pushed bytes. */
  readonly ends: ArrayLike<number>
  /** Frame index of each frame. */
  readonly frames: ArrayLike<number>
  /** File byte offset of each frame. */
  readonly offsets: ArrayLike<number>
}

/** Totals of a read; `firstSeq` and `lastSeq` are `-1` when no event was read. */
export interface LogRecordTotals {
  readonly header: LogHeader | null
  readonly headerText: string | null
  /** Lines including the header. */
  readonly lines: number
  /** Events stored (packed rows counted by members). */
  readonly events: number
  /** Seq of the first event read (0 in a whole log; a log can start later). */
  readonly firstSeq: number
  readonly lastSeq: number
  readonly problems: readonly LogProblem[]
}

/** Largest number of problems kept; later ones are counted only. */
export const MAX_PROBLEMS = 100

const LF = 0x0a
const QUOTE = 0x22
const BACKSLASH = 0x5c

const utf8Decoder = new TextDecoder()

/** The UTF-8 text of `bytes[start, end)`. */
function utf8(bytes: Uint8Array, start: number, end: number): string {
  return utf8Decoder.decode(bytes.subarray(start, end))
}

/**
 * Type names read from line prefixes, one string per distinct name (a log holds a few dozen), so
 * reading a type allocates nothing after its first occurrence.
 */
class TypeNames {
  private readonly byHash = new Map<number, string>()

  /** The name in `bytes[start, end)` (ASCII with no escapes, as the prefix check guarantees). */
  read(bytes: Uint8Array, start: number, end: number): string {
    let hash = end - start
    for (let i = start; i < end; i++) hash = (Math.imul(hash, 31) + bytes[i]!) | 0
    const known = this.byHash.get(hash)
    if (known !== undefined && known.length === end - start) {
      let same = true
      for (let i = 0; i < known.length; i++) {
        if (known.charCodeAt(i) !== bytes[start + i]) {
          same = false
          break
        }
      }
      if (same) return known
    }
    const name = utf8(bytes, start, end)
    if (known === undefined) this.byHash.set(hash, name)
    return name
  }
}

/**
 * Reads decoded log bytes line by line. Feed whole-line bytes with {@link push}; call
 * {@link finish} once at the end.
 */
export class LogRecordReader {
  private readonly options: LogRecordReaderOptions
  private readonly parseAll: boolean
  private readonly parseSome: ((type: string, text: string) => boolean) | null
  private readonly onRecord: ((record: LogRecord) => void) | undefined
  /** Every prefixed line's type is needed (a predicate or record callback reads it), not only a packed row's. */
  private readonly typeAlways: boolean
  private readonly types = new TypeNames()
  private headerValue: LogHeader | null = null
  private headerText: string | null = null
  private line = 0
  private events = 0
  private firstSeq = -1
  private lastSeq = -1
  /** Next seq the log must continue with, or `null` after an unparsed packed row (resynchronised on the next line). */
  private expected: number | null = 0
  // An unparsed packed row waiting for the next line's seq, kept in fields (no object per row).
  // `rowBytes[rowStart, rowEnd)` is a view into the pushed bytes while their push runs
  // (`rowOwned` false) and is copied only when the row is still pending at the end of that push.
  private rowPending = false
  private rowSeq0 = 0
  private rowLine = 0
  private rowFrame: number | null = null
  private rowByte = 0
  private rowBytes: Uint8Array = new Uint8Array(0)
  private rowStart = 0
  private rowEnd = 0
  private rowOwned = false
  private readonly problems: LogProblem[] = []
  private dropped = 0
  /** Bytes of a line begun in an earlier push, or `null`. */
  private carry: Uint8Array | null = null
  private carryAt: LogPosition | null = null
  // Prefix of the line last read by `readPrefix`; its type is read from the bytes on demand.
  private prefixTypeStart = 0
  private prefixTypeEnd = 0
  private prefixSeq = 0
  private prefixRow = false

  constructor(options: LogRecordReaderOptions = {}) {
    this.options = options
    this.parseAll = options.parse === undefined || options.parse === true
    this.parseSome = typeof options.parse === 'function' ? options.parse : null
    this.onRecord = options.onRecord
    this.typeAlways = this.parseSome !== null || this.onRecord !== undefined
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
   * Feed decoded bytes.
   * @param bytes - UTF-8 bytes; normally ending with a line break. Not kept after the call
   *   (a partial last line is copied).
   * @param frame - frame index the bytes came from, or `null` for a plain log.
   * @param byte - file byte offset of that frame or chunk.
   * @param frameEnd - `true` when `bytes` is a whole zstd frame: a missing final line break is
   *   then reported (`frame-not-line-aligned`) and the partial line carried into the next frame.
   */
  push(bytes: Uint8Array, frame: number | null, byte: number, frameEnd = false): void {
    this.breakAt = bytes.indexOf(LF)
    this.pushRange(bytes, 0, bytes.length, frame, byte, frameEnd)
    this.ownRow()
  }

  /**
   * Feed the plaintext of several whole zstd frames held one after the other in one buffer:
   * the same as a {@link push} of each frame with `frameEnd` (the same records, problems and
   * positions), in one pass over the lines.
   * @param bytes - the frames' plaintext, back to back; not kept after the call.
   * @param run - `count` frames: `ends[k]` is the offset in `bytes` just past frame k's
   *   plaintext (frame k starts where frame k − 1 ends, frame 0 at 0), `frames[k]` its frame
   *   index and `offsets[k]` its file byte offset.
   */
  pushFrames(bytes: Uint8Array, run: FrameRunIndex): void {
    const { count, ends, frames, offsets } = run
    this.breakAt = bytes.indexOf(LF)
    let start = 0
    for (let k = 0; k < count; k++) {
      const end = ends[k]!
      this.pushRange(bytes, start, end, frames[k]!, offsets[k]!, true)
      start = end
    }
    this.ownRow()
  }

  /** First line break at or after the current position in the bytes being pushed, or -1 when none is left. */
  private breakAt = -1

  /** Next line break in `bytes[from, end)`, or -1; keeps {@link breakAt} for the next range. */
  private nextBreak(bytes: Uint8Array, from: number, end: number): number {
    let nl = this.breakAt
    if (nl !== -1 && nl < from) nl = this.breakAt = bytes.indexOf(LF, from)
    return nl !== -1 && nl < end ? nl : -1
  }

  /** One frame or chunk, `bytes[start, end)`, as {@link push} describes it. */
  private pushRange(bytes: Uint8Array, start: number, end: number, frame: number | null, byte: number, frameEnd: boolean): void {
    const onLines = this.options.onLines
    let from = start
    if (this.carry !== null) {
      const nl = this.nextBreak(bytes, from, end)
      if (nl === -1) {
        this.carry = concatBytes(this.carry, bytes.subarray(from, end))
        return
      }
      const line = concatBytes(this.carry, bytes.subarray(from, nl + 1))
      const at = this.carryAt ?? { line: this.line + 1, frame, byte }
      this.carry = null
      this.carryAt = null
      if (this.take(line, 0, line.length - 1, at.frame, at.byte)) onLines?.(line)
      from = nl + 1
    }
    let run = from
    for (let nl = this.nextBreak(bytes, from, end); nl !== -1; nl = this.nextBreak(bytes, from, end)) {
      if (!this.take(bytes, from, nl, frame, lineByte(frame, byte, from - start))) {
        if (onLines !== undefined && from > run) onLines(bytes.subarray(run, from))
        run = nl + 1
      }
      from = nl + 1
    }
    if (onLines !== undefined && from > run) onLines(bytes.subarray(run, from))
    if (from < end) {
      this.carry = new Uint8Array(bytes.subarray(from, end))
      this.carryAt = { line: this.line + 1, frame, byte: lineByte(frame, byte, from - start) }
      if (frameEnd && frame !== null) {
        this.report({
          kind: 'frame-not-line-aligned',
          at: this.carryAt,
          message: `${frameAt(frame, byte)} ends inside line ${this.line + 1}; a complete frame must end on a line break`,
        })
      }
    }
  }

  /** At the end of a push, a pending packed row still viewing the pushed bytes gets its own copy. */
  private ownRow(): void {
    if (this.rowPending && !this.rowOwned) {
      this.rowBytes = new Uint8Array(this.rowBytes.subarray(this.rowStart, this.rowEnd))
      this.rowStart = 0
      this.rowEnd = this.rowBytes.length
      this.rowOwned = true
    }
  }

  /**
   * Finish reading: resolves a trailing packed row's seq range and returns the totals. A partial
   * record still pending is not read (the caller reports it as a torn tail).
   */
  finish(): LogRecordTotals {
    this.flushRow()
    const problems = [...this.problems]
    if (this.dropped > 0) {
      problems.push({ kind: 'unparsable-line', at: { line: this.line, frame: null, byte: 0 }, message: `${counted(this.dropped, 'further problem')} not listed` })
    }
    if (this.headerValue === null && this.line === 0 && problems.length === 0) {
      problems.push({ kind: 'bad-header', at: { line: 1, frame: null, byte: 0 }, message: 'the log holds no complete header line' })
    }
    return { header: this.headerValue, headerText: this.headerText, lines: this.line, events: this.events, firstSeq: this.firstSeq, lastSeq: this.lastSeq, problems }
  }

  /**
   * Read the envelope prefix `{"type":"<type>","seq":<n>,` or `{"type":"<tag>","seq0":<n>,` of
   * the line `bytes[start, end)` into the `prefix…` fields.
   * @returns `false` when the line does not start that way (it is then parsed to find out).
   */
  private readPrefix(bytes: Uint8Array, start: number, end: number): boolean {
    if (end - start < 18) return false
    // `{"type":"`, unrolled.
    if (bytes[start] !== 0x7b || bytes[start + 1] !== QUOTE || bytes[start + 2] !== 0x74 || bytes[start + 3] !== 0x79 || bytes[start + 4] !== 0x70) return false
    if (bytes[start + 5] !== 0x65 || bytes[start + 6] !== QUOTE || bytes[start + 7] !== 0x3a || bytes[start + 8] !== QUOTE) return false
    const typeStart = start + 9
    let i = typeStart
    for (; i < end; i++) {
      const c = bytes[i]!
      if (c === QUOTE) break
      if (c === BACKSLASH) return false
    }
    if (i === typeStart || end - i < 10) return false
    const typeEnd = i
    // `","seq`, unrolled.
    if (bytes[i + 1] !== 0x2c || bytes[i + 2] !== QUOTE || bytes[i + 3] !== 0x73 || bytes[i + 4] !== 0x65 || bytes[i + 5] !== 0x71) return false
    i += 6
    let row = false
    if (bytes[i] === 0x30 /* 0 */) {
      row = true
      i++
    }
    if (bytes[i] !== QUOTE || bytes[i + 1] !== 0x3a /* : */) return false
    i += 2
    const digits = i
    let seq = 0
    for (; i < end; i++) {
      const c = bytes[i]! - 0x30
      if (c < 0 || c > 9) break
      seq = seq * 10 + c
    }
    if (i === digits || i === end || bytes[i] !== 0x2c /* , */) return false
    this.prefixTypeStart = typeStart
    this.prefixTypeEnd = typeEnd
    this.prefixSeq = seq
    this.prefixRow = row
    return true
  }

  /**
   * Take the line `bytes[start, end)` (without its line break).
   * @returns `true` when the line is kept (the header line, or a record handed to `onRecord`).
   */
  private take(bytes: Uint8Array, start: number, end: number, frame: number | null, byte: number): boolean {
    this.line++
    if (this.line === 1) {
      this.takeHeader(utf8(bytes, start, end), { line: 1, frame, byte })
      return true
    }
    let text: string | null = null
    if (this.readPrefix(bytes, start, end)) {
      const onRecord = this.onRecord
      const type = this.typeAlways || this.prefixRow ? this.types.read(bytes, this.prefixTypeStart, this.prefixTypeEnd) : ''
      let parse = this.parseAll
      if (this.parseSome !== null) {
        text = utf8(bytes, start, end)
        parse = this.parseSome(type, text)
      }
      if (!parse) {
        const seq = this.prefixSeq
        this.settleRow(seq)
        this.checkSeq(seq, frame, byte)
        if (this.prefixRow && (CHUNK_ROW_TYPES as readonly string[]).includes(type)) {
          // A packed row read without parsing: the next line's seq tells where it ends.
          this.rowPending = true
          this.rowSeq0 = seq
          this.rowLine = this.line
          this.rowFrame = frame
          this.rowByte = byte
          this.rowBytes = bytes
          this.rowStart = start
          this.rowEnd = end
          this.rowOwned = false
          this.events++
          this.lastSeq = seq
          this.expected = null
        } else {
          this.advance(seq, seq)
        }
        if (onRecord !== undefined) onRecord({ at: { line: this.line, frame, byte }, text: text ?? utf8(bytes, start, end), type, seq })
        return true
      }
    }
    text ??= utf8(bytes, start, end)
    const at: LogPosition = { line: this.line, frame, byte }
    let value: unknown
    try {
      value = JSON.parse(text)
    } catch (error) {
      this.flushRow()
      this.report({ kind: 'unparsable-line', at, message: `${where(at)} is not valid JSON: ${(error as Error).message}` })
      this.expected = null
      return false
    }
    const range = recordSeqRange(value)
    const recordType = isRecord(value) && typeof value.type === 'string' ? value.type : '?'
    let events: LogEvent[] | undefined
    if (this.options.expand || isChunkRowTagged(value)) {
      try {
        events = expandStorageRecord(value)
      } catch (error) {
        this.flushRow()
        this.report({ kind: 'malformed-row', at, message: `${where(at)}: ${(error as Error).message}` })
        this.expected = null
        return false
      }
    }
    if (range === null) {
      this.flushRow()
      this.report({ kind: 'unparsable-line', at, message: `${where(at)} has no event seq` })
      this.expected = null
      return false
    }
    this.settleRow(range[0])
    this.checkSeq(range[0], frame, byte)
    this.advance(range[0], range[1])
    this.options.onRecord?.({ at, text, type: recordType, seq: range[0], value, ...(this.options.expand && events ? { events } : {}) })
    return true
  }

  private takeHeader(text: string, at: LogPosition): void {
    let value: unknown
    try {
      value = JSON.parse(text)
    } catch (error) {
      this.report({ kind: 'bad-header', at, message: `${where(at)} (the header) is not valid JSON: ${(error as Error).message}` })
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
    if (!this.rowPending) return
    this.rowPending = false
    if (nextSeq > this.rowSeq0) {
      this.events += nextSeq - this.rowSeq0 - 1
      this.lastSeq = nextSeq - 1
      this.expected = nextSeq
    } else {
      this.expected = this.rowSeq0 + 1
    }
  }

  /** An unparsed packed row with no usable successor (end of log, damaged next line) is parsed for its seq range. */
  private flushRow(): void {
    if (!this.rowPending) return
    this.rowPending = false
    let value: unknown
    try {
      value = JSON.parse(utf8(this.rowBytes, this.rowStart, this.rowEnd))
    } catch (error) {
      const at: LogPosition = { line: this.rowLine, frame: this.rowFrame, byte: this.rowByte }
      this.report({ kind: 'unparsable-line', at, message: `${where(at)} is not valid JSON: ${(error as Error).message}` })
      return
    }
    const range = recordSeqRange(value)
    if (range === null) return
    this.events += range[1] - range[0]
    this.lastSeq = range[1]
    this.expected = range[1] + 1
  }

  private checkSeq(first: number, frame: number | null, byte: number): void {
    // Every event is read after its line's seq is checked here, so the first check sees the first seq.
    if (this.firstSeq === -1) this.firstSeq = first
    if (this.expected !== null && first !== this.expected) {
      const at: LogPosition = { line: this.line, frame, byte }
      this.report({
        kind: 'seq-gap',
        at,
        expected: this.expected,
        got: first,
        message: `${where(at)} continues the log at seq ${first}; expected ${this.expected}`,
      })
    }
  }

  private advance(first: number, last: number): void {
    this.events += last - first + 1
    this.lastSeq = last
    this.expected = last + 1
  }
}

function concatBytes(a: Uint8Array, b: Uint8Array): Uint8Array {
  const out = new Uint8Array(a.length + b.length)
  out.set(a, 0)
  out.set(b, a.length)
  return out
}

/**
 * The file byte offset a line's {@link LogPosition} carries: its frame's in a zstd log, its own in
 * a plain log (`offset` bytes into the chunk that starts at `byte`).
 */
function lineByte(frame: number | null, byte: number, offset: number): number {
  return frame === null ? byte + offset : byte
}

function where(at: LogPosition): string {
  return lineAt(at.line, at.frame, at.byte)
}
