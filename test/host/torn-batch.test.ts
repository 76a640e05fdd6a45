/**
 * A batch across a torn write, with the real JSONL persistence backend (zstd): the log file is
 * cut inside the batch's frame (what a power loss mid-write leaves) and read back the way DSH
 * loads it (`sessionPersistence.inspect`: complete frames, plus the complete lines it recovers
 * from the torn final frame, `readZstdPrefix`).
 *
 * - A batch whose log text fits one zstd block (128 KiB) is all or nothing at every cut, also
 *   when the session held unsaved events just before it (the batch saves them first, so its
 *   events are a frame of their own; without that, they shared a frame with the unsaved events
 *   and a cut kept the batch's first tombstones).
 * - A batch larger than one block spans several blocks, and DSH keeps the complete ones: a cut
 *   keeps a prefix of it. rc.8's framing allows no more; the README says so, and `inspect` names
 *   the batch that was cut short and its missing changes (from the batch marks of its tombstones).
 * - A copy (`forkBefore`) of a batch's later tombstone holds a prefix of the batch on purpose (its
 *   seed ends inside the batch): `inspect` of the copy, stored and open, names no batch cut short,
 *   while the same events without the copy's header would.
 */
import assert from 'node:assert/strict'
import { readFileSync, writeFileSync } from 'node:fs'
import { zstdDecompressSync } from 'node:zlib'
import { after, describe, it } from 'node:test'
import { createUserMessage } from '@deepseek-ai/dsh-llm'
import { SessionId } from '@deepseek-ai/dsh-session'
import type { DshApp } from '../support/dsh-app'
import { conversationLog, syntheticTurns } from '../support/conversation'
import { MAX_BLOCK_BYTES, scanZstdFrames } from '../../src/log/zstd-frames'
import { isTombstoneEvent } from '../../src/shared/tombstone'
import type { LogEvent } from '../../src/shared/events'
import { cutShortBatches } from '../../src/shared/batch-mark'
import { derived, node, Roots, seededAgent, sessionFile } from './helpers'

const roots = new Roots()
after(() => roots.dispose())

/**
 * Write a batch removing the prompts of `turns` turns (each its own tombstone) to a live session
 * on a zstd root with a long write-behind window; with `unsaved`, first append that many
 * characters as one prompt the session has not saved yet. Then stop the app.
 * @returns the root, the session id, the log bytes and where the batch's frame starts.
 */
async function batchOnDisk(turns: number, unsaved: number): Promise<{ root: string; id: string; bytes: Buffer; frameStart: number; tombstones: number }> {
  const root = roots.root()
  const app = await roots.boot(root, { persistence: { root, writeBatchMaxDelayMs: 5_000 } })
  const session = app.createSession({ seed: conversationLog(syntheticTurns(turns, { toolSteps: 0, textChars: 8 })) })
  assert.equal(await app.ctx.sessions.flush(session), true)
  if (unsaved > 0) {
    session.append('user/message', createUserMessage({ content: [{ type: 'text', text: 'u'.repeat(unsaved) }], source: { kind: 'user' } }), { surfaceOp: 'append' })
  }
  const events = session.events
  const changes = session.surface.nodes.filter((seq) => events[seq]!.type === 'user/message' && seq < events.length - (unsaved > 0 ? 1 : 0)).map((seq) => ({ action: 'delete', seq }))
  const applied = await app.post({ sessionId: session.id, action: 'apply', changes })
  assert.equal(applied.status, 200, applied.text.slice(0, 300))
  const id = session.id
  await roots.shut(app)
  const bytes = readFileSync(sessionFile(root, id))
  const { frames, stop } = scanZstdFrames(bytes)
  assert.equal(stop.kind, 'end')
  return { root, id, bytes, frameStart: frames.at(-1)!.start, tombstones: changes.length }
}

/** Tombstones DSH reads back from the log cut at each offset of `cuts` (it reads, it does not repair). */
async function tombstonesAt(root: string, id: string, bytes: Buffer, cuts: readonly number[]): Promise<Map<number, number>> {
  const file = sessionFile(root, id)
  const app = await roots.boot(root)
  const seen = new Map<number, number>()
  try {
    for (const cut of cuts) {
      writeFileSync(file, bytes.subarray(0, cut))
      const { events } = await app.ctx.sessionPersistence.inspect(SessionId(id))
      seen.set(cut, (events as readonly LogEvent[]).filter(isTombstoneEvent).length)
    }
  } finally {
    writeFileSync(file, bytes)
    await roots.shut(app)
  }
  return seen
}

/** The decoded text of one complete frame. */
function text(bytes: Buffer, frame: { start: number; end: number }): string {
  return zstdDecompressSync(bytes.subarray(frame.start, frame.end)).toString('utf8')
}

/** About `count` offsets spread over [from, to), with both ends' neighbourhoods. */
function offsets(from: number, to: number, count: number): number[] {
  const step = Math.max(1, Math.floor((to - from) / count))
  const picked = new Set<number>([from + 1, from + 20, to - 5, to - 4, to - 1])
  for (let at = from + step; at < to; at += step) picked.add(at)
  return [...picked].filter((at) => at > from && at < to).sort((a, b) => a - b)
}

describe('a batch across a torn write', () => {
  it('a batch within one zstd block keeps all or none of its tombstones at every cut, also after unsaved events', async () => {
    // 120,000 unsaved characters and a batch of 40 prompts: together more than one block.
    const { root, id, bytes, frameStart, tombstones } = await batchOnDisk(40, 120_000)
    const frames = scanZstdFrames(bytes).frames
    const batchFrame = frames.at(-1)!
    const seen = await tombstonesAt(root, id, bytes, offsets(frameStart, batchFrame.end, 40))
    const counts = new Set(seen.values())
    assert.deepEqual([...counts].sort((a, b) => a - b), [0, tombstones], `every cut keeps 0 or ${tombstones}: ${JSON.stringify([...seen])}`)
    assert.equal(batchFrame.blocks, 1, 'the batch is one block of its own frame')
    const before = text(bytes, frames.at(-2)!)
    assert.ok(frames.at(-2)!.end === frameStart && before.includes('u'.repeat(120_000)) && !before.includes('dsh-message-recall'), 'the unsaved prompt was saved in a frame of its own before the batch')
    assert.ok(before.length + text(bytes, batchFrame).length > MAX_BLOCK_BYTES, 'together they would have needed two blocks')
  })

  it('a batch over one zstd block spans several blocks, and DSH keeps the complete ones of a torn frame', async () => {
    const { root, id, bytes, frameStart } = await batchOnDisk(700, 0)
    const batchFrame = scanZstdFrames(bytes).frames.at(-1)!
    const size = text(bytes, batchFrame).length
    assert.ok(size > MAX_BLOCK_BYTES && batchFrame.blocks >= 2, `${size} bytes in ${batchFrame.blocks} blocks`)
    const seen = await tombstonesAt(root, id, bytes, offsets(frameStart, batchFrame.end, 12))
    const partial = [...seen].filter(([, count]) => count > 0 && count < 700)
    assert.ok(partial.length > 0, `a cut in a later block keeps the tombstones of the first: ${JSON.stringify([...seen])}`)

    // inspect says which batch was cut short and which of its changes are missing.
    const [cut, kept] = partial[0]!
    writeFileSync(sessionFile(root, id), bytes.subarray(0, cut))
    const app = await roots.boot(root)
    try {
      const reply = await app.post({ sessionId: id, action: 'inspect' })
      assert.equal(reply.status, 200, reply.text.slice(0, 300))
      const disk = reply.json.value.disk
      assert.equal(disk.tombstones.length, kept)
      assert.equal(disk.cutShortBatches.length, 1)
      const batch = disk.cutShortBatches[0]
      assert.deepEqual({ firstSeq: batch.firstSeq, writes: batch.writes, written: batch.written }, { firstSeq: disk.tombstones[0].seq, writes: 700, written: kept })
      const removed = new Set(disk.tombstones.flatMap((t: { shadowedSeqs: number[] }) => t.shadowedSeqs))
      const prompts = (await app.ctx.sessionPersistence.inspect(SessionId(id))).events.filter((e) => e.type === 'user/message' && !isTombstoneEvent(e as LogEvent)).map((e) => e.seq)
      assert.deepEqual(batch.missing, prompts.filter((seq) => !removed.has(seq)).map((seq, i) => ({ action: 'delete', seq, write: kept + i, index: kept + i })))
    } finally {
      writeFileSync(sessionFile(root, id), bytes)
      await roots.shut(app)
    }
  })
})

describe('a copy whose seed ends inside a batch', () => {
  it('forkBefore of each later tombstone of a batch: inspect of the copy names no batch cut short', async () => {
    const root = roots.root()
    const app = await roots.boot(root, { tokenMeter: true, sessionTitle: true })
    try {
      const agent = await seededAgent(app, 4)
      const session = agent.session
      const prompts = [1, 3, 4].map((n) => node(session, 'user/message', `prompt #${n}`))
      const changes = [...prompts.map((seq) => ({ action: 'delete', seq })), { action: 'exclude', seq: node(session, 'tool/result', 'result #2.1.1') }]
      const applied = await app.post({ sessionId: agent.id, action: 'apply', changes })
      assert.equal(applied.status, 200, applied.text.slice(0, 300))
      const tombstones = session.events.filter((e) => isTombstoneEvent(e as LogEvent)).map((e) => e.seq)
      assert.equal(tombstones.length, 4, 'one tombstone per change: four writes')
      assert.ok(session.events[tombstones[1]! - 1]!.type === 'compaction/prune', 'each write has its shadow price right before it')
      const source = await app.post({ sessionId: agent.id, action: 'inspect' })
      assert.deepEqual([source.json.value.live.cutShortBatches, source.json.value.disk.cutShortBatches], [[], []])

      for (const [w, tombstoneSeq] of tombstones.entries()) {
        if (w === 0) continue
        const fork = await app.post({ sessionId: agent.id, action: 'forkBefore', tombstoneSeq })
        assert.equal(fork.status, 200, fork.text)
        const id = fork.json.value.forkedSessionId as string
        const stored = await app.post({ sessionId: id, action: 'inspect' })
        assert.equal(stored.status, 200, stored.text.slice(0, 300))
        assert.equal(stored.json.value.live, null)
        assert.equal(stored.json.value.disk.tombstones.length, w, `the copy before write ${w} holds ${w} of the batch's tombstones`)
        assert.deepEqual(stored.json.value.disk.cutShortBatches, [], `the copy before write ${w} (stored) names no batch cut short`)

        const copy = await app.resumeAgent(id)
        assert.equal(copy.session.header.seedLength, tombstoneSeq)
        const open = await app.post({ sessionId: id, action: 'inspect' })
        assert.deepEqual([open.json.value.live.cutShortBatches, open.json.value.disk.cutShortBatches], [[], []], `the copy before write ${w} (open) names no batch cut short`)
        // The same events without the copy's header: a prefix of the batch, which a torn write would leave.
        const events = copy.session.events as readonly LogEvent[]
        const torn = cutShortBatches(events.length, (seq) => events[seq])
        assert.deepEqual(torn.map((b) => ({ firstSeq: b.firstSeq, writes: b.writes, written: b.written, changes: b.changes, missing: b.missing?.length })),
          [{ firstSeq: tombstones[0], writes: 4, written: w, changes: 4, missing: 4 - w }])
        assert.ok(derived(copy.session).length > 0)
        // A torn batch the source reopened after (its `session/end-seed` right after the prefix), in a
        // copy whose seed holds that reopening: named, as the source names it.
        const reopened = [...events.slice(0, tombstoneSeq), { type: 'session/end-seed', seq: tombstoneSeq, time: 0, data: {} } as LogEvent]
        assert.deepEqual(cutShortBatches(reopened.length, (seq) => reopened[seq], reopened.length).map((b) => [b.firstSeq, b.written]), [[tombstones[0], w]])
      }
    } finally {
      await roots.shut(app)
    }
  })
})
