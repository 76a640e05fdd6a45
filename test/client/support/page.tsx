/**
 * A session pane of the rc.8 web UI for the client tests, built from real parts:
 *
 * - {@link SessionHarness}: the real rc.8 conversation engine (`ConversationNodeAssembler`) with
 *   ui-conversation's real Chat Definitions and this plugin's replacement view. Its snapshot is
 *   assembled the way `SessionRuntime.buildSnapshot` does (`views` is the assembler, `chat` its
 *   Chat target) and `useSession` selects from it through `useSyncExternalStore`.
 * - {@link ChatPane}: renders the chat flow with the markup of rc.8 `ChatNodeSeat`
 *   (`data-chat-flow`, `data-chat-anchor-key`, `data-chat-flow-key`, `data-chat-flow-kind`, inner
 *   `data-slot="conversation.chat.node"`), one memoized React row per key, and a composer with a
 *   `textarea` around the overlay anchor, as the rc.8 InputBar places `conversation.input.overlay`.
 * - {@link bootClient}: a real cordis `Context` with the real `SlotRegistry`, conversation
 *   registries and `LocaleRuntime`, the seat declared like ui-conversation's composer entry does,
 *   and this plugin loaded through `ctx.plugin`. The seat's renderer (ui-renderer) is the one part
 *   played here: {@link overlayProps} gives the entry the standard props plus its `inject`.
 *
 * The composer's input machine is stood in by {@link ComposerStore} (a draft and `setDraft`).
 *
 * @module test/client/support/page
 */
import { Context, type Plugin } from '@deepseek-ai/cordis'
import { SessionId, Session, type SessionEvent, type SessionHeader } from '@deepseek-ai/dsh-session'
import { memo, useSyncExternalStore, type ReactNode } from 'react'
import type { LogEvent } from '../../../src/shared/events'
import { appendTombstone as hostAppendTombstone } from '../../../src/host/tombstone-append'
import type { RemovalAction } from '../../../src/shared/actions'
import type { ChatNode, SessionSnapshot } from '../../../src/client/wire/rc8'
import { clientLocale, registerChatDefinitions, runtime } from './rc8-client'

/** The real conversation engine of one session, with a `useSession` hook. */
export class SessionHarness {
  readonly assembler: any
  snapshot!: SessionSnapshot
  private running = false
  private hasMore = false
  private subagent: SessionSnapshot['subagent'] = null
  private readonly listeners = new Set<() => void>()

  constructor(readonly sessionId: string, events: unknown, views: unknown) {
    this.assembler = new runtime.ConversationNodeAssembler(events, views)
    this.publish()
  }

  /** Replace the window (session open, resync). */
  load(events: readonly LogEvent[], hasMore = false): void {
    this.hasMore = hasMore
    this.assembler.replaceWindow(events.map((event) => ({ event, view: undefined })), hasMore)
    this.publish()
  }

  /** Live tail events, as the event stream delivers them. */
  append(...events: readonly LogEvent[]): void {
    for (const event of events) this.assembler.append({ event, view: undefined })
    this.publish()
  }

  /** An older page, as `loadOlder` delivers it. */
  prepend(events: readonly LogEvent[], hasMore: boolean): void {
    this.hasMore = hasMore
    this.assembler.prepend(events.map((event) => ({ event, view: undefined })), hasMore)
    this.publish()
  }

  setRunning(running: boolean): void {
    this.running = running
    this.publish()
  }

  /** The subagent the window shows (`SessionSnapshot.subagent`), or `null` for a top-level session. */
  setSubagent(subagent: SessionSnapshot['subagent']): void {
    this.subagent = subagent ?? null
    this.publish()
  }

  /** Times {@link ChatPane} re-created its flow element (and so every row) without a store change. */
  flowEpoch = 0

  /** Make {@link ChatPane} re-create the flow and its rows, as a view remount does; the chat store is unchanged. */
  remountFlow(): void {
    this.flowEpoch++
    for (const listener of [...this.listeners]) listener()
  }

  /** The Chat node of a row key. */
  node(key: string): ChatNode {
    const node = this.snapshot.chat.nodes.get(key)
    if (node === undefined) throw new Error(`no chat node ${key}`)
    return node
  }

  /** Keys of visible rows of a kind, in order. */
  keys(kind: string): string[] {
    return this.snapshot.chat.order.filter((key) => this.snapshot.chat.nodes.get(key)?.kind === kind)
  }

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener)
    return () => this.listeners.delete(listener)
  }

  useSession = <T,>(selector: (snapshot: SessionSnapshot) => T): T =>
    useSyncExternalStore(this.subscribe, () => selector(this.snapshot))

  private publish(): void {
    this.assembler.flush()
    this.snapshot = {
      sessionId: this.sessionId,
      views: this.assembler,
      chat: this.assembler.snapshot('chat'),
      running: this.running,
      hasMore: this.hasMore,
      subagent: this.subagent,
    } as SessionSnapshot
    for (const listener of [...this.listeners]) listener()
  }
}

/**
 * Stand-in for the composer's input machine: the draft, `setDraft`, and the draft image ids
 * `addImages` appends (refused while `busy`, as the rc.8 machine refuses during a send's admission).
 */
export class ComposerStore {
  draft = ''
  readonly drafts: string[] = []
  readonly imageIds: string[] = []
  busy = false
  private readonly listeners = new Set<() => void>()
  readonly inputActions = {
    setDraft: (text: string) => { this.draft = text; this.drafts.push(text); this.emit() },
    addImages: (ids: readonly string[]): boolean => {
      if (this.busy) return false
      this.imageIds.push(...ids)
      this.emit()
      return true
    },
  }
  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener)
    return () => this.listeners.delete(listener)
  }
  useInput = <T,>(selector: (state: { draft: string }) => T): T => useSyncExternalStore(this.subscribe, () => selector({ draft: this.draft }))
  type(text: string): void {
    this.draft = text
    this.emit()
  }
  private emit(): void {
    for (const listener of [...this.listeners]) listener()
  }
}

const Row = memo(function Row({ harness, nodeKey }: { harness: SessionHarness; nodeKey: string }) {
  const node = harness.useSession((s) => s.chat.nodes.get(nodeKey))
  if (node === undefined) return null
  return (
    <div className="flowItem" data-chat-anchor-key={node.key} data-chat-flow-key={node.key} data-chat-flow-kind={node.kind}>
      <div data-slot="conversation.chat.node">{rowText(node)}</div>
    </div>
  )
})

function rowText(node: ChatNode): string {
  const data = node.data as Record<string, any>
  if (Array.isArray(data?.content)) return data.content.map((b: any) => b.text ?? `[${b.type}]`).join(' ')
  if (Array.isArray(data?.blocks)) return data.blocks.map((b: any) => b.text ?? b.name ?? b.kind).join(' ')
  return node.kind
}

function Composer({ composer, children }: { composer: ComposerStore; children?: ReactNode }) {
  const draft = composer.useInput((s) => s.draft)
  return (
    <div data-composer-seat="">
      <div className="card">
        <textarea value={draft} onChange={(e) => composer.type(e.target.value)} />
        <div className="overlayAnchor">{children}</div>
      </div>
    </div>
  )
}

/** One session pane: chat flow above, composer with the overlay anchor below. */
export function ChatPane({ harness, composer, overlay }: { harness: SessionHarness; composer: ComposerStore; overlay?: ReactNode }) {
  const order = harness.useSession((s) => s.chat.order)
  const epoch = harness.useSession(() => harness.flowEpoch)
  return (
    <div data-pane={harness.sessionId}>
      <div data-slot="conversation.session">
        <div className="column" data-chat-flow="" key={epoch}>
          {order.map((key) => <Row key={key} harness={harness} nodeKey={key} />)}
        </div>
      </div>
      <Composer composer={composer}>{overlay}</Composer>
    </div>
  )
}

/** A booted client: cordis root with the rc.8 services and, unless disabled, this plugin. */
export interface BootedClient {
  readonly ctx: Context
  readonly events: any
  readonly views: any
  readonly slots: any
  readonly locale: any
  /** Load this plugin (`src/client/index.tsx`) into the root. */
  loadPlugin(): Promise<{ dispose(): Promise<void> }>
  /** A session harness over this client's registries. */
  session(id: string): SessionHarness
  dispose(): Promise<void>
}

/**
 * Boot the rc.8 client services in a cordis root.
 * @param options.locale - initial locale (default `en`).
 */
export async function bootClient(options: { locale?: 'zh' | 'en' } = {}): Promise<BootedClient> {
  const ctx = new Context()
  await Promise.all([
    ctx.plugin(runtime.SlotRegistry as Plugin),
    ctx.plugin(runtime.ConversationEventRegistry as Plugin),
    ctx.plugin(runtime.ConversationViewRegistry as Plugin),
  ])
  const locale = new clientLocale.LocaleRuntime(ctx)
  locale.setLocale(options.locale ?? 'en')
  ctx.provide('locale', locale)
  const slots = ctx.get('slots')
  const events = ctx.get('conversationEvents')
  const views = ctx.get('conversationViews')
  registerChatDefinitions(events, views)
  // Declare the seats the way ui-conversation's entries do (children tables): the composer overlay and the session header's utilities.
  slots.register({ name: 'root', children: { 'conversation.input.overlay': { kind: 'list', scope: 'session' }, 'conversation.session.header.utilities': { kind: 'list', scope: 'session' } } }, () => null)
  return {
    ctx, events, views, slots, locale,
    async loadPlugin() {
      const plugin = await import('../../../src/client/index')
      const fiber = ctx.plugin(plugin as unknown as Plugin)
      await fiber
      return { dispose: () => fiber.dispose() }
    },
    session: (id) => new SessionHarness(id, events, views),
    dispose: () => ctx.fiber.dispose(),
  }
}

/** The list entries of the overlay seat. */
export function overlayEntries(client: BootedClient): any[] {
  return client.slots.entries('conversation.input.overlay')
}

/**
 * Props the seat renderer gives a `conversation.input.overlay` entry: the standard session props
 * (`sessionId`, `useSession`, `useInput`, `inputActions`, `t` bound to the entry's namespace) and
 * the entry's `inject` result merged in.
 */
export function overlayProps(client: BootedClient, entry: any, harness: SessionHarness, composer: ComposerStore): Record<string, unknown> {
  return {
    sessionId: harness.sessionId,
    useSession: harness.useSession,
    useInput: composer.useInput,
    inputActions: composer.inputActions,
    ...(entry.locale === undefined ? {} : { t: client.locale.bind(entry.locale) }),
    ...(entry.inject?.(harness.sessionId) ?? {}),
  }
}

/** A real rc.8 Session seeded with `events`, for appending tombstones the way the host does. */
export function liveSession(id: string, events: readonly SessionEvent[], header?: SessionHeader): Session {
  return Session.create(SessionId(id), events, header)
}

/**
 * Append a tombstone to a real Session with the host writer's `appendTombstone` (one
 * `user/message`, empty content, source naming this plugin, replace op, `sourceEventSeqs` =
 * every shadowed node).
 * @param session - the session.
 * @param action - the removal action.
 * @param shadowed - shadowed surface seqs in surface order.
 * @returns the appended event.
 */
export function appendTombstone(session: Session, action: RemovalAction, shadowed: readonly number[]): SessionEvent {
  return hostAppendTombstone(session, { action, start: shadowed[0]!, end: shadowed[shadowed.length - 1]!, shadowedSeqs: shadowed }) as SessionEvent
}
