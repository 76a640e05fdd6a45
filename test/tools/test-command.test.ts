/**
 * The test command (tools/test.ts) always ends: a file that does not finish within its time
 * limit, or that finishes and leaves a process running, is reported as failed with its name and
 * the processes it left (which are then killed), and the run goes on to the next file and ends
 * with the totals line. Runs the command on two fixture files with a 4 s limit.
 */
import assert from 'node:assert/strict'
import { spawn } from 'node:child_process'
import { join } from 'node:path'
import { describe, it } from 'node:test'
import { PROJECT_ROOT } from '../../tools/dsh-host'
import { alive, gone } from './processes'

const HANGS = 'test/tools/fixtures/hangs.fixture.ts'
const LEAVES = 'test/tools/fixtures/leaves.fixture.ts'

describe('the test command', () => {
  it('reports a file that hangs and a file that leaves a process, kills what they left, and ends', { timeout: 60_000 }, async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', join(PROJECT_ROOT, 'tools', 'test.ts'), '--file-timeout=4', HANGS, LEAVES], {
      cwd: PROJECT_ROOT, stdio: ['ignore', 'pipe', 'pipe'],
    })
    let stdout = ''
    let stderr = ''
    child.stdout.setEncoding('utf8').on('data', (c: string) => { stdout += c })
    child.stderr.setEncoding('utf8').on('data', (c: string) => { stderr += c })
    const code = await new Promise<number | null>((ok) => child.once('close', ok))
    const left = [...stdout.matchAll(/^left (\d+)$/gm)].map((m) => Number(m[1]))
    try {
      assert.equal(code, 1, stdout + stderr)
      assert.equal(left.length, 2, `each fixture reported its child:\n${stdout}`)
      const [hung, leaver] = left as [number, number]
      assert.ok(stderr.includes(`\n✖ ${HANGS}: did not finish within its limit of 4.0 s; it left 1 process running (now killed):\n    pid ${hung}: sleep 600\n`), stderr)
      assert.ok(stderr.includes(`\n✖ ${LEAVES}: it left 1 process running (now killed):\n    pid ${leaver}: sleep 600\n`), stderr)
      assert.match(stdout, new RegExp(`^  ✖ ${HANGS.replace(/\./g, '\\.')} +\\d+\\.\\d s  0 tests$`, 'm'))
      assert.match(stdout, new RegExp(`^  ✖ ${LEAVES.replace(/\./g, '\\.')} +\\d+\\.\\d s  1 test$`, 'm'))
      assert.match(stdout, /^  whole run: \d+\.\d s$/m)
      assert.match(stdout, /\ntests: 1 passed, 2 failed, 0 skipped\n$/)
      for (const pid of left) assert.ok(await gone(pid, 2000), `process ${pid} the files left was killed`)
    } finally {
      for (const pid of left) if (alive(pid)) process.kill(pid, 'SIGKILL')
    }
  })
})
