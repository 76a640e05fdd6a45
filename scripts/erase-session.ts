/**
 * `erase-session`: the `erase` command of `dsh-message-recall-log` as a script of its own
 * (`node lib/scripts/erase-session.js`). Writes: erases one removal of a stored session for good.
 *
 * @module dsh-message-recall/scripts/erase-session
 */
import { eraseCommand } from './commands/erase'
import { runCommand } from './support/command'

runCommand(eraseCommand, 'node lib/scripts/erase-session.js', process.argv.slice(2))
