/**
 * `erase-session`: erase one removal of a stored session for good, for a DSH host that is stopped
 * (the web UI's route does the same for a session the host does not hold open). The one log tool
 * that writes: the session's log is rewritten beside itself, read back with DSH's own reader,
 * checked against the old log and renamed over it (`src/host/erase-log.ts`); then image objects
 * and tool output files that only the erased content referenced are deleted
 * (`src/host/erase-session.ts`, `deleteSideFiles`), and the session's record in DSH's projection
 * cache is dropped (`src/host/projection-cache-erase.ts`); last, the related sessions whose logs
 * still hold the erased messages (its copies, the sessions it was copied from, their other
 * copies) are named (`src/host/erase-copies-on-disk.ts`). It refuses, with nothing read or
 * changed, while a live host holds the log's DSH home, and otherwise holds the host plugin's own
 * lock on it until it ends (`support/home-holder.ts` `claimHome`), so a host started meanwhile has
 * its plugin refuse writes. DSH's code is loaded only when this command runs.
 *
 * @module dsh-message-recall/scripts/commands/erase
 */
import { readFile } from 'node:fs/promises'
import { dirname, join, resolve, sep } from 'node:path'
import { COMMON_OPTIONS, parseCli } from '../support/arguments'
import { EXIT, type LogCommand } from '../support/command'
import { out } from '../support/output'
import { OptionValueError } from '../support/option-values'
import { assertFolder } from '../support/sessions-root'
import { claimHome } from '../support/home-holder'
import { describeHolder } from '../../src/host/home-lock'
import { PendingErases, pendingErasesPath } from '../../src/host/pending-erases'
import { logFormatOf, resolveSessionLog } from '../../src/log/log-file'
import { UsageError, UsageLineError } from '../support/usage-errors'
import type { DiskCopy } from '../../src/host/erase-copies-on-disk'

const usage = (invocation: string): string => `Usage: ${invocation} <log file | session folder> --tombstone SEQ [options]

Erases for good what one dsh-message-recall removal took from a stored session: in the
session's log, the content of the removed messages and of every event that copied it is
replaced by "[removed by dsh-message-recall]" (every event, seq and surface op stays), then
the image objects and tool output files (spill, process output) that only the erased content
referenced are deleted, and the session's record in DSH's projection cache
(storages/session_projcache.json) is dropped (DSH folds it again from the log). The new
log is written beside the old one, read back with DSH's own reader, checked against it and
loaded under DSH's invariant companions before a rename puts it in place: a crash leaves the
old log or the new one. There is no undo: Undo, Restore and Open a copy cannot bring the erased content back.

The erase does not reach the other sessions that hold the same messages: the session's copies
(a Branch, a subagent fork, Open a copy), and when the session is itself a copy, the session it
was copied from (for the messages below its seed) and that one's other copies. After the erase,
each of them under the DSH home whose log still holds the erased messages is listed (copy,
source or related copy), one line per removal of them there (with how many messages it takes
there and the command that erases it there), and one line for those it holds not removed.

Stop the DSH host first: a running host may hold the session with its content in memory and
write it again. While a live host holds the DSH home (its lock file .message-recall.lock in the
sessions folder, or npm start's npm-start.lock in the home), erase refuses and names it. While
it erases, it holds that .message-recall.lock itself, so a host started meanwhile refuses this
plugin's writes until it ends. Find the tombstone's seq with: explain <session folder>.

The log is a session folder or any session log file, whatever its name (its encoding is read
from its first bytes); the new log is written beside it.

Options:
  --tombstone SEQ   the seq of the removal's tombstone (required)
  --home DIR        the DSH home (images, other sessions, copies, projection cache); default:
                    the folder above "sessions" in the log's path
  --json            one JSON document instead of text
  -h, --help        this text

Exit codes: 0 erased; 1 refused (not a removal in effect, already erased, a running host holds
the DSH home, the new log did not verify; nothing changed); 2 bad usage, an unreadable log or a
--home that is not a folder.
`

/** The first Node version whose `node:zlib` has zstd, which the erase writes with. */
const ERASE_MIN_NODE = [22, 15] as const

/**
 * Why this Node cannot run `erase`, or `null` when it can.
 * @param version - a Node version as `process.version` gives it (`v20.20.2`).
 * @returns one line, e.g. `erase needs Node 22.15 or later (this is v20.20.2): …`, or `null`.
 */
export function eraseRuntimeProblem(version: string): string | null {
  const [major = 0, minor = 0] = /^v?(\d+)\.(\d+)/.exec(version)?.slice(1).map(Number) ?? []
  if (major > ERASE_MIN_NODE[0] || (major === ERASE_MIN_NODE[0] && minor >= ERASE_MIN_NODE[1])) return null
  return `erase needs Node ${ERASE_MIN_NODE.join('.')} or later (this is ${version}): it writes the log with node:zlib's zstd; the read-only commands run on this Node`
}

const OPTIONS = { ...COMMON_OPTIONS, tombstone: { type: 'string' }, home: { type: 'string' } } as const

/**
 * A path as one shell word: as it is when it holds only characters no shell reads specially,
 * else in single quotes.
 */
function shellWord(path: string): string {
  return /^[\w@%+=:,./-]+$/.test(path) ? path : `'${path.replace(/'/g, `'\\''`)}'`
}

/** How a line names a related session's relation: `copy`, `source`, `related copy` (another copy of a source). */
const RELATION_WORDS: Readonly<Record<DiskCopy['relation'], string>> = { copy: 'copy', source: 'source', 'source-copy': 'related copy' }

/**
 * The lines naming a related session that still holds the erased messages: one per removal of them
 * there, and one for those not removed there.
 * @param copy - from `copiesOnDisk`.
 * @param invocation - how `erase` was run, for the command that erases its own removal.
 * @returns e.g. `still held by copy <id> "Audit" (with its own removal 57 of 3 message(s); erase it there: dsh-message-recall-log erase <log> --tombstone 57)`,
 *   `still held by copy <id> "Audit" (2 of them not removed there: remove them there first, then erase that removal; its log: <log>)`;
 *   `source <id>`, `related copy <id>` for the other relations; one line `may still be held by …` when its log could not be read.
 */
export function copyLines(copy: DiskCopy, invocation: string): string[] {
  const who = `${RELATION_WORDS[copy.relation]} ${copy.sessionId}`
  if (copy.error !== null) return [`may still be held by ${who} (its log ${copy.log} could not be read: ${copy.error})`]
  const named = `still held by ${who}${copy.title === null ? '' : ` ${JSON.stringify(copy.title)}`}`
  return [
    ...copy.removals.map((r) => `${named} (with its own removal ${r.tombstoneSeq} of ${r.messageCount} message(s); erase it there: ${invocation} ${shellWord(copy.log)} --tombstone ${r.tombstoneSeq})`),
    ...(copy.notRemovedCount === 0 ? [] : [`${named} (${copy.notRemovedCount} of them not removed there: remove them there first, then erase that removal; its log: ${copy.log})`]),
  ]
}

async function run(argv: readonly string[], invocation: string): Promise<number> {
  const { values, positionals } = parseCli(argv, OPTIONS)
  if (values.help === true) {
    await out(usage(invocation))
    return EXIT.ok
  }
  // Before anything else: DSH's code and the log writer are loaded (below) only on a Node that has zstd.
  const runtime = eraseRuntimeProblem(process.version)
  if (runtime !== null) throw new UsageLineError(runtime)
  if (positionals.length !== 1) throw new UsageError(`expected one session folder or log file, got ${positionals.length}`)
  if (values.tombstone === undefined || !/^\d+$/.test(values.tombstone)) throw new OptionValueError('tombstone', values.tombstone ?? null)
  const tombstoneSeq = Number(values.tombstone)

  // Any log file (the new log is written beside it, `<log>.<hex>.erase.tmp`, and DSH's reader
  // does not read the name), or a session folder holding one; its encoding from its first bytes.
  const file = await resolveSessionLog(resolve(positionals[0]!))
  const logPath = file.path
  const compression = file.format === 'zstd' ? 'zstd' : 'none'
  const parts = logPath.split(sep)
  const sessionsAt = parts.lastIndexOf('sessions')
  if (values.home !== undefined) await assertFolder(resolve(values.home))
  const home = values.home !== undefined ? resolve(values.home) : sessionsAt > 0 ? parts.slice(0, sessionsAt).join(sep) : undefined
  // A running host may hold the session in memory and write it again: refuse before reading
  // anything. Else hold the plugin's lock until the end, so that a host started meanwhile has its
  // plugin refuse writes rather than load the old log and write it again.
  const claim = claimHome(logPath, home)
  if (!claim.ok) {
    const { held } = claim
    const why = `cannot erase removal ${tombstoneSeq}: a running host holds this DSH home: ${describeHolder(held.holder)}, lock file ${held.file}; stop that host first`
    if (values.json) await out(JSON.stringify({ ok: false, code: 'HOME_IN_USE', message: why, holderPid: held.holder.pid }) + '\n')
    else await out(`refused, nothing changed: ${why}\n`)
    return EXIT.problem
  }
  try {
    return await eraseHeld(values.json === true, invocation, logPath, compression, home, tombstoneSeq)
  } finally {
    claim.release()
  }
}

/**
 * The erase itself, while `run` holds the home's lock: rewrite the log, delete the side files only
 * it referenced, drop its projection cache record, name the related sessions still holding the
 * erased messages.
 * @returns the exit code; the output written.
 */
async function eraseHeld(json: boolean, invocation: string, logPath: string, compression: 'zstd' | 'none', home: string | undefined, tombstoneSeq: number): Promise<number> {
  const { decodeLogBytes } = await import('../../src/host/jsonl-log-file')
  const { eraseLogFile } = await import('../../src/host/erase-log')
  const { deleteSideFiles, eraseFailureText } = await import('../../src/host/erase-session')
  const { dropCacheEntryInFile } = await import('../../src/host/projection-cache-erase')
  const { copiesOnDisk, logFilesUnder } = await import('../../src/host/erase-copies-on-disk')
  const { dshJsonlReader } = await import('../support/dsh-reader')
  let id: string
  try {
    const text = decodeLogBytes(await readFile(logPath), compression)
    id = String(JSON.parse(text.slice(0, text.indexOf('\n'))).id)
  } catch (error) {
    throw new UsageLineError(`cannot read the session log ${logPath}: ${(error as Error).message}`)
  }
  const reader = await dshJsonlReader(compression)
  const at = new Date().toISOString()
  const done = await eraseLogFile(reader, logPath, id, tombstoneSeq, { at })
  if (!done.ok) {
    // The route's sentence (`eraseFailureText`), without its `message-recall:` prefix.
    const why = eraseFailureText(done, tombstoneSeq)
    if (json) await out(JSON.stringify({ ok: false, code: done.code, message: why }) + '\n')
    else await out(`${done.code === 'ERASE_NOT_VERIFIED' ? 'refused' : 'refused, nothing changed'}: ${why}\n`)
    return EXIT.problem
  }

  const logs = home === undefined ? [] : await logFilesUnder(join(home, 'sessions'))
  const others: string[] = []
  // The other sessions' logs are read only when the erase freed images or files to check against them.
  if (home !== undefined && done.value.erasedImages.length + done.value.erasedFiles.length > 0) {
    for (const path of logs) {
      if (path === logPath || dirname(path) === dirname(logPath)) continue
      try {
        // Its encoding from its first bytes, as for the erased log (a file that is neither is skipped).
        const bytes = await readFile(path)
        const format = logFormatOf(bytes, bytes.length)
        if (format === null) continue
        others.push(decodeLogBytes(bytes, format === 'zstd' ? 'zstd' : 'none'))
      } catch {
        continue
      }
    }
  }
  const side = await deleteSideFiles(done.value, others, home === undefined ? undefined : join(home, 'attachments', 'v1'))
  // DSH's projection cache: the session's record is dropped; DSH folds it again from the erased log.
  const projectionCache = home === undefined ? 'absent' : await dropCacheEntryInFile(join(home, 'storages'), id)
  // A pending erase of the same removal kept for the host's next start (the Removed panel's) is done now: dropped.
  const pendingDropped = home === undefined ? false : await new PendingErases(pendingErasesPath(home)).update(id, tombstoneSeq, undefined)
  // The related sessions (copies, sources, their other copies) whose logs still hold the erased
  // messages: the erase does not reach them. The erased log first: its header names its source.
  const copies = home === undefined ? null : await copiesOnDisk([logPath, ...logs.filter((path) => path !== logPath)], id, done.value.messageSeqs)
  const value = { ok: true, sessionId: id, tombstoneSeq, erasedAt: at, messageSeqs: done.value.messageSeqs, rewrittenEvents: done.value.carriers.size, ...side, projectionCache, pendingErase: pendingDropped ? 'dropped' : 'absent', copies }
  if (json) {
    await out(JSON.stringify(value) + '\n')
    return EXIT.ok
  }
  const lines = [
    `erased removal ${tombstoneSeq} of session ${id}: ${done.value.messageSeqs.length} message(s), ${done.value.carriers.size} event(s) rewritten`,
    ...side.deletedImages.map((image) => `deleted image ${image}`),
    ...side.deletedFiles.map((file) => `deleted file ${file}`),
    ...side.kept.map((kept) => `kept ${kept.name} (${kept.reason === 'referenced' ? 'another session references it' : kept.reason === 'absent' ? 'not there' : 'no DSH home given'})`),
    ...(projectionCache === 'dropped' ? ['dropped its record from the projection cache (storages/session_projcache.json); DSH folds it again from the erased log'] : []),
    ...(pendingDropped ? ['dropped its pending erase (message-recall/pending-erases.json): it is done'] : []),
    ...(copies === null ? ['copies and sources of the session not looked for: no DSH home (pass --home)'] : copies.flatMap((copy) => copyLines(copy, invocation))),
  ]
  await out(lines.join('\n') + '\n')
  return EXIT.ok
}

/** `erase-session`, the `erase` subcommand. */
export const eraseCommand: LogCommand = { name: 'erase', script: 'erase-session', summary: 'erase one removal of a stored session for good (host stopped)', usage, run }
