/**
 * Which events carry removed content (`src/shared/removed-content.ts`) and the log text without
 * it (`src/log/log-without-removed.ts`), on a log the real rc.8 composition wrote: a seeded agent
 * session (the agent loop's event order), removals, an exclusion and a restore written through the
 * plugin's route over real HTTP, the log read back with the JSONL backend's own `readRaw`
 * (packed chunk rows as stored), the rewritten text loaded again with the same backend.
 */
import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { SessionId, type Session } from '@deepseek-ai/dsh-session'
import { foldSurface } from '@deepseek-ai/dsh-session/surface'
import { okValue, type DshApp } from '../support/dsh-app'
import { conversationLog } from '../support/conversation'
import { eventsOfLogText, loadWithDshPersistence } from '../support/export-archive'
import { logWithoutRemovedContent } from '../../src/log/log-without-removed'
import { REMOVED_ARGUMENTS, REMOVED_CONTENT_MARKER } from '../../src/shared/removed-content'
import { node, Roots } from './helpers'

describe('removed content of a log', () => {
  const roots = new Roots()
  let app: DshApp
  before(async () => {
    app = await roots.boot(roots.root(), { persistence: { compression: 'none' } } as never)
  })
  after(() => roots.dispose())

  const post = (body: object): Promise<any> => okValue(app, body)

  it('names every carrier of a deleted prompt and a deleted tool step, keeps exclusions and restores, and the rewritten log loads and folds the same', async () => {
    const seed = conversationLog([
      { prompt: 'CANARY-prompt one', steps: [{ text: 'answer one' }] },
      { prompt: 'run the tool', steps: [{ text: 'CANARY-step text', tools: [{ arguments: '{"path":"CANARY-args.txt"}', result: 'CANARY-result lines' }] }, { text: 'tool answer' }] },
      { prompt: 'EXCLUDED prompt three', steps: [{ text: 'answer three' }] },
      { prompt: 'RESTORED prompt four', steps: [{ text: 'answer four' }] },
    ], { chunkSize: 2 })
    const agent = await app.createAgent({ seed })
    const session = agent.session as Session
    const prompt1 = node(session, 'user/message', 'CANARY-prompt one')
    const step = node(session, 'assistant/message', 'CANARY-step text')
    const result = node(session, 'tool/result', 'CANARY-result lines')
    const prompt3 = node(session, 'user/message', 'EXCLUDED prompt three')
    const prompt4 = node(session, 'user/message', 'RESTORED prompt four')
    const events = session.events
    const inbox1 = events.findIndex((e) => e.type === 'agent/inbox/spliced' && JSON.stringify(e.data).includes('CANARY-prompt one'))
    const chunks = [...((events[step] as { sourceEventSeqs?: number[] }).sourceEventSeqs ?? [])]
    const toolCall = events.findIndex((e) => e.type === 'tool/call')

    await post({ sessionId: agent.id, action: 'delete', seq: prompt1 })
    await post({ sessionId: agent.id, action: 'delete', seq: step })
    await post({ sessionId: agent.id, action: 'exclude', seq: prompt3 })
    const { tombstoneSeq } = await post({ sessionId: agent.id, action: 'delete', seq: prompt4 })
    await post({ sessionId: agent.id, action: 'restore', tombstoneSeq })

    const persistence = (app.ctx as any).sessionPersistence
    const raw = await persistence.readRaw(SessionId(agent.id))
    assert.ok(chunks.length >= 3, 'the step has a packed run of deltas')
    assert.ok(raw.content.includes('"type":"text-chunks"'), 'the stored log packs chunk runs')
    const out = logWithoutRemovedContent(raw.content)

    const expected = new Map<number, string>([[inbox1, 'inbox'], [prompt1, 'message'], ...chunks.map((seq) => [seq, 'chunk'] as [number, string]), [step, 'message'], [toolCall, 'tool-call'], [result, 'message']])
    assert.deepEqual([...out.carriers], [...expected].sort((a, b) => a[0] - b[0]))
    assert.equal(out.text.includes('CANARY'), false, 'no removed text is left')
    assert.ok(raw.content.includes('CANARY-args.txt') && raw.content.includes('CANARY-result lines'), 'the source still holds it')
    assert.ok(out.text.includes('EXCLUDED prompt three'), 'an excluded prompt stays')
    assert.equal(out.text.split('RESTORED prompt four').length - 1, raw.content.split('RESTORED prompt four').length - 1, 'a restored prompt stays wherever it was')

    // Line for line: same count, the header and every line without a carrier byte for byte.
    const before = raw.content.split('\n')
    const after = out.text.split('\n')
    assert.equal(after.length, before.length)
    assert.equal(after[0], before[0])
    const changed = after.map((line, i) => (line === before[i] ? -1 : i)).filter((i) => i >= 0)
    assert.equal(changed.length, out.rewrittenLines)

    const sourceEvents = eventsOfLogText(raw.content)
    const rewritten = eventsOfLogText(out.text)
    assert.deepEqual(rewritten.map((e) => [e.seq, e.type]), sourceEvents.map((e) => [e.seq, e.type]))
    assert.equal(out.eventCount, sourceEvents.length)
    const prompt = rewritten[prompt1]!.data as any
    assert.deepEqual(prompt.content, [{ type: 'text', text: REMOVED_CONTENT_MARKER }])
    const call = (rewritten[step]!.data as any).message.content.find((b: any) => b.type === 'tool-call')
    assert.equal(call.arguments, REMOVED_ARGUMENTS)
    assert.equal((rewritten[toolCall]!.data as any).arguments, REMOVED_ARGUMENTS)
    assert.equal((rewritten[toolCall]!.data as any).callId, call.id, 'call ids stay')

    // DSH's own backend reads the rewritten log; it folds to the same surface and derives the same messages.
    const loaded = await loadWithDshPersistence(out.text, agent.id)
    assert.deepEqual(loaded.events.map((e) => [e.seq, e.type]), sourceEvents.map((e) => [e.seq, e.type]))
    assert.deepEqual(foldSurface(loaded.events as never).nodes, foldSurface(sourceEvents as never).nodes)
    assert.deepEqual(foldSurface(loaded.events as never).nodes, [...session.surface.nodes])
    assert.deepEqual(loaded.derived, JSON.parse(JSON.stringify(session.deriveMessages())))
  })

  it('follows the transcript\'s fate rule: a restored copy removed again, an exclusion absorbed by a neighbour\'s delete, an exclusion inside a Delete onward', async () => {
    const seed = conversationLog([
      { prompt: 'first prompt kept', steps: [{ text: 'answer one' }] },
      { prompt: 'CANARY-again prompt two', steps: [{ text: 'answer two' }] },
      { prompt: 'prompt three', steps: [{ text: 'answer three' }] },
      { prompt: 'EXCLUDED neighbour prompt four', steps: [{ text: 'answer four' }] },
      { prompt: 'spacer prompt five', steps: [{ text: 'answer five' }] },
      { prompt: 'CANARY-onward prompt six', steps: [{ text: 'answer six' }] },
      { prompt: 'CANARY-onward prompt seven', steps: [{ text: 'answer seven' }] },
    ])
    const agent = await app.createAgent({ seed })
    const session = agent.session as Session
    const p2 = node(session, 'user/message', 'CANARY-again prompt two')
    const a3 = node(session, 'assistant/message', 'answer three')
    const p4 = node(session, 'user/message', 'EXCLUDED neighbour prompt four')
    const a5 = node(session, 'assistant/message', 'answer five')
    const p6 = node(session, 'user/message', 'CANARY-onward prompt six')

    const { tombstoneSeq } = await post({ sessionId: agent.id, action: 'delete', seq: p2 })
    await post({ sessionId: agent.id, action: 'restore', tombstoneSeq })
    const copy = node(session, 'user/message', 'CANARY-again prompt two')
    assert.notEqual(copy, p2)
    await post({ sessionId: agent.id, action: 'delete', seq: copy })
    await post({ sessionId: agent.id, action: 'exclude', seq: p4 })
    const merged = await post({ sessionId: agent.id, action: 'delete', seq: a3 })
    assert.ok(merged.shadowedSeqs.length >= 2, `the delete of the answer absorbed the exclusion: ${JSON.stringify(merged)}`)
    await post({ sessionId: agent.id, action: 'exclude', seq: p6 })
    await post({ sessionId: agent.id, action: 'deleteFrom', seq: a5 })

    await app.ctx.sessions.flush(session)
    const raw = await (app.ctx as any).sessionPersistence.readRaw(SessionId(agent.id))
    const out = logWithoutRemovedContent(raw.content)
    const messages = [...out.carriers].filter(([, kind]) => kind === 'message').map(([seq]) => seq)
    assert.ok(messages.includes(p2) && messages.includes(copy), 'the original and its restored copy, removed again, both go')
    assert.ok(messages.includes(a3) && !messages.includes(p4), 'the neighbour goes, the absorbed exclusion stays')
    assert.ok(messages.includes(p6), 'a Delete onward takes the exclusion inside it')
    assert.equal(out.text.includes('CANARY'), false)
    assert.ok(out.text.includes('EXCLUDED neighbour prompt four') && out.text.includes('first prompt kept'))
    const loaded = await loadWithDshPersistence(out.text, agent.id)
    assert.deepEqual(foldSurface(loaded.events as never).nodes, [...session.surface.nodes])
    assert.deepEqual(loaded.derived, JSON.parse(JSON.stringify(session.deriveMessages())))
  })

  it('leaves a log without removals byte for byte', async () => {
    const agent = await app.createAgent({ seed: conversationLog([{ prompt: 'nothing removed', steps: [{ text: 'kept' }] }]) })
    await post({ sessionId: agent.id, action: 'exclude', seq: node(agent.session as Session, 'user/message', 'nothing removed') })
    await app.ctx.sessions.flush(agent.session as Session)
    const raw = await (app.ctx as any).sessionPersistence.readRaw(SessionId(agent.id))
    const out = logWithoutRemovedContent(raw.content)
    assert.equal(out.text, raw.content)
    assert.deepEqual([out.carriers.size, out.rewrittenLines], [0, 0])
  })

  it('refuses a log whose seqs do not run from 0 in order: a gap, a repeated seq, a first seq past 0', async () => {
    const agent = await app.createAgent({ seed: conversationLog([{ prompt: 'one', steps: [{ text: 'reply one' }] }, { prompt: 'two', steps: [{ text: 'reply two' }] }]) })
    await app.ctx.sessions.flush(agent.session as Session)
    const raw = await (app.ctx as any).sessionPersistence.readRaw(SessionId(agent.id))
    const lines = (raw.content as string).split('\n')
    const seqOf = (line: string): number => JSON.parse(line).seq
    // Plain persistence writes one event per line (no packed rows in this short log), seqs 0, 1, 2, … from line 1.
    assert.deepEqual(lines.slice(1).filter((line) => line !== '').map(seqOf), [...Array(lines.filter((line) => line !== '').length - 1).keys()])
    const at = 4
    const gap = [...lines.slice(0, at), ...lines.slice(at + 1)].join('\n')
    assert.throws(() => logWithoutRemovedContent(gap), { message: `the log's seqs are not contiguous from 0: seq ${at} follows seq ${at - 2}` })
    const twice = [...lines.slice(0, at + 1), lines[at]!, ...lines.slice(at + 1)].join('\n')
    assert.throws(() => logWithoutRemovedContent(twice), { message: `the log's seqs are not contiguous from 0: seq ${at - 1} appears twice` })
    const late = [lines[0]!, ...lines.slice(3)].join('\n')
    assert.throws(() => logWithoutRemovedContent(late), { message: "the log's seqs are not contiguous from 0: the first event has seq 2" })
    assert.equal(logWithoutRemovedContent(raw.content).text, raw.content, 'the log as stored is read')
  })
})
