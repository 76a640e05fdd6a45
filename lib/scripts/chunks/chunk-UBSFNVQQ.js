#!/usr/bin/env node
import {
  isCheckpointEvent,
  originalsOf,
  readFates,
  replacementEvents
} from "./chunk-AUGGWVGQ.js";
import {
  ACTIONS,
  SURFACE_EVENT_TYPES,
  expandStorageRecord,
  isChunkRowTagged,
  isRecord,
  isTombstoneEvent,
  messageOf,
  readReplaceOp,
  readTombstone,
  toolResultCallId
} from "./chunk-MY2ZCKN5.js";

// src/shared/removed-content.ts
var REMOVED_CONTENT_MARKER = "[removed by dsh-message-recall]";
var REMOVED_ARGUMENTS = JSON.stringify({ removed: REMOVED_CONTENT_MARKER });
function stepKey(data) {
  if (!isRecord(data) || typeof data.turn !== "number" || typeof data.step !== "number") return null;
  return `${data.turn}:${data.step}`;
}
function messageSeqsOf(data) {
  return isRecord(data) && Array.isArray(data.messageSeqs) ? data.messageSeqs.filter(Number.isSafeInteger) : [];
}
function findRemovedContent(count, lookup, tombstoneSeq) {
  const fates = readFates(replacementEvents(count, lookup));
  const tombstones = /* @__PURE__ */ new Map();
  for (const seq of fates.statuses().keys()) tombstones.set(seq, fates.tombstone(seq));
  const removedFate = (seq) => fates.fateOf(seq).state === "removed";
  const removed = /* @__PURE__ */ new Set();
  const pending = [];
  if (tombstoneSeq === void 0) {
    for (const tombstone of tombstones.values()) {
      for (const seq of tombstone.shadowedSeqs) if (!tombstones.has(seq) && removedFate(seq)) pending.push(seq);
    }
  } else {
    const walk = [tombstoneSeq];
    const seen = /* @__PURE__ */ new Set();
    while (walk.length > 0) {
      const seq = walk.pop();
      if (seen.has(seq)) continue;
      seen.add(seq);
      const tombstone = tombstones.get(seq);
      if (tombstone !== void 0) walk.push(...tombstone.shadowedSeqs);
      else if (removedFate(seq)) pending.push(seq);
    }
  }
  for (const rewrite of fates.rewrites) for (const removal of rewrite.removals) for (const seq of removal.seqs) if (removedFate(seq)) pending.push(seq);
  while (pending.length > 0) {
    const seq = pending.pop();
    if (removed.has(seq)) continue;
    const event = lookup(seq);
    if (event === void 0 || !SURFACE_EVENT_TYPES.includes(event.type)) continue;
    removed.add(seq);
    if (readReplaceOp(event.surfaceOp) !== null) {
      for (const cited of event.sourceEventSeqs ?? []) if (!tombstones.has(cited)) pending.push(cited);
    }
  }
  const carriers = /* @__PURE__ */ new Map();
  const messageIds = /* @__PURE__ */ new Set();
  const callIds = /* @__PURE__ */ new Set();
  const steps = /* @__PURE__ */ new Set();
  for (const seq of removed) {
    const event = lookup(seq);
    if (event.type !== "user/message" && event.type !== "assistant/message" && event.type !== "tool/result") continue;
    carriers.set(seq, "message");
    const message = messageOf(event);
    if (event.type === "user/message" && message !== void 0 && typeof message.id === "string") messageIds.add(message.id);
    if (event.type === "assistant/message") {
      const key = stepKey(event.data);
      if (key !== null) steps.add(key);
      for (const cited of event.sourceEventSeqs ?? []) if (lookup(cited)?.type === "assistant/chunk") carriers.set(cited, "chunk");
      for (const block of Array.isArray(message?.content) ? message.content : []) {
        if (isRecord(block) && block.type === "tool-call" && typeof block.id === "string") callIds.add(block.id);
      }
    }
    if (event.type === "tool/result") {
      for (const cited of event.sourceEventSeqs ?? []) if (lookup(cited)?.type === "tool/call") carriers.set(cited, "tool-call");
      const callId = toolResultCallId(event);
      if (callId !== null) callIds.add(callId);
    }
  }
  const foldedRemoved = tombstoneSeq === void 0 && fates.rewrites.length > 0;
  let openStep = null;
  for (let seq = 0; seq < count; seq++) {
    if (carriers.has(seq)) continue;
    const event = lookup(seq);
    if (event === void 0) continue;
    const data = event.data;
    if (foldedRemoved && event.type === "user/message" && fates.shadowerOf(seq) !== null && isCheckpointEvent(event)) {
      const originals = originalsOf(seq, lookup);
      const leftOut = new Set(originals.removals.flatMap((r) => r.seqs));
      if (originals.seqs.some((s) => !leftOut.has(s) && removed.has(s))) {
        carriers.set(seq, "checkpoint");
        const summarySeq = event.sourceEventSeqs?.[1];
        if (summarySeq !== void 0 && lookup(summarySeq)?.type === "compaction/summary") carriers.set(summarySeq, "summary");
      }
      continue;
    }
    switch (event.type) {
      case "step/start":
        openStep = stepKey(data);
        break;
      case "step/end":
        openStep = null;
        break;
      case "agent/inbox/spliced":
        if (isRecord(data) && Array.isArray(data.inserted) && data.inserted.some((m) => isRecord(m) && typeof m.id === "string" && messageIds.has(m.id))) carriers.set(seq, "inbox");
        break;
      case "tool/call":
        if (isRecord(data) && typeof data.callId === "string" && callIds.has(data.callId)) carriers.set(seq, "tool-call");
        break;
      case "tool/code-dispatch-start":
      case "tool/code-dispatch":
        if (isRecord(data) && [data.rootCallId, data.parentCallId].some((id) => typeof id === "string" && callIds.has(id))) carriers.set(seq, "code-dispatch");
        break;
      case "approval/asked":
        if (isRecord(data) && typeof data.callId === "string" && callIds.has(data.callId)) carriers.set(seq, "approval");
        break;
      case "todo/write":
        if (openStep !== null && steps.has(openStep)) carriers.set(seq, "todo");
        break;
      case "session/title":
        if (messageSeqsOf(data).some((s) => removed.has(s))) carriers.set(seq, "title");
        break;
      case "session/title-llm-request":
        if (messageSeqsOf(data).some((s) => removed.has(s))) carriers.set(seq, "title-request");
        break;
    }
  }
  return {
    messageSeqs: [...removed].filter((seq) => carriers.get(seq) === "message").sort((a, b) => a - b),
    carriers: new Map([...carriers].sort((a, b) => a[0] - b[0])),
    messageIds,
    callIds
  };
}
var MARKER_BLOCK = { type: "text", text: REMOVED_CONTENT_MARKER };
function blockWithoutContent(block) {
  if (!isRecord(block)) return { ...MARKER_BLOCK };
  switch (block.type) {
    case "text":
    case "reasoning":
      return { ...block, text: REMOVED_CONTENT_MARKER };
    case "tool-call":
      return { ...block, arguments: REMOVED_ARGUMENTS };
    case "tool-result":
      return { ...block, content: [{ ...MARKER_BLOCK }] };
    default:
      return { ...MARKER_BLOCK };
  }
}
function contentWithout(content) {
  return Array.isArray(content) ? content.map(blockWithoutContent) : [{ ...MARKER_BLOCK }];
}
function messageWithout(message) {
  return isRecord(message) ? { ...message, content: contentWithout(message.content) } : message;
}
function chunkWithout(chunk) {
  if (!isRecord(chunk)) return chunk;
  switch (chunk.type) {
    case "text-delta":
    case "reasoning-delta":
      return { ...chunk, text: "" };
    case "tool-call-delta":
      return { ...chunk, argumentsDelta: "" };
    case "block-end":
      return { ...chunk, block: blockWithoutContent(chunk.block) };
    default:
      return chunk;
  }
}
function withoutMeta(data) {
  if (!("meta" in data)) return data;
  const { meta: _meta, ...rest } = data;
  return rest;
}
function eventWithoutRemovedContent(event, kind, removed) {
  const data = event.data;
  if (!isRecord(data)) return event;
  let next;
  switch (kind) {
    case "message":
      next = event.type === "user/message" ? messageWithout(data) : withoutMeta({ ...data, message: messageWithout(data.message) });
      break;
    case "inbox":
      next = { ...data, inserted: data.inserted.map((m) => isRecord(m) && typeof m.id === "string" && removed.messageIds.has(m.id) ? messageWithout(m) : m) };
      break;
    case "chunk":
      next = { ...data, chunk: chunkWithout(data.chunk) };
      break;
    case "tool-call":
      next = withoutMeta({ ...data, arguments: REMOVED_ARGUMENTS });
      break;
    case "code-dispatch":
      next = { ...data, ..."arguments" in data ? { arguments: REMOVED_ARGUMENTS } : {}, ..."content" in data ? { content: contentWithout(data.content) } : {} };
      break;
    case "approval":
      next = "reason" in data ? { ...data, reason: REMOVED_CONTENT_MARKER } : data;
      break;
    case "todo":
      next = { ...data, todos: Array.isArray(data.todos) ? data.todos.map((todo, i) => isRecord(todo) ? { ...todo, content: `${REMOVED_CONTENT_MARKER} ${i + 1}` } : todo) : data.todos };
      break;
    case "title":
      next = { ...data, title: REMOVED_CONTENT_MARKER };
      break;
    case "title-request":
      next = { ...data, messages: Array.isArray(data.messages) ? data.messages.map(messageWithout) : data.messages };
      break;
    case "checkpoint":
      next = messageWithout(data);
      break;
    case "summary":
      next = { ...data, summary: contentWithout(data.summary), ..."rawOutput" in data ? { rawOutput: contentWithout(data.rawOutput) } : {} };
      break;
  }
  return { ...event, data: next };
}

// src/log/log-without-removed.ts
function collectImages(content, images) {
  if (!Array.isArray(content)) return;
  const pending = [...content];
  while (pending.length > 0) {
    const block = pending.shift();
    if (!isRecord(block)) continue;
    if (block.type === "image" && isRecord(block.attachment) && block.attachment.attachmentId !== void 0) {
      const ref = block.attachment;
      if (!images.has(String(ref.attachmentId))) images.set(String(ref.attachmentId), ref);
    }
    if (Array.isArray(block.content)) pending.push(...block.content);
  }
}
function collectEventImages(event, images) {
  if (!isRecord(event) || !isRecord(event.data)) return;
  const data = event.data;
  collectImages(data.content, images);
  if (isRecord(data.message)) collectImages(data.message.content, images);
  if (Array.isArray(data.inserted)) {
    for (const message of data.inserted) if (isRecord(message)) collectImages(message.content, images);
  }
  if (isRecord(data.chunk) && data.chunk.type === "block-end") collectImages([data.chunk.block], images);
}
function parseLogText(content) {
  const lines = content.split("\n");
  const events = [];
  const parsed = new Array(lines.length);
  let seqProblem = null;
  let previous = -1;
  for (let i = 1; i < lines.length; i++) {
    const line = lines[i];
    if (line === "") continue;
    let value;
    try {
      value = JSON.parse(line);
    } catch {
      continue;
    }
    parsed[i] = value;
    for (const event of expandStorageRecord(value)) {
      if (!isRecord(event) || !Number.isSafeInteger(event.seq)) continue;
      const seq = event.seq;
      if (seqProblem === null && seq !== previous + 1) {
        seqProblem = events[seq] !== void 0 ? `seq ${seq} appears twice` : previous === -1 ? `the first event has seq ${seq}` : `seq ${seq} follows seq ${previous}`;
      }
      previous = seq;
      events[seq] = event;
    }
  }
  return { lines, parsed, events, seqProblem };
}
function rewriteLinesWithoutRemoved(log, tombstoneSeq, inherited) {
  const lines = [...log.lines];
  const { parsed, events } = log;
  const own = findRemovedContent(events.length, (seq) => events[seq], tombstoneSeq);
  const removedAt = (seq) => {
    const kind = own.carriers.get(seq);
    if (kind !== void 0) return { kind, removed: own };
    return inherited !== void 0 && seq < inherited.below ? inherited.at(seq) : void 0;
  };
  const carriers = new Map(own.carriers);
  if (inherited !== void 0) {
    for (let seq = 0; seq < Math.min(inherited.below, events.length); seq++) {
      const at = carriers.has(seq) ? void 0 : inherited.at(seq);
      if (at !== void 0) carriers.set(seq, at.kind);
    }
  }
  const removed = { carriers };
  const images = /* @__PURE__ */ new Map();
  let rewrittenLines = 0;
  for (let i = 1; i < lines.length; i++) {
    const value = parsed[i];
    if (value === void 0) continue;
    if (isChunkRowTagged(value)) {
      const row = value;
      const key = Array.isArray(row.data.texts) ? "texts" : "args";
      const members = row.data[key];
      if (!members.some((_, k) => removed.carriers.has(row.seq0 + k))) continue;
      lines[i] = JSON.stringify({ ...row, data: { ...row.data, [key]: members.map((m, k) => removed.carriers.has(row.seq0 + k) ? "" : m) } });
      rewrittenLines++;
      continue;
    }
    const seq = isRecord(value) ? value.seq : void 0;
    const at = typeof seq === "number" ? removedAt(seq) : void 0;
    if (at === void 0) {
      collectEventImages(value, images);
      continue;
    }
    const rewritten = eventWithoutRemovedContent(value, at.kind, at.removed);
    const next = JSON.stringify(rewritten);
    if (next !== lines[i]) {
      lines[i] = next;
      rewrittenLines++;
    }
    collectEventImages(rewritten, images);
  }
  return { lines, eventCount: events.length, carriers, rewrittenLines, images, removedAt };
}

// src/log/log-erase.ts
function toolOutputPathsIn(text) {
  const found = /* @__PURE__ */ new Set();
  for (const match of text.matchAll(/\/[^\s"'`<>()[\]{}\\]*dsh-(?:spill|subprocess)-[^\s"'`<>()[\]{}\\]*/g)) {
    found.add(match[0].replace(/[.,:;]+$/, ""));
  }
  return [...found];
}
function erasedMarkOf(event) {
  if (!isTombstoneEvent(event) || !isRecord(event.data) || !isRecord(event.data.source)) return null;
  const erased = event.data.source.erased;
  return isRecord(erased) && typeof erased.at === "string" ? { at: erased.at } : null;
}
function eraseRemovalInLog(content, tombstoneSeq, at) {
  const log = parseLogText(content);
  const { parsed, events } = log;
  const tombstoneEvent = events[tombstoneSeq];
  const tombstone = tombstoneEvent === void 0 ? null : readTombstone(tombstoneEvent);
  if (tombstoneEvent === void 0 || tombstone === null) return { ok: false, code: "NOT_A_TOMBSTONE" };
  if (ACTIONS[tombstone.action].effect !== "removed") return { ok: false, code: "EXCLUSION" };
  const fates = readFates(replacementEvents(events.length, (seq) => events[seq]));
  if (fates.statusOf(tombstoneSeq)?.inEffect !== true) return { ok: false, code: "NOT_IN_EFFECT" };
  if (erasedMarkOf(tombstoneEvent) !== null) return { ok: false, code: "ALREADY_ERASED" };
  const rewritten = rewriteLinesWithoutRemoved(log, tombstoneSeq);
  const out = rewritten.lines;
  const line = out.findIndex((_, i) => {
    const value = parsed[i];
    return i > 0 && isRecord(value) && value.seq === tombstoneSeq && value.type === "user/message";
  });
  const marked = tombstoneEvent.data;
  out[line] = JSON.stringify({ ...tombstoneEvent, data: { ...marked, source: { ...marked.source, erased: { at } } } });
  const before = /* @__PURE__ */ new Map();
  const named = /* @__PURE__ */ new Set();
  for (const seq of rewritten.carriers.keys()) {
    collectEventImages(events[seq], before);
    for (const path of toolOutputPathsIn(JSON.stringify(events[seq]))) named.add(path);
  }
  const erasedImages = [...before.keys()].filter((id) => !rewritten.images.has(id));
  const text = out.join("\n");
  const erasedFiles = [...named].filter((path) => !text.includes(path) && !text.includes(JSON.stringify(path).slice(1, -1)));
  const messageSeqs = [...rewritten.carriers].filter(([, kind]) => kind === "message").map(([seq]) => seq);
  return { ok: true, value: { text, eventCount: rewritten.eventCount, events, tombstoneSeq, carriers: rewritten.carriers, messageSeqs, erasedImages, erasedFiles } };
}

// src/shared/error-text.ts
function errorText(error) {
  return error instanceof Error ? error.message : String(error);
}

export {
  collectEventImages,
  parseLogText,
  toolOutputPathsIn,
  erasedMarkOf,
  eraseRemovalInLog,
  errorText
};
