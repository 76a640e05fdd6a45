/**
 * A tool result's text as a person reads it in an excerpt. DSH's file tools wrap their result in
 * an envelope for the model (`formatReadOutput`, `formatWriteOutput` and `formatImageReadOutput`
 * in `@deepseek-ai/dsh-tool-fs`, `lib/index.js`):
 *
 * ```text
 * <path>/tmp/notes.txt</path>
 * <type>file</type>
 * <content>
 * 1: first line
 * …
 * </content>
 * ```
 *
 * Such a text reads `/tmp/notes.txt — 1: first line …`; any other text is kept as it is. Pure,
 * browser-safe.
 *
 * @module dsh-message-recall/client/text/tool-result-text
 */

/** The rc.8 `dsh-tool-fs` envelope: the path, the type line, the content between its tags. */
const FS_ENVELOPE = /^<path>([^\n]*)<\/path>\n<type>[^\n<]*<\/type>\n<content>\n([\s\S]*?)\n?<\/content>\s*$/u

/**
 * @param text - a tool result's plain text (its text blocks joined).
 * @returns `<path> — <content>` for a `dsh-tool-fs` envelope (the path alone when the content is
 *   empty), else `text` unchanged.
 */
export function readableToolText(text: string): string {
  const envelope = FS_ENVELOPE.exec(text)
  if (envelope === null) return text
  const [, path, content] = envelope as unknown as [string, string, string]
  return content.trim() === '' ? path : `${path} — ${content}`
}
