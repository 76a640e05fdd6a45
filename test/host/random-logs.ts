/**
 * Random realistic rc.8 logs for the property tests of the planners and the fate reader: turns of
 * model steps with tool calls, steering and runtime context, with extras after random turns
 * (tool-result prunes, earlier removals, compaction checkpoints over a balanced prefix, and for
 * {@link fateExtra} also exclusions and restores), built through the real `Session` by
 * {@link LogBuilder}; and the surface's tool-pairing check.
 *
 * @module test/host/random-logs
 */
import fc from 'fast-check'
import { toolPairingBalancedAfter } from '@deepseek-ai/dsh-compaction'
import { planRestore } from '../../src/host/restore-plan'
import { appendRestore } from '../../src/host/restore-writer'
import { planRemoval } from '../../src/host/surface-plan'
import { appendTombstone } from '../../src/host/tombstone-append'
import { readTombstone } from '../../src/shared/tombstone'
import { toolCallIds, toolResultCallId } from '../../src/shared/surface-node'
import type { RemovalAction } from '../../src/shared/actions'
import { LogBuilder } from './log-builder'
import { removalPlanning } from '../../src/shared/actions'

/** One model step: its tool calls, and whether a steering message opens it (after the first step). */
export interface StepShape { calls: number; steer: boolean }
/** One turn: its steps, and whether the runtime context is injected with each. */
export interface TurnShape { steps: StepShape[]; context: boolean }
/** Something other writers leave in the log after a turn. */
export type Extra = { kind: 'prune'; pick: number } | { kind: 'tombstone'; action: RemovalAction; pick: number } | { kind: 'checkpoint'; pick: number }
  | { kind: 'exclude'; pick: number } | { kind: 'restore'; pick: number }

export const stepShape = fc.record({ calls: fc.integer({ min: 0, max: 3 }), steer: fc.boolean() })
export const turnShape = fc.record({ steps: fc.array(stepShape, { minLength: 1, maxLength: 3 }), context: fc.boolean() })
export const action = fc.constantFrom<RemovalAction>('recall', 'delete', 'deleteFrom')
export const extra: fc.Arbitrary<Extra> = fc.oneof(
  fc.record({ kind: fc.constant('prune' as const), pick: fc.nat() }),
  fc.record({ kind: fc.constant('tombstone' as const), action, pick: fc.nat() }),
  fc.record({ kind: fc.constant('checkpoint' as const), pick: fc.nat() }),
)

/** {@link extra}, plus exclusions (planned like Delete, as the host plans them) and restores of a tombstone on the surface. */
export const fateExtra: fc.Arbitrary<Extra> = fc.oneof(
  extra,
  fc.record({ kind: fc.constant('exclude' as const), pick: fc.nat() }),
  fc.record({ kind: fc.constant('restore' as const), pick: fc.nat() }),
)

/** Builds the log: turns, with extras (prunes, earlier removals, checkpoints) after random turns. */
export function buildLog(turns: TurnShape[], extras: Extra[]): LogBuilder {
  const b = new LogBuilder('property')
  turns.forEach((turn, t) => {
    b.startTurn()
    turn.steps.forEach((step, s) => {
      b.startStep()
      if (s === 0) b.user(`prompt ${t}`)
      else if (step.steer) b.user(`steer ${t}.${s}`)
      if (turn.context) b.context()
      const calls = Array.from({ length: step.calls }, (_, i) => `f${i}`)
      b.assistant(`answer ${t}.${s}`, calls)
      for (const name of calls) b.result(name, `result ${t}.${s}.${name}`)
    })
    b.endTurn()
    const mine = extras.filter((_, i) => i % turns.length === t)
    for (const e of mine) applyExtra(b, e)
  })
  return b
}

/** Append one extra to the log, when the surface allows it. */
export function applyExtra(b: LogBuilder, e: Extra): void {
  const nodes = b.nodes
  if (nodes.length === 0) return
  if (e.kind === 'prune') {
    const results = nodes.filter((seq) => b.events[seq]!.type === 'tool/result')
    if (results.length > 0) b.prune(results[e.pick % results.length]!)
  } else if (e.kind === 'tombstone' || e.kind === 'exclude') {
    const action = e.kind === 'exclude' ? 'exclude' : e.action
    const result = planRemoval({ nodes, lookup: b.lookup, planning: removalPlanning(action), target: { seq: nodes[e.pick % nodes.length]! } })
    if (result.ok) appendTombstone(b.session, { ...result.plan, action }, '')
  } else if (e.kind === 'restore') {
    // A tombstone on the surface, restored when the planner allows it (one prompt), else nothing.
    const tombstones = nodes.filter((seq) => readTombstone(b.events[seq]!) !== null)
    const seq = tombstones[e.pick % Math.max(1, tombstones.length)]
    const planned = seq === undefined ? null : planRestore({ nodes, lookup: b.lookup, tombstoneSeq: seq })
    if (planned?.ok) appendRestore(b.session, planned.plan)
  } else {
    // A checkpoint over a balanced prefix, as selectCompactableRange snaps one.
    const ends = nodes.filter((seq) => toolPairingBalancedAfter(b.session, seq))
    const end = ends[e.pick % ends.length]
    if (end !== undefined) b.checkpoint(nodes[0]!, end)
  }
}

/** Every remaining call answered and every remaining result called, on the surface. */
export function pairingProblems(b: LogBuilder): string[] {
  const nodes = b.session.surface.nodes
  const calls = new Set<string>()
  const results = new Set<string>()
  for (const seq of nodes) {
    const event = b.events[seq]!
    for (const id of toolCallIds(event)) calls.add(id)
    const id = toolResultCallId(event)
    if (id !== null) results.add(id)
  }
  return [...[...calls].filter((id) => !results.has(id)).map((id) => `call ${id} has no result`), ...[...results].filter((id) => !calls.has(id)).map((id) => `result ${id} has no call`)]
}

