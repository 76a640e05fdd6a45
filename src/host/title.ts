/**
 * The title rules, pure: which title a session gets after a removal, a restore or a new prompt.
 * Reading the current title from the log and appending a new one is `title-events`. rc.8 titles are log-only `session/title`
 * events `{ title, messageSeqs, source }` naming the message seqs they were made from
 * (`dsh-session-title` `foldSessionTitle`: the last such event wins); the sidebar, the session
 * header and the tab title follow the newest one. `sessionTitle.refresh` cannot rebuild a title
 * after a removal: it reads every human message of the raw log, removed ones included
 * (`collectSessionTitleMessages`), so it writes the removed prompt's title back.
 *
 * Rules:
 * - a title the person set (`source.kind === 'user'`) is never touched;
 * - after a removal that shadows a message the current title cites, the title is rebuilt as a
 *   `fallback` title from the first words of the first remaining prompt on the surface (the
 *   rc.8 first-prompt fallback rule, `fallbackSessionTitle`), citing that prompt;
 * - when no prompt remains, the title is {@link NO_PROMPT_TITLE} citing the tombstone: the
 *   session-title invariant (`@deepseek-ai/dsh-session-title/invariant`) requires a non-`user`
 *   title to cite at least one message seq, and this text is the label DSH's own sidebar gives a
 *   session without content, so the removed text leaves the screen and nothing else appears;
 * - a restore puts the title back: when the title in effect before the tombstone cited the
 *   restored message and the current title was written after the tombstone as a `fallback` (the
 *   {@link NO_PROMPT_TITLE} placeholder included), that earlier title returns as it was (also a
 *   model-written `provider` title), citing the restoring copy; any other placeholder is rebuilt
 *   from the first prompt;
 * - the placeholder gives way to the first prompt the person sends afterwards.
 *
 * @module dsh-message-recall/host/title
 */
import { isRecord, type LogEvent } from '../shared/events'
import { classifyNode, contentOf } from '../shared/surface-node'
import { isTombstoneEvent } from '../shared/tombstone'
import type { EventLookup } from './surface-plan'

/** Title of a session whose prompts were all removed (DSH's own label for a session without content). */
export const NO_PROMPT_TITLE = 'New Session'

/** A `session/title` event's data as this module reads it. */
export interface TitleRecord {
  readonly title: string
  readonly messageSeqs: readonly number[]
  /** `{ kind: 'fallback' | 'provider' | 'user', … }`. */
  readonly source: Readonly<Record<string, unknown>> & { readonly kind: string }
  /** Seq of the `session/title` event. */
  readonly eventSeq: number
}

/** A title to append. */
export interface TitleChange {
  readonly title: string
  readonly messageSeqs: readonly number[]
  readonly source: Readonly<Record<string, unknown>> & { readonly kind: string }
}

/** The fallback title's limits (`dsh-session-title` config `fallbackMaxWords`, `fallbackMaxBytes`) and the longest title. */
export interface TitleLimits {
  readonly maxWords: number
  readonly maxBytes: number
  /** The longest title in UTF-8 bytes (config `maxTitleBytes`); a copy's title is fitted to it. Absent: no limit. */
  readonly maxTitleBytes?: number
}

/** The limits the `dsh-base` bundle configures for rc.8 (`fallbackMaxWords: 5`, `fallbackMaxBytes: 40`, `maxTitleBytes: 80`). */
export const DEFAULT_TITLE_LIMITS: TitleLimits = Object.freeze({ maxWords: 5, maxBytes: 40, maxTitleBytes: 80 })

// Terminal escapes, control characters and invisible direction marks never reach a title.
const ESCAPES = /(?:\u001B\]|\u009D)(?:(?!\u0007|\u001B\\)[\s\S])*(?:\u0007|\u001B\\|$)|(?:\u001B\[|\u009B)[0-?]*[ -/]*[@-~]|\u001B[@-_]/gu
const INVISIBLE = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F\u200B\u200E\u200F\u202A-\u202E\u2060-\u2064\u2066-\u206F\uFEFF]/gu

/**
 * The first-prompt fallback title of a text, as rc.8 derives it (`dsh-session-title`
 * `fallbackSessionTitle`): escapes and controls removed, whitespace collapsed, the first
 * `maxWords` words, cut to `maxBytes` UTF-8 bytes on a code-point boundary.
 * @returns the title, `''` when nothing visible remains.
 */
export function fallbackTitle(text: string, limits: TitleLimits): string {
  const words = text.replace(ESCAPES, '').replace(INVISIBLE, '').split(/\s+/u).filter(Boolean).slice(0, limits.maxWords)
  let out = ''
  let bytes = 0
  for (const char of words.join(' ')) {
    const size = Buffer.byteLength(char, 'utf8')
    if (bytes + size > limits.maxBytes) break
    out += char
    bytes += size
  }
  return out.trimEnd()
}

/** Title text of a prompt: its text blocks joined by newlines (`collectSessionTitleMessages`). */
function promptText(event: LogEvent): string {
  return contentOf(event)
    .filter((block): block is { type: 'text'; text: string } => isRecord(block) && block.type === 'text' && typeof block.text === 'string')
    .map((block) => block.text)
    .join('\n')
}

/** True for the {@link NO_PROMPT_TITLE} placeholder this module writes: a fallback citing only tombstones of this plugin. */
function isPlaceholder(current: TitleRecord | undefined, lookup: EventLookup): boolean {
  if (current === undefined || current.source.kind !== 'fallback' || current.title !== NO_PROMPT_TITLE) return false
  return current.messageSeqs.every((seq) => {
    const event = lookup(seq)
    return event !== undefined && isTombstoneEvent(event)
  })
}

/** A fallback title from the first prompt on the surface with visible text, or the no-prompt title citing `placeholderSeq`. */
function firstPromptTitle(nodes: readonly number[], lookup: EventLookup, limits: TitleLimits, placeholderSeq: number): TitleChange {
  for (const seq of nodes) {
    const event = lookup(seq)
    if (event === undefined || event.type !== 'user/message' || classifyNode(event) !== 'user') continue
    const title = fallbackTitle(promptText(event), limits)
    if (title.length > 0) return { title, messageSeqs: [seq], source: { kind: 'fallback' } }
  }
  return { title: NO_PROMPT_TITLE, messageSeqs: [placeholderSeq], source: { kind: 'fallback' } }
}

/** Inputs of {@link titleAfterRemoval}. */
export interface RemovalTitleInput {
  /** The current title, or `undefined`. */
  readonly current: TitleRecord | undefined
  /** The nodes the tombstone shadowed. */
  readonly shadowedSeqs: readonly number[]
  readonly tombstoneSeq: number
  /** Surface nodes after the tombstone, in surface order. */
  readonly nodes: readonly number[]
  readonly lookup: EventLookup
  readonly limits: TitleLimits
}

/**
 * The title to write after a removal.
 * @returns the new title, or `null` to leave the title alone (no title, a `user` title, or a
 * title citing none of the shadowed messages).
 */
export function titleAfterRemoval(input: RemovalTitleInput): TitleChange | null {
  const { current } = input
  if (current === undefined || current.source.kind === 'user') return null
  if (!current.messageSeqs.some((seq) => input.shadowedSeqs.includes(seq))) return null
  return firstPromptTitle(input.nodes, input.lookup, input.limits, input.tombstoneSeq)
}

/** Inputs of {@link titleAfterRestore}. */
export interface RestoreTitleInput {
  readonly current: TitleRecord | undefined
  /** The title in effect just before the tombstone was written, or `undefined`. */
  readonly beforeTombstone: TitleRecord | undefined
  readonly tombstoneSeq: number
  /** Seq of the removed message and of its restoring copy. */
  readonly originalSeq: number
  readonly restoredSeq: number
  /** Surface nodes after the restore, in surface order. */
  readonly nodes: readonly number[]
  readonly lookup: EventLookup
  readonly limits: TitleLimits
}

/**
 * The title to write after a restore.
 * @returns the title to put back, or `null` to leave the title alone.
 */
export function titleAfterRestore(input: RestoreTitleInput): TitleChange | null {
  const { current, beforeTombstone: before } = input
  if (current === undefined || current.source.kind === 'user') return null
  const onSurface = new Set(input.nodes)
  const placeholder = isPlaceholder(current, input.lookup)
  const rebuild = () => (placeholder ? firstPromptTitle(input.nodes, input.lookup, input.limits, input.restoredSeq) : null)
  // Only a title written after the tombstone by this plugin's rules (a fallback, the placeholder
  // included) gives way; the title the removal replaced comes back when it cited the restored message.
  if (before === undefined || current.source.kind !== 'fallback' || current.eventSeq < input.tombstoneSeq) return rebuild()
  if (!before.messageSeqs.includes(input.originalSeq)) return rebuild()
  const cited = before.messageSeqs.map((seq) => (seq === input.originalSeq ? input.restoredSeq : seq))
  // The earlier title returns only when every message it was made from is in view again.
  if (!cited.every((seq) => onSurface.has(seq))) return firstPromptTitle(input.nodes, input.lookup, input.limits, input.restoredSeq)
  if (before.title === current.title && cited.length === current.messageSeqs.length && cited.every((seq, i) => seq === current.messageSeqs[i])) return null
  return { title: before.title, messageSeqs: cited, source: { ...before.source } }
}

/**
 * The title after a new prompt: a {@link NO_PROMPT_TITLE} placeholder (written when every prompt
 * was removed) gives way to the first-prompt fallback of the first prompt sent since, as the
 * session-title service would have titled a fresh session. Any other title stays.
 * @param current - the current title, or `undefined`.
 * @param prompt - the appended event.
 * @param lookup - one event by seq.
 * @param limits - the fallback limits.
 * @returns the new title, or `null`.
 */
export function titleAfterPrompt(current: TitleRecord | undefined, prompt: LogEvent, lookup: EventLookup, limits: TitleLimits): TitleChange | null {
  if (!isPlaceholder(current, lookup)) return null
  if (prompt.type !== 'user/message' || prompt.surfaceOp !== 'append' || classifyNode(prompt) !== 'user') return null
  const title = fallbackTitle(promptText(prompt), limits)
  return title.length === 0 ? null : { title, messageSeqs: [prompt.seq], source: { kind: 'fallback' } }
}

/**
 * The fallback limits of the loaded `sessionTitle` service (`dsh-session-title`
 * `SessionTitleService`, whose config field is not part of its public type in rc.8).
 * @param service - `ctx.get('sessionTitle')`, or `undefined`.
 * @returns its `fallbackMaxWords`/`fallbackMaxBytes`/`maxTitleBytes`, or {@link DEFAULT_TITLE_LIMITS}.
 */
export function titleLimitsOf(service: unknown): TitleLimits {
  const config = isRecord(service) ? (service as { config?: unknown }).config : undefined
  if (!isRecord(config)) return DEFAULT_TITLE_LIMITS
  const { fallbackMaxWords, fallbackMaxBytes, maxTitleBytes } = config
  if (!Number.isSafeInteger(fallbackMaxWords) || !Number.isSafeInteger(fallbackMaxBytes)) return DEFAULT_TITLE_LIMITS
  return {
    maxWords: fallbackMaxWords as number,
    maxBytes: fallbackMaxBytes as number,
    maxTitleBytes: Number.isSafeInteger(maxTitleBytes) ? (maxTitleBytes as number) : DEFAULT_TITLE_LIMITS.maxTitleBytes!,
  }
}
