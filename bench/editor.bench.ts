/**
 * `npm run bench -- editor`: the editor as a context map at scale, on an agent session of about
 * 100k events (about 5,000 units), three figures beside their floors and targets (printed, not
 * asserted):
 *
 * 1. **Opening the editor** in headless Chromium (the real dialog, React, the units and the list
 *    in the DOM with its layout) beside the floor: the same page reading the same history pages
 *    through the same history call and parsing them (`readWholeHistory`), the part of DSH's own
 *    session open that reads the history. The pages are served by this bench's HTTP server from
 *    the session's log, cut as the rc.8 web host's `session.history` cuts them (contiguous raw
 *    ranges backwards from the tail, 500 appended messages each). Target: open ≤ 1.5 × floor.
 * 2. **Toggling a unit and re-sorting** with the dialog open on those units: one click to the
 *    DOM updated and laid out. Target: ≤ 16 ms (one frame).
 * 3. **The batch `plan` of 500 changes** (what the dialog's debounced check sends: the changes
 *    with `detail: 'counts'`) over real HTTP on the real rc.8 composition, beside a single `plan`
 *    on the same session and the batch planner's own time in process (`planBatch` over the same
 *    500 changes, the surface's nodes and the host's event index as the route runs it). Target:
 *    batch ≤ 1.5 × single + planner. For context, the same batch `plan` answering every write
 *    (`detail: 'writes'`, the default, about 45 KB).
 *
 * Run: `npm run bench -- editor`. `BENCH_SAMPLES=<n>` changes the samples (default 15).
 * The browser is the pinned one of the end-to-end suite (`tools/chromium.ts`); `CHROMIUM_PATH` overrides it.
 */
import { dirname, join } from 'node:path'
import { performance } from 'node:perf_hooks'
import { fileURLToPath } from 'node:url'
import { bootDshApp } from '../test/support/dsh-app'
import { conversationLog, syntheticTurns } from '../test/support/conversation'
import { planBatch, type BatchChange } from '../src/host/batch-plan'
import { SessionEventIndex } from '../src/host/event-index'
import type { LogEvent } from '../src/shared/events'
import { historyPage, startBenchPage } from './support/page-server'

const SIZE = 100_000
const BATCH = 500
const SAMPLES = Number(process.env.BENCH_SAMPLES ?? 15)
/** The plan figures are cheap: four times the samples. */
const PLAN_SAMPLES = SAMPLES * 4
const WARMUP = 2
const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const EVENTS_PER_TURN = conversationLog(syntheticTurns(2)).length - conversationLog(syntheticTurns(1)).length
const PAGE_MESSAGES = 500

const median = (xs: readonly number[]) => {
  const s = [...xs].sort((a, b) => a - b)
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2
}
const p90 = (xs: readonly number[]) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * 0.9))]!
const fmt = (ms: number) => `${ms.toFixed(2).padStart(8)} ms`
const verdict = (ok: boolean) => (ok ? 'met' : 'MISS')

const app = await bootDshApp({ recall: {} })
try {
  const turns = Math.ceil(SIZE / EVENTS_PER_TURN)
  const agent = await app.createAgent({ seed: conversationLog(syntheticTurns(turns)) })
  const session = agent.session
  const events = session.events as readonly LogEvent[]
  console.log(`editor at scale — one session of ${events.length} events (${turns} turns)`)

  // --- 3. plan: a batch of 500 vs one change, and the planner's own time --------------------------
  // Replies of turns spread over the session: no two adjacent, each its own tombstone.
  const replies = session.surface.nodes.filter((seq) => events[seq]!.type === 'assistant/message' && JSON.stringify(events[seq]!.data).includes('reply #'))
  const stride = Math.floor(replies.length / BATCH)
  const targets = Array.from({ length: BATCH }, (_, i) => replies[i * stride]!)
  const changes: BatchChange[] = targets.map((seq) => ({ action: 'delete', seq }))
  const single: number[] = []
  const batch: number[] = []
  const planner: number[] = []
  const full: number[] = []
  const replyBytes = { counts: 0, writes: 0 }
  let removedCount = -1
  for (let r = 0; r < PLAN_SAMPLES + WARMUP; r++) {
    const t0 = performance.now()
    const one = await app.post({ sessionId: agent.id, action: 'plan', planAction: 'delete', seq: targets[r % BATCH]! })
    const t1 = performance.now()
    const many = await app.post({ sessionId: agent.id, action: 'plan', changes, detail: 'counts' })
    const t2 = performance.now()
    if (one.status !== 200 || many.status !== 200) throw new Error(`plan answered ${one.status} / ${many.status}: ${one.text.slice(0, 200)} ${many.text.slice(0, 200)}`)
    replyBytes.counts = Buffer.byteLength(many.text)
    removedCount = many.json.value.removedCount
    // The planner as the route runs it: over the surface's nodes, with the host's event index as the lookup.
    const lookup = new SessionEventIndex().lookup(session as never)
    const p0 = performance.now()
    const planned = planBatch({ nodes: session.surface.nodes, lookup, nextSeq: session.seq, changes })
    const p1 = performance.now()
    if (!planned.ok) throw new Error('the batch planner refused the bench batch')
    if (r >= WARMUP) {
      single.push(t1 - t0)
      batch.push(t2 - t1)
      planner.push(p1 - p0)
    }
  }
  // For context, apart (its 45 KB replies' garbage must not land in the rounds above): the same batch answering every write.
  for (let r = 0; r < PLAN_SAMPLES + WARMUP; r++) {
    const t0 = performance.now()
    const every = await app.post({ sessionId: agent.id, action: 'plan', changes })
    const t1 = performance.now()
    if (every.status !== 200) throw new Error(`plan answered ${every.status}: ${every.text.slice(0, 200)}`)
    replyBytes.writes = Buffer.byteLength(every.text)
    if (every.json.value.removedSeqs.length !== removedCount) throw new Error('the counts and the writes of one plan disagree')
    if (r >= WARMUP) full.push(t1 - t0)
  }

  // --- 1 and 2: the dialog in Chromium -------------------------------------------------------------
  const served = await startBenchPage(join(root, 'bench/support/editor-page.tsx'), (path, request) => {
    const body = request as { rpcId?: string; payload?: { beforeSeq?: number }; action?: string }
    if (path === '/api/session.history') return { type: 'server-response', rpcId: body.rpcId, result: { ok: true, value: historyPage(events, body.payload?.beforeSeq, PAGE_MESSAGES) } }
    return { ok: true, value: { action: 'plan', detail: 'counts', tombstoneCount: 0, restoreCount: 0, removedCount: 0, restoredCount: 0, replaceGeneration: 0, lastSeq: events.length - 1 } }
  })
  const { url, browser } = served
  const floor: number[] = []
  const open: number[] = []
  let units = 0
  let toggles: number[] = []
  let resorts: number[] = []
  try {
    const page = await browser.newPage()
    await page.setViewport({ width: 1400, height: 900 })
    await page.goto(url)
    type Bench = {
      floor(id: string): Promise<{ ms: number; events: number }>; open(id: string): Promise<{ ms: number; units: number }>
      close(): void; toggles(n: number): Promise<number[]>; resorts(n: number): Promise<number[]>
    }
    for (let r = 0; r < SAMPLES + WARMUP; r++) {
      // Alternate which goes first, so neither always runs on a warmer page.
      const order = r % 2 ? ['open', 'floor'] : ['floor', 'open']
      for (const which of order) {
        if (which === 'floor') {
          const f = await page.evaluate((id) => (globalThis as unknown as { editorBench: Bench }).editorBench.floor(id), agent.id)
          if (f.events !== events.length) throw new Error(`the floor read ${f.events} events, not ${events.length}`)
          if (r >= WARMUP) floor.push(f.ms)
        } else {
          const o = await page.evaluate((id) => (globalThis as unknown as { editorBench: Bench }).editorBench.open(id), agent.id)
          units = o.units
          if (r >= WARMUP) open.push(o.ms)
        }
      }
    }
    await page.evaluate((id) => (globalThis as unknown as { editorBench: Bench }).editorBench.open(id), agent.id)
    toggles = await page.evaluate((n) => (globalThis as unknown as { editorBench: Bench }).editorBench.toggles(n), SAMPLES * 4)
    resorts = await page.evaluate((n) => (globalThis as unknown as { editorBench: Bench }).editorBench.resorts(n), SAMPLES * 2)
    console.log((await browser.version()))
  } finally {
    await served.close()
  }

  const row = (label: string, samples: readonly number[], extra = '') => console.log(`${label.padEnd(44)} median ${fmt(median(samples))}   p90 ${fmt(p90(samples))}${extra}`)
  console.log(`\n1. opening the editor: ${units} units, ${SAMPLES} samples each after ${WARMUP} warm-up rounds`)
  row('floor: read and parse every history page', floor)
  const openRatio = median(open) / median(floor)
  row('editor: same read, units, list in the DOM', open, `   ${openRatio.toFixed(2)}× floor   target ≤ 1.5×: ${verdict(openRatio <= 1.5)}`)
  console.log(`\n2. with the dialog open on ${units} units (click → DOM updated and laid out)`)
  row('toggle one unit', toggles, `   target ≤ 16 ms: ${verdict(median(toggles) <= 16)} (p90 ${verdict(p90(toggles) <= 16)})`)
  row('re-sort (largest first ⇄ conversation order)', resorts, `   target ≤ 16 ms: ${verdict(median(resorts) <= 16)} (p90 ${verdict(p90(resorts) <= 16)})`)
  console.log(`\n3. plan over HTTP on the real rc.8 composition, ${BATCH} changes vs one, ${PLAN_SAMPLES} samples each`)
  row('single plan (one delete)', single)
  row(`batch planner alone (planBatch, ${BATCH} changes)`, planner)
  const allowed = 1.5 * median(single) + median(planner)
  row(`batch plan (${BATCH} changes), counts`, batch, `   target ≤ 1.5 × single + planner = ${allowed.toFixed(2)} ms: ${verdict(median(batch) <= allowed)} (${(median(batch) / allowed).toFixed(2)}×; reply ${replyBytes.counts} bytes)`)
  row(`(context) batch plan, every write`, full, `   ${(median(full) / allowed).toFixed(2)}× the target; reply ${replyBytes.writes} bytes`)
  // Paired per round (the three ran back to back): the route's cost beyond the planner, against 1.5 × the single plan.
  const beyond = median(batch.map((ms, i) => ms - planner[i]!))
  console.log(`batch − planner, paired median: ${beyond.toFixed(2)} ms   vs 1.5 × single ${(1.5 * median(single)).toFixed(2)} ms: ${verdict(beyond <= 1.5 * median(single))}`)
} finally {
  await app.dispose()
}
