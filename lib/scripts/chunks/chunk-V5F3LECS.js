#!/usr/bin/env node
import {
  ACTIONS,
  SURFACE_EVENT_TYPES,
  classifyNode,
  expandStorageRecord,
  isChunkRowTagged,
  isRecord,
  isSeq,
  isTombstoneAction,
  isTombstoneEvent,
  messageOf,
  readReplaceOp,
  readRestore,
  readTombstone,
  toolResultCallId
} from "./chunk-MY2ZCKN5.js";

// src/shared/restorable.ts
function notRestorableReason(kinds) {
  if (kinds.includes("tombstone")) return "absorbed-tombstone";
  if (kinds.includes("assistant") || kinds.includes("tool")) return "model-step";
  if (kinds.length !== 1) return "several-nodes";
  return kinds[0] === "user" ? null : "not-a-prompt";
}

// src/shared/summary-rewrite.ts
var CHECKPOINT_PLUGIN = "compact";
function isCheckpointEvent(event) {
  if (event.type !== "user/message" || readReplaceOp(event.surfaceOp) === null || !isRecord(event.data)) return false;
  const source = event.data.source;
  return isRecord(source) && source.kind === "plugin" && source.plugin === CHECKPOINT_PLUGIN;
}
function readRewriteCheckpoint(event) {
  if (!isCheckpointEvent(event)) return null;
  const source = event.data.source;
  const record = source.messageRecall;
  if (!isRecord(record) || !Array.isArray(record.removals) || typeof source.compactionId !== "string") return null;
  const removals = [];
  for (const entry of record.removals) {
    if (!isRecord(entry) || !isTombstoneAction(entry.action) || !Array.isArray(entry.seqs) || !entry.seqs.every(isSeq)) return null;
    removals.push({ action: entry.action, seqs: [...entry.seqs] });
  }
  return { seq: event.seq, compactionId: source.compactionId, removals };
}
function removalOf(record, seq) {
  return record.removals.find((r) => r.seqs.includes(seq));
}
function originalsOf(checkpointSeq, lookup) {
  const seqs = [];
  const removals = [];
  const visit = (seq, depth, underRewrite) => {
    const event = lookup(seq);
    if (event === void 0) return;
    if (depth > 0 && !isCheckpointEvent(event)) {
      seqs.push(seq);
      return;
    }
    const record = underRewrite ? null : readRewriteCheckpoint(event);
    if (record !== null) removals.push(...record.removals);
    for (const cited of event.sourceEventSeqs ?? []) {
      const source = lookup(cited);
      if (source === void 0 || source.type.startsWith("compaction/")) continue;
      visit(cited, depth + 1, underRewrite || record !== null);
    }
  };
  visit(checkpointSeq, 0, false);
  return { seqs, removals };
}

// src/shared/fate.ts
var SURFACE_TYPES = new Set(SURFACE_EVENT_TYPES);
function takesOver(action, state) {
  if (state === "current") return true;
  const spec = ACTIONS[action];
  return state === "excluded" && spec.plans === "onward" && spec.effect === "removed";
}
function replacementEvents(count, lookup) {
  const out = [];
  for (let seq = 0; seq < count; seq++) {
    const event = lookup(seq);
    if (event !== void 0 && readReplaceOp(event.surfaceOp) !== null) out.push(event);
  }
  return out;
}
var Fates = class {
  /** Tombstones of this plugin, in seq order (undone ones included). */
  tombstones;
  /** Restores, in seq order. */
  restores;
  /** Tombstone seq → seq of the restoring copy that undid it. */
  restoredBy;
  /** Summary rewrites of this plugin (`summary-rewrite.ts`), in seq order (later ones included). */
  rewrites;
  shadowers = /* @__PURE__ */ new Map();
  steps = /* @__PURE__ */ new Map();
  events = /* @__PURE__ */ new Map();
  tombstoneBySeq;
  memo = /* @__PURE__ */ new Map();
  /**
   * @param events - the session's events, or any subset that holds all its replacements (the
   *   client passes the replacement view), in any order; events without a replace op are ignored.
   */
  constructor(events) {
    const replacements = events.filter((e) => readReplaceOp(e.surfaceOp) !== null).sort((a, b) => a.seq - b.seq);
    const lookup = (seq) => this.events.get(seq);
    for (const event of replacements) this.events.set(event.seq, event);
    const tombstones = [];
    const restores = [];
    const rewrites = [];
    for (const event of replacements) {
      const tombstone = readTombstone(event);
      const restore = tombstone === null ? readRestore(event, lookup) : null;
      const cited = tombstone?.shadowedSeqs ?? event.sourceEventSeqs ?? [];
      for (const seq of cited) if (!this.shadowers.has(seq)) this.shadowers.set(seq, event.seq);
      if (tombstone !== null) {
        tombstones.push(tombstone);
        this.steps.set(event.seq, { kind: "tombstone", tombstone });
      } else if (restore !== null) {
        restores.push(restore);
        this.steps.set(event.seq, { kind: "restore", restore });
      } else {
        const range = readReplaceOp(event.surfaceOp);
        const copy = range.start === range.end && cited.length === 1 && cited[0] === range.start;
        const rewrite = copy ? null : readRewriteCheckpoint(event);
        if (rewrite !== null) rewrites.push(rewrite);
        this.steps.set(event.seq, copy ? { kind: "copy" } : { kind: "fold", rewrite });
      }
    }
    this.tombstones = tombstones;
    this.restores = restores;
    this.rewrites = rewrites;
    this.restoredBy = new Map(restores.map((r) => [r.tombstoneSeq, r.seq]));
    this.tombstoneBySeq = new Map(tombstones.map((t) => [t.seq, t]));
  }
  /**
   * The chain of replacements that followed a node: its shadower, that one's shadower, and so on,
   * each with the node it shadowed (`from`). rc.8 shadows each node once, so the chain ends; the
   * bound only guards a malformed log.
   */
  *chain(seq) {
    let at = seq;
    for (let guard = 0; guard <= this.steps.size; guard++) {
      const by = this.shadowers.get(at);
      const step = by === void 0 ? void 0 : this.steps.get(by);
      if (by === void 0 || step === void 0) return;
      yield { from: at, by, step };
      at = by;
    }
  }
  /**
   * The replacement that shadowed a node.
   * @param seq - any seq.
   * @returns the shadower's seq, or `null` when no replacement in these events cites it.
   */
  shadowerOf(seq) {
    return this.shadowers.get(seq) ?? null;
  }
  /**
   * The tombstone of this plugin at a seq.
   * @param seq - any seq.
   * @returns its record, or `undefined`.
   */
  tombstone(seq) {
    return this.tombstoneBySeq.get(seq);
  }
  /**
   * The messages one removal takes for good: those it shadows, also through the earlier tombstones
   * it absorbed, whose fate is removed by it or by one of those (never an excluded message in view,
   * nor one a later tombstone removed). What an erase of the removal takes and what its entry counts.
   * @param tombstoneSeq - seq of a tombstone of this plugin.
   * @returns the surface seqs (a restoring copy stands for its message), ascending; empty for an
   *   exclusion, a removal a restore undid, or an unknown seq.
   */
  removedBy(tombstoneSeq) {
    const { tree, messages } = this.under(tombstoneSeq);
    return messages.filter((seq) => {
      const fate = this.fateOf(seq);
      return fate.state === "removed" && fate.rewrite !== true && fate.tombstoneSeq !== null && tree.has(fate.tombstoneSeq) && this.tombstoneBySeq.has(fate.tombstoneSeq);
    }).sort((a, b) => a - b);
  }
  /**
   * The messages a tombstone of this plugin covers: the nodes it shadows, and through each earlier
   * tombstone it absorbed (directly or through others) the nodes that one shadows, whatever their
   * fate now.
   * @param tombstoneSeq - seq of a tombstone of this plugin.
   * @returns the message seqs, in walk order (unsorted).
   */
  messagesUnder(tombstoneSeq) {
    return this.under(tombstoneSeq).messages;
  }
  /** The walk of {@link Fates.messagesUnder}, with the tombstones met on the way (`tree`, the start included). */
  under(tombstoneSeq) {
    const walk = [tombstoneSeq];
    const tree = /* @__PURE__ */ new Set();
    const messages = [];
    while (walk.length > 0) {
      const seq = walk.pop();
      if (tree.has(seq)) continue;
      tree.add(seq);
      const tombstone = this.tombstoneBySeq.get(seq);
      if (tombstone !== void 0) walk.push(...tombstone.shadowedSeqs);
      else messages.push(seq);
    }
    return { tree, messages };
  }
  /**
   * Follow a message along the replacements that shadowed it (see the module rules).
   * @param seq - the seq of an appended message (any seq: one nothing shadows is `current`).
   * @returns its fate (memoized per seq).
   */
  fateOf(seq) {
    const known = this.memo.get(seq);
    if (known !== void 0) return known;
    let state = "current";
    let tombstoneSeq = null;
    let message = seq;
    for (const { from, by, step } of this.chain(seq)) {
      if (step.kind === "tombstone") {
        if (takesOver(step.tombstone.action, state)) {
          state = ACTIONS[step.tombstone.action].effect === "excluded" ? "excluded" : "removed";
          tombstoneSeq = by;
        }
        continue;
      }
      if (step.kind === "restore") {
        if (step.restore.originalSeq !== message) break;
        state = "current";
        tombstoneSeq = null;
        message = by;
        continue;
      }
      if (step.kind === "copy" && from === message) {
        message = by;
        continue;
      }
      if (state === "current") {
        state = "folded";
        const rewrite = this.rewriteOn(by);
        const removal = rewrite === null ? void 0 : removalOf(rewrite, message);
        if (removal !== void 0) {
          const fate2 = { state: ACTIONS[removal.action].effect === "excluded" ? "excluded" : "removed", tombstoneSeq: rewrite.seq, actingSeq: message, rewrite: true };
          this.memo.set(seq, fate2);
          return fate2;
        }
      }
      break;
    }
    const fate = { state, tombstoneSeq, actingSeq: message };
    this.memo.set(seq, fate);
    return fate;
  }
  /**
   * The last summary rewrite on a checkpoint's chain: the checkpoint itself and the compactions
   * that folded it in turn.
   * @param checkpointSeq - the replacement that folded a message.
   * @returns the last rewrite record, or `null` when no rewrite of this plugin is on the chain.
   */
  rewriteOn(checkpointSeq) {
    const own = this.steps.get(checkpointSeq);
    let last = own?.kind === "fold" ? own.rewrite : null;
    for (const { step } of this.chain(checkpointSeq)) if (step.kind === "fold" && step.rewrite !== null) last = step.rewrite;
    return last;
  }
  /**
   * Whether a Delete onward from a folded message leaves something for its summary: an original
   * message of the checkpoint that stands for it, before it in the log, still summarized (a
   * compaction checkpoint cites `[startSeq, summarySeq, ...shadowedSeqs]`; a cited checkpoint is
   * read through to its own originals). The host plans exactly (`host/folded-plan.ts`); this is
   * what a row offers.
   * @param seq - a folded message's seq.
   * @returns false when the message is not folded, or every original before it is already out of the summary.
   */
  summaryKeepsBefore(seq) {
    if (this.fateOf(seq).state !== "folded") return false;
    const standing = this.standingFor(seq);
    if (standing === null) return false;
    const visit = (checkpoint, depth) => {
      const event = this.events.get(checkpoint);
      if (event === void 0 || depth > this.steps.size) return false;
      const cited = event.sourceEventSeqs ?? [];
      for (const original of isCheckpointEvent(event) ? cited.slice(2) : cited) {
        const inner = this.events.get(original);
        if (inner !== void 0 && isCheckpointEvent(inner)) {
          if (visit(original, depth + 1)) return true;
        } else if (original < seq && this.fateOf(original).state === "folded") return true;
      }
      return false;
    };
    return visit(standing, 0);
  }
  /**
   * The checkpoint on the surface that stands for a folded message now: the end of the chain of
   * replacements from the one that folded it.
   * @param seq - a message's seq.
   * @returns the seq of the last replacement on the chain, or `null` when nothing shadows the message.
   */
  standingFor(seq) {
    let last = null;
    for (const { by } of this.chain(seq)) last = by;
    return last;
  }
  /**
   * Whether a tombstone is still in effect (see the module rules).
   * @param tombstoneSeq - a tombstone's seq.
   * @returns its status, or `undefined` when no tombstone of this plugin is at that seq.
   */
  statusOf(tombstoneSeq) {
    if (!this.tombstoneBySeq.has(tombstoneSeq)) return void 0;
    let inEffect = true;
    for (const { step } of this.chain(tombstoneSeq)) {
      if (step.kind === "restore") inEffect = false;
      if (step.kind !== "tombstone") break;
    }
    return { seq: tombstoneSeq, shadowedBy: this.shadowerOf(tombstoneSeq), restoredBy: this.restoredBy.get(tombstoneSeq) ?? null, inEffect };
  }
  /**
   * The status of every tombstone.
   * @returns tombstone seq → status, in seq order.
   */
  statuses() {
    return new Map(this.tombstones.map((t) => [t.seq, this.statusOf(t.seq)]));
  }
  /**
   * The node kind of a seq as the replacement events tell it (`surface-node.ts` `classifyNode`:
   * a tombstone, a restoring copy of the person's message, a checkpoint, a prune's copy).
   * @param seq - any seq.
   * @returns the kind, or `null` for a seq these events do not hold.
   */
  kindOf(seq) {
    const event = this.events.get(seq);
    return event === void 0 || !SURFACE_TYPES.has(event.type) ? null : classifyNode(event);
  }
  /**
   * Why a tombstone cannot be restored in place, by `restorable.ts`' rule applied to a tombstone
   * on the surface.
   * @param tombstoneSeq - the tombstone's seq.
   * @param kindOf - the node kind of a shadowed node the replacement events do not hold.
   * @returns the reason, or `null` when it can be restored in place.
   */
  restoreBlock(tombstoneSeq, kindOf) {
    const tombstone = this.tombstoneBySeq.get(tombstoneSeq);
    if (tombstone === void 0) return "not-a-tombstone";
    if (this.shadowers.has(tombstoneSeq)) return "not-on-surface";
    return notRestorableReason(tombstone.shadowedSeqs.map((seq) => this.kindOf(seq) ?? kindOf(seq)));
  }
  /**
   * Whether a tombstone can be restored in place ({@link restoreBlock} is `null`).
   * @param tombstoneSeq - the tombstone's seq.
   * @param kindOf - the node kind of a shadowed node the replacement events do not hold.
   */
  canRestore(tombstoneSeq, kindOf) {
    return this.restoreBlock(tombstoneSeq, kindOf) === null;
  }
};
function readFates(events) {
  return new Fates(events);
}

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
    pending.push(...fates.removedBy(tombstoneSeq));
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
function erasedThrough(events, fates, tombstoneSeq) {
  const seen = /* @__PURE__ */ new Set();
  for (let seq = tombstoneSeq; seq !== null && !seen.has(seq) && fates.tombstone(seq) !== void 0; seq = fates.shadowerOf(seq)) {
    seen.add(seq);
    const event = events[seq];
    if (event !== void 0 && erasedMarkOf(event) !== null) return true;
  }
  return false;
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
  if (erasedThrough(events, fates, tombstoneSeq)) return { ok: false, code: "ALREADY_ERASED" };
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

export {
  replacementEvents,
  readFates,
  findRemovedContent,
  collectEventImages,
  parseLogText,
  toolOutputPathsIn,
  erasedMarkOf,
  erasedThrough,
  eraseRemovalInLog
};
