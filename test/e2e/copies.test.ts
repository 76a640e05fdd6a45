/**
 * End to end, in the real rc.8 web host and headless Chromium: copies DSH makes of a conversation
 * inherit its removals.
 * 1. A subagent fork (`subagent_fork`, `dsh-subagent-fork-in-process`) in the first turn after
 *    deleting a canary prompt: no captured request, parent or child, holds the canary; the child's
 *    log carries its own tombstone and its transcript, opened from the subagent list, does not
 *    show it.
 * 2. Branch (the turn bar's "Branch into a new conversation", `dsh-host-apiproxy` `sessions.fork`)
 *    from the turn before the removal: the branch does not show the canary and does not send it.
 * 3. The same Branch after a host restart and a reload: no frame shows the canary, the branch carries
 *    its own tombstone and does not send it. (Opening the session in the page makes it live in the
 *    host again, so this Branch, like the first, is of a live source; the path for a source that
 *    is only stored is covered in `test/host/copies-inherit.test.ts`.)
 * In 2 and 3 a watcher counts every animation frame, from the click on Branch until the branch is on
 * screen, in which a row on screen shows the canary: none may.
 * The scenarios run in order and build on each other.
 */
import assert from 'node:assert/strict'
import { after, before, describe } from 'node:test'
import type { Page } from 'puppeteer-core'
import { listSessions, rpc } from '../../tools/dsh-api'
import { readTombstone } from '../../src/shared/tombstone'
import { bootE2e, describeRequests, eventsOnDisk, sequentialScenarios, type E2e } from './harness'
import { openExactSidebarEntry } from './removals-ui'
import { branchWatching, chooseWorkspace, clickAction, exchangeTurns, findRow, oneTurnWire, openApp, rows, sendPrompt, waitArmed, waitForChatText, waitForTurnBars, waitRowHidden } from './ui'

const TITLE = 'Heron copies chat'
const CANARY = 'CANARY-KESTREL-5521'
const P1 = `Remember the vault code ${CANARY} for later.`
const A1 = 'Understood, I will keep it in mind.'
const P2 = 'Now tell me about the harbour schedule.'
const A2 = 'The harbour opens at six.'
const P3 = 'Fork a helper to list what we covered.'
const FORK_TASK = 'FORK-TASK: list the topics of this conversation.'
const CHILD_ANSWER = 'Child: we covered the harbour schedule.'
const PARENT_ANSWER = 'The helper listed the harbour schedule.'
const P_BRANCH = 'In this branch, what did we discuss?'
const A_BRANCH = 'Branch answer: only the first exchange.'

let e: E2e
let page: Page
let sessionId = ''
let childId = ''
const scenario = sequentialScenarios(() => e)

/** Wait until the plugin's browser half follows session `id`. */
async function followed(id: string): Promise<void> {
  await page.waitForFunction((want) => (window as any).__DSH_MESSAGE_RECALL__?.snapshot()?.sessionId === want, { timeout: 30_000, polling: 100 }, id)
}

/** Rows on screen whose text holds the canary. */
async function canaryRowsShown(): Promise<string[]> {
  return (await rows(page)).filter((r) => r.shown && r.text.includes(CANARY)).map((r) => `${r.kind}:${r.key}`)
}

/**
 * Click Branch on the first turn's bar of the open session, wait for the page to open the branch,
 * and check it: the canary not shown, one tombstone in its log, then a prompt whose request lacks
 * the canary.
 */
async function branchFromFirstTurn(shot: string): Promise<void> {
  const a1 = (await findRow(page, 'assistant-step', A1)).key
  const { branchId, frames } = await branchWatching(page, e.url, a1, CANARY, A1, 'the first turn bar')
  assert.equal(frames, 0, 'no frame showed the canary, from the click to the branch on screen')
  assert.deepEqual(await canaryRowsShown(), [], 'the branch does not show the canary')
  assert.equal((await rows(page)).some((r) => r.shown && r.text.includes(P2)), false, 'the branch is cut after the first turn')
  await e.shot(page, shot)

  const header = (await rpc(e.url, 'session.list', {})).items.find((s: { sessionId: string }) => s.sessionId === branchId)
  assert.equal(header?.parentSessionId, sessionId)
  const onDisk = async () => (await eventsOnDisk(e.home, branchId)).map((ev) => readTombstone(ev)).filter((t) => t !== null).length
  for (const deadline = Date.now() + 10_000; (await onDisk()) === 0 && Date.now() < deadline;) await new Promise((resolve) => setImmediate(resolve))
  assert.equal(await onDisk(), 1, 'the branch carries its own tombstone, saved')

  const wire = await oneTurnWire(page, e.model, P_BRANCH, A_BRANCH)
  assert.ok(!wire.includes(CANARY), 'the branch does not send the canary')
  assert.ok(wire.includes(P_BRANCH) && wire.includes(A1), 'the branch sends its own conversation')
}

describe('copies inherit removals in the real DSH web UI', { timeout: 1_200_000 }, () => {
  before(async () => {
    e = await bootE2e('copies', { title: TITLE })
    page = await e.newPage()
  }, { timeout: 600_000 })
  after(async () => {
    await e?.close()
  })

  scenario('1. a subagent fork in the first turn after deleting a canary prompt neither sends nor shows it', async () => {
    e.model.script([{ text: A1 }, { text: A2 }])
    await openApp(page, e.url)
    await chooseWorkspace(page, e.workspace)
    await exchangeTurns(page, [[P1, A1], [P2, A2]])
    const sessions = await listSessions(e.url)
    assert.equal(sessions.length, 1)
    sessionId = sessions[0]!.sessionId
    await followed(sessionId)

    const p1 = (await findRow(page, 'user', CANARY)).key
    await clickAction(page, p1, 'delete')
    assert.equal((await waitArmed(page, p1, 'delete')).text, 'Delete 1?')
    await clickAction(page, p1, 'delete')
    await waitRowHidden(page, p1)
    assert.deepEqual(await canaryRowsShown(), [])

    const from = e.model.requests.length
    e.model.script([
      { toolCall: { name: 'subagent_fork', arguments: { description: 'list the topics', prompt: FORK_TASK, run_in_background: false } } },
      { text: CHILD_ANSWER },
      { text: PARENT_ANSWER },
    ])
    await sendPrompt(page, P3)
    await waitForChatText(page, PARENT_ANSWER)
    await waitForTurnBars(page, 3)

    const since = e.model.requests.slice(from).filter((r) => r.kind === 'turn')
    assert.equal(since.length, 3, describeRequests(since))
    const leaking = since.filter((r) => JSON.stringify(r.body.messages).includes(CANARY)).map((r) => r.index)
    assert.deepEqual(leaking, [], 'no request after the deletion, parent or child, holds the canary')
    const childRequest = since.find((r) => JSON.stringify(r.body.messages).includes(FORK_TASK))
    assert.ok(childRequest, 'the child made a request')
    assert.match(JSON.stringify(childRequest.body.messages), /harbour schedule/, 'the child inherits the conversation')

    const listed = (await rpc(e.url, 'session.list', {})).items as Array<{ sessionId: string; parentSessionId?: string; origin?: string }>
    const child = listed.find((s) => s.parentSessionId === sessionId && s.origin === 'subagent')
    assert.ok(child, 'the fork is listed as a subagent of the session')
    childId = child.sessionId
    const childLog = await eventsOnDisk(e.home, childId)
    const inherited = childLog.map((ev) => readTombstone(ev)).filter((t) => t !== null)
    const original = (await eventsOnDisk(e.home, sessionId)).map((ev) => readTombstone(ev)).filter((t) => t !== null)
    assert.equal(original.length, 1)
    assert.deepEqual(inherited.map((t) => [t.action, t.shadowedSeqs]), [['delete', original[0]!.shadowedSeqs]], 'the child carries its own tombstone over the same prompt')

    // The child's transcript, opened from the session's subagent list.
    await page.click('button[aria-haspopup="tree"][aria-label="1 subagent"]')
    // The catalog re-renders as it loads: click its entry once it is there.
    await page.waitForFunction(() => {
      const entry = document.querySelector<HTMLElement>('[role=tree][aria-label="Subagent sessions"] [role=treeitem][aria-label^="list the topics"]')
      entry?.click()
      return entry !== null
    }, { timeout: 15_000, polling: 100 })
    await followed(childId)
    await waitForChatText(page, CHILD_ANSWER)
    assert.deepEqual(await canaryRowsShown(), [], "the child's transcript does not show the canary")
    await e.shot(page, '01-fork-child')
  })

  scenario('2. Branch from the turn before the deletion: the branch neither shows nor sends the canary', async () => {
    // The session was retitled from its first remaining prompt when the canary prompt went.
    await openApp(page, e.url)
    await openExactSidebarEntry(page, 'Now tell me about the')
    await followed(sessionId)
    await waitForChatText(page, PARENT_ANSWER)

    await branchFromFirstTurn('02-branch')
  })

  scenario('3. after a host restart and a reload: a Branch from the same turn neither shows nor sends the canary', async () => {
    await e.restartHost()
    await openApp(page, e.url)
    await openExactSidebarEntry(page, 'Now tell me about the')
    await followed(sessionId)
    await waitForChatText(page, PARENT_ANSWER)
    await branchFromFirstTurn('03-branch-of-stored')
  })
})
