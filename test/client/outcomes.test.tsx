/**
 * Every outcome of a removal is honest, over the real rc.8 conversation engine and the real
 * `ConversationController` (ui-conversation's `conversation` service, which owns draft images):
 * a recall's images go back into the composer, and those that cannot are named with the reason;
 * a removal answered `PERSIST_FAILED` with `applied: true` shows "not saved yet" with Save again;
 * a recall whose reply was lost fills the composer from the page's own copy once its tombstone is
 * seen (in the history update, or through `inspect`).
 */
import { settle, waitFor } from './support/dom'
import assert from 'node:assert/strict'
import { afterEach, describe, it } from 'node:test'
import type { LogEvent } from '../../src/shared/events'
import { plainText } from '../../src/shared/message-text'
import { richLog } from './support/log'
import { appendTombstone } from './support/page'
import { uiConversation } from './support/rc8-client'
import { hostLike, type Answer } from './support/fake-host'
import { click, mountRemovals, type RemovalsPage } from './support/removals-page'

const pages: RemovalsPage[] = []
afterEach(async () => {
  for (const p of pages.splice(0)) await p.unmount()
})

/** A pane with the real `conversation` service loaded next to the plugin. */
async function mount(locale: 'zh' | 'en' = 'en', events?: readonly LogEvent[]): Promise<{ p: RemovalsPage; conversation: any }> {
  const p = await mountRemovals({ locale, ...(events === undefined ? {} : { events }) })
  pages.push(p)
  const input = { for: () => { throw new Error('the session input machine is not used here') } }
  p.client.ctx.plugin(uiConversation.ConversationController, { input, blocks: {} })
  await waitFor(() => p.client.ctx.get('conversation') !== undefined, 'the conversation service')
  return { p, conversation: p.client.ctx.get('conversation') }
}

const snapshot = () => (globalThis as any).__DSH_MESSAGE_RECALL__.snapshot()
const seqOf = (key: string) => snapshot().anchors.find((a: any) => a.key === key).seq as number
const row = (p: RemovalsPage, key: string) => p.container.querySelector(`[data-chat-flow-key="${key}"]`) as HTMLElement
const button = (p: RemovalsPage, key: string, action: string) => row(p, key).querySelector(`[data-message-recall-action="${action}"]`) as HTMLButtonElement | null
const unsaved = (p: RemovalsPage) => p.container.querySelector('[data-message-recall-unsaved]') as HTMLElement | null
const unsavedText = (p: RemovalsPage) => unsaved(p)?.querySelector('[data-message-recall-unsaved-text]')?.textContent ?? null
const saveButton = (p: RemovalsPage) => unsaved(p)?.querySelector('[data-message-recall-unsaved-action="save"]') as HTMLButtonElement | null
const noticeLines = (p: RemovalsPage) => [...p.container.querySelectorAll('[data-message-recall-notice-line]')].map((l) => `${l.getAttribute('data-reason')}: ${l.textContent}`)

/** The first prompt row, with the host set to remove just that prompt. */
function firstPrompt(p: RemovalsPage): { key: string; seq: number; text: string; removal: (body: Record<string, any>) => Answer } {
  const key = p.harness.keys('user')[0]!
  const seq = seqOf(key)
  p.removals({ [seq]: [seq] })
  const text = plainText((p.session.events[seq]!.data as any).content)
  return { key, seq, text, removal: hostLike(p.session, p.harness, { [seq]: [seq] }) }
}

const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3, 4])
const image = (attachmentId: string, mediaType: string, name?: string) => ({
  type: 'image', attachment: { attachmentId, mediaType, bytes: 12, width: 4, height: 3, ...(name === undefined ? {} : { name }) },
})

/** `answer` with `blocks` added to the recalled content. */
function withImages(answer: Answer, blocks: readonly unknown[]): Answer {
  if (answer === 'network') return answer
  const value = (answer.body as any).value
  value.content = [...value.content, ...blocks]
  return answer
}

/** A write answer turned into `500 PERSIST_FAILED` with `applied: true`, as the route answers a failed flush. */
function appliedButUnsaved(answer: Answer): Answer {
  if (answer === 'network' || answer.status !== 200) return answer
  const value = (answer.body as any).value
  const recalled = value.action === 'recall' ? { content: value.content, text: value.text } : {}
  return {
    status: 500,
    body: { ok: false, error: {
      code: 'PERSIST_FAILED', applied: true, value: { ...value, persisted: false }, ...recalled,
      message: `message-recall: seq ${value.tombstoneSeq} (${value.action}) was appended to session "session-a" and is in effect, but it is not yet durable: the durability flush failed 4 times: ENOTDIR: not a directory`,
    } },
  }
}

describe('images on Recall', () => {
  it('puts a recalled image back into the composer with the text; the draft image holds the stored bytes', async () => {
    const { p, conversation } = await mount()
    const { key, text, removal } = firstPrompt(p)
    p.sessions.attachments.set('sha256:aa', PNG)
    p.host.script = (body) => withImages(removal(body), [image('sha256:aa', 'image/png', 'diagram.png')])
    await click(button(p, key, 'recall'))
    await waitFor(() => p.composer.imageIds.length === 1, 'the image in the composer')
    assert.equal(p.composer.draft, text)
    assert.deepEqual(p.sessions.attachmentReads, ['sha256:aa'])
    const [draft] = conversation.draftImages(p.composer.imageIds)
    assert.equal(draft.file.name, 'diagram.png')
    assert.equal(draft.file.type, 'image/png')
    assert.deepEqual(new Uint8Array(await draft.file.arrayBuffer()), PNG)
    await settle()
    assert.equal(p.container.querySelector('[data-message-recall-notice]'), null, 'nothing was left behind, so no notice')
  })

  it('names only the images that cannot come back, each with its reason, in both languages', async () => {
    for (const locale of ['en', 'zh'] as const) {
      const { p, conversation } = await mount(locale)
      const { key, removal } = firstPrompt(p)
      p.sessions.attachments.set('sha256:aa', PNG)
      p.host.script = (body) => withImages(removal(body), [
        image('sha256:aa', 'image/png'), image('sha256:gone', 'image/jpeg', 'lost.jpg'), image('sha256:bb', 'image/bmp', 'old.bmp'),
      ])
      await click(button(p, key, 'recall'))
      await waitFor(() => noticeLines(p).length > 0, 'the image notice')
      assert.equal(p.composer.imageIds.length, 1)
      assert.equal(conversation.draftImages(p.composer.imageIds)[0].file.name, 'image-1.png', 'an unnamed image gets a name from its type')
      assert.deepEqual(noticeLines(p), locale === 'en'
        ? ['unreadable: Recalled. 1 image could not be read back from the host, so it is not in the composer: lost.jpg',
          'unsupported: Recalled. 1 image has a type the composer does not take (only PNG, JPEG, WebP and GIF): old.bmp']
        : ['unreadable: 已撤回。1 张图片无法从主机读回，没有放回输入框：lost.jpg',
          'unsupported: 已撤回。1 张图片的格式输入框不接受（只接受 PNG、JPEG、WebP、GIF）：old.bmp'])
      assert.equal(p.container.querySelector('[data-message-recall-notice]')!.getAttribute('role'), 'status')
      await p.unmount()
      pages.splice(pages.indexOf(p), 1)
    }
  })

  it('a composer busy sending refuses the images: they are named, and the draft images are released', async () => {
    const { p, conversation } = await mount()
    const { key, removal } = firstPrompt(p)
    p.sessions.attachments.set('sha256:aa', PNG)
    p.sessions.attachments.set('sha256:cc', PNG)
    p.composer.busy = true
    p.host.script = (body) => withImages(removal(body), [image('sha256:aa', 'image/png', 'a.png'), image('sha256:cc', 'image/gif', 'b.gif')])
    await click(button(p, key, 'recall'))
    await waitFor(() => noticeLines(p).length > 0, 'the image notice')
    assert.deepEqual(noticeLines(p), ['busy: Recalled. The composer was sending, so 2 images did not go back into it: a.png, b.gif'])
    assert.deepEqual(p.composer.imageIds, [])
    assert.equal((conversation as any).draftAttachments.size, 0, 'the refused draft images were released')
  })
})

describe('applied, not yet saved', () => {
  it('a delete answered PERSIST_FAILED with applied: the row goes, no row error, the notice says what a crash does; Save again flushes', async () => {
    const { p } = await mount()
    const { key, seq, removal } = firstPrompt(p)
    let flushes = 0
    p.host.script = (body) => {
      if (body.action === 'flush') {
        flushes++
        return flushes === 1
          ? { status: 500, body: { ok: false, error: { code: 'PERSIST_FAILED', applied: true, message: 'message-recall: the live log is not yet durable' } } }
          : { status: 200, body: { ok: true, value: { action: 'flush', lastSeq: p.session.seq - 1, persisted: true } } }
      }
      return body.action === 'delete' ? appliedButUnsaved(removal(body)) : removal(body)
    }
    await click(button(p, key, 'delete'))
    await click(button(p, key, 'delete'))
    assert.equal(p.host.of('delete').length, 1)
    assert.equal(row(p, key).hasAttribute('data-message-recall-hidden'), true, 'the tombstone is in the live log')
    assert.equal(row(p, key).querySelector('[data-message-recall-error]'), null)
    assert.equal(unsavedText(p), 'Deleted 1 message, but not saved to disk yet. If the host crashes before the next save, it comes back.')
    assert.equal(unsaved(p)!.getAttribute('role'), 'status')
    assert.equal(unsaved(p)!.getAttribute('data-phase'), 'unsaved')
    assert.equal(saveButton(p)!.textContent, 'Save again')
    assert.equal(saveButton(p)!.getAttribute('aria-label'), 'Try again to save this session to disk')
    assert.equal(saveButton(p)!.type, 'button')
    assert.equal(p.container.querySelector('[data-message-recall-undo]'), null, 'no undo notice for a removal not yet saved')

    await click(saveButton(p))
    assert.deepEqual(p.host.of('flush'), [{ sessionId: 'session-a', action: 'flush' }])
    assert.equal(unsaved(p)!.querySelector('[data-message-recall-unsaved-error]')!.textContent, 'Still not saved to disk. Try again once the disk can be written.')
    assert.equal(unsaved(p)!.getAttribute('data-phase'), 'unsaved')

    await click(saveButton(p))
    assert.equal(p.host.of('flush').length, 2)
    assert.equal(unsavedText(p), 'Saved to disk.')
    assert.equal(saveButton(p), null)
    assert.equal(unsaved(p)!.querySelector('[data-message-recall-unsaved-error]'), null)
    await waitFor(() => unsaved(p) === null, 'the saved notice to go', 6000)
    assert.equal(p.session.events.filter((e: any) => e.surfaceOp?.op === 'replace').length, 1, `one tombstone for seq ${seq}`)
  })

  it('a Restore from the panel answered PERSIST_FAILED with applied: the row is back and reads Restored, the notice says a crash removes it again, and the undo notice follows', async () => {
    const { p } = await mount()
    const { key } = firstPrompt(p)
    await click(button(p, key, 'delete'))
    await click(button(p, key, 'delete'))
    assert.equal(row(p, key).hasAttribute('data-message-recall-hidden'), true)
    const undoText = () => p.container.querySelector('[data-message-recall-undo-text]')?.textContent ?? null
    assert.equal(undoText(), 'Deleted 1 message')
    const tombstoneSeq = p.session.events.length - 1
    const base = p.host.script
    p.host.script = async (body) => body.action === 'restore' ? appliedButUnsaved(await base(body)) : base(body)
    await click(p.header.querySelector('button[data-message-recall-removed]'))
    const entry = () => p.header.querySelector(`[data-message-recall-entry="${tombstoneSeq}"]`) as HTMLElement
    await click(entry().querySelector('[data-message-recall-entry-action="restore"]'))
    assert.deepEqual(p.host.of('restore'), [{ sessionId: 'session-a', action: 'restore', tombstoneSeq }])
    assert.equal(row(p, key).hasAttribute('data-message-recall-hidden'), false, 'the restoring copy is in the live log')
    assert.equal(entry().querySelector('[data-message-recall-entry-restored]')!.textContent, 'Restored')
    assert.equal(entry().querySelector('[data-message-recall-entry-error]'), null, 'no refusal shown: the restore is in effect')
    assert.equal(unsavedText(p), 'Restored 1 message, but not saved to disk yet. If the host crashes before the next save, it is removed again.')
    assert.equal(saveButton(p)!.textContent, 'Save again')
    assert.equal(undoText(), 'The message is back in place', 'the undo notice of that removal no longer offers Undo')
    assert.equal(p.container.querySelector('[data-message-recall-undo-action="undo"]'), null)
  })

  it('a durable Restore clears an earlier unsaved state (the flush saved the whole live log)', async () => {
    const { p } = await mount()
    const keys = p.harness.keys('user')
    const first = seqOf(keys[0]!)
    const second = seqOf(keys[1]!)
    const removal = hostLike(p.session, p.harness, { [first]: [first], [second]: [second] })
    const base = p.host.script
    p.host.script = (body) => body.action === 'delete' && body.seq === first ? appliedButUnsaved(removal(body)) : body.action === 'restore' ? base(body) : removal(body)
    await click(button(p, keys[1]!, 'delete'))
    await click(button(p, keys[1]!, 'delete'))
    const durable = p.session.events.length - 1
    await click(button(p, keys[0]!, 'delete'))
    await click(button(p, keys[0]!, 'delete'))
    assert.equal(unsavedText(p), 'Deleted 1 message, but not saved to disk yet. If the host crashes before the next save, it comes back.')
    await click(p.header.querySelector('button[data-message-recall-removed]'))
    await click(p.header.querySelector(`[data-message-recall-entry="${durable}"] [data-message-recall-entry-action="restore"]`))
    assert.equal(row(p, keys[1]!).hasAttribute('data-message-recall-hidden'), false)
    assert.equal(unsaved(p), null)
  })

  it('zh: the same state and button', async () => {
    const { p } = await mount('zh')
    const { key, removal } = firstPrompt(p)
    p.host.script = (body) => body.action === 'delete' ? appliedButUnsaved(removal(body)) : removal(body)
    await click(button(p, key, 'delete'))
    await click(button(p, key, 'delete'))
    assert.equal(unsavedText(p), '已删除 1 条消息，但还没有保存到磁盘。如果主机在下次保存前崩溃，它会回来。')
    assert.equal(saveButton(p)!.textContent, '重新保存')
    assert.equal(saveButton(p)!.getAttribute('aria-label'), '再次尝试把这个会话保存到磁盘')
  })

  it('a recall answered PERSIST_FAILED with applied puts the text from the error body into the composer', async () => {
    const { p } = await mount()
    const { key, text, removal } = firstPrompt(p)
    p.host.script = (body) => appliedButUnsaved(removal(body))
    await click(button(p, key, 'recall'))
    assert.equal(p.composer.draft, text)
    assert.equal(row(p, key).hasAttribute('data-message-recall-hidden'), true)
    assert.equal(unsavedText(p), 'Recalled, but not saved to disk yet. If the host crashes before the next save, the message comes back.')
  })

  it('a later write that was saved clears the state', async () => {
    const { p } = await mount()
    const keys = p.harness.keys('user')
    const first = seqOf(keys[0]!)
    const second = seqOf(keys[1]!)
    const removal = hostLike(p.session, p.harness, { [first]: [first], [second]: [second] })
    p.host.script = (body) => body.action === 'delete' && body.seq === first ? appliedButUnsaved(removal(body)) : removal(body)
    await click(button(p, keys[0]!, 'delete'))
    await click(button(p, keys[0]!, 'delete'))
    assert.notEqual(unsaved(p), null)
    await click(button(p, keys[1]!, 'delete'))
    await click(button(p, keys[1]!, 'delete'))
    assert.equal(unsaved(p), null, 'the second write was flushed, and with it the first')
  })
})

describe('a recall whose reply was lost', () => {
  it('the tombstone arrives with the next history update: the composer gets the page\'s copy of the prompt', async () => {
    const { p } = await mount()
    const { key, text, removal } = firstPrompt(p)
    // The host wrote the tombstone, then the connection reset; `inspect` cannot reach it either.
    p.host.script = (body) => {
      if (body.action === 'recall') removal(body)
      return 'network'
    }
    await click(button(p, key, 'recall'))
    await waitFor(() => p.composer.draft !== '', 'the composer to be filled')
    assert.equal(p.composer.draft, text)
    assert.equal(row(p, key).hasAttribute('data-message-recall-hidden'), true)
    assert.equal(row(p, key).querySelector('[data-message-recall-error]'), null)
    assert.ok(p.host.of('inspect').length <= 1, 'the history update answered, at the latest right after the first inspect failed')
  })

  it('the history update is late, inspect reports the tombstone: the composer gets the page\'s copy, images included', async () => {
    // The first prompt was sent with an image: the page's chat store holds both.
    const events = structuredClone(richLog()) as LogEvent[]
    const prompt = events.find((e) => e.type === 'user/message' && (e.data as any).source?.kind === 'user')!
    ;(prompt.data as any).content.push(image('sha256:aa', 'image/png', 'chart.png'))
    const { p, conversation } = await mount('en', events)
    const { key, seq, text } = firstPrompt(p)
    p.sessions.attachments.set('sha256:aa', PNG)
    let tombstone: LogEvent | null = null
    p.host.script = (body) => {
      if (body.action === 'recall') {
        tombstone = appendTombstone(p.session, 'recall', [seq]) as unknown as LogEvent
        return { status: 502, body: 'Bad gateway' }
      }
      const t = tombstone!
      return { status: 200, body: { ok: true, value: { disk: null, live: {
        eventCount: p.session.seq, lastSeq: p.session.seq - 1, surfaceNodeCount: p.session.surface.nodes.length, replaceGeneration: p.session.surface.replaceGeneration,
        tombstones: [{ seq: t.seq, start: seq, end: seq, shadowedSeqs: [seq], action: 'recall', onSurface: true, inEffect: true, restoredBy: null }],
      } } } }
    }
    await click(button(p, key, 'recall'))
    await waitFor(() => p.composer.imageIds.length === 1, 'the composer to get the prompt back')
    assert.equal(p.composer.draft, text)
    assert.deepEqual(p.host.of('inspect'), [{ sessionId: 'session-a', action: 'inspect' }])
    assert.equal(conversation.draftImages(p.composer.imageIds)[0].file.name, 'chart.png')
    assert.equal(row(p, key).querySelector('[data-message-recall-error]'), null)
  })
})
