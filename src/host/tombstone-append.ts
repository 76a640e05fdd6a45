/**
 * The rc.8 tombstone event, appended: one `user/message` with a fresh message id
 * (`createUserMessage`, `dsh-llm`), `content` empty or one text block with the configured
 * `tombstoneText`, `source` from `tombstoneSource()`, `surfaceOp` from `replaceOp()`, and
 * `sourceEventSeqs` = every shadowed node (`dsh-session` `assertProvenance` requires complete
 * coverage). It carries no copy of the removed text. Used by the single writer and the batch writer.
 *
 * @module dsh-message-recall/host/tombstone-append
 */
import { createUserMessage, type UserMessage } from '@deepseek-ai/dsh-llm'
import type { Session, SessionEvent } from '@deepseek-ai/dsh-session'
import { replaceOp } from '../shared/replace-op'
import { tombstoneSource } from '../shared/tombstone'
import type { TombstoneAction } from '../shared/actions'
import type { BatchMark } from '../shared/batch-mark'

/** What a tombstone needs: its action, the inclusive surface range and every shadowed node, in surface order. */
export interface TombstoneRange {
  readonly action: TombstoneAction
  /** Surface seq of the first shadowed node (the replace op's `start`). */
  readonly start: number
  /** Surface seq of the last shadowed node (the replace op's `end`). */
  readonly end: number
  readonly shadowedSeqs: readonly number[]
}

/**
 * Append the tombstone for a planned range. Validation happens in `session.append` before the
 * log changes, so a rejected append leaves the log and the surface as they were.
 * @param session - the session the range was planned on.
 * @param range - the action, range and shadowed nodes (from a plan over this session's current surface).
 * @param tombstoneText - `''` (default) for empty content, else the text of one text block.
 * @param batch - the batch mark, for a tombstone of a batch of two or more writes (`shared/batch-mark.ts`).
 * @returns the logged tombstone event.
 * @throws the Session's error when it refuses the event (e.g. `surface replace: start seq N not
 * found in surface` for a range planned on an older surface, or an invariant companion's error).
 */
export function appendTombstone(session: Session, range: TombstoneRange, tombstoneText = '', batch?: BatchMark): SessionEvent<'user/message'> {
  const source = tombstoneSource(range.action, range.shadowedSeqs, batch)
  const message = createUserMessage({
    content: tombstoneText === '' ? [] : [{ type: 'text', text: tombstoneText }],
    source: source as unknown as UserMessage['source'],
  })
  return session.append('user/message', message, {
    surfaceOp: replaceOp(range.start, range.end),
    sourceEventSeqs: [...range.shadowedSeqs],
  })
}
