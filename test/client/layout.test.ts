/**
 * The layout of `src/client/`, checked against its imports: every module sits in a known feature
 * folder (or at the root, where the entry points are), a folder imports only the folders below it
 * (`FOLDER_IMPORTS`), no module imports itself through others (no import loop), the browser half
 * imports nothing of the host half or of the log tools, and every store is built on the one
 * `SnapshotStore`. The checker itself is tested on made-up graphs, so it can fail.
 */
import assert from 'node:assert/strict'
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import { describe, it } from 'node:test'

const ROOT = resolve(import.meta.dirname, '../..')
const CLIENT = join(ROOT, 'src/client')

/**
 * The folders of `src/client/` and what each may import besides itself and `src/shared/`; `.` is
 * the root (the entry points and the per-session owner), which may import every folder.
 */
const FOLDER_IMPORTS: Readonly<Record<string, readonly string[]>> = {
  wire: [],
  text: ['wire'],
  stores: ['wire'],
  recall: ['wire', 'stores'],
  rows: ['wire', 'text', 'stores'],
  notices: ['wire', 'text', 'stores', 'recall', 'rows'],
  panel: ['wire', 'text', 'stores', 'rows'],
  editor: ['wire', 'text', 'stores'],
  trajectory: ['wire', 'text', 'stores'],
  'side-state': ['wire', 'text', 'stores'],
  export: ['wire', 'text', 'stores'],
  '.': ['wire', 'text', 'stores', 'recall', 'rows', 'notices', 'panel', 'editor', 'trajectory', 'side-state', 'export'],
}

/** One module's imports: module path (relative to its tree, no extension) → imported module paths. */
type ImportGraph = ReadonlyMap<string, readonly string[]>

/** Every `.ts`/`.tsx` file under `dir`. */
function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name)
    return statSync(path).isDirectory() ? sourceFiles(path) : /\.tsx?$/.test(name) ? [path] : []
  })
}

/** The specifiers of a source text's static and dynamic imports and re-exports. */
export function importSpecifiers(text: string): string[] {
  const found: string[] = []
  for (const match of text.matchAll(/(?:^|\n)\s*(?:import|export)\b[^'"`;]*?\bfrom\s*['"]([^'"]+)['"]|\bimport\s*\(\s*['"]([^'"]+)['"]\s*\)|(?:^|\n)\s*import\s*['"]([^'"]+)['"]/g)) {
    found.push((match[1] ?? match[2] ?? match[3])!)
  }
  return found
}

/** The import graph of `src/client/`, with module paths relative to `src/` (e.g. `client/rows/decorate`). */
function clientGraph(): { graph: ImportGraph; external: Map<string, string[]> } {
  const graph = new Map<string, string[]>()
  const external = new Map<string, string[]>()
  for (const file of sourceFiles(CLIENT)) {
    const from = relative(join(ROOT, 'src'), file).replace(/\.tsx?$/, '')
    const targets: string[] = []
    const others: string[] = []
    for (const spec of importSpecifiers(readFileSync(file, 'utf8'))) {
      if (!spec.startsWith('.')) {
        others.push(spec)
        continue
      }
      const target = relative(join(ROOT, 'src'), resolve(dirname(file), spec)).replace(/\.tsx?$/, '')
      if (target.startsWith('client/')) targets.push(target)
      else others.push(target)
    }
    graph.set(from, targets)
    external.set(from, others)
  }
  return { graph, external }
}

/** The folder of a client module: `rows` for `client/rows/decorate`, `.` for `client/index`. */
function folderOf(module: string): string {
  const parts = module.split('/')
  return parts.length === 2 ? '.' : parts[1]!
}

/**
 * Imports against the intended direction.
 * @returns `from → to (folder → folder)` per offending import, sorted; modules in unknown or nested folders too.
 */
export function directionErrors(graph: ImportGraph, allowed: Readonly<Record<string, readonly string[]>>): string[] {
  const errors: string[] = []
  for (const [from, targets] of graph) {
    const folder = folderOf(from)
    if (!(folder in allowed) || from.split('/').length > 3) errors.push(`${from}: not in a known folder`)
    for (const to of targets) {
      const target = folderOf(to)
      if (target !== folder && !(allowed[folder] ?? []).includes(target)) errors.push(`${from} → ${to} (${folder} → ${target})`)
    }
  }
  return errors.sort()
}

/**
 * The import loops of a graph: each strongly connected group of two or more modules (or a module
 * importing itself), as its sorted members.
 */
export function importLoops(graph: ImportGraph): string[][] {
  let counter = 0
  const index = new Map<string, number>()
  const low = new Map<string, number>()
  const stack: string[] = []
  const onStack = new Set<string>()
  const loops: string[][] = []
  const visit = (node: string): void => {
    index.set(node, counter)
    low.set(node, counter++)
    stack.push(node)
    onStack.add(node)
    for (const next of graph.get(node) ?? []) {
      if (!index.has(next)) {
        visit(next)
        low.set(node, Math.min(low.get(node)!, low.get(next)!))
      } else if (onStack.has(next)) low.set(node, Math.min(low.get(node)!, index.get(next)!))
    }
    if (low.get(node) === index.get(node)) {
      const group: string[] = []
      let member: string
      do {
        member = stack.pop()!
        onStack.delete(member)
        group.push(member)
      } while (member !== node)
      if (group.length > 1 || (graph.get(node) ?? []).includes(node)) loops.push(group.sort())
    }
  }
  for (const node of graph.keys()) if (!index.has(node)) visit(node)
  return loops
}

describe('the layout of src/client', () => {
  const { graph, external } = clientGraph()

  it('finds every module and its imports', () => {
    assert.ok(graph.size >= 40, `${graph.size} modules`)
    assert.deepEqual(graph.get('client/rows/row-sync')?.includes('client/rows/chat-flow'), true)
    assert.deepEqual(graph.get('client/index')?.includes('client/Overlay'), true)
  })

  it('the folders import one way only: every import goes to the same folder or one below', () => {
    assert.deepEqual(directionErrors(graph, FOLDER_IMPORTS), [])
  })

  it('the folder order itself has no loop', () => {
    const folders = new Map(Object.entries(FOLDER_IMPORTS).map(([folder, below]) => [folder, [...below]]))
    assert.deepEqual(importLoops(folders), [])
  })

  it('has no import loop between modules', () => {
    assert.deepEqual(importLoops(graph), [])
  })

  it('imports nothing of the host half or the log tools, and no Node module', () => {
    const wrong = [...external].flatMap(([from, others]) => others
      .filter((spec) => spec.startsWith('node:') || spec.startsWith('host/') || spec.startsWith('log/') || spec.startsWith('../'))
      .map((spec) => `${from} → ${spec}`))
    assert.deepEqual(wrong, [])
  })

  it('builds every store on the one SnapshotStore', () => {
    const ownStores = sourceFiles(CLIENT)
      .filter((file) => !file.endsWith(join('stores', 'snapshot-store.ts')))
      .filter((file) => /\bsubscribe\s*=\s*\(|new Set<\(\) => void>\(\)/.test(readFileSync(file, 'utf8')))
      .map((file) => relative(ROOT, file))
    assert.deepEqual(ownStores, [])
  })

  it('the checker reports an import against the direction, an unknown folder and a loop (it can fail)', () => {
    const made: ImportGraph = new Map([
      ['client/wire/api', ['client/rows/decorate']],
      ['client/rows/decorate', ['client/wire/api', 'client/rows/row-sync']],
      ['client/rows/row-sync', ['client/rows/decorate']],
      ['client/misc/thing', []],
      ['client/rows/deep/nested', []],
    ])
    assert.deepEqual(directionErrors(made, FOLDER_IMPORTS), [
      'client/misc/thing: not in a known folder',
      'client/rows/deep/nested: not in a known folder',
      'client/wire/api → client/rows/decorate (wire → rows)',
    ])
    assert.deepEqual(importLoops(made), [['client/rows/decorate', 'client/rows/row-sync', 'client/wire/api']])
    assert.deepEqual(importLoops(new Map([['a', ['a']]])), [['a']])
    assert.deepEqual(importSpecifiers("import a from './a'\nimport type { B } from \"../b\"\nexport { c } from './c'\nconst d = await import('./d')\nimport './e'\nimport {\n  f,\n} from './f'"),
      ['./a', '../b', './c', './d', './e', './f'])
  })
})
