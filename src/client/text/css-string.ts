/**
 * Text as a CSS string literal, for the style sheets the browser half writes from data (row keys
 * in selectors, labels in `content`).
 *
 * @module dsh-message-recall/client/text/css-string
 */

/**
 * A CSS string literal of `text`: quotes and backslashes escaped, line breaks as hex escapes.
 * @param text - any string.
 * @returns `"…"`, safe inside an attribute selector and as a `content` value.
 */
export function cssString(text: string): string {
  return `"${text.replace(/[\\"]/g, (c) => `\\${c}`).replace(/[\n\r\f]/g, (c) => `\\${c.charCodeAt(0).toString(16)} `)}"`
}
