/**
 * Identity of this plugin's tombstones, shared by the host writer, the browser client and the
 * log scripts, so all three recognise exactly the events the host writes.
 *
 * A tombstone is one `user/message` whose `surfaceOp` replaces a surface range and whose
 * `data.source` is `{ kind: 'plugin', plugin: 'dsh-message-recall', action, removedSeqs }`;
 * `action` is one of the action table's tombstone actions (`actions.ts`).
 *
 * Names: `source.removedSeqs` is the durable name, which logs already hold, of what the code and
 * the wire call `shadowedSeqs` (every surface node the replace covers, in surface order). This
 * module is the one place the two meet: {@link tombstoneSource} writes `shadowedSeqs` as
 * `removedSeqs`, and {@link readTombstone} reads them back (from `sourceEventSeqs`, else
 * `removedSeqs`).
 * The plugin name is never `compact`: `@deepseek-ai/dsh-compaction/invariant` treats a replacing
 * user message with that source as a compaction checkpoint.
 *
 * @module dsh-message-recall/shared/tombstone
 */
import type { BatchMark } from './batch-mark'
import { isRecord, type LogEvent } from './events'
import { readReplaceOp } from './replace-op'
import { isTombstoneAction, type TombstoneAction } from './actions'

/**
 * `source.plugin` of every tombstone this plugin writes: the package name, which the browser
 * half also registers under. The host plugin's Loader row id is `message-recall` (`cordis.patch.yml`,
 * the host `name`): it keys the plugin's config row in existing installs, so it keeps its name.
 */
export const TOMBSTONE_PLUGIN = 'dsh-message-recall'

/** `data.source` of a tombstone as written to the log; `removedSeqs` is the durable name of its `shadowedSeqs`. */
export interface TombstoneSource {
  readonly kind: 'plugin'
  readonly plugin: typeof TOMBSTONE_PLUGIN
  readonly action: TombstoneAction
  readonly removedSeqs: readonly number[]
  /** Set by a batch of two or more writes (see `batch-mark.ts`). */
  readonly batch?: BatchMark
}

/** A tombstone as read back from a log: its seq, inclusive range, shadowed seqs and action. */
export interface TombstoneRecord {
  readonly seq: number
  readonly start: number
  readonly end: number
  /** Every surface node the tombstone shadows (its `sourceEventSeqs`), in surface order. */
  readonly shadowedSeqs: readonly number[]
  readonly action: TombstoneAction
}

/**
 * Build the `source` of a new tombstone.
 * @param action - the tombstone action.
 * @param shadowedSeqs - the shadowed surface seqs, in surface order (written as `removedSeqs`).
 * @param batch - the batch mark of a tombstone written by a batch of two or more writes.
 * @returns the source, with a copy of `shadowedSeqs`.
 */
export function tombstoneSource(action: TombstoneAction, shadowedSeqs: readonly number[], batch?: BatchMark): TombstoneSource {
  return { kind: 'plugin', plugin: TOMBSTONE_PLUGIN, action, removedSeqs: [...shadowedSeqs], ...(batch === undefined ? {} : { batch }) }
}

/**
 * Whether a message's `source` names this plugin.
 * @param source - a message's `source` (any value).
 * @returns true for `{ kind: 'plugin', plugin: TOMBSTONE_PLUGIN, … }`.
 */
export function isTombstoneSource(source: unknown): boolean {
  return isRecord(source) && source.kind === 'plugin' && source.plugin === TOMBSTONE_PLUGIN
}

/**
 * Whether a session event is a tombstone written by this plugin: a replacing `user/message` whose
 * source names this plugin. Compaction checkpoints and tool-result prunes are not tombstones.
 * @param event - any session event.
 * @returns true for a tombstone of this plugin.
 */
export function isTombstoneEvent(event: LogEvent): boolean {
  if (event.type !== 'user/message' || readReplaceOp(event.surfaceOp) === null) return false
  return isRecord(event.data) && isTombstoneSource(event.data.source)
}

/**
 * Read a tombstone back from its event.
 * @param event - any session event.
 * @returns the record, or `null` when `event` is not a tombstone of this plugin. An unknown
 * `action` value reads as `'delete'`; `shadowedSeqs` falls back to `source.removedSeqs` when the
 * envelope has no `sourceEventSeqs`.
 */
export function readTombstone(event: LogEvent): TombstoneRecord | null {
  if (!isTombstoneEvent(event)) return null
  const range = readReplaceOp(event.surfaceOp)!
  const source = (event.data as { source: Record<string, unknown> }).source
  const action = isTombstoneAction(source.action) ? source.action : 'delete'
  const fromSource = Array.isArray(source.removedSeqs) ? (source.removedSeqs as unknown[]).filter(Number.isSafeInteger) as number[] : []
  const shadowedSeqs = event.sourceEventSeqs ? [...event.sourceEventSeqs] : fromSource
  return { seq: event.seq, start: range.start, end: range.end, shadowedSeqs, action }
}
