/**
 * The stored listing a copy is named against (`stored-listing`), on the real rc.8 JSONL backend:
 * after one full listing, later listings read the folders and `stat` the logs, and agree with
 * DSH's own listing (`SessionPersistence.listSnapshots`) at every step: a session created in this
 * process is taken in without a full listing; a session stored by another host on the same root
 * makes one; a log another writer appended to gets a new revision; a deleted session is left out;
 * a session live in this process is listed without a revision;
 * a backend without `locate` is listed in full every time.
 */
import assert from 'node:assert/strict'
import { rmSync } from 'node:fs'
import { dirname } from 'node:path'
import { after, describe, it } from 'node:test'
import { SessionId, type SessionEvent, type SessionHeader } from '@deepseek-ai/dsh-session'
import { StoredLogListing, type ListedLog, type StoredLister } from '../../src/host/stored-listing'
import type { DshApp } from '../support/dsh-app'
import { Roots, seededAgent, sessionFile } from './helpers'

const roots = new Roots()
after(() => roots.dispose())

/** The app's persistence service as the listing reads it. */
function lister(app: DshApp): StoredLister {
  const persistence = app.ctx.sessionPersistence
  return { list: () => persistence.list(), listSnapshots: () => persistence.listSnapshots(), locate: (meta) => persistence.locate(meta) }
}

/** The ids a listing holds, sorted. */
const ids = (listed: readonly ListedLog[]): string[] => listed.map((entry) => entry.header.id).sort()

/** DSH's own listing's ids, sorted. */
async function dshIds(app: DshApp): Promise<string[]> {
  return (await app.ctx.sessionPersistence.listSnapshots()).map((entry) => entry.header.id).sort()
}

/** A stored session made and stored by its own app on `root` (another host): its header. */
async function storedElsewhere(root: string): Promise<SessionHeader> {
  const other = await roots.boot(root)
  const agent = await seededAgent(other, 2)
  const header = agent.session.header
  await roots.shut(other)
  return header
}

const revisionOf = (listed: readonly ListedLog[], id: string): string | undefined => listed.find((entry) => entry.header.id === id)?.revision

describe('StoredLogListing', () => {
  it('lists in full once, then from the disk, agreeing with DSH’s listing after every kind of change', async () => {
    const root = roots.root()
    const app = await roots.boot(root)
    const first = await seededAgent(app, 2)
    const second = await seededAgent(app, 2)
    await app.ctx.sessions.flush(first.session)
    await app.ctx.sessions.flush(second.session)
    const listing = new StoredLogListing()
    const stored = lister(app)

    const initial = await listing.list(stored)
    assert.deepEqual(ids(initial), await dshIds(app))
    assert.deepEqual(ids(initial), [first.id, second.id].sort())
    assert.deepEqual(ids(await listing.list(stored)), await dshIds(app))
    assert.deepEqual(listing.stats(), { full: 1, checked: 1 })
    // A session live in this process is listed without its log's revision (its title is read from memory).
    const withLive = await listing.list(stored, new Set([first.id]))
    assert.deepEqual(ids(withLive), await dshIds(app))
    assert.equal(revisionOf(withLive, first.id), undefined)
    assert.equal(revisionOf(withLive, second.id), revisionOf(initial, second.id))
    assert.deepEqual(listing.stats(), { full: 1, checked: 2 })

    // Created in this process (noted as session/created notes it) and stored: no full listing.
    const third = await seededAgent(app, 2)
    listing.noteCreated(third.session.header)
    await app.ctx.sessions.flush(third.session)
    assert.deepEqual(ids(await listing.list(stored)), await dshIds(app))
    assert.deepEqual(listing.stats(), { full: 1, checked: 3 })

    // Stored by another host on the same root: an unknown folder, one full listing.
    const elsewhere = await storedElsewhere(root)
    const afterElsewhere = await listing.list(stored)
    assert.deepEqual(ids(afterElsewhere), await dshIds(app))
    assert.ok(ids(afterElsewhere).includes(elsewhere.id))
    assert.deepEqual(listing.stats(), { full: 2, checked: 3 })

    // Appended to by another writer: a new revision for that log only.
    const before = await listing.list(stored)
    const next = (await app.ctx.sessionPersistence.readFrom(SessionId(elsewhere.id), 0)).events.length
    const title = { type: 'session/title', seq: next, time: Date.now(), data: { title: 'Renamed elsewhere', messageSeqs: [], source: { kind: 'user' } } } as unknown as SessionEvent
    await app.ctx.sessionPersistence.append(SessionId(elsewhere.id), [title])
    const afterAppend = await listing.list(stored)
    assert.notEqual(revisionOf(afterAppend, elsewhere.id), revisionOf(before, elsewhere.id))
    assert.equal(revisionOf(afterAppend, first.id), revisionOf(before, first.id))
    assert.equal(await listing.revisionOf(stored, elsewhere), revisionOf(afterAppend, elsewhere.id), 'one log’s revision as the listing gives it')

    // Deleted: left out, without a full listing.
    rmSync(dirname(sessionFile(root, elsewhere.id)), { recursive: true })
    assert.deepEqual(ids(await listing.list(stored)), await dshIds(app))
    assert.deepEqual(listing.stats(), { full: 2, checked: 6 })
    await roots.shut(app)
  })

  it('lists in full every time when the backend does not locate logs', async () => {
    const app = await roots.boot(roots.root())
    const agent = await seededAgent(app, 2)
    await app.ctx.sessions.flush(agent.session)
    const persistence = app.ctx.sessionPersistence
    const listing = new StoredLogListing()
    const stored: StoredLister = { list: () => persistence.list(), listSnapshots: () => persistence.listSnapshots() }
    const listed = await listing.list(stored)
    assert.deepEqual(listed.map((entry) => [entry.header.id, entry.revision]), (await persistence.listSnapshots()).map((entry) => [entry.header.id, String(entry.revision)]))
    assert.deepEqual(listing.stats(), { full: 0, checked: 0 }, 'DSH’s listing each time, nothing kept')
    await roots.shut(app)
  })
})
