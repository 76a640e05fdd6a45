/**
 * `npm start` (tools/start.ts) refuses a bad `--port`, an unknown option and a value on a switch
 * with one line and exit code 2, before it installs or starts anything; `--help` prints the usage.
 */
import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import { join } from 'node:path'
import { describe, it } from 'node:test'
import { PROJECT_ROOT } from '../../tools/dsh-host'

const START = join(PROJECT_ROOT, 'tools', 'start.ts')

function start(args: readonly string[]): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, ['--import', 'tsx', START, ...args], { cwd: PROJECT_ROOT, encoding: 'utf8', timeout: 60_000 })
  return { status: r.status, stdout: r.stdout, stderr: r.stderr }
}

describe('npm start options', () => {
  it('refuses a port that is not a whole number 0–65535 with one line, after a space and after =', () => {
    for (const value of ['-1', '65536', '1.5', 'abc', '', '0x10', '1e3', ' 80', '99999999']) {
      const line = `npm start: --port expects a port number 0–65535, got ${JSON.stringify(value)}\n`
      for (const args of [['--port', value], [`--port=${value}`]]) {
        const r = start(args)
        assert.deepEqual([r.status, r.stderr, r.stdout], [2, line, ''], args.join(' '))
      }
    }
  })

  it('refuses a missing port value, at the end or before another option', () => {
    for (const args of [['--port'], ['--port', '--seed']]) {
      const r = start(args)
      assert.deepEqual([r.status, r.stderr, r.stdout], [2, 'npm start: --port expects a port number 0–65535, got nothing\n', ''], args.join(' '))
    }
  })

  it('refuses an unknown option and a value on a switch with one line', () => {
    const cases: [string[], string][] = [
      [['--bogus'], 'npm start: unknown option --bogus; see --help\n'],
      [['--port', '0', '-x'], 'npm start: unknown option -x; see --help\n'],
      [['--seed=yes'], 'npm start: --seed takes no value, got "yes"; see --help\n'],
    ]
    for (const [args, line] of cases) {
      const r = start(args)
      assert.deepEqual([r.status, r.stderr, r.stdout], [2, line, ''], args.join(' '))
    }
  })

  it('prints the usage for --help and exits 0', () => {
    const r = start(['--help'])
    assert.deepEqual([r.status, r.stderr], [0, ''])
    assert.match(r.stdout, /^usage: npm start -- \[options\]\n\n {2}--port N {10}port of the web UI on 127\.0\.0\.1 \(default 3080; 0 picks a free one\)\n/)
  })
})
