/**
 * **Erase for good** of a removal, for one session, as the Removed panel offers it: the panel shows
 * only sessions the host holds open, so the erase is kept by the host for its next start (the
 * route's `erase` with `when: 'next-start'`), listed (`pendingErases`) and can be cancelled
 * (`cancelErase`); one that failed at the host's last start can be asked for again, pending again
 * (`retry`, the same `erase`). Which entry has its confirmation open, and the host's plan of that erase (how
 * many messages, images and tool output files it takes, and which related sessions hold the same
 * messages: its copies, the sessions it was copied from and their other copies, `copies` of the
 * plan), are kept here too, with the related sessions' removals checked to be erased along (one
 * check per removal of them there; checked by default unless that removal takes more messages
 * than the erase being confirmed): confirming asks for the erase in the session and each checked
 * removal (its own `erase` in its own session, `when: 'next-start'`, a source as a copy), all
 * requests made whatever the others answer, and keeps the refusals of their requests.
 *
 * A plain store (`getSnapshot`/`subscribe`, immutable snapshots), no DOM and no React. One request
 * at a time per session; a press while one is in flight is ignored. A refusal is kept per tombstone
 * until the next request about it.
 *
 * @module dsh-message-recall/client/stores/erase-requests
 */
import type { EraseCopyRemovalValue, EraseCopyValue, ErasePlanValue, PendingEraseValue } from '../../shared/protocol'
import type { RecallError, RecallSender } from '../wire/api'
import { SnapshotStore } from './snapshot-store'

/** One immutable snapshot. */
export interface EraseRequestsState {
  /** Whether the session's pending erases were read from the host. */
  readonly loaded: boolean
  /** Tombstone seq → its pending (or failed) erase. */
  readonly erases: ReadonlyMap<number, PendingEraseValue>
  /** The entry whose confirmation is open, or `null`. */
  readonly confirming: number | null
  /** The host's plan of that erase (what it takes), once read; `null` before. */
  readonly plan: ErasePlanValue | null
  /** The tombstone a request is in flight for, or `null`. */
  readonly busy: number | null
  /** Tombstone seq → the last refusal of a request about it. */
  readonly errors: ReadonlyMap<number, RecallError>
  /** The related sessions' removals in the plan to erase along, by {@link copyRemovalKey}. */
  readonly checked: ReadonlySet<string>
  /** Tombstone seq → the copies whose erase was refused at its last confirmation, each with the refusal. */
  readonly copyErrors: ReadonlyMap<number, readonly CopyRefusal[]>
}

/** A related session's removal whose erase was refused. */
export interface CopyRefusal {
  readonly copy: EraseCopyValue
  readonly tombstoneSeq: number
  readonly error: RecallError
}

/**
 * The key of one related session's removal in {@link EraseRequestsState.checked}.
 * @param sessionId - the related session.
 * @param tombstoneSeq - its removal.
 * @returns `<sessionId>#<tombstoneSeq>`.
 */
export function copyRemovalKey(sessionId: string, tombstoneSeq: number): string {
  return `${sessionId}#${tombstoneSeq}`
}

/**
 * Whether a related session's removal is checked by default: when an erase of it there takes no
 * more messages than the erase being confirmed.
 * @param removal - the removal, from the plan.
 * @param plan - the plan of the erase being confirmed.
 * @returns `true` when it is.
 */
export function checkedByDefault(removal: EraseCopyRemovalValue, plan: ErasePlanValue): boolean {
  return removal.messageCount <= plan.messageCount
}

function defaultChecks(plan: ErasePlanValue): Set<string> {
  return new Set(plan.copies.flatMap((c) => c.removals.filter((r) => checkedByDefault(r, plan)).map((r) => copyRemovalKey(c.sessionId, r.tombstoneSeq))))
}

const INITIAL: EraseRequestsState = Object.freeze({ loaded: false, erases: new Map(), confirming: null, plan: null, busy: null, errors: new Map(), checked: new Set<string>(), copyErrors: new Map() })

/** The per-session store; see the module description. */
export class EraseRequests extends SnapshotStore<EraseRequestsState> {
  private loading: Promise<void> | null = null

  constructor(private readonly options: { readonly sessionId: string; readonly send: RecallSender }) {
    super(INITIAL)
  }

  /**
   * Read the session's pending erases (`pendingErases`), once per store unless `again`.
   * @param again - read again even when read before.
   * @returns when the list is read (a failed read leaves it as it was, not loaded).
   */
  load(again = false): Promise<void> {
    if (this.loading !== null && !again) return this.loading
    this.loading = (async () => {
      const reply = await this.options.send({ sessionId: this.options.sessionId, action: 'pendingErases' })
      if (!reply.ok) {
        this.loading = null
        return
      }
      this.set({ loaded: true, erases: new Map(reply.value.erases.map((e) => [e.tombstoneSeq, e])) })
    })()
    return this.loading
  }

  /**
   * Open the confirmation of one entry (closing any other) and read what the erase would take
   * (`plan` with `planAction: 'erase'`); a refused plan closes it and keeps the refusal.
   * @param tombstoneSeq - the removal.
   * @returns once the plan is read.
   */
  async confirm(tombstoneSeq: number): Promise<void> {
    const errors = new Map(this.state.errors)
    errors.delete(tombstoneSeq)
    this.set({ confirming: tombstoneSeq, plan: null, errors, checked: new Set() })
    const reply = await this.options.send({ sessionId: this.options.sessionId, action: 'plan', planAction: 'erase', tombstoneSeq })
    if (this.state.confirming !== tombstoneSeq) return
    if (reply.ok) this.set({ plan: reply.value, checked: defaultChecks(reply.value) })
    else this.set({ confirming: null, errors: new Map(this.state.errors).set(tombstoneSeq, reply.error) })
  }

  /** Close the confirmation. */
  dismiss(): void {
    if (this.state.confirming !== null) this.set({ confirming: null, plan: null, checked: new Set() })
  }

  /**
   * Check or uncheck a related session's removal in the open confirmation's plan (one the plan does not list is ignored).
   * @param sessionId - the related session's id.
   * @param tombstoneSeq - its removal.
   * @param checked - whether to erase it along.
   */
  check(sessionId: string, tombstoneSeq: number, checked: boolean): void {
    const copy = this.state.plan?.copies.find((c) => c.sessionId === sessionId)
    if (copy === undefined || !copy.removals.some((r) => r.tombstoneSeq === tombstoneSeq)) return
    const next = new Set(this.state.checked)
    const key = copyRemovalKey(sessionId, tombstoneSeq)
    if (checked) next.add(key)
    else next.delete(key)
    this.set({ checked: next })
  }

  /**
   * Ask the host to erase a removal for good when it next starts, and each checked removal of a
   * related session in the open confirmation's plan; closes the confirmation.
   * @param tombstoneSeq - the removal.
   * @returns whether the host kept the session's erase (a refusal is kept in `errors`; the
   *   copies' refusals in `copyErrors`).
   */
  schedule(tombstoneSeq: number): Promise<boolean> {
    const plan = this.state.plan?.tombstoneSeq === tombstoneSeq ? this.state.plan : null
    const copies = (plan?.copies ?? []).flatMap((copy) => copy.removals.filter((r) => this.state.checked.has(copyRemovalKey(copy.sessionId, r.tombstoneSeq))).map((r) => ({ copy, tombstoneSeq: r.tombstoneSeq })))
    const copyErrors = new Map(this.state.copyErrors)
    copyErrors.delete(tombstoneSeq)
    this.set({ copyErrors })
    return this.run(tombstoneSeq, async () => {
      const [error, replies] = await Promise.all([
        this.requestOwn(tombstoneSeq),
        Promise.all(copies.map(({ copy, tombstoneSeq: seq }) => this.options.send({ sessionId: copy.sessionId, action: 'erase', when: 'next-start', tombstoneSeq: seq }))),
      ])
      const refused = copies.flatMap(({ copy, tombstoneSeq: seq }, i) => {
        const copyReply = replies[i]!
        return copyReply.ok ? [] : [{ copy, tombstoneSeq: seq, error: copyReply.error }]
      })
      if (refused.length > 0) this.set({ copyErrors: new Map(this.state.copyErrors).set(tombstoneSeq, refused) })
      return error
    })
  }

  /**
   * Ask again for an erase that failed at the host's last start (**Try again at next start**): the
   * route's `erase` with `when: 'next-start'` of the session's own removal alone (not its copies),
   * which the host checks afresh and keeps pending again in place of the failed record.
   * @param tombstoneSeq - the removal.
   * @returns whether the host kept it pending (a refusal is kept in `errors`, the failed record as it was).
   */
  retry(tombstoneSeq: number): Promise<boolean> {
    return this.run(tombstoneSeq, () => this.requestOwn(tombstoneSeq))
  }

  /**
   * Drop the pending erase of a removal.
   * @param tombstoneSeq - the removal.
   * @returns whether the host dropped it (or had none).
   */
  cancel(tombstoneSeq: number): Promise<boolean> {
    return this.run(tombstoneSeq, async () => {
      const reply = await this.options.send({ sessionId: this.options.sessionId, action: 'cancelErase', tombstoneSeq })
      if (!reply.ok) return reply.error
      const erases = new Map(this.state.erases)
      erases.delete(tombstoneSeq)
      this.set({ erases })
      return null
    })
  }

  /** Drop listeners. */
  dispose(): void {
    this.dropListeners()
  }

  /** The route's `erase` with `when: 'next-start'` of this session's removal; the record kept is listed at once. */
  private async requestOwn(tombstoneSeq: number): Promise<RecallError | null> {
    const reply = await this.options.send({ sessionId: this.options.sessionId, action: 'erase', when: 'next-start', tombstoneSeq })
    if (!reply.ok) return reply.error
    this.set({ erases: new Map(this.state.erases).set(tombstoneSeq, reply.value.erase) })
    return null
  }

  private async run(tombstoneSeq: number, request: () => Promise<RecallError | null>): Promise<boolean> {
    if (this.state.busy !== null) return false
    const errors = new Map(this.state.errors)
    errors.delete(tombstoneSeq)
    this.set({ busy: tombstoneSeq, confirming: null, plan: null, checked: new Set(), errors })
    const error = await request()
    const after = new Map(this.state.errors)
    if (error !== null) after.set(tombstoneSeq, error)
    this.set({ busy: null, errors: after })
    return error === null
  }

  private set(patch: Partial<EraseRequestsState>): void {
    this.publish(Object.freeze({ ...this.state, ...patch }))
  }
}
