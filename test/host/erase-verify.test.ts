/**
 * Logs that do not verify (`src/host/erase-verify.ts`, `src/host/erase-log.ts`): the check of an
 * erased log against the old one names the first difference of each kind, on events a real rc.8
 * Session wrote; and an erase of a stored log with a torn tail (a kill inside DSH's own append) is
 * refused with `ERASE_NOT_VERIFIED`, the file unchanged; a tampered rewrite that keeps every
 * envelope, the surface and the derived messages but breaks an invariant DSH's packages own is
 * refused by the invariant companions, the file unchanged; the same for a compaction summary whose
 * range no longer matches its seqs (the compaction companion).
 */
import assert from 'node:assert/strict'
import { after, describe, it } from 'node:test'
import { appendFileSync, readdirSync, readFileSync } from 'node:fs'
import { dirname } from 'node:path'
import { Session, SessionId, type SessionEvent } from '@deepseek-ai/dsh-session'
import { JsonlSessionPersistence } from '@deepseek-ai/dsh-session-persistence-jsonl'
import { conversationLog } from '../support/conversation'
import { LogBuilder } from './log-builder'
import { node, Roots, sessionFile } from './helpers'
import { verifyErasedLog } from '../../src/host/erase-verify'
import { eraseLogFile, replaceVerified } from '../../src/host/erase-log'
import { eraseRemovalInLog, type LogErase } from '../../src/log/log-erase'
import { decodeLogBytes } from '../../src/host/jsonl-log-file'
import type { JsonlReader } from '../../src/host/jsonl-log-file'

describe('an erased log that does not verify', () => {
  const roots = new Roots()
  after(() => roots.dispose())

  it('names the first difference: length, envelope, an event the erase did not rewrite, the surface, the derived messages', async () => {
    const session = Session.create(SessionId('s-verify'), conversationLog([
      { prompt: 'first prompt', steps: [{ text: 'one' }] },
      { prompt: 'second prompt', steps: [{ text: 'two' }] },
    ]))
    const before = JSON.parse(JSON.stringify(session.events)) as SessionEvent[]
    const prompt = node(session, 'user/message', 'first prompt')
    const copy = (): any[] => JSON.parse(JSON.stringify(before))
    assert.equal(await verifyErasedLog('s-verify', before, copy(), new Set()), null, 'the same log verifies')

    assert.equal(await verifyErasedLog('s-verify', before, copy().slice(0, -1), new Set()), `the new log holds ${before.length - 1} events, the old one ${before.length}`)
    const moved = copy()
    moved[3].time += 1
    assert.equal(await verifyErasedLog('s-verify', before, moved, new Set([3])), 'event 3 differs in time')
    const touched = copy()
    touched[prompt].data.content[0].text = 'changed'
    assert.equal(await verifyErasedLog('s-verify', before, touched, new Set()), `event ${prompt} differs, and the erase did not rewrite it`)
    // A rewritten message still on the surface changes what the session derives.
    assert.equal(await verifyErasedLog('s-verify', before, touched, new Set([prompt])), 'the new log derives other messages')
    const off = copy()
    off[prompt].surfaceOp = undefined
    delete off[prompt].surfaceOp
    assert.equal(await verifyErasedLog('s-verify', before, off, new Set([prompt])), `event ${prompt} differs in surfaceOp`)
  })

  it('runs the compaction companion: a rewritten compaction/summary whose range no longer matches its seqs is refused in the companion\'s words', async () => {
    const b = new LogBuilder('s-compacted')
    const first = b.turn('first prompt', [{ text: 'one' }])
    b.turn('second prompt', [{ text: 'two' }])
    b.checkpoint(first.prompt, first.steps[0]!.assistant)
    b.turn('third prompt', [{ text: 'three' }])
    const before = JSON.parse(JSON.stringify(b.session.events)) as SessionEvent[]
    assert.equal(await verifyErasedLog('s-compacted', before, JSON.parse(JSON.stringify(before)), new Set()), null, 'the same log verifies under the companions')
    const summary = before.findIndex((e) => e.type === 'compaction/summary')
    const tampered = JSON.parse(JSON.stringify(before)) as any[]
    tampered[summary].data.shadowedRange.end = tampered[summary].data.shadowedRange.start
    // Only the event's data differs; the surface and the derived messages are the same.
    assert.equal(await verifyErasedLog('s-compacted', before, tampered, new Set([summary])), 'the new log violates an invariant: invariant violated by "@deepseek-ai/dsh-compaction": compaction/summary shadowedRange must match the first and last shadowedSeqs')
  })

  it('refuses to erase a stored log with a torn tail, the file unchanged', async () => {
    const root = roots.root()
    const app = await roots.boot(root)
    const agent = await app.createAgent({ seed: conversationLog([{ prompt: 'CANARY torn', steps: [{ text: 'one' }] }]) })
    const reply = await app.post({ sessionId: agent.id, action: 'delete', seq: node(agent.session as Session, 'user/message', 'CANARY torn') })
    assert.equal(reply.status, 200, reply.text)
    await roots.shut(app)
    const log = sessionFile(root, agent.id)
    appendFileSync(log, Buffer.from([0x28, 0xb5, 0x2f, 0xfd, 0x00]))
    const bytes = readFileSync(log)
    const reader = Object.create(JsonlSessionPersistence.prototype, { compression: { value: 'zstd' }, assertStoredIdentity: { value: async () => {} } }) as JsonlReader
    const done = await eraseLogFile(reader, log, agent.id, reply.json.value.tombstoneSeq, { at: '2026-12-01T00:00:00.000Z' })
    assert.equal(done.ok, false)
    assert.equal((done as { code: string }).code, 'ERASE_NOT_VERIFIED')
    assert.equal((done as { problem: string }).problem, 'the stored log cannot be read whole: the log does not end at a frame boundary (a torn or damaged tail)')
    assert.ok(readFileSync(log).equals(bytes), 'the log is unchanged')
    assert.deepEqual(readdirSync(dirname(log)), ['session.jsonl.zstd'], 'no new file is left beside it')
  })

  it('refuses a tampered rewrite that the invariant companions reject, the file unchanged', async () => {
    const root = roots.root()
    const app = await roots.boot(root)
    const agent = await app.createAgent({ seed: conversationLog([
      { prompt: 'list the files', steps: [{ text: 'CANARY looking', tools: [{ result: 'CANARY a.txt' }] }, { text: 'one file' }] },
      { prompt: 'second prompt', steps: [{ text: 'two' }] },
    ]) })
    const reply = await app.post({ sessionId: agent.id, action: 'delete', seq: node(agent.session as Session, 'assistant/message', 'CANARY looking') })
    assert.equal(reply.status, 200, reply.text)
    const tombstoneSeq = reply.json.value.tombstoneSeq as number
    await roots.shut(app)
    const log = sessionFile(root, agent.id)
    const bytes = readFileSync(log)
    const rewrite = eraseRemovalInLog(decodeLogBytes(bytes, 'zstd'), tombstoneSeq, '2026-12-01T00:00:00.000Z')
    assert.ok(rewrite.ok)
    const erase = rewrite.value
    // The tool call of the removed step: a carrier, so its data may change; the tampered rewrite
    // moves it to another step, which no envelope, surface or derived message shows.
    const call = erase.events.findIndex((e) => e.type === 'tool/call')
    assert.equal(erase.carriers.get(call), 'tool-call')
    const lines = erase.text.split('\n')
    const at = lines.findIndex((line) => line.startsWith('{') && JSON.parse(line).seq === call && JSON.parse(line).type === 'tool/call')
    const moved = JSON.parse(lines[at]!)
    moved.data.step = 9
    lines[at] = JSON.stringify(moved)
    const tampered: LogErase = { ...erase, text: lines.join('\n') }
    const reader = Object.create(JsonlSessionPersistence.prototype, { compression: { value: 'zstd' }, assertStoredIdentity: { value: async () => {} } }) as JsonlReader
    const done = await replaceVerified(reader, log, agent.id, tampered, { at: '2026-12-01T00:00:00.000Z' })
    assert.deepEqual(done, { ok: false, code: 'ERASE_NOT_VERIFIED', problem: 'the new log violates an invariant: invariant violated by "@deepseek-ai/dsh-session": tool/call names turn 1/step 9 but open is turn 1/step 1' })
    assert.ok(readFileSync(log).equals(bytes), 'the log is unchanged')
    assert.deepEqual(readdirSync(dirname(log)), ['session.jsonl.zstd'], 'no new file is left beside it')
    // The same rewrite untampered passes and is put in place.
    const untampered = await replaceVerified(reader, log, agent.id, erase, { at: '2026-12-01T00:00:00.000Z' })
    assert.equal(untampered.ok, true)
    assert.ok(!decodeLogBytes(readFileSync(log), 'zstd').includes('CANARY'), 'the erased log holds no canary')
  })
})
