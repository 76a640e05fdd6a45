#!/usr/bin/env node
import {
  assertFolder
} from "./chunk-LJ2DMLF2.js";
import {
  COMMON_OPTIONS,
  EXIT,
  OptionValueError,
  out,
  parseCli
} from "./chunk-L2YMFD7L.js";
import {
  logFormatOf,
  resolveSessionLog
} from "./chunk-CDZLCCFJ.js";
import {
  UsageError,
  UsageLineError
} from "./chunk-KEICUTLP.js";

// scripts/commands/erase.ts
import { readFile as readFile2 } from "node:fs/promises";
import { dirname as dirname4, join as join4, resolve as resolve2, sep } from "node:path";

// scripts/support/home-holder.ts
import { existsSync } from "node:fs";
import { basename, dirname as dirname2, join as join2 } from "node:path";

// src/host/home-lock.ts
import { linkSync, mkdirSync, readFileSync, unlinkSync, writeFileSync } from "node:fs";
import { randomBytes } from "node:crypto";
import { dirname, join } from "node:path";
var heldHere = /* @__PURE__ */ new Set();
function pidRuns(pid) {
  if (!Number.isSafeInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return error.code === "EPERM";
  }
}
function processStartMs(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const ticks = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[19]);
    const boot = Number(/^btime (\d+)$/m.exec(readFileSync("/proc/stat", "utf8"))?.[1]);
    return Number.isFinite(ticks) && Number.isFinite(boot) ? boot * 1e3 + ticks * 10 : void 0;
  } catch {
    return void 0;
  }
}
var START_SLACK_MS = 5e3;
function holderLive(holder, runs = pidRuns) {
  if (holder.pid === process.pid) return heldHere.has(holder.token);
  if (!runs(holder.pid)) return false;
  const started = processStartMs(holder.pid);
  const taken = Date.parse(holder.startedAt);
  return started === void 0 || Number.isNaN(taken) || started <= taken + START_SLACK_MS;
}
function readHolder(file) {
  let text;
  try {
    text = readFileSync(file, "utf8");
  } catch (error) {
    if (error.code === "ENOENT") return "missing";
    throw error;
  }
  try {
    const value = JSON.parse(text);
    if (typeof value.pid === "number" && typeof value.token === "string") {
      return { pid: value.pid, token: value.token, startedAt: String(value.startedAt ?? ""), owner: String(value.owner ?? "") };
    }
  } catch {
  }
  return void 0;
}
function liveHolder(file) {
  let holder;
  try {
    holder = readHolder(file);
  } catch {
    return null;
  }
  return holder !== "missing" && holder !== void 0 && holderLive(holder) ? holder : null;
}
function claimLock(file, owner) {
  mkdirSync(dirname(file), { recursive: true });
  const holder = { pid: process.pid, startedAt: (/* @__PURE__ */ new Date()).toISOString(), owner, token: randomBytes(8).toString("hex") };
  const temp = `${file}.${holder.token}.tmp`;
  writeFileSync(temp, JSON.stringify(holder) + "\n", { mode: 420 });
  try {
    for (let attempt = 0; ; attempt++) {
      try {
        linkSync(temp, file);
        heldHere.add(holder.token);
        return { ok: true, file, holder, release: () => releaseLock(file, holder.token) };
      } catch (error) {
        if (error.code !== "EEXIST" || attempt >= 5) throw error;
      }
      const current = readHolder(file);
      if (current === "missing") continue;
      if (current !== void 0 && holderLive(current)) return { ok: false, holder: current };
      try {
        unlinkSync(file);
      } catch (error) {
        if (error.code !== "ENOENT") throw error;
      }
    }
  } finally {
    try {
      unlinkSync(temp);
    } catch {
    }
  }
}
function releaseLock(file, token) {
  heldHere.delete(token);
  try {
    const current = readHolder(file);
    if (current !== "missing" && current !== void 0 && current.token === token) unlinkSync(file);
  } catch {
  }
}
function describeHolder(holder) {
  return `${holder.owner || "another process"} (pid ${holder.pid}${holder.startedAt ? `, since ${holder.startedAt}` : ""})`;
}
var START_LOCK_FILE = "npm-start.lock";
var PLUGIN_LOCK_FILE = ".message-recall.lock";

// scripts/support/home-holder.ts
function persistenceRootOf(logPath) {
  const project = dirname2(dirname2(logPath));
  const name = basename(project);
  return /^--.+--$/.test(name) || name === "_no-cwd" ? dirname2(project) : null;
}
function homeLockFiles(logPath, home) {
  const root = persistenceRootOf(logPath);
  const files = [
    ...root === null ? [] : [join2(root, PLUGIN_LOCK_FILE)],
    ...home === void 0 ? [] : [join2(home, "sessions", PLUGIN_LOCK_FILE), join2(home, START_LOCK_FILE)]
  ];
  return [...new Set(files)];
}
var ERASE_LOCK_OWNER = "dsh-message-recall-log erase";
function claimHome(logPath, home, owner = ERASE_LOCK_OWNER) {
  const claimed = [];
  const release = () => {
    for (const lock of claimed.splice(0).reverse()) lock.release();
  };
  const refuse = (held) => {
    release();
    return { ok: false, held };
  };
  try {
    for (const file of homeLockFiles(logPath, home)) {
      if (basename(file) !== PLUGIN_LOCK_FILE) {
        const holder = liveHolder(file);
        if (holder !== null) return refuse({ holder, file });
        continue;
      }
      if (!existsSync(dirname2(file))) continue;
      const claim = claimLock(file, owner);
      if (!claim.ok) return refuse({ holder: claim.holder, file });
      claimed.push(claim);
    }
  } catch (error) {
    release();
    throw error;
  }
  return { ok: true, files: claimed.map((lock) => lock.file), release };
}

// src/host/pending-erases.ts
import { mkdir, open, readFile, rename, rm } from "node:fs/promises";
import { dirname as dirname3, join as join3, resolve } from "node:path";
var PendingErasesDamaged = class extends Error {
};
var PLUGIN_HOME_FOLDER = "message-recall";
var PENDING_ERASES_FILE = "pending-erases.json";
function pendingErasesPath(home) {
  return join3(home, PLUGIN_HOME_FOLDER, PENDING_ERASES_FILE);
}
function isPendingErase(value) {
  const v = value;
  return v !== null && typeof v === "object" && typeof v.sessionId === "string" && Number.isSafeInteger(v.tombstoneSeq) && typeof v.scheduledAt === "string" && Array.isArray(v.messageSeqs) && Number.isSafeInteger(v.imageCount) && Number.isSafeInteger(v.fileCount) && (v.state === "pending" || v.state === "failed");
}
var PendingErases = class {
  /** @param path - the file ({@link pendingErasesPath}). */
  constructor(path) {
    this.path = path;
  }
  list;
  chain = Promise.resolve();
  /**
   * Every pending erase, in the order they were asked for.
   * @returns a copy of the list.
   * @throws {@link PendingErasesDamaged} when the file is not a pending-erase list; file system errors.
   */
  async all() {
    return this.serial(async () => [...await this.load()]);
  }
  /**
   * The pending erase of one removal.
   * @param sessionId - the session.
   * @param tombstoneSeq - the removal's tombstone seq.
   * @returns the record, or `undefined`.
   * @throws as {@link PendingErases.all}.
   */
  async get(sessionId, tombstoneSeq) {
    return (await this.all()).find((e) => e.sessionId === sessionId && e.tombstoneSeq === tombstoneSeq);
  }
  /**
   * Add a pending erase unless one for the same removal is pending; a failed one is replaced in
   * its place (asked for again). Settles once the file is durable.
   * @param record - the new record (`state: 'pending'`).
   * @returns the record now kept (the earlier one when the removal had one pending already).
   * @throws as {@link PendingErases.all}, and the write's file system errors (the old file stays).
   */
  async add(record) {
    return this.serial(async () => {
      const list = await this.load();
      const at = list.findIndex((e) => e.sessionId === record.sessionId && e.tombstoneSeq === record.tombstoneSeq);
      if (at >= 0 && list[at].state === "pending") return list[at];
      await this.save(at < 0 ? [...list, record] : list.map((e, i) => i === at ? record : e));
      return record;
    });
  }
  /**
   * Replace or drop the record of one removal; settles once the file is durable.
   * @param sessionId - the session.
   * @param tombstoneSeq - the removal's tombstone seq.
   * @param next - the new record, or `undefined` to drop it.
   * @returns whether a record was there.
   * @throws as {@link PendingErases.add}.
   */
  async update(sessionId, tombstoneSeq, next) {
    return this.serial(async () => {
      const list = await this.load();
      const at = list.findIndex((e) => e.sessionId === sessionId && e.tombstoneSeq === tombstoneSeq);
      if (at < 0) return false;
      await this.save(next === void 0 ? list.filter((_, i) => i !== at) : list.map((e, i) => i === at ? next : e));
      return true;
    });
  }
  serial(task) {
    const run2 = this.chain.then(task, task);
    this.chain = run2.catch(() => void 0);
    return run2;
  }
  async load() {
    if (this.list !== void 0) return this.list;
    let text;
    try {
      text = await readFile(this.path, "utf8");
    } catch (error) {
      if (error.code !== "ENOENT") throw error;
      this.list = [];
      return this.list;
    }
    let parsed;
    try {
      parsed = JSON.parse(text);
    } catch {
      throw new PendingErasesDamaged(`${PENDING_ERASES_FILE} is not JSON`);
    }
    const erases = parsed?.erases;
    if (parsed.version !== 1 || !Array.isArray(erases) || !erases.every(isPendingErase)) {
      throw new PendingErasesDamaged(`${PENDING_ERASES_FILE} is not a version 1 pending-erase list`);
    }
    this.list = erases;
    return this.list;
  }
  async save(list) {
    const folder = dirname3(this.path);
    await mkdir(folder, { recursive: true });
    const beside = `${this.path}.${process.pid}.new`;
    const file = await open(beside, "w");
    try {
      await file.writeFile(`${JSON.stringify({ version: 1, erases: list }, null, 2)}
`, "utf8");
      await file.sync();
    } finally {
      await file.close();
    }
    try {
      await rename(beside, this.path);
    } catch (error) {
      await rm(beside, { force: true });
      throw error;
    }
    const dir = await open(folder, "r");
    try {
      await dir.sync();
    } finally {
      await dir.close();
    }
    this.list = list;
  }
};

// scripts/commands/erase.ts
var usage = (invocation) => `Usage: ${invocation} <log file | session folder> --tombstone SEQ [options]

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
function copyLines(copy, invocation) {
  const who = `${RELATION_WORDS[copy.relation]} ${copy.sessionId}`;
  if (copy.error !== null) return [`may still be held by ${who} (its log ${copy.log} could not be read: ${copy.error})`];
  const named = `still held by ${who}${copy.title === null ? "" : ` ${JSON.stringify(copy.title)}`}`;
  return [
    ...copy.removals.map((r) => `${named} (with its own removal ${r.tombstoneSeq} of ${r.messageCount} message(s); erase it there: ${invocation} ${shellWord(copy.log)} --tombstone ${r.tombstoneSeq})`),
    ...copy.notRemovedCount === 0 ? [] : [`${named} (${copy.notRemovedCount} of them not removed there: remove them there first, then erase that removal; its log: ${copy.log})`]
  ];
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
  if (values.tombstone === void 0 || !/^\d+$/.test(values.tombstone)) throw new OptionValueError("tombstone", values.tombstone ?? null);
  const tombstoneSeq = Number(values.tombstone);
  const file = await resolveSessionLog(resolve2(positionals[0]));
  const logPath = file.path;
  const compression = file.format === "zstd" ? "zstd" : "none";
  const parts = logPath.split(sep);
  const sessionsAt = parts.lastIndexOf("sessions");
  if (values.home !== void 0) await assertFolder(resolve2(values.home));
  const home = values.home !== void 0 ? resolve2(values.home) : sessionsAt > 0 ? parts.slice(0, sessionsAt).join(sep) : void 0;
  const claim = claimHome(logPath, home);
  if (!claim.ok) {
    const { held } = claim;
    const why = `cannot erase removal ${tombstoneSeq}: a running host holds this DSH home: ${describeHolder(held.holder)}, lock file ${held.file}; stop that host first`;
    if (values.json) await out(JSON.stringify({ ok: false, code: "HOME_IN_USE", message: why, holderPid: held.holder.pid }) + "\n");
    else await out(`refused, nothing changed: ${why}
`);
    return EXIT.problem;
  }
  try {
    return await eraseHeld(values.json === true, invocation, logPath, compression, home, tombstoneSeq);
  } finally {
    claim.release();
  }
}
async function eraseHeld(json, invocation, logPath, compression, home, tombstoneSeq) {
  const { decodeLogBytes } = await import("./jsonl-log-file-FETHXAH6.js");
  const { eraseLogFile } = await import("./erase-log-VMDN5V45.js");
  const { deleteSideFiles, eraseFailureText } = await import("./erase-session-KE6QGS3V.js");
  const { dropCacheEntryInFile } = await import("./projection-cache-erase-5WQJ7QZG.js");
  const { copiesOnDisk, logFilesUnder } = await import("./erase-copies-on-disk-YVMDDXXK.js");
  const { dshJsonlReader } = await import("./dsh-reader-PQKW3SW4.js");
  let id;
  try {
    const text = decodeLogBytes(await readFile2(logPath), compression);
    id = String(JSON.parse(text.slice(0, text.indexOf("\n"))).id);
  } catch (error) {
    throw new UsageLineError(`cannot read the session log ${logPath}: ${error.message}`);
  }
  const reader = await dshJsonlReader(compression);
  const at = (/* @__PURE__ */ new Date()).toISOString();
  const done = await eraseLogFile(reader, logPath, id, tombstoneSeq, { at });
  if (!done.ok) {
    const why = eraseFailureText(done, tombstoneSeq);
    if (json) await out(JSON.stringify({ ok: false, code: done.code, message: why }) + "\n");
    else await out(`${done.code === "ERASE_NOT_VERIFIED" ? "refused" : "refused, nothing changed"}: ${why}
`);
    return EXIT.problem;
  }
  const logs = home === void 0 ? [] : await logFilesUnder(join4(home, "sessions"));
  const others = [];
  if (home !== void 0 && done.value.erasedImages.length + done.value.erasedFiles.length > 0) {
    for (const path of logs) {
      if (path === logPath || dirname4(path) === dirname4(logPath)) continue;
      try {
        const bytes = await readFile2(path);
        const format = logFormatOf(bytes, bytes.length);
        if (format === null) continue;
        others.push(decodeLogBytes(bytes, format === "zstd" ? "zstd" : "none"));
      } catch {
        continue;
      }
    }
  }
  const side = await deleteSideFiles(done.value, others, home === void 0 ? void 0 : join4(home, "attachments", "v1"));
  const projectionCache = home === void 0 ? "absent" : await dropCacheEntryInFile(join4(home, "storages"), id);
  const pendingDropped = home === void 0 ? false : await new PendingErases(pendingErasesPath(home)).update(id, tombstoneSeq, void 0);
  const copies = home === void 0 ? null : await copiesOnDisk([logPath, ...logs.filter((path) => path !== logPath)], id, done.value.messageSeqs);
  const value = { ok: true, sessionId: id, tombstoneSeq, erasedAt: at, messageSeqs: done.value.messageSeqs, rewrittenEvents: done.value.carriers.size, ...side, projectionCache, pendingErase: pendingDropped ? "dropped" : "absent", copies };
  if (json) {
    await out(JSON.stringify(value) + "\n");
    return EXIT.ok;
  }
  const lines = [
    `erased removal ${tombstoneSeq} of session ${id}: ${done.value.messageSeqs.length} message(s), ${done.value.carriers.size} event(s) rewritten`,
    ...side.deletedImages.map((image) => `deleted image ${image}`),
    ...side.deletedFiles.map((file) => `deleted file ${file}`),
    ...side.kept.map((kept) => `kept ${kept.name} (${kept.reason === "referenced" ? "another session references it" : kept.reason === "absent" ? "not there" : "no DSH home given"})`),
    ...projectionCache === "dropped" ? ["dropped its record from the projection cache (storages/session_projcache.json); DSH folds it again from the erased log"] : [],
    ...pendingDropped ? ["dropped its pending erase (message-recall/pending-erases.json): it is done"] : [],
    ...copies === null ? ["copies and sources of the session not looked for: no DSH home (pass --home)"] : copies.flatMap((copy) => copyLines(copy, invocation))
  ];
  await out(lines.join("\n") + "\n");
  return EXIT.ok;
}
var eraseCommand = { name: "erase", script: "erase-session", summary: "erase one removal of a stored session for good (host stopped)", usage, run };

export {
  eraseCommand
};
