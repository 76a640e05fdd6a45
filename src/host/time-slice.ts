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

/** Most steps run between two looks at the clock (see {@link runSliced}). */
export const MAX_STEPS_PER_CHECK = 64

/**
 * Run a generator to its return value, giving the event loop a turn (`setImmediate`: pending I/O
 * and timers run first) whenever a slice of steps has taken `sliceMs`.
 *
 * The clock (`performance.now()`, about 0.1 µs a call, a tenth of a cheap planning step) is read
 * after every step at first; while the steps between two readings took less than a
 * sixteenth of the slice, it is read half as often (every 2, 4, … up to
 * {@link MAX_STEPS_PER_CHECK} steps), and twice as often again when they took more than an
 * eighth. So a slice overruns `sliceMs` by at most about an eighth of a slice of steps that cost
 * what the steps before them cost (a slow step after many cheap ones overruns by itself).
 * @param steps - the work; each `yield` marks a point where it may pause. It must not rely on
 *   anything outside it staying unchanged across a pause unless its caller ensures that.
 * @param sliceMs - the slice length in milliseconds; default {@link SLICE_MS}.
 * @returns the generator's return value.
 * @throws what a step throws.
 */
export async function runSliced<T>(steps: Generator<void, T, void>, sliceMs: number = SLICE_MS): Promise<T> {
  let checked = performance.now()
  let deadline = checked + sliceMs
  let stepsPerCheck = 1
  let sinceCheck = 0
  for (;;) {
    const step = steps.next()
    if (step.done) return step.value
    if (++sinceCheck < stepsPerCheck) continue
    sinceCheck = 0
    const now = performance.now()
    if (now >= deadline) {
      await setImmediate()
      checked = performance.now()
      deadline = checked + sliceMs
      stepsPerCheck = 1
      continue
    }
    if (now - checked < sliceMs / 16) stepsPerCheck = Math.min(stepsPerCheck * 2, MAX_STEPS_PER_CHECK)
    else if (now - checked > sliceMs / 8) stepsPerCheck = Math.max(stepsPerCheck >> 1, 1)
    checked = now
  }
}
