#!/usr/bin/env node
import {
  errorText
} from "./chunk-DEG42HNT.js";
import {
  erasedMarkOf,
  parseLogText,
  readFates,
  replacementEvents
} from "./chunk-2T6JGFPV.js";
import {
  isRecord
} from "./chunk-MY2ZCKN5.js";
import {
  decodeLogBytes,
  readHeaderLine
} from "./chunk-QGGKDB3Q.js";
import "./chunk-2BN4JUMU.js";

// src/host/erase-copies-on-disk.ts
import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";

// src/host/title-events.ts
function titleBefore(beforeSeq, lookup) {
  for (let seq = beforeSeq - 1; seq >= 0; seq--) {
    const event = lookup(seq);
    if (event?.type !== "session/title" || !isRecord(event.data)) continue;
    const { title, messageSeqs, source } = event.data;
    if (typeof title !== "string" || !Array.isArray(messageSeqs) || !isRecord(source) || typeof source.kind !== "string") return void 0;
    return { title, messageSeqs, source, eventSeq: seq };
  }
  return void 0;
}

// src/host/session-titles.ts
function titleOfLog(events) {
  return titleBefore(events.length, (seq) => events[seq])?.title;
}
var TITLE_TYPE = '"session/title"';
function titleOfRawLog(content) {
  let at = content.lastIndexOf(TITLE_TYPE);
  while (at >= 0) {
    const start = content.lastIndexOf("\n", at) + 1;
    const newline = content.indexOf("\n", at);
    const line = content.slice(start, newline < 0 ? content.length : newline);
    let event;
    try {
      event = JSON.parse(line);
    } catch {
      event = void 0;
    }
    if (isRecord(event) && event.type === "session/title") return titleOfLog([event]);
    at = start === 0 ? -1 : content.lastIndexOf(TITLE_TYPE, start - 1);
  }
  return void 0;
}

// src/host/erase-copies.ts
function copiesHolding(headers, sourceId, messageSeqs) {
  const children = /* @__PURE__ */ new Map();
  for (const header of headers) {
    const parent = header.parentSession;
    if (parent === void 0 || header.seedLength === void 0 || header.seedLength <= 0) continue;
    const list = children.get(parent) ?? [];
    list.push(header);
    children.set(parent, list);
  }
  const found = [];
  const seen = /* @__PURE__ */ new Set([sourceId]);
  let level = [{ id: sourceId, seqs: messageSeqs }];
  while (level.length > 0) {
    const next = [];
    for (const { id, seqs } of level) {
      for (const header of children.get(id) ?? []) {
        if (seen.has(header.id)) continue;
        const held = seqs.filter((seq) => seq < header.seedLength);
        if (held.length === 0) continue;
        seen.add(header.id);
        next.push({ header, seqs: held });
      }
    }
    next.sort((a, b) => a.header.createdAt - b.header.createdAt);
    found.push(...next);
    level = next.map((copy) => ({ id: copy.header.id, seqs: copy.seqs }));
  }
  return found;
}
function copyRemoval(content, seqs) {
  const { events } = parseLogText(content);
  const fates = readFates(replacementEvents(events.length, (seq) => events[seq]));
  const title = titleOfRawLog(content) ?? null;
  let holds = false;
  for (const seq of seqs) {
    const fate = fates.fateOf(seq);
    if (fate.state !== "removed" || fate.rewrite === true || fate.tombstoneSeq === null) {
      holds = true;
      continue;
    }
    const tombstone = events[fate.tombstoneSeq];
    if (tombstone !== void 0 && erasedMarkOf(tombstone) !== null) continue;
    return { tombstoneSeq: fate.tombstoneSeq, title };
  }
  return holds ? { tombstoneSeq: null, title } : null;
}

// src/host/erase-copies-on-disk.ts
async function logFilesUnder(dir) {
  const found = [];
  for (const entry of await readdir(dir, { withFileTypes: true }).catch(() => [])) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) found.push(...await logFilesUnder(path));
    else if (entry.name === "session.jsonl" || entry.name === "session.jsonl.zstd") found.push(path);
  }
  return found;
}
var compressionOf = (path) => path.endsWith(".zstd") ? "zstd" : "none";
async function copiesOnDisk(logs, sourceId, messageSeqs) {
  if (messageSeqs.length === 0) return [];
  const headers = [];
  const pathOf = /* @__PURE__ */ new Map();
  for (const path of logs) {
    let header;
    try {
      header = JSON.parse(await readHeaderLine(path, compressionOf(path)));
    } catch {
      continue;
    }
    if (typeof header?.id !== "string" || pathOf.has(header.id)) continue;
    pathOf.set(header.id, path);
    headers.push(header);
  }
  const copies = [];
  for (const { header, seqs } of copiesHolding(headers, sourceId, messageSeqs)) {
    const log = pathOf.get(header.id);
    let removal;
    try {
      removal = copyRemoval(decodeLogBytes(await readFile(log), compressionOf(log)), seqs);
    } catch (error) {
      copies.push({ sessionId: header.id, title: null, tombstoneSeq: null, log, error: errorText(error) });
      continue;
    }
    if (removal === null) continue;
    copies.push({ sessionId: header.id, title: removal.title, tombstoneSeq: removal.tombstoneSeq, log, error: null });
  }
  return copies;
}
export {
  copiesOnDisk,
  logFilesUnder
};
