#!/usr/bin/env node
import {
  classifyNode,
  contentOf,
  plainText,
  readReplaceOp,
  readTombstone
} from "./chunk-AS2BRL2E.js";
import {
  DecoderUnavailableError,
  LOG_FILE_NAMES,
  isRecord,
  readSessionLog,
  resolveSessionLog
} from "./chunk-SJX4DWXU.js";

// src/shared/session-roots.ts
import { readdir, stat } from "node:fs/promises";
import { join } from "node:path";

// src/shared/session-summary.ts
var TITLE_CHARS = 60;
var REPLACE_MARK = '"surfaceOp":{';
var SummaryBuilder = class {
  title = null;
  firstPrompt = null;
  turns = 0;
  failed = 0;
  interrupted = 0;
  byAction = { recall: 0, delete: 0, deleteFrom: 0 };
  checkpoints = 0;
  prunes = 0;
  other = 0;
  lastTime = null;
  /**
   * Whether a stored line must be parsed (pass as the reader's `parse` option).
   * @param type - event type or row tag from the line prefix.
   * @param text - the stored line.
   */
  wants(type, text) {
    switch (type) {
      case "session/title":
      case "turn/start":
      case "turn/end":
        return true;
      case "user/message":
        return this.firstPrompt === null || text.includes(REPLACE_MARK);
      case "assistant/message":
      case "tool/result":
        return text.includes(REPLACE_MARK);
      default:
        return false;
    }
  }
  /**
   * Take one record.
   * @param record - from the log reader; records without a parsed `value` are skipped.
   */
  add(record) {
    const event = record.value;
    if (!isRecord(event)) return;
    if (typeof event.time === "number") this.lastTime = event.time;
    const data = isRecord(event.data) ? event.data : {};
    switch (event.type) {
      case "session/title":
        if (typeof data.title === "string" && data.title.trim() !== "") this.title = data.title.trim();
        return;
      case "turn/start":
        this.turns++;
        return;
      case "turn/end": {
        const kind = isRecord(data.reason) ? data.reason.kind : void 0;
        if (kind === "error") this.failed++;
        else if (kind === "interrupted" || kind === "aborted") this.interrupted++;
        return;
      }
      default:
        break;
    }
    if (event.type !== "user/message" && event.type !== "assistant/message" && event.type !== "tool/result") return;
    if (readReplaceOp(event.surfaceOp) === null) {
      if (this.firstPrompt === null && event.type === "user/message" && classifyNode(event) === "user") {
        const text = plainText(contentOf(event)).replace(/\s+/g, " ").trim();
        if (text) this.firstPrompt = text.length > TITLE_CHARS ? text.slice(0, TITLE_CHARS) + "…" : text;
      }
      return;
    }
    const tombstone = readTombstone(event);
    if (tombstone !== null) this.byAction[tombstone.action]++;
    else if (event.type === "tool/result") this.prunes++;
    else if (event.type === "user/message" && classifyNode(event) === "checkpoint") this.checkpoints++;
    else this.other++;
  }
  /** The summary so far. */
  result() {
    const tombstones = this.byAction.recall + this.byAction.delete + this.byAction.deleteFrom;
    return {
      title: this.title,
      firstPrompt: this.firstPrompt,
      turns: this.turns,
      failedTurns: this.failed,
      interruptedTurns: this.interrupted,
      tombstones,
      tombstonesByAction: { ...this.byAction },
      checkpoints: this.checkpoints,
      prunes: this.prunes,
      otherReplacements: this.other,
      lastTime: this.lastTime
    };
  }
};

// src/shared/session-roots.ts
var ROOT_DEPTH = 3;
async function findSessionLogs(root, sinceMs) {
  const logs = [];
  const skipped = [];
  const walk = async (dir, depth) => {
    let entries;
    try {
      entries = await readdir(dir, { withFileTypes: true });
    } catch (error) {
      skipped.push({ path: dir, message: error.message });
      return;
    }
    for (const entry of entries) {
      const path = join(dir, entry.name);
      if (entry.isDirectory() && depth < ROOT_DEPTH - 1) await walk(path, depth + 1);
      else if (entry.isFile() && LOG_FILE_NAMES.includes(entry.name)) {
        try {
          const info = await stat(path);
          if (sinceMs === void 0 || info.mtimeMs >= sinceMs) logs.push({ path, size: info.size, mtimeMs: info.mtimeMs });
        } catch (error) {
          skipped.push({ path, message: error.message });
        }
      }
    }
  };
  await walk(root, 0);
  logs.sort((a, b) => b.mtimeMs - a.mtimeMs || a.path.localeCompare(b.path));
  return { logs, skipped };
}
async function summarizeRoot(root, options = {}) {
  const { logs, skipped } = await findSessionLogs(root, options.sinceMs);
  const entries = [];
  let bytes = 0;
  for (const [i, log] of logs.entries()) {
    entries.push(await summarizeLog(log, options.decoder ?? "auto"));
    bytes += log.size;
    options.onProgress?.(i + 1, logs.length, bytes);
  }
  return { entries, skipped };
}
async function summarizeLog(log, decoder) {
  const builder = new SummaryBuilder();
  let file;
  try {
    file = await resolveSessionLog(log.path);
    const read = await readSessionLog(file, { decoder, parse: (type, text) => builder.wants(type, text), onRecord: (record) => builder.add(record), recoverTail: false });
    return { ...log, header: read.header, events: read.events, summary: builder.result(), tail: read.tail, problems: read.problems, error: null };
  } catch (error) {
    if (error instanceof DecoderUnavailableError) throw error;
    return { ...log, header: null, events: 0, summary: null, tail: null, problems: [], error: error.message };
  }
}

export {
  summarizeRoot
};
