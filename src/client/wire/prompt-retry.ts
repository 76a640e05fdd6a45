/**
 * A prompt the person sends while this plugin holds the session is sent again, so the refusal
 * never shows.
 *
 * To write to a session that is only stored, the host half enters it for a few milliseconds
 * (`host/stored-session`). A prompt sent to it in that window reaches DSH's agent resolver, whose
 * cold resume is then refused (`dsh-api-remotes` `createApiRemoteAgentResolver`: `agents.resume`
 * → `sessionPersistence.prepare` throws `cannot prepare session "<id>" while it is live`), and
 * the web host answers `session.prompt` with `{ ok: false, error: { code: 'internal', message:
 * 'resume failed for session "<id>": … while it is live' } }`, which the composer shows. Nothing is
 * admitted before that refusal, so the same request can be sent again once the hold ends.
 *
 * The rc.8 browser client posts every RPC through `globalThis.fetch`, looked up per call
 * (`dsh-client-connection` `WebApiClient.doFetch`, `POST /api/<method>`), so a wrapper around
 * the page's `fetch` sees the answer first: an answer to `POST /api/session.prompt` that is this
 * refusal is sent again, unchanged (the same `rpcId`, which the client checks on the answer),
 * after 25, 50, 100, 200 and 400 ms; any other answer, or the last one, goes to the page as it
 * came.
 *
 * @module dsh-message-recall/client/wire/prompt-retry
 */

/** The page's `fetch` as used here. */
export type PageFetch = (input: RequestInfo | URL, init?: RequestInit) => Promise<Response>

/** Waits before each new attempt, ms (five more attempts over about 0.8 s). */
export const PROMPT_RETRY_DELAYS_MS: readonly number[] = Object.freeze([25, 50, 100, 200, 400])

const HOLD_REFUSAL = /cannot prepare session ".*" while it is live/su

/**
 * Whether a `session.prompt` answer is the refusal of a session held for a moment.
 * @param body - the parsed answer (`{ type, rpcId, result }`).
 * @returns `true` for `result.ok === false` with code `internal` and the prepare refusal's message.
 */
export function isHoldRefusal(body: unknown): boolean {
  if (typeof body !== 'object' || body === null) return false
  const result = (body as { result?: unknown }).result
  if (typeof result !== 'object' || result === null || (result as { ok?: unknown }).ok !== false) return false
  const error = (result as { error?: unknown }).error
  if (typeof error !== 'object' || error === null) return false
  const { code, message } = error as { code?: unknown; message?: unknown }
  return code === 'internal' && typeof message === 'string' && HOLD_REFUSAL.test(message)
}

function isPromptPost(input: RequestInfo | URL, init: RequestInit | undefined): boolean {
  const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url
  const method = init?.method ?? (typeof input === 'object' && !(input instanceof URL) ? input.method : 'GET')
  return method.toUpperCase() === 'POST' && /\/api\/session\.prompt(?:[?#]|$)/u.test(url) && typeof init?.body === 'string'
}

/**
 * A `fetch` that sends a held session's prompt again.
 * @param inner - the page's own `fetch`.
 * @param wait - resolves after the given ms (the page's `setTimeout`, or a test's clock).
 * @param delaysMs - waits before each new attempt.
 * @returns the wrapping `fetch`; requests other than `POST /api/session.prompt` pass through untouched.
 */
export function promptRetryFetch(inner: PageFetch, wait: (ms: number) => Promise<void>, delaysMs: readonly number[] = PROMPT_RETRY_DELAYS_MS): PageFetch {
  return async (input, init) => {
    if (!isPromptPost(input, init)) return inner(input, init)
    for (let attempt = 0; ; attempt++) {
      const response = await inner(input, init)
      const delay = delaysMs[attempt]
      if (delay === undefined || !response.ok) return response
      let body: unknown
      try {
        body = await response.clone().json()
      } catch {
        return response
      }
      if (!isHoldRefusal(body)) return response
      await wait(delay)
    }
  }
}

/**
 * Put the wrapper on the page's `fetch`.
 * @param page - the page global (`globalThis`).
 * @returns the disposer: puts the page's own `fetch` back when the wrapper is still in place.
 */
export function installPromptRetry(page: { fetch: PageFetch; setTimeout: (fn: () => void, ms: number) => unknown }): () => void {
  const own = page.fetch
  const wrapper = promptRetryFetch((input, init) => own.call(page, input, init), (ms) => new Promise((resolve) => { page.setTimeout(() => resolve(), ms) }))
  page.fetch = wrapper
  return () => {
    if (page.fetch === wrapper) page.fetch = own
  }
}
