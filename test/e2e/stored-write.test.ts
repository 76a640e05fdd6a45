/**
 * End to end, in the real rc.8 web host and headless Chromium: a write of this plugin to a session
 * that is only stored (not live in the host) leaves that session in an open page's sidebar.
 *
 * The plugin enters a stored session for the write and detaches it afterwards; the host turns the
 * detach into a "session removed" frame for every open page (`dsh-host-apiproxy`, the `host` live
 * stream on `session/disposed`), which the page's session list drops the entry on
 * (`dsh-client-runtime`, `SessionsManager.handleHostEnvelope`). The session is still stored, so the
 * page must keep listing it (its entry never leaves the sidebar, not even for one frame), open it
 * with the write applied, and list it after a reload.
 * A prompt the page sends while a write of this plugin holds the stored session is refused by DSH
 * (`cannot prepare session … while it is live`); the browser half sends it again, so the person
 * sees the prompt answered and never the refusal. The race is made certain: the session's log
 * takes no writes, so the plugin's write is applied but not saved and the plugin keeps holding the
 * session, and the page's second attempt is held back until Save again has let the session go.
 * The tests run in order and build on each other.
 */
import assert from 'node:assert/strict'
import { execFileSync } from 'node:child_process'
import { chmodSync } from 'node:fs'
import { basename, join } from 'node:path'
import { after, before, describe } from 'node:test'
import type { HTTPRequest, HTTPResponse, Page } from 'puppeteer-core'
import { createSession, findSessionDir, listSessions, prompt, rpc, waitForTurnEnds } from '../../tools/dsh-api'
import { bootE2e, eventsOnDisk, sequentialScenarios, type E2e } from './harness'
import { openExactSidebarEntry, sidebarTitles } from './removals-ui'
import {
  chooseWorkspace, exchangeTurns, findRow, openApp, rows, sendPrompt, waitForChatText, waitForTurnBars, waitInPage,
  waitRowHidden,
} from './ui'

const TITLE = 'Stored write chat'
const OTHER = 'Other open chat'
const P1 = 'Keep the PELICAN-4 note for later.'
const A1 = 'The PELICAN-4 note is kept.'
const P2 = 'Also keep the PUFFIN-8 note.'
const A2 = 'The PUFFIN-8 note is kept too.'
const P3 = 'A question in the other chat.'
const A3 = 'An answer in the other chat.'
const P4 = 'One more question in the other chat.'
const A4 = 'One more answer in the other chat.'
const P5 = 'A prompt sent while the write holds the session.'
const A5 = 'The held prompt got through.'

let e: E2e
let page: Page
let storedId = ''
let otherId = ''
const scenario = sequentialScenarios(() => e)

/** POST one request to the plugin's route; answers the parsed body after asserting 200. */
async function route(body: object): Promise<any> {
  const res = await fetch(`${e.url}/dsh-message-recall`, { method: 'POST', headers: { 'content-type': 'application/json', origin: e.url }, body: JSON.stringify(body) })
  const json = (await res.json()) as any
  assert.equal(res.status, 200, JSON.stringify(json))
  return json
}

/** POST one request to the plugin's route; answers the status and the parsed body. */
async function routeRaw(body: object): Promise<{ status: number; json: any }> {
  const res = await fetch(`${e.url}/dsh-message-recall`, { method: 'POST', headers: { 'content-type': 'application/json', origin: e.url }, body: JSON.stringify(body) })
  return { status: res.status, json: await res.json() }
}

/**
 * Make a session's stored log refuse writes (mode 0400; as root, which ignores the mode, immutable
 * with `chattr +i`, ext4), so a flush of it fails while reading it still works.
 * @returns puts the log back.
 */
function freezeSessionLog(home: string, sessionId: string): () => void {
  const dir = findSessionDir(home, sessionId)
  if (!dir) throw new Error(`no session folder for ${sessionId}`)
  const log = join(dir, 'session.jsonl.zstd')
  if (process.getuid?.() === 0) {
    execFileSync('chattr', ['+i', log])
    return () => execFileSync('chattr', ['-i', log])
  }
  chmodSync(log, 0o400)
  return () => chmodSync(log, 0o600)
}

/** Wait until the sidebar lists exactly the workspace folder and the sessions `titles` (in any order); fails naming what it lists. */
async function waitSidebar(p: Page, titles: readonly string[], label: string, timeoutMs = 15_000): Promise<void> {
  const want = [basename(e.workspace), ...titles].sort()
  const listed = await p.waitForFunction((w: string) => JSON.stringify([...document.querySelectorAll<HTMLElement>('[role=treeitem]')]
    .filter((el) => el.offsetParent !== null).map((el) => (el.innerText || '').trim().split('\n')[0] ?? '').sort()) === w,
  { timeout: timeoutMs, polling: 100 }, JSON.stringify(want)).then(() => true, () => false)
  if (!listed) assert.deepEqual((await sidebarTitles(p)).sort(), want, `${label}: the sidebar lists ${JSON.stringify(want)} within ${timeoutMs} ms`)
}

describe('a write to a stored session keeps it in the open page’s sidebar', { timeout: 1_200_000 }, () => {
  before(async () => {
    e = await bootE2e('stored-write', { title: TITLE })
    page = await e.newPage()
  }, { timeout: 600_000 })

  after(async () => {
    await e?.close()
  })

  scenario('1. a session with two turns made in the UI', async () => {
    e.model.script([{ text: A1 }, { text: A2 }])
    await openApp(page, e.url)
    await chooseWorkspace(page, e.workspace)
    await exchangeTurns(page, [[P1, A1], [P2, A2]])
    const sessions = await listSessions(e.url)
    assert.equal(sessions.length, 1)
    storedId = sessions[0]!.sessionId
  })

  scenario('2. the page opens another session, the host restarts: the first is listed, stored and not live', async () => {
    e.model.script([{ text: A3 }])
    otherId = await createSession(e.url, e.workspace)
    await prompt(e.url, otherId, P3)
    await waitForTurnEnds(e.url, otherId, 1)
    await rpc(e.url, 'session.rename', { sessionId: otherId, title: OTHER })
    await openApp(page, e.url)
    await openExactSidebarEntry(page, OTHER)
    await waitForChatText(page, A3)
    // The page shows the other session across the restart, so nothing resumes the first one.
    await e.restartHost()
    await openApp(page, e.url)
    await waitForChatText(page, A3)
    await waitSidebar(page, [OTHER, TITLE], 'before the write')
  })

  scenario('3. a delete of the stored session’s second prompt over HTTP: the sidebar still lists it, before and after the page’s next turn', async () => {
    const before = await eventsOnDisk(e.home, storedId)
    const p2 = before.find((ev) => ev.type === 'user/message' && JSON.stringify(ev.data).includes(P2))
    assert.ok(p2, 'the second prompt is on disk')
    // From here on, at every DOM change and every frame: is the stored session's entry in the
    // sidebar under its title? (A source string: the test's transform would name inner functions
    // with a helper the page lacks.)
    await page.evaluate(`(() => {
      window.__entryGone = []
      const check = (when) => {
        const listed = [...document.querySelectorAll('[role=treeitem]')].some((el) => el.offsetParent !== null && (el.innerText || '').trim().split('\\n')[0] === ${JSON.stringify(TITLE)})
        if (!listed) window.__entryGone.push(when + ': ' + [...document.querySelectorAll('[role=treeitem]')].filter((el) => el.offsetParent !== null).map((el) => (el.innerText || '').trim().split('\\n')[0]).join(' | '))
      }
      window.__entryWatch = new MutationObserver(() => check('mutation'))
      window.__entryWatch.observe(document.body, { subtree: true, childList: true, characterData: true, attributes: true })
      const frame = () => { check('frame'); window.__entryFrame = requestAnimationFrame(frame) }
      window.__entryFrame = requestAnimationFrame(frame)
    })()`)
    const answer = await route({ sessionId: storedId, action: 'delete', seq: p2!.seq })
    assert.equal(answer.ok, true, JSON.stringify(answer))
    assert.equal(answer.value.persisted, true, JSON.stringify(answer))
    const after = await eventsOnDisk(e.home, storedId)
    assert.equal(after.at(-1)!.type, 'user/message', 'the tombstone is the last event on disk')
    assert.equal(after.at(-1)!.seq, answer.value.tombstoneSeq)
    assert.equal(before.at(-1)!.type, 'turn/end', 'nothing opened the session after the restart')
    assert.ok(after.slice(before.length).some((ev) => ev.type === 'session/end-seed'), 'the write entered the stored session (a cold open appends session/end-seed)')

    // The host's frames for the page go out in order on one stream: once the page shows the other
    // session's next turn ended (its running status went off), it has handled the write's frames.
    e.model.script([{ text: A4 }])
    await sendPrompt(page, P4)
    await waitForChatText(page, A4)
    await waitForTurnBars(page, 2)
    await waitSidebar(page, [OTHER, TITLE], 'after the write and the next turn')
    const gone = await page.evaluate(() => {
      const w = window as any
      w.__entryWatch.disconnect()
      cancelAnimationFrame(w.__entryFrame)
      return w.__entryGone as string[]
    })
    assert.deepEqual(gone.slice(0, 5), [], `the entry never left the sidebar nor lost its title (${gone.length} samples without it)`)
    await e.shot(page, '03-sidebar-after-stored-write')
  })

  scenario('4. the stored session opens from the sidebar with the prompt deleted, and a reload lists both', async () => {
    await openExactSidebarEntry(page, TITLE)
    await waitForChatText(page, A1)
    await waitRowHidden(page, (await findRow(page, 'user', P2)).key)
    await page.reload({ waitUntil: 'domcontentloaded' })
    await waitInPage(page, 'the web shell to boot', () => !!(window as any).__DSH_BOOT__, 60_000)
    await waitSidebar(page, [OTHER, TITLE], 'after a reload')
  })

  scenario('5. a prompt sent while a write holds the stored session: sent again, answered, and no refusal shown', async () => {
    // Opening a session in the page resumes it (the model picker's session.models), so the page
    // shows the other session across a restart, and the stored one is opened only once the write
    // holds it. The same call from here resumes the stored session without a turn: its log then
    // ends with the session/end-seed of that resume, so the write's entry writes nothing before
    // its flush.
    await openExactSidebarEntry(page, OTHER)
    await waitForChatText(page, A4)
    await rpc(e.url, 'session.models', { sessionId: storedId })
    await e.restartHost()
    await openApp(page, e.url)
    await waitForChatText(page, A4)
    const inspected = await route({ sessionId: storedId, action: 'inspect' })
    assert.equal(inspected.value.live, null, 'the session is stored, not live in the host')
    const onDisk = await eventsOnDisk(e.home, storedId)
    assert.equal(onDisk.at(-1)!.type, 'session/end-seed')
    const p1 = onDisk.find((ev) => ev.type === 'user/message' && JSON.stringify(ev.data).includes(P1))
    assert.ok(p1, 'the first prompt is on disk')

    // Anything on screen that reads like the refusal, from now on (a toast is a new node).
    await page.evaluate(`(() => {
      window.__refusalSeen = []
      const check = () => {
        const text = document.body.innerText
        for (const mark of ['while it is live', 'resume failed', '(internal)']) if (text.includes(mark) && !window.__refusalSeen.includes(mark)) window.__refusalSeen.push(mark)
      }
      window.__refusalWatch = new MutationObserver(check)
      window.__refusalWatch.observe(document.body, { subtree: true, childList: true, characterData: true })
      check()
    })()`)

    // The page's prompts: the first goes through at once, the second (the retry) waits for the release.
    const answers: string[] = []
    let retry: HTTPRequest | undefined
    let sawRetry!: () => void
    const retried = new Promise<void>((resolve) => { sawRetry = resolve })
    const isPrompt = (url: string, method: string) => method === 'POST' && new URL(url).pathname === '/api/session.prompt'
    const onRequest = (request: HTTPRequest) => {
      if (request.isInterceptResolutionHandled()) return
      if (isPrompt(request.url(), request.method()) && ++promptsSent === 2) {
        retry = request
        sawRetry()
        return
      }
      void request.continue().catch(() => {})
    }
    const onResponse = (response: HTTPResponse) => {
      if (isPrompt(response.url(), response.request().method())) void response.text().then((t) => answers.push(t), () => answers.push('(no body)'))
    }
    let promptsSent = 0
    page.on('request', onRequest)
    page.on('response', onResponse)
    await page.setRequestInterception(true)
    const thaw = freezeSessionLog(e.home, storedId)
    let thawed = false
    try {
      const held = await routeRaw({ sessionId: storedId, action: 'exclude', seq: p1!.seq })
      assert.equal(held.status, 500, JSON.stringify(held.json))
      assert.equal(held.json.error?.code, 'PERSIST_FAILED', JSON.stringify(held.json))
      assert.equal(held.json.error?.applied, true, 'the write is applied and the plugin holds the session until it is saved')
      // The exclusion took the last prompt still in the model's context (the second was deleted
      // above), so the session's title went with it: "New Session", until the next prompt titles it.
      await openExactSidebarEntry(page, 'New Session')
      await page.waitForFunction((want) => (window as any).__DSH_MESSAGE_RECALL__?.snapshot()?.sessionId === want, { timeout: 30_000, polling: 100 }, storedId)
      await waitForChatText(page, A1)

      e.model.script([{ text: A5 }])
      await sendPrompt(page, P5)
      await Promise.race([retried, new Promise((_, reject) => setTimeout(() => reject(new Error(`the page did not send the prompt again within 15 s (answers: ${answers.join(' | ')})`)), 15_000))])
      assert.equal(answers.length, 1)
      const first = JSON.parse(answers[0]!)
      assert.equal(first.result?.ok, false, answers[0])
      assert.equal(first.result.error.code, 'internal', answers[0])
      assert.match(first.result.error.message, /cannot prepare session ".*" while it is live/, 'DSH refused the first attempt because the session was held')

      thaw()
      thawed = true
      const saved = await route({ sessionId: storedId, action: 'flush' })
      assert.equal(saved.value.persisted, true, JSON.stringify(saved))
      void retry!.continue().catch(() => {})
      await waitForChatText(page, A5)
      await waitForTurnEnds(e.url, storedId, 3)
    } finally {
      if (!thawed) thaw()
      if (retry !== undefined && !retry.isInterceptResolutionHandled()) await retry.continue().catch(() => {})
      await page.setRequestInterception(false)
      page.off('request', onRequest)
      page.off('response', onResponse)
    }
    assert.equal(promptsSent, 2, 'the prompt was sent twice: refused, then admitted')
    assert.deepEqual(await page.evaluate(() => { const w = window as any; w.__refusalWatch.disconnect(); return w.__refusalSeen }), [], 'the page never showed the refusal')
    const p5Rows = (await rows(page)).filter((r) => r.kind === 'user' && r.text.includes(P5))
    assert.equal(p5Rows.length, 1, 'the prompt shows once')
    const asked = e.model.requests.filter((r) => r.kind === 'turn' && JSON.stringify(r.body.messages).includes(P5))
    assert.equal(asked.length, 1, 'the model got the prompt once')
    assert.ok(!JSON.stringify(asked[0]!.body.messages).includes(P1), 'and the exclusion the held write made')
    // Listed after the hold, titled from the new prompt's first words.
    await waitSidebar(page, [OTHER, 'A prompt sent while the'], 'after the hold')
    await e.shot(page, '05-prompt-retried')
  })
})
