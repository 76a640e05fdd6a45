/**
 * Cost of one `POST /dsh-message-recall` `apply` of 20 scattered removals, side by side with one
 * single `delete`, on an agent session of about 100k events, on the real rc.8 composition with the
 * JSONL backend (zstd, the product's 200 ms batch window; the flush drains at once), next to the
 * floor of each: a minimal raw route on the same web server that reads and parses a body carrying
 * ranges planned beforehand, enters `agent.runMaintenance`, appends one tombstone per range with
 * the host writer's `appendTombstone`, flushes once and answers. The floors do no planning, no
 * queueing, no checks and build no results: what any plugin writing the same tombstones in one
 * maintenance with one flush pays to DSH.
 *
 * Each removal takes one whole model step, never two adjacent ones (the tool step of odd turns,
 * the reply of even turns), so every change of a batch writes its own tombstone; the 20 targets
 * of a batch are spread over the whole session. The four variants take turns within each round,
 * in rotating order, on the same session. Figures are wall-clock round trips; the floors also
 * report, from inside the handler, how long their appends and their flush took.
 *
 * Targets (printed, not asserted): apply median ≤ 1.25 × the floor apply median (the restated
 * target; `bench/host-actions.bench.ts` measures it at 1k, 10k and 100k events too), and, as
 * context, the old one: apply median ≤ 1.5 × single delete median. Printed beside them:
 * the floors' own ratio (floor apply / floor delete: the least any implementation pays for 19 more
 * tombstones on this machine), the median of the per-round ratios, and what the route adds to
 * each floor.
 *
 * Run: `npm run bench -- host`. `BENCH_SAMPLES=<n>` changes the samples per variant (default 40);
 * `BENCH_INVARIANTS=0` runs without the invariant companions, as the web profile does.
 */
import { performance } from 'node:perf_hooks'
import type { IncomingMessage, ServerResponse } from 'node:http'
import type { Agent } from '@deepseek-ai/dsh-agent'
import type { Session } from '@deepseek-ai/dsh-session'
import { bootDshApp, type DshApp } from '../test/support/dsh-app'
import { conversationLog, syntheticTurns } from '../test/support/conversation'
import { appendTombstone } from '../src/host/tombstone-append'
import { median, p95 } from './support/stats'
import { rangesFor, type FloorRange } from './support/floor-ranges'

const SIZE = 100_000
const BATCH = 20
const SAMPLES = Number(process.env.BENCH_SAMPLES ?? 40)
const WARMUP = 3
const TARGET = 1.5
const FLOOR_PATH = '/bench-floor-route'
const EVENTS_PER_TURN = conversationLog(syntheticTurns(2)).length - conversationLog(syntheticTurns(1)).length

type Variant = 'delete' | 'apply' | 'floor delete' | 'floor apply'
const VARIANTS: Variant[] = ['delete', 'apply', 'floor delete', 'floor apply']

interface Lane { agent: Agent; targets: number[] }
interface FloorTiming { appendMs: number; flushMs: number }



/** One removable model step per turn after the first, alternating tool step and reply. */
function targetsOf(session: Session, turns: number): number[] {
  const events = session.events
  const byTurn = new Map<number, number[]>()
  for (const seq of session.surface.nodes) {
    if (events[seq]!.type !== 'assistant/message') continue
    const turn = Math.floor(seq / EVENTS_PER_TURN) + 1
    byTurn.set(turn, [...(byTurn.get(turn) ?? []), seq])
  }
  return Array.from({ length: turns - 1 }, (_, k) => byTurn.get(k + 2)![(k + 2) % 2 ? 0 : 1]!)
}

/** Take `count` targets spread over the lane's remaining ones (every k-th). */
function take(lane: Lane, count: number): number[] {
  const stride = Math.max(1, Math.floor(lane.targets.length / count))
  const picked = Array.from({ length: count }, (_, i) => lane.targets[i * stride]!)
  lane.targets = lane.targets.filter((seq) => !picked.includes(seq))
  return picked
}


/** The floor route: parse the body, one maintenance, one tombstone per range, one flush, answer. */
function floorRoute(app: DshApp) {
  return async (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = []
    for await (const chunk of req) chunks.push(chunk as Buffer)
    const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { sessionId: string; ranges: FloorRange[] }
    const agent = app.ctx.agents.get(body.sessionId as never)!
    const timing = await agent.runMaintenance(async (): Promise<FloorTiming> => {
      const t0 = performance.now()
      for (const range of body.ranges) appendTombstone(agent.session, { action: 'delete', ...range })
      const t1 = performance.now()
      await app.ctx.sessions.flush(agent.session)
      return { appendMs: t1 - t0, flushMs: performance.now() - t1 }
    })
    res.writeHead(200, { 'content-type': 'application/json' })
    res.end(JSON.stringify({ ok: true, value: timing }))
  }
}

const app = await bootDshApp({ recall: {}, persistence: { compression: 'zstd', writeBatchMaxDelayMs: 200 }, invariants: process.env.BENCH_INVARIANTS !== '0' })
app.ctx.effect(() => app.ctx.webServer.register({ kind: 'exact', path: FLOOR_PATH, handler: floorRoute(app) }), 'bench: floor route')
const samples: Record<Variant, number[]> = { delete: [], apply: [], 'floor delete': [], 'floor apply': [] }
const floorTimings: Record<'floor delete' | 'floor apply', FloorTiming[]> = { 'floor delete': [], 'floor apply': [] }
let events = 0
try {
  const turns = Math.ceil(SIZE / EVENTS_PER_TURN)
  const perRound = 2 * (BATCH + 1)
  const needed = (SAMPLES + WARMUP) * perRound
  const lanes: Lane[] = []
  const seedStart = performance.now()
  for (let have = 0; have < needed; ) {
    const agent = await app.createAgent({ seed: conversationLog(syntheticTurns(turns)) })
    await app.ctx.sessions.flush(agent.session)
    const targets = targetsOf(agent.session, turns)
    lanes.push({ agent, targets })
    have += Math.floor(targets.length / perRound) * perRound
  }
  events = lanes[0]!.agent.session.events.length
  console.log(`${lanes.length} session(s) of ${events} events seeded and persisted in ${(performance.now() - seedStart).toFixed(0)} ms`)

  const floor = async (lane: Lane, count: number): Promise<{ ms: number; timing: FloorTiming }> => {
    const ranges = rangesFor(lane.agent.session, take(lane, count))
    if (ranges.length !== count) throw new Error(`floor planned ${ranges.length} ranges, not ${count}`)
    const t0 = performance.now()
    const reply = await app.post({ sessionId: lane.agent.id, ranges }, { path: FLOOR_PATH })
    const ms = performance.now() - t0
    if (reply.status !== 200) throw new Error(`floor route answered ${reply.status}: ${reply.text}`)
    return { ms, timing: reply.json.value as FloorTiming }
  }
  const timed = async (call: () => Promise<{ status: number; text: string }>): Promise<number> => {
    const t0 = performance.now()
    const reply = await call()
    const ms = performance.now() - t0
    if (reply.status !== 200) throw new Error(`route answered ${reply.status}: ${reply.text}`)
    return ms
  }
  const run: Record<Variant, (lane: Lane, keep: boolean) => Promise<number>> = {
    delete: (lane) => {
      const [seq] = take(lane, 1)
      return timed(() => app.post({ sessionId: lane.agent.id, action: 'delete', seq }))
    },
    apply: (lane) => {
      const picked = take(lane, BATCH)
      return timed(() => app.post({ sessionId: lane.agent.id, action: 'apply', changes: picked.map((seq) => ({ action: 'delete', seq })) }))
    },
    'floor delete': async (lane, keep) => {
      const { ms, timing } = await floor(lane, 1)
      if (keep) floorTimings['floor delete'].push(timing)
      return ms
    },
    'floor apply': async (lane, keep) => {
      const { ms, timing } = await floor(lane, BATCH)
      if (keep) floorTimings['floor apply'].push(timing)
      return ms
    },
  }
  for (let r = 0; r < SAMPLES + WARMUP; r++) {
    const lane = lanes.find((l) => l.targets.length >= 2 * perRound)!
    for (let k = 0; k < VARIANTS.length; k++) {
      const variant = VARIANTS[(r + k) % VARIANTS.length]!
      const ms = await run[variant](lane, r >= WARMUP)
      if (r >= WARMUP) samples[variant].push(ms)
    }
  }
} finally {
  await app.dispose()
}

const fmt = (ms: number) => ms.toFixed(2).padStart(6)
const med = (v: Variant) => median(samples[v])
// The calls of one round ran back to back on the same session: their ratio has the disk's slow
// phases mostly cancelled out.
const paired = (a: Variant, b: Variant) => median(samples[a].map((ms, i) => ms / samples[b][i]!))
const pairedDiff = (a: Variant, b: Variant) => median(samples[a].map((ms, i) => ms - samples[b][i]!))
const ratio = med('apply') / med('delete')
const floorRatio = med('floor apply') / med('floor delete')
console.log(`\nPOST apply of ${BATCH} scattered removals vs one delete, ${events} events, ${SAMPLES} samples per variant after ${WARMUP} warm-up rounds (ms; wall clock per call)${process.env.BENCH_INVARIANTS === '0' ? ', without invariant companions' : ''}\n`)
console.log('variant       | median |    p95 | inside the handler: appends / flush (medians)')
console.log('--------------|--------|--------|----------------------------------------------')
for (const v of VARIANTS) {
  const inside = v === 'floor delete' || v === 'floor apply'
    ? `${median(floorTimings[v].map((t) => t.appendMs)).toFixed(3)} / ${median(floorTimings[v].map((t) => t.flushMs)).toFixed(3)}`
    : ''
  console.log(`${v.padEnd(13)} | ${fmt(med(v))} | ${fmt(p95(samples[v]))} | ${inside}`)
}
console.log('')
console.log(`apply / delete:             ${ratio.toFixed(2)}× (paired ${paired('apply', 'delete').toFixed(2)}×)   target ≤ ${TARGET}×: ${ratio <= TARGET ? 'PASS' : 'MISS'}`)
const applyOverFloor = med('apply') / med('floor apply')
console.log(`apply / floor apply:        ${applyOverFloor.toFixed(2)}× (paired ${paired('apply', 'floor apply').toFixed(2)}×)   the restated target ≤ 1.25×: ${applyOverFloor <= 1.25 ? 'met' : 'MISS'}`)
console.log(`floor apply / floor delete: ${floorRatio.toFixed(2)}× (paired ${paired('floor apply', 'floor delete').toFixed(2)}×)   the least 19 more tombstones cost on this machine`)
console.log(`route − floor, paired medians: delete +${pairedDiff('delete', 'floor delete').toFixed(2)} ms, apply +${pairedDiff('apply', 'floor apply').toFixed(2)} ms`)
