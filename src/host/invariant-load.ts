/**
 * A session log loaded as DSH loads a stored session, under the package-owned invariant
 * companions, in a cordis `Context` of its own (no host state is touched):
 * `@deepseek-ai/dsh-invariants` `InvariantRegistry` (enabled), `@deepseek-ai/dsh-session`
 * `SessionStore`, and the `./invariant` companions of `dsh-session`, `dsh-compaction` and
 * `dsh-agent-loop`.
 * - The session and compaction companions check the whole log when the store announces the
 *   session (`session/created`: the session companion's turn, step and tool-call pairing trace,
 *   the compaction companion's start/summary/checkpoint/end brackets); the store creates it from
 *   the events as DSH's persistence does (`SessionStore.prepare` with `seedSource: 'persistence'`,
 *   i.e. `Session.fromRestore`, which validates every envelope, the seq contiguity and each
 *   surface transition).
 * - The agent-loop companion checks requests (`llm/stream`), not logs: a log that holds a
 *   `step/start` and folds a `request/header` is given the request the loop would build from it
 *   for its next step (that header's config, system and tools, the messages
 *   `Session.deriveMessages` gives, marked and frozen as `dsh-agent-loop` does with `dsh-llm`'s
 *   `markAgentLoopRequest` and `deepFreeze`), and the companion checks it against the log. Built
 *   from the same log, that request passes unless DSH's own folds disagree, so this companion adds
 *   little to the other two; it runs so that every check DSH's packages own runs. Nothing is sent
 *   anywhere: the chain ends in this module.
 * DSH's packages are imported when a load runs, so the plugin and the log tool start without them.
 *
 * @module dsh-message-recall/host/invariant-load
 */
import type { Session, SessionEvent, SessionHeader } from '@deepseek-ai/dsh-session'
import { errorText } from '../shared/error-text'

/** A log loaded under the companions, or why not. */
export type InvariantLoad =
  | { readonly ok: true; readonly session: Session; readonly messages: ReturnType<Session['deriveMessages']> }
  | { readonly ok: false; readonly problem: string }

type Modules = readonly [
  typeof import('@deepseek-ai/cordis'),
  typeof import('@deepseek-ai/dsh-session'),
  typeof import('@deepseek-ai/dsh-invariants'),
  typeof import('@deepseek-ai/dsh-llm'),
  ...unknown[],
]

let modules: Promise<Modules> | undefined

function loadModules(): Promise<Modules> {
  modules ??= Promise.all([
    import('@deepseek-ai/cordis'),
    import('@deepseek-ai/dsh-session'),
    import('@deepseek-ai/dsh-invariants'),
    import('@deepseek-ai/dsh-llm'),
    import('@deepseek-ai/dsh-session/invariant'),
    import('@deepseek-ai/dsh-compaction/invariant'),
    import('@deepseek-ai/dsh-agent-loop/invariant'),
  ]).catch((error: unknown) => {
    modules = undefined
    throw error
  })
  return modules
}

/**
 * Load a log under the invariant companions (see the module doc).
 * @param id - the session id.
 * @param events - the log's events. With `header` they are taken over (frozen in place, as DSH's
 *   persistence hands them over: pass fresh events); without, they are copied (a snapshot).
 * @param header - the header DSH's reader parsed, or `undefined` for a header the store makes.
 * @returns the loaded session (detached: its `Context` is disposed) and the messages it derives
 *   (`Session.deriveMessages`, computed once), or the first problem in
 *   words: `the invariant companions cannot be loaded: …`, `the new log violates an invariant: …`
 *   (the companion's message, which names seqs, turns, steps and ids, never content), or
 *   `the new log does not load: …`.
 */
export async function loadUnderInvariants(id: string, events: readonly SessionEvent[], header?: SessionHeader): Promise<InvariantLoad> {
  let loaded: Modules
  try {
    loaded = await loadModules()
  } catch (error) {
    return { ok: false, problem: `the invariant companions cannot be loaded: ${errorText(error)}` }
  }
  const [cordis, session, invariants, llm, ...companions] = loaded
  const ctx = new cordis.Context()
  try {
    await Promise.all([
      ctx.plugin(invariants.InvariantRegistry, { enabled: true }),
      ctx.plugin(session.SessionStore),
      ...companions.map((companion) => ctx.plugin(companion as Parameters<typeof ctx.plugin>[0])),
    ])
    const store = (ctx as unknown as { sessions: InstanceType<typeof session.SessionStore> }).sessions
    const sessionId = session.SessionId(id)
    let restored: Session
    let detach: (() => void) | undefined
    try {
      // As DSH's persistence does (`PersistenceCoordinator`): prepare, enter, then announce, which
      // runs the companions' `session/created` checks over the whole log.
      restored = header === undefined
        ? store.prepare(sessionId, { seed: events })
        : store.prepare(sessionId, { seed: events as SessionEvent[], meta: header, seedSource: 'persistence' })
      detach = store.enter(restored)
      store.announce(restored)
    } catch (error) {
      detach?.()
      return { ok: false, problem: problemOf(error) }
    }
    try {
      return checkNextRequest(ctx, session, llm, restored)
    } finally {
      detach()
    }
  } finally {
    await ctx.fiber.dispose()
  }
}

/** The agent-loop companion over the request the loop would build from the log (see the module doc). */
function checkNextRequest(ctx: object, session: Modules[1], llm: Modules[3], restored: Session): InvariantLoad {
  const messages = restored.deriveMessages()
  // A log without a model step has made no request; one without a request header (a step cut off
  // before its first request) gets one appended by the loop before its next request.
  const folded = session.foldRequestHeader(restored.events)
  if (folded === undefined || !restored.events.some((event) => event.type === 'step/start')) return { ok: true, session: restored, messages }
  const request = llm.markAgentLoopRequest(llm.deepFreeze({
    ...folded.config,
    messages,
    ...(folded.system === undefined ? {} : { system: folded.system }),
    ...(folded.tools === undefined ? {} : { tools: folded.tools }),
    sessionId: restored.id,
  }) as Parameters<typeof llm.markAgentLoopRequest>[0])
  try {
    ;(ctx as { waterfall(name: string, options: unknown, next: () => void): unknown }).waterfall('llm/stream', request, () => undefined)
  } catch (error) {
    return { ok: false, problem: problemOf(error) }
  }
  return { ok: true, session: restored, messages }
}

function problemOf(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code
  return code === 'INVARIANT' ? `the new log violates an invariant: ${errorText(error)}` : `the new log does not load: ${errorText(error)}`
}
