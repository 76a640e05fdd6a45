/**
 * `explain-session`: the fold of a session's surface, every tombstone of dsh-message-recall with
 * its inclusive range and what sits inside and around it, and with `--rows` which transcript rows
 * the client hides (the same `deriveHiddenRows` the client bundle runs). Read-only.
 *
 * @module dsh-message-recall/scripts/commands/explain
 */
import { COMMON_OPTIONS, DECODER_OPTION, parseOneTarget } from '../support/arguments'
import { EXIT, type LogCommand } from '../support/command'
import { decoderOption } from '../support/option-values'
import { out } from '../support/output'
import type { LogEvent } from '../../src/shared/events'
import { deriveHiddenRows, type HiddenRow, type TranscriptRow } from '../../src/shared/hidden-rows'
import { transcriptRows } from '../../src/log/log-rows'
import { explainSession, forkOrigin, type ForkOrigin, type NodeSummary, type SessionExplanation, type TombstoneExplanation } from '../../src/log/session-explain'
import { messageIdOf } from '../../src/shared/surface-node'
import { resolveSessionLog } from '../../src/log/log-file'
import { readSessionLog } from '../../src/log/session-log'
import { counted, forCount } from '../../src/log/counted'
import { ACTIONS } from '../../src/shared/actions'
import { readFates } from '../../src/shared/fate'

const usage = (invocation: string): string => `Usage: ${invocation} <log file | session folder> [options]

Folds the session's surface the way DSH does on load and explains every replacement:
each dsh-message-recall tombstone (recall, delete, deleteFrom, or exclude: rows kept in
view, hidden from the model) with its inclusive range as the host wrote it, the nodes it
shadows, its neighbours on the surface when it was written, whether a later tombstone
shadows it, whether a restore undid it and when it was erased for good; each restore (a
copy of the removed message put back in its place); compaction checkpoints and tool-result
prunes are counted apart. A session forked from another says so first, with the events it
copied.

Options:
  --rows            also list the transcript rows rebuilt from the log and which of them
                    the client hides (computed by the client's own hidden-row module)
  --json            one JSON document instead of text
  --decoder NAME    auto (default), zlib, zlib-oneshot, zstd-cli, fzstd
  -h, --help        this text

Exit codes: 0 nothing wrong; 1 a problem: the log does not fold, a range splits a tool
call from its result, a tool call or result is left without its partner on the surface,
a tombstone's source disagrees with its range, a restore is not an exact copy of the
removed message, or the log is damaged or torn; 2 bad usage or unreadable input.
`

const OPTIONS = { ...COMMON_OPTIONS, ...DECODER_OPTION, rows: { type: 'boolean' } } as const

function node(n: NodeSummary | null): string {
  if (n === null) return '(none)'
  const where = n.turn !== null ? ` turn ${n.turn} step ${n.step}` : ''
  return `${n.seq} ${n.kind}${where} ${n.preview}`
}

/**
 * The `exclusions:` line, counted by fate (`shared/fate.ts`): an exclusion in effect keeps its rows
 * in view while one of its messages is still excluded; once a later removal (a Delete onward from
 * before it) removed all of them, it is counted as taken by that removal. A restored one is neither.
 * @param exclusions - the exclude tombstones.
 * @param folded - the events the fold read (holds every replacement).
 */
function exclusionLine(exclusions: readonly TombstoneExplanation[], folded: readonly LogEvent[]): string {
  const fates = readFates(folded)
  const inEffect = exclusions.filter((t) => t.inEffect)
  // In view while a message it covers (through earlier tombstones it absorbed too) is still excluded.
  const inView = inEffect.filter((t) => fates.messagesUnder(t.seq).some((seq) => fates.fateOf(seq).state === 'excluded')).length
  const taken = inEffect.length - inView
  return `exclusions: ${exclusions.length}, ${inView} in effect (rows kept in view, not sent to the model)${taken > 0 ? `, ${taken} taken by a later removal` : ''}`
}

/** What a tombstone does now, for the `now:` line. */
function tombstoneNow(t: TombstoneExplanation): string {
  if (t.restoredBy !== null) return `restored by ${t.restoredBy}: the message is back in its place, the tombstone hides nothing`
  if (t.shadowedBy !== null) return `shadowed by ${t.shadowedBy}${t.inEffect ? '' : ' (no longer in effect: a restore undid that later tombstone)'}`
  if (ACTIONS[t.action].effect === 'excluded') return 'on the surface (the model sees an empty user message here; the person still sees the rows)'
  return 'on the surface (the model sees an empty user message here)'
}

/** The first line about a forked session. */
function forkLine(fork: ForkOrigin): string {
  if (fork.seedLength === null) return `forked from session ${fork.parentSession}`
  const copied = fork.seedLength === 0 ? 'no events copied' : fork.seedLength === 1 ? 'seq 0 copied from it' : `seqs 0-${fork.seedLength - 1} copied from it`
  return `forked from session ${fork.parentSession}: ${copied}, this session's own events from seq ${fork.seedLength}`
}

/** Turns that ended (a call left open in an unfinished last turn may still be running). */
function endedTurns(events: readonly LogEvent[]): Set<number> {
  const ended = new Set<number>()
  for (const e of events) if (e.type === 'turn/end' && typeof (e.data as { turn?: unknown })?.turn === 'number') ended.add((e.data as { turn: number }).turn)
  return ended
}

function findings(explanation: SessionExplanation, events: readonly LogEvent[]): string[] {
  const out: string[] = []
  if (explanation.foldError) out.push(`the log does not fold at seq ${explanation.foldError.seq}: ${explanation.foldError.message}`)
  for (const t of explanation.tombstones) {
    if (t.splitCalls.length > 0) out.push(`tombstone ${t.seq} splits ${forCount(t.splitCalls.length, 'tool call')} ${t.splitCalls.join(', ')} from ${forCount(t.splitCalls.length, 'its result', 'their results')}`)
    if (!t.sourceAgrees) out.push(`tombstone ${t.seq}: source.removedSeqs differs from the shadowed nodes [${t.shadowedSeqs.join(', ')}]`)
  }
  for (const r of explanation.restores) {
    if (!r.exactCopy) out.push(`restore ${r.seq} of tombstone ${r.tombstoneSeq}: its data differs from the removed message at seq ${r.originalSeq}`)
  }
  const ended = endedTurns(events)
  const stepTurn = (seq: number) => (events[seq]?.data as { turn?: number } | undefined)?.turn
  for (const c of explanation.pairing.unansweredCalls) {
    const turn = stepTurn(c.seq)
    if (turn === undefined || ended.has(turn)) out.push(`tool call ${c.callId} (seq ${c.seq}) has no result on the surface`)
  }
  for (const r of explanation.pairing.orphanResults) out.push(`tool result seq ${r.seq} answers ${r.callId}, whose call is not on the surface`)
  return out
}

async function run(argv: readonly string[], invocation: string): Promise<number> {
  const { values, target } = parseOneTarget(argv, OPTIONS, 'the log file or session folder')
  if (target === null) {
    await out(usage(invocation))
    return EXIT.ok
  }
  const decoder = decoderOption(values.decoder)
  const file = await resolveSessionLog(target)
  const events: LogEvent[] = []
  let title: string | null = null
  const read = await readSessionLog(file, {
    decoder,
    expand: true,
    onRecord: (record) => {
      for (const event of record.events ?? []) {
        events.push(event)
        if (event.type === 'session/title' && typeof (event.data as { title?: unknown })?.title === 'string') title = (event.data as { title: string }).title
      }
    },
  })
  const explanation = explainSession(events)
  const fork = forkOrigin(read.header)
  const problems = [...read.problems.map((p) => p.message), ...(read.tail ? [`torn tail: ${read.tail.description}`] : []), ...findings(explanation, events)]
  const rows = values.rows ? transcriptRows(events.slice(0, explanation.foldedEvents)) : null
  const hidden = rows ? deriveHiddenRows(events.slice(0, explanation.foldedEvents), rows) : null

  if (values.json) {
    await out(
      JSON.stringify({
        file: file.path,
        header: read.header,
        title,
        events: read.events,
        lastSeq: read.lastSeq,
        frames: read.frames,
        tail: read.tail,
        fork,
        ...explanation,
        ...(rows && hidden
          ? { rows: rows.map((row) => rowJson(row, hidden.hidden.find((h) => h.key === row.key) ?? null)) }
          : {}),
        problems,
      }) + '\n',
    )
    return problems.length ? EXIT.problem : EXIT.ok
  }

  const lines: string[] = []
  const header = read.header
  lines.push(`session ${header?.id ?? '?'}${header?.cwd ? ` (cwd ${header.cwd})` : ''}${header ? `, created ${new Date(header.createdAt).toISOString()}` : ''}`)
  if (fork !== null) lines.push(forkLine(fork))
  if (title) lines.push(`title: ${title}`)
  lines.push(`log: ${counted(read.events, 'event')}${read.lastSeq >= 0 ? ` (seq ${read.firstSeq}-${read.lastSeq})` : ''}, ${file.format === 'zstd' ? counted(read.frames, 'frame') : 'plain JSONL'}`)
  const count = (kind: string) => explanation.replacements.filter((r) => r.kind === kind).length
  lines.push(`surface now: ${counted(explanation.surface.length, 'node')} [${explanation.surface.map((n) => n.seq).join(', ')}]`)
  lines.push(
    `replacements: ${explanation.replacements.length} — ${counted(count('tombstone'), 'tombstone')} of dsh-message-recall, ${counted(count('restore'), 'restore')}, ${counted(count('checkpoint'), 'compaction checkpoint')}, ${counted(count('prune'), 'tool-result prune')}, ${count('replacement')} other`,
  )
  const exclusions = explanation.tombstones.filter((t) => ACTIONS[t.action].effect === 'excluded')
  if (exclusions.length > 0) lines.push(exclusionLine(exclusions, events.slice(0, explanation.foldedEvents)))
  for (const t of explanation.tombstones) {
    const nested = t.nestedTombstones.length ? `, ${counted(t.nestedTombstones.length, 'earlier tombstone')} among them (${t.nestedTombstones.join(', ')})` : ''
    const erased = t.erasedAt === null ? '' : ` · erased for good at ${t.erasedAt}`
    lines.push(`tombstone seq ${t.seq} · ${t.action} · range ${t.start}..${t.end} (inclusive) · shadows ${counted(t.shadowedSeqs.length, 'node')}${nested}${erased}`)
    for (const n of t.inside) lines.push(`  inside:  ${node(n)}`)
    lines.push(`  before:  ${node(t.before)}`)
    lines.push(`  after:   ${node(t.after)}`)
    lines.push(`  now:     ${tombstoneNow(t)}`)
  }
  for (const r of explanation.restores) {
    const id = messageIdOf(events[r.seq]!)
    lines.push(`restore seq ${r.seq} · undoes tombstone ${r.tombstoneSeq} · a copy of seq ${r.originalSeq}${id === null ? '' : ` (message ${id})`}${r.exactCopy ? '' : ' · NOT an exact copy'}`)
    lines.push(`  message: ${node(r.message)}`)
  }
  for (const r of explanation.replacements.filter((r) => r.kind !== 'tombstone' && r.kind !== 'restore')) {
    lines.push(`${r.kind} seq ${r.seq} · range ${r.start}..${r.end} · shadows ${counted(r.shadowedSeqs.length, 'node')}`)
  }
  const balanced = explanation.pairing.unansweredCalls.length === 0 && explanation.pairing.orphanResults.length === 0
  lines.push(`pairing: ${balanced ? 'balanced (every tool call on the surface has its result)' : `${counted(explanation.pairing.unansweredCalls.length, 'unanswered call')}, ${counted(explanation.pairing.orphanResults.length, 'orphan result')}`}`)
  if (rows && hidden) {
    lines.push(`rows: ${rows.length} rebuilt from the log, ${hidden.hidden.length} hidden by the client`)
    const whys = rows.map((row) => {
      const h = hidden.hidden.find((x) => x.key === row.key)
      const excluded = hidden.excluded.find((x) => x.key === row.key)
      return h ? `hidden (${h.reason}${h.tombstoneSeq !== null ? ` by ${h.tombstoneSeq}` : ''})` : excluded ? `excluded (by ${excluded.tombstoneSeq})` : 'shown'
    })
    const width = Math.max(26, ...whys.map((why) => why.length))
    for (const [i, row] of rows.entries()) {
      lines.push(`  ${whys[i]!.padEnd(width)} ${row.rowKind.padEnd(15)} ${row.seq === null ? `log ${row.anchorSeq}`.padEnd(9) : `seq ${row.seq}`.padEnd(9)} ${row.turn === null ? '' : `turn ${row.turn} `}${row.key}`)
    }
  }
  for (const p of problems) lines.push(`problem: ${p}`)
  lines.push(problems.length ? `result: ${counted(problems.length, 'problem')} found` : 'result: ok')
  await out(lines.join('\n') + '\n')
  return problems.length ? EXIT.problem : EXIT.ok
}

/** A row of the `--json` output, under the field names the tool prints (`kind`: the rc.8 row kind, `logSeq`: the anchor seq). */
function rowJson(row: TranscriptRow, hidden: HiddenRow | null) {
  return {
    key: row.key, kind: row.rowKind, seq: row.seq, logSeq: row.anchorSeq, turn: row.turn,
    hidden: hidden === null ? null : { key: hidden.key, kind: hidden.rowKind, reason: hidden.reason, tombstoneSeq: hidden.tombstoneSeq },
  }
}

/** `explain-session`, the `explain` subcommand. */
export const explainCommand: LogCommand = { name: 'explain', script: 'explain-session', summary: "explain a session's surface: tombstones, restores, exclusions, where a fork came from", usage, run }
