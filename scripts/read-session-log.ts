/**
 * `read-session-log`: the `read` command of `dsh-message-recall-log` as a script of its own
 * (`node lib/scripts/read-session-log.js`). Read-only.
 *
 * @module dsh-message-recall/scripts/read-session-log
 */
import { readCommand } from './commands/read'
import { runCommand } from './support/command'

runCommand(readCommand, 'node lib/scripts/read-session-log.js', process.argv.slice(2))
