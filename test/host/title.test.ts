/**
 * The session title after removals and restores, with the real `dsh-session-title` service and
 * its invariant companion loaded (rc.8), prompts sent through the real agent loop to DSH's mock
 * model: a title made from a removed prompt is rebuilt from the first remaining prompt (the
 * removed text leaves the title), a restore puts it back, a title the person set is never
 * touched, and when no prompt remains the title is `New Session` citing the tombstone until the
 * next prompt titles the session. With DSH's model-written title (`dsh-session-title-first-prompt-llm`
 * from the host set, the mock model's answer to the title request), a Recall of the only prompt
 * titles the session `New Session` and a restore puts the model's title back.
 */
import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import type { Plugin } from '@deepseek-ai/cordis'
import type { Agent } from '@deepseek-ai/dsh-agent'
import { waitFor, type DshApp } from '../support/dsh-app'
import { importHostPackage } from '../support/host-packages'
import { node, Roots } from './helpers'

const roots = new Roots()
after(() => roots.dispose())

describe('session title', () => {
  let app: DshApp
  let root: string
  before(async () => {
    root = roots.root()
    app = await roots.boot(root, { sessionTitle: true })
  })

  /** An agent with two real turns; the service titles the session from the first prompt. */
  async function twoPrompts(): Promise<Agent> {
    const agent = await app.createAgent()
    await app.prompt(agent, 'CANARY-7781 deploy the staging cluster now please')
    await waitFor(() => app.ctx.sessionTitle.get(agent.session) !== undefined, 'the fallback title')
    await app.prompt(agent, 'Summarize the build log for me')
    return agent
  }

  const title = (agent: Agent) => {
    const current = app.ctx.sessionTitle.get(agent.session)!
    return { title: current.title, messageSeqs: current.messageSeqs, source: current.source }
  }

  it('rebuilds a title made from a removed prompt from the first remaining one, and a restore puts it back', async () => {
    const agent = await twoPrompts()
    const first = node(agent.session, 'user/message', 'CANARY-7781')
    const second = node(agent.session, 'user/message', 'Summarize the build log')
    assert.deepEqual(title(agent), { title: 'CANARY-7781 deploy the staging cluster', messageSeqs: [first], source: { kind: 'fallback' } })

    const recall = await app.post({ sessionId: agent.id, action: 'recall', seq: first })
    assert.equal(recall.status, 200, recall.text)
    assert.deepEqual(title(agent), { title: 'Summarize the build log for', messageSeqs: [second], source: { kind: 'fallback' } })
    assert.equal(agent.session.events.at(-1)!.type, 'session/title', 'rebuilt in the same write, before the reply')

    await app.prompt(agent, 'And the test log too')
    assert.equal(title(agent).title, 'Summarize the build log for', 'a later prompt leaves the rebuilt title')

    const restore = await app.post({ sessionId: agent.id, action: 'restore', tombstoneSeq: recall.json.value.tombstoneSeq })
    assert.equal(restore.status, 200, restore.text)
    assert.deepEqual(title(agent), { title: 'CANARY-7781 deploy the staging cluster', messageSeqs: [restore.json.value.restoredSeq], source: { kind: 'fallback' } })

    const del = await app.post({ sessionId: agent.id, action: 'delete', seq: second })
    assert.equal(del.status, 200, del.text)
    assert.equal(title(agent).title, 'CANARY-7781 deploy the staging cluster', 'removing a prompt the title does not cite leaves it')
  })

  it('never touches a title the person set', async () => {
    const agent = await twoPrompts()
    app.ctx.sessionTitle.rename(agent.session, 'My pinned title')
    const pinned = title(agent)
    const count = () => agent.session.events.filter((e) => e.type === 'session/title').length
    const titles = count()
    const recall = await app.post({ sessionId: agent.id, action: 'recall', seq: node(agent.session, 'user/message', 'CANARY-7781') })
    assert.equal(recall.status, 200, recall.text)
    assert.deepEqual(title(agent), pinned)
    assert.equal(count(), titles)
  })

  it('titles a session whose prompts are all gone New Session, citing the tombstone, and rebuilds it on restore', async () => {
    const agent = await twoPrompts()
    const first = node(agent.session, 'user/message', 'CANARY-7781')
    const onward = await app.post({ sessionId: agent.id, action: 'deleteFrom', seq: first })
    assert.equal(onward.status, 200, onward.text)
    assert.deepEqual(title(agent), { title: 'New Session', messageSeqs: [onward.json.value.tombstoneSeq], source: { kind: 'fallback' } })
    assert.ok(!JSON.stringify(agent.session.events.filter((e) => e.type === 'session/title').at(-1)).includes('CANARY'))

    const id = agent.id
    await roots.shut(app)
    app = await roots.boot(root, { sessionTitle: true })
    const resumed = await app.resumeAgent(id)
    assert.equal(app.ctx.sessionTitle.get(resumed.session)?.title, 'New Session', 'the invariant accepts it on a cold reload')

    await app.prompt(resumed, 'Start over with the release notes')
    const fresh = node(resumed.session, 'user/message', 'Start over with the release notes')
    await waitFor(() => app.ctx.sessionTitle.get(resumed.session)?.title !== 'New Session', 'the next prompt titles the session')
    const now = app.ctx.sessionTitle.get(resumed.session)!
    assert.deepEqual({ title: now.title, messageSeqs: now.messageSeqs, source: now.source }, { title: 'Start over with the release', messageSeqs: [fresh], source: { kind: 'fallback' } })
  })

  it('puts a removed-then-restored prompt back as the title source when nothing else remains', async () => {
    const agent = await app.createAgent()
    await app.prompt(agent, 'Only prompt here')
    await waitFor(() => app.ctx.sessionTitle.get(agent.session) !== undefined, 'the fallback title')
    const del = await app.post({ sessionId: agent.id, action: 'delete', seq: node(agent.session, 'user/message', 'Only prompt here') })
    assert.equal(title(agent).title, 'New Session')
    const restore = await app.post({ sessionId: agent.id, action: 'restore', tombstoneSeq: del.json.value.tombstoneSeq })
    assert.equal(restore.status, 200, restore.text)
    assert.deepEqual(title(agent), { title: 'Only prompt here', messageSeqs: [restore.json.value.restoredSeq], source: { kind: 'fallback' } })
  })

  it('puts a model-written title back on restore after a Recall of the only prompt', async () => {
    // The title provider DSH's host set loads (`dsh-base` `cordis.patch.yml`, row `session-title-llm`), with its config.
    // From the host set in host/ (`npm test` installs it before the first file runs); not a dependency of the plugin.
    const llmTitle = await importHostPackage('@deepseek-ai/dsh-session-title-first-prompt-llm') as unknown as Plugin.Object
    const titled = await roots.boot(roots.root(), {
      sessionTitle: true,
      plugins: [{ plugin: llmTitle, config: { targetWords: 5, targetCjkCharacters: 10, maxInputBytes: 4096, maxOutputTokens: 64, timeoutMs: 60_000 } }],
    })
    try {
      const agent = await titled.createAgent()
      await titled.prompt(agent, 'Second prompt BETA-2 about the release train')
      await waitFor(() => titled.ctx.sessionTitle.get(agent.session)?.source.kind === 'provider', 'the model-written title')
      const prompt = node(agent.session, 'user/message', 'Second prompt BETA-2')
      const modelTitle = titled.ctx.sessionTitle.get(agent.session)!
      const written = { title: modelTitle.title, messageSeqs: modelTitle.messageSeqs, source: modelTitle.source }
      assert.deepEqual(written, { title: 'mock response recovered', messageSeqs: [prompt], source: { kind: 'provider', provider: 'session-title-first-prompt-llm', model: { provider: 'deepseek-official', model: 'deepseek-v4-flash' } } })

      const recall = await titled.post({ sessionId: agent.id, action: 'recall', seq: prompt })
      assert.equal(recall.status, 200, recall.text)
      const placeholder = titled.ctx.sessionTitle.get(agent.session)!
      assert.deepEqual([placeholder.title, placeholder.messageSeqs], ['New Session', [recall.json.value.tombstoneSeq]])

      const restore = await titled.post({ sessionId: agent.id, action: 'restore', tombstoneSeq: recall.json.value.tombstoneSeq })
      assert.equal(restore.status, 200, restore.text)
      const back = titled.ctx.sessionTitle.get(agent.session)!
      assert.deepEqual({ title: back.title, messageSeqs: back.messageSeqs, source: back.source }, { ...written, messageSeqs: [restore.json.value.restoredSeq] })
    } finally {
      await roots.shut(titled)
    }
  })
})
