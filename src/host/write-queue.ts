/**
 * A per-session queue for this plugin's own writes. Each write holds the agent's maintenance
 * slot while it appends and flushes, and `agent.runMaintenance` refuses a second holder at once
 * (`dsh-agent-loop` `runMaintenance`), so without a queue two removals sent in quick succession
 * give one success and one "busy" although no agent works. Writes to one session wait here, in
 * arrival order, for at most `waitMs`; a real turn, a compaction or any other holder of the
 * maintenance slot still refuses at once, because only this plugin's writes queue.
 *
 * Independent of HTTP: the route, batch application and any other writer share one instance.
 *
 * @module dsh-message-recall/host/write-queue
 */
import type { AgentBusyRefusal } from './refusals'

/** Outcome of {@link WriteQueue.run}. */
export type QueueOutcome<T> =
  | { readonly ok: true; readonly value: T }
  /** The earlier writes did not finish within the wait; the task did not run. */
  | { readonly ok: false; readonly waitedMs: number; readonly ahead: number }

/**
 * The refusal of a write whose turn in the queue did not come in time.
 * @param sessionId - the session.
 * @param queued - the queue's answer (how many writes were ahead).
 * @param waitMs - the queue's bound on the wait, in milliseconds.
 * @returns an `AGENT_BUSY` refusal naming the writes ahead and the wait.
 */
export function queueBusy(sessionId: string, queued: { readonly ahead: number }, waitMs: number): AgentBusyRefusal {
  return { code: 'AGENT_BUSY', sessionId, detail: `${queued.ahead} earlier message-recall write${queued.ahead === 1 ? '' : 's'} to this session did not finish within ${waitMs} ms` }
}

/** Default bound on the wait for earlier writes of the same session, in milliseconds. */
export const DEFAULT_QUEUE_WAIT_MS = 2000

interface Lane {
  /** Settles when the last enqueued task has finished (or given up). */
  tail: Promise<void>
  /** Tasks enqueued and not finished. */
  size: number
}

/** Serializes tasks per key (a session id). */
export class WriteQueue {
  private readonly lanes = new Map<string, Lane>()

  /** @param waitMs - how long a task waits for the earlier tasks of its key before giving up. */
  constructor(readonly waitMs: number = DEFAULT_QUEUE_WAIT_MS) {}

  /**
   * Run `task` after every earlier task of `key` has finished.
   * @param key - the session id.
   * @param task - the write; it runs alone among this queue's tasks of `key`.
   * @returns `{ ok: true, value }` with the task's result, or `{ ok: false, waitedMs, ahead }`
   * when the earlier tasks did not finish within `waitMs` (the task never ran; later tasks still
   * wait for the earlier ones, not for this one).
   * @throws whatever `task` throws.
   */
  async run<T>(key: string, task: () => Promise<T>): Promise<QueueOutcome<T>> {
    const lane = this.lanes.get(key) ?? { tail: Promise.resolve(), size: 0 }
    this.lanes.set(key, lane)
    const ahead = lane.size
    const before = lane.tail
    let release!: () => void
    const done = new Promise<void>((resolve) => (release = resolve))
    lane.tail = before.then(() => done)
    lane.size++
    const finish = (): void => {
      release()
      lane.size--
      if (lane.size === 0 && this.lanes.get(key) === lane) this.lanes.delete(key)
    }
    if (ahead > 0) {
      const started = Date.now()
      let timer: ReturnType<typeof setTimeout> | undefined
      const timedOut = await Promise.race([
        before.then(() => false),
        new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(true), this.waitMs))),
      ])
      clearTimeout(timer)
      if (timedOut) {
        finish()
        return { ok: false, waitedMs: Date.now() - started, ahead }
      }
    }
    try {
      return { ok: true, value: await task() }
    } finally {
      finish()
    }
  }

  /** Number of tasks of `key` enqueued and not finished (0 for an idle key). */
  pending(key: string): number {
    return this.lanes.get(key)?.size ?? 0
  }
}
