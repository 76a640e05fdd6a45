/**
 * dsh-message-recall, host half: registers `POST {path}` (default `DEFAULT_ROUTE_PATH`) on the
 * DSH web server. Recall, delete, delete-onward and exclude each append one `user/message`
 * tombstone whose surface `replace` shadows the removed range; restore undoes one in place;
 * forkBefore stores a copy of the conversation from before a tombstone; flush saves what is not
 * yet durable; `plan` previews a removal and `inspect` summarizes the live and persisted logs.
 * The route goes away with the plugin.
 *
 * Services: `sessions` (`dsh-session`), `agents` (`dsh-agent`) and `webServer`
 * (`dsh-host-webserver`) are required. Read when present: `sessionPersistence` (`inspect`),
 * `tokenMeter` (`dsh-token-meter`: the shadow price of each replace), `sessionTitle`
 * (`dsh-session-title`: the fallback title limits), `workspaceRegistry` (`dsh-workspace`: a
 * copy joins its source's workspace) and `sessionProjectionCache`
 * (`dsh-session-projection-cache`: the stored titles a copy's title must differ from).
 *
 * @module dsh-message-recall
 */
import type { Context } from '@deepseek-ai/cordis'
// Type-only imports pull in the Context merges for ctx.sessions, ctx.agents and ctx.webServer.
import type {} from '@deepseek-ai/dsh-agent'
import type {} from '@deepseek-ai/dsh-host-webserver'
import type {} from '@deepseek-ai/dsh-session'
import { Config, resolveConfig, type MessageRecallConfig } from './config'
import { DiskSummaryCache } from './disk-summary-cache'
import { SessionEventIndex } from './event-index'
import type { ForkingStore } from './fork-store'
import type { StoredLogReader } from './fork-source'
import type { WorkspaceLookup } from './fork-workspace'
import { summarizeStored, type PersistenceReader } from './inspect'
import { createRouteHandler } from './route'
import type { ProjectionCacheReader } from './session-titles'
import type { MessagePricer } from './shadow-price'
import { titleLimitsOf } from './title'
import { uiLanguageOf, type SettingsDocumentReader } from './ui-language'
import { followPrompt } from './write-effects'
import { WriteQueue } from './write-queue'
import { SessionAccess, type StoredSessionSource } from './stored-session'

export { Config, DEFAULTS, resolveConfig, type MessageRecallConfig } from './config'
export { statusOf } from './route'
export { planRemoval, describePlanRefusal } from './surface-plan'
export type * from '../shared/protocol'

/** Host plugin name, equal to its Loader row id in `cordis.patch.yml` (see `TOMBSTONE_PLUGIN` for the package name). */
export const name = 'message-recall'

/** Required services; the plugin (re)loads only while all exist. */
export const inject = ['sessions', 'agents', 'webServer']

/**
 * Install the route and the event index listeners.
 * @param ctx - the plugin context.
 * @param config - the Loader-validated config (see {@link Config}).
 * @throws at load when the config has unknown keys or bad values (see `resolveConfig`), or the
 * path is already registered (`webserver: duplicate exact route "<path>"`).
 */
export function apply(ctx: Context, config: Partial<MessageRecallConfig> | undefined): void {
  const resolved = resolveConfig(config)
  const index = new SessionEventIndex()

  ctx.on('session/disposed', (session) => index.forget(session))
  const persistence = () => ctx.get('sessionPersistence') as (PersistenceReader & StoredSessionSource) | undefined
  const access = new SessionAccess({ sessions: ctx.sessions, agents: ctx.agents, lookup: (session) => index.lookup(session), persistence })
  ctx.effect(() => () => access.dispose(), 'message-recall: stored sessions held for a write')
  const warn = (message: string): void => ctx.logger.warn(message)
  const titleLimits = () => titleLimitsOf(ctx.get('sessionTitle'))
  ctx.on('session/event', (session, event) => {
    index.observe(session, event)
    followPrompt(session, () => ({ titleLimits: titleLimits(), warn }), () => index.lookup(session), event)
  })
  const handler = createRouteHandler(
    {
      sessions: ctx.sessions,
      agents: ctx.agents,
      index,
      access,
      queue: new WriteQueue(),
      persistence,
      diskSummaries: new DiskSummaryCache(summarizeStored),
      effects: () => ({ meter: ctx.get('tokenMeter') as MessagePricer | undefined, titleLimits: titleLimits(), warn }),
      fork: {
        titleLimits,
        language: () => uiLanguageOf(ctx.get('settings') as SettingsDocumentReader | undefined),
        workspaces: () => ctx.get('workspaceRegistry') as WorkspaceLookup | undefined,
        catalog: {
          live: () => ctx.sessions.list(),
          stored: () => ctx.get('sessionPersistence') as StoredLogReader | undefined,
          cache: () => ctx.get('sessionProjectionCache') as ProjectionCacheReader | undefined,
        },
        async inChildFiber(body) {
          // A session created through a context belongs to that context's fiber (SessionStore.create);
          // disposing this fiber releases the copy once it is stored.
          let store: ForkingStore | undefined
          const fiber = ctx.plugin({ name: 'message-recall-fork', inject: ['sessions'], apply: (child: Context) => void (store = child.sessions) })
          try {
            await fiber.await()
            return await body(store as ForkingStore)
          } finally {
            await fiber.dispose()
          }
        },
      },
      warn,
    },
    resolved,
  )
  ctx.effect(() => ctx.webServer.register({ kind: 'exact', path: resolved.path, handler }), `message-recall: ${resolved.path} route`)
}
