/**
 * What the pending-erase tests share: a temporary DSH home the plugin reads through the process's
 * `DSH_HOME` (set in `before`, put back in `after`), its pending-erase file, and the built log
 * tool's `scan --text` over a folder.
 */
import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

/** The built log tool (`lib/scripts/dsh-message-recall-log.js`). */
export const LOG_TOOL = join(import.meta.dirname, '..', '..', 'lib', 'scripts', 'dsh-message-recall-log.js')

/**
 * The built log tool's `scan --text` on a folder (zstd logs decoded, DSH's tool output folders
 * searched too).
 * @param folder - a DSH home or a persistence root.
 * @param text - the text looked for.
 * @returns the paths of the files holding it (fails the test when the tool exits with an error).
 */
export function scanHits(folder: string, text: string): string[] {
  const run = spawnSync(process.execPath, [LOG_TOOL, 'scan', folder, '--text', text, '--json'], { encoding: 'utf8' })
  assert.equal(run.status === 0 || run.status === 1, true, run.stdout + run.stderr)
  return JSON.parse(run.stdout).hits.map((h: { path: string }) => h.path)
}

/** A temporary DSH home for one test file. */
export interface PendingEraseHome {
  /** The home folder (`mkdtemp` under the system's temporary folder). */
  readonly home: string
  /** `<home>/message-recall/pending-erases.json`. */
  readonly pendingFile: string
  /** The pending erases on disk (`[]` when the file does not exist). */
  pendingOnDisk(): any[]
  /** Point `process.env.DSH_HOME` at the home (the plugin reads it when the launch environment has none). */
  enter(): void
  /** Put `DSH_HOME` back as it was and delete the home. */
  leave(): void
}

/**
 * Make a temporary DSH home.
 * @param prefix - the folder name's prefix.
 * @returns the home, its pending-erase file, and `enter` / `leave` for `before` / `after`.
 */
export function pendingEraseHome(prefix: string): PendingEraseHome {
  const home = mkdtempSync(join(tmpdir(), prefix))
  const pendingFile = join(home, 'message-recall', 'pending-erases.json')
  const previous = process.env.DSH_HOME
  return {
    home,
    pendingFile,
    pendingOnDisk: () => (existsSync(pendingFile) ? JSON.parse(readFileSync(pendingFile, 'utf8')).erases : []),
    enter: () => { process.env.DSH_HOME = home },
    leave: () => {
      rmSync(home, { recursive: true, force: true })
      if (previous === undefined) delete process.env.DSH_HOME
      else process.env.DSH_HOME = previous
    },
  }
}
