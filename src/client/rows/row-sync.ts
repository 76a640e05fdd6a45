/**
 * The sync pass: bring every row of this session's chat flow in line with the chat store, the
 * tombstones and the button state. Rows are found through the rc.8 row markers
 * ({@link FLOW_KEY}, {@link FLOW_KIND} in `wire/rc8.ts`) and every key is resolved in this session's own
 * chat store: a row whose key does not resolve, or resolves to a node of another kind, gets
 * nothing (a row of another session can never be targeted).
 *
 * Cost: a pass reads each row's key and compares a few references with the row's cached inputs;
 * only rows whose node, hidden state, button state, running flag, locale or reveal state
 * changed are written. Hiding is applied to every row at once; buttons only to revealed rows.
 *
 * The pass composes five helpers, each with one job: {@link FlowBinding} (which flow, and when it
 * changes), {@link HiddenRowSheet} (the hidden rows' keys as a style sheet, so a row element no
 * pass has seen yet is hidden too), {@link LazyReveal} (which rows may carry buttons),
 * {@link ClickDelegate} (a click on a button becomes a press) and {@link ClusterPlacement} (a
 * prompt row's cluster sits beside DSH's own action band, measured when the pointer or focus
 * reaches the row).
 *
 * @module dsh-message-recall/client/rows/row-sync
 */
import { deriveHiddenRows, type HiddenRowsResult } from '../../shared/hidden-rows'
import { ClickDelegate, type RowPress } from './button-clicks'
import { ClusterPlacement, placeCluster } from './cluster-place'
import type { ArmedState, ButtonState, PendingState, RowError } from './button-store'
import { ClusterFactory, clusterTexts, decorateRow, undecorateAll, undecorateRow, type ClusterTexts } from './decorate'
import { FlowBinding } from './chat-flow'
import { HiddenRowSheet } from './hidden-row-sheet'
import { describeError } from '../text/locales'
import { FLOW_KEY, FLOW_KIND, type ChatSnapshot, type Translate } from '../wire/rc8'
import type { ReplacementSnapshot } from '../wire/replacement-view'
import { LazyReveal } from './lazy-reveal'
import { offerError, offerOf, type RowOffer } from './row-offers'
import type { TombstoneError } from '../stores/tombstone-actions'
import { resolveRow, type RowAction, type RowAnchor } from './resolve-row'
import { summaryFlags, type SummaryFlag } from '../../shared/summary-flag'
import { decorateSummaryRows, type SummaryRowsInput } from './summary-flag-row'

/** Everything a pass reads. */
export interface SyncInput {
  readonly chat: ChatSnapshot
  readonly running: boolean
  readonly replacements: ReplacementSnapshot
  readonly buttons: ButtonState
  /** Locale revision: texts are re-read when it changes. */
  readonly localeRevision: number
  /** Refusals of Restore / Open a copy by tombstone seq, shown on the rows of an exclusion. */
  readonly tombstoneErrors?: ReadonlyMap<number, TombstoneError>
  /** `false` where the composer is read-only (`wire/rc8.ts` `composerReadOnly`): no row offers Recall. Default `true`. */
  readonly recallOffered?: boolean
  /** The Rewrite summary state and handlers: a summary written before a removal of messages it holds is flagged on its row. */
  readonly summary?: Omit<SummaryRowsInput, 'flags'>
}

/** What one pass saw and did (the debug snapshot is built from it). */
export interface PassRecord {
  /** `Date.now()` at the end of the pass. */
  readonly at: number
  /** Duration of the pass, ms. */
  readonly durationMs: number
  readonly running: boolean
  /** The flow was found. */
  readonly attached: boolean
  /** Row elements in the flow. */
  readonly rows: number
  /** Rows written by this pass. */
  readonly touched: number
  /** Keys of rows in the flow that do not resolve in this session's chat store. */
  readonly unresolved: readonly string[]
  /** Rows of the chat store in render order, resolved. */
  readonly anchors: readonly RowAnchor[]
  readonly hidden: HiddenRowsResult
}

/** Construction options of {@link RowSync}. */
export interface RowSyncOptions {
  /** Translate bound to the plugin namespace (read at call time, so it follows the locale). */
  readonly t: Translate
  /** A click on one of the plugin's buttons. */
  readonly onPress: (press: RowPress) => void
}

interface RowCache {
  readonly node: unknown
  readonly hidden: boolean
  readonly running: boolean
  readonly revision: number
  readonly armed: ArmedState | null
  readonly pending: PendingState | null
  readonly error: RowError | null
  readonly offer: RowOffer
  readonly actions: readonly RowAction[]
  readonly isStepRow: boolean
  readonly wanted: boolean
  readonly recallOffered: boolean
  readonly cluster: HTMLElement | null
}

const NO_ACTIONS: readonly RowAction[] = Object.freeze([])

/** Each offer's actions without Recall, one array per offer's array (a stable identity keeps clusters). */
const withoutRecallCache = new WeakMap<readonly RowAction[], readonly RowAction[]>()
function withoutRecall(actions: readonly RowAction[]): readonly RowAction[] {
  if (!actions.includes('recall')) return actions
  let kept = withoutRecallCache.get(actions)
  if (kept === undefined) withoutRecallCache.set(actions, kept = Object.freeze(actions.filter((action) => action !== 'recall')))
  return kept
}

/** Runs sync passes for one session's overlay; see the module description. */
export class RowSync {
  private cache = new WeakMap<Element, RowCache>()
  private revision = Number.NaN
  private texts: ClusterTexts | null = null
  private factory: ClusterFactory | null = null
  private derived: { replacements: ReplacementSnapshot; anchors: readonly RowAnchor[]; result: HiddenRowsResult } | null = null
  private anchorsByKey = new Map<string, RowAnchor>()
  private lastHidden: HiddenRowsResult | null = null
  private onChange: (() => void) | null = null
  private readonly binding: FlowBinding
  private readonly lazy: LazyReveal
  private readonly clicks: ClickDelegate
  private readonly placement = new ClusterPlacement()
  private readonly sheet = new HiddenRowSheet()
  private flags: { replacements: ReplacementSnapshot; flags: readonly SummaryFlag[] } | null = null

  constructor(private readonly options: RowSyncOptions) {
    this.lazy = new LazyReveal({ onReveal: () => this.onChange?.() })
    this.clicks = new ClickDelegate({ anchorOf: (key) => this.offerOf(key), onPress: options.onPress })
    this.binding = new FlowBinding({
      onAttach: (flow) => {
        this.clicks.attach(flow)
        this.lazy.attach(flow)
        this.placement.attach(flow)
      },
      onRelease: (flow) => {
        this.release(flow)
        if (flow.isConnected) undecorateAll(flow)
        this.cache = new WeakMap()
      },
      onScope: (scope) => this.sheet.setScope(scope),
    })
  }

  /**
   * Set the element the overlay rendered; the flow is looked up from it.
   * @param marker - the overlay's anchor element, or `null` on unmount.
   */
  setMarker(marker: Element | null): void {
    this.binding.setMarker(marker)
  }

  /**
   * Re-run `onChange` whenever rows of the flow are added, removed or re-created, the flow itself
   * is replaced, or rows are revealed. Mutations inside rows (streaming text) do not trigger it.
   * @param onChange - usually runs a pass.
   * @returns stops watching.
   */
  watch(onChange: () => void): () => void {
    this.onChange = onChange
    const stop = this.binding.watch(onChange)
    return () => {
      this.onChange = null
      stop()
    }
  }

  /**
   * Run one pass.
   * @param input - see {@link SyncInput}.
   * @returns what the pass saw; never throws for rows of unknown shape.
   */
  run(input: SyncInput): PassRecord {
    const started = performance.now()
    const flow = this.binding.locate()
    if (input.localeRevision !== this.revision || this.texts === null || this.factory === null) {
      this.revision = input.localeRevision
      this.texts = clusterTexts(this.options.t)
      this.factory = flow === null ? null : new ClusterFactory(flow.ownerDocument, this.texts)
    }
    const anchors: RowAnchor[] = []
    const byKey = new Map<string, RowAnchor>()
    for (const key of input.chat.order) {
      const node = input.chat.nodes.get(key)
      if (node === undefined) continue
      const anchor = resolveRow(node)
      anchors.push(anchor)
      byKey.set(key, anchor)
    }
    this.anchorsByKey = byKey
    const hidden = this.deriveHidden(input.replacements, anchors)
    this.lastHidden = hidden
    this.sheet.update(hidden.hiddenKeys)
    let rows = 0
    let touched = 0
    const unresolved: string[] = []
    if (flow !== null) {
      this.factory ??= new ClusterFactory(flow.ownerDocument, this.texts)
      const { buttons, running } = input
      const armedKey = buttons.armed?.key
      const pendingKey = buttons.pending?.key
      const hasErrors = buttons.errors.size > 0
      const recallOffered = input.recallOffered !== false
      const count = flow.childElementCount
      let index = -1
      for (let row = flow.firstElementChild; row !== null; row = row.nextElementSibling) {
        index++
        const key = row.getAttribute(FLOW_KEY)
        if (key === null) continue
        rows++
        const node = input.chat.nodes.get(key)
        const cached = this.cache.get(row)
        if (node === undefined) {
          unresolved.push(key)
          if (cached !== undefined) {
            undecorateRow(row)
            this.cache.delete(row)
            touched++
          }
          continue
        }
        const wanted = this.lazy.isRevealed(row, index, count)
        const isHidden = hidden.hiddenKeys.has(key)
        const armed = armedKey === key ? buttons.armed : null
        const pending = pendingKey === key ? buttons.pending : null
        const offer = offerOf(resolveRow(node), hidden)
        const error = offer.excluded === true ? offerError(offer, input.tombstoneErrors) : hasErrors ? buttons.errors.get(key) ?? null : null
        if (cached !== undefined && cached.node === node && cached.hidden === isHidden && cached.offer === offer && cached.running === running
          && cached.revision === this.revision && cached.armed === armed && cached.pending === pending && cached.error === error
          && cached.wanted === wanted && cached.recallOffered === recallOffered && (cached.cluster === null || cached.cluster.parentNode === row)) continue
        if ((cached === undefined || cached.node !== node) && row.getAttribute(FLOW_KIND) !== node.kind) {
          unresolved.push(key)
          if (cached !== undefined) undecorateRow(row)
          this.cache.delete(row)
          continue
        }
        const anchor = resolveRow(node)
        if (!wanted) this.lazy.observe(row, index)
        const actions = running || !wanted ? NO_ACTIONS : recallOffered ? offer.actions : withoutRecall(offer.actions)
        const fresh = cached !== undefined && (cached.revision !== this.revision || cached.actions !== actions || cached.isStepRow !== anchor.isStepRow)
        const cluster = decorateRow(row as HTMLElement, {
          hidden: isHidden, excluded: offer.excluded === true, folded: offer.folded === true, actions, isStepRow: anchor.isStepRow, armed, pending, error,
          errorText: error === null ? null : describeError(this.options.t, error.code),
        }, this.factory, this.options.t, this.texts, fresh)
        // A new cluster on a row the pointer or focus is already in: no enter event will place it.
        if (cluster !== null && cluster !== cached?.cluster && isEngaged(row)) placeCluster(row)
        this.cache.set(row, {
          node, hidden: isHidden, offer, running, revision: this.revision, armed, pending, error, actions, isStepRow: anchor.isStepRow, wanted, recallOffered, cluster,
        })
        touched++
      }
      if (input.summary !== undefined) decorateSummaryRows(flow, input.chat, { ...input.summary, flags: this.flagsOf(input.replacements) }, this.options.t)
    }
    return {
      at: Date.now(), durationMs: performance.now() - started, running: input.running, attached: flow !== null,
      rows, touched, unresolved, anchors, hidden,
    }
  }

  /**
   * Let rows carry buttons from the next pass on, and run one (through the `watch` callback).
   * @param rows - row elements of the flow.
   */
  reveal(rows: readonly Element[]): void {
    this.lazy.reveal(rows)
  }

  /** Remove every mark of the plugin from the flow and stop listening to it. */
  detach(): void {
    const flow = this.binding.detach()
    if (flow !== null) {
      this.release(flow)
      undecorateAll(flow)
    }
    this.sheet.dispose()
    this.cache = new WeakMap()
    this.derived = null
  }

  private release(flow: HTMLElement): void {
    this.clicks.release(flow)
    this.lazy.release(flow)
    this.placement.release(flow)
  }

  private offerOf(key: string): RowOffer | undefined {
    const anchor = this.anchorsByKey.get(key)
    return anchor === undefined || this.lastHidden === null ? anchor : offerOf(anchor, this.lastHidden)
  }

  /** The summary flags of a replacement view (`shared/summary-flag.ts`), computed once per view. */
  private flagsOf(replacements: ReplacementSnapshot): readonly SummaryFlag[] {
    if (this.flags?.replacements !== replacements) this.flags = { replacements, flags: summaryFlags(replacements) }
    return this.flags.flags
  }

  private deriveHidden(replacements: ReplacementSnapshot, anchors: readonly RowAnchor[]): HiddenRowsResult {
    const last = this.derived
    if (last !== null && last.replacements === replacements && sameAnchors(last.anchors, anchors)) return last.result
    const result = deriveHiddenRows(replacements, anchors)
    this.derived = { replacements, anchors, result }
    return result
  }
}

function isEngaged(row: Element): boolean {
  try {
    return row.matches(':hover, :focus-within')
  } catch {
    return false
  }
}

function sameAnchors(a: readonly RowAnchor[], b: readonly RowAnchor[]): boolean {
  if (a.length !== b.length) return false
  for (let i = 0; i < a.length; i++) {
    const x = a[i]!
    const y = b[i]!
    if (x !== y && (x.key !== y.key || x.rowKind !== y.rowKind || x.seq !== y.seq || x.anchorSeq !== y.anchorSeq || x.turn !== y.turn)) return false
  }
  return true
}
