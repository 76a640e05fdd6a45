/**
 * End to end, in the real rc.8 web host and headless Chromium: nothing of a removal stays behind,
 * and every outcome is honest. A secret in the first prompt leaves the sidebar and the header
 * after Recall; a recalled image prompt comes back into the composer with its image and sends it
 * again; the row buttons sit beside the prompt bubble and arming does not move them; two quick
 * deletes in two tabs both land; a delete with the session folder unwritable shows "not saved yet"
 * and Save again saves once the folder is back; a Recall under a failing disk still puts the text
 * in the composer. The scenarios run in order and build on each other.
 */
import assert from 'node:assert/strict'
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { after, before, describe } from 'node:test'
import type { Page } from 'puppeteer-core'
import { listSessions } from '../../tools/dsh-api'
import { readTombstone } from '../../src/shared/tombstone'
import { bootE2e, eventsOnDisk, sequentialScenarios, type E2e } from './harness'
import {
  chooseWorkspace, clickAction, composerValue, exchangeTurns, findRow, hoverRow, openApp, openSessionFromSidebar,
  rowSelector, sendPrompt, waitArmed, waitForChatText, waitForTurnBars, waitInPage, waitRowHidden,
} from './ui'
import { readUnsaved, saveAgainAfterUnwritableFolder, sidebarTitles } from './removals-ui'

const CANARY = 'ZEBRA-42'
/** The title the mock model gives the session: made from the first prompt, so it carries the secret. */
const TITLE = `Key ${CANARY} setup`
const P1 = `My staging key is ${CANARY}, keep it safe.`
const A1 = 'Understood, I will not repeat it.'
const P2 = 'Plan the garden beds'
const A2 = 'Three beds along the fence.'
const P3 = 'Describe this picture'
const A3 = 'A single grey dot.'
const A3_AGAIN = 'Still a single grey dot.'
const P4 = 'Water the roses weekly'
const A4 = 'Weekly watering noted.'
const P5 = 'Mulch the tulips'
const A5 = 'Mulch noted.'
const P6 = 'Prune the hedge in May'
const A6 = 'May pruning noted.'
/** A 1×1 PNG. */
const DOT_PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg=='

let e: E2e
let page: Page
let sessionId = ''

const scenario = sequentialScenarios(() => e)

/**
 * The session header's text: the widest ancestor of the Removed button (in the header's
 * utilities seat) that is still a header band, under 150 px tall. `null` without the button.
 */
async function headerText(p: Page): Promise<string | null> {
  return p.evaluate(() => {
    let el = document.querySelector('[data-message-recall-removed-seat]')
    if (!el) return null
    while (el.parentElement && el.parentElement.getBoundingClientRect().height < 150) el = el.parentElement
    return (el as HTMLElement).innerText
  })
}

/** Where a title shows: the tab title, the sidebar's session entries and the session header. */
async function chrome(p: Page): Promise<string> {
  return `${await p.title()}\n${(await sidebarTitles(p)).join('\n')}\n${(await headerText(p)) ?? (await p.$eval('body', (b) => (b as HTMLElement).innerText.split('\n').slice(0, 20).join('\n')))}`
}

/** Draft images the composer shows (their previews are blob: URLs outside the chat flow). */
async function composerImages(p: Page): Promise<number> {
  return p.evaluate(() => [...document.querySelectorAll<HTMLImageElement>('img')].filter((img) => img.src.startsWith('blob:') && !img.closest('[data-chat-flow]')).length)
}

/** Paste a PNG into the composer, as a person pasting a screenshot does. */
async function pasteImage(p: Page, base64: string, name: string): Promise<void> {
  await p.evaluate((base64, name) => {
    const bytes = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0))
    const transfer = new DataTransfer()
    transfer.items.add(new File([bytes], name, { type: 'image/png' }))
    const textarea = document.querySelector('textarea')!
    textarea.focus()
    textarea.dispatchEvent(new ClipboardEvent('paste', { clipboardData: transfer, bubbles: true, cancelable: true }))
  }, base64, name)
}


/**
 * Wait until the composer holds `text` (the row can hide first: the tombstone reaches the page
 * through the live event stream before the route's reply does).
 */
async function waitComposer(p: Page, text: string): Promise<void> {
  await p.waitForFunction((t) => (document.querySelector('textarea') as HTMLTextAreaElement | null)?.value === t, { timeout: 30_000, polling: 100 }, text)
    .catch(async (error: unknown) => { throw new Error(`the composer holds ${JSON.stringify(await composerValue(p))}, not ${JSON.stringify(text)}`, { cause: error }) })
}

/** Send `prompt`, wait for `answer` and the `bars`-th turn bar; returns the prompt's row. */
async function exchange(prompt: string, answer: string, bars: number): Promise<Awaited<ReturnType<typeof findRow>>> {
  e.model.script([{ text: answer }])
  await sendPrompt(page, prompt)
  await waitForChatText(page, answer)
  await waitForTurnBars(page, bars)
  return findRow(page, 'user', prompt)
}


/** A cluster, its buttons and the prompt's bubble stack, as measured in the page. */
interface ClusterGeometry {
  readonly cluster: Box | null
  readonly buttons: ReadonlyArray<Box & { readonly action: string | null }>
  readonly stack: Box | null
}
interface Box { readonly left: number; readonly top: number; readonly right: number; readonly bottom: number; readonly width: number }

/** Geometry of a row's cluster, its buttons and the prompt's bubble stack, read while hovered. */
async function clusterGeometry(p: Page, key: string): Promise<ClusterGeometry> {
  // A string: the test loader's name-keeping helpers do not exist inside the page.
  return p.evaluate(`(() => {
    const row = document.querySelector(${JSON.stringify(rowSelector(key))})
    function box(el) {
      if (!el) return null
      const r = el.getBoundingClientRect()
      return { left: r.left, top: r.top, right: r.right, bottom: r.bottom, width: r.width }
    }
    const cluster = row.querySelector('[data-message-recall-actions]')
    const hoverRoot = row.querySelector('[data-time-hover-root]')
    return {
      cluster: box(cluster),
      buttons: [...(cluster ? cluster.querySelectorAll('button[data-message-recall-action]') : [])].map((b) => ({ action: b.getAttribute('data-message-recall-action'), ...box(b) })),
      stack: box(hoverRoot && hoverRoot.firstElementChild),
    }
  })()`) as Promise<ClusterGeometry>
}

describe('honest outcomes in the real DSH web UI', { timeout: 1_800_000 }, () => {
  before(async () => {
    e = await bootE2e('outcomes', { title: TITLE })
    // Image input for the mock's models (the default catalog is text-only); the settings
    // document's `llm-deepseek` section overrides the adapter's entry. Read at start.
    const models = [
      { id: 'deepseek-v4-flash', name: 'DeepSeek-V4-Flash', contextWindow: 1_000_000, inputModalities: ['text', 'image'] },
      { id: 'deepseek-v4-pro', name: 'DeepSeek-V4-Pro', contextWindow: 1_000_000, inputModalities: ['text', 'image'] },
    ]
    writeFileSync(join(e.home, 'settings.yaml'), `llm-deepseek:\n  models: ${JSON.stringify(models)}\n`)
    await e.restartHost()
    page = await e.newPage()
  }, { timeout: 600_000 })

  after(async () => {
    await e?.close()
  })

  scenario('1. Recall of the first prompt takes its secret out of the sidebar, the header and the tab title', async () => {
    e.model.script([{ text: A1 }, { text: A2 }])
    await openApp(page, e.url)
    await chooseWorkspace(page, e.workspace)
    await exchangeTurns(page, [[P1, A1], [P2, A2]])
    sessionId = (await listSessions(e.url))[0]!.sessionId
    await waitInPage(page, 'the title with the secret in the sidebar', new Function(`return document.body.innerText.includes(${JSON.stringify(TITLE)})`) as () => boolean)
    assert.ok((await chrome(page)).includes(CANARY), 'the secret is on screen before')

    const p1 = await findRow(page, 'user', P1)
    await clickAction(page, p1.key, 'recall')
    await waitRowHidden(page, p1.key)
    await waitComposer(page, P1)
    // The title is rebuilt from the first prompt that remains, without a reload.
    const deadline = Date.now() + 10_000
    while ((await chrome(page)).includes(CANARY)) {
      if (Date.now() > deadline) throw new Error(`the secret is still in the tab title, the sidebar or the header: ${await chrome(page)}`)
      await page.waitForNetworkIdle({ idleTime: 100, timeout: 2_000 }).catch(() => {})
    }
    assert.ok((await sidebarTitles(page)).includes(P2), `the sidebar names the session "${P2}": ${JSON.stringify(await sidebarTitles(page))}`)
    const header = await headerText(page)
    assert.ok(header !== null && header.includes(P2) && !header.includes(CANARY), `the header names the session "${P2}": ${header}`)
    const titles = (await eventsOnDisk(e.home, sessionId)).filter((ev) => ev.type === 'session/title')
    assert.equal((titles.at(-1)!.data as any).title, P2)
    // Clear the composer for what follows.
    await page.click('textarea')
    await page.keyboard.down('Control')
    await page.keyboard.press('KeyA')
    await page.keyboard.up('Control')
    await page.keyboard.press('Backspace')
  })

  scenario('2. a recalled image prompt comes back into the composer with its image, and sending it again sends the same image', async () => {
    e.model.script([{ text: A3 }, { text: A3_AGAIN }])
    await pasteImage(page, DOT_PNG, 'dot.png')
    await waitInPage(page, 'the pasted image in the composer', () => [...document.querySelectorAll<HTMLImageElement>('img')].some((img) => img.src.startsWith('blob:') && !img.closest('[data-chat-flow]')))
    await sendPrompt(page, P3)
    await waitForChatText(page, A3)
    await waitForTurnBars(page, 3)
    await waitInPage(page, 'the composer to be empty', () => [...document.querySelectorAll<HTMLImageElement>('img')].every((img) => !img.src.startsWith('blob:') || !!img.closest('[data-chat-flow]')))
    const sent = (await eventsOnDisk(e.home, sessionId)).filter((ev) => ev.type === 'user/message' && (ev.data as any).content?.some?.((b: any) => b.type === 'image'))
    assert.equal(sent.length, 1)
    const attachmentId = (sent[0]!.data as any).content.find((b: any) => b.type === 'image').attachment.attachmentId as string
    assert.match(attachmentId, /^sha256:/)
    const firstRequest = e.model.requests.at(-1)!
    const imageParts = (body: typeof firstRequest.body) => body.messages.flatMap((m) => Array.isArray(m.content) ? m.content : []).filter((part: any) => part.type === 'image_url').map((part: any) => part.image_url.url as string)
    assert.deepEqual(imageParts(firstRequest.body), [`data:image/png;base64,${DOT_PNG}`])

    const p3 = await findRow(page, 'user', P3)
    await clickAction(page, p3.key, 'recall')
    await waitRowHidden(page, p3.key)
    await waitComposer(page, P3)
    await waitInPage(page, 'the recalled image in the composer', () => [...document.querySelectorAll<HTMLImageElement>('img')].some((img) => img.src.startsWith('blob:') && !img.closest('[data-chat-flow]')))
    assert.equal(await composerImages(page), 1)
    assert.equal(await page.$('[data-message-recall-notice]'), null, 'nothing was left behind, so no image notice')

    const requests = e.model.requests.length
    await page.click('textarea')
    await page.keyboard.press('Enter')
    await waitForChatText(page, A3_AGAIN)
    const again = e.model.requests[requests]!
    const lastUser = again.body.messages.filter((m) => m.role === 'user').at(-1)!
    assert.deepEqual((Array.isArray(lastUser.content) ? lastUser.content : []).filter((part: any) => part.type === 'image_url').map((part: any) => part.image_url.url), [`data:image/png;base64,${DOT_PNG}`])
    await waitForTurnBars(page, 4)
    const resent = (await eventsOnDisk(e.home, sessionId)).filter((ev) => ev.type === 'user/message' && ev.surfaceOp === 'append' && (ev.data as any).content?.some?.((b: any) => b.type === 'image'))
    assert.equal(resent.length, 2, 'the prompt was sent again with its image')
    assert.equal((resent[1]!.data as any).content.find((b: any) => b.type === 'image').attachment.attachmentId, attachmentId, 'the same attachment')
  })

  scenario('3. the buttons of a prompt sit outside its bubble, and arming Delete moves none of them', async () => {
    const p4 = await exchange(P4, A4, 5)
    await hoverRow(page, p4.key)
    const idle = await clusterGeometry(page, p4.key)
    assert.ok(idle.cluster && idle.stack, 'the row has a cluster and a bubble')
    const c = idle.cluster!
    const s = idle.stack!
    const overlap = Math.max(0, Math.min(c.right, s.right) - Math.max(c.left, s.left)) * Math.max(0, Math.min(c.bottom, s.bottom) - Math.max(c.top, s.top))
    assert.equal(overlap, 0, `the cluster ${JSON.stringify(c)} covers none of the bubble ${JSON.stringify(s)}`)
    process.stderr.write(`[e2e] cluster ${JSON.stringify(c)} bubble ${JSON.stringify(s)}\n`)

    await clickAction(page, p4.key, 'delete')
    const armed = await waitArmed(page, p4.key, 'delete')
    assert.equal(armed.text, 'Delete 1?')
    const after = await clusterGeometry(page, p4.key)
    assert.deepEqual(after.buttons, idle.buttons, 'every button keeps its place and width when Delete arms')
    assert.deepEqual(after.cluster, idle.cluster)
    // Disarm.
    await page.keyboard.press('Escape')
    await page.waitForSelector(`${rowSelector(p4.key)} button[data-message-recall-action="delete"]:not([data-armed])`, { timeout: 10_000 })
  })

  scenario('4. two quick deletes in two tabs both land', async () => {
    await exchange(P5, A5, 6)
    const pageB = await e.newPage()
    await openApp(pageB, e.url)
    await openSessionFromSidebar(pageB, P2)
    await waitForChatText(pageB, A5)
    const p4 = await findRow(page, 'user', P4)
    const p5 = await findRow(pageB, 'user', P5)
    const before = (await eventsOnDisk(e.home, sessionId)).map((ev) => readTombstone(ev)).filter((t) => t !== null).length
    // Arm both, then commit both at once.
    await clickAction(page, p4.key, 'delete')
    await waitArmed(page, p4.key, 'delete')
    await clickAction(pageB, p5.key, 'delete')
    await waitArmed(pageB, p5.key, 'delete')
    const commit = (p: Page, key: string) => p.$eval(`${rowSelector(key)} button[data-message-recall-action="delete"]`, (b) => (b as HTMLButtonElement).click())
    await Promise.all([commit(page, p4.key), commit(pageB, p5.key)])
    await waitRowHidden(page, p4.key)
    await waitRowHidden(pageB, p5.key)
    await waitRowHidden(page, p5.key)
    await waitRowHidden(pageB, p4.key)
    for (const p of [page, pageB]) {
      assert.equal(await p.$('[data-message-recall-error]'), null, 'no row error in either tab')
    }
    const tombstones = (await eventsOnDisk(e.home, sessionId)).map((ev) => readTombstone(ev)).filter((t) => t !== null)
    assert.equal(tombstones.length, before + 2)
    await pageB.close()
  })

  scenario('5. a delete with the session folder unwritable shows "not saved yet"; Save again saves once the folder is back', async () => {
    const p6 = await exchange(P6, A6, 7)
    await saveAgainAfterUnwritableFolder(page, e.home, sessionId, async () => {
      await clickAction(page, p6.key, 'delete')
      await waitArmed(page, p6.key, 'delete')
      await clickAction(page, p6.key, 'delete')
      await page.waitForSelector('[data-message-recall-unsaved]', { timeout: 30_000 })
      await waitRowHidden(page, p6.key)
      assert.deepEqual(await readUnsaved(page), {
        text: 'Deleted 1 message, but not saved to disk yet. If the host crashes before the next save, it comes back.',
        phase: 'unsaved', button: 'Save again', error: null,
      })
      assert.equal(await page.$(`${rowSelector(p6.key)} [data-message-recall-error]`), null)
      // Still failing: Save again says so.
      await page.click('[data-message-recall-unsaved] button[data-message-recall-unsaved-action="save"]')
      await page.waitForSelector('[data-message-recall-unsaved-error]', { timeout: 30_000 })
      assert.equal((await readUnsaved(page))!.error, 'Still not saved to disk. Try again once the disk can be written.')
    })
    const onDisk = (await eventsOnDisk(e.home, sessionId)).map((ev) => readTombstone(ev)).filter((t) => t !== null)
    assert.ok(onDisk.some((t) => t.action === 'delete' && t.shadowedSeqs.length === 1), 'the delete is on disk')
  })

  scenario('6. a Recall under a failing disk still puts the text in the composer', async () => {
    const p2 = await findRow(page, 'user', P2)
    await saveAgainAfterUnwritableFolder(page, e.home, sessionId, async () => {
      await clickAction(page, p2.key, 'recall')
      await waitComposer(page, P2)
      await waitRowHidden(page, p2.key)
      // The text reaches the composer on the live event; the notice follows the reply, after the flush's retries.
      await waitInPage(page, 'the unsaved notice of the recall', () => document.querySelector('[data-message-recall-unsaved] [data-message-recall-unsaved-text]')?.textContent?.startsWith('Recalled') === true)
      assert.equal((await readUnsaved(page))!.text, 'Recalled, but not saved to disk yet. If the host crashes before the next save, the message comes back.')
    })
  })
})
