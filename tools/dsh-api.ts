// Small client for the rc.8 web host's RPC over HTTP (`POST /api/<method>`, the same wire the
// browser uses; dsh-host-apiproxy lib/index.js) and for this plugin's route. Used by
// `npm start -- --seed` and by the end-to-end suite for what is not the UI's job
// (reading history, locating the session file).
import { existsSync, readdirSync } from 'node:fs'
import { join } from 'node:path'

/** A raw session event as `session.history` returns it. */
export interface WireEvent {
  type: string
  seq: number
  time: number
  data: any
  surfaceOp?: unknown
  sourceEventSeqs?: number[]
}

/** A session as `session.list` lists it. */
export interface ListedSession { sessionId: string; updatedAt: number; running: boolean; cwd?: string; blank?: boolean }

/**
 * Call one RPC method. The `/api` fence wants a loopback Host and an Origin equal to it.
 * @param url host origin, e.g. http://127.0.0.1:3080
 * @param method e.g. `session.create`, `session.prompt`, `session.history`
 * @param payload method payload (dsh-host-apiproxy schemas)
 * @returns the `value` of an ok result
 * @throws Error `<method>: <code>: <message>` when the host refuses
 */
export async function rpc(url: string, method: string, payload: object): Promise<any> {
  const res = await fetch(`${url}/api/${method}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: url },
    body: JSON.stringify({ type: 'client-request', rpcId: `rpc-${Date.now()}-${Math.random().toString(36).slice(2)}`, method, payload }),
  })
  const text = await res.text()
  let body: { result?: { ok?: boolean; value?: unknown; error?: { code?: string; message?: string } } }
  try { body = JSON.parse(text) } catch { throw new Error(`${method}: HTTP ${res.status}: ${text.slice(0, 300)}`) }
  const result = body?.result
  if (!result?.ok) throw new Error(`${method}: ${result?.error?.code ?? res.status}: ${result?.error?.message ?? text.slice(0, 300)}`)
  return result.value
}

/**
 * Create a session in the workspace folder `cwd` (absolute, existing), adopting the folder as a
 * workspace first (`workspace.create`) so the session is listed under it in the sidebar.
 * @returns the session id `session-<uuid>`
 */
export async function createSession(url: string, cwd: string): Promise<string> {
  const { workspace } = await rpc(url, 'workspace.create', { path: cwd })
  return (await rpc(url, 'session.create', { workspaceId: workspace.workspaceId })).sessionId
}

/** Queue one text prompt into a session (starts a turn when idle). */
export async function prompt(url: string, sessionId: string, text: string): Promise<unknown> {
  return rpc(url, 'session.prompt', { sessionId, mode: 'queue', content: [{ type: 'text', text }] })
}

/**
 * Sessions the host lists (`session.list`), without blank ones (a workspace's empty hero session).
 */
export async function listSessions(url: string): Promise<ListedSession[]> {
  return ((await rpc(url, 'session.list', {})).items as ListedSession[]).filter((s) => !s.blank)
}

/**
 * Read the raw events of a session's tail, oldest first, following `hasMore` pages to the start.
 */
export async function history(url: string, sessionId: string): Promise<WireEvent[]> {
  const pages: WireEvent[][] = []
  let beforeSeq: number | undefined
  for (;;) {
    const value = await rpc(url, 'session.history', { sessionId, maxMessages: 200, ...(beforeSeq === undefined ? {} : { beforeSeq }) })
    const events = (value.events as Array<{ event: WireEvent }>).map((e) => e.event)
    pages.unshift(events)
    if (!value.hasMore || events.length === 0) break
    beforeSeq = events[0]!.seq
  }
  const seen = new Set<number>()
  return pages.flat().filter((e) => (seen.has(e.seq) ? false : (seen.add(e.seq), true))).sort((a, b) => a.seq - b.seq)
}

/**
 * Wait until the session has logged `count` `turn/end` events.
 * @throws Error after `timeoutMs` (default 60 s)
 */
export async function waitForTurnEnds(url: string, sessionId: string, count: number, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const ends = (await history(url, sessionId)).filter((e) => e.type === 'turn/end').length
    if (ends >= count) return
    if (Date.now() > deadline) throw new Error(`session ${sessionId}: ${ends} of ${count} turns ended after ${timeoutMs} ms`)
    await new Promise((r) => setTimeout(r, 250))
  }
}

/**
 * Folder of a session's persisted log, found by its id under `<DSH_HOME>/sessions/<workspace key>/`
 * (dsh-session-persistence-jsonl layout on rc.8; the key encodes the workspace path). The log is
 * `session.jsonl.zstd` inside. Returns undefined when no such folder exists.
 */
export function findSessionDir(dshHome: string, sessionId: string): string | undefined {
  const root = join(dshHome, 'sessions')
  if (!existsSync(root)) return undefined
  for (const key of readdirSync(root)) {
    const dir = join(root, key, sessionId)
    if (existsSync(dir)) return dir
  }
  return undefined
}
