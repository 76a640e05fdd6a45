/**
 * `verify-decoder`: the `verify` command of `dsh-message-recall-log` as a script of its own
 * (`node lib/scripts/verify-decoder.js`). Read-only.
 *
 * @module dsh-message-recall/scripts/verify-decoder
 */
import { verifyCommand } from './commands/verify'
import { runCommand } from './support/command'

runCommand(verifyCommand, 'node lib/scripts/verify-decoder.js', process.argv.slice(2))
