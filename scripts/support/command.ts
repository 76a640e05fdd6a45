/**
 * A log tool as a process: the exit codes, the command shape every tool implements, and the
 * top-level handling that maps errors to messages on stderr and exit codes, and stops quietly
 * when the reader of stdout goes away. Node only (process).
 *
 * @module dsh-message-recall/scripts/support/command
 */
import { DecoderUnavailableError } from '../../src/log/frame-decoder'
import { SessionLogInputError } from '../../src/log/log-file'
import { OptionValueError } from './option-values'
import { OptionError, UsageError, UsageLineError } from './usage-errors'

/** Exit codes of every script. */
export const EXIT = {
  /** Nothing wrong found. */
  ok: 0,
  /** The tool ran and found a problem (torn tail, corrupt frame, unreadable file in a scan, …). */
  problem: 1,
  /** Bad usage, or the input could not be read at all. */
  usage: 2,
} as const

/** One log tool (read-only but for `erase`): a script in `lib/scripts/` and a subcommand of `dsh-message-recall-log`. */
export interface LogCommand {
  /** Subcommand name. */
  readonly name: 'read' | 'verify' | 'explain' | 'list' | 'scan' | 'erase'
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
      } else if (error instanceof OptionValueError || error instanceof UsageLineError) {
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
