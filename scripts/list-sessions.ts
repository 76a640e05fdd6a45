/**
 * `list-sessions`: the `list` command of `dsh-message-recall-log` as a script of its own
 * (`node lib/scripts/list-sessions.js`). Read-only.
 *
 * @module dsh-message-recall/scripts/list-sessions
 */
import { listCommand } from './commands/list'
import { runCommand } from './support/command'

runCommand(listCommand, 'node lib/scripts/list-sessions.js', process.argv.slice(2))
