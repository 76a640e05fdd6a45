// `npm start`: a local DeepSeek Harness 0.1.0-rc.8 web host with this plugin installed.
//   1. installs the pinned host set in host/ (once; later runs reuse it);
//   2. adds this checkout to the web profile of a project-local DSH_HOME (.dsh-home/ by default)
//      with `dsh plugin --profile web add <checkout>`, as a user would;
//   3. without DEEPSEEK_API_KEY, starts the mock model (tools/mock-model-cli.ts, DSH's
//      dsh-llm-mock-server behind a scripted front) on loopback and points the DeepSeek
//      provider at it; with the key set, DeepSeek is used as configured;
//   4. starts `dsh web` on 127.0.0.1 (telemetry off) and prints the URL;
//   5. with --seed, creates a demo conversation (two prompts, an answer with tool calls);
//   0. refuses to start when another live host uses the same DSH home: it holds <home>/npm-start.lock
//      (taken exclusively, a stale one of a gone pid taken over, released on exit), and the plugin's own
//      lock in <home>/sessions (src/host/home-lock.ts) names no other live process;
//   6. Ctrl-C, SIGTERM or SIGHUP (the terminal closed) stops the host and the mock model, each
//      by its own pid; if this process ends any other way, an exit hook stops them, and they
//      stop by themselves once it is gone (tools/exit-with-parent.ts).
// Runs under Node >= 22.19 through tools/with-node22.ts (see package.json).
import { spawn, type ChildProcess } from 'node:child_process'
import { createServer } from 'node:net'
import { createWriteStream, existsSync, mkdirSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { createInterface } from 'node:readline'
import { createSession, prompt, rpc, waitForTurnEnds } from './dsh-api'
import { addPlugin, assertNode22, ensureHostInstalled, PLUGIN_NAME, PROJECT_ROOT, startHost, type ModelEndpoint, type RunningHost } from './dsh-host'
import { parentPidEnv } from './exit-with-parent'
import { parseCli } from '../scripts/support/arguments'
import { OptionValueError, portOption } from '../scripts/support/option-values'
import { OptionError } from '../scripts/support/usage-errors'
import { claimLock, describeHolder, liveHolder, PLUGIN_LOCK_FILE, START_LOCK_FILE, type LockHolder } from '../src/host/home-lock'

const USAGE = `usage: npm start -- [options]

  --port N          port of the web UI on 127.0.0.1 (default 3080; 0 picks a free one)
  --home DIR        DSH_HOME to use (default .dsh-home in this checkout; never ~/.dsh)
  --seed            create a demo conversation once the host is up
  --workspace DIR   workspace folder for --seed (default <home>/demo-workspace)
  -h, --help        this text

Environment: DEEPSEEK_API_KEY set → the real DeepSeek API (as configured by DSH);
unset → a local mock model on loopback, no key and no network needed.`

/** What the command line asks for. */
interface StartOptions { port: number; home: string; seed: boolean; workspace: string }

/** Options of `npm start`; a value that starts with a dash (`--port -1`) is read as the value. */
const OPTIONS = {
  port: { type: 'string' }, home: { type: 'string' }, seed: { type: 'boolean' },
  workspace: { type: 'string' }, help: { type: 'boolean', short: 'h' },
} as const

function readOptions(argv: string[]): StartOptions {
  try {
    const { values, positionals } = parseCli(argv, OPTIONS)
    if (values.help) {
      console.log(USAGE)
      process.exit(0)
    }
    if (positionals.length > 0) fail(`takes no arguments, got ${JSON.stringify(positionals[0])}`)
    const port = portOption(values.port) ?? 3080
    const home = values.home === undefined ? join(PROJECT_ROOT, '.dsh-home') : resolve(values.home)
    return { port, home, seed: values.seed ?? false, workspace: values.workspace === undefined ? join(home, 'demo-workspace') : resolve(values.workspace) }
  } catch (error) {
    // One line for a bad option or value, as the log tools answer them; the usage only on request.
    if (error instanceof OptionError) failLine(`${error.message}; see --help`)
    if (error instanceof OptionValueError) failLine(error.message)
    throw error
  }
}

function fail(message: string): never {
  console.error(`npm start: ${message}\n\n${USAGE}`)
  process.exit(2)
}

function failLine(message: string): never {
  console.error(`npm start: ${message}`)
  process.exit(2)
}

const say = (line: string) => console.log(`npm start: ${line}`)

/** Signals that ask for an orderly stop. */
const STOP_SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const
/**
 * A terminal Ctrl-C reaches this process twice (from the terminal and through
 * tools/with-node22.ts, which relays what npm passes on): repeats within this window are the
 * same request. A second Ctrl-C after it forces the stop.
 */
const REPEAT_WINDOW_MS = 1000

/** The one line printed when the web port is taken. */
const portInUse = (port: number) => `port ${port} is in use; pass --port 0 for a free one or --port N`

/** The one line printed when another live host uses the DSH home. */
const homeInUse = (home: string, holder: LockHolder) => `DSH home ${home} is in use by ${describeHolder(holder)}; stop that host first, or pass --home DIR`

/** Resolves with whether 127.0.0.1:`port` can be listened on now (port 0 always can). */
function portFree(port: number): Promise<boolean> {
  if (port === 0) return Promise.resolve(true)
  return new Promise((ok) => {
    const probe = createServer()
    probe.once('error', () => ok(false))
    probe.listen({ port, host: '127.0.0.1', exclusive: true }, () => probe.close(() => ok(true)))
  })
}

/** The mock model process as `npm start` uses it. */
interface MockProcess { pid: number; readonly exited: boolean; baseURL: string; origin: string; stop(): Promise<void> }

/** Start tools/mock-model-cli.ts as its own process; resolves with its pid, base URL and a stop(). */
async function startMockProcess(logFile: string): Promise<MockProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', join(PROJECT_ROOT, 'tools', 'mock-model-cli.ts'), '--port', '0'], {
    cwd: PROJECT_ROOT, stdio: ['ignore', 'pipe', 'pipe'], detached: true, env: { ...process.env, ...parentPidEnv() },
  })
  children.add(child)
  const log = createWriteStream(logFile, { flags: 'a' })
  child.stderr!.pipe(log)
  const exit = new Promise<number | null>((ok) => child.once('exit', ok))
  const baseURL = await new Promise<string>((ok, no) => {
    const rl = createInterface({ input: child.stdout! })
    rl.on('line', (line) => {
      log.write(line + '\n')
      const m = /^mock-model ready (\S+)/.exec(line)
      if (m) ok(m[1]!)
    })
    exit.then((code) => no(new Error(`mock model exited (code ${code}); see ${logFile}`)))
  })
  return {
    pid: child.pid!,
    get exited() { return child.exitCode !== null || child.signalCode !== null },
    baseURL,
    origin: baseURL.replace(/\/v1$/, ''),
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return
      try { process.kill(child.pid!, 'SIGTERM') } catch { return }
      const t = setTimeout(() => { try { process.kill(child.pid!, 'SIGKILL') } catch { /* gone */ } }, 5000)
      await exit
      clearTimeout(t)
      log.end()
    },
  }
}

/** The demo conversation: two prompts; the first answered with text plus two tool calls and their results. */
async function seed(url: string, workspace: string, mock: MockProcess | undefined): Promise<string> {
  mkdirSync(workspace, { recursive: true })
  const notes = join(workspace, 'notes.txt')
  const todo = join(workspace, 'todo.txt')
  writeFileSync(notes, 'Meeting notes: the release moves to Friday; Dana reviews the changelog.\n')
  writeFileSync(todo, '- update the changelog\n- tag the release\n')
  if (mock) {
    const script = [
      { text: 'I will read both files first.', toolCalls: [{ name: 'read', arguments: { file_path: notes } }, { name: 'read', arguments: { file_path: todo } }] },
      { text: 'The release moves to Friday. Still to do: update the changelog and tag the release.' },
      { text: 'Start with the changelog: Dana reviews it before the tag.' },
    ]
    const r = await fetch(`${mock.origin}/_mock/script`, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify(script) })
    if (!r.ok) throw new Error(`mock script refused: ${await r.text()}`)
  }
  const sessionId = await createSession(url, workspace)
  await prompt(url, sessionId, 'What do notes.txt and todo.txt say?')
  await waitForTurnEnds(url, sessionId, 1, 120_000)
  await prompt(url, sessionId, 'Which task comes first?')
  await waitForTurnEnds(url, sessionId, 2, 120_000)
  await rpc(url, 'session.rename', { sessionId, title: 'Demo: release notes' })
  return sessionId
}

/** Processes this script started (mock model, host), from the moment they are spawned. */
const children = new Set<ChildProcess>()
const alive = (child: ChildProcess) => child.exitCode === null && child.signalCode === null

/** SIGTERM `child` by pid, SIGKILL after `graceMs`; resolves once it has exited. */
async function stopChild(child: ChildProcess, graceMs: number): Promise<void> {
  if (!alive(child)) return
  const exited = new Promise((ok) => child.once('exit', ok))
  try { process.kill(child.pid!, 'SIGTERM') } catch { return }
  const t = setTimeout(() => { try { process.kill(child.pid!, 'SIGKILL') } catch { /* gone */ } }, graceMs)
  await exited
  clearTimeout(t)
}

async function main(): Promise<void> {
  const opts = readOptions(process.argv.slice(2))
  assertNode22()
  for (const file of ['lib/main.js', 'lib/client.js']) {
    if (!existsSync(join(PROJECT_ROOT, file))) fail(`${file} is missing; run \`npm run build\` first (DSH refuses to boot a plugin without its bundles)`)
  }
  if (!existsSync(join(PROJECT_ROOT, 'node_modules', '@deepseek-ai', 'schemastery'))) {
    fail('the plugin\'s dependencies are not installed; run `npm install` first')
  }

  let mock: MockProcess | undefined
  let host: RunningHost | undefined
  let hostChild: ChildProcess | undefined
  let stopping = false
  let stopAt = 0
  const stopAll = async (code: number): Promise<void> => {
    if (stopping) return
    stopping = true
    stopAt = Date.now()
    say('stopping…')
    if (host) {
      const r = await host.stop()
      say(`host (pid ${host.pid}) stopped${r?.signal ? ` by ${r.signal}` : ''}`)
    } else if (hostChild) {
      await stopChild(hostChild, 15_000)
      say(`host (pid ${hostChild.pid}) stopped before it was up`)
    }
    if (mock) {
      await mock.stop()
      say(`mock model (pid ${mock.pid}) stopped`)
    }
    process.exit(code)
  }
  const onSignal = (signal: NodeJS.Signals) => {
    if (!stopping) return void stopAll(0)
    if (signal !== 'SIGINT' || Date.now() - stopAt < REPEAT_WINDOW_MS) return
    // A second Ctrl-C: do not wait for the orderly stop.
    for (const child of children) if (alive(child)) try { process.kill(child.pid!, 'SIGKILL') } catch { /* gone */ }
    process.exit(130)
  }
  for (const signal of STOP_SIGNALS) process.on(signal, onSignal)
  process.on('exit', () => {
    // Last resort when torn down without an orderly stop (an uncaught error, process.exit):
    // never leave the children behind. They also stop by themselves once this process is gone.
    for (const child of children) if (alive(child)) try { process.kill(child.pid!, 'SIGTERM') } catch { /* gone */ }
  })
  // After SIGHUP the terminal may be gone: a failed write must not end the orderly stop.
  for (const stream of [process.stdout, process.stderr]) stream.on('error', () => {})

  if (!(await portFree(opts.port))) {
    console.error(`npm start: ${portInUse(opts.port)}`)
    process.exit(1)
  }
  // One host per DSH home: a second one would break the first one's session logs (rc.8 has no writer lock).
  const claim = claimLock(join(opts.home, START_LOCK_FILE), 'npm start')
  // A host started without `npm start` holds only the plugin's lock in the sessions folder.
  const other = claim.ok ? liveHolder(join(opts.home, 'sessions', PLUGIN_LOCK_FILE)) ?? undefined : claim.holder
  if (claim.ok) process.on('exit', () => claim.release())
  if (other !== undefined) {
    console.error(`npm start: ${homeInUse(opts.home, other)}`)
    process.exit(1)
  }
  ensureHostInstalled({ log: say })
  const logs = join(opts.home, 'logs')
  mkdirSync(logs, { recursive: true })
  if (addPlugin({ dshHome: opts.home, log: say }) === false) say(`${PLUGIN_NAME} is already in the web profile of ${opts.home}`)

  let model: ModelEndpoint | undefined
  if (process.env.DEEPSEEK_API_KEY) {
    say('DEEPSEEK_API_KEY is set: using the DeepSeek API as configured')
  } else {
    mock = await startMockProcess(join(logs, 'mock-model.log'))
    if (stopping) return
    model = { baseURL: mock.baseURL, apiKey: 'mock-key' }
    say(`mock model on ${mock.baseURL} (pid ${mock.pid}); set DEEPSEEK_API_KEY to talk to DeepSeek instead`)
  }

  let running: RunningHost
  try {
    running = await startHost({
      dshHome: opts.home, port: opts.port, ...(model ? { model } : {}), logFile: join(logs, 'host.log'), echo: false,
      onSpawn: (child) => { hostChild = child; children.add(child) },
    })
    host = running
  } catch (error) {
    if (stopping) return
    const e = error as NodeJS.ErrnoException
    console.error(e?.code === 'EADDRINUSE' ? `npm start: ${portInUse(opts.port)}` : String(e?.message ?? error))
    await stopAll(1)
    return
  }
  if (stopping) return
  void running.exit.then(async (e) => {
    if (stopping) return
    console.error(`npm start: the host exited (code ${e.code}, signal ${e.signal}); last lines:\n${running.logTail(40)}`)
    await stopAll(1)
  })
  say(`DSH_HOME ${opts.home}; logs in ${logs}`)
  if (opts.seed) {
    say(`seeding a demo conversation in ${opts.workspace}…`)
    try {
      const id = await seed(running.url, opts.workspace, mock)
      say(`demo conversation ${id} is ready`)
    } catch (error) {
      console.error(`npm start: seeding failed: ${(error as Error).message ?? error}`)
    }
  }
  if (stopping) return
  console.log(`\n  DeepSeek Harness with ${PLUGIN_NAME}: ${running.url}\n\n  Press Ctrl-C to stop.\n`)
}

await main()
