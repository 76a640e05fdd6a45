#!/usr/bin/env node
import {
  COMMON_OPTIONS,
  DECODER_OPTION,
  EXIT,
  classifyNode,
  contentOf,
  decoderOption,
  isRecord,
  messageIdOf,
  out,
  parseOneTarget,
  plainText,
  readReplaceOp,
  readSessionLog,
  readTombstone,
  resolveSessionLog,
  stepOf,
  toolCallIds,
  toolResultCallId
} from "./chunk-JDKWCII7.js";

// src/shared/hidden-rows.ts
var CONTENT_ROW_KINDS = /* @__PURE__ */ new Set(["user", "steering", "assistant-step", "tool-call"]);
var TURN_LOG_ROW_KINDS = /* @__PURE__ */ new Set(["turn-tail", "turn-error", "turn-max-tokens", "model-retry"]);
var EMPTY_TURN_ROW_KINDS = /* @__PURE__ */ new Set([...TURN_LOG_ROW_KINDS, "context"]);
function readTombstones(events) {
  const out2 = [];
  for (const event of events) {
    const record = readTombstone(event);
    if (record !== null) out2.push(record);
  }
  return out2.sort((a, b) => a.seq - b.seq);
}
function shadowedSeqs(tombstones) {
  const shadowed = /* @__PURE__ */ new Map();
  for (const tombstone of tombstones) {
    for (const seq of tombstone.shadowedSeqs) shadowed.set(seq, tombstone.seq);
  }
  return shadowed;
}
function deriveHiddenRows(events, rows) {
  const tombstones = readTombstones(events);
  const shadowed = shadowedSeqs(tombstones);
  const spans = onwardSpans(tombstones);
  const reasons = /* @__PURE__ */ new Map();
  for (const row of rows) {
    if (row.seq !== null) {
      const by = shadowed.get(row.seq);
      if (by !== void 0) reasons.set(row.key, { reason: "shadowed", tombstoneSeq: by });
      continue;
    }
    const span = spanOf(spans, row.anchorSeq);
    if (span !== null) reasons.set(row.key, { reason: "span", tombstoneSeq: span });
  }
  const turns = /* @__PURE__ */ new Map();
  for (const row of rows) {
    if (row.turn === null || !CONTENT_ROW_KINDS.has(row.rowKind)) continue;
    const tally = turns.get(row.turn) ?? { content: 0, hidden: 0 };
    tally.content++;
    if (reasons.has(row.key)) tally.hidden++;
    turns.set(row.turn, tally);
  }
  for (const row of rows) {
    if (row.turn === null || !EMPTY_TURN_ROW_KINDS.has(row.rowKind) || reasons.has(row.key)) continue;
    const tally = turns.get(row.turn);
    if (tally !== void 0 && tally.content > 0 && tally.hidden === tally.content) {
      reasons.set(row.key, { reason: "empty-turn", tombstoneSeq: null });
    }
  }
  const hidden = [];
  for (const row of rows) {
    const why = reasons.get(row.key);
    if (why !== void 0) hidden.push({ key: row.key, rowKind: row.rowKind, reason: why.reason, tombstoneSeq: why.tombstoneSeq });
  }
  return { tombstones, shadowed, hidden, hiddenKeys: new Set(reasons.keys()) };
}
function onwardSpans(tombstones) {
  const spans = [];
  for (const tombstone of tombstones) {
    if (tombstone.action !== "deleteFrom" || tombstone.shadowedSeqs.length === 0) continue;
    spans.push({ after: Math.min(...tombstone.shadowedSeqs), before: tombstone.seq });
  }
  return spans;
}
function spanOf(spans, anchorSeq) {
  let found = null;
  for (const span of spans) {
    if (anchorSeq > span.after && anchorSeq < span.before && (found === null || span.before > found)) found = span.before;
  }
  return found;
}

// src/log/log-rows.ts
function rowKey(kind, id) {
  return `${kind.length}:${kind}${id}`;
}
function transcriptRows(events) {
  const rows = [];
  let turn = null;
  let step = 0;
  for (const event of events) {
    const data = isRecord(event.data) ? event.data : {};
    switch (event.type) {
      case "turn/start":
        turn = typeof data.turn === "number" ? data.turn : turn;
        step = 0;
        break;
      case "step/start":
        step = typeof data.step === "number" ? data.step : step;
        break;
      case "turn/end": {
        const ended = typeof data.turn === "number" ? data.turn : turn;
        const reason = isRecord(data.reason) ? data.reason.kind : void 0;
        const id = String(ended);
        if (reason === "error") rows.push({ key: rowKey("turn-error", id), rowKind: "turn-error", seq: null, anchorSeq: event.seq, turn: ended });
        if (reason === "max-tokens") rows.push({ key: rowKey("turn-max-tokens", id), rowKind: "turn-max-tokens", seq: null, anchorSeq: event.seq, turn: ended });
        rows.push({ key: rowKey("turn-tail", id), rowKind: "turn-tail", seq: null, anchorSeq: event.seq, turn: ended });
        turn = null;
        break;
      }
      case "llm/retry": {
        const id = typeof data.retryId === "string" ? data.retryId : String(event.seq);
        rows.push({ key: rowKey("model-retry", id), rowKind: "model-retry", seq: null, anchorSeq: event.seq, turn });
        break;
      }
      case "user/message": {
        if (event.surfaceOp === "append") {
          const rowKind = classifyNode(event) === "user" ? turn !== null && step > 1 ? "steering" : "user" : "context";
          rows.push({ key: rowKey("input-message", messageIdOf(event) ?? String(event.seq)), rowKind, seq: event.seq, anchorSeq: event.seq, turn });
        } else if (readReplaceOp(event.surfaceOp) !== null && classifyNode(event) === "checkpoint") {
          const source = isRecord(data.source) ? data.source : {};
          const id = typeof source.compactionId === "string" ? source.compactionId : String(event.seq);
          rows.push({ key: rowKey("compaction", id), rowKind: "compaction", seq: event.seq, anchorSeq: event.seq, turn });
        }
        break;
      }
      case "assistant/message": {
        if (event.surfaceOp !== "append") break;
        const key = stepOf(event);
        const visible = contentOf(event).some((block) => isRecord(block) && block.type !== "tool-call");
        if (key !== null && visible) {
          rows.push({ key: rowKey("assistant-step", `${key.turn}:${key.step}`), rowKind: "assistant-step", seq: event.seq, anchorSeq: event.seq, turn: key.turn });
        }
        break;
      }
      case "tool/result": {
        if (event.surfaceOp !== "append") break;
        const callId = toolResultCallId(event) ?? String(event.seq);
        const anchor = event.sourceEventSeqs?.[0] ?? event.seq;
        rows.push({ key: rowKey("tool-call", callId), rowKind: "tool-call", seq: event.seq, anchorSeq: anchor, turn: stepOf(event)?.turn ?? turn });
        break;
      }
      default:
        break;
    }
  }
  return rows;
}

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
function assertProvenance(event, shadowedSeqs2) {
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
  const missing = shadowedSeqs2.filter((seq) => !sources.has(seq));
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
function assertToolResultRewrite(event, shadowedSeqs2, events, baseSeq) {
  if (event.type !== "tool/result")
    return;
  if (shadowedSeqs2.length !== 1) {
    throw new Error("tool/result surface replacement must rewrite exactly one current node");
  }
  for (const originalSeq of shadowedSeqs2) {
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

// src/shared/tool-pairing.ts
var ToolPairingIndex = class {
  /**
   * @param nodes - surface node seqs in surface order.
   * @param eventAt - the event of the node at a position (`0 <= idx < nodes.length`); it may
   *   throw for a corrupt surface, and that error propagates from every method.
   */
  constructor(nodes, eventAt) {
    this.nodes = nodes;
    this.eventAt = eventAt;
  }
  calls = null;
  results = null;
  /**
   * The ids opened and answered by the nodes at positions `from` … `to` (inclusive).
   * @param from - first position.
   * @param to - last position (inclusive); an empty window when `to < from`.
   * @returns both id sets, each in surface order.
   */
  window(from, to) {
    const calls = /* @__PURE__ */ new Set();
    const answered = /* @__PURE__ */ new Set();
    this.addWindow(calls, answered, from, to);
    return { calls, answered };
  }
  /**
   * Widen a window returned by {@link window} by the positions `from` … `to` (inclusive).
   * @param window - a window from this index; its sets grow in place.
   */
  extend(window, from, to) {
    this.addWindow(window.calls, window.answered, from, to);
  }
  /**
   * Ascending positions of the nodes that open tool call `id`.
   * @returns the positions; `[]` when no node opens it.
   */
  callPositions(id) {
    return this.maps().calls.get(id) ?? [];
  }
  /**
   * Ascending positions of the `tool/result` nodes that answer tool call `id`.
   * @returns the positions; `[]` when no node answers it.
   */
  resultPositions(id) {
    return this.maps().results.get(id) ?? [];
  }
  /**
   * Ids with one side (call or result) inside positions `from` … `to` and the other side on
   * the list outside it: what a replace of exactly that window would split.
   * @returns the ids, calls opened inside first, then results answered inside, each in surface
   *   order; `[]` for a balanced window.
   */
  splitBy(from, to) {
    const outside = (positions) => positions.some((p) => p < from || p > to);
    const split = /* @__PURE__ */ new Set();
    for (let p = from; p <= to; p++) for (const id of toolCallIds(this.eventAt(p))) if (outside(this.resultPositions(id))) split.add(id);
    for (let p = from; p <= to; p++) {
      const id = toolResultCallId(this.eventAt(p));
      if (id !== null && outside(this.callPositions(id))) split.add(id);
    }
    return [...split];
  }
  /**
   * Calls on the list without a result on it, and results whose call is not on it.
   * @returns both lists in order of each id's first position; a repeated id reports its last node.
   */
  unpaired() {
    const { calls, results } = this.maps();
    const lone = (side, other) => [...side].filter(([id]) => !other.has(id)).map(([callId, positions]) => ({ seq: this.nodes[positions[positions.length - 1]], callId }));
    return { unansweredCalls: lone(calls, results), orphanResults: lone(results, calls) };
  }
  addWindow(calls, answered, from, to) {
    for (let p = from; p <= to; p++) {
      const event = this.eventAt(p);
      for (const id of toolCallIds(event)) calls.add(id);
      const callId = toolResultCallId(event);
      if (callId !== null) answered.add(callId);
    }
  }
  maps() {
    if (this.calls === null || this.results === null) {
      const calls = /* @__PURE__ */ new Map();
      const results = /* @__PURE__ */ new Map();
      const push = (map, id, p) => {
        const positions = map.get(id);
        if (positions === void 0) map.set(id, [p]);
        else positions.push(p);
      };
      for (let p = 0; p < this.nodes.length; p++) {
        const event = this.eventAt(p);
        for (const id of toolCallIds(event)) push(calls, id, p);
        const callId = toolResultCallId(event);
        if (callId !== null) push(results, callId, p);
      }
      this.calls = calls;
      this.results = results;
    }
    return { calls: this.calls, results: this.results };
  }
};

// src/log/session-explain.ts
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
function replacementKind(event) {
  if (event.type === "tool/result") return "prune";
  if (event.type !== "user/message") return "replacement";
  const kind = classifyNode(event);
  return kind === "tombstone" ? "tombstone" : kind === "checkpoint" ? "checkpoint" : "replacement";
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
function explainSession(events) {
  const { count, error } = foldPrefix(events);
  const folded = events.slice(0, count);
  const nodes = [];
  const shadowedBy = /* @__PURE__ */ new Map();
  const replacements = [];
  const tombstones = [];
  const byId = (seq) => folded[seq];
  for (const event of folded) {
    if (event.surfaceOp === "append") {
      nodes.push(event.seq);
      continue;
    }
    const range = readReplaceOp(event.surfaceOp);
    if (range === null) continue;
    const startIdx = nodes.indexOf(range.start);
    const endIdx = nodes.indexOf(range.end);
    const shadowed = nodes.slice(startIdx, endIdx + 1);
    for (const seq of shadowed) shadowedBy.set(seq, event.seq);
    replacements.push({ seq: event.seq, kind: replacementKind(event), start: range.start, end: range.end, shadowedSeqs: shadowed });
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
        shadowedBy: null,
        splitCalls: new ToolPairingIndex(nodes, (idx) => byId(nodes[idx])).splitBy(startIdx, endIdx),
        sourceAgrees: removed.length === shadowed.length && removed.every((seq, i) => seq === shadowed[i])
      });
    }
    nodes.splice(startIdx, endIdx - startIdx + 1, event.seq);
  }
  return {
    foldError: error,
    foldedEvents: count,
    surface: nodes.map((seq) => summarizeNode(byId(seq))),
    replacements,
    tombstones: tombstones.map((t) => ({ ...t, shadowedBy: shadowedBy.get(t.seq) ?? null })),
    pairing: new ToolPairingIndex(nodes, (idx) => byId(nodes[idx])).unpaired()
  };
}

// scripts/commands/explain.ts
var usage = (invocation) => `Usage: ${invocation} <log file | session folder> [options]

Folds the session's surface the way DSH does on load and explains every replacement:
each dsh-message-recall tombstone with its inclusive range as the host wrote it, the
nodes it shadows, its neighbours on the surface when it was written, and whether a later
tombstone shadows it; compaction checkpoints and tool-result prunes are counted apart.

Options:
  --rows            also list the transcript rows rebuilt from the log and which of them
                    the client hides (computed by the client's own hidden-row module)
  --json            one JSON document instead of text
  --decoder NAME    auto (default), zlib, zlib-oneshot, zstd-cli, fzstd
  -h, --help        this text

Exit codes: 0 nothing wrong; 1 a problem: the log does not fold, a range splits a tool
call from its result, a tool call or result is left without its partner on the surface,
a tombstone's source disagrees with its range, or the log is damaged or torn; 2 bad usage
or unreadable input.
`;
var OPTIONS = { ...COMMON_OPTIONS, ...DECODER_OPTION, rows: { type: "boolean" } };
function node(n) {
  if (n === null) return "(none)";
  const where = n.turn !== null ? ` turn ${n.turn} step ${n.step}` : "";
  return `${n.seq} ${n.kind}${where} ${n.preview}`;
}
function endedTurns(events) {
  const ended = /* @__PURE__ */ new Set();
  for (const e of events) if (e.type === "turn/end" && typeof e.data?.turn === "number") ended.add(e.data.turn);
  return ended;
}
function findings(explanation, events) {
  const out2 = [];
  if (explanation.foldError) out2.push(`the log does not fold at seq ${explanation.foldError.seq}: ${explanation.foldError.message}`);
  for (const t of explanation.tombstones) {
    if (t.splitCalls.length > 0) out2.push(`tombstone ${t.seq} splits tool call ${t.splitCalls.join(", ")} from its result`);
    if (!t.sourceAgrees) out2.push(`tombstone ${t.seq}: source.removedSeqs differs from the shadowed nodes [${t.shadowedSeqs.join(", ")}]`);
  }
  const ended = endedTurns(events);
  const stepTurn = (seq) => events[seq]?.data?.turn;
  for (const c of explanation.pairing.unansweredCalls) {
    const turn = stepTurn(c.seq);
    if (turn === void 0 || ended.has(turn)) out2.push(`tool call ${c.callId} (seq ${c.seq}) has no result on the surface`);
  }
  for (const r of explanation.pairing.orphanResults) out2.push(`tool result seq ${r.seq} answers ${r.callId}, whose call is not on the surface`);
  return out2;
}
async function run(argv, invocation) {
  const { values, target } = parseOneTarget(argv, OPTIONS, "the log file or session folder");
  if (target === null) {
    await out(usage(invocation));
    return EXIT.ok;
  }
  const decoder = decoderOption(values.decoder);
  const file = await resolveSessionLog(target);
  const events = [];
  let title = null;
  const read = await readSessionLog(file, {
    decoder,
    expand: true,
    onRecord: (record) => {
      for (const event of record.events ?? []) {
        events.push(event);
        if (event.type === "session/title" && typeof event.data?.title === "string") title = event.data.title;
      }
    }
  });
  const explanation = explainSession(events);
  const problems = [...read.problems.map((p) => p.message), ...read.tail ? [`torn tail: ${read.tail.description}`] : [], ...findings(explanation, events)];
  const rows = values.rows ? transcriptRows(events.slice(0, explanation.foldedEvents)) : null;
  const hidden = rows ? deriveHiddenRows(events.slice(0, explanation.foldedEvents), rows) : null;
  if (values.json) {
    await out(
      JSON.stringify({
        file: file.path,
        header: read.header,
        title,
        events: read.events,
        lastSeq: read.lastSeq,
        frames: read.frames,
        tail: read.tail,
        ...explanation,
        ...rows && hidden ? { rows: rows.map((row) => rowJson(row, hidden.hidden.find((h) => h.key === row.key) ?? null)) } : {},
        problems
      }) + "\n"
    );
    return problems.length ? EXIT.problem : EXIT.ok;
  }
  const lines = [];
  const header = read.header;
  lines.push(`session ${header?.id ?? "?"}${header?.cwd ? ` (cwd ${header.cwd})` : ""}${header ? `, created ${new Date(header.createdAt).toISOString()}` : ""}`);
  if (title) lines.push(`title: ${title}`);
  lines.push(`log: ${read.events} events${read.lastSeq >= 0 ? ` (seq 0-${read.lastSeq})` : ""}, ${file.format === "zstd" ? `${read.frames} frames` : "plain JSONL"}`);
  const count = (kind) => explanation.replacements.filter((r) => r.kind === kind).length;
  lines.push(`surface now: ${explanation.surface.length} nodes [${explanation.surface.map((n) => n.seq).join(", ")}]`);
  lines.push(
    `replacements: ${explanation.replacements.length} — ${count("tombstone")} tombstones of dsh-message-recall, ${count("checkpoint")} compaction checkpoints, ${count("prune")} tool-result prunes, ${count("replacement")} other`
  );
  for (const t of explanation.tombstones) {
    const nested = t.nestedTombstones.length ? `, ${t.nestedTombstones.length} earlier tombstone${t.nestedTombstones.length > 1 ? "s" : ""} among them (${t.nestedTombstones.join(", ")})` : "";
    lines.push(`tombstone seq ${t.seq} · ${t.action} · range ${t.start}..${t.end} (inclusive) · shadows ${t.shadowedSeqs.length} node${t.shadowedSeqs.length === 1 ? "" : "s"}${nested}`);
    for (const n of t.inside) lines.push(`  inside:  ${node(n)}`);
    lines.push(`  before:  ${node(t.before)}`);
    lines.push(`  after:   ${node(t.after)}`);
    lines.push(`  now:     ${t.shadowedBy === null ? "on the surface (the model sees an empty user message here)" : `shadowed by ${t.shadowedBy}`}`);
  }
  for (const r of explanation.replacements.filter((r2) => r2.kind !== "tombstone")) {
    lines.push(`${r.kind} seq ${r.seq} · range ${r.start}..${r.end} · shadows ${r.shadowedSeqs.length} node${r.shadowedSeqs.length === 1 ? "" : "s"}`);
  }
  const balanced = explanation.pairing.unansweredCalls.length === 0 && explanation.pairing.orphanResults.length === 0;
  lines.push(`pairing: ${balanced ? "balanced (every tool call on the surface has its result)" : `${explanation.pairing.unansweredCalls.length} unanswered calls, ${explanation.pairing.orphanResults.length} orphan results`}`);
  if (rows && hidden) {
    lines.push(`rows: ${rows.length} rebuilt from the log, ${hidden.hidden.length} hidden by the client`);
    for (const row of rows) {
      const h = hidden.hidden.find((x) => x.key === row.key);
      const why = h ? `hidden (${h.reason}${h.tombstoneSeq !== null ? ` by ${h.tombstoneSeq}` : ""})` : "shown";
      lines.push(`  ${why.padEnd(26)} ${row.rowKind.padEnd(15)} ${row.seq === null ? `log ${row.anchorSeq}`.padEnd(9) : `seq ${row.seq}`.padEnd(9)} ${row.turn === null ? "" : `turn ${row.turn} `}${row.key}`);
    }
  }
  for (const p of problems) lines.push(`problem: ${p}`);
  lines.push(problems.length ? `result: ${problems.length} problem${problems.length > 1 ? "s" : ""} found` : "result: ok");
  await out(lines.join("\n") + "\n");
  return problems.length ? EXIT.problem : EXIT.ok;
}
function rowJson(row, hidden) {
  return {
    key: row.key,
    kind: row.rowKind,
    seq: row.seq,
    logSeq: row.anchorSeq,
    turn: row.turn,
    hidden: hidden === null ? null : { key: hidden.key, kind: hidden.rowKind, reason: hidden.reason, tombstoneSeq: hidden.tombstoneSeq }
  };
}
var explainCommand = { name: "explain", script: "explain-session", summary: "explain a session's surface: tombstones, restores, exclusions, where a fork came from", usage, run };

export {
  explainCommand
};
