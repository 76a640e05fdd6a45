#!/usr/bin/env node
import {
  fileProgress,
  formatBytes
} from "./chunk-QTLKHOKV.js";
import {
  COMMON_OPTIONS,
  ChunkedOutput,
  DECODER_OPTION,
  EXIT,
  decoderOption,
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
  forCount
} from "./chunk-2BN4JUMU.js";

// scripts/commands/read.ts
var usage = (invocation) => `Usage: ${invocation} <log file | session folder> [options]

Prints the log as JSONL: the header line, then every stored line in order, packed chunk
rows as they are stored. Reads session.jsonl.zstd (every frame) and plain session.jsonl.

Options:
  --frames          print the frame index instead: byte offsets, sizes, lines per frame
  --expand          print events instead of stored lines (packed chunk rows expanded)
  --json            one JSON document instead of text
  --decoder NAME    auto (default), zlib, zlib-oneshot, zstd-cli, fzstd
  -h, --help        this text

Exit codes: 0 read to the last byte; 1 torn tail, corrupt frame or bad line (everything
intact before it is printed; the problem goes to stderr); 2 bad usage or unreadable input.
`;
var OPTIONS = { ...COMMON_OPTIONS, ...DECODER_OPTION, frames: { type: "boolean" }, expand: { type: "boolean" } };
function problemLines(read) {
  const lines = read.problems.map((p) => `problem: ${p.message}`);
  if (read.tail) {
    const n = read.tail.recoverableLines;
    const recover = n ? ` (${counted(n, "complete line")} ${forCount(n, "is", "are")} decodable from it)` : "";
    lines.push(`torn tail: ${read.tail.description}${recover}`);
  }
  return lines;
}
function frameRow(report) {
  const { frame } = report;
  const lines = report.lastLine >= report.firstLine ? `${report.firstLine}-${report.lastLine}` : "-";
  const decoded = report.decodedBytes === null ? `FAILED: ${report.error}` : String(report.decodedBytes);
  const check = frame.kind === "skippable" ? "skippable" : frame.checksum === null ? "none" : "0x" + frame.checksum.toString(16).padStart(8, "0");
  return [String(frame.index).padStart(6), String(frame.start).padStart(12), String(frame.end).padStart(12), String(frame.end - frame.start).padStart(9), decoded.padStart(9), lines.padStart(13), check].join("  ");
}
function frameJson(report) {
  const { frame } = report;
  return {
    index: frame.index,
    kind: frame.kind,
    start: frame.start,
    end: frame.end,
    compressedBytes: frame.end - frame.start,
    decodedBytes: report.decodedBytes,
    contentSize: frame.contentSize,
    checksum: frame.checksum,
    blocks: frame.blocks,
    firstLine: report.firstLine,
    lastLine: report.lastLine,
    ...report.error !== void 0 ? { error: report.error } : {}
  };
}
function summaryJson(read) {
  return {
    file: read.file.path,
    format: read.file.format,
    decoder: read.decoder,
    fallbackDecoder: read.fallbackDecoder,
    size: read.file.size,
    bytesConsumed: read.bytesConsumed,
    decodedBytes: read.decodedBytes,
    frames: read.frames,
    lines: read.lines,
    events: read.events,
    lastSeq: read.lastSeq,
    tail: read.tail,
    problems: read.problems
  };
}
async function run(argv, invocation) {
  const { values, target } = parseOneTarget(argv, OPTIONS, "the log file or session folder");
  if (target === null) {
    await out(usage(invocation));
    return EXIT.ok;
  }
  if (values.frames && values.expand) throw new UsageLineError("--frames and --expand do not combine");
  const decoder = decoderOption(values.decoder);
  const file = await resolveSessionLog(target);
  const json = values.json === true;
  const bar = fileProgress("read", process.stdout.isTTY === true ? 0 : file.size);
  if (values.frames) {
    if (file.format !== "zstd") throw new UsageLineError(`${file.path} is a plain JSONL log; it has no frames`);
    const output2 = new ChunkedOutput();
    if (json) output2.addText(`{"frames":[`);
    else output2.addText(`${"frame".padStart(6)}  ${"start".padStart(12)}  ${"end".padStart(12)}  ${"bytes".padStart(9)}  ${"decoded".padStart(9)}  ${"lines".padStart(13)}  checksum
`);
    const read2 = await readSessionLog(file, {
      decoder,
      needsFrames: true,
      parse: false,
      onFrame: (report) => json ? output2.addJsonValue(JSON.stringify(frameJson(report))) : output2.addText(frameRow(report) + "\n"),
      onProgress: bar.onProgress,
      flush: () => output2.drain()
    });
    bar.done();
    if (json) output2.addText(`],"summary":${JSON.stringify(summaryJson(read2))}}
`);
    else output2.addText(`${counted(read2.frames, "frame")}, ${formatBytes(read2.bytesConsumed)} of ${formatBytes(file.size)} consumed, ${counted(read2.lines, "line")}, ${counted(read2.events, "event")}, decoder ${read2.decoder}${read2.fallbackDecoder ? ` (${read2.fallbackDecoder} for frames the zstd tool refused)` : ""}
`);
    await output2.end();
    if (!json) for (const line of problemLines(read2)) process.stderr.write(line + "\n");
    return read2.problems.length > 0 || read2.tail ? EXIT.problem : EXIT.ok;
  }
  const output = new ChunkedOutput();
  if (json) output.addText(`{"records":[`);
  const expanded = {
    onHeader: (_header, text) => json ? output.addJsonValue(text) : output.addText(text + "\n"),
    onRecord: (record) => {
      for (const event of record.events ?? []) {
        const text = JSON.stringify(event);
        if (json) output.addJsonValue(text);
        else output.addText(text + "\n");
      }
    }
  };
  const stored = { onLines: (bytes) => json ? output.addJsonLines(bytes) : output.add(bytes) };
  const read = await readSessionLog(file, {
    decoder,
    parse: values.expand === true,
    expand: values.expand === true,
    ...values.expand ? expanded : stored,
    onProgress: bar.onProgress,
    flush: () => output.drain()
  });
  bar.done();
  if (json) output.addText(`],"summary":${JSON.stringify(summaryJson(read))}}
`);
  await output.end();
  if (!json) for (const line of problemLines(read)) process.stderr.write(line + "\n");
  return read.problems.length > 0 || read.tail ? EXIT.problem : EXIT.ok;
}
var readCommand = { name: "read", script: "read-session-log", summary: "print a session log as JSONL, or its frame index", usage, run };

export {
  readCommand
};
