/**
 * Structural equality of JSON values, the one rule for "the same value" of two parsed events or
 * payloads: key order ignored, arrays in order, primitives by `===`. Exact for what `JSON.parse`
 * returns (plain objects, arrays, strings, finite numbers, booleans, `null`), and cheaper than
 * `node:util` `isDeepStrictEqual`, which also weighs prototypes, symbols and non-JSON types.
 *
 * @module dsh-message-recall/shared/same-json
 */
import { isRecord } from './events'

/**
 * Whether two JSON values are structurally equal.
 * @param a - a JSON value.
 * @param b - a JSON value.
 * @returns true when equal (an object's own keys and their values alike, any order).
 */
export function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false
    for (let i = 0; i < a.length; i++) if (!sameJson(a[i], b[i])) return false
    return true
  }
  if (!isRecord(a) || !isRecord(b) || Array.isArray(b)) return false
  const keys = Object.keys(a)
  if (keys.length !== Object.keys(b).length) return false
  for (const key of keys) if (!Object.hasOwn(b, key) || !sameJson(a[key], b[key])) return false
  return true
}
