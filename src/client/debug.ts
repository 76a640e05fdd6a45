/**
 * The page-console hook for bug reports: `window.__DSH_MESSAGE_RECALL__`.
 *
 * - `stamp`: the build stamp of the loaded bundle (`<version>+<bundle digest>`, see `build-stamp.ts`).
 * - `snapshot(sessionId?)`: the last sync pass of that session (default: the most recent pass of
 *   any session) as plain JSON, or `null`.
 * - `sessions()`: the session ids with a recorded pass, most recent last.
 *
 * Passes are recorded by reference and turned into JSON only when `snapshot()` is called, so
 * recording costs nothing per pass.
 *
 * @module dsh-message-recall/client/debug
 */
import type { TombstoneRecord } from '../shared/tombstone'
import type { ExcludedRow, HiddenRow } from '../shared/hidden-rows'
import type { ViewExpectation } from './rows/view-expectation'
import type { PassRecord } from './rows/row-sync'

/** Name of the global the hook is installed under. */
export const DEBUG_GLOBAL = '__DSH_MESSAGE_RECALL__'

/** JSON form of one pass. */
export interface DebugSnapshot {
  readonly stamp: string
  readonly sessionId: string
  /** ISO time of the pass. */
  readonly at: string
  readonly durationMs: number
  readonly running: boolean
  /** The chat flow of the session was found next to the overlay. */
  readonly attached: boolean
  /** Row elements in the flow, and how many the pass wrote. */
  readonly rows: number
  readonly touched: number
  /** Tombstones of this plugin in the loaded window. */
  readonly tombstones: readonly TombstoneRecord[]
  /** Every row of the chat store, in render order: key, rc.8 row kind and the durable seq it acts on (`null`: log-only). */
  readonly anchors: readonly { readonly key: string; readonly rowKind: string; readonly seq: number | null; readonly actions: readonly string[] }[]
  /** Rows the plugin hides, with the reason and the tombstone responsible. */
  readonly hidden: readonly HiddenRow[]
  /** Rows shown dimmed because their messages are excluded from the model's context, with the exclusion. */
  readonly excluded: readonly ExcludedRow[]
  /** Keys of flow rows that do not resolve in this session's chat store (left untouched). */
  readonly unresolved: readonly string[]
  /** The `expect` a request would carry now. */
  readonly expect: ViewExpectation
}

/** The global hook object. */
export interface DebugHook {
  readonly stamp: string
  snapshot(sessionId?: string): DebugSnapshot | null
  sessions(): string[]
}

interface Entry {
  readonly pass: PassRecord
  readonly expect: () => ViewExpectation
}

const MAX_SESSIONS = 16

/** Keeps the last pass per session. */
export class DebugRegistry {
  private readonly entries = new Map<string, Entry>()

  constructor(readonly stamp: string) {}

  /**
   * Record a pass.
   * @param sessionId - the overlay's session.
   * @param pass - the pass record.
   * @param expect - computes the session's current expectation on demand.
   */
  record(sessionId: string, pass: PassRecord, expect: () => ViewExpectation): void {
    this.entries.delete(sessionId)
    this.entries.set(sessionId, { pass, expect })
    if (this.entries.size > MAX_SESSIONS) this.entries.delete(this.entries.keys().next().value as string)
  }

  /** The hook object to install as {@link DEBUG_GLOBAL}. */
  hook(): DebugHook {
    return {
      stamp: this.stamp,
      snapshot: (sessionId) => this.snapshot(sessionId),
      sessions: () => [...this.entries.keys()],
    }
  }

  /**
   * @param sessionId - a session id; omitted: the most recent pass.
   * @returns the JSON form, or `null` when nothing was recorded.
   */
  snapshot(sessionId?: string): DebugSnapshot | null {
    const id = sessionId ?? [...this.entries.keys()].at(-1)
    const entry = id === undefined ? undefined : this.entries.get(id)
    if (id === undefined || entry === undefined) return null
    const { pass } = entry
    return {
      stamp: this.stamp,
      sessionId: id,
      at: new Date(pass.at).toISOString(),
      durationMs: Math.round(pass.durationMs * 1000) / 1000,
      running: pass.running,
      attached: pass.attached,
      rows: pass.rows,
      touched: pass.touched,
      tombstones: pass.hidden.tombstones.map((t) => ({ ...t, shadowedSeqs: [...t.shadowedSeqs] })),
      anchors: pass.anchors.map((a) => ({ key: a.key, rowKind: a.rowKind, seq: a.seq, actions: [...a.actions] })),
      hidden: pass.hidden.hidden.map((h) => ({ ...h })),
      excluded: pass.hidden.excluded.map((x) => ({ ...x })),
      unresolved: [...pass.unresolved],
      expect: entry.expect(),
    }
  }
}

/**
 * Install the hook on a global object (the page's `window`).
 * @param target - where to define {@link DEBUG_GLOBAL}.
 * @param registry - the registry to expose.
 * @returns removes the hook (only if it is still this registry's).
 */
export function installDebugHook(target: Record<string, unknown>, registry: DebugRegistry): () => void {
  const hook = registry.hook()
  target[DEBUG_GLOBAL] = hook
  return () => {
    if (target[DEBUG_GLOBAL] === hook) delete target[DEBUG_GLOBAL]
  }
}
