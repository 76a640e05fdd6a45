// The local DSH 0.1.0-rc.8 web host that `npm start` and the end-to-end suite run:
// install the pinned host set in host/ (once), add this checkout as a plugin the way a
// user would (`dsh plugin --profile web add <dir>`), start and stop `dsh web`.
// Runs from source (through tsx) before anything is built; every function runs under
// Node >= 22.19 (callers go through tools/with-node22.ts or the test runner it starts).
import { spawn, spawnSync, type ChildProcess } from 'node:child_process'
import { createHash } from 'node:crypto'
import { createWriteStream, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { parentPidEnv } from './exit-with-parent'
import { satisfiesNode, NODE_MIN } from './node-runtime'

/** Where the DeepSeek provider of the host is pointed (dsh-llm-deepseek reads both from the launch environment). */
export interface ModelEndpoint { baseURL: string; apiKey: string }

/** How a process ended. */
export interface ProcessExit { code: number | null; signal: NodeJS.Signals | null }

/** A running `dsh web`. */
export interface RunningHost {
  /** http://127.0.0.1:<port>, from the host's `dsh web: <url>` line */
  url: string
  pid: number
  child: ChildProcess
  /** Resolves when the process exits. */
  exit: Promise<ProcessExit>
  /** Last `n` lines of the host's stdout and stderr (default 60). */
  logTail(n?: number): string
  /** SIGTERM by pid, SIGKILL after `graceMs` (default 15 s); resolves with how it ended. */
  stop(graceMs?: number): Promise<ProcessExit>
  readonly exited: ProcessExit | null
}

/** Options of {@link startHost}. */
export interface StartHostOptions {
  dshHome: string
  /** Port on 127.0.0.1 (default 3080; 0 picks a free one). */
  port?: number
  model?: ModelEndpoint
  /** Appended with the host's stdout and stderr. */
  logFile?: string
  cwd?: string
  /** How long to wait for the URL line, ms (default 120 s). */
  timeoutMs?: number
  /** Copy the host's output to stderr. */
  echo?: boolean
  /** Called with the child right after spawn, before the host is up (so a caller can stop it early). */
  onSpawn?: (child: ChildProcess) => void
  /** Environment entries over {@link hostEnv}'s (e.g. `DSH_TELEMETRY_DISABLED: ''` to leave telemetry to `DSH_TELEMETRY_MODE`). */
  env?: NodeJS.ProcessEnv
}

/** The project root (the folder of package.json). */
export const PROJECT_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..')
/** Folder with the pinned host set (package.json + package-lock.json committed). */
export const HOST_DIR = join(PROJECT_ROOT, 'host')
/** The `dsh` CLI entry; its shebang would pick the system Node, so it is always run with process.execPath. */
export const DSH_BIN = join(HOST_DIR, 'node_modules', '@deepseek-ai', 'dsh', 'lib', 'bin.js')
/** pnpm from the pinned set; `dsh plugin add` needs it on PATH. */
export const PNPM_BIN_DIR = join(HOST_DIR, 'node_modules', '.bin')
/** Preloaded into the host (`node --import`; Node 22 strips its types): it stops itself when its starter is gone. */
export const EXIT_WITH_PARENT = join(PROJECT_ROOT, 'tools', 'exit-with-parent.ts')
/** Package name of this plugin (read from package.json). */
export const PLUGIN_NAME: string = JSON.parse(readFileSync(join(PROJECT_ROOT, 'package.json'), 'utf8')).name

const STAMP = join(HOST_DIR, 'node_modules', '.dsh-message-recall-lock-sha')

/** Throws unless this process runs on Node >= 22.19 (DSH rc.8 needs zstd, Promise.withResolvers, …). */
export function assertNode22(): void {
  if (!satisfiesNode(process.version)) {
    throw new Error(`DSH 0.1.0-rc.8 needs Node >= ${NODE_MIN}; this is ${process.version} (run through npm start / npm test, which provision Node 22)`)
  }
}

function lockDigest(): string {
  return createHash('sha256').update(readFileSync(join(HOST_DIR, 'package-lock.json'))).digest('hex')
}

/** True when host/node_modules was installed from the committed lockfile as it is now. */
export function hostInstalled(): boolean {
  return existsSync(DSH_BIN) && existsSync(STAMP) && readFileSync(STAMP, 'utf8').trim() === lockDigest()
}

/**
 * Install the pinned host set into host/node_modules from the committed lockfile when it is missing
 * or older than host/package-lock.json: `npm install --legacy-peer-deps --ignore-scripts`. (`npm ci`
 * refuses this lockfile: npm did not record the other platforms' optional packages of
 * node-addon-require-builtin, and ci treats that as out of sync; `install` resolves exactly the
 * locked versions and leaves the lockfile as it is.) npm may run on any Node; the EBADENGINE
 * warnings for commander and pi-ai under an older Node are harmless.
 * @returns whether an install ran
 * @throws Error when npm fails (its exit code is in the message)
 */
export function ensureHostInstalled(options: { log?: (line: string) => void; quiet?: boolean } = {}): boolean {
  if (hostInstalled()) return false
  const log = options.log ?? ((l: string) => process.stderr.write(l + '\n'))
  log('Installing the DeepSeek Harness 0.1.0-rc.8 web host into host/ (once; about 1-2 minutes)…')
  const started = Date.now()
  const r = spawnSync('npm', ['install', '--legacy-peer-deps', '--ignore-scripts', '--no-audit', '--no-fund', '--fetch-timeout=60000', '--loglevel=error'], {
    cwd: HOST_DIR, stdio: options.quiet ? ['ignore', 'pipe', 'pipe'] : ['ignore', 'inherit', 'inherit'], encoding: 'utf8',
  })
  if (r.status !== 0) {
    throw new Error(`npm install in host/ failed (exit ${r.status ?? r.signal})${options.quiet ? `\n${r.stdout}\n${r.stderr}` : ''}`)
  }
  writeFileSync(STAMP, lockDigest() + '\n')
  log(`Host installed in ${Math.round((Date.now() - started) / 1000)} s.`)
  return true
}

/**
 * Environment for the dsh CLI: the given DSH_HOME, telemetry off, this Node and pnpm first on PATH,
 * and, when `model` is given, the DeepSeek provider pointed at it (DEEPSEEK_BASE_URL/DEEPSEEK_API_KEY,
 * read by dsh-llm-deepseek from the launch environment).
 */
export function hostEnv({ dshHome, model }: { dshHome: string; model?: ModelEndpoint | undefined }): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, DSH_HOME: dshHome, DSH_TELEMETRY_DISABLED: '1', PATH: `${dirname(process.execPath)}:${PNPM_BIN_DIR}:${process.env.PATH ?? ''}` }
  if (model) {
    env.DEEPSEEK_BASE_URL = model.baseURL
    env.DEEPSEEK_API_KEY = model.apiKey
  }
  return env
}

/** Path of the web profile's package.json inside a DSH_HOME. */
export function profileManifest(dshHome: string): string {
  return join(dshHome, 'profiles', 'web', 'package.json')
}

/** True when the web profile of `dshHome` already links `pluginDir`. */
export function pluginAdded(dshHome: string, pluginDir: string = PROJECT_ROOT): boolean {
  const file = profileManifest(dshHome)
  if (!existsSync(file)) return false
  const pkg = JSON.parse(readFileSync(file, 'utf8'))
  const spec = pkg.dependencies?.[PLUGIN_NAME]
  const bundles: string[] = pkg.dsh?.profile?.bundles ?? []
  return typeof spec === 'string' && spec.startsWith('link:') && resolve(spec.slice(5)) === resolve(pluginDir) && bundles.includes(PLUGIN_NAME)
}

/**
 * Add this checkout to the web profile of `dshHome` the way a user would:
 * `dsh plugin --profile web add <pluginDir>` (pnpm links the folder). Skipped when already linked.
 * @returns whether the command ran
 * @throws Error with the CLI output when the command fails
 */
export function addPlugin({ dshHome, pluginDir = PROJECT_ROOT, log }: { dshHome: string; pluginDir?: string; log?: (line: string) => void }): boolean {
  assertNode22()
  if (pluginAdded(dshHome, pluginDir)) return false
  mkdirSync(dshHome, { recursive: true })
  log?.(`Adding ${PLUGIN_NAME} to the web profile: dsh plugin --profile web add ${pluginDir}`)
  const r = spawnSync(process.execPath, [DSH_BIN, 'plugin', '--profile', 'web', 'add', pluginDir], {
    cwd: PROJECT_ROOT, env: hostEnv({ dshHome }), encoding: 'utf8', timeout: 300_000,
  })
  if (r.status !== 0 || !pluginAdded(dshHome, pluginDir)) {
    throw new Error(`dsh plugin add failed (exit ${r.status ?? r.signal}):\n${r.stdout}\n${r.stderr}`)
  }
  return true
}

/**
 * Start `dsh web` bound to 127.0.0.1 and wait for its `dsh web: <url>` line.
 * The process gets its own process group so a terminal Ctrl-C reaches only the caller, which
 * then stops it by pid; it preloads tools/exit-with-parent.ts, so it also stops (SIGTERM to
 * itself) when the caller is gone without stopping it. Output goes to `logFile` (appended) and
 * is kept for `logTail()`. When the host does not come up, it is stopped before the error is thrown.
 * @throws Error with the log tail when the host exits or prints no URL within `timeoutMs` (default 120 s);
 *   when the port was taken (the host's log says EADDRINUSE), the error has `code: 'EADDRINUSE'` and `port`
 */
export async function startHost(options: StartHostOptions): Promise<RunningHost> {
  assertNode22()
  const { dshHome, port = 3080, model, logFile, cwd = PROJECT_ROOT, timeoutMs = 120_000, echo = false } = options
  mkdirSync(dshHome, { recursive: true })
  const child = spawn(process.execPath, ['--import', pathToFileURL(EXIT_WITH_PARENT).href, DSH_BIN, 'web', '--host', '127.0.0.1', '--port', String(port), '--no-open'], {
    cwd, env: { ...hostEnv({ dshHome, model }), ...parentPidEnv(), ...options.env }, stdio: ['ignore', 'pipe', 'pipe'], detached: true,
  })
  options.onSpawn?.(child)
  const lines: string[] = []
  const file = logFile ? (mkdirSync(dirname(logFile), { recursive: true }), createWriteStream(logFile, { flags: 'a' })) : undefined
  let exited: ProcessExit | null = null
  const exit = new Promise<ProcessExit>((done) => child.once('exit', (code, signal) => { exited = { code, signal }; done(exited) }))
  let onUrl: (url: string) => void = () => {}
  const urlSeen = new Promise<string>((ok) => { onUrl = ok })
  for (const stream of [child.stdout!, child.stderr!]) {
    let rest = ''
    stream.setEncoding('utf8')
    stream.on('data', (chunk: string) => {
      file?.write(chunk)
      if (echo) process.stderr.write(chunk)
      rest += chunk
      const parts = rest.split('\n')
      rest = parts.pop() ?? ''
      for (const line of parts) {
        lines.push(line)
        if (lines.length > 2000) lines.splice(0, lines.length - 2000)
        const m = /dsh web: (http:\/\/\S+)/.exec(line)
        if (m) onUrl(m[1]!.replace(/\/$/, ''))
      }
    })
  }
  const logTail = (n = 60) => lines.slice(-n).join('\n')
  let timer: NodeJS.Timeout | undefined
  const url = await Promise.race([
    urlSeen,
    exit.then((e) => {
      const error = new Error(`dsh web exited before listening (code ${e.code}, signal ${e.signal}):\n${logTail()}`)
      if (lines.some((line) => line.includes('EADDRINUSE'))) Object.assign(error, { code: 'EADDRINUSE', port })
      throw error
    }),
    new Promise<never>((_, fail) => { timer = setTimeout(() => fail(new Error(`dsh web printed no URL within ${timeoutMs} ms:\n${logTail()}`)), timeoutMs) }),
  ]).catch(async (error) => {
    await stop(5000)
    throw error
  }).finally(() => clearTimeout(timer))
  async function stop(graceMs = 15_000): Promise<ProcessExit> {
    if (exited) return exited
    try { process.kill(child.pid!, 'SIGTERM') } catch { /* already gone */ }
    let t: NodeJS.Timeout | undefined
    const result = await Promise.race([exit, new Promise<null>((ok) => { t = setTimeout(() => ok(null), graceMs) })]).finally(() => clearTimeout(t))
    if (result) { file?.end(); return result }
    try { process.kill(child.pid!, 'SIGKILL') } catch { /* already gone */ }
    const killed = await exit
    file?.end()
    return killed
  }
  return { url, pid: child.pid!, child, exit, logTail, stop, get exited() { return exited } }
}
