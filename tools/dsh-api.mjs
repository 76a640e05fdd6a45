// Small client for the rc.8 web host's RPC over HTTP (`POST /api/<method>`, the same wire the
// browser uses; dsh-host-apiproxy lib/index.js) and for this plugin's route. Used by
// `npm start -- --seed` and by the end-to-end suite for what is not the UI's job
// (reading history, locating the session file).
import { existsSync, readdirSync } from 'node:fs'
import { join } from 'node:path'

/**
 * Call one RPC method. The `/api` fence wants a loopback Host and an Origin equal to it.
 * @param {string} url host origin, e.g. http://127.0.0.1:3080
 * @param {string} method e.g. `session.create`, `session.prompt`, `session.history`
 * @param {object} payload method payload (dsh-host-apiproxy schemas)
 * @returns {Promise<any>} the `value` of an ok result
 * @throws Error `<method>: <code>: <message>` when the host refuses
 */
export async function rpc(url, method, payload) {
  const res = await fetch(`${url}/api/${method}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: url },
    body: JSON.stringify({ type: 'client-request', rpcId: `rpc-${Date.now()}-${Math.random().toString(36).slice(2)}`, method, payload }),
  })
  const text = await res.text()
  let body
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
export async function createSession(url, cwd) {
  const { workspace } = await rpc(url, 'workspace.create', { path: cwd })
  return (await rpc(url, 'session.create', { workspaceId: workspace.workspaceId })).sessionId
}

/** Queue one text prompt into a session (starts a turn when idle). */
export async function prompt(url, sessionId, text) {
  return rpc(url, 'session.prompt', { sessionId, mode: 'queue', content: [{ type: 'text', text }] })
}

/**
 * Sessions the host lists (`session.list`), without blank ones (a workspace's empty hero session).
 * @returns {Promise<Array<{ sessionId: string, updatedAt: number, running: boolean, cwd?: string }>>}
 */
export async function listSessions(url) {
  return (await rpc(url, 'session.list', {})).items.filter((s) => !s.blank)
}

/**
 * Read the raw events of a session's tail, oldest first, following `hasMore` pages to the start.
 * @returns {Promise<Array<{ type: string, seq: number, data: any, surfaceOp?: unknown, sourceEventSeqs?: number[] }>>}
 */
export async function history(url, sessionId) {
  const pages = []
  let beforeSeq
  for (;;) {
    const value = await rpc(url, 'session.history', { sessionId, maxMessages: 200, ...(beforeSeq === undefined ? {} : { beforeSeq }) })
    const events = value.events.map((e) => e.event)
    pages.unshift(events)
    if (!value.hasMore || events.length === 0) break
    beforeSeq = events[0].seq
  }
  const seen = new Set()
  return pages.flat().filter((e) => (seen.has(e.seq) ? false : (seen.add(e.seq), true))).sort((a, b) => a.seq - b.seq)
}

/**
 * Wait until the session has logged `count` `turn/end` events.
 * @throws Error after `timeoutMs` (default 60 s)
 */
export async function waitForTurnEnds(url, sessionId, count, timeoutMs = 60_000) {
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
export function findSessionDir(dshHome, sessionId) {
  const root = join(dshHome, 'sessions')
  if (!existsSync(root)) return undefined
  for (const key of readdirSync(root)) {
    const dir = join(root, key, sessionId)
    if (existsSync(dir)) return dir
  }
  return undefined
}
