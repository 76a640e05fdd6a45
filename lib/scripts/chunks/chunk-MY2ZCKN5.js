#!/usr/bin/env node
import {
  counted
} from "./chunk-2BN4JUMU.js";

// src/shared/events.ts
var SURFACE_EVENT_TYPES = ["user/message", "assistant/message", "tool/result"];
function isSeq(value) {
  return Number.isSafeInteger(value) && value >= 0;
}
function isRecord(value) {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

// src/log/chunk-rows.ts
var CHUNK_ROW_TYPES = ["text-chunks", "reasoning-chunks", "tool-call-chunks"];
function isChunkRowTagged(value) {
  return isRecord(value) && CHUNK_ROW_TYPES.includes(value.type);
}
function hasExactKeys(value, keys) {
  return Object.keys(value).length === keys.length && keys.every((key) => Object.hasOwn(value, key));
}
function malformed(tag, why) {
  throw new Error(`malformed ${tag} storage row: ${why}`);
}
function runMembers(tag, data, payloadKey) {
  if (typeof data.turn !== "number" || typeof data.step !== "number" || typeof data.index !== "number") {
    malformed(tag, "turn/step/index must be numbers");
  }
  const payload = data[payloadKey];
  if (!Array.isArray(payload) || payload.length === 0 || payload.some((entry) => typeof entry !== "string")) {
    malformed(tag, `${payloadKey} must be a non-empty string array`);
  }
  const dt = data.dt;
  if (!Array.isArray(dt) || dt.some((gap) => !Number.isSafeInteger(gap))) malformed(tag, "dt must be an array of safe integers");
  if (dt.length !== payload.length - 1) malformed(tag, `dt length ${dt.length} does not match ${counted(payload.length, "member")}`);
  return payload;
}
function expandStorageRecord(value) {
  if (!isChunkRowTagged(value)) return [value];
  const tag = value.type;
  const row = value;
  if (!hasExactKeys(row, ["type", "seq0", "time0", "data"])) malformed(tag, "envelope must be exactly {type, seq0, time0, data}");
  const seq0 = row.seq0;
  const time0 = row.time0;
  if (!Number.isSafeInteger(seq0) || seq0 < 0) malformed(tag, "seq0 must be a non-negative safe integer");
  if (!Number.isSafeInteger(time0)) malformed(tag, "time0 must be a safe integer");
  const data = row.data;
  if (!isRecord(data)) malformed(tag, "data must be an object");
  let members;
  const withName = tag === "tool-call-chunks" && hasExactKeys(data, ["turn", "step", "index", "id", "name", "dt", "args"]);
  if (tag === "tool-call-chunks") {
    if (!withName && !hasExactKeys(data, ["turn", "step", "index", "id", "dt", "args"])) {
      malformed(tag, "data must be exactly {turn, step, index, id, name?, dt, args}");
    }
    if (typeof data.id !== "string" || withName && typeof data.name !== "string") malformed(tag, "id (and name when present) must be strings");
    members = runMembers(tag, data, "args");
  } else {
    if (!hasExactKeys(data, ["turn", "step", "index", "dt", "texts"])) malformed(tag, "data must be exactly {turn, step, index, dt, texts}");
    members = runMembers(tag, data, "texts");
  }
  if (!Number.isSafeInteger(seq0 + members.length - 1)) malformed(tag, "member seqs must stay safe integers");
  const gaps = data.dt;
  let check = time0;
  for (const gap of gaps) {
    check += gap;
    if (!Number.isSafeInteger(check)) malformed(tag, "member times must stay safe integers");
  }
  const events = [];
  let time = time0;
  for (let k = 0; k < members.length; k++) {
    if (k > 0) time += gaps[k - 1];
    const chunk = tag === "tool-call-chunks" ? { type: "tool-call-delta", index: data.index, id: data.id, ...withName ? { name: data.name } : {}, argumentsDelta: members[k] } : { type: tag === "text-chunks" ? "text-delta" : "reasoning-delta", index: data.index, text: members[k] };
    events.push({ type: "assistant/chunk", seq: seq0 + k, time, data: { turn: data.turn, step: data.step, chunk } });
  }
  return events;
}
function recordSeqRange(value) {
  if (!isRecord(value)) return null;
  if (isChunkRowTagged(value)) {
    const data = value.data;
    const members = isRecord(data) ? Array.isArray(data.texts) ? data.texts : Array.isArray(data.args) ? data.args : null : null;
    const seq0 = value.seq0;
    if (!Number.isSafeInteger(seq0) || members === null || members.length === 0) return null;
    return [seq0, seq0 + members.length - 1];
  }
  return Number.isSafeInteger(value.seq) ? [value.seq, value.seq] : null;
}

// src/shared/actions.ts
var ACTIONS = {
  recall: {
    plans: "message",
    targets: "prompt",
    effect: "removed",
    confirm: false,
    offeredOn: ["prompt"],
    inBatch: false,
    returnsContent: true,
    undoInPlace: true,
    texts: { button: "action.recall", label: "label.recall", undo: "undo.recall", unsaved: "unsaved.recall", panel: "panel.action.recall" }
  },
  delete: {
    plans: "step",
    targets: "message",
    effect: "removed",
    confirm: true,
    offeredOn: ["prompt", "message"],
    inBatch: true,
    returnsContent: false,
    undoInPlace: true,
    texts: {
      button: "action.delete",
      label: "label.delete.message",
      stepLabel: "label.delete.step",
      armed: "armed.delete",
      armedLabel: "armed.label",
      undo: "undo.delete",
      unsaved: "unsaved.delete",
      panel: "panel.action.delete"
    }
  },
  deleteFrom: {
    plans: "onward",
    targets: "message",
    effect: "removed",
    confirm: true,
    offeredOn: ["prompt", "message"],
    inBatch: true,
    returnsContent: false,
    undoInPlace: true,
    texts: {
      button: "action.deleteFrom",
      label: "label.deleteFrom",
      armed: "armed.deleteFrom",
      armedLabel: "armed.label",
      undo: "undo.deleteFrom",
      unsaved: "unsaved.deleteFrom",
      panel: "panel.action.deleteFrom"
    }
  },
  exclude: {
    plans: "step",
    targets: "message",
    effect: "excluded",
    confirm: true,
    offeredOn: ["prompt", "message"],
    inBatch: true,
    returnsContent: false,
    undoInPlace: true,
    texts: {
      button: "action.exclude",
      label: "label.exclude",
      armed: "armed.exclude",
      armedLabel: "armed.excludeLabel",
      undo: "undo.exclude",
      unsaved: "unsaved.exclude",
      panel: "panel.action.exclude"
    }
  },
  restore: {
    plans: "restore",
    targets: "tombstone",
    effect: "restored",
    confirm: false,
    offeredOn: ["excluded"],
    inBatch: true,
    returnsContent: false,
    undoInPlace: false,
    texts: { button: "action.restore", label: "label.restore", unsaved: "unsaved.restore" }
  }
};
var SURFACE_ACTIONS = Object.freeze(Object.keys(ACTIONS));
function isTombstoneAction(action) {
  return typeof action === "string" && Object.hasOwn(ACTIONS, action) && ACTIONS[action].plans !== "restore";
}
var TOMBSTONE_ACTIONS = Object.freeze(SURFACE_ACTIONS.filter(isTombstoneAction));
var REMOVAL_ACTIONS = Object.freeze(TOMBSTONE_ACTIONS.filter((a) => ACTIONS[a].effect === "removed"));
var BATCH_ACTIONS = Object.freeze(SURFACE_ACTIONS.filter((a) => ACTIONS[a].inBatch));
var BATCH_REMOVAL_ACTIONS = Object.freeze(BATCH_ACTIONS.filter((a) => isTombstoneAction(a)));

// src/shared/replace-op.ts
function readReplaceOp(surfaceOp) {
  if (!isRecord(surfaceOp) || surfaceOp.op !== "replace") return null;
  const { start, end } = surfaceOp;
  if (!Number.isSafeInteger(start) || !Number.isSafeInteger(end)) return null;
  return { start, end };
}

// src/shared/tombstone.ts
var TOMBSTONE_PLUGIN = "dsh-message-recall";
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
  const action = isTombstoneAction(source.action) ? source.action : "delete";
  const fromSource = Array.isArray(source.removedSeqs) ? source.removedSeqs.filter(Number.isSafeInteger) : [];
  const shadowedSeqs = event.sourceEventSeqs ? [...event.sourceEventSeqs] : fromSource;
  return { seq: event.seq, start: range.start, end: range.end, shadowedSeqs, action };
}

// src/shared/message-text.ts
function plainText(content) {
  return content.filter((block) => isRecord(block) && block.type === "text" && typeof block.text === "string").map((block) => block.text).join("");
}

// src/shared/surface-node.ts
var SESSION_REFERENCE_SOURCE_KIND = "session-reference";
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
        if (isRecord(source) && source.kind === "user" && isRestoreShape(event)) return "user";
        return "replacement";
      }
      if (!isRecord(source)) return "context";
      return source.kind === "user" ? "user" : source.kind === SESSION_REFERENCE_SOURCE_KIND ? "reference" : "context";
    }
    default:
      throw new Error(`message-recall: event seq ${event.seq} of type "${event.type}" is not a surface node`);
  }
}
function isRestoreShape(event) {
  const range = readReplaceOp(event.surfaceOp);
  const cited = event.sourceEventSeqs;
  return range !== null && range.start === range.end && cited !== void 0 && cited.length === 2 && cited[0] === range.start && cited[1] !== range.start;
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

// src/shared/restore.ts
function readRestore(event, lookup) {
  if (event.type !== "user/message") return null;
  const range = readReplaceOp(event.surfaceOp);
  if (range === null || range.start !== range.end) return null;
  const cited = event.sourceEventSeqs;
  if (cited === void 0 || cited.length !== 2 || cited[0] !== range.start) return null;
  const tombstone = lookup(range.start);
  if (tombstone === void 0 || tombstone.seq !== range.start || !isTombstoneEvent(tombstone)) return null;
  const originalSeq = cited[1];
  if (!(tombstone.sourceEventSeqs ?? []).includes(originalSeq)) return null;
  return { seq: event.seq, tombstoneSeq: range.start, originalSeq };
}

export {
  SURFACE_EVENT_TYPES,
  isSeq,
  isRecord,
  CHUNK_ROW_TYPES,
  isChunkRowTagged,
  expandStorageRecord,
  recordSeqRange,
  readReplaceOp,
  ACTIONS,
  isTombstoneAction,
  TOMBSTONE_ACTIONS,
  isTombstoneEvent,
  readTombstone,
  plainText,
  messageOf,
  classifyNode,
  stepOf,
  toolCallIds,
  toolResultCallId,
  messageIdOf,
  contentOf,
  readRestore
};
