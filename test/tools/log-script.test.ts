/**
 * `npm run log -- …` runs the built log tool (`lib/scripts/dsh-message-recall-log.js`) under the
 * Node 22 the other npm scripts use (`tools/with-node22.ts`), so `erase`, which needs Node 22.15
 * or later, works when the `node` on PATH is Node 20: a real session written by the real rc.8
 * host, a Delete, the host stopped, then `npm run --silent log -- erase` with Node 20 first on
 * PATH erases the removal (exit 0), and a second run answers that it was erased already (exit 1).
 */
import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import { dirname, join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import type { Session } from '@deepseek-ai/dsh-session'
import { conversationLog } from '../support/conversation'
import { node, Roots } from '../host/helpers'
import { node20Path } from '../../tools/node-runtime'
import { PROJECT_ROOT } from '../../tools/dsh-host'

/** `npm run --silent log -- args` in the checkout, with Node 20 first on PATH. */
function npmLog(args: readonly string[]) {
  const node20 = node20Path()
  const r = spawnSync('npm', ['run', '--silent', 'log', '--', ...args], {
    cwd: PROJECT_ROOT,
    encoding: 'utf8',
    env: { ...process.env, PATH: `${dirname(node20)}:${process.env.PATH ?? ''}` },
  })
  return { status: r.status, stdout: r.stdout, stderr: r.stderr }
}

describe('npm run log', () => {
  const roots = new Roots()
  let folder: string
  let deleted: number
  before(async () => {
    const root = roots.root()
    const app = await roots.boot(root)
    const agent = await app.createAgent({ seed: conversationLog([{ prompt: 'a prompt to erase', steps: [{ text: 'an answer' }] }]) })
    const session = agent.session as Session
    const removed = await app.post({ sessionId: agent.id, action: 'delete', seq: node(session, 'user/message', 'a prompt to erase') })
    assert.equal(removed.status, 200)
    deleted = removed.json.value.tombstoneSeq
    folder = (app.ctx as any).sessionPersistence.locate({ id: agent.id, cwd: session.header.cwd }).path.replace(/\/session\.jsonl\.zstd$/, '')
    await roots.shut(app)
  })
  after(() => roots.dispose())

  it('erases with Node 20 on PATH: the tool runs under the pinned Node 22', () => {
    assert.match(spawnSync(node20Path(), ['--version'], { encoding: 'utf8' }).stdout, /^v20\./)
    const first = npmLog(['erase', folder, '--tombstone', String(deleted)])
    assert.equal(first.status, 0, first.stdout + first.stderr)
    const again = npmLog(['erase', folder, '--tombstone', String(deleted)])
    assert.deepEqual(again, { status: 1, stdout: `refused, nothing changed: cannot erase removal ${deleted}: that removal was erased already\n`, stderr: '' })
  })
})
