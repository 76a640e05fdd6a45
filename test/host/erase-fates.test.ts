/**
 * Erase for good decided by fates (`src/shared/removed-content.ts` `findRemovedContent` with one
 * tombstone, through `src/log/log-erase.ts` `eraseRemovalInLog`), over real HTTP in the real rc.8
 * composition with JSONL persistence on disk: an erase takes exactly the messages whose fate is
 * removed by that tombstone or by a removal it absorbed. A Delete that absorbed an exclusion of
 * its turn's reply erases the prompt alone (the excluded reply stays in view, its text kept in the
 * log); a Delete onward that absorbed that Delete and an exclusion of a later prompt erases them
 * all (the onward removal takes an excluded message); the earlier Delete then erases its prompt
 * alone (the reply it absorbed excluded is removed by the onward one, not by it). The plan's
 * `messageCount` equals the erase's `messageSeqs` (exact seqs) and `Fates.removedBy` (what the
 * Removed panel's entry counts), and a Branch of the whole session plans the same counts for the
 * same tombstones, as a Branch cut after the Delete's turn does for its inherited Delete. Once
 * the Delete onward is erased, the Delete it absorbed answers `ALREADY_ERASED` (erase and plan),
 * and the Branch's plan of it no longer lists the source.
 */
import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { randomUUID } from 'node:crypto'
import { SessionId, type Session } from '@deepseek-ai/dsh-session'
import { MODEL, okValue, PROVIDER, type DshApp } from '../support/dsh-app'
import { conversationLog } from '../support/conversation'
import { assertError, node, Roots } from './helpers'
import { pendingEraseHome } from '../support/pending-erase-home'
import { readFates } from '../../src/shared/fate'
import type { LogEvent } from '../../src/shared/events'

describe('erase for good by fates', () => {
  const roots = new Roots()
  const dshHome = pendingEraseHome('recall-erase-fates-home-')
  let app: DshApp
  before(async () => {
    dshHome.enter()
    app = await roots.boot(roots.root())
  })
  after(async () => {
    await roots.dispose()
    dshHome.leave()
  })
  const post = (body: object): Promise<any> => okValue(app, body)
  const rawLog = async (id: string): Promise<string> => (await (app.ctx as any).sessionPersistence.readRaw(SessionId(id))).content
  /** An agent whose handle the test holds: disposed, its session is stored and erasable now. */
  const agentWith = async () => (app.ctx as any).agents.create({ sessionId: SessionId(`session-${randomUUID()}`), agentOptions: { provider: PROVIDER, model: MODEL }, seed: conversationLog([
    { prompt: 'first prompt', steps: [{ text: 'first answer' }] },
    { prompt: 'second prompt', steps: [{ text: 'EXCLUDED-REPLY-TEXT' }] },
    { prompt: 'third prompt', steps: [{ text: 'third answer' }] },
    { prompt: 'EXCLUDED-PROMPT-TEXT', steps: [{ text: 'fourth answer' }] },
    { prompt: 'fifth prompt', steps: [{ text: 'fifth answer' }] },
  ]) })
  const planned = async (sessionId: string, tombstoneSeq: number): Promise<number> => (await post({ sessionId, action: 'plan', planAction: 'erase', tombstoneSeq })).messageCount

  it('a Delete that absorbed an exclusion erases its own removed message only; the excluded reply\'s text stays', async () => {
    const handle = await agentWith()
    const session = handle.agent.session as Session
    const id = handle.agent.id as string
    const reply = node(session, 'assistant/message', 'EXCLUDED-REPLY-TEXT')
    const prompt = node(session, 'user/message', 'second prompt')
    await post({ sessionId: id, action: 'exclude', seq: reply })
    const deleted = await post({ sessionId: id, action: 'delete', seq: prompt })
    assert.deepEqual(deleted.shadowedSeqs.filter((seq: number) => seq !== prompt).length, 1, 'the Delete absorbed the exclusion')
    await post({ sessionId: id, action: 'flush' })
    const branch = app.ctx.sessions.fork(session)
    await app.ctx.sessions.flush(branch)
    assert.equal(await planned(id, deleted.tombstoneSeq), 1)
    assert.equal(await planned(branch.id as string, deleted.tombstoneSeq), 1, 'the Branch plans the same')
    // A Branch cut after the second turn inherits the removal under a tombstone of its own: the same count.
    const cut = app.ctx.sessions.fork(session, session.events.filter((e) => e.type === 'turn/end')[1]!.seq)
    await app.ctx.sessions.flush(cut)
    const inherited = readFates(cut.events as readonly LogEvent[]).tombstones.filter((t) => t.action === 'delete').map((t) => t.seq)
    assert.equal(inherited.length, 1, 'one inherited Delete in the cut Branch')
    assert.equal(await planned(cut.id as string, inherited[0]!), 1, 'the cut Branch plans its prompt alone')
    assert.deepEqual(readFates(cut.events as readonly LogEvent[]).removedBy(inherited[0]!), [prompt])
    await handle.dispose()
    const erased = await post({ sessionId: id, action: 'erase', tombstoneSeq: deleted.tombstoneSeq })
    assert.deepEqual(erased.messageSeqs, [prompt])
    const log = await rawLog(id)
    assert.ok(log.includes('EXCLUDED-REPLY-TEXT'), 'the excluded reply is in view: its text stays')
    assert.ok(!log.includes('second prompt'), 'the removed prompt is erased')
  })

  it('a Delete onward that absorbed exclusions erases them with its own; the Delete it absorbed erases only what it removed', async () => {
    const handle = await agentWith()
    const session = handle.agent.session as Session
    const id = handle.agent.id as string
    const seqOf = (type: 'user/message' | 'assistant/message', text: string) => node(session, type, text)
    const reply = seqOf('assistant/message', 'EXCLUDED-REPLY-TEXT')
    const second = seqOf('user/message', 'second prompt')
    const excludedPrompt = seqOf('user/message', 'EXCLUDED-PROMPT-TEXT')
    const onwardSeqs = [seqOf('user/message', 'third prompt'), seqOf('assistant/message', 'third answer'), excludedPrompt, seqOf('assistant/message', 'fourth answer'), seqOf('user/message', 'fifth prompt'), seqOf('assistant/message', 'fifth answer')]
    await post({ sessionId: id, action: 'exclude', seq: reply })
    const deleted = await post({ sessionId: id, action: 'delete', seq: second })
    await post({ sessionId: id, action: 'exclude', seq: excludedPrompt })
    const onward = await post({ sessionId: id, action: 'deleteFrom', seq: seqOf('user/message', 'third prompt') })
    assert.ok(onward.shadowedSeqs.includes(deleted.tombstoneSeq), 'the Delete onward absorbed the Delete')
    await post({ sessionId: id, action: 'flush' })
    const branch = app.ctx.sessions.fork(session)
    await app.ctx.sessions.flush(branch)
    const all = [second, reply, ...onwardSeqs].sort((a, b) => a - b)
    for (const sessionId of [id, branch.id as string]) {
      assert.equal(await planned(sessionId, onward.tombstoneSeq), all.length, `the onward removal's plan in ${sessionId}`)
      assert.equal(await planned(sessionId, deleted.tombstoneSeq), 1, `the absorbed Delete's plan in ${sessionId}: its prompt alone`)
    }
    // The Removed panel's entry counts what the erase takes (`removal-list.ts` reads `Fates.removedBy`).
    const fates = readFates(session.events as readonly LogEvent[])
    assert.deepEqual(fates.removedBy(onward.tombstoneSeq), all)
    assert.deepEqual(fates.removedBy(deleted.tombstoneSeq), [second])
    assert.deepEqual((await post({ sessionId: branch.id, action: 'plan', planAction: 'erase', tombstoneSeq: deleted.tombstoneSeq })).copies.map((c: any) => [c.sessionId, c.removals]), [[id, [{ tombstoneSeq: deleted.tombstoneSeq, messageCount: 1 }]]], 'before the erase the Branch\'s plan lists the source')
    await handle.dispose()
    const erased = await post({ sessionId: id, action: 'erase', tombstoneSeq: onward.tombstoneSeq })
    assert.deepEqual(erased.messageSeqs, all)
    const log = await rawLog(id)
    for (const text of ['EXCLUDED-REPLY-TEXT', 'EXCLUDED-PROMPT-TEXT', 'second prompt', 'fifth answer']) assert.ok(!log.includes(text), `${text} is erased`)
    assert.ok(log.includes('first prompt'))
    // The Delete it absorbed is erased with it: refused as erased already, and the Branch's plan of
    // it no longer lists the source (whose text of those messages is gone), while it still does before.
    assertError(await app.post({ sessionId: id, action: 'erase', tombstoneSeq: deleted.tombstoneSeq }), 409, 'NOT_ERASABLE', `message-recall: cannot erase removal ${deleted.tombstoneSeq}: that removal was erased already`)
    assertError(await app.post({ sessionId: id, action: 'plan', planAction: 'erase', tombstoneSeq: deleted.tombstoneSeq }), 409, 'NOT_ERASABLE', `message-recall: cannot erase removal ${deleted.tombstoneSeq}: that removal was erased already`)
    const branchPlan = await post({ sessionId: branch.id, action: 'plan', planAction: 'erase', tombstoneSeq: deleted.tombstoneSeq })
    assert.deepEqual(branchPlan.copies.map((c: any) => c.sessionId), [], 'the source is not listed: its removal there was erased through the Delete onward')
    assert.equal(branchPlan.messageCount, 1)
  })
})
