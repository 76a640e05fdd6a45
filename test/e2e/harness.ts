/**
 * One end-to-end environment per suite file: the pinned DSH 0.1.0-rc.8 web host from host/
 * (installed on first use), this checkout added with `dsh plugin --profile web add`, a fresh
 * DSH_HOME and workspace under `.e2e-artifacts/<suite>/`, the scripted mock model on loopback
 * (tools/mock-model.ts, DSH's dsh-llm-mock-server per step), and the pinned headless Chromium
 * (tools/chromium.ts; `CHROMIUM_PATH` overrides it) driven by puppeteer-core with a fresh profile.
 * The browser's version is printed and written to `.e2e-artifacts/<suite>/browser.json`.
 *
 * `step(name, fn)` wraps a test body: on failure it saves a screenshot of every open page and
 * prints the host log tail, the mock model's captured requests and the browser console tail.
 *
 * @module test/e2e/harness
 */
import { mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { it } from 'node:test'
import type { Browser, Page } from 'puppeteer-core'
import { addPlugin, ensureHostInstalled, PROJECT_ROOT, startHost, type RunningHost } from '../../tools/dsh-host'
import { findSessionDir } from '../../tools/dsh-api'
import { startMockModel, type MockModel, type MockRequest } from '../../tools/mock-model'
import { findChromium, launchChromium } from '../../tools/chromium'
import type { LogEvent } from '../../src/shared/events'
import { resolveSessionLog } from '../../src/log/log-file'
import { readSessionLog } from '../../src/log/session-log'

/** Where screenshots, logs and the per-suite DSH_HOME go (ignored by git). */
export const ARTIFACTS = join(PROJECT_ROOT, '.e2e-artifacts')

/** Options of {@link bootE2e}. */
export interface E2eOptions {
  /** Title the mock model gives new sessions (the sidebar entry to click after a reload). */
  readonly title?: string
}

/** A running end-to-end environment. */
export interface E2e {
  readonly name: string
  /** `.e2e-artifacts/<name>` */
  readonly dir: string
  /** The DSH_HOME of this suite. */
  readonly home: string
  /** The workspace folder sessions are created in (holds notes.txt and todo.txt). */
  readonly workspace: string
  readonly model: MockModel
  readonly browser: Browser
  /** The current host (replaced by {@link E2e.restartHost}). */
  host: RunningHost
  /** Origin of the host, e.g. http://127.0.0.1:41234 (kept across restarts). */
  readonly url: string
  /** Stop the host by pid and start it again on the same port and DSH_HOME; `whileStopped` runs in between (the logs are at rest). */
  restartHost(whileStopped?: () => Promise<void> | void): Promise<void>
  /** A new tab with console capture; `zh` makes the browser report zh-CN as its language. */
  newPage(options?: { zh?: boolean }): Promise<Page>
  /** Save a PNG of `page` as `.e2e-artifacts/<name>/<file>.png`; returns the path. */
  shot(page: Page, file: string): Promise<string>
  /** Run a test body; on failure save screenshots and print the host log, model requests and console. */
  step(label: string, fn: () => Promise<void>): Promise<void>
  /** Close the browser, the host and the mock model. */
  close(): Promise<void>
}

/** Screenshot a tab after bringing it to the front (a background tab paints no frames, so its screenshot would wait). */
async function shootFront(page: Page, path: string): Promise<void> {
  await page.bringToFront()
  await page.screenshot({ path })
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined
  return Promise.race([promise, new Promise<T>((_, fail) => { timer = setTimeout(() => fail(new Error(`timed out after ${ms} ms`)), ms) })]).finally(() => clearTimeout(timer))
}

/** One line per captured model request, for failure reports. */
export function describeRequests(requests: readonly MockRequest[]): string {
  return requests.map((r) => {
    const messages = (r.body?.messages ?? []).map((m) => {
      const text = typeof m.content === 'string' ? m.content : JSON.stringify(m.content ?? '')
      const calls = m.tool_calls?.map((c) => `${c.id}:${c.function.name}`).join(',')
      return `    ${m.role}${m.tool_call_id ? `(${m.tool_call_id})` : ''}${calls ? `[${calls}]` : ''}: ${text.replace(/\s+/g, ' ').slice(0, 100)}`
    })
    return `  #${r.index} ${r.kind} step=${JSON.stringify(r.step).slice(0, 120)} outcome=${r.outcome}\n${messages.join('\n')}`
  }).join('\n')
}

/** The folders of a browserless host file: `<artifacts>/<name>`, its DSH home and its workspace. */
export interface HostFolders {
  readonly dir: string
  readonly home: string
  readonly workspaceDir: string
}

/** The folders of the browserless host file `name` (nothing is made yet; see {@link startImageHost}). */
export function hostFolders(name: string): HostFolders {
  const dir = join(ARTIFACTS, name)
  return { dir, home: join(dir, 'home'), workspaceDir: join(dir, 'workspace') }
}

/**
 * Start the pinned web host with this plugin for a browserless file, on fresh folders: the host
 * set installed on first use, the folder emptied, the plugin added to the DSH home, the mock
 * model's two models taking image input (the default catalog is text-only), the host's log in
 * `<dir>/host.log`. Call it from a `before` hook; stop both in `after`.
 * @param folders - from {@link hostFolders}.
 * @returns the mock model and the running host.
 * @throws Error when the host set cannot be installed or the host does not start.
 */
export async function startImageHost(folders: HostFolders): Promise<{ model: MockModel; host: RunningHost }> {
  const { dir, home, workspaceDir } = folders
  ensureHostInstalled({ log: (l) => process.stderr.write(`[e2e] ${l}\n`) })
  rmSync(dir, { recursive: true, force: true })
  mkdirSync(workspaceDir, { recursive: true })
  addPlugin({ dshHome: home })
  const models = ['deepseek-v4-flash', 'deepseek-v4-pro'].map((id) => ({ id, name: id, contextWindow: 1_000_000, inputModalities: ['text', 'image'] }))
  writeFileSync(join(home, 'settings.yaml'), `llm-deepseek:\n  models: ${JSON.stringify(models)}\n`)
  const model = await startMockModel()
  const host = await startHost({ dshHome: home, port: 0, model, logFile: join(dir, 'host.log') })
  return { model, host }
}

/**
 * Boot the environment for one suite file. Installs the host set on first use (about a minute),
 * so call it from a `before` hook with a generous timeout.
 * @throws Error when no Chromium can be had (one line naming CHROMIUM_PATH), the host cannot be installed or does not start.
 */
export async function bootE2e(name: string, options: E2eOptions = {}): Promise<E2e> {
  const log = (l: string) => process.stderr.write(`[e2e] ${l}\n`)
  // First, so a machine without a browser fails at once with the one line naming CHROMIUM_PATH.
  findChromium(log)
  ensureHostInstalled({ log: (l) => process.stderr.write(`[e2e] ${l}\n`) })
  const dir = join(ARTIFACTS, name)
  rmSync(dir, { recursive: true, force: true })
  const home = join(dir, 'home')
  const workspace = join(dir, 'workspace')
  mkdirSync(workspace, { recursive: true })
  writeFileSync(join(workspace, 'notes.txt'), 'Meeting notes: the launch codename is BLUE-HERON.\n')
  writeFileSync(join(workspace, 'todo.txt'), 'Open task: rotate the ORCHID-77 staging key.\n')
  addPlugin({ dshHome: home })

  const consoleLines: string[] = []
  const model = await startMockModel({ ...(options.title ? { title: options.title } : {}) })
  let host = await startHost({ dshHome: home, port: 0, model, logFile: join(dir, 'host.log') })
  const port = Number(new URL(host.url).port)
  const url = host.url
  const { browser, binary, version } = await launchChromium({
    userDataDir: join(dir, 'chromium-profile'), defaultViewport: { width: 1400, height: 900 }, protocolTimeout: 60_000,
  }, log)
  log(`${name}: browser ${version} (${binary.source}: ${binary.path})`)
  writeFileSync(join(dir, 'browser.json'), JSON.stringify({ version, source: binary.source, path: binary.path }, null, 2) + '\n')

  const env: E2e = {
    name, dir, home, workspace, model, browser, url,
    get host() { return host },
    set host(h) { host = h },
    async restartHost(whileStopped) {
      await host.stop()
      await whileStopped?.()
      host = await startHost({ dshHome: home, port, model, logFile: join(dir, 'host.log') })
    },
    async newPage(pageOptions = {}) {
      const page = await browser.newPage()
      const tag = `tab${(await browser.pages()).length - 1}`
      page.on('console', (m) => consoleLines.push(`[${tag} ${m.type()}] ${m.text()}`))
      page.on('pageerror', (e) => consoleLines.push(`[${tag} pageerror] ${(e as Error).message ?? e}`))
      if (pageOptions.zh) {
        // A string: the test loader's name-keeping helpers do not exist inside the page.
        await page.evaluateOnNewDocument(`Object.defineProperty(navigator, 'language', { get: () => 'zh-CN' });
          Object.defineProperty(navigator, 'languages', { get: () => ['zh-CN', 'zh'] })`)
      }
      return page
    },
    async shot(page, file) {
      const path = join(dir, `${file}.png`)
      await shootFront(page, path)
      return path
    },
    async step(label, fn) {
      try {
        await fn()
      } catch (error) {
        const safe = label.replace(/[^a-z0-9]+/gi, '-').slice(0, 60)
        const pages = await browser.pages().catch(() => [] as Page[])
        for (const [i, page] of pages.entries()) await withTimeout(shootFront(page, join(dir, `FAILED-${safe}-tab${i}.png`)), 10_000).catch(() => {})
        writeFileSync(join(dir, 'mock-requests.json'), JSON.stringify({ requests: model.requests, titleRequests: model.titleRequests }, null, 2))
        process.stderr.write([
          `\n[e2e] ${name} / ${label} failed: ${(error as Error)?.message ?? error}`,
          `[e2e] screenshots and logs: ${dir}`,
          `[e2e] host log tail (pid ${host.pid}):\n${host.logTail(40)}`,
          `[e2e] mock model: ${model.requests.length} turn requests, ${model.titleRequests.length} title requests, ${model.pending()} scripted steps left:\n${describeRequests(model.requests)}`,
          `[e2e] browser console tail:\n${consoleLines.slice(-30).join('\n')}`,
          '',
        ].join('\n'))
        throw error
      } finally {
        writeFileSync(join(dir, 'console.log'), consoleLines.join('\n') + '\n')
      }
    },
    async close() {
      await browser.close().catch(() => {})
      await host.stop().catch(() => {})
      await model.close().catch(() => {})
    },
  }
  return env
}

/**
 * Events of a session as persisted by dsh-session-persistence-jsonl, read from every zstd frame
 * of its log by the project's own reader (`src/log/session-log.ts`), packed chunk rows expanded.
 * @throws Error when the session folder or file does not exist, or the log has problems.
 */
export async function eventsOnDisk(home: string, sessionId: string): Promise<LogEvent[]> {
  const dir = findSessionDir(home, sessionId)
  if (!dir) throw new Error(`no session folder for ${sessionId} under ${home}/sessions`)
  // The project's own log reader: every frame, packed chunk rows expanded, problems reported.
  const events: LogEvent[] = []
  const read = await readSessionLog(await resolveSessionLog(dir), { expand: true, onRecord: (r) => events.push(...(r.events ?? [])) })
  if (read.problems.length) throw new Error(`session log of ${sessionId} has problems: ${read.problems.map((p) => p.message).join('; ')}`)
  return events
}

/**
 * Wait until a session's log on disk satisfies `predicate`: a row hides on the live event, which
 * reaches the page before the write's durability flush, so a check of the disk waits for the flush.
 * @param home - the DSH home.
 * @param sessionId - the session.
 * @param predicate - the condition over the events on disk.
 * @param label - what is awaited, for the timeout error.
 * @param timeoutMs - how long to wait, in ms.
 * @returns the events on disk that satisfied the predicate.
 * @throws Error naming `label` when it does not hold within `timeoutMs`.
 */
export async function waitForDisk(home: string, sessionId: string, predicate: (events: LogEvent[]) => boolean, label: string, timeoutMs = 10_000): Promise<LogEvent[]> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const events = await eventsOnDisk(home, sessionId)
    if (predicate(events)) return events
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${label} on disk`)
    await new Promise((resolve) => setImmediate(resolve))
  }
}

/**
 * Make a session's log unwritable: its folder is moved aside and a file put in its place, so every
 * write fails with `ENOTDIR` (also for root).
 * @param home - the DSH home of the suite.
 * @param sessionId - the session.
 * @returns the undo, which puts the folder back.
 * @throws Error when the session has no folder.
 */
export function breakSessionFolder(home: string, sessionId: string): () => void {
  const dir = findSessionDir(home, sessionId)
  if (!dir) throw new Error(`no session folder for ${sessionId}`)
  renameSync(dir, `${dir}.moved`)
  writeFileSync(dir, 'a file where the session folder was')
  return () => {
    rmSync(dir)
    renameSync(`${dir}.moved`, dir)
  }
}

/**
 * Scenarios that build on each other: each runs only after every earlier one of the same file
 * passed (a later one fails with "not run: …" instead of acting on a broken state), and each
 * runs inside {@link E2e.step}, which records screenshots and dumps logs on failure.
 * @param e2e - returns the suite's booted harness (set in `before`).
 * @returns `scenario(name, fn)`, which declares one test.
 */
export function sequentialScenarios(e2e: () => E2e): (name: string, fn: () => Promise<void>) => void {
  const failed: string[] = []
  return (name, fn) => {
    it(name, { timeout: 240_000 }, async () => {
      if (failed.length) throw new Error(`not run: an earlier scenario failed (${failed.join('; ')})`)
      try {
        await e2e().step(name, fn)
      } catch (error) {
        failed.push(name)
        throw error
      }
    })
  }
}
