/**
 * Packed chunk rows of an rc.8 log expanded back into the `assistant/chunk` events they store.
 *
 * With `packChunks: true` (the default) the JSONL backend writes each run of three or more
 * same-block delta chunks as one storage row — `text-chunks`, `reasoning-chunks` or
 * `tool-call-chunks` — anchored at `seq0`/`time0` with per-member time gaps `dt`
 * (`dsh-session/lib/types/chunk-rows.js`, `packChunkRuns` and `decodeStorageRecord`). This module
 * is the same decoding, validations and error messages, kept here because the scripts must run
 * without DSH installed and `@deepseek-ai/dsh-session`'s codec cannot be bundled on its own (its
 * module imports `@deepseek-ai/dsh-llm`, which reads its `package.json` from disk at load). A test
 * checks it against the real `decodeStorageRecord` over logs packed by the real `packChunkRuns`.
 *
 * Pure and browser-safe.
 *
 * @module dsh-message-recall/log/chunk-rows
 */
import { isRecord, type LogEvent } from '../shared/events'
import { counted } from './counted'

/** Storage row tags (bare, slash-less words: never session event types). */
export const CHUNK_ROW_TYPES = ['text-chunks', 'reasoning-chunks', 'tool-call-chunks'] as const

/** One storage row tag. */
export type ChunkRowType = (typeof CHUNK_ROW_TYPES)[number]

/** True when `value` carries a storage row tag (it may still be malformed). */
export function isChunkRowTagged(value: unknown): value is { type: ChunkRowType } {
  return isRecord(value) && (CHUNK_ROW_TYPES as readonly unknown[]).includes(value.type)
}

function hasExactKeys(value: Record<string, unknown>, keys: readonly string[]): boolean {
  return Object.keys(value).length === keys.length && keys.every((key) => Object.hasOwn(value, key))
}

function malformed(tag: string, why: string): never {
  throw new Error(`malformed ${tag} storage row: ${why}`)
}

function runMembers(tag: string, data: Record<string, unknown>, payloadKey: 'texts' | 'args'): string[] {
  if (typeof data.turn !== 'number' || typeof data.step !== 'number' || typeof data.index !== 'number') {
    malformed(tag, 'turn/step/index must be numbers')
  }
  const payload = data[payloadKey]
  if (!Array.isArray(payload) || payload.length === 0 || payload.some((entry) => typeof entry !== 'string')) {
    malformed(tag, `${payloadKey} must be a non-empty string array`)
  }
  const dt = data.dt
  if (!Array.isArray(dt) || dt.some((gap) => !Number.isSafeInteger(gap))) malformed(tag, 'dt must be an array of safe integers')
  if (dt.length !== payload.length - 1) malformed(tag, `dt length ${dt.length} does not match ${counted(payload.length, 'member')}`)
  return payload as string[]
}

/**
 * Expand one parsed JSONL value into the session events it stores.
 * @param value - one log line's `JSON.parse` result (not the header line).
 * @returns a storage row's member events in log order (`seq0 + k`, `time0` plus the first `k`
 * gaps); any other value as a single event, unvalidated, exactly as `decodeStorageRecord` does.
 * @throws when a row-tagged value is malformed: `malformed <tag> storage row: <why>`, the message
 * `dsh-session` uses.
 */
export function expandStorageRecord(value: unknown): LogEvent[] {
  if (!isChunkRowTagged(value)) return [value as LogEvent]
  const tag = value.type
  const row = value as unknown as Record<string, unknown>
  if (!hasExactKeys(row, ['type', 'seq0', 'time0', 'data'])) malformed(tag, 'envelope must be exactly {type, seq0, time0, data}')
  const seq0 = row.seq0 as number
  const time0 = row.time0 as number
  if (!Number.isSafeInteger(seq0) || seq0 < 0) malformed(tag, 'seq0 must be a non-negative safe integer')
  if (!Number.isSafeInteger(time0)) malformed(tag, 'time0 must be a safe integer')
  const data = row.data
  if (!isRecord(data)) malformed(tag, 'data must be an object')
  let members: string[]
  const withName = tag === 'tool-call-chunks' && hasExactKeys(data, ['turn', 'step', 'index', 'id', 'name', 'dt', 'args'])
  if (tag === 'tool-call-chunks') {
    if (!withName && !hasExactKeys(data, ['turn', 'step', 'index', 'id', 'dt', 'args'])) {
      malformed(tag, 'data must be exactly {turn, step, index, id, name?, dt, args}')
    }
    if (typeof data.id !== 'string' || (withName && typeof data.name !== 'string')) malformed(tag, 'id (and name when present) must be strings')
    members = runMembers(tag, data, 'args')
  } else {
    if (!hasExactKeys(data, ['turn', 'step', 'index', 'dt', 'texts'])) malformed(tag, 'data must be exactly {turn, step, index, dt, texts}')
    members = runMembers(tag, data, 'texts')
  }
  if (!Number.isSafeInteger(seq0 + members.length - 1)) malformed(tag, 'member seqs must stay safe integers')
  const gaps = data.dt as number[]
  let check = time0
  for (const gap of gaps) {
    check += gap
    if (!Number.isSafeInteger(check)) malformed(tag, 'member times must stay safe integers')
  }

  const events: LogEvent[] = []
  let time = time0
  for (let k = 0; k < members.length; k++) {
    if (k > 0) time += gaps[k - 1]!
    const chunk =
      tag === 'tool-call-chunks'
        ? { type: 'tool-call-delta', index: data.index, id: data.id, ...(withName ? { name: data.name } : {}), argumentsDelta: members[k] }
        : { type: tag === 'text-chunks' ? 'text-delta' : 'reasoning-delta', index: data.index, text: members[k] }
    events.push({ type: 'assistant/chunk', seq: seq0 + k, time, data: { turn: data.turn, step: data.step, chunk } })
  }
  return events
}

/**
 * Seq range a parsed line covers, without expanding a row.
 * @param value - one log line's `JSON.parse` result.
 * @returns `[first, last]` seqs (equal for a plain event), or `null` when the value has no usable seq.
 */
export function recordSeqRange(value: unknown): readonly [number, number] | null {
  if (!isRecord(value)) return null
  if (isChunkRowTagged(value)) {
    const data = (value as Record<string, unknown>).data
    const members = isRecord(data) ? (Array.isArray(data.texts) ? data.texts : Array.isArray(data.args) ? data.args : null) : null
    const seq0 = (value as Record<string, unknown>).seq0
    if (!Number.isSafeInteger(seq0) || members === null || members.length === 0) return null
    return [seq0 as number, (seq0 as number) + members.length - 1]
  }
  return Number.isSafeInteger(value.seq) ? [value.seq as number, value.seq as number] : null
}
