/**
 * The values of the options that take one (`--decoder`, `--hours`, `--limit`, `--port`,
 * `--tombstone`), read strictly: anything else is an {@link OptionValueError} naming the option
 * and what it expects, exit code 2 on one line. Pure.
 *
 * @module dsh-message-recall/scripts/support/option-values
 */
import { DECODER_NAMES, type DecoderName } from '../../src/log/frame-decoder'
import { UsageError } from './usage-errors'

/** What the value of each option that takes one must be, as the messages say it. */
const OPTION_VALUES = {
  decoder: `a decoder name (one of auto, ${DECODER_NAMES.join(', ')})`,
  hours: 'a positive number of hours',
  limit: 'a positive whole number of sessions',
  port: 'a port number 0–65535',
  tombstone: 'a seq (a non-negative integer)',
} as const

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
