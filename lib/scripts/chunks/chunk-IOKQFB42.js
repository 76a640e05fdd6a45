#!/usr/bin/env node
import {
  assertRoot
} from "./chunk-LJ2DMLF2.js";
import {
  formatBytes,
  progress
} from "./chunk-QTLKHOKV.js";
import {
  COMMON_OPTIONS,
  DECODER_OPTION,
  EXIT,
  decoderOption,
  hoursOption,
  limitOption,
  out,
  parseRootTarget,
  summarizeRoot,
  tailAt
} from "./chunk-L2YMFD7L.js";
import {
  counted
} from "./chunk-2BN4JUMU.js";

// scripts/commands/list.ts
var usage = (invocation) => `Usage: ${invocation} [sessions root] [options]

Lists the session logs under a DSH sessions root, newest first: last change, events, turns,
failed turns, dsh-message-recall tombstones, size, id and title (the session's title, or its
first prompt). Without a root it reads $DSH_HOME/sessions, or ~/.dsh/sessions when DSH_HOME
is unset; the root may also be one project or session folder. A log that cannot be read, or a
file that is not a log, is listed as UNREADABLE with the reason; a log read with damage (a
corrupt frame, a bad line, a seq gap) is marked DAMAGED with its first problem; the scan goes on.

Options:
  --hours N         only logs changed in the last N hours
  --limit N         at most N sessions (newest first)
  --quiet           no progress line on stderr (shown only on a terminal)
  --json            one JSON document instead of text
  --decoder NAME    auto (default), zlib, zlib-oneshot, zstd-cli, fzstd
  -h, --help        this text

Exit codes: 0 every log read; 1 some logs are unreadable or damaged (listed, counted); 2 bad
usage or an unreadable root. A log whose last frame is still being written is marked
"writing from frame N at byte B" (the frame named as verify names it) and is not an error.
`;
var OPTIONS = { ...COMMON_OPTIONS, ...DECODER_OPTION, hours: { type: "string" }, limit: { type: "string" }, quiet: { type: "boolean" } };
function isBad(entry) {
  return entry.error !== null || entry.problems.length > 0;
}
function stamp(ms) {
  return new Date(ms).toISOString().slice(0, 16).replace("T", " ");
}
async function run(argv, invocation) {
  const { values, root, defaulted } = parseRootTarget(argv, OPTIONS);
  if (root === null) {
    await out(usage(invocation));
    return EXIT.ok;
  }
  const hours = hoursOption(values.hours);
  const limit = limitOption(values.limit);
  const decoder = decoderOption(values.decoder);
  await assertRoot(root, defaulted);
  const bar = progress("list", "logs", values.quiet !== true);
  const { entries: all, skipped } = await summarizeRoot(root, {
    decoder,
    ...hours !== void 0 ? { sinceMs: Date.now() - hours * 36e5 } : {},
    onProgress: (done, total, bytes) => bar.update(done, total, bytes)
  });
  bar.done();
  const entries = limit !== void 0 ? all.slice(0, limit) : all;
  const bad = all.filter(isBad).length + skipped.length;
  if (values.json) {
    await out(
      JSON.stringify({
        root,
        sessions: entries.map((e) => ({
          path: e.path,
          id: e.header?.id ?? null,
          cwd: e.header?.cwd ?? null,
          title: e.summary?.title ?? e.summary?.firstPrompt ?? null,
          updated: new Date(e.mtimeMs).toISOString(),
          size: e.size,
          events: e.events,
          turns: e.summary?.turns ?? 0,
          failedTurns: e.summary?.failedTurns ?? 0,
          tombstones: e.summary?.tombstones ?? 0,
          writing: e.tail !== null,
          tail: e.tail === null ? null : { start: e.tail.start, bytes: e.tail.bytes, at: tailAt(e.tail), description: e.tail.description },
          error: e.error,
          problems: e.problems.map((p) => p.message)
        })),
        total: all.length,
        unreadable: bad,
        skipped
      }) + "\n"
    );
    return bad ? EXIT.problem : EXIT.ok;
  }
  const lines = [`${"updated".padEnd(16)}  ${"events".padStart(7)}  ${"turns".padStart(5)}  ${"failed".padStart(6)}  ${"tombst.".padStart(7)}  ${"size".padStart(9)}  id  title`];
  for (const e of entries) {
    if (e.error !== null) {
      lines.push(`${stamp(e.mtimeMs)}  UNREADABLE ${e.path}: ${e.error}`);
      continue;
    }
    const s = e.summary;
    const title = s.title ?? (s.firstPrompt !== null ? `(first prompt) ${s.firstPrompt}` : "(untitled)");
    const flags = [e.tail ? `writing from ${tailAt(e.tail)}` : "", e.problems.length ? `DAMAGED: ${e.problems[0].message}` : ""].filter(Boolean).join("; ");
    lines.push(
      `${stamp(e.mtimeMs)}  ${String(e.events).padStart(7)}  ${String(s.turns).padStart(5)}  ${String(s.failedTurns).padStart(6)}  ${String(s.tombstones).padStart(7)}  ${formatBytes(e.size).padStart(9)}  ${e.header?.id ?? "?"}  ${title}${flags ? `  [${flags}]` : ""}`
    );
  }
  for (const s of skipped) lines.push(`UNREADABLE ${s.path}: ${s.message}`);
  lines.push(`${counted(all.length, "session")}${hours !== void 0 ? ` changed in the last ${hours} h` : ""}${limit !== void 0 && all.length > entries.length ? `, ${entries.length} shown` : ""}, ${bad} unreadable or damaged`);
  await out(lines.join("\n") + "\n");
  return bad ? EXIT.problem : EXIT.ok;
}
var listCommand = { name: "list", script: "list-sessions", summary: "list the sessions under a sessions root, newest first", usage, run };

export {
  listCommand
};
