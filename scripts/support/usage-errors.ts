/**
 * The command-line mistakes of the log tools, each exit code 2: a {@link UsageError} is reported
 * with the usage text, an {@link OptionError} on one line pointing to `--help`, a
 * {@link UsageLineError} on one line alone. Pure.
 *
 * @module dsh-message-recall/scripts/support/usage-errors
 */

/** A command-line mistake; reported with the usage line and exit code 2. */
export class UsageError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'UsageError'
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

/**
 * A mistake the usage text does not help with (options that do not combine, `--frames` on a
 * plain JSONL log, an empty `--text`): exit code 2 like any {@link UsageError}, reported as its
 * message on one line, without the usage text.
 */
export class UsageLineError extends UsageError {
  /** @param message - the whole line, naming what was given. */
  constructor(message: string) {
    super(message)
    this.name = 'UsageLineError'
  }
}
