/**
 * Every write action beside DSH's own cost for the same thing, on agent sessions of about 1k, 10k
 * and 100k events, on the real rc.8 composition (JSONL backend, zstd, the product's 200 ms batch
 * window, which a flush drains at once; the invariant companions), driven over HTTP as the
 * browser half drives it:
 *
 * - **stored write**: `delete` on a session that is stored and not live (the plugin enters it,
 *   plans, appends, flushes and lets go), beside DSH's own cold open of a stored session of the
 *   same size (`sessionPersistence.prepare`, which loads it, then releasing the preparation; a
 *   session of its own, written untimed after each open so every open reads it cold, as every
 *   timed write does) plus one `delete` on a live session of the same size, in the same round;
 *   and beside `agents.resume` of such a session (what opening it in the UI runs: the cold open,
 *   the session announced and its projections folded, an agent made; the agent let go untimed)
 *   plus that `delete`; and, as context, beside the least rc.8 lets a stored write do before its
 *   own work while a refused pre-check writes nothing (`sealed open`: `sessionPersistence.inspect`
 *   for the pre-check, the `session/end-seed` marker appended with `sessionPersistence.append`
 *   when the log does not end with one, then `prepare`, which reads the log again because the
 *   marker changed it) plus that `delete`;
 * - **forkBefore** of a live session at a tombstone, beside DSH's own Branch primitive at the same
 *   boundary: `SessionStore.fork(source, boundary, childId)` plus the durability flush of the child
 *   (what `dsh-host-apiproxy`'s `sessions.fork` calls; that package is not part of this
 *   composition), the child made in a child fiber that is disposed untimed;
 * - **restore** of a removed prompt, beside the `delete` of that prompt just before it;
 * - **apply** of 20 scattered removals, beside its floor: a raw route on the same web server that
 *   reads ranges planned beforehand, enters `agent.runMaintenance`, appends the same 20 tombstones
 *   with the host writer's `appendTombstone`, flushes once and answers; the old apply / delete
 *   ratio is printed as context;
 * - **memory**: the host process's peak resident set during each call (Linux `VmHWM`, reset through
 *   `/proc/self/clear_refs` before each call), beside the same process idle for as long.
 *
 * The variants take turns within each round (rotating order); the sizes run one after another,
 * each on its own persistence root. Each target is printed beside its floor with `met` or `MISS`,
 * and so is its flatness: the target's median at 100k over its median at 1k, against 1.2 × the
 * floor's own growth. Figures are wall-clock round trips in milliseconds.
 *
 * Run: `npm run bench -- actions`. `BENCH_SAMPLES=<n>` changes the samples per variant and size
 * (default 20); `BENCH_SIZES=1000,10000` runs only those sizes.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { performance } from 'node:perf_hooks'
import { randomUUID } from 'node:crypto'
import type { IncomingMessage, ServerResponse } from 'node:http'
import type { Context } from '@deepseek-ai/cordis'
import type { Agent } from '@deepseek-ai/dsh-agent'
import { SessionId, type Session } from '@deepseek-ai/dsh-session'
import { bootDshApp, type DshApp } from '../test/support/dsh-app'
import { conversationLog, syntheticTurns } from '../test/support/conversation'
import { batchBody, forkBody, removalBody, removalOf, restoreBody } from '../test/support/recall-wire'
import { appendTombstone } from '../src/host/tombstone-append'
import { median, p95 } from './support/stats'
import { rangesFor, type FloorRange } from './support/floor-ranges'

const SIZES = (process.env.BENCH_SIZES ?? '1000,10000,100000').split(',').map(Number)
const SAMPLES = Number(process.env.BENCH_SAMPLES ?? 20)
const WARMUP = 2
const BATCH = 20
const TARGET = 1.25
const FLAT = 1.2
const FLOOR_PATH = '/bench-floor-apply'
/** Turns with 48-character texts (45 events each), so a 1k-event session has the 20 scattered steps a batch removes. */
const SHAPE = { textChars: 48 } as const
const EVENTS_PER_TURN = conversationLog(syntheticTurns(2, SHAPE)).length - conversationLog(syntheticTurns(1, SHAPE)).length

type Variant = 'live delete' | 'stored write' | 'cold open' | 'sealed open' | 'resume' | 'forkBefore' | 'DSH fork' | 'delete prompt' | 'restore' | 'apply' | 'floor apply' | 'idle'
const ROTATION: Variant[][] = [['stored write', 'cold open', 'sealed open', 'resume', 'live delete'], ['forkBefore', 'DSH fork'], ['delete prompt', 'restore'], ['apply', 'floor apply'], ['idle']]

// ---------------------------------------------------------------- statistics and memory


const canResetPeak = (() => {
  try {
    writeFileSync('/proc/self/clear_refs', '5')
    return existsSync('/proc/self/status')
  } catch {
    return false
  }
})()
/** Reset the process's peak resident set (Linux: `5` into `clear_refs` resets `VmHWM`). */
function resetPeak(): void {
  if (canResetPeak) writeFileSync('/proc/self/clear_refs', '5')
}
/** The process's peak resident set since the last reset, in MiB (`VmHWM`), or the current RSS. */
function peakMiB(): number {
  if (canResetPeak) {
    const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync('/proc/self/status', 'utf8'))
    if (m) return Number(m[1]) / 1024
  }
  return process.memoryUsage().rss / 2 ** 20
}

// ---------------------------------------------------------------- sessions

interface Lane { id: string; steps: number[]; prompts: number[] }

/** Surface seqs of whole model steps (tool step or reply, alternating by turn) and of prompts, after the first turn. */
function targetsOf(session: Session): { steps: number[]; prompts: number[] } {
  const events = session.events
  const steps: number[] = []
  const prompts: number[] = []
  const byTurn = new Map<number, number[]>()
  for (const seq of session.surface.nodes) {
    const turn = Math.floor(seq / EVENTS_PER_TURN) + 1
    if (turn === 1) continue
    if (events[seq]!.type === 'user/message') prompts.push(seq)
    if (events[seq]!.type === 'assistant/message') byTurn.set(turn, [...(byTurn.get(turn) ?? []), seq])
  }
  // Steps of turns whose prompt stays, never two adjacent: odd turns' tool step, even turns' reply.
  for (const [turn, seqs] of byTurn) steps.push(seqs[turn % 2 ? 0 : seqs.length - 1]!)
  return { steps, prompts }
}

/** Take `count` targets spread over the remaining ones. */
function take(list: number[], count: number): number[] {
  if (list.length < count) throw new Error(`out of targets: ${list.length} left, ${count} wanted`)
  const stride = Math.max(1, Math.floor(list.length / count))
  const picked = Array.from({ length: count }, (_, i) => list[i * stride]!)
  const drop = new Set(picked)
  list.splice(0, list.length, ...list.filter((seq) => !drop.has(seq)))
  return picked
}


/** The floor of `apply`: parse, one maintenance, one tombstone per range, one flush, answer. */
function floorRoute(app: DshApp) {
  return async (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = []
    for await (const chunk of req) chunks.push(chunk as Buffer)
    const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { sessionId: string; ranges: FloorRange[] }
    const agent = app.ctx.agents.get(body.sessionId as never)!
    await agent.runMaintenance(async () => {
      for (const range of body.ranges) appendTombstone(agent.session, { action: 'delete', ...range })
      await app.ctx.sessions.flush(agent.session)
    })
    res.writeHead(200, { 'content-type': 'application/json' })
    res.end('{"ok":true}')
  }
}


/** Run `body` with the session store of a fresh child fiber, disposed afterwards (untimed). */
async function inChildFiber<T>(ctx: Context, body: (store: DshApp['ctx']['sessions']) => Promise<T>): Promise<T> {
  let store: DshApp['ctx']['sessions'] | undefined
  const fiber = ctx.plugin({ name: 'bench-fork', inject: ['sessions'], apply: (child: Context) => void (store = child.sessions) })
  await fiber.await()
  try {
    return await body(store!)
  } finally {
    await fiber.dispose()
  }
}

// ---------------------------------------------------------------- one size

type Samples = Record<Variant, number[]>
type Peaks = Record<Variant, number[]>

async function runSize(size: number): Promise<{ events: number; samples: Samples; peaks: Peaks }> {
  const root = mkdtempSync(join(tmpdir(), 'bench-actions-'))
  const turns = Math.ceil(size / EVENTS_PER_TURN)
  const rounds = SAMPLES + WARMUP
  // Per round: live lanes give 1 + 1 + 20 + 20 steps and 1 prompt and one tombstone to fork at; the stored lane 1 step.
  const livePerRound = 2 + 2 * BATCH
  const perLane = turns - 1 // one step and one prompt per turn after the first
  // A batch takes its 20 steps from one session: a small session serves one batch per round.
  if (perLane < BATCH) throw new Error(`a ${size}-event session has fewer than ${BATCH} removable steps`)
  const liveLanes = perLane >= livePerRound ? Math.ceil(rounds / Math.floor(perLane / livePerRound)) + 1 : 2 * rounds + 1
  const storedLanes = Math.ceil(rounds / perLane)
  // Prompts are deleted and restored in sessions of their own, so no removed step sits next to them (a delete would absorb its tombstone).
  const promptLanes = Math.ceil(rounds / perLane)
  // As the dsh-base bundle mounts them: the token meter (every write appends its shadow price) and the session-title service.
  const boot = () => bootDshApp({ recall: {}, persistence: { root, compression: 'zstd', writeBatchMaxDelayMs: 200 }, tokenMeter: true, sessionTitle: true })
  const seeding = await boot()
  const live: Lane[] = []
  const stored: Lane[] = []
  // The cold opens read sessions of their own: `prepare` keeps a cold read for reuse by the next
  // `prepare` of an unchanged log, so a cold open of the written session would warm the next write.
  const opened: Lane[] = []
  const resumed: Lane[] = []
  const sealed: Lane[] = []
  let events = 0
  try {
    for (let i = 0; i < liveLanes + promptLanes + 4 * storedLanes; i++) {
      const agent = await seeding.createAgent({ seed: conversationLog(syntheticTurns(turns, SHAPE)) })
      await seeding.ctx.sessions.flush(agent.session)
      events = agent.session.events.length
      const targets = targetsOf(agent.session)
      if (i < liveLanes) live.push({ id: agent.id, steps: targets.steps, prompts: [] })
      else if (i < liveLanes + promptLanes) live.push({ id: agent.id, steps: [], prompts: targets.prompts })
      else [stored, opened, resumed, sealed][i % 4]!.push({ id: agent.id, ...targets })
    }
  } finally {
    await seeding.dispose()
  }
  const app = await boot()
  app.ctx.effect(() => app.ctx.webServer.register({ kind: 'exact', path: FLOOR_PATH, handler: floorRoute(app) }), 'bench: floor apply')
  const agents = new Map<string, Agent>()
  for (const lane of live) agents.set(lane.id, await app.resumeAgent(lane.id))
  const samples = Object.fromEntries(ROTATION.flat().map((v) => [v, []])) as unknown as Samples
  const peaks = Object.fromEntries(ROTATION.flat().map((v) => [v, []])) as unknown as Peaks
  const post = async (body: unknown, path?: string) => {
    const reply = await app.post(body, path === undefined ? {} : { path })
    if (reply.status !== 200) throw new Error(`${JSON.stringify(body).slice(0, 200)} answered ${reply.status}: ${reply.text}`)
    return reply.json?.value
  }
  const laneWith = (lanes: Lane[], steps: number, prompts = 0) => {
    const lane = lanes.find((l) => l.steps.length >= steps && l.prompts.length >= prompts)
    if (!lane) throw new Error(`no lane with ${steps} steps and ${prompts} prompts left`)
    return lane
  }
  /** The tombstones each live lane has, to fork at. */
  const tombstones = new Map<string, number[]>()

  const run: Record<Variant, () => Promise<void>> = {
    'live delete': async () => {
      const lane = laneWith(live, 1)
      const value = await post(removalBody(lane.id, 'delete', take(lane.steps, 1)[0]!))
      tombstones.set(lane.id, [...(tombstones.get(lane.id) ?? []), removalOf(value).tombstoneSeq])
    },
    'stored write': async () => {
      const lane = laneWith(stored, 1)
      await post(removalBody(lane.id, 'delete', take(lane.steps, 1)[0]!))
      if (app.ctx.sessions.get(SessionId(lane.id))) throw new Error('the stored session stayed live')
    },
    'cold open': async () => {
      const lane = laneWith(opened, 1)
      const t0 = performance.now()
      const preparation = await app.ctx.sessionPersistence.prepare(SessionId(lane.id))
      preparation[Symbol.dispose]()
      coldMs = performance.now() - t0
      // Untimed: a write that changes the log, so the next cold open reads it again.
      await post(removalBody(lane.id, 'delete', take(lane.steps, 1)[0]!))
    },
    'sealed open': async () => {
      // What a stored write must do before its own work on rc.8: read the stored log for the
      // pre-check (nothing written yet), write the session/end-seed marker when the log does not
      // end with one, then the cold open, which reads the log again since the marker changed it.
      const lane = laneWith(sealed, 1)
      const id = SessionId(lane.id)
      const t0 = performance.now()
      const { events } = await app.ctx.sessionPersistence.inspect(id)
      if (events.at(-1)?.type !== 'session/end-seed') {
        await app.ctx.sessionPersistence.append(id, [{ type: 'session/end-seed', seq: events.length, time: Date.now(), data: {} } as (typeof events)[number]])
      }
      const preparation = await app.ctx.sessionPersistence.prepare(id)
      preparation[Symbol.dispose]()
      sealedMs = performance.now() - t0
      // Untimed: a write that changes the log, so the next open reads it again and seals it again.
      await post(removalBody(lane.id, 'delete', take(lane.steps, 1)[0]!))
    },
    resume: async () => {
      const lane = laneWith(resumed, 1)
      const t0 = performance.now()
      const handle = await app.ctx.agents.resume({ resumeSessionId: SessionId(lane.id), agentOptions: { provider: 'deepseek-official', model: 'deepseek-v4-flash' } })
      resumeMs = performance.now() - t0
      // Untimed: let the agent go, then a write that changes the log, so the next resume reads it again.
      await handle.dispose()
      await post(removalBody(lane.id, 'delete', take(lane.steps, 1)[0]!))
    },
    forkBefore: async () => {
      const lane = live.find((l) => (tombstones.get(l.id) ?? []).length > 0)!
      await post(forkBody(lane.id, tombstones.get(lane.id)!.at(-1)!))
    },
    'DSH fork': async () => {
      const lane = live.find((l) => (tombstones.get(l.id) ?? []).length > 0)!
      const source = agents.get(lane.id)!.session
      const boundary = tombstones.get(lane.id)!.at(-1)! - 1
      let ms = 0
      await inChildFiber(app.ctx, async (store) => {
        const t0 = performance.now()
        const child = store.fork(source, boundary, SessionId(`branch-${randomUUID()}`))
        if (!(await store.flush(child))) throw new Error('the branch was not stored')
        ms = performance.now() - t0
      })
      forkMs = ms
    },
    'delete prompt': async () => {
      const lane = laneWith(live, 0, 1)
      const value = await post(removalBody(lane.id, 'delete', take(lane.prompts, 1)[0]!))
      lastPrompt = { id: lane.id, tombstoneSeq: removalOf(value).tombstoneSeq }
    },
    restore: async () => {
      await post(restoreBody(lastPrompt!.id, lastPrompt!.tombstoneSeq))
    },
    apply: async () => {
      const lane = laneWith(live, BATCH)
      await post(batchBody(lane.id, 'apply', take(lane.steps, BATCH).map((seq) => ({ action: 'delete' as const, seq }))))
    },
    'floor apply': async () => {
      const lane = laneWith(live, BATCH)
      const ranges = rangesFor(agents.get(lane.id)!.session, take(lane.steps, BATCH))
      floorBody = { sessionId: lane.id, ranges }
      await post(floorBody, FLOOR_PATH)
    },
    idle: async () => {
      await new Promise((resolve) => setTimeout(resolve, Math.max(1, median(samples['stored write'].length ? samples['stored write'] : [5]))))
    },
  }
  let forkMs = 0
  let coldMs = 0
  let sealedMs = 0
  let resumeMs = 0
  let lastPrompt: { id: string; tombstoneSeq: number } | null = null
  let floorBody: unknown = null
  void floorBody

  try {
    for (let r = 0; r < rounds; r++) {
      const groups = ROTATION.map((_, g) => ROTATION[(g + r) % ROTATION.length]!)
      for (const group of groups) {
        // Within a group the order is fixed where one variant needs the other (restore after its delete, fork after a delete).
        for (const variant of group) {
          const t0 = performance.now()
          resetPeak()
          await run[variant]()
          const peak = peakMiB()
          const ms = variant === 'DSH fork' ? forkMs : variant === 'cold open' ? coldMs : variant === 'sealed open' ? sealedMs : variant === 'resume' ? resumeMs : performance.now() - t0
          if (r >= WARMUP) {
            samples[variant].push(ms)
            peaks[variant].push(peak)
          }
        }
      }
    }
  } finally {
    await app.dispose()
    rmSync(root, { recursive: true, force: true })
  }
  return { events, samples, peaks }
}

// ---------------------------------------------------------------- report

const results: { size: number; events: number; samples: Samples; peaks: Peaks }[] = []
for (const size of SIZES) {
  const started = performance.now()
  const result = await runSize(size)
  results.push({ size, ...result })
  console.log(`size ${size}: ${result.events} events per session, ${SAMPLES} samples per variant after ${WARMUP} warm-up rounds, ${((performance.now() - started) / 1000).toFixed(1)} s`)
}

const fmt = (ms: number) => ms.toFixed(2).padStart(7)
const verdict = (ok: boolean) => (ok ? 'met' : 'MISS')
console.log(`\nEvery action beside DSH's own (ms, wall clock per call; median / p95)${canResetPeak ? '' : '; peak memory is the current RSS after each call (no VmHWM reset on this system)'}\n`)
console.log('events  | variant        | median |    p95 | peak RSS MiB (median)')
console.log('--------|----------------|--------|--------|----------------------')
for (const { events, samples, peaks } of results) {
  for (const v of ROTATION.flat()) {
    console.log(`${String(events).padStart(7)} | ${v.padEnd(14)} | ${fmt(median(samples[v]))} | ${fmt(p95(samples[v]))} | ${median(peaks[v]).toFixed(1)}`)
  }
}

interface Target { name: string; value: (s: Samples) => number; floor: (s: Samples) => number; floorName: string }
const TARGETS: Target[] = [
  { name: 'stored write', value: (s) => median(s['stored write']), floor: (s) => median(s.resume) + median(s['live delete']), floorName: 'agents.resume + live delete' },
  { name: 'stored write', value: (s) => median(s['stored write']), floor: (s) => median(s['cold open']) + median(s['live delete']), floorName: 'prepare + live delete' },
  { name: 'stored write', value: (s) => median(s['stored write']), floor: (s) => median(s['sealed open']) + median(s['live delete']), floorName: "rc.8's least for the pre-check (inspect, end-seed, prepare) + live delete" },
  { name: 'forkBefore', value: (s) => median(s.forkBefore), floor: (s) => median(s['DSH fork']), floorName: 'DSH fork + flush' },
  { name: 'restore', value: (s) => median(s.restore), floor: (s) => median(s['delete prompt']), floorName: 'delete of the prompt' },
  { name: 'apply of 20', value: (s) => median(s.apply), floor: (s) => median(s['floor apply']), floorName: 'floor apply (same tombstones, one maintenance, one flush)' },
]
console.log(`\nTargets: each ≤ ${TARGET}× its floor (medians)\n`)
for (const t of TARGETS) {
  for (const { events, samples } of results) {
    const ratio = t.value(samples) / t.floor(samples)
    console.log(`${t.name.padEnd(13)} ${String(events).padStart(7)} events: ${t.value(samples).toFixed(2)} ms beside ${t.floorName} ${t.floor(samples).toFixed(2)} ms = ${ratio.toFixed(2)}× (≤ ${TARGET}×: ${verdict(ratio <= TARGET)})`)
  }
  if (results.length >= 2) {
    const first = results[0]!
    const last = results.at(-1)!
    const growth = t.value(last.samples) / t.value(first.samples)
    const floorGrowth = t.floor(last.samples) / t.floor(first.samples)
    console.log(`${t.name.padEnd(13)} flat: ${last.events} / ${first.events} events = ${growth.toFixed(2)}× beside the floor's ${floorGrowth.toFixed(2)}× (≤ ${FLAT} × ${floorGrowth.toFixed(2)} = ${(FLAT * floorGrowth).toFixed(2)}×: ${verdict(growth <= FLAT * floorGrowth)})`)
  }
}
for (const { events, samples } of results) {
  console.log(`context, ${events} events: apply of 20 / one delete = ${(median(samples.apply) / median(samples['live delete'])).toFixed(2)}× (the old target, ≤ 1.5×)`)
}
console.log(`\nMemory: peak resident of the host process during each call beside the same process idle as long (medians, MiB)\n`)
for (const { events, peaks } of results) {
  const idle = median(peaks.idle)
  const signed = (d: number) => `${d >= 0 ? '+' : ''}${d.toFixed(1)}`
  const line = (['stored write', 'forkBefore', 'restore', 'apply', 'live delete'] as Variant[]).map((v) => `${v} ${median(peaks[v]).toFixed(1)} (${signed(median(peaks[v]) - idle)})`).join(', ')
  console.log(`${String(events).padStart(7)} events: idle ${idle.toFixed(1)}; ${line}`)
}
