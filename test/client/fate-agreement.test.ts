/**
 * Every consumer of the fate reader gives every row the same fate: a property test over random
 * logs built through the real rc.8 `Session` (`test/host/random-logs.ts`: turns with tool calls,
 * steering and runtime context; removals, exclusions, restores, tool-result prunes and compaction
 * checkpoints after random turns). Per log:
 *
 * - the chat: the real rc.8 chat store (ui-conversation's Chat Definitions in the real conversation
 *   engine), its rows resolved by `rows.ts` and hidden or dimmed by `deriveHiddenRows`, and the
 *   offers of excluded rows (`row-offers.ts`);
 * - `explain-session --rows`: the rows rebuilt from the log (`log-rows.ts`), through the same rules;
 * - the editor: `buildEditorUnits` over the whole log;
 * - the Removed panel: `removalEntries` over the replacement view the real engine publishes and
 *   the chat store;
 * - `inspect`: `summarizeLive` on the Session; `explain-session`: `explainSession`;
 * - restore in place: the host's `planRestore`, the panel, the editor, the excluded row and the
 *   undo notice's rule.
 */
import './support/dom'
import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import fc from 'fast-check'
import { buildEditorUnits } from '../../src/client/editor/editor-model'
import { removalEntries } from '../../src/client/panel/removal-list'
import { replacementDefinition, replacementView, selectReplacements } from '../../src/client/wire/replacement-view'
import { offerOf } from '../../src/client/rows/row-offers'
import { resolveRow } from '../../src/client/rows/resolve-row'
import { restorableInPlace } from '../../src/client/notices/undo-notice'
import { summarizeLive } from '../../src/host/inspect'
import { planRestore } from '../../src/host/restore-plan'
import { transcriptRows } from '../../src/log/log-rows'
import { explainSession } from '../../src/log/session-explain'
import type { LogEvent } from '../../src/shared/events'
import { readFates, type FateState } from '../../src/shared/fate'
import { deriveHiddenRows, type HiddenRowsResult } from '../../src/shared/hidden-rows'
import { classifyNode } from '../../src/shared/surface-node'
import { buildLog, fateExtra, turnShape } from '../host/random-logs'
import { bootClient, type BootedClient } from './support/page'

/** What a row shows in the chat: hidden for a removed message, dimmed for an excluded one. */
type Shown = 'hidden' | 'excluded' | 'shown'
const SHOWN: Record<FateState, Shown> = { removed: 'hidden', excluded: 'excluded', current: 'shown', folded: 'shown' }

function chatShows(hidden: HiddenRowsResult, key: string): Shown {
  if (hidden.hidden.some((h) => h.key === key && h.reason === 'shadowed')) return 'hidden'
  return hidden.excludedKeys.has(key) ? 'excluded' : 'shown'
}

/** How often each situation occurred over all runs, so the property is not met vacuously. */
const seen = { absorbedExclusion: 0, restored: 0, prunedThenRemoved: 0, folded: 0, restorable: 0, removedRows: 0, excludedRows: 0 }

let client: BootedClient
let runs = 0

describe('one fate: every consumer agrees on random logs', () => {
  before(async () => {
    client = await bootClient()
    client.events.register(replacementDefinition)
    client.views.register(replacementView)
  })
  after(async () => {
    await client.dispose()
  })

  it('the chat, explain-session --rows, the editor, the panel, inspect, explain-session and restore planning give every row and tombstone the same fate', () => {
    fc.assert(fc.property(
      fc.array(turnShape, { minLength: 2, maxLength: 5 }),
      fc.array(fateExtra, { minLength: 2, maxLength: 12 }),
      (turns, extras) => {
        const b = buildLog(turns, extras)
        const events = b.events as readonly LogEvent[]
        const fates = readFates(events)
        const harness = client.session(`fate-${runs++}`)
        harness.load([...events])
        const anchors = harness.snapshot.chat.order.map((key) => resolveRow(harness.node(key)))
        const chat = deriveHiddenRows(events, anchors)
        const rebuilt = deriveHiddenRows(events, transcriptRows(events))
        const units = buildEditorUnits(events)
        const unitOf = new Map(units.flatMap((u) => u.rows.map((r) => [r.seq, u] as const)))
        const kindOf = (seq: number) => classifyNode(events[seq]!)
        const surface = new Set(b.nodes)

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
            assert.equal(unit.targetSeq, fate.state === 'current' ? fate.actingSeq : null, `${where}: the editor's target`)
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
        const inspected = summarizeLive(b.session, b.lookup).tombstones
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

          const host = planRestore({ nodes: b.nodes, lookup: b.lookup, tombstoneSeq: tombstone.seq }).ok
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
      },
    ), { numRuns: 300 })
    // The generator reached every situation the rules tell apart.
    console.log(`situations over ${runs} logs: ${JSON.stringify(seen)}`)
    for (const [situation, count] of Object.entries(seen)) assert.ok(count > 0, `${situation} occurred (${JSON.stringify(seen)})`)
  })
})
