/**
 * The Chromium binary of the end-to-end suite and the client benchmark, in one place.
 *
 * - `CHROMIUM_PATH` set: that binary, as it is (any Chrome or Chromium).
 * - Otherwise the pinned Chromium that the devDependency `@sparticuz/chromium` ships inside its npm
 *   tarball (Linux x64/arm64, headless shell, brotli-compressed). It is unpacked once, on first
 *   use, into `.cache/chromium/<package version>/` (the binary `chromium` with its SwiftShader
 *   libraries beside it and a `fonts/` folder, about 210 MB) and reused afterwards. The package
 *   unpacks into `os.tmpdir()`, so the unpacking runs in a child process whose TMPDIR is a fresh
 *   staging folder, which is then renamed into place: concurrent first uses never see half a
 *   binary, and one version never picks up another's files.
 * - Neither: {@link findChromium} throws one line naming `CHROMIUM_PATH`.
 *
 * Runs under Node >= 22.19 (the package itself wants Node ^22.17).
 *
 * @module tools/chromium
 */
import { spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import puppeteer, { type Browser, type LaunchOptions } from 'puppeteer-core'

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..')
/** The npm package that ships the pinned Chromium. */
export const CHROMIUM_PACKAGE = '@sparticuz/chromium'
/** Platforms whose binary {@link CHROMIUM_PACKAGE} carries. */
const PACKAGED_PLATFORMS = new Set(['linux-x64', 'linux-arm64'])

/**
 * Flags of every launch: no sandbox (containers and root), no GPU, no network chatter, fixed
 * window, English UI. Pages that want Chinese say so themselves (`navigator.language`).
 */
export const CHROMIUM_FLAGS: readonly string[] = [
  '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
  '--disable-component-update', '--disable-sync', '--window-size=1400,900', '--lang=en-US',
]

/** Where a binary came from. */
export interface ChromiumBinary {
  /** Absolute path of the executable. */
  readonly path: string
  /** `CHROMIUM_PATH` or `@sparticuz/chromium <version>`. */
  readonly source: string
}

/** Version of the installed {@link CHROMIUM_PACKAGE}, or undefined when it is not installed. */
function packageVersion(): string | undefined {
  try {
    // The package exports no ./package.json: its manifest is found from its entry (build/index.js).
    const entry = createRequire(join(ROOT, 'package.json')).resolve(CHROMIUM_PACKAGE)
    return (JSON.parse(readFileSync(join(dirname(entry), '..', 'package.json'), 'utf8')) as { version: string }).version
  } catch {
    return undefined
  }
}

/** Unpack the packaged Chromium into `.cache/chromium/<version>` (once); returns the binary's path. */
function unpackPackaged(version: string, log: (line: string) => void): string {
  const cache = join(ROOT, '.cache', 'chromium')
  const final = join(cache, version)
  const bin = join(final, 'chromium')
  if (existsSync(bin)) return bin
  mkdirSync(cache, { recursive: true })
  const staging = mkdtempSync(join(cache, `.unpack-${version}-`))
  log(`unpacking ${CHROMIUM_PACKAGE} ${version} into .cache/chromium/${version} (once)`)
  try {
    // `executablePath()` inflates chromium.br, fonts.tar.br and swiftshader.tar.br into os.tmpdir().
    const script = `import(${JSON.stringify(CHROMIUM_PACKAGE)}).then(async (m) => { await m.default.executablePath() })`
    const r = spawnSync(process.execPath, ['--input-type=module', '-e', script], {
      cwd: ROOT, env: { ...process.env, TMPDIR: staging, TMP: staging, TEMP: staging }, encoding: 'utf8',
    })
    if (r.status !== 0 || !existsSync(join(staging, 'chromium'))) {
      throw new Error(`could not unpack ${CHROMIUM_PACKAGE} ${version} (exit ${r.status ?? r.signal}): ${(r.stderr || r.stdout).trim().split('\n').at(-1)}; set CHROMIUM_PATH to a Chrome or Chromium binary`)
    }
    try {
      renameSync(staging, final)
    } catch (error) {
      // Another process finished first: use its copy.
      if (!existsSync(bin)) throw error
    }
  } finally {
    rmSync(staging, { recursive: true, force: true })
  }
  return bin
}

/**
 * The Chromium to drive: `CHROMIUM_PATH` when set, else the pinned packaged one (unpacked on
 * first use, which takes a few seconds and prints one line through `log`).
 * @throws Error (one line naming `CHROMIUM_PATH`) when `CHROMIUM_PATH` names no file, or when no
 *   packaged binary exists for this platform or it cannot be unpacked.
 */
export function findChromium(log: (line: string) => void = (l) => process.stderr.write(`${l}\n`)): ChromiumBinary {
  const override = process.env.CHROMIUM_PATH
  if (override) {
    if (!existsSync(override)) throw new Error(`CHROMIUM_PATH is set to ${override}, which does not exist; point it at a Chrome or Chromium binary`)
    return { path: resolve(override), source: 'CHROMIUM_PATH' }
  }
  const platform = `${process.platform}-${process.arch}`
  const version = packageVersion()
  if (!version) throw new Error(`no Chromium: ${CHROMIUM_PACKAGE} is not installed (run npm install), and CHROMIUM_PATH is not set`)
  if (!PACKAGED_PLATFORMS.has(platform)) {
    throw new Error(`no Chromium for ${platform}: ${CHROMIUM_PACKAGE} ships Linux x64/arm64 only; set CHROMIUM_PATH to a Chrome or Chromium binary`)
  }
  return { path: unpackPackaged(version, log), source: `${CHROMIUM_PACKAGE} ${version}` }
}

/** A launched browser with what it is. */
export interface LaunchedChromium {
  readonly browser: Browser
  readonly binary: ChromiumBinary
  /** `browser.version()`, e.g. `HeadlessChrome/153.0.8010.0`. */
  readonly version: string
}

/**
 * Launch headless Chromium ({@link findChromium}) with {@link CHROMIUM_FLAGS} plus `options.args`.
 * LANG is set to en_US.UTF-8 for the browser process, so `navigator.language` is `en-US` whatever
 * the machine's locale (a C/POSIX locale would make it `en-US@posix`).
 * @param options puppeteer launch options (executablePath, headless and env are set here)
 * @throws Error from {@link findChromium}, or puppeteer's launch error
 */
export async function launchChromium(options: LaunchOptions = {}, log?: (line: string) => void): Promise<LaunchedChromium> {
  const binary = findChromium(log)
  const browser = await puppeteer.launch({
    ...options,
    executablePath: binary.path,
    headless: true,
    env: { ...process.env, LANG: 'en_US.UTF-8' },
    args: [...CHROMIUM_FLAGS, ...(options.args ?? [])],
  })
  return { browser, binary, version: await browser.version() }
}
