/**
 * The check that a sessions root (or a DSH home) is a readable folder, naming where a defaulted
 * one came from. Node only (file system).
 *
 * @module dsh-message-recall/scripts/support/sessions-root
 */
import { stat } from 'node:fs/promises'
import { SessionLogInputError } from '../../src/log/log-file'
import { DSH_HOME_RULE, SESSIONS_ROOT_RULE } from '../../src/log/session-roots'

/**
 * Check that the sessions root is a readable folder, naming where a defaulted root came from.
 * @param root - from {@link parseRootTarget}.
 * @param defaulted - `true` when the root was not given.
 * @throws SessionLogInputError when it is not a readable folder (one line, exit code 2).
 */
export async function assertRoot(root: string, defaulted: boolean): Promise<void> {
  try {
    await assertFolder(root)
  } catch (error) {
    if (!defaulted || !(error instanceof SessionLogInputError)) throw error
    throw new SessionLogInputError(`no sessions root given, and the default ${root} (${SESSIONS_ROOT_RULE}) is not a readable folder: ${error.message}`, error.code)
  }
}

/**
 * Check that a DSH home (`scan --text`) is a readable folder, naming where a defaulted home came from.
 * @param home - the given home, or the folder above the default sessions root.
 * @param defaulted - `true` when the home was not given.
 * @throws SessionLogInputError when it is not a readable folder (one line, exit code 2):
 *   `no such file or folder: <home>`, `<home> is not a folder`, or for a defaulted home
 *   `no DSH home given, and the default <home> ($DSH_HOME, or ~/.dsh when DSH_HOME is unset) is not a readable folder: …`.
 */
export async function assertHome(home: string, defaulted: boolean): Promise<void> {
  try {
    await assertFolder(home)
  } catch (error) {
    if (!defaulted || !(error instanceof SessionLogInputError)) throw error
    throw new SessionLogInputError(`no DSH home given, and the default ${home} (${DSH_HOME_RULE}) is not a readable folder: ${error.message}`, error.code)
  }
}

/**
 * Check that `root` is a readable folder.
 * @throws SessionLogInputError `not-found` when nothing is there (`no such file or folder: <root>`,
 *   the words the single-log commands use), `not-a-log` when it is not a folder, `unreadable`
 *   when the file system refuses.
 */
export async function assertFolder(root: string): Promise<void> {
  let isDirectory: boolean
  try {
    isDirectory = (await stat(root)).isDirectory()
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    if (code === 'ENOENT' || code === 'ENOTDIR') throw new SessionLogInputError(`no such file or folder: ${root}`, 'not-found')
    throw new SessionLogInputError(`cannot read ${root}: ${(error as Error).message}`, 'unreadable')
  }
  if (!isDirectory) throw new SessionLogInputError(`${root} is not a folder`, 'not-a-log')
}
