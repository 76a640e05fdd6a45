/**
 * A session pane with both entries of this plugin mounted: the composer overlay (undo notice,
 * row buttons) and the session header's `conversation.session.header.utilities` entry (the Removed
 * button and its panel), over the real rc.8 engine of `page.tsx`. The host is the fake `fetch` of
 * `fake-host.ts`, extended here with `restore` and `forkBefore` answered the way the route does
 * (a restore appends the copy to the real Session and delivers it live). The web shell's
 * `sessions` service is stood in by {@link SessionsStandIn}, which records what the plugin opens.
 *
 * @module test/client/support/removals-page
 */
import { page, settle } from './dom'
import assert from 'node:assert/strict'
import { afterEach } from 'node:test'
import { act } from 'react'
import { createRoot, type Root } from 'react-dom/client'
import type { Session, SessionHeader } from '@deepseek-ai/dsh-session'
import { summarizeLive } from '../../../src/host/inspect'
import type { LogEvent } from '../../../src/shared/events'
import type { EraseCopyValue } from '../../../src/shared/protocol'
import { readTombstones } from '../../../src/shared/fate'
import { replaceOp } from '../../../src/shared/replace-op'
import { FakeHost, hostLike, type Answer } from './fake-host'
import { richLog } from './log'
import { bootClient, ChatPane, ComposerStore, liveSession, overlayEntries, overlayProps, type BootedClient, type SessionHarness } from './page'

/** Header seat of the rc.8 session header (declared by ui-conversation's `conversation.session.header`). */
export const HEADER_SEAT = 'conversation.session.header.utilities'

/** Records `open` and `refresh` like the rc.8 `SessionRuntime` would receive them. */
export class SessionsStandIn {
  readonly opened: string[] = []
  refreshes = 0
  private readonly byId: Record<string, unknown> = {}
  private readonly listeners = new Set<() => void>()
  readonly list = {
    getSnapshot: () => ({ ids: Object.keys(this.byId), byId: this.byId, phase: 'ready' as const }),
    subscribe: (listener: () => void) => {
      this.listeners.add(listener)
      return () => { this.listeners.delete(listener) }
    },
  }
  open(id: string): void {
    this.opened.push(id)
  }
  async refresh(): Promise<void> {
    this.refreshes++
    for (const id of this.pendingIds.splice(0)) this.byId[id] = { id }
    for (const listener of this.listeners) listener()
  }
  /** Ids the host made that the next list pull brings. */
  readonly pendingIds: string[] = []
  /** Bytes the host's attachment store holds, by attachment id (what `session.attachment` answers). */
  readonly attachments = new Map<string, Uint8Array>()
  /** Attachment ids `readAttachment` was asked for, in order. */
  readonly attachmentReads: string[] = []
  /** The binding's session face, reduced to `readAttachment` answered from {@link SessionsStandIn.attachments}. */
  binding(sessionId: string) {
    return {
      sessionId,
      session: {
        readAttachment: async (attachmentId: string) => {
          this.attachmentReads.push(attachmentId)
          const data = this.attachments.get(attachmentId)
          return data === undefined
            ? { ok: false, error: { code: 'attachment-not-found', message: `no attachment ${attachmentId}` } }
            : { ok: true, value: { attachment: { attachmentId }, data } }
        },
      },
    }
  }
}

/** A mounted pane. */
export interface RemovalsPage {
  readonly client: BootedClient
  readonly session: Session
  readonly harness: SessionHarness
  readonly composer: ComposerStore
  readonly host: FakeHost
  readonly sessions: SessionsStandIn
  readonly container: HTMLElement
  /** The header entry's container. */
  readonly header: HTMLElement
  /** The pending erases the stand-in host keeps (tombstone seq → the route's value). */
  readonly erases: Map<number, Record<string, unknown>>
  /** The copies the stand-in host's plan of an erase lists, and the refusal code (by copy id) its `erase` of a copy answers. */
  readonly copies: CopiesStandIn
  /** Set the removals `hostLike` answers for (target seq → removed surface seqs). */
  removals(map: Record<number, readonly number[]>): void
  unmount(): Promise<void>
}

/**
 * Mount a pane.
 * @param options.locale - initial locale (default `en`).
 * @param options.events - the session log (default `richLog()`).
 * @param options.header - the session's header (a copy's `parentSession` and `seedLength`); default none.
 */
export async function mountRemovals(options: { locale?: 'zh' | 'en'; events?: readonly LogEvent[]; header?: SessionHeader } = {}): Promise<RemovalsPage> {
  const id = 'session-a'
  const client = await bootClient({ locale: options.locale ?? 'en' })
  const sessions = new SessionsStandIn()
  client.ctx.provide('sessions', sessions)
  await client.loadPlugin()
  const session = liveSession(id, (options.events ?? richLog()) as never, options.header)
  const harness = client.session(id)
  harness.load([...session.events] as LogEvent[])
  const composer = new ComposerStore()
  const host = new FakeHost()
  let removalScript = hostLike(session, harness, {})
  const erases = new Map<number, Record<string, unknown>>()
  const copies: CopiesStandIn = { listed: [], refusals: new Map() }
  host.script = (body) => answerErase(body, session, erases, copies) ?? answer(body, session, harness, removalScript)
  const container = page.document.createElement('div') as unknown as HTMLElement
  const header = page.document.createElement('header') as unknown as HTMLElement
  page.document.body.appendChild(header as never)
  page.document.body.appendChild(container as never)
  const root: Root = createRoot(container)
  const headerRoot: Root = createRoot(header)
  const [overlay] = overlayEntries(client)
  const [utility] = client.slots.entries(HEADER_SEAT)
  assert.ok(overlay && utility, 'both entries are registered')
  const Overlay = overlay.component
  const Utility = utility.component
  await act(async () => {
    root.render(<ChatPane harness={harness} composer={composer} overlay={<Overlay {...overlayProps(client, overlay, harness, composer)} />} />)
    headerRoot.render(<Utility {...overlayProps(client, utility, harness, composer)} />)
    await settle()
  })
  return {
    client, session, harness, composer, host, sessions, container, header, erases, copies,
    removals: (map) => { removalScript = hostLike(session, harness, map) },
    async unmount() {
      await act(async () => {
        root.unmount()
        headerRoot.unmount()
      })
      container.remove()
      header.remove()
      host.restore()
      await client.dispose()
    },
  }
}

/** Answer restore, forkBefore and inspect (the host's `summarizeLive` of the Session) like the route; everything else goes to `hostLike`. */
function answer(body: Record<string, any>, session: Session, harness: SessionHarness, removals: (body: Record<string, any>) => Answer): Answer {
  if (body.action === 'restore') {
    const tombstone = readTombstones(session.events as readonly LogEvent[]).find((t) => t.seq === body.tombstoneSeq)
    if (tombstone === undefined || !session.surface.nodes.includes(tombstone.seq)) {
      return { status: 409, body: { ok: false, error: { code: 'TARGET_NOT_FOUND', message: `message-recall: no current tombstone ${body.tombstoneSeq}` } } }
    }
    const original = session.events[tombstone.shadowedSeqs[0]!]!
    if (tombstone.shadowedSeqs.length !== 1 || original.type !== 'user/message') {
      return { status: 409, body: { ok: false, error: { code: 'NOT_RESTORABLE', message: 'message-recall: tombstone shadows a model step; open a copy instead' } } }
    }
    const copy = session.append('user/message', original.data as never, { surfaceOp: replaceOp(tombstone.seq, tombstone.seq), sourceEventSeqs: [tombstone.seq, original.seq] } as never) as unknown as LogEvent
    harness.append(copy)
    return { status: 200, body: { ok: true, value: { action: 'restore', tombstoneSeq: tombstone.seq, restoredSeq: copy.seq, messageId: (original.data as any).id, originalSeq: original.seq, replaceGeneration: session.surface.replaceGeneration, persisted: true } } }
  }
  if (body.action === 'inspect') {
    return { status: 200, body: { ok: true, value: { live: summarizeLive(session, (seq) => session.events[seq] as LogEvent | undefined), disk: null } } }
  }
  if (body.action === 'forkBefore') {
    return { status: 200, body: { ok: true, value: { action: 'forkBefore', tombstoneSeq: body.tombstoneSeq, forkedSessionId: `session-copy-${body.tombstoneSeq}`, boundarySeq: body.tombstoneSeq - 1, title: 'Copy', persisted: true } } }
  }
  return removals(body)
}

/** What the stand-in host says about the session's copies. */
export interface CopiesStandIn {
  /** The plan's `copies`. */
  listed: EraseCopyValue[]
  /** Copy id → the error code its `erase` answers (409); a copy not here is kept pending. */
  readonly refusals: Map<string, string>
}

/**
 * Answer `pendingErases`, the `plan` of an erase, `erase` with `when: 'next-start'` and `cancelErase` like the route, with
 * the pending erases kept in `erases` (`undefined` for every other action). An exclusion and an
 * unknown seq are refused `NOT_ERASABLE`, as the host refuses them.
 */
function answerErase(body: Record<string, any>, session: Session, erases: Map<number, Record<string, unknown>>, copies: CopiesStandIn): Answer | undefined {
  const copy = copies.listed.find((c) => c.sessionId === body.sessionId)
  if (copy !== undefined && body.action === 'erase' && body.when === 'next-start') {
    const code = copies.refusals.get(copy.sessionId)
    if (code !== undefined) return { status: 409, body: { ok: false, error: { code, message: `message-recall: ${code}` } } }
    return { status: 200, body: { ok: true, value: { action: 'erase', when: 'next-start', erase: { tombstoneSeq: body.tombstoneSeq, scheduledAt: new Date(0).toISOString(), messageCount: 1, imageCount: 0, fileCount: 0, state: 'pending' } } } }
  }
  if (body.action === 'pendingErases') return { status: 200, body: { ok: true, value: { action: 'pendingErases', erases: [...erases.values()] } } }
  if (body.action === 'cancelErase') {
    const cancelled = erases.delete(body.tombstoneSeq)
    return { status: 200, body: { ok: true, value: { action: 'cancelErase', tombstoneSeq: body.tombstoneSeq, cancelled } } }
  }
  const planned = body.action === 'plan' && body.planAction === 'erase'
  if (!planned && (body.action !== 'erase' || body.when !== 'next-start')) return undefined
  const tombstone = readTombstones(session.events as readonly LogEvent[]).find((t) => t.seq === body.tombstoneSeq)
  if (tombstone === undefined || tombstone.action === 'exclude') {
    return { status: 409, body: { ok: false, error: { code: 'NOT_ERASABLE', reason: tombstone === undefined ? 'NOT_A_TOMBSTONE' : 'EXCLUSION', message: 'message-recall: cannot erase' } } }
  }
  // Counted as the host counts them would need the files; here each removed tool result counts as one tool output file.
  const fileCount = tombstone.shadowedSeqs.filter((seq) => session.events[seq]?.type === 'tool/result').length
  if (planned) return { status: 200, body: { ok: true, value: { action: 'plan', planAction: 'erase', tombstoneSeq: tombstone.seq, messageCount: tombstone.shadowedSeqs.length, imageCount: 0, fileCount, copies: copies.listed } } }
  // A pending record is answered as kept; a failed one is replaced by a pending one, as the route does.
  const kept = erases.get(tombstone.seq)
  const erase = kept?.state === 'pending' ? kept : { tombstoneSeq: tombstone.seq, scheduledAt: new Date(0).toISOString(), messageCount: tombstone.shadowedSeqs.length, imageCount: 0, fileCount: 0, state: 'pending' }
  erases.set(tombstone.seq, erase)
  return { status: 200, body: { ok: true, value: { action: 'erase', when: 'next-start', erase } } }
}

/**
 * The mounting of one test file: each page `mount` mounts ({@link mountRemovals}, same options) is
 * unmounted after the test that mounted it, unless the test unmounted it with `unmount` (registers
 * an `afterEach` hook; call once at the top level).
 */
export function removalsPages(): { mount(options?: Parameters<typeof mountRemovals>[0]): Promise<RemovalsPage>; unmount(p: RemovalsPage): Promise<void> } {
  const pages: RemovalsPage[] = []
  afterEach(async () => {
    for (const p of pages.splice(0)) await p.unmount()
  })
  return {
    async mount(options = {}) {
      const p = await mountRemovals(options)
      pages.push(p)
      return p
    },
    async unmount(p) {
      await p.unmount()
      pages.splice(pages.indexOf(p), 1)
    },
  }
}

/** Click an element inside `act` and let the page settle. */
export async function click(element: Element | null | undefined): Promise<void> {
  assert.ok(element, 'element to click exists')
  await act(async () => {
    ;(element as HTMLElement).click()
    await settle()
  })
}

/** Dispatch a keydown on the document inside `act`. */
export async function press(key: string): Promise<void> {
  await act(async () => {
    page.document.dispatchEvent(new page.KeyboardEvent('keydown', { key, bubbles: true }) as never)
    await settle()
  })
}
