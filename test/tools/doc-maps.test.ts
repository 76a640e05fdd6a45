/**
 * The two maps a newcomer reads stay whole: CONTRIBUTING.md's module map names every source
 * module, and docs/testing.md has exactly one row for every test file and none for a file that
 * is gone.
 */
import assert from 'node:assert/strict'
import { execFileSync } from 'node:child_process'
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, it } from 'node:test'

const ROOT = join(import.meta.dirname, '..', '..')

/** The files git tracks under `dir`. */
function tracked(dir: string): string[] {
  return execFileSync('git', ['ls-files', dir], { cwd: ROOT, encoding: 'utf8' }).split('\n').filter(Boolean)
}

/** The part of `text` from the heading `from` up to the next heading of the same level. */
function section(text: string, from: string): string {
  const start = text.indexOf(`\n${from}\n`)
  assert.notEqual(start, -1, `the heading ${JSON.stringify(from)} exists`)
  const level = from.split(' ')[0]!
  const next = text.indexOf(`\n${level} `, start + from.length + 2)
  return text.slice(start, next === -1 ? undefined : next)
}

describe('the documentation maps', () => {
  it('CONTRIBUTING.md names every source module in its module map', () => {
    const map = section(readFileSync(join(ROOT, 'CONTRIBUTING.md'), 'utf8'), '## Module map')
    const modules = tracked('src').filter((f) => /\.tsx?$/.test(f) && !f.endsWith('.d.ts'))
    assert.ok(modules.length > 100, `src holds ${modules.length} modules`)
    // A module is named by its path inside its half (`host/`, `client/`, `shared/`, `log/`).
    const missing = modules.filter((f) => !map.includes(`\`${f.split('/').slice(2).join('/')}\``))
    assert.deepEqual(missing, [], 'modules the module map does not name')
  })

  it('docs/testing.md has exactly one row for every test file, and none for a file that does not exist', () => {
    const text = readFileSync(join(ROOT, 'docs', 'testing.md'), 'utf8')
    const rows = [...text.matchAll(/^\| `(test\/[^`]+)` \|/gm)].map((m) => m[1]!)
    const files = tracked('test').filter((f) => /\.test\.tsx?$/.test(f))
    assert.ok(files.length > 100, `test holds ${files.length} test files`)
    const count = (f: string) => rows.filter((r) => r === f).length
    assert.deepEqual(files.filter((f) => count(f) !== 1).map((f) => `${f}: ${count(f)} rows`), [], 'test files without exactly one row')
    assert.deepEqual(rows.filter((r) => !existsSync(join(ROOT, r))), [], 'rows naming a file that does not exist')
  })
})
