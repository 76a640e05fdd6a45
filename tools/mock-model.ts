// A scriptable stand-in for the DeepSeek chat-completions API, built on DSH's own
// `@deepseek-ai/dsh-llm-mock-server` (from the pinned host set in host/).
//
// DSH's mock server answers every request of one instance from one fixed option set (one
// successText, one tool call named toolName with the id "mock-call-1"). A conversation needs
// a different answer per model call, so this module is a thin loopback front: for each
// chat-completions request it takes the next scripted step, starts DSH mock instances
// configured for that step (port 0), forwards the request to them unchanged and sends their
// answer back. A step that answers with text and tool calls at once (what a real model does)
// is the concatenation of the instances' streams: the text deltas of a `success` instance,
// then the tool-call deltas of one `tool_call_success` instance per call (index and id set
// per call), then one `tool_calls` finish chunk. Every content byte comes from DSH's mock.
//
// Session-title requests (dsh-session-title-llm, one per session on its first prompt) are
// recognised by their system instruction and answered from a fixed title step, so a test
// script lists only the turns' model calls.
//
// Over HTTP, `PUT <origin>/_mock/script` (JSON array of steps) replaces the script and
// `GET <origin>/_mock/requests` lists the captured requests. The command line for `npm start` is
// tools/mock-model-cli.ts.
import { createServer, request as httpRequest, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { createRequire } from 'node:module'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..')

/** Text of the default step, answered once the script is used up. */
export const DEFAULT_ANSWER = 'Mock answer from the local test server.'
/** Title the session-title requests get. */
export const DEFAULT_TITLE = 'Mock conversation'
/** Bearer token the host is given and the mock requires. */
export const MOCK_API_KEY = 'mock-key'
/** Start of the system instruction of dsh-session-title-llm (rc.8, lib/index.js `systemPrompt`). */
const TITLE_MARKER = 'Create a concise title for an AI coding-assistant session'

/** One scripted model call. See {@link normaliseStep}. */
export type MockStep =
  | string
  | { text: string }
  | { text?: string; toolCalls: ToolCallStep[] }
  | { text?: string; toolCall: ToolCallStep }
  | { slow: string; chunkDelayMs?: number; chunkSize?: number }
  | { behavior: string; options?: Record<string, unknown> }

/** A tool call of a step; `arguments` is an object or a JSON string. */
export interface ToolCallStep { name: string; arguments?: unknown; id?: string }

/** A chat-completions request the mock model answered. `body` is the exact wire request. */
export interface MockRequest {
  index: number
  kind: 'turn' | 'title'
  step: MockStep
  body: {
    model?: string
    messages: Array<{ role: string; content?: unknown; tool_calls?: Array<{ id: string; type: string; function: { name: string; arguments: string } }>; tool_call_id?: string }>
    tools?: Array<{ type: string; function: { name: string } }>
    [key: string]: unknown
  }
  time: number
  outcome: string | undefined
  callIds?: string[]
}

/** A running mock model. */
export interface MockModel {
  /** http://127.0.0.1:<port> */
  origin: string
  /** origin + /v1, for DEEPSEEK_BASE_URL */
  baseURL: string
  port: number
  apiKey: string
  /** Turn requests, in arrival order (live array). */
  requests: MockRequest[]
  /** Session-title requests (live array). */
  titleRequests: MockRequest[]
  /** Replace the queue of steps for the next turn requests. @throws Error on a bad step */
  script(steps: MockStep[]): void
  /** Steps not consumed yet. */
  pending(): number
  close(): Promise<void>
}

/** Options of {@link startMockModel}. */
export interface MockModelOptions {
  host?: string
  /** Port on `host`; 0 (default) picks a free one. */
  port?: number
  apiKey?: string
  /** Answer once the script is used up (default {@link DEFAULT_ANSWER}). */
  defaultAnswer?: string
  /** Title the session-title requests get (default {@link DEFAULT_TITLE}). */
  title?: string
  /** Called after each answered request. */
  onRequest?: (record: MockRequest) => void
}

/** Options of one DSH mock instance (dsh-llm-mock-server `startMockLlmServer`). */
type InstanceOptions = { sequence: string[] } & Record<string, unknown>
/** A running DSH mock instance, as far as this module uses it. */
interface MockInstance { baseURL: string; port: number; requests: Array<{ outcome?: string }>; close(): Promise<void> }
/** A step reduced to what DSH mock instances produce. */
type StepPart = { kind: 'single'; options: InstanceOptions } | { kind: 'composed'; text: string | undefined; calls: ToolCallStep[] }
/** One streamed chat-completions chunk. */
interface Chunk { choices?: Array<{ finish_reason?: unknown; delta?: { tool_calls?: Array<{ index: number; id?: string }> } }> }

async function loadMockServer(): Promise<{ startMockLlmServer(options: Record<string, unknown>): Promise<MockInstance> }> {
  // The pinned host set first; the project's own devDependency as a fallback.
  for (const base of [join(root, 'host', 'package.json'), join(root, 'package.json')]) {
    try {
      const path = createRequire(base).resolve('@deepseek-ai/dsh-llm-mock-server')
      return await import(pathToFileURL(path).href)
    } catch { /* next place */ }
  }
  throw new Error('mock-model: @deepseek-ai/dsh-llm-mock-server is not installed (run npm install, or npm start to install host/)')
}

/**
 * Normalise one script step into the parts DSH mock instances produce.
 * Accepted steps: a string or `{ text }` (a streamed answer); `{ text?, toolCalls: [{ name, arguments, id? }] }`
 * or `{ text?, toolCall }` (optional text, then tool calls, finish reason tool_calls; `arguments` is an
 * object or a JSON string); `{ slow: text, chunkDelayMs?, chunkSize? }` (a slowly streamed answer that keeps
 * a turn running); `{ behavior, options? }` (any other MOCK_LLM_BEHAVIORS entry, e.g. server_error).
 * @throws Error on any other shape
 */
export function normaliseStep(step: unknown): StepPart {
  if (typeof step === 'string') return { kind: 'single', options: { sequence: ['success'], successText: step } }
  if (step === null || typeof step !== 'object') throw new Error(`mock-model: bad script step ${JSON.stringify(step)}`)
  const s = step as { text?: unknown; toolCalls?: unknown; toolCall?: unknown; slow?: unknown; chunkSize?: number; chunkDelayMs?: number; behavior?: unknown; options?: Record<string, unknown> }
  const calls = (s.toolCalls ?? (s.toolCall ? [s.toolCall] : undefined)) as ToolCallStep[] | undefined
  if (calls !== undefined) {
    if (!Array.isArray(calls) || calls.length === 0) throw new Error('mock-model: toolCalls must be a non-empty array')
    for (const c of calls) {
      if (typeof c?.name !== 'string' || c.name.length === 0) throw new Error(`mock-model: tool call without a name ${JSON.stringify(c)}`)
      JSON.parse(typeof c.arguments === 'string' ? c.arguments : JSON.stringify(c.arguments ?? {}))
    }
    if (s.text !== undefined && (typeof s.text !== 'string' || s.text.length === 0)) throw new Error('mock-model: text must be a non-empty string')
    return { kind: 'composed', text: s.text, calls }
  }
  if (typeof s.text === 'string') return { kind: 'single', options: { sequence: ['success'], successText: s.text } }
  if (typeof s.slow === 'string') {
    return { kind: 'single', options: { sequence: ['slow_success'], successText: s.slow, chunkSize: s.chunkSize ?? 4, chunkDelayMs: s.chunkDelayMs ?? 400 } }
  }
  if (typeof s.behavior === 'string') return { kind: 'single', options: { sequence: [s.behavior], ...(s.options ?? {}) } }
  throw new Error(`mock-model: bad script step ${JSON.stringify(step)}`)
}

function isTitleRequest(body: { messages?: unknown } | undefined): boolean {
  const messages: Array<{ role?: unknown; content?: unknown }> = Array.isArray(body?.messages) ? body.messages : []
  return messages.some((m) => m?.role === 'system' && typeof m.content === 'string' && m.content.includes(TITLE_MARKER))
}

function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((ok, fail) => {
    const chunks: Buffer[] = []
    req.on('data', (c) => chunks.push(c))
    req.on('end', () => ok(Buffer.concat(chunks)))
    req.on('error', fail)
  })
}

/** POST `raw` to one mock instance and pipe (or collect) its answer. */
function forward(server: MockInstance, req: IncomingMessage, raw: Buffer, res?: ServerResponse): Promise<{ status: number; text: string } | null> {
  return new Promise((done, fail) => {
    const upstream = httpRequest(`${server.baseURL}${req.url}`, { method: 'POST', headers: { ...req.headers, host: `127.0.0.1:${server.port}` } }, (up) => {
      if (res) {
        res.writeHead(up.statusCode ?? 502, up.headers)
        up.pipe(res)
        up.on('end', () => done(null))
        up.on('error', () => done(null))
        return
      }
      const chunks: Buffer[] = []
      up.on('data', (c: Buffer) => chunks.push(c))
      up.on('error', fail)
      up.on('end', () => done({ status: up.statusCode ?? 502, text: Buffer.concat(chunks).toString('utf8') }))
    })
    upstream.on('error', (e) => (res ? (res.headersSent || res.writeHead(502), res.end(String(e)), done(null)) : fail(e)))
    if (res) res.on('close', () => { upstream.destroy(); done(null) })
    upstream.end(raw)
  })
}

function sseEvents(text: string): string[] {
  return text.split('\n\n').map((e) => e.trim()).filter((e) => e.startsWith('data: ')).map((e) => e.slice(6))
}

/**
 * Start the scriptable mock model on loopback.
 * @throws Error when dsh-llm-mock-server is not installed or the port cannot be listened on
 */
export async function startMockModel(options: MockModelOptions = {}): Promise<MockModel> {
  const { startMockLlmServer } = await loadMockServer()
  const host = options.host ?? '127.0.0.1'
  const apiKey = options.apiKey ?? MOCK_API_KEY
  let queue: MockStep[] = []
  let calls = 0
  const requests: MockRequest[] = []
  const titleRequests: MockRequest[] = []
  const live = new Set<MockInstance>()

  async function instance(opts: InstanceOptions): Promise<MockInstance> {
    const server = await startMockLlmServer({ host: '127.0.0.1', port: 0, apiKey, chunkDelayMs: 0, ...opts })
    live.add(server)
    return server
  }
  async function release(server: MockInstance): Promise<void> {
    live.delete(server)
    await server.close()
  }

  async function composed(part: Extract<StepPart, { kind: 'composed' }>, req: IncomingMessage, raw: Buffer, res: ServerResponse, record: MockRequest): Promise<void> {
    const events: Chunk[] = []
    const outcomes: Array<string | undefined> = []
    let status = 200
    if (part.text !== undefined) {
      const s = await instance({ sequence: ['success'], successText: part.text })
      try {
        const r = (await forward(s, req, raw))!
        status = r.status
        for (const e of sseEvents(r.text)) {
          if (e === '[DONE]') continue
          const chunk = JSON.parse(e) as Chunk
          if (chunk.choices?.[0]?.finish_reason) continue
          events.push(chunk)
        }
        outcomes.push(s.requests[0]?.outcome)
      } finally { await release(s) }
    }
    let finish: Chunk | undefined
    record.callIds = []
    for (const [index, call] of part.calls.entries()) {
      const id = call.id ?? `call-${++calls}`
      record.callIds.push(id)
      const args = typeof call.arguments === 'string' ? call.arguments : JSON.stringify(call.arguments ?? {})
      const s = await instance({ sequence: ['tool_call_success'], toolName: call.name, toolArguments: args })
      try {
        const r = (await forward(s, req, raw))!
        if (r.status !== 200) status = r.status
        for (const e of sseEvents(r.text)) {
          if (e === '[DONE]') continue
          const chunk = JSON.parse(e) as Chunk
          if (chunk.choices?.[0]?.finish_reason) { finish = chunk; continue }
          for (const tc of chunk.choices?.[0]?.delta?.tool_calls ?? []) {
            tc.index = index
            if (tc.id !== undefined) tc.id = id
          }
          events.push(chunk)
        }
        outcomes.push(s.requests[0]?.outcome)
      } finally { await release(s) }
    }
    if (finish) events.push(finish)
    res.writeHead(status, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache' })
    res.end(events.map((e) => `data: ${JSON.stringify(e)}\n\n`).join('') + 'data: [DONE]\n\n')
    record.outcome = outcomes.every((o) => o === 'completed') ? 'completed' : outcomes.join(',')
  }

  async function answer(req: IncomingMessage, res: ServerResponse, raw: Buffer): Promise<void> {
    let body: MockRequest['body'] | undefined
    try { body = raw.length ? JSON.parse(raw.toString('utf8')) : undefined } catch { body = undefined }
    const title = body !== undefined && isTitleRequest(body)
    const step: MockStep = title ? { text: options.title ?? DEFAULT_TITLE } : (queue.shift() ?? { text: options.defaultAnswer ?? DEFAULT_ANSWER })
    const record: MockRequest = { index: title ? titleRequests.length : requests.length, kind: title ? 'title' : 'turn', step, body: body ?? { messages: [] }, time: Date.now(), outcome: undefined }
    ;(title ? titleRequests : requests).push(record)
    const part = normaliseStep(step)
    if (part.kind === 'composed') {
      await composed(part, req, raw, res, record)
    } else {
      const s = await instance(part.options)
      try {
        await forward(s, req, raw, res)
        record.outcome = s.requests[0]?.outcome ?? 'unknown'
      } finally { await release(s) }
    }
    options.onRequest?.(record)
  }

  const http = createServer(async (req, res) => {
    try {
      const path = new URL(req.url ?? '/', 'http://x').pathname
      if (path === '/_mock/script' && req.method === 'PUT') {
        const steps = JSON.parse((await readBody(req)).toString('utf8')) as MockStep[]
        if (!Array.isArray(steps)) throw new Error('script must be a JSON array of steps')
        steps.forEach(normaliseStep)
        queue = [...steps]
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ ok: true, steps: steps.length }))
        return
      }
      if (path === '/_mock/requests' && req.method === 'GET') {
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ requests, titleRequests }))
        return
      }
      const raw = await readBody(req)
      if (req.method !== 'POST' || !path.endsWith('/chat/completions')) {
        res.writeHead(req.method === 'POST' ? 404 : 405).end()
        return
      }
      await answer(req, res, raw)
    } catch (error) {
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json' })
      res.end(JSON.stringify({ error: { message: String((error as Error)?.message ?? error), code: 'MOCK_MODEL_FAILED' } }))
    }
  })
  await new Promise<void>((ok, fail) => {
    http.once('error', fail)
    http.listen(options.port ?? 0, host, () => { http.off('error', fail); ok() })
  })
  const port = (http.address() as AddressInfo).port
  const origin = `http://${host}:${port}`
  return {
    origin,
    baseURL: `${origin}/v1`,
    port,
    apiKey,
    requests,
    titleRequests,
    script(steps) { steps.forEach(normaliseStep); queue = [...steps] },
    pending() { return queue.length },
    async close() {
      await Promise.all([...live].map((s) => s.close()))
      await new Promise<void>((ok) => { http.close(() => ok()); http.closeAllConnections() })
    },
  }
}
