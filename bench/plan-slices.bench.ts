/**
 * How long a batch of 10,000 changes holds the host's event loop, on the real rc.8 composition
 * (no persistence: only planning and the HTTP round trips are measured), on a live session of
 * 10,000 turns where each change removes one prompt (10,000 separate tombstones):
 *
 * - `inspect, idle`: the round trip of an `inspect` on the idle host (the floor);
 * - `inspect during 1 plan` / `during 5 plans`: the round trip of an `inspect` sent once the host
 *   has read the body of one (five) 10,000-change `plan` requests and started planning them;
 * - `longest block during a plan`: the longest stretch the event loop did not turn while one
 *   plan ran, from `monitorEventLoopDelay` at 1 ms resolution, beside the same figure on the idle
 *   host over the same time;
 * - the longest garbage-collection pause in the same time (`PerformanceObserver`, `gc`): V8's
 *   pauses over a heap that holds a 130,000-event session, which no slicing shortens;
 * - for context: the plan's own round trip, the same planning in one piece in-process
 *   (`planBatch`, what every plan blocked before), and the longest block while an `apply` of the
 *   same 10,000 changes runs: its appends are one synchronous block by design (see
 *   `docs/http-api.md`).
 *
 * Targets (printed, not asserted): the longest block during a plan ≤ 16 ms (one 60 Hz frame);
 * the inspect during one plan ≤ idle inspect + 16 ms.
 *
 * Run: `npm run bench -- slices`. `BENCH_SAMPLES=<n>` changes the rounds (default 10).
 */
import { subscribe, unsubscribe } from 'node:diagnostics_channel'
import { request, type IncomingMessage } from 'node:http'
import { monitorEventLoopDelay, performance, PerformanceObserver } from 'node:perf_hooks'
import { setImmediate, setTimeout } from 'node:timers/promises'
import { bootDshApp, RECALL_PATH } from '../test/support/dsh-app'
import { conversationLog, syntheticTurns } from '../test/support/conversation'
import { SLICE_MS } from '../src/host/time-slice'
import { planBatch, type BatchChange } from '../src/host/batch-plan'
import type { LogEvent } from '../src/shared/events'
import { median, p95 } from './support/stats'

const TURNS = 10_000
const ROUNDS = Number(process.env.BENCH_SAMPLES ?? 10)
const FRAME_MS = 16



const app = await bootDshApp({ recall: { maxBodyBytes: 1_000_000 } })
try {
  const session = app.createSession({ seed: conversationLog(syntheticTurns(TURNS, { toolSteps: 0, textChars: 8 })) })
  const events = session.events
  const changes = session.surface.nodes.filter((seq) => events[seq]!.type === 'user/message').map((seq) => ({ action: 'delete', seq }))
  const plan = JSON.stringify({ sessionId: session.id, action: 'plan', changes })
  const inspect = JSON.stringify({ sessionId: session.id, action: 'inspect' })

  /** POST a raw body; resolves with the round trip in ms once the whole reply arrived. */
  const post = (body: string): Promise<number> => new Promise((resolve, reject) => {
    const start = performance.now()
    const req = request({
      host: '127.0.0.1', port: app.port, path: RECALL_PATH, method: 'POST',
      headers: { host: `127.0.0.1:${app.port}`, 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)) },
    }, (res) => {
      res.resume()
      res.on('end', () => (res.statusCode === 200 ? resolve(performance.now() - start) : reject(new Error(`status ${res.statusCode}`))))
    })
    req.on('error', reject)
    req.end(body)
  })

  /** Resolves one turn after the host read the whole bodies of `count` more route requests. */
  const bodiesRead = (count: number): Promise<void> => new Promise((resolve) => {
    let left = count
    const onStart = (message: unknown): void => {
      const req = (message as { request: IncomingMessage }).request
      if (req.url !== RECALL_PATH) return
      req.once('end', () => {
        if (--left > 0) return
        unsubscribe('http.server.request.start', onStart)
        void setImmediate().then(() => resolve())
      })
    }
    subscribe('http.server.request.start', onStart)
  })

  let gcPauses: number[] = []
  const gc = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) gcPauses.push(entry.duration)
  })
  gc.observe({ entryTypes: ['gc'] })

  /** The longest event-loop block and garbage-collection pause (ms) while `run` runs. */
  const longestBlock = async (run: () => Promise<unknown>): Promise<{ blockMs: number; gcMs: number; wallMs: number }> => {
    const histogram = monitorEventLoopDelay({ resolution: 1 })
    gcPauses = []
    histogram.enable()
    const start = performance.now()
    await run()
    const wallMs = performance.now() - start
    histogram.disable()
    // GC entries are delivered after the pause; give them a turn.
    await setTimeout(5)
    return { blockMs: histogram.max / 1e6, gcMs: Math.max(0, ...gcPauses), wallMs }
  }

  // Warm up the route and the planner.
  for (let i = 0; i < 2; i++) {
    await post(plan)
    await post(inspect)
  }

  const idle: number[] = []
  const during1: number[] = []
  const during5: number[] = []
  const planBlocks: number[] = []
  const planGcs: number[] = []
  const idleBlocks: number[] = []
  const planWalls: number[] = []
  const onePiece: number[] = []
  const lookup = (seq: number) => events[seq] as LogEvent | undefined
  for (let round = 0; round < ROUNDS; round++) {
    idle.push(await post(inspect))

    let read = bodiesRead(1)
    const one = post(plan)
    await read
    during1.push(await post(inspect))
    await one

    read = bodiesRead(5)
    const five = Array.from({ length: 5 }, () => post(plan))
    await read
    during5.push(await post(inspect))
    await Promise.all(five)

    const planned = await longestBlock(() => post(plan))
    planBlocks.push(planned.blockMs)
    planGcs.push(planned.gcMs)
    planWalls.push(planned.wallMs)
    const start = performance.now()
    planBatch({ nodes: session.surface.nodes, lookup, nextSeq: session.seq, changes: changes as BatchChange[] })
    onePiece.push(performance.now() - start)
    idleBlocks.push((await longestBlock(() => setTimeout(planned.wallMs))).blockMs)
  }

  const apply = await longestBlock(() => post(JSON.stringify({ sessionId: session.id, action: 'apply', changes })))

  const row = (label: string, samples: readonly number[], floor: string) =>
    console.log(`${label.padEnd(32)} median ${median(samples).toFixed(1).padStart(7)} ms   p95 ${p95(samples).toFixed(1).padStart(7)} ms   ${floor}`)
  console.log(`live session: ${events.length} events, ${session.surface.nodes.length} surface nodes; batches of ${changes.length} changes; ${ROUNDS} rounds; slice ${SLICE_MS} ms`)
  row('inspect, idle (floor)', idle, '')
  row('inspect during 1 plan', during1, `idle + ${(median(during1) - median(idle)).toFixed(1)} ms`)
  row('inspect during 5 plans', during5, `idle + ${(median(during5) - median(idle)).toFixed(1)} ms`)
  row('longest block during a plan', planBlocks, `idle host over the same time: median ${median(idleBlocks).toFixed(1)} ms, p95 ${p95(idleBlocks).toFixed(1)} ms`)
  row('longest GC pause during a plan', planGcs, '')
  row('plan of 10,000, round trip', planWalls, '')
  row('planning in one piece (before)', onePiece, 'in-process planBatch on the same surface')
  console.log(`apply of 10,000 (context): round trip ${apply.wallMs.toFixed(0)} ms, longest block ${apply.blockMs.toFixed(0)} ms (its appends: one synchronous block)`)
  const blockMet = median(planBlocks) <= FRAME_MS
  const inspectMet = median(during1) <= median(idle) + FRAME_MS
  console.log(`targets: longest block during a plan ≤ ${FRAME_MS} ms: ${blockMet ? 'met' : 'MISS'}; inspect during a plan ≤ idle + ${FRAME_MS} ms: ${inspectMet ? 'met' : 'MISS'}`)
  gc.disconnect()
} finally {
  await app.dispose()
}
