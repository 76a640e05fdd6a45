/**
 * Long synchronous work in slices, so the host's event loop keeps serving other requests: the
 * DSH web server, its live streams and every other route run on the same thread as this
 * plugin's handler. A batch of 10,000 changes plans for hundreds of milliseconds in one piece;
 * run as slices of {@link SLICE_MS}, nothing waits for it longer than one slice (and the slice's
 * last step).
 *
 * @module dsh-message-recall/host/time-slice
 */
import { performance } from 'node:perf_hooks'
import { setImmediate } from 'node:timers/promises'

/** Longest run of steps between two turns of the event loop, in milliseconds (a quarter of a 60 Hz frame, leaving room for a garbage-collection pause). */
export const SLICE_MS = 4

/**
 * Run a generator to its return value, giving the event loop a turn (`setImmediate`: pending I/O
 * and timers run first) whenever a slice of steps has taken `sliceMs`.
 * @param steps - the work; each `yield` marks a point where it may pause. It must not rely on
 *   anything outside it staying unchanged across a pause unless its caller ensures that.
 * @param sliceMs - the slice length in milliseconds; default {@link SLICE_MS}.
 * @returns the generator's return value.
 * @throws what a step throws.
 */
export async function runSliced<T>(steps: Generator<void, T, void>, sliceMs: number = SLICE_MS): Promise<T> {
  let deadline = performance.now() + sliceMs
  for (;;) {
    const step = steps.next()
    if (step.done) return step.value
    if (performance.now() >= deadline) {
      await setImmediate()
      deadline = performance.now() + sliceMs
    }
  }
}
