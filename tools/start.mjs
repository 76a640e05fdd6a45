#!/usr/bin/env node
// `npm start`: a local DeepSeek Harness 0.1.0-rc.8 web host with this plugin installed.
//   1. installs the pinned host set in host/ (once; later runs reuse it);
//   2. adds this checkout to the web profile of a project-local DSH_HOME (.dsh-home/ by default)
//      with `dsh plugin --profile web add <checkout>`, as a user would;
//   3. without DEEPSEEK_API_KEY, starts the mock model (tools/mock-model.mjs, DSH's
//      dsh-llm-mock-server behind a scripted front) on loopback and points the DeepSeek
//      provider at it; with the key set, DeepSeek is used as configured;
//   4. starts `dsh web` on 127.0.0.1 (telemetry off) and prints the URL;
//   5. with --seed, creates a demo conversation (two prompts, an answer with tool calls);
//   6. Ctrl-C, SIGTERM or SIGHUP (the terminal closed) stops the host and the mock model, each
//      by its own pid; if this process ends any other way, an exit hook stops them, and they
//      stop by themselves once it is gone (tools/exit-with-parent.mjs).
// Runs under Node >= 22.19 through tools/with-node22.mjs (see package.json).
import { spawn } from 'node:child_process'
import { createServer } from 'node:net'
import { createWriteStream, existsSync, mkdirSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { createInterface } from 'node:readline'
import { createSession, prompt, rpc, waitForTurnEnds } from './dsh-api.mjs'
import { addPlugin, assertNode22, ensureHostInstalled, PLUGIN_NAME, PROJECT_ROOT, startHost } from './dsh-host.mjs'

const USAGE = `usage: npm start -- [options]

  --port N          port of the web UI on 127.0.0.1 (default 3080; 0 picks a free one)
  --home DIR        DSH_HOME to use (default .dsh-home in this checkout; never ~/.dsh)
  --seed            create a demo conversation once the host is up
  --workspace DIR   workspace folder for --seed (default <home>/demo-workspace)
  -h, --help        this text

Environment: DEEPSEEK_API_KEY set → the real DeepSeek API (as configured by DSH);
unset → a local mock model on loopback, no key and no network needed.`

function parseArgs(argv) {
  const opts = { port: 3080, home: join(PROJECT_ROOT, '.dsh-home'), seed: false, workspace: undefined }
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]
    const value = () => {
      const v = argv[++i]
      if (v === undefined) fail(`${a} needs a value`)
      return v
    }
    if (a === '--port') {
      const n = Number(value())
      if (!Number.isInteger(n) || n < 0 || n > 65535) fail(`--port must be an integer 0-65535`)
      opts.port = n
    } else if (a === '--home') opts.home = resolve(value())
    else if (a === '--seed') opts.seed = true
    else if (a === '--workspace') opts.workspace = resolve(value())
    else if (a === '-h' || a === '--help') {
      console.log(USAGE)
      process.exit(0)
    } else fail(`unknown option ${a}`)
  }
  opts.workspace ??= join(opts.home, 'demo-workspace')
  return opts
}

function fail(message) {
  console.error(`npm start: ${message}\n\n${USAGE}`)
  process.exit(2)
}

const say = (line) => console.log(`npm start: ${line}`)

/** Signals that ask for an orderly stop. */
const STOP_SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP']
/**
 * A terminal Ctrl-C reaches this process twice (from the terminal and through
 * tools/with-node22.mjs, which relays what npm passes on): repeats within this window are the
 * same request. A second Ctrl-C after it forces the stop.
 */
const REPEAT_WINDOW_MS = 1000

/** The one line printed when the web port is taken. */
const portInUse = (port) => `port ${port} is in use; pass --port 0 for a free one or --port N`

/** Resolves with whether 127.0.0.1:`port` can be listened on now (port 0 always can). */
function portFree(port) {
  if (port === 0) return Promise.resolve(true)
  return new Promise((ok) => {
    const probe = createServer()
    probe.once('error', () => ok(false))
    probe.listen({ port, host: '127.0.0.1', exclusive: true }, () => probe.close(() => ok(true)))
  })
}

/** Start tools/mock-model.mjs as its own process; resolves with its pid, base URL and a stop(). */
async function startMockProcess(logFile) {
  const child = spawn(process.execPath, [join(PROJECT_ROOT, 'tools', 'mock-model.mjs'), '--port', '0'], {
    stdio: ['ignore', 'pipe', 'pipe'], detached: true,
  })
  children.add(child)
  const log = createWriteStream(logFile, { flags: 'a' })
  child.stderr.pipe(log)
  const exit = new Promise((ok) => child.once('exit', ok))
  const baseURL = await new Promise((ok, no) => {
    const rl = createInterface({ input: child.stdout })
    rl.on('line', (line) => {
      log.write(line + '\n')
      const m = /^mock-model ready (\S+)/.exec(line)
      if (m) ok(m[1])
    })
    exit.then((code) => no(new Error(`mock model exited (code ${code}); see ${logFile}`)))
  })
  return {
    pid: child.pid,
    get exited() { return child.exitCode !== null || child.signalCode !== null },
    baseURL,
    origin: baseURL.replace(/\/v1$/, ''),
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return
      try { process.kill(child.pid, 'SIGTERM') } catch { return }
      const t = setTimeout(() => { try { process.kill(child.pid, 'SIGKILL') } catch { /* gone */ } }, 5000)
      await exit
      clearTimeout(t)
      log.end()
    },
  }
}

/** The demo conversation: two prompts; the first answered with text plus two tool calls and their results. */
async function seed(url, workspace, mock) {
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
const children = new Set()
const alive = (child) => child.exitCode === null && child.signalCode === null

/** SIGTERM `child` by pid, SIGKILL after `graceMs`; resolves once it has exited. */
async function stopChild(child, graceMs) {
  if (!alive(child)) return
  const exited = new Promise((ok) => child.once('exit', ok))
  try { process.kill(child.pid, 'SIGTERM') } catch { return }
  const t = setTimeout(() => { try { process.kill(child.pid, 'SIGKILL') } catch { /* gone */ } }, graceMs)
  await exited
  clearTimeout(t)
}

async function main() {
  const opts = parseArgs(process.argv.slice(2))
  assertNode22()
  for (const file of ['lib/main.js', 'lib/client.js']) {
    if (!existsSync(join(PROJECT_ROOT, file))) fail(`${file} is missing; run \`npm run build\` first (DSH refuses to boot a plugin without its bundles)`)
  }
  if (!existsSync(join(PROJECT_ROOT, 'node_modules', '@deepseek-ai', 'schemastery'))) {
    fail('the plugin\'s dependencies are not installed; run `npm install` first')
  }

  let mock
  let host
  let hostChild
  let stopping = false
  let stopAt = 0
  const stopAll = async (code) => {
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
  const onSignal = (signal) => {
    if (!stopping) return void stopAll(0)
    if (signal !== 'SIGINT' || Date.now() - stopAt < REPEAT_WINDOW_MS) return
    // A second Ctrl-C: do not wait for the orderly stop.
    for (const child of children) if (alive(child)) try { process.kill(child.pid, 'SIGKILL') } catch { /* gone */ }
    process.exit(130)
  }
  for (const signal of STOP_SIGNALS) process.on(signal, onSignal)
  process.on('exit', () => {
    // Last resort when torn down without an orderly stop (an uncaught error, process.exit):
    // never leave the children behind. They also stop by themselves once this process is gone.
    for (const child of children) if (alive(child)) try { process.kill(child.pid, 'SIGTERM') } catch { /* gone */ }
  })
  // After SIGHUP the terminal may be gone: a failed write must not end the orderly stop.
  for (const stream of [process.stdout, process.stderr]) stream.on('error', () => {})

  if (!(await portFree(opts.port))) {
    console.error(`npm start: ${portInUse(opts.port)}`)
    process.exit(1)
  }
  ensureHostInstalled({ log: say })
  const logs = join(opts.home, 'logs')
  mkdirSync(logs, { recursive: true })
  if (addPlugin({ dshHome: opts.home, log: say }) === false) say(`${PLUGIN_NAME} is already in the web profile of ${opts.home}`)

  let model
  if (process.env.DEEPSEEK_API_KEY) {
    say('DEEPSEEK_API_KEY is set: using the DeepSeek API as configured')
  } else {
    mock = await startMockProcess(join(logs, 'mock-model.log'))
    if (stopping) return
    model = { baseURL: mock.baseURL, apiKey: 'mock-key' }
    say(`mock model on ${mock.baseURL} (pid ${mock.pid}); set DEEPSEEK_API_KEY to talk to DeepSeek instead`)
  }

  try {
    host = await startHost({
      dshHome: opts.home, port: opts.port, model, logFile: join(logs, 'host.log'), echo: false,
      onSpawn: (child) => { hostChild = child; children.add(child) },
    })
  } catch (error) {
    if (stopping) return
    console.error(error?.code === 'EADDRINUSE' ? `npm start: ${portInUse(opts.port)}` : String(error?.message ?? error))
    await stopAll(1)
    return
  }
  if (stopping) return
  host.exit.then(async (e) => {
    if (stopping) return
    console.error(`npm start: the host exited (code ${e.code}, signal ${e.signal}); last lines:\n${host.logTail(40)}`)
    await stopAll(1)
  })
  say(`DSH_HOME ${opts.home}; logs in ${logs}`)
  if (opts.seed) {
    say(`seeding a demo conversation in ${opts.workspace}…`)
    try {
      const id = await seed(host.url, opts.workspace, mock)
      say(`demo conversation ${id} is ready`)
    } catch (error) {
      console.error(`npm start: seeding failed: ${error.message ?? error}`)
    }
  }
  if (stopping) return
  console.log(`\n  DeepSeek Harness with ${PLUGIN_NAME}: ${host.url}\n\n  Press Ctrl-C to stop.\n`)
}

await main()
