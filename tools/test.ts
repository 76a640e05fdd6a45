// The project's test command (`npm test`), run under Node >= 22.19 by tools/with-node22.ts:
//   1. lib/ must equal a fresh build of the sources;
//   2. the TypeScript sources must typecheck (strict), and src/client + src/shared also without Node types;
//   3. the pinned host set in host/ is installed when missing or stale (tools/dsh-host.ts
//      ensureHostInstalled), once, before any test file runs: the end-to-end files and the host
//      tests that load its packages find it there, and no file spends its time limit on an install;
//   4. every test file matched by TEST_GLOBS runs in node's test runner (tsx loads TypeScript),
//      one file at a time, each in its own process group and under a time limit, including the
//      end-to-end suite under test/e2e/.
// A file that does not end within its limit, or ends its tests but not its process, is stopped
// and reported as failed with its name and the processes it left; so is a file that ends and
// leaves processes behind. The run goes on and always ends. Each file's wall time is printed,
// and at the end a table of them, the run's wall time and one line of totals.
//
// Every process a file starts, however detached, inherits TEST_FILE_ENV naming the file; on
// Linux the leftovers are found by that mark in /proc/<pid>/environ.
//
// Flags: --no-e2e skips test/e2e (for quick local loops); --e2e-only runs only test/e2e;
// --file-timeout=<seconds> overrides the per-file limits; other arguments are globs or file
// paths that replace TEST_GLOBS.
import { spawn } from 'node:child_process'
import { globSync, readdirSync, readFileSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import { ensureHostInstalled } from './dsh-host'

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..')

/** The test files, as node --test globs relative to the project root. */
export const TEST_GLOBS = ['test/**/*.test.ts', 'test/**/*.test.tsx']
/** The environment variable that marks every process started for one test file. */
export const TEST_FILE_ENV = 'MESSAGE_RECALL_TEST_FILE'
/** Time limit of one file in ms: the end-to-end and process files boot hosts (and may install them first). */
const FILE_LIMIT_MS = (file: string) => (/^test\/(e2e|tools)\//.test(file) ? 15 : 5) * 60_000
/** How long a file may stay alive after its test runner printed its summary. */
const EXIT_GRACE_MS = 30_000
/** How long processes a file started may take to end after the file ended. */
const LEFTOVER_GRACE_MS = 5_000

const { values, positionals } = parseArgs({
  options: { 'no-e2e': { type: 'boolean' }, 'e2e-only': { type: 'boolean' }, 'file-timeout': { type: 'string' } },
  allowPositionals: true, strict: true,
})
const limitOverride = values['file-timeout'] === undefined ? undefined : Number(values['file-timeout']) * 1000
if (limitOverride !== undefined && !(limitOverride > 0)) {
  console.error('--file-timeout wants a number of seconds')
  process.exit(2)
}

let current: { pid: number } | null = null
let interrupted = false
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
  // Pass a stop on to the running step, so no test process outlives the test command.
  process.on(signal, () => {
    interrupted = true
    if (current) try { process.kill(-current.pid, signal) } catch { /* gone */ }
    else process.exit(1)
  })
}

/** Run one step with inherited stdio; exit with its status when it fails. */
async function step(label: string, cmd: string, args: string[]): Promise<void> {
  console.log(`\n== ${label}`)
  const started = Date.now()
  const child = spawn(cmd, args, { cwd: root, stdio: 'inherit', detached: true })
  current = { pid: child.pid! }
  const [code, signal] = await new Promise<[number | null, NodeJS.Signals | null]>((ok) => child.on('close', (c, s) => ok([c, s])))
  current = null
  if (code !== 0) {
    console.error(`== ${label}: failed (exit ${code ?? signal})`)
    process.exit(code || 1)
  }
  console.log(`== ${label}: ${seconds(Date.now() - started)}`)
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`

/** A process found by its mark. */
interface Leftover { pid: number; command: string }

/** Live processes whose environment carries `TEST_FILE_ENV=<mark>` (Linux; elsewhere none are seen). */
function marked(mark: string): Leftover[] {
  let pids: string[]
  try { pids = readdirSync('/proc').filter((p) => /^\d+$/.test(p)) } catch { return [] }
  const needle = `${TEST_FILE_ENV}=${mark}`
  const found: Leftover[] = []
  for (const pid of pids) {
    if (Number(pid) === process.pid) continue
    try {
      if (!readFileSync(`/proc/${pid}/environ`, 'latin1').split('\0').includes(needle)) continue
      const command = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean).join(' ')
      if (command) found.push({ pid: Number(pid), command: command.length > 160 ? `${command.slice(0, 157)}…` : command })
    } catch { /* gone, or not ours to read */ }
  }
  return found
}

/** Wait up to `ms` for the marked processes to end by themselves; SIGKILL and return those that did not. */
async function reap(mark: string, ms: number): Promise<Leftover[]> {
  const until = Date.now() + ms
  let left = marked(mark)
  while (left.length && Date.now() < until) {
    await new Promise((ok) => setTimeout(ok, 100))
    left = marked(mark)
  }
  for (const p of left) try { process.kill(p.pid, 'SIGKILL') } catch { /* gone */ }
  return left
}

/** Figures of one file, from its test runner's summary. */
interface FileResult {
  file: string
  ms: number
  tests: number; pass: number; fail: number; cancelled: number; skipped: number; todo: number
  /** Why the file failed beyond its tests (time limit, leftovers, no summary), if it did. */
  problem?: string
  /** The test runner's "failing tests" section (errors and stacks), cut to {@link FAILURE_CHARS}, if it printed one. */
  failures?: string
}

/** How much of one file's "failing tests" section the closing recap repeats. */
const FAILURE_CHARS = 4000

/** Run one test file in node's test runner, in its own process group, under its time limit. */
async function runFile(file: string, runId: string): Promise<FileResult> {
  const mark = `${runId}:${file}`
  const limit = limitOverride ?? FILE_LIMIT_MS(file)
  const started = Date.now()
  // A top-level run of node's test runner, also when this command itself runs inside one.
  const { NODE_TEST_CONTEXT: _, ...env } = process.env
  const child = spawn(process.execPath, ['--import', 'tsx', '--test', '--test-reporter=spec', file], {
    cwd: root, stdio: ['ignore', 'pipe', 'pipe'], detached: true,
    env: { ...env, [TEST_FILE_ENV]: mark, FORCE_COLOR: process.stdout.isTTY ? '1' : '0' },
  })
  current = { pid: child.pid! }
  const counts: Record<string, number> = {}
  let summaryAt = 0
  let rest = ''
  // The spec reporter repeats every failure with its error under "✖ failing tests:" at the end of
  // the file's output; the recap at the end of the run repeats that part, so a log read from its
  // tail still says why a test failed.
  let failing: string[] | null = null
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
    process.stdout.write(chunk)
    rest += chunk
    const lines = rest.split('\n')
    rest = lines.pop() ?? ''
    for (const line of lines) {
      const plain = line.replace(/\x1b\[[0-9;]*m/g, '')
      if (/^✖ failing tests:/.test(plain.trim())) failing = []
      else if (failing !== null && failing.join('\n').length < FAILURE_CHARS) failing.push(plain)
      const m = /^ℹ (tests|pass|fail|cancelled|skipped|todo|duration_ms) (\d+(?:\.\d+)?)$/.exec(line.replace(/\x1b\[[0-9;]*m/g, '').trim())
      if (!m) continue
      counts[m[1]!] = Number(m[2])
      if (m[1] === 'duration_ms') summaryAt = Date.now()
    }
  })
  child.stderr!.pipe(process.stderr, { end: false })
  const exited = new Promise<void>((ok) => child.once('close', () => ok()))
  let problem: string | undefined
  const stopGroup = () => { try { process.kill(-child.pid!, 'SIGKILL') } catch { /* gone */ } }
  await new Promise<void>((ok) => {
    const timer = setInterval(() => {
      const now = Date.now()
      if (now - started > limit) problem = `did not finish within its limit of ${seconds(limit)}`
      else if (summaryAt && now - summaryAt > EXIT_GRACE_MS) problem = `ended its tests but its process did not exit within ${seconds(EXIT_GRACE_MS)} (open handles)`
      else return
      clearInterval(timer)
      stopGroup()
      ok()
    }, 250)
    void exited.then(() => { clearInterval(timer); ok() })
  })
  // A killed file's pipes may be held open by what it started: do not wait for them.
  await Promise.race([exited, new Promise((ok) => setTimeout(ok, 2000))])
  current = null
  const left = await reap(mark, problem ? 0 : LEFTOVER_GRACE_MS)
  if (left.length) {
    const list = left.map((p) => `    pid ${p.pid}: ${p.command}`).join('\n')
    problem = `${problem ? `${problem}; it` : 'it'} left ${left.length} process${left.length === 1 ? '' : 'es'} running (now killed):\n${list}`
  }
  if (!problem && counts.tests === undefined) problem = `ended (exit ${child.exitCode ?? child.signalCode}) without a test summary`
  if (!problem && child.exitCode !== 0 && !(counts.fail || counts.cancelled)) problem = `exited with ${child.exitCode ?? child.signalCode}`
  const n = (k: string) => counts[k] ?? 0
  const failures = failing === null ? undefined : (failing as string[]).join('\n').trim().slice(0, FAILURE_CHARS)
  return { file, ms: Date.now() - started, tests: n('tests'), pass: n('pass'), fail: n('fail'), cancelled: n('cancelled'), skipped: n('skipped'), todo: n('todo'), ...(problem ? { problem } : {}), ...(failures ? { failures } : {}) }
}

const patterns = positionals.length ? positionals : TEST_GLOBS
const isE2e = (f: string) => f.startsWith('test/e2e/')
const files = [...new Set(patterns.flatMap((p) => globSync(p, { cwd: root })))]
  .map((f) => f.split('\\').join('/'))
  .filter((f) => (values['e2e-only'] ? isE2e(f) : values['no-e2e'] ? !isE2e(f) : true))
  .sort()
if (!files.length) {
  console.error(`no test files match ${patterns.join(' ')}`)
  process.exit(1)
}

const runStarted = Date.now()
if (!values['e2e-only'] && !positionals.length) {
  await step('lib/ is a fresh build', process.execPath, ['--import', 'tsx', join(root, 'tools/build.ts'), '--check'])
  await step('typecheck', process.execPath, [join(root, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.json'])
  await step('typecheck: client and shared without Node types', process.execPath, [join(root, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.browser.json'])
}
// The host set, before the first file (test files only; the test command's own fixtures need none).
if (files.some((f) => /\.test\.tsx?$/.test(f))) {
  console.log('\n== host set in host/')
  try {
    console.log(ensureHostInstalled() ? '== host set in host/: installed' : '== host set in host/: installed already')
  } catch (error) {
    console.error(`== host set in host/: ${(error as Error).message}`)
    process.exit(1)
  }
}
console.log(`\n== tests (${files.length} files, one at a time)`)
const runId = `${process.pid}-${Date.now()}`
const results: FileResult[] = []
for (const file of files) {
  if (interrupted) break
  console.log(`\n── ${file}`)
  const r = await runFile(file, runId)
  results.push(r)
  const failed = r.fail + r.cancelled > 0 || r.problem !== undefined
  console.log(`── ${failed ? '✖' : '✔'} ${file}: ${r.pass} passed, ${r.fail + r.cancelled} failed${r.skipped + r.todo ? `, ${r.skipped + r.todo} skipped` : ''} · ${seconds(r.ms)}`)
  if (r.problem) console.error(`── ✖ ${file}: ${r.problem}`)
}

const total = (k: 'tests' | 'pass' | 'fail' | 'cancelled' | 'skipped' | 'todo') => results.reduce((a, r) => a + r[k], 0)
const failedFiles = results.filter((r) => r.fail + r.cancelled > 0 || r.problem !== undefined)
const width = Math.max(...results.map((r) => r.file.length))
console.log('\n== wall time per file')
for (const r of results) console.log(`  ${failedFiles.includes(r) ? '✖' : '✔'} ${r.file.padEnd(width)} ${seconds(r.ms).padStart(8)}  ${r.tests} test${r.tests === 1 ? '' : 's'}`)
console.log(`  whole run: ${seconds(Date.now() - runStarted)}`)
for (const r of failedFiles) if (r.problem) console.error(`\n✖ ${r.file}: ${r.problem}`)
if (failedFiles.some((r) => r.failures)) {
  console.log('\n== why the failed tests failed (the test runner\'s own report, repeated)')
  for (const r of failedFiles) if (r.failures) console.log(`\n✖ ${r.file}\n${r.failures}`)
}
if (interrupted) console.error('\ninterrupted: the remaining files did not run')
console.log(`\n${total('tests')} tests in ${results.length} files; files failed: ${failedFiles.length}`)
// The closing line, in the plain form CI reads.
console.log(`tests: ${total('pass')} passed, ${total('fail') + total('cancelled') + results.filter((r) => r.problem !== undefined && r.fail + r.cancelled === 0).length} failed, ${total('skipped') + total('todo')} skipped`)
process.exit(failedFiles.length || interrupted ? 1 : 0)
