/**
 * Progress lines on stderr for long work: a scan of a sessions root, a read or verify of a large
 * file. Shown only when stderr is a terminal, at most every 200 ms, rewritten in place and erased
 * at the end; the line's text is {@link progressLine}, pure.
 *
 * @module dsh-message-recall/scripts/support/progress
 */
import { counted } from '../../src/log/counted'

/**
 * Progress of reading one log file, for files over {@link PROGRESS_FILE_BYTES}.
 * @param label - the command, e.g. `read`.
 * @param size - the file's size in bytes.
 * @returns the reader's `onProgress` callback and `done()`.
 */
export function fileProgress(label: string, size: number): { onProgress: (read: number, size: number) => void; done(): void } {
  const bar = progress(label, 'MB', size > PROGRESS_FILE_BYTES)
  return { onProgress: (read, total) => bar.update(read, total, read), done: () => bar.done() }
}

/** Files above this size get a progress line when read or verified. */
export const PROGRESS_FILE_BYTES = 50 * 1024 * 1024

/** Least time between two progress lines, ms. */
const PROGRESS_INTERVAL_MS = 200

/** A progress line on stderr; see {@link progress}. */
export interface Progress {
  /**
   * Report how far the work is.
   * @param done - files done (or bytes read, for one file).
   * @param total - files (or bytes) in all.
   * @param bytes - bytes read so far, for the rate.
   */
  update(done: number, total: number, bytes: number): void
  /** Erase the line. */
  done(): void
}

/**
 * A progress line on stderr, rewritten in place (its text is {@link progressLine}). Shown only when stderr is a terminal (never in a pipe or a file, where it would be
 * noise), at most every 200 ms, and erased by `done()`.
 * @param label - the command, e.g. `list`.
 * @param unit - what `done` and `total` count: `logs`, or `MB` for bytes of one file.
 * @param enabled - `false` prints nothing (`--quiet`, a small file).
 * @param stream - where to write (default `process.stderr`).
 */
export function progress(label: string, unit: 'logs' | 'MB', enabled: boolean, stream: NodeJS.WriteStream = process.stderr): Progress {
  const started = performance.now()
  let last = -Infinity
  let shown = false
  const on = enabled && stream.isTTY === true
  return {
    update(done: number, total: number, bytes: number): void {
      if (!on) return
      const now = performance.now()
      if (now - last < PROGRESS_INTERVAL_MS && done < total) return
      last = now
      shown = true
      stream.write(`\r\x1b[K${progressLine(label, unit, { done, total, bytes, seconds: (now - started) / 1000 })}`)
    },
    done(): void {
      if (shown) stream.write('\r\x1b[K')
    },
  }
}

/** How far the work is, for {@link progressLine}. */
export interface ProgressState {
  /** Logs done, or bytes read of one file. */
  readonly done: number
  /** Logs, or bytes of the file, in all. */
  readonly total: number
  /** Bytes read so far. */
  readonly bytes: number
  /** Seconds since the work started. */
  readonly seconds: number
}

/**
 * The text of a progress line: `<label>: <done>/<total> logs, <MB> MB, <rate> MB/s`, or for one
 * file `<label>: <read>/<size> MB, <rate> MB/s` (MB are 10^6 bytes, one decimal; the rate is
 * `… MB/s` before any time passed).
 * @param label - the command, e.g. `list`.
 * @param unit - `logs`, or `MB` for bytes of one file.
 * @param state - see {@link ProgressState}.
 */
export function progressLine(label: string, unit: 'logs' | 'MB', state: ProgressState): string {
  const mb = (bytes: number) => (bytes / 1e6).toFixed(1)
  const rate = state.seconds > 0 ? `${mb(state.bytes / state.seconds)} MB/s` : '… MB/s'
  const count = unit === 'MB' ? `${mb(state.done)}/${mb(state.total)} MB` : `${state.done}/${counted(state.total, 'log')}, ${mb(state.bytes)} MB`
  return `${label}: ${count}, ${rate}`
}
