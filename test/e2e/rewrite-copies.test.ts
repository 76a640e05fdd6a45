/**
 * End to end, in the real rc.8 web host and headless Chromium: a Branch made from a turn between a
 * compaction and the summary rewrite that removed a canary prompt from it.
 * 1. Two turns (the first prompt holds a canary), `/compact` (the mock summary repeats the canary),
 *    a third and a fourth turn, then Delete of the folded canary prompt from its row (the summary
 *    rewritten without it), then a fifth turn.
 * 2. Branch from the third turn (`dsh-host-apiproxy` `sessions.fork`, cut at the fourth turn's
 *    start: the earlier summary is in the copied part, the rewrite, written after the fourth turn,
 *    is not; a rewrite between the third and the fourth turn would be): no animation frame from
 *    the click to the branch on screen shows the canary, the branch's log carries the inherited
 *    summary (saved), and its first model request reads the rewritten summary without the canary.
 */
import assert from 'node:assert/strict'
import { after, before, describe } from 'node:test'
import type { Page } from 'puppeteer-core'
import { listSessions } from '../../tools/dsh-api'
import { bootE2e, eventsOnDisk, sequentialScenarios, type E2e } from './harness'
import { branchWatching, clickAction, findRow, hoverRow, oneTurnWire, rows, sendPrompt, startTurns, waitArmed, waitForTurnBars, waitRowHidden } from './ui'

const TITLE = 'Rewrite copies chat'
const CANARY = 'CANARY-OSPREY-7342'
const FILLER = ' Keep every detail of this request in mind for the rest of the work, including the names, the numbers and the order of the steps.'
const P1 = `Write down the secret code word ${CANARY} for later.${FILLER}`
const A1 = `Noted: the code word is recorded.${FILLER}`
const P2 = `Now list the three launch steps in order.${FILLER}`
const A2 = `First test, then stage, then ship.${FILLER}`
const SUMMARY = `The user gave the code word ${CANARY} and asked for launch steps.`
const SUMMARY2 = 'The user asked for the three launch steps in order.'
const P3 = 'Which launch step comes second?'
const A3 = 'Staging comes second.'
const P4 = 'Which launch step comes last?'
const A4 = 'Shipping comes last.'
const P5 = 'How many launch steps are there?'
const A5 = 'There are three.'
const P_BRANCH = 'In this branch, which step comes first?'
const A_BRANCH = 'Branch answer: testing comes first.'

let e: E2e
let page: Page
let sessionId = ''
const scenario = sequentialScenarios(() => e)

/** Wait until the plugin's browser half follows session `id`. */
async function followed(id: string): Promise<void> {
  await page.waitForFunction((want) => (window as any).__DSH_MESSAGE_RECALL__?.snapshot()?.sessionId === want, { timeout: 30_000, polling: 100 }, id)
}

/** Poll the session's log on disk until `done` holds. */
async function untilOnDisk(id: string, done: (events: Awaited<ReturnType<typeof eventsOnDisk>>) => boolean): Promise<Awaited<ReturnType<typeof eventsOnDisk>>> {
  const deadline = Date.now() + 60_000
  for (;;) {
    const events = await eventsOnDisk(e.home, id)
    if (done(events) || Date.now() > deadline) return events
    await page.waitForNetworkIdle({ idleTime: 200, timeout: 5_000 }).catch(() => {})
  }
}

describe('a Branch from before a summary rewrite in the real DSH web UI', { timeout: 900_000 }, () => {
  before(async () => {
    e = await bootE2e('rewrite-copies', { title: TITLE })
    page = await e.newPage()
  }, { timeout: 600_000 })
  after(async () => {
    await e?.close()
  })

  scenario('1. a compaction, two turns, then the canary prompt deleted from the summary, then another turn', async () => {
    e.model.script([{ text: A1 }, { text: A2 }, { text: SUMMARY }])
    await startTurns(page, e.url, e.workspace, [P1, P2])
    sessionId = (await listSessions(e.url))[0]!.sessionId
    await followed(sessionId)
    await sendPrompt(page, '/compact')
    const compacted = await untilOnDisk(sessionId, (events) => events.some((ev) => ev.type === 'compaction/end' && (ev.data as { error?: unknown }).error === undefined))
    assert.equal(JSON.stringify(compacted.find((ev) => ev.type === 'compaction/summary')?.data).includes(CANARY), true, 'the summary holds the canary')

    e.model.script([{ text: A3 }, { text: A4 }])
    await sendPrompt(page, P3)
    await waitForTurnBars(page, 3)
    await sendPrompt(page, P4)
    await waitForTurnBars(page, 4)

    const row = await findRow(page, 'user', CANARY)
    e.model.script([{ text: SUMMARY2 }])
    await hoverRow(page, row.key)
    await clickAction(page, row.key, 'delete')
    await waitArmed(page, row.key, 'delete')
    await clickAction(page, row.key, 'delete')
    await waitRowHidden(page, row.key, 60_000)

    e.model.script([{ text: A5 }])
    await sendPrompt(page, P5)
    await waitForTurnBars(page, 5)
    assert.equal(JSON.stringify(e.model.requests.at(-1)!.body.messages).includes(CANARY), false)
    await e.shot(page, '01-rewritten')
  })

  scenario('2. Branch from the third turn: no frame shows the canary, the branch reads the rewritten summary', async () => {
    const a3 = (await findRow(page, 'assistant-step', A3)).key
    const { branchId, frames } = await branchWatching(page, e.url, a3, CANARY, A3, "the third turn's bar")
    assert.equal(frames, 0, 'no frame showed the canary, from the click to the branch on screen')
    assert.deepEqual((await rows(page)).filter((r) => r.shown && r.text.includes(CANARY)).map((r) => r.key), [])
    assert.equal((await rows(page)).some((r) => r.shown && r.text.includes(A4)), false, 'the branch is cut after the third turn')
    await e.shot(page, '02-branch')

    const isInherited = (ev: { type: string; data: unknown }) => ev.type === 'compaction/summary' && (ev.data as { model?: string }).model === 'inherited'
    const log = await untilOnDisk(branchId, (events) => events.some(isInherited))
    const inherited = log.filter(isInherited)
    assert.equal(inherited.length, 1, "the branch's log carries the inherited summary, saved")
    assert.equal(JSON.stringify(inherited[0]!.data).includes(SUMMARY2), true)

    const wire = await oneTurnWire(page, e.model, P_BRANCH, A_BRANCH)
    assert.equal(wire.includes(CANARY), false, 'the branch does not send the canary')
    assert.equal(wire.includes(SUMMARY2) && wire.includes(P3) && wire.includes(P_BRANCH), true, 'it sends the rewritten summary, the third turn and its own prompt')
  })
})
