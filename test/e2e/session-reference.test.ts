/**
 * End to end, in the real rc.8 web host (with its `dsh-session-reference`) and headless Chromium:
 * a prompt that cites another session by its `dsh-session:` URI gets the session-reference
 * snapshot right after it, shown as a context row. That row offers Delete, Delete onward and
 * Exclude (not Recall); deleting it alone takes the snapshot out of the next request and leaves
 * the prompt; deleting a citing prompt takes its snapshot with it (both rows hidden, one removal
 * of 2 messages, which comes back only as a copy), and the next request carries neither. The
 * tests run in order and build on each other.
 */
import assert from 'node:assert/strict'
import { after, before, describe } from 'node:test'
import type { Page } from 'puppeteer-core'
import { createSession, prompt, waitForTurnEnds } from '../../tools/dsh-api'
import { bootE2e, sequentialScenarios, type E2e } from './harness'
import { clickAction, hoverRow, openApp, recallSnapshot, rows, sendPrompt, waitArmed, waitForTurnBars, waitRowHidden } from './ui'
import { waitNotice } from './removals-ui'
import { assertWire, lastRequest } from './wire-checks'

const CANARY = 'KESTREL-REF-4410'
const SOURCE_PROMPT = `Remember the codename ${CANARY}.`
const CITE_1 = 'Compare with'
const CITE_2 = 'Look again at'
const PLAIN_1 = 'What changed since then?'
const PLAIN_2 = 'Anything else?'

let e: E2e
let page: Page
let sourceId = ''
let uri = ''
const keys: Record<string, string> = {}

const scenario = sequentialScenarios(() => e)

/** The chat row keys of the prompt that contains `text` and of the session-reference snapshot right after it, with the actions the plugin offers on each. */
async function citedRows(text: string): Promise<{ prompt: { key: string; actions: string[] }; snapshot: { key: string; actions: string[] } }> {
  const anchors = ((await recallSnapshot(page)).anchors as { key: string; rowKind: string; seq: number | null; actions: string[] }[])
  const shown = await rows(page)
  const promptRow = shown.find((r) => r.kind === 'user' && r.text.includes(text))
  assert.ok(promptRow, `a prompt row containing ${JSON.stringify(text)}`)
  const promptAnchor = anchors.find((a) => a.key === promptRow.key)!
  const snapshotAnchor = anchors.find((a) => a.rowKind === 'context' && a.seq === promptAnchor.seq! + 1)
  assert.ok(snapshotAnchor, 'a context row for the snapshot right after the prompt')
  return { prompt: { key: promptAnchor.key, actions: promptAnchor.actions }, snapshot: { key: snapshotAnchor.key, actions: snapshotAnchor.actions } }
}

/** Press a row button twice (arm, then commit) and return what the armed button said. */
async function armAndCommit(key: string): Promise<string> {
  await clickAction(page, key, 'delete')
  const armed = await waitArmed(page, key, 'delete')
  await clickAction(page, key, 'delete')
  return armed.text
}

describe('session-reference snapshots in the real DSH web UI', { timeout: 1_200_000 }, () => {
  before(async () => {
    e = await bootE2e('session-reference')
    page = await e.newPage()
  }, { timeout: 600_000 })

  after(async () => {
    await e?.close()
  })

  scenario('1. a prompt citing another session carries its snapshot to the model; the snapshot row offers Delete, Delete onward and Exclude', async () => {
    e.model.script([{ text: 'Noted the codename.' }, { text: 'Compared the two sessions.' }])
    sourceId = await createSession(e.url, e.workspace)
    await prompt(e.url, sourceId, SOURCE_PROMPT)
    await waitForTurnEnds(e.url, sourceId, 1)
    uri = `dsh-session:${Buffer.from(JSON.stringify(sourceId), 'utf8').toString('base64url')}`

    // The workspace is known now, so the app opens on a new session in it: the citing one.
    await openApp(page, e.url)
    await sendPrompt(page, `${CITE_1} ${uri} please`)
    await waitForTurnBars(page, 1)
    assertWire(lastRequest(e.model), { present: [CANARY, `${CITE_1} @${sourceId} please`, '<referenced-sessions>'] })

    const cited = await citedRows(CITE_1)
    assert.deepEqual(cited.prompt.actions, ['recall', 'delete', 'deleteFrom', 'exclude'])
    assert.deepEqual(cited.snapshot.actions, ['delete', 'deleteFrom', 'exclude'])
    const cluster = await hoverRow(page, cited.snapshot.key)
    assert.ok(cluster.visible, 'the snapshot row shows its buttons on hover')
    assert.deepEqual(cluster.buttons.map((b) => [b.action, b.text, b.label, b.type]), [
      ['delete', 'Delete', 'Delete this message', 'button'],
      ['deleteFrom', 'Delete onward', 'Delete from here to the end of the conversation', 'button'],
      ['exclude', 'Exclude', "Exclude from the model's context; it stays visible", 'button'],
    ])
    keys.prompt1 = cited.prompt.key
    keys.snapshot1 = cited.snapshot.key
    await e.shot(page, '01-snapshot-row')
  })

  scenario('2. Delete on the snapshot row removes the snapshot alone: the prompt stays, the next request lacks the snapshot', async () => {
    assert.equal(await armAndCommit(keys.snapshot1!), 'Delete 1?')
    await waitRowHidden(page, keys.snapshot1!)
    await waitNotice(page, 'Deleted 1 message')
    const promptRow = (await rows(page)).find((r) => r.key === keys.prompt1)
    assert.ok(promptRow?.shown && !promptRow.pluginHidden, 'the citing prompt stays')

    e.model.script([{ text: 'Nothing changed.' }])
    await sendPrompt(page, PLAIN_1)
    await waitForTurnBars(page, 2)
    assertWire(lastRequest(e.model), { present: [`${CITE_1} @${sourceId} please`, PLAIN_1], absent: [CANARY, '<referenced-sessions>'] })
    await e.shot(page, '02-snapshot-deleted')
  })

  scenario('3. Delete on a citing prompt takes its snapshot too: both rows hidden, 2 messages, and the next request carries neither', async () => {
    e.model.script([{ text: 'Looked again.' }])
    await sendPrompt(page, `${CITE_2} ${uri}`)
    await waitForTurnBars(page, 3)
    assertWire(lastRequest(e.model), { present: [CANARY, `${CITE_2} @${sourceId}`] })
    const cited = await citedRows(CITE_2)

    assert.equal(await armAndCommit(cited.prompt.key), 'Delete 2?')
    await waitRowHidden(page, cited.prompt.key)
    await waitRowHidden(page, cited.snapshot.key)
    const notice = await waitNotice(page, 'Deleted 2 messages')
    assert.deepEqual(notice.actions, ['forkBefore', 'dismiss'], 'a prompt and its snapshot come back only as a copy')

    e.model.script([{ text: 'Nothing else.' }])
    await sendPrompt(page, PLAIN_2)
    await waitForTurnBars(page, 4)
    assertWire(lastRequest(e.model), { present: [`${CITE_1} @${sourceId} please`, PLAIN_1, PLAIN_2], absent: [CANARY, '<referenced-sessions>', CITE_2] })
    await e.shot(page, '03-citing-prompt-deleted')
  })
})
