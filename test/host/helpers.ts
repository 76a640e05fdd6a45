/**
 * Small helpers shared by the host tests of restore, fork, exclude, the token meter, titles,
 * the write queue and failing disks: finding a surface node by its text, asserting an error
 * reply exactly, and a cold reload on the same persistence root.
 *
 * @module test/host/helpers
 */
import assert from 'node:assert/strict'
import { mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Agent } from '@deepseek-ai/dsh-agent'
import type { Session } from '@deepseek-ai/dsh-session'
import { bootDshApp, type DshApp, type DshAppOptions, type HttpReply } from '../support/dsh-app'
import { conversationLog, syntheticTurns } from '../support/conversation'

/** The surface node whose event has type `type` and whose data mentions `text` (exactly one). */
export function node(session: Session, type: string, text: string): number {
  const events = session.events
  const hits = session.surface.nodes.filter((seq) => events[seq]!.type === type && JSON.stringify(events[seq]!.data).includes(text))
  assert.equal(hits.length, 1, `exactly one ${type} surface node mentions ${JSON.stringify(text)}: ${hits}`)
  return hits[0]!
}

/** An error reply with exactly this status, code and message (a string is compared whole). */
export function assertError(reply: HttpReply, status: number, code: string, message: string | RegExp): void {
  assert.equal(reply.status, status, reply.text)
  assert.equal(reply.json.ok, false)
  assert.equal(reply.json.error.code, code)
  if (typeof message === 'string') assert.equal(reply.json.error.message, message)
  else assert.match(reply.json.error.message, message)
}

/** The stored log file of session `id` under the persistence root `root` (zstd, the default). */
export function sessionFile(root: string, id: string): string {
  const walk = (dir: string): string[] => readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walk(join(dir, e.name)) : [join(dir, e.name)]))
  const files = walk(root).filter((f) => f.includes(id) && f.endsWith('session.jsonl.zstd'))
  assert.equal(files.length, 1, `one stored log for ${id}: ${files}`)
  return files[0]!
}

/** A deep, plain copy of the messages a session derives (ids included). */
export function derived(session: Session): unknown[] {
  return JSON.parse(JSON.stringify(session.deriveMessages()))
}

/** A fresh agent seeded with `turns` realistic turns (prompt, one two-call tool step, a reply). */
export async function seededAgent(app: DshApp, turns = 3, cwd?: string): Promise<Agent> {
  return app.createAgent({ seed: conversationLog(syntheticTurns(turns, { toolSteps: 1, toolsPerStep: 2 })), ...(cwd === undefined ? {} : { cwd }) })
}

/** Apps on one persistence root: `boot()` starts one (the previous must be disposed for a cold reload). */
export class Roots {
  private readonly roots: string[] = []
  private readonly apps: DshApp[] = []

  /** A fresh persistence root, removed by {@link Roots.dispose}. */
  root(): string {
    const root = mkdtempSync(join(tmpdir(), 'recall-host-'))
    this.roots.push(root)
    return root
  }

  /** Boot an app with the plugin on `root` plus `options`. */
  async boot(root: string, options: DshAppOptions = {}): Promise<DshApp> {
    const app = await bootDshApp({ recall: {}, ...options, persistence: { root } })
    this.apps.push(app)
    return app
  }

  /** Dispose one app (a graceful stop). */
  async shut(app: DshApp): Promise<void> {
    this.apps.splice(this.apps.indexOf(app), 1)
    await app.dispose()
  }

  /** Dispose every app and remove every root. */
  async dispose(): Promise<void> {
    for (const app of this.apps.splice(0)) await app.dispose()
    for (const root of this.roots.splice(0)) rmSync(root, { recursive: true, force: true })
  }
}
