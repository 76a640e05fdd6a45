/**
 * Key resolution per row kind: rows are the nodes the real rc.8 Chat Definitions build from a
 * realistic log (prompts, the loop's runtime context, steering, multi-tool steps, a failed turn,
 * a running tool), and every row must resolve to the durable seq the host acts on.
 */
import './support/dom'
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { resolveRow } from '../../src/client/rows/resolve-row'
import { actionsOfferedOn } from '../../src/shared/actions'
import { deriveHiddenRows } from '../../src/shared/hidden-rows'
import { transcriptRows } from '../../src/log/log-rows'
import type { LogEvent } from '../../src/shared/events'
import { appended, richLog, RICH } from './support/log'
import { appendTombstone, bootClient, liveSession } from './support/page'
import { conversationLog } from '../support/conversation'

async function richSession() {
  const client = await bootClient()
  const events = [...liveSession('session-rows', richLog()).events]
  const harness = client.session('session-rows')
  harness.load(events)
  return { client, harness, events }
}

describe('row resolution against the real rc.8 chat store', () => {
  it('user, steering and context rows act on their user/message; only the person\'s rows offer actions', async () => {
    const { harness, events, client } = await richSession()
    const users = appended(events, 'user/message')
    const anchors = harness.snapshot.chat.order.map((key) => resolveRow(harness.node(key)))
    const byKind = (kind: string) => anchors.filter((a) => a.rowKind === kind)
    assert.deepEqual(byKind('user').map((a) => a.seq), users.filter((u) => (u.data as any).source.kind === 'user' && (u.data as any).id !== RICH.steeringId).map((u) => u.seq))
    for (const a of byKind('user')) assert.deepEqual([a.actions, a.isStepRow], [actionsOfferedOn('prompt'), false], 'the action table\'s prompt buttons')
    const steering = byKind('steering')
    assert.deepEqual(steering.map((a) => a.seq), [users.find((u) => (u.data as any).id === RICH.steeringId)!.seq])
    assert.deepEqual(steering[0]!.actions, actionsOfferedOn('prompt'))
    const context = byKind('context')
    assert.deepEqual(context.map((a) => [a.seq, a.actions.length]), [[users.find((u) => (u.data as any).source.kind === 'plugin')!.seq, 0]])
    await client.dispose()
  })

  it('an assistant row acts on its final assistant/message and a tool row on its tool/result, not the tool/call', async () => {
    const { harness, events, client } = await richSession()
    const assistants = appended(events, 'assistant/message')
    const results = appended(events, 'tool/result')
    const steps = harness.keys('assistant-step').map((key) => resolveRow(harness.node(key)))
    const withText = assistants.filter((a) => ((a.data as any).message.content as any[]).some((b) => b.type === 'text'))
    assert.deepEqual(steps.map((a) => a.seq), withText.map((a) => a.seq))
    for (const a of steps) assert.deepEqual([a.actions, a.isStepRow], [actionsOfferedOn('message'), true], 'the action table\'s message buttons')
    const tools = harness.keys('tool-call').map((key) => ({ anchor: resolveRow(harness.node(key)), node: harness.node(key) }))
    const settled = tools.filter((t) => t.anchor.seq !== null)
    assert.deepEqual(settled.map((t) => t.anchor.seq), results.map((r) => r.seq))
    for (const { anchor, node } of settled) {
      assert.notEqual(anchor.seq, node.anchorSeq, 'the row anchor is the log-only tool/call')
      assert.equal(events[node.anchorSeq]!.type, 'tool/call')
      assert.equal(anchor.anchorSeq, node.anchorSeq)
    }
    await client.dispose()
  })

  it('running tools, turn bars and turn errors are log-only rows without actions', async () => {
    const { harness, events, client } = await richSession()
    const running = harness.keys('tool-call').map((key) => resolveRow(harness.node(key))).filter((a) => a.seq === null)
    assert.equal(running.length, 1)
    assert.deepEqual(running[0]!.actions, [])
    const turnEnds = events.filter((e) => e.type === 'turn/end')
    const tails = harness.keys('turn-tail').map((key) => resolveRow(harness.node(key)))
    assert.deepEqual(tails.map((a) => [a.seq, a.anchorSeq, a.turn]), turnEnds.map((e) => [null, e.seq, (e.data as any).turn]))
    assert.ok(tails.every((a) => a.actions.length === 0))
    const errors = harness.keys('turn-error').map((key) => resolveRow(harness.node(key)))
    assert.deepEqual(errors.map((a) => [a.seq, a.anchorSeq, a.turn, a.actions.length]), [[null, turnEnds[2]!.seq, 3, 0]])
    await client.dispose()
  })

  it('gives every row of a turn that turn number, from the node location', async () => {
    const { harness, client } = await richSession()
    const turns = harness.snapshot.chat.order.map((key) => resolveRow(harness.node(key))).map((a) => `${a.rowKind}@${a.turn}`)
    assert.deepEqual(turns.filter((t) => t.startsWith('user@') || t.startsWith('steering@')), ['user@1', 'user@2', 'steering@2', 'user@3', 'user@4'])
    assert.ok(turns.includes('context@1') && turns.includes('turn-error@3') && turns.includes('turn-tail@2'))
    await client.dispose()
  })

  it('hides the same rows whether they are read from the live chat store or rebuilt from the log (explain-session --rows)', async () => {
    const client = await bootClient()
    const session = liveSession('session-agree', richLog())
    const users = appended(session.events, 'user/message').filter((u) => (u.data as any).source.kind === 'user')
    const [firstStep] = appended(session.events, 'assistant/message')
    const tools = appended(session.events, 'tool/result').slice(0, 2)
    appendTombstone(session, 'recall', [users[1]!.seq])
    appendTombstone(session, 'delete', [firstStep!.seq, ...tools.map((t) => t.seq)])
    const nodes = [...session.surface.nodes]
    appendTombstone(session, 'deleteFrom', nodes.slice(nodes.indexOf(users[3]!.seq)))
    const events = [...session.events] as LogEvent[]
    const harness = client.session('session-agree')
    harness.load(events)
    const fromStore = deriveHiddenRows(events, harness.snapshot.chat.order.map((key) => resolveRow(harness.node(key))))
    const fromLog = deriveHiddenRows(events, transcriptRows(events))
    const logKeys = new Set(transcriptRows(events).map((r) => r.key))
    const storeHidden = fromStore.hidden.filter((h) => logKeys.has(h.key)).map((h) => `${h.key}:${h.reason}`)
    assert.deepEqual(new Set(storeHidden), new Set(fromLog.hidden.map((h) => `${h.key}:${h.reason}`)))
    assert.ok(storeHidden.length >= 8, `rows hidden: ${storeHidden.join(', ')}`)
    assert.deepEqual(fromStore.hidden.filter((h) => !logKeys.has(h.key)).map((h) => `${h.rowKind}:${h.reason}`), ['tool-call:span'], 'only the running tool row is unknown to the log rebuild')
    await client.dispose()
  })

  it('hides the lone context row of an emptied turn in the live chat store and the log rebuild alike', async () => {
    const client = await bootClient()
    const session = liveSession('session-context', richLog())
    const users = appended(session.events, 'user/message')
    const context = users.find((u) => (u.data as any).source.kind === 'plugin')!
    const firstPrompt = users[0]!
    const turnOne = [...appended(session.events, 'assistant/message'), ...appended(session.events, 'tool/result')]
      .filter((e) => (e.data as any).turn === 1).map((e) => e.seq).sort((a, b) => a - b)
    appendTombstone(session, 'recall', [firstPrompt.seq])
    const nodes = [...session.surface.nodes]
    const stepStart = nodes.indexOf(turnOne[0]!)
    assert.deepEqual(nodes.slice(stepStart, stepStart + turnOne.length), turnOne, 'turn 1\'s model steps are contiguous on the surface')
    appendTombstone(session, 'delete', turnOne.filter((seq) => (session.events[seq]!.data as any).step === 1))
    const events = [...session.events] as LogEvent[]
    const harness = client.session('session-context')
    harness.load(events)
    const storeRows = harness.snapshot.chat.order.map((key) => resolveRow(harness.node(key)))
    const contextKey = storeRows.find((r) => r.rowKind === 'context' && r.seq === context.seq)!.key
    const hiddenBoth = (rows: Parameters<typeof deriveHiddenRows>[1]) => deriveHiddenRows(events, rows).hiddenKeys.has(contextKey)
    assert.equal(hiddenBoth(storeRows), false, 'step 2 of turn 1 is still visible')
    assert.equal(hiddenBoth(transcriptRows(events)), false)

    appendTombstone(session, 'delete', turnOne.filter((seq) => (session.events[seq]!.data as any).step === 2))
    const after = [...session.events] as LogEvent[]
    const again = client.session('session-context-2')
    again.load(after)
    const fromStore = deriveHiddenRows(after, again.snapshot.chat.order.map((key) => resolveRow(again.node(key))))
    const fromLog = deriveHiddenRows(after, transcriptRows(after))
    for (const result of [fromStore, fromLog]) {
      assert.deepEqual(result.hidden.find((h) => h.key === contextKey), { key: contextKey, rowKind: 'context', reason: 'empty-turn', tombstoneSeq: null })
      assert.ok(result.hidden.some((h) => h.rowKind === 'turn-tail' && h.reason === 'answer-removed'))
    }
    const logKeys = new Set(transcriptRows(after).map((r) => r.key))
    assert.deepEqual(new Set(fromStore.hidden.filter((h) => logKeys.has(h.key)).map((h) => `${h.key}:${h.reason}`)), new Set(fromLog.hidden.map((h) => `${h.key}:${h.reason}`)))
    await client.dispose()
  })
  it('a session-reference snapshot row offers Delete, Delete onward and Exclude (not Recall) and hides with its prompt', async () => {
    const client = await bootClient()
    const session = liveSession('session-reference', conversationLog([
      { prompt: 'first prompt', steps: [{ text: 'first reply' }] },
      { prompt: 'compare with @Earlier work', reference: { label: 'Earlier work', text: 'what the earlier session said' }, steps: [{ text: 'compared' }] },
    ]))
    const users = appended(session.events, 'user/message')
    const prompt = users.find((u) => JSON.stringify(u.data).includes('compare with'))!
    const snapshot = users.find((u) => (u.data as any).source.kind === 'session-reference')!
    assert.equal(snapshot.seq, prompt.seq + 1)
    const harness = client.session('session-reference')
    harness.load([...session.events])
    const rows = harness.snapshot.chat.order.map((key) => resolveRow(harness.node(key)))
    const snapshotRow = rows.find((r) => r.seq === snapshot.seq)!
    assert.deepEqual([snapshotRow.rowKind, snapshotRow.actions, snapshotRow.isStepRow], ['context', ['delete', 'deleteFrom', 'exclude'], false])
    const promptRow = rows.find((r) => r.seq === prompt.seq)!
    assert.deepEqual((harness.node(promptRow.key).data as any).referenceLabels, ['Earlier work'], 'rc.8 pairs the snapshot with the prompt right before it')

    appendTombstone(session, 'delete', [prompt.seq, snapshot.seq])
    const after = [...session.events] as LogEvent[]
    const again = client.session('session-reference-2')
    again.load(after)
    const storeRows = again.snapshot.chat.order.map((key) => resolveRow(again.node(key)))
    for (const rowsOf of [storeRows, transcriptRows(after)]) {
      const result = deriveHiddenRows(after, rowsOf)
      const bySeq = (seq: number) => result.hidden.find((h) => h.key === rowsOf.find((r) => r.seq === seq)?.key)
      assert.equal(bySeq(prompt.seq)?.reason, 'shadowed')
      assert.deepEqual([bySeq(snapshot.seq)?.rowKind, bySeq(snapshot.seq)?.reason], ['context', 'shadowed'])
    }
    await client.dispose()
  })
})
