#!/usr/bin/env node
// The project's test command (`npm test`), run under Node >= 22.19 by tools/with-node22.mjs:
//   1. lib/ must equal a fresh build of the sources;
//   2. the TypeScript sources must typecheck (strict);
//   3. every test file under test/ runs in node's test runner (tsx loads TypeScript),
//      including the end-to-end suite under test/e2e/.
// Flags: --no-e2e skips test/e2e (for quick local loops); --e2e-only runs only test/e2e.
import { spawn } from 'node:child_process'
import { existsSync, readdirSync, statSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..')
const args = process.argv.slice(2)
const noE2e = args.includes('--no-e2e')
const e2eOnly = args.includes('--e2e-only')

let current = null
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
  // Pass a stop on to the running step, so no test process outlives the test command.
  process.on(signal, () => {
    if (current) current.kill(signal)
    else process.exit(1)
  })
}

/** Run one step with inherited stdio; exit with its status when it fails. */
async function run(label, cmd, cmdArgs) {
  console.log(`\n== ${label}`)
  const child = spawn(cmd, cmdArgs, { cwd: root, stdio: 'inherit' })
  current = child
  const [code, signal] = await new Promise((resolve) => child.on('close', (c, s) => resolve([c, s])))
  current = null
  if (code !== 0) {
    console.error(`== ${label}: failed (exit ${code ?? signal})`)
    process.exit(code || 1)
  }
}

function testFiles(dir) {
  if (!existsSync(dir)) return []
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name)
    return statSync(p).isDirectory() ? testFiles(p) : /\.test\.tsx?$/.test(name) ? [p] : []
  }).sort()
}

const all = testFiles(join(root, 'test')).map((f) => relative(root, f))
const isE2e = (f) => f.startsWith(join('test', 'e2e'))
const files = all.filter((f) => (e2eOnly ? isE2e(f) : noE2e ? !isE2e(f) : true))
if (!files.length) {
  console.error('no test files found')
  process.exit(1)
}

if (!e2eOnly) {
  await run('lib/ is a fresh build', process.execPath, [join(root, 'tools/build.mjs'), '--check'])
  await run('typecheck', process.execPath, [join(root, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.json'])
  await run('typecheck: client and shared without Node types', process.execPath, [join(root, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.browser.json'])
}
await run(`tests (${files.length} files)`, process.execPath, [
  '--import', 'tsx', '--test', '--test-reporter=spec', '--test-concurrency=1', ...files,
])
