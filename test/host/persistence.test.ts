/**
 * Durability with the real `@deepseek-ai/dsh-session-persistence-jsonl` backend, zstd and raw:
 * the tombstone is in the session file by the time the 200 arrives (read back from the file
 * itself, not through the backend), and a fresh Context on the same root shows the same surface
 * and derived messages, over HTTP (`inspect`) and after resuming the agent.
 */
import assert from 'node:assert/strict'
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, describe, it } from 'node:test'
import { decompress } from 'fzstd'
import { foldSurface, type Session } from '@deepseek-ai/dsh-session'
import { bootDshApp, type DshApp } from '../support/dsh-app'
import { conversationLog, syntheticTurns } from '../support/conversation'
import { isTombstoneEvent, readTombstone } from '../../src/shared/tombstone'
import type { LogEvent } from '../../src/shared/events'

const roots: string[] = []
const apps: DshApp[] = []
after(async () => {
  for (const app of apps.splice(0)) await app.dispose()
  for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true })
})

async function boot(root: string, compression: 'zstd' | 'none'): Promise<DshApp> {
  // A long batch window: only the route's own flush can put the tombstone on disk before the reply.
  const app = await bootDshApp({ recall: {}, persistence: { root, compression, writeBatchMaxDelayMs: 60_000 } })
  apps.push(app)
  return app
}

async function shut(app: DshApp): Promise<void> {
  apps.splice(apps.indexOf(app), 1)
  await app.dispose()
}

/** The events in the session's file, decoded from the bytes on disk (every zstd frame, or plain lines). */
function eventsOnDisk(root: string, sessionId: string): LogEvent[] {
  const walk = (dir: string): string[] => readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walk(join(dir, e.name)) : [join(dir, e.name)]))
  const files = walk(root).filter((f) => f.includes(sessionId) && /session\.jsonl(\.zstd)?$/.test(f))
  assert.equal(files.length, 1, `one session file for ${sessionId}: ${files}`)
  const bytes = readFileSync(files[0]!)
  const text = files[0]!.endsWith('.zstd') ? Buffer.from(decompress(bytes)).toString('utf8') : bytes.toString('utf8')
  const [header, ...lines] = text.split('\n').filter((line) => line.length > 0)
  assert.equal(JSON.parse(header!).type, 'session')
  return lines.map((line) => JSON.parse(line) as LogEvent).filter((row) => typeof row.seq === 'number' && typeof row.type === 'string' && !row.type.endsWith('-chunks'))
}

function node(session: Session, type: string, text: string): number {
  const hits = session.surface.nodes.filter((seq) => session.events[seq]!.type === type && JSON.stringify(session.events[seq]!.data).includes(text))
  assert.equal(hits.length, 1)
  return hits[0]!
}

for (const compression of ['zstd', 'none'] as const) {
  describe(`persistence (${compression})`, () => {
    it('has the tombstone on disk when the 200 arrives, and a fresh Context on the same root shows the same surface and messages', async () => {
      const root = mkdtempSync(join(tmpdir(), 'recall-persist-'))
      roots.push(root)
      const first = await boot(root, compression)
      const agent = await first.createAgent({ seed: conversationLog(syntheticTurns(3, { toolSteps: 1, toolsPerStep: 2 })), cwd: '/projects/demo' })
      const session = agent.session
      const id = agent.id

      const del = await first.post({ sessionId: id, action: 'delete', seq: node(session, 'tool/result', 'result #2.1.1') })
      assert.equal(del.status, 200, del.text)
      let disk = eventsOnDisk(root, id).filter(isTombstoneEvent)
      assert.deepEqual(disk.map((e) => e.seq), [del.json.value.tombstoneSeq], 'on disk before any further flush')
      assert.deepEqual(disk[0], JSON.parse(JSON.stringify(session.events[del.json.value.tombstoneSeq])), 'byte-for-byte the live event')

      const recall = await first.post({ sessionId: id, action: 'recall', seq: node(session, 'user/message', 'prompt #3') })
      assert.equal(recall.status, 200, recall.text)
      disk = eventsOnDisk(root, id).filter(isTombstoneEvent)
      assert.deepEqual(disk.map((e) => readTombstone(e)!.action), ['delete', 'recall'])

      const nodes = [...session.surface.nodes]
      const messages = JSON.parse(JSON.stringify(session.deriveMessages()))
      const generation = session.surface.replaceGeneration
      const count = session.seq
      await shut(first)

      const second = await boot(root, compression)
      const cold = await second.post({ sessionId: id, action: 'inspect' })
      assert.equal(cold.status, 200, cold.text)
      assert.equal(cold.json.value.live, null, 'not live in the fresh Context')
      assert.equal(cold.json.value.disk.surfaceNodeCount, nodes.length)
      assert.equal(cold.json.value.disk.replaceGeneration, generation)
      assert.deepEqual(cold.json.value.disk.tombstones.map((t: { seq: number }) => t.seq), disk.map((e) => e.seq))

      const resumed = await second.resumeAgent(id)
      // Resume may close the log with `session/end-seed`; the surface and the history are unchanged.
      assert.ok(resumed.session.seq >= count)
      assert.deepEqual([...resumed.session.surface.nodes], nodes)
      assert.equal(resumed.session.surface.replaceGeneration, generation)
      assert.deepEqual(JSON.parse(JSON.stringify(resumed.session.deriveMessages())), messages)
      assert.deepEqual(foldSurface(resumed.session.events).nodes, nodes)

      // And the resumed session takes further removals.
      const onward = await second.post({ sessionId: id, action: 'deleteFrom', seq: node(resumed.session, 'user/message', 'prompt #2') })
      assert.equal(onward.status, 200, onward.text)
      assert.equal(eventsOnDisk(root, id).filter(isTombstoneEvent).length, 3)
    })
  })
}
