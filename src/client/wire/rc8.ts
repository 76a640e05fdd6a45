/**
 * The parts of the DSH 0.1.0-rc.8 browser client this plugin talks to: structural types, and the
 * row markers of the chat flow (the only runtime values here). The types mirror the published
 * declarations so the bundle needs no runtime import of DSH packages (the rc.8 module loader
 * resolves only its seed words):
 *
 * - chat store and snapshot: `dsh-client-runtime/lib/types/client/sessions/conversation.d.ts`
 *   (`ChatSnapshot`, `ChatNodeStore`, `ConversationSnapshot`);
 * - conversation Definitions and view targets: `dsh-client-runtime/lib/types/client/contract/conversation.d.ts`
 *   (`ConversationNodeDefinition`, `ConversationViewDefinition`, `ChatConversationViewNode`);
 * - composer: `dsh-client-ui-conversation/lib/types/client/input/contract.d.ts` (`InputActions`;
 *   rc.8 has no `focus()`);
 * - locale: `dsh-client-locale/lib/types/client/index.d.ts` (`LocaleRuntime`);
 * - slots: `ctx.slots.inject` / `ctx.slots.register` (`dsh-client-runtime/lib/client.js`, `SlotRegistry`);
 * - row markers: `ChatNodeSeat` in `dsh-client-ui-conversation/lib/client.js` (later DSH lines add
 *   others, such as `data-chat-turn`).
 *
 * @module dsh-message-recall/client/wire/rc8
 */
import type { LogEvent } from '../../shared/events'

/** Selector of the chat list of one view (its element children are the rows, plus a few others). */
export const FLOW_SELECTOR = '[data-chat-flow]'

/**
 * Marker of a session pane's resident scroll body (`ConversationRoot` in
 * `dsh-client-ui-conversation`): it holds the active session view (`conversation.session`, where
 * the Chat view renders its flow) and the composer seat, and stays in the page while the session
 * header's tabs switch that view (Chat, Trajectory), which mounts a new flow element.
 */
export const CONVERSATION_SCROLL = '[data-conversation-scroll]'

/** Attribute of a row that holds its chat-store key (`${kind.length}:${kind}${id}`, `conversationContextKey`). */
export const FLOW_KEY = 'data-chat-flow-key'

/** Attribute of a row that holds its rc.8 row kind (`user`, `assistant-step`, `tool-call`, …). */
export const FLOW_KIND = 'data-chat-flow-kind'

/**
 * Marker of the hover root of a prompt row (`UserStyleBubble` in `dsh-client-ui-conversation`,
 * shared by `user` and `steering` rows). Its first element child stacks the prompt's images and
 * bubble; its second, when present, is DSH's own action band under the bubble (time and Copy).
 */
export const PROMPT_HOVER_ROOT = '[data-time-hover-root]'

/** Where the rc.8 location index placed a node (`ConversationLocation`, reduced to the numbers used here). */
export type NodeLocation =
  | { readonly kind: 'session' }
  | { readonly kind: 'turn'; readonly turn: { readonly turn: number } }
  | { readonly kind: 'step'; readonly turn: { readonly turn: number }; readonly step: { readonly step: number } }
  | { readonly kind: 'unresolved' }

/** One final Chat node (`ChatConversationViewNode`). `data` is owned by the Definition of `kind`. */
export interface ChatNode {
  readonly key: string
  readonly kind: string
  readonly id: string
  readonly target: string
  /** Sortable render position; fractional for synthetic rows (turn bars, interrupted prefixes). */
  readonly anchorSeq: number
  readonly location: NodeLocation
  readonly visibility: 'visible' | 'hidden'
  readonly data: unknown
}

/** Live keyed reader of the Chat nodes (`ChatNodeStore`). */
export interface ChatNodeStore {
  get(key: string): ChatNode | undefined
  values(): readonly ChatNode[]
}

/** The Chat target snapshot (`ChatSnapshot`, reduced). */
export interface ChatSnapshot {
  /** Visible row keys in render order. */
  readonly order: readonly string[]
  readonly nodes: ChatNodeStore
}

/** Reader of every registered view target's latest snapshot (`ConversationViewSnapshotStore`). */
export interface ViewSnapshotStore {
  get(target: string): unknown
}

/** The per-session snapshot the `useSession` hook selects from (`ConversationSnapshot`, reduced). */
export interface SessionSnapshot {
  readonly sessionId: string
  readonly views: ViewSnapshotStore
  readonly chat: ChatSnapshot
  /** A turn is running. */
  readonly running: boolean
  /** Older history exists outside the loaded window. */
  readonly hasMore: boolean
  /**
   * The subagent this window shows, or `null` for a top-level session (`dsh-client-runtime`
   * `SessionManager` snapshot): its address (`mode` `'one-shot'` or continuable) and whether its
   * parent session is live.
   */
  readonly subagent?: { readonly address: { readonly mode?: string }; readonly parentAvailable?: boolean } | null
}

/**
 * Whether the window's composer is DSH's read-only stand-in, so text put back into the composer
 * would go nowhere: the same rule as `dsh-client-ui-subagent` `selectReadOnlySubagent`, which
 * claims the `conversation.composer` seat for a one-shot subagent record, and for a continuable
 * subagent whose parent is not live while no turn runs.
 * @param snapshot - the session snapshot.
 * @returns `true` when the composer is read-only.
 */
export function composerReadOnly(snapshot: Pick<SessionSnapshot, 'subagent' | 'running'>): boolean {
  const subagent = snapshot.subagent
  if (subagent === undefined || subagent === null) return false
  if (subagent.address.mode === 'one-shot') return true
  if (subagent.parentAvailable === true) return false
  return snapshot.running !== true
}

/** `useSession` / `useInput`: select from a snapshot store, re-rendering when the selection changes. */
export type SnapshotSelectorHook<S> = <T>(selector: (snapshot: S) => T) => T

/** The public composer face (`InputActions`); `setDraft`, and `addImages` for a recall's images. */
export interface InputActions {
  setDraft(text: string): void
  /** Append browser-owned draft image ids (`DraftAttachmentId`); `false` while a send is being admitted. */
  addImages?(ids: readonly string[]): boolean
}

/** Composer state read through `useInput` (`InputState`, reduced). */
export interface InputState {
  readonly draft: string
}

/** Translate bound to a namespace: `{name}` placeholders filled from `params`. */
export type Translate = (key: string, params?: Record<string, string | number>) => string

/** Immutable locale state (`LocaleSnapshot`). `active` is `'zh'` or `'en'`. */
export interface LocaleSnapshot {
  readonly active: string
  readonly revision: number
}

/** The browser locale service (`LocaleRuntime`). */
export interface LocaleService {
  register(ns: string, dicts: Record<'zh' | 'en', Record<string, string>>): () => void
  bind(ns: string): Translate
  getSnapshot(): LocaleSnapshot
  subscribe(listener: () => void): () => void
}

/** A matched event with its resolved placement (`ConversationMatch`). */
export interface ConversationMatch {
  readonly event: LogEvent
  readonly role: 'start' | 'update'
}

/** What a Definition sees of its assembled Context (`ConversationNodeContext`). */
export interface ConversationNodeContext<State> {
  readonly key: string
  readonly kind: string
  readonly id: string
  readonly state: State | undefined
}

/** Target-neutral node built by a Definition (`ConversationViewNode`). */
export interface ConversationViewNode<Data = unknown> {
  readonly key: string
  readonly kind: string
  readonly id: string
  readonly target: string
  readonly data: Data
}

/** One business event-to-node state machine (`ConversationNodeDefinition`). */
export interface ConversationNodeDefinition<State> {
  readonly kind: string
  readonly target?: string
  match(event: LogEvent): { readonly id: string; readonly role: 'start' | 'update' } | null
  start(context: ConversationNodeContext<State>, match: ConversationMatch): State
  update(context: ConversationNodeContext<State> & { readonly state: State }, match: ConversationMatch): State
  publication?(match: ConversationMatch): 'none' | 'animation-frame' | 'immediate'
  buildViewNode?(context: ConversationNodeContext<State>): ConversationViewNode | null
}

/** Per-session incremental builder of one view target (`ConversationViewBuilder`). */
export interface ConversationViewBuilder<Node extends ConversationViewNode, Snapshot> {
  readonly empty: Snapshot
  replace(input: { readonly nodes: readonly Node[] }): Snapshot
  apply(input: { readonly upserts: readonly Node[] }): Snapshot
}

/** Registry contribution creating one builder per session (`ConversationViewDefinition`). */
export interface ConversationViewDefinition<Node extends ConversationViewNode, Snapshot> {
  readonly target: string
  create(): ConversationViewBuilder<Node, Snapshot>
}

/** `ctx.conversationEvents` (`ConversationEventRegistry`). */
export interface ConversationEventRegistry {
  register<State>(definition: ConversationNodeDefinition<State>): () => void
}

/** `ctx.conversationViews` (`ConversationViewRegistry`). */
export interface ConversationViewRegistry {
  register<Node extends ConversationViewNode, Snapshot>(definition: ConversationViewDefinition<Node, Snapshot>): () => void
}

/** Options of `ctx.slots.register` used here. */
export interface SlotRegisterOptions {
  readonly name: string
  readonly id: string
  readonly order?: number
  readonly locale?: string
  readonly inject?: (sessionId: string) => Record<string, unknown>
}

/** `ctx.slots` (`SlotRegistry`), reduced to the two calls an entry makes. */
export interface SlotService {
  inject(name: string, callback: () => () => void): () => void
  register(options: SlotRegisterOptions, component: unknown): () => void
}

/**
 * `ctx.sessions` (`SessionRuntime`, `dsh-client-runtime/lib/types/client/sessions/service.d.ts`),
 * reduced to opening a session and keeping the list: `open` selects a listed session, `refresh`
 * re-pulls the list (`session.list`, single-flight), and `list` is the list snapshot store
 * (`SessionListState`: `ids` in host-list order, `byId`, and `phase`, `'pending'` until the first
 * pull lands, then `'ready'`), whose `subscribe` calls back on every change and returns the
 * unsubscribe function.
 */
export interface SessionsService {
  /**
   * The stable binding of a listed or scoped session (`SessionBinding`), whose `session` is the
   * outward session face (`SessionFace`); `readAttachment` is the only verb used from it.
   */
  binding?(id: string): { readonly session: { readAttachment(attachmentId: string): Promise<unknown> } } | undefined
  open(id: string): void
  refresh(): Promise<void>
  /**
   * The object layer (`SessionsManager`), whose `handleHostEnvelope` the runtime calls per frame
   * of the host's live stream (`SessionRuntime.handleHostEnvelope` → `this.manager.handleHostEnvelope`).
   */
  readonly manager?: HostFrameEntry
  readonly list: {
    getSnapshot(): { readonly ids: readonly string[]; readonly byId: Readonly<Record<string, unknown>>; readonly phase: 'pending' | 'ready' }
    subscribe(listener: () => void): () => void
  }
}

/** One frame of the host's live stream as the page receives it (`HostEnvelope`), reduced to what is read. */
export interface HostEnvelope {
  readonly payload?: { readonly type?: unknown; readonly sessionId?: unknown; readonly [field: string]: unknown }
  readonly [field: string]: unknown
}

/** The frame entry of the page's session layer: every host frame goes through it, in order. */
export interface HostFrameEntry {
  handleHostEnvelope(envelope: HostEnvelope): void
}

/**
 * `ctx.conversation` (`ConversationController`, `dsh-client-ui-conversation/lib/types/client/service.d.ts`),
 * reduced to the draft-image verbs: `createDraftImages` validates each file's type (png, jpeg, webp,
 * gif; `UnsupportedImageMediaTypeError` otherwise) and returns descriptors whose `id` is a
 * `DraftAttachmentId` that `InputActions.addImages` accepts.
 */
export interface ConversationService {
  createDraftImages(files: readonly File[]): readonly { readonly id: string }[]
  releaseDraftImages(attachments: readonly { readonly id: string }[]): void
}
