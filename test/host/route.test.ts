/**
 * `POST /dsh-message-recall` over real HTTP in the real rc.8 composition (SessionStore, agent
 * registry and loop, WebServer on port 0, JSONL persistence, invariant companions, the plugin):
 * every action and every error code. After each write the cold fold equals the live surface and
 * the derived history lacks the removed content; after each refusal nothing was appended.
 */
import assert from 'node:assert/strict'
import { readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import { request } from 'node:http'
import { connect } from 'node:net'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import type { Plugin } from '@deepseek-ai/cordis'
import type { Agent } from '@deepseek-ai/dsh-agent'
import { foldSurface, type Session } from '@deepseek-ai/dsh-session'
import { bootDshApp, type DshApp, type HttpReply } from '../support/dsh-app'
import { conversationLog, syntheticTurns } from '../support/conversation'
import { isTombstoneEvent } from '../../src/shared/tombstone'
import { LogBuilder } from './log-builder'
import { parseRouteRequest, REQUEST_FIELDS } from '../../src/host/request'

/** The surface node whose event has type `type` and whose data mentions `text`. */
function node(session: Session, type: string, text: string): number {
  const events = session.events
  const hits = session.surface.nodes.filter((seq) => events[seq]!.type === type && JSON.stringify(events[seq]!.data).includes(text))
  assert.equal(hits.length, 1, `exactly one ${type} surface node mentions ${JSON.stringify(text)}: ${hits}`)
  return hits[0]!
}

/** After a write: replay equality, the shadowed seqs gone, and none of `texts` derived any more. */
function assertRemoved(session: Session, removedSeqs: readonly number[], texts: readonly string[]): void {
  assert.deepEqual(foldSurface(session.events).nodes, [...session.surface.nodes])
  for (const seq of removedSeqs) assert.ok(!session.surface.nodes.includes(seq), `seq ${seq} left the surface`)
  const derived = JSON.stringify(session.deriveMessages())
  for (const text of texts) assert.ok(!derived.includes(text), `${JSON.stringify(text)} is no longer derived`)
}

function assertError(reply: HttpReply, status: number, code: string, message?: string | RegExp): void {
  assert.equal(reply.status, status, reply.text)
  assert.match(String(reply.headers['content-type']), /^application\/json/)
  assert.equal(reply.json.ok, false)
  assert.equal(reply.json.error.code, code)
  assert.equal(typeof reply.json.error.message, 'string')
  if (typeof message === 'string') assert.equal(reply.json.error.message, message)
  else if (message) assert.match(reply.json.error.message, message)
}

let app: DshApp
before(async () => {
  app = await bootDshApp({ recall: {}, persistence: {} })
})
after(async () => {
  await app?.dispose()
})

/** A fresh agent seeded with three realistic turns (prompt, a two-call tool step, a reply). */
async function seeded(turns = 3): Promise<{ agent: Agent; session: Session }> {
  const agent = await app.createAgent({ seed: conversationLog(syntheticTurns(turns, { toolSteps: 1, toolsPerStep: 2 })) })
  return { agent, session: agent.session }
}

describe('route: actions', () => {
  it('plan previews a removal with a token estimate and appends nothing', async () => {
    const { agent, session } = await seeded()
    const target = node(session, 'tool/result', 'result #2.1.2')
    const count = session.seq
    const reply = await app.post({ sessionId: agent.id, action: 'plan', planAction: 'delete', seq: target })
    assert.equal(reply.status, 200, reply.text)
    const step = [node(session, 'assistant/message', 'Checking step 1 of prompt #2'), node(session, 'tool/result', 'result #2.1.1'), target]
    const value = reply.json.value
    assert.deepEqual(
      { action: value.action, range: value.range, shadowedSeqs: value.shadowedSeqs, nodeKinds: value.nodeKinds, removedCount: value.removedCount, turn: value.turn, step: value.step, replaceGeneration: value.replaceGeneration, lastSeq: value.lastSeq },
      { action: 'delete', range: { start: step[0], end: target }, shadowedSeqs: step, nodeKinds: ['assistant', 'tool', 'tool'], removedCount: 3, turn: 2, step: 1, replaceGeneration: 0, lastSeq: count - 1 },
    )
    assert.ok(value.estimatedTokens > 80, `estimate ${value.estimatedTokens} counts two 160-character results and the call arguments`)
    assert.equal(session.seq, count)
  })

  it('recall takes a prompt out and returns its text; delete takes a whole tool step; delete onward truncates', async () => {
    const { agent, session } = await seeded()
    const prompt2 = node(session, 'user/message', 'prompt #2')
    const recall = await app.post({ sessionId: agent.id, action: 'recall', seq: prompt2 })
    assert.equal(recall.status, 200, recall.text)
    assert.equal(recall.json.value.action, 'recall')
    assert.match(recall.json.value.text, /^prompt #2: please look at the project/)
    assert.deepEqual(recall.json.value.content, [{ type: 'text', text: recall.json.value.text }])
    assert.deepEqual(recall.json.value.shadowedSeqs, [prompt2])
    assert.equal(recall.json.value.persisted, true)
    assert.equal(recall.json.value.tombstoneSeq, session.seq - 1)
    assert.equal(recall.json.value.replaceGeneration, 1)
    assertRemoved(session, [prompt2], ['prompt #2:'])

    const tool = node(session, 'tool/result', 'result #1.1.1')
    const del = await app.post({ sessionId: agent.id, action: 'delete', seq: tool })
    assert.equal(del.status, 200, del.text)
    assert.equal(del.json.value.shadowedSeqs.length, 3)
    assertRemoved(session, del.json.value.shadowedSeqs, ['result #1.1.1', 'result #1.1.2', 'Checking step 1 of prompt #1'])

    const reply2 = node(session, 'assistant/message', 'reply #2')
    const onward = await app.post({ sessionId: agent.id, action: 'deleteFrom', seq: reply2 })
    assert.equal(onward.status, 200, onward.text)
    assert.equal(onward.json.value.range.start, reply2)
    assertRemoved(session, onward.json.value.shadowedSeqs, ['reply #2', 'prompt #3', 'result #3.1.1', 'reply #3'])
    assert.deepEqual(session.surface.nodes.at(-1), onward.json.value.tombstoneSeq)
    assert.equal(session.events.filter(isTombstoneEvent).length, 3)
  })

  it('a durable removal carries its tombstone in the x-message-recall-tombstone header, equal to the body; a plan and a refusal carry none', async () => {
    const { agent, session } = await seeded()
    const facts = (value: any) => ({ action: value.action, tombstoneSeq: value.tombstoneSeq, range: value.range, shadowedSeqs: value.shadowedSeqs })
    const prompt2 = node(session, 'user/message', 'prompt #2')
    const planned = await app.post({ sessionId: agent.id, action: 'plan', planAction: 'recall', seq: prompt2 })
    assert.equal(planned.status, 200, planned.text)
    assert.equal(planned.headers['x-message-recall-tombstone'], undefined)
    const recall = await app.post({ sessionId: agent.id, action: 'recall', seq: prompt2 })
    assert.equal(recall.status, 200, recall.text)
    assert.equal(recall.json.value.persisted, true)
    assert.deepEqual(JSON.parse(String(recall.headers['x-message-recall-tombstone'])), facts(recall.json.value))
    const tool = node(session, 'tool/result', 'result #1.1.1')
    const del = await app.post({ sessionId: agent.id, action: 'delete', seq: tool })
    assert.equal(del.status, 200, del.text)
    assert.equal(del.headers['x-message-recall-tombstone'], JSON.stringify(facts(del.json.value)))
    assert.deepEqual(facts(del.json.value), { action: 'delete', tombstoneSeq: session.seq - 1, range: { start: del.json.value.shadowedSeqs[0], end: del.json.value.shadowedSeqs.at(-1) }, shadowedSeqs: del.json.value.shadowedSeqs })
    assert.ok(del.json.value.shadowedSeqs.includes(tool))
    const count = session.seq
    const refused = await app.post({ sessionId: agent.id, action: 'delete', seq: tool })
    assertError(refused, 409, 'TARGET_NOT_FOUND')
    assert.equal(refused.headers['x-message-recall-tombstone'], undefined)
    assert.equal(session.seq, count)
  })

  it('addresses a message by id, and writes exactly the planned range when the plan view is sent back as expect', async () => {
    const { agent, session } = await seeded()
    const seq = node(session, 'assistant/message', 'reply #1')
    const messageId = (session.events[seq]!.data as { message: { id: string } }).message.id
    const planned = await app.post({ sessionId: agent.id, action: 'plan', planAction: 'delete', messageId })
    assert.equal(planned.status, 200, planned.text)
    const expect = { replaceGeneration: planned.json.value.replaceGeneration, lastSeq: planned.json.value.lastSeq }
    const written = await app.post({ sessionId: agent.id, action: 'delete', messageId, expect })
    assert.equal(written.status, 200, written.text)
    assert.deepEqual(written.json.value.shadowedSeqs, planned.json.value.shadowedSeqs)
    assertRemoved(session, [seq], ['reply #1'])
  })

  it('inspect reports the live log and the persisted log with the same tombstones', async () => {
    const { agent, session } = await seeded()
    const prompt1 = node(session, 'user/message', 'prompt #1')
    const written = await app.post({ sessionId: agent.id, action: 'delete', seq: prompt1 })
    assert.equal(written.status, 200, written.text)
    const count = session.seq
    const reply = await app.post({ sessionId: agent.id, action: 'inspect' })
    assert.equal(reply.status, 200, reply.text)
    const tombstone = { seq: written.json.value.tombstoneSeq, start: prompt1, end: prompt1, shadowedSeqs: [prompt1], action: 'delete', onSurface: true, inEffect: true, restoredBy: null }
    const live = { eventCount: count, lastSeq: count - 1, surfaceNodeCount: session.surface.nodes.length, replaceGeneration: 1, tombstones: [tombstone], cutShortBatches: [] }
    assert.deepEqual(reply.json.value, { live, disk: live })
    assert.equal(session.seq, count)
  })

  it('writes directly to a live session that no agent drives', async () => {
    const b = new LogBuilder()
    const t = b.turn('lonely prompt', [{ text: 'lonely reply' }])
    const session = app.createSession({ seed: b.events as never })
    const reply = await app.post({ sessionId: session.id, action: 'recall', seq: t.prompt })
    assert.equal(reply.status, 200, reply.text)
    assert.equal(reply.json.value.text, 'lonely prompt')
    assertRemoved(session, [t.prompt], ['lonely prompt'])
  })
})

describe('route: write path cost', () => {
  it('reads the whole log (session.events) once per session, not once per write, even across a turn', async () => {
    const { agent, session } = await seeded()
    const targets = [node(session, 'user/message', 'prompt #1'), node(session, 'assistant/message', 'reply #2')]
    const getter = Object.getOwnPropertyDescriptor(Object.getPrototypeOf(session), 'events')!.get!
    let reads = 0
    Object.defineProperty(session, 'events', { configurable: true, get() { reads += 1; return getter.call(this) } })
    try {
      for (const seq of targets) assert.equal((await app.post({ sessionId: agent.id, action: 'delete', seq })).status, 200)
      assert.equal(reads, 1, 'the first write copies the log once; the next follows session/event')
      await app.prompt(agent, 'a turn between two writes')
      const before = reads
      const prompt = session.surface.nodes.find((seq) => JSON.stringify(getter.call(session)[seq]!.data).includes('a turn between two writes'))!
      assert.equal((await app.post({ sessionId: agent.id, action: 'recall', seq: prompt })).status, 200)
      assert.equal(reads, before, 'the events the turn appended reached the index through session/event')
    } finally {
      delete (session as unknown as Record<string, unknown>).events
    }
    assertRemoved(session, [], ['a turn between two writes'])
  })
})

describe('route: refusals of the session and the planner', () => {
  it('answers every refusal with its code and appends nothing', async () => {
    const { agent, session } = await seeded()
    const prompt1 = node(session, 'user/message', 'prompt #1')
    const reply1 = node(session, 'assistant/message', 'reply #1')
    const count = session.seq
    const cases: [body: Record<string, unknown>, status: number, code: string, message: string | RegExp][] = [
      [{ sessionId: 'session-nobody', action: 'delete', seq: 1 }, 409, 'SESSION_NOT_LIVE', 'message-recall: no session "session-nobody" (neither open in this host nor stored)'],
      [{ sessionId: 'session-nobody', action: 'plan', planAction: 'recall', seq: 1 }, 409, 'SESSION_NOT_LIVE', 'message-recall: no session "session-nobody" (neither open in this host nor stored)'],
      [{ sessionId: 'session-nobody', action: 'inspect' }, 409, 'SESSION_NOT_LIVE', 'message-recall: no session "session-nobody" (neither open in this host nor stored)'],
      [{ sessionId: 's'.repeat(512), action: 'inspect' }, 409, 'SESSION_NOT_LIVE', `message-recall: no session "${'s'.repeat(512)}" (neither open in this host nor stored)`],
      [{ sessionId: agent.id, action: 'delete', seq: 0 }, 409, 'TARGET_NOT_FOUND', 'message-recall: target seq 0 is not on the current surface'],
      [{ sessionId: agent.id, action: 'delete', seq: 1e9 }, 409, 'TARGET_NOT_FOUND', 'message-recall: target seq 1000000000 is not on the current surface'],
      [{ sessionId: agent.id, action: 'delete', messageId: 'nope' }, 409, 'TARGET_NOT_FOUND', 'message-recall: no current surface node carries message id "nope"'],
      // A long message id (512 is allowed) is quoted cut: its first 80 characters, `…` and its length.
      [{ sessionId: agent.id, action: 'delete', messageId: 'm'.repeat(512) }, 409, 'TARGET_NOT_FOUND', `message-recall: no current surface node carries message id "${'m'.repeat(80)}…" (512 characters)`],
      [{ sessionId: agent.id, action: 'plan', planAction: 'recall', messageId: 'm'.repeat(81) }, 409, 'TARGET_NOT_FOUND', `message-recall: no current surface node carries message id "${'m'.repeat(80)}…" (81 characters)`],
      [{ sessionId: agent.id, action: 'delete', messageId: 'm'.repeat(80) }, 409, 'TARGET_NOT_FOUND', `message-recall: no current surface node carries message id "${'m'.repeat(80)}"`],
      [{ sessionId: agent.id, action: 'recall', seq: reply1 }, 409, 'NOT_A_USER_MESSAGE', `message-recall: seq ${reply1} is an assistant node, not a message the person sent; only those can be recalled`],
      [{ sessionId: agent.id, action: 'delete', seq: prompt1, expect: { replaceGeneration: 7 } }, 409, 'STALE_VIEW', 'message-recall: surface replaceGeneration is 0, expected 7'],
      [{ sessionId: agent.id, action: 'deleteFrom', seq: prompt1, expect: { lastSeq: prompt1 } }, 409, 'STALE_VIEW', /^message-recall: surface node seq \d+ is newer than the expected last seq \d+$/],
    ]
    for (const [body, status, code, message] of cases) {
      assertError(await app.post(body), status, code, message)
      assert.equal(session.seq, count, `${code}: nothing appended`)
    }
  })

  it('answers an id neither open nor stored with one sentence from every action', async () => {
    const nobody = 'session-nope'
    const sentence = `message-recall: no session "${nobody}" (neither open in this host nor stored)`
    const bodies: Record<string, unknown>[] = [
      { action: 'recall', seq: 1 }, { action: 'delete', seq: 1 }, { action: 'deleteFrom', seq: 1 }, { action: 'exclude', messageId: 'm' },
      { action: 'restore', tombstoneSeq: 1 }, { action: 'forkBefore', tombstoneSeq: 1 }, { action: 'flush' }, { action: 'inspect' },
      { action: 'plan', planAction: 'delete', seq: 1 }, { action: 'plan', planAction: 'erase', tombstoneSeq: 1 }, { action: 'plan', planAction: 'rewriteSummary', checkpointSeq: 1 },
      { action: 'plan', changes: [{ action: 'delete', seq: 1 }] }, { action: 'apply', changes: [{ action: 'delete', seq: 1 }] },
      { action: 'erase', tombstoneSeq: 1 }, { action: 'erase', tombstoneSeq: 1, when: 'next-start' }, { action: 'cancelErase', tombstoneSeq: 1 }, { action: 'pendingErases' },
      { action: 'editSummary', checkpointSeq: 1, summary: 'x' }, { action: 'undoRewrite', checkpointSeq: 1 }, { action: 'rewriteSummary', checkpointSeq: 1 },
    ]
    const said = []
    for (const body of bodies) {
      const reply = await app.post({ sessionId: nobody, ...body })
      said.push([body.action, body.planAction ?? body.when ?? '', reply.status, reply.json?.error?.code, reply.json?.error?.message])
    }
    assert.deepEqual(said, bodies.map((body) => [body.action, body.planAction ?? body.when ?? '', 409, 'SESSION_NOT_LIVE', sentence]))
  })

  it('refuses harness-injected context and an earlier tombstone with NOT_DELETABLE', async () => {
    // The loop's runtime-context message (source plugin @deepseek-ai/dsh-system-prompt); this
    // composition configures no runtime-context sections, so the seed carries one.
    const b = new LogBuilder()
    const t = b.turn('prompt with context', [{ text: 'reply' }], { context: true })
    const context = t.prompt + 1
    const session = app.createSession({ seed: b.events as never })
    const written = await app.post({ sessionId: session.id, action: 'delete', seq: t.steps[0]!.assistant })
    assert.equal(written.status, 200, written.text)
    const count = session.seq
    assertError(await app.post({ sessionId: session.id, action: 'delete', seq: context }), 409, 'NOT_DELETABLE',
      `message-recall: seq ${context} cannot be removed: it is the agent loop's runtime context, which the loop injects again at the next step once it is gone`)
    assertError(await app.post({ sessionId: session.id, action: 'recall', seq: context }), 409, 'NOT_A_USER_MESSAGE',
      `message-recall: seq ${context} is a context node, not a message the person sent; only those can be recalled`)
    assertError(await app.post({ sessionId: session.id, action: 'deleteFrom', seq: written.json.value.tombstoneSeq }), 409, 'NOT_DELETABLE',
      `message-recall: seq ${written.json.value.tombstoneSeq} cannot be removed: it is a tombstone of this plugin, which stands for messages already removed; a restore or a copy from before it undoes it`)
    assert.equal(session.seq, count)
  })

  it('refuses a step split by a foreign node with SPAN_NOT_CONTIGUOUS', async () => {
    const b = new LogBuilder()
    b.startTurn().startStep()
    b.user('prompt')
    const asst = b.assistant('calling two', ['x', 'y'])
    b.result('x', 'x result')
    const foreign = b.user('typed while the tools ran')
    b.result('y', 'y result')
    b.endTurn()
    const session = app.createSession({ seed: b.events as never })
    const count = session.seq
    assertError(await app.post({ sessionId: session.id, action: 'delete', seq: asst }), 409, 'SPAN_NOT_CONTIGUOUS',
      `message-recall: turn 1 step 1 of seq ${asst} is not contiguous on the surface: seq ${foreign} sits inside it`)
    assert.equal(session.seq, count)
  })

  it('answers 423 AGENT_BUSY while the agent runs maintenance, then writes once it is idle', async () => {
    const { agent, session } = await seeded()
    const prompt1 = node(session, 'user/message', 'prompt #1')
    let release!: () => void
    const held = agent.runMaintenance(() => new Promise<void>((resolve) => { release = resolve }))
    const count = session.seq
    assertError(await app.post({ sessionId: agent.id, action: 'delete', seq: prompt1 }), 423, 'AGENT_BUSY', new RegExp(`^message-recall: session "${agent.id}" is busy: agent "${agent.id}" already has active work$`))
    assert.equal(session.seq, count)
    release()
    await held
    const reply = await app.post({ sessionId: agent.id, action: 'delete', seq: prompt1 })
    assert.equal(reply.status, 200, reply.text)
    assertRemoved(session, [prompt1], ['prompt #1:'])
  })

  it('answers 500 PERSIST_FAILED when the durability flush rejects', async () => {
    const { agent, session } = await seeded()
    assert.equal(await app.ctx.sessions.flush(session), true)
    const walk = (dir: string): string[] => readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walk(join(dir, e.name)) : [join(dir, e.name)]))
    const file = walk(app.root!).find((f) => f.includes(agent.id) && f.endsWith('session.jsonl.zstd'))!
    const dir = join(file, '..')
    renameSync(dir, `${dir}.moved`)
    writeFileSync(dir, 'a file where the session folder was')
    try {
      const target = node(session, 'user/message', 'prompt #3')
      const failed = await app.post({ sessionId: agent.id, action: 'delete', seq: target })
      assertError(failed, 500, 'PERSIST_FAILED',
        new RegExp(`^message-recall: seq ${session.seq - 1} \\(delete\\) was appended to session "${agent.id}" and is in effect, but it is not yet durable: the durability flush failed 4 times: `))
      assert.equal(failed.headers['x-message-recall-tombstone'], undefined, 'a write that is not durable names no durable tombstone')
    } finally {
      rmSync(dir)
      renameSync(`${dir}.moved`, dir)
    }
    assert.equal(await app.ctx.sessions.flush(session), true)
  })

  it('answers 500 INTERNAL when the stored log cannot be read', async () => {
    const b = new LogBuilder()
    b.turn('stored prompt', [{ text: 'stored reply' }])
    const session = app.createSession({ seed: b.events as never, cwd: '/projects/corrupt' })
    assert.equal(await app.ctx.sessions.flush(session), true)
    const walk = (dir: string): string[] => readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walk(join(dir, e.name)) : [join(dir, e.name)]))
    const file = walk(app.root!).find((f) => f.includes(session.id) && f.endsWith('session.jsonl.zstd'))!
    const original = readdirSync(join(file, '..'))
    assert.deepEqual(original, ['session.jsonl.zstd'])
    const bytes = readFileSync(file)
    // Corrupt the last frame's checksum region: the stored log no longer validates.
    bytes[bytes.length - 1] = bytes[bytes.length - 1]! ^ 0xff
    bytes[bytes.length - 2] = bytes[bytes.length - 2]! ^ 0xff
    writeFileSync(file, bytes)
    const reply = await app.post({ sessionId: session.id, action: 'inspect' })
    assertError(reply, 500, 'INTERNAL', /^message-recall: /)
  })
})

describe('route: bad input', () => {
  const raw = (options: { method?: string; headers?: Record<string, string>; body?: string }) => app.request({ ...options, headers: { 'content-type': 'application/json', ...options.headers } })
  const body = (value: unknown) => JSON.stringify(value)

  it('refuses each malformed request with its code and appends nothing', async () => {
    const { agent, session } = await seeded(1)
    const prompt = node(session, 'user/message', 'prompt #1')
    const id = agent.id
    const host = `127.0.0.1:${app.port}`
    const count = session.seq
    const cases: [label: string, options: { method?: string; headers?: Record<string, string>; body?: string }, status: number, code: string, message?: string | RegExp][] = [
      ['body not JSON', { body: '{"sessionId":' }, 400, 'INVALID_REQUEST', /^message-recall: request body is not JSON: /],
      ['body a JSON array', { body: '[]' }, 400, 'INVALID_REQUEST', 'message-recall: request body must be a JSON object, got an array'],
      ['body JSON null', { body: 'null' }, 400, 'INVALID_REQUEST', 'message-recall: request body must be a JSON object, got null'],
      ['body a JSON string', { body: '"delete"' }, 400, 'INVALID_REQUEST', 'message-recall: request body must be a JSON object, got a string'],
      ['body a JSON number', { body: '7' }, 400, 'INVALID_REQUEST', 'message-recall: request body must be a JSON object, got a number'],
      ['sessionId over 512 characters, never echoed', { body: body({ sessionId: 's'.repeat(60_000), action: 'inspect' }) }, 400, 'INVALID_REQUEST', 'message-recall: sessionId must be at most 512 characters, got 60000'],
      ['malformed Host', { headers: { host: 'a b' }, body: body({ sessionId: id, action: 'delete', seq: prompt }) }, 403, 'FORBIDDEN', 'message-recall: Host header "a b" is malformed'],
      ['empty body', { body: '' }, 400, 'INVALID_REQUEST', /^message-recall: request body is not JSON: /],
      ['unknown action', { body: body({ sessionId: id, action: 'purge', seq: prompt }) }, 400, 'INVALID_REQUEST', 'message-recall: action must be one of recall, delete, deleteFrom, exclude, restore, forkBefore, flush, plan, apply, inspect, erase, cancelErase, pendingErases, editSummary, undoRewrite, rewriteSummary, got "purge"'],
      ['seq as a string', { body: body({ sessionId: id, action: 'delete', seq: String(prompt) }) }, 400, 'INVALID_REQUEST', `message-recall: seq must be a non-negative safe integer, got "${prompt}"`],
      ['negative seq', { body: body({ sessionId: id, action: 'delete', seq: -1 }) }, 400, 'INVALID_REQUEST', 'message-recall: seq must be a non-negative safe integer, got -1'],
      ['fractional seq', { body: body({ sessionId: id, action: 'delete', seq: 1.5 }) }, 400, 'INVALID_REQUEST', 'message-recall: seq must be a non-negative safe integer, got 1.5'],
      ['unsafe seq, quoted as sent', { body: '{"sessionId":"' + id + '","action":"delete","seq":9007199254740993}' }, 400, 'INVALID_REQUEST', 'message-recall: the number 9007199254740993 in "seq" is past the safe integer range (2^53 - 1); no field takes it'],
      ['unsafe tombstoneSeq in a batch change', { body: '{"sessionId":"' + id + '","action":"apply","changes":[{"action":"restore","tombstoneSeq":1e400}]}' }, 400, 'INVALID_REQUEST', 'message-recall: the number 1e400 in "tombstoneSeq" is past the safe integer range (2^53 - 1); no field takes it'],
      ['unsafe number in an array', { body: '{"sessionId":"' + id + '","action":"apply","changes":[12345678901234567890]}' }, 400, 'INVALID_REQUEST', 'message-recall: the number 12345678901234567890 in item 0 of an array is past the safe integer range (2^53 - 1); no field takes it'],
      ['unsafe number under an object key "0"', { body: '{"sessionId":"' + id + '","action":"apply","changes":[{"0":-1e99}]}' }, 400, 'INVALID_REQUEST', 'message-recall: the number -1e99 in "0" is past the safe integer range (2^53 - 1); no field takes it'],
      ['a 16-digit run in a string is no number', { body: body({ sessionId: id, action: 'delete', messageId: '1234567890123456', seq: 9007199254740991 }) }, 400, 'INVALID_REQUEST', 'message-recall: exactly one of seq and messageId is required'],
      ['both seq and messageId', { body: body({ sessionId: id, action: 'delete', seq: prompt, messageId: 'm' }) }, 400, 'INVALID_REQUEST', 'message-recall: exactly one of seq and messageId is required'],
      ['neither seq nor messageId', { body: body({ sessionId: id, action: 'recall' }) }, 400, 'INVALID_REQUEST', 'message-recall: exactly one of seq and messageId is required'],
      ['sessionId a number', { body: body({ sessionId: 7, action: 'delete', seq: prompt }) }, 400, 'INVALID_REQUEST', 'message-recall: sessionId must be a non-empty string, got 7'],
      // A missing field reads `got nothing`, in every form of request.
      ['no sessionId', { body: body({ action: 'delete', seq: prompt }) }, 400, 'INVALID_REQUEST', 'message-recall: sessionId must be a non-empty string, got nothing'],
      ['no sessionId on editSummary', { body: body({ action: 'editSummary', checkpointSeq: 1, summary: 'x' }) }, 400, 'INVALID_REQUEST', 'message-recall: sessionId must be a non-empty string, got nothing'],
      ['no sessionId on a plan of rewriteSummary', { body: body({ action: 'plan', planAction: 'rewriteSummary', checkpointSeq: 1 }) }, 400, 'INVALID_REQUEST', 'message-recall: sessionId must be a non-empty string, got nothing'],
      ['no sessionId on a plan of erase', { body: body({ action: 'plan', planAction: 'erase', tombstoneSeq: 1 }) }, 400, 'INVALID_REQUEST', 'message-recall: sessionId must be a non-empty string, got nothing'],
      ['no action', { body: body({ sessionId: id, seq: prompt }) }, 400, 'INVALID_REQUEST', 'message-recall: action must be one of recall, delete, deleteFrom, exclude, restore, forkBefore, flush, plan, apply, inspect, erase, cancelErase, pendingErases, editSummary, undoRewrite, rewriteSummary, got nothing'],
      ['no checkpointSeq', { body: body({ sessionId: id, action: 'undoRewrite' }) }, 400, 'INVALID_REQUEST', 'message-recall: checkpointSeq must be a non-negative safe integer, got nothing'],
      ['no summary', { body: body({ sessionId: id, action: 'editSummary', checkpointSeq: 1 }) }, 400, 'INVALID_REQUEST', 'message-recall: summary must be a non-empty string, got nothing'],
      // A long messageId is bounded and named by its length, as a long sessionId.
      ['messageId over 512 characters, never echoed', { body: body({ sessionId: id, action: 'delete', messageId: 'm'.repeat(60_000) }) }, 400, 'INVALID_REQUEST', 'message-recall: messageId must be at most 512 characters, got 60000'],
      ['messageId over 512 characters on a plan', { body: body({ sessionId: id, action: 'plan', planAction: 'recall', messageId: 'm'.repeat(513) }) }, 400, 'INVALID_REQUEST', 'message-recall: messageId must be at most 512 characters, got 513'],
      ['a repeated key (last-wins would read a write)', { body: `{"sessionId":"${id}","action":"plan","action":"delete","seq":${prompt}}` }, 400, 'INVALID_REQUEST', 'message-recall: key "action" appears twice in the request body'],
      ['a repeated key spelled with an escape', { body: `{"sessionId":"${id}","action":"plan","\\u0061ction":"recall","seq":${prompt}}` }, 400, 'INVALID_REQUEST', 'message-recall: key "action" appears twice in the request body'],
      ['a repeated key inside expect', { body: `{"sessionId":"${id}","action":"delete","seq":${prompt},"expect":{"lastSeq":0,"lastSeq":${count - 1}}}` }, 400, 'INVALID_REQUEST', 'message-recall: key "lastSeq" appears twice in "expect"'],
      ['unknown field', { body: body({ sessionId: id, action: 'delete', startSeq: prompt }) }, 400, 'INVALID_REQUEST', 'message-recall: unknown field "startSeq" (allowed: sessionId, action, seq, messageId, tombstoneSeq, planAction, checkpointSeq, summary, expect, changes, detail, when)'],
      ['a summary on a removal', { body: body({ sessionId: id, action: 'delete', seq: prompt, summary: 'x' }) }, 400, 'INVALID_REQUEST', 'message-recall: delete takes no summary (fields of delete: sessionId, action, seq, messageId, expect)'],
      ['a checkpointSeq on a restore', { body: body({ sessionId: id, action: 'restore', tombstoneSeq: prompt, checkpointSeq: 3 }) }, 400, 'INVALID_REQUEST', 'message-recall: restore takes no checkpointSeq (fields of restore: sessionId, action, tombstoneSeq, expect)'],
      ['a summary on inspect', { body: body({ sessionId: id, action: 'inspect', summary: 'x' }) }, 400, 'INVALID_REQUEST', 'message-recall: inspect takes no summary (fields of inspect: sessionId, action)'],
      ['a checkpointSeq on a plan of a removal', { body: body({ sessionId: id, action: 'plan', planAction: 'delete', seq: prompt, checkpointSeq: 3 }) }, 400, 'INVALID_REQUEST', 'message-recall: plan of delete takes no checkpointSeq (fields of plan of delete: sessionId, action, seq, messageId, planAction, expect)'],
      ['plan without planAction', { body: body({ sessionId: id, action: 'plan', seq: prompt }) }, 400, 'INVALID_REQUEST', 'message-recall: planAction must be one of recall, delete, deleteFrom, exclude, rewriteSummary, erase, got nothing'],
      ['plan with nothing to plan', { body: body({ sessionId: id, action: 'plan' }) }, 400, 'INVALID_REQUEST', 'message-recall: planAction must be one of recall, delete, deleteFrom, exclude, rewriteSummary, erase, got nothing'],
      ['planAction on a write', { body: body({ sessionId: id, action: 'delete', planAction: 'delete', seq: prompt }) }, 400, 'INVALID_REQUEST', 'message-recall: delete takes no planAction (fields of delete: sessionId, action, seq, messageId, expect)'],
      ['expect of the wrong type', { body: body({ sessionId: id, action: 'delete', seq: prompt, expect: { replaceGeneration: '0' } }) }, 400, 'INVALID_REQUEST', 'message-recall: expect.replaceGeneration must be a non-negative safe integer, got "0"'],
      ['inspect with a target', { body: body({ sessionId: id, action: 'inspect', seq: prompt }) }, 400, 'INVALID_REQUEST', 'message-recall: inspect takes no seq (fields of inspect: sessionId, action)'],
      // A field the action does not take: one sentence, with the fields it takes, for every action.
      ['pendingErases with a tombstoneSeq', { body: body({ sessionId: id, action: 'pendingErases', tombstoneSeq: 3 }) }, 400, 'INVALID_REQUEST', 'message-recall: pendingErases takes no tombstoneSeq (fields of pendingErases: sessionId, action)'],
      ['cancelErase with an expect', { body: body({ sessionId: id, action: 'cancelErase', tombstoneSeq: 3, expect: {} }) }, 400, 'INVALID_REQUEST', 'message-recall: cancelErase takes no expect (fields of cancelErase: sessionId, action, tombstoneSeq)'],
      ['forkBefore with a messageId', { body: body({ sessionId: id, action: 'forkBefore', messageId: 'm' }) }, 400, 'INVALID_REQUEST', 'message-recall: forkBefore takes no messageId (fields of forkBefore: sessionId, action, tombstoneSeq); address the tombstone by tombstoneSeq'],
      ['undoRewrite with a summary', { body: body({ sessionId: id, action: 'undoRewrite', checkpointSeq: 3, summary: 'x' }) }, 400, 'INVALID_REQUEST', 'message-recall: undoRewrite takes no summary (fields of undoRewrite: sessionId, action, checkpointSeq, expect)'],
      ['editSummary with a seq', { body: body({ sessionId: id, action: 'editSummary', checkpointSeq: 3, summary: 'x', seq: 1 }) }, 400, 'INVALID_REQUEST', 'message-recall: editSummary takes no seq (fields of editSummary: sessionId, action, checkpointSeq, summary, expect)'],
      ['a plan of rewriteSummary with a seq', { body: body({ sessionId: id, action: 'plan', planAction: 'rewriteSummary', checkpointSeq: 3, seq: 1 }) }, 400, 'INVALID_REQUEST', 'message-recall: plan of rewriteSummary takes no seq (fields of plan of rewriteSummary: sessionId, action, planAction, checkpointSeq, expect)'],
      ['an unknown field on editSummary lists every field', { body: body({ sessionId: id, action: 'editSummary', checkpointSeq: 3, summary: 'x', startSeq: 1 }) }, 400, 'INVALID_REQUEST', 'message-recall: unknown field "startSeq" (allowed: sessionId, action, seq, messageId, tombstoneSeq, planAction, checkpointSeq, summary, expect, changes, detail, when)'],
      ['wrong content type', { headers: { 'content-type': 'text/plain' }, body: body({ sessionId: id, action: 'delete', seq: prompt }) }, 415, 'UNSUPPORTED_MEDIA_TYPE', 'message-recall: content type "text/plain" is not application/json'],
      ['form content type', { headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'a=1' }, 415, 'UNSUPPORTED_MEDIA_TYPE'],
      ['a gzip Content-Encoding over a plain body', { headers: { 'content-encoding': 'gzip' }, body: body({ sessionId: id, action: 'delete', seq: prompt }) }, 415, 'UNSUPPORTED_MEDIA_TYPE', 'message-recall: content encoding "gzip" is not supported; send the body unencoded (identity)'],
      ['JSON in another charset', { headers: { 'content-type': 'application/json; charset=latin1' }, body: body({ sessionId: id, action: 'delete', seq: prompt }) }, 415, 'UNSUPPORTED_MEDIA_TYPE'],
      ['wrong Host', { headers: { host: 'evil.example' }, body: body({ sessionId: id, action: 'delete', seq: prompt }) }, 403, 'FORBIDDEN', 'message-recall: Host "evil.example" is not a trusted host'],
      ['rebinding Host on the right port', { headers: { host: `attacker.test:${app.port}` }, body: body({ sessionId: id, action: 'delete', seq: prompt }) }, 403, 'FORBIDDEN'],
      ['cross-origin Origin', { headers: { origin: 'http://evil.example' }, body: body({ sessionId: id, action: 'delete', seq: prompt }) }, 403, 'FORBIDDEN', `message-recall: Origin "http://evil.example" is not the same origin as Host "${host}"`],
      ['Origin on another port', { headers: { origin: 'http://127.0.0.1:1' }, body: body({ sessionId: id, action: 'delete', seq: prompt }) }, 403, 'FORBIDDEN'],
      ['opaque Origin', { headers: { origin: 'null' }, body: body({ sessionId: id, action: 'delete', seq: prompt }) }, 403, 'FORBIDDEN'],
      ['https Origin on another port', { headers: { origin: 'https://127.0.0.1:1' }, body: body({ sessionId: id, action: 'delete', seq: prompt }) }, 403, 'FORBIDDEN', `message-recall: Origin "https://127.0.0.1:1" is not the same origin as Host "${host}"`],
      ['https Origin of another host on the right port', { headers: { origin: `https://localhost:${app.port}` }, body: body({ sessionId: id, action: 'delete', seq: prompt }) }, 403, 'FORBIDDEN'],
      ['WebSocket-scheme Origin on the right authority', { headers: { origin: `ws://${host}` }, body: body({ sessionId: id, action: 'delete', seq: prompt }) }, 403, 'FORBIDDEN'],
      ['file Origin', { headers: { origin: 'file://' }, body: body({ sessionId: id, action: 'delete', seq: prompt }) }, 403, 'FORBIDDEN'],
      ['sec-fetch-site cross-site', { headers: { 'sec-fetch-site': 'cross-site' }, body: body({ sessionId: id, action: 'delete', seq: prompt }) }, 403, 'FORBIDDEN', 'message-recall: cross-site requests (sec-fetch-site: cross-site) are refused'],
      ['GET', { method: 'GET' }, 405, 'METHOD_NOT_ALLOWED', 'message-recall: method GET is not allowed; use POST'],
      ['PUT with a valid body', { method: 'PUT', body: body({ sessionId: id, action: 'delete', seq: prompt }) }, 405, 'METHOD_NOT_ALLOWED'],
      ['DELETE', { method: 'DELETE' }, 405, 'METHOD_NOT_ALLOWED'],
      ['declared oversize body', { body: body({ sessionId: id, action: 'delete', seq: prompt, messageId: 'x'.repeat(70_000) }) }, 413, 'PAYLOAD_TOO_LARGE', /^message-recall: request body of \d+ bytes exceeds maxBodyBytes 65536$/],
    ]
    for (const [label, options, status, code, message] of cases) {
      const reply = await raw(options)
      assertError(reply, status, code, message)
      if (code === 'METHOD_NOT_ALLOWED') assert.equal(reply.headers.allow, 'POST', label)
      assert.equal(session.seq, count, `${label}: nothing appended`)
    }
    // Same-origin requests from the page pass the fence.
    const same = await raw({ headers: { origin: `http://${host}`, 'sec-fetch-site': 'same-origin' }, body: body({ sessionId: id, action: 'plan', planAction: 'recall', seq: prompt }) })
    assert.equal(same.status, 200, same.text)
    const identity = await raw({ headers: { 'content-encoding': 'identity' }, body: body({ sessionId: id, action: 'plan', planAction: 'recall', seq: prompt }) })
    assert.equal(identity.status, 200, identity.text)
    const localhost = await raw({ headers: { host: `localhost:${app.port}`, origin: `http://localhost:${app.port}` }, body: body({ sessionId: id, action: 'inspect' }) })
    assert.equal(localhost.status, 200, localhost.text)
    // Like /api (dsh-client-connection `isTrustedApiRequest` compares `new URL(origin).host` with
    // the Host), the scheme of an http(s) Origin is not compared: a page behind a TLS-terminating
    // proxy reaches this plain-HTTP server with an https Origin.
    const proxied = await raw({ headers: { origin: `https://${host}` }, body: body({ sessionId: id, action: 'plan', planAction: 'recall', seq: prompt }) })
    assert.equal(proxied.status, 200, proxied.text)
    assert.equal(session.seq, count, 'the passing plans and inspect appended nothing')
  })

  it('the unknown-field message quotes the field table, and docs/http-api.md quotes the same list', () => {
    const sentence = `unknown field "startSeq" (allowed: ${REQUEST_FIELDS.join(', ')})`
    assert.deepEqual(parseRouteRequest({ sessionId: 's', action: 'delete', startSeq: 1 }), { ok: false, refusal: { code: 'INVALID_REQUEST', message: `message-recall: ${sentence}` } })
    const docs = readFileSync(join(import.meta.dirname, '../../docs/http-api.md'), 'utf8')
    assert.ok(docs.includes(`\`${sentence}\``), `docs/http-api.md quotes ${sentence}`)
  })

  it('a trailing slash does not reach the handler: DSH matches the exact path and answers it itself', async () => {
    const { agent, session } = await seeded(1)
    const count = session.seq
    // This composition mounts no fallback, so DSH's web server answers 404 with no body; the web
    // UI's composition hands it to its static file server (405 for a POST, no body).
    const reply = await app.request({ path: '/dsh-message-recall/', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ sessionId: agent.id, action: 'delete', seq: node(session, 'user/message', 'prompt #1') }) })
    assert.equal(reply.status, 404)
    assert.equal(reply.text, '')
    assert.equal(session.seq, count, 'nothing appended')
  })

  it('names a missing Host header and a missing Content-Type without quoting null (HTTP/1.0 over a raw socket)', async () => {
    const { agent, session } = await seeded(1)
    const count = session.seq
    const send = (head: string): Promise<{ status: number; json: any }> => new Promise((resolve, reject) => {
      const text = JSON.stringify({ sessionId: agent.id, action: 'inspect' })
      const socket = connect(app.port, '127.0.0.1', () => socket.write(`POST /dsh-message-recall HTTP/1.0\r\n${head}Content-Length: ${Buffer.byteLength(text)}\r\n\r\n${text}`))
      const chunks: Buffer[] = []
      socket.on('data', (chunk: Buffer) => chunks.push(chunk))
      socket.on('error', reject)
      socket.on('close', () => {
        const reply = Buffer.concat(chunks).toString('utf8')
        if (!reply.includes("\r\n\r\n")) return reject(new Error(`no HTTP reply: ${JSON.stringify(reply)}`))
        const [headers, body] = reply.split('\r\n\r\n') as [string, string]
        resolve({ status: Number(headers.split(' ')[1]), json: JSON.parse(body) })
      })
    })
    assert.deepEqual(await send('Content-Type: application/json\r\n'), { status: 403, json: { ok: false, error: { code: 'FORBIDDEN', message: 'message-recall: the Host header is missing' } } })
    assert.deepEqual(await send(`Host: 127.0.0.1:${app.port}\r\n`), { status: 415, json: { ok: false, error: { code: 'UNSUPPORTED_MEDIA_TYPE', message: 'message-recall: the Content-Type header is missing; use application/json' } } })
    assert.equal((await send(`Host: 127.0.0.1:${app.port}\r\nContent-Type: application/json\r\n`)).status, 200, 'the same request with both headers passes')
    assert.equal(session.seq, count, 'nothing appended')
  })

  it('answers 413 to a streamed body as soon as it passes the cap, without waiting for its end', async () => {
    const { agent, session } = await seeded(1)
    const count = session.seq
    const reply = await new Promise<{ status: number; json: any; sent: number }>((resolve, reject) => {
      let sent = 0
      const req = request({ host: '127.0.0.1', port: app.port, path: '/dsh-message-recall', method: 'POST', headers: { host: `127.0.0.1:${app.port}`, 'content-type': 'application/json', 'transfer-encoding': 'chunked' } }, (res) => {
        const chunks: Buffer[] = []
        res.on('data', (c: Buffer) => chunks.push(c))
        res.on('end', () => resolve({ status: res.statusCode ?? 0, json: JSON.parse(Buffer.concat(chunks).toString('utf8')), sent }))
        res.on('error', reject)
      })
      req.on('error', () => {}) // the server closes the connection after answering; later writes may fail
      req.write(`{"sessionId":"${agent.id}","action":"delete","messageId":"`)
      // 16 KiB every 5 ms, never ending the body: only an early answer resolves this promise.
      const pump = setInterval(() => {
        if (req.destroyed || sent > 4 * 1024 * 1024) return clearInterval(pump)
        req.write('y'.repeat(16 * 1024))
        sent += 16 * 1024
      }, 5)
      req.on('close', () => clearInterval(pump))
    })
    assert.equal(reply.status, 413)
    assert.equal(reply.json.error.code, 'PAYLOAD_TOO_LARGE')
    assert.equal(reply.json.error.message, 'message-recall: request body of more than 65536 bytes exceeds maxBodyBytes 65536')
    assert.ok(reply.sent < 1024 * 1024, `answered after ${reply.sent} bytes, long before the 4 MiB the client would send`)
    assert.equal(session.seq, count)
  })
})

describe('route: lifecycle and config', () => {
  it('serves a configured path with a smaller body cap, and the route goes away with the plugin', async () => {
    const module = (await import(new URL('../../src/host/index.ts', import.meta.url).href)) as Plugin
    const fiber = app.ctx.plugin(module, { path: '/recall-two', maxBodyBytes: 200 })
    await fiber
    const { agent } = await seeded(1)
    const inspect = await app.post({ sessionId: agent.id, action: 'inspect' }, { path: '/recall-two' })
    assert.equal(inspect.status, 200, inspect.text)
    assertError(await app.post({ sessionId: agent.id, action: 'inspect', pad: 'x'.repeat(300) }, { path: '/recall-two' }), 413, 'PAYLOAD_TOO_LARGE')
    await fiber.dispose()
    const gone = await app.post({ sessionId: agent.id, action: 'inspect' }, { path: '/recall-two' })
    assert.equal(gone.status, 404)
    const still = await app.post({ sessionId: agent.id, action: 'inspect' })
    assert.equal(still.status, 200, 'the default route of the first instance stays')
  })
})
