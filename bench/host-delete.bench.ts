/**
 * End-to-end cost of `POST /dsh-message-recall` `delete`, on the real rc.8 composition with the
 * JSONL backend (zstd, the product's 200 ms batch window; the flush drains at once), on agent
 * sessions of about 1k, 10k and 100k events, side by side with two floors on the same sessions:
 *
 * - `append+flush`: DSH's own `session.append` of one tombstone-shaped `user/message` plus
 *   `ctx.sessions.flush(session)`, called in-process (no HTTP);
 * - `ideal route`: a minimal raw route on the same web server that reads and parses the body,
 *   appends that one tombstone and flushes; no planning, no `runMaintenance`.
 *
 * The route deletes whole model steps: alternately a tool step (assistant message plus two tool
 * results) and a reply. Each floor keeps its own chain, every new tombstone shadowing the previous
 * one, so floors never take targets away from the route. The three variants take turns within each
 * round, in rotating order, and the three sizes take turns round by round, so a slow phase of the
 * disk falls on every variant and size alike. Figures are wall-clock round trips measured by the
 * caller.
 *
 * Targets (printed, not asserted): route median ≤ 1.25 × ideal-route median at every size, and
 * flat: route median at 100k ≤ 1.2 × route median at 1k.
 *
 * Run: `npm run bench -- host`. `BENCH_SAMPLES=<n>` changes the samples per variant and size
 * (default 60). `BENCH_PROFILE=1` adds, per size, a CPU profile (`node:inspector`) of 30 extra
 * route-only deletes and prints where their time went: self time by function, and inclusive time
 * of this project's functions and of the DSH calls on the write path.
 */
import { performance } from 'node:perf_hooks'
import { Session as InspectorSession } from 'node:inspector/promises'
import type { IncomingMessage, ServerResponse } from 'node:http'
import type { Agent } from '@deepseek-ai/dsh-agent'
import type { Session } from '@deepseek-ai/dsh-session'
import { bootDshApp, type DshApp } from '../test/support/dsh-app'
import { conversationLog, syntheticTurns } from '../test/support/conversation'
import { appendTombstone } from '../src/host/tombstone-append'

const SIZES = [1_000, 10_000, 100_000]
const SAMPLES = Number(process.env.BENCH_SAMPLES ?? 60)
const WARMUP = 5
const IDEAL_PATH = '/bench-ideal-route'
const PROFILE = process.env.BENCH_PROFILE === '1'
const PROFILE_DELETES = 30
/** Events per synthetic turn with the default shape (one tool step with two calls, one reply). */
const EVENTS_PER_TURN = conversationLog(syntheticTurns(2)).length - conversationLog(syntheticTurns(1)).length

type Variant = 'append+flush' | 'ideal route' | 'route'
const VARIANTS: Variant[] = ['route', 'ideal route', 'append+flush']

interface Stats { median: number; p95: number; mean: number }
function stats(samples: number[]): Stats {
  const s = [...samples].sort((a, b) => a - b)
  const at = (q: number) => s[Math.min(s.length - 1, Math.ceil(q * s.length) - 1)]!
  return { median: at(0.5), p95: at(0.95), mean: s.reduce((a, b) => a + b, 0) / s.length }
}

/** Append the floors' event: one tombstone shadowing `seq`, written by the host writer's `appendTombstone`. */
function appendFloorTombstone(session: Session, seq: number): number {
  return appendTombstone(session, { action: 'delete', start: seq, end: seq, shadowedSeqs: [seq] }).seq
}

/** The ideal route: read and parse the body, append one tombstone, flush, answer. */
function idealRoute(app: DshApp) {
  return async (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = []
    for await (const chunk of req) chunks.push(chunk as Buffer)
    const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { sessionId: string; seq: number }
    const session = app.ctx.sessions.get(body.sessionId as never)!
    const tombstoneSeq = appendFloorTombstone(session, body.seq)
    await app.ctx.sessions.flush(session)
    res.writeHead(200, { 'content-type': 'application/json' })
    res.end(JSON.stringify({ ok: true, value: { tombstoneSeq } }))
  }
}

interface Lane { agent: Agent; targets: number[]; chain: Record<'append+flush' | 'ideal route', number> }

/** Surface seqs of turn `turn` (1-based) in a seed built by `conversationLog(syntheticTurns(n))`. */
function turnNodes(session: Session, turn: number): { prompt: number; toolStep: number; reply: number } {
  const base = (turn - 1) * EVENTS_PER_TURN
  const nodes = session.surface.nodes.filter((seq) => seq >= base && seq < base + EVENTS_PER_TURN)
  const events = session.events
  const prompt = nodes.find((s) => events[s]!.type === 'user/message')!
  const assistants = nodes.filter((s) => events[s]!.type === 'assistant/message')
  return { prompt, toolStep: assistants[0]!, reply: assistants[1]! }
}

/** One size's app, sessions and samples. */
interface Bench {
  size: number
  app: DshApp
  lanes: Lane[]
  events: number
  nodes: number
  seedMs: number
  run: Record<Variant, (lane: Lane) => Promise<void>>
  samples: Record<Variant, number[]>
  /** A session kept apart for {@link coldDelete}. */
  cold: Lane
}

/** Boot one app for `size`, seed and persist enough agent sessions for every round. */
async function prepare(size: number): Promise<Bench> {
  const app = await bootDshApp({ recall: {}, persistence: { compression: 'zstd', writeBatchMaxDelayMs: 200 } })
  app.ctx.effect(() => app.ctx.webServer.register({ kind: 'exact', path: IDEAL_PATH, handler: idealRoute(app) }), 'bench: ideal route')
  const turns = Math.ceil(size / EVENTS_PER_TURN)
  const needed = SAMPLES + WARMUP + (PROFILE ? PROFILE_DELETES : 0)
  const sessionCount = Math.ceil(needed / (turns - 1)) + 1
  const seedStart = performance.now()
  const lanes: Lane[] = []
  for (let i = 0; i < sessionCount; i++) {
    const agent = await app.createAgent({ seed: conversationLog(syntheticTurns(turns)) })
    await app.ctx.sessions.flush(agent.session)
    const first = turnNodes(agent.session, 1)
    // Turn 1 feeds the floors' chains; the route takes one whole step per later turn, never
    // two adjacent ones: the tool step of odd turns, the reply of even turns.
    const targets = Array.from({ length: turns - 1 }, (_, k) => {
      const n = turnNodes(agent.session, k + 2)
      return (k + 2) % 2 ? n.toolStep : n.reply
    })
    lanes.push({ agent, targets, chain: { 'append+flush': first.prompt, 'ideal route': first.reply } })
  }
  const seedMs = performance.now() - seedStart
  const run: Record<Variant, (lane: Lane) => Promise<void>> = {
    route: async (lane) => {
      const seq = lane.targets.shift()!
      const reply = await app.post({ sessionId: lane.agent.id, action: 'delete', seq })
      if (reply.status !== 200) throw new Error(`route answered ${reply.status}: ${reply.text}`)
    },
    'ideal route': async (lane) => {
      const reply = await app.post({ sessionId: lane.agent.id, seq: lane.chain['ideal route'] }, { path: IDEAL_PATH })
      if (reply.status !== 200) throw new Error(`ideal route answered ${reply.status}: ${reply.text}`)
      lane.chain['ideal route'] = reply.json.value.tombstoneSeq
    },
    'append+flush': async (lane) => {
      lane.chain['append+flush'] = appendFloorTombstone(lane.agent.session, lane.chain['append+flush'])
      await app.ctx.sessions.flush(lane.agent.session)
    },
  }
  const cold = lanes.pop()!
  const session = lanes[0]!.agent.session
  return { size, app, lanes, cold, events: session.events.length, nodes: session.surface.nodes.length, seedMs, run, samples: { 'append+flush': [], 'ideal route': [], route: [] } }
}

/**
 * The route's first delete on a session it has not written to yet, right after another append
 * (so DSH's cached `session.events` snapshot is stale and the plugin's event index is empty),
 * with the code already warm from the rounds. One sample.
 */
async function coldDelete(bench: Bench): Promise<number> {
  await bench.run['append+flush'](bench.cold)
  const t0 = performance.now()
  await bench.run.route(bench.cold)
  return performance.now() - t0
}

/** One round on one size: each variant once, on the same session, in rotating order. */
async function round(bench: Bench, index: number): Promise<void> {
  const lane = bench.lanes.find((l) => l.targets.length > 0)!
  for (let k = 0; k < VARIANTS.length; k++) {
    const variant = VARIANTS[(index + k) % VARIANTS.length]!
    const t0 = performance.now()
    await bench.run[variant](lane)
    const ms = performance.now() - t0
    if (index >= WARMUP) bench.samples[variant].push(ms)
  }
}

interface ProfileNode { id: number; callFrame: { functionName: string; url: string; lineNumber: number }; children?: number[] }
interface CpuProfile { nodes: ProfileNode[]; samples: number[]; timeDeltas: number[] }

/** Run `task` under the V8 CPU profiler (100 µs sampling). */
async function profiled(task: () => Promise<void>): Promise<CpuProfile> {
  const inspector = new InspectorSession()
  inspector.connect()
  await inspector.post('Profiler.enable')
  await inspector.post('Profiler.setSamplingInterval', { interval: 100 })
  await inspector.post('Profiler.start')
  const stop = async () => {
    const { profile } = (await inspector.post('Profiler.stop')) as unknown as { profile: CpuProfile }
    inspector.disconnect()
    return profile
  }
  try {
    await task()
  } catch (error) {
    await stop()
    throw error
  }
  return stop()
}

/** Print the top self times, and inclusive times of project code and of the DSH write-path calls. */
function printProfile(label: string, profile: CpuProfile): void {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]))
  const parent = new Map<number, number>()
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id)
  const key = (n: ProfileNode) => {
    const f = n.callFrame
    const file = f.url.replace(/^.*\/node_modules\//, '').replace(/^file:\/\/.*?\/(src|test|bench)\//, '$1/')
    return `${f.functionName || '(anonymous)'} ${file ? `${file}:${f.lineNumber + 1}` : ''}`.trim()
  }
  const self = new Map<string, number>()
  const inclusive = new Map<string, number>()
  let total = 0
  profile.samples.forEach((id, i) => {
    const ms = (profile.timeDeltas[i] ?? 0) / 1000
    total += ms
    const leaf = byId.get(id)!
    self.set(key(leaf), (self.get(key(leaf)) ?? 0) + ms)
    const seen = new Set<string>()
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      const k = key(byId.get(at)!)
      if (!seen.has(k)) { seen.add(k); inclusive.set(k, (inclusive.get(k) ?? 0) + ms) }
    }
  })
  const top = (m: Map<string, number>, filter: (k: string) => boolean, n: number) =>
    [...m].filter(([k]) => filter(k)).sort((a, b) => b[1] - a[1]).slice(0, n)
  const per = (ms: number) => `${(ms / PROFILE_DELETES).toFixed(3).padStart(8)} ms/delete`
  console.log(`\nprofile, ${label}: ${total.toFixed(1)} ms sampled (${per(total)})`)
  console.log('  top self time:')
  for (const [k, ms] of top(self, () => true, 12)) console.log(`    ${per(ms)}  ${k}`)
  console.log('  inclusive, this project and DSH write-path calls:')
  const interesting = (k: string) => /^\S+ src\//.test(k) || /^(append|flush|runMaintenance|get events|deriveMessages|foldSurface|validateNext|planSurfaceEvent|snapshotJsonValue|structuredClone) /.test(k)
  for (const [k, ms] of top(inclusive, interesting, 20)) console.log(`    ${per(ms)}  ${k}`)
}

const fmt = (ms: number) => ms.toFixed(2).padStart(7)
const benches: Bench[] = []
const coldMs: number[] = []
try {
  for (const size of SIZES) {
    const b = await prepare(size)
    benches.push(b)
    console.log(`size ~${size}: ${b.events} events, ${b.nodes} surface nodes per session, ${b.lanes.length} + 1 session(s) seeded and persisted in ${b.seedMs.toFixed(0)} ms`)
  }
  // Sizes take turns round by round (rotating which goes first), so slow phases of the disk or
  // the runtime fall on every size alike.
  for (let r = 0; r < SAMPLES + WARMUP; r++) {
    for (let k = 0; k < benches.length; k++) await round(benches[(r + k) % benches.length]!, r)
  }
  for (const b of benches) coldMs.push(await coldDelete(b))
  if (PROFILE) {
    for (const b of benches) {
      const profile = await profiled(async () => {
        for (let k = 0; k < PROFILE_DELETES; k++) await b.run.route(b.lanes.find((l) => l.targets.length > 0)!)
      })
      printProfile(`size ~${b.size} (${b.events} events): ${PROFILE_DELETES} route deletes`, profile)
    }
  }
} finally {
  for (const b of benches) await b.app.dispose()
}

const results = benches.map((b) => ({
  events: b.events,
  stats: Object.fromEntries(VARIANTS.map((v) => [v, stats(b.samples[v])])) as Record<Variant, Stats>,
  // Samples of one round ran back to back on the same session: their difference is the route's
  // own cost with the disk's slow phases mostly cancelled out.
  overhead: stats(b.samples.route.map((ms, i) => ms - b.samples['ideal route'][i]!)).median,
}))
console.log(`\nPOST delete, ${SAMPLES} samples per variant and size after ${WARMUP} warm-up rounds (ms; wall clock per call)\n`)
console.log('events  | append+flush med / p95 | ideal route med / p95 | route med / p95   | route/ideal | route/append+flush | route−ideal paired | target ≤1.25×')
console.log('--------|------------------------|-----------------------|-------------------|-------------|--------------------|--------------------|--------------')
for (const r of results) {
  const a = r.stats['append+flush'], i = r.stats['ideal route'], p = r.stats.route
  const ratio = p.median / i.median
  console.log(`${String(r.events).padEnd(7)} | ${fmt(a.median)} / ${fmt(a.p95)}      | ${fmt(i.median)} / ${fmt(i.p95)}     | ${fmt(p.median)} / ${fmt(p.p95)} | ${ratio.toFixed(2).padStart(10)}× | ${(p.median / a.median).toFixed(2).padStart(17)}× | ${fmt(r.overhead)} ms         | ${ratio <= 1.25 ? 'PASS' : 'MISS'}`)
}
console.log(`\nfirst route delete on a further session, after another append (one sample each, not in the table): ${benches.map((b, i) => `${b.events} events ${coldMs[i]!.toFixed(2)} ms`).join(', ')}`)
const small = results[0]!, large = results.at(-1)!
const flat = large.stats.route.median / small.stats.route.median
const idealFlat = large.stats['ideal route'].median / small.stats['ideal route'].median
console.log(`flatness: route median ${large.events} / ${small.events} events = ${flat.toFixed(2)}× (target ≤ 1.2×: ${flat <= 1.2 ? 'PASS' : 'MISS'}); ideal route for comparison ${idealFlat.toFixed(2)}×`)
