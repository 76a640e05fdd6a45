/**
 * End to end, in the real rc.8 web host and headless Chromium: the chat and the conversation
 * editor give a message the same fate. A prompt is excluded, then Delete onward runs from the
 * answer before it; the Delete onward takes the exclusion with it, so the chat hides the prompt
 * and the editor lists it as removed, after a reload too.
 */
import assert from 'node:assert/strict'
import { after, before, describe } from 'node:test'
import type { Page } from 'puppeteer-core'
import { listSessions } from '../../tools/dsh-api'
import { readTombstone } from '../../src/shared/tombstone'
import { bootE2e, eventsOnDisk, sequentialScenarios, type E2e } from './harness'
import { findRow, openSessionFromSidebar, startTurns, waitForChatText, waitRowHidden } from './ui'
import { armAndCommit, readExcluded, waitRowExcluded } from './removals-ui'

const TITLE = 'Fate trial chat'
const P1 = 'Name the PELICAN checklist.'
const A1 = 'The PELICAN checklist has three items.'
const P2 = 'Add the HERON item to it.'
const A2 = 'The HERON item is added.'

let e: E2e
let page: Page
let sessionId = ''
const keys: Record<string, string> = {}
const scenario = sequentialScenarios(() => e)

/** The editor's units as the dialog shows them: text, state and state label. */
async function editorUnits(page: Page): Promise<{ text: string; state: string; label: string | null; restore: boolean }[]> {
  await page.click('[data-message-recall-edit]')
  await page.waitForSelector('[data-message-recall-editor] li[data-editor-unit]', { timeout: 30_000 })
  const units = await page.$$eval('[data-message-recall-editor] li[data-editor-unit]', (els) => els.map((el) => ({
    text: ((el.querySelector('[data-editor-rows]') as HTMLElement | null)?.innerText ?? '').replace(/\s+/g, ' ').trim(),
    state: el.getAttribute('data-editor-state') ?? '',
    label: el.querySelector('[data-editor-state-label]')?.textContent ?? null,
    restore: el.querySelector('[data-editor-restore]') !== null,
  })))
  await page.keyboard.press('Escape')
  await page.waitForFunction(() => document.querySelector('[data-message-recall-editor]') === null, { timeout: 10_000, polling: 100 })
  return units
}

describe('one fate for the chat and the editor in the real DSH web UI', { timeout: 900_000 }, () => {
  before(async () => {
    e = await bootE2e('one-fate', { title: TITLE })
    page = await e.newPage()
  }, { timeout: 600_000 })

  after(async () => {
    await e?.close()
  })

  scenario('1. two turns; the second prompt excluded, then Delete onward from the first answer', async () => {
    e.model.script([{ text: A1 }, { text: A2 }])
    await startTurns(page, e.url, e.workspace, [P1, P2])
    sessionId = (await listSessions(e.url))[0]!.sessionId
    keys.p1 = (await findRow(page, 'user', P1)).key
    keys.p2 = (await findRow(page, 'user', P2)).key
    keys.a1 = (await findRow(page, 'assistant-step', A1)).key

    assert.equal(await armAndCommit(page, keys.p2, 'exclude'), 'Exclude 1?')
    await waitRowExcluded(page, keys.p2)
    assert.equal(await armAndCommit(page, keys.a1, 'deleteFrom'), 'Delete 2 onward?')
    await waitRowHidden(page, keys.p2)
    assert.equal((await readExcluded(page, keys.p2)).excluded, false, 'no longer dimmed as excluded')
    await e.shot(page, '01-onward-over-exclusion')

    const tombstones = (await eventsOnDisk(e.home, sessionId)).map(readTombstone).filter((t) => t !== null)
    assert.deepEqual(tombstones.map((t) => t!.action), ['exclude', 'deleteFrom'])
    assert.equal(tombstones[1]!.shadowedSeqs.includes(tombstones[0]!.seq), true, 'the Delete onward took the exclusion')
  })

  scenario('2. the editor lists the prompt as removed, as the chat hides it; the same after a reload', async () => {
    const expected = [
      { text: `You ${P1}`, state: 'current', label: null, restore: false },
      { text: `Assistant ${A1}`, state: 'removed', label: 'Removed', restore: false },
      { text: `You ${P2}`, state: 'removed', label: 'Removed', restore: false },
      { text: `Assistant ${A2}`, state: 'removed', label: 'Removed', restore: false },
    ]
    assert.deepEqual(await editorUnits(page), expected)
    await e.shot(page, '02-editor')

    await page.reload()
    await openSessionFromSidebar(page, TITLE)
    await waitForChatText(page, P1)
    await waitRowHidden(page, keys.p2!)
    assert.deepEqual(await editorUnits(page), expected)
  })
})
