#!/usr/bin/env node
// Runs a project script under a Node.js runtime that DSH 0.1.0-rc.8 accepts (>= 22.19).
// When the current Node is older, a pinned Node 22 binary is installed once from the npm
// registry into .cache/node (package node-<platform>-<arch>, which ships the binary itself)
// and the script is re-executed with it. Nothing is installed globally. This process stays
// in between as a relay: stop signals go on to the script, and its exit status comes back.
import { spawn, spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, writeFileSync } from 'node:fs'
import { constants as osConstants } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'

export const NODE22_VERSION = '22.23.5'
const MIN = [22, 19, 0]
const root = resolve(dirname(fileURLToPath(import.meta.url)), '..')

function satisfies(version) {
  const parts = version.replace(/^v/, '').split('.').map(Number)
  for (let i = 0; i < 3; i++) {
    if (parts[i] > MIN[i]) return true
    if (parts[i] < MIN[i]) return false
  }
  return true
}

/** Absolute path of a Node >= 22.19 binary, installing the pinned one when needed. */
export function node22Path() {
  if (satisfies(process.version)) return process.execPath
  const pkg = `node-${process.platform}-${process.arch}`
  const dir = join(root, '.cache', 'node')
  const bin = process.platform === 'win32'
    ? join(dir, 'node_modules', pkg, 'bin', 'node.exe')
    : join(dir, 'node_modules', pkg, 'bin', 'node')
  if (!existsSync(bin)) {
    mkdirSync(dir, { recursive: true })
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'node-runtime', private: true }) + '\n')
    process.stderr.write(`Node ${process.version} is older than 22.19; installing ${pkg}@${NODE22_VERSION} into .cache/node (once)\n`)
    const r = spawnSync('npm', ['install', '--no-save', '--no-audit', '--no-fund', '--no-package-lock', `${pkg}@${NODE22_VERSION}`],
      { cwd: dir, stdio: ['ignore', 'inherit', 'inherit'], shell: process.platform === 'win32' })
    if (r.status !== 0 || !existsSync(bin)) {
      process.stderr.write(`could not install ${pkg}@${NODE22_VERSION} from the npm registry\n`)
      process.exit(2)
    }
  }
  return bin
}

/** Signals passed on to the script; each one asks it to stop. */
export const FORWARDED_SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP']
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
 * through this relay: scripts must treat a repeated stop signal as one request (start.mjs does).
 * @param {string} command executable
 * @param {string[]} args
 * @param {import('node:child_process').SpawnOptions} [options] passed to spawn (stdio defaults to inherit)
 * @returns {import('node:child_process').ChildProcess}
 */
export function runForwarding(command, args, options = {}) {
  const child = spawn(command, args, { stdio: 'inherit', ...options })
  const relay = (signal) => {
    if (child.exitCode !== null || child.signalCode !== null) return
    try { child.kill(signal) } catch { /* already gone */ }
  }
  for (const signal of FORWARDED_SIGNALS) process.on(signal, relay)
  const parent = process.ppid
  const watch = setInterval(() => {
    if (process.ppid !== parent) {
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
    process.stderr.write('usage: node tools/with-node22.mjs <script> [args…]\n')
    process.exit(2)
  }
  const node = node22Path()
  runForwarding(node, [resolve(root, script), ...args], {
    env: { ...process.env, PATH: `${dirname(node)}:${process.env.PATH ?? ''}` },
  })
}
