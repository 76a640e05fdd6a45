/**
 * The one command, `dsh-message-recall-log`: packed with `npm pack`, installed from the tarball
 * into an empty folder, and run there with `npx`, its subcommands print exactly what the scripts
 * in `lib/scripts/` print, with the same exit codes. Progress lines appear on stderr when it is a
 * terminal (a pseudo-terminal from util-linux `script`) and never in a pipe.
 */
import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { delimiter, dirname, join, resolve } from 'node:path'
import { after, before, describe, it } from 'node:test'
import { fileURLToPath } from 'node:url'
import { syntheticTurns } from '../support/conversation'
import { writeConversation, type WrittenLog } from './support/real-logs'

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '../..')
const scratch = mkdtempSync(join(tmpdir(), 'mr-command-'))
after(() => rmSync(scratch, { recursive: true, force: true }))

interface Run {
  readonly status: number | null
  readonly stdout: string
  readonly stderr: string
}

/** This test's Node first on PATH, so the bin's `#!/usr/bin/env node` runs the same Node as the scripts. */
const env = { ...process.env, PATH: `${dirname(process.execPath)}${delimiter}${process.env.PATH ?? ''}` }

function run(command: string, args: readonly string[], cwd: string): Run {
  const r = spawnSync(command, [...args], { cwd, env, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 })
  if (r.error) throw r.error
  return { status: r.status, stdout: r.stdout, stderr: r.stderr }
}

const script = (name: string, args: readonly string[]) => run(process.execPath, [join(repo, 'lib/scripts', `${name}.js`), ...args], repo)

/** `script` from util-linux, which runs a command on a pseudo-terminal; `null` when missing. */
const ptyRunner = spawnSync('script', ['--version'], { encoding: 'utf8' }).status === 0 ? 'script' : null

/** Run a shell command line with stderr (and stdout, unless redirected) on a pseudo-terminal; returns what the terminal showed. */
function onTerminal(commandLine: string): Run {
  return run(ptyRunner!, ['-q', '-e', '-c', commandLine, '/dev/null'], repo)
}

const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`

let log: WrittenLog
let installed: string

before(async () => {
  log = await writeConversation({
    root: join(scratch, 'sessions'),
    turns: syntheticTurns(3, { toolSteps: 1, toolsPerStep: 1, textChars: 200 }),
    removals: [{ action: 'delete', target: (session) => ({ seq: session.events.findLast((e) => e.type === 'user/message')!.seq }) }],
  })
  // Pack the checkout and install the tarball into an empty project, without the network: the
  // one dependency comes from this checkout's install, peers are not installed.
  const pack = join(scratch, 'pack')
  mkdirSync(pack)
  const packed = run('npm', ['pack', '--silent', '--pack-destination', pack], repo)
  assert.equal(packed.status, 0, packed.stderr)
  tarball = join(pack, packed.stdout.trim().split('\n').at(-1)!)
  installed = join(scratch, 'project')
  mkdirSync(installed)
  writeFileSync(join(installed, 'package.json'), JSON.stringify({ name: 'uses-the-log-tools', private: true }))
  const schemastery = join(repo, 'node_modules', '@deepseek-ai', 'schemastery')
  const install = run('npm', ['install', '--offline', '--legacy-peer-deps', '--no-audit', '--no-fund', tarball, schemastery], installed)
  assert.equal(install.status, 0, install.stderr)
})

/** The packed tarball. */
let tarball = ''

const npx = (args: readonly string[]) => run('npx', ['--offline', '--no-install', 'dsh-message-recall-log', ...args], installed)

describe('dsh-message-recall-log from a packed tarball', () => {
  it('is the package bin, and the tarball ships the built tools', () => {
    const manifest = JSON.parse(readFileSync(join(installed, 'node_modules', 'dsh-message-recall', 'package.json'), 'utf8'))
    assert.deepEqual(manifest.bin, { 'dsh-message-recall-log': './lib/scripts/dsh-message-recall-log.js' })
  })

  it('ships every file the README links to', () => {
    const listed = run('tar', ['-tzf', tarball], scratch)
    assert.equal(listed.status, 0, listed.stderr)
    const files = new Set(listed.stdout.trim().split('\n').map((entry) => entry.replace(/^package\//, '')))
    const readme = readFileSync(join(installed, 'node_modules', 'dsh-message-recall', 'README.md'), 'utf8')
    // Markdown links and images, `[text](target)` and `![alt](target)`: those without a scheme and
    // not only a fragment point into the package.
    const targets = [...new Set([...readme.matchAll(/\]\(([^)\s]+)\)/g)].map((m) => m[1]!.split('#')[0]!).filter((t) => t !== '' && !/^[a-z][a-z0-9+.-]*:/i.test(t)))]
    assert.ok(targets.includes('docs/http-api.md') && targets.includes('docs/hover-cluster.png'), targets.join(', '))
    assert.deepEqual(targets.filter((t) => !files.has(t)), [], `shipped: ${[...files].sort().join(', ')}`)
  })

  const cases: readonly [string, string, (l: WrittenLog) => string[]][] = [
    ['explain', 'explain-session', (l) => [l.dir]],
    ['explain', 'explain-session', (l) => ['--json', '--rows', l.path]],
    ['read', 'read-session-log', (l) => [l.dir]],
    ['read', 'read-session-log', (l) => ['--frames', l.path]],
    ['verify', 'verify-decoder', (l) => ['--json', l.path]],
    ['list', 'list-sessions', (l) => ['--json', l.root]],
    ['scan', 'scan-replace', (l) => [l.root]],
  ]
  for (const [command, name, args] of cases) {
    it(`${command} prints what ${name} prints, with its exit code`, () => {
      const viaBin = npx([command, ...args(log)])
      const viaScript = script(name, args(log))
      assert.equal(viaBin.status, viaScript.status, viaBin.stderr)
      assert.equal(viaBin.stdout, viaScript.stdout)
      assert.equal(viaBin.stderr, viaScript.stderr)
      assert.ok(viaBin.stdout.length > 0)
    })
  }

  it('explain of the session folder shows the tombstone the delete wrote', () => {
    const r = npx(['explain', log.dir])
    assert.equal(r.status, 0, r.stderr)
    assert.match(r.stdout, new RegExp(`^tombstone seq ${log.tombstones[0]!.seq} · delete · `, 'm'))
  })

  for (const command of ['read', 'verify', 'explain', 'list', 'scan', 'erase']) {
    it(`${command} --help prints its usage under the command's name and exits 0`, () => {
      const r = npx([command, '--help'])
      assert.equal(r.status, 0)
      assert.match(r.stdout, new RegExp(`^Usage: dsh-message-recall-log ${command} `))
      assert.equal(r.stderr, '')
    })
  }

  it('lists the commands with --help, and refuses a missing or unknown command with exit 2', () => {
    const help = npx(['--help'])
    assert.equal(help.status, 0)
    assert.match(help.stdout, /^Usage: dsh-message-recall-log <command> \[arguments\] \[options\]\n/)
    for (const command of ['read', 'verify', 'explain', 'list', 'scan', 'erase']) assert.match(help.stdout, new RegExp(`^  ${command} `, 'm'))
    const unknown = npx(['show', log.dir])
    assert.equal(unknown.status, 2)
    assert.equal(unknown.stdout, '')
    assert.ok(unknown.stderr.startsWith('unknown command "show" (one of read, verify, explain, list, scan, erase)\n\nUsage: dsh-message-recall-log <command>'), unknown.stderr)
    const missing = npx([])
    assert.equal(missing.status, 2)
    assert.ok(missing.stderr.startsWith('missing command\n\nUsage: '), missing.stderr)
  })

  it('a bad option of a command gives exit 2 and one line naming that command; a missing path gives its usage', () => {
    const r = npx(['read', '--bogus', log.path])
    assert.deepEqual([r.status, r.stderr, r.stdout], [2, 'dsh-message-recall-log read: unknown option --bogus; see --help\n', ''])
    const missing = npx(['read'])
    assert.equal(missing.status, 2)
    assert.ok(missing.stderr.startsWith('missing the log file or session folder\n\nUsage: dsh-message-recall-log read <log file | session folder> [options]\n'), missing.stderr)
  })
})

describe('progress on stderr', () => {
  /** A plain JSONL log of more than 50 MB (the size from which read and verify show progress). */
  let large: string
  before(() => {
    large = join(scratch, 'large', 'session.jsonl')
    mkdirSync(dirname(large), { recursive: true })
    const text = 'x'.repeat(500)
    const lines = [JSON.stringify({ type: 'session', version: 0, id: 'session-large', createdAt: 1_700_000_000_000, cwd: '/large' })]
    for (let seq = 0; seq < 110_000; seq++) lines.push(JSON.stringify({ type: 'session/title', seq, time: 1_700_000_000_000 + seq, data: { title: text } }))
    writeFileSync(large, lines.join('\n') + '\n')
  })

  it('list over a root shows logs done / total and MB/s on a terminal, and erases the line', (t) => {
    if (ptyRunner === null) return t.skip('no util-linux script command here to make a pseudo-terminal')
    const r = onTerminal(`${quote(process.execPath)} ${quote(join(repo, 'lib/scripts/list-sessions.js'))} ${quote(log.root)} > /dev/null`)
    assert.equal(r.status, 0, r.stdout)
    assert.match(r.stdout, /^\r\x1b\[Klist: 1\/1 log, \d+\.\d MB, \d+\.\d MB\/s\r\x1b\[K$/)
  })

  it('read of a file over 50 MB shows MB read / total and MB/s on a terminal', (t) => {
    if (ptyRunner === null) return t.skip('no util-linux script command here to make a pseudo-terminal')
    const r = onTerminal(`${quote(process.execPath)} ${quote(join(repo, 'lib/scripts/dsh-message-recall-log.js'))} read ${quote(large)} > /dev/null`)
    assert.equal(r.status, 0, r.stdout)
    const total = (statSync(large).size / 1e6).toFixed(1)
    assert.ok(statSync(large).size > 50 * 1024 * 1024)
    assert.match(r.stdout, new RegExp(`^\\r\\x1b\\[Kread: \\d+\\.\\d/${total} MB, \\d+\\.\\d MB/s`))
    assert.ok(r.stdout.includes(`\r\x1b[Kread: ${total}/${total} MB, `), 'the last update is the whole file')
    assert.ok(r.stdout.endsWith('\r\x1b[K'), JSON.stringify(r.stdout.slice(-40)))
  })

  it('verify of a file over 50 MB shows progress on a terminal too', (t) => {
    if (ptyRunner === null) return t.skip('no util-linux script command here to make a pseudo-terminal')
    const r = onTerminal(`${quote(process.execPath)} ${quote(join(repo, 'lib/scripts/verify-decoder.js'))} ${quote(large)} > /dev/null`)
    assert.equal(r.status, 0, r.stdout)
    const total = (statSync(large).size / 1e6).toFixed(1)
    assert.match(r.stdout, new RegExp(`^\\r\\x1b\\[Kverify: \\d+\\.\\d/${total} MB, \\d+\\.\\d MB/s`))
    assert.ok(r.stdout.endsWith(`\r\x1b[Kverify: ${total}/${total} MB, ${/([\d.]+) MB\/s\r\x1b\[K$/.exec(r.stdout)?.[1]} MB/s\r\x1b[K`), JSON.stringify(r.stdout.slice(-60)))
  })

  it('never shows progress when stderr is not a terminal', () => {
    for (const [name, args] of [
      ['read-session-log', [large]],
      ['verify-decoder', [large]],
      ['list-sessions', [log.root]],
      ['scan-replace', [log.root]],
    ] as const) {
      const r = script(name, args)
      assert.equal(r.status, 0, `${name}: ${r.stderr}`)
      assert.equal(r.stderr, '', `${name} wrote to stderr`)
    }
  })

  it('shows none for a small file, nor with --quiet over a root', (t) => {
    if (ptyRunner === null) return t.skip('no util-linux script command here to make a pseudo-terminal')
    const small = onTerminal(`${quote(process.execPath)} ${quote(join(repo, 'lib/scripts/read-session-log.js'))} ${quote(log.path)} > /dev/null`)
    assert.equal(small.status, 0)
    assert.equal(small.stdout, '')
    const quiet = onTerminal(`${quote(process.execPath)} ${quote(join(repo, 'lib/scripts/scan-replace.js'))} --quiet ${quote(log.root)} > /dev/null`)
    assert.equal(quiet.status, 0)
    assert.equal(quiet.stdout, '')
  })
})
