#!/usr/bin/env node
import {
  forkOrigin
} from "./chunk-AASFPALT.js";
import {
  assertRoot
} from "./chunk-G3ZD3XEC.js";
import {
  progress
} from "./chunk-R4VPHYWV.js";
import {
  ACTIONS,
  COMMON_OPTIONS,
  DECODER_OPTION,
  EXIT,
  TOMBSTONE_ACTIONS,
  counted,
  decoderOption,
  forCount,
  hoursOption,
  out,
  parseRootTarget,
  summarizeRoot
} from "./chunk-7ESGHU5V.js";

// scripts/commands/scan.ts
var usage = (invocation) => `Usage: ${invocation} [sessions root] [options]

Scans every session log under a DSH sessions root for surface replacements and lists,
newest first, the sessions holding dsh-message-recall tombstones (by action: ${TOMBSTONE_ACTIONS.join(", ")}),
those where a restore undid a tombstone in place, and,
separately, those holding compaction checkpoints or tool-result prunes, and any other
plugin's replacements; then the sessions forked from another session. Without a root it reads $DSH_HOME/sessions,
or ~/.dsh/sessions when DSH_HOME is unset; the root may also be one project or session folder.
A log that cannot be read, or a file that is not a log, is listed as UNREADABLE.

Options:
  --hours N         only logs changed in the last N hours
  --quiet           no progress line on stderr (shown only on a terminal)
  --json            one JSON document instead of text
  --decoder NAME    auto (default), zlib, zlib-oneshot, zstd-cli, fzstd
  -h, --help        this text

Exit codes: 0 every log read; 1 some logs are unreadable or damaged (listed, counted); 2 bad
usage or an unreadable root.
`;
var OPTIONS = { ...COMMON_OPTIONS, ...DECODER_OPTION, hours: { type: "string" }, quiet: { type: "boolean" } };
async function run(argv, invocation) {
  const { values, root, defaulted } = parseRootTarget(argv, OPTIONS);
  if (root === null) {
    await out(usage(invocation));
    return EXIT.ok;
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
  const unreadable = entries.filter((e) => e.error !== null || e.problems.length > 0);
  const withTombstones = entries.filter((e) => (e.summary?.tombstones ?? 0) > 0);
  const withCompaction = entries.filter((e) => (e.summary?.checkpoints ?? 0) + (e.summary?.prunes ?? 0) > 0);
  const withOther = entries.filter((e) => (e.summary?.otherReplacements ?? 0) > 0);
  const withRestores = entries.filter((e) => (e.summary?.restores ?? 0) > 0);
  const forks = entries.filter((e) => forkOrigin(e.header) !== null);
  const bad = unreadable.length + skipped.length;
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
        unreadable: [...unreadable.map((e) => ({ path: e.path, error: e.error ?? e.problems[0]?.message ?? null })), ...skipped.map((s) => ({ path: s.path, error: s.message }))]
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
  for (const e of unreadable) lines.push(`UNREADABLE ${e.path}: ${e.error ?? e.problems[0].message}`);
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
