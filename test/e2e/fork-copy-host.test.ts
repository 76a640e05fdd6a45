/**
 * `forkBefore` on the pinned DSH 0.1.0-rc.8 web host (`dsh web` with this plugin added, DSH's mock
 * model on loopback; no browser): what only the full host composes.
 * - The copy runs the agent preset of its source: the host's agent-preset roster
 *   (`dsh-agent-presets`) composes the agent that opens the copy from the preset the copy
 *   records, seen on the wire as that preset's system prompt and tool set.
 * - Copy numbers are counted against the titles the host's persisted projection cache
 *   (`dsh-session-projection-cache`) holds for stored sessions, also after a restart.
 * - The copy is listed under its source's workspace; the copy of a real subagent session (started
 *   by the parent's `subagent` tool call, `dsh-tool-subagent` over the host's spawn provider),
 *   which no workspace lists, is listed under its parent's workspace.
 */
import assert from 'node:assert/strict'
import { mkdirSync, readFileSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import { addPlugin, ensureHostInstalled, startHost, type RunningHost } from '../../tools/dsh-host'
import { history, prompt, rpc, waitForTurnEnds } from '../../tools/dsh-api'
import { startMockModel, type MockModel, type MockRequest } from '../../tools/mock-model'
import { ARTIFACTS } from './harness'

/** The complete system prompt of the rc.8 `minimal` preset (`dsh/config/agent-presets/minimal/agent.cordis.yml`). */
const MINIMAL_PERSONA = 'You are a helpful software engineer assistant.'

describe('forkBefore on the rc.8 web host', () => {
  const dir = join(ARTIFACTS, 'fork-copy-host')
  const home = join(dir, 'home')
  const workspaceDir = join(dir, 'workspace')
  let model: MockModel
  let host: RunningHost
  let port: number

  const route = async (body: object): Promise<any> => {
    const res = await fetch(`${host.url}/dsh-message-recall`, { method: 'POST', headers: { 'content-type': 'application/json', origin: host.url }, body: JSON.stringify(body) })
    const json = (await res.json()) as any
    assert.equal(res.status, 200, JSON.stringify(json))
    return json.value
  }
  /** The turn request that carried `text`, after the first `from` requests. */
  const requestWith = (text: string, from = 0): MockRequest => {
    const found = model.requests.slice(from).find((r) => JSON.stringify(r.body.messages).includes(text))
    assert.ok(found, `a turn request carries ${JSON.stringify(text)}`)
    return found
  }
  const systemOf = (r: MockRequest) => r.body.messages.filter((m) => m.role === 'system').map((m) => m.content)
  const toolsOf = (r: MockRequest) => (r.body.tools ?? []).map((t) => t.function.name).sort()

  before(async () => {
    ensureHostInstalled({ log: (l) => process.stderr.write(`[e2e] ${l}\n`) })
    rmSync(dir, { recursive: true, force: true })
    mkdirSync(workspaceDir, { recursive: true })
    addPlugin({ dshHome: home })
    model = await startMockModel()
    host = await startHost({ dshHome: home, port: 0, model, logFile: join(dir, 'host.log') })
    port = Number(new URL(host.url).port)
  })
  after(async () => {
    await host?.stop().catch(() => {})
    await model?.close().catch(() => {})
  })

  it('numbers copies against the stored titles across a restart, lists them in the workspace, and opens them with the source preset', async () => {
    const { workspace } = await rpc(host.url, 'workspace.create', { path: workspaceDir })
    const sessionId = (await rpc(host.url, 'session.create', { workspaceId: workspace.workspaceId, agentPreset: 'minimal' })).sessionId as string
    await prompt(host.url, sessionId, 'first question please')
    await waitForTurnEnds(host.url, sessionId, 1)
    await prompt(host.url, sessionId, 'second question please')
    await waitForTurnEnds(host.url, sessionId, 2)
    assert.deepEqual(systemOf(requestWith('first question please')), [MINIMAL_PERSONA], 'the source runs the minimal preset')

    const reply = (await history(host.url, sessionId)).filter((e) => e.type === 'assistant/message').at(-1)!
    const { tombstoneSeq } = await route({ action: 'delete', sessionId, seq: reply.seq })
    const first = await route({ action: 'forkBefore', sessionId, tombstoneSeq })
    const second = await route({ action: 'forkBefore', sessionId, tombstoneSeq })
    assert.match(first.title, / \(copy\)$/)
    assert.equal(second.title, first.title.replace(/ \(copy\)$/, ' (copy 2)'))

    await host.stop()
    // Where the stored copies' titles are read from after the restart: the projection cache's rows.
    const cached = JSON.parse(readFileSync(join(home, 'storages', 'session_projcache.json'), 'utf8')).tables.sessions
    assert.deepEqual([first, second].map((copy) => cached[copy.forkedSessionId]?.rows.title.val), [first.title, second.title])
    host = await startHost({ dshHome: home, port, model, logFile: join(dir, 'host.log') })
    const third = await route({ action: 'forkBefore', sessionId, tombstoneSeq })
    assert.equal(third.title, first.title.replace(/ \(copy\)$/, ' (copy 3)'), 'after a restart the stored copies still count')

    const listed = (await rpc(host.url, 'session.list', {})).items as Array<{ sessionId: string; agentPreset?: string; parentSessionId?: string }>
    for (const copy of [first, second, third]) {
      const entry = listed.find((s) => s.sessionId === copy.forkedSessionId)
      assert.deepEqual({ agentPreset: entry?.agentPreset, parentSessionId: entry?.parentSessionId }, { agentPreset: 'minimal', parentSessionId: sessionId })
    }
    const workspaces = (await rpc(host.url, 'workspace.list', {})).items as Array<{ workspaceId: string; sessionIds: string[] }>
    const listing = workspaces.find((w) => w.workspaceId === workspace.workspaceId)!
    assert.ok([first, second, third].every((copy) => listing.sessionIds.includes(copy.forkedSessionId)), 'every copy is listed under the source workspace')

    // Opening the copy: the host resumes it with the agent composed from the preset the copy records.
    const from = model.requests.length
    await prompt(host.url, first.forkedSessionId, 'third question in the copy')
    await waitForTurnEnds(host.url, first.forkedSessionId, 3)
    const inCopy = requestWith('third question in the copy', from)
    assert.deepEqual(systemOf(inCopy), [MINIMAL_PERSONA])
    assert.deepEqual(toolsOf(inCopy), toolsOf(requestWith('first question please')))

    // The same host composes a different agent for a session that records no preset: the check above is not vacuous.
    const plain = (await rpc(host.url, 'session.create', { workspaceId: workspace.workspaceId })).sessionId as string
    await prompt(host.url, plain, 'a question without a preset')
    await waitForTurnEnds(host.url, plain, 1)
    assert.notDeepEqual(toolsOf(requestWith('a question without a preset')), toolsOf(inCopy))
  })

  it('lists the copy of a subagent session under the workspace of its parent', async () => {
    const path = join(dir, 'delegating')
    mkdirSync(path, { recursive: true })
    const { workspace } = await rpc(host.url, 'workspace.create', { path })
    const parent = (await rpc(host.url, 'session.create', { workspaceId: workspace.workspaceId })).sessionId as string
    model.script([
      { toolCall: { name: 'subagent', arguments: { description: 'count the lines', prompt: 'sub task: count the lines of the notes', run_in_background: false } } },
      'child answer: three lines',
      'parent answer: the notes have three lines',
    ])
    await prompt(host.url, parent, 'please delegate the counting')
    await waitForTurnEnds(host.url, parent, 1)
    const listed = (await rpc(host.url, 'session.list', {})).items as Array<{ sessionId: string; parentSessionId?: string; origin?: string }>
    const child = listed.find((s) => s.parentSessionId === parent)
    assert.equal(child?.origin, 'subagent', 'the tool call started a subagent session')

    const childReply = (await history(host.url, child.sessionId)).filter((e) => e.type === 'assistant/message').at(-1)!
    assert.match(JSON.stringify(childReply.data), /child answer: three lines/)
    const { tombstoneSeq } = await route({ action: 'delete', sessionId: child.sessionId, seq: childReply.seq })
    const copy = await route({ action: 'forkBefore', sessionId: child.sessionId, tombstoneSeq })
    const listing = ((await rpc(host.url, 'workspace.list', {})).items as Array<{ workspaceId: string; sessionIds: string[] }>).find((w) => w.workspaceId === workspace.workspaceId)!
    assert.deepEqual(listing.sessionIds.filter((id) => id !== copy.forkedSessionId), [parent], 'the workspace lists the parent, not the subagent session')
    assert.ok(listing.sessionIds.includes(copy.forkedSessionId), 'and the copy of the subagent session')
  })
})
