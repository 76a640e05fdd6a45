/**
 * The copies an erase's confirmation lists (`src/host/erase-copies.ts`, through `plan` with
 * `planAction: 'erase'`), over real HTTP in the real rc.8 composition with JSONL persistence on
 * disk and the title service: a Branch made before the removal (`SessionStore.fork`) and the
 * plugin's own `forkBefore` copy hold the canary not removed (listed without a tombstone); a
 * Branch made after the removal inherited it (listed with its own tombstone, open in the host),
 * and a Branch of that Branch holds the inherited tombstone in its seed (listed too); a Branch cut
 * before the canary is not listed. The erase scheduled in both Branches (`when: 'next-start'`) and
 * a fresh start: they are no longer listed (their removal is erased), and the copies no longer open
 * read `live: false`. Then the session's own erase and another start leave the canary only in the
 * two copies that never removed it, and the Branch's removal answers as erased.
 *
 * An erase in a copy lists what it was copied from: a canary deleted in a Branch alone lists the
 * source and the sibling Branch as holding it not removed; once deleted in the source too, the
 * erase of a later Branch's inherited removal lists the source with its own tombstone (one link),
 * the Branch of that Branch (one link), then the sibling and the first Branch (two links, oldest
 * first), each with its own removal or none. The erases kept in the Branch and in each listed
 * session with a removal (the source among them, through its own tombstone, as the panel's
 * checkboxes ask) and a fresh start leave the canary in the sibling alone.
 *
 * A Branch of the whole session made before the removal, in which only one of the messages a
 * Delete onward in the source takes is deleted: the source's plan lists the Branch with that
 * removal (1 message) and 5 not removed; the Branch's plan lists the source's wider removal with
 * all 6 messages it takes; a second deletion in the Branch lists both of its removals and 4 not removed.
 */
import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import type { Session } from '@deepseek-ai/dsh-session'
import { okValue, waitFor, type DshApp } from '../support/dsh-app'
import { assertError, node, Roots, sessionFile } from './helpers'
import { pendingEraseHome, scanHits } from '../support/pending-erase-home'

const CANARY = 'CANARY-91e2-copies'
const LINEAGE_CANARY = 'CANARY-5ab0-lineage'
const PARTIAL_CANARY = 'CANARY-77c3-partial'

describe('the copies an erase lists', () => {
  const roots = new Roots()
  const dshHome = pendingEraseHome('recall-erase-copies-home-')
  const { home, pendingFile } = dshHome
  let root: string
  let app: DshApp
  before(async () => {
    dshHome.enter()
    root = roots.root()
    app = await roots.boot(root, { sessionTitle: true })
  })
  after(async () => {
    await roots.dispose()
    dshHome.leave()
  })

  const pendingOnDisk = dshHome.pendingOnDisk
  const post = (body: object): Promise<any> => okValue(app, body)

  it('lists the copies holding the removed text, with their own removal or none, and erases it there when asked', async () => {
    const source = await app.createAgent()
    await app.prompt(source, 'Audit the opening question')
    await app.prompt(source, `${CANARY} my password`)
    await app.prompt(source, 'third question')
    const session = source.session as Session
    const turnEnds = () => session.events.filter((e) => e.type === 'turn/end').map((e) => e.seq)
    // Before the removal: a Branch holding the canary, and one cut before it.
    const before = app.ctx.sessions.fork(session, turnEnds()[1]!)
    const tooEarly = app.ctx.sessions.fork(session, turnEnds()[0]!)
    const removed = await post({ sessionId: source.id, action: 'delete', seq: node(session, 'user/message', CANARY) })
    const sourceTitle = app.ctx.sessionTitle.get(session)?.title
    // After it: a Branch that inherits it, a Branch of that Branch, and the plugin's copy from before it.
    const branch = app.ctx.sessions.fork(session, turnEnds()[1]!)
    const inherited = branch.events.findLast((e) => e.type === 'user/message' && JSON.stringify(e.data).includes('dsh-message-recall'))!.seq
    const grandchild = app.ctx.sessions.fork(branch)
    const forked = await post({ sessionId: source.id, action: 'forkBefore', tombstoneSeq: removed.tombstoneSeq })
    for (const copy of [before, tooEarly, branch, grandchild]) await app.ctx.sessions.flush(copy)
    const titleOf = (copy: Session) => app.ctx.sessionTitle.get(copy)?.title ?? null

    const plan = await post({ sessionId: source.id, action: 'plan', planAction: 'erase', tombstoneSeq: removed.tombstoneSeq })
    assert.deepEqual(plan, {
      action: 'plan', planAction: 'erase', tombstoneSeq: removed.tombstoneSeq, messageCount: 1, imageCount: 0, fileCount: 0,
      copies: [
        { sessionId: before.id, title: titleOf(before), tombstoneSeq: null, removals: [], notRemovedCount: 1, live: true },
        { sessionId: branch.id, title: sourceTitle, tombstoneSeq: inherited, removals: [{ tombstoneSeq: inherited, messageCount: 1 }], notRemovedCount: 0, live: true },
        { sessionId: forked.forkedSessionId, title: forked.title, tombstoneSeq: null, removals: [], notRemovedCount: 1, live: false },
        { sessionId: grandchild.id, title: sourceTitle, tombstoneSeq: inherited, removals: [{ tombstoneSeq: inherited, messageCount: 1 }], notRemovedCount: 0, live: true },
      ],
    })
    assert.equal(titleOf(before), 'Audit the opening question')

    // First the two Branches with their own removal: once erased there, they are no longer listed.
    for (const sessionId of [branch.id, grandchild.id]) await post({ sessionId, action: 'erase', tombstoneSeq: inherited, when: 'next-start' })
    const restart = async (count: number) => {
      assert.equal(pendingOnDisk().length, count)
      await roots.shut(app)
      app = await roots.boot(root, { sessionTitle: true })
      await waitFor(() => pendingOnDisk().length === 0, 'the pending erases ran at start', 20_000)
    }
    await restart(2)
    assert.deepEqual((await post({ sessionId: source.id, action: 'plan', planAction: 'erase', tombstoneSeq: removed.tombstoneSeq })).copies, [
      { sessionId: before.id, title: 'Audit the opening question', tombstoneSeq: null, removals: [], notRemovedCount: 1, live: false },
      { sessionId: forked.forkedSessionId, title: forked.title, tombstoneSeq: null, removals: [], notRemovedCount: 1, live: false },
    ], 'the erased Branches hold the text no more; after the restart no copy is open')

    // Then the session itself; the copies that never removed it stay as they are.
    await post({ sessionId: source.id, action: 'erase', tombstoneSeq: removed.tombstoneSeq, when: 'next-start' })
    await restart(1)
    const holding = [...scanHits(root, CANARY), ...scanHits(home, CANARY)]
    assert.deepEqual(holding.map((path) => [before.id, forked.forkedSessionId].findIndex((id) => path.includes(id))).sort(), [0, 1], `only the two copies that never removed it hold the canary: ${holding.join(', ')}`)
    assert.equal(holding.length, 2)
    assertError(await app.post({ sessionId: branch.id, action: 'plan', planAction: 'erase', tombstoneSeq: inherited }), 409, 'NOT_ERASABLE', `message-recall: cannot erase removal ${inherited}: that removal was erased already`)
  })
})

describe('the sessions an erase in a copy lists', () => {
  const roots = new Roots()
  const dshHome = pendingEraseHome('recall-erase-lineage-home-')
  const { home } = dshHome
  let root: string
  let app: DshApp
  before(async () => {
    dshHome.enter()
    root = roots.root()
    app = await roots.boot(root, { sessionTitle: true })
  })
  after(async () => {
    await roots.dispose()
    dshHome.leave()
  })

  const pendingOnDisk = dshHome.pendingOnDisk
  const post = (body: object): Promise<any> => okValue(app, body)

  it('erasing in a Branch lists the session it was copied from and that one\'s other copies; the source\'s erase is kept through its own tombstone', async () => {
    const source = await app.createAgent()
    await app.prompt(source, 'Plan the lineage audit')
    await app.prompt(source, `${LINEAGE_CANARY} my password`)
    await app.prompt(source, 'last question')
    const session = source.session as Session
    const turnEnds = () => session.events.filter((e) => e.type === 'turn/end').map((e) => e.seq)
    const sourceTitle = app.ctx.sessionTitle.get(session)?.title
    const titleOf = (copy: Session) => app.ctx.sessionTitle.get(copy)?.title ?? null
    // Two Branches before any removal, each created in its own millisecond (the order at equal distance is by creation time).
    const nextMs = async () => {
      const now = Date.now()
      await waitFor(() => Date.now() > now, 'the clock moved on')
    }
    const sibling = app.ctx.sessions.fork(session, turnEnds()[1]!)
    await nextMs()
    const deleter = app.ctx.sessions.fork(session, turnEnds()[1]!)
    for (const copy of [sibling, deleter]) await app.ctx.sessions.flush(copy)
    const canarySeq = node(session, 'user/message', LINEAGE_CANARY)
    assert.ok(canarySeq < deleter.header.seedLength!, 'the canary is in the Branch\'s seed')

    // The password deleted in the Branch alone: its source and its sibling hold it not removed.
    const inDeleter = await post({ sessionId: deleter.id, action: 'delete', seq: node(deleter, 'user/message', LINEAGE_CANARY) })
    assert.deepEqual(await post({ sessionId: deleter.id, action: 'plan', planAction: 'erase', tombstoneSeq: inDeleter.tombstoneSeq }), {
      action: 'plan', planAction: 'erase', tombstoneSeq: inDeleter.tombstoneSeq, messageCount: 1, imageCount: 0, fileCount: 0,
      copies: [
        { sessionId: source.id, title: sourceTitle, tombstoneSeq: null, removals: [], notRemovedCount: 1, live: true },
        { sessionId: sibling.id, title: titleOf(sibling), tombstoneSeq: null, removals: [], notRemovedCount: 1, live: true },
      ],
    })

    // Then in the source too; a Branch made after that inherits it, and a Branch of that Branch holds it in its seed.
    const inSource = await post({ sessionId: source.id, action: 'delete', seq: canarySeq })
    await nextMs()
    const branch = app.ctx.sessions.fork(session, turnEnds()[1]!)
    const inherited = branch.events.findLast((e) => e.type === 'user/message' && JSON.stringify(e.data).includes('dsh-message-recall'))!.seq
    await nextMs()
    const twig = app.ctx.sessions.fork(branch)
    for (const copy of [branch, twig]) await app.ctx.sessions.flush(copy)
    // Erasing in the Branch: its source (one link), its own copy (one link), then the source's other copies (two links), oldest first.
    const plan = await post({ sessionId: branch.id, action: 'plan', planAction: 'erase', tombstoneSeq: inherited })
    assert.deepEqual(plan, {
      action: 'plan', planAction: 'erase', tombstoneSeq: inherited, messageCount: 1, imageCount: 0, fileCount: 0,
      copies: [
        { sessionId: source.id, title: sourceTitle, tombstoneSeq: inSource.tombstoneSeq, removals: [{ tombstoneSeq: inSource.tombstoneSeq, messageCount: 1 }], notRemovedCount: 0, live: true },
        { sessionId: twig.id, title: sourceTitle, tombstoneSeq: inherited, removals: [{ tombstoneSeq: inherited, messageCount: 1 }], notRemovedCount: 0, live: true },
        { sessionId: sibling.id, title: titleOf(sibling), tombstoneSeq: null, removals: [], notRemovedCount: 1, live: true },
        { sessionId: deleter.id, title: titleOf(deleter), tombstoneSeq: inDeleter.tombstoneSeq, removals: [{ tombstoneSeq: inDeleter.tombstoneSeq, messageCount: 1 }], notRemovedCount: 0, live: true },
      ],
    })

    // As the panel's checkboxes do: the erase in the Branch, and in each listed session with its own removal, each through its own tombstone.
    await post({ sessionId: branch.id, action: 'erase', tombstoneSeq: inherited, when: 'next-start' })
    for (const copy of plan.copies.filter((c: { tombstoneSeq: number | null }) => c.tombstoneSeq !== null)) {
      const kept = await post({ sessionId: copy.sessionId, action: 'erase', tombstoneSeq: copy.tombstoneSeq, when: 'next-start' })
      assert.equal(kept.erase.state, 'pending')
    }
    assert.equal(pendingOnDisk().length, 4)
    await roots.shut(app)
    app = await roots.boot(root, { sessionTitle: true })
    await waitFor(() => pendingOnDisk().length === 0, 'the pending erases ran at start', 20_000)
    const holding = [...scanHits(root, LINEAGE_CANARY), ...scanHits(home, LINEAGE_CANARY)]
    assert.deepEqual(holding, [sessionFile(root, sibling.id)], 'only the sibling that never removed it holds the canary')
    assertError(await app.post({ sessionId: source.id, action: 'plan', planAction: 'erase', tombstoneSeq: inSource.tombstoneSeq }), 409, 'NOT_ERASABLE', `message-recall: cannot erase removal ${inSource.tombstoneSeq}: that removal was erased already`)
  })
})

describe('a related session that removed only some of the erased messages, or more of them', () => {
  const roots = new Roots()
  const dshHome = pendingEraseHome('recall-erase-partial-home-')
  let root: string
  let app: DshApp
  before(async () => {
    dshHome.enter()
    root = roots.root()
    app = await roots.boot(root, { sessionTitle: true })
  })
  after(async () => {
    await roots.dispose()
    dshHome.leave()
  })

  const post = (body: object): Promise<any> => okValue(app, body)

  it('lists each removal there with how many messages it takes, and how many it holds not removed', async () => {
    const source = await app.createAgent()
    await app.prompt(source, 'Open the partial audit')
    for (const n of ['first', 'second', 'third']) await app.prompt(source, `${PARTIAL_CANARY} ${n}`)
    const session = source.session as Session
    const sourceTitle = app.ctx.sessionTitle.get(session)?.title
    // A Branch of the whole session before any removal; in it only the second canary prompt is deleted.
    const branch = app.ctx.sessions.fork(session)
    await app.ctx.sessions.flush(branch)
    const inBranch = await post({ sessionId: branch.id, action: 'delete', seq: node(branch, 'user/message', `${PARTIAL_CANARY} second`) })
    // In the source, Delete onward from the first canary prompt.
    const inSource = await post({ sessionId: source.id, action: 'deleteFrom', seq: node(session, 'user/message', `${PARTIAL_CANARY} first`) })
    const branchTitle = app.ctx.sessionTitle.get(branch)?.title ?? null

    const plan = await post({ sessionId: source.id, action: 'plan', planAction: 'erase', tombstoneSeq: inSource.tombstoneSeq })
    assert.deepEqual(plan, {
      action: 'plan', planAction: 'erase', tombstoneSeq: inSource.tombstoneSeq, messageCount: 6, imageCount: 0, fileCount: 0,
      copies: [
        { sessionId: branch.id, title: branchTitle, tombstoneSeq: inBranch.tombstoneSeq, removals: [{ tombstoneSeq: inBranch.tombstoneSeq, messageCount: 1 }], notRemovedCount: 5, live: true },
      ],
    })
    // The Branch's own erase: the source's wider removal is listed with all it takes.
    assert.deepEqual((await post({ sessionId: branch.id, action: 'plan', planAction: 'erase', tombstoneSeq: inBranch.tombstoneSeq })).copies, [
      { sessionId: source.id, title: sourceTitle, tombstoneSeq: inSource.tombstoneSeq, removals: [{ tombstoneSeq: inSource.tombstoneSeq, messageCount: 6 }], notRemovedCount: 0, live: true },
    ])
    // The third prompt deleted in the Branch too: two removals there, each listed, the rest not removed.
    const again = await post({ sessionId: branch.id, action: 'delete', seq: node(branch, 'user/message', `${PARTIAL_CANARY} third`) })
    assert.deepEqual((await post({ sessionId: source.id, action: 'plan', planAction: 'erase', tombstoneSeq: inSource.tombstoneSeq })).copies, [
      {
        sessionId: branch.id, title: branchTitle, tombstoneSeq: inBranch.tombstoneSeq,
        removals: [{ tombstoneSeq: inBranch.tombstoneSeq, messageCount: 1 }, { tombstoneSeq: again.tombstoneSeq, messageCount: 1 }], notRemovedCount: 4, live: true,
      },
    ])
  })
})
