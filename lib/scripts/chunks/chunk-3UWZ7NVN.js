#!/usr/bin/env node
import {
  fileProgress,
  formatBytes
} from "./chunk-QTLKHOKV.js";
import {
  COMMON_OPTIONS,
  DECODER_NAMES,
  DECODER_OPTION,
  EXIT,
  decoderOption,
  findZstdCli,
  hasZlibZstd,
  out,
  parseOneTarget,
  readSessionLog
} from "./chunk-L2YMFD7L.js";
import {
  resolveSessionLog
} from "./chunk-CDZLCCFJ.js";
import {
  UsageLineError
} from "./chunk-KEICUTLP.js";
import {
  counted,
  forCount,
  frameAt
} from "./chunk-2BN4JUMU.js";

// scripts/commands/verify.ts
import { createHash } from "node:crypto";
var usage = (invocation) => `Usage: ${invocation} <log file | session folder> [options]

Walks every zstd frame header, block header and content checksum of a session.jsonl.zstd
(or every line of a plain session.jsonl), decodes each frame, and checks that complete
frames cover the file to its last byte, that frame 0 is exactly the header line, and that
the records parse with contiguous seqs. A torn tail (a log DSH is still writing) is
reported with its byte offsets and the events intact before it.

Options:
  --cross-check     decode with every decoder available here and compare the output
  --json            one JSON document instead of text
  --decoder NAME    auto (default), zlib, zlib-oneshot, fzstd
  -h, --help        this text

Exit codes: 0 the whole file is sound; 1 torn tail, corrupt frame, checksum mismatch, bad
line or decoders that disagree; 2 bad usage or unreadable input.
`;
var OPTIONS = { ...COMMON_OPTIONS, ...DECODER_OPTION, "cross-check": { type: "boolean" } };
function availableDecoders() {
  return DECODER_NAMES.filter((name) => {
    if (name === "zlib" || name === "zlib-oneshot") return hasZlibZstd();
    if (name === "zstd-cli") return findZstdCli() !== null;
    return true;
  });
}
function failedFrames(problems) {
  return problems.flatMap((p) => p.kind === "frame-failed" ? [{ at: p.at.frame === null ? `at byte ${p.at.byte}` : frameAt(p.at.frame, p.at.byte), message: p.message }] : []);
}
async function digest(path, decoder) {
  const hash = createHash("sha256");
  try {
    const file = await resolveSessionLog(path);
    const bar = fileProgress(`verify --cross-check ${decoder}`, file.size);
    const read = await readSessionLog(file, {
      decoder,
      parse: false,
      recoverTail: false,
      onLines: (bytes) => hash.update(bytes),
      onProgress: bar.onProgress
    });
    bar.done();
    const failed = failedFrames(read.problems);
    return { decoder, sha256: hash.digest("hex"), lines: read.lines, failedFrames: failed.map((f) => f.at), ...failed.length > 0 ? { error: failed[0].message } : {} };
  } catch (error) {
    return { decoder, sha256: null, lines: 0, failedFrames: [], error: error.message };
  }
}
function decodersAgree(reads) {
  const key = (read) => read.sha256 === null ? `stopped:${read.decoder}` : `${read.sha256} ${read.failedFrames.join(", ")}`;
  return new Set(reads.map(key)).size <= 1;
}
function corruptAlike(read) {
  const n = read.failedFrames.length;
  return n === 0 ? "" : `: each fails on the same ${forCount(n, "corrupt frame")} (${read.failedFrames.join(", ")}) and reads the same lines from the others`;
}
function crossCheckLine(read) {
  if (read.sha256 === null) return `cross-check ${read.decoder}: failed: ${read.error}`;
  const digest2 = `sha256 ${read.sha256.slice(0, 16)}…, ${counted(read.lines, "line")}`;
  if (read.failedFrames.length === 0) return `cross-check ${read.decoder}: ${digest2}`;
  const more = read.failedFrames.length > 1 ? ` (and ${counted(read.failedFrames.length - 1, "more frame")})` : "";
  return `cross-check ${read.decoder}: ${digest2} from the frames it decoded; ${read.error}${more}`;
}
async function run(argv, invocation) {
  const { values, target } = parseOneTarget(argv, OPTIONS, "the log file or session folder");
  if (target === null) {
    await out(usage(invocation));
    return EXIT.ok;
  }
  const decoder = decoderOption(values.decoder);
  if (decoder === "zstd-cli") throw new UsageLineError("verify-decoder checks frames one by one; zstd-cli decodes a run of frames at a time (use it with --cross-check)");
  const file = await resolveSessionLog(target);
  const headerFrameProblems = [];
  const bar = fileProgress("verify", file.size);
  const read = await readSessionLog(file, {
    decoder,
    needsFrames: true,
    parse: true,
    magicScan: true,
    onProgress: bar.onProgress,
    onFrame: (report) => {
      if (report.frame.index !== 0 || report.decodedBytes === null) return;
      if (report.firstLine !== 1 || report.lastLine !== 1) {
        headerFrameProblems.push({
          kind: "frame-not-line-aligned",
          at: { line: 1, frame: 0, byte: 0 },
          message: `frame 0 holds lines ${report.firstLine}-${report.lastLine}; DSH writes the header line alone in the first frame`
        });
      }
    }
  });
  bar.done();
  const problems = [...headerFrameProblems, ...read.problems];
  let cross = null;
  let agree = true;
  if (values["cross-check"]) {
    cross = [];
    for (const name of file.format === "zstd" ? availableDecoders() : []) cross.push(await digest(file.path, name));
    agree = decodersAgree(cross);
  }
  const consumedToEnd = read.bytesConsumed === file.size;
  const ok = problems.length === 0 && read.tail === null && consumedToEnd && agree;
  if (values.json) {
    await out(
      JSON.stringify({
        file: file.path,
        format: file.format,
        size: file.size,
        decoder: read.decoder,
        frames: read.frames,
        checkedFrames: read.checkedFrames,
        bytesConsumed: read.bytesConsumed,
        consumedToEnd,
        lines: read.lines,
        events: read.events,
        lastSeq: read.lastSeq,
        tail: read.tail,
        magicFalsePositives: read.magicFalsePositives,
        problems,
        ...cross ? { crossCheck: { agree, decoders: cross } } : {},
        ok
      }) + "\n"
    );
    return ok ? EXIT.ok : EXIT.problem;
  }
  const lines = [`file: ${file.path}`];
  if (file.format === "zstd") {
    lines.push(`format: concatenated Zstandard frames, ${counted(file.size, "byte")} (${formatBytes(file.size)}), decoder ${read.decoder}`);
    lines.push(`frames: ${read.frames} complete, ${read.checkedFrames} with ${forCount(read.checkedFrames, "its", "their")} XXH64 content checksum verified`);
  } else {
    lines.push(`format: plain JSONL, ${counted(file.size, "byte")} (${formatBytes(file.size)})`);
  }
  lines.push(`consumed: ${read.bytesConsumed} of ${counted(file.size, "byte")}${consumedToEnd ? " (to the last byte)" : ""}`);
  const seqs = read.lastSeq >= 0 ? `seq ${read.firstSeq}-${read.lastSeq}` : "no events";
  lines.push(`records: ${counted(read.lines, "line")} (header included), ${counted(read.events, "event")}, ${seqs}`);
  if (file.format === "zstd") {
    const fp = read.magicFalsePositives;
    lines.push(
      fp.length === 0 ? "magic number inside frames: none" : `magic number inside frames: ${fp.length} (at ${forCount(fp.length, "byte")} ${fp.slice(0, 5).join(", ")}${fp.length > 5 ? ", …" : ""}); a splitter that searches for 28 b5 2f fd would cut a frame there`
    );
  }
  if (read.tail) {
    lines.push(`torn tail: ${read.tail.description}`);
    const frames = file.format === "zstd" ? `${counted(read.frames, "frame")}, ` : "";
    lines.push(`intact before it: ${frames}${counted(read.lines, "line")}, ${counted(read.events, "event")} (${seqs}), up to byte ${read.bytesConsumed}`);
    if (file.format === "zstd" && read.tail.recoverableLines !== null) lines.push(`complete lines decodable from the torn frame: ${read.tail.recoverableLines} (DSH keeps these when it repairs the log on its next load)`);
  }
  for (const problem of problems) lines.push(`problem: ${problem.message}`);
  if (cross) {
    for (const c of cross) lines.push(crossCheckLine(c));
    lines.push(cross.length === 0 ? "cross-check: nothing to compare (plain JSONL)" : cross.length === 1 ? "cross-check: 1 decoder here, nothing to compare it with" : agree ? `cross-check: ${cross.length} decoders agree${corruptAlike(cross[0])}` : "cross-check: decoders DISAGREE");
  }
  lines.push(ok ? "result: ok" : read.tail && problems.length === 0 && agree ? "result: torn tail (normal while DSH is still writing this session)" : "result: problem found");
  await out(lines.join("\n") + "\n");
  return ok ? EXIT.ok : EXIT.problem;
}
var verifyCommand = { name: "verify", script: "verify-decoder", summary: "prove a session log decodes to its last byte, or say where it does not", usage, run };

export {
  verifyCommand
};
