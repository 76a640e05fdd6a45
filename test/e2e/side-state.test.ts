/**
 * End to end, in the real rc.8 web host and headless Chromium: the Trajectory tab marks a removed
 * prompt (its content hidden until "Show removed content" is clicked, the row naming Delete and
 * the time); deleting the step that created a goal clears the goal bar and keeps the objective
 * out of the next model request; deleting the step that wrote the to-do list hides the To-dos
 * strip at once. The tests run in order and build on each other.
 */
import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { after, before, describe } from 'node:test'
import type { Page } from 'puppeteer-core'
import { listSessions } from '../../tools/dsh-api'
import { readTombstone } from '../../src/shared/tombstone'
import { markTime } from '../../src/client/trajectory/trajectory-marks'
import { INSPECTOR_SELECTOR } from '../../src/client/trajectory/trajectory-rc8'
import { bootE2e, eventsOnDisk, sequentialScenarios, type E2e } from './harness'
import { clickAction, clickText, findRow, rows, rowSelector, sendPrompt, startTurns, waitArmed, waitForChatText, waitInPage, waitRowHidden } from './ui'
import { assertWire, lastRequest } from './wire-checks'

const TITLE = 'Heron canary chat'
const CANARY = 'ZEPHYR-314'
const P1 = `Remember the ${CANARY} phrase for later.`
const A1 = 'I will keep it in mind.'
const P2 = 'What is the weather like on Mars?'
const A2 = 'Cold and dusty.'
const OBJECTIVE = 'Finish the PELICAN-77 inventory'
const P3 = 'Make the inventory a goal.'

let e: E2e
let page: Page
let sessionId = ''

const scenario = sequentialScenarios(() => e)

/** Press a row button twice (arm, then commit). */
async function armAndCommit(key: string, action: 'delete' | 'exclude' = 'delete'): Promise<void> {
  await clickAction(page, key, action as 'delete')
  await waitArmed(page, key, action)
  await clickAction(page, key, action as 'delete')
}

/** The `goal` row of DSH's persisted projection cache for the session (`storages/session_projcache.json`). */
function cachedGoal(): { seq: number; val: unknown } | undefined {
  try {
    const file = JSON.parse(readFileSync(join(e.home, 'storages', 'session_projcache.json'), 'utf8'))
    return file?.tables?.sessions?.[sessionId]?.rows?.goal
  } catch {
    return undefined
  }
}

/** Wait, polling the file, until `predicate` holds for the cached goal row. */
async function waitCachedGoal(label: string, predicate: (row: { seq: number; val: unknown } | undefined) => boolean): Promise<void> {
  const deadline = Date.now() + 30_000
  while (!predicate(cachedGoal())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for the projection cache: ${label}; last row ${JSON.stringify(cachedGoal())}`)
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
}

/** The page's visible text. */
function visibleText(): Promise<string> {
  return page.evaluate(() => document.body.innerText)
}

describe('side state and the Trajectory tab in the real DSH web UI', { timeout: 1_200_000 }, () => {
  before(async () => {
    e = await bootE2e('side-state', { title: TITLE })
    page = await e.newPage()
  }, { timeout: 600_000 })

  after(async () => {
    await e?.close()
  })

  scenario('1. Delete a canary prompt and exclude another; the Trajectory tab hides the canary until "Show removed content" is clicked and says the other is not sent', async () => {
    e.model.script([{ text: A1 }, { text: A2 }])
    await startTurns(page, e.url, e.workspace, [P1, P2])
    sessionId = (await listSessions(e.url))[0]!.sessionId
    const prompt = await findRow(page, 'user', P1)
    await armAndCommit(prompt.key)
    await waitRowHidden(page, prompt.key)
    const events = await eventsOnDisk(e.home, sessionId)
    const tombstone = events.map(readTombstone).find((t) => t !== null)!
    const tombstoneEvent = events[tombstone.seq]!
    const canarySeq = tombstone.shadowedSeqs[0]!
    const label = `Removed by Delete · ${markTime(tombstoneEvent.time)}`
    const second = await findRow(page, 'user', P2)
    await armAndCommit(second.key, 'exclude')
    await waitInPage(page, 'the second prompt excluded', new Function(`return !!document.querySelector(${JSON.stringify(`${rowSelector(second.key)}[data-message-recall-excluded]`)})`) as () => boolean)
    const exclusion = (await eventsOnDisk(e.home, sessionId)).map(readTombstone).filter((t) => t !== null).at(-1)!
    assert.equal(exclusion.action, 'exclude')

    assert.ok(await clickText(page, ['Trajectory']), 'the Trajectory tab button')
    const canaryRow = `tr[data-trajectory-row-key="${encodeURIComponent(`user\u0000seq\u0000${canarySeq}`)}"]`
    await waitInPage(page, 'the canary row in the Trajectory tab', new Function(`return !!document.querySelector(${JSON.stringify(canaryRow)})`) as () => boolean)
    await waitInPage(page, 'the row of the second prompt', () => document.body.innerText.includes('What is the weather like on Mars?'))
    assert.equal((await visibleText()).includes(CANARY), false, 'the canary is nowhere on screen')
    const row = await page.$eval(canaryRow, (tr) => ({
      label: getComputedStyle(tr.lastElementChild!, '::after').content,
      aria: tr.getAttribute('aria-label'),
    }))
    assert.deepEqual(row, { label: JSON.stringify(label), aria: label })
    const excludedRow = `tr[data-trajectory-row-key="${encodeURIComponent(`user\u0000seq\u0000${exclusion.shadowedSeqs[0]}`)}"]`
    assert.equal(await page.$eval(excludedRow, (tr) => getComputedStyle(tr.lastElementChild!, '::after').content), JSON.stringify('Excluded · not sent to the model'))
    await e.shot(page, '01-trajectory-marked')

    await page.click(canaryRow)
    await waitInPage(page, 'the inspector notice', new Function(`return !!document.querySelector(${JSON.stringify(`${INSPECTOR_SELECTOR} [data-message-recall-notice] button`)})`) as () => boolean)
    const notice = await page.$eval(`${INSPECTOR_SELECTOR} [data-message-recall-notice]`, (el) => ({ text: el.querySelector('p')!.textContent, button: el.querySelector('button')!.textContent, tag: el.querySelector('button')!.tagName }))
    assert.deepEqual(notice, { text: `Removed by Delete at ${markTime(tombstoneEvent.time)}. Its content is hidden.`, button: 'Show removed content', tag: 'BUTTON' })
    assert.equal((await visibleText()).includes(CANARY), false, 'the inspector does not show the canary before the click')
    await e.shot(page, '01-inspector-masked')

    await page.click(`${INSPECTOR_SELECTOR} [data-message-recall-notice] button`)
    await waitInPage(page, 'the canary in the inspector after the click', new Function(`return document.querySelector(${JSON.stringify(INSPECTOR_SELECTOR)}).innerText.includes(${JSON.stringify(CANARY)})`) as () => boolean)
    assert.equal(await page.$eval(`${INSPECTOR_SELECTOR} [data-message-recall-notice]`, (el) => el.querySelector('button') === null), true, 'the button is gone once clicked')
    await e.shot(page, '01-inspector-shown')
    assert.ok(await clickText(page, ['Chat']), 'back to the Chat tab')
    await waitForChatText(page, A2)
  })

  scenario('2. Delete the step that created a goal: the goal bar clears and the next request has no goal round with the objective', async () => {
    e.model.script([
      { toolCalls: [{ name: 'create_goal', arguments: { objective: OBJECTIVE, max_goal_rounds: 1 } }] },
      { text: 'The inventory is now a goal.' },
      { text: 'Round one counted the shelves.' },
    ])
    await sendPrompt(page, P3)
    await waitForChatText(page, 'Round one counted the shelves.', 60_000)
    await waitInPage(page, 'the goal bar with the objective', () => document.body.innerText.includes('PELICAN-77'))
    await waitCachedGoal('the goal cached', (row) => JSON.stringify(row?.val ?? null).includes('PELICAN-77'))
    const before = e.model.requests.length
    const step = await findRow(page, 'tool-call', 'goal')
    await armAndCommit(step.key)
    await waitRowHidden(page, step.key)
    await waitInPage(page, 'no objective on screen', () => !document.body.innerText.includes('PELICAN-77'))
    await e.shot(page, '02-goal-cleared')
    const events = await eventsOnDisk(e.home, sessionId)
    const clear = events.filter((ev) => (ev.type as string) === 'goal/change').at(-1)!
    assert.equal((clear.data as { operation: string }).operation, 'clear')
    await waitCachedGoal('the cleared goal cached', (row) => row !== undefined && row.val === null && row.seq >= clear.seq)

    e.model.script([{ text: 'Nothing is pending.' }])
    await sendPrompt(page, 'Anything pending?')
    await waitForChatText(page, 'Nothing is pending.')
    assert.equal(e.model.requests.length, before + 1, 'no goal round ran after the removal')
    assertWire(lastRequest(e.model), { present: ['Anything pending?'], absent: ['PELICAN-77'] })
  })

  scenario('3. Delete the step that wrote the to-do list: the To-dos strip goes at once, and the next turn shows none', async () => {
    e.model.script([
      { toolCalls: [{ name: 'todo_write', arguments: { todos: [{ content: 'Count the OSPREY-5 crates', status: 'in_progress' }] } }] },
      { text: 'The list is ready.' },
    ])
    await sendPrompt(page, 'Plan the crate count.')
    await waitForChatText(page, 'The list is ready.')
    const stripShown = () => { const el = document.querySelector('[data-testid="todo-panel"]'); return el !== null && el.getClientRects().length > 0 }
    await waitInPage(page, 'the To-dos strip', stripShown)
    await e.shot(page, '03-todos-before')
    const step = (await rows(page)).filter((r) => r.kind === 'tool-call').at(-1)!
    await armAndCommit(step.key)
    await waitRowHidden(page, step.key)
    await waitInPage(page, 'the To-dos strip hidden', () => { const el = document.querySelector('[data-testid="todo-panel"]'); return el === null || el.getClientRects().length === 0 })
    assert.equal((await visibleText()).includes('OSPREY-5'), false, 'the to-do text is nowhere on screen')
    await e.shot(page, '03-todos-hidden')

    e.model.script([{ text: 'Counting now.' }])
    await sendPrompt(page, 'Go on.')
    await waitForChatText(page, 'Counting now.')
    assert.equal(await page.evaluate(() => document.querySelector('[data-testid="todo-panel"]') === null), true, 'the next turn cleared the list')
    assert.equal(await page.evaluate(() => document.querySelector('style[data-message-recall-todos]')!.textContent), '', 'nothing left hidden')
  })
})
