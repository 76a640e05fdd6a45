#!/usr/bin/env node
import {
  explainSession,
  forkOrigin
} from "./chunk-QDRG7ERN.js";
import {
  readFates
} from "./chunk-V5F3LECS.js";
import {
  COMMON_OPTIONS,
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
  ACTIONS,
  classifyNode,
  contentOf,
  isRecord,
  messageIdOf,
  readReplaceOp,
  stepOf,
  toolResultCallId
} from "./chunk-MY2ZCKN5.js";
import {
  counted,
  forCount
} from "./chunk-2BN4JUMU.js";

// src/shared/hidden-rows.ts
var CONTENT_ROW_KINDS = /* @__PURE__ */ new Set(["user", "steering", "assistant-step", "tool-call"]);
var TURN_LOG_ROW_KINDS = /* @__PURE__ */ new Set(["turn-tail", "turn-error", "turn-max-tokens", "model-retry"]);
var EMPTY_TURN_ROW_KINDS = /* @__PURE__ */ new Set([...TURN_LOG_ROW_KINDS, "context"]);
function deriveHiddenRows(events, rows) {
  const fates = readFates(events);
  const { tombstones, restores, restoredBy } = fates;
  const fateOf = (seq) => fates.fateOf(seq);
  const spans = onwardSpans(fates);
  const reasons = /* @__PURE__ */ new Map();
  const excluded = /* @__PURE__ */ new Map();
  const actingSeqs = /* @__PURE__ */ new Map();
  for (const row of rows) {
    if (row.seq !== null) {
      const fate = fateOf(row.seq);
      if (fate.actingSeq !== row.seq) actingSeqs.set(row.key, fate.actingSeq);
      if (fate.state === "removed") reasons.set(row.key, { reason: "shadowed", tombstoneSeq: fate.tombstoneSeq });
      else if (fate.state === "excluded") excluded.set(row.key, fate.tombstoneSeq);
      continue;
    }
    const span = spanOf(spans, row.anchorSeq);
    if (span !== null) reasons.set(row.key, { reason: "span", tombstoneSeq: span });
  }
  const turns = /* @__PURE__ */ new Map();
  const tally = (turn) => {
    let t = turns.get(turn);
    if (t === void 0) turns.set(turn, t = { content: 0, removed: 0, answer: null, lastStep: null });
    return t;
  };
  for (const row of rows) {
    if (row.turn === null) continue;
    if (row.rowKind === "turn-tail" && row.answerSeq !== void 0 && row.answerSeq !== null) tally(row.turn).answer = row.answerSeq;
    if (!CONTENT_ROW_KINDS.has(row.rowKind)) continue;
    const t = tally(row.turn);
    t.content++;
    if (reasons.has(row.key)) t.removed++;
    if (row.rowKind === "assistant-step" && row.seq !== null && (t.lastStep === null || row.seq > t.lastStep)) t.lastStep = row.seq;
  }
  for (const row of rows) {
    if (row.turn === null || !EMPTY_TURN_ROW_KINDS.has(row.rowKind) || reasons.has(row.key)) continue;
    const t = turns.get(row.turn);
    if (t === void 0) continue;
    const empty = t.content > 0 && t.removed === t.content;
    if (row.rowKind === "context") {
      if (empty) reasons.set(row.key, { reason: "empty-turn", tombstoneSeq: null });
      continue;
    }
    const answer = t.answer ?? t.lastStep;
    if (answer !== null) {
      const fate = fateOf(answer);
      if (fate.state === "removed") reasons.set(row.key, { reason: "answer-removed", tombstoneSeq: fate.tombstoneSeq });
    } else if (empty) reasons.set(row.key, { reason: "empty-turn", tombstoneSeq: null });
  }
  const hidden = [];
  const excludedRows = [];
  for (const row of rows) {
    const why = reasons.get(row.key);
    if (why !== void 0) hidden.push({ key: row.key, rowKind: row.rowKind, reason: why.reason, tombstoneSeq: why.tombstoneSeq });
    const by = excluded.get(row.key);
    if (by !== void 0) excludedRows.push({ key: row.key, rowKind: row.rowKind, tombstoneSeq: by });
  }
  return {
    tombstones,
    restores,
    restoredBy,
    fates,
    hidden,
    hiddenKeys: new Set(reasons.keys()),
    excluded: excludedRows,
    excludedKeys: new Set(excluded.keys()),
    actingSeqs,
    fateOf
  };
}
function onwardSpans(fates) {
  const spans = [];
  for (const tombstone of fates.tombstones) {
    if (ACTIONS[tombstone.action].plans !== "onward" || tombstone.shadowedSeqs.length === 0 || !fates.statusOf(tombstone.seq).inEffect) continue;
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

// scripts/commands/explain.ts
var usage = (invocation) => `Usage: ${invocation} <log file | session folder> [options]

Folds the session's surface the way DSH does on load and explains every replacement:
each dsh-message-recall tombstone (recall, delete, deleteFrom, or exclude: rows kept in
view, hidden from the model) with its inclusive range as the host wrote it, the nodes it
shadows, its neighbours on the surface when it was written, whether a later tombstone
shadows it, whether a restore undid it and when it was erased for good; each restore (a
copy of the removed message put back in its place); compaction checkpoints and tool-result
prunes are counted apart. A session forked from another says so first, with the events it
copied.

Options:
  --rows            also list the transcript rows rebuilt from the log and which of them
                    the client hides (computed by the client's own hidden-row module)
  --json            one JSON document instead of text
  --decoder NAME    auto (default), zlib, zlib-oneshot, zstd-cli, fzstd
  -h, --help        this text

Exit codes: 0 nothing wrong; 1 a problem: the log does not fold, a range splits a tool
call from its result, a tool call or result is left without its partner on the surface,
a tombstone's source disagrees with its range, a restore is not an exact copy of the
removed message, or the log is damaged or torn; 2 bad usage or unreadable input.
`;
var OPTIONS = { ...COMMON_OPTIONS, ...DECODER_OPTION, rows: { type: "boolean" } };
function node(n) {
  if (n === null) return "(none)";
  const where = n.turn !== null ? ` turn ${n.turn} step ${n.step}` : "";
  return `${n.seq} ${n.kind}${where} ${n.preview}`;
}
function exclusionLine(exclusions, folded) {
  const fates = readFates(folded);
  const inEffect = exclusions.filter((t) => t.inEffect);
  const inView = inEffect.filter((t) => fates.messagesUnder(t.seq).some((seq) => fates.fateOf(seq).state === "excluded")).length;
  const taken = inEffect.length - inView;
  return `exclusions: ${exclusions.length}, ${inView} in effect (rows kept in view, not sent to the model)${taken > 0 ? `, ${taken} taken by a later removal` : ""}`;
}
function tombstoneNow(t) {
  if (t.restoredBy !== null) return `restored by ${t.restoredBy}: the message is back in its place, the tombstone hides nothing`;
  if (t.shadowedBy !== null) return `shadowed by ${t.shadowedBy}${t.inEffect ? "" : " (no longer in effect: a restore undid that later tombstone)"}`;
  if (ACTIONS[t.action].effect === "excluded") return "on the surface (the model sees an empty user message here; the person still sees the rows)";
  return "on the surface (the model sees an empty user message here)";
}
function forkLine(fork) {
  if (fork.seedLength === null) return `forked from session ${fork.parentSession}`;
  const copied = fork.seedLength === 0 ? "no events copied" : fork.seedLength === 1 ? "seq 0 copied from it" : `seqs 0-${fork.seedLength - 1} copied from it`;
  return `forked from session ${fork.parentSession}: ${copied}, this session's own events from seq ${fork.seedLength}`;
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
    if (t.splitCalls.length > 0) out2.push(`tombstone ${t.seq} splits ${forCount(t.splitCalls.length, "tool call")} ${t.splitCalls.join(", ")} from ${forCount(t.splitCalls.length, "its result", "their results")}`);
    if (!t.sourceAgrees) out2.push(`tombstone ${t.seq}: source.removedSeqs differs from the shadowed nodes [${t.shadowedSeqs.join(", ")}]`);
  }
  for (const r of explanation.restores) {
    if (!r.exactCopy) out2.push(`restore ${r.seq} of tombstone ${r.tombstoneSeq}: its data differs from the removed message at seq ${r.originalSeq}`);
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
  const fork = forkOrigin(read.header);
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
        fork,
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
  if (fork !== null) lines.push(forkLine(fork));
  if (title) lines.push(`title: ${title}`);
  lines.push(`log: ${counted(read.events, "event")}${read.lastSeq >= 0 ? ` (seq ${read.firstSeq}-${read.lastSeq})` : ""}, ${file.format === "zstd" ? counted(read.frames, "frame") : "plain JSONL"}`);
  const count = (kind) => explanation.replacements.filter((r) => r.kind === kind).length;
  lines.push(`surface now: ${counted(explanation.surface.length, "node")} [${explanation.surface.map((n) => n.seq).join(", ")}]`);
  lines.push(
    `replacements: ${explanation.replacements.length} — ${counted(count("tombstone"), "tombstone")} of dsh-message-recall, ${counted(count("restore"), "restore")}, ${counted(count("checkpoint"), "compaction checkpoint")}, ${counted(count("prune"), "tool-result prune")}, ${count("replacement")} other`
  );
  const exclusions = explanation.tombstones.filter((t) => ACTIONS[t.action].effect === "excluded");
  if (exclusions.length > 0) lines.push(exclusionLine(exclusions, events.slice(0, explanation.foldedEvents)));
  for (const t of explanation.tombstones) {
    const nested = t.nestedTombstones.length ? `, ${counted(t.nestedTombstones.length, "earlier tombstone")} among them (${t.nestedTombstones.join(", ")})` : "";
    const erased = t.erasedAt === null ? "" : ` · erased for good at ${t.erasedAt}`;
    lines.push(`tombstone seq ${t.seq} · ${t.action} · range ${t.start}..${t.end} (inclusive) · shadows ${counted(t.shadowedSeqs.length, "node")}${nested}${erased}`);
    for (const n of t.inside) lines.push(`  inside:  ${node(n)}`);
    lines.push(`  before:  ${node(t.before)}`);
    lines.push(`  after:   ${node(t.after)}`);
    lines.push(`  now:     ${tombstoneNow(t)}`);
  }
  for (const r of explanation.restores) {
    const id = messageIdOf(events[r.seq]);
    lines.push(`restore seq ${r.seq} · undoes tombstone ${r.tombstoneSeq} · a copy of seq ${r.originalSeq}${id === null ? "" : ` (message ${id})`}${r.exactCopy ? "" : " · NOT an exact copy"}`);
    lines.push(`  message: ${node(r.message)}`);
  }
  for (const r of explanation.replacements.filter((r2) => r2.kind !== "tombstone" && r2.kind !== "restore")) {
    lines.push(`${r.kind} seq ${r.seq} · range ${r.start}..${r.end} · shadows ${counted(r.shadowedSeqs.length, "node")}`);
  }
  const balanced = explanation.pairing.unansweredCalls.length === 0 && explanation.pairing.orphanResults.length === 0;
  lines.push(`pairing: ${balanced ? "balanced (every tool call on the surface has its result)" : `${counted(explanation.pairing.unansweredCalls.length, "unanswered call")}, ${counted(explanation.pairing.orphanResults.length, "orphan result")}`}`);
  if (rows && hidden) {
    lines.push(`rows: ${rows.length} rebuilt from the log, ${hidden.hidden.length} hidden by the client`);
    const whys = rows.map((row) => {
      const h = hidden.hidden.find((x) => x.key === row.key);
      const excluded = hidden.excluded.find((x) => x.key === row.key);
      return h ? `hidden (${h.reason}${h.tombstoneSeq !== null ? ` by ${h.tombstoneSeq}` : ""})` : excluded ? `excluded (by ${excluded.tombstoneSeq})` : "shown";
    });
    const width = Math.max(26, ...whys.map((why) => why.length));
    for (const [i, row] of rows.entries()) {
      lines.push(`  ${whys[i].padEnd(width)} ${row.rowKind.padEnd(15)} ${row.seq === null ? `log ${row.anchorSeq}`.padEnd(9) : `seq ${row.seq}`.padEnd(9)} ${row.turn === null ? "" : `turn ${row.turn} `}${row.key}`);
    }
  }
  for (const p of problems) lines.push(`problem: ${p}`);
  lines.push(problems.length ? `result: ${counted(problems.length, "problem")} found` : "result: ok");
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
