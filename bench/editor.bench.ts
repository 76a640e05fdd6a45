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
  const carryOne: number[] = []
  const carryMany: number[] = []
  const refusedChanges = changes.map((change, i) => (i === BATCH - 1 ? { action: 'delete', seq: -1 } : change))
  const replyBytes = { counts: 0, writes: 0 }
  let removedCount = -1
  // Each figure in runs of its own (so none pays for garbage another left: the in-process planner's
  // copies of the surface above all would be collected in the next request), the runs taking
  // turns (so a slow spell of the machine falls on all three alike); a run's first round is not kept.
  const RUNS = 6
  const figures: { into: number[]; run: (r: number) => Promise<void> | void }[] = [
    {
      into: single,
      run: async (r) => {
        const one = await app.post({ sessionId: agent.id, action: 'plan', planAction: 'delete', seq: targets[r % BATCH]! })
        if (one.status !== 200) throw new Error(`plan answered ${one.status}: ${one.text.slice(0, 200)}`)
      },
    },
    {
      into: batch,
      run: async () => {
        const many = await app.post({ sessionId: agent.id, action: 'plan', changes, detail: 'counts' })
        if (many.status !== 200) throw new Error(`plan answered ${many.status}: ${many.text.slice(0, 200)}`)
        replyBytes.counts = Buffer.byteLength(many.text)
        removedCount = many.json.value.removedCount
      },
    },
    {
      // What carrying the changes costs: the same bodies, refused at their last field (a seq of -1)
      // after they were read, parsed and validated; no session read, nothing planned.
      into: carryOne,
      run: async () => {
        const refused = await app.post({ sessionId: agent.id, action: 'plan', planAction: 'delete', seq: -1 })
        if (refused.status !== 400) throw new Error(`the refused single plan answered ${refused.status}`)
      },
    },
    {
      into: carryMany,
      run: async () => {
        const refused = await app.post({ sessionId: agent.id, action: 'plan', changes: refusedChanges, detail: 'counts' })
        if (refused.status !== 400 || refused.json.error.index !== BATCH - 1) throw new Error(`the refused batch plan answered ${refused.status}: ${refused.text.slice(0, 200)}`)
      },
    },
    {
      into: planner,
      run: () => {
        if (!planBatch({ nodes: session.surface.nodes, lookup, nextSeq: session.seq, changes }).ok) throw new Error('the batch planner refused the bench batch')
      },
    },
  ]
  // The planner as the route runs it: over the surface's nodes, with the host's event index as the lookup (built before, untimed).
  const lookup = new SessionEventIndex().lookup(session as never)
  for (let run = 0; run < RUNS; run++) {
    for (const { into, run: once } of figures) {
      const perRun = Math.ceil(PLAN_SAMPLES / RUNS)
      for (let r = 0; r <= perRun; r++) {
        const t0 = performance.now()
        await once(run * perRun + r)
        if (r > 0) into.push(performance.now() - t0)
      }
    }
  }
  // For context, in its own rounds as well: the same batch answering every write.
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
  // Where the target's margin goes: beyond a single plan's whole round trip and the planner, the
  // target leaves the batch half a single plan; carrying 500 changes instead of one costs what it costs.
  row('carry one change (refused after validation)', carryOne)
  row(`carry ${BATCH} changes (refused after validation)`, carryMany)
  const added = median(batch) - median(single) - median(planner)
  const carry = median(carryMany) - median(carryOne)
  console.log(`batch − single − planner (medians): ${added.toFixed(2)} ms; the target leaves 0.5 × single = ${(0.5 * median(single)).toFixed(2)} ms; carrying ${BATCH} changes instead of one alone: ${carry.toFixed(2)} ms`)
  const sum = 1.5 * (median(single) + median(planner))
  console.log(`read as 1.5 × (single + planner) = ${sum.toFixed(2)} ms: ${verdict(median(batch) <= sum)} (${(median(batch) / sum).toFixed(2)}×)`)
} finally {
  await app.dispose()
}
