/**
 * dsh-message-recall, host half: registers `POST {path}` (default `/dsh-message-recall`) on the
 * DSH web server. Recall, delete and delete-onward each append one `user/message` tombstone whose
 * surface `replace` shadows the removed range; `plan` previews a removal and `inspect` summarizes
 * the live and persisted logs. The route goes away with the plugin.
 *
 * Services: `sessions` (`dsh-session`), `agents` (`dsh-agent`) and `webServer`
 * (`dsh-host-webserver`) are required; `sessionPersistence` is read when present, for `inspect`.
 *
 * @module dsh-message-recall
 */
import type { Context } from '@deepseek-ai/cordis'
// Type-only imports pull in the Context merges for ctx.sessions, ctx.agents and ctx.webServer.
import type {} from '@deepseek-ai/dsh-agent'
import type {} from '@deepseek-ai/dsh-host-webserver'
import type {} from '@deepseek-ai/dsh-session'
import { Config, resolveConfig, type MessageRecallConfig } from './config'
import { SessionEventIndex } from './event-index'
import type { PersistenceReader } from './inspect'
import { createRouteHandler } from './route'
import { SessionAccess, type StoredSessionSource } from './stored-session'

export { Config, DEFAULTS, resolveConfig, type MessageRecallConfig } from './config'
export { statusOf } from './route'
export { planRemoval, describePlanRefusal } from './surface-plan'
export type * from '../shared/protocol'

/** Plugin name (the Loader row id in `cordis.patch.yml` is `message-recall`). */
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
  ctx.on('session/event', (session, event) => index.observe(session, event))
  ctx.on('session/disposed', (session) => index.forget(session))
  const persistence = () => ctx.get('sessionPersistence') as (PersistenceReader & StoredSessionSource) | undefined
  const access = new SessionAccess({ sessions: ctx.sessions, agents: ctx.agents, lookup: (session) => index.lookup(session), persistence })
  const handler = createRouteHandler(
    {
      sessions: ctx.sessions,
      agents: ctx.agents,
      index,
      access,
      persistence,
      warn: (message) => ctx.logger.warn(message),
    },
    resolved,
  )
  ctx.effect(() => ctx.webServer.register({ kind: 'exact', path: resolved.path, handler }), `message-recall: ${resolved.path} route`)
}
