/**
 * Argument parsing of the log tools on `node:util` `parseArgs`, strict: the options every tool
 * accepts, the `--decoder` option, an option value that starts with a dash, one path or a
 * sessions root. Pure (the default sessions root is read from the environment given).
 *
 * @module dsh-message-recall/scripts/support/arguments
 */
import { parseArgs, type ParseArgsConfig } from 'node:util'
import { defaultSessionsRoot } from '../../src/log/session-roots'
import { OptionValueError } from './option-values'
import { OptionError, UsageError } from './usage-errors'

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
