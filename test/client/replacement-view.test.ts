/**
 * The replacement view inside the real rc.8 conversation engine: the tombstones are read from the
 * session's history window, live events and older pages, with `sourceEventSeqs` copied from the
 * raw event and no message content kept.
 */
import './support/dom'
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { readReplacements, REPLACEMENT_VIEW } from '../../src/client/wire/replacement-view'
import { isTombstoneEvent } from '../../src/shared/tombstone'
import { replaceOp } from '../../src/shared/replace-op'
import type { LogEvent } from '../../src/shared/events'
import { appended, richLog } from './support/log'
import { appendTombstone, bootClient, liveSession } from './support/page'

const view = (harness: { snapshot: { views: { get(t: string): unknown } } }) => readReplacements(harness.snapshot.views.get(REPLACEMENT_VIEW))

describe('replacement view (conversationEvents + conversationViews)', () => {
  it('publishes the tombstones of the loaded window with their replace op, sourceEventSeqs and source, without content', async () => {
    const client = await bootClient()
    await client.loadPlugin()
    const session = liveSession('session-view', richLog())
    const [first, second] = appended(session.events, 'user/message')
    const tomb = appendTombstone(session, 'recall', [second!.seq])
    const harness = client.session('session-view')
    harness.load([...session.events])
    const events = view(harness)
    assert.equal(events.length, 1)
    assert.deepEqual(events[0], {
      type: 'user/message', seq: tomb.seq, time: tomb.time, data: { source: (tomb.data as any).source },
      surfaceOp: replaceOp(second!.seq, second!.seq), sourceEventSeqs: [second!.seq],
    })
    assert.ok(isTombstoneEvent(events[0]!))
    assert.ok(first!.seq < second!.seq)
    await client.dispose()
  })

  it('adds a live tombstone as a new snapshot and keeps the snapshot identity for events that are not replacements', async () => {
    const client = await bootClient()
    await client.loadPlugin()
    const session = liveSession('session-live', richLog())
    const harness = client.session('session-live')
    harness.load([...session.events])
    const before = view(harness)
    assert.equal(before.length, 0)
    const users = appended(session.events, 'user/message')
    const tomb = appendTombstone(session, 'delete', [users.at(-1)!.seq])
    harness.append(tomb as LogEvent)
    const after = view(harness)
    assert.notEqual(after, before)
    assert.deepEqual(after.map((e) => e.seq), [tomb.seq])
    harness.append({ type: 'turn/start', seq: tomb.seq + 1, time: tomb.time + 1, data: { turn: 5 } } as LogEvent)
    assert.equal(view(harness), after, 'a timeline-only change republishes the same snapshot')
    await client.dispose()
  })

  it('counts every replacement but only tombstones of this plugin are tombstones (compaction checkpoint)', async () => {
    const client = await bootClient()
    await client.loadPlugin()
    const session = liveSession('session-cp', richLog())
    const users = appended(session.events, 'user/message')
    session.append('user/message', { id: 'cp-1', role: 'user', content: [{ type: 'text', text: 'summary' }], source: { kind: 'plugin', plugin: 'compact', compactionId: 'c1' } } as never,
      { surfaceOp: replaceOp(users[0]!.seq, users[0]!.seq), sourceEventSeqs: [users[0]!.seq] } as never)
    const tomb = appendTombstone(session, 'delete', [users[2]!.seq])
    const harness = client.session('session-cp')
    harness.load([...session.events])
    const events = view(harness)
    assert.deepEqual(events.map((e) => [e.seq, isTombstoneEvent(e)]), [[tomb.seq - 1, false], [tomb.seq, true]])
    assert.deepEqual((events[0]!.data as any).content, [{ type: 'text', text: 'summary' }], 'a compaction checkpoint keeps its content (the summary the model reads)')
    assert.equal((events[1]!.data as any).content, undefined, 'a tombstone keeps no content')
    await client.dispose()
  })

  it('picks up tombstones from an older page when it loads', async () => {
    const client = await bootClient()
    await client.loadPlugin()
    const session = liveSession('session-page', richLog())
    const users = appended(session.events, 'user/message')
    const tomb = appendTombstone(session, 'recall', [users[0]!.seq])
    const all = [...session.events]
    const cut = tomb.seq + 1
    const harness = client.session('session-page')
    harness.load(all.slice(cut), true)
    assert.deepEqual(view(harness), [])
    harness.prepend(all.slice(0, cut), false)
    assert.deepEqual(view(harness).map((e) => e.seq), [tomb.seq])
    await client.dispose()
  })
})
