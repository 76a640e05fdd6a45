/**
 * `verify-decoder` and `read-session-log` on a plain JSONL log (no zstd) speak of lines, not
 * frames: a torn tail is one unfinished line with nothing to decode from it (named by
 * `list-sessions` in the same words), and a broken line is placed at its own byte offset in the
 * file. `read-session-log --frames` on it is one line on
 * stderr with exit code 2, without the usage text; `explain-session` and `verify-decoder` name the
 * true first and last seq of a log that starts past 0.
 */
import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { after, before, describe, it } from 'node:test'
import { fileURLToPath } from 'node:url'
import { syntheticTurns } from '../support/conversation'
import { writeConversation, type WrittenLog } from './support/real-logs'

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '../..')
const scratch = mkdtempSync(join(tmpdir(), 'mr-plain-wording-'))
after(() => rmSync(scratch, { recursive: true, force: true }))

let written: WrittenLog
let text = ''

before(async () => {
  written = await writeConversation({ root: join(scratch, 'sessions'), compression: 'none', id: 'session-plain', turns: syntheticTurns(3) })
  text = readFileSync(written.path, 'utf8')
})

function run(script: string, args: readonly string[]): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [join(repo, 'lib/scripts', `${script}.js`), ...args], { encoding: 'utf8' })
  return { status: r.status, stdout: r.stdout, stderr: r.stderr }
}

describe('a plain JSONL log', () => {
  it('with its end cut: a torn tail of one line, intact lines and events, no frames', () => {
    const lines = text.split('\n').slice(0, -1)
    const last = JSON.parse(lines.at(-1)!) as { type: string; seq: number }
    assert.deepEqual([last.type, last.seq], ['turn/end', written.events.length - 1], 'the last line holds the last event alone')
    const cut = Buffer.from(text).subarray(0, Buffer.byteLength(text) - 20)
    const file = join(scratch, 'torn.jsonl')
    writeFileSync(file, cut)
    const start = cut.lastIndexOf(0x0a) + 1
    const r = run('verify-decoder', [file])
    assert.equal(r.status, 1, r.stderr)
    assert.equal(
      r.stdout,
      [
        `file: ${file}`,
        `format: plain JSONL, ${cut.length} bytes (${(cut.length / 1024).toFixed(1)} KiB)`,
        `consumed: ${start} of ${cut.length} bytes`,
        `records: ${lines.length - 1} lines (header included), ${last.seq} events, seq 0-${last.seq - 1}`,
        `torn tail: the last record, line ${lines.length} (at byte ${start}), has no line break: ${cut.length - start} bytes of an unfinished write`,
        `intact before it: ${lines.length - 1} lines, ${last.seq} events (seq 0-${last.seq - 1}), up to byte ${start}`,
        'result: torn tail (normal while DSH is still writing this session)',
        '',
      ].join('\n'),
    )
    // list-sessions names the unfinished line as verify-decoder does.
    const folder = join(scratch, 'torn-session')
    mkdirSync(folder)
    writeFileSync(join(folder, 'session.jsonl'), cut)
    const list = run('list-sessions', ['--quiet', folder])
    assert.equal(list.status, 0, list.stderr)
    assert.ok(list.stdout.split('\n')[1]!.endsWith(`  [writing from line ${lines.length} (at byte ${start})]`), list.stdout)
  })

  it('with a broken line 5: the problem names the line and its own byte offset', () => {
    const lines = text.split('\n')
    lines[4] = '{broken'
    const file = join(scratch, 'broken.jsonl')
    writeFileSync(file, lines.join('\n'))
    const offset = Buffer.byteLength(lines.slice(0, 4).join('\n')) + 1
    // The parser's own words, from the Node the scripts run on.
    const parserSays = (() => {
      try {
        JSON.parse('{broken')
      } catch (error) {
        return (error as Error).message
      }
      throw new Error('"{broken" parsed')
    })()
    const problem = `line 5 (at byte ${offset}) is not valid JSON: ${parserSays}`
    const verify = run('verify-decoder', [file])
    assert.equal(verify.status, 1, verify.stderr)
    assert.deepEqual(verify.stdout.split('\n').filter((l) => l.startsWith('problem:')), [`problem: ${problem}`])
    const json = JSON.parse(run('verify-decoder', ['--json', file]).stdout) as { problems: { kind: string; at: unknown; message: string }[] }
    assert.deepEqual(json.problems, [{ kind: 'unparsable-line', at: { line: 5, frame: null, byte: offset }, message: problem }])
  })

  it('read --frames: one line saying it has no frames, exit 2, no usage text', () => {
    for (const script of ['read-session-log', 'dsh-message-recall-log']) {
      const r = run(script, script === 'read-session-log' ? ['--frames', written.path] : ['read', '--frames', written.path])
      assert.deepEqual([r.status, r.stdout, r.stderr], [2, '', `${written.path} is a plain JSONL log; it has no frames\n`], script)
    }
  })

  it('whose only event is at seq 5: explain and verify print seq 5-5', () => {
    const file = join(scratch, 'late.jsonl')
    writeFileSync(file, '{"type":"session"}\n{"type":"user/message","seq":5}\n')
    const explain = run('explain-session', [file])
    assert.ok(explain.stdout.split('\n').includes('log: 1 event (seq 5-5), plain JSONL'), explain.stdout + explain.stderr)
    const verify = run('verify-decoder', [file])
    assert.ok(verify.stdout.split('\n').includes('records: 2 lines (header included), 1 event, seq 5-5'), verify.stdout + verify.stderr)
  })
})
