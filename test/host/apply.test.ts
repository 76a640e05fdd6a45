/**
 * `apply` and the batch `plan` over real HTTP in the real rc.8 composition (JSONL persistence,
 * invariant companions, the agent loop against the mock model): all or nothing on a live and on a
 * stored session, merging of adjacent and overlapping changes, a batch equal to the same changes
 * done one by one (also deletes and exclusions mixed: fates, hidden and dimmed rows, surface), a
 * repeated change that joins its own write (`inspect` reads each result's tombstone as written), and a batch on a stored session that is not live after a restart, with a cold
 * reload afterwards and a real agent turn on it.
 */
import assert from 'node:assert/strict'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, describe, it } from 'node:test'
import { foldSurface, SessionId, type Session, type SessionEvent } from '@deepseek-ai/dsh-session'
import { bootDshApp, type DshApp } from '../support/dsh-app'
import { conversationLog, syntheticTurns } from '../support/conversation'
import { toolPairingProblems, wireMessages, wireText } from '../support/wire'
import { isTombstoneEvent } from '../../src/shared/tombstone'
import type { LogEvent } from '../../src/shared/events'
import { readFates } from '../../src/shared/fate'
import { deriveHiddenRows } from '../../src/shared/hidden-rows'
import { transcriptRows } from '../../src/log/log-rows'

const apps: DshApp[] = []
const roots: string[] = []
after(async () => {
  for (const app of apps.splice(0)) await app.dispose()
  for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true })
})

async function boot(root?: string): Promise<DshApp> {
  const app = await bootDshApp({ recall: {}, persistence: root === undefined ? {} : { root } })
  apps.push(app)
  return app
}

async function shut(app: DshApp): Promise<void> {
  apps.splice(apps.indexOf(app), 1)
  await app.dispose()
}

function freshRoot(): string {
  const root = mkdtempSync(join(tmpdir(), 'recall-apply-'))
  roots.push(root)
  return root
}

/** The surface node of `events`/`nodes` whose event has type `type` and whose data mentions `text`. */
function nodeIn(events: readonly LogEvent[], nodes: readonly number[], type: string, text: string): number {
  const hits = nodes.filter((seq) => events[seq]!.type === type && JSON.stringify(events[seq]!.data).includes(text))
  assert.equal(hits.length, 1, `exactly one ${type} surface node mentions ${JSON.stringify(text)}: ${hits}`)
  return hits[0]!
}

function node(session: Session, type: string, text: string): number {
  return nodeIn(session.events as readonly LogEvent[], session.surface.nodes, type, text)
}

const seed = () => conversationLog(syntheticTurns(4, { toolSteps: 1, toolsPerStep: 2 }))

/** Derived messages with each tombstone's fresh id blanked, for comparing two sessions. */
function comparable(session: Session): unknown {
  // A batch's tombstones also carry its batch mark (`source.batch`), which one-by-one writes do not.
  const unmarked = (m: { source: unknown }) => {
    const { batch: _batch, ...source } = m.source as Record<string, unknown>
    return source
  }
  return JSON.parse(JSON.stringify(session.deriveMessages().map((m) => (m.role === 'user' && m.content.length === 0 ? { ...m, id: '<tombstone>', source: unmarked(m) } : m))))
}

/** The surface with each tombstone seq replaced by a marker. */
function surfaceShape(session: Session): (number | string)[] {
  return session.surface.nodes.map((seq) => (isTombstoneEvent(session.events[seq] as LogEvent) ? 'T' : seq))
}

/** The stored events of a session, as the persistence service reads them back. */
async function stored(app: DshApp, id: string): Promise<readonly LogEvent[]> {
  return (await app.ctx.sessionPersistence.readFrom(SessionId(id), 0)).events as readonly LogEvent[]
}

describe('apply: live sessions', () => {
  it('writes scattered removals in one reply, one result per change, and the plan said the same beforehand', async () => {
    const app = await boot()
    const agent = await app.createAgent({ seed: seed() })
    const session = agent.session
    const p2 = node(session, 'user/message', 'prompt #2')
    const r1 = node(session, 'tool/result', 'result #1.1.2')
    const reply4 = node(session, 'assistant/message', 'reply #4')
    const changes = [{ action: 'delete', seq: p2 }, { action: 'delete', seq: r1 }, { action: 'deleteFrom', seq: reply4 }]
    const count = session.seq

    const plan = await app.post({ sessionId: agent.id, action: 'plan', changes })
    assert.equal(plan.status, 200, plan.text)
    assert.equal(session.seq, count, 'plan appends nothing')
    const step1 = [node(session, 'assistant/message', 'step 1 of prompt #1'), node(session, 'tool/result', 'result #1.1.1'), r1]
    assert.deepEqual(plan.json.value.writes, [
      { kind: 'tombstone', changeIndexes: [0], action: 'delete', shadowedSeqs: [p2] },
      { kind: 'tombstone', changeIndexes: [1], action: 'delete', shadowedSeqs: step1 },
      { kind: 'tombstone', changeIndexes: [2], action: 'deleteFrom', shadowedSeqs: [reply4] },
    ])
    assert.equal(plan.json.value.tombstoneCount, 3)
    assert.equal(plan.json.value.restoreCount, 0)
    assert.deepEqual(plan.json.value.removedSeqs, [p2, ...step1, reply4])
    assert.ok(plan.json.value.estimatedTokens > 0)
    assert.equal(plan.json.value.replaceGeneration, session.surface.replaceGeneration)
    // `detail: 'writes'` is the default; `detail: 'counts'` answers the same plan's counts alone.
    assert.deepEqual((await app.post({ sessionId: agent.id, action: 'plan', changes, detail: 'writes' })).json, plan.json)
    const counts = await app.post({ sessionId: agent.id, action: 'plan', changes, detail: 'counts' })
    assert.deepEqual([counts.status, counts.json.value], [200, {
      action: 'plan', detail: 'counts', tombstoneCount: 3, restoreCount: 0, removedCount: 5, restoredCount: 0,
      replaceGeneration: plan.json.value.replaceGeneration, lastSeq: plan.json.value.lastSeq,
    }])
    assert.equal(session.seq, count, 'neither appends anything')

    const applied = await app.post({ sessionId: agent.id, action: 'apply', changes, expect: { replaceGeneration: plan.json.value.replaceGeneration, lastSeq: plan.json.value.lastSeq } })
    assert.equal(applied.status, 200, applied.text)
    assert.equal(session.seq, count + 3)
    assert.deepEqual(applied.json.value, {
      action: 'apply',
      results: [
        { index: 0, action: 'delete', tombstoneSeq: count, range: { start: p2, end: p2 }, shadowedSeqs: [p2] },
        { index: 1, action: 'delete', tombstoneSeq: count + 1, range: { start: step1[0], end: r1 }, shadowedSeqs: step1 },
        { index: 2, action: 'deleteFrom', tombstoneSeq: count + 2, range: { start: reply4, end: reply4 }, shadowedSeqs: [reply4] },
      ],
      replaceGeneration: plan.json.value.replaceGeneration + 3,
      persisted: true,
    })
    assert.deepEqual(foldSurface(session.events).nodes, [...session.surface.nodes])
    const onDisk = await stored(app, agent.id)
    assert.deepEqual(onDisk.filter(isTombstoneEvent).map((e) => e.seq), [count, count + 1, count + 2], 'durable before the reply')
  })

  it('appends nothing when the last change is refused, and names that change', async () => {
    const app = await boot()
    const agent = await app.createAgent({ seed: seed() })
    const session = agent.session
    const p1 = node(session, 'user/message', 'prompt #1')
    const p3 = node(session, 'user/message', 'prompt #3')
    const count = session.seq
    const cases: [unknown[], number, string, string][] = [
      [[{ action: 'delete', seq: p1 }, { action: 'delete', seq: p3 }, { action: 'delete', seq: 999_999 }], 409, 'TARGET_NOT_FOUND',
        'message-recall: change 2 (delete of seq 999999) refused: target seq 999999 is not on the current surface'],
      [[{ action: 'delete', seq: p1 }, { action: 'deleteFrom', seq: p3 + 1 }], 409, 'TARGET_NOT_FOUND',
        `message-recall: change 1 (deleteFrom of seq ${p3 + 1}) refused: target seq ${p3 + 1} is not on the current surface`],
    ]
    for (const [changes, status, code, message] of cases) {
      const reply = await app.post({ sessionId: agent.id, action: 'apply', changes })
      assert.equal(reply.status, status, reply.text)
      assert.deepEqual(reply.json, { ok: false, error: { code, message, index: changes.length - 1 } })
      assert.equal(session.seq, count, 'nothing appended')
    }
    const stale = await app.post({ sessionId: agent.id, action: 'apply', changes: [{ action: 'delete', seq: p1 }], expect: { replaceGeneration: 7 } })
    assert.deepEqual(stale.json, { ok: false, error: { code: 'STALE_VIEW', message: 'message-recall: surface replaceGeneration is 0, expected 7' } })
    assert.equal(session.seq, count)
  })

  it('refuses malformed batches with INVALID_REQUEST (with the index of the change it is about), and ids that are neither live nor stored with SESSION_NOT_LIVE', async () => {
    // A body limit that lets a list of 10,001 changes reach validation.
    const app = await bootDshApp({ recall: { maxBodyBytes: 1 << 20 } })
    apps.push(app)
    const agent = await app.createAgent({ seed: seed() })
    const count = agent.session.seq
    // [body, message, index of the change the refusal is about (none for the whole body)]
    const cases: [Record<string, unknown>, string, number?][] = [
      [{ sessionId: agent.id, action: 'apply' }, 'message-recall: changes must be a non-empty array, got nothing'],
      [{ sessionId: agent.id, action: 'apply', changes: [] }, 'message-recall: changes must be a non-empty array, got []'],
      [{ sessionId: agent.id, action: 'apply', changes: { action: 'delete', seq: 3 } }, 'message-recall: changes must be a non-empty array, got {"action":"delete","seq":3}'],
      [{ sessionId: agent.id, action: 'apply', changes: Array.from({ length: 10_001 }, () => ({ action: 'delete', seq: 3 })) }, 'message-recall: changes holds 10001 entries; at most 10000 are accepted'],
      [{ sessionId: agent.id, action: 'apply', changes: [{ action: 'recall', seq: 3 }] }, 'message-recall: changes[0].action must be one of delete, deleteFrom, exclude, restore, got "recall"', 0],
      [{ sessionId: agent.id, action: 'apply', changes: [{ action: 'delete', seq: 3 }, { action: 'delete', seq: -1 }] }, 'message-recall: changes[1].seq must be a non-negative safe integer, got -1', 1],
      [{ sessionId: agent.id, action: 'apply', changes: [{ action: 'delete', seq: 3 }, { action: 'delete', seq: 4 }, { action: 'recall', seq: 5 }] }, 'message-recall: changes[2].action must be one of delete, deleteFrom, exclude, restore, got "recall"', 2],
      [{ sessionId: agent.id, action: 'apply', changes: [{ action: 'delete', seq: 3 }, { action: 'delete', messageId: 'm-1' }] }, 'message-recall: changes[1] (delete) takes no messageId (fields of a delete change: action, seq)', 1],
      [{ sessionId: agent.id, action: 'apply', changes: [{ action: 'delete', seq: 3 }, 'delete'] }, 'message-recall: changes[1] must be an object, got "delete"', 1],
      [{ sessionId: agent.id, action: 'apply', changes: [{ action: 'restore', seq: 3 }] }, 'message-recall: changes[0] (restore) takes no seq (fields of a restore change: action, tombstoneSeq)', 0],
      [{ sessionId: agent.id, action: 'apply', changes: [{ action: 'delete', seq: 3 }, { action: 'restore' }] }, 'message-recall: changes[1].tombstoneSeq must be a non-negative safe integer, got nothing', 1],
      [{ sessionId: agent.id, action: 'apply', changes: [{ action: 'delete', seq: 3 }], seq: 3 }, 'message-recall: apply takes no seq (fields of apply: sessionId, action, changes, expect)'],
      [{ sessionId: agent.id, action: 'delete', seq: 3, changes: [] }, 'message-recall: delete takes no changes (fields of delete: sessionId, action, seq, messageId, expect)'],
    ]
    for (const [body, message, index] of cases) {
      // The batch `plan` validates the same list the same way (its own word in a stray-field message);
      // a `plan` without `changes` is the single plan.
      const forms = body.action === 'apply' && body.changes !== undefined ? [body, { ...body, action: 'plan' }] : [body]
      for (const form of forms) {
        const reply = await app.post(form)
        assert.equal(reply.status, 400, reply.text)
        // A batch plan also takes `detail`.
        const said = form.action === 'plan' ? message.replace('apply takes no seq (fields of apply: sessionId, action, changes, expect)', 'plan with changes takes no seq (fields of plan with changes: sessionId, action, changes, expect, detail)') : message
        assert.deepEqual(reply.json, { ok: false, error: { code: 'INVALID_REQUEST', message: said, ...(index === undefined ? {} : { index }) } })
      }
    }
    // `detail` belongs to a batch plan alone.
    const details: [Record<string, unknown>, string][] = [
      [{ sessionId: agent.id, action: 'plan', changes: [{ action: 'delete', seq: 3 }], detail: 'all' }, 'message-recall: detail must be one of writes, counts, got "all"'],
      [{ sessionId: agent.id, action: 'plan', changes: [{ action: 'delete', seq: 3 }], detail: null }, 'message-recall: detail must be one of writes, counts, got null'],
      [{ sessionId: agent.id, action: 'apply', changes: [{ action: 'delete', seq: 3 }], detail: 'counts' }, 'message-recall: apply takes no detail (fields of apply: sessionId, action, changes, expect)'],
      [{ sessionId: agent.id, action: 'plan', planAction: 'delete', seq: 3, detail: 'counts' }, 'message-recall: plan of delete takes no detail (fields of plan of delete: sessionId, action, seq, messageId, planAction, expect)'],
      [{ sessionId: agent.id, action: 'delete', seq: 3, detail: 'counts' }, 'message-recall: delete takes no detail (fields of delete: sessionId, action, seq, messageId, expect)'],
      [{ sessionId: agent.id, action: 'inspect', detail: 'counts' }, 'message-recall: inspect takes no detail (fields of inspect: sessionId, action)'],
    ]
    for (const [body, message] of details) {
      const reply = await app.post(body)
      assert.deepEqual([reply.status, reply.json], [400, { ok: false, error: { code: 'INVALID_REQUEST', message } }])
    }
    assert.equal(agent.session.seq, count)
    for (const action of ['apply', 'plan']) {
      const reply = await app.post({ sessionId: 'session-nobody', action, changes: [{ action: 'delete', seq: 1 }] })
      assert.deepEqual([reply.status, reply.json], [409, { ok: false, error: { code: 'SESSION_NOT_LIVE', message: 'message-recall: no session "session-nobody" (neither open in this host nor stored)' } }])
    }
  })

  it('fits about 2,300 of the shortest changes in the default body limit, and 10,000 long ones in 512 KiB', async () => {
    const shortest = (n: number) => Array.from({ length: n }, () => ({ action: 'delete', seq: 0 }))
    const long = (n: number) => Array.from({ length: n }, () => ({ action: 'restore', tombstoneSeq: 1_234_567 }))
    const cases: [number | undefined, unknown[], boolean][] = [
      [undefined, shortest(2_300), true],
      [undefined, shortest(2_400), false],
      [524_288, long(10_000), true],
    ]
    for (const [maxBodyBytes, changes, fits] of cases) {
      const app = await bootDshApp({ recall: maxBodyBytes === undefined ? {} : { maxBodyBytes } })
      apps.push(app)
      const agent = await app.createAgent({ seed: seed() })
      const count = agent.session.seq
      const reply = await app.post({ sessionId: agent.id, action: 'plan', changes })
      // A body that fits reaches the planner, which refuses the first change (seq 0 is not on the
      // surface; no tombstone sits at seq 1,234,567); one that does not is refused before parsing.
      if (!fits) assert.deepEqual([reply.status, reply.json.error.code, 'index' in reply.json.error], [413, 'PAYLOAD_TOO_LARGE', false], reply.text)
      else if (maxBodyBytes === undefined) assert.deepEqual([reply.status, reply.json], [409, { ok: false, error: { code: 'TARGET_NOT_FOUND', index: 0, message: 'message-recall: change 0 (delete of seq 0) refused: target seq 0 is not on the current surface' } }])
      else assert.deepEqual([reply.status, reply.json.error.code, reply.json.error.index], [409, 'TARGET_NOT_FOUND', 0], reply.text)
      assert.equal(agent.session.seq, count, 'nothing appended')
      await shut(app)
    }
  })

  it('answers 423 AGENT_BUSY while the agent runs maintenance, appending nothing', async () => {
    const app = await boot()
    const agent = await app.createAgent({ seed: seed() })
    let release!: () => void
    const held = agent.runMaintenance(() => new Promise<void>((resolve) => { release = resolve }))
    const count = agent.session.seq
    const reply = await app.post({ sessionId: agent.id, action: 'apply', changes: [{ action: 'delete', seq: node(agent.session, 'user/message', 'prompt #1') }] })
    assert.equal(reply.status, 423, reply.text)
    assert.equal(reply.json.error.code, 'AGENT_BUSY')
    assert.equal(agent.session.seq, count)
    release()
    await held
  })

  it('merges duplicates, adjacent and overlapping changes: one tombstone per gap, every change answered', async () => {
    const app = await boot()
    const agent = await app.createAgent({ seed: seed() })
    const session = agent.session
    const p2 = node(session, 'user/message', 'prompt #2')
    const a2 = node(session, 'assistant/message', 'step 1 of prompt #2')
    const r2a = node(session, 'tool/result', 'result #2.1.1')
    const r2 = node(session, 'tool/result', 'result #2.1.2')
    const reply2 = node(session, 'assistant/message', 'reply #2')
    const p4 = node(session, 'user/message', 'prompt #4')
    const reply4 = node(session, 'assistant/message', 'reply #4')
    const count = session.seq
    const changes = [
      { action: 'delete', seq: reply2 },
      { action: 'delete', seq: p2 },
      { action: 'delete', seq: r2 }, // adjacent to both: the three become one range
      { action: 'delete', seq: p2 }, // duplicate
      { action: 'delete', seq: reply4 },
      { action: 'deleteFrom', seq: p4 }, // overlaps the reply-4 removal
    ]
    const reply = await app.post({ sessionId: agent.id, action: 'apply', changes })
    assert.equal(reply.status, 200, reply.text)
    assert.equal(session.seq, count + 2, 'two tombstones')
    const gap2 = [p2, a2, r2a, r2, reply2]
    const first = { action: 'delete', tombstoneSeq: count, range: { start: p2, end: reply2 }, shadowedSeqs: gap2 }
    const onward = { action: 'deleteFrom', tombstoneSeq: count + 1, range: { start: p4, end: reply4 }, shadowedSeqs: (session.events[count + 1] as LogEvent).sourceEventSeqs }
    assert.deepEqual(reply.json.value.results, [
      { index: 0, ...first, action: 'delete' }, { index: 1, ...first }, { index: 2, ...first }, { index: 3, ...first },
      { index: 4, ...onward, action: 'delete' }, { index: 5, ...onward },
    ])
    assert.equal(onward.shadowedSeqs!.at(-1), reply4)
    const nodes = session.surface.nodes
    for (const [i, seq] of nodes.entries()) {
      if (i > 0 && isTombstoneEvent(session.events[seq] as LogEvent)) assert.ok(!isTombstoneEvent(session.events[nodes[i - 1]!] as LogEvent), 'no two tombstones side by side')
    }
    assert.deepEqual(foldSurface(session.events).nodes, [...nodes])
  })

  it('gives the same derived messages and surface as the same changes done one by one', async () => {
    const app = await boot()
    const log = seed()
    const batchAgent = await app.createAgent({ seed: log })
    const singleAgent = await app.createAgent({ seed: log })
    const s = batchAgent.session
    const changes = [
      { action: 'delete', seq: node(s, 'tool/result', 'result #3.1.1') },
      { action: 'delete', seq: node(s, 'user/message', 'prompt #1') },
      { action: 'delete', seq: node(s, 'assistant/message', 'reply #2') },
      { action: 'deleteFrom', seq: node(s, 'user/message', 'prompt #4') },
    ]
    const batch = await app.post({ sessionId: batchAgent.id, action: 'apply', changes })
    assert.equal(batch.status, 200, batch.text)
    for (const change of changes) {
      const one = await app.post({ sessionId: singleAgent.id, ...change })
      assert.equal(one.status, 200, one.text)
    }
    assert.deepEqual(comparable(s), comparable(singleAgent.session))
    assert.deepEqual(surfaceShape(s), surfaceShape(singleAgent.session))
    assert.equal(s.surface.replaceGeneration, singleAgent.session.surface.replaceGeneration)
  })
})

describe('apply: deletes and exclusions together', () => {
  it('gives the same fates, hidden and dimmed rows, derived messages and surface as the same changes one by one', async () => {
    const app = await boot()
    const log = seed()
    const batchAgent = await app.createAgent({ seed: log })
    const singleAgent = await app.createAgent({ seed: log })
    const s = batchAgent.session
    const changes = [
      { action: 'exclude', seq: node(s, 'tool/result', 'result #1.1.1') },
      { action: 'delete', seq: node(s, 'user/message', 'prompt #2') },
      { action: 'exclude', seq: node(s, 'assistant/message', 'reply #2') },
      { action: 'exclude', seq: node(s, 'user/message', 'prompt #3') },
      { action: 'delete', seq: node(s, 'assistant/message', 'reply #3') },
    ]
    const batch = await app.post({ sessionId: batchAgent.id, action: 'apply', changes })
    assert.equal(batch.status, 200, batch.text)
    assert.deepEqual(batch.json.value.results.map((r: { action: string }) => r.action), changes.map((c) => c.action))
    for (const change of changes) {
      const one = await app.post({ sessionId: singleAgent.id, ...change })
      assert.equal(one.status, 200, one.text)
    }
    const batchEvents = s.events as readonly LogEvent[]
    const singleEvents = singleAgent.session.events as readonly LogEvent[]
    // The batch merges the two adjacent exclusions (reply #2, prompt #3) into one tombstone and never
    // merges a delete into an exclusion; one by one, the second exclusion absorbs the first's tombstone.
    const tombstones = (events: readonly LogEvent[]) => readFates(events).tombstones.map((t) => [t.action, t.start, t.end])
    const [result1, prompt2, reply2, prompt3, reply3] = changes.map((c) => c.seq)
    // Turn 1's tool step (its call at 27, the result excluded among its results, to 31) goes whole.
    assert.deepEqual([result1, prompt2, reply2, prompt3, reply3], [29, 65, 117, 124, 176])
    assert.deepEqual(tombstones(batchEvents), [['exclude', 27, 31], ['delete', 65, 65], ['exclude', 117, 124], ['delete', 176, 176]])
    assert.deepEqual(tombstones(singleEvents).map(([action]) => action), ['exclude', 'delete', 'exclude', 'exclude', 'delete'])
    // Every original message's fate.
    const fates = (events: readonly LogEvent[]) => {
      const reader = readFates(events)
      return (log as readonly LogEvent[]).filter((e) => e.surfaceOp === 'append' && ['user/message', 'assistant/message', 'tool/result'].includes(e.type)).map((e) => [e.seq, reader.fateOf(e.seq).state])
    }
    const batchFates = fates(batchEvents)
    assert.deepEqual(batchFates, fates(singleEvents))
    assert.deepEqual([...new Set(batchFates.map(([, state]) => state))].sort(), ['current', 'excluded', 'removed'])
    // The transcript rows hidden and dimmed.
    const rowsOf = (events: readonly LogEvent[]) => {
      const rows = deriveHiddenRows(events, transcriptRows(events))
      return { hidden: [...rows.hiddenKeys].sort(), excluded: [...rows.excludedKeys].sort() }
    }
    const batchRows = rowsOf(batchEvents)
    assert.deepEqual(batchRows, rowsOf(singleEvents))
    assert.ok(batchRows.hidden.length > 0 && batchRows.excluded.length > 0, `both hidden and dimmed rows: ${JSON.stringify(batchRows)}`)
    // What the model is sent: the same messages (the tombstones' own data names the seqs each one shadowed, so they are left out).
    const sent = (session: Session) => JSON.parse(JSON.stringify(session.deriveMessages().filter((m) => !(m.role === 'user' && m.content.length === 0))))
    assert.deepEqual(sent(s), sent(singleAgent.session))
    assert.deepEqual(surfaceShape(s), surfaceShape(singleAgent.session))
  })
})

describe('apply: a batch plan names its own earlier writes', () => {
  it('by their position in writes (shadowedWrites), never as a seq: an exclusion and a restored copy a later Delete onward covers', async () => {
    const app = await boot()
    const agent = await app.createAgent({ seed: seed() })
    const s = agent.session
    const prompt4 = node(s, 'user/message', 'prompt #4')
    const removed = await app.post({ sessionId: agent.id, action: 'delete', seq: prompt4 })
    assert.equal(removed.status, 200, removed.text)
    const prompt3 = node(s, 'user/message', 'prompt #3')
    const reply2 = node(s, 'assistant/message', 'reply #2')
    const changes = [
      { action: 'exclude', seq: prompt3 },
      { action: 'restore', tombstoneSeq: removed.json.value.tombstoneSeq },
      { action: 'deleteFrom', seq: reply2 },
    ]
    const count = s.seq
    const plan = await app.post({ sessionId: agent.id, action: 'plan', changes })
    assert.equal(plan.status, 200, plan.text)
    assert.equal(s.seq, count, 'plan appends nothing')
    const tombstone = removed.json.value.tombstoneSeq
    // The Delete onward covers the surface from reply #2 on: the nodes the session holds by seq,
    // the exclusion's tombstone and the restored copy (events of this batch) by write.
    const nodes = [...s.surface.nodes]
    const onward = nodes.slice(nodes.indexOf(reply2)).filter((seq) => seq !== prompt3 && seq !== tombstone)
    assert.deepEqual(plan.json.value.writes, [
      { kind: 'tombstone', changeIndexes: [0], action: 'exclude', shadowedSeqs: [prompt3] },
      { kind: 'restore', changeIndexes: [1], tombstoneSeq: tombstone, restoredSeq: prompt4 },
      { kind: 'tombstone', changeIndexes: [2], action: 'deleteFrom', shadowedSeqs: onward, shadowedWrites: [0, 1] },
    ])
    assert.ok(!plan.text.includes('null'), 'no null anywhere in the plan')
    // The written batch: those writes got the next seqs, and the Delete onward shadows them there.
    const applied = await app.post({ sessionId: agent.id, action: 'apply', changes })
    assert.equal(applied.status, 200, applied.text)
    const [exclusion, restore, onwardResult] = applied.json.value.results
    assert.deepEqual([exclusion.tombstoneSeq, restore.restoredSeq], [count, count + 1])
    assert.deepEqual([...onwardResult.shadowedSeqs].sort((x: number, y: number) => x - y), [...onward, count, count + 1].sort((x, y) => x - y))
  })
})

describe('apply: a repeated change', () => {
  it('a repeated delete of an answer joins its delete: the prompt after it stays excluded, in view, and every result names its tombstone as written', async () => {
    const app = await boot()
    const log = seed()
    const repeatedAgent = await app.createAgent({ seed: log })
    const plainAgent = await app.createAgent({ seed: log })
    const s = repeatedAgent.session
    const reply2 = node(s, 'assistant/message', 'reply #2')
    const prompt3 = node(s, 'user/message', 'prompt #3')
    assert.equal(s.surface.nodes.indexOf(prompt3), s.surface.nodes.indexOf(reply2) + 1, 'the prompt right after the answer\'s step')
    const changes = [{ action: 'delete', seq: reply2 }, { action: 'exclude', seq: prompt3 }]
    const plain = await app.post({ sessionId: plainAgent.id, action: 'apply', changes })
    const repeated = await app.post({ sessionId: repeatedAgent.id, action: 'apply', changes: [...changes, changes[0]] })
    assert.equal(plain.status, 200, plain.text)
    assert.equal(repeated.status, 200, repeated.text)
    const [deleted, excluded] = plain.json.value.results as { tombstoneSeq: number }[]
    const results = repeated.json.value.results as { index: number; action: string; tombstoneSeq: number; shadowedSeqs: number[] }[]
    assert.deepEqual(results, [
      { index: 0, action: 'delete', tombstoneSeq: deleted!.tombstoneSeq, range: { start: reply2, end: reply2 }, shadowedSeqs: [reply2] },
      { index: 1, action: 'exclude', tombstoneSeq: excluded!.tombstoneSeq, range: { start: deleted!.tombstoneSeq, end: prompt3 }, shadowedSeqs: [deleted!.tombstoneSeq, prompt3] },
      { index: 2, action: 'delete', tombstoneSeq: deleted!.tombstoneSeq, range: { start: reply2, end: reply2 }, shadowedSeqs: [reply2] },
    ])
    // `inspect` reads the tombstones as written: each result's action and range is its tombstone's.
    const inspect = await app.post({ sessionId: repeatedAgent.id, action: 'inspect' })
    assert.equal(inspect.status, 200, inspect.text)
    const written = (inspect.json.value.live.tombstones as { seq: number; action: string; shadowedSeqs: number[]; inEffect: boolean }[])
      .map((t) => [t.seq, t.action, t.shadowedSeqs, t.inEffect])
    assert.deepEqual(written, [[deleted!.tombstoneSeq, 'delete', [reply2], true], [excluded!.tombstoneSeq, 'exclude', [deleted!.tombstoneSeq, prompt3], true]])
    for (const r of results) assert.deepEqual(written.find(([seq]) => seq === r.tombstoneSeq)!.slice(1, 3), [r.action, r.shadowedSeqs])
    const events = s.events as readonly LogEvent[]
    const fates = readFates(events)
    assert.deepEqual([fates.fateOf(reply2).state, fates.fateOf(prompt3).state], ['removed', 'excluded'])
    // The prompt's row stays in view, dimmed; the answer's row is hidden: as the batch without the repeat.
    const rowsOf = (session: Session) => {
      const rows = deriveHiddenRows(session.events as readonly LogEvent[], transcriptRows(session.events as readonly LogEvent[]))
      return { hidden: [...rows.hiddenKeys].sort(), excluded: [...rows.excludedKeys].sort() }
    }
    const rows = rowsOf(s)
    assert.equal(rows.excluded.length, 1)
    assert.deepEqual(rows, rowsOf(plainAgent.session))
    assert.deepEqual(surfaceShape(s), surfaceShape(plainAgent.session))
    assert.deepEqual(comparable(s), comparable(plainAgent.session))
  })
})

describe('apply: stored sessions that are not live', () => {
  it('refuses a batch whose last change is refused without entering the session: nothing is appended', async () => {
    const root = freshRoot()
    const first = await boot(root)
    const agent = await first.createAgent({ seed: seed() })
    const id = agent.id
    const p1 = node(agent.session, 'user/message', 'prompt #1')
    await shut(first)

    const second = await boot(root)
    const before = await stored(second, id)
    for (const action of ['apply', 'plan']) {
      const reply = await second.post({ sessionId: id, action, changes: [{ action: 'delete', seq: p1 }, { action: 'delete', seq: p1 + 1 }] })
      assert.equal(reply.status, 409, reply.text)
      assert.deepEqual(reply.json.error, { code: 'TARGET_NOT_FOUND', message: `message-recall: change 1 (delete of seq ${p1 + 1}) refused: target seq ${p1 + 1} is not on the current surface`, index: 1 })
    }
    assert.equal(second.ctx.sessions.get(SessionId(id)), undefined, 'not live')
    assert.deepEqual(await stored(second, id), before, 'not one event more on disk')
    const single = await second.post({ sessionId: id, action: 'delete', seq: p1 + 1 })
    assert.equal(single.json.error.code, 'TARGET_NOT_FOUND')
    assert.deepEqual(await stored(second, id), before)
  })

  it('applies a batch after a restart without an agent, survives a cold reload, and a real turn runs on it afterwards', async () => {
    const root = freshRoot()
    const first = await boot(root)
    const agent = await first.createAgent({ seed: seed() })
    const id = agent.id
    await first.prompt(agent, 'a real first turn')
    await shut(first)

    const second = await boot(root)
    const events = await stored(second, id)
    const nodes = foldSurface(events as readonly SessionEvent[]).nodes
    const p2 = nodeIn(events, nodes, 'user/message', 'prompt #2')
    const r3 = nodeIn(events, nodes, 'tool/result', 'result #3.1.2')
    const changes = [{ action: 'delete', seq: p2 }, { action: 'delete', seq: r3 }]
    const plan = await second.post({ sessionId: id, action: 'plan', changes })
    assert.equal(plan.status, 200, plan.text)
    const counts = await second.post({ sessionId: id, action: 'plan', changes, detail: 'counts' })
    assert.deepEqual(counts.json.value, {
      action: 'plan', detail: 'counts', tombstoneCount: 2, restoreCount: 0, removedCount: plan.json.value.removedSeqs.length, restoredCount: 0,
      replaceGeneration: plan.json.value.replaceGeneration, lastSeq: plan.json.value.lastSeq,
    })
    assert.deepEqual(await stored(second, id), events, 'plan on a stored session appends nothing')
    const applied = await second.post({ sessionId: id, action: 'apply', changes, expect: { replaceGeneration: plan.json.value.replaceGeneration, lastSeq: plan.json.value.lastSeq } })
    assert.equal(applied.status, 200, applied.text)
    assert.equal(second.ctx.agents.get(SessionId(id)), undefined, 'no agent was created')
    assert.equal(second.ctx.sessions.get(SessionId(id)), undefined, 'the session was released')
    const after = await stored(second, id)
    const tombstones = after.filter(isTombstoneEvent)
    assert.deepEqual(tombstones.map((e) => e.seq), applied.json.value.results.map((r: { tombstoneSeq: number }) => r.tombstoneSeq), 'durable before the reply')
    assert.deepEqual(after.slice(0, events.length), events, 'only appended')
    // A single delete on the stored session works the same way.
    const single = await second.post({ sessionId: id, action: 'delete', seq: nodeIn(events, nodes, 'user/message', 'prompt #4') })
    assert.equal(single.status, 200, single.text)
    await shut(second)

    const third = await boot(root)
    const cold = await third.post({ sessionId: id, action: 'inspect' })
    assert.equal(cold.json.value.live, null)
    assert.deepEqual(cold.json.value.disk.tombstones.map((t: { seq: number }) => t.seq), [...tombstones.map((e) => e.seq), single.json.value.tombstoneSeq])
    const resumed = await third.resumeAgent(id)
    assert.deepEqual(foldSurface(resumed.session.events).nodes, [...resumed.session.surface.nodes])
    const derived = JSON.stringify(resumed.session.deriveMessages())
    for (const gone of ['prompt #2:', 'result #3.1.2', 'prompt #4:']) assert.ok(!derived.includes(gone), `${gone} is not derived`)
    assert.ok(derived.includes('a real first turn'))
    await third.prompt(resumed, 'a turn after the batch')
    const wire = wireMessages(third.mock)
    assert.deepEqual(toolPairingProblems(wire), [])
    const text = wireText(wire)
    for (const gone of ['prompt #2:', 'result #3.1.2', 'result #3.1.1', 'prompt #4:']) assert.ok(!text.includes(gone), `${gone} is not sent to the model`)
    assert.ok(text.includes('a turn after the batch') && text.includes('prompt #3:'))
  })
})
