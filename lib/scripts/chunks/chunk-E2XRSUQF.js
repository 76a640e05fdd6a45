#!/usr/bin/env node
import {
  COMMON_OPTIONS,
  EXIT,
  out,
  parseCli
} from "./chunk-ENKBGR3B.js";
import {
  UsageError,
  UsageLineError
} from "./chunk-KEICUTLP.js";

// scripts/commands/erase.ts
import { readdir, readFile } from "node:fs/promises";
import { basename, dirname, join, resolve, sep } from "node:path";
var usage = (invocation) => `Usage: ${invocation} <session folder or log file> --tombstone SEQ [options]

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
source or related copy), with its own removal of them and the command that erases it there, or
as holding them not removed.

Stop the DSH host first: a running host may hold the session with its content in memory and
write it again. Find the tombstone's seq with: explain <session folder>.

Options:
  --tombstone SEQ   the seq of the removal's tombstone (required)
  --home DIR        the DSH home (images, other sessions, copies, projection cache); default:
                    the folder above "sessions" in the log's path
  --json            one JSON document instead of text
  -h, --help        this text

Exit codes: 0 erased; 1 refused (not a removal in effect, already erased, the new log did not
verify; nothing changed); 2 bad usage or an unreadable log.
`;
var ERASE_MIN_NODE = [22, 15];
function eraseRuntimeProblem(version) {
  const [major = 0, minor = 0] = /^v?(\d+)\.(\d+)/.exec(version)?.slice(1).map(Number) ?? [];
  if (major > ERASE_MIN_NODE[0] || major === ERASE_MIN_NODE[0] && minor >= ERASE_MIN_NODE[1]) return null;
  return `erase needs Node ${ERASE_MIN_NODE.join(".")} or later (this is ${version}): it writes the log with node:zlib's zstd; the read-only commands run on this Node`;
}
var OPTIONS = { ...COMMON_OPTIONS, tombstone: { type: "string" }, home: { type: "string" } };
function shellWord(path) {
  return /^[\w@%+=:,./-]+$/.test(path) ? path : `'${path.replace(/'/g, `'\\''`)}'`;
}
var RELATION_WORDS = { copy: "copy", source: "source", "source-copy": "related copy" };
function copyLine(copy, invocation) {
  const who = `${RELATION_WORDS[copy.relation]} ${copy.sessionId}`;
  if (copy.error !== null) return `may still be held by ${who} (its log ${copy.log} could not be read: ${copy.error})`;
  const named = `still held by ${who}${copy.title === null ? "" : ` ${JSON.stringify(copy.title)}`}`;
  return copy.tombstoneSeq === null ? `${named} (not removed there: remove them there first, then erase that removal; its log: ${copy.log})` : `${named} (with its own removal ${copy.tombstoneSeq}; erase it there: ${invocation} ${shellWord(copy.log)} --tombstone ${copy.tombstoneSeq})`;
}
async function run(argv, invocation) {
  const { values, positionals } = parseCli(argv, OPTIONS);
  if (values.help === true) {
    await out(usage(invocation));
    return EXIT.ok;
  }
  const runtime = eraseRuntimeProblem(process.version);
  if (runtime !== null) throw new UsageLineError(runtime);
  if (positionals.length !== 1) throw new UsageError(`expected one session folder or log file, got ${positionals.length}`);
  if (values.tombstone === void 0 || !/^\d+$/.test(values.tombstone)) throw new UsageLineError(`--tombstone must be a seq (a non-negative integer), got ${JSON.stringify(values.tombstone ?? null)}`);
  const tombstoneSeq = Number(values.tombstone);
  let logPath = resolve(positionals[0]);
  if (!/session\.jsonl(\.zstd)?$/.test(basename(logPath))) {
    const names = (await readdir(logPath).catch(() => [])).filter((n) => n === "session.jsonl" || n === "session.jsonl.zstd");
    if (names.length !== 1) throw new UsageLineError(`no session log (session.jsonl.zstd or session.jsonl) in ${logPath}`);
    logPath = join(logPath, names[0]);
  }
  const compression = logPath.endsWith(".zstd") ? "zstd" : "none";
  const { decodeLogBytes } = await import("./jsonl-log-file-FETHXAH6.js");
  const { eraseLogFile } = await import("./erase-log-V4UE7EWH.js");
  const { deleteSideFiles, eraseFailureText } = await import("./erase-session-AZFWCAFW.js");
  const { dropCacheEntryInFile } = await import("./projection-cache-erase-5WQJ7QZG.js");
  const { copiesOnDisk, logFilesUnder } = await import("./erase-copies-on-disk-UZWUIV7P.js");
  const { dshJsonlReader } = await import("./dsh-reader-PQKW3SW4.js");
  let id;
  try {
    const text = decodeLogBytes(await readFile(logPath), compression);
    id = String(JSON.parse(text.slice(0, text.indexOf("\n"))).id);
  } catch (error) {
    throw new UsageLineError(`cannot read the session log ${logPath}: ${error.message}`);
  }
  const reader = await dshJsonlReader(compression);
  const at = (/* @__PURE__ */ new Date()).toISOString();
  const done = await eraseLogFile(reader, logPath, id, tombstoneSeq, { at });
  if (!done.ok) {
    const why = eraseFailureText(done, tombstoneSeq);
    if (values.json) await out(JSON.stringify({ ok: false, code: done.code, message: why }) + "\n");
    else await out(`${done.code === "ERASE_NOT_VERIFIED" ? "refused" : "refused, nothing changed"}: ${why}
`);
    return EXIT.problem;
  }
  const parts = logPath.split(sep);
  const sessionsAt = parts.lastIndexOf("sessions");
  const home = values.home !== void 0 ? resolve(values.home) : sessionsAt > 0 ? parts.slice(0, sessionsAt).join(sep) : void 0;
  const logs = home === void 0 ? [] : await logFilesUnder(join(home, "sessions"));
  const others = [];
  if (home !== void 0 && done.value.erasedImages.length + done.value.erasedFiles.length > 0) {
    for (const path of logs) {
      if (path === logPath || dirname(path) === dirname(logPath)) continue;
      try {
        others.push(decodeLogBytes(await readFile(path), path.endsWith(".zstd") ? "zstd" : "none"));
      } catch {
        continue;
      }
    }
  }
  const side = await deleteSideFiles(done.value, others, home === void 0 ? void 0 : join(home, "attachments", "v1"));
  const projectionCache = home === void 0 ? "absent" : await dropCacheEntryInFile(join(home, "storages"), id);
  const copies = home === void 0 ? null : await copiesOnDisk([logPath, ...logs.filter((path) => path !== logPath)], id, done.value.messageSeqs);
  const value = { ok: true, sessionId: id, tombstoneSeq, erasedAt: at, messageSeqs: done.value.messageSeqs, rewrittenEvents: done.value.carriers.size, ...side, projectionCache, copies };
  if (values.json) {
    await out(JSON.stringify(value) + "\n");
    return EXIT.ok;
  }
  const lines = [
    `erased removal ${tombstoneSeq} of session ${id}: ${done.value.messageSeqs.length} message(s), ${done.value.carriers.size} event(s) rewritten`,
    ...side.deletedImages.map((image) => `deleted image ${image}`),
    ...side.deletedFiles.map((file) => `deleted file ${file}`),
    ...side.kept.map((kept) => `kept ${kept.name} (${kept.reason === "referenced" ? "another session references it" : kept.reason === "absent" ? "not there" : "no DSH home given"})`),
    ...projectionCache === "dropped" ? ["dropped its record from the projection cache (storages/session_projcache.json); DSH folds it again from the erased log"] : [],
    ...copies === null ? ["copies and sources of the session not looked for: no DSH home (pass --home)"] : copies.map((copy) => copyLine(copy, invocation))
  ];
  await out(lines.join("\n") + "\n");
  return EXIT.ok;
}
var eraseCommand = { name: "erase", script: "erase-session", summary: "erase one removal of a stored session for good (host stopped)", usage, run };

export {
  eraseCommand
};
