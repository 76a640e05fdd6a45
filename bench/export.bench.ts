/**
 * Cost of the export without removed messages (`GET /dsh-message-recall/export`) beside DSH's own
 * Session log export (`GET /api/session.export?…&includeDescendants=true`, `dsh-host-apiproxy`) of
 * the same session of about 100k events with 20 removals in effect (10 prompts, 10 tool steps,
 * spread over the session), on the pinned rc.8 web host (`dsh web` with this plugin added; zstd
 * logs). The session is written with the real JSONL backend into the host's home before the host
 * starts, and the removals go through the plugin's `apply` on the host. Both exports read the same
 * stored log and write the same archive layout; the plugin's also rewrites the carriers of the
 * removed content. Each sample is one whole download (request to last byte) over loopback; the
 * two take turns within each round, in alternating order.
 *
 * Target (printed, not asserted): plugin median ≤ 1.25 × DSH median (`met` / `MISS`).
 *
 * Run: `npm run bench -- export`. `BENCH_SAMPLES=<n>` changes the samples per variant (default 15).
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { performance } from 'node:perf_hooks'
import { SessionId } from '@deepseek-ai/dsh-session'
import { bootDshApp } from '../test/support/dsh-app'
import { logOfSize } from '../test/support/conversation'
import { addPlugin, ensureHostInstalled, startHost } from '../tools/dsh-host'
import { startMockModel } from '../tools/mock-model'
import { median } from './support/stats'

const SIZE = 100_000
const REMOVALS = 20
const SAMPLES = Number(process.env.BENCH_SAMPLES ?? 15)
const WARMUP = 2
const TARGET = 1.25


const dir = mkdtempSync(join(tmpdir(), 'bench-export-'))
const home = join(dir, 'home')
const workspace = join(dir, 'workspace')
mkdirSync(workspace, { recursive: true })
ensureHostInstalled({ log: (l) => console.log(l) })
addPlugin({ dshHome: home })

// The session, written by the real JSONL backend where the host keeps its sessions.
const seeding = performance.now()
const writer = await bootDshApp({ persistence: { root: join(home, 'sessions'), compression: 'zstd' } })
let sessionId = ''
let eventCount = 0
let targets: number[] = []
try {
  const agent = await writer.createAgent({ seed: logOfSize(SIZE), cwd: workspace })
  await writer.ctx.sessions.flush(agent.session)
  sessionId = agent.id
  const events = agent.session.events
  const nodes = agent.session.surface.nodes
  eventCount = events.length
  // One target per chosen turn: its prompt, or the tool step right after it (never two adjacent).
  const prompts = nodes.map((seq, i) => [seq, i] as const).filter(([seq]) => events[seq]!.type === 'user/message')
  const stride = Math.floor(prompts.length / REMOVALS)
  targets = Array.from({ length: REMOVALS }, (_, k) => {
    const [seq, i] = prompts[k * stride + 1]!
    return k % 2 === 0 ? seq : nodes[i + 1]!
  })
} finally {
  await writer.dispose()
}
console.log(`a session of ${eventCount} events written in ${(performance.now() - seeding).toFixed(0)} ms`)

const model = await startMockModel()
const host = await startHost({ dshHome: home, port: 0, model, logFile: join(dir, 'host.log') })
const samples = { plugin: [] as number[], dsh: [] as number[] }
const bytes = { plugin: 0, dsh: 0 }
try {
  const headers = { origin: host.url, 'content-type': 'application/json' }
  const applied = await fetch(`${host.url}/dsh-message-recall`, { method: 'POST', headers, body: JSON.stringify({ action: 'apply', sessionId, changes: targets.map((seq) => ({ action: 'delete', seq })) }) })
  if (applied.status !== 200) throw new Error(`apply answered ${applied.status}: ${await applied.text()}`)
  const urls = {
    plugin: `${host.url}/dsh-message-recall/export?sessionId=${encodeURIComponent(SessionId(sessionId))}`,
    dsh: `${host.url}/api/session.export?sessionId=${encodeURIComponent(sessionId)}&includeDescendants=true`,
  }
  const download = async (variant: 'plugin' | 'dsh'): Promise<number> => {
    const t0 = performance.now()
    const res = await fetch(urls[variant], { headers: { origin: host.url } })
    const body = Buffer.from(await res.arrayBuffer())
    const ms = performance.now() - t0
    if (res.status !== 200) throw new Error(`${variant} export answered ${res.status}: ${body.toString('utf8')}`)
    bytes[variant] = body.length
    return ms
  }
  for (let r = 0; r < SAMPLES + WARMUP; r++) {
    const order: Array<'plugin' | 'dsh'> = r % 2 ? ['dsh', 'plugin'] : ['plugin', 'dsh']
    for (const variant of order) {
      const ms = await download(variant)
      if (r >= WARMUP) samples[variant].push(ms)
    }
  }
} finally {
  await host.stop()
  await model.close()
  rmSync(dir, { recursive: true, force: true })
}

const ratio = median(samples.plugin) / median(samples.dsh)
const paired = median(samples.plugin.map((ms, i) => ms / samples.dsh[i]!))
console.log(`\nexport of a ${eventCount}-event session with ${REMOVALS} removals, ${SAMPLES} samples per variant after ${WARMUP} warm-up rounds (ms, whole download)\n`)
console.log('variant                         |  median |     min | archive bytes')
console.log('--------------------------------|---------|---------|--------------')
console.log(`DSH Session log export          | ${median(samples.dsh).toFixed(1).padStart(7)} | ${Math.min(...samples.dsh).toFixed(1).padStart(7)} | ${bytes.dsh}`)
console.log(`plugin export without removed   | ${median(samples.plugin).toFixed(1).padStart(7)} | ${Math.min(...samples.plugin).toFixed(1).padStart(7)} | ${bytes.plugin}`)
console.log('')
console.log(`plugin / DSH: ${ratio.toFixed(2)}× (paired ${paired.toFixed(2)}×)   target ≤ ${TARGET}×: ${ratio <= TARGET ? 'met' : 'MISS'}`)
