/**
 * The built `dsh-message-recall-log erase` reads the other sessions' logs of the DSH home by their
 * first bytes, as it reads the erased log: a tool output file the erased step referenced is kept
 * when another log references it, also when that log is plain JSONL under the name
 * `session.jsonl.zstd` (read by its name, it could not be decoded and the file was deleted), and a
 * file no other log references is deleted. The erased session is written by the real rc.8
 * composition under `<DSH home>/sessions` (zstd).
 */
import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import type { Session } from '@deepseek-ai/dsh-session'
import { conversationLog } from '../support/conversation'
import { node, Roots } from '../host/helpers'
import { LOG_TOOL, pendingEraseHome } from '../support/pending-erase-home'

describe('dsh-message-recall-log erase: other logs read by their first bytes', () => {
  const roots = new Roots()
  const dshHome = pendingEraseHome('recall-erase-tool-side-')
  const { home } = dshHome
  const spill = mkdtempSync(join(tmpdir(), 'dsh-spill-'))
  const subprocess = mkdtempSync(join(tmpdir(), 'dsh-subprocess-'))
  const spillFile = join(spill, 'session-x', '1-bash.txt')
  const stdoutFile = join(subprocess, 'call-2-1-1-stdout.log')
  let logPath: string
  let tombstoneSeq: number
  let stepSeq: number
  before(async () => {
    dshHome.enter()
    mkdirSync(join(spill, 'session-x'))
    writeFileSync(spillFile, 'full output\n')
    writeFileSync(stdoutFile, 'stdout\n')
    const app = await roots.boot(join(home, 'sessions'))
    const agent = await app.createAgent({ seed: conversationLog([
      { prompt: 'run the build', steps: [{ text: 'running', tools: [{ name: 'bash', arguments: '{"command":"make"}', result: `done (output truncated; full output saved to ${spillFile}; process output: ${stdoutFile})` }] }, { text: 'built' }] },
      { prompt: 'keep this prompt', steps: [{ text: 'kept answer' }] },
    ]) })
    const session = agent.session as Session
    stepSeq = node(session, 'assistant/message', 'running')
    const removed = await app.post({ sessionId: agent.id, action: 'delete', seq: stepSeq })
    assert.equal(removed.status, 200, removed.text)
    tombstoneSeq = removed.json.value.tombstoneSeq
    await app.ctx.sessions.flush(session)
    logPath = (app.ctx as any).sessionPersistence.locate({ id: agent.id, cwd: session.header.cwd }).path as string
    await roots.shut(app)
    // Another session's log, plain JSONL under the zstd name, that references the spill file.
    const other = join(home, 'sessions', '--other-project--', 'session-other')
    mkdirSync(other, { recursive: true })
    writeFileSync(join(other, 'session.jsonl.zstd'), `{"id":"session-other"}\n{"seq":1,"type":"tool/result","data":{"text":"see ${spillFile}"}}\n`)
  })
  after(async () => {
    await roots.dispose()
    dshHome.leave()
    for (const dir of [spill, subprocess]) rmSync(dir, { recursive: true, force: true })
  })

  it('keeps the file a plain log named session.jsonl.zstd references and deletes the one nothing references', () => {
    const run = spawnSync(process.execPath, [LOG_TOOL, 'erase', logPath, '--tombstone', String(tombstoneSeq), '--json'], { encoding: 'utf8' })
    assert.deepEqual([run.status, run.stderr], [0, ''], run.stdout)
    const value = JSON.parse(run.stdout) as { deletedImages: string[]; deletedFiles: string[]; kept: { name: string; reason: string }[] }
    assert.deepEqual({ deletedImages: value.deletedImages, deletedFiles: value.deletedFiles, kept: value.kept }, {
      deletedImages: [],
      deletedFiles: [stdoutFile],
      kept: [{ name: spillFile, reason: 'referenced' }],
    })
    assert.deepEqual([existsSync(spillFile), existsSync(stdoutFile)], [true, false])
  })
})
