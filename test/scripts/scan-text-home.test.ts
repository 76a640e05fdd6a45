/**
 * The DSH home of the built `scan --text` (the check an erase is confirmed with): a home that is
 * not there, given or defaulted (`$DSH_HOME`, or `~/.dsh` when it is unset), and a file given as
 * the home, are one line on stderr, exit 2, never "nowhere"; the tool output folders searched are
 * every `dsh-spill-*` and `dsh-subprocess-*` folder in the system's temporary folder, also those
 * another home's host made, and the count line names how many. A file that begins with the zstd
 * magic is searched decoded whatever its name, a plain file named `.zstd` as its bytes. The child's
 * temporary folder is a scratch folder (`TMPDIR`), so the count is exact.
 */
import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { zstdCompressSync } from 'node:zlib'
import { after, describe, it } from 'node:test'
import { LOG_TOOL } from '../support/pending-erase-home'

const TEXT = 'hunter2-5b1e'

describe('dsh-message-recall-log scan --text: the DSH home', () => {
  const scratch = mkdtempSync(join(tmpdir(), 'recall-scan-text-home-'))
  /** The child's temporary folder: two DSH tool output folders (one from another home's host) and a folder that is neither. */
  const temp = join(scratch, 'temp')
  const spill = join(temp, 'dsh-spill-a1b2')
  const subprocess = join(temp, 'dsh-subprocess-c3d4')
  mkdirSync(spill, { recursive: true })
  mkdirSync(subprocess)
  mkdirSync(join(temp, 'other-tool-e5f6'))
  writeFileSync(join(temp, 'other-tool-e5f6', 'out.txt'), `${TEXT} not searched`)
  const home = join(scratch, 'home')
  mkdirSync(join(home, 'sessions'), { recursive: true })
  writeFileSync(join(home, 'sessions', 'note.txt'), 'nothing here')
  after(() => rmSync(scratch, { recursive: true, force: true }))

  /** The built tool with the scratch temporary folder, `DSH_HOME` as given (unset for `undefined`) and `HOME`. */
  function scan(args: readonly string[], env: { DSH_HOME?: string; HOME?: string } = {}) {
    const base: NodeJS.ProcessEnv = { ...process.env, TMPDIR: temp }
    delete base.DSH_HOME
    if (env.DSH_HOME !== undefined) base.DSH_HOME = env.DSH_HOME
    if (env.HOME !== undefined) base.HOME = env.HOME
    const r = spawnSync(process.execPath, [LOG_TOOL, 'scan', '--text', TEXT, ...args], { encoding: 'utf8', env: base })
    return { status: r.status, stdout: r.stdout, stderr: r.stderr }
  }

  it('refuses a home that is not there, given or defaulted, and a file, in one line, exit 2', () => {
    const nope = join(scratch, 'nope')
    const file = join(home, 'sessions', 'note.txt')
    const rule = '$DSH_HOME, or ~/.dsh when DSH_HOME is unset'
    const cases: [string, readonly string[], { DSH_HOME?: string; HOME?: string }, string][] = [
      ['a missing home', [nope], {}, `no such file or folder: ${nope}\n`],
      ['a missing home, --json', [nope, '--json'], {}, `no such file or folder: ${nope}\n`],
      ['a file', [file], {}, `${file} is not a folder\n`],
      ['$DSH_HOME missing', [], { DSH_HOME: nope }, `no DSH home given, and the default ${nope} (${rule}) is not a readable folder: no such file or folder: ${nope}\n`],
      ['~/.dsh missing', [], { HOME: scratch }, `no DSH home given, and the default ${join(scratch, '.dsh')} (${rule}) is not a readable folder: no such file or folder: ${join(scratch, '.dsh')}\n`],
    ]
    for (const [label, args, env, line] of cases) assert.deepEqual(scan(args, env), { status: 2, stdout: '', stderr: line }, label)
  })

  it('searches every DSH tool output folder of the temporary folder, another home\'s too, and counts them', () => {
    assert.deepEqual(scan([home]), { status: 0, stdout: `the text occurs nowhere under ${home} and 2 tool output folders\n`, stderr: '' })
    assert.deepEqual(scan([], { DSH_HOME: home }), { status: 0, stdout: `the text occurs nowhere under ${home} and 2 tool output folders\n`, stderr: '' })
    // A spill file another home's host left: found, though it is not under this home.
    writeFileSync(join(spill, 'result-1.txt'), `${TEXT} ${TEXT}`)
    assert.deepEqual(scan([home]), { status: 1, stdout: `${join(spill, 'result-1.txt')}  2 occurrences\nthe text occurs in 1 file\n`, stderr: '' })
    assert.deepEqual(JSON.parse(scan([home, '--json']).stdout), { home, folders: [home, spill, subprocess], hits: [{ path: join(spill, 'result-1.txt'), count: 2 }] })
  })

  it('searches a zstd file decoded by its first bytes, whatever its name, and a plain file named .zstd as its bytes', () => {
    const other = join(scratch, 'other-home')
    mkdirSync(join(other, 'sessions', 'kept'), { recursive: true })
    // A zstd log under another name (a copy set aside): its decoded lines hold TEXT three times (its bytes at most once, as a literal).
    const renamed = join(other, 'sessions', 'kept', 'session.bak')
    writeFileSync(renamed, zstdCompressSync(Buffer.from(`{"id":"s"}\n{"text":"${TEXT} ${TEXT} ${TEXT}"}\n`)))
    // A plain file named as a zstd log: searched as its bytes.
    const plain = join(other, 'sessions', 'kept', 'note.zstd')
    writeFileSync(plain, `${TEXT}\n`)
    // The spill file of the test before is still in the temporary folder.
    assert.deepEqual(JSON.parse(scan([other, '--json']).stdout).hits, [{ path: plain, count: 1 }, { path: renamed, count: 3 }, { path: join(spill, 'result-1.txt'), count: 2 }])
  })
})
