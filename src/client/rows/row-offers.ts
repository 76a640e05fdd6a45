/**
 * What a row offers once the hiding rules are applied (`deriveHiddenRows`): most rows offer what
 * their node offers (`resolve-row.ts`); a row whose message was restored acts on the restoring copy's
 * seq; a row whose message is excluded offers **Restore** (when the exclusion can be restored in
 * place, `shared/fate.ts` `Fates.canRestore`: on the surface, shadowing only this message the
 * person sent) and **Open a copy**, both acting on the exclusion's
 * tombstone, instead of the removal buttons; a row whose message a compaction folded (`folded` in
 * `shared/fate.ts`: the model reads the compaction summary instead) is marked as summarized and
 * offers {@link FOLDED_ACTIONS}, the actions that work on a folded message. Pure; offers are memoized per hiding result, so their
 * identity is stable between passes that derive nothing new.
 *
 * @module dsh-message-recall/client/rows/row-offers
 */
import type { HiddenRowsResult } from '../../shared/hidden-rows'
import type { RowError } from './button-store'
import { actionsOfferedOn } from '../../shared/actions'
import type { RowAction, RowAnchor } from './resolve-row'
import type { TombstoneError } from '../stores/tombstone-actions'

/** The buttons of a row and the seq they act on. */
export interface RowOffer {
  readonly key: string
  /** The message seq a removal acts on, or for `restore`/`forkBefore` the exclusion's tombstone seq. */
  readonly seq: number | null
  readonly actions: readonly RowAction[]
  /** The row's message is excluded from the model's context. */
  readonly excluded?: boolean
  /** The row's message is folded into a compaction summary. */
  readonly folded?: boolean
}

/**
 * What a row whose message a compaction folded offers, of what its node offers: Recall, Delete,
 * Delete onward and Exclude, which the host writes as a summary rewrite (the summary is written
 * again without the message, a model call; Delete onward also removes every message after the
 * summary, in the same step) and which all ask for a second click naming that cost (Recall too, on
 * such a row). Delete onward only where the summary keeps a message before this one
 * (`Fates.summaryKeepsBefore`): from the first summarized message nothing would be left to summarize.
 */
export const FOLDED_ACTIONS: readonly RowAction[] = Object.freeze(['recall', 'delete', 'deleteFrom', 'exclude'])

const foldedMemo = new Map<string, readonly RowAction[]>()

/** The folded actions among a row's own, frozen and shared per set; Delete onward only when `onward`. */
function foldedActions(actions: readonly RowAction[], onward: boolean): readonly RowAction[] {
  const kept = FOLDED_ACTIONS.filter((a) => actions.includes(a) && (onward || a !== 'deleteFrom'))
  const key = kept.join()
  let known = foldedMemo.get(key)
  if (known === undefined) foldedMemo.set(key, known = Object.freeze(kept))
  return known
}

const RESTORE_OR_FORK: readonly RowAction[] = Object.freeze([...actionsOfferedOn('excluded'), 'forkBefore'])
const FORK_ONLY: readonly RowAction[] = Object.freeze(['forkBefore'])

const memo = new WeakMap<RowAnchor, { readonly hidden: HiddenRowsResult; readonly offer: RowOffer }>()

/**
 * The offer of one row.
 * @param anchor - the row's resolved node.
 * @param hidden - the hiding result of the same pass.
 * @returns the anchor itself when nothing changes it, else a frozen offer (memoized per anchor and `hidden`).
 */
export function offerOf(anchor: RowAnchor, hidden: HiddenRowsResult): RowOffer {
  const acting = hidden.actingSeqs.get(anchor.key)
  const excluded = hidden.excludedKeys.has(anchor.key)
  const folded = !excluded && anchor.seq !== null && anchor.actions.length > 0 && hidden.fateOf(anchor.seq).state === 'folded'
  if (acting === undefined && !excluded && !folded) return anchor
  const known = memo.get(anchor)
  if (known !== undefined && known.hidden === hidden) return known.offer
  const offer = Object.freeze(
    excluded ? excludedOffer(anchor, hidden)
      : folded ? { key: anchor.key, seq: acting ?? anchor.seq, actions: foldedActions(anchor.actions, hidden.fates.summaryKeepsBefore(anchor.seq!)), folded: true }
      : { key: anchor.key, seq: acting!, actions: anchor.actions },
  )
  memo.set(anchor, { hidden, offer })
  return offer
}

function excludedOffer(anchor: RowAnchor, hidden: HiddenRowsResult): RowOffer {
  const tombstoneSeq = hidden.excluded.find((row) => row.key === anchor.key)!.tombstoneSeq
  // The row's message, or the restoring copy that stands for it, is a message the person sent
  // when the row offers Recall; other nodes are not held here.
  const message = anchor.seq === null ? null : hidden.fateOf(anchor.seq).actingSeq
  const sentByPerson = anchor.actions.includes('recall')
  const restorable = hidden.fates.canRestore(tombstoneSeq, (seq) => (seq === message && sentByPerson ? 'user' : null))
  return { key: anchor.key, seq: tombstoneSeq, actions: restorable ? RESTORE_OR_FORK : FORK_ONLY, excluded: true }
}

const errorMemo = new WeakMap<TombstoneError, Map<string, RowError>>()

/**
 * The error an excluded row shows: the last refusal of a Restore or Open a copy of its exclusion.
 * @param offer - the row's offer (only excluded offers have one).
 * @param errors - tombstone seq → refusal, from the session's restore and copy requests.
 * @returns the row error (the same object while the refusal is the same), or `null`.
 */
export function offerError(offer: RowOffer, errors: ReadonlyMap<number, TombstoneError> | undefined): RowError | null {
  const refusal = offer.excluded === true && offer.seq !== null ? errors?.get(offer.seq) : undefined
  if (refusal === undefined) return null
  let byKey = errorMemo.get(refusal)
  if (byKey === undefined) errorMemo.set(refusal, byKey = new Map())
  let error = byKey.get(offer.key)
  if (error === undefined) byKey.set(offer.key, error = Object.freeze({ key: offer.key, code: refusal.code, message: refusal.message }))
  return error
}
