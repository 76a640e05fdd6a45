// `npm run bench`: runs every bench/*.bench.ts (or .tsx) in turn under Node >= 22.19 and
// prints their figures. Benchmarks report; they do not pass or fail on timing.
// Pass file-name fragments to run only matching benchmarks: `npm run bench -- decode`.
import { spawnSync } from 'node:child_process'
import { existsSync, globSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..')
const filters = process.argv.slice(2)
const dir = join(root, 'bench')
const files = (existsSync(dir) ? globSync('*.bench.{ts,tsx}', { cwd: dir }) : [])
  .filter((f) => !filters.length || filters.some((x) => f.includes(x)))
  .sort()
if (!files.length) {
  console.error('no benchmarks matched')
  process.exit(1)
}
let failed = 0
for (const f of files) {
  console.log(`\n## ${f}`)
  const r = spawnSync(process.execPath, ['--import', 'tsx', '--expose-gc', join(dir, f)], { cwd: root, stdio: 'inherit' })
  if (r.status !== 0) failed++
}
process.exit(failed ? 1 : 0)
