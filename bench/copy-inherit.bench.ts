/**
 * Cost of a copy that inherits removals: a copy of a session of about 100k events whose source
 * removed 20 scattered prompts after the copy's cut, beside the same copy of the same log with no
 * removal (the floor: what DSH pays for the copy itself, and what this plugin adds when there is
 * nothing to inherit is one pass over the events after the cut). Both on the real rc.8 composition
 * with the JSONL backend (zstd, the product's 200 ms batch window; the flush drains at once).
 *
 * Two paths, each timed from the seed slice to the copy's durable flush:
 * - `fork`: `SessionStore.fork(source, cut)` in a child fiber (the path Branch takes through
 *   `agents.create` with the same seed and header fields), then `sessions.flush(copy)`;
 * - `subagent`: `agents.create` from the parent agent's context with the seed
 *   `dsh-subagent-fork-in-process` `completedTurnPrefix` takes (every event up to the last
 *   `turn/end`, so the tombstones written after it are not in it) and the header `dsh-subagent`
 *   `childSessionMeta` writes, then `sessions.flush` of the child.
 * The four variants take turns within each round, in rotating order. The copies are disposed after
 * each sample (not timed).
 *
 * Target (printed, not asserted): each path's median with 20 removals ≤ 1.1 × its floor's median.
 *
 * Run: `npm run bench -- copy`. `BENCH_SAMPLES=<n>` changes the samples per variant (default 12).
 */
import { performance } from 'node:perf_hooks'
import { randomUUID } from 'node:crypto'
import type { Agent } from '@deepseek-ai/dsh-agent'
import { SessionId, type Session } from '@deepseek-ai/dsh-session'
import { bootDshApp, MODEL, PROVIDER, type DshApp } from '../test/support/dsh-app'
import { conversationLog, syntheticTurns } from '../test/support/conversation'
import { readTombstone } from '../src/shared/tombstone'
import { median, p95 } from './support/stats'

const SIZE = 100_000
const REMOVALS = 20
const SAMPLES = Number(process.env.BENCH_SAMPLES ?? 12)
const WARMUP = 2
const TARGET = 1.1
const EVENTS_PER_TURN = conversationLog(syntheticTurns(2)).length - conversationLog(syntheticTurns(1)).length

type Variant = 'fork, none' | 'fork, 20 removals' | 'subagent, none' | 'subagent, 20 removals'
const VARIANTS: Variant[] = ['fork, none', 'fork, 20 removals', 'subagent, none', 'subagent, 20 removals']



/** Every event up to the last `turn/end` (`dsh-subagent-fork-in-process` `completedTurnPrefix`). */
function completedTurnPrefix(session: Session) {
  const events = session.events
  return events.slice(0, events.findLast((e) => e.type === 'turn/end')!.seq + 1)
}

/** `SessionStore.fork` in a child fiber, flushed; returns the ms and the number of tombstones the copy carries beyond the seed, and disposes it. */
async function forkOnce(app: DshApp, source: Agent, cut: number): Promise<{ ms: number; inherited: number }> {
  let copy: Session | undefined
  const t0 = performance.now()
  const fiber = app.ctx.plugin({ name: 'bench-copy', inject: ['sessions'], apply: (child) => void (copy = child.sessions.fork(source.session, cut)) })
  await fiber.await()
  await app.ctx.sessions.flush(copy!)
  const ms = performance.now() - t0
  const inherited = copy!.events.slice(cut + 1).filter((e) => readTombstone(e) !== null).length
  await fiber.dispose()
  return { ms, inherited }
}

/** A subagent fork's child agent, flushed; returns the ms and the inherited tombstones, and disposes it. */
async function subagentOnce(parent: Agent): Promise<{ ms: number; inherited: number }> {
  const t0 = performance.now()
  const seed = completedTurnPrefix(parent.session)
  const handle = await parent.ctx.agents.create({
    sessionId: SessionId(randomUUID()), seed, agentOptions: { provider: PROVIDER, model: MODEL },
    meta: { cwd: parent.session.header.cwd!, parentSession: parent.id, origin: 'subagent', delegationDepth: 1, seedLength: seed.length },
  })
  await parent.ctx.sessions.flush(handle.agent.session)
  const ms = performance.now() - t0
  const inherited = handle.agent.session.events.slice(seed.length).filter((e) => readTombstone(e) !== null).length
  await handle.dispose()
  return { ms, inherited }
}

const app = await bootDshApp({ recall: {}, persistence: { compression: 'zstd', writeBatchMaxDelayMs: 200 } })
const samples: Record<Variant, number[]> = { 'fork, none': [], 'fork, 20 removals': [], 'subagent, none': [], 'subagent, 20 removals': [] }
let events = 0
try {
  const turns = Math.ceil(SIZE / EVENTS_PER_TURN)
  const seedStart = performance.now()
  const plain = await app.createAgent({ seed: conversationLog(syntheticTurns(turns)) })
  const removed = await app.createAgent({ seed: conversationLog(syntheticTurns(turns)) })
  for (const agent of [plain, removed]) await app.ctx.sessions.flush(agent.session)
  events = plain.session.events.length
  const cut = completedTurnPrefix(removed.session).length - 1
  // 20 prompts spread over the whole session, removed after the last turn: each is its own tombstone.
  const prompts = removed.session.surface.nodes.filter((seq) => { const e = removed.session.events[seq]!; return e.type === 'user/message' && (e.data as { source?: { kind?: string } }).source?.kind === 'user' })
  const stride = Math.floor(prompts.length / REMOVALS)
  const changes = Array.from({ length: REMOVALS }, (_, i) => ({ action: 'delete', seq: prompts[i * stride + 1]! }))
  const reply = await app.post({ sessionId: removed.id, action: 'apply', changes })
  if (reply.status !== 200) throw new Error(`apply answered ${reply.status}: ${reply.text}`)
  console.log(`2 sessions of ${events} events seeded and persisted, ${REMOVALS} prompts removed in one of them, in ${(performance.now() - seedStart).toFixed(0)} ms`)

  const run: Record<Variant, () => Promise<{ ms: number; inherited: number }>> = {
    'fork, none': () => forkOnce(app, plain, cut),
    'fork, 20 removals': () => forkOnce(app, removed, cut),
    'subagent, none': () => subagentOnce(plain),
    'subagent, 20 removals': () => subagentOnce(removed),
  }
  const expected: Record<Variant, number> = { 'fork, none': 0, 'fork, 20 removals': REMOVALS, 'subagent, none': 0, 'subagent, 20 removals': REMOVALS }
  for (let r = 0; r < SAMPLES + WARMUP; r++) {
    for (let k = 0; k < VARIANTS.length; k++) {
      const variant = VARIANTS[(r + k) % VARIANTS.length]!
      const { ms, inherited } = await run[variant]()
      if (inherited !== expected[variant]) throw new Error(`${variant}: the copy inherited ${inherited} tombstones, not ${expected[variant]}`)
      if (r >= WARMUP) samples[variant].push(ms)
    }
  }
} finally {
  await app.dispose()
}

const fmt = (ms: number) => ms.toFixed(1).padStart(7)
console.log(`\nA copy of a ${events}-event session cut before ${REMOVALS} removals, beside the same copy with none, ${SAMPLES} samples per variant after ${WARMUP} warm-up rounds (ms; seed slice to durable flush)\n`)
console.log('variant               |  median |     p95')
console.log('----------------------|---------|--------')
for (const v of VARIANTS) console.log(`${v.padEnd(21)} | ${fmt(median(samples[v]))} | ${fmt(p95(samples[v]))}`)
console.log('')
for (const path of ['fork', 'subagent'] as const) {
  const floor = median(samples[`${path}, none`])
  const ratio = median(samples[`${path}, 20 removals`]) / floor
  console.log(`${path.padEnd(8)} 20 removals / none: ${ratio.toFixed(2)}× (floor ${floor.toFixed(1)} ms)   target ≤ ${TARGET}×: ${ratio <= TARGET ? 'met' : 'MISS'}`)
}
