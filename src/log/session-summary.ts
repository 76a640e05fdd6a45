/**
 * A one-line account of a session, built while its log streams past: title, turns and failed
 * turns, and the replacements in it — tombstones of this plugin by action (exclusions
 * included), restores of this plugin, compaction checkpoints, tool-result prunes and any other
 * replacement. Only the lines that can matter are
 * parsed ({@link SummaryBuilder.wants}), so summarizing a large root is bounded by decoding.
 * Pure and browser-safe.
 *
 * @module dsh-message-recall/log/session-summary
 */
import { isRecord, type LogEvent } from '../shared/events'
import type { LogRecord } from './log-frames'
import { readReplaceOp } from '../shared/replace-op'
import { classifyNode, contentOf, plainText } from '../shared/surface-node'
import { readRestore } from '../shared/restore'
import { readTombstone } from '../shared/tombstone'
import { TOMBSTONE_ACTIONS, type TombstoneAction } from '../shared/actions'

/** What a session holds, for listings. */
export interface SessionSummary {
  /** Latest `session/title`, or `null` when none was written. */
  readonly title: string | null
  /** Text of the first prompt the person sent (up to {@link TITLE_CHARS}), the fallback title. */
  readonly firstPrompt: string | null
  readonly turns: number
  /** Turns that ended with an error (`turn/end` reason `error`). */
  readonly failedTurns: number
  /** Turns that ended interrupted or aborted. */
  readonly interruptedTurns: number
  /** Tombstones of this plugin, exclusions included. */
  readonly tombstones: number
  readonly tombstonesByAction: Readonly<Record<TombstoneAction, number>>
  /** Restores of this plugin (tombstones undone in place). */
  readonly restores: number
  readonly checkpoints: number
  readonly prunes: number
  readonly otherReplacements: number
  /** `time` of the last parsed event, epoch ms, or `null`. */
  readonly lastTime: number | null
}

/** Characters kept of the first prompt. */
export const TITLE_CHARS = 60

/** A replacing envelope as `JSON.stringify` writes it (keys in `Session.append` order). */
const REPLACE_MARK = '"surfaceOp":{'

/** Collects a {@link SessionSummary} from records. */
export class SummaryBuilder {
  private title: string | null = null
  private firstPrompt: string | null = null
  private turns = 0
  private failed = 0
  private interrupted = 0
  private readonly byAction = Object.fromEntries(TOMBSTONE_ACTIONS.map((action) => [action, 0])) as Record<TombstoneAction, number>
  private restores = 0
  /** Tombstones read so far, by seq, for recognising the restores that undo them. */
  private readonly tombstoneEvents = new Map<number, LogEvent>()
  private checkpoints = 0
  private prunes = 0
  private other = 0
  private lastTime: number | null = null

  /**
   * Whether a stored line must be parsed (pass as the reader's `parse` option).
   * @param type - event type or row tag from the line prefix.
   * @param text - the stored line.
   */
  wants(type: string, text: string): boolean {
    switch (type) {
      case 'session/title':
      case 'turn/start':
      case 'turn/end':
        return true
      case 'user/message':
        return this.firstPrompt === null || text.includes(REPLACE_MARK)
      case 'assistant/message':
      case 'tool/result':
        return text.includes(REPLACE_MARK)
      default:
        return false
    }
  }

  /**
   * Take one record.
   * @param record - from the log reader; records without a parsed `value` are skipped.
   */
  add(record: LogRecord): void {
    const event = record.value as LogEvent | undefined
    if (!isRecord(event)) return
    if (typeof event.time === 'number') this.lastTime = event.time
    const data = isRecord(event.data) ? event.data : {}
    switch (event.type) {
      case 'session/title':
        if (typeof data.title === 'string' && data.title.trim() !== '') this.title = data.title.trim()
        return
      case 'turn/start':
        this.turns++
        return
      case 'turn/end': {
        const kind = isRecord(data.reason) ? data.reason.kind : undefined
        if (kind === 'error') this.failed++
        else if (kind === 'interrupted' || kind === 'aborted') this.interrupted++
        return
      }
      default:
        break
    }
    if (event.type !== 'user/message' && event.type !== 'assistant/message' && event.type !== 'tool/result') return
    if (readReplaceOp(event.surfaceOp) === null) {
      if (this.firstPrompt === null && event.type === 'user/message' && classifyNode(event) === 'user') {
        const text = plainText(contentOf(event)).replace(/\s+/g, ' ').trim()
        if (text) this.firstPrompt = text.length > TITLE_CHARS ? text.slice(0, TITLE_CHARS) + '…' : text
      }
      return
    }
    const tombstone = readTombstone(event)
    if (tombstone !== null) {
      this.byAction[tombstone.action]++
      this.tombstoneEvents.set(event.seq, event)
    } else if (event.type === 'user/message' && readRestore(event, (seq) => this.tombstoneEvents.get(seq)) !== null) this.restores++
    else if (event.type === 'tool/result') this.prunes++
    else if (event.type === 'user/message' && classifyNode(event) === 'checkpoint') this.checkpoints++
    else this.other++
  }

  /** The summary so far. */
  result(): SessionSummary {
    const tombstones = TOMBSTONE_ACTIONS.reduce((n, action) => n + this.byAction[action], 0)
    return {
      title: this.title,
      firstPrompt: this.firstPrompt,
      turns: this.turns,
      failedTurns: this.failed,
      interruptedTurns: this.interrupted,
      tombstones,
      tombstonesByAction: { ...this.byAction },
      restores: this.restores,
      checkpoints: this.checkpoints,
      prunes: this.prunes,
      otherReplacements: this.other,
      lastTime: this.lastTime,
    }
  }
}
