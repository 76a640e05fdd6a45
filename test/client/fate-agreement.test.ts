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
import { replacementDefinition, replacementView } from '../../src/client/wire/replacement-view'
import type { LogEvent } from '../../src/shared/events'
import { buildLog, fateExtra, turnShape } from '../host/random-logs'
import { bootClient, type BootedClient } from './support/page'
import { assertFatesAgree, noSituations } from './support/fate-check'

/** How often each situation occurred over all runs, so the property is not met vacuously. */
const seen = noSituations()

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
        runs++
        assertFatesAgree(client, b.events as readonly LogEvent[], seen)
      },
    ), { numRuns: 300 })
    // The generator reached every situation the rules tell apart.
    console.log(`situations over ${runs} logs: ${JSON.stringify(seen)}`)
    for (const [situation, count] of Object.entries(seen)) assert.ok(count > 0, `${situation} occurred (${JSON.stringify(seen)})`)
  })
})
