/**
 * Order statistics of the benchmarks' samples: one definition, so every benchmark's median and
 * p95 mean the same thing.
 *
 * @module bench/support/stats
 */

/**
 * The `q` quantile of samples, by the nearest-rank method (the lower median for an even count).
 * @param samples - the samples (any order; not changed).
 * @param q - the quantile, 0 … 1.
 * @returns the sample at rank ⌈q · n⌉ (at least the first).
 * @throws TypeError when `samples` is empty (there is no quantile of nothing).
 */
export function quantile(samples: readonly number[], q: number): number {
  if (samples.length === 0) throw new TypeError('quantile of no samples')
  const s = [...samples].sort((a, b) => a - b)
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil(q * s.length) - 1))]!
}

/** The median (the lower one for an even count) of samples; see {@link quantile}. */
export const median = (samples: readonly number[]): number => quantile(samples, 0.5)

/** The 95th percentile of samples; see {@link quantile}. */
export const p95 = (samples: readonly number[]): number => quantile(samples, 0.95)
