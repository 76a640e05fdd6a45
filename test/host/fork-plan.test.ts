/**
 * The `forkBefore` plan, pure, over logs built through the real rc.8 `Session`: the cut just
 * before the tombstone, the seed and the copy's header; `TARGET_NOT_FOUND` for a seq that is not a
 * tombstone of this plugin; `OPEN_TURN` when the event before the tombstone lies inside an open
 * turn; the agent preset read as `dsh-agent-presets` reads it.
 */
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import type { SessionEvent, SessionHeader } from '@deepseek-ai/dsh-session'
import { planFork, sessionPreset } from '../../src/host/fork-plan'
import type { ForkSource } from '../../src/host/fork-source'
import { LogBuilder } from './log-builder'

function sourceOf(log: LogBuilder, header: Partial<SessionHeader> = {}): ForkSource {
  return { id: log.session.id, header: { ...log.session.header, ...header }, events: log.session.events, lookup: log.lookup, origin: 'live' }
}

describe('planFork', () => {
  it('cuts just before the tombstone: the seed is every event before it, the header names the source', () => {
    const log = new LogBuilder('fork-source')
    log.turn('first prompt', [{ text: 'first reply' }])
    const second = log.turn('second prompt', [{ text: 'looking', calls: ['read_file'] }, { text: 'second reply' }])
    const tombstoneSeq = log.tombstone('recall', second.prompt, second.prompt)
    log.turn('third prompt', [{ text: 'third reply' }])

    const planned = planFork(sourceOf(log, { cwd: '/projects/demo' }), tombstoneSeq)
    assert.equal(planned.ok, true)
    if (!planned.ok) return
    assert.equal(planned.plan.boundarySeq, tombstoneSeq - 1)
    assert.deepEqual(planned.plan.seed.map((e) => e.seq), Array.from({ length: tombstoneSeq }, (_, seq) => seq))
    assert.deepEqual(planned.plan.seed, log.session.events.slice(0, tombstoneSeq))
    assert.deepEqual(planned.plan.meta, { cwd: '/projects/demo', parentSession: 'fork-source', seedLength: tombstoneSeq })
  })

  it('refuses a seq that is not a tombstone of this plugin, or past the log, with TARGET_NOT_FOUND', () => {
    const log = new LogBuilder()
    const { prompt } = log.turn('a prompt', [{ text: 'a reply' }])
    for (const seq of [prompt, log.session.seq, log.session.seq + 10]) {
      assert.deepEqual(planFork(sourceOf(log), seq), { ok: false, refusal: { code: 'TARGET_NOT_FOUND', tombstoneSeq: seq, reason: 'not-a-tombstone' } })
    }
  })

  it('answers OPEN_TURN when the event before the tombstone lies inside an open turn', () => {
    const log = new LogBuilder()
    const { prompt } = log.turn('a prompt', [{ text: 'a reply' }])
    const tombstoneSeq = log.tombstone('delete', prompt, prompt)
    // The same log seen with a `turn/start` right before the tombstone.
    const turnStart = { ...log.session.events.find((e) => e.type === 'turn/start')!, seq: tombstoneSeq - 1 } as SessionEvent
    const events = [...log.session.events.slice(0, tombstoneSeq - 1), turnStart, log.session.events[tombstoneSeq]!]
    const source: ForkSource = { ...sourceOf(log), events, lookup: (seq) => events[seq] as never }
    assert.deepEqual(planFork(source, tombstoneSeq), { ok: false, refusal: { code: 'OPEN_TURN', boundarySeq: tombstoneSeq - 1 } })
  })
})

describe('sessionPreset', () => {
  const header = { id: 'p', agentPreset: 'header-preset' } as unknown as SessionHeader
  const selected = (seq: number, agentPreset: string) => ({ type: 'agent-preset/selected', seq, time: 0, data: { agentPreset } }) as unknown as SessionEvent
  it('is the newest agent-preset/selected event, else the header, else none', () => {
    assert.equal(sessionPreset({ header, events: [selected(0, 'first'), selected(1, 'second')] }), 'second')
    assert.equal(sessionPreset({ header, events: [] }), 'header-preset')
    assert.equal(sessionPreset({ header: { id: 'p' } as unknown as SessionHeader, events: [] }), undefined)
  })
})
