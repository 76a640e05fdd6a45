/**
 * Error messages leave the host without absolute paths of the machine: a persistence failure
 * (`ENOTDIR: not a directory, open '<root>/--<cwd>--/<id>/session.jsonl.zstd'`) names the
 * sessions root, the person's project folder and home. The log keeps the full text; the HTTP
 * reply gets {@link shortenPaths}, which keeps only each path's last segment.
 *
 * @module dsh-message-recall/host/shorten-paths
 */

/** POSIX absolute paths (two or more segments) and Windows drive or UNC paths; URLs (`http://…`) are not paths. */
const ABSOLUTE_PATH = /(?:(?<![\w])[A-Za-z]:\\|(?<![\w:/\\])\\\\|(?<![\w.~:/-])\/(?=[^\s/'"`]+\/))[^\s'"`,;()<>]*/g

/**
 * Replace every absolute path in `text` by `…/` and its last segment.
 * @param text - any message.
 * @returns the message with paths shortened, e.g. `open '…/session.jsonl.zstd'`; a route path
 * such as `/dsh-message-recall` (one segment) is kept.
 */
export function shortenPaths(text: string): string {
  return text.replace(ABSOLUTE_PATH, (path) => {
    const segments = path.split(/[\\/]/).filter((segment) => segment.length > 0)
    return `…/${segments.at(-1) ?? ''}`
  })
}
