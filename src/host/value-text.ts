/**
 * A request value as short text for an error message. Refusals name the offending value
 * (`seq must be a non-negative safe integer, got -1`); echoing it with `JSON.stringify` would
 * throw `RangeError: Maximum call stack size exceeded` on a value nested a few thousand levels
 * deep (V8 serializes recursively), and would copy a value of any size into the reply.
 *
 * @module dsh-message-recall/host/value-text
 */

/** Longest text {@link valueText} returns before its closing `…`, in UTF-16 code units. */
export const VALUE_TEXT_MAX = 80

/** Deepest container {@link valueText} opens; a deeper one reads `…`. */
export const VALUE_TEXT_DEPTH = 8

/** Thrown inside {@link valueText} when the text is long enough. */
const FULL = Symbol('full')

/**
 * A JSON value as JSON text for a message: equal to `JSON.stringify(value)` for a value of at most
 * {@link VALUE_TEXT_MAX} characters and {@link VALUE_TEXT_DEPTH} levels; longer text is cut there
 * and ends with `…`, a deeper container reads `…`. Never throws, whatever the depth or size.
 * @param value - a value `JSON.parse` produced, or `undefined` (a missing field).
 * @returns the text; `undefined` (a field not sent) reads `nothing`
 *   (`sessionId must be a non-empty string, got nothing`).
 */
export function valueText(value: unknown): string {
  if (value === undefined) return 'nothing'
  let text = ''
  const put = (part: string): void => {
    text += part
    if (text.length > VALUE_TEXT_MAX) throw FULL
  }
  const write = (item: unknown, depth: number): void => {
    if (item === null || typeof item !== 'object') {
      // A long string is cut before it is quoted, so it costs no more than the limit (and is cut below).
      put(typeof item === 'string' ? JSON.stringify(item.length > VALUE_TEXT_MAX ? item.slice(0, VALUE_TEXT_MAX + 1) : item) : String(JSON.stringify(item)))
      return
    }
    if (depth >= VALUE_TEXT_DEPTH) {
      put('…')
      return
    }
    if (Array.isArray(item)) {
      put('[')
      item.forEach((element, i) => {
        if (i > 0) put(',')
        write(element, depth + 1)
      })
      put(']')
      return
    }
    put('{')
    Object.keys(item).forEach((key, i) => {
      if (i > 0) put(',')
      put(`${JSON.stringify(key.length > VALUE_TEXT_MAX ? key.slice(0, VALUE_TEXT_MAX + 1) : key)}:`)
      write((item as Record<string, unknown>)[key], depth + 1)
    })
    put('}')
  }
  try {
    write(value, 0)
    return text
  } catch (error) {
    if (error !== FULL) throw error
    return `${text.slice(0, VALUE_TEXT_MAX)}…`
  }
}
