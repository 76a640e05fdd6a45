/**
 * Cost of one `POST /dsh-message-recall` `apply` of 20 scattered removals, side by side with one
 * single `delete`, on agent sessions of about 100k events, on the real rc.8 composition with the
 * JSONL backend (zstd, the product's 200 ms batch window; the flush drains at once). Both run one
 * `runMaintenance` and one flush per request; the batch plans its 20 changes on a copy of the
 * surface and appends 20 tombstones before that one flush.
 *
 * Each removal takes one whole model step, never two adjacent ones (the tool step of odd turns,
 * the reply of even turns), so every change of a batch writes its own tombstone; the 20 targets
 * of a batch are spread over the whole session. The two variants take turns within each round,
 * in rotating order, on the same session. Figures are wall-clock round trips.
 *
 * Target (printed, not asserted): apply median ≤ 1.5 × single delete median. Also printed: the
 * median of the per-round ratios (both calls of a round run back to back on the same session).
 *
 * Run: `npm run bench -- host`. `BENCH_SAMPLES=<n>` changes the samples per variant (default 40).
 */
import { performance } from 'node:perf_hooks'
import type { Agent } from '@deepseek-ai/dsh-agent'
import type { Session } from '@deepseek-ai/dsh-session'
import { bootDshApp } from '../test/support/dsh-app'
import { conversationLog, syntheticTurns } from '../test/support/conversation'

const SIZE = 100_000
const BATCH = 20
const SAMPLES = Number(process.env.BENCH_SAMPLES ?? 40)
const WARMUP = 3
const TARGET = 1.5
const EVENTS_PER_TURN = conversationLog(syntheticTurns(2)).length - conversationLog(syntheticTurns(1)).length

function median(samples: number[]): number {
  const s = [...samples].sort((a, b) => a - b)
  return s[Math.ceil(s.length / 2) - 1]!
}

function p95(samples: number[]): number {
  const s = [...samples].sort((a, b) => a - b)
  return s[Math.min(s.length - 1, Math.ceil(0.95 * s.length) - 1)]!
}

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

const app = await bootDshApp({ recall: {}, persistence: { compression: 'zstd', writeBatchMaxDelayMs: 200 }, invariants: process.env.BENCH_INVARIANTS !== '0' })
const single: number[] = []
const batch: number[] = []
let events = 0
try {
  const turns = Math.ceil(SIZE / EVENTS_PER_TURN)
  const needed = (SAMPLES + WARMUP) * (BATCH + 1)
  const lanes: { agent: Agent; targets: number[] }[] = []
  const seedStart = performance.now()
  for (let have = 0; have < needed; ) {
    const agent = await app.createAgent({ seed: conversationLog(syntheticTurns(turns)) })
    await app.ctx.sessions.flush(agent.session)
    const targets = targetsOf(agent.session, turns)
    lanes.push({ agent, targets })
    have += targets.length
  }
  events = lanes[0]!.agent.session.events.length
  console.log(`${lanes.length} session(s) of ${events} events seeded and persisted in ${(performance.now() - seedStart).toFixed(0)} ms`)

  const variants = {
    single: async (lane: { agent: Agent; targets: number[] }) => {
      const seq = lane.targets.shift()!
      const reply = await app.post({ sessionId: lane.agent.id, action: 'delete', seq })
      if (reply.status !== 200) throw new Error(`delete answered ${reply.status}: ${reply.text}`)
    },
    apply: async (lane: { agent: Agent; targets: number[] }) => {
      // Every k-th remaining target: spread over the whole session.
      const stride = Math.floor(lane.targets.length / BATCH)
      const picked = Array.from({ length: BATCH }, (_, i) => lane.targets[i * stride]!)
      lane.targets = lane.targets.filter((seq) => !picked.includes(seq))
      const reply = await app.post({ sessionId: lane.agent.id, action: 'apply', changes: picked.map((seq) => ({ action: 'delete', seq })) })
      if (reply.status !== 200) throw new Error(`apply answered ${reply.status}: ${reply.text}`)
      if (reply.json.value.results.length !== BATCH) throw new Error('apply answered a short result list')
    },
  }
  const order = ['single', 'apply'] as const
  for (let r = 0; r < SAMPLES + WARMUP; r++) {
    const lane = lanes.find((l) => l.targets.length >= BATCH * 2 + 1)!
    for (let k = 0; k < order.length; k++) {
      const variant = order[(r + k) % order.length]!
      const t0 = performance.now()
      await variants[variant](lane)
      const ms = performance.now() - t0
      if (r >= WARMUP) (variant === 'single' ? single : batch).push(ms)
    }
  }
} finally {
  await app.dispose()
}

const fmt = (ms: number) => ms.toFixed(2).padStart(7)
const ratio = median(batch) / median(single)
// The two calls of one round ran back to back on the same session: their ratio has the disk's
// slow phases mostly cancelled out.
const paired = median(batch.map((ms, i) => ms / single[i]!))
console.log(`\nPOST apply of ${BATCH} scattered removals vs one delete, ${events} events, ${SAMPLES} samples each after ${WARMUP} warm-up rounds (ms; wall clock per call)\n`)
console.log(`events  | delete med / p95  | apply×${BATCH} med / p95 | apply/delete | paired median | target ≤${TARGET}×`)
console.log('--------|-------------------|--------------------|--------------|---------------|-------------')
console.log(`${String(events).padEnd(7)} | ${fmt(median(single))} / ${fmt(p95(single))} | ${fmt(median(batch))} / ${fmt(p95(batch))}  | ${ratio.toFixed(2).padStart(11)}× | ${paired.toFixed(2).padStart(12)}× | ${ratio <= TARGET ? 'PASS' : 'MISS'} (paired ${paired <= TARGET ? 'PASS' : 'MISS'})`)
