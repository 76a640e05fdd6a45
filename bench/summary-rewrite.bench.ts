/**
 * Cost of a summary rewrite (removing a message a compaction folded) beside DSH's own
 * `compactNow` on the same session: an agent session of about 20k events is compacted by
 * `dsh-compaction-basic` `compactNow`, then a folded prompt is deleted through the route, which
 * rewrites that summary. Both on the real rc.8 composition with the token meter, the invariant
 * companions and the JSONL backend (zstd, the product's 200 ms batch window; the flush drains at
 * once); DSH's mock model answers the summarizer at once.
 *
 * Each side is timed from its call to its durable flush, and the model call is taken out of both:
 * the engine's `summarize` hook (which both call) is wrapped to time it, and that time is
 * subtracted. What is left is each side's own work: DSH's range selection, measuring, input
 * building, appends and flush; the rewrite's planning (the fate reader over the replacements, the
 * originals read through the checkpoint), input building, appends and flush, plus the route's
 * HTTP round trip.
 *
 * Target (printed, not asserted): the rewrite's median ≤ 1.25 × `compactNow`'s median.
 *
 * Run: `npm run bench -- summary`. `BENCH_SAMPLES=<n>` changes the samples (default 12).
 */
import { performance } from 'node:perf_hooks'
import type { Agent } from '@deepseek-ai/dsh-agent'
import type { Plugin } from '@deepseek-ai/cordis'
import { bootDshApp } from '../test/support/dsh-app'
import { importHostPackage } from '../test/support/host-packages'
import { conversationLog, syntheticTurns } from '../test/support/conversation'
import { readFates } from '../src/shared/fate'
import type { LogEvent } from '../src/shared/events'

const SIZE = 20_000
const SAMPLES = Number(process.env.BENCH_SAMPLES ?? 12)
const WARMUP = 2
const TARGET = 1.25
const EVENTS_PER_TURN = conversationLog(syntheticTurns(2)).length - conversationLog(syntheticTurns(1)).length

function median(samples: readonly number[]): number {
  const s = [...samples].sort((a, b) => a - b)
  return s[Math.ceil(s.length / 2) - 1]!
}

function p95(samples: readonly number[]): number {
  const s = [...samples].sort((a, b) => a - b)
  return s[Math.min(s.length - 1, Math.ceil(0.95 * s.length) - 1)]!
}

interface Engine {
  summarize(...args: unknown[]): Promise<unknown>
  compactNow(agent: Agent, signal: AbortSignal): Promise<unknown>
}

const engine = (await importHostPackage('@deepseek-ai/dsh-compaction-basic')).BasicCompactionEngine as Plugin
const app = await bootDshApp({ recall: {}, tokenMeter: true, persistence: { compression: 'zstd', writeBatchMaxDelayMs: 200 }, plugins: [{ plugin: engine, config: {} }] })
const compact: number[] = []
const rewrite: number[] = []
let events = 0
try {
  const service = app.ctx.get('compaction') as unknown as Engine
  const summarize = service.summarize.bind(service)
  let inModel = 0
  service.summarize = async (...args: unknown[]) => {
    const t0 = performance.now()
    try {
      return await summarize(...args)
    } finally {
      inModel += performance.now() - t0
    }
  }
  const turns = Math.ceil(SIZE / EVENTS_PER_TURN)
  for (let r = 0; r < SAMPLES + WARMUP; r++) {
    const agent = await app.createAgent({ seed: conversationLog(syntheticTurns(turns)) })
    await app.ctx.sessions.flush(agent.session)
    events = agent.session.events.length

    inModel = 0
    let t0 = performance.now()
    const compacted = await service.compactNow(agent, new AbortController().signal)
    const compactMs = performance.now() - t0 - inModel
    if (compacted === null) throw new Error('compactNow compacted nothing')

    const log = agent.session.events as unknown as LogEvent[]
    const fates = readFates(log)
    const prompt = log.find((e) => e.type === 'user/message' && (e.data as { source?: { kind?: string } }).source?.kind === 'user' && fates.fateOf(e.seq).state === 'folded')
    if (prompt === undefined) throw new Error('no folded prompt')
    inModel = 0
    t0 = performance.now()
    const reply = await app.post({ sessionId: agent.id, action: 'delete', seq: prompt.seq })
    const rewriteMs = performance.now() - t0 - inModel
    if (reply.status !== 200) throw new Error(`delete answered ${reply.status}: ${reply.text}`)
    if (r >= WARMUP) {
      compact.push(compactMs)
      rewrite.push(rewriteMs)
    }
  }
} finally {
  await app.dispose()
}

const fmt = (ms: number) => ms.toFixed(1).padStart(7)
console.log(`\nA summary rewrite beside DSH's compactNow on the same ${events}-event session, ${SAMPLES} samples after ${WARMUP} warm-up rounds (ms; call to durable flush, the summarize call subtracted)\n`)
console.log('side          |  median |     p95')
console.log('--------------|---------|--------')
console.log(`compactNow    | ${fmt(median(compact))} | ${fmt(p95(compact))}`)
console.log(`rewrite       | ${fmt(median(rewrite))} | ${fmt(p95(rewrite))}`)
const ratio = median(rewrite) / median(compact)
console.log(`\nrewrite / compactNow: ${ratio.toFixed(2)}×   target ≤ ${TARGET}×: ${ratio <= TARGET ? 'met' : 'MISS'}`)
