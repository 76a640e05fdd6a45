/**
 * The title of a copy, pure: the copied conversation's title at the cut, made distinct from every
 * title already in use. The scheme follows how DSH names
 * a Branch (`dsh-client-runtime` `increasedForkTitle`: an unnumbered title gains ` (1)`, a
 * trailing `(n)` becomes `(n+1)`), with this plugin's word for a copy:
 * "<title> (copy)", then "<title> (copy 2)", "<title> (copy 3)", … The copy of a copy is named
 * from the copy's title, so "<title> (copy)" gives "<title> (copy 2)", never
 * "<title> (copy) (copy)". Unlike Branch, a number already taken by another session is skipped,
 * so two copies of one session never share a title. A title longer than the session-title
 * service allows (`dsh-session-title` config `maxTitleBytes`) loses the end of its stem, never its
 * copy number. In the Chinese UI the word is "（副本）", "（副本 2）", …; either spelling is read
 * back as a copy number, so the numbers go on across a change of language.
 *
 * @module dsh-message-recall/host/copy-title
 */
import { classifyNode, contentOf, plainText } from '../shared/surface-node'
import type { EventLookup } from './surface-plan'
import { fallbackTitle, type TitleLimits } from './title'
import { titleBefore } from './title-events'

/** A title split into what it copies and its copy number. */
export interface CopyName {
  /** The title without a trailing copy suffix. */
  readonly stem: string
  /** 0 for a title that is not a copy's, 1 for "(copy)", n for "(copy n)". */
  readonly number: number
}

/** The language a copy's title is written in (the DSH UI's languages, `dsh-client-locale` `LOCALE_IDS`). */
export type CopyTitleLanguage = 'en' | 'zh'

// "(copy 1)" is not this scheme's spelling, so it stays part of the stem.
const COPY_SUFFIX = /^(.*) \(copy(?: ([2-9]|[1-9]\d+))?\)$/su
const COPY_SUFFIX_ZH = /^(.*)（副本(?: ([2-9]|[1-9]\d+))?）$/su

/** The copy suffix with a given number in a language: " (copy)", " (copy 2)"; "（副本）", "（副本 2）". */
function copySuffix(number: number, language: CopyTitleLanguage): string {
  if (language === 'zh') return number === 1 ? '（副本）' : `（副本 ${number}）`
  return number === 1 ? ' (copy)' : ` (copy ${number})`
}

/**
 * Split a title into its stem and copy number.
 * @param title - any title.
 * @returns e.g. `"Plan (copy 3)"` or `"Plan（副本 3）"` → `{ stem: 'Plan', number: 3 }`; `"Plan"` → `{ stem: 'Plan', number: 0 }`.
 */
export function parseCopyTitle(title: string): CopyName {
  const match = COPY_SUFFIX.exec(title) ?? COPY_SUFFIX_ZH.exec(title)
  if (match === null || match[1] === undefined || match[1].length === 0) return { stem: title, number: 0 }
  return { stem: match[1], number: match[2] === undefined ? 1 : Number(match[2]) }
}

/**
 * The copy title with a given number.
 * @param stem - the copied title's stem.
 * @param number - 1 or more.
 * @param maxBytes - the longest title in UTF-8 bytes; the stem is cut at a code point to fit.
 * @param language - the UI language the suffix is written in (default English).
 * @returns `"<stem> (copy)"` for 1, `"<stem> (copy <number>)"` above; in Chinese
 *   `"<stem>（副本）"` and `"<stem>（副本 <number>）"`.
 */
export function copyTitleNumbered(stem: string, number: number, maxBytes = Number.POSITIVE_INFINITY, language: CopyTitleLanguage = 'en'): string {
  const suffix = copySuffix(number, language)
  const budget = maxBytes - Buffer.byteLength(suffix, 'utf8')
  if (Buffer.byteLength(stem, 'utf8') <= budget) return `${stem}${suffix}`
  let cut = ''
  let bytes = 0
  for (const char of stem) {
    const size = Buffer.byteLength(char, 'utf8')
    if (bytes + size > budget) break
    cut += char
    bytes += size
  }
  cut = cut.trimEnd()
  return cut.length === 0 ? suffix.trimStart() : `${cut}${suffix}`
}

/**
 * The title of a copy of a conversation titled `base`: the next copy number after the one `base`
 * carries that no title in `taken` uses.
 * @param base - the copied conversation's title (itself possibly a copy's).
 * @param taken - the titles of the sessions that exist, compared exactly.
 * @param maxBytes - the longest title in UTF-8 bytes (see {@link copyTitleNumbered}).
 * @param language - the UI language the suffix is written in (default English).
 * @returns a title not in `taken`.
 */
export function nextCopyTitle(base: string, taken: ReadonlySet<string>, maxBytes = Number.POSITIVE_INFINITY, language: CopyTitleLanguage = 'en'): string {
  const { stem, number } = parseCopyTitle(base)
  let next = number + 1
  while (taken.has(copyTitleNumbered(stem, next, maxBytes, language))) next++
  return copyTitleNumbered(stem, next, maxBytes, language)
}

/**
 * The title of a copy made before `tombstoneSeq`, before numbering: the title in effect at that
 * point, else the first-prompt fallback of the copied part; `null` when the copied part has
 * neither. The copy's title is {@link nextCopyTitle} of it.
 * @param tombstoneSeq - the tombstone the copy is made before.
 * @param lookup - one event by seq over the source's log.
 * @param limits - the fallback title limits.
 */
export function copiedTitle(tombstoneSeq: number, lookup: EventLookup, limits: TitleLimits): string | null {
  let base = titleBefore(tombstoneSeq, lookup)?.title
  for (let seq = 0; base === undefined && seq < tombstoneSeq; seq++) {
    const event = lookup(seq)
    if (event?.type !== 'user/message' || event.surfaceOp !== 'append' || classifyNode(event) !== 'user') continue
    const title = fallbackTitle(plainText(contentOf(event)), limits)
    if (title.length > 0) base = title
  }
  return base ?? null
}
