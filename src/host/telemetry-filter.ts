/**
 * Telemetry without removed content: a listener on the `session-telemetry/record` waterfall of
 * `dsh-session-telemetry` (the seam's redaction extension point, run by its capture coordinator,
 * `SessionTelemetryCoordinator.redact`, on every record before the backend's `emit`). A ledger
 * record of an event that carries removed content (`shared/removed-content.ts`) leaves with its
 * body rewritten the way the export rewrites the event: same record, type and seq, content left
 * out. Records of other events pass unchanged.
 *
 * Where it helps: feedback-only mode (`dsh-session-telemetry-otel` `FEEDBACK_ONLY`), where nothing
 * leaves until `/feedback` replays the canonical log through the waterfall, after the removals.
 * Where it cannot: full mode hands every event over as it is appended, before any removal; what
 * was sent is gone. rc.8 has no way to withhold a record from a waterfall listener but to throw,
 * which the coordinator logs as a failed capture step for each record, so the record is kept and
 * its content left out instead.
 *
 * @module dsh-message-recall/host/telemetry-filter
 */
import type { Context } from '@deepseek-ai/cordis'
import type { Session, SessionId } from '@deepseek-ai/dsh-session'
import type { LogEvent } from '../shared/events'
import { eventWithoutRemovedContent, findRemovedContent, type RemovedContent } from '../shared/removed-content'

/** The parts of a `SessionTelemetryRecord` (`dsh-session-telemetry`) this listener reads and writes. */
export interface TelemetryRecord {
  readonly channel: string
  /** Identity attributes: `session.id`, `event.type`, `event.seq` on ledger records. */
  readonly attributes: Readonly<Record<string, unknown>>
  /** The deep-copied (and possibly redacted) `event.data`. */
  readonly body: unknown
  readonly [key: string]: unknown
}

/** What the listener reaches. */
export interface TelemetryFilterServices {
  /** A live session by id (`ctx.sessions.get`). */
  session(id: SessionId): Session | undefined
  /** One event by seq over a live session's current log (the plugin's event index). */
  lookup(session: Session): (seq: number) => LogEvent | undefined
}

/**
 * Build the waterfall listener.
 * @param services - the live sessions and the event index.
 * @returns `(record, next) => record`: runs the rest of the waterfall first, then leaves the
 * removed content out of a ledger record whose event carries it. The removed content of a session
 * is computed once per log length (a feedback replay hands many records of one unchanged log).
 */
export function telemetryFilter(services: TelemetryFilterServices): (record: TelemetryRecord, next: () => TelemetryRecord) => TelemetryRecord {
  const cache = new WeakMap<Session, { count: number; removed: RemovedContent }>()
  return (record, next) => {
    const out = next()
    if (out.channel !== 'ledger') return out
    const id = out.attributes['session.id']
    const seq = out.attributes['event.seq']
    if (typeof id !== 'string' || typeof seq !== 'number') return out
    const session = services.session(id as SessionId)
    if (session === undefined) return out
    const lookup = services.lookup(session)
    let known = cache.get(session)
    if (known === undefined || known.count !== session.seq) {
      known = { count: session.seq, removed: findRemovedContent(session.seq, lookup) }
      cache.set(session, known)
    }
    const kind = known.removed.carriers.get(seq)
    const event = lookup(seq)
    if (kind === undefined || event === undefined) return out
    return { ...out, body: eventWithoutRemovedContent({ ...event, data: out.body }, kind, known.removed).data }
  }
}

/**
 * Register the listener for the life of `ctx`. Harmless without a telemetry service: nothing
 * runs the waterfall then.
 * @param ctx - the plugin context (`ctx.on`, `ctx.sessions`).
 * @param lookup - one event by seq over a live session's current log.
 */
export function installTelemetryFilter(ctx: Context, lookup: TelemetryFilterServices['lookup']): void {
  const listener = telemetryFilter({ session: (id) => ctx.sessions.get(id), lookup })
  // The event is declared by dsh-session-telemetry, which this package does not depend on.
  ;(ctx.on as unknown as (name: string, listener: unknown) => () => void)('session-telemetry/record', listener)
}
