/**
 * `dsh-message-recall-log`: the log tools as one command with six subcommands (`read`, `verify`,
 * `explain`, `list`, `scan`, all read-only, and `erase`), each with the options and exit codes of its
 * script in `lib/scripts/`. Installed as the package's `bin`, so
 * `npx dsh-message-recall-log explain <session folder>` runs it.
 *
 * @module dsh-message-recall/scripts/dsh-message-recall-log
 */
import { explainCommand } from './commands/explain'
import { listCommand } from './commands/list'
import { readCommand } from './commands/read'
import { scanCommand } from './commands/scan'
import { verifyCommand } from './commands/verify'
import { eraseCommand } from './commands/erase'
import { EXIT, type LogCommand, runCommand, runMain } from './support/command'
import { out } from './support/output'
import { UsageError } from './support/usage-errors'

const BIN = 'dsh-message-recall-log'
const COMMANDS: readonly LogCommand[] = [readCommand, verifyCommand, explainCommand, listCommand, scanCommand, eraseCommand]

const USAGE = `Usage: ${BIN} <command> [arguments] [options]

Tools for DSH session logs (session.jsonl.zstd or session.jsonl). All of them only read, but
erase, which erases one removal for good (stop the host first).

Commands:
${COMMANDS.map((c) => `  ${c.name.padEnd(9)} ${c.summary}`).join('\n')}

Run ${BIN} <command> --help for its arguments and options. Each command is also a script of
its own: ${COMMANDS.map((c) => `${c.script}.js`).join(', ')} in lib/scripts/.

Exit codes: 0 nothing wrong; 1 the tool ran and found a problem; 2 bad usage or unreadable input.
`

const [name, ...rest] = process.argv.slice(2)
const command = COMMANDS.find((c) => c.name === name)
if (command !== undefined) {
  runCommand(command, `${BIN} ${command.name}`, rest)
} else {
  runMain(USAGE, async () => {
    if (name === '-h' || name === '--help' || name === 'help') {
      await out(USAGE)
      return EXIT.ok
    }
    throw new UsageError(name === undefined ? 'missing command' : `unknown command "${name}" (one of ${COMMANDS.map((c) => c.name).join(', ')})`)
  })
}
