/**
 * What `dsh-message-recall-log erase` (the built tool) says when it does not erase: a refusal in
 * the route's own sentence (`eraseFailureText`, one source for both) as text and as `--json`, and,
 * under Node 20 (no zstd in `node:zlib`), one line naming the Node it needs, exit 2, before it
 * reads anything (also for a request it would refuse), without loading the zstd writer.
 */
import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import type { Session } from '@deepseek-ai/dsh-session'
import { conversationLog } from '../support/conversation'
import { node, Roots } from '../host/helpers'
import { node20Path } from '../../tools/node-runtime'
import { eraseRuntimeProblem } from '../../scripts/commands/erase'

const TOOL = join(import.meta.dirname, '..', '..', 'lib', 'scripts', 'dsh-message-recall-log.js')

function erase(nodeBinary: string, folder: string, tombstoneSeq: number, json = false) {
  const r = spawnSync(nodeBinary, [TOOL, 'erase', folder, '--tombstone', String(tombstoneSeq), ...(json ? ['--json'] : [])], { encoding: 'utf8' })
  return { status: r.status, stdout: r.stdout, stderr: r.stderr }
}

describe('dsh-message-recall-log erase: refusals', () => {
  const roots = new Roots()
  let folder: string
  let deleted: number
  let excluded: number
  before(async () => {
    const root = roots.root()
    const app = await roots.boot(root)
    const agent = await app.createAgent({ seed: conversationLog([
      { prompt: 'first prompt to delete', steps: [{ text: 'one' }] },
      { prompt: 'second prompt to exclude', steps: [{ text: 'two' }] },
    ]) })
    const session = agent.session as Session
    const a = await app.post({ sessionId: agent.id, action: 'delete', seq: node(session, 'user/message', 'first prompt to delete') })
    const b = await app.post({ sessionId: agent.id, action: 'exclude', seq: node(session, 'user/message', 'second prompt to exclude') })
    assert.deepEqual([a.status, b.status], [200, 200])
    deleted = a.json.value.tombstoneSeq
    excluded = b.json.value.tombstoneSeq
    folder = (app.ctx as any).sessionPersistence.locate({ id: agent.id, cwd: session.header.cwd }).path.replace(/\/session\.jsonl\.zstd$/, '')
    await roots.shut(app)
  })
  after(() => roots.dispose())

  it('says the route\'s sentence for an exclusion, an unknown seq and an erased removal, as text and as JSON, exit 1', () => {
    const cases: [number, string, string][] = [
      [excluded, 'EXCLUSION', `cannot erase removal ${excluded}: an exclusion keeps its messages in the transcript; only a removal can be erased`],
      [9999, 'NOT_A_TOMBSTONE', 'cannot erase removal 9999: there is no removal of this plugin at that seq'],
    ]
    const first = erase(process.execPath, folder, deleted)
    assert.equal(first.status, 0, first.stdout + first.stderr)
    cases.push([deleted, 'ALREADY_ERASED', `cannot erase removal ${deleted}: that removal was erased already`])
    for (const [seq, code, sentence] of cases) {
      const text = erase(process.execPath, folder, seq)
      assert.deepEqual(text, { status: 1, stdout: `refused, nothing changed: ${sentence}\n`, stderr: '' }, code)
      const json = erase(process.execPath, folder, seq, true)
      assert.deepEqual(json, { status: 1, stdout: JSON.stringify({ ok: false, code, message: sentence }) + '\n', stderr: '' }, code)
    }
  })

  it('under Node 20 refuses in one line naming the Node it needs, exit 2, also for a request it would refuse', () => {
    const node20 = node20Path()
    const version = spawnSync(node20, ['--version'], { encoding: 'utf8' }).stdout.trim()
    assert.match(version, /^v20\./)
    const line = `erase needs Node 22.15 or later (this is ${version}): it writes the log with node:zlib's zstd; the read-only commands run on this Node\n`
    for (const seq of [excluded, deleted, 9999]) {
      assert.deepEqual(erase(node20, folder, seq), { status: 2, stdout: '', stderr: line }, String(seq))
      assert.deepEqual(erase(node20, folder, seq, true), { status: 2, stdout: '', stderr: line }, `${seq} --json`)
    }
    const script = spawnSync(node20, [join(import.meta.dirname, '..', '..', 'lib', 'scripts', 'erase-session.js'), folder, '--tombstone', '1'], { encoding: 'utf8' })
    assert.deepEqual({ status: script.status, stderr: script.stderr }, { status: 2, stderr: line })
  })

  it('eraseRuntimeProblem: Node 22.15 and later run erase, earlier ones are named', () => {
    for (const version of ['v22.15.0', 'v22.19.1', 'v23.0.0', 'v24.3.0']) assert.equal(eraseRuntimeProblem(version), null, version)
    assert.equal(eraseRuntimeProblem('v22.14.9'), 'erase needs Node 22.15 or later (this is v22.14.9): it writes the log with node:zlib\'s zstd; the read-only commands run on this Node')
    assert.equal(eraseRuntimeProblem('v20.20.2'), 'erase needs Node 22.15 or later (this is v20.20.2): it writes the log with node:zlib\'s zstd; the read-only commands run on this Node')
  })
})
