#!/usr/bin/env node
import {
  errorText
} from "./chunk-DEG42HNT.js";
import {
  erasedThrough,
  findRemovedContent,
  parseLogText,
  readFates,
  replacementEvents
} from "./chunk-V5F3LECS.js";
import {
  LOG_FILE_NAMES,
  resolveSessionLog
} from "./chunk-CDZLCCFJ.js";
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
function linkOf(header) {
  if (header?.parentSession === void 0 || header.seedLength === void 0 || header.seedLength <= 0) return null;
  return { parent: header.parentSession, seedLength: header.seedLength };
}
function copiesHolding(headers, sessionId, messageSeqs) {
  const byId = /* @__PURE__ */ new Map();
  const children = /* @__PURE__ */ new Map();
  for (const header of headers) {
    if (byId.has(header.id)) continue;
    byId.set(header.id, header);
    const link = linkOf(header);
    if (link === null) continue;
    const list = children.get(link.parent) ?? [];
    list.push(header);
    children.set(link.parent, list);
  }
  const chain = [sessionId];
  for (let link = linkOf(byId.get(sessionId)); link !== null && !chain.includes(link.parent); link = linkOf(byId.get(link.parent))) chain.push(link.parent);
  const held = /* @__PURE__ */ new Map();
  for (const seq of messageSeqs) {
    let origin = 0;
    while (origin + 1 < chain.length && seq < linkOf(byId.get(chain[origin])).seedLength) origin++;
    const seen = /* @__PURE__ */ new Set();
    const stack = [chain[origin]];
    while (stack.length > 0) {
      const id = stack.pop();
      if (seen.has(id)) continue;
      seen.add(id);
      if (id !== sessionId && byId.has(id)) {
        const seqs = held.get(id);
        if (seqs === void 0) held.set(id, [seq]);
        else seqs.push(seq);
      }
      for (const child of children.get(id) ?? []) if (seq < child.seedLength) stack.push(child.id);
    }
  }
  const found = [...held].map(([id, seqs]) => {
    let steps = 0;
    let at = id;
    while (!chain.includes(at) && steps <= byId.size) {
      at = linkOf(byId.get(at)).parent;
      steps++;
    }
    const up = chain.indexOf(at);
    const relation = up === 0 ? "copy" : steps === 0 ? "source" : "source-copy";
    return { holding: { header: byId.get(id), seqs, relation }, distance: steps + up };
  });
  found.sort((a, b) => a.distance - b.distance || a.holding.header.createdAt - b.holding.header.createdAt || (a.holding.header.id < b.holding.header.id ? -1 : 1));
  return found.map((f) => f.holding);
}
function copyRemoval(content, seqs) {
  const { events } = parseLogText(content);
  const fates = readFates(replacementEvents(events.length, (seq) => events[seq]));
  const title = titleOfRawLog(content) ?? null;
  const tombstones = [];
  let notRemovedCount = 0;
  for (const seq of seqs) {
    const fate = fates.fateOf(seq);
    if (fate.state !== "removed" || fate.rewrite === true || fate.tombstoneSeq === null) {
      notRemovedCount++;
      continue;
    }
    const tombstone = events[fate.tombstoneSeq];
    if (tombstone !== void 0 && erasedThrough(events, fates, fate.tombstoneSeq)) continue;
    if (!tombstones.includes(fate.tombstoneSeq)) tombstones.push(fate.tombstoneSeq);
  }
  if (tombstones.length === 0 && notRemovedCount === 0) return null;
  const removals = tombstones.map((tombstoneSeq) => {
    const { carriers } = findRemovedContent(events.length, (seq) => events[seq], tombstoneSeq);
    return { tombstoneSeq, messageCount: [...carriers.values()].filter((kind) => kind === "message").length };
  });
  return { removals, notRemovedCount, title };
}

// src/host/erase-copies-on-disk.ts
async function logFilesUnder(dir) {
  const found = [];
  for (const entry of await readdir(dir, { withFileTypes: true }).catch(() => [])) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) found.push(...await logFilesUnder(path));
    else if (LOG_FILE_NAMES.includes(entry.name)) found.push(path);
  }
  return found;
}
async function compressionOf(path) {
  return (await resolveSessionLog(path)).format === "zstd" ? "zstd" : "none";
}
async function copiesOnDisk(logs, sessionId, messageSeqs) {
  if (messageSeqs.length === 0) return [];
  const headers = [];
  const pathOf = /* @__PURE__ */ new Map();
  for (const path of logs) {
    let header;
    try {
      header = JSON.parse(await readHeaderLine(path, await compressionOf(path)));
    } catch {
      continue;
    }
    if (typeof header?.id !== "string" || pathOf.has(header.id)) continue;
    pathOf.set(header.id, path);
    headers.push(header);
  }
  const copies = [];
  for (const { header, seqs, relation } of copiesHolding(headers, sessionId, messageSeqs)) {
    const log = pathOf.get(header.id);
    let removal;
    try {
      removal = copyRemoval(decodeLogBytes(await readFile(log), await compressionOf(log)), seqs);
    } catch (error) {
      copies.push({ sessionId: header.id, relation, title: null, tombstoneSeq: null, removals: [], notRemovedCount: 0, log, error: errorText(error) });
      continue;
    }
    if (removal === null) continue;
    copies.push({ sessionId: header.id, relation, title: removal.title, tombstoneSeq: removal.removals[0]?.tombstoneSeq ?? null, removals: removal.removals, notRemovedCount: removal.notRemovedCount, log, error: null });
  }
  return copies;
}
export {
  copiesOnDisk,
  logFilesUnder
};
