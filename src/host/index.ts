/**
 * dsh-message-recall, host half: registers `POST {path}` (default `DEFAULT_ROUTE_PATH`) on the
 * DSH web server. Recall, delete, delete-onward and exclude each append one `user/message`
 * tombstone whose surface `replace` shadows the removed range (and, when a removed model step had
 * changed the goal, the `goal/change` that puts it back: `./side-state`); restore undoes one in place;
 * forkBefore stores a copy of the conversation from before a tombstone; flush saves what is not
 * yet durable; `plan` previews a removal and `inspect` summarizes the live and persisted logs.
 * Copies DSH makes of a session's log (Branch, subagent
 * fork, `SessionStore.fork`) inherit its removals on `session/created` (`inherit-removals.ts`).
 * `GET {path}/export` downloads a session's log archive without the content of removed messages
 * (`export-route.ts`), and a `session-telemetry/record` listener leaves that content out of
 * telemetry records (`telemetry-filter.ts`). The routes and the listener go away with the plugin.
 * Erases asked for on a session the host held open (`erase` with `when: 'next-start'`) are kept
 * in `<DSH home>/message-recall/pending-erases.json` and run once the session persistence is
 * there at the next start (`erase-at-start.ts`), the DSH home read from the launch environment's
 * `DSH_HOME` (`dsh-launch-environment`), else the process's.
 *
 * Services: `sessions` (`dsh-session`), `agents` (`dsh-agent`) and `webServer`
 * (`dsh-host-webserver`) are required. Read when present: `sessionPersistence` (`inspect`),
 * `tokenMeter` (`dsh-token-meter`: the shadow price of each replace), `sessionTitle`
 * (`dsh-session-title`: the fallback title limits), `workspaceRegistry` (`dsh-workspace`: a
 * copy joins its source's workspace) and `sessionProjectionCache`
 * (`dsh-session-projection-cache`: the stored titles a copy's title must differ from; an erase
 * drops the erased session's record and has it folded again); the export
 * also reads `sessionQuery` (`dsh-session-query`: subagent sessions) and `attachments`
 * (`dsh-attachment`: images), as DSH's own Session log export does.
 * At start the plugin claims a lock file in the session persistence's root (`home-lock.ts`); while
 * another live host holds it, every route write answers `HOME_IN_USE` (reads still work).
 *
 * @module dsh-message-recall
 */
import type { Context } from '@deepseek-ai/cordis'
// Type-only imports pull in the Context merges for ctx.sessions, ctx.agents and ctx.webServer.
import type {} from '@deepseek-ai/dsh-agent'
import type {} from '@deepseek-ai/dsh-host-webserver'
import type {} from '@deepseek-ai/dsh-session'
import type { CompactionSummarizer, PresetServices } from './summary-rewrite'
import { Config, resolveConfig, type MessageRecallConfig } from './config'
import { DiskSummaryCache } from './disk-summary-cache'
import { SessionEventIndex } from './event-index'
import type { ForkingStore } from './fork-store'
import type { StoredLogReader } from './fork-source'
import type { WorkspaceLookup } from './fork-workspace'
import { hostLog } from './host-log'
import { summarizeStored, type PersistenceReader } from './inspect'
import { installExportRoute } from './export-route'
import { createRouteHandler } from './route'
import { installTelemetryFilter } from './telemetry-filter'
import { StoredTitleCache, type ProjectionCacheReader, type StoredTitleReader } from './session-titles'
import { StoredLogListing, type StoredLister } from './stored-listing'
import type { MessagePricer } from './shadow-price'
import { titleLimitsOf } from './title'
import { followSideState } from './side-state'
import { uiLanguageOf, type SettingsDocumentReader } from './ui-language'
import { followPrompt } from './write-effects'
import { RemovalInheritance, type SuffixReader } from './inherit-removals'
import { WriteQueue } from './write-queue'
import { SessionAccess, type StoredSessionSource } from './stored-session'
import { isProjectionCacheWriter } from './projection-cache-erase'
import { isJsonlBackend, type JsonlBackend } from './jsonl-log-file'
import type { EraseServices } from './erase-session'
import { runPendingErases } from './erase-at-start'
import { dshHomeOf, PendingErases, pendingErasesPath } from './pending-erases'
import type { SessionHeader, SessionId } from '@deepseek-ai/dsh-session'
import { homeInUseMessage, PluginHomeLock } from './home-lock'

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
  // Printed to the host's standard error too: rc.8's `dsh web` shows no cordis log line (`host-log.ts`).
  const log = hostLog(ctx.logger)
  const warn = (message: string): void => log.warn(message)
  const titleLimits = () => titleLimitsOf(ctx.get('sessionTitle'))
  ctx.on('session/event', (session, event) => {
    index.observe(session, event)
    followPrompt(session, () => ({ titleLimits: titleLimits(), warn }), () => index.lookup(session), event)
  })
  // Copies DSH makes (Branch, subagent fork, SessionStore.fork) inherit the source's removals;
  // forkBefore's own copies are made from before a removal and are left alone.
  const forkBeforeCopies = new Set<string>()
  const inheritance = new RemovalInheritance({
    sessions: ctx.sessions,
    agents: ctx.agents,
    persistence: () => ctx.get('sessionPersistence') as SuffixReader | undefined,
    lookup: (session) => index.lookup(session),
    effects: () => ({ meter: ctx.get('tokenMeter') as MessagePricer | undefined, titleLimits: titleLimits(), warn }),
    tombstoneText: resolved.tombstoneText,
    exempt: (id) => forkBeforeCopies.has(id),
  })
  ctx.on('session/created', (session) => inheritance.onCreated(session))
  // Sessions made in this process are known to the stored listing once their logs are stored, so
  // naming a copy does not list every stored session again because of them.
  const storedLogs = new StoredLogListing()
  ctx.on('session/created', (session) => storedLogs.noteCreated(session.header))
  ctx.on('agent/request', async (payload, next) => {
    await inheritance.settled(payload.agent.session)
    return next()
  })
  // One writer per DSH home: a second host on the same home gets HOME_IN_USE for every write.
  const homeLock = new PluginHomeLock(() => {
    const root = (ctx.get('sessionPersistence') as { root?: unknown } | undefined)?.root
    return typeof root === 'string' ? root : undefined
  }, warn)
  ctx.effect(() => {
    homeLock.check()
    return () => homeLock.dispose()
  }, 'message-recall: DSH home lock')
  const queue = new WriteQueue()
  const erase: EraseServices = {
    access,
    queue,
    sessions: ctx.sessions,
    backend: () => {
      const service = ctx.get('sessionPersistence')
      return isJsonlBackend(service) ? (service as JsonlBackend & StoredSessionSource) : undefined
    },
    attachmentRoot: () => {
      const root = (ctx.get('attachments') as { root?: unknown } | undefined)?.root
      return typeof root === 'string' ? root : undefined
    },
    projectionCache: () => {
      const service = ctx.get('sessionProjectionCache')
      return isProjectionCacheWriter(service) ? service : undefined
    },
  }
  // Erases asked for on a session the host held open, kept in the DSH home until this start.
  const launch = ctx.get('launchEnvironment') as { get(name: string): { readonly value: string } | undefined } | undefined
  const pending = new PendingErases(pendingErasesPath(dshHomeOf(launch?.get('DSH_HOME')?.value ?? process.env.DSH_HOME)))
  ctx.inject(['sessionPersistence'], () => {
    // Another host holding this DSH home writes its sessions; the erases wait for a start that holds it.
    const holder = homeLock.check()
    if (holder !== null) {
      warn(`message-recall: the pending erases wait: ${homeInUseMessage(holder)}`)
      return
    }
    void runPendingErases({ erase, pending }, (line, outcome) => (outcome === 'erased' ? log.info(line) : warn(line))).catch((error: unknown) => warn(`message-recall: the pending erases did not run: ${error instanceof Error ? error.message : String(error)}`))
  })
  const handler = createRouteHandler(
    {
      sessions: ctx.sessions,
      agents: ctx.agents,
      index,
      access,
      queue,
      persistence,
      diskSummaries: new DiskSummaryCache(summarizeStored),
      erase,
      eraseLater: {
        pending,
        open: (id) => ctx.agents.get(id as SessionId)?.session ?? ctx.sessions.get(id as SessionId),
        // The copies an erase's confirmation lists are found from the headers alone.
        headers: async () => {
          const live = ctx.sessions.list()
          const stored = ctx.get('sessionPersistence') as StoredLister | undefined
          const listed = stored === undefined ? [] : await storedLogs.list(stored, new Set(live.map((session) => session.id)))
          const headers = new Map<string, SessionHeader>(listed.map((entry) => [entry.header.id, entry.header]))
          for (const session of live) headers.set(session.id, session.header)
          return [...headers.values()]
        },
      },
      afterAppend: (session, fromSeq) => void followSideState(session, fromSeq, index.lookup(session), {
        warn, tombstoneText: resolved.tombstoneText, effects: { meter: ctx.get('tokenMeter') as MessagePricer | undefined, titleLimits: titleLimits(), warn },
      }),
      effects: () => ({ meter: ctx.get('tokenMeter') as MessagePricer | undefined, titleLimits: titleLimits(), warn }),
      // The host's own compaction engine, else the one the session's agent preset mounted (the web
      // host mounts compaction per preset, behind an isolate realm: dsh-agent-presets serviceFor).
      summarizer: (agent) => (ctx.get('compaction') ?? (ctx.get('agentPresets') as PresetServices | undefined)?.serviceFor(agent, 'compaction')) as CompactionSummarizer | undefined,
      fork: {
        titleLimits,
        language: () => uiLanguageOf(ctx.get('settings') as SettingsDocumentReader | undefined),
        workspaces: () => ctx.get('workspaceRegistry') as WorkspaceLookup | undefined,
        catalog: {
          live: () => ctx.sessions.list(),
          lookup: (session) => index.lookup(session),
          storedTitles: new StoredTitleCache(),
          storedLogs,
          stored: () => ctx.get('sessionPersistence') as (StoredLogReader & StoredTitleReader) | undefined,
          cache: () => ctx.get('sessionProjectionCache') as ProjectionCacheReader | undefined,
        },
        async inChildFiber(body) {
          // A session created through a context belongs to that context's fiber (SessionStore.create);
          // disposing this fiber releases the copy once it is stored.
          let store: ForkingStore | undefined
          const fiber = ctx.plugin({ name: 'message-recall-fork', inject: ['sessions'], apply: (child: Context) => void (store = child.sessions) })
          const made: string[] = []
          try {
            await fiber.await()
            const sessions = store as ForkingStore
            return await body({
              create(id, options) {
                made.push(id)
                forkBeforeCopies.add(id)
                return sessions.create(id, options)
              },
              flush: (session) => sessions.flush(session),
            })
          } finally {
            await fiber.dispose()
            for (const id of made) forkBeforeCopies.delete(id)
          }
        },
      },
      warn,
      homeLock: () => homeLock.check(),
    },
    resolved,
  )
  ctx.effect(() => ctx.webServer.register({ kind: 'exact', path: resolved.path, handler }), `message-recall: ${resolved.path} route`)
  installExportRoute(ctx, resolved, warn)
  installTelemetryFilter(ctx, (session) => index.lookup(session))
}
