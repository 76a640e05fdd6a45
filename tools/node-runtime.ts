/**
 * Node.js runtimes the project needs besides the one it was started with, installed from the npm
 * registry into `.cache/` when the machine lacks them. The package `node-<platform>-<arch>`
 * ships the `node` binary itself, so nothing is installed globally and no other host is reached.
 *
 * - Node >= 22.19 (DSH 0.1.0-rc.8, the host half and the tests): {@link node22Path}, pinned
 *   {@link NODE22_VERSION}, in `.cache/node`.
 * - Node 20 (the built log tools promise to run there): {@link node20Path}, a Node 20 on the
 *   machine when there is one, else the pinned {@link NODE20_VERSION} in `.cache/node20`.
 *
 * Runs on Node 20 (the relay that provisions Node 22 starts there).
 *
 * @module tools/node-runtime
 */
import { spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, writeFileSync } from 'node:fs'
import { delimiter, dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..')
/** The lowest Node the host half and the tests run on. */
export const NODE_MIN = '22.19.0'
/** The Node 22 installed when the running Node is older than {@link NODE_MIN}. */
export const NODE22_VERSION = '22.23.5'
/** The Node 20 installed for the log tools' Node 20 checks when the machine has none. */
export const NODE20_VERSION = '20.20.2'

/** Whether `version` (`v22.19.0` or `22.19.0`) is at least {@link NODE_MIN}. */
export function satisfiesNode(version: string, min: string = NODE_MIN): boolean {
  const have = version.replace(/^v/, '').split('.').map(Number)
  const want = min.split('.').map(Number)
  for (let i = 0; i < 3; i++) {
    if ((have[i] ?? 0) > want[i]!) return true
    if ((have[i] ?? 0) < want[i]!) return false
  }
  return true
}

/**
 * The `node` binary of `node-<platform>-<arch>@version` under `.cache/<folder>`, installed
 * (`npm install --no-save`) when missing; one line on stderr says so.
 * @throws Error when npm cannot install it
 */
export function installedNode(version: string, folder: string): string {
  const pkg = `node-${process.platform}-${process.arch}`
  const dir = join(ROOT, '.cache', folder)
  const bin = join(dir, 'node_modules', pkg, 'bin', process.platform === 'win32' ? 'node.exe' : 'node')
  if (existsSync(bin) && versionOf(bin) === `v${version}`) return bin
  mkdirSync(dir, { recursive: true })
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'node-runtime', private: true }) + '\n')
  process.stderr.write(`installing ${pkg}@${version} from the npm registry into .cache/${folder} (once)\n`)
  const r = spawnSync('npm', ['install', '--no-save', '--no-audit', '--no-fund', '--no-package-lock', `${pkg}@${version}`],
    { cwd: dir, stdio: ['ignore', 'inherit', 'inherit'], shell: process.platform === 'win32' })
  if (r.status !== 0 || !existsSync(bin)) throw new Error(`could not install ${pkg}@${version} from the npm registry (npm exit ${r.status ?? r.signal})`)
  return bin
}

/** `node --version` of a binary, or undefined when it does not run. */
function versionOf(bin: string): string | undefined {
  const r = spawnSync(bin, ['--version'], { encoding: 'utf8' })
  return r.status === 0 ? r.stdout.trim() : undefined
}

/** Absolute path of a Node >= 22.19: this one, or the pinned {@link NODE22_VERSION} (installed once). */
export function node22Path(): string {
  return satisfiesNode(process.version) ? process.execPath : installedNode(NODE22_VERSION, 'node')
}

/**
 * Absolute path of a Node 20: this one, the first `node` 20 on PATH or in /usr/bin, /usr/local/bin,
 * or else the pinned {@link NODE20_VERSION} (installed once into `.cache/node20`).
 * @throws Error when none is on the machine and npm cannot install it
 */
export function node20Path(): string {
  if (process.versions.node.startsWith('20.')) return process.execPath
  const candidates = [...(process.env.PATH ?? '').split(delimiter).filter(Boolean).map((d) => join(d, 'node')), '/usr/bin/node', '/usr/local/bin/node']
  for (const candidate of candidates) if (existsSync(candidate) && versionOf(candidate)?.startsWith('v20.')) return candidate
  return installedNode(NODE20_VERSION, 'node20')
}
