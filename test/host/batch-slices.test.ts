/**
 * A batch of 10,000 changes does not hold the host: its planning runs in slices of the event
 * loop, so a request sent while it plans is answered first. Over real HTTP in the real rc.8
 * composition, on a live session of 10,000 turns (each prompt's removal is its own tombstone).
 * Order of completion is what is asserted, never a duration: the figures are in `npm run bench`
 * (`bench/plan-slices.bench.ts`). An `apply` whose session is appended to while it plans plans
 * again and writes the plan of the session as it is.
 *
 * When the host has read a long request's whole body is observed on Node's
 * `http.server.request.start` diagnostics channel; the host starts planning in the same turn of
 * the event loop, so a host that plans in one piece lets the test send its `inspect` only after
 * the plan is done.
 */
import assert from 'node:assert/strict'
import { subscribe, unsubscribe } from 'node:diagnostics_channel'
import { request, type IncomingMessage, type ServerResponse } from 'node:http'
import { after, before, describe, it } from 'node:test'
import { setImmediate } from 'node:timers/promises'
import { foldSurface, type Session } from '@deepseek-ai/dsh-session'
import { createUserMessage } from '@deepseek-ai/dsh-llm'
import { bootDshApp, RECALL_PATH, type DshApp } from '../support/dsh-app'
import { conversationLog, syntheticTurns } from '../support/conversation'
import fc from 'fast-check'
import { isTombstoneEvent } from '../../src/shared/tombstone'
import { jsonSteps, JSON_STEP_ELEMENTS, takesSteps } from '../../src/host/json-steps'

const TURNS = 10_000

let app: DshApp
/** One live session of {@link TURNS} turns (the plans leave it as it is; the apply comes last). */
let session: Session
/** A change removing each of its prompts. */
let changes: { action: 'delete'; seq: number }[]
before(async () => {
  app = await bootDshApp({ recall: { maxBodyBytes: 1_000_000 } })
  session = app.createSession({ seed: conversationLog(syntheticTurns(TURNS, { toolSteps: 0, textChars: 8 })) })
  const events = session.events
  changes = session.surface.nodes.filter((seq) => events[seq]!.type === 'user/message').map((seq) => ({ action: 'delete' as const, seq }))
  assert.equal(changes.length, TURNS)
})
after(() => app?.dispose())

/** POST `body`; `reply` resolves with the status and the parsed body. */
function post(body: unknown): { reply: Promise<{ status: number; json: any }> } {
  const text = JSON.stringify(body)
  const reply = new Promise<{ status: number; json: any }>((resolve, reject) => {
    const req = request({
      host: '127.0.0.1', port: app.port, path: RECALL_PATH, method: 'POST',
      headers: { host: `127.0.0.1:${app.port}`, 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(text)) },
    }, (res) => {
      const chunks: Buffer[] = []
      res.on('data', (c: Buffer) => chunks.push(c))
      res.on('end', () => resolve({ status: res.statusCode ?? 0, json: JSON.parse(Buffer.concat(chunks).toString('utf8')) }))
      res.on('error', reject)
    })
    req.on('error', reject)
    req.end(text)
  })
  return { reply }
}

/** A request to the route as the host received it. */
interface Received {
  readonly req: IncomingMessage
  readonly res: ServerResponse
}

/** Every request to the route the host receives from now on, in order of arrival, until `close()`. */
function watchRoute(): { readonly received: Received[]; next(): Promise<Received>; close(): void } {
  const received: Received[] = []
  let waiting: ((r: Received) => void) | undefined
  const onStart = (message: unknown): void => {
    const { request: req, response: res } = message as { request: IncomingMessage; response: ServerResponse }
    if (req.url !== RECALL_PATH) return
    received.push({ req, res })
    waiting?.({ req, res })
    waiting = undefined
  }
  subscribe('http.server.request.start', onStart)
  return {
    received,
    next: () => new Promise((resolve) => (waiting = resolve)),
    close: () => unsubscribe('http.server.request.start', onStart),
  }
}

/** Resolves one turn of the event loop after the host read the whole bodies of the first `count` requests `watch` saw. */
async function bodiesRead(watch: ReturnType<typeof watchRoute>, count: number): Promise<void> {
  while (watch.received.length < count) await watch.next()
  await Promise.all(watch.received.slice(0, count).map(({ req }) => (req.readableEnded ? undefined : new Promise((resolve) => req.once('end', resolve)))))
  await setImmediate()
}

/** How many of `long` the host had not answered yet. */
const running = (long: readonly Received[]): number => long.filter(({ res }) => !res.headersSent).length

/**
 * Send the long requests, wait until the host read them and started on them, then send an
 * `inspect`. Answers how many long requests were still running (not answered by the host) when
 * the `inspect` arrived and when the host answered it, read synchronously on the host's side.
 */
async function raceInspect(sessionId: string, long: unknown[]): Promise<{ atArrival: number; atAnswer: number; replies: { status: number; json: any }[] }> {
  const watch = watchRoute()
  try {
    const posts = long.map((body) => post(body))
    await bodiesRead(watch, long.length)
    const longReceived = watch.received.slice(0, long.length)
    const arriving = watch.next()
    const inspect = post({ sessionId, action: 'inspect' })
    const { res } = await arriving
    const atArrival = running(longReceived)
    const answered = new Promise<number>((resolve) => res.once('prefinish', () => resolve(running(longReceived))))
    const all = await Promise.all([...posts.map((p) => p.reply), inspect.reply])
    assert.equal(all.at(-1)!.status, 200, JSON.stringify(all.at(-1)!.json))
    return { atArrival, atAnswer: await answered, replies: all.slice(0, -1) }
  } finally {
    watch.close()
  }
}

describe('a batch of 10,000 changes plans in slices', () => {
  it('an inspect sent while a 10,000-change plan runs is answered before the plan', async () => {
    const count = session.seq
    const { atArrival, atAnswer, replies } = await raceInspect(session.id, [{ sessionId: session.id, action: 'plan', changes }])
    assert.deepEqual({ atArrival, atAnswer }, { atArrival: 1, atAnswer: 1 }, 'the plan was still running when the inspect arrived and when it was answered')
    assert.equal(replies[0]!.status, 200, JSON.stringify(replies[0]!.json).slice(0, 300))
    assert.equal(replies[0]!.json.value.tombstoneCount, TURNS)
    assert.deepEqual(replies[0]!.json.value.removedSeqs, changes.map((c) => c.seq))
    assert.equal(session.seq, count, 'a plan appends nothing')
  })

  it('and while five such plans run at once, before the last of them', async () => {
    const plan = { sessionId: session.id, action: 'plan', changes }
    const { atArrival, atAnswer, replies } = await raceInspect(session.id, [plan, plan, plan, plan, plan])
    assert.ok(atArrival >= 1 && atAnswer >= 1, `plans still running when the inspect arrived (${atArrival}) and when it was answered (${atAnswer})`)
    for (const reply of replies) assert.equal(reply.json.value.tombstoneCount, TURNS)
  })

  it('an apply of 10,000 changes: the inspect first; appended to while it plans, it plans again and writes every change', async () => {
    const count = session.seq
    const watch = watchRoute()
    let atArrival: number
    let atAnswer: Promise<number>
    let applied: { status: number; json: any }
    let appended: ReturnType<Session['append']>
    try {
      const applying = post({ sessionId: session.id, action: 'apply', changes })
      await bodiesRead(watch, 1)
      const apply = watch.received[0]!
      // Another writer of the session (as a web host call would) while the apply plans.
      appended = session.append('user/message', createUserMessage({ content: [{ type: 'text', text: 'steering while the batch plans' }], source: { kind: 'user' } }), { surfaceOp: 'append' })
      assert.equal(appended.seq, count, 'appended while the apply was still planning')
      const arriving = watch.next()
      const inspect = post({ sessionId: session.id, action: 'inspect' })
      const { res } = await arriving
      atArrival = running([apply])
      atAnswer = new Promise((resolve) => res.once('prefinish', () => resolve(running([apply]))))
      assert.equal((await inspect.reply).status, 200)
      applied = await applying.reply
    } finally {
      watch.close()
    }
    assert.deepEqual({ atArrival, atAnswer: await atAnswer }, { atArrival: 1, atAnswer: 1 }, 'the apply was still running when the inspect arrived and when it was answered')
    assert.equal(applied.status, 200, JSON.stringify(applied.json).slice(0, 300))
    const results = applied.json.value.results as { tombstoneSeq: number; shadowedSeqs: number[] }[]
    assert.equal(results.length, TURNS)
    assert.deepEqual(results.map((r) => r.shadowedSeqs), changes.map((c) => [c.seq]))
    assert.equal(results[0]!.tombstoneSeq, count + 1, 'written after the appended prompt')
    assert.equal(session.events.filter(isTombstoneEvent).length, TURNS)
    assert.ok(session.surface.nodes.includes(appended.seq), 'the appended prompt stays')
    assert.deepEqual(foldSurface(session.events).nodes, [...session.surface.nodes])
  })
})

describe('jsonSteps', () => {
  it('writes the text JSON.stringify writes, in steps for long arrays', () => {
    const run = (value: unknown): { text: string; steps: number } => {
      const steps = jsonSteps(value)
      for (let count = 0; ; count++) {
        const step = steps.next()
        if (step.done) return { text: step.value, steps: count }
      }
    }
    fc.assert(fc.property(fc.jsonValue({ maxDepth: 4 }), (value) => assert.equal(run(value).text, JSON.stringify(value))), { numRuns: 300 })
    // What is written in one piece instead (`sendJsonInSlices`): exactly what would take no step.
    fc.assert(fc.property(fc.jsonValue({ maxDepth: 4 }), (value) => assert.equal(takesSteps(value), run(value).steps > 0)), { numRuns: 300 })
    const long = { value: { removedSeqs: Array.from({ length: JSON_STEP_ELEMENTS + 1 }, (_, i) => i) } }
    assert.deepEqual([takesSteps(long), run(long).steps, takesSteps({ value: { removedSeqs: long.value.removedSeqs.slice(1) } })], [true, 1, false])
    const reply = { ok: true, value: { writes: Array.from({ length: 2_000 }, (_, i) => ({ kind: 'tombstone', changeIndexes: [i], removedSeqs: [i, null] })), skipped: undefined, removedSeqs: Array.from({ length: 1_025 }, (_, i) => i) } }
    const { text, steps } = run(reply)
    assert.equal(text, JSON.stringify(reply))
    assert.equal(steps, Math.ceil(2_000 / JSON_STEP_ELEMENTS) - 1 + Math.ceil(1_025 / JSON_STEP_ELEMENTS) - 1)
  })
})
