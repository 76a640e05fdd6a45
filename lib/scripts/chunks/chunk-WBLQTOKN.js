#!/usr/bin/env node
import {
  forkOrigin
} from "./chunk-QDRG7ERN.js";
import {
  assertHome,
  assertRoot
} from "./chunk-LJ2DMLF2.js";
import {
  progress
} from "./chunk-QTLKHOKV.js";
import {
  COMMON_OPTIONS,
  DECODER_OPTION,
  EXIT,
  createFzstdDecoder,
  createZlibOneshotDecoder,
  decoderOption,
  hoursOption,
  out,
  parseRootTarget,
  summarizeRoot
} from "./chunk-L2YMFD7L.js";
import {
  logFormatOf
} from "./chunk-CDZLCCFJ.js";
import {
  ACTIONS,
  TOMBSTONE_ACTIONS
} from "./chunk-MY2ZCKN5.js";
import {
  UsageLineError
} from "./chunk-KEICUTLP.js";
import {
  counted,
  forCount,
  scanZstdFrames
} from "./chunk-2BN4JUMU.js";

// src/log/text-scan.ts
import { readdir, readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
async function toolOutputFolders(dir = tmpdir()) {
  const names = await readdir(dir).catch(() => []);
  return names.filter((n) => n.startsWith("dsh-spill-") || n.startsWith("dsh-subprocess-")).sort().map((n) => join(dir, n));
}
async function filesUnder(dir) {
  const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
  const files = [];
  for (const entry of entries) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) files.push(...await filesUnder(path));
    else if (entry.isFile()) files.push(path);
  }
  return files;
}
function decoded(bytes, decoder) {
  if (logFormatOf(bytes, bytes.length) !== "zstd") return bytes;
  try {
    const scan = scanZstdFrames(bytes);
    return Buffer.concat(scan.frames.filter((f) => f.kind === "zstd").map((f) => Buffer.from(decoder.decode(bytes, f.start, f.end))));
  } catch {
    return bytes;
  }
}
function countIn(haystack, needle) {
  let count = 0;
  for (let at = haystack.indexOf(needle); at >= 0; at = haystack.indexOf(needle, at + needle.length)) count++;
  return count;
}
async function findTextUnder(dirs, text) {
  const forms = [.../* @__PURE__ */ new Set([text, JSON.stringify(text).slice(1, -1)])].map((t) => Buffer.from(t, "utf8"));
  const hits = [];
  const decoder = createZlibOneshotDecoder() ?? await createFzstdDecoder();
  try {
    for (const dir of dirs) {
      for (const path of await filesUnder(dir)) {
        const bytes = await readFile(path).catch(() => null);
        if (bytes === null) continue;
        const data = decoded(bytes, decoder);
        const count = Math.max(...forms.map((form) => countIn(data, form)));
        if (count > 0) hits.push({ path, count });
      }
    }
  } finally {
    decoder.close();
  }
  return hits;
}

// scripts/commands/scan.ts
import { dirname, resolve } from "node:path";
var usage = (invocation) => `Usage: ${invocation} [sessions root] [options]

Scans every session log under a DSH sessions root for surface replacements and lists,
newest first, the sessions holding dsh-message-recall tombstones (by action: ${TOMBSTONE_ACTIONS.join(", ")}),
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
`;
var OPTIONS = { ...COMMON_OPTIONS, ...DECODER_OPTION, hours: { type: "string" }, quiet: { type: "boolean" }, text: { type: "string" } };
async function scanText(home, text, json) {
  const folders = [home, ...await toolOutputFolders()];
  const hits = await findTextUnder(folders, text);
  if (json) {
    await out(JSON.stringify({ home, folders, hits }) + "\n");
    return hits.length > 0 ? EXIT.problem : EXIT.ok;
  }
  const lines = hits.map((hit) => `${hit.path}  ${counted(hit.count, "occurrence")}`);
  lines.push(hits.length > 0 ? `the text occurs in ${counted(hits.length, "file")}` : `the text occurs nowhere under ${home} and ${counted(folders.length - 1, "tool output folder")}`);
  await out(lines.join("\n") + "\n");
  return hits.length > 0 ? EXIT.problem : EXIT.ok;
}
async function run(argv, invocation) {
  const { values, root, defaulted } = parseRootTarget(argv, OPTIONS);
  if (root === null) {
    await out(usage(invocation));
    return EXIT.ok;
  }
  if (values.text !== void 0) {
    if (values.text === "") throw new UsageLineError("--text needs a non-empty text");
    const home = defaulted ? dirname(root) : resolve(root);
    await assertHome(home, defaulted);
    return scanText(home, values.text, values.json === true);
  }
  const hours = hoursOption(values.hours);
  const decoder = decoderOption(values.decoder);
  await assertRoot(root, defaulted);
  const bar = progress("scan", "logs", values.quiet !== true);
  const { entries, skipped } = await summarizeRoot(root, {
    decoder,
    ...hours !== void 0 ? { sinceMs: Date.now() - hours * 36e5 } : {},
    onProgress: (done, total, bytes) => bar.update(done, total, bytes)
  });
  bar.done();
  const unreadable = entries.filter((e) => e.error !== null);
  const damaged = entries.filter((e) => e.error === null && e.problems.length > 0);
  const withTombstones = entries.filter((e) => (e.summary?.tombstones ?? 0) > 0);
  const withCompaction = entries.filter((e) => (e.summary?.checkpoints ?? 0) + (e.summary?.prunes ?? 0) > 0);
  const withOther = entries.filter((e) => (e.summary?.otherReplacements ?? 0) > 0);
  const withRestores = entries.filter((e) => (e.summary?.restores ?? 0) > 0);
  const forks = entries.filter((e) => forkOrigin(e.header) !== null);
  const bad = unreadable.length + damaged.length + skipped.length;
  const id = (e) => e.header?.id ?? "?";
  if (values.json) {
    const row = (e) => ({ path: e.path, id: e.header?.id ?? null, updated: new Date(e.mtimeMs).toISOString(), ...e.summary, forkedFrom: forkOrigin(e.header) });
    await out(
      JSON.stringify({
        root,
        scanned: entries.length,
        tombstones: withTombstones.map(row),
        restores: withRestores.map(row),
        forks: forks.map(row),
        compaction: withCompaction.map(row),
        other: withOther.map(row),
        unreadable: [...unreadable.map((e) => ({ path: e.path, error: e.error })), ...skipped.map((s) => ({ path: s.path, error: s.message }))],
        damaged: damaged.map((e) => ({ path: e.path, problems: e.problems.map((p) => p.message) }))
      }) + "\n"
    );
    return bad ? EXIT.problem : EXIT.ok;
  }
  const lines = [`sessions with dsh-message-recall tombstones: ${withTombstones.length}`];
  for (const e of withTombstones) {
    lines.push(`  ${id(e)}  ${counted(e.summary.tombstones, "tombstone")} (${byAction(e.summary.tombstonesByAction)})  ${e.path}`);
  }
  lines.push(`sessions with restores: ${withRestores.length}`);
  for (const e of withRestores) lines.push(`  ${id(e)}  ${counted(e.summary.restores, "restore")} (${forCount(e.summary.restores, "a tombstone", "tombstones")} undone in place)  ${e.path}`);
  lines.push(`sessions with compaction replacements: ${withCompaction.length}`);
  for (const e of withCompaction) lines.push(`  ${id(e)}  ${counted(e.summary.checkpoints, "checkpoint")}, ${counted(e.summary.prunes, "tool-result prune")}  ${e.path}`);
  if (withOther.length) {
    lines.push(`sessions with other replacements: ${withOther.length}`);
    for (const e of withOther) lines.push(`  ${id(e)}  ${counted(e.summary.otherReplacements, "replacement")}  ${e.path}`);
  }
  lines.push(`sessions forked from another: ${forks.length}`);
  for (const e of forks) {
    const fork = forkOrigin(e.header);
    lines.push(`  ${id(e)}  forked from ${fork.parentSession}${fork.seedLength === null ? "" : ` (${counted(fork.seedLength, "event")} copied)`}  ${e.path}`);
  }
  for (const e of entries) {
    if (e.error !== null) lines.push(`UNREADABLE ${e.path}: ${e.error}`);
    else if (e.problems.length > 0) lines.push(`DAMAGED ${e.path}: ${e.problems[0].message}`);
  }
  for (const s of skipped) lines.push(`UNREADABLE ${s.path}: ${s.message}`);
  lines.push(`scanned ${counted(entries.length, "session")}${hours !== void 0 ? ` changed in the last ${hours} h` : ""}, ${bad} unreadable or damaged`);
  await out(lines.join("\n") + "\n");
  return bad ? EXIT.problem : EXIT.ok;
}
function byAction(counts) {
  return TOMBSTONE_ACTIONS.filter((action) => ACTIONS[action].effect === "removed" || counts[action] > 0).map((action) => `${action} ${counts[action]}`).join(", ");
}
var scanCommand = { name: "scan", script: "scan-replace", summary: "find the sessions under a root that hold replacements", usage, run };

export {
  scanCommand
};
