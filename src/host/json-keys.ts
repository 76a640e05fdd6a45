/**
 * Repeated object keys in JSON text. `JSON.parse` keeps the last of two equal keys without a word
 * (ECMA-262 `InternalizeJSONProperty` sees only the surviving property, so a reviver cannot tell),
 * which would let `{"action":"plan","action":"delete"}` read as a write. The route refuses such a
 * body; this module finds the repeat.
 *
 * @module dsh-message-recall/host/json-keys
 */

/** A key written twice in one JSON object. */
export interface DuplicateKey {
  /** The key, with its escapes decoded (`"a"` and `"\u0061"` are the same key). */
  readonly key: string
  /** Keys of the enclosing objects from the top (array elements add nothing), e.g. `['expect']`. */
  readonly path: readonly string[]
}

const QUOTE = 0x22
const BACKSLASH = 0x5c
const OPEN_OBJECT = 0x7b
const CLOSE_OBJECT = 0x7d
const OPEN_ARRAY = 0x5b
const CLOSE_ARRAY = 0x5d
const COMMA = 0x2c
const COLON = 0x3a

/** Keys of one object kept in a list before they move to a `Set` (a request body holds hundreds of two-key objects; a list is cheaper to make and to search at that size). */
const LIST_KEYS = 8

/** One open container: an object with the keys seen so far and the key it sits under, or an array (`keys` is `null`). */
interface Frame {
  keys: string[] | Set<string> | null
  readonly under: string | null
}

/**
 * Find the first object key that appears twice in the same object.
 *
 * A single pass over the text: strings are skipped by their closing quote (a backslash skips the
 * character after it, so `\"` and `\\` are handled), and a string counts as a key when it is the
 * first token after `{` or after a `,` inside an object.
 * @param text - JSON text that `JSON.parse` has already accepted; for other text the answer is
 *   unspecified and a `SyntaxError` may be thrown.
 * @returns the first repeated key in text order with the path of the object holding it, or `null`
 *   when every object's keys are distinct.
 */
export function findDuplicateKey(text: string): DuplicateKey | null {
  const stack: Frame[] = []
  let expectKey = false
  let lastKey: string | null = null
  const length = text.length
  for (let i = 0; i < length; i++) {
    const code = text.charCodeAt(i)
    if (code === QUOTE) {
      let end = i + 1
      let escaped = false
      while (end < length && text.charCodeAt(end) !== QUOTE) {
        if (text.charCodeAt(end) === BACKSLASH) {
          escaped = true
          end += 2
        } else end += 1
      }
      if (expectKey) {
        const frame = stack[stack.length - 1]!
        const keys = frame.keys!
        // Only a key with an escape needs decoding (a request body holds thousands of plain keys).
        const key = escaped ? (JSON.parse(text.slice(i, end + 1)) as string) : text.slice(i + 1, end)
        if (Array.isArray(keys) ? keys.includes(key) : keys.has(key)) return { key, path: stack.flatMap((open) => (open.under === null ? [] : [open.under])) }
        if (!Array.isArray(keys)) keys.add(key)
        else if (keys.length < LIST_KEYS) keys.push(key)
        else frame.keys = new Set([...keys, key])
        lastKey = key
        expectKey = false
      }
      i = end
    } else if (code === OPEN_OBJECT) {
      stack.push({ keys: [], under: stack[stack.length - 1]?.keys ? lastKey : null })
      expectKey = true
    } else if (code === OPEN_ARRAY) {
      stack.push({ keys: null, under: stack[stack.length - 1]?.keys ? lastKey : null })
      expectKey = false
    } else if (code === CLOSE_OBJECT || code === CLOSE_ARRAY) {
      stack.pop()
      expectKey = false
    } else if (code === COMMA) {
      expectKey = stack[stack.length - 1]?.keys != null
    }
  }
  return null
}

/**
 * How many object keys JSON text writes, counting a repeated key each time it is written. Equal to
 * the number of own keys of every object `JSON.parse(text)` returns exactly when no object repeats
 * a key (`JSON.parse` keeps one property per distinct key), so a caller that counts the parsed
 * keys needs {@link findDuplicateKey} only when the two differ. A jump from quote to quote
 * (`indexOf`) with no string made: about a third of {@link findDuplicateKey}'s time.
 * @param text - JSON text that `JSON.parse` has already accepted; for other text the answer is unspecified.
 * @returns the number of keys written.
 */
export function countKeys(text: string): number {
  let count = 0
  for (let open = text.indexOf('"'); open !== -1; open = text.indexOf('"', open)) {
    // The closing quote: the next quote that no odd run of backslashes escapes.
    let close = text.indexOf('"', open + 1)
    for (;;) {
      if (close === -1) return count
      let slashes = 0
      while (text.charCodeAt(close - 1 - slashes) === BACKSLASH) slashes++
      if (slashes % 2 === 0) break
      close = text.indexOf('"', close + 1)
    }
    // A string is a key exactly when a colon follows it (after a value comes `,`, `}` or `]`).
    let next = close + 1
    let code = text.charCodeAt(next)
    while (code === 0x20 || code === 0x0a || code === 0x0d || code === 0x09) code = text.charCodeAt(++next)
    if (code === COLON) count++
    open = next
  }
  return count
}
