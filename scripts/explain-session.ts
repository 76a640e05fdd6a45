/**
 * `explain-session`: the `explain` command of `dsh-message-recall-log` as a script of its own
 * (`node lib/scripts/explain-session.js`). Read-only.
 *
 * @module dsh-message-recall/scripts/explain-session
 */
import { explainCommand } from './commands/explain'
import { runCommand } from './support/command'

runCommand(explainCommand, 'node lib/scripts/explain-session.js', process.argv.slice(2))
