/**
 * Session logs written by the real rc.8 JSONL backend, for the log-script tests: a cordis
 * Context with `SessionStore`, the session and compaction invariant companions and
 * `JsonlSessionPersistence`; events appended through the live `Session` and flushed with
 * `ctx.sessions.flush`, so every flush is one durable batch (one zstd frame). Tombstones are
 * planned on the live surface by the shared planner and appended the way the host writes them.
 *
 * @module test/scripts/support/real-logs
 */
import { mkdtempSync, readdirSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Context, type Plugin } from '@deepseek-ai/cordis'
import { SessionStore, SessionId, type Session, type SessionEvent } from '@deepseek-ai/dsh-session'
import * as sessionInvariant from '@deepseek-ai/dsh-session/invariant'
import * as compactionInvariant from '@deepseek-ai/dsh-compaction/invariant'
import { InvariantRegistry } from '@deepseek-ai/dsh-invariants'
import { JsonlSessionPersistence } from '@deepseek-ai/dsh-session-persistence-jsonl'
import type { LogEvent } from '../../../src/shared/events'
import { appendTombstone } from '../../../src/host/tombstone-append'
import { planRemoval, type PlanTarget } from '../../../src/host/surface-plan'
import { replaceOp } from '../../../src/shared/replace-op'
import { tombstoneSource } from '../../../src/shared/tombstone'
import type { RemovalAction } from '../../../src/shared/actions'
import { createUserMessage, type UserMessage } from '@deepseek-ai/dsh-llm'
import { conversationLog, type TurnSpec } from '../../support/conversation'
import { removalPlanning } from '../../../src/shared/actions'

/** A running composition with the JSONL backend on `root`. */
export interface LogStore {
  readonly ctx: Context
  readonly root: string
  dispose(): Promise<void>
}

/**
 * Boot SessionStore + invariant companions + JsonlSessionPersistence.
 * @param root - sessions root (a fresh temp folder when omitted).
 * @param compression - `zstd` (default) or `none`.
 */
export async function openLogStore(root = mkdtempSync(join(tmpdir(), 'mr-logs-')), compression: 'zstd' | 'none' = 'zstd'): Promise<LogStore> {
  const ctx = new Context()
  await Promise.all([
    ctx.plugin(InvariantRegistry, { enabled: true }),
    ctx.plugin(sessionInvariant as Plugin),
    ctx.plugin(compactionInvariant as Plugin),
    ctx.plugin(SessionStore),
    ctx.plugin(JsonlSessionPersistence, { root, compression, writeBatchMaxDelayMs: 1 }),
  ])
  await ctx.inject(['sessions', 'sessionPersistence'], () => {})
  return { ctx, root, dispose: () => ctx.fiber.dispose() }
}

/**
 * Append pre-built events (from `conversationLog`) to a live session in order, flushing after
 * every `turn/end` so that each turn becomes one durable batch.
 * @param store - the composition.
 * @param session - a live session whose next seq is `events[0].seq`.
 * @param events - events to replay; their `seq` and `time` are reassigned by `append`.
 */
export async function appendTurns(store: LogStore, session: Session, events: readonly SessionEvent[]): Promise<void> {
  for (const event of events as readonly LogEvent[]) {
    if (event.surfaceOp !== undefined) {
      const intent = { surfaceOp: event.surfaceOp, ...(event.sourceEventSeqs ? { sourceEventSeqs: [...event.sourceEventSeqs] } : {}) }
      ;(session.append as (type: string, data: unknown, opts: unknown) => unknown)(event.type, event.data, intent)
    } else {
      ;(session.append as (type: string, data: unknown) => unknown)(event.type, event.data)
    }
    if (event.type === 'turn/end') await store.ctx.sessions.flush(session)
  }
  await store.ctx.sessions.flush(session)
}

/**
 * Plan a removal on the live surface with the shared planner and append its tombstone, then
 * flush (one frame).
 * @returns the tombstone event.
 * @throws when the planner refuses.
 */
export async function removeMessage(store: LogStore, session: Session, action: RemovalAction, target: PlanTarget): Promise<LogEvent> {
  const events = session.events as readonly LogEvent[]
  const result = planRemoval({ nodes: [...session.surface.nodes], lookup: (seq) => events[seq], planning: removalPlanning(action), target })
  if (!result.ok) throw new Error(`planner refused ${action} of ${JSON.stringify(target)}: ${result.refusal.code}`)
  const event = appendTombstone(session, { ...result.plan, action }) as LogEvent
  await store.ctx.sessions.flush(session)
  return event
}

/**
 * Exclude a message the way the host does: planned exactly like `delete` (a user message alone,
 * a model row with its whole step), written as the same tombstone with `source.action:
 * "exclude"`; then flush (one frame).
 * @returns the tombstone event.
 * @throws when the planner refuses.
 */
export async function excludeMessage(store: LogStore, session: Session, target: PlanTarget): Promise<LogEvent> {
  const events = session.events as readonly LogEvent[]
  const result = planRemoval({ nodes: [...session.surface.nodes], lookup: (seq) => events[seq], planning: removalPlanning('delete'), target })
  if (!result.ok) throw new Error(`planner refused exclude of ${JSON.stringify(target)}: ${result.refusal.code}`)
  const { start, end, shadowedSeqs } = result.plan
  const message = createUserMessage({ content: [], source: tombstoneSource('exclude', shadowedSeqs) as unknown as UserMessage['source'] })
  const event = session.append('user/message', message, { surfaceOp: replaceOp(start, end), sourceEventSeqs: [...shadowedSeqs] }) as LogEvent
  await store.ctx.sessions.flush(session)
  return event
}

/**
 * Undo a tombstone that shadows exactly one user message, in place, the way the host restores:
 * one `user/message` whose `data` is an exact copy of the removed message's, replacing exactly
 * the tombstone (`{ op: 'replace', start: T, end: T }`) and citing `sourceEventSeqs` `[T, P]`;
 * then flush (one frame).
 * @returns the restoring event.
 */
export async function restoreTombstone(store: LogStore, session: Session, tombstoneSeq: number): Promise<LogEvent> {
  const events = session.events as readonly LogEvent[]
  const removed = events[tombstoneSeq]!.sourceEventSeqs!
  if (removed.length !== 1) throw new Error(`tombstone ${tombstoneSeq} shadows ${removed.length} nodes; only one message can be restored in place`)
  const original = events[removed[0]!]!
  const event = session.append('user/message', structuredClone(original.data) as UserMessage, {
    surfaceOp: replaceOp(tombstoneSeq, tombstoneSeq),
    sourceEventSeqs: [tombstoneSeq, original.seq],
  }) as LogEvent
  await store.ctx.sessions.flush(session)
  return event
}

/** Seqs of append-origin events of one type, in log order. */
export function seqsOf(session: Session, type: string): number[] {
  return (session.events as readonly LogEvent[]).filter((e) => e.type === type && e.surfaceOp === 'append').map((e) => e.seq)
}

/** A log written to disk and what was written into it. */
export interface WrittenLog {
  readonly root: string
  readonly id: string
  /** Path of the log file. */
  readonly path: string
  /** Folder of the session. */
  readonly dir: string
  /** `session.events` at the end, as the live session holds them. */
  readonly events: readonly LogEvent[]
  readonly tombstones: readonly LogEvent[]
}

/** Options of {@link writeConversation}. */
export interface WriteOptions {
  readonly root?: string
  readonly compression?: 'zstd' | 'none'
  readonly id?: string
  readonly cwd?: string
  readonly turns: readonly TurnSpec[]
  /** Removals applied in order after the turns; `target` may read the session. */
  readonly removals?: readonly { readonly action: RemovalAction; readonly target: (session: Session) => PlanTarget }[]
}

/**
 * Write a whole conversation (one frame per turn, one per tombstone) and close the store.
 * @returns where it is and the events the live session held.
 */
export async function writeConversation(options: WriteOptions): Promise<WrittenLog> {
  const store = await openLogStore(options.root, options.compression ?? 'zstd')
  try {
    const id = options.id ?? 'session-scripts-1'
    const session = store.ctx.sessions.create(SessionId(id), { meta: { cwd: options.cwd ?? '/projects/demo project' } })
    await appendTurns(store, session, conversationLog(options.turns))
    const tombstones: LogEvent[] = []
    for (const removal of options.removals ?? []) tombstones.push(await removeMessage(store, session, removal.action, removal.target(session)))
    const events = [...(session.events as readonly LogEvent[])]
    const path = findLogFile(store.root, id)
    return { root: store.root, id, path, dir: join(path, '..'), events, tombstones }
  } finally {
    await store.dispose()
  }
}

/**
 * Find the log of session `id` under a sessions root (`<root>/<project>/<id>/session.jsonl[.zstd]`).
 * @throws when there is none.
 */
export function findLogFile(root: string, id: string): string {
  for (const project of readdirSync(root)) {
    const dir = join(root, project, id)
    if (!statSync(join(root, project)).isDirectory()) continue
    for (const name of ['session.jsonl.zstd', 'session.jsonl']) {
      try {
        if (statSync(join(dir, name)).isFile()) return join(dir, name)
      } catch {
        // not in this project folder
      }
    }
  }
  throw new Error(`no log for ${id} under ${root}`)
}
