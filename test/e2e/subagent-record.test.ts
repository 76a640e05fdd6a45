/**
 * End to end, in the real rc.8 web host and headless Chromium: the window of a one-shot subagent
 * record (a `subagent` tool call that waits for its result, `run_in_background: false`, runs the
 * child once through `dsh-subagent-in-process-driver`) shows DSH's read-only composer ("One-shot
 * subagent record", `dsh-client-ui-subagent` `SubagentReadOnlyComposer`), so nothing can be sent
 * from it: its prompt row offers no Recall, while Delete works there and acts on the child's own
 * session. The scenarios run in order and build on each other.
 */
import assert from 'node:assert/strict'
import { after, before, describe } from 'node:test'
import type { Page } from 'puppeteer-core'
import { createSession, prompt, rpc, waitForTurnEnds } from '../../tools/dsh-api'
import { en } from '../../src/client/text/locales'
import { readTombstone } from '../../src/shared/tombstone'
import { bootE2e, eventsOnDisk, sequentialScenarios, type E2e } from './harness'
import { openExactSidebarEntry } from './removals-ui'
import { clickAction, fill, findRow, hoverRow, openApp, waitArmed, waitForChatText, waitInPage, waitRowHidden } from './ui'

const TITLE = 'Subagent record chat'
const P1 = 'Ask a helper to count the notes.'
const TASK = 'HELPER-TASK: count the notes in the workspace.'
const CHILD_ANSWER = 'Helper: there is one notes file.'
const PARENT_ANSWER = 'The helper counted one notes file.'

let e: E2e
let page: Page
let sessionId = ''
let childId = ''
const scenario = sequentialScenarios(() => e)

describe('a one-shot subagent record offers no Recall in the real web UI', { timeout: 1_200_000 }, () => {
  before(async () => {
    e = await bootE2e('subagent-record', { title: TITLE })
    page = await e.newPage()
  }, { timeout: 600_000 })

  after(async () => {
    await e?.close()
  })

  scenario('1. a turn whose subagent call waits for its result leaves a one-shot child', async () => {
    e.model.script([
      { toolCall: { name: 'subagent', arguments: { description: 'count the notes', prompt: TASK, run_in_background: false } } },
      { text: CHILD_ANSWER },
      { text: PARENT_ANSWER },
    ])
    sessionId = await createSession(e.url, e.workspace)
    await prompt(e.url, sessionId, P1)
    await waitForTurnEnds(e.url, sessionId, 1)
    await rpc(e.url, 'session.rename', { sessionId, title: TITLE })
    const listed = (await rpc(e.url, 'session.list', {})).items as Array<{ sessionId: string; parentSessionId?: string; origin?: string }>
    const child = listed.find((s) => s.parentSessionId === sessionId && s.origin === 'subagent')
    assert.ok(child, 'the child is listed as a subagent of the session')
    childId = child.sessionId
  })

  scenario('2. the child’s window: DSH’s one-shot read-only composer, and its prompt row offers Delete, Delete onward and Exclude, not Recall', async () => {
    await openApp(page, e.url)
    await openExactSidebarEntry(page, TITLE)
    await waitForChatText(page, PARENT_ANSWER)
    await page.click('button[aria-haspopup="tree"][aria-label="1 subagent"]')
    // The catalog re-renders as it loads: click its entry once it is there.
    await page.waitForFunction(() => {
      const entry = document.querySelector<HTMLElement>('[role=tree][aria-label="Subagent sessions"] [role=treeitem][aria-label^="count the notes"]')
      entry?.click()
      return entry !== null
    }, { timeout: 15_000, polling: 100 })
    await page.waitForFunction((want) => (window as any).__DSH_MESSAGE_RECALL__?.snapshot()?.sessionId === want, { timeout: 30_000, polling: 100 }, childId)
    await waitForChatText(page, CHILD_ANSWER)
    // dsh-client-ui-subagent's English dictionary: readonly.oneShot.title and readonly.oneShot.body.
    await waitInPage(page, 'the one-shot read-only composer', () => [...document.querySelectorAll<HTMLElement>('[role=status]')]
      .some((el) => el.offsetParent !== null && (el.innerText || '').includes('One-shot subagent record')), 15_000)
    const status = await page.evaluate(() => [...document.querySelectorAll<HTMLElement>('[role=status]')]
      .filter((el) => el.offsetParent !== null && (el.innerText || '').includes('One-shot subagent record'))
      .map((el) => (el.innerText || '').replace(/\s+/g, ' ').trim()))
    assert.deepEqual(status, ['One-shot subagent record One-shot tasks do not accept follow-ups; review the full execution record here.'])
    const composers = await page.$$eval('textarea', (els) => els.filter((el) => (el as HTMLElement).offsetParent !== null).length)
    assert.equal(composers, 0, 'the window shows no composer')

    const task = await findRow(page, 'user', TASK)
    const cluster = await hoverRow(page, task.key)
    assert.equal(cluster.visible, true, 'the prompt row shows its buttons on hover')
    assert.deepEqual(cluster.buttons.map((b) => [b.action, b.text, b.label]), [
      ['delete', en['action.delete'], en['label.delete.message']],
      ['deleteFrom', en['action.deleteFrom'], en['label.deleteFrom']],
      ['exclude', en['action.exclude'], en['label.exclude']],
    ], 'no Recall: its text would have no composer to go to')
    await e.shot(page, '02-one-shot-record')
  })

  scenario('3. Delete on the child’s prompt row: the row goes, and the tombstone is in the child’s own log', async () => {
    const task = (await findRow(page, 'user', TASK)).key
    await clickAction(page, task, 'delete')
    assert.equal((await waitArmed(page, task, 'delete')).text, fill(en['armed.delete'], { count: 1 }))
    await clickAction(page, task, 'delete')
    await waitRowHidden(page, task)
    const tombstones = async (id: string) => (await eventsOnDisk(e.home, id)).map((ev) => readTombstone(ev)).filter((t) => t !== null)
    for (const deadline = Date.now() + 10_000; (await tombstones(childId)).length === 0 && Date.now() < deadline;) await new Promise((resolve) => setImmediate(resolve))
    assert.deepEqual((await tombstones(childId)).map((t) => t.action), ['delete'], 'the child’s log carries the tombstone')
    assert.deepEqual(await tombstones(sessionId), [], 'the parent’s log carries none')
  })
})
