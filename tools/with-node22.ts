// Runs a project script under a Node.js runtime that DSH 0.1.0-rc.8 accepts (>= 22.19):
//   node --import tsx tools/with-node22.ts <script.ts> [args…]
// When the current Node is older, the pinned Node 22 is installed once into .cache/node
// (tools/node-runtime.ts) and the script is run with it, through tsx. This process starts on
// Node 20 and stays in between as a relay: stop signals go on to the script, and its exit status
// comes back.
import { spawn, type ChildProcess, type SpawnOptions } from 'node:child_process'
import { constants as osConstants } from 'node:os'
import { dirname, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { node22Path } from './node-runtime'

/** The parent this relay watches, read before anything else can happen (see runForwarding). */
const PARENT_AT_START = process.ppid
const root = resolve(dirname(fileURLToPath(import.meta.url)), '..')

/** Signals passed on to the script; each one asks it to stop. */
export const FORWARDED_SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const
/** How often the parent pid is checked, in ms (see runForwarding). */
const PARENT_POLL_MS = 500

/**
 * Run `command args` with inherited stdio and stay in between until it exits:
 * - SIGINT, SIGTERM and SIGHUP sent to this process are passed to the child;
 * - when this process loses its parent, the child gets SIGTERM: npm runs scripts through
 *   `sh -c`, which dies on the SIGINT/SIGTERM npm passes on without passing it further, and npm
 *   passes no SIGHUP at all (it just ends), so a signal sent to npm alone never arrives here;
 * - when the child exits, this process exits with its code, or re-raises the signal that
 *   ended it, so callers (npm, a shell) see the same outcome.
 * The child stays in this process group, so a terminal Ctrl-C reaches it directly as well as
 * through this relay: scripts must treat a repeated stop signal as one request (start.ts does).
 * The parent watched is the one this module saw when it was evaluated, so a parent that died
 * while Node 22 was being installed is noticed too.
 * @param command executable
 * @param options passed to spawn (stdio defaults to inherit)
 */
export function runForwarding(command: string, args: readonly string[], options: SpawnOptions = {}): ChildProcess {
  const child = spawn(command, args, { stdio: 'inherit', ...options })
  const relay = (signal: NodeJS.Signals) => {
    if (child.exitCode !== null || child.signalCode !== null) return
    try { child.kill(signal) } catch { /* already gone */ }
  }
  for (const signal of FORWARDED_SIGNALS) process.on(signal, relay)
  const watch = setInterval(() => {
    if (process.ppid !== PARENT_AT_START) {
      clearInterval(watch)
      relay('SIGTERM')
    }
  }, PARENT_POLL_MS)
  watch.unref()
  child.once('error', (error) => {
    clearInterval(watch)
    process.stderr.write(`with-node22: could not start ${command}: ${error.message}\n`)
    process.exit(2)
  })
  child.once('exit', (code, signal) => {
    clearInterval(watch)
    for (const s of FORWARDED_SIGNALS) process.off(s, relay)
    if (signal) {
      // Re-raise with the default action restored, so our parent sees the same signal.
      process.kill(process.pid, signal)
      setTimeout(() => process.exit(128 + (osConstants.signals[signal] ?? 0)), 1000).unref()
      return
    }
    process.exit(code ?? 1)
  })
  return child
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const [script, ...args] = process.argv.slice(2)
  if (!script) {
    process.stderr.write('usage: node --import tsx tools/with-node22.ts <script.ts> [args…]\n')
    process.exit(2)
  }
  let node: string
  try {
    node = node22Path()
  } catch (error) {
    process.stderr.write(`with-node22: ${(error as Error).message}\n`)
    process.exit(2)
  }
  runForwarding(node, ['--import', 'tsx', resolve(root, script), ...args], {
    env: { ...process.env, PATH: `${dirname(node)}:${process.env.PATH ?? ''}` },
  })
}
