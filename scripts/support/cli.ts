/**
 * What the read-only log scripts share: argument parsing on `node:util` `parseArgs`, the exit
 * codes, the `--decoder` option, progress lines on stderr for long scans, and the top-level
 * error handling that turns unreadable input into exit code 2.
 *
 * Node only.
 *
 * @module dsh-message-recall/scripts/support/cli
 */
import { stat } from 'node:fs/promises'
import { parseArgs, type ParseArgsConfig } from 'node:util'
import { DECODER_NAMES, DecoderUnavailableError, type DecoderName } from '../../src/log/frame-decoder'
import { SessionLogInputError } from '../../src/log/log-file'
import { defaultSessionsRoot, SESSIONS_ROOT_RULE } from '../../src/log/session-roots'
import { counted } from '../../src/log/counted'

/** Exit codes of every script. */
export const EXIT = {
  /** Nothing wrong found. */
  ok: 0,
  /** The tool ran and found a problem (torn tail, corrupt frame, unreadable file in a scan, …). */
  problem: 1,
  /** Bad usage, or the input could not be read at all. */
  usage: 2,
} as const

/** A command-line mistake; reported with the usage line and exit code 2. */
export class UsageError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'UsageError'
  }
}

/**
 * A value a command-line option cannot take (a negative, zero or non-numeric `--hours`, an
 * unknown `--decoder`, a value left out). Exit code 2 like any {@link UsageError}, reported on one
 * line, without the usage text.
 */
export class OptionValueError extends UsageError {
  /**
   * @param name - the option, without the dashes (`hours`).
   * @param value - what was given, or `null` when the value was left out.
   */
  constructor(name: string, value: string | null) {
    super(`--${name} expects ${OPTION_VALUES[name as keyof typeof OPTION_VALUES] ?? 'a value'}, got ${value === null ? 'nothing' : JSON.stringify(value)}`)
    this.name = 'OptionValueError'
  }
}

/**
 * An option the command does not have (`--bogus`, `--limit` on `scan`), or a value given to an
 * option that takes none (`--json=yes`). Exit code 2 like any {@link UsageError}, reported on one
 * line naming the command and pointing to its `--help`, without the usage text.
 */
export class OptionError extends UsageError {
  /** @param message - what is wrong, naming the option as given (`unknown option --bogus`). */
  constructor(message: string) {
    super(message)
    this.name = 'OptionError'
  }
}

/** What the value of each option that takes one must be, as the messages say it. */
const OPTION_VALUES = {
  decoder: `a decoder name (one of auto, ${DECODER_NAMES.join(', ')})`,
  hours: 'a positive number of hours',
  limit: 'a positive whole number of sessions',
  port: 'a port number 0–65535',
} as const

/** Options every script accepts. */
export const COMMON_OPTIONS = {
  help: { type: 'boolean', short: 'h' },
  json: { type: 'boolean' },
} as const satisfies ParseArgsConfig['options']

/** The `--decoder` option of the scripts that decode logs. */
export const DECODER_OPTION = { decoder: { type: 'string' } } as const satisfies ParseArgsConfig['options']

/**
 * Parse `argv` strictly.
 * @param argv - arguments after the script name.
 * @param options - `parseArgs` option table (merge {@link COMMON_OPTIONS} in).
 * @returns `values` and `positionals`.
 * @throws OptionError on an unknown option or a value given to a boolean option; OptionValueError
 *   on a missing option value.
 */
export function parseCli<O extends NonNullable<ParseArgsConfig['options']>>(argv: readonly string[], options: O) {
  const args = joinOptionValues(argv, options)
  // A lenient pass first, to name an unknown option or a stray value in our own words.
  const { tokens } = parseArgs({ args, options, allowPositionals: true, strict: false, tokens: true })
  for (const token of tokens) {
    if (token.kind !== 'option') continue
    if (!Object.hasOwn(options, token.name)) throw new OptionError(`unknown option ${token.rawName}`)
    if (options[token.name]!.type === 'boolean' && token.value !== undefined) throw new OptionError(`${token.rawName} takes no value, got ${JSON.stringify(token.value)}`)
  }
  try {
    return parseArgs({ args, options, allowPositionals: true, strict: true })
  } catch (error) {
    throw new UsageError((error as Error).message)
  }
}

/**
 * Take the argument after an option that needs a value as that value even when it starts with a
 * dash, so `--hours -5` reads as `--hours=-5` (`parseArgs` would call it ambiguous), unless it is
 * itself an option of the table: then, or at the end of the arguments, the value is missing.
 * Nothing after `--` is touched.
 * @param argv - arguments after the script name.
 * @param options - the `parseArgs` option table.
 * @returns the arguments with each such pair written as `--name=value`.
 * @throws OptionValueError when an option that needs a value has none.
 */
function joinOptionValues(argv: readonly string[], options: NonNullable<ParseArgsConfig['options']>): string[] {
  const takesValue = new Set(Object.entries(options).filter(([, o]) => o.type === 'string').map(([name]) => name))
  const isOption = (arg: string): boolean => {
    if (arg.startsWith('--')) return Object.hasOwn(options, arg.slice(2).split('=')[0]!)
    return arg.length === 2 && arg[0] === '-' && Object.values(options).some((o) => o.short === arg[1])
  }
  const out: string[] = []
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!
    if (arg === '--') {
      out.push(...argv.slice(i))
      break
    }
    const name = arg.startsWith('--') ? arg.slice(2) : null
    if (name === null || !takesValue.has(name)) {
      out.push(arg)
      continue
    }
    const next = argv[i + 1]
    if (next === undefined || next === '--' || isOption(next)) throw new OptionValueError(name, null)
    out.push(`--${name}=${next}`)
    i++
  }
  return out
}

/**
 * Parse `argv` for a command that takes exactly one path.
 * @param argv - arguments after the script name.
 * @param options - `parseArgs` option table (merge {@link COMMON_OPTIONS} in).
 * @param what - what the path names, for the message (e.g. `the sessions root`).
 * @returns `values`, and `target` (the one positional), or `null` for `target` with `--help`.
 * @throws UsageError on an unknown option, a missing value, or not exactly one path.
 */
export function parseOneTarget<O extends NonNullable<ParseArgsConfig['options']>>(argv: readonly string[], options: O, what: string) {
  const { values, positionals } = parseCli(argv, options)
  if ((values as { help?: boolean }).help === true) return { values, target: null }
  if (positionals.length !== 1) throw new UsageError(positionals.length === 0 ? `missing ${what}` : `expected one path (${what}), got ${positionals.length}`)
  return { values, target: positionals[0]! }
}

/**
 * Parse `argv` for a command over a sessions root, which may be omitted.
 * @param argv - arguments after the script name.
 * @param options - `parseArgs` option table (merge {@link COMMON_OPTIONS} in).
 * @param env - environment holding `DSH_HOME` (default `process.env`).
 * @returns `values`; `root`, the one positional or else {@link defaultSessionsRoot}, or `null`
 *   with `--help`; `defaulted`, `true` when no root was given.
 * @throws UsageError on an unknown option, a missing value, or more than one path.
 */
export function parseRootTarget<O extends NonNullable<ParseArgsConfig['options']>>(argv: readonly string[], options: O, env: NodeJS.ProcessEnv = process.env) {
  const { values, positionals } = parseCli(argv, options)
  if ((values as { help?: boolean }).help === true) return { values, root: null, defaulted: false }
  if (positionals.length > 1) throw new UsageError(`expected at most one path (the sessions root), got ${positionals.length}`)
  const given = positionals[0]
  return { values, root: given ?? defaultSessionsRoot(env), defaulted: given === undefined }
}

/**
 * Check that the sessions root is a readable folder, naming where a defaulted root came from.
 * @param root - from {@link parseRootTarget}.
 * @param defaulted - `true` when the root was not given.
 * @throws SessionLogInputError when it is not a readable folder (one line, exit code 2).
 */
export async function assertRoot(root: string, defaulted: boolean): Promise<void> {
  try {
    await assertFolder(root)
  } catch (error) {
    if (!defaulted || !(error instanceof SessionLogInputError)) throw error
    throw new SessionLogInputError(`no sessions root given, and the default ${root} (${SESSIONS_ROOT_RULE}) is not a readable folder: ${error.message}`, error.code)
  }
}

/**
 * Check that `root` is a readable folder.
 * @throws SessionLogInputError `not-found` when nothing is there (`no such file or folder: <root>`,
 *   the words the single-log commands use), `not-a-log` when it is not a folder, `unreadable`
 *   when the file system refuses.
 */
export async function assertFolder(root: string): Promise<void> {
  let isDirectory: boolean
  try {
    isDirectory = (await stat(root)).isDirectory()
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    if (code === 'ENOENT' || code === 'ENOTDIR') throw new SessionLogInputError(`no such file or folder: ${root}`, 'not-found')
    throw new SessionLogInputError(`cannot read ${root}: ${(error as Error).message}`, 'unreadable')
  }
  if (!isDirectory) throw new SessionLogInputError(`${root} is not a folder`, 'not-a-log')
}

/**
 * Read `--decoder`.
 * @param value - the option value, or `undefined`.
 * @returns the decoder name, `auto` when absent.
 * @throws UsageError for an unknown name.
 */
export function decoderOption(value: string | undefined): DecoderName | 'auto' {
  if (value === undefined || value === 'auto') return 'auto'
  if ((DECODER_NAMES as readonly string[]).includes(value)) return value as DecoderName
  throw new OptionValueError('decoder', value)
}

/**
 * Read `--hours`: a positive decimal number (`24`, `0.5`, `.5`).
 * @param value - the option value, or `undefined`.
 * @returns the hours, or `undefined` when absent.
 * @throws OptionValueError for anything else: zero, a negative, `abc`, `Infinity`, `1e3`, an empty value.
 */
export function hoursOption(value: string | undefined): number | undefined {
  if (value === undefined) return undefined
  const hours = /^(?:\d+(?:\.\d*)?|\.\d+)$/.test(value) ? Number(value) : NaN
  if (!(hours > 0 && Number.isFinite(hours))) throw new OptionValueError('hours', value)
  return hours
}

/**
 * Read `--limit`: a positive whole number of sessions.
 * @param value - the option value, or `undefined`.
 * @returns the limit, or `undefined` when absent.
 * @throws OptionValueError for anything else: zero, a negative, a fraction, `abc`, `Infinity`, an empty value.
 */
export function limitOption(value: string | undefined): number | undefined {
  if (value === undefined) return undefined
  const limit = /^\d+$/.test(value) ? Number(value) : NaN
  if (!(limit > 0 && Number.isSafeInteger(limit))) throw new OptionValueError('limit', value)
  return limit
}

/**
 * Read `--port`: a TCP port, a whole number 0–65535 (0 lets the system pick a free one).
 * @param value - the option value, or `undefined`.
 * @returns the port, or `undefined` when absent.
 * @throws OptionValueError for anything else: a negative, a fraction, 65536 or more, `abc`, an empty value.
 */
export function portOption(value: string | undefined): number | undefined {
  if (value === undefined) return undefined
  const port = /^\d{1,5}$/.test(value) ? Number(value) : NaN
  if (!(port >= 0 && port <= 65535)) throw new OptionValueError('port', value)
  return port
}

/**
 * Progress of reading one log file, for files over {@link PROGRESS_FILE_BYTES}.
 * @param label - the command, e.g. `read`.
 * @param size - the file's size in bytes.
 * @returns the reader's `onProgress` callback and `done()`.
 */
export function fileProgress(label: string, size: number): { onProgress: (read: number, size: number) => void; done(): void } {
  const bar = progress(label, 'MB', size > PROGRESS_FILE_BYTES)
  return { onProgress: (read, total) => bar.update(read, total, read), done: () => bar.done() }
}

/** Files above this size get a progress line when read or verified. */
export const PROGRESS_FILE_BYTES = 50 * 1024 * 1024

/** Least time between two progress lines, ms. */
const PROGRESS_INTERVAL_MS = 200

/** A progress line on stderr; see {@link progress}. */
export interface Progress {
  /**
   * Report how far the work is.
   * @param done - files done (or bytes read, for one file).
   * @param total - files (or bytes) in all.
   * @param bytes - bytes read so far, for the rate.
   */
  update(done: number, total: number, bytes: number): void
  /** Erase the line. */
  done(): void
}

/**
 * A progress line on stderr, rewritten in place: `<label>: <done>/<total> <unit>, <MB> MB, <rate>
 * MB/s`. Shown only when stderr is a terminal (never in a pipe or a file, where it would be
 * noise), at most every 200 ms, and erased by `done()`.
 * @param label - the command, e.g. `list`.
 * @param unit - what `done` and `total` count: `logs`, or `MB` for bytes of one file.
 * @param enabled - `false` prints nothing (`--quiet`, a small file).
 * @param stream - where to write (default `process.stderr`).
 */
export function progress(label: string, unit: 'logs' | 'MB', enabled: boolean, stream: NodeJS.WriteStream = process.stderr): Progress {
  const started = performance.now()
  let last = -Infinity
  let shown = false
  const on = enabled && stream.isTTY === true
  const mb = (bytes: number) => (bytes / 1e6).toFixed(1)
  return {
    update(done: number, total: number, bytes: number): void {
      if (!on) return
      const now = performance.now()
      if (now - last < PROGRESS_INTERVAL_MS && done < total) return
      last = now
      shown = true
      const seconds = (now - started) / 1000
      const rate = seconds > 0 ? `${mb(bytes / seconds)} MB/s` : '… MB/s'
      const count = unit === 'MB' ? `${mb(done)}/${mb(total)} MB` : `${done}/${counted(total, 'log')}, ${mb(bytes)} MB`
      stream.write(`\r\x1b[K${label}: ${count}, ${rate}`)
    },
    done(): void {
      if (shown) stream.write('\r\x1b[K')
    },
  }
}

/**
 * Human size: `512 B`, `1.4 KiB`, `3.2 MiB`, `1.1 GiB`.
 * @param bytes - a byte count.
 */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`
  const units = ['KiB', 'MiB', 'GiB', 'TiB']
  let value = bytes / 1024
  let unit = 0
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024
    unit++
  }
  return `${value.toFixed(1)} ${units[unit]}`
}

/** One read-only log tool: a script in `lib/scripts/` and a subcommand of `dsh-message-recall-log`. */
export interface LogCommand {
  /** Subcommand name. */
  readonly name: 'read' | 'verify' | 'explain' | 'list' | 'scan'
  /** Script name (`lib/scripts/<script>.js`). */
  readonly script: string
  /** One line for the command list. */
  readonly summary: string
  /**
   * The `--help` text.
   * @param invocation - how the command was run (`node lib/scripts/read-session-log.js`, `dsh-message-recall-log read`).
   */
  usage(invocation: string): string
  /**
   * Run the command.
   * @param argv - arguments after the command.
   * @param invocation - as for {@link usage}.
   * @returns the exit code ({@link EXIT}).
   * @throws UsageError, SessionLogInputError or DecoderUnavailableError for {@link runCommand} to report.
   */
  run(argv: readonly string[], invocation: string): Promise<number>
}

/**
 * Run a command as the process: map errors to exit codes and messages, and stop quietly when
 * the reader of stdout goes away.
 * @param command - the command.
 * @param invocation - how it was run, for the usage text.
 * @param argv - arguments after the command.
 */
export function runCommand(command: LogCommand, invocation: string, argv: readonly string[]): void {
  runMain(command.usage(invocation), () => command.run(argv, invocation), invocation)
}

/**
 * Run a main function as the process: print `usage` after a usage error, map errors to exit
 * codes, and stop quietly on a closed stdout.
 * @param usage - the usage text.
 * @param main - returns the exit code.
 * @param invocation - how the command was run, naming it in an {@link OptionError}'s line
 *   (`dsh-message-recall-log list: unknown option --bogus; see --help`).
 */
export function runMain(usage: string, main: () => Promise<number>, invocation?: string): void {
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    // The reader went away (`| head`): stop quietly.
    if (error.code === 'EPIPE') process.exit(process.exitCode ?? EXIT.ok)
    throw error
  })
  main()
    .then((code) => {
      process.exitCode = code
    })
    .catch((error: unknown) => {
      if (error instanceof OptionError) {
        process.stderr.write(`${invocation === undefined ? '' : `${invocation}: `}${error.message}; see --help\n`)
      } else if (error instanceof OptionValueError) {
        process.stderr.write(`${error.message}\n`)
      } else if (error instanceof UsageError) {
        process.stderr.write(`${error.message}\n\n${usage}`)
      } else if (error instanceof SessionLogInputError || error instanceof DecoderUnavailableError) {
        process.stderr.write(`${error.message}\n`)
      } else {
        process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`)
      }
      process.exitCode = EXIT.usage
    })
}

/** Bytes per write to stdout. */
const OUTPUT_CHUNK_BYTES = 1024 * 1024

/**
 * Output collected in large chunks and written to stdout a chunk at a time, so a log of millions
 * of lines takes a few hundred writes, not millions. Bytes are copied in; call {@link drain}
 * where waiting is allowed (after each batch of frames) and {@link end} once at the end.
 */
export class ChunkedOutput {
  private buffer = Buffer.allocUnsafe(OUTPUT_CHUNK_BYTES)
  private used = 0
  private readonly ready: Buffer[] = []
  /** Whether a value was already written in {@link addJsonLines} mode (for the commas). */
  private valuesWritten = false

  /** Append bytes. */
  add(bytes: Uint8Array): void {
    let from = 0
    while (from < bytes.length) {
      const n = Math.min(bytes.length - from, this.buffer.length - this.used)
      this.buffer.set(bytes.subarray(from, from + n), this.used)
      this.used += n
      from += n
      if (this.used === this.buffer.length) this.rotate()
    }
  }

  /** Append text as UTF-8. */
  addText(text: string): void {
    if (text.length * 3 <= this.buffer.length - this.used) this.used += this.buffer.write(text, this.used)
    else this.add(Buffer.from(text))
  }

  /**
   * Append whole lines (each ending in a line break) as members of a JSON array: each line is one
   * JSON value, written with a comma before it unless it is the first.
   */
  addJsonLines(lines: Uint8Array): void {
    if (lines.length === 0) return
    if (this.valuesWritten) this.addText(',')
    this.valuesWritten = true
    const start = this.used
    const body = lines.subarray(0, lines.length - 1)
    if (body.length <= this.buffer.length - this.used) {
      this.buffer.set(body, this.used)
      this.used += body.length
      for (let i = this.buffer.indexOf(0x0a, start); i !== -1 && i < this.used; i = this.buffer.indexOf(0x0a, i + 1)) this.buffer[i] = 0x2c
    } else {
      const copy = Buffer.from(body)
      for (let i = copy.indexOf(0x0a); i !== -1; i = copy.indexOf(0x0a, i + 1)) copy[i] = 0x2c
      this.add(copy)
    }
  }

  /** Append one JSON value as a member of the array {@link addJsonLines} writes. */
  addJsonValue(text: string): void {
    this.addText(this.valuesWritten ? ',' + text : text)
    this.valuesWritten = true
  }

  private rotate(): void {
    this.ready.push(this.buffer.subarray(0, this.used))
    this.buffer = Buffer.allocUnsafe(OUTPUT_CHUNK_BYTES)
    this.used = 0
  }

  /** Write the full chunks, waiting while stdout is congested. */
  async drain(): Promise<void> {
    while (this.ready.length > 0) await outBytes(this.ready.shift()!)
  }

  /** Write everything collected. */
  async end(): Promise<void> {
    if (this.used > 0) this.rotate()
    await this.drain()
  }
}

async function outBytes(bytes: Uint8Array): Promise<void> {
  if (!process.stdout.write(bytes)) await new Promise<void>((resolve) => process.stdout.once('drain', resolve))
}

/**
 * Write to stdout, waiting when the pipe is full (so a large output into `head` or a slow reader
 * neither buffers without bound nor fails).
 * @param text - what to write.
 */
export async function out(text: string): Promise<void> {
  if (!process.stdout.write(text)) await new Promise<void>((resolve) => process.stdout.once('drain', resolve))
}
