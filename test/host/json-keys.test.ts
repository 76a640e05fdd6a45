/**
 * The repeated-key scanner the route runs over a request body after `JSON.parse` accepted it:
 * hand-picked texts with escaped quotes, backslashes and nesting, and properties against a
 * reference that knows which keys were written; and the key count that tells the route when to run it.
 */
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import fc from 'fast-check'
import { countKeys, findDuplicateKey } from '../../src/host/json-keys'

/** Every UTF-16 code unit as a `\uXXXX` escape: the same key, spelled differently. */
const escaped = (key: string) => `"${Array.from({ length: key.length }, (_, i) => `\\u${key.charCodeAt(i).toString(16).padStart(4, '0')}`).join('')}"`

describe('findDuplicateKey', () => {
  const cases: [label: string, text: string, expected: ReturnType<typeof findDuplicateKey>][] = [
    ['distinct keys', '{"action":"plan","planAction":"delete","seq":4}', null],
    ['a repeated top-level key', '{"action":"plan","action":"delete","seq":4}', { key: 'action', path: [] }],
    ['the same key spelled with an escape', '{"action":"plan","\\u0061ction":"delete"}', { key: 'action', path: [] }],
    ['a key repeated in a nested object', '{"sessionId":"s","expect":{"lastSeq":1,"lastSeq":9}}', { key: 'lastSeq', path: ['expect'] }],
    ['equal keys in sibling objects are not repeats', '{"a":{"x":1},"b":{"x":2},"c":[{"x":3},{"x":4}]}', null],
    ['a repeat inside an object in an array', '{"list":[1,{"k":1,"k":2}]}', { key: 'k', path: ['list'] }],
    ['a value equal to a key is not a key', '{"action":"action","seq":"action"}', null],
    ['an escaped quote inside a value', '{"messageId":"say \\"action\\":1,","action":"delete"}', null],
    ['an escaped quote inside a key', '{"a\\"b":1,"a\\"b":2}', { key: 'a"b', path: [] }],
    ['a value ending in an escaped backslash', '{"messageId":"dir\\\\","action":"delete","action":"plan"}', { key: 'action', path: [] }],
    ['braces and commas inside strings', '{"x":"{\\"y\\":1,\\"y\\":2}","y":[",","}"]}', null],
    ['the empty key twice', '{"":1,"":2}', { key: '', path: [] }],
    ['whitespace around keys', '{ "seq" : 1 ,\n\t"seq" : 2 }', { key: 'seq', path: [] }],
    ['a scalar body', '42', null],
    ['an empty object and array', '{"a":{},"b":[],"c":[[]]}', null],
    ['a top-level array of objects', '[{"a":1},{"a":1,"b":2,"a":3}]', { key: 'a', path: [] }],
  ]
  for (const [label, text, expected] of cases) {
    it(label, () => {
      JSON.parse(text) // every case is valid JSON
      assert.deepEqual(findDuplicateKey(text), expected)
    })
  }

  it('finds nothing in any JSON.stringify output (its objects never repeat a key)', () => {
    fc.assert(fc.property(fc.jsonValue(), (value) => findDuplicateKey(JSON.stringify(value)) === null), { numRuns: 500 })
  })

  it('finds the first key written twice in an object, however its keys are spelled and nested', () => {
    const entry = fc.tuple(fc.string({ unit: 'binary', maxLength: 6 }), fc.jsonValue({ maxDepth: 2 }), fc.boolean())
    fc.assert(
      fc.property(fc.array(entry, { maxLength: 8 }), fc.boolean(), (entries, nest) => {
        const inner = `{${entries.map(([key, value, spell]) => `${spell ? escaped(key) : JSON.stringify(key)}:${JSON.stringify(value)}`).join(',')}}`
        const text = nest ? `{"before":{"k":1},"outer":[0,${inner}],"k":2}` : inner
        const seen = new Set<string>()
        let first: string | null = null
        for (const [key] of entries) {
          if (seen.has(key)) {
            first = key
            break
          }
          seen.add(key)
        }
        const parsed = JSON.parse(text) as unknown
        assert.ok(parsed !== undefined)
        assert.deepEqual(findDuplicateKey(text), first === null ? null : { key: first, path: nest ? ['outer'] : [] })
      }),
      { numRuns: 500 },
    )
  })
})

/** Own keys of every object in a parsed value. */
function parsedKeys(value: unknown): number {
  if (Array.isArray(value)) return value.reduce((sum: number, item) => sum + parsedKeys(item), 0)
  if (value === null || typeof value !== 'object') return 0
  return Object.entries(value).reduce((sum, [, item]) => sum + 1 + parsedKeys(item), 0)
}

describe('countKeys', () => {
  it('counts every key written, repeats included, and no string value', () => {
    const cases: [string, number][] = [
      [String.raw`{"action":"plan","planAction":"delete","seq":4}`, 3],
      [String.raw`{"action":"plan","action":"delete","seq":4}`, 3],
      [String.raw`{"a":":b","c":"\\","d":1}`, 3],
      [String.raw`{"messageId":"say \"action\":1,","action":"delete"}`, 2],
      [String.raw`{"a\"b":1,"a\"b":2}`, 2],
      [String.raw`{"dir\\":"x\\","y":[":",{"":{}}]}`, 3],
      ['{ "seq" : 1 ,\n\t"seq" : 2 }', 2],
      ['"a"', 0],
      ['42', 0],
      ['[]', 0],
    ]
    for (const [text, count] of cases) {
      JSON.parse(text) // every case is valid JSON
      assert.equal(countKeys(text), count, text)
    }
  })

  it('equals the parsed keys exactly when no object repeats a key', () => {
    fc.assert(fc.property(fc.jsonValue(), (value) => countKeys(JSON.stringify(value)) === parsedKeys(JSON.parse(JSON.stringify(value)))), { numRuns: 500 })
    const entry = fc.tuple(fc.string({ unit: 'binary', maxLength: 4 }), fc.jsonValue({ maxDepth: 2 }), fc.boolean())
    fc.assert(
      fc.property(fc.array(entry, { maxLength: 8 }), (entries) => {
        const text = `{${entries.map(([key, value, spell]) => `${spell ? escaped(key) : JSON.stringify(key)} : ${JSON.stringify(value)}`).join(',')}}`
        assert.equal(countKeys(text) === parsedKeys(JSON.parse(text)), findDuplicateKey(text) === null, text)
      }),
      { numRuns: 500 },
    )
  })
})
