/**
 * The titles in use that name a copy (`session-titles`), on the real rc.8 composition (JSONL
 * persistence, the session-title service): a stored log is read once and its title kept by the
 * log's persistence revision, read again only when that revision changed, from the log's text
 * without decoding its events; a copy's title kept right after it is stored is not read back; a
 * live session's title comes from memory, also after a rename.
 */
import assert from 'node:assert/strict'
import { after, describe, it } from 'node:test'
import { SessionId, type SessionEvent } from '@deepseek-ai/dsh-session'
import { SessionEventIndex } from '../../src/host/event-index'
import { sessionTitles, StoredTitleCache, titleOfRawLog, type StoredTitleReader, type TitleSources } from '../../src/host/session-titles'
import { StoredLogListing } from '../../src/host/stored-listing'
import type { DshApp } from '../support/dsh-app'
import { Roots, seededAgent } from './helpers'

const roots = new Roots()
after(() => roots.dispose())

/** A `session/title` event as `dsh-session-title` logs a rename. */
function titleEvent(seq: number, title: string): SessionEvent {
  return { type: 'session/title', seq, time: Date.now(), data: { title, messageSeqs: [], source: { kind: 'user' } } } as unknown as SessionEvent
}

/** The app's persistence service, with every read of a stored log recorded in `reads` (a raw read by its id). */
function recorded(app: DshApp, reads: string[]): StoredTitleReader {
  const persistence = app.ctx.sessionPersistence
  return {
    list: () => persistence.list(),
    listSnapshots: () => persistence.listSnapshots(),
    locate: (meta) => persistence.locate(meta),
    readFrom: (id, fromSeq) => {
      reads.push(`readFrom ${id}`)
      return persistence.readFrom(id, fromSeq)
    },
    supportsRawArtifacts: persistence.supportsRawArtifacts,
    readRaw: (id) => {
      reads.push(id)
      return persistence.readRaw(id)
    },
  }
}

/** Append a title to a stored session that is not live, the way a rename is logged. */
async function retitleStored(app: DshApp, id: string, title: string): Promise<void> {
  const next = (await app.ctx.sessionPersistence.readFrom(SessionId(id), 0)).events.length
  await app.ctx.sessionPersistence.append(SessionId(id), [titleEvent(next, title)])
}

const sorted = (titles: Set<string>): string[] => [...titles].sort()

/** One JSONL line of an event. */
const line = (event: unknown): string => JSON.stringify(event)

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
      storedLogs: new StoredLogListing(),
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
    const betaHeader = (await app.ctx.sessionPersistence.list()).find((header) => header.id === beta.id)!
    await sources.storedTitles.remember(stored, sources.storedLogs, betaHeader, 'Beta (copy)')
    assert.deepEqual(sorted(await sessionTitles(sources)), ['Alpha', 'Beta (copy)'])
    assert.deepEqual(reads, [])
    assert.deepEqual(sources.storedTitles.stats(), { reads: 3, hits: 5 })
    assert.deepEqual(sources.storedLogs.stats(), { full: 1, checked: 3 }, 'the stored sessions listed in full once, then checked on the disk')

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

describe('titleOfRawLog', () => {
  const header = line({ id: 'session-raw', version: 1 })
  const title = (seq: number, text: string) => line(titleEvent(seq, text))
  const prompt = (seq: number, text: string) => line({ type: 'user/message', seq, time: 1, data: { content: text }, surfaceOp: 'append' })

  it('finds the newest title line, as the parsed log does', () => {
    assert.equal(titleOfRawLog([header, title(0, 'First'), prompt(1, 'hello'), title(2, 'Second'), prompt(3, 'bye'), ''].join('\n')), 'Second')
    assert.equal(titleOfRawLog([header, prompt(0, 'hello')].join('\n')), undefined)
  })

  it('passes over message text naming the type, an event whose data holds it, and a torn last line', () => {
    const text = [header, title(0, 'Kept'), prompt(1, '{"type":"session/title"} and "session/title"'),
      line({ type: 'tool/result', seq: 2, time: 1, data: { kind: 'session/title' } }), '{"type":"session/title","seq":3,"da'].join('\n')
    assert.equal(titleOfRawLog(text), 'Kept')
  })

  it('answers no title when the newest title event is malformed, as the parsed log does', () => {
    const malformed = line({ type: 'session/title', seq: 1, time: 1, data: { title: 'Broken' } })
    assert.equal(titleOfRawLog([header, title(0, 'Older'), malformed].join('\n')), undefined)
  })
})
