/**
 * The one stand-in of the client tests: `fetch` at the wire. It records every request body sent
 * to the route and answers from a script the test sets. For writes it can act like the host: append
 * the tombstone to the test's real rc.8 `Session` and deliver that event to the session harness,
 * as the live event stream does.
 *
 * @module test/client/support/fake-host
 */
import type { Session } from '@deepseek-ai/dsh-session'
import type { LogEvent } from '../../../src/shared/events'
import { plainText } from '../../../src/shared/message-text'
import type { RemovalAction } from '../../../src/shared/actions'
import { appendTombstone, type SessionHarness } from './page'

/** A request as the route received it. */
export interface SeenRequest {
  readonly url: string
  readonly method: string
  readonly headers: Record<string, string>
  readonly body: Record<string, any>
}

/**
 * What the script answers: a reply body (status 200/409…), or `'network'` for a failed fetch.
 * `headers` are the response headers (lower-case names); `bodyAfter`, when given, holds the body's
 * `text()` until it settles, as a browser that reads a body after the response started.
 */
export type Answer = { status: number; body: unknown; headers?: Readonly<Record<string, string>>; bodyAfter?: Promise<void> } | 'network'

/** Installs itself as `globalThis.fetch` until `restore()`. */
export class FakeHost {
  readonly requests: SeenRequest[] = []
  private readonly original = globalThis.fetch
  script: (body: Record<string, any>) => Answer | Promise<Answer> = () => ({ status: 500, body: { ok: false, error: { code: 'INTERNAL', message: 'no script' } } })

  constructor() {
    globalThis.fetch = (async (url: string, init: { method: string; headers: Record<string, string>; body: string }) => {
      const body = JSON.parse(init.body) as Record<string, any>
      this.requests.push({ url, method: init.method, headers: init.headers, body })
      const answer = await this.script(body)
      if (answer === 'network') throw new TypeError('Failed to fetch')
      const headers = answer.headers ?? {}
      return {
        status: answer.status,
        headers: { get: (name: string) => headers[name.toLowerCase()] ?? null },
        text: async () => {
          await answer.bodyAfter
          return JSON.stringify(answer.body)
        },
      }
    }) as unknown as typeof fetch
  }

  restore(): void {
    globalThis.fetch = this.original
  }

  /** Requests of one action. */
  of(action: string): Record<string, any>[] {
    return this.requests.filter((r) => r.body.action === action).map((r) => r.body)
  }
}

/**
 * A script that plans and writes like the host for fixed removals: `removals` maps a target seq
 * to the surface seqs its action removes. Writes append to `session` and go live in `harness`.
 */
export function hostLike(session: Session, harness: SessionHarness, removals: Record<number, readonly number[]>) {
  const lastSeq = () => Math.max(...session.surface.nodes)
  return (body: Record<string, any>): Answer => {
    const removed = removals[body.seq]
    if (removed === undefined) return { status: 409, body: { ok: false, error: { code: 'TARGET_NOT_FOUND', message: `message-recall: target seq ${body.seq} is not on the current surface` } } }
    const kinds = removed.map((seq) => {
      const e = session.events[seq] as LogEvent
      return e.surfaceOp !== 'append' ? 'tombstone' : e.type === 'user/message' ? 'user' : e.type === 'assistant/message' ? 'assistant' : 'tool'
    })
    if (body.action === 'plan') {
      return { status: 200, body: { ok: true, value: { action: body.planAction, range: { start: removed[0], end: removed.at(-1) }, shadowedSeqs: removed, nodeKinds: kinds, removedCount: kinds.filter((kind) => kind !== 'tombstone').length, estimatedTokens: 10, replaceGeneration: session.surface.replaceGeneration, lastSeq: lastSeq() } } }
    }
    const tomb = appendTombstone(session, body.action as RemovalAction, removed)
    harness.append(tomb as LogEvent)
    const target = session.events[body.seq]!.data as any
    const extra = body.action === 'recall'
      ? { content: target.content, text: plainText(target.content) }
      : {}
    return { status: 200, body: { ok: true, value: { action: body.action, tombstoneSeq: tomb.seq, range: { start: removed[0], end: removed.at(-1) }, shadowedSeqs: removed, nodeKinds: kinds, replaceGeneration: session.surface.replaceGeneration, persisted: true, ...extra } } }
  }
}

/** A refusal answer. */
export function refusal(code: string, status = 409): Answer {
  return { status, body: { ok: false, error: { code, message: `message-recall: ${code}` } } }
}
