import assert from 'node:assert/strict'
/**
 * The real DeepSeek Harness 0.1.0-rc.8 host composition in one cordis `Context`, for tests and
 * benchmarks. Nothing of DSH is replaced: the session store, agent registry, agent loop, LLM
 * runtime, system prompt, tool runtime, web server, JSONL persistence and the invariant
 * companions are the published packages. The only stand-in is the model: DSH's own
 * `@deepseek-ai/dsh-llm-mock-server` on 127.0.0.1, reached through the real DeepSeek provider
 * (`@deepseek-ai/dsh-llm-deepseek`), which reads `DEEPSEEK_BASE_URL` / `DEEPSEEK_API_KEY` from the
 * launch environment (`dsh-llm-deepseek/lib/index.js`, `resolveAdapterOptions`). The builder
 * provides that environment as the `launchEnvironment` context slot
 * (`@deepseek-ai/dsh-launch-environment`), so `process.env` keeps the caller's values.
 *
 * Typical use:
 * ```ts
 * const app = await bootDshApp({ recall: {}, persistence: {} })
 * const agent = await app.createAgent()
 * await app.prompt(agent, 'List the files')
 * const reply = await app.post({ sessionId: agent.id, action: 'delete', seq: 4 })
 * await app.dispose()
 * ```
 *
 * @module test/support/dsh-app
 */
import { request } from 'node:http'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { randomUUID } from 'node:crypto'
import { Context, type Plugin } from '@deepseek-ai/cordis'
import { SessionStore, SessionId, type Session, type SessionEvent } from '@deepseek-ai/dsh-session'
import * as sessionInvariant from '@deepseek-ai/dsh-session/invariant'
import { AgentRegistry, type Agent } from '@deepseek-ai/dsh-agent'
import { AgentLoop } from '@deepseek-ai/dsh-agent-loop'
import * as agentLoopInvariant from '@deepseek-ai/dsh-agent-loop/invariant'
import * as compactionInvariant from '@deepseek-ai/dsh-compaction/invariant'
import { LlmRuntime, createUserMessage } from '@deepseek-ai/dsh-llm'
import * as deepseek from '@deepseek-ai/dsh-llm-deepseek'
import { SystemPrompt } from '@deepseek-ai/dsh-system-prompt'
import { ToolRuntime } from '@deepseek-ai/dsh-tools'
import { WebServer } from '@deepseek-ai/dsh-host-webserver'
import { InvariantRegistry } from '@deepseek-ai/dsh-invariants'
import { JsonlSessionPersistence } from '@deepseek-ai/dsh-session-persistence-jsonl'
import { createLaunchEnvironmentSnapshot } from '@deepseek-ai/dsh-launch-environment'
import { startMockLlmServer, type MockLlmServer, type MockLlmServerOptions } from '@deepseek-ai/dsh-llm-mock-server'
import { SessionProjectionRegistry } from '@deepseek-ai/dsh-session-projection'
import { TokenMeter } from '@deepseek-ai/dsh-token-meter'
import * as tokenMeterInvariant from '@deepseek-ai/dsh-token-meter/invariant'
import { SessionTitleService } from '@deepseek-ai/dsh-session-title'
import * as sessionTitleInvariant from '@deepseek-ai/dsh-session-title/invariant'
import { Storage } from '@deepseek-ai/dsh-storage'
import * as storageJson from '@deepseek-ai/dsh-storage-json'
import * as storageDomain from '@deepseek-ai/dsh-storage-domain'
import { WorkspaceRegistry } from '@deepseek-ai/dsh-workspace'

/** Provider route registered by `@deepseek-ai/dsh-llm-deepseek` rc.8 (`PROVIDER`). */
export const PROVIDER = 'deepseek-official'
/** First model of the rc.8 DeepSeek catalog (`DEFAULT_MODELS`). */
export const MODEL = 'deepseek-v4-flash'
/** The `dsh-base` bundle's `session-title` row config at rc.8. */
export const SESSION_TITLE_CONFIG = { fallbackMaxWords: 5, fallbackMaxBytes: 40, maxTitleBytes: 80 } as const

/** Default route path of the plugin (`Config.path`), written out so that a changed default fails the tests. */
export const RECALL_PATH = '/dsh-message-recall'

/** JSONL persistence options (`dsh-session-persistence-jsonl` `Config`). */
export interface PersistenceOptions {
  /** Root folder. Omitted: a fresh temporary folder, removed by `dispose()`. */
  readonly root?: string
  /** `'zstd'` (default, as in the product) or `'none'` (plain `session.jsonl`). */
  readonly compression?: 'zstd' | 'none'
  /** Batch window of the durable writer in ms; default 5 here (the package default is 200). */
  readonly writeBatchMaxDelayMs?: number
}

/** What `bootDshApp` composes. Every field is optional. */
export interface DshAppOptions {
  /**
   * Load this project's host plugin (`src/host/index.ts`) with this config (`{}` for the
   * defaults). Omitted or `false`: the composition runs without the plugin.
   */
  readonly recall?: Record<string, unknown> | false
  /** Load the real JSONL persistence backend. Omitted or `false`: sessions live in memory only. */
  readonly persistence?: PersistenceOptions | false
  /**
   * Mock model options. `sequence` defaults to `['success']` with `repeatLast: true`; the API key
   * is generated per app. `host` and `port` are always 127.0.0.1 and an OS-assigned port.
   */
  readonly mock?: Partial<Omit<MockLlmServerOptions, 'host' | 'port' | 'apiKey'>>
  /** Load the invariant registry with the session, agent-loop and compaction companions (default true). */
  readonly invariants?: boolean
  /**
   * Load the real `dsh-token-meter` `TokenMeter` (with `dsh-session-projection`'s registry and,
   * under invariants, the meter's companion), as the `dsh-base` bundle mounts it.
   */
  readonly tokenMeter?: boolean
  /**
   * Load the real `dsh-session-title` service with this config (`true`: {@link SESSION_TITLE_CONFIG})
   * and, under invariants, its companion.
   */
  readonly sessionTitle?: boolean | { readonly fallbackMaxWords: number; readonly fallbackMaxBytes: number; readonly maxTitleBytes: number }
  /**
   * Load the web app's workspace registry (`dsh-workspace` over `dsh-storage`, `dsh-storage-json`
   * in a temporary folder, and `dsh-storage-domain`), as `dsh-web-app` mounts it; needs persistence.
   * `{ root }`: the storage root to use (kept by `dispose()`), e.g. `<DSH home>/storages`.
   */
  readonly workspaces?: boolean | { readonly root: string }
  /**
   * A chat-completions endpoint to use instead of the built-in mock (for instance the scripted
   * `tools/mock-model.ts`): `DEEPSEEK_BASE_URL` and `DEEPSEEK_API_KEY` point at it. The built-in
   * mock still runs, unused.
   */
  readonly model?: { readonly baseURL: string; readonly apiKey: string }
  /**
   * More plugins to load with the composition, in order (for instance DSH packages from the
   * pinned host set); loading any of them also loads `dsh-session-projection`'s registry.
   */
  readonly plugins?: ReadonlyArray<{ readonly plugin: Plugin; readonly config?: unknown }>
}

/** Reply of {@link DshApp.post}: status, headers, raw text and the parsed JSON body (or `undefined`). */
export interface HttpReply {
  readonly status: number
  readonly headers: Readonly<Record<string, string | string[] | undefined>>
  readonly text: string
  readonly json: any
}

/** Options of one raw HTTP request sent by {@link DshApp.post} / {@link DshApp.request}. */
export interface RequestOptions {
  /** Route path; default {@link RECALL_PATH}. */
  readonly path?: string
  /** HTTP method; default `POST`. */
  readonly method?: string
  /** Extra or overriding headers (`host`, `origin`, `content-type`, `sec-fetch-site`, …). */
  readonly headers?: Readonly<Record<string, string>>
}

/** A running composition. Every member is safe to use until `dispose()`. */
export interface DshApp {
  /** The root cordis context (`ctx.sessions`, `ctx.agents`, `ctx.webServer`, `ctx.sessionPersistence`, …). */
  readonly ctx: Context
  /** The mock model; `mock.requests[i].body` is the exact wire request the provider sent. */
  readonly mock: MockLlmServer
  /** The web server's OS-assigned port. */
  readonly port: number
  /** The persistence root when persistence is loaded, else `undefined`. */
  readonly root: string | undefined
  /** Create an agent (and its live session) through the real `AgentRegistry` / `AgentLoop` factory. */
  createAgent(options?: { id?: string; seed?: readonly SessionEvent[]; cwd?: string }): Promise<Agent>
  /** Resume an agent on a persisted session (`ctx.agents.resume`); needs persistence. */
  resumeAgent(id: string): Promise<Agent>
  /** Create a live session with no agent (`ctx.sessions.create`), bound to the app's root fiber. */
  createSession(options?: { id?: string; seed?: readonly SessionEvent[]; cwd?: string }): Session
  /** Queue `text` as a follow-up prompt from the person and resolve when the agent is idle again. */
  prompt(agent: Agent, text: string): Promise<void>
  /** Queue `text` as a follow-up prompt and return at once; the returned promise resolves at idle. */
  startPrompt(agent: Agent, text: string): { readonly idle: Promise<void> }
  /** POST `body` as JSON (or as the raw string given) to the plugin route over real HTTP. */
  post(body: unknown, options?: RequestOptions): Promise<HttpReply>
  /** Send a raw request with an optional raw body to the web server. */
  request(options: RequestOptions & { body?: string | Buffer }): Promise<HttpReply>
  /** Close the mock server, dispose the whole app fiber, and remove the temporary root it created. */
  dispose(): Promise<void>
}

/**
 * POST `body` to the plugin route and answer its value, failing the test unless the route
 * answered 200.
 * @param app - the running app.
 * @param body - the request body.
 * @returns the reply's `value` (`json.value`).
 */
export async function okValue(app: DshApp, body: object): Promise<any> {
  const reply = await app.post(body)
  assert.equal(reply.status, 200, reply.text)
  return reply.json.value
}

let dshHome: string | undefined
/**
 * The DeepSeek provider persists an anonymous user id under `$DSH_HOME` (default `~/.dsh`) on its
 * first request (`dsh-anonymous-user-id`). Point it at a per-process temporary folder unless the
 * caller already chose one, so tests never write into the real home.
 */
function ensureScratchDshHome(): void {
  if (process.env.DSH_HOME) return
  dshHome = mkdtempSync(join(tmpdir(), 'dsh-home-'))
  process.env.DSH_HOME = dshHome
  process.once('exit', () => rmSync(dshHome!, { recursive: true, force: true }))
}

/**
 * Boot the real rc.8 composition.
 * @param options - see {@link DshAppOptions}.
 * @returns the running app, once every plugin finished loading and the web server listens.
 * @throws whatever a plugin's load throws (the partial app and mock are disposed first).
 */
export async function bootDshApp(options: DshAppOptions = {}): Promise<DshApp> {
  ensureScratchDshHome()
  const apiKey = `mock-${randomUUID()}`
  const mock = await startMockLlmServer({ sequence: ['success'], repeatLast: true, ...options.mock, host: '127.0.0.1', port: 0, apiKey })
  const ctx = new Context()
  const persistence = options.persistence === undefined || options.persistence === false ? undefined : options.persistence
  const ownsRoot = persistence !== undefined && persistence.root === undefined
  const root = persistence === undefined ? undefined : persistence.root ?? mkdtempSync(join(tmpdir(), 'dsh-sessions-'))
  const storageRoot = typeof options.workspaces === 'object' ? options.workspaces.root : options.workspaces ? mkdtempSync(join(tmpdir(), 'dsh-storages-')) : undefined
  const ownsStorage = options.workspaces === true
  const dispose = async () => {
    await mock.close()
    await ctx.fiber.dispose()
    if (ownsRoot && root) rmSync(root, { recursive: true, force: true })
    if (storageRoot && ownsStorage) rmSync(storageRoot, { recursive: true, force: true })
  }
  try {
    ctx.provide('launchEnvironment', createLaunchEnvironmentSnapshot([{
      source: 'process', values: options.model === undefined ? { DEEPSEEK_BASE_URL: `${mock.baseURL}/v1`, DEEPSEEK_API_KEY: apiKey } : { DEEPSEEK_BASE_URL: options.model.baseURL, DEEPSEEK_API_KEY: options.model.apiKey },
    }]))
    const loading: PromiseLike<unknown>[] = []
    if (options.invariants !== false) {
      loading.push(ctx.plugin(InvariantRegistry, { enabled: true }))
      const companions: unknown[] = [sessionInvariant, agentLoopInvariant, compactionInvariant]
      if (options.tokenMeter) companions.push(tokenMeterInvariant)
      if (options.sessionTitle) companions.push(sessionTitleInvariant)
      for (const companion of companions) loading.push(ctx.plugin(companion as Plugin))
    }
    if (options.tokenMeter || options.sessionTitle || options.plugins?.length) loading.push(ctx.plugin(SessionProjectionRegistry))
    if (options.tokenMeter) loading.push(ctx.plugin(TokenMeter, {}))
    if (options.sessionTitle) loading.push(ctx.plugin(SessionTitleService, options.sessionTitle === true ? SESSION_TITLE_CONFIG : options.sessionTitle))
    if (storageRoot !== undefined) {
      loading.push(ctx.plugin(Storage))
      loading.push(ctx.plugin(storageJson as Plugin, { root: storageRoot }))
      loading.push(ctx.plugin(storageDomain as Plugin, { backend: 'json' }))
      loading.push(ctx.plugin(WorkspaceRegistry))
    }
    loading.push(ctx.plugin(SessionStore))
    if (root !== undefined) {
      loading.push(ctx.plugin(JsonlSessionPersistence, {
        root, compression: persistence!.compression ?? 'zstd', writeBatchMaxDelayMs: persistence!.writeBatchMaxDelayMs ?? 5,
      }))
    }
    loading.push(ctx.plugin(AgentRegistry))
    loading.push(ctx.plugin(LlmRuntime))
    loading.push(ctx.plugin(SystemPrompt, {}))
    loading.push(ctx.plugin(ToolRuntime, {}))
    loading.push(ctx.plugin(AgentLoop, { agents: [] }))
    loading.push(ctx.plugin(deepseek as Plugin, {}))
    loading.push(ctx.plugin(WebServer, { host: '127.0.0.1', port: 0 }))
    for (const extra of options.plugins ?? []) loading.push(ctx.plugin(extra.plugin, extra.config))
    if (options.recall !== undefined && options.recall !== false) {
      // Computed specifier: the host plugin is another module of this project, loaded like the Loader does.
      const recallModule = new URL('../../src/host/index.ts', import.meta.url).href
      loading.push(ctx.plugin((await import(recallModule)) as Plugin, options.recall))
    }
    await Promise.all(loading)
    const services = ['sessions', 'agents', 'agentLoop', 'llm', 'webServer', ...(root === undefined ? [] : ['sessionPersistence']),
      ...(options.tokenMeter ? ['tokenMeter'] : []), ...(options.sessionTitle ? ['sessionTitle'] : []), ...(storageRoot === undefined ? [] : ['workspaceRegistry'])]
    await ctx.inject(services, () => {})
  } catch (error) {
    await dispose().catch(() => {})
    throw error
  }
  const port = ctx.webServer.port

  const send = (opts: RequestOptions & { body?: string | Buffer }) => new Promise<HttpReply>((resolve, reject) => {
    const headers: Record<string, string> = { host: `127.0.0.1:${port}`, ...opts.headers }
    if (opts.body !== undefined && !Object.keys(headers).some((h) => h.toLowerCase() === 'content-length')) {
      headers['content-length'] = String(Buffer.byteLength(opts.body))
    }
    const req = request({ host: '127.0.0.1', port, path: opts.path ?? RECALL_PATH, method: opts.method ?? 'POST', headers }, (res) => {
      const chunks: Buffer[] = []
      res.on('data', (c: Buffer) => chunks.push(c))
      res.on('error', reject)
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8')
        let json: unknown
        try { json = text ? JSON.parse(text) : undefined } catch { json = undefined }
        resolve({ status: res.statusCode ?? 0, headers: res.headers, text, json })
      })
    })
    req.on('error', reject)
    if (opts.body !== undefined) req.write(opts.body)
    req.end()
  })

  const agentOptions = { provider: PROVIDER, model: MODEL }
  const app: DshApp = {
    ctx, mock, port, root,
    async createAgent(o = {}) {
      const sessionId = SessionId(o.id ?? `session-${randomUUID()}`)
      const meta = o.cwd === undefined ? undefined : { cwd: o.cwd }
      const handle = await ctx.agents.create({ sessionId, agentOptions, ...(o.seed ? { seed: o.seed } : {}), ...(meta ? { meta } : {}) })
      return handle.agent
    },
    async resumeAgent(id) {
      const handle = await ctx.agents.resume({ resumeSessionId: SessionId(id), agentOptions })
      return handle.agent
    },
    createSession(o = {}) {
      const sessionId = SessionId(o.id ?? `session-${randomUUID()}`)
      return ctx.sessions.create(sessionId, { ...(o.seed ? { seed: o.seed } : {}), ...(o.cwd ? { meta: { cwd: o.cwd } } : {}) })
    },
    startPrompt(agent, text) {
      agent.followup(createUserMessage({ content: [{ type: 'text', text }], source: { kind: 'user' } }))
      return { idle: agent.whenIdle() }
    },
    async prompt(agent, text) {
      await app.startPrompt(agent, text).idle
    },
    post(body, opts = {}) {
      const raw = typeof body === 'string' ? body : JSON.stringify(body)
      return send({ ...opts, headers: { 'content-type': 'application/json', ...opts.headers }, body: raw })
    },
    request: send,
    dispose,
  }
  return app
}

/**
 * Poll `predicate` every 2 ms until it returns true.
 * @param predicate - the condition to wait for.
 * @param timeoutMs - give up after this many milliseconds (default 5000).
 * @throws `Error('waitFor: timed out after <n> ms: <label>')` when the condition never holds.
 */
export async function waitFor(predicate: () => boolean, label = 'condition', timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs
  while (!predicate()) {
    if (Date.now() > deadline) throw new Error(`waitFor: timed out after ${timeoutMs} ms: ${label}`)
    await new Promise((r) => setTimeout(r, 2))
  }
}
