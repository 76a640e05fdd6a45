/**
 * The hiding rules for restores, exclusions and turn bars (`src/shared/hidden-rows.ts`) over
 * realistic logs: tombstones and restoring copies are appended to a real rc.8 `Session`, so every
 * one passes the Session's surface validation; rows are rebuilt with the same `transcriptRows`
 * that `explain-session --rows` uses.
 */
import './support/dom'
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { SessionId, Session } from '@deepseek-ai/dsh-session'
import { deriveHiddenRows, type TranscriptRow } from '../../src/shared/hidden-rows'
import { readRestores, readTombstones } from '../../src/shared/fate'
import type { LogEvent } from '../../src/shared/events'
import { transcriptRows } from '../../src/log/log-rows'
import { replaceOp } from '../../src/shared/replace-op'
import { conversationLog } from '../support/conversation'
import { resolveRow } from '../../src/client/rows/resolve-row'
import { appended, richLog } from './support/log'
import { appendTombstone, bootClient, liveSession } from './support/page'
import { planRemoval } from '../../src/host/surface-plan'
import { removalPlanning } from '../../src/shared/actions'

/** Turn 1: prompt, a step with two tool calls, a reply. Turn 2: prompt, reply. */
function twoTurns(): Session {
  return Session.create(SessionId('session-restore'), conversationLog([
    { prompt: 'first', steps: [{ text: 'looking', tools: [{ result: 'a' }, { result: 'b' }] }, { text: 'reply one' }] },
    { prompt: 'second', steps: [{ text: 'reply two' }] },
  ]))
}

const events = (session: Session) => session.events as readonly LogEvent[]
const seqsOf = (session: Session, type: string) => events(session).filter((e) => e.type === type && e.surfaceOp === 'append').map((e) => e.seq)
const derive = (session: Session, rows: readonly TranscriptRow[] = transcriptRows(events(session))) => deriveHiddenRows(events(session), rows)
const hiddenOf = (session: Session) => derive(session).hidden.map((h) => `${h.rowKind}:${h.reason}`)

/** Append the restoring copy of the one message `tombstoneSeq` shadows, as the host's restore writes it. */
function appendRestore(session: Session, tombstoneSeq: number): LogEvent {
  const tombstone = readTombstones(events(session)).find((t) => t.seq === tombstoneSeq)!
  const original = session.events[tombstone.shadowedSeqs[0]!]!
  return session.append('user/message', original.data as never, { surfaceOp: replaceOp(tombstoneSeq, tombstoneSeq), sourceEventSeqs: [tombstoneSeq, original.seq] } as never) as unknown as LogEvent
}

describe('hiding rules: restores', () => {
  it('a restored prompt shows in its original row again, and actions on that row target the copy', () => {
    const session = twoTurns()
    const [, second] = seqsOf(session, 'user/message')
    const tomb = appendTombstone(session, 'recall', [second!])
    assert.deepEqual(derive(session).hidden.map((h) => h.rowKind), ['user'])
    const copy = appendRestore(session, tomb.seq)
    const result = derive(session)
    assert.deepEqual(result.hidden, [])
    assert.deepEqual(result.restores, [{ seq: copy.seq, tombstoneSeq: tomb.seq, originalSeq: second! }])
    assert.deepEqual([...result.restoredBy], [[tomb.seq, copy.seq]])
    const row = transcriptRows(events(session)).find((r) => r.seq === second)!
    assert.deepEqual([...result.actingSeqs], [[row.key, copy.seq]])
    assert.deepEqual(result.fateOf(second!), { state: 'current', tombstoneSeq: null, actingSeq: copy.seq })
    assert.ok(session.surface.nodes.includes(copy.seq) && !session.surface.nodes.includes(tomb.seq), 'the copy replaced the tombstone on the real surface')
  })

  it('a removal of the restored copy hides the original row again, named by the new tombstone', () => {
    const session = twoTurns()
    const [first] = seqsOf(session, 'user/message')
    const tomb = appendTombstone(session, 'delete', [first!])
    const copy = appendRestore(session, tomb.seq)
    const again = appendTombstone(session, 'delete', [copy.seq])
    const result = derive(session)
    const row = transcriptRows(events(session)).find((r) => r.seq === first)!
    assert.deepEqual(result.hidden.filter((h) => h.key === row.key), [{ key: row.key, rowKind: 'user', reason: 'shadowed', tombstoneSeq: again.seq }])
    assert.deepEqual(result.fateOf(first!), { state: 'removed', tombstoneSeq: again.seq, actingSeq: copy.seq })
  })

  it('a message removed and restored twice shows again and acts on the second copy', () => {
    const session = twoTurns()
    const [first] = seqsOf(session, 'user/message')
    const once = appendTombstone(session, 'recall', [first!])
    const copy = appendRestore(session, once.seq)
    const twice = appendTombstone(session, 'exclude' as never, [copy.seq])
    const again = appendRestore(session, twice.seq)
    const result = derive(session)
    assert.deepEqual(result.hidden, [])
    assert.deepEqual(result.excluded, [])
    assert.deepEqual(result.fateOf(first!), { state: 'current', tombstoneSeq: null, actingSeq: again.seq })
  })

  it('a replacement over a tombstone that does not cite it first undoes nothing', () => {
    const session = twoTurns()
    const [first, second] = seqsOf(session, 'user/message')
    const tomb = appendTombstone(session, 'recall', [second!])
    const forged: LogEvent = { type: 'user/message', seq: session.events.length, time: 0, data: { source: { kind: 'user' } }, surfaceOp: replaceOp(tomb.seq, tomb.seq), sourceEventSeqs: [first!, tomb.seq] }
    const all = [...events(session), forged]
    assert.deepEqual(readRestores(all), [])
    assert.deepEqual(deriveHiddenRows(all, transcriptRows(events(session))).hidden.map((h) => h.tombstoneSeq), [tomb.seq])
  })
})

describe('hiding rules: exclusions', () => {
  it('excluded rows stay in view, listed as excluded; their turn keeps its bar and nothing is hidden', () => {
    const session = twoTurns()
    const [stepOne] = seqsOf(session, 'assistant/message')
    const tools = seqsOf(session, 'tool/result')
    const tomb = appendTombstone(session, 'exclude' as never, [stepOne!, ...tools])
    const result = derive(session)
    assert.deepEqual(result.hidden, [])
    assert.deepEqual(result.excluded.map((x) => [x.rowKind, x.tombstoneSeq]), [['assistant-step', tomb.seq], ['tool-call', tomb.seq], ['tool-call', tomb.seq]])
    assert.equal(result.excludedKeys.size, 3)
  })

  it('a turn whose content is all excluded keeps its bar; a restore of an excluded prompt ends the exclusion', () => {
    const session = twoTurns()
    const [, second] = seqsOf(session, 'user/message')
    const [, , answer] = seqsOf(session, 'assistant/message')
    const excludePrompt = appendTombstone(session, 'exclude' as never, [second!])
    appendTombstone(session, 'exclude' as never, [answer!])
    assert.deepEqual(hiddenOf(session), [])
    assert.deepEqual(derive(session).excluded.map((x) => x.rowKind), ['user', 'assistant-step'])
    appendRestore(session, excludePrompt.seq)
    assert.deepEqual(derive(session).excluded.map((x) => x.rowKind), ['assistant-step'])
  })

  it('a removal beats an exclusion: a Delete onward that absorbs an exclusion hides its rows', () => {
    const session = twoTurns()
    const [, second] = seqsOf(session, 'user/message')
    const exclusion = appendTombstone(session, 'exclude' as never, [second!])
    const nodes = [...session.surface.nodes]
    const onward = appendTombstone(session, 'deleteFrom', nodes.slice(nodes.indexOf(exclusion.seq)))
    assert.ok(readTombstones(events(session)).at(-1)!.shadowedSeqs.includes(exclusion.seq), 'the onward range holds the exclusion')
    const result = derive(session)
    assert.deepEqual(result.excluded, [])
    assert.deepEqual(result.fateOf(second!), { state: 'removed', tombstoneSeq: onward.seq, actingSeq: second })
  })

  it('a Delete of the answer next to an excluded prompt absorbs the exclusion, and the prompt stays in view, excluded', () => {
    const session = twoTurns()
    const [, second] = seqsOf(session, 'user/message')
    const [, replyOne] = seqsOf(session, 'assistant/message')
    const exclusion = appendTombstone(session, 'exclude' as never, [second!])
    // The planner takes the adjacent exclusion into the delete's range: one tombstone per gap.
    const planned = planRemoval({ nodes: [...session.surface.nodes], lookup: (seq) => events(session)[seq], planning: removalPlanning('delete'), target: { seq: replyOne! } })
    assert.ok(planned.ok)
    assert.deepEqual(planned.plan.shadowedSeqs, [replyOne, exclusion.seq])
    const removal = appendTombstone(session, 'delete', planned.plan.shadowedSeqs)
    const result = derive(session)
    assert.deepEqual(result.fateOf(replyOne!), { state: 'removed', tombstoneSeq: removal.seq, actingSeq: replyOne })
    assert.deepEqual(result.fateOf(second!), { state: 'excluded', tombstoneSeq: exclusion.seq, actingSeq: second })
    assert.deepEqual(result.excluded.map((x) => [x.rowKind, x.tombstoneSeq]), [['user', exclusion.seq]])
    assert.equal(result.fates.shadowerOf(exclusion.seq), removal.seq)
    assert.equal(result.fates.restoreBlock(exclusion.seq, () => 'user'), 'not-on-surface', 'the exclusion is no longer on the surface, so it is not restorable in place')
    assert.deepEqual(hiddenOf(session), ['assistant-step:shadowed', 'turn-tail:answer-removed'], 'the answer goes with its turn bar')
  })
})

describe('hiding rules: the turn bar goes with its final answer', () => {
  it('Delete of the final answer hides the bar while the prompt and the first step stay', () => {
    const session = twoTurns()
    const [, final] = seqsOf(session, 'assistant/message')
    const tomb = appendTombstone(session, 'delete', [final!])
    const result = derive(session)
    assert.deepEqual(result.hidden.map((h) => [h.rowKind, h.reason, h.tombstoneSeq]), [['assistant-step', 'shadowed', tomb.seq], ['turn-tail', 'answer-removed', tomb.seq]])
  })

  it('Delete of an earlier step keeps the bar while the final answer stays', () => {
    const session = twoTurns()
    const [stepOne] = seqsOf(session, 'assistant/message')
    appendTombstone(session, 'delete', [stepOne!, ...seqsOf(session, 'tool/result')])
    assert.deepEqual(derive(session).hidden.map((h) => h.rowKind), ['assistant-step', 'tool-call', 'tool-call'])
  })

  it('the bar\'s own answer seq decides over the last step row, and the turn\'s error and retry rows go with it', () => {
    const rows: TranscriptRow[] = [
      { key: 'u', rowKind: 'user', seq: 2, anchorSeq: 2, turn: 1 },
      { key: 'a1', rowKind: 'assistant-step', seq: 5, anchorSeq: 5, turn: 1 },
      { key: 'retry', rowKind: 'model-retry', seq: null, anchorSeq: 6, turn: 1 },
      { key: 'a2', rowKind: 'assistant-step', seq: 8, anchorSeq: 8, turn: 1 },
      { key: 'err', rowKind: 'turn-error', seq: null, anchorSeq: 9, turn: 1 },
      { key: 'tail', rowKind: 'turn-tail', seq: null, anchorSeq: 9, turn: 1, answerSeq: 5 },
    ]
    const tombstone = (seq: number, shadowed: number): LogEvent => ({ type: 'user/message', seq, time: 0, data: { source: { kind: 'plugin', plugin: 'dsh-message-recall', action: 'delete', removedSeqs: [shadowed] } }, surfaceOp: replaceOp(shadowed, shadowed), sourceEventSeqs: [shadowed] })
    assert.deepEqual(deriveHiddenRows([tombstone(12, 8)], rows).hidden.map((h) => h.key), ['a2'], 'a2 is not the answer the bar copies')
    assert.deepEqual(deriveHiddenRows([tombstone(12, 5)], rows).hidden.map((h) => `${h.key}:${h.reason}`), ['a1:shadowed', 'retry:answer-removed', 'err:answer-removed', 'tail:answer-removed'])
    const noAnswer = rows.map((r) => (r.rowKind === 'turn-tail' ? { ...r, answerSeq: null } : r))
    assert.deepEqual(deriveHiddenRows([tombstone(12, 8)], noAnswer).hidden.map((h) => h.key), ['retry', 'a2', 'err', 'tail'], 'without its own answer the bar follows the last step row')
  })
})

describe('the live chat store and the log rebuild agree', () => {
  it('on a restore, an exclusion and a deleted final answer (turn bar and turn error)', async () => {
    const session = liveSession('session-agree', richLog())
    const prompts = appended(session.events, 'user/message').filter((u) => (u.data as any).source.kind === 'user')
    const answers = appended(session.events, 'assistant/message')
    const recall = appendTombstone(session, 'recall', [prompts[0]!.seq])
    appendRestore(session, recall.seq)
    appendTombstone(session, 'exclude' as never, [prompts[1]!.seq])
    // Turn 3 ends in an error; its one answer goes, with its bar and its error row.
    const turn3 = answers.find((a) => (a.data as any).turn === 3)!
    appendTombstone(session, 'delete', [turn3.seq])
    const all = [...session.events] as LogEvent[]
    const client = await bootClient()
    const harness = client.session('session-agree')
    harness.load(all)
    const fromStore = deriveHiddenRows(all, harness.snapshot.chat.order.map((key) => resolveRow(harness.node(key))))
    const fromLog = deriveHiddenRows(all, transcriptRows(all))
    const logKeys = new Set(transcriptRows(all).map((r) => r.key))
    // Rows the log rebuild knows, in key order (the two list a turn's error and bar in different orders).
    const known = <T extends { key: string }>(list: readonly T[]) => list.filter((x) => logKeys.has(x.key)).sort((a, b) => a.key.localeCompare(b.key))
    assert.deepEqual(known(fromStore.hidden), known(fromLog.hidden))
    assert.deepEqual(known(fromStore.excluded), known(fromLog.excluded))
    assert.deepEqual([...fromStore.actingSeqs], [...fromLog.actingSeqs])
    assert.deepEqual(fromLog.hidden.map((h) => `${h.rowKind}:${h.reason}`), ['assistant-step:shadowed', 'turn-error:answer-removed', 'turn-tail:answer-removed'])
    assert.equal(fromStore.hidden.length, fromLog.hidden.length, 'the store hides no row the log does not know')
    assert.deepEqual(fromLog.excluded.map((x) => x.rowKind), ['user'])
    assert.equal(fromLog.actingSeqs.size, 1)
    await client.dispose()
  })
})
