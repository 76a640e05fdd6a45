#!/usr/bin/env node
import {
  isRecord
} from "./chunk-SJX4DWXU.js";

// src/shared/replace-op.ts
function readReplaceOp(surfaceOp) {
  if (!isRecord(surfaceOp) || surfaceOp.op !== "replace") return null;
  const { start, end } = surfaceOp;
  if (!Number.isSafeInteger(start) || !Number.isSafeInteger(end)) return null;
  return { start, end };
}

// src/shared/tombstone.ts
var TOMBSTONE_PLUGIN = "dsh-message-recall";
var RECALL_ACTIONS = ["recall", "delete", "deleteFrom"];
function isTombstoneSource(source) {
  return isRecord(source) && source.kind === "plugin" && source.plugin === TOMBSTONE_PLUGIN;
}
function isTombstoneEvent(event) {
  if (event.type !== "user/message" || readReplaceOp(event.surfaceOp) === null) return false;
  return isRecord(event.data) && isTombstoneSource(event.data.source);
}
function readTombstone(event) {
  if (!isTombstoneEvent(event)) return null;
  const range = readReplaceOp(event.surfaceOp);
  const source = event.data.source;
  const action = RECALL_ACTIONS.find((a) => a === source.action) ?? "delete";
  const fromSource = Array.isArray(source.removedSeqs) ? source.removedSeqs.filter(Number.isSafeInteger) : [];
  const shadowedSeqs = event.sourceEventSeqs ? [...event.sourceEventSeqs] : fromSource;
  return { seq: event.seq, start: range.start, end: range.end, shadowedSeqs, action };
}

// src/shared/surface-node.ts
var COMPACTION_CHECKPOINT_PLUGIN = "compact";
function messageOf(event) {
  if (!isRecord(event.data)) return void 0;
  if (event.type === "user/message") return event.data;
  const message = event.data.message;
  return isRecord(message) ? message : void 0;
}
function classifyNode(event) {
  switch (event.type) {
    case "assistant/message":
      return "assistant";
    case "tool/result":
      return "tool";
    case "user/message": {
      const source = isRecord(event.data) ? event.data.source : void 0;
      if (readReplaceOp(event.surfaceOp) !== null) {
        if (isTombstoneSource(source)) return "tombstone";
        if (isRecord(source) && source.kind === "plugin" && source.plugin === COMPACTION_CHECKPOINT_PLUGIN) return "checkpoint";
        return "replacement";
      }
      return isRecord(source) && source.kind === "user" ? "user" : "context";
    }
    default:
      throw new Error(`message-recall: event seq ${event.seq} of type "${event.type}" is not a surface node`);
  }
}
function stepOf(event) {
  if (event.type !== "assistant/message" && event.type !== "tool/result") return null;
  if (!isRecord(event.data)) return null;
  const { turn, step } = event.data;
  return Number.isSafeInteger(turn) && Number.isSafeInteger(step) ? { turn, step } : null;
}
function toolCallIds(event) {
  if (event.type !== "assistant/message") return [];
  const content = messageOf(event)?.content;
  if (!Array.isArray(content)) return [];
  const ids = [];
  for (const block of content) {
    if (isRecord(block) && block.type === "tool-call" && typeof block.id === "string") ids.push(block.id);
  }
  return ids;
}
function toolResultCallId(event) {
  if (event.type !== "tool/result") return null;
  const message = messageOf(event);
  const source = message?.source;
  if (isRecord(source) && typeof source.callId === "string") return source.callId;
  const block = Array.isArray(message?.content) ? message.content[0] : void 0;
  return isRecord(block) && typeof block.toolCallId === "string" ? block.toolCallId : null;
}
function messageIdOf(event) {
  const id = messageOf(event)?.id;
  return typeof id === "string" && id.length > 0 ? id : null;
}
function contentOf(event) {
  const content = messageOf(event)?.content;
  return Array.isArray(content) ? content : [];
}
function plainText(content) {
  return content.filter((block) => isRecord(block) && block.type === "text" && typeof block.text === "string").map((block) => block.text).join("");
}

export {
  readReplaceOp,
  readTombstone,
  classifyNode,
  stepOf,
  toolCallIds,
  toolResultCallId,
  messageIdOf,
  contentOf,
  plainText
};
