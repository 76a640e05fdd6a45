/**
 * `scan-replace`: the `scan` command of `dsh-message-recall-log` as a script of its own
 * (`node lib/scripts/scan-replace.js`). Read-only.
 *
 * @module dsh-message-recall/scripts/scan-replace
 */
import { scanCommand } from './commands/scan'
import { runCommand } from './support/command'

runCommand(scanCommand, 'node lib/scripts/scan-replace.js', process.argv.slice(2))
