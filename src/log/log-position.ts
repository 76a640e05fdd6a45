/**
 * How the log tools name a place in a log, one wording for every tool and message: a frame by its
 * number and the byte it starts at (`frame 3 at byte 248`: a frame that failed to decode, one that
 * ends inside a line, the incomplete frame of a torn tail), and a line by its number with its
 * frame (`line 7 (frame 5 at byte 1500)`) or, in a plain JSONL log, its own byte offset
 * (`line 5 (at byte 300)`). `verify` and `read` print these in their problems and torn tails,
 * `list` and `scan` in a damaged or still-written log's entry. Pure.
 *
 * @module dsh-message-recall/log/log-position
 */

/**
 * A frame of a zstd log.
 * @param index - the frame's number in the file, 0-based (frame 0 holds the header line).
 * @param byte - the file offset where the frame starts.
 * @returns e.g. `frame 3 at byte 248`.
 */
export function frameAt(index: number, byte: number): string {
  return `frame ${index} at byte ${byte}`
}

/**
 * A line of a log.
 * @param line - the line's number, 1-based (line 1 is the header).
 * @param frame - the number of the frame it was decoded from (see {@link frameAt}), or `null` in a plain JSONL log.
 * @param byte - the file offset of that frame, or the line's own offset in a plain log.
 * @returns e.g. `line 7 (frame 5 at byte 1500)`, or `line 5 (at byte 300)` in a plain log.
 */
export function lineAt(line: number, frame: number | null, byte: number): string {
  return `line ${line} (${frame === null ? `at byte ${byte}` : frameAt(frame, byte)})`
}
