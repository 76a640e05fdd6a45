/**
 * Counts in the words of the log tools and their messages: a number with its noun in the right
 * number (`1 tombstone`, `2 tombstones`, `0 tombstones`). English only, as every text the log
 * tools print. Pure and browser-safe.
 *
 * @module dsh-message-recall/log/counted
 */

/**
 * The form of a word that goes with a count, without the count (for the verb or the noun of a
 * phrase the count does not start: `splits tool call X` / `splits tool calls X, Y`).
 * @param count - how many (a whole number; `one` is used only for exactly 1).
 * @param one - the form for one, e.g. `tool call`, `is`.
 * @param other - the form for any other count; `one` + `s` when omitted.
 * @returns `one` or `other`.
 */
export function forCount(count: number, one: string, other = `${one}s`): string {
  return count === 1 ? one : other
}

/**
 * A count with its noun.
 * @param count - how many (a whole number; the form for one is used only for exactly 1).
 * @param one - the noun (or noun phrase) for one, e.g. `tool-result prune`.
 * @param other - the noun for any other count; `one` + `s` when omitted (`frame` → `frames`).
 * @returns `"<count> <noun>"`, e.g. `1 restore`, `3 restores`, `1 further problem`.
 */
export function counted(count: number, one: string, other = `${one}s`): string {
  return `${count} ${forCount(count, one, other)}`
}
