#!/usr/bin/env node
// Runs a project script under a Node.js runtime that DSH 0.1.0-rc.8 accepts (>= 22.19).
// When the current Node is older, a pinned Node 22 binary is installed once from the npm
// registry into .cache/node (package node-<platform>-<arch>, which ships the binary itself)
// and the script is re-executed with it. Nothing is installed globally.
import { spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, writeFileSync } from 'node:fs'
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

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const [script, ...args] = process.argv.slice(2)
  if (!script) {
    process.stderr.write('usage: node tools/with-node22.mjs <script> [args…]\n')
    process.exit(2)
  }
  const node = node22Path()
  const r = spawnSync(node, [resolve(root, script), ...args], {
    stdio: 'inherit',
    env: { ...process.env, PATH: `${dirname(node)}:${process.env.PATH ?? ''}` },
  })
  process.exit(r.status ?? 1)
}
