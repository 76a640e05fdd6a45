/**
 * Every malformed request body is a 4xx with nothing appended, over real HTTP in the real rc.8
 * composition, on a live agent session and on a session that is only stored: values nested ten
 * thousand levels deep inside `changes`, `seq` or `expect` (which once answered
 * `500 Maximum call stack size exceeded` from echoing the value in the message), values too long
 * to echo whole, and a fast-check fuzz of broken JSON, invalid UTF-8, repeated keys, stray fields,
 * wrongly typed fields and deep nesting in every position. After every reply both logs are
 * unchanged, in memory and on disk.
 */
import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { after, before, describe, it } from 'node:test'
import fc from 'fast-check'
import { SessionId } from '@deepseek-ai/dsh-session'
import type { DshApp, HttpReply } from '../support/dsh-app'
import { valueText, VALUE_TEXT_MAX } from '../../src/host/value-text'
import { assertError, node, Roots, seededAgent, sessionFile } from './helpers'

const roots = new Roots()
let app: DshApp
let root: string
let liveId: string
let storedId: string
let livePrompt: number
let storedPrompt: number

before(async () => {
  root = roots.root()
  const first = await roots.boot(root)
  const stored = await seededAgent(first, 3)
  storedId = stored.id
  storedPrompt = node(stored.session, 'user/message', 'prompt #2')
  await roots.shut(first)
  app = await roots.boot(root)
  const live = await seededAgent(app, 3)
  liveId = live.id
  livePrompt = node(live.session, 'user/message', 'prompt #2')
  assert.equal(await app.ctx.sessions.flush(live.session), true)
})
after(() => roots.dispose())

/** What both sessions hold now: the live log's length and both logs' bytes on disk. */
function snapshot(): { live: number; liveFile: string; storedFile: string; storedLive: boolean } {
  return {
    live: app.ctx.sessions.get(SessionId(liveId))!.events.length,
    liveFile: readFileSync(sessionFile(root, liveId)).toString('base64'),
    storedFile: readFileSync(sessionFile(root, storedId)).toString('base64'),
    storedLive: app.ctx.sessions.get(SessionId(storedId)) !== undefined,
  }
}

const deepArray = (depth: number): string => '['.repeat(depth) + ']'.repeat(depth)
const deepObject = (depth: number): string => '{"a":'.repeat(depth) + '1' + '}'.repeat(depth)
/** How {@link valueText} writes an array nested deeper than it opens. */
const DEEP_ARRAY_TEXT = '[[[[[[[[…]]]]]]]]'

async function postRaw(body: string | Buffer): Promise<HttpReply> {
  return app.request({ body, headers: { 'content-type': 'application/json' } })
}

describe('values nested ten thousand levels deep', () => {
  for (const action of ['plan', 'apply'] as const) {
    for (const where of ['live', 'stored'] as const) {
      it(`inside changes of ${action} on a ${where} session: 400 naming the change, nothing appended`, async () => {
        const id = where === 'live' ? liveId : storedId
        const before = snapshot()
        const reply = await postRaw(`{"sessionId":${JSON.stringify(id)},"action":"${action}","changes":${deepArray(10_000)}}`)
        assertError(reply, 400, 'INVALID_REQUEST', `message-recall: changes[0] must be an object, got ${DEEP_ARRAY_TEXT}`)
        assert.equal(reply.json.error.index, 0)
        const deeper = await postRaw(`{"sessionId":${JSON.stringify(id)},"action":"${action}","changes":[{"action":"delete","seq":${deepArray(10_000)}}]}`)
        assertError(deeper, 400, 'INVALID_REQUEST', `message-recall: changes[0].seq must be a non-negative safe integer, got ${DEEP_ARRAY_TEXT}`)
        const objects = await postRaw(`{"sessionId":${JSON.stringify(id)},"action":"${action}","changes":[${deepObject(10_000)}]}`)
        assertError(objects, 400, 'INVALID_REQUEST', 'message-recall: changes[0].action must be one of delete, deleteFrom, exclude, restore, got nothing')
        assert.deepEqual(snapshot(), before)
      })
    }
  }

  it('at the top level, in expect and in seq: 400', async () => {
    const before = snapshot()
    assertError(await postRaw(deepArray(10_000)), 400, 'INVALID_REQUEST', 'message-recall: request body must be a JSON object, got an array')
    assertError(await postRaw(`{"sessionId":"${liveId}","action":"delete","seq":${livePrompt},"expect":${deepArray(10_000)}}`), 400, 'INVALID_REQUEST',
      `message-recall: expect must be an object, got ${DEEP_ARRAY_TEXT}`)
    assertError(await postRaw(`{"sessionId":"${storedId}","action":"delete","seq":${deepArray(10_000)}}`), 400, 'INVALID_REQUEST',
      `message-recall: seq must be a non-negative safe integer, got ${DEEP_ARRAY_TEXT}`)
    assertError(await postRaw(`{"sessionId":"${liveId}","action":"delete","seq":${livePrompt},"expect":{"lastSeq":${deepObject(10_000)}}}`), 400, 'INVALID_REQUEST',
      'message-recall: expect.lastSeq must be a non-negative safe integer, got {"a":{"a":{"a":{"a":{"a":{"a":{"a":{"a":…}}}}}}}}')
    assertError(await postRaw(`{"sessionId":"${liveId}","action":"editSummary","checkpointSeq":${deepArray(10_000)},"summary":"x"}`), 400, 'INVALID_REQUEST',
      `message-recall: checkpointSeq must be a non-negative safe integer, got ${DEEP_ARRAY_TEXT}`)
    assertError(await postRaw(`{"sessionId":"${liveId}","action":"editSummary","checkpointSeq":1,"summary":${deepArray(10_000)}}`), 400, 'INVALID_REQUEST',
      `message-recall: summary must be a non-empty string, got ${DEEP_ARRAY_TEXT}`)
    assertError(await postRaw(`{"sessionId":"${'s'.repeat(513)}","action":"undoRewrite","checkpointSeq":1}`), 400, 'INVALID_REQUEST',
      'message-recall: sessionId must be at most 512 characters, got 513')
    assert.deepEqual(snapshot(), before)
  })

  it('a value too long to echo is cut to its first characters', async () => {
    const long = 'x'.repeat(5000)
    const reply = await app.post({ sessionId: liveId, action: 'delete', messageId: 7, seq: long })
    assertError(reply, 400, 'INVALID_REQUEST', `message-recall: seq must be a non-negative safe integer, got "${'x'.repeat(VALUE_TEXT_MAX - 1)}…`)
    const list = await app.post({ sessionId: liveId, action: 'plan', changes: [{ action: 'delete', seq: Array.from({ length: 5000 }, (_, i) => i) }] })
    assertError(list, 400, 'INVALID_REQUEST', `message-recall: changes[0].seq must be a non-negative safe integer, got ${JSON.stringify(Array.from({ length: 5000 }, (_, i) => i)).slice(0, VALUE_TEXT_MAX)}…`)
  })
})

describe('valueText', () => {
  it('equals JSON.stringify for short, shallow values and never throws', () => {
    fc.assert(fc.property(fc.jsonValue({ maxDepth: 4 }), (value) => {
      const json = JSON.stringify(value)
      const text = valueText(value)
      if (json.length <= VALUE_TEXT_MAX) assert.equal(text, json)
      else assert.equal(text.length, VALUE_TEXT_MAX + 1)
    }), { numRuns: 500 })
    assert.equal(valueText(undefined), 'nothing')
    assert.equal(valueText(JSON.parse(deepArray(100_000))), DEEP_ARRAY_TEXT)
  })
})

// ---- the fuzz ----

const FIELDS = ['sessionId', 'action', 'seq', 'messageId', 'tombstoneSeq', 'planAction', 'expect', 'changes']
const ACTIONS = ['recall', 'delete', 'deleteFrom', 'exclude', 'restore', 'apply', 'plan', 'forkBefore', 'flush', 'inspect']
const isSeq = (v: unknown): boolean => typeof v === 'number' && Number.isSafeInteger(v) && v >= 0

/** A JSON value that is not a seq (wrong type, negative, fractional or unsafe). */
const notSeq = fc.oneof(
  fc.jsonValue({ maxDepth: 3 }).filter((v) => !isSeq(v)),
  fc.constantFrom(-1, 1.5, 2 ** 53, '3', [3], { seq: 3 }, null, true),
)

/** One request body (an object) on a real session that is malformed by construction, and what makes it so. */
const malformedObject = fc.record({
  sessionId: fc.constantFrom('live', 'stored'),
  action: fc.constantFrom(...ACTIONS),
  fault: fc.oneof(
    fc.record({ kind: fc.constant('stray' as const), key: fc.string({ minLength: 1, maxLength: 12 }).filter((k) => !FIELDS.includes(k)), value: fc.jsonValue({ maxDepth: 2 }) }),
    fc.record({ kind: fc.constant('seq' as const), field: fc.constantFrom('seq', 'tombstoneSeq'), value: notSeq }),
    fc.record({ kind: fc.constant('expect' as const), value: fc.oneof(notSeq.filter((v) => typeof v !== 'object' || v === null || Array.isArray(v)), fc.record({ lastSeq: notSeq }), fc.record({ other: fc.nat() })) }),
    fc.record({ kind: fc.constant('changes' as const), good: fc.nat({ max: 3 }), bad: fc.oneof(notSeq, fc.record({ action: fc.constantFrom('delete', 'restore', 'drop'), seq: notSeq }), fc.record({ action: fc.constant('delete'), seq: fc.nat(), extra: fc.nat() })) }),
    fc.record({ kind: fc.constant('action' as const), value: fc.jsonValue({ maxDepth: 2 }).filter((v) => !ACTIONS.includes(v as string)) }),
    fc.record({ kind: fc.constant('sessionId' as const), value: fc.jsonValue({ maxDepth: 2 }).filter((v) => typeof v !== 'string' || v.length === 0) }),
  ),
})

type Malformed = typeof malformedObject extends fc.Arbitrary<infer T> ? T : never

/** The body of a malformed object case. */
function objectBody(c: Malformed): Record<string, unknown> {
  const sessionId = c.sessionId === 'live' ? liveId : storedId
  const seq = c.sessionId === 'live' ? livePrompt : storedPrompt
  const body: Record<string, unknown> = { sessionId, action: c.action, seq }
  const f = c.fault
  switch (f.kind) {
    case 'stray':
      body[f.key] = f.value
      break
    case 'seq':
      delete body.seq
      body[f.field] = f.value
      break
    case 'expect':
      body.expect = f.value
      break
    case 'changes':
      delete body.seq
      body.action = c.action === 'plan' ? 'plan' : 'apply'
      body.changes = [...Array.from({ length: f.good }, () => ({ action: 'exclude', seq })), f.bad]
      break
    case 'action':
      body.action = f.value
      break
    case 'sessionId':
      body.sessionId = f.value
      break
  }
  return body
}

/** Raw bodies: cut JSON, invalid UTF-8, repeated keys, deep nesting anywhere. */
const malformedRaw = fc.oneof(
  fc.tuple(malformedObject, fc.double({ min: 0, max: 1, noNaN: true })).map(([c, at]) => {
    const text = JSON.stringify({ ...objectBody(c), action: 'delete', seq: livePrompt, sessionId: liveId })
    return text.slice(0, Math.min(text.length - 1, Math.floor(at * text.length)))
  }),
  fc.constantFrom('', ' ', 'null', 'true', '"delete"', '42', '[]', '{', '}', '{"sessionId":}', '\ufeff{}'),
  fc.uint8Array({ minLength: 1, maxLength: 4 }).map((bytes) => Buffer.concat([
    Buffer.from(`{"sessionId":"${liveId}","action":"delete","seq":${livePrompt},"messageId":"`),
    Buffer.from(bytes.map((b) => 0x80 | (b & 0x3f))), Buffer.from('"}'),
  ])),
  fc.constantFrom(...FIELDS).map((key) => `{"sessionId":"${liveId}","action":"plan","planAction":"delete","seq":${livePrompt},"${key}":1,"${key}":2}`),
  fc.record({
    field: fc.constantFrom('changes', 'seq', 'expect', 'messageId', 'tombstoneSeq', 'planAction', 'sessionId', 'action'),
    depth: fc.integer({ min: 2, max: 20_000 }),
    shape: fc.constantFrom('array', 'object'),
    stored: fc.boolean(),
  }).map(({ field, depth, shape, stored }) => {
    const value = shape === 'array' ? deepArray(depth) : deepObject(depth)
    const id = stored ? storedId : liveId
    return field === 'sessionId' ? `{"sessionId":${value},"action":"delete","seq":1}` : `{"sessionId":"${id}","action":"${field === 'changes' ? 'apply' : 'delete'}","${field}":${value}}`
  }),
)

describe('a fuzz of malformed bodies', () => {
  it('answers every one 4xx and appends nothing to the live or the stored session', async () => {
    const before = snapshot()
    const seen = new Map<number, number>()
    await fc.assert(fc.asyncProperty(fc.oneof(malformedObject.map((c) => JSON.stringify(objectBody(c))), malformedRaw), async (body) => {
      const reply = await postRaw(body)
      seen.set(reply.status, (seen.get(reply.status) ?? 0) + 1)
      assert.ok(reply.status >= 400 && reply.status < 500, `${reply.status} ${reply.text.slice(0, 300)} for ${String(body).slice(0, 300)}`)
      assert.equal(reply.json?.ok, false, reply.text.slice(0, 300))
      assert.deepEqual(snapshot(), before, `nothing appended after ${String(body).slice(0, 300)}`)
    }), { numRuns: Number(process.env.MALFORMED_RUNS ?? 300), seed: Number(process.env.MALFORMED_SEED ?? 22) })
    assert.ok((seen.get(400) ?? 0) > 0, `most are 400: ${JSON.stringify([...seen])}`)
  })
})
