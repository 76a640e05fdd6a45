/**
 * Process checks for the tooling tests, by pid.
 *
 * @module test/tools/processes
 */
import { readFileSync } from 'node:fs'

/** Whether `pid` runs. A zombie (ended, waiting for its parent to reap it) counts as gone. */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0)
  } catch {
    return false
  }
  try {
    return !/^\d+ \(.*\) Z /.test(readFileSync(`/proc/${pid}/stat`, 'utf8'))
  } catch {
    return true
  }
}

/** Resolves with whether `pid` is gone within `ms` (polled every 50 ms). */
export async function gone(pid: number, ms = 5000): Promise<boolean> {
  const until = Date.now() + ms
  while (Date.now() < until) {
    if (!alive(pid)) return true
    await new Promise((ok) => setTimeout(ok, 50))
  }
  return !alive(pid)
}
