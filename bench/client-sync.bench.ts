/**
 * `npm run bench -- client-sync`: the client's sync pass over about 2,000 chat rows in headless
 * Chromium, beside a floor pass in the same page that only reads every row's key and kind.
 *
 * The rows are real rc.8 Chat nodes: a realistic log (`test/support/conversation.ts`) with a few
 * tombstones appended to a real `Session` is run through the real rc.8 conversation engine and
 * Chat Definitions (`test/client/support`), and the replacement view is this plugin's
 * Definition. The page builds the flow with the rc.8 row markup and times the plugin's `RowSync`.
 *
 * Figures (medians, ms): floor; first decoration of a fresh flow (JS, and JS + the layout it
 * forces; buttons go on the last rows and on rows that come into view, see `src/client/rows/lazy-reveal.ts`);
 * the pass after a scroll reveals 30 more rows; steady state (a few nodes replaced before each
 * pass, buttons already there); idle (nothing changed). Targets are printed, not asserted:
 * steady ≤ 4 ms, first decoration ≤ 16 ms.
 * The browser is the pinned one of the end-to-end suite (`tools/chromium.ts`); `CHROMIUM_PATH` overrides it.
 */
import '../test/client/support/dom'
import { build } from 'esbuild'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { SessionId, Session } from '@deepseek-ai/dsh-session'
import { readReplacements, REPLACEMENT_VIEW } from '../src/client/wire/replacement-view'
import type { LogEvent } from '../src/shared/events'
import { conversationLog, syntheticTurns } from '../test/support/conversation'
import { appendTombstone, bootClient } from '../test/client/support/page'
import type { PageInput, PageResult } from './support/client-sync-page'
import { launchChromium } from '../tools/chromium'

const ROWS = 2_000
const root = join(dirname(fileURLToPath(import.meta.url)), '..')

/** Chat nodes and replacement view of a realistic session with about `rows` visible rows. */
async function chatOfSize(rows: number): Promise<{ input: Omit<PageInput, 'rounds' | 'batch' | 'changedPerPass' | 'revealRows'>; events: number; tombstones: number }> {
  // Default synthetic turn: prompt, a step with text and two tool calls, a reply, a turn bar = 6 rows.
  const session = Session.create(SessionId('session-bench'), conversationLog(syntheticTurns(Math.ceil(rows / 6))))
  const prompts = session.events.filter((e) => e.type === 'user/message').map((e) => e.seq)
  let tombstones = 0
  for (let i = 1; i < prompts.length; i += Math.ceil(prompts.length / 10)) {
    appendTombstone(session, 'recall', [prompts[i]!])
    tombstones++
  }
  const client = await bootClient()
  const plugin = await client.loadPlugin()
  const harness = client.session('session-bench')
  harness.load([...session.events] as LogEvent[])
  const chat = harness.snapshot.chat
  const order = chat.order.slice(0, rows)
  const nodes = order.map((key) => JSON.parse(JSON.stringify(chat.nodes.get(key))))
  const replacements = readReplacements(harness.snapshot.views.get(REPLACEMENT_VIEW))
  const input = { nodes, order, replacements: JSON.parse(JSON.stringify(replacements)) }
  await plugin.dispose()
  await client.dispose()
  return { input, events: session.events.length, tombstones }
}

const median = (xs: readonly number[]) => {
  const s = [...xs].sort((a, b) => a - b)
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2
}
const p90 = (xs: readonly number[]) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * 0.9))]!
const fmt = (ms: number) => `${ms.toFixed(3).padStart(8)} ms`

async function main(): Promise<void> {
  const { input, events, tombstones } = await chatOfSize(ROWS)
  const bundle = await build({
    entryPoints: [join(root, 'bench/support/client-sync-page.ts')], bundle: true, write: false, format: 'iife',
    platform: 'browser', target: 'es2022', logLevel: 'warning', define: { __BUILD_STAMP__: '"bench"' },
  })
  const userDataDir = mkdtempSync(join(tmpdir(), 'mr-bench-chromium-'))
  const { browser } = await launchChromium({ ignoreDefaultArgs: true, args: ['--headless', 'about:blank'], userDataDir, pipe: true })
  try {
    const page = await browser.newPage()
    await page.setContent('<!doctype html><html><head></head><body></body></html>')
    await page.addScriptTag({ content: bundle.outputFiles[0]!.text })
    const full: PageInput = { ...input, rounds: 25, batch: 10, changedPerPass: 3, revealRows: 30 }
    const result = await page.evaluate((arg) => (globalThis as unknown as { runBench(i: PageInput): PageResult }).runBench(arg), full) as PageResult
    const floor = median(result.floor.samples)
    const row = (label: string, samples: readonly number[], target?: number) => {
      const m = median(samples)
      console.log(`${label.padEnd(38)} median ${fmt(m)}   p90 ${fmt(p90(samples))}   ${(m / floor).toFixed(1).padStart(6)}× floor${target === undefined ? '' : `   target ≤ ${target} ms: ${m <= target ? 'met' : 'MISSED'}`}`)
    }
    console.log(`client sync pass — ${result.rows} rows (${events} events, ${tombstones} tombstones, ${result.hidden} rows hidden, ${result.decorated} rows with buttons after the first pass)`)
    console.log(result.userAgent.split(' (floor')[0])
    row('floor: read key + kind of every row', result.floor.samples)
    row('first decoration (JS)', result.first.samples, 16)
    row('first decoration (JS + forced layout)', result.firstWithLayout.samples, 16)
    row(`${result.revealed} rows scrolled into view (+ layout)`, result.reveal.samples)
    row(`steady: ${full.changedPerPass} nodes changed per pass`, result.steady.samples, 4)
    row('idle: nothing changed', result.idle.samples)
    console.log(`rows written per steady pass: ${result.steadyTouched.toFixed(2)} (nodes changed per pass: ${full.changedPerPass})`)
  } finally {
    await browser.close()
    rmSync(userDataDir, { recursive: true, force: true })
  }
}

await main()
