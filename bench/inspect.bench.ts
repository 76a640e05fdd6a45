/**
 * Cost of `POST /dsh-message-recall` `inspect` on a stored session of about 5,400 events, on the
 * real rc.8 composition with the JSONL backend (zstd), side by side with its floor:
 *
 * - `full read`: `ctx.sessionPersistence.readFrom(id, 0)` plus the stored summary (`summarizeStored`),
 *   in-process: what every inspect cost before the stored summary was cached;
 * - `inspect`: the route's reply while the stored log is unchanged (served from the cache keyed by
 *   the persistence revision);
 * - `inspect after a write`: a delete, then an inspect (one full read, since the log changed);
 * - `20 parallel inspects`: the wall time of twenty concurrent requests, against twenty
 *   concurrent full reads.
 *
 * Targets (printed, not asserted): inspect median ≤ 0.25 × full-read median; 20 parallel inspects
 * ≤ 0.25 × 20 parallel full reads.
 *
 * Run: `npm run bench -- inspect`. `BENCH_SAMPLES=<n>` changes the samples (default 30).
 */
import { performance } from 'node:perf_hooks'
import type { SessionId } from '@deepseek-ai/dsh-session'
import { bootDshApp } from '../test/support/dsh-app'
import { logOfSize } from '../test/support/conversation'
import { summarizeStored } from '../src/host/inspect'
import type { LogEvent } from '../src/shared/events'
import { median } from './support/stats'

const SAMPLES = Number(process.env.BENCH_SAMPLES ?? 30)


async function time(run: () => Promise<unknown>): Promise<number> {
  const start = performance.now()
  await run()
  return performance.now() - start
}

const app = await bootDshApp({ recall: {}, persistence: { writeBatchMaxDelayMs: 200 } })
try {
  const agent = await app.createAgent({ seed: logOfSize(5_400) })
  const id = agent.id
  await app.ctx.sessions.flush(agent.session)
  const fullRead = async () => summarizeStored((await app.ctx.sessionPersistence.readFrom(id as SessionId, 0)).events as readonly LogEvent[])
  const inspect = async () => {
    const reply = await app.post({ sessionId: id, action: 'inspect' })
    if (reply.status !== 200) throw new Error(reply.text)
  }
  await fullRead()
  await inspect()

  const reads: number[] = []
  const cached: number[] = []
  const afterWrite: number[] = []
  const promptSeqs = agent.session.surface.nodes.filter((seq) => {
    const event = agent.session.events[seq]!
    return event.type === 'user/message' && (event.data as { source: { kind: string } }).source.kind === 'user'
  })
  for (let i = 0; i < SAMPLES; i++) {
    reads.push(await time(fullRead))
    cached.push(await time(inspect))
    const target = promptSeqs[i]
    if (target !== undefined) {
      const del = await app.post({ sessionId: id, action: 'delete', seq: target })
      if (del.status !== 200) throw new Error(del.text)
      afterWrite.push(await time(inspect))
    }
  }
  const parallelReads = await time(() => Promise.all(Array.from({ length: 20 }, fullRead)))
  const parallelInspects = await time(() => Promise.all(Array.from({ length: 20 }, inspect)))

  const events = agent.session.seq
  const row = (label: string, value: number, floor: number) => console.log(`${label.padEnd(34)} ${value.toFixed(2).padStart(9)} ms   floor ${floor.toFixed(2).padStart(9)} ms   ratio ${(value / floor).toFixed(3)}`)
  console.log(`stored session: ${events} events, ${SAMPLES} samples (medians)`)
  row('inspect (log unchanged)', median(cached), median(reads))
  row('inspect after a write', median(afterWrite), median(reads))
  row('20 parallel inspects (wall)', parallelInspects, parallelReads)
  console.log(`targets: inspect ≤ 0.25 × full read: ${median(cached) <= 0.25 * median(reads) ? 'met' : 'NOT met'}; 20 parallel ≤ 0.25 × 20 full reads: ${parallelInspects <= 0.25 * parallelReads ? 'met' : 'NOT met'}`)
} finally {
  await app.dispose()
}
