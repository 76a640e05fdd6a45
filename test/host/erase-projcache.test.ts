/**
 * Erase and DSH's persisted projection cache (`src/host/projection-cache-erase.ts`): the real
 * rc.8 `dsh-session-projection-cache` over `dsh-storage-json` in `<DSH home>/storages`, the real
 * agent loop with DSH's to-do tool and goal service (pinned host set), and the scripted mock model.
 * A step that wrote a to-do holding the canary is deleted; after a restart the cache file holds
 * the to-do; the route's erase drops the session's record and DSH folds it again from the erased
 * log: the file then holds no canary (also by the built `scan --text` over the DSH home), the
 * rebuilt record is DSH's own fold of the erased log, and the listing still serves the session's
 * projections. The log tool (host stopped, the built `dsh-message-recall-log erase`) drops the
 * record from the cache file and leaves the other sessions' records; its file rewrite is atomic.
 */
import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { spawnSync } from 'node:child_process'
import type { Plugin } from '@deepseek-ai/cordis'
import type { Session } from '@deepseek-ai/dsh-session'
import { bootDshApp, waitFor, type DshApp } from '../support/dsh-app'
import { importHostPackage, sideStatePlugins } from '../support/host-packages'
import { startMockModel, type MockModel } from '../../tools/mock-model'
import { cacheTextWithout, dropCacheEntryInFile, PROJECTION_CACHE_FILE } from '../../src/host/projection-cache-erase'
import { REMOVED_CONTENT_MARKER } from '../../src/shared/removed-content'

const CANARY = 'CANARY-projcache-5d1a'
const TOOL = join(import.meta.dirname, '..', '..', 'lib', 'scripts', 'dsh-message-recall-log.js')

/** The built log tool's `scan --text` on a folder. */
function scan(folder: string): { status: number | null; stdout: string; stderr: string } {
  return spawnSync(process.execPath, [TOOL, 'scan', folder, '--text', CANARY, '--json'], { encoding: 'utf8' })
}

describe('erase and the projection cache', () => {
  const home = mkdtempSync(join(tmpdir(), 'recall-projcache-home-'))
  const sessions = join(home, 'sessions')
  const storages = join(home, 'storages')
  const cacheFile = join(storages, PROJECTION_CACHE_FILE)
  let model: MockModel
  let cache: Plugin
  const apps: DshApp[] = []
  before(async () => {
    mkdirSync(storages, { recursive: true })
    model = await startMockModel()
    cache = (await importHostPackage('@deepseek-ai/dsh-session-projection-cache')).SessionProjectionCache as Plugin
  })
  after(async () => {
    for (const app of apps.splice(0)) await app.dispose()
    await model.close()
    rmSync(home, { recursive: true, force: true })
  })

  const boot = async (): Promise<DshApp> => {
    const app = await bootDshApp({
      recall: {}, persistence: { root: sessions }, workspaces: { root: storages }, model: { baseURL: model.baseURL, apiKey: model.apiKey },
      // The `dsh-base` bundle's cache config would write only at turn ends and disposals here too.
      plugins: [...(await sideStatePlugins()), { plugin: cache, config: { writeEveryEvents: 64, writeIntervalMs: 60_000 } }],
    })
    apps.push(app)
    await waitFor(() => app.ctx.get('sessionProjectionCache') !== undefined && app.ctx.get('goals') !== undefined, 'the projection cache and the goal service loaded')
    return app
  }
  const shut = async (app: DshApp): Promise<void> => {
    apps.splice(apps.indexOf(app), 1)
    await app.dispose()
  }
  const record = (id: string): any => JSON.parse(readFileSync(cacheFile, 'utf8')).tables.sessions[id]

  it('drops the erased session\'s record and DSH folds it again from the erased log: no canary in the cache, the to-do erased', async () => {
    let app = await boot()
    const agent = await app.createAgent()
    model.script([
      { toolCall: { name: 'todo_write', arguments: { todos: [{ content: `${CANARY} draft the outline`, status: 'in_progress' }] } } },
      'The task is on the list.',
    ])
    await app.prompt(agent, 'Plan the work')
    const session = agent.session as Session
    const step = session.surface.nodes.find((seq) => session.events[seq]!.type === 'assistant/message' && JSON.stringify(session.events[seq]!.data).includes(CANARY))
    assert.notEqual(step, undefined, 'the step that called todo_write is on the surface')
    const removed = await app.post({ sessionId: agent.id, action: 'delete', seq: step })
    assert.equal(removed.status, 200, removed.text)
    const tombstoneSeq = removed.json.value.tombstoneSeq as number
    await shut(app)
    assert.deepEqual(record(agent.id).rows.todos.val, [{ content: `${CANARY} draft the outline`, status: 'in_progress' }], 'the cache holds the removed step\'s to-do')
    assert.ok(JSON.parse(scan(home).stdout).hits.some((hit: any) => hit.path === cacheFile), 'the scan finds the canary in the cache file before the erase')

    app = await boot()
    const erased = await app.post({ sessionId: agent.id, action: 'erase', tombstoneSeq })
    assert.equal(erased.status, 200, erased.text)
    assert.equal(erased.json.value.projectionCache, 'rebuilt')
    assert.ok(!readFileSync(cacheFile, 'utf8').includes(CANARY), 'the cache file holds no canary')
    // DSH's own fold of the erased log: the to-do list of the erased todo/write, its text replaced.
    assert.deepEqual(record(agent.id).rows.todos.val, [{ content: `${REMOVED_CONTENT_MARKER} 1`, status: 'in_progress' }])
    const listed = (await app.ctx.get('sessionProjectionCache') as any).cachedSnapshot({ ...(await (app.ctx as any).sessionPersistence.inspect(agent.id)).meta })
    assert.ok(listed !== undefined && 'todos' in listed.values, 'the listing still serves the session\'s projections')
    await shut(app)
    const after = scan(home)
    assert.equal(after.status, 0, after.stdout)
    assert.deepEqual(JSON.parse(after.stdout).hits, [], 'nothing under the DSH home holds the canary')
  })

  it('the log tool, host stopped: the record is dropped from the cache file, and nothing under the DSH home holds the canary', async () => {
    const app = await boot()
    const agent = await app.createAgent()
    model.script([
      { toolCall: { name: 'todo_write', arguments: { todos: [{ content: `${CANARY} second session`, status: 'in_progress' }] } } },
      'Listed.',
    ])
    await app.prompt(agent, 'Plan more work')
    const session = agent.session as Session
    const step = session.surface.nodes.find((seq) => session.events[seq]!.type === 'assistant/message' && JSON.stringify(session.events[seq]!.data).includes(CANARY))
    const removed = await app.post({ sessionId: agent.id, action: 'delete', seq: step })
    assert.equal(removed.status, 200, removed.text)
    const folder = (app.ctx as any).sessionPersistence.locate({ id: agent.id, cwd: session.header.cwd }).path.replace(/\/session\.jsonl\.zstd$/, '')
    await shut(app)
    assert.ok(readFileSync(cacheFile, 'utf8').includes(`${CANARY} second session`), 'the cache holds the to-do before the erase')
    const others = Object.keys(JSON.parse(readFileSync(cacheFile, 'utf8')).tables.sessions).filter((id) => id !== agent.id)
    const run = spawnSync(process.execPath, [TOOL, 'erase', folder, '--tombstone', String(removed.json.value.tombstoneSeq), '--json'], { encoding: 'utf8' })
    assert.equal(run.status, 0, run.stdout + run.stderr)
    assert.equal(JSON.parse(run.stdout).projectionCache, 'dropped')
    assert.deepEqual(Object.keys(JSON.parse(readFileSync(cacheFile, 'utf8')).tables.sessions), others, 'only the erased session\'s record went')
    assert.deepEqual(readdirSync(storages).filter((name) => name.endsWith('.tmp')), [], 'no temporary file is left')
    const after = scan(home)
    assert.equal(after.status, 0, after.stdout)
    assert.deepEqual(JSON.parse(after.stdout).hits, [], 'nothing under the DSH home holds the canary')
  })

  it('drops a record from a stopped host\'s cache file atomically; a file without it, or without the file, is left alone', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'recall-projcache-file-'))
    try {
      const text = `${JSON.stringify({ unit: { name: 'session_projcache', version: 3 }, global: null, tables: { sessions: {
        'session-a': { identity: { createdAt: 1 }, rows: { todos: { ver: 1, seq: 9, val: [{ content: CANARY, status: 'pending' }] } } },
        'session-b': { identity: { createdAt: 2 }, rows: {} },
      } } }, null, 2)}\n`
      assert.equal(await dropCacheEntryInFile(dir, 'session-a'), 'absent', 'no file')
      writeFileSync(join(dir, PROJECTION_CACHE_FILE), text)
      assert.equal(await dropCacheEntryInFile(dir, 'session-c'), 'absent', 'no such record')
      assert.equal(readFileSync(join(dir, PROJECTION_CACHE_FILE), 'utf8'), text)
      assert.equal(await dropCacheEntryInFile(dir, 'session-a'), 'dropped')
      assert.equal(readFileSync(join(dir, PROJECTION_CACHE_FILE), 'utf8'), `${JSON.stringify({ unit: { name: 'session_projcache', version: 3 }, global: null, tables: { sessions: { 'session-b': { identity: { createdAt: 2 }, rows: {} } } } }, null, 2)}\n`)
      assert.deepEqual(readdirSync(dir), [PROJECTION_CACHE_FILE], 'no temporary file is left')
      assert.throws(() => cacheTextWithout('{"unit":{"name":"workspace"},"tables":{}}', 'session-a'), { message: 'not a session_projcache file' })
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
})
