/**
 * The titles in use that name a copy (`session-titles`), on the real rc.8 composition (JSONL
 * persistence, the session-title service): a stored log is read once and its title kept by the
 * log's persistence revision, read again only when that revision changed; a copy's title kept
 * right after it is stored is not read back; a live session's title comes from memory, also after
 * a rename.
 */
import assert from 'node:assert/strict'
import { after, describe, it } from 'node:test'
import { SessionId, type SessionEvent } from '@deepseek-ai/dsh-session'
import { SessionEventIndex } from '../../src/host/event-index'
import { sessionTitles, StoredTitleCache, type StoredTitleReader, type TitleSources } from '../../src/host/session-titles'
import type { DshApp } from '../support/dsh-app'
import { Roots, seededAgent } from './helpers'

const roots = new Roots()
after(() => roots.dispose())

/** A `session/title` event as `dsh-session-title` logs a rename. */
function titleEvent(seq: number, title: string): SessionEvent {
  return { type: 'session/title', seq, time: Date.now(), data: { title, messageSeqs: [], source: { kind: 'user' } } } as unknown as SessionEvent
}

/** The app's persistence service, with every full read of a stored log recorded in `reads`. */
function recorded(app: DshApp, reads: string[]): StoredTitleReader {
  const persistence = app.ctx.sessionPersistence
  return {
    list: () => persistence.list(),
    listSnapshots: () => persistence.listSnapshots(),
    readFrom: (id, fromSeq) => {
      reads.push(id)
      return persistence.readFrom(id, fromSeq)
    },
  }
}

/** Append a title to a stored session that is not live, the way a rename is logged. */
async function retitleStored(app: DshApp, id: string, title: string): Promise<void> {
  const next = (await app.ctx.sessionPersistence.readFrom(SessionId(id), 0)).events.length
  await app.ctx.sessionPersistence.append(SessionId(id), [titleEvent(next, title)])
}

const sorted = (titles: Set<string>): string[] => [...titles].sort()

describe('sessionTitles', () => {
  it('reads a stored log once and again only after it changed, keeps a stored copy title without reading it, and reads live titles from memory', async () => {
    const root = roots.root()
    let app = await roots.boot(root, { sessionTitle: true })
    const alpha = await seededAgent(app, 2)
    app.ctx.sessionTitle.rename(alpha.session, 'Alpha')
    const beta = await seededAgent(app, 2)
    app.ctx.sessionTitle.rename(beta.session, 'Beta')
    await roots.shut(app)
    app = await roots.boot(root, { sessionTitle: true })

    const reads: string[] = []
    const warnings: string[] = []
    const index = new SessionEventIndex()
    const stored = recorded(app, reads)
    const sources: TitleSources = {
      live: () => app.ctx.sessions.list(),
      lookup: (session) => index.lookup(session),
      stored: () => stored,
      cache: () => undefined,
      storedTitles: new StoredTitleCache(),
      warn: (message) => warnings.push(message),
    }

    assert.deepEqual(sorted(await sessionTitles(sources)), ['Alpha', 'Beta'])
    assert.deepEqual([...reads].sort(), [alpha.id, beta.id].sort(), 'each stored log read once')
    reads.length = 0
    assert.deepEqual(sorted(await sessionTitles(sources)), ['Alpha', 'Beta'])
    assert.deepEqual(reads, [], 'unchanged logs are not read again')

    await retitleStored(app, beta.id, 'Gamma')
    assert.deepEqual(sorted(await sessionTitles(sources)), ['Alpha', 'Gamma'])
    assert.deepEqual(reads, [beta.id], 'only the changed log is read again')
    reads.length = 0

    // A title kept right after its log was written (as forkBefore keeps its copy's) is not read back.
    await retitleStored(app, beta.id, 'Beta (copy)')
    await sources.storedTitles.remember(stored, beta.id, 'Beta (copy)')
    assert.deepEqual(sorted(await sessionTitles(sources)), ['Alpha', 'Beta (copy)'])
    assert.deepEqual(reads, [])
    assert.deepEqual(sources.storedTitles.stats(), { reads: 3, hits: 5 })

    // Live: the title is the live session's current one, from memory, also after a rename.
    const live = await app.resumeAgent(alpha.id)
    assert.deepEqual(sorted(await sessionTitles(sources)), ['Alpha', 'Beta (copy)'])
    app.ctx.sessionTitle.rename(live.session, 'Delta')
    assert.deepEqual(sorted(await sessionTitles(sources)), ['Beta (copy)', 'Delta'])
    app.ctx.sessionTitle.rename(live.session, 'Epsilon')
    assert.deepEqual(sorted(await sessionTitles(sources)), ['Beta (copy)', 'Epsilon'])
    assert.deepEqual(reads, [], 'a live session is never read from disk')
    assert.deepEqual(warnings, [])
    await roots.shut(app)
  })
})
