/**
 * JSON text of a reply in steps, for {@link runSliced}: the reply of a `plan` or `apply` of
 * 10,000 changes is about a megabyte of JSON, and `JSON.stringify` writes it in one piece.
 *
 * @module dsh-message-recall/host/json-steps
 */

/** Elements of one array written between two steps. */
export const JSON_STEP_ELEMENTS = 512

/**
 * The text `JSON.stringify(value)` returns, written in steps: plain objects are walked key by key
 * and arrays in runs of {@link JSON_STEP_ELEMENTS} elements, with a step between runs; everything
 * else (and every array element) is written by `JSON.stringify` whole.
 * @param value - a JSON-serializable value without `toJSON` methods (a route reply).
 * @returns a generator whose return value is the text.
 */
export function* jsonSteps(value: unknown): Generator<void, string, void> {
  const parts: string[] = []
  function* write(item: unknown): Generator<void, void, void> {
    if (Array.isArray(item)) {
      if (item.length <= JSON_STEP_ELEMENTS) {
        parts.push(JSON.stringify(item))
        return
      }
      parts.push('[')
      for (let start = 0; start < item.length; start += JSON_STEP_ELEMENTS) {
        if (start > 0) yield
        const run = item.slice(start, start + JSON_STEP_ELEMENTS)
        const text = JSON.stringify(run)
        parts.push(start === 0 ? text.slice(1, -1) : `,${text.slice(1, -1)}`)
      }
      parts.push(']')
      return
    }
    if (item === null || typeof item !== 'object') {
      parts.push(JSON.stringify(item) ?? 'null')
      return
    }
    parts.push('{')
    let first = true
    for (const [key, inner] of Object.entries(item)) {
      if (inner === undefined || typeof inner === 'function' || typeof inner === 'symbol') continue
      parts.push(`${first ? '' : ','}${JSON.stringify(key)}:`)
      first = false
      yield* write(inner)
    }
    parts.push('}')
  }
  yield* write(value)
  return parts.join('')
}

/**
 * Whether {@link jsonSteps} would take more than one step for `value`: only an array of more than
 * {@link JSON_STEP_ELEMENTS} elements, reached through plain objects' keys, is written in runs.
 * When it would not, `JSON.stringify(value)` writes the same text in one piece, faster (a reply
 * that small fits in one slice). Reads only the objects' keys, never an array's elements.
 * @param value - as for {@link jsonSteps}.
 * @returns `true` when writing `value` in steps would pause between runs.
 */
export function takesSteps(value: unknown): boolean {
  if (Array.isArray(value)) return value.length > JSON_STEP_ELEMENTS
  if (value === null || typeof value !== 'object') return false
  for (const inner of Object.values(value)) if (takesSteps(inner)) return true
  return false
}
