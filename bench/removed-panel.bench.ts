/**
 * `npm run bench -- removed-panel`: the Removed panel opened on a session with 1,000 removals, from
 * the history read to the panel's first render, beside DSH's own read of the same history pages.
 *
 * The session: a realistic agent log (`test/support/conversation.ts`, prompts, model steps with
 * tool calls, replies) of 1,100 turns in a real rc.8 `Session`, with 1,000 of its prompts deleted
 * one by one (1,000 tombstones, `appendTombstone`). Its Chat rows and replacement events are
 * built with the real rc.8 conversation engine and Definitions (`test/client/support`), as the
 * page would hold them. The history pages are served by this bench's HTTP server from the log,
 * cut as the rc.8 web host's `session.history` cuts them (contiguous raw ranges backwards from the
 * tail, `maxMessages` appended messages each).
 *
 * In headless Chromium, taking turns (`bench/support/removed-panel-page.tsx`):
 * - floor: every history page read and parsed (`readWholeHistory`), DSH's own read of them;
 * - panel: the same read, the replacement records, the header button rendered, clicked, and the
 *   panel's first render: its first window of entries (the newest 30, `PANEL_FIRST_WINDOW`) in the
 *   DOM, laid out, one frame painted; the panel adds the rest in steps of 100 per frame, and the
 *   time until all 1,000 are in the DOM is printed as context.
 * Target: panel ≤ 1.25 × floor (medians; p95 printed beside). Printed, not asserted.
 *
 * Run: `npm run bench -- removed-panel`. `BENCH_SAMPLES=<n>` changes the samples (default 15).
 * The browser is the pinned one of the end-to-end suite (`tools/chromium.ts`); `CHROMIUM_PATH` overrides it.
 */
import '../test/client/support/dom'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { SessionId, Session } from '@deepseek-ai/dsh-session'
import type { LogEvent } from '../src/shared/events'
import { conversationLog, syntheticTurns } from '../test/support/conversation'
import { appendTombstone, bootClient } from '../test/client/support/page'
import { historyPage, startBenchPage } from './support/page-server'
import { median, p95 } from './support/stats'

const TURNS = 1_100
const REMOVALS = 1_000
const SAMPLES = Number(process.env.BENCH_SAMPLES ?? 15)
const WARMUP = 2
const TARGET = 1.25
const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const fmt = (ms: number) => `${ms.toFixed(2).padStart(8)} ms`

const SESSION = 'session-removed-panel-bench'
const session = Session.create(SessionId(SESSION), conversationLog(syntheticTurns(TURNS)))
const prompts = session.events.filter((e) => e.type === 'user/message' && (e.data as { source?: { kind?: string } }).source?.kind === 'user').map((e) => e.seq)
if (prompts.length < REMOVALS) throw new Error(`only ${prompts.length} prompts for ${REMOVALS} removals`)
for (const seq of prompts.slice(0, REMOVALS)) appendTombstone(session, 'delete', [seq])
const events = [...session.events] as LogEvent[]
const client = await bootClient()
const plugin = await client.loadPlugin()
const harness = client.session(SESSION)
harness.load(events)
const chat = harness.snapshot.chat
const order = [...chat.order]
const nodes = order.map((key) => JSON.parse(JSON.stringify(chat.nodes.get(key))))
await plugin.dispose()
await client.dispose()
console.log(`Removed panel — one session of ${events.length} events (${TURNS} turns), ${REMOVALS} removals, ${order.length} Chat rows`)

const served = await startBenchPage(join(root, 'bench/support/removed-panel-page.tsx'), (path, request) => {
  const body = request as { rpcId?: string; payload?: { beforeSeq?: number; maxMessages?: number } }
  if (path === '/api/session.history') return { type: 'server-response', rpcId: body.rpcId, result: { ok: true, value: historyPage(events, body.payload?.beforeSeq, body.payload?.maxMessages ?? 500) } }
  return { ok: false, error: { code: 'INTERNAL', message: 'the bench serves only the history call' } }
})
const { url, browser } = served
type Phase = 'read' | 'records' | 'dom' | 'paint'
const floor: number[] = []
const panel: number[] = []
const phases: Record<Phase, number[]> = { read: [], records: [], dom: [], paint: [] }
const whole: number[] = []
let firstWindow = 0
let entries = 0
try {
  const page = await browser.newPage()
  await page.setViewport({ width: 1400, height: 900 })
  await page.goto(url)
  type Bench = {
    setChat(order: readonly string[], nodes: readonly unknown[]): void
    floor(id: string): Promise<{ ms: number; events: number }>
    panel(id: string): Promise<{ ms: number; whole: number; firstWindow: number; entries: number; replacements: number; phases: Record<Phase, number> }>
    unmount(): void
  }
  await page.evaluate((o, n) => (globalThis as unknown as { panelBench: Bench }).panelBench.setChat(o, n), order, nodes)
  for (let r = 0; r < SAMPLES + WARMUP; r++) {
    // Taking turns, so neither always runs on a warmer page.
    for (const which of r % 2 ? ['panel', 'floor'] : ['floor', 'panel']) {
      if (which === 'floor') {
        const f = await page.evaluate((id) => (globalThis as unknown as { panelBench: Bench }).panelBench.floor(id), SESSION)
        if (f.events !== events.length) throw new Error(`the floor read ${f.events} events, not ${events.length}`)
        if (r >= WARMUP) floor.push(f.ms)
      } else {
        const p = await page.evaluate((id) => (globalThis as unknown as { panelBench: Bench }).panelBench.panel(id), SESSION)
        if (p.entries !== REMOVALS) throw new Error(`the panel listed ${p.entries} entries, not ${REMOVALS} (${p.replacements} replacement events)`)
        entries = p.entries
        firstWindow = p.firstWindow
        if (r >= WARMUP) {
          panel.push(p.ms)
          whole.push(p.whole)
          for (const phase of Object.keys(phases) as Phase[]) phases[phase].push(p.phases[phase])
        }
      }
      await page.evaluate(() => (globalThis as unknown as { panelBench: Bench }).panelBench.unmount())
    }
  }
  console.log(await browser.version())
} finally {
  await served.close()
}

const row = (label: string, samples: readonly number[], extra = '') => console.log(`${label.padEnd(52)} median ${fmt(median(samples))}   p95 ${fmt(p95(samples))}${extra}`)
console.log(`${SAMPLES} samples each after ${WARMUP} warm-up rounds, taking turns`)
row('floor: read and parse every history page', floor)
const ratio = median(panel) / median(floor)
const ratio95 = p95(panel) / p95(floor)
row(`panel: same read, first ${firstWindow} of ${entries} entries painted`, panel, `   ${ratio.toFixed(2)}× floor (p95 ${ratio95.toFixed(2)}×)   target ≤ ${TARGET}×: ${ratio <= TARGET ? 'met' : 'MISS'}`)
row(`context: until all ${entries} entries are in the DOM`, whole, `   ${(median(whole) / median(floor)).toFixed(2)}× floor`)
console.log(`panel's parts, medians: history read ${median(phases.read).toFixed(2)} ms · replacement records ${median(phases.records).toFixed(2)} ms · entries, render and click to the list in the DOM ${median(phases.dom).toFixed(2)} ms · layout and one frame painted ${median(phases.paint).toFixed(2)} ms`)
