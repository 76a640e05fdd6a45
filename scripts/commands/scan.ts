/**
 * `scan-replace`: which sessions under a DSH sessions root hold tombstones of dsh-message-recall,
 * and, separately, compaction replacements (checkpoints and tool-result prunes). Read-only.
 *
 * @module dsh-message-recall/scripts/commands/scan
 */
import { COMMON_OPTIONS, DECODER_OPTION, parseRootTarget } from '../support/arguments'
import { EXIT, type LogCommand } from '../support/command'
import { formatBytes } from '../support/format-bytes'
import { decoderOption, hoursOption } from '../support/option-values'
import { out } from '../support/output'
import { progress } from '../support/progress'
import { assertHome, assertRoot } from '../support/sessions-root'
import { forkOrigin } from '../../src/log/session-explain'
import { summarizeRoot } from '../../src/log/session-roots'
import { counted, forCount } from '../../src/log/counted'
import { ACTIONS, TOMBSTONE_ACTIONS, type TombstoneAction } from '../../src/shared/actions'
import { findTextUnder, toolOutputFolders } from '../../src/log/text-scan'
import { UsageLineError } from '../support/usage-errors'
import { dirname, resolve } from 'node:path'

const usage = (invocation: string): string => `Usage: ${invocation} [sessions root] [options]

Scans every session log under a DSH sessions root for surface replacements and lists,
newest first, the sessions holding dsh-message-recall tombstones (by action: ${TOMBSTONE_ACTIONS.join(', ')}),
those where a restore undid a tombstone in place, and,
separately, those holding compaction checkpoints or tool-result prunes, and any other
plugin's replacements; then the sessions forked from another session. Without a root it reads $DSH_HOME/sessions,
or ~/.dsh/sessions when DSH_HOME is unset; the root may also be one project or session folder.
A log that cannot be read, or a file that is not a log, is listed as UNREADABLE; a log read
with damage (a corrupt frame, a bad line, a seq gap) as DAMAGED, with its first problem.

With --text, it answers another question instead: where a text still occurs on disk. The
folder is then a DSH home (default: $DSH_HOME, or ~/.dsh; one that is not there is an error,
exit 2), and every file under it is searched (session logs decoded), with every DSH tool
output folder in the system's temporary folder (dsh-spill-*, dsh-subprocess-*), whichever
home's host made it: DSH does not tie them to a home. After an erase, it should find nothing.

Options:
  --text WORDS      list the files under the DSH home and the tool output folders that hold
                    WORDS (exit 1 when any does, 0 when none)
  --hours N         only logs changed in the last N hours
  --quiet           no progress line on stderr (shown only on a terminal)
  --json            one JSON document instead of text
  --decoder NAME    auto (default), zlib, zlib-oneshot, zstd-cli, fzstd
  -h, --help        this text

Exit codes: 0 every log read; 1 some logs are unreadable or damaged (listed, counted); 2 bad
usage or an unreadable root.
`

const OPTIONS = { ...COMMON_OPTIONS, ...DECODER_OPTION, hours: { type: 'string' }, quiet: { type: 'boolean' }, text: { type: 'string' } } as const

/** `--text`: the files under a DSH home and the tool output folders that hold a text. */
async function scanText(home: string, text: string, json: boolean): Promise<number> {
  const folders = [home, ...(await toolOutputFolders())]
  const hits = await findTextUnder(folders, text)
  if (json) {
    await out(JSON.stringify({ home, folders, hits }) + '\n')
    return hits.length > 0 ? EXIT.problem : EXIT.ok
  }
  const lines = hits.map((hit) => `${hit.path}  ${counted(hit.count, 'occurrence')}`)
  lines.push(hits.length > 0 ? `the text occurs in ${counted(hits.length, 'file')}` : `the text occurs nowhere under ${home} and ${counted(folders.length - 1, 'tool output folder')}`)
  await out(lines.join('\n') + '\n')
  return hits.length > 0 ? EXIT.problem : EXIT.ok
}

async function run(argv: readonly string[], invocation: string): Promise<number> {
  const { values, root, defaulted } = parseRootTarget(argv, OPTIONS)
  if (root === null) {
    await out(usage(invocation))
    return EXIT.ok
  }
  if (values.text !== undefined) {
    if (values.text === '') throw new UsageLineError('--text needs a non-empty text')
    // A DSH home: the given folder, or the one above the default sessions root. A home that is
    // not there is an error, never "nowhere": the answer confirms an erase.
    const home = defaulted ? dirname(root) : resolve(root)
    await assertHome(home, defaulted)
    return scanText(home, values.text, values.json === true)
  }
  const hours = hoursOption(values.hours)
  const decoder = decoderOption(values.decoder)
  await assertRoot(root, defaulted)
  const bar = progress('scan', 'logs', values.quiet !== true)
  const { entries, skipped } = await summarizeRoot(root, {
    decoder,
    ...(hours !== undefined ? { sinceMs: Date.now() - hours * 3_600_000 } : {}),
    onProgress: (done, total, bytes) => bar.update(done, total, bytes),
  })
  bar.done()
  const unreadable = entries.filter((e) => e.error !== null)
  const damaged = entries.filter((e) => e.error === null && e.problems.length > 0)
  const withTombstones = entries.filter((e) => (e.summary?.tombstones ?? 0) > 0)
  const withCompaction = entries.filter((e) => (e.summary?.checkpoints ?? 0) + (e.summary?.prunes ?? 0) > 0)
  const withOther = entries.filter((e) => (e.summary?.otherReplacements ?? 0) > 0)
  const withRestores = entries.filter((e) => (e.summary?.restores ?? 0) > 0)
  const forks = entries.filter((e) => forkOrigin(e.header) !== null)
  const bad = unreadable.length + damaged.length + skipped.length
  const id = (e: (typeof entries)[number]) => e.header?.id ?? '?'

  if (values.json) {
    const row = (e: (typeof entries)[number]) => ({ path: e.path, id: e.header?.id ?? null, updated: new Date(e.mtimeMs).toISOString(), ...e.summary, forkedFrom: forkOrigin(e.header) })
    await out(
      JSON.stringify({
        root,
        scanned: entries.length,
        tombstones: withTombstones.map(row),
        restores: withRestores.map(row),
        forks: forks.map(row),
        compaction: withCompaction.map(row),
        other: withOther.map(row),
        unreadable: [...unreadable.map((e) => ({ path: e.path, error: e.error! })), ...skipped.map((s) => ({ path: s.path, error: s.message }))],
        damaged: damaged.map((e) => ({ path: e.path, problems: e.problems.map((p) => p.message) })),
      }) + '\n',
    )
    return bad ? EXIT.problem : EXIT.ok
  }

  const lines: string[] = [`sessions with dsh-message-recall tombstones: ${withTombstones.length}`]
  for (const e of withTombstones) {
    lines.push(`  ${id(e)}  ${counted(e.summary!.tombstones, 'tombstone')} (${byAction(e.summary!.tombstonesByAction)})  ${e.path}`)
  }
  lines.push(`sessions with restores: ${withRestores.length}`)
  for (const e of withRestores) lines.push(`  ${id(e)}  ${counted(e.summary!.restores, 'restore')} (${forCount(e.summary!.restores, 'a tombstone', 'tombstones')} undone in place)  ${e.path}`)
  lines.push(`sessions with compaction replacements: ${withCompaction.length}`)
  for (const e of withCompaction) lines.push(`  ${id(e)}  ${counted(e.summary!.checkpoints, 'checkpoint')}, ${counted(e.summary!.prunes, 'tool-result prune')}  ${e.path}`)
  if (withOther.length) {
    lines.push(`sessions with other replacements: ${withOther.length}`)
    for (const e of withOther) lines.push(`  ${id(e)}  ${counted(e.summary!.otherReplacements, 'replacement')}  ${e.path}`)
  }
  lines.push(`sessions forked from another: ${forks.length}`)
  for (const e of forks) {
    const fork = forkOrigin(e.header)!
    lines.push(`  ${id(e)}  forked from ${fork.parentSession}${fork.seedLength === null ? '' : ` (${counted(fork.seedLength, 'event')} copied)`}  ${e.path}`)
  }
  // Newest first, in the words list-sessions uses: UNREADABLE for a log that cannot be read at
  // all (or a file that is no log), DAMAGED for one read with damage, named by its first problem.
  for (const e of entries) {
    if (e.error !== null) lines.push(`UNREADABLE ${e.path}: ${e.error}`)
    else if (e.problems.length > 0) lines.push(`DAMAGED ${e.path}: ${e.problems[0]!.message}`)
  }
  for (const s of skipped) lines.push(`UNREADABLE ${s.path}: ${s.message}`)
  lines.push(`scanned ${counted(entries.length, 'session')}${hours !== undefined ? ` changed in the last ${hours} h` : ''}, ${bad} unreadable or damaged`)
  await out(lines.join('\n') + '\n')
  return bad ? EXIT.problem : EXIT.ok
}

/**
 * The per-action counts of a session's tombstones, in action-table order: every removal always,
 * an action of another effect (an exclusion) only when the session has one.
 */
function byAction(counts: Readonly<Record<TombstoneAction, number>>): string {
  return TOMBSTONE_ACTIONS.filter((action) => ACTIONS[action].effect === 'removed' || counts[action] > 0).map((action) => `${action} ${counts[action]}`).join(', ')
}

/** `scan-replace`, the `scan` subcommand. */
export const scanCommand: LogCommand = { name: 'scan', script: 'scan-replace', summary: 'find the sessions under a root that hold replacements', usage, run }
