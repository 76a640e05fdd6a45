/**
 * Storing a copy: the new session is created in a child fiber of the plugin
 * (`SessionStore.create`, `dsh-session`), given its own `session/title` (a `user` title, as the
 * web UI's rename after DSH's Branch writes), flushed with retries, and the fiber disposed, so the
 * copy is stored and not left live (a session left live in the plugin's fiber makes the web UI's
 * resume fail with "cannot prepare session … while it is live").
 *
 * @module dsh-message-recall/host/fork-store
 */
import type { CreateSessionOptions, Session, SessionHeader, SessionId } from '@deepseek-ai/dsh-session'
import { flushWithRetry, type FlushRetryPolicy } from './durable-flush'
import type { ForkPlan } from './fork-plan'
import { MessageRecallError } from './refusals'
import { appendTitle } from './title-events'
import { errorText } from '../shared/error-text'

/** The part of `SessionStore` a fork uses, as seen from the child fiber. */
export interface ForkingStore {
  create(id: SessionId, options: CreateSessionOptions): Session
  flush(session: Session): Promise<boolean>
}

/** What storing a copy reaches. */
export interface CopyStoreServices {
  /**
   * Run `body` with the session store of a fresh child fiber of the plugin, and dispose the fiber
   * once `body` settled (so a session created there does not stay live).
   */
  inChildFiber<T>(body: (store: ForkingStore) => Promise<T>): Promise<T>
  readonly flushRetry?: FlushRetryPolicy
}

/** One copy to store. */
export interface CopyToStore {
  /** The new session's id. */
  readonly id: string
  readonly plan: ForkPlan
  /** Its title, or `null` for none. */
  readonly title: string | null
  /** What is copied, for error messages: `session "<id>" before tombstone seq <n>`. */
  readonly subject: string
}

/** A copy once stored. */
export interface StoredCopy {
  /** Whether a persistence listener took part in the flush. */
  readonly persisted: boolean
  /** The copy's header as created (`Session.header`). */
  readonly header: SessionHeader
}

/**
 * Create, title and flush a copy, and let it go.
 * @param services - see {@link CopyStoreServices}.
 * @param copy - see {@link CopyToStore}.
 * @returns whether a persistence listener took part in the flush (`persisted`), and the copy's header.
 * @throws {@link MessageRecallError} `INTERNAL` when the store refused the copy or its title;
 * `PERSIST_FAILED` (`applied: false`) when the copy could not be flushed after the retries.
 */
export async function storeCopy(services: CopyStoreServices, copy: CopyToStore): Promise<StoredCopy> {
  return services.inChildFiber(async (store) => {
    let child: Session
    try {
      child = store.create(copy.id as SessionId, { seed: [...copy.plan.seed], meta: copy.plan.meta })
      if (copy.title !== null) appendTitle(child, { title: copy.title, messageSeqs: [], source: { kind: 'user' } })
    } catch (error) {
      throw forkFailed(copy.subject, error)
    }
    const flushed = await flushWithRetry(() => store.flush(child), services.flushRetry)
    if (!flushed.ok) {
      throw new MessageRecallError(
        'PERSIST_FAILED',
        `message-recall: the copy of ${copy.subject} could not be stored: the durability flush failed ${flushed.attempts} times: ${flushed.reason}`,
        { cause: flushed.error, details: { applied: false } },
      )
    }
    return { persisted: flushed.persisted, header: child.header }
  })
}

/**
 * The `INTERNAL` error of a fork that could not be made.
 * @param subject - what is copied: `session "<id>" before tombstone seq <n>`.
 * @param error - the cause.
 * @returns `message-recall: could not fork <subject>: <cause's message>`.
 */
export function forkFailed(subject: string, error: unknown): MessageRecallError {
  return new MessageRecallError('INTERNAL', `message-recall: could not fork ${subject}: ${errorText(error)}`, { cause: error })
}
