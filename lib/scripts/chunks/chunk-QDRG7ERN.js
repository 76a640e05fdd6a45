#!/usr/bin/env node
import {
  ToolPairingIndex
} from "./chunk-OKUGGFY4.js";
import {
  sameJson
} from "./chunk-PQVV6EUF.js";
import {
  erasedMarkOf,
  readFates
} from "./chunk-V5F3LECS.js";
import {
  classifyNode,
  contentOf,
  isRecord,
  plainText,
  readReplaceOp,
  readRestore,
  readTombstone,
  stepOf
} from "./chunk-MY2ZCKN5.js";

// node_modules/@deepseek-ai/dsh-session/lib/types/surface.js
var SURFACE_EVENT_TYPES = /* @__PURE__ */ new Set([
  "user/message",
  "assistant/message",
  "tool/result"
]);
function isSurfaceEligibleType(type) {
  return SURFACE_EVENT_TYPES.has(type);
}
function createFoldState() {
  return { nodes: [], replaceGeneration: 0 };
}
function isEventSeq(value) {
  return typeof value === "number" && Number.isSafeInteger(value) && value >= 0;
}
function isReplaceOp(value) {
  const op = value;
  return Object.keys(op).length === 3 && Object.hasOwn(op, "op") && Object.hasOwn(op, "start") && Object.hasOwn(op, "end") && op["op"] === "replace" && isEventSeq(op["start"]) && isEventSeq(op["end"]);
}
function surfaceOpOf(event) {
  const raw = event;
  if (!isSurfaceEligibleType(event.type)) {
    if (raw.surfaceOp !== void 0) {
      throw new Error(`session event "${event.type}" is not surface-eligible and cannot carry surfaceOp`);
    }
    if (raw.sourceEventSeqs !== void 0) {
      throw new Error(`session event "${event.type}" is not surface-eligible and cannot carry sourceEventSeqs`);
    }
    return;
  }
  const op = raw.surfaceOp;
  if (op === void 0) {
    throw new Error(`session event "${event.type}" is surface-eligible and requires a surfaceOp marker`);
  }
  if (op === "append")
    return op;
  if (op === null || typeof op !== "object" || Array.isArray(op)) {
    throw new Error(`session event "${event.type}" carries an invalid surfaceOp`);
  }
  if (!isReplaceOp(op)) {
    throw new Error(`session event "${event.type}" carries an invalid replace surfaceOp`);
  }
  return op;
}
function assertProvenance(event, shadowedSeqs) {
  const raw = event.sourceEventSeqs;
  const sources = /* @__PURE__ */ new Set();
  if (raw !== void 0) {
    if (!Array.isArray(raw)) {
      throw new Error(`sourceEventSeqs on event at seq ${event.seq} must be an array when present`);
    }
    if (raw.length === 0 && event.type !== "assistant/message") {
      throw new Error("sourceEventSeqs must not be empty except on assistant/message");
    }
    let nonEarlierSource;
    for (const source of raw) {
      if (!isEventSeq(source)) {
        throw new Error(`session event "${event.type}" sourceEventSeqs must densely contain non-negative safe integers`);
      }
      sources.add(source);
      if (nonEarlierSource === void 0 && source >= event.seq)
        nonEarlierSource = source;
    }
    if (sources.size !== raw.length) {
      throw new Error("sourceEventSeqs must not contain duplicates");
    }
    if (nonEarlierSource !== void 0) {
      throw new Error(`sourceEventSeqs must reference earlier events: ${nonEarlierSource} >= current seq ${event.seq}`);
    }
  }
  const missing = shadowedSeqs.filter((seq) => !sources.has(seq));
  if (missing.length > 0) {
    throw new Error(`surface replace: sourceEventSeqs must include every shadowed surface node; missing ${missing.join(", ")}`);
  }
}
function replacementRange(state, op) {
  const startIdx = state.nodes.indexOf(op.start);
  if (startIdx === -1) {
    throw new Error(`surface replace: start seq ${op.start} not found in surface`);
  }
  const endIdx = state.nodes.indexOf(op.end);
  if (endIdx === -1) {
    throw new Error(`surface replace: end seq ${op.end} not found in surface`);
  }
  if (startIdx > endIdx) {
    throw new Error(`surface replace: start seq ${op.start} (index ${startIdx}) is after end seq ${op.end} (index ${endIdx})`);
  }
  return {
    startIdx,
    endIdx,
    shadowedSeqs: state.nodes.slice(startIdx, endIdx + 1)
  };
}
function isDeepEqualJson(a, b) {
  if (a === b)
    return true;
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length)
      return false;
    return a.every((item, i) => isDeepEqualJson(item, b[i]));
  }
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null)
    return false;
  const aKeys = Object.keys(a);
  const bRecord = b;
  if (aKeys.length !== Object.keys(b).length)
    return false;
  return aKeys.every((key) => Object.hasOwn(b, key) && isDeepEqualJson(a[key], bRecord[key]));
}
function assertToolResultRewrite(event, shadowedSeqs, events, baseSeq) {
  if (event.type !== "tool/result")
    return;
  if (shadowedSeqs.length !== 1) {
    throw new Error("tool/result surface replacement must rewrite exactly one current node");
  }
  for (const originalSeq of shadowedSeqs) {
    const original = events[originalSeq - baseSeq];
    if (original?.type !== "tool/result") {
      throw new Error("tool/result surface replacement must target a current tool/result");
    }
    const originalRest = { ...original.data };
    const replacementRest = { ...event.data };
    const originalResult = original.data.message.content[0];
    const replacementResult = event.data.message.content[0];
    originalRest["message"] = {
      ...original.data.message,
      content: [{ ...originalResult, content: null }]
    };
    replacementRest["message"] = {
      ...event.data.message,
      content: [{ ...replacementResult, content: null }]
    };
    if (!isDeepEqualJson(originalRest, replacementRest)) {
      throw new Error("tool/result surface replacement may change only content");
    }
  }
}
function planSurfaceEvent(state, event, expectedSeq, events, baseSeq) {
  if (event.seq !== expectedSeq) {
    throw new Error(`session event seq ${event.seq} is not contiguous; expected ${expectedSeq}`);
  }
  const surfaceOp = surfaceOpOf(event);
  if (surfaceOp === void 0)
    return;
  if (surfaceOp === "append") {
    assertProvenance(event, []);
    return { kind: "append", seq: event.seq };
  }
  const range = replacementRange(state, surfaceOp);
  assertProvenance(event, range.shadowedSeqs);
  assertToolResultRewrite(event, range.shadowedSeqs, events, baseSeq);
  return {
    kind: "replace",
    seq: event.seq,
    start: surfaceOp.start,
    end: surfaceOp.end,
    ...range
  };
}
function applySurfaceEvent(state, event, expectedSeq, events, baseSeq) {
  const plan = planSurfaceEvent(state, event, expectedSeq, events, baseSeq);
  return applySurfacePlan(state, plan);
}
function applySurfacePlan(state, plan) {
  if (plan?.kind === "append") {
    state.nodes.push(plan.seq);
  } else if (plan?.kind === "replace") {
    state.nodes.splice(plan.startIdx, plan.endIdx - plan.startIdx + 1, plan.seq);
    state.replaceGeneration += 1;
  }
  if (plan?.kind !== "replace")
    return;
  return {
    seq: plan.seq,
    start: plan.start,
    end: plan.end,
    shadowedSeqs: plan.shadowedSeqs
  };
}
function foldSurface(events) {
  const state = createFoldState();
  const replacements = [];
  for (const [index, event] of events.entries()) {
    const replacement = applySurfaceEvent(state, event, index, events, 0);
    if (replacement !== void 0)
      replacements.push(replacement);
  }
  return { nodes: [...state.nodes], replacements };
}

// src/log/session-explain.ts
function forkOrigin(header) {
  if (header === null || typeof header.parentSession !== "string") return null;
  const seedLength = Number.isSafeInteger(header.seedLength) ? header.seedLength : null;
  return { parentSession: header.parentSession, seedLength };
}
var PREVIEW_CHARS = 60;
function preview(event) {
  const content = contentOf(event);
  const text = plainText(content).replace(/\s+/g, " ").trim();
  const calls = content.filter((b) => isRecord(b) && b.type === "tool-call").map((b) => `[tool-call ${String(b.name ?? "?")}]`);
  const parts = [];
  if (text) parts.push(JSON.stringify(text.length > PREVIEW_CHARS ? text.slice(0, PREVIEW_CHARS) + "…" : text));
  parts.push(...calls);
  if (event.type === "tool/result" && !text) parts.push("[tool result]");
  if (parts.length === 0) parts.push(content.length === 0 ? "[empty]" : "[no text]");
  return parts.join(" ");
}
function summarizeNode(event) {
  const key = stepOf(event);
  return { seq: event.seq, type: event.type, kind: classifyNode(event), turn: key?.turn ?? null, step: key?.step ?? null, preview: preview(event) };
}
function replacementKind(event, lookup) {
  if (event.type === "tool/result") return "prune";
  if (event.type !== "user/message") return "replacement";
  const kind = classifyNode(event);
  if (kind === "tombstone" || kind === "checkpoint") return kind;
  return readRestore(event, lookup) !== null ? "restore" : "replacement";
}
function foldPrefix(events) {
  try {
    foldSurface(events);
    return { count: events.length, error: null };
  } catch (error) {
    let good = 0;
    let bad = events.length;
    while (bad - good > 1) {
      const mid = good + bad >> 1;
      try {
        foldSurface(events.slice(0, mid));
        good = mid;
      } catch {
        bad = mid;
      }
    }
    let message = error.message;
    try {
      foldSurface(events.slice(0, bad));
    } catch (first) {
      message = first.message;
    }
    return { count: good, error: { seq: events[good]?.seq ?? good, message } };
  }
}
var SurfaceHistory = class {
  /**
   * @param events - the folded events (`events[seq].seq === seq`).
   * @param nodes - the current surface, in surface order; later changes come through
   *   {@link enter} and {@link replace}.
   */
  constructor(events, nodes) {
    this.events = events;
    const seqs = [];
    for (const event of events) if (event.surfaceOp === "append" || readReplaceOp(event.surfaceOp) !== null) seqs.push(event.seq);
    this.seqs = seqs;
    this.index = new ToolPairingIndex(seqs, (idx) => events[seqs[idx]]);
    this.live = new Uint8Array(events.length);
    for (const seq of nodes) this.live[seq] = 1;
  }
  /** The pairing index over {@link SurfaceHistory.seqs}. */
  index;
  /** Seqs of every surface node of the fold, in log order. */
  seqs;
  /** `1` at a seq while that node is on the current surface. */
  live;
  /** Node `seq` was appended to the surface. */
  enter(seq) {
    this.live[seq] = 1;
  }
  /** The nodes `shadowed` left the surface for `seq`, which replaced them. */
  replace(shadowed, seq) {
    for (const s of shadowed) this.live[s] = 0;
    this.live[seq] = 1;
  }
  /**
   * What `ToolPairingIndex.splitBy` answers for a window of the current surface: the ids with one
   * side inside `window` and the other side on the surface outside it.
   * @param window - seqs of a contiguous run of current surface nodes, in surface order.
   * @returns the ids, calls opened inside first, then results answered inside, each in surface
   *   order; `[]` for a balanced window.
   */
  splitBy(window) {
    const inside = new Set(window);
    return this.index.splitAcross(window.map((seq) => this.events[seq]), (p) => {
      const seq = this.seqs[p];
      return this.live[seq] === 1 && !inside.has(seq);
    });
  }
};
function explainSession(events) {
  const { count, error } = foldPrefix(events);
  const folded = events.slice(0, count);
  const nodes = [];
  const replacements = [];
  const tombstones = [];
  const restores = [];
  const byId = (seq) => folded[seq];
  const lookup = (seq) => folded[seq];
  let history = null;
  for (const event of folded) {
    if (event.surfaceOp === "append") {
      nodes.push(event.seq);
      history?.enter(event.seq);
      continue;
    }
    const range = readReplaceOp(event.surfaceOp);
    if (range === null) continue;
    const startIdx = nodes.indexOf(range.start);
    const endIdx = nodes.indexOf(range.end);
    const shadowed = nodes.slice(startIdx, endIdx + 1);
    const kind = replacementKind(event, lookup);
    replacements.push({ seq: event.seq, kind, start: range.start, end: range.end, shadowedSeqs: shadowed });
    const restore = kind === "restore" ? readRestore(event, lookup) : null;
    if (restore !== null) {
      const original = lookup(restore.originalSeq);
      restores.push({ ...restore, message: summarizeNode(event), exactCopy: original !== void 0 && sameJson(event.data, original.data) });
    }
    const tombstone = readTombstone(event);
    if (tombstone !== null) {
      const source = isRecord(event.data) && isRecord(event.data.source) ? event.data.source : {};
      const removed = Array.isArray(source.removedSeqs) ? source.removedSeqs : [];
      tombstones.push({
        seq: event.seq,
        action: tombstone.action,
        start: range.start,
        end: range.end,
        shadowedSeqs: shadowed,
        inside: shadowed.map((seq) => summarizeNode(byId(seq))),
        nestedTombstones: shadowed.filter((seq) => readTombstone(byId(seq)) !== null),
        before: startIdx > 0 ? summarizeNode(byId(nodes[startIdx - 1])) : null,
        after: endIdx + 1 < nodes.length ? summarizeNode(byId(nodes[endIdx + 1])) : null,
        splitCalls: (history ??= new SurfaceHistory(folded, nodes)).splitBy(shadowed),
        sourceAgrees: removed.length === shadowed.length && removed.every((seq, i) => seq === shadowed[i]),
        erasedAt: erasedMarkOf(event)?.at ?? null
      });
    }
    nodes.splice(startIdx, endIdx - startIdx + 1, event.seq);
    history?.replace(shadowed, event.seq);
  }
  const statuses = readFates(folded).statuses();
  return {
    foldError: error,
    foldedEvents: count,
    surface: nodes.map((seq) => summarizeNode(byId(seq))),
    replacements,
    tombstones: tombstones.map((t) => {
      const status = statuses.get(t.seq);
      return { ...t, shadowedBy: status?.shadowedBy ?? null, restoredBy: status?.restoredBy ?? null, inEffect: status?.inEffect ?? true };
    }),
    restores,
    pairing: new ToolPairingIndex(nodes, (idx) => byId(nodes[idx])).unpaired()
  };
}

export {
  forkOrigin,
  explainSession
};
