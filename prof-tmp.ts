import { copyFileSync, mkdtempSync, readFileSync, rmSync, mkdirSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import { isDeepStrictEqual } from 'node:util'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { JsonlSessionPersistence } from '@deepseek-ai/dsh-session-persistence-jsonl'
import { foldSurface, deriveEventMessage } from '@deepseek-ai/dsh-session'
import { bootDshApp } from './test/support/dsh-app'
import { conversationLog, syntheticTurns } from './test/support/conversation'
import { eraseRemovalInLog } from './src/log/log-erase'
import { decodeLogBytes, encodeLogText, writeBeside, readLogAndHeaderWithDsh, publishLogFile, type JsonlReader } from './src/host/jsonl-log-file'
import { loadUnderInvariants } from './src/host/invariant-load'
const SIZE = 100000
const dir = mkdtempSync(join(tmpdir(), 'prof-erase-'))
const root = join(dir, 'sessions')
const app = await bootDshApp({ recall: {}, persistence: { root, compression: 'zstd' } })
const perTurn = conversationLog(syntheticTurns(2)).length - conversationLog(syntheticTurns(1)).length
const agent = await app.createAgent({ seed: conversationLog([{ prompt: 'CANARY secret prompt', steps: [{ text: 'ok' }] }, ...syntheticTurns(Math.ceil(SIZE / perTurn))]) })
const id = agent.id
const reply = await app.post({ sessionId: id, action: 'delete', seq: 4 })
const tombstoneSeq = reply.json.value.tombstoneSeq
const source = (app.ctx as any).sessionPersistence.locate({ id, cwd: agent.session.header.cwd }).path
await app.dispose()
const work = join(dir, 'work'); mkdirSync(work)
const log = join(work, 'session.jsonl.zstd')
copyFileSync(source, log)
const reader = Object.create(JsonlSessionPersistence.prototype, { compression: { value: 'zstd' }, assertStoredIdentity: { value: async () => {} } }) as JsonlReader
for (let round = 0; round < 3; round++) {
  const t: Record<string, number> = {}
  let s = performance.now()
  const lap = (k: string) => { const n = performance.now(); t[k] = Math.round(n - s); s = n }
  const before = (await readLogAndHeaderWithDsh(reader, log, id)).events; lap('dshReadOld')
  const bytes = await readFile(log); lap('readFile')
  const text = decodeLogBytes(bytes, 'zstd'); lap('decode')
  const r = eraseRemovalInLog(text, tombstoneSeq, 'x') as any; lap('rewrite')
  const enc = encodeLogText(r.value.text, 'zstd'); lap('encode')
  const p = await writeBeside(log, enc); lap('writeFsync')
  const after = await readLogAndHeaderWithDsh(reader, p, id); lap('dshReadNew')
  let bad = 0
  for (let i = 0; i < before.length; i++) if (!isDeepStrictEqual(before[i], after.events[i])) bad++
  lap('deepEqual')
  for (let i = 0; i < before.length; i++) if (JSON.stringify(before[i]) !== JSON.stringify(after.events[i])) bad++
  lap('stringifyEqual')
  const fa = foldSurface(before); lap('foldOld')
  const dA = JSON.stringify(fa.nodes.map((q) => deriveEventMessage(before[q]!)).filter(Boolean)); lap('deriveOld')
  const L = await loadUnderInvariants(id, after.events, after.meta) as any; lap('loadInvariants')
  const dB = JSON.stringify(L.messages); lap('stringifyNew')
  rmSync(p)
  console.log(JSON.stringify(t), bad, L.ok, before.length)
}
rmSync(dir, { recursive: true, force: true })
