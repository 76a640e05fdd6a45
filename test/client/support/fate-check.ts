/**
 * The row-by-row comparison of every consumer of the fate reader (`src/shared/fate.ts`) over one
 * log: the chat (the real rc.8 chat store, its rows resolved and hidden or dimmed, the offers of
 * excluded rows), `explain-session --rows`, the editor, the Removed panel, `inspect`,
 * `explain-session`, and restore in place (the host's planner, the panel, the editor, the excluded
 * row and the undo notice). Used by the random-log property test of the fate reader and by the
 * property test over every route action. Needs `./dom` imported first and a booted client with the
 * replacement Definition and view registered.
 *
 * @module test/client/support/fate-check
 */
import assert from 'node:assert/strict'
import { Session, SessionId, type SessionEvent } from '@deepseek-ai/dsh-session'
import { buildEditorUnits } from '../../../src/client/editor/editor-model'
import { removalEntries } from '../../../src/client/panel/removal-list'
import { selectReplacements } from '../../../src/client/wire/replacement-view'
import { offerOf } from '../../../src/client/rows/row-offers'
import { resolveRow } from '../../../src/client/rows/resolve-row'
import { restorableInPlace } from '../../../src/client/notices/undo-notice'
import { summarizeLive } from '../../../src/host/inspect'
import { planRestore } from '../../../src/host/restore-plan'
import { transcriptRows } from '../../../src/log/log-rows'
import { explainSession } from '../../../src/log/session-explain'
import type { LogEvent } from '../../../src/shared/events'
import { readFates, type FateState } from '../../../src/shared/fate'
import { deriveHiddenRows, type HiddenRowsResult } from '../../../src/shared/hidden-rows'
import { classifyNode } from '../../../src/shared/surface-node'
import type { BootedClient } from './page'

/** What a row shows in the chat: hidden for a removed message, dimmed for an excluded one. */
type Shown = 'hidden' | 'excluded' | 'shown'
const SHOWN: Record<FateState, Shown> = { removed: 'hidden', excluded: 'excluded', current: 'shown', folded: 'shown' }

function chatShows(hidden: HiddenRowsResult, key: string): Shown {
  if (hidden.hidden.some((h) => h.key === key && h.reason === 'shadowed')) return 'hidden'
  return hidden.excludedKeys.has(key) ? 'excluded' : 'shown'
}

/** How often each situation occurred, so a property over many logs is not met vacuously. */
export interface FateSituations {
  absorbedExclusion: number
  restored: number
  prunedThenRemoved: number
  folded: number
  restorable: number
  removedRows: number
  excludedRows: number
}

/** A fresh, zeroed {@link FateSituations}. */
export function noSituations(): FateSituations {
  return { absorbedExclusion: 0, restored: 0, prunedThenRemoved: 0, folded: 0, restorable: 0, removedRows: 0, excludedRows: 0 }
}

let harnesses = 0

/**
 * Assert that every consumer gives every row and every tombstone of `events` the same fate.
 * @param client - a booted client with `replacementDefinition` and `replacementView` registered.
 * @param events - a whole rc.8 log (seq === index), live or as stored.
 * @param seen - counters of the situations met, incremented in place.
 * @throws AssertionError naming the row or tombstone and the consumer that disagrees.
 */
export function assertFatesAgree(client: BootedClient, events: readonly LogEvent[], seen: FateSituations = noSituations()): void {
  const session = Session.create(SessionId(`fate-check-${harnesses}`), events as readonly SessionEvent[])
  const lookup = (seq: number): LogEvent | undefined => events[seq]
  const nodes = [...session.surface.nodes]
  const fates = readFates(events)
  const harness = client.session(`fate-check-${harnesses++}`)
  harness.load([...events] as SessionEvent[])
  const anchors = harness.snapshot.chat.order.map((key) => resolveRow(harness.node(key)))
  const chat = deriveHiddenRows(events, anchors)
  const rebuilt = deriveHiddenRows(events, transcriptRows(events))
  const units = buildEditorUnits(events)
  const unitOf = new Map(units.flatMap((u) => u.rows.map((r) => [r.seq, u] as const)))
  const kindOf = (seq: number) => classifyNode(events[seq]!)
  const surface = new Set(nodes)

  // Rows: the chat store, the log rebuild, the editor and the fate reader agree.
  for (const anchor of anchors) {
    if (anchor.seq === null || !['user', 'steering', 'assistant-step', 'tool-call'].includes(anchor.rowKind)) continue
    const fate = fates.fateOf(anchor.seq)
    const where = `row ${anchor.key} (seq ${anchor.seq})`
    assert.equal(chatShows(chat, anchor.key), SHOWN[fate.state], `${where}: the chat`)
    assert.equal(chatShows(rebuilt, anchor.key), SHOWN[fate.state], `${where}: explain-session --rows`)
    assert.deepEqual(chat.fateOf(anchor.seq), fate, `${where}: the chat's fate`)
    assert.equal(surface.has(fate.actingSeq), fate.state === 'current', `${where}: current exactly when the node standing for it is on the rc.8 surface`)
    const unit = unitOf.get(anchor.seq)
    assert.ok(unit !== undefined, `${where}: the editor lists it`)
    assert.equal(unit.state, fate.state, `${where}: the editor's unit ${unit.key}`)
    if (unit.rows[0]!.seq === anchor.seq || unit.kind === 'prompt') {
      assert.equal(unit.tombstoneSeq, fate.tombstoneSeq, `${where}: the editor's deciding tombstone`)
      // A folded unit is a target too: its removal rewrites the summary.
      assert.equal(unit.targetSeq, fate.state === 'current' || fate.state === 'folded' ? fate.actingSeq : null, `${where}: the editor's target`)
    }
    if (fate.state === 'current') assert.equal(chat.actingSeqs.get(anchor.key) ?? anchor.seq, fate.actingSeq, `${where}: the chat acts on the node standing for it`)
    if (fate.state === 'removed') seen.removedRows++
    if (fate.state === 'excluded') seen.excludedRows++
    if (fate.state === 'folded') seen.folded++
    const first = fates.shadowerOf(fate.actingSeq)
    if (fate.state === 'removed' && first !== null && first !== fate.tombstoneSeq && fates.tombstone(first)?.action === 'exclude') seen.absorbedExclusion++
    if (fate.actingSeq !== anchor.seq && fates.restores.some((r) => r.seq === fate.actingSeq)) seen.restored++
    if (fate.state === 'removed' && fate.actingSeq !== anchor.seq && events[fate.actingSeq]!.type === 'tool/result') seen.prunedThenRemoved++
  }

  // Tombstones: inspect, explain-session, the panel and the fate reader agree; restore in place is one answer.
  const inspected = summarizeLive(session, lookup).tombstones
  const explained = explainSession(events).tombstones
  const panel = removalEntries(selectReplacements(harness.snapshot), harness.snapshot.chat)
  assert.deepEqual(inspected.map((t) => t.seq), fates.tombstones.map((t) => t.seq))
  for (const tombstone of fates.tombstones) {
    const status = fates.statusOf(tombstone.seq)!
    const where = `tombstone ${tombstone.seq} (${tombstone.action})`
    const fromInspect = inspected.find((t) => t.seq === tombstone.seq)!
    const fromExplain = explained.find((t) => t.seq === tombstone.seq)!
    const fromPanel = panel.find((e) => e.tombstoneSeq === tombstone.seq)!
    assert.deepEqual([fromInspect.inEffect, fromInspect.restoredBy], [status.inEffect, status.restoredBy], `${where}: inspect`)
    assert.equal(fromInspect.onSurface, status.shadowedBy === null, `${where}: on the rc.8 surface exactly when nothing shadows it`)
    assert.deepEqual([fromExplain.inEffect, fromExplain.restoredBy, fromExplain.shadowedBy], [status.inEffect, status.restoredBy, status.shadowedBy], `${where}: explain-session`)
    assert.deepEqual([fromPanel.inEffect, fromPanel.restoredBy], [status.inEffect, status.restoredBy], `${where}: the panel`)

    const host = planRestore({ nodes, lookup, tombstoneSeq: tombstone.seq }).ok
    if (host) seen.restorable++
    assert.equal(fates.canRestore(tombstone.seq, kindOf), host, `${where}: the fate reader's rule and the host's planner`)
    assert.equal(fromPanel.canRestore, host, `${where}: the panel offers Restore`)
    const editorRestores = units.some((u) => u.tombstoneSeq === tombstone.seq && u.restorable)
    assert.equal(editorRestores, host, `${where}: the editor offers Restore`)
    if (fates.shadowerOf(tombstone.seq) === null) {
      assert.equal(restorableInPlace({ action: tombstone.action, nodeKinds: tombstone.shadowedSeqs.map(kindOf) }), host, `${where}: the undo notice offers Undo`)
    }
    for (const row of chat.excluded.filter((x) => x.tombstoneSeq === tombstone.seq)) {
      const anchor = anchors.find((a) => a.key === row.key)!
      assert.equal(offerOf(anchor, chat).actions.includes('restore'), host, `${where}: the excluded row ${row.key} offers Restore`)
    }
  }
}
