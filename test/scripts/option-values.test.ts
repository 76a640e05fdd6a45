/**
 * The options that take a number (`--hours` of `list` and `scan`, `--limit` of `list`) refuse
 * zero, negatives, words, `Infinity`, exponents and a missing value with one line naming the
 * option and what it expects, exit code 2 and nothing on stdout, whether the value follows as
 * the next argument (`--hours -5`, which `node:util` `parseArgs` alone calls ambiguous) or after
 * `=`; as scripts and as subcommands of `dsh-message-recall-log`. Good values still work.
 */
import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { after, before, describe, it } from 'node:test'
import { fileURLToPath } from 'node:url'
import { syntheticTurns } from '../support/conversation'
import { writeConversation } from './support/real-logs'

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '../..')
const scratch = mkdtempSync(join(tmpdir(), 'mr-option-values-'))
after(() => rmSync(scratch, { recursive: true, force: true }))
const root = join(scratch, 'sessions')

/** The folder of session-a. */
let session = ''

before(async () => {
  session = (await writeConversation({ root, id: 'session-a', turns: syntheticTurns(1) })).dir
  await writeConversation({ root, id: 'session-b', turns: syntheticTurns(1) })
})

function run(file: string, args: readonly string[]): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [join(repo, 'lib/scripts', `${file}.js`), ...args], { encoding: 'utf8' })
  return { status: r.status, stdout: r.stdout, stderr: r.stderr }
}

/** Each way to run a command: its script, and the subcommand of the one command. */
const ways = (script: string, command: string) => [
  { label: script, run: (args: readonly string[]) => run(script, args) },
  { label: `dsh-message-recall-log ${command}`, run: (args: readonly string[]) => run('dsh-message-recall-log', [command, ...args]) },
]

const HOURS = 'a positive number of hours'
const LIMIT = 'a positive whole number of sessions'
/** Values refused by both, as given and as the message quotes them. */
const refused = ['-5', '0', '0.0', '-0.5', 'abc', 'Infinity', '-Infinity', 'NaN', '1e3', '0x10', '', ' 5', '5h']

const options = [
  { script: 'list-sessions', command: 'list', option: 'hours', expects: HOURS, good: ['24', '0.5', '.5', '1000000'], bad: refused },
  { script: 'scan-replace', command: 'scan', option: 'hours', expects: HOURS, good: ['24', '0.5'], bad: refused },
  { script: 'list-sessions', command: 'list', option: 'limit', expects: LIMIT, good: ['1', '30'], bad: [...refused, '1.5', '2.0', '99999999999999999999'] },
] as const

for (const { script, command, option, expects, good, bad } of options) {
  for (const way of ways(script, command)) {
    describe(`${way.label} --${option}`, () => {
      it('refuses a bad value after a space and after =, with the same one line and exit code 2', () => {
        for (const value of bad) {
          const line = `--${option} expects ${expects}, got ${JSON.stringify(value)}\n`
          for (const args of [[`--${option}`, value, '--quiet', root], [`--${option}=${value}`, '--quiet', root]]) {
            const r = way.run(args)
            assert.deepEqual([r.status, r.stderr, r.stdout], [2, line, ''], `${args.join(' ')}`)
          }
        }
      })

      it('refuses a missing value: at the end, or when another option follows', () => {
        const line = `--${option} expects ${expects}, got nothing\n`
        for (const args of [[root, `--${option}`], [`--${option}`, '--quiet', root], [`--${option}`, '-h', root]]) {
          const r = way.run(args)
          assert.deepEqual([r.status, r.stderr, r.stdout], [2, line, ''], `${args.join(' ')}`)
        }
      })

      it('takes a good value', () => {
        for (const value of good) {
          const r = way.run([`--${option}`, value, '--quiet', '--json', root])
          assert.equal(r.status, 0, r.stderr)
          const doc = JSON.parse(r.stdout) as { sessions?: unknown[]; scanned?: number }
          assert.equal(doc.sessions?.length ?? doc.scanned, option === 'limit' ? Math.min(2, Number(value)) : 2)
        }
      })
    })
  }
}

describe('a value that starts with a dash after a non-numeric option', () => {
  it('is that option\'s value, not an ambiguous option', () => {
    const r = run('list-sessions', ['--decoder', '-5', '--quiet', root])
    assert.deepEqual([r.status, r.stderr], [2, '--decoder expects a decoder name (one of auto, zlib, zlib-oneshot, zstd-cli, fzstd), got "-5"\n'])
    const explain = run('explain-session', ['--decoder', '--json', root])
    assert.deepEqual([explain.status, explain.stderr], [2, '--decoder expects a decoder name (one of auto, zlib, zlib-oneshot, zstd-cli, fzstd), got nothing\n'])
  })

  it('leaves arguments after -- alone', () => {
    const r = run('list-sessions', ['--quiet', '--', '--hours'])
    assert.equal(r.status, 2)
    assert.deepEqual([r.status, r.stderr, r.stdout], [2, 'no such file or folder: --hours\n', ''])
  })
})

/** Every command, as its script and as a subcommand, with the line that names it. */
const commands = [
  ['read-session-log', 'read'],
  ['verify-decoder', 'verify'],
  ['explain-session', 'explain'],
  ['list-sessions', 'list'],
  ['scan-replace', 'scan'],
].flatMap(([script, command]) => [
  { label: script!, command: command!, named: `node lib/scripts/${script}.js`, run: (args: readonly string[]) => run(script!, args) },
  { label: `dsh-message-recall-log ${command}`, command: command!, named: `dsh-message-recall-log ${command}`, run: (args: readonly string[]) => run('dsh-message-recall-log', [command!, ...args]) },
])

describe('an unknown option, a value on a switch, a missing path', () => {
  for (const way of commands) {
    it(`${way.label}: one line naming the command, exit code 2, no usage`, () => {
      const path = way.command === 'list' || way.command === 'scan' ? root : session
      const cases: [readonly string[], string][] = [
        [[path, '--bogus'], `${way.named}: unknown option --bogus; see --help\n`],
        [['--bogus=1', path], `${way.named}: unknown option --bogus; see --help\n`],
        [['-x', path], `${way.named}: unknown option -x; see --help\n`],
        [['-hx', path], `${way.named}: unknown option -x; see --help\n`],
        [['--json=yes', path], `${way.named}: --json takes no value, got "yes"; see --help\n`],
        [[join(scratch, 'nonexistent')], `no such file or folder: ${join(scratch, 'nonexistent')}\n`],
      ]
      // An option another command has is unknown here.
      if (way.command !== 'list') cases.push([[path, '--limit', '1'], `${way.named}: unknown option --limit; see --help\n`])
      for (const [args, line] of cases) {
        const r = way.run(args)
        assert.deepEqual([r.status, r.stderr, r.stdout], [2, line, ''], args.join(' '))
      }
    })
  }

  it('a sessions root that is a file is one line too', () => {
    const file = join(scratch, 'a-file')
    writeFileSync(file, 'x')
    for (const way of commands.filter((w) => w.command === 'list' || w.command === 'scan')) {
      const r = way.run([file])
      assert.deepEqual([r.status, r.stderr, r.stdout], [2, `${file} is not a folder\n`, ''], way.label)
    }
  })
})
