// src/host/config.ts
import z from "@deepseek-ai/schemastery";

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
function removalPlanning(action) {
  return ACTIONS[action];
}

// src/shared/protocol.ts
var DEFAULT_ROUTE_PATH = "/dsh-message-recall";
var OTHER_ROUTE_ACTIONS = ["forkBefore", "flush", "plan", "apply", "inspect", "erase", "cancelErase", "pendingErases", "editSummary", "undoRewrite", "rewriteSummary"];
var READ_ROUTE_ACTIONS = ["plan", "inspect", "pendingErases"];
var ROUTE_ACTIONS = Object.freeze([...SURFACE_ACTIONS, ...OTHER_ROUTE_ACTIONS]);
var ERASE_WHEN = ["now", "next-start"];
var DURABLE_TOMBSTONE_HEADER = "x-message-recall-tombstone";
var DURABLE_TOMBSTONE_HEADER_MAX = 8192;

// src/host/config.ts
var DEFAULTS = Object.freeze({
  path: DEFAULT_ROUTE_PATH,
  maxBodyBytes: 65536,
  tombstoneText: "",
  trustedHosts: Object.freeze(["localhost", "127.0.0.1", "[::1]"])
});
var CONFIG_KEYS = ["path", "maxBodyBytes", "tombstoneText", "trustedHosts"];
var Config = z.object({
  path: z.string().default(DEFAULTS.path).description("Exact pathname of the POST route."),
  maxBodyBytes: z.natural().min(1).default(DEFAULTS.maxBodyBytes).description("Largest accepted request body, in bytes."),
  tombstoneText: z.string().default(DEFAULTS.tombstoneText).description("Text of the tombstone message; empty writes no content."),
  trustedHosts: z.array(z.string()).default([...DEFAULTS.trustedHosts]).description("Accepted Host header values (loopback only by default).")
});
var HOST_PATTERN = /^(?:\[[0-9a-f:.]+\]|[a-z0-9.-]+)(?::[0-9]{1,5})?$/;
function resolveConfig(raw) {
  if (raw !== void 0 && (typeof raw !== "object" || raw === null || Array.isArray(raw))) {
    throw new Error(`MessageRecallConfig: expected an object, got ${JSON.stringify(raw)}`);
  }
  const input = raw ?? {};
  for (const key of Object.keys(input)) {
    if (!CONFIG_KEYS.includes(key)) {
      throw new Error(`MessageRecallConfig: unknown key "${key}" (allowed: ${CONFIG_KEYS.join(", ")})`);
    }
  }
  const path = input.path ?? DEFAULTS.path;
  if (typeof path !== "string" || !/^\/[^?#\s]*$/.test(path) || path.length > 1 && path.endsWith("/")) {
    throw new Error(`MessageRecallConfig: path (${JSON.stringify(path)}) must be an absolute pathname without trailing slash, query or fragment`);
  }
  const maxBodyBytes = input.maxBodyBytes ?? DEFAULTS.maxBodyBytes;
  if (typeof maxBodyBytes !== "number" || !Number.isSafeInteger(maxBodyBytes) || maxBodyBytes < 1) {
    throw new Error(`MessageRecallConfig: maxBodyBytes (${JSON.stringify(maxBodyBytes)}) must be a positive integer`);
  }
  const tombstoneText = input.tombstoneText ?? DEFAULTS.tombstoneText;
  if (typeof tombstoneText !== "string") {
    throw new Error(`MessageRecallConfig: tombstoneText (${JSON.stringify(tombstoneText)}) must be a string`);
  }
  const trustedHosts = input.trustedHosts ?? DEFAULTS.trustedHosts;
  if (!Array.isArray(trustedHosts) || trustedHosts.length === 0) {
    throw new Error(`MessageRecallConfig: trustedHosts (${JSON.stringify(trustedHosts)}) must be a non-empty list of host names`);
  }
  for (const host of trustedHosts) {
    if (typeof host !== "string" || !HOST_PATTERN.test(host.toLowerCase())) {
      throw new Error(`MessageRecallConfig: trustedHosts entry ${JSON.stringify(host)} is not a host name or host:port authority`);
    }
  }
  return Object.freeze({
    path,
    maxBodyBytes,
    tombstoneText,
    trustedHosts: Object.freeze(trustedHosts.map((host) => host.toLowerCase()))
  });
}

// src/host/stored-log-presence.ts
import { stat } from "node:fs/promises";
function isMissingPath(error) {
  const code = error?.code;
  return code === "ENOENT" || code === "ENOTDIR";
}
async function storedLogMissing(persistence, sessionId, header) {
  const located = header === void 0 ? void 0 : persistence.locate?.(header);
  if (located !== void 0) {
    try {
      await stat(located.path);
      return false;
    } catch (error) {
      return isMissingPath(error);
    }
  }
  if (persistence.supportsRawArtifacts !== true || persistence.readRaw === void 0) return false;
  try {
    return await persistence.readRaw(sessionId) === void 0;
  } catch (error) {
    return isMissingPath(error);
  }
}

// src/host/disk-summary-cache.ts
var DiskSummaryCache = class {
  /** @param summarize - the summary of a stored log (`summarizeStored`). */
  constructor(summarize) {
    this.summarize = summarize;
  }
  entries = /* @__PURE__ */ new Map();
  inFlight = /* @__PURE__ */ new Map();
  counts = { reads: 0, hits: 0, joined: 0 };
  /**
   * The summary of a stored log.
   * @param persistence - the persistence service.
   * @param sessionId - the session id.
   * @param header - the session's header when it is live (to find where its log belongs).
   * @returns the summary, or `null` when nothing is stored for that id or its log is gone from
   * its place.
   * @throws when the stored log is there but cannot be read or folded (the cache keeps nothing then).
   */
  async summary(persistence, sessionId, header) {
    try {
      return await this.read(persistence, sessionId);
    } catch (error) {
      if (await storedLogMissing(persistence, sessionId, header)) return this.forget(sessionId);
      throw error;
    }
  }
  async read(persistence, sessionId) {
    let revision;
    let header;
    if (persistence.listSnapshots !== void 0) {
      const snapshot = (await persistence.listSnapshots()).find((entry) => entry.header.id === sessionId);
      if (snapshot === void 0) return this.forget(sessionId);
      revision = String(snapshot.revision);
      header = snapshot.header;
      const cached = this.entries.get(sessionId);
      if (cached !== void 0 && cached.revision === revision) {
        this.counts.hits++;
        return cached.summary;
      }
    } else {
      header = (await persistence.list()).find((stored) => stored.id === sessionId);
      if (header === void 0) return this.forget(sessionId);
    }
    const running = this.inFlight.get(sessionId);
    if (running !== void 0) {
      this.counts.joined++;
      return running;
    }
    const read = (async () => {
      this.counts.reads++;
      const summary = this.summarize((await persistence.readFrom(sessionId, 0)).events, header);
      if (revision !== void 0) this.entries.set(sessionId, { revision, summary });
      return summary;
    })();
    this.inFlight.set(sessionId, read);
    try {
      return await read;
    } finally {
      this.inFlight.delete(sessionId);
    }
  }
  /** Counters since construction. */
  stats() {
    return { ...this.counts };
  }
  forget(sessionId) {
    this.entries.delete(sessionId);
    return null;
  }
};

// src/host/event-index.ts
var SessionEventIndex = class {
  entries = /* @__PURE__ */ new WeakMap();
  /**
   * Record an appended event (call from a `session/event` listener).
   * @param session - the session that appended.
   * @param event - the logged event; ignored when the session is not indexed yet, and the
   * entry is dropped (re-read on next use) when the event does not continue it.
   */
  observe(session, event) {
    const entry = this.entries.get(session);
    if (entry === void 0) return;
    if (event.seq === entry.base.length + entry.tail.length) entry.tail.push(event);
    else this.entries.delete(session);
  }
  /**
   * Forget a session (call from `session/disposed`).
   * @param session - the session to drop.
   */
  forget(session) {
    this.entries.delete(session);
  }
  /**
   * A lookup over the session's current log.
   * @param session - the session to read.
   * @returns `seq => event`, valid until the session's next append; O(1) per call. Reads
   * `session.events` (one copy of the log) only when the index is absent or out of step.
   */
  lookup(session) {
    let entry = this.entries.get(session);
    if (entry === void 0 || entry.base.length + entry.tail.length !== session.seq) {
      entry = { base: session.events, tail: [] };
      this.entries.set(session, entry);
    }
    const { base, tail } = entry;
    return (seq) => seq < base.length ? base[seq] : tail[seq - base.length];
  }
};

// src/host/host-log.ts
function hostLog(logger, stderr = process.stderr) {
  const print = (line) => {
    try {
      stderr.write(`${line}
`);
    } catch {
    }
  };
  return {
    warn(line) {
      logger.warn(line);
      print(line);
    },
    info(line) {
      logger.info(line);
      print(line);
    }
  };
}

// src/host/inspect.ts
import { foldSurface } from "@deepseek-ai/dsh-session";

// src/shared/events.ts
var SURFACE_EVENT_TYPES = ["user/message", "assistant/message", "tool/result"];
function isSeq(value) {
  return Number.isSafeInteger(value) && value >= 0;
}
function isRecord(value) {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

// src/shared/replace-op.ts
function replaceOp(start, end) {
  return { op: "replace", start, end };
}
function readReplaceOp(surfaceOp) {
  if (!isRecord(surfaceOp) || surfaceOp.op !== "replace") return null;
  const { start, end } = surfaceOp;
  if (!Number.isSafeInteger(start) || !Number.isSafeInteger(end)) return null;
  return { start, end };
}

// src/shared/tombstone.ts
var TOMBSTONE_PLUGIN = "dsh-message-recall";
function tombstoneSource(action, shadowedSeqs, batch) {
  return { kind: "plugin", plugin: TOMBSTONE_PLUGIN, action, removedSeqs: [...shadowedSeqs], ...batch === void 0 ? {} : { batch } };
}
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

// src/shared/restorable.ts
function notRestorableReason(kinds) {
  if (kinds.includes("tombstone")) return "absorbed-tombstone";
  if (kinds.includes("assistant") || kinds.includes("tool")) return "model-step";
  if (kinds.length !== 1) return "several-nodes";
  return kinds[0] === "user" ? null : "not-a-prompt";
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
function isStepMember(event, key) {
  if (event.type !== "assistant/message" && event.type !== "tool/result") return false;
  const data = event.data;
  return data !== null && typeof data === "object" && data.turn === key.turn && data.step === key.step;
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

// src/shared/summary-rewrite.ts
var CHECKPOINT_PLUGIN = "compact";
function rewriteCheckpointSource(compactionId, record) {
  return {
    kind: "plugin",
    plugin: CHECKPOINT_PLUGIN,
    compactionId,
    messageRecall: { removals: record.removals.map((r) => ({ action: r.action, seqs: [...r.seqs] })) }
  };
}
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
function summaryBlocksOf(checkpoint, lookup) {
  const summarySeq = checkpoint.sourceEventSeqs?.[1];
  const event = summarySeq === void 0 ? void 0 : lookup(summarySeq);
  return event?.type === "compaction/summary" && isRecord(event.data) && Array.isArray(event.data.summary) ? event.data.summary : null;
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

// src/shared/batch-mark.ts
var isSeq2 = (value) => typeof value === "number" && Number.isSafeInteger(value) && value >= 0;
function readBatchMark(event) {
  if (!isTombstoneEvent(event)) return null;
  const mark = event.data.source.batch;
  if (!isRecord(mark) || typeof mark.id !== "string" || !isSeq2(mark.write) || !isSeq2(mark.writes) || mark.write >= mark.writes) return null;
  const changes = Array.isArray(mark.changes) ? mark.changes : void 0;
  return { id: mark.id, write: mark.write, writes: mark.writes, ...changes === void 0 ? {} : { changes } };
}
function isShadowPrice(event) {
  return event !== void 0 && event.type === "compaction/prune" && readReplaceOp(event.surfaceOp) === null && isRecord(event.data) && isRecord(event.data.shadowedRange);
}
function cutBySeed(lastWrittenSeq, seedLength, lookup) {
  if (seedLength === void 0 || lastWrittenSeq >= seedLength) return false;
  for (let seq = lastWrittenSeq + 1; seq < seedLength; seq++) if (!isShadowPrice(lookup(seq))) return false;
  return true;
}
function cutShortBatches(count, lookup, seedLength) {
  const batches = /* @__PURE__ */ new Map();
  const restoredAt = /* @__PURE__ */ new Map();
  for (let seq = 0; seq < count; seq++) {
    const event = lookup(seq);
    if (event === void 0) continue;
    const mark = readBatchMark(event);
    if (mark !== null) {
      const seen = batches.get(mark.id) ?? { firstSeq: seq, lastSeq: seq, writes: mark.writes, written: /* @__PURE__ */ new Set(), changes: null };
      seen.written.add(mark.write);
      seen.lastSeq = seq;
      if (mark.changes !== void 0) seen.changes = mark.changes;
      batches.set(mark.id, seen);
      continue;
    }
    const restore = readRestore(event, lookup);
    if (restore !== null && !restoredAt.has(restore.tombstoneSeq)) restoredAt.set(restore.tombstoneSeq, seq);
  }
  const cut = [];
  for (const [id, seen] of batches) {
    for (const change of seen.changes ?? []) {
      const at = change.action === "restore" ? restoredAt.get(change.tombstoneSeq) ?? -1 : -1;
      if (at > seen.firstSeq) {
        seen.written.add(change.write);
        seen.lastSeq = Math.max(seen.lastSeq, at);
      }
    }
    if (seen.written.size >= seen.writes || cutBySeed(seen.lastSeq, seedLength, lookup)) continue;
    const missing = seen.changes === null ? null : seen.changes.flatMap((change, index) => seen.written.has(change.write) ? [] : [{ ...change, index }]);
    cut.push({ id, firstSeq: seen.firstSeq, writes: seen.writes, written: seen.written.size, changes: seen.changes?.length ?? null, missing });
  }
  return cut;
}

// src/host/inspect.ts
function tombstonesOf(count, lookup, onSurface) {
  const found = [];
  for (const status of readFates(replacementEvents(count, lookup)).statuses().values()) {
    const record = readTombstone(lookup(status.seq));
    if (record !== null) found.push({ ...record, onSurface: onSurface(record.seq), inEffect: status.inEffect, restoredBy: status.restoredBy });
  }
  return found;
}
function summarizeLive(session, lookup) {
  const nodes = new Set(session.surface.nodes);
  return {
    eventCount: session.seq,
    lastSeq: session.seq - 1,
    surfaceNodeCount: nodes.size,
    replaceGeneration: session.surface.replaceGeneration,
    tombstones: tombstonesOf(session.seq, lookup, (seq) => nodes.has(seq)),
    cutShortBatches: cutShortBatches(session.seq, lookup, session.header.seedLength)
  };
}
function summarizeStored(events, header) {
  const fold = foldSurface(events);
  const nodes = new Set(fold.nodes);
  return {
    eventCount: events.length,
    lastSeq: events.length - 1,
    surfaceNodeCount: fold.nodes.length,
    replaceGeneration: fold.replacements.length,
    tombstones: tombstonesOf(events.length, (seq) => events[seq], (seq) => nodes.has(seq)),
    cutShortBatches: cutShortBatches(events.length, (seq) => events[seq], header?.seedLength)
  };
}
async function inspectSession(services, sessionId) {
  const id = sessionId;
  const session = services.sessions.get(id);
  const live = session === void 0 ? null : summarizeLive(session, services.index.lookup(session));
  const disk = services.persistence === void 0 ? null : await services.diskSummaries.summary(services.persistence, sessionId, session?.header);
  if (live === null && disk === null) return { ok: false, refusal: { code: "SESSION_NOT_LIVE", sessionId } };
  return { ok: true, value: { live, disk } };
}

// src/shared/export-protocol.ts
var EXPORT_PATH_SUFFIX = "/export";
var EXPORT_STATUS = {
  INVALID_REQUEST: 400,
  FORBIDDEN: 403,
  SESSION_NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  AGENT_BUSY: 423,
  EXPORT_UNAVAILABLE: 501,
  INTERNAL: 500
};
function exportFilename(sessionId) {
  return `dsh-session-${sessionId.replace(/[^A-Za-z0-9_-]/g, "_")}-without-removed.zip`;
}

// src/host/json-keys.ts
var QUOTE = 34;
var BACKSLASH = 92;
var OPEN_OBJECT = 123;
var CLOSE_OBJECT = 125;
var OPEN_ARRAY = 91;
var CLOSE_ARRAY = 93;
var COMMA = 44;
var COLON = 58;
var LIST_KEYS = 8;
function findDuplicateKey(text) {
  const stack = [];
  let expectKey = false;
  let lastKey = null;
  const length = text.length;
  for (let i = 0; i < length; i++) {
    const code = text.charCodeAt(i);
    if (code === QUOTE) {
      let end = i + 1;
      let escaped = false;
      while (end < length && text.charCodeAt(end) !== QUOTE) {
        if (text.charCodeAt(end) === BACKSLASH) {
          escaped = true;
          end += 2;
        } else end += 1;
      }
      if (expectKey) {
        const frame = stack[stack.length - 1];
        const keys = frame.keys;
        const key = escaped ? JSON.parse(text.slice(i, end + 1)) : text.slice(i + 1, end);
        if (Array.isArray(keys) ? keys.includes(key) : keys.has(key)) return { key, path: stack.flatMap((open3) => open3.under === null ? [] : [open3.under]) };
        if (!Array.isArray(keys)) keys.add(key);
        else if (keys.length < LIST_KEYS) keys.push(key);
        else frame.keys = /* @__PURE__ */ new Set([...keys, key]);
        lastKey = key;
        expectKey = false;
      }
      i = end;
    } else if (code === OPEN_OBJECT) {
      stack.push({ keys: [], under: stack[stack.length - 1]?.keys ? lastKey : null });
      expectKey = true;
    } else if (code === OPEN_ARRAY) {
      stack.push({ keys: null, under: stack[stack.length - 1]?.keys ? lastKey : null });
      expectKey = false;
    } else if (code === CLOSE_OBJECT || code === CLOSE_ARRAY) {
      stack.pop();
      expectKey = false;
    } else if (code === COMMA) {
      expectKey = stack[stack.length - 1]?.keys != null;
    }
  }
  return null;
}
function countKeys(text) {
  let count = 0;
  for (let open3 = text.indexOf('"'); open3 !== -1; open3 = text.indexOf('"', open3)) {
    let close = text.indexOf('"', open3 + 1);
    for (; ; ) {
      if (close === -1) return count;
      let slashes = 0;
      while (text.charCodeAt(close - 1 - slashes) === BACKSLASH) slashes++;
      if (slashes % 2 === 0) break;
      close = text.indexOf('"', close + 1);
    }
    let next = close + 1;
    let code = text.charCodeAt(next);
    while (code === 32 || code === 10 || code === 13 || code === 9) code = text.charCodeAt(++next);
    if (code === COLON) count++;
    open3 = next;
  }
  return count;
}

// src/shared/error-text.ts
function errorText(error) {
  return error instanceof Error ? error.message : String(error);
}
var MESSAGE_PREFIX = "message-recall: ";
function withoutPrefix(message) {
  return message.startsWith(MESSAGE_PREFIX) ? message.slice(MESSAGE_PREFIX.length) : message;
}

// src/host/json-steps.ts
var JSON_STEP_ELEMENTS = 512;
function* jsonSteps(value) {
  const parts = [];
  function* write(item) {
    if (Array.isArray(item)) {
      if (item.length <= JSON_STEP_ELEMENTS) {
        parts.push(JSON.stringify(item));
        return;
      }
      parts.push("[");
      for (let start = 0; start < item.length; start += JSON_STEP_ELEMENTS) {
        if (start > 0) yield;
        const run = item.slice(start, start + JSON_STEP_ELEMENTS);
        const text = JSON.stringify(run);
        parts.push(start === 0 ? text.slice(1, -1) : `,${text.slice(1, -1)}`);
      }
      parts.push("]");
      return;
    }
    if (item === null || typeof item !== "object") {
      parts.push(JSON.stringify(item) ?? "null");
      return;
    }
    parts.push("{");
    let first = true;
    for (const [key, inner] of Object.entries(item)) {
      if (inner === void 0 || typeof inner === "function" || typeof inner === "symbol") continue;
      parts.push(`${first ? "" : ","}${JSON.stringify(key)}:`);
      first = false;
      yield* write(inner);
    }
    parts.push("}");
  }
  yield* write(value);
  return parts.join("");
}
function takesSteps(value) {
  if (Array.isArray(value)) return value.length > JSON_STEP_ELEMENTS;
  if (value === null || typeof value !== "object") return false;
  for (const inner of Object.values(value)) if (takesSteps(inner)) return true;
  return false;
}

// src/host/time-slice.ts
import { performance } from "node:perf_hooks";
import { setImmediate } from "node:timers/promises";
var SLICE_MS = 4;
var MAX_STEPS_PER_CHECK = 64;
async function runSliced(steps, sliceMs = SLICE_MS) {
  let checked = performance.now();
  let deadline = checked + sliceMs;
  let stepsPerCheck = 1;
  let sinceCheck = 0;
  for (; ; ) {
    const step = steps.next();
    if (step.done) return step.value;
    if (++sinceCheck < stepsPerCheck) continue;
    sinceCheck = 0;
    const now = performance.now();
    if (now >= deadline) {
      await setImmediate();
      checked = performance.now();
      deadline = checked + sliceMs;
      stepsPerCheck = 1;
      continue;
    }
    if (now - checked < sliceMs / 16) stepsPerCheck = Math.min(stepsPerCheck * 2, MAX_STEPS_PER_CHECK);
    else if (now - checked > sliceMs / 8) stepsPerCheck = Math.max(stepsPerCheck >> 1, 1);
    checked = now;
  }
}

// src/host/value-text.ts
var VALUE_TEXT_MAX = 80;
var VALUE_TEXT_DEPTH = 8;
var FULL = Symbol("full");
function valueText(value) {
  if (value === void 0) return "nothing";
  let text = "";
  const put = (part) => {
    text += part;
    if (text.length > VALUE_TEXT_MAX) throw FULL;
  };
  const write = (item, depth) => {
    if (item === null || typeof item !== "object") {
      put(typeof item === "string" ? JSON.stringify(item.length > VALUE_TEXT_MAX ? item.slice(0, VALUE_TEXT_MAX + 1) : item) : String(JSON.stringify(item)));
      return;
    }
    if (depth >= VALUE_TEXT_DEPTH) {
      put("…");
      return;
    }
    if (Array.isArray(item)) {
      put("[");
      item.forEach((element, i) => {
        if (i > 0) put(",");
        write(element, depth + 1);
      });
      put("]");
      return;
    }
    put("{");
    Object.keys(item).forEach((key, i) => {
      if (i > 0) put(",");
      put(`${JSON.stringify(key.length > VALUE_TEXT_MAX ? key.slice(0, VALUE_TEXT_MAX + 1) : key)}:`);
      write(item[key], depth + 1);
    });
    put("}");
  };
  try {
    write(value, 0);
    return text;
  } catch (error) {
    if (error !== FULL) throw error;
    return `${text.slice(0, VALUE_TEXT_MAX)}…`;
  }
}

// src/host/http.ts
function single(value) {
  return Array.isArray(value) ? value[0] : value;
}
function parseAuthority(host) {
  try {
    const url = new URL(`http://${host}`);
    if (url.username || url.password || url.pathname !== "/" || url.search || url.hash) return null;
    return { hostname: url.hostname, authority: url.host };
  } catch {
    return null;
  }
}
function checkTrust(headers, trustedHosts) {
  const host = single(headers.host);
  const parsed = host === void 0 ? null : parseAuthority(host);
  if (host === void 0) return { code: "FORBIDDEN", message: "message-recall: the Host header is missing" };
  if (parsed === null) return { code: "FORBIDDEN", message: `message-recall: Host header ${valueText(host)} is malformed` };
  if (!trustedHosts.includes(parsed.hostname) && !trustedHosts.includes(parsed.authority)) {
    return { code: "FORBIDDEN", message: `message-recall: Host "${parsed.authority}" is not a trusted host` };
  }
  const origin = single(headers.origin);
  if (origin !== void 0) {
    let originAuthority = null;
    try {
      const url = new URL(origin);
      if (url.protocol === "http:" || url.protocol === "https:") originAuthority = url.host;
    } catch {
      originAuthority = null;
    }
    if (originAuthority !== parsed.authority) {
      return { code: "FORBIDDEN", message: `message-recall: Origin "${origin}" is not the same origin as Host "${parsed.authority}"` };
    }
  }
  if (single(headers["sec-fetch-site"])?.toLowerCase() === "cross-site") {
    return { code: "FORBIDDEN", message: "message-recall: cross-site requests (sec-fetch-site: cross-site) are refused" };
  }
  return null;
}
function checkMethod(method) {
  return method === "POST" ? null : { code: "METHOD_NOT_ALLOWED", message: `message-recall: method ${method ?? "(none)"} is not allowed; use POST` };
}
function checkContentType(contentType) {
  const [type, ...params] = (contentType ?? "").split(";").map((part) => part.trim().toLowerCase());
  const charset = params.find((param) => param.startsWith("charset="))?.slice("charset=".length).replace(/^"|"$/g, "");
  if (type === "application/json" && (charset === void 0 || charset === "utf-8")) return null;
  if (contentType === void 0) return { code: "UNSUPPORTED_MEDIA_TYPE", message: "message-recall: the Content-Type header is missing; use application/json" };
  return { code: "UNSUPPORTED_MEDIA_TYPE", message: `message-recall: content type ${valueText(contentType)} is not application/json` };
}
function checkContentEncoding(contentEncoding) {
  const value = Array.isArray(contentEncoding) ? contentEncoding.join(", ") : contentEncoding;
  if (value === void 0 || value.split(",").every((coding) => coding.trim().toLowerCase() === "identity")) return null;
  return { code: "UNSUPPORTED_MEDIA_TYPE", message: `message-recall: content encoding ${valueText(value)} is not supported; send the body unencoded (identity)` };
}
function walkBody(value) {
  const stack = [value];
  let keys = 0;
  while (stack.length > 0) {
    const item = stack.pop();
    if (typeof item === "number") {
      if (isUnsafeNumber(item)) return { unsafe: true, keys };
    } else if (Array.isArray(item)) {
      for (let i = 0; i < item.length; i++) stack.push(item[i]);
    } else if (item !== null && typeof item === "object") {
      for (const key in item) {
        keys++;
        stack.push(item[key]);
      }
    }
  }
  return { unsafe: false, keys };
}
function isUnsafeNumber(item) {
  return !Number.isSafeInteger(item) && (Number.isInteger(item) || !Number.isFinite(item));
}
function readJsonBody(req, maxBytes) {
  const tooLarge = (bytes) => ({
    ok: false,
    refusal: { code: "PAYLOAD_TOO_LARGE", message: `message-recall: request body of ${bytes} bytes exceeds maxBodyBytes ${maxBytes}` }
  });
  const declared = Number(single(req.headers["content-length"]));
  if (Number.isFinite(declared) && declared > maxBytes) return Promise.resolve(tooLarge(String(declared)));
  return new Promise((resolve2, reject) => {
    const chunks = [];
    let size = 0;
    const cleanup = () => {
      req.off("data", onData);
      req.off("end", onEnd);
      req.off("error", onError);
    };
    const onData = (chunk) => {
      size += chunk.length;
      if (size > maxBytes) {
        cleanup();
        req.pause();
        resolve2(tooLarge(`more than ${maxBytes}`));
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = () => {
      cleanup();
      let text;
      try {
        text = new TextDecoder("utf-8", { fatal: true }).decode(Buffer.concat(chunks));
      } catch {
        resolve2({ ok: false, refusal: { code: "INVALID_REQUEST", message: "message-recall: request body is not valid UTF-8" } });
        return;
      }
      let value;
      let unsafe = null;
      try {
        value = JSON.parse(text);
      } catch (error) {
        resolve2({ ok: false, refusal: { code: "INVALID_REQUEST", message: `message-recall: request body is not JSON: ${errorText(error)}` } });
        return;
      }
      const walked = walkBody(value);
      if (walked.unsafe) {
        try {
          JSON.parse(text, function(key, item, context) {
            if (unsafe === null && typeof item === "number" && isUnsafeNumber(item)) {
              unsafe = { key, inArray: Array.isArray(this), source: context?.source ?? String(item) };
            }
            return item;
          });
        } catch {
        }
      }
      if (unsafe !== null) {
        const { key, inArray, source } = unsafe;
        const where = inArray ? `item ${key} of an array` : JSON.stringify(key.length > 80 ? `${key.slice(0, 80)}…` : key);
        resolve2({ ok: false, refusal: { code: "INVALID_REQUEST", message: `message-recall: the number ${source.length > 80 ? `${source.slice(0, 80)}…` : source} in ${where} is past the safe integer range (2^53 - 1); no field takes it` } });
        return;
      }
      const repeated = walked.unsafe || countKeys(text) !== walked.keys ? findDuplicateKey(text) : null;
      if (repeated !== null) {
        const where = repeated.path.length === 0 ? "the request body" : `"${repeated.path.join(".")}"`;
        resolve2({ ok: false, refusal: { code: "INVALID_REQUEST", message: `message-recall: key ${JSON.stringify(repeated.key)} appears twice in ${where}` } });
        return;
      }
      resolve2({ ok: true, value });
    };
    const onError = (error) => {
      cleanup();
      reject(error);
    };
    req.on("data", onData);
    req.on("end", onEnd);
    req.on("error", onError);
  });
}
function sendJson(res, status, body, headers = {}) {
  sendText(res, status, JSON.stringify(body), headers);
}
async function sendJsonInSlices(res, status, body, headers = {}) {
  sendText(res, status, takesSteps(body) ? await runSliced(jsonSteps(body)) : JSON.stringify(body), headers);
}
function sendText(res, status, text, headers) {
  res.writeHead(status, {
    "content-type": "application/json; charset=utf-8",
    "content-length": String(Buffer.byteLength(text)),
    "cache-control": "no-store",
    ...headers
  });
  res.end(text);
}

// src/host/shorten-paths.ts
var ABSOLUTE_PATH = /(?:(?<![\w])[A-Za-z]:\\|(?<![\w:/\\])\\\\|(?<![\w.~:/-])\/(?=[^\s/'"`]+\/))[^\s'"`,;()<>]*/g;
function shortenPaths(text) {
  return text.replace(ABSOLUTE_PATH, (path) => {
    const segments = path.split(/[\\/]/).filter((segment) => segment.length > 0);
    return `…/${segments.at(-1) ?? ""}`;
  });
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

// src/log/counted.ts
function forCount(count, one, other = `${one}s`) {
  return count === 1 ? one : other;
}
function counted(count, one, other = `${one}s`) {
  return `${count} ${forCount(count, one, other)}`;
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
function logWithoutRemovedContent(content, tombstoneSeq, inherited) {
  const log = parseLogText(content);
  if (log.seqProblem !== null) throw new Error(`the log's seqs are not contiguous from 0: ${log.seqProblem}`);
  return rewriteWithoutRemoved(log, tombstoneSeq, inherited);
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
function rewriteWithoutRemoved(log, tombstoneSeq, inherited) {
  const { lines, ...rest } = rewriteLinesWithoutRemoved(log, tombstoneSeq, inherited);
  return { ...rest, text: lines.join("\n") };
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
    const window = [];
    for (let p = from; p <= to; p++) window.push(this.eventAt(p));
    return this.splitAcross(window, (p) => p < from || p > to);
  }
  /**
   * Ids with one side (call or result) among the events of `window` and the other side at a
   * position of this index's list that `outside` accepts: {@link splitBy} for a window that is
   * not a run of this list (for example over an index of every node a fold ever held, where only
   * the nodes still on the surface count).
   * @param window - the events of a run of surface nodes, in surface order.
   * @param outside - whether the node at a position of this index's list counts as outside the window.
   * @returns the ids, calls opened inside first, then results answered inside, each in order; `[]` for a balanced window.
   */
  splitAcross(window, outside) {
    const split = /* @__PURE__ */ new Set();
    for (const event of window) for (const id of toolCallIds(event)) if (this.resultPositions(id).some(outside)) split.add(id);
    for (const event of window) {
      const id = toolResultCallId(event);
      if (id !== null && this.callPositions(id).some(outside)) split.add(id);
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
function nearestOutside(positions, a, b) {
  let before = -1;
  let after = -1;
  for (const p of positions) {
    if (p < a) before = p;
    else if (p > b && after === -1) after = p;
  }
  if (before === -1) return after;
  if (after === -1) return before;
  return a - before <= after - b ? before : after;
}
function nearestBefore(positions, idx) {
  let found = -1;
  for (const p of positions) if (p < idx) found = p;
  return found;
}

// src/host/reference-snapshot.ts
function originalPromptSeq(event, lookup) {
  let current = event;
  for (; ; ) {
    const cited = current.sourceEventSeqs;
    if (readReplaceOp(current.surfaceOp) === null || cited?.length !== 2) return current.seq;
    const original = lookup(cited[1]);
    if (original === void 0 || original.seq >= current.seq || classifyNode(original) !== "user") return current.seq;
    current = original;
  }
}
function snapshotCitedBy(nodes, lookup, promptIdx) {
  const next = promptIdx + 1;
  if (next >= nodes.length) return -1;
  const candidate = lookup(nodes[next]);
  const prompt = lookup(nodes[promptIdx]);
  if (candidate === void 0 || prompt === void 0 || classifyNode(candidate) !== "reference") return -1;
  return candidate.seq === originalPromptSeq(prompt, lookup) + 1 ? next : -1;
}

// src/host/surface-plan.ts
var NOT_DELETABLE_KINDS = /* @__PURE__ */ new Set(["tombstone", "checkpoint", "replacement", "context"]);
var SurfaceView = class {
  constructor(nodes, lookup) {
    this.nodes = nodes;
    this.lookup = lookup;
  }
  pairingIndex;
  get length() {
    return this.nodes.length;
  }
  seq(idx) {
    return this.nodes[idx];
  }
  event(idx) {
    const seq = this.nodes[idx];
    const event = this.lookup(seq);
    if (event === void 0 || event.seq !== seq) {
      throw new Error(`message-recall: surface seq ${seq} has no matching session event (corrupt surface)`);
    }
    return event;
  }
  nodeKind(idx) {
    return classifyNode(this.event(idx));
  }
  /** The tool-call pairing of these nodes, made on first use. */
  pairing() {
    this.pairingIndex ??= new ToolPairingIndex(this.nodes, (idx) => this.event(idx));
    return this.pairingIndex;
  }
};
function planRemoval(input) {
  const view = new SurfaceView(input.nodes, input.lookup);
  const found = resolveTarget(view, input.target, input.searchFrom ?? 0);
  if (typeof found !== "number") return { ok: false, refusal: found };
  const idx = found;
  const targetSeq = view.seq(idx);
  const targetEvent = view.event(idx);
  const targetNodeKind = classifyNode(targetEvent);
  const { plans, targets } = input.planning;
  if (targets === "prompt" && targetNodeKind !== "user") {
    return { ok: false, refusal: { code: "NOT_A_USER_MESSAGE", seq: targetSeq, nodeKind: targetNodeKind } };
  }
  if (NOT_DELETABLE_KINDS.has(targetNodeKind)) {
    const nodeKind = targetNodeKind;
    const refusal = nodeKind === "context" ? { code: "NOT_DELETABLE", seq: targetSeq, nodeKind, producer: producerOf(targetEvent) } : { code: "NOT_DELETABLE", seq: targetSeq, nodeKind };
    return { ok: false, refusal };
  }
  let startIdx = idx;
  let endIdx = idx;
  let stepKey2 = null;
  if (plans === "step" && (targetNodeKind === "assistant" || targetNodeKind === "tool")) {
    stepKey2 = stepOf(targetEvent);
    if (stepKey2 === null) throw new Error(`message-recall: model row seq ${targetSeq} carries no turn/step`);
    const span = stepSpan(view, idx, stepKey2);
    if ("code" in span) return { ok: false, refusal: span };
    [startIdx, endIdx] = [span.a, span.b];
  } else if (plans === "onward") {
    const widened = onwardStart(view, idx);
    startIdx = widened.startIdx;
    stepKey2 = widened.stepKey;
    endIdx = view.length - 1;
  } else if (targetNodeKind === "user") {
    const snapshotIdx = snapshotCitedBy(input.nodes, input.lookup, idx);
    if (snapshotIdx !== -1) endIdx = snapshotIdx;
  }
  const absorbed = [];
  while (startIdx > 0 && view.nodeKind(startIdx - 1) === "tombstone") absorbed.unshift(view.seq(--startIdx));
  while (endIdx < view.length - 1 && view.nodeKind(endIdx + 1) === "tombstone") absorbed.push(view.seq(++endIdx));
  const shadowedSeqs = input.nodes.slice(startIdx, endIdx + 1);
  const nodeKinds = [];
  for (let p = startIdx; p <= endIdx; p++) nodeKinds.push(view.nodeKind(p));
  return {
    ok: true,
    plan: {
      targetSeq,
      targetNodeKind,
      start: view.seq(startIdx),
      end: view.seq(endIdx),
      startIdx,
      endIdx,
      shadowedSeqs,
      nodeKinds,
      absorbedTombstoneSeqs: absorbed,
      stepKey: stepKey2
    }
  };
}
function positionOf(nodes, seq, from) {
  const start = Math.min(Math.max(0, from), nodes.length);
  const idx = nodes.indexOf(seq, start);
  return idx !== -1 || start === 0 ? idx : nodes.lastIndexOf(seq, start - 1);
}
function resolveTarget(view, target, searchFrom) {
  if ("seq" in target) {
    const idx = positionOf(view.nodes, target.seq, searchFrom);
    return idx === -1 ? { code: "TARGET_NOT_FOUND", target, reason: "not-on-surface", matchingSeqs: [] } : idx;
  }
  const matches = [];
  for (let p = 0; p < view.length; p++) if (messageIdOf(view.event(p)) === target.messageId) matches.push(p);
  if (matches.length === 1) return matches[0];
  return {
    code: "TARGET_NOT_FOUND",
    target,
    reason: matches.length === 0 ? "unknown-message-id" : "ambiguous-message-id",
    matchingSeqs: matches.map((p) => view.seq(p))
  };
}
function stepEdges(view, idx, key) {
  let a = idx;
  let b = idx;
  for (let p = idx - 1; p >= 0; p--) {
    const event = view.event(p);
    if (event.type === "user/message") continue;
    if (!isStepMember(event, key)) break;
    a = p;
  }
  for (let p = idx + 1; p < view.length; p++) {
    const event = view.event(p);
    if (event.type === "user/message") continue;
    if (!isStepMember(event, key)) break;
    b = p;
  }
  return { a, b };
}
function stepSpan(view, idx, key) {
  const { a, b } = stepEdges(view, idx, key);
  const refuse2 = (foreignIdx) => ({
    code: "SPAN_NOT_CONTIGUOUS",
    seq: view.seq(idx),
    turn: key.turn,
    step: key.step,
    foreignSeq: view.seq(foreignIdx)
  });
  for (let p = a + 1; p < b; p++) if (!isStepMember(view.event(p), key)) return refuse2(p);
  const pairing = view.pairing();
  const { calls, answered } = pairing.window(a, b);
  for (const id of calls) {
    if (answered.has(id)) continue;
    const partner = nearestOutside(pairing.resultPositions(id), a, b);
    if (partner !== -1) return refuse2(firstNonMemberBetween(view, partner, a, b, key));
  }
  for (const id of answered) {
    if (calls.has(id)) continue;
    const partner = nearestOutside(pairing.callPositions(id), a, b);
    if (partner !== -1) return refuse2(firstNonMemberBetween(view, partner, a, b, key));
  }
  return { a, b };
}
function firstNonMemberBetween(view, partner, a, b, key) {
  if (partner < a) {
    for (let p = a - 1; p > partner; p--) if (!isStepMember(view.event(p), key)) return p;
  } else {
    for (let p = b + 1; p < partner; p++) if (!isStepMember(view.event(p), key)) return p;
  }
  return partner;
}
function onwardStart(view, idx) {
  let startIdx = idx;
  let stepKey2 = stepOf(view.event(idx));
  if (stepKey2 !== null) startIdx = stepEdges(view, idx, stepKey2).a;
  const pairing = view.pairing();
  const inRange = pairing.window(startIdx, view.length - 1);
  const unresolvable = /* @__PURE__ */ new Set();
  for (; ; ) {
    let partner = -1;
    for (const id of inRange.answered) {
      if (inRange.calls.has(id) || unresolvable.has(id)) continue;
      const found = nearestBefore(pairing.callPositions(id), startIdx);
      if (found === -1) unresolvable.add(id);
      else partner = partner === -1 ? found : Math.min(partner, found);
    }
    if (partner === -1) return { startIdx, stepKey: stepKey2 };
    stepKey2 = stepOf(view.event(partner));
    const next = stepKey2 === null ? partner : stepEdges(view, partner, stepKey2).a;
    pairing.extend(inRange, next, startIdx - 1);
    startIdx = next;
  }
}
var QUOTED_ID_MAX = 80;
function quotedMessageId(id) {
  if (id.length <= QUOTED_ID_MAX) return `"${id}"`;
  const end = /[\uD800-\uDBFF]/.test(id[QUOTED_ID_MAX - 1]) ? QUOTED_ID_MAX - 1 : QUOTED_ID_MAX;
  return `"${id.slice(0, end)}…" (${id.length} characters)`;
}
function describePlanRefusal(refusal) {
  switch (refusal.code) {
    case "TARGET_NOT_FOUND": {
      const { target } = refusal;
      if ("seq" in target) return `message-recall: target seq ${target.seq} is not on the current surface`;
      if (refusal.reason === "ambiguous-message-id") {
        return `message-recall: message id ${quotedMessageId(target.messageId)} is carried by ${refusal.matchingSeqs.length} surface nodes (seqs ${refusal.matchingSeqs.join(", ")}); address one by seq`;
      }
      return `message-recall: no current surface node carries message id ${quotedMessageId(target.messageId)}`;
    }
    case "NOT_A_USER_MESSAGE":
      return `message-recall: seq ${refusal.seq} is ${NODE_KIND_PHRASE[refusal.nodeKind]}, not a message the person sent; only those can be recalled`;
    case "NOT_DELETABLE":
      return `message-recall: seq ${refusal.seq} cannot be removed: ${notDeletableReason(refusal)}`;
    case "SPAN_NOT_CONTIGUOUS":
      return `message-recall: turn ${refusal.turn} step ${refusal.step} of seq ${refusal.seq} is not contiguous on the surface: seq ${refusal.foreignSeq} sits inside it`;
  }
}
var NODE_KIND_PHRASE = {
  user: "a user node",
  reference: "a session-reference snapshot",
  context: "a context node",
  tombstone: "a tombstone node",
  checkpoint: "a checkpoint node",
  replacement: "a replacement node",
  assistant: "an assistant node",
  tool: "a tool node"
};
var RUNTIME_CONTEXT_PRODUCER = "@deepseek-ai/dsh-system-prompt";
function producerOf(event) {
  const source = event.data?.source;
  if (source === null || typeof source !== "object") return "unknown";
  const { kind, plugin } = source;
  if (kind === "plugin" && typeof plugin === "string") return plugin;
  return typeof kind === "string" ? kind : "unknown";
}
function notDeletableReason(refusal) {
  switch (refusal.nodeKind) {
    case "tombstone":
      return "it is a tombstone of this plugin, which stands for messages already removed; a restore or a copy from before it undoes it";
    case "checkpoint":
      if (refusal.wholeSummary === true) return "Delete onward from it would take every message the compaction summary is made from, and a summary of nothing cannot be written; start Delete onward at a later summarized message, or remove the messages after the summary";
      return "it is a compaction checkpoint, which stands for the messages compaction folded; they are no longer on the surface to remove";
    case "replacement":
      return "it is another plugin's surface replacement, which that plugin owns";
    case "context":
      return refusal.producer === RUNTIME_CONTEXT_PRODUCER ? "it is the agent loop's runtime context, which the loop injects again at the next step once it is gone" : `it is context that "${refusal.producer ?? "unknown"}" injected, not a message the person caused; only those and the model's steps can be removed`;
  }
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

// src/host/restore-plan.ts
function planRestore(input) {
  const { tombstoneSeq, lookup } = input;
  const event = lookup(tombstoneSeq);
  const record = event === void 0 || event.seq !== tombstoneSeq ? null : readTombstone(event);
  if (record === null) return { ok: false, refusal: { code: "TARGET_NOT_FOUND", tombstoneSeq, reason: "not-a-tombstone" } };
  if (erasedMarkOf(event) !== null) return { ok: false, refusal: { code: "TARGET_NOT_FOUND", tombstoneSeq, reason: "erased" } };
  if (!input.nodes.includes(tombstoneSeq)) return { ok: false, refusal: { code: "TARGET_NOT_FOUND", tombstoneSeq, reason: "not-on-surface" } };
  const shadowed = record.shadowedSeqs.map((seq) => {
    const node = lookup(seq);
    if (node === void 0 || node.seq !== seq) throw new Error(`message-recall: tombstone seq ${tombstoneSeq} shadows seq ${seq}, which has no session event (corrupt log)`);
    return node;
  });
  const kinds = shadowed.map((node) => classifyNode(node));
  const refuse2 = (reason2) => ({ ok: false, refusal: { code: "NOT_RESTORABLE", tombstoneSeq, reason: reason2, shadowedSeqs: record.shadowedSeqs, nodeKinds: kinds } });
  const reason = notRestorableReason(kinds);
  if (reason !== null) return refuse2(reason);
  const original = shadowed[0];
  const messageId = messageIdOf(original);
  if (messageId === null) return refuse2("not-a-prompt");
  return {
    ok: true,
    plan: {
      tombstoneSeq,
      tombstoneAction: record.action,
      originalSeq: original.seq,
      messageId,
      data: original.data,
      start: tombstoneSeq,
      end: tombstoneSeq,
      sourceEventSeqs: [tombstoneSeq, original.seq]
    }
  };
}
var KIND_NOUN = {
  user: ["message the person sent", "messages the person sent"],
  reference: ["session-reference snapshot", "session-reference snapshots"],
  context: ["context message", "context messages"],
  tombstone: ["tombstone", "tombstones"],
  checkpoint: ["compaction checkpoint", "compaction checkpoints"],
  replacement: ["replacement", "replacements"],
  assistant: ["assistant message", "assistant messages"],
  tool: ["tool result", "tool results"]
};
function describeRestoreRefusal(refusal) {
  if (refusal.code === "TARGET_NOT_FOUND") {
    if (refusal.reason === "erased") return `message-recall: removal ${refusal.tombstoneSeq} was erased for good; nothing of it can come back (no restore, no copy from before it)`;
    return refusal.reason === "not-a-tombstone" ? `message-recall: seq ${refusal.tombstoneSeq} is not a tombstone of this plugin` : `message-recall: tombstone seq ${refusal.tombstoneSeq} is no longer on the surface (already restored, absorbed by a later removal, or compacted)`;
  }
  const seqs = refusal.shadowedSeqs.join(", ");
  const why = {
    "absorbed-tombstone": `absorbed an earlier tombstone (it shadows seqs ${seqs})`,
    "model-step": `shadows a model step (seqs ${seqs}: ${describeKinds(refusal.nodeKinds)}), which cannot be put back in place outside a turn`,
    "several-nodes": `shadows ${refusal.shadowedSeqs.length} messages (seqs ${seqs})`,
    "not-a-prompt": `shadows seq ${seqs}, which is not a message the person sent`
  };
  return `message-recall: tombstone seq ${refusal.tombstoneSeq} cannot be undone in place: it ${why[refusal.reason]}; open a copy of the conversation from before it instead (action "forkBefore")`;
}
function describeKinds(kinds) {
  const counts = /* @__PURE__ */ new Map();
  for (const kind of kinds) counts.set(kind, (counts.get(kind) ?? 0) + 1);
  return [...counts].map(([kind, n]) => `${n} ${KIND_NOUN[kind][n === 1 ? 0 : 1]}`).join(", ");
}

// src/host/refusals.ts
function noSessionMessage(sessionId) {
  return `message-recall: no session "${sessionId}" (neither open in this host nor stored)`;
}
function needsAgent(sessionId) {
  return { code: "SESSION_NOT_LIVE", sessionId, reason: "needs-agent" };
}
var MessageRecallError = class extends Error {
  /**
   * @param code - `PERSIST_FAILED` or `INTERNAL`.
   * @param message - prefixed `message-recall:` with the offending values.
   * @param options - `{ cause, details }`.
   */
  constructor(code, message, options) {
    super(message, options);
    this.code = code;
    this.name = "MessageRecallError";
    this.details = options?.details ?? {};
  }
  /** Extra fields of the error body (`applied`, `value`, `content`, `text`; see `RouteError`). */
  details;
};
function describeRefusal(refusal) {
  if ("message" in refusal) return refusal.message;
  switch (refusal.code) {
    case "STALE_VIEW":
      return describeStaleView(refusal);
    case "AGENT_BUSY":
      return `message-recall: session "${refusal.sessionId}" is busy: ${refusal.detail}`;
    case "SESSION_NOT_LIVE":
      return refusal.reason === "needs-agent" ? `message-recall: session "${refusal.sessionId}" is not open in this host; a compaction summary is rewritten, edited or put back only while the session is open (its agent writes the summary): open it, then try again` : refusal.reason === "not-live" ? `message-recall: no live session "${refusal.sessionId}"` : noSessionMessage(refusal.sessionId);
    case "NOT_A_SUMMARY":
      return `message-recall: seq ${refusal.seq} ${refusal.reason === "not-a-checkpoint" ? "is not a compaction summary" : refusal.reason === "not-on-surface" ? "is a compaction summary no longer on the surface (a later compaction or removal replaced it)" : "is not a summary rewrite of this plugin; only those can be undone"}`;
    case "SUMMARY_FAILED":
      return `message-recall: the summary of session "${refusal.sessionId}" was not rewritten (${refusal.reason}): ${refusal.detail}`;
    case "NOT_RESTORABLE":
      return describeRestoreRefusal(refusal);
    default:
      return "tombstoneSeq" in refusal ? describeRestoreRefusal(refusal) : describePlanRefusal(refusal);
  }
}
function describeStaleView(refusal) {
  const { expected, changed } = refusal;
  if (refusal.newerSeq !== null) return `message-recall: surface node seq ${refusal.newerSeq} is newer than the expected last seq ${expected.lastSeq}`;
  if (changed !== void 0) {
    const since = expected.lastSeq === void 0 ? "" : ` since seq ${expected.lastSeq}`;
    const back = changed.cameBackSeqs.length === 0 ? "" : ` (${changed.cameBackSeqs.length === 1 ? "seq" : "seqs"} ${changed.cameBackSeqs.join(", ")} came back by a restore after the plan)`;
    const confirmed = counted(expected.removedCount ?? 0, "message");
    if (!changed.surfaceChanged) return `message-recall: the confirmed plan removes ${confirmed}, but this write removes ${changed.removedCount}${back}`;
    return `message-recall: the confirmed plan removes ${confirmed}, but the surface changed${since} and this write would now remove ${changed.removedCount}${back}`;
  }
  if (refusal.ownReplacements === 0) return `message-recall: surface replaceGeneration is ${refusal.replaceGeneration}, expected ${expected.replaceGeneration}`;
  const own = counted(refusal.ownReplacements, "replacement");
  return `message-recall: surface replaceGeneration is ${refusal.replaceGeneration}, ${refusal.replaceGeneration - refusal.ownReplacements} without this plugin's ${own} after seq ${expected.lastSeq}; expected ${expected.replaceGeneration}`;
}

// src/host/session-export.ts
var MEDIA_EXTENSIONS = { "image/png": "png", "image/jpeg": "jpg", "image/webp": "webp", "image/gif": "gif" };
function inheritedFrom(content, parentId, parent) {
  if (parent === void 0) return void 0;
  let header;
  try {
    header = JSON.parse(content.slice(0, content.indexOf("\n") === -1 ? content.length : content.indexOf("\n")));
  } catch {
    return void 0;
  }
  const below = header.seedLength;
  if (header.parentSession !== parentId || typeof below !== "number" || !Number.isSafeInteger(below) || below <= 0) return void 0;
  return { below, at: parent };
}
function safeSegment(id) {
  return id.replace(/[^A-Za-z0-9_-]/g, "_");
}
async function readFlushed(services, persistence, id, signal) {
  const live = services.sessions.get(id);
  if (live !== void 0) await services.sessions.flush(live);
  signal?.throwIfAborted();
  return persistence.readRaw(id, signal);
}
async function prepareExport(services, sessionId, signal) {
  const persistence = services.persistence();
  const lineage = services.lineage();
  const images = services.images();
  if (persistence === void 0 || !persistence.supportsRawArtifacts || lineage === void 0 || images === void 0) {
    return { ok: false, refusal: { code: "EXPORT_UNAVAILABLE", message: "message-recall: the export needs the session persistence (with raw logs), session query and attachments services, as DSH's own Session log export does" } };
  }
  const agent = services.agents.get(sessionId);
  let root;
  if (agent !== void 0) {
    let read;
    try {
      read = agent.runMaintenance(() => readFlushed(services, persistence, sessionId, signal));
    } catch (error) {
      return { ok: false, refusal: { code: "AGENT_BUSY", message: `message-recall: session "${sessionId}" is busy: ${errorText(error)}` } };
    }
    root = await read;
  } else {
    root = await readFlushed(services, persistence, sessionId, signal);
  }
  if (root === void 0) return { ok: false, refusal: { code: "SESSION_NOT_FOUND", message: noSessionMessage(sessionId) } };
  const rootLog = logWithoutRemovedContent(root.content);
  const rootFile = root.filename;
  return {
    ok: true,
    value: {
      eventCount: rootLog.eventCount,
      carrierCount: rootLog.carriers.size,
      async *entries(entrySignal) {
        const media = new Map(rootLog.images);
        yield { path: rootFile, data: rootLog.text };
        const seen = /* @__PURE__ */ new Set([sessionId]);
        const removals = /* @__PURE__ */ new Map([[sessionId, rootLog.removedAt]]);
        const trace = await lineage.traceSession(sessionId, entrySignal);
        const pending = trace.descendants.map((node) => ({ node, parentId: sessionId }));
        while (pending.length > 0) {
          entrySignal?.throwIfAborted();
          const { node, parentId } = pending.shift();
          const id = node.session.header.id;
          if (seen.has(id)) continue;
          seen.add(id);
          pending.unshift(...node.descendants.map((child) => ({ node: child, parentId: id })));
          const raw = await readFlushed(services, persistence, id, entrySignal);
          if (raw === void 0) throw new Error(`message-recall: subagent "${id}" has no stored log artifact`);
          const log = logWithoutRemovedContent(raw.content, void 0, inheritedFrom(raw.content, parentId, removals.get(parentId)));
          removals.set(id, log.removedAt);
          for (const [key, ref] of log.images) if (!media.has(key)) media.set(key, ref);
          yield { path: `subagents/${safeSegment(id)}/${raw.filename}`, data: log.text };
        }
        for (const [key, ref] of media) {
          entrySignal?.throwIfAborted();
          const stored = await images.readImage(ref, entrySignal);
          yield { path: `media/${key}.${MEDIA_EXTENSIONS[ref.mediaType] ?? "bin"}`, data: stored.data };
        }
      }
    }
  };
}

// src/host/zip-writer.ts
import { promisify } from "node:util";
import { crc32, deflateRaw } from "node:zlib";
var deflate = promisify(deflateRaw);
var ZIP_DEFLATE_LEVEL = 6;
var LIMIT_32 = 4294967295;
var LIMIT_16 = 65535;
function dosTime(when) {
  const year = Math.max(1980, when.getFullYear());
  return {
    time: when.getHours() << 11 | when.getMinutes() << 5 | Math.floor(when.getSeconds() / 2),
    date: year - 1980 << 9 | when.getMonth() + 1 << 5 | when.getDate()
  };
}
var ZipWriter = class {
  /**
   * @param write - takes the next bytes of the archive; resolves when the consumer can take more.
   * @param when - modification time written into every entry (default: now).
   */
  constructor(write, when = /* @__PURE__ */ new Date()) {
    this.write = write;
    this.stamp = dosTime(when);
  }
  records = [];
  offset = 0;
  stamp;
  async emit(bytes) {
    this.offset += bytes.length;
    if (this.offset > LIMIT_32) throw new Error("zip-writer: the archive passes 4 GiB, which needs ZIP64 (not written)");
    await this.write(bytes);
  }
  /**
   * Deflate and write one entry.
   * @param path - the entry name (`/`-separated, UTF-8).
   * @param data - the entry's bytes (a string is written as UTF-8).
   * @throws past 65,535 entries or 4 GiB (no ZIP64).
   */
  async add(path, data) {
    const bytes = typeof data === "string" ? Buffer.from(data, "utf8") : data;
    if (this.records.length >= LIMIT_16) throw new Error("zip-writer: more than 65535 entries need ZIP64 (not written)");
    if (bytes.length > LIMIT_32) throw new Error(`zip-writer: entry "${path}" passes 4 GiB, which needs ZIP64 (not written)`);
    const compressed = await deflate(bytes, { level: ZIP_DEFLATE_LEVEL });
    const name2 = Buffer.from(path, "utf8");
    const record = { name: name2, crc: crc32(bytes) >>> 0, compressedSize: compressed.length, size: bytes.length, offset: this.offset };
    const header = Buffer.alloc(30);
    header.writeUInt32LE(67324752, 0);
    header.writeUInt16LE(20, 4);
    header.writeUInt16LE(2048, 6);
    header.writeUInt16LE(8, 8);
    header.writeUInt16LE(this.stamp.time, 10);
    header.writeUInt16LE(this.stamp.date, 12);
    header.writeUInt32LE(record.crc, 14);
    header.writeUInt32LE(record.compressedSize, 18);
    header.writeUInt32LE(record.size, 22);
    header.writeUInt16LE(name2.length, 26);
    header.writeUInt16LE(0, 28);
    await this.emit(Buffer.concat([header, name2, compressed]));
    this.records.push(record);
  }
  /** Write the central directory and its end record; nothing may be added afterwards. */
  async finish() {
    const start = this.offset;
    const parts = [];
    for (const record of this.records) {
      const entry = Buffer.alloc(46);
      entry.writeUInt32LE(33639248, 0);
      entry.writeUInt16LE(20, 4);
      entry.writeUInt16LE(20, 6);
      entry.writeUInt16LE(2048, 8);
      entry.writeUInt16LE(8, 10);
      entry.writeUInt16LE(this.stamp.time, 12);
      entry.writeUInt16LE(this.stamp.date, 14);
      entry.writeUInt32LE(record.crc, 16);
      entry.writeUInt32LE(record.compressedSize, 20);
      entry.writeUInt32LE(record.size, 24);
      entry.writeUInt16LE(record.name.length, 28);
      entry.writeUInt32LE(record.offset, 42);
      parts.push(entry, record.name);
    }
    const directory = Buffer.concat(parts);
    const end = Buffer.alloc(22);
    end.writeUInt32LE(101010256, 0);
    end.writeUInt16LE(this.records.length, 8);
    end.writeUInt16LE(this.records.length, 10);
    end.writeUInt32LE(directory.length, 12);
    end.writeUInt32LE(start, 16);
    await this.emit(Buffer.concat([directory, end]));
  }
};

// src/host/batch-request.ts
var MAX_BATCH_CHANGES = 1e4;
var FIELDS = ["sessionId", "action", "changes", "expect"];
function takesNoText(label, field, fields, owner = label) {
  return `${label} takes no ${field} (fields of ${owner}: ${fields.join(", ")})`;
}
var PLAN_FIELDS = [...FIELDS, "detail"];
function batchFieldsOf(action) {
  return action === "plan" ? PLAN_FIELDS : FIELDS;
}
var DETAILS = ["writes", "counts"];
function parseBatchRequest(body, expect) {
  const invalid = (message, index) => ({
    ok: false,
    refusal: { code: "INVALID_REQUEST", message: `message-recall: ${message}`, ...index === void 0 ? {} : { index } }
  });
  const { detail } = body;
  if (detail !== void 0 && !DETAILS.includes(detail)) return invalid(`detail must be one of ${DETAILS.join(", ")}, got ${valueText(detail)}`);
  const { changes } = body;
  if (!Array.isArray(changes) || changes.length === 0) return invalid(`changes must be a non-empty array, got ${valueText(changes)}`);
  if (changes.length > MAX_BATCH_CHANGES) return invalid(`changes holds ${changes.length} entries; at most ${MAX_BATCH_CHANGES} are accepted`);
  const out = [];
  const at = (i) => `changes[${i}]`;
  for (let i = 0; i < changes.length; i++) {
    const change = changes[i];
    if (!isRecord(change)) return invalid(`${at(i)} must be an object, got ${valueText(change)}`, i);
    const { action } = change;
    if (!BATCH_ACTIONS.includes(action)) return invalid(`${at(i)}.action must be one of ${BATCH_ACTIONS.join(", ")}, got ${valueText(action)}`, i);
    const removal = isTombstoneAction(action);
    const key = removal ? "seq" : "tombstoneSeq";
    const extra = Object.keys(change).find((k) => k !== "action" && k !== key);
    if (extra !== void 0) return invalid(takesNoText(`${at(i)} (${action})`, extra, ["action", key], `a ${action} change`), i);
    if (!isSeq(change[key])) return invalid(`${at(i)}.${key} must be a non-negative safe integer, got ${valueText(change[key])}`, i);
    out.push(change);
  }
  return { ok: true, request: { action: body.action, sessionId: body.sessionId, changes: out, ...expect === void 0 ? {} : { expect }, ...detail === void 0 ? {} : { detail } } };
}

// src/host/request.ts
var MAX_SESSION_ID_LENGTH = 512;
var MAX_MESSAGE_ID_LENGTH = 512;
var FIELD_TABLE = [
  ["sessionId", "*"],
  ["action", "*"],
  ["seq", [...TOMBSTONE_ACTIONS, "plan"]],
  ["messageId", [...TOMBSTONE_ACTIONS, "plan"]],
  ["tombstoneSeq", ["restore", "forkBefore", "erase", "cancelErase"]],
  ["planAction", ["plan"]],
  ["checkpointSeq", ["editSummary", "undoRewrite", "rewriteSummary", "plan"]],
  ["summary", ["editSummary"]],
  ["expect", [...TOMBSTONE_ACTIONS, "restore", "plan", "apply", "editSummary", "undoRewrite", "rewriteSummary"]],
  ["changes", ["apply", "plan"]],
  ["detail", ["plan"]],
  // `now` (default) or `next-start`: kept for the host's next start; asked again for a removal whose
  // erase failed at a start, the failed record is made pending again (no field of its own).
  ["when", ["erase"]]
];
var REQUEST_FIELDS = FIELD_TABLE.map(([field]) => field);
var FIELDS2 = REQUEST_FIELDS;
function fieldsOf(action) {
  return FIELD_TABLE.filter(([, actions]) => actions === "*" || actions.includes(action)).map(([field]) => field);
}
function strayField(body, label, fields) {
  const field = Object.keys(body).find((key) => !fields.includes(key));
  if (field === void 0) return void 0;
  return { field, text: FIELDS2.includes(field) ? takesNoText(label, field, fields) : unknownFieldText(field) };
}
function unknownFieldText(field) {
  return `unknown field "${field}" (allowed: ${FIELDS2.join(", ")})`;
}
var REMOVAL_PLAN_FIELDS = FIELDS2.filter((field) => field === "planAction" || fieldsOf("delete").includes(field));
function checkSessionId(sessionId) {
  if (typeof sessionId !== "string" || sessionId.length === 0) return { ok: false, problem: `sessionId must be a non-empty string, got ${valueText(sessionId)}` };
  if (sessionId.length > MAX_SESSION_ID_LENGTH) return { ok: false, problem: `sessionId must be at most ${MAX_SESSION_ID_LENGTH} characters, got ${sessionId.length}` };
  return { ok: true, sessionId };
}
var EXPECT_FIELDS = ["replaceGeneration", "lastSeq", "removedCount"];
function parseRouteRequest(body) {
  const invalid = (message) => ({ ok: false, refusal: { code: "INVALID_REQUEST", message: `message-recall: ${message}` } });
  if (!isRecord(body)) return invalid(`request body must be a JSON object, got ${body === null ? "null" : Array.isArray(body) ? "an array" : `a ${typeof body}`}`);
  if (body.action === "editSummary" || body.action === "undoRewrite") return parseSummaryEdit(body, invalid);
  if (body.action === "rewriteSummary" || body.action === "plan" && body.planAction === "rewriteSummary") return parseSummaryRefresh(body, invalid);
  if (body.action === "plan" && body.planAction === "erase") return parseErasePlan(body, invalid);
  const unknown = Object.keys(body).find((key) => !FIELDS2.includes(key));
  if (unknown !== void 0) return invalid(unknownFieldText(unknown));
  const { action, seq, messageId, planAction, expect } = body;
  const checked = checkSessionId(body.sessionId);
  if (!checked.ok) return invalid(checked.problem);
  const { sessionId } = checked;
  if (!ROUTE_ACTIONS.includes(action)) return invalid(`action must be one of ${ROUTE_ACTIONS.join(", ")}, got ${valueText(action)}`);
  if (action === "apply" || action === "plan" && body.changes !== void 0) {
    const stray2 = strayField(body, action === "apply" ? "apply" : "plan with changes", batchFieldsOf(action));
    if (stray2 !== void 0) return invalid(stray2.text);
    const expectation2 = parseExpect(expect);
    if (typeof expectation2 === "string") return invalid(expectation2);
    return parseBatchRequest(body, expectation2);
  }
  const addressesTombstone = action === "forkBefore" || action === "erase" || action === "cancelErase" || action !== "plan" && ACTIONS[action]?.plans === "restore";
  const [label, fields] = action === "plan" ? [`plan of ${isTombstoneAction(planAction) ? planAction : "a removal"}`, REMOVAL_PLAN_FIELDS] : [action, fieldsOf(action)];
  const stray = strayField(body, label, fields);
  if (stray !== void 0) {
    const byTombstone = addressesTombstone && (stray.field === "seq" || stray.field === "messageId");
    return invalid(byTombstone ? `${stray.text}; address the tombstone by tombstoneSeq` : stray.text);
  }
  if (action === "inspect" || action === "flush" || action === "pendingErases") return { ok: true, request: { action, sessionId } };
  let plannedAction;
  if (action === "plan") {
    if (!isTombstoneAction(planAction)) {
      return invalid(`planAction must be one of ${[...TOMBSTONE_ACTIONS, "rewriteSummary", "erase"].join(", ")}, got ${valueText(planAction)}`);
    }
    plannedAction = planAction;
  }
  const expectation = parseExpect(expect);
  if (typeof expectation === "string") return invalid(expectation);
  const withExpect = expectation === void 0 ? {} : { expect: expectation };
  if (addressesTombstone) {
    const { tombstoneSeq } = body;
    if (!isSeq(tombstoneSeq)) return invalid(`tombstoneSeq must be a non-negative safe integer, got ${valueText(tombstoneSeq)}`);
    if (action === "erase") {
      const { when } = body;
      if (when !== void 0 && !ERASE_WHEN.includes(when)) return invalid(`when must be one of ${ERASE_WHEN.join(", ")}, got ${valueText(when)}`);
      return { ok: true, request: { action, sessionId, tombstoneSeq, ...when === void 0 ? {} : { when } } };
    }
    return action === "forkBefore" || action === "cancelErase" ? { ok: true, request: { action, sessionId, tombstoneSeq } } : { ok: true, request: { action: "restore", sessionId, tombstoneSeq, ...withExpect } };
  }
  if (seq !== void 0 && !isSeq(seq)) return invalid(`seq must be a non-negative safe integer, got ${valueText(seq)}`);
  if (messageId !== void 0 && (typeof messageId !== "string" || messageId.length === 0)) {
    return invalid(`messageId must be a non-empty string, got ${valueText(messageId)}`);
  }
  if (typeof messageId === "string" && messageId.length > MAX_MESSAGE_ID_LENGTH) return invalid(`messageId must be at most ${MAX_MESSAGE_ID_LENGTH} characters, got ${messageId.length}`);
  if (seq === void 0 === (messageId === void 0)) return invalid("exactly one of seq and messageId is required");
  const target = seq !== void 0 ? { seq } : { messageId };
  if (plannedAction !== void 0) return { ok: true, request: { action: "plan", planAction: plannedAction, sessionId, target, ...withExpect } };
  return { ok: true, request: { action, sessionId, target, ...withExpect } };
}
function parseExpect(expect) {
  if (expect === void 0) return void 0;
  if (!isRecord(expect)) return `expect must be an object, got ${valueText(expect)}`;
  const stray = Object.keys(expect).find((key) => !EXPECT_FIELDS.includes(key));
  if (stray !== void 0) return `unknown field "expect.${stray}" (allowed: ${EXPECT_FIELDS.join(", ")})`;
  for (const key of EXPECT_FIELDS) {
    if (expect[key] !== void 0 && !isSeq(expect[key])) return `expect.${key} must be a non-negative safe integer, got ${valueText(expect[key])}`;
  }
  return expect;
}
function parseSummaryEdit(body, invalid) {
  const action = body.action;
  const stray = strayField(body, action, fieldsOf(action));
  if (stray !== void 0) return invalid(stray.text);
  const { checkpointSeq, summary } = body;
  const checked = checkSessionId(body.sessionId);
  if (!checked.ok) return invalid(checked.problem);
  const { sessionId } = checked;
  if (!isSeq(checkpointSeq)) return invalid(`checkpointSeq must be a non-negative safe integer, got ${valueText(checkpointSeq)}`);
  const expectation = parseExpect(body.expect);
  if (typeof expectation === "string") return invalid(expectation);
  const withExpect = expectation === void 0 ? {} : { expect: expectation };
  if (action === "undoRewrite") return { ok: true, request: { action, sessionId, checkpointSeq, ...withExpect } };
  if (typeof summary !== "string" || summary.trim().length === 0) return invalid(`summary must be a non-empty string, got ${valueText(summary)}`);
  return { ok: true, request: { action, sessionId, checkpointSeq, summary, ...withExpect } };
}
function parseSummaryRefresh(body, invalid) {
  const preview = body.action === "plan";
  const fields = preview ? FIELDS2.filter((f) => f === "planAction" || fieldsOf("rewriteSummary").includes(f)) : fieldsOf("rewriteSummary");
  const stray = strayField(body, preview ? "plan of rewriteSummary" : "rewriteSummary", fields);
  if (stray !== void 0) return invalid(stray.text);
  const { checkpointSeq } = body;
  const checked = checkSessionId(body.sessionId);
  if (!checked.ok) return invalid(checked.problem);
  const { sessionId } = checked;
  if (!isSeq(checkpointSeq)) return invalid(`checkpointSeq must be a non-negative safe integer, got ${valueText(checkpointSeq)}`);
  const expectation = parseExpect(body.expect);
  if (typeof expectation === "string") return invalid(expectation);
  return { ok: true, request: { action: "rewriteSummary", sessionId, checkpointSeq, ...expectation === void 0 ? {} : { expect: expectation }, ...preview ? { preview: true } : {} } };
}
var ERASE_PLAN_FIELDS = ["sessionId", "action", "planAction", "tombstoneSeq"];
function parseErasePlan(body, invalid) {
  const stray = strayField(body, "plan of erase", ERASE_PLAN_FIELDS);
  if (stray !== void 0) return invalid(stray.text);
  const { tombstoneSeq } = body;
  const checked = checkSessionId(body.sessionId);
  if (!checked.ok) return invalid(checked.problem);
  const { sessionId } = checked;
  if (!isSeq(tombstoneSeq)) return invalid(`tombstoneSeq must be a non-negative safe integer, got ${valueText(tombstoneSeq)}`);
  return { ok: true, request: { action: "plan", planAction: "erase", sessionId, tombstoneSeq } };
}

// src/host/export-route.ts
function fail(res, code, message, headers = {}) {
  const body = { ok: false, error: { code, message: shortenPaths(message) } };
  const text = JSON.stringify(body);
  res.writeHead(EXPORT_STATUS[code], { "content-type": "application/json; charset=utf-8", "content-length": String(Buffer.byteLength(text)), "cache-control": "no-store", ...headers });
  res.end(text);
}
function parseExportQuery(url) {
  const parsed = new URL(url ?? "/", "http://host");
  for (const part of parsed.search.slice(1).split("&")) {
    try {
      decodeURIComponent(part.replace(/\+/g, " "));
    } catch {
      return { ok: false, message: `message-recall: the query is not valid percent-encoded UTF-8 (${JSON.stringify(part.length > 80 ? `${part.slice(0, 80)}…` : part)})` };
    }
  }
  const query = parsed.searchParams;
  const keys = [...query.keys()];
  const unknown = keys.find((key) => key !== "sessionId");
  if (unknown !== void 0) return { ok: false, message: `message-recall: unknown query parameter ${JSON.stringify(unknown)} (allowed: sessionId)` };
  const ids = query.getAll("sessionId");
  if (ids.length !== 1) return { ok: false, message: `message-recall: the query needs exactly one sessionId (got ${ids.length})` };
  const sessionId = ids[0];
  if (sessionId.length === 0 || sessionId.length > MAX_SESSION_ID_LENGTH) return { ok: false, message: `message-recall: sessionId must be 1 to ${MAX_SESSION_ID_LENGTH} characters` };
  return { ok: true, sessionId };
}
function createExportHandler(services, trustedHosts, warn) {
  return async (req, res) => {
    const abort = new AbortController();
    const onClose = () => {
      if (!res.writableFinished) abort.abort(new Error("message-recall: the export response was closed"));
    };
    res.on("close", onClose);
    try {
      const fence = checkTrust(req.headers, trustedHosts);
      if (fence !== null) return fail(res, fence.code, fence.message);
      if (req.method !== "GET") return fail(res, "METHOD_NOT_ALLOWED", `message-recall: method ${req.method ?? "(none)"} is not allowed; use GET`, { allow: "GET" });
      const query = parseExportQuery(req.url);
      if (!query.ok) return fail(res, "INVALID_REQUEST", query.message);
      const prepared = await prepareExport(services, query.sessionId, abort.signal);
      if (!prepared.ok) return fail(res, prepared.refusal.code, prepared.refusal.message);
      res.writeHead(200, {
        "content-type": "application/zip",
        "content-disposition": `attachment; filename="${exportFilename(query.sessionId)}"`,
        "cache-control": "no-store"
      });
      const zip = new ZipWriter((bytes) => new Promise((resolve2, reject) => {
        if (abort.signal.aborted) return reject(abort.signal.reason);
        if (res.write(bytes)) return resolve2();
        const drained = () => {
          res.off("close", closed);
          resolve2();
        };
        const closed = () => {
          res.off("drain", drained);
          reject(new Error("message-recall: the export response was closed"));
        };
        res.once("drain", drained);
        res.once("close", closed);
      }));
      for await (const entry of prepared.value.entries(abort.signal)) await zip.add(entry.path, entry.data);
      await zip.finish();
      res.end();
    } catch (error) {
      const message = `message-recall: export failed: ${errorText(error)}`;
      if (!abort.signal.aborted) warn(message);
      if (!res.headersSent) fail(res, "INTERNAL", message);
      else res.destroy();
    } finally {
      res.off("close", onClose);
    }
  };
}
function installExportRoute(ctx, config, warn) {
  const handler = createExportHandler({
    sessions: ctx.sessions,
    agents: ctx.agents,
    persistence: () => ctx.get("sessionPersistence"),
    lineage: () => ctx.get("sessionQuery"),
    images: () => ctx.get("attachments")
  }, config.trustedHosts, warn);
  const path = `${config.path}${EXPORT_PATH_SUFFIX}`;
  ctx.effect(() => ctx.webServer.register({ kind: "exact", path, handler }), `message-recall: ${path} route`);
}

// src/shared/durable-header.ts
function durableHeaderOf(value) {
  const facts = durableFactsOf(value);
  if (facts === null) return null;
  const text = JSON.stringify(facts);
  return text.length <= DURABLE_TOMBSTONE_HEADER_MAX ? text : null;
}
function durableFactsOf(value) {
  if (!isRecord(value) || value.persisted !== true || value.summaryRewrite !== void 0 || value.removedSeqs !== void 0) return null;
  return readFacts({ action: value.action, tombstoneSeq: value.tombstoneSeq, range: value.range, shadowedSeqs: value.shadowedSeqs });
}
function readFacts(raw) {
  if (!isRecord(raw) || !isTombstoneAction(raw.action) || !Number.isSafeInteger(raw.tombstoneSeq)) return null;
  const range = raw.range;
  if (!isRecord(range) || !Number.isSafeInteger(range.start) || !Number.isSafeInteger(range.end)) return null;
  const seqs = raw.shadowedSeqs;
  if (!Array.isArray(seqs) || seqs.length === 0 || !seqs.every(Number.isSafeInteger)) return null;
  const tombstoneSeq = raw.tombstoneSeq;
  const start = range.start;
  const end = range.end;
  const shadowedSeqs = seqs;
  if (start > end || shadowedSeqs[0] !== start || shadowedSeqs.at(-1) !== end || shadowedSeqs.some((seq) => seq >= tombstoneSeq)) return null;
  return { action: raw.action, tombstoneSeq, range: { start, end }, shadowedSeqs: [...shadowedSeqs] };
}

// src/host/fork-before.ts
import { randomUUID } from "node:crypto";

// src/host/title.ts
var NO_PROMPT_TITLE = "New Session";
var DEFAULT_TITLE_LIMITS = Object.freeze({ maxWords: 5, maxBytes: 40, maxTitleBytes: 80 });
var ESCAPES = /(?:\u001B\]|\u009D)(?:(?!\u0007|\u001B\\)[\s\S])*(?:\u0007|\u001B\\|$)|(?:\u001B\[|\u009B)[0-?]*[ -/]*[@-~]|\u001B[@-_]/gu;
var INVISIBLE = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F\u200B\u200E\u200F\u202A-\u202E\u2060-\u2064\u2066-\u206F\uFEFF]/gu;
function fallbackTitle(text, limits) {
  const words = text.replace(ESCAPES, "").replace(INVISIBLE, "").split(/\s+/u).filter(Boolean).slice(0, limits.maxWords);
  let out = "";
  let bytes = 0;
  for (const char of words.join(" ")) {
    const size = Buffer.byteLength(char, "utf8");
    if (bytes + size > limits.maxBytes) break;
    out += char;
    bytes += size;
  }
  return out.trimEnd();
}
function promptText(event) {
  return contentOf(event).filter((block) => isRecord(block) && block.type === "text" && typeof block.text === "string").map((block) => block.text).join("\n");
}
function isPlaceholder(current, lookup) {
  if (current === void 0 || current.source.kind !== "fallback" || current.title !== NO_PROMPT_TITLE) return false;
  return current.messageSeqs.every((seq) => {
    const event = lookup(seq);
    return event !== void 0 && isTombstoneEvent(event);
  });
}
function firstPromptTitle(nodes, lookup, limits, placeholderSeq) {
  for (const seq of nodes) {
    const event = lookup(seq);
    if (event === void 0 || event.type !== "user/message" || classifyNode(event) !== "user") continue;
    const title = fallbackTitle(promptText(event), limits);
    if (title.length > 0) return { title, messageSeqs: [seq], source: { kind: "fallback" } };
  }
  return { title: NO_PROMPT_TITLE, messageSeqs: [placeholderSeq], source: { kind: "fallback" } };
}
function titleAfterRemoval(input) {
  const { current } = input;
  if (current === void 0 || current.source.kind === "user") return null;
  if (!current.messageSeqs.some((seq) => input.shadowedSeqs.includes(seq))) return null;
  return firstPromptTitle(input.nodes, input.lookup, input.limits, input.tombstoneSeq);
}
function titleAfterRestore(input) {
  const { current, beforeTombstone: before } = input;
  if (current === void 0 || current.source.kind === "user") return null;
  const onSurface = new Set(input.nodes);
  const placeholder = isPlaceholder(current, input.lookup);
  const rebuild = () => placeholder ? firstPromptTitle(input.nodes, input.lookup, input.limits, input.restoredSeq) : null;
  if (before === void 0 || current.source.kind !== "fallback" || current.eventSeq < input.tombstoneSeq) return rebuild();
  if (!before.messageSeqs.includes(input.originalSeq)) return rebuild();
  const cited = before.messageSeqs.map((seq) => seq === input.originalSeq ? input.restoredSeq : seq);
  if (!cited.every((seq) => onSurface.has(seq))) return firstPromptTitle(input.nodes, input.lookup, input.limits, input.restoredSeq);
  if (before.title === current.title && cited.length === current.messageSeqs.length && cited.every((seq, i) => seq === current.messageSeqs[i])) return null;
  return { title: before.title, messageSeqs: cited, source: { ...before.source } };
}
function titleAfterPrompt(current, prompt, lookup, limits) {
  if (!isPlaceholder(current, lookup)) return null;
  if (prompt.type !== "user/message" || prompt.surfaceOp !== "append" || classifyNode(prompt) !== "user") return null;
  const title = fallbackTitle(promptText(prompt), limits);
  return title.length === 0 ? null : { title, messageSeqs: [prompt.seq], source: { kind: "fallback" } };
}
function titleLimitsOf(service) {
  const config = isRecord(service) ? service.config : void 0;
  if (!isRecord(config)) return DEFAULT_TITLE_LIMITS;
  const { fallbackMaxWords, fallbackMaxBytes, maxTitleBytes } = config;
  if (!Number.isSafeInteger(fallbackMaxWords) || !Number.isSafeInteger(fallbackMaxBytes)) return DEFAULT_TITLE_LIMITS;
  return {
    maxWords: fallbackMaxWords,
    maxBytes: fallbackMaxBytes,
    maxTitleBytes: Number.isSafeInteger(maxTitleBytes) ? maxTitleBytes : DEFAULT_TITLE_LIMITS.maxTitleBytes
  };
}

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
var titleSeen = /* @__PURE__ */ new WeakMap();
function currentTitle(session, count, lookup) {
  const seen = titleSeen.get(session);
  const from = seen !== void 0 && seen.upTo <= count ? seen.upTo : 0;
  let seq = from === 0 ? void 0 : seen?.seq;
  for (let at = count - 1; at >= from; at--) {
    if (lookup(at)?.type === "session/title") {
      seq = at;
      break;
    }
  }
  titleSeen.set(session, { upTo: count, seq });
  return seq === void 0 ? void 0 : titleBefore(seq + 1, lookup);
}
function appendTitle(session, change) {
  return session.append("session/title", {
    title: change.title,
    messageSeqs: [...change.messageSeqs],
    source: { ...change.source }
  }).seq;
}

// src/host/copy-title.ts
var COPY_SUFFIX = /^(.*) \(copy(?: ([2-9]|[1-9]\d+))?\)$/su;
var COPY_SUFFIX_ZH = /^(.*)（副本(?: ([2-9]|[1-9]\d+))?）$/su;
function copySuffix(number, language) {
  if (language === "zh") return number === 1 ? "（副本）" : `（副本 ${number}）`;
  return number === 1 ? " (copy)" : ` (copy ${number})`;
}
function parseCopyTitle(title) {
  const match = COPY_SUFFIX.exec(title) ?? COPY_SUFFIX_ZH.exec(title);
  if (match === null || match[1] === void 0 || match[1].length === 0) return { stem: title, number: 0 };
  return { stem: match[1], number: match[2] === void 0 ? 1 : Number(match[2]) };
}
function copyTitleNumbered(stem, number, maxBytes = Number.POSITIVE_INFINITY, language = "en") {
  const suffix = copySuffix(number, language);
  const budget = maxBytes - Buffer.byteLength(suffix, "utf8");
  if (Buffer.byteLength(stem, "utf8") <= budget) return `${stem}${suffix}`;
  let cut = "";
  let bytes = 0;
  for (const char of stem) {
    const size = Buffer.byteLength(char, "utf8");
    if (bytes + size > budget) break;
    cut += char;
    bytes += size;
  }
  cut = cut.trimEnd();
  return cut.length === 0 ? suffix.trimStart() : `${cut}${suffix}`;
}
function nextCopyTitle(base, taken, maxBytes = Number.POSITIVE_INFINITY, language = "en") {
  const { stem, number } = parseCopyTitle(base);
  let next = number + 1;
  while (taken.has(copyTitleNumbered(stem, next, maxBytes, language))) next++;
  return copyTitleNumbered(stem, next, maxBytes, language);
}
function copiedTitle(tombstoneSeq, lookup, limits) {
  let base = titleBefore(tombstoneSeq, lookup)?.title;
  for (let seq = 0; base === void 0 && seq < tombstoneSeq; seq++) {
    const event = lookup(seq);
    if (event?.type !== "user/message" || event.surfaceOp !== "append" || classifyNode(event) !== "user") continue;
    const title = fallbackTitle(plainText(contentOf(event)), limits);
    if (title.length > 0) base = title;
  }
  return base ?? null;
}

// src/host/fork-plan.ts
function sessionPreset(session) {
  for (let at = session.events.length - 1; at >= 0; at--) {
    const event = session.events[at];
    if (event.type === "agent-preset/selected" && isRecord(event.data) && typeof event.data.agentPreset === "string") return event.data.agentPreset;
  }
  return session.header.agentPreset;
}
function planFork(source, tombstoneSeq) {
  const tombstone = source.lookup(tombstoneSeq);
  const rewrite = tombstone !== void 0 && readRewriteCheckpoint(tombstone) !== null;
  if (tombstone === void 0 || !rewrite && !isTombstoneEvent(tombstone)) return { ok: false, refusal: { code: "TARGET_NOT_FOUND", tombstoneSeq, reason: "not-a-tombstone" } };
  if (!rewrite && erasedThrough(source.events, readFates(source.events), tombstoneSeq)) {
    return { ok: false, refusal: { code: "TARGET_NOT_FOUND", tombstoneSeq, reason: "erased" } };
  }
  const boundarySeq = (rewrite ? tombstone.sourceEventSeqs?.[0] ?? tombstoneSeq : tombstoneSeq) - 1;
  const seed = source.events.slice(0, boundarySeq + 1);
  const lastTurnMark = seed.findLast((event) => event.type === "turn/start" || event.type === "turn/end");
  if (lastTurnMark?.type === "turn/start") return { ok: false, refusal: { code: "OPEN_TURN", boundarySeq } };
  const agentPreset = sessionPreset(source);
  const meta = {
    ...source.header.cwd === void 0 ? {} : { cwd: source.header.cwd },
    parentSession: source.header.id,
    seedLength: seed.length,
    ...agentPreset === void 0 ? {} : { agentPreset }
  };
  return { ok: true, plan: { boundarySeq, seed, meta } };
}

// src/host/fork-source.ts
async function readForkSource(services, sessionId) {
  const id = sessionId;
  const live = services.agents.get(id)?.session ?? services.sessions.get(id);
  if (live !== void 0) return { id: sessionId, header: live.header, events: live.events, lookup: services.index.lookup(live), origin: "live" };
  const stored = services.stored();
  if (stored === void 0 || !(await stored.list()).some((header) => header.id === sessionId)) return null;
  const { meta, events } = await stored.readFrom(id, 0);
  const log = events;
  return { id: sessionId, header: meta, events, lookup: (seq) => log[seq], origin: "stored" };
}

// src/host/durable-flush.ts
var DEFAULT_FLUSH_RETRY = Object.freeze({ backoffMs: Object.freeze([50, 100, 200]) });
async function flushWithRetry(flush, policy = DEFAULT_FLUSH_RETRY) {
  let attempts = 0;
  for (; ; ) {
    attempts++;
    try {
      return { ok: true, persisted: await flush(), attempts };
    } catch (error) {
      const wait = policy.backoffMs[attempts - 1];
      if (wait === void 0) return { ok: false, attempts, error, reason: shortenPaths(errorText(error)) };
      await new Promise((resolve2) => setTimeout(resolve2, wait));
    }
  }
}

// src/host/fork-store.ts
async function storeCopy(services, copy) {
  return services.inChildFiber(async (store) => {
    let child;
    try {
      child = store.create(copy.id, { seed: [...copy.plan.seed], meta: copy.plan.meta });
      if (copy.title !== null) appendTitle(child, { title: copy.title, messageSeqs: [], source: { kind: "user" } });
    } catch (error) {
      throw forkFailed(copy.subject, error);
    }
    const flushed = await flushWithRetry(() => store.flush(child), services.flushRetry);
    if (!flushed.ok) {
      throw new MessageRecallError(
        "PERSIST_FAILED",
        `message-recall: the copy of ${copy.subject} could not be stored: the durability flush failed ${flushed.attempts} times: ${flushed.reason}`,
        { cause: flushed.error, details: { applied: false } }
      );
    }
    return { persisted: flushed.persisted, header: child.header };
  });
}
function forkFailed(subject, error) {
  return new MessageRecallError("INTERNAL", `message-recall: could not fork ${subject}: ${errorText(error)}`, { cause: error });
}

// src/host/fork-workspace.ts
async function workspaceOf(sources, source) {
  const workspaces = sources.workspaces()?.list();
  if (workspaces === void 0) return void 0;
  const holding = (id) => workspaces.find((workspace) => workspace.sessionIds.includes(id));
  const direct = holding(source.id);
  if (direct !== void 0 || source.origin !== "subagent") return direct;
  const headers = /* @__PURE__ */ new Map();
  for (const header of sources.liveHeaders()) headers.set(header.id, header);
  for (const header of await sources.storedHeaders() ?? []) if (!headers.has(header.id)) headers.set(header.id, header);
  const seen = /* @__PURE__ */ new Set([source.id]);
  for (let parent = source.parentSession; parent !== void 0 && !seen.has(parent); parent = headers.get(parent)?.parentSession) {
    seen.add(parent);
    const workspace = holding(parent);
    if (workspace !== void 0) return workspace;
  }
  return void 0;
}

// src/host/session-titles.ts
var StoredTitleCache = class {
  entries = /* @__PURE__ */ new Map();
  counts = { reads: 0, hits: 0 };
  /**
   * The title kept for a log at a revision.
   * @param id - the stored session's id.
   * @param revision - its revision as listed now.
   * @returns `{ title }` (`title` `undefined` for a log without one) when this revision was read, else `undefined`.
   */
  get(id, revision) {
    const entry = this.entries.get(id);
    if (entry === void 0 || entry.revision !== revision) return void 0;
    this.counts.hits++;
    return { title: entry.title };
  }
  /**
   * Keep the title a log had at a revision.
   * @param id - the stored session's id.
   * @param revision - the revision listed before the log was read.
   * @param title - its title, `undefined` for a log without one.
   */
  set(id, revision, title) {
    this.entries.set(id, { revision, title });
  }
  /** Count one full read of a stored log. */
  countRead() {
    this.counts.reads++;
  }
  /**
   * Drop every entry whose session is no longer stored.
   * @param listed - the ids the persistence service lists now.
   */
  keepOnly(listed) {
    for (const id of this.entries.keys()) if (!listed.has(id)) this.entries.delete(id);
  }
  /**
   * Keep the title of a log this process has just written and let go (a copy), by the revision
   * the listing gives its log now (one `stat` in the JSONL layout), so the next naming does not
   * read that log again.
   * @param stored - the persistence service.
   * @param listing - the listing the titles are named against.
   * @param header - the session just stored.
   * @param title - its title (`null`: none).
   * @throws what {@link StoredLogListing.revisionOf} throws.
   */
  async remember(stored, listing, header, title) {
    const revision = await listing.revisionOf(stored, header);
    if (revision !== void 0) this.set(header.id, revision, title ?? void 0);
  }
  /** Full reads of stored logs and answers served from kept titles since construction (for tests). */
  stats() {
    return { ...this.counts };
  }
};
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
async function readStoredTitle(stored, id) {
  if (stored.supportsRawArtifacts === true && stored.readRaw !== void 0) {
    const raw = await stored.readRaw(id);
    if (raw === void 0) throw new Error(`session "${id}" not found`);
    return titleOfRawLog(raw.content);
  }
  return titleOfLog((await stored.readFrom(id, 0)).events);
}
async function sessionTitles(sources) {
  const titles = /* @__PURE__ */ new Set();
  const live = /* @__PURE__ */ new Set();
  for (const session of sources.live()) {
    live.add(session.id);
    const title = currentTitle(session, session.seq, sources.lookup(session))?.title;
    if (title !== void 0) titles.add(title);
  }
  const stored = sources.stored();
  if (stored === void 0) return titles;
  const cache = sources.cache();
  const kept = sources.storedTitles;
  const listing = await sources.storedLogs.list(stored, live);
  kept.keepOnly(new Set(listing.map((entry) => entry.header.id)));
  for (const { header, revision } of listing) {
    if (live.has(header.id)) continue;
    const cached = cache?.cachedSnapshot(header)?.values;
    if (cached !== void 0 && "title" in cached) {
      if (typeof cached.title === "string") titles.add(cached.title);
      continue;
    }
    const known = revision === void 0 ? void 0 : kept.get(header.id, revision);
    if (known !== void 0) {
      if (known.title !== void 0) titles.add(known.title);
      continue;
    }
    try {
      kept.countRead();
      const title = await readStoredTitle(stored, header.id);
      if (revision !== void 0) kept.set(header.id, revision, title);
      if (title !== void 0) titles.add(title);
    } catch (error) {
      sources.warn(`message-recall: the title of stored session "${header.id}" could not be read: ${errorText(error)}`);
    }
  }
  return titles;
}

// src/host/fork-before.ts
var copying = /* @__PURE__ */ new WeakMap();
function oneCopyAtATime(key, task) {
  const result = (copying.get(key) ?? Promise.resolve()).then(task);
  copying.set(key, result.catch(() => void 0));
  return result;
}
async function forkBefore(services, request) {
  const { sessionId, tombstoneSeq } = request;
  const subject = `session "${sessionId}" before tombstone seq ${tombstoneSeq}`;
  let source;
  try {
    source = await readForkSource({ ...services, stored: services.catalog.stored }, sessionId);
  } catch (error) {
    throw forkFailed(subject, error);
  }
  if (source === null) return { ok: false, refusal: { code: "SESSION_NOT_LIVE", sessionId } };
  const planned = planFork(source, tombstoneSeq);
  if (!planned.ok) {
    if (planned.refusal.code === "TARGET_NOT_FOUND") return { ok: false, refusal: planned.refusal };
    throw forkFailed(subject, new Error(`the boundary seq ${planned.refusal.boundarySeq} ends inside an open turn`));
  }
  const { plan } = planned;
  const limits = services.titleLimits();
  const base = copiedTitle(tombstoneSeq, source.lookup, limits);
  const header = source.header;
  let workspace;
  try {
    workspace = await workspaceOf({
      workspaces: () => services.workspaces(),
      liveHeaders: () => services.catalog.live().map((session) => session.header),
      storedHeaders: async () => services.catalog.stored()?.list()
    }, header);
  } catch (error) {
    throw forkFailed(subject, error);
  }
  const forkedSessionId = `session-${randomUUID()}`;
  const made = await oneCopyAtATime(services.index, async () => {
    let title = null;
    if (base !== null) {
      let taken;
      try {
        taken = await sessionTitles({ ...services.catalog, warn: (message) => services.warn(message) });
      } catch (error) {
        throw forkFailed(subject, error);
      }
      title = nextCopyTitle(base, taken, limits.maxTitleBytes, services.language());
    }
    const { persisted, header: copyHeader } = await storeCopy(services, { id: forkedSessionId, plan, title, subject });
    const stored = services.catalog.stored();
    if (stored !== void 0) {
      await services.catalog.storedTitles.remember(stored, services.catalog.storedLogs, copyHeader, title).catch((error) => {
        services.warn(`message-recall: the title of the copy "${forkedSessionId}" was not kept (the next copy reads it from its log): ${errorText(error)}`);
      });
    }
    return { title, persisted };
  });
  if (workspace !== void 0) {
    try {
      await workspace.attachSession(forkedSessionId);
    } catch (error) {
      services.warn(`message-recall: the copy "${forkedSessionId}" was stored but could not join workspace "${workspace.id}": ${errorText(error)}`);
    }
  }
  return { ok: true, value: { action: "forkBefore", tombstoneSeq, forkedSessionId, boundarySeq: plan.boundarySeq, title: made.title, persisted: made.persisted } };
}

// src/host/write-queue.ts
function queueBusy(sessionId, queued, waitMs) {
  return { code: "AGENT_BUSY", sessionId, detail: `${queued.ahead} earlier message-recall write${queued.ahead === 1 ? "" : "s"} to this session did not finish within ${waitMs} ms` };
}
var DEFAULT_QUEUE_WAIT_MS = 2e3;
var WriteQueue = class {
  /** @param waitMs - how long a task waits for the earlier tasks of its key before giving up. */
  constructor(waitMs = DEFAULT_QUEUE_WAIT_MS) {
    this.waitMs = waitMs;
  }
  lanes = /* @__PURE__ */ new Map();
  /**
   * Run `task` after every earlier task of `key` has finished.
   * @param key - the session id.
   * @param task - the write; it runs alone among this queue's tasks of `key`.
   * @returns `{ ok: true, value }` with the task's result, or `{ ok: false, waitedMs, ahead }`
   * when the earlier tasks did not finish within `waitMs` (the task never ran; later tasks still
   * wait for the earlier ones, not for this one).
   * @throws whatever `task` throws.
   */
  async run(key, task) {
    const lane = this.lanes.get(key) ?? { tail: Promise.resolve(), size: 0 };
    this.lanes.set(key, lane);
    const ahead = lane.size;
    const before = lane.tail;
    let release;
    const done = new Promise((resolve2) => release = resolve2);
    lane.tail = before.then(() => done);
    lane.size++;
    const finish = () => {
      release();
      lane.size--;
      if (lane.size === 0 && this.lanes.get(key) === lane) this.lanes.delete(key);
    };
    if (ahead > 0) {
      const started = Date.now();
      let timer;
      const timedOut = await Promise.race([
        before.then(() => false),
        new Promise((resolve2) => timer = setTimeout(() => resolve2(true), this.waitMs))
      ]);
      clearTimeout(timer);
      if (timedOut) {
        finish();
        return { ok: false, waitedMs: Date.now() - started, ahead };
      }
    }
    try {
      return { ok: true, value: await task() };
    } finally {
      finish();
    }
  }
  /** Number of tasks of `key` enqueued and not finished (0 for an idle key). */
  pending(key) {
    return this.lanes.get(key)?.size ?? 0;
  }
};

// src/host/session-write.ts
async function runSessionWrite(services, sessionId, append, options = { maintenance: true }) {
  const id = sessionId;
  const task = async (session, origin) => {
    const fromSeq = session.seq;
    const written = await append(session, origin);
    if (!written.ok) return written;
    if (session.seq > fromSeq) services.afterAppend?.(session, fromSeq);
    const flushed = await flushWithRetry(() => services.sessions.flush(session), services.flushRetry);
    if (!flushed.ok) {
      const what = written.value.action === "flush" ? `the live log of session "${sessionId}" through seq ${written.seq}` : `seq ${written.seq} (${written.value.action}) was appended to session "${sessionId}" and is in effect, but it`;
      throw new MessageRecallError(
        "PERSIST_FAILED",
        `message-recall: ${what} is not yet durable: the durability flush failed ${flushed.attempts} times: ${flushed.reason}`,
        { cause: flushed.error, details: { applied: true, value: { ...written.value, persisted: false }, ...written.recalled ?? {} } }
      );
    }
    return { ok: true, value: { ...written.value, persisted: flushed.persisted } };
  };
  const queued = await services.queue.run(sessionId, async () => {
    if (!options.maintenance) {
      const held = services.access.join(sessionId, (session2) => task(session2, "stored"));
      if (held !== void 0) return held;
      const agent = services.agents.get(id);
      const session = agent?.session ?? services.sessions.get(id);
      if (session !== void 0) return task(session, agent !== void 0 ? "agent" : "live");
      return { ok: false, refusal: await services.access.isStored(sessionId) ? { code: "SESSION_NOT_LIVE", sessionId, reason: "not-live" } : { code: "SESSION_NOT_LIVE", sessionId } };
    }
    return services.access.write(sessionId, task, options.precheck);
  });
  if (queued.ok) return queued.value;
  return { ok: false, refusal: queueBusy(sessionId, queued, services.queue.waitMs) };
}
function flushSession(services, sessionId) {
  return runSessionWrite(services, sessionId, (session) => ({ ok: true, value: { action: "flush", lastSeq: session.seq - 1 }, seq: session.seq - 1 }), { maintenance: false });
}

// src/host/session-view.ts
function viewOfSession(session, lookup, origin) {
  return { nodes: session.surface.nodes, replaceGeneration: session.surface.replaceGeneration, lastSeq: session.seq - 1, nextSeq: session.seq, lookup, origin };
}
function stableViewOfSession(session, lookup, origin) {
  return { ...viewOfSession(session, lookup, origin), nodes: [...session.surface.nodes] };
}

// src/shared/token-estimate.ts
var CHARS_PER_TOKEN = 4;
function blockChars(block) {
  if (!isRecord(block)) return 0;
  switch (block.type) {
    case "text":
    case "reasoning":
      return typeof block.text === "string" ? block.text.length : 0;
    case "tool-call":
      return (typeof block.name === "string" ? block.name.length : 0) + (typeof block.arguments === "string" ? block.arguments.length : 0);
    case "tool-result":
      return Array.isArray(block.content) ? block.content.reduce((sum, inner) => sum + blockChars(inner), 0) : 0;
    default:
      return 0;
  }
}
function estimateTokens(contents) {
  return tokensOfChars(countChars(contents));
}
function countChars(contents) {
  let chars = 0;
  for (const content of contents) for (const block of content) chars += blockChars(block);
  return chars;
}
function tokensOfChars(chars) {
  return Math.ceil(chars / CHARS_PER_TOKEN);
}

// src/host/batch-plan.ts
var ACTION_CODE = new Map(BATCH_REMOVAL_ACTIONS.map((action, i) => [action, i]));
var NOT_REMOVABLE = /* @__PURE__ */ new Set(["tombstone", "checkpoint", "replacement", "context"]);
var MESSAGE_KINDS = /* @__PURE__ */ new Set(["user", "reference", "context", "assistant", "tool"]);
function* planBatchSteps(input) {
  const nodes = [...input.nodes];
  const virtual = /* @__PURE__ */ new Map();
  const lookup = (seq) => seq >= input.nextSeq ? virtual.get(seq) : input.lookup(seq);
  const drafts = [];
  const draftOf = /* @__PURE__ */ new Map();
  const coveredBy = /* @__PURE__ */ new Map();
  const ownerOf = [];
  const firstOf = /* @__PURE__ */ new Map();
  let next = input.nextSeq;
  let order = 0;
  let near = 0;
  const refuse2 = (index, refusal) => ({ ok: false, refusal: { index, change: input.changes[index], refusal } });
  const joinDraft = (draft, index) => {
    draft.changeIndexes.push(index);
    ownerOf[index] = draft;
  };
  const retarget = (draft, action) => {
    draft.action = action;
    const event = virtual.get(draft.virtualSeq);
    virtual.set(draft.virtualSeq, { ...event, data: { ...event.data, source: tombstoneSource(action, draft.shadowedSeqs) } });
  };
  const outermost = (draft) => {
    let at = draft;
    for (let next2 = at && coveredBy.get(at.virtualSeq); next2 !== void 0; next2 = coveredBy.get(next2.virtualSeq)) at = next2;
    return at;
  };
  const joinedDraft = (covering, removal) => {
    if (!removal || effectOf(covering.action) === "removed") return covering;
    for (let outer = coveredBy.get(covering.virtualSeq); outer !== void 0; outer = coveredBy.get(outer.virtualSeq)) {
      if (effectOf(outer.action) === "removed" && ACTIONS[outer.action].plans === "onward") return outer;
    }
    return covering;
  };
  for (const [index, change] of input.changes.entries()) {
    if (index > 0) yield;
    order++;
    if (change.action === "restore") {
      const shadowing = coveredBy.get(change.tombstoneSeq);
      if (shadowing !== void 0) {
        return refuse2(index, { code: "TARGET_NOT_FOUND", shadowedByIndex: shadowing.changeIndexes[0], tombstoneSeq: change.tombstoneSeq });
      }
      const again = drafts.find((d) => d.live && d.kind === "restore" && d.tombstoneSeq === change.tombstoneSeq);
      if (again !== void 0) {
        joinDraft(again, index);
        continue;
      }
      if (change.tombstoneSeq >= input.nextSeq) {
        return refuse2(index, { code: "TARGET_NOT_FOUND", tombstoneSeq: change.tombstoneSeq, reason: "not-a-tombstone" });
      }
      const planned2 = planRestore({ nodes, lookup, tombstoneSeq: change.tombstoneSeq });
      if (!planned2.ok) return refuse2(index, planned2.refusal);
      const step = planned2.plan;
      const seq2 = next++;
      const copy = {
        type: "user/message",
        seq: seq2,
        time: 0,
        data: step.data,
        surfaceOp: replaceOp(step.start, step.end),
        sourceEventSeqs: [...step.sourceEventSeqs]
      };
      virtual.set(seq2, copy);
      const draft2 = {
        kind: "restore",
        action: "restore",
        shadowedSeqs: [change.tombstoneSeq],
        nodeKinds: ["tombstone"],
        changeIndexes: [index],
        virtualSeq: seq2,
        tombstoneSeq: change.tombstoneSeq,
        originalSeq: step.originalSeq,
        data: step.data,
        order,
        live: true
      };
      near = positionOf(nodes, change.tombstoneSeq, near);
      nodes.splice(near, 1, seq2);
      drafts.push(draft2);
      draftOf.set(seq2, draft2);
      ownerOf[index] = draft2;
      continue;
    }
    let targetSeq = change.seq;
    if (targetSeq >= input.nextSeq) {
      return refuse2(index, { code: "TARGET_NOT_FOUND", target: { seq: targetSeq }, reason: "not-on-surface", matchingSeqs: [] });
    }
    const key = targetSeq * BATCH_REMOVAL_ACTIONS.length + ACTION_CODE.get(change.action);
    const repeated = firstOf.get(key);
    if (repeated !== void 0) {
      joinDraft(ownerOf[repeated], index);
      continue;
    }
    firstOf.set(key, index);
    const covering = coveredBy.get(targetSeq);
    let from;
    if (covering !== void 0) {
      const joined = joinedDraft(covering, ACTIONS[change.action].effect === "removed");
      const at = ACTIONS[change.action].plans === "onward" ? positionOf(nodes, outermost(covering).virtualSeq, near) : -1;
      const after = at === -1 ? void 0 : firstRemovableAfter(nodes, lookup, at);
      if (after !== void 0 && effectOf(joined.action) === "excluded") from = at;
      if (after === void 0) {
        joinDraft(joined, index);
        if (effectOf(joined.action) === "excluded" && ACTIONS[change.action].effect === "removed") retarget(joined, change.action);
        continue;
      }
      targetSeq = after;
    }
    const planned = planRemoval({ nodes, lookup, planning: removalPlanning(change.action), target: { seq: targetSeq }, searchFrom: near });
    if (!planned.ok) return refuse2(index, planned.refusal);
    const plan = from === void 0 ? planned.plan : {
      ...planned.plan,
      start: nodes[from],
      startIdx: from,
      shadowedSeqs: [...nodes.slice(from, planned.plan.startIdx), ...planned.plan.shadowedSeqs],
      nodeKinds: [...nodes.slice(from, planned.plan.startIdx).map((seq2) => classifyNode(lookup(seq2))), ...planned.plan.nodeKinds]
    };
    const onward = ACTIONS[change.action].plans === "onward";
    const alike = (inner) => inner !== void 0 && inner.kind === "tombstone" && effectOf(inner.action) === ACTIONS[change.action].effect;
    const holdsExclusion = !onward && plan.shadowedSeqs.some((seq2) => {
      const inner = draftOf.get(seq2);
      if (!alike(inner)) return isExclusion(seq2, draftOf, lookup);
      return ACTIONS[inner.action].plans !== "onward" && inner.shadowedSeqs.some((held) => isExclusion(held, draftOf, lookup));
    });
    let action = change.action;
    const shadowedSeqs = [];
    const nodeKinds = [];
    const changeIndexes = [index];
    for (const [i, seq2] of plan.shadowedSeqs.entries()) {
      const inner = draftOf.get(seq2);
      const innerOnward = inner !== void 0 && ACTIONS[inner.action].plans === "onward";
      if (alike(inner) && !(innerOnward && holdsExclusion)) {
        if (innerOnward && !onward) action = inner.action;
        inner.live = false;
        shadowedSeqs.push(...inner.shadowedSeqs);
        nodeKinds.push(...inner.nodeKinds);
        changeIndexes.push(...inner.changeIndexes);
      } else {
        shadowedSeqs.push(seq2);
        nodeKinds.push(plan.nodeKinds[i]);
      }
    }
    changeIndexes.sort((a, b) => a - b);
    const seq = next++;
    const draft = {
      kind: "tombstone",
      action,
      shadowedSeqs,
      nodeKinds,
      changeIndexes,
      virtualSeq: seq,
      tombstoneSeq: -1,
      originalSeq: -1,
      data: void 0,
      order,
      live: true
    };
    virtual.set(seq, {
      type: "user/message",
      seq,
      time: 0,
      data: { id: `batch-${seq}`, role: "user", content: [], source: tombstoneSource(action, shadowedSeqs) },
      surfaceOp: replaceOp(shadowedSeqs[0], shadowedSeqs.at(-1)),
      sourceEventSeqs: shadowedSeqs
    });
    nodes.splice(plan.startIdx, plan.endIdx - plan.startIdx + 1, seq);
    near = plan.startIdx;
    drafts.push(draft);
    draftOf.set(seq, draft);
    for (const i of changeIndexes) ownerOf[i] = draft;
    for (const shadowed of shadowedSeqs) coveredBy.set(shadowed, draft);
  }
  const live = drafts.filter((d) => d.live).sort((a, b) => a.order - b.order);
  const position = new Map(live.map((d, i) => [d, i]));
  const writes = live.map(toWrite);
  const removedSeqs = [];
  const restoredSeqs = [];
  for (const d of live) {
    if (d.kind === "restore") restoredSeqs.push(d.originalSeq);
    else for (const [i, seq] of d.shadowedSeqs.entries()) if (MESSAGE_KINDS.has(d.nodeKinds[i])) removedSeqs.push(seq);
  }
  return {
    ok: true,
    plan: {
      writes,
      writeOfChange: input.changes.map((_, i) => position.get(ownerOf[i])),
      nodes,
      lookup,
      removedSeqs,
      restoredSeqs
    }
  };
}
var ESTIMATE_STEP = 1024;
function* estimateBatchSteps(plan) {
  const restored = plan.writes.flatMap((w) => w.kind === "restore" && isRecord(w.data) && Array.isArray(w.data.content) ? [w.data.content] : []);
  let chars = 0;
  for (let start = 0; start < plan.removedSeqs.length; start += ESTIMATE_STEP) {
    if (start > 0) yield;
    chars += countChars(plan.removedSeqs.slice(start, start + ESTIMATE_STEP).map((seq) => contentOf(plan.lookup(seq))));
  }
  return { estimatedTokens: tokensOfChars(chars), restoredTokens: estimateTokens(restored) };
}
function effectOf(action) {
  return ACTIONS[action].effect;
}
function toWrite(d) {
  if (d.kind === "restore") {
    return { kind: "restore", tombstoneSeq: d.tombstoneSeq, originalSeq: d.originalSeq, data: d.data, changeIndexes: d.changeIndexes, virtualSeq: d.virtualSeq };
  }
  return {
    kind: "tombstone",
    action: d.action,
    start: d.shadowedSeqs[0],
    end: d.shadowedSeqs.at(-1),
    shadowedSeqs: d.shadowedSeqs,
    nodeKinds: d.nodeKinds,
    changeIndexes: d.changeIndexes,
    virtualSeq: d.virtualSeq
  };
}
function isExclusion(seq, draftOf, lookup) {
  const draft = draftOf.get(seq);
  if (draft !== void 0) return draft.kind === "tombstone" && effectOf(draft.action) === "excluded";
  const event = lookup(seq);
  const tombstone = event === void 0 ? null : readTombstone(event);
  return tombstone !== null && ACTIONS[tombstone.action].effect === "excluded";
}
function firstRemovableAfter(nodes, lookup, from) {
  for (let p = from + 1; p < nodes.length; p++) {
    const event = lookup(nodes[p]);
    if (event !== void 0 && !NOT_REMOVABLE.has(classifyNode(event))) return nodes[p];
  }
  return void 0;
}
function describeBatchRefusal(refusal, describe) {
  const { index, change } = refusal;
  const what = change.action === "restore" ? `restore of tombstone ${change.tombstoneSeq}` : `${change.action} of seq ${change.seq}`;
  const inner = refusal.refusal;
  const why = "shadowedByIndex" in inner ? `tombstone seq ${inner.tombstoneSeq} is shadowed by change ${inner.shadowedByIndex} of this batch` : withoutPrefix(change.action === "restore" ? describeRestoreRefusal(inner) : describe(inner));
  return `message-recall: change ${index} (${what}) refused: ${why}`;
}

// src/host/view-expectation.ts
function checkExpectation(view, expect) {
  if (expect === void 0) return null;
  const own = expect.lastSeq === void 0 ? /* @__PURE__ */ new Set() : ownReplacementsAfter(expect.lastSeq, view.lastSeq, view.lookup);
  const stale = (newerSeq) => ({ code: "STALE_VIEW", expected: expect, replaceGeneration: view.replaceGeneration, ownReplacements: own.size, newerSeq });
  if (expect.replaceGeneration !== void 0 && expect.replaceGeneration !== view.replaceGeneration - own.size) return stale(null);
  if (expect.lastSeq !== void 0) {
    const lastSeq = expect.lastSeq;
    const newer = view.nodes.find((seq) => seq > lastSeq && !own.has(seq));
    if (newer !== void 0) return stale(newer);
  }
  return null;
}
function checkConfirmed(view, expect, removedSeqs, takenSeqs) {
  const confirmed = expect?.removedCount;
  if (expect === void 0 || confirmed === void 0) return null;
  const lastSeq = expect.lastSeq;
  const cameBackSeqs = lastSeq === void 0 ? [] : removedSeqs.filter((seq) => seq > lastSeq);
  if (removedSeqs.length === confirmed && cameBackSeqs.length === 0) return null;
  const ownSeqs = lastSeq === void 0 ? /* @__PURE__ */ new Set() : ownReplacementsAfter(lastSeq, view.lastSeq, view.lookup);
  const own = ownSeqs.size;
  const surfaceChanged = own > 0;
  const tookSome = surfaceChanged && takenSeqs.some((seq) => ownSeqs.has(seq) && isTombstoneEvent(view.lookup(seq)));
  if (removedSeqs.length < confirmed && tookSome && cameBackSeqs.length === 0) return null;
  return {
    code: "STALE_VIEW",
    expected: expect,
    replaceGeneration: view.replaceGeneration,
    ownReplacements: own,
    newerSeq: null,
    changed: { removedCount: removedSeqs.length, cameBackSeqs, surfaceChanged }
  };
}
function ownReplacementsAfter(afterSeq, lastSeq, lookup) {
  const own = /* @__PURE__ */ new Set();
  for (let seq = Math.max(0, afterSeq + 1); seq <= lastSeq; seq++) {
    const event = lookup(seq);
    if (event === void 0 || readReplaceOp(event.surfaceOp) === null) continue;
    if (isTombstoneEvent(event) || readRestore(event, lookup) !== null) own.add(seq);
  }
  return own;
}

// src/host/view-plans.ts
function planRemovalOnView(view, intent) {
  const stale = checkExpectation(view, intent.expect);
  if (stale !== null) return { ok: false, refusal: stale };
  const planned = planRemoval({ nodes: view.nodes, lookup: view.lookup, planning: removalPlanning(intent.action), target: intent.target });
  if (!planned.ok) return planned;
  const removed = planned.plan.shadowedSeqs.filter((_, i) => planned.plan.nodeKinds[i] !== "tombstone");
  const changed = checkConfirmed(view, intent.expect, removed, planned.plan.shadowedSeqs);
  return changed === null ? { ok: true, value: planned.plan } : { ok: false, refusal: changed };
}
function planRestoreOnView(view, intent) {
  const stale = checkExpectation(view, intent.expect);
  if (stale !== null) return { ok: false, refusal: stale };
  const planned = planRestore({ nodes: view.nodes, lookup: view.lookup, tombstoneSeq: intent.tombstoneSeq });
  return planned.ok ? { ok: true, value: planned.plan } : planned;
}
function planBatchOnView(view, intent) {
  const steps = planBatchOnViewSteps(view, intent);
  for (; ; ) {
    const step = steps.next();
    if (step.done) return step.value;
  }
}
function* planBatchOnViewSteps(view, intent) {
  const stale = checkExpectation(view, intent.expect);
  if (stale !== null) return { ok: false, refusal: stale };
  const planned = yield* planBatchSteps({ nodes: view.nodes, lookup: view.lookup, nextSeq: view.nextSeq, changes: intent.changes });
  if (!planned.ok) {
    const refusal = { code: planned.refusal.refusal.code, index: planned.refusal.index, message: describeBatchRefusal(planned.refusal, describePlanRefusal) };
    return { ok: false, refusal };
  }
  const changed = intent.expect?.removedCount === void 0 ? null : checkConfirmed(view, intent.expect, planned.plan.removedSeqs.filter((seq) => seq < view.nextSeq), takenByBatch(planned.plan, view.nextSeq));
  return changed === null ? { ok: true, value: planned.plan } : { ok: false, refusal: changed };
}
function takenByBatch(plan, nextSeq) {
  return plan.writes.flatMap((w) => w.kind === "tombstone" ? w.shadowedSeqs.filter((seq) => seq < nextSeq) : []);
}

// src/host/shadow-price.ts
import { deriveEventMessage } from "@deepseek-ai/dsh-session";
function shadowPrice(range, shadowedSeqs, priceOf) {
  let tokens = 0;
  for (const seq of shadowedSeqs) tokens += priceOf(seq);
  return { shadowedRange: { start: range.start, end: range.end }, shadowedSeqs: [...shadowedSeqs], shadowedTokenCount: tokens };
}
function meterPricer(meter, lookup) {
  return (seq) => {
    const event = lookup(seq);
    if (event === void 0) throw new Error(`message-recall: shadowed seq ${seq} has no session event`);
    const message = deriveEventMessage(event);
    return message === null ? 0 : meter.estimateMessage(message);
  };
}
function appendShadowPrice(session, price) {
  return session.append("compaction/prune", {
    shadowedRange: { ...price.shadowedRange },
    shadowedSeqs: [...price.shadowedSeqs],
    shadowedTokenCount: price.shadowedTokenCount
  }).seq;
}

// src/host/write-effects.ts
function priceReplace(session, effects, lookup, range, shadowedSeqs) {
  if (effects?.meter === void 0) return null;
  return appendShadowPrice(session, shadowPrice(range, shadowedSeqs, meterPricer(effects.meter, lookup)));
}
function writeTitle(session, effects, change) {
  if (change === null) return null;
  try {
    return appendTitle(session, change);
  } catch (error) {
    effects.warn(`message-recall: the session title of "${session.id}" was not updated: ${errorText(error)}`);
    return null;
  }
}
function retitleAfterRemoval(session, effects, lookup, tombstone) {
  if (effects === void 0) return null;
  const change = titleAfterRemoval({
    current: currentTitle(session, session.seq, lookup),
    shadowedSeqs: tombstone.shadowedSeqs,
    tombstoneSeq: tombstone.seq,
    nodes: session.surface.nodes,
    lookup,
    limits: effects.titleLimits
  });
  return writeTitle(session, effects, change);
}
function retitleAfterRestore(session, effects, lookup, restore) {
  if (effects === void 0) return null;
  const change = titleAfterRestore({
    current: currentTitle(session, session.seq, lookup),
    beforeTombstone: titleBefore(restore.tombstoneSeq, lookup),
    ...restore,
    nodes: session.surface.nodes,
    lookup,
    limits: effects.titleLimits
  });
  return writeTitle(session, effects, change);
}
function followPrompt(session, effectsOf, lookupOf, event) {
  if (event.type !== "user/message" || event.surfaceOp !== "append" || classifyNode(event) !== "user") return;
  queueMicrotask(() => {
    const effects = effectsOf();
    try {
      const lookup = lookupOf();
      writeTitle(session, { ...effects, meter: void 0 }, titleAfterPrompt(currentTitle(session, session.seq, lookup), event, lookup, effects.titleLimits));
    } catch (error) {
      effects.warn(`message-recall: the session title of "${session.id}" was not updated: ${errorText(error)}`);
    }
  });
}

// src/host/restore-writer.ts
function appendRestore(session, plan) {
  return session.append("user/message", plan.data, {
    surfaceOp: replaceOp(plan.start, plan.end),
    sourceEventSeqs: [...plan.sourceEventSeqs]
  });
}
function writeRestore(session, view, intent, effects, relookup = () => view.lookup) {
  const planned = planRestoreOnView(view, intent);
  if (!planned.ok) return planned;
  const plan = planned.value;
  let event;
  try {
    priceReplace(session, effects, view.lookup, plan, [plan.tombstoneSeq]);
    event = appendRestore(session, plan);
  } catch (error) {
    throw new MessageRecallError("INTERNAL", `message-recall: the session refused the restore of tombstone seq ${plan.tombstoneSeq}: ${errorText(error)}`, { cause: error });
  }
  retitleAfterRestore(session, effects, relookup(), { tombstoneSeq: plan.tombstoneSeq, originalSeq: plan.originalSeq, restoredSeq: event.seq });
  return {
    ok: true,
    event,
    value: {
      action: "restore",
      tombstoneSeq: plan.tombstoneSeq,
      restoredSeq: event.seq,
      messageId: plan.messageId,
      originalSeq: plan.originalSeq,
      replaceGeneration: session.surface.replaceGeneration
    }
  };
}
function restoreMessage(services, intent) {
  return runSessionWrite(
    services,
    intent.sessionId,
    (session, origin) => {
      const lookup = () => services.index.lookup(session);
      const written = writeRestore(session, viewOfSession(session, lookup(), origin), intent, services.effects?.(), lookup);
      return written.ok ? { ok: true, value: written.value, seq: written.event.seq } : written;
    },
    {
      maintenance: true,
      precheck: (view) => {
        const planned = planRestoreOnView(view, intent);
        return planned.ok ? null : planned.refusal;
      }
    }
  );
}

// src/host/batch-writer.ts
import { randomUUID as randomUUID2 } from "node:crypto";

// src/host/tombstone-append.ts
import { createUserMessage } from "@deepseek-ai/dsh-llm";
function appendTombstone(session, range, tombstoneText = "", batch) {
  const source = tombstoneSource(range.action, range.shadowedSeqs, batch);
  const message = createUserMessage({
    content: tombstoneText === "" ? [] : [{ type: "text", text: tombstoneText }],
    source
  });
  return session.append("user/message", message, {
    surfaceOp: replaceOp(range.start, range.end),
    sourceEventSeqs: [...range.shadowedSeqs]
  });
}

// src/host/batch-writer.ts
function batchMarks(plan, changes) {
  const writes = plan.writes.length;
  if (writes < 2) return void 0;
  const id = randomUUID2();
  const first = plan.writes.findIndex((write) => write.kind === "tombstone");
  const listed = changes.map((change, index) => change.action === "restore" ? { action: "restore", tombstoneSeq: change.tombstoneSeq, write: plan.writeOfChange[index] } : { action: change.action, seq: change.seq, write: plan.writeOfChange[index] });
  return (w) => ({ id, write: w, writes, ...w === first ? { changes: listed } : {} });
}
function appendBatch(session, plan, changes, options = {}) {
  const { effects } = options;
  const lookup = options.lookup ?? (() => (seq) => session.events[seq]);
  const real = /* @__PURE__ */ new Map();
  const map = (seq) => real.get(seq) ?? seq;
  const written = [];
  const marks = batchMarks(plan, changes);
  for (const [w, write] of plan.writes.entries()) {
    const shadowedSeqs = write.kind === "tombstone" ? write.shadowedSeqs.map(map) : [write.tombstoneSeq];
    const start = shadowedSeqs[0];
    const end = shadowedSeqs.at(-1);
    try {
      if (effects?.meter !== void 0) priceReplace(session, effects, lookup(), { start, end }, shadowedSeqs);
      const event = write.kind === "tombstone" ? appendTombstone(session, { action: write.action, start, end, shadowedSeqs }, options.tombstoneText ?? "", marks?.(w)) : appendRestore(session, { start, end, data: write.data, sourceEventSeqs: [write.tombstoneSeq, write.originalSeq] });
      real.set(write.virtualSeq, event.seq);
      written.push(event);
    } catch (error) {
      const done = written.length === 0 ? "nothing was appended" : `writes 0..${w - 1} of the batch were appended`;
      throw new MessageRecallError("INTERNAL", `message-recall: the session refused write ${w} of the batch ([${start}, ${end}]); ${done}: ${errorText(error)}`, { cause: error });
    }
  }
  if (effects !== void 0) {
    const removals = plan.writes.flatMap((write, w) => write.kind === "tombstone" ? [{ seq: written[w].seq, shadowedSeqs: write.shadowedSeqs.map(map) }] : []);
    if (removals.length > 0) retitleAfterRemoval(session, effects, lookup(), { seq: removals.at(-1).seq, shadowedSeqs: removals.flatMap((r) => r.shadowedSeqs) });
    for (const [w, write] of plan.writes.entries()) {
      if (write.kind === "restore") retitleAfterRestore(session, effects, lookup(), { tombstoneSeq: write.tombstoneSeq, originalSeq: write.originalSeq, restoredSeq: written[w].seq });
    }
  }
  return changes.map((change, index) => {
    const w = plan.writeOfChange[index];
    const write = plan.writes[w];
    const seq = written[w].seq;
    if (write.kind === "restore") return { index, action: change.action, tombstoneSeq: write.tombstoneSeq, restoredSeq: seq };
    const shadowedSeqs = write.shadowedSeqs.map(map);
    return { index, action: change.action, tombstoneSeq: seq, range: { start: shadowedSeqs[0], end: shadowedSeqs.at(-1) }, shadowedSeqs };
  });
}

// src/host/folded-plan.ts
function foldedTail(nodes, lookup, checkpointSeq) {
  const at = nodes.indexOf(checkpointSeq);
  if (at === -1 || at === nodes.length - 1) return null;
  const shadowedSeqs = nodes.slice(at + 1);
  return { start: shadowedSeqs[0], end: shadowedSeqs.at(-1), shadowedSeqs, nodeKinds: shadowedSeqs.map((seq) => classifyNode(lookup(seq))) };
}
function planFoldedRemoval(input) {
  const { lookup, fates, seq, action } = input;
  const spec = ACTIONS[action];
  const fate = fates.fateOf(seq);
  if (fate.state !== "folded") return null;
  const target = fate.actingSeq;
  const standing = fates.standingFor(target);
  const checkpoint = standing === null ? void 0 : lookup(standing);
  if (standing === null || checkpoint === void 0 || !isCheckpointEvent(checkpoint) || !input.nodes.includes(standing)) {
    return { ok: false, refusal: { code: "TARGET_NOT_FOUND", target: { seq }, reason: "not-on-surface", matchingSeqs: [] } };
  }
  const event = lookup(target);
  const kind = classifyNode(event);
  if (spec.targets === "prompt" && kind !== "user") return { ok: false, refusal: { code: "NOT_A_USER_MESSAGE", seq, nodeKind: kind } };
  if (kind === "context" || kind === "tombstone" || kind === "checkpoint" || kind === "replacement") {
    return { ok: false, refusal: { code: "NOT_DELETABLE", seq, nodeKind: kind } };
  }
  const { seqs: originals, removals: earlier } = originalsOf(standing, lookup);
  const gone = new Set(earlier.flatMap((r) => r.seqs));
  const widened = widen(target, kind, originals, lookup);
  const onward = spec.plans === "onward" ? originals.slice(Math.max(0, originals.indexOf(widened[0]))) : widened;
  const takes = onward.filter((s) => !gone.has(s));
  if (takes.length === 0) return { ok: false, refusal: { code: "TARGET_NOT_FOUND", target: { seq }, reason: "not-on-surface", matchingSeqs: [] } };
  for (const s of takes) gone.add(s);
  if (spec.plans === "onward" && originals.every((s) => gone.has(s))) {
    return { ok: false, refusal: { code: "NOT_DELETABLE", seq, nodeKind: "checkpoint", wholeSummary: true } };
  }
  return {
    ok: true,
    plan: {
      action,
      checkpointSeq: standing,
      removedSeqs: takes,
      originalSeqs: originals,
      keptSeqs: originals.filter((s) => !gone.has(s)),
      removals: [...earlier, { action, seqs: takes }]
    }
  };
}
function widen(target, kind, originals, lookup) {
  if (kind === "user" || kind === "reference") {
    const next = lookup(target + 1);
    const snapshot = kind === "user" && next !== void 0 && originals.includes(target + 1) && classifyNode(next) === "reference";
    return snapshot ? [target, target + 1] : [target];
  }
  const key = stepOf(lookup(target));
  if (key === null) return [target];
  return originals.filter((s) => {
    const e = lookup(s);
    return e !== void 0 && isStepMember(e, key);
  }).sort((a, b) => a - b);
}

// src/host/summary-rewrite.ts
import { randomUUID as randomUUID3 } from "node:crypto";
import { createUserMessage as createUserMessage2 } from "@deepseek-ai/dsh-llm";
import { deriveEventMessage as deriveEventMessage2 } from "@deepseek-ai/dsh-session";
var CHECKPOINT_PREAMBLE = "This is an automatically generated checkpoint condensing an earlier span of the conversation to free up context. Treat the captured context as established background and build on it without restating it. Continue the task directly from the messages that follow, without acknowledging this checkpoint.";
var SUMMARY_OPEN_TAG = "<compacted-summary>";
var SUMMARY_CLOSE_TAG = "</compacted-summary>";
function frameSummary(summary) {
  return [{ type: "text", text: `${CHECKPOINT_PREAMBLE}

${SUMMARY_OPEN_TAG}` }, ...summary.map((b) => ({ type: "text", text: b.text })), { type: "text", text: SUMMARY_CLOSE_TAG }];
}
function planFoldedOnView(view, intent) {
  const log = [];
  for (let seq = 0; seq < view.nextSeq; seq++) {
    const event = view.lookup(seq);
    if (event !== void 0 && event.surfaceOp !== void 0 && event.surfaceOp !== "append") log.push(event);
  }
  const planned = planFoldedRemoval({ nodes: view.nodes, lookup: view.lookup, fates: readFates(log), action: intent.action, seq: intent.seq });
  if (planned === null) return null;
  if (!planned.ok) return planned;
  const stale = checkExpectation(view, intent.expect) ?? checkConfirmed(view, intent.expect, planned.plan.removedSeqs, []);
  return stale === null ? { ok: true, value: planned.plan } : { ok: false, refusal: stale };
}
function summarizationInput(session, plan, lookup) {
  const header = session.requestHeader();
  const messages = [];
  for (const seq of plan.keptSeqs) {
    const event = lookup(seq);
    const message = event === void 0 ? null : deriveEventMessage2(event);
    if (message !== null) messages.push(message);
  }
  return { ...header?.system === void 0 ? {} : { system: header.system }, ...header?.tools === void 0 ? {} : { tools: header.tools }, messages };
}
function rewriteSummary(services, intent, signal) {
  return withSummarizer(services, intent.sessionId, signal, (agent, summarizer, both) => runRewrite(services, agent, summarizer, intent, both));
}
async function withSummarizer(services, sessionId, signal, run) {
  const queued = await services.queue.run(sessionId, async () => {
    const agent = services.agents.get(sessionId);
    if (agent === void 0) return { ok: false, refusal: { code: "SESSION_NOT_LIVE", sessionId } };
    const summarizer = services.summarizer(agent);
    if (summarizer === void 0) return { ok: false, refusal: { code: "SUMMARY_FAILED", sessionId, reason: "no-engine", detail: "no compaction engine is loaded (the compaction service)" } };
    try {
      return agent.runMaintenance((agentSignal) => run(agent, summarizer, signal === void 0 ? agentSignal : AbortSignal.any([agentSignal, signal])));
    } catch (error) {
      return { ok: false, refusal: { code: "AGENT_BUSY", sessionId, detail: errorText(error) } };
    }
  });
  if (queued.ok) return queued.value;
  return { ok: false, refusal: queueBusy(sessionId, queued, services.queue.waitMs) };
}
function summaryFailed(sessionId, reason, detail) {
  return { ok: false, refusal: { code: "SUMMARY_FAILED", sessionId, reason, detail } };
}
async function summarizeKept(agent, summarizer, sessionId, plan, lookup, signal) {
  const cancelled = "the summary rewrite was cancelled; nothing was written";
  let result;
  try {
    signal.throwIfAborted();
    result = await summarizer.summarize(summarizationInput(agent.session, plan, lookup), agent, signal);
  } catch (error) {
    return signal.aborted ? summaryFailed(sessionId, "cancelled", cancelled) : summaryFailed(sessionId, "model", errorText(error));
  }
  if (signal.aborted) return summaryFailed(sessionId, "cancelled", cancelled);
  return { ok: true, value: result };
}
async function runRewrite(services, agent, summarizer, intent, signal) {
  const session = agent.session;
  const lookup = (seq) => services.index.lookup(session)(seq);
  const view = viewOfSession(session, services.index.lookup(session), "agent");
  const planned = planFoldedOnView(view, intent);
  if (planned === null) return { ok: false, refusal: { code: "TARGET_NOT_FOUND", target: { seq: intent.seq }, reason: "not-on-surface", matchingSeqs: [] } };
  if (!planned.ok) return planned;
  const plan = planned.value;
  const summarized = await summarizeKept(agent, summarizer, intent.sessionId, plan, lookup, signal);
  if (!summarized.ok) return summarized;
  const again = planFoldedOnView(viewOfSession(session, services.index.lookup(session), "agent"), { action: intent.action, seq: intent.seq });
  if (again === null || !again.ok || again.value.checkpointSeq !== plan.checkpointSeq || again.value.keptSeqs.join() !== plan.keptSeqs.join()) {
    return summaryFailed(intent.sessionId, "changed", "the compacted history changed while the summary was written; nothing was written");
  }
  const written = appendRewrite(session, plan, summarized.value, services.meter(), lookup);
  const target = lookup(intent.seq);
  const recalled = intent.action === "recall" && target !== void 0 ? { content: contentOf(target), text: plainText(contentOf(target)) } : void 0;
  const value = {
    action: intent.action,
    tombstoneSeq: written.checkpointSeq,
    range: { start: plan.checkpointSeq, end: plan.checkpointSeq },
    shadowedSeqs: [plan.checkpointSeq],
    nodeKinds: ["checkpoint"],
    replaceGeneration: session.surface.replaceGeneration,
    removedSeqs: plan.removedSeqs,
    summaryRewrite: { checkpointSeq: plan.checkpointSeq, compactionId: written.compactionId, startSeq: written.startSeq, endSeq: written.endSeq },
    ...recalled ?? {}
  };
  const flushed = await flushWithRetry(() => services.sessions.flush(session), services.flushRetry);
  if (!flushed.ok) {
    throw new MessageRecallError("PERSIST_FAILED", `message-recall: the summary rewrite (checkpoint seq ${written.checkpointSeq}) was appended to session "${intent.sessionId}" and is in effect, but it is not yet durable: the durability flush failed ${flushed.attempts} times: ${flushed.reason}`, {
      cause: flushed.error,
      details: { applied: true, value: { ...value, persisted: false }, ...recalled ?? {} }
    });
  }
  return { ok: true, value: { ...value, persisted: flushed.persisted } };
}
function appendRewrite(session, plan, result, meter, lookup) {
  return appendSummaryCompaction(session, { shadowedSeqs: [plan.checkpointSeq], removals: plan.removals }, result, meter, lookup);
}
function appendSummaryCompaction(session, target, result, meter, lookup) {
  const shadowedSeqs = [...target.shadowedSeqs];
  const first = shadowedSeqs[0];
  const last = shadowedSeqs.at(-1);
  if (first === void 0 || last === void 0) throw new MessageRecallError("INTERNAL", "message-recall: a compaction needs at least one surface node to replace");
  const what = shadowedSeqs.length === 1 ? `checkpoint seq ${first}` : `seqs ${first}…${last}`;
  const compactionId = randomUUID3();
  let tokens = 0;
  if (meter !== void 0) {
    const price = meterPricer(meter, lookup);
    for (const seq of shadowedSeqs) tokens += price(seq);
  }
  const lifecycle = { compactionId, turn: null };
  let startSeq;
  try {
    startSeq = session.append("compaction/start", lifecycle).seq;
  } catch (error) {
    throw new MessageRecallError("INTERNAL", `message-recall: the session refused the summary rewrite's compaction/start: ${errorText(error)}`, { cause: error });
  }
  try {
    const summary = result.summary.map((b) => ({ type: "text", text: b.text }));
    const summarySeq = session.append("compaction/summary", {
      compactionId,
      summary,
      ...result.llmStreamCall === true ? { rawOutput: result.rawOutput, llmStreamCall: true } : {},
      shadowedRange: { start: first, end: last },
      shadowedSeqs,
      shadowedTokenCount: tokens,
      provider: result.provider ?? "dsh-message-recall",
      model: result.model ?? "manual-edit",
      ...result.maxTokens === void 0 ? {} : { maxTokens: result.maxTokens },
      ...result.usage === void 0 ? {} : { usage: result.usage }
    }).seq;
    const message = createUserMessage2({ content: frameSummary(summary), source: rewriteCheckpointSource(compactionId, { removals: target.removals }) });
    const checkpointSeq = session.append("user/message", message, { surfaceOp: { op: "replace", start: first, end: last }, sourceEventSeqs: [startSeq, summarySeq, ...shadowedSeqs] }).seq;
    const endSeq = session.append("compaction/end", lifecycle).seq;
    return { compactionId, startSeq, summarySeq, checkpointSeq, endSeq };
  } catch (error) {
    try {
      session.append("compaction/end", { ...lifecycle, error: { message: errorText(error) } });
    } catch {
    }
    throw new MessageRecallError("INTERNAL", `message-recall: the session refused the summary rewrite of ${what}: ${errorText(error)}`, { cause: error });
  }
}

// src/host/summary-batch.ts
function offSurfaceSeqs(nodes, changes) {
  const off = /* @__PURE__ */ new Set();
  for (const change of changes) if ("seq" in change) off.add(change.seq);
  for (let i = 0; i < nodes.length && off.size > 0; i++) off.delete(nodes[i]);
  return off;
}
function foldedIndexes(view, changes) {
  const out = [];
  const off = offSurfaceSeqs(view.nodes, changes);
  if (off.size === 0) return out;
  for (const [index, change] of changes.entries()) {
    if (!("seq" in change) || !off.has(change.seq)) continue;
    if (planFoldedOnView(view, { action: change.action, seq: change.seq }) !== null) out.push(index);
  }
  return out;
}
function planMixedOnView(view, intent) {
  const stale = checkExpectation(view, intent.expect);
  if (stale !== null) return { ok: false, refusal: stale };
  const foldedAt = foldedIndexes(view, intent.changes);
  const refuse2 = (index, code, message) => ({ ok: false, refusal: { code, index, message: `message-recall: changes[${index}]: ${message}` } });
  let folded = null;
  let onward = false;
  const taken = /* @__PURE__ */ new Set();
  for (const index of foldedAt) {
    const change = intent.changes[index];
    const planned = planFoldedOnView(view, { action: change.action, seq: change.seq });
    if (planned === null) return refuse2(index, "TARGET_NOT_FOUND", `seq ${change.seq} is not a folded message`);
    if (!planned.ok) return refuse2(index, planned.refusal.code, withoutPrefix(describeRefusal(planned.refusal)));
    const one = planned.value;
    if (ACTIONS[one.action].plans === "onward") onward = true;
    const first = folded;
    if (first !== null && one.checkpointSeq !== first.checkpointSeq) return refuse2(index, "SPAN_NOT_CONTIGUOUS", `seq ${change.seq} is folded into checkpoint ${one.checkpointSeq}, not ${first.checkpointSeq}`);
    const fresh = one.removedSeqs.filter((seq) => !taken.has(seq));
    for (const seq of fresh) taken.add(seq);
    const earlier = folded === null ? one.removals.slice(0, -1) : folded.removals;
    const removals = fresh.length === 0 ? earlier : [...earlier, { action: one.action, seqs: fresh }];
    const gone = new Set(removals.flatMap((r) => r.seqs));
    const before = folded === null ? [] : folded.removedSeqs;
    folded = { ...one, removedSeqs: [...before, ...fresh], removals, keptSeqs: one.originalSeqs.filter((seq) => !gone.has(seq)) };
    if (folded.keptSeqs.length === 0) return refuse2(index, "NOT_DELETABLE", withoutPrefix(describeRefusal({ code: "NOT_DELETABLE", seq: change.seq, nodeKind: "checkpoint", wholeSummary: true })));
  }
  if (folded === null) throw new Error("message-recall: planMixedOnView called for a batch without folded changes");
  const checkpoint = folded.checkpointSeq;
  const range = onward ? foldedTail(view.nodes, view.lookup, checkpoint) : null;
  const inTail = new Set(range?.shadowedSeqs ?? []);
  const tailIndexes = [];
  const restIndexes = [];
  for (const [i, change] of intent.changes.entries()) {
    if (foldedAt.includes(i)) continue;
    const seq = "seq" in change ? change.seq : change.tombstoneSeq;
    if (!inTail.has(seq)) restIndexes.push(i);
    else if (change.action === "restore") return refuse2(i, "TARGET_NOT_FOUND", `tombstone seq ${seq} sits after the compaction summary, in what the Delete onward of this batch takes`);
    else tailIndexes.push(i);
  }
  const restChanges = restIndexes.map((i) => intent.changes[i]);
  let current = null;
  if (restChanges.length > 0) {
    const planned = planBatchOnView(view, { changes: restChanges, ...intent.expect === void 0 ? {} : { expect: { ...intent.expect, removedCount: void 0 } } });
    if (!planned.ok) {
      const r = planned.refusal;
      const index = restIndexes[r.index] ?? r.index;
      return { ok: false, refusal: { ...r, index, message: r.message.replace(`changes[${r.index}]`, `changes[${index}]`) } };
    }
    const takes = planned.value.writes.findIndex((w) => w.kind === "tombstone" && w.shadowedSeqs.some((seq) => seq === checkpoint || inTail.has(seq)));
    if (takes !== -1) {
      const index = restIndexes[planned.value.writes[takes].changeIndexes[0]];
      return refuse2(index, "NOT_DELETABLE", `its range takes the compaction summary (checkpoint seq ${checkpoint}) that the folded changes of this batch rewrite`);
    }
    current = { indexes: restIndexes, changes: restChanges, plan: planned.value };
  }
  const tailRemoved = range === null ? [] : range.shadowedSeqs.filter((_, i) => range.nodeKinds[i] !== "tombstone");
  const removed = [...current?.plan.removedSeqs.filter((seq) => seq < view.nextSeq) ?? [], ...folded.removedSeqs, ...tailRemoved];
  const rangeSeqs = [...current === null ? [] : takenByBatch(current.plan, view.nextSeq), ...range?.shadowedSeqs ?? []];
  const changed = checkConfirmed(view, intent.expect, removed, rangeSeqs);
  if (changed !== null) return { ok: false, refusal: changed };
  return { ok: true, value: { current, folded: { indexes: foldedAt, plan: folded }, tail: range === null ? null : { indexes: tailIndexes, range }, removedSeqs: removed } };
}
async function applyWithRewrite(services, intent, signal) {
  const written = await withSummarizer(services, intent.sessionId, signal, (agent, summarizer, both) => runMixed(services, agent, summarizer, intent, both));
  if (!written.ok) return written;
  const { results, replaceGeneration, persisted } = written.value;
  return { ok: true, value: { action: "apply", results, replaceGeneration, persisted } };
}
async function deleteOnwardFolded(services, intent, signal) {
  const batch = { sessionId: intent.sessionId, changes: [{ action: "deleteFrom", seq: intent.seq }], ...intent.expect === void 0 ? {} : { expect: intent.expect } };
  const written = await withSummarizer(services, intent.sessionId, signal, (agent, summarizer, both) => runMixed(services, agent, summarizer, batch, both, true));
  if (!written.ok) return { ok: false, refusal: singleRefusal(written.refusal) };
  return { ok: true, value: written.value.removal };
}
function singleRefusal(refusal) {
  if (!("index" in refusal)) return refusal;
  const { index: _index, ...rest } = refusal;
  return { ...rest, message: rest.message.replace("changes[0]: ", "") };
}
async function runMixed(services, agent, summarizer, intent, signal, single2 = false) {
  const session = agent.session;
  const lookup = (seq) => services.index.lookup(session)(seq);
  const planned = planMixedOnView(viewOfSession(session, services.index.lookup(session), "agent"), intent);
  if (!planned.ok) return planned;
  const summarized = await summarizeKept(agent, summarizer, intent.sessionId, planned.value.folded.plan, lookup, signal);
  if (!summarized.ok) return summarized;
  const result = summarized.value;
  const again = planMixedOnView(viewOfSession(session, services.index.lookup(session), "agent"), intent);
  if (!again.ok || again.value.folded.plan.keptSeqs.join() !== planned.value.folded.plan.keptSeqs.join() || again.value.folded.plan.checkpointSeq !== planned.value.folded.plan.checkpointSeq || again.value.removedSeqs.join() !== planned.value.removedSeqs.join()) {
    return summaryFailed(intent.sessionId, "changed", "the conversation changed while the summary was written; nothing was written");
  }
  const { current, folded, tail } = again.value;
  const effects = services.effects?.();
  const fromSeq = session.seq;
  const results = [];
  if (current !== null) {
    const appended = appendBatch(session, current.plan, current.changes, { tombstoneText: services.tombstoneText, lookup: () => services.index.lookup(session), ...effects === void 0 ? {} : { effects } });
    for (const r of appended) results.push({ ...r, index: current.indexes[r.index] });
  }
  let tailSeq = null;
  if (tail !== null) {
    const range = { action: "deleteFrom", start: tail.range.start, end: tail.range.end, shadowedSeqs: tail.range.shadowedSeqs };
    try {
      priceReplace(session, effects, lookup, range, range.shadowedSeqs);
      tailSeq = appendTombstone(session, range, services.tombstoneText).seq;
    } catch (error) {
      throw new MessageRecallError("INTERNAL", `message-recall: the session refused the tombstone for [${range.start}, ${range.end}]: ${errorText(error)}`, { cause: error });
    }
    retitleAfterRemoval(session, effects, services.index.lookup(session), { seq: tailSeq, shadowedSeqs: range.shadowedSeqs });
    for (const index of tail.indexes) results.push({ index, action: intent.changes[index].action, tombstoneSeq: tailSeq, range: { start: range.start, end: range.end }, shadowedSeqs: range.shadowedSeqs });
  }
  const cp = folded.plan.checkpointSeq;
  const written = appendRewrite(session, folded.plan, result, effects?.meter, lookup);
  for (const index of folded.indexes) {
    results.push({ index, action: intent.changes[index].action, tombstoneSeq: written.checkpointSeq, range: { start: cp, end: cp }, shadowedSeqs: [cp] });
  }
  results.sort((a, b) => a.index - b.index);
  const replaceGeneration = session.surface.replaceGeneration;
  const removal = !single2 ? void 0 : {
    action: "deleteFrom",
    tombstoneSeq: tailSeq ?? written.checkpointSeq,
    range: { start: cp, end: tail?.range.end ?? cp },
    shadowedSeqs: [cp, ...tail?.range.shadowedSeqs ?? []],
    nodeKinds: ["checkpoint", ...tail?.range.nodeKinds ?? []],
    replaceGeneration,
    removedSeqs: again.value.removedSeqs,
    // Undo of the rewrite alone would leave the tail removed: only a step without a tail offers it.
    ...tail === null ? { summaryRewrite: { checkpointSeq: cp, compactionId: written.compactionId, startSeq: written.startSeq, endSeq: written.endSeq } } : {}
  };
  services.afterAppend?.(session, fromSeq);
  const flushed = await flushWithRetry(() => services.sessions.flush(session), services.flushRetry);
  if (!flushed.ok) {
    const value = removal === void 0 ? { action: "apply", results, replaceGeneration, persisted: false } : { ...removal, persisted: false };
    throw new MessageRecallError("PERSIST_FAILED", `message-recall: the batch with a summary rewrite (checkpoint seq ${written.checkpointSeq}) was appended to session "${intent.sessionId}" and is in effect, but it is not yet durable: the durability flush failed ${flushed.attempts} times: ${flushed.reason}`, {
      cause: flushed.error,
      details: { applied: true, value }
    });
  }
  return { ok: true, value: { results, replaceGeneration, persisted: flushed.persisted, ...removal === void 0 ? {} : { removal: { ...removal, persisted: flushed.persisted } } } };
}

// src/host/batch-service.ts
function planInSlices(view, request) {
  return runSliced(planBatchOnViewSteps(view, request));
}
async function startOwnFrame(services, session) {
  try {
    await services.sessions.flush(session);
  } catch {
  }
}
var SLICED_ATTEMPTS = 3;
function plannedWrites(view, writes, index) {
  const positionOf2 = new Map(writes.map((w, position) => [w.virtualSeq, position]));
  return writes.map((w) => {
    if (w.kind === "restore") return { kind: "restore", changeIndexes: w.changeIndexes.map(index), tombstoneSeq: w.tombstoneSeq, restoredSeq: w.originalSeq };
    const shadowedSeqs = w.shadowedSeqs.filter((seq) => seq < view.nextSeq);
    const shadowedWrites = w.shadowedSeqs.filter((seq) => seq >= view.nextSeq).map((seq) => positionOf2.get(seq));
    return { kind: "tombstone", changeIndexes: w.changeIndexes.map(index), action: w.action, shadowedSeqs, ...shadowedWrites.length === 0 ? {} : { shadowedWrites } };
  });
}
function writeCounts(writes) {
  return {
    writes,
    tombstoneCount: writes.filter((w) => w.kind === "tombstone").length,
    restoreCount: writes.filter((w) => w.kind === "restore").length
  };
}
async function previewMixed(view, request) {
  const planned = planMixedOnView(view, request);
  if (!planned.ok) return planned;
  const { current, folded, tail } = planned.value;
  const writes = plannedWrites(view, current?.plan.writes ?? [], (i) => current.indexes[i]);
  if (tail !== null) {
    const onward = folded.indexes.filter((i) => request.changes[i].action === "deleteFrom");
    writes.push({ kind: "tombstone", changeIndexes: [...onward, ...tail.indexes].sort((a, b) => a - b), action: "deleteFrom", shadowedSeqs: tail.range.shadowedSeqs });
  }
  const currentEstimate = current === null ? { estimatedTokens: 0, restoredTokens: 0 } : await runSliced(estimateBatchSteps(current.plan));
  const content = (seqs) => seqs.map((seq) => contentOf(view.lookup(seq)));
  const tailRemoved = tail === null ? [] : tail.range.shadowedSeqs.filter((_, i) => tail.range.nodeKinds[i] !== "tombstone");
  return {
    ok: true,
    value: {
      action: "plan",
      ...writeCounts(writes),
      removedSeqs: planned.value.removedSeqs,
      restoredSeqs: current?.plan.restoredSeqs ?? [],
      estimatedTokens: currentEstimate.estimatedTokens + estimateTokens(content([...folded.plan.removedSeqs, ...tailRemoved])),
      restoredTokens: currentEstimate.restoredTokens,
      replaceGeneration: view.replaceGeneration,
      lastSeq: view.lastSeq,
      summaryRewrite: {
        checkpointSeq: folded.plan.checkpointSeq,
        removedSeqs: folded.plan.removedSeqs,
        inputMessages: folded.plan.keptSeqs.length,
        estimatedInputTokens: estimateTokens(content(folded.plan.keptSeqs))
      }
    }
  };
}
function countsOfMixed(value) {
  const rewrite = value.summaryRewrite;
  return {
    action: "plan",
    detail: "counts",
    tombstoneCount: value.tombstoneCount,
    restoreCount: value.restoreCount,
    removedCount: value.removedSeqs.length,
    restoredCount: value.restoredSeqs.length,
    replaceGeneration: value.replaceGeneration,
    lastSeq: value.lastSeq,
    ...rewrite === void 0 ? {} : {
      summaryRewrite: { checkpointSeq: rewrite.checkpointSeq, removedCount: rewrite.removedSeqs.length, inputMessages: rewrite.inputMessages, estimatedInputTokens: rewrite.estimatedInputTokens }
    }
  };
}
async function applyChanges(services, request, signal) {
  const agent = services.agents.get(request.sessionId);
  if (agent !== void 0 && foldedIndexes(viewOfSession(agent.session, services.index.lookup(agent.session), "agent"), request.changes).length > 0) {
    return applyWithRewrite({ ...services, summarizer: services.summarizer ?? (() => void 0) }, request, signal);
  }
  return runSessionWrite(
    services,
    request.sessionId,
    async (session, origin) => {
      let planned;
      for (let attempt = 0; attempt < SLICED_ATTEMPTS && planned === void 0; attempt++) {
        await startOwnFrame(services, session);
        const view = viewOfSession(session, services.index.lookup(session), origin);
        const sliced = await planInSlices(view, request);
        if (session.seq === view.nextSeq) planned = sliced;
      }
      const now = viewOfSession(session, services.index.lookup(session), origin);
      if (origin !== "agent" && foldedIndexes(now, request.changes).length > 0) return { ok: false, refusal: needsAgent(request.sessionId) };
      planned ??= planBatchOnView(now, request);
      if (!planned.ok) return planned;
      const effects = services.effects?.();
      const results = appendBatch(session, planned.value, request.changes, {
        tombstoneText: services.tombstoneText,
        lookup: () => services.index.lookup(session),
        ...effects === void 0 ? {} : { effects }
      });
      return { ok: true, value: { action: "apply", results, replaceGeneration: session.surface.replaceGeneration }, seq: session.seq - 1 };
    },
    {
      maintenance: true,
      precheck: async (view) => {
        if (foldedIndexes(view, request.changes).length > 0) return needsAgent(request.sessionId);
        const planned = await planInSlices(view, request);
        return planned.ok ? null : planned.refusal;
      }
    }
  );
}
async function previewChanges(services, request) {
  const read = await services.access.read(request.sessionId);
  if (!read.ok) return read;
  const view = read.value;
  const planned = await planInSlices(view, request);
  if (!planned.ok && foldedIndexes(view, request.changes).length > 0) {
    if (view.origin !== "agent") return { ok: false, refusal: needsAgent(request.sessionId) };
    const mixed = await previewMixed(view, request);
    if (!mixed.ok || request.detail !== "counts") return mixed;
    return { ok: true, value: countsOfMixed(mixed.value) };
  }
  if (!planned.ok) return planned;
  const plan = planned.value;
  if (request.detail === "counts") {
    let tombstoneCount = 0;
    for (const w of plan.writes) if (w.kind === "tombstone") tombstoneCount++;
    let removedCount = 0;
    for (const seq of plan.removedSeqs) if (seq < view.nextSeq) removedCount++;
    return {
      ok: true,
      value: {
        action: "plan",
        detail: "counts",
        tombstoneCount,
        restoreCount: plan.writes.length - tombstoneCount,
        removedCount,
        restoredCount: plan.restoredSeqs.length,
        replaceGeneration: view.replaceGeneration,
        lastSeq: view.lastSeq
      }
    };
  }
  const estimate = await runSliced(estimateBatchSteps(plan));
  const writes = plannedWrites(view, plan.writes, (i) => i);
  return {
    ok: true,
    value: {
      action: "plan",
      ...writeCounts(writes),
      removedSeqs: plan.removedSeqs.filter((seq) => seq < view.nextSeq),
      restoredSeqs: plan.restoredSeqs,
      ...estimate,
      replaceGeneration: view.replaceGeneration,
      lastSeq: view.lastSeq
    }
  };
}

// src/host/tombstone-writer.ts
function writeTombstone(session, view, intent, tombstoneText, effects, relookup = () => view.lookup) {
  const planned = planRemovalOnView(view, intent);
  if (!planned.ok) return planned;
  const plan = { ...planned.value, action: intent.action };
  let event;
  try {
    priceReplace(session, effects, view.lookup, plan, plan.shadowedSeqs);
    event = appendTombstone(session, plan, tombstoneText);
  } catch (error) {
    throw new MessageRecallError("INTERNAL", `message-recall: the session refused the tombstone for [${plan.start}, ${plan.end}]: ${errorText(error)}`, { cause: error });
  }
  retitleAfterRemoval(session, effects, relookup(), { seq: event.seq, shadowedSeqs: plan.shadowedSeqs });
  const recalled = ACTIONS[intent.action].returnsContent ? contentOf(view.lookup(plan.targetSeq)) : void 0;
  const value = {
    action: intent.action,
    tombstoneSeq: event.seq,
    range: { start: plan.start, end: plan.end },
    shadowedSeqs: plan.shadowedSeqs,
    nodeKinds: plan.nodeKinds,
    replaceGeneration: session.surface.replaceGeneration,
    ...recalled === void 0 ? {} : { content: recalled, text: plainText(recalled) }
  };
  return { ok: true, value, event };
}

// src/host/removal-service.ts
function foldedPlan(view, intent) {
  if (!("seq" in intent.target) || view.nodes.includes(intent.target.seq)) return null;
  const expect = intent.expect === void 0 || ACTIONS[intent.action].plans === "onward" ? {} : { expect: intent.expect };
  return planFoldedOnView(view, { action: intent.action, seq: intent.target.seq, ...expect });
}
async function removeMessages(services, intent, signal) {
  const agent = services.agents.get(intent.sessionId);
  if ("seq" in intent.target && agent !== void 0 && !agent.session.surface.nodes.includes(intent.target.seq)) {
    const view = viewOfSession(agent.session, services.index.lookup(agent.session), "agent");
    if (foldedPlan(view, intent) !== null) {
      const summarizer = services.summarizer ?? (() => void 0);
      if (ACTIONS[intent.action].plans === "onward") {
        return deleteOnwardFolded({ ...services, summarizer }, { sessionId: intent.sessionId, seq: intent.target.seq, ...intent.expect === void 0 ? {} : { expect: intent.expect } }, signal);
      }
      const meter = () => services.effects?.().meter;
      return rewriteSummary({ ...services, summarizer: services.summarizer ?? (() => void 0), meter }, { sessionId: intent.sessionId, action: intent.action, seq: intent.target.seq, ...intent.expect === void 0 ? {} : { expect: intent.expect } }, signal);
    }
  }
  return runSessionWrite(
    services,
    intent.sessionId,
    (session, origin) => {
      const lookup = () => services.index.lookup(session);
      if (origin !== "agent" && foldedPlan(viewOfSession(session, lookup(), origin), intent) !== null) return { ok: false, refusal: needsAgent(intent.sessionId) };
      const written = writeTombstone(session, viewOfSession(session, lookup(), origin), intent, services.tombstoneText, services.effects?.(), lookup);
      if (!written.ok) return written;
      const { value } = written;
      const recalled = value.content !== void 0 && value.text !== void 0 ? { content: value.content, text: value.text } : void 0;
      return { ok: true, value, seq: written.event.seq, ...recalled === void 0 ? {} : { recalled } };
    },
    {
      maintenance: true,
      precheck: (view) => {
        if (foldedPlan(view, intent) !== null) return needsAgent(intent.sessionId);
        const planned = planRemovalOnView(view, intent);
        return planned.ok ? null : planned.refusal;
      }
    }
  );
}
async function previewRemoval(services, intent) {
  const read = await services.access.read(intent.sessionId);
  if (!read.ok) return read;
  const view = read.value;
  const folded = foldedPlan(view, intent);
  if (folded !== null && ACTIONS[intent.action].plans === "onward" && "seq" in intent.target) {
    const mixed = planMixedOnView(view, { changes: [{ action: "deleteFrom", seq: intent.target.seq }], ...intent.expect === void 0 ? {} : { expect: intent.expect } });
    if (!mixed.ok) return { ok: false, refusal: singleRefusal(mixed.refusal) };
    return { ok: true, value: foldedPreview(view, intent, mixed.value.folded.plan, mixed.value.tail?.range ?? null) };
  }
  if (folded !== null) return folded.ok ? { ok: true, value: foldedPreview(view, intent, folded.value, null) } : folded;
  const planned = planRemovalOnView(view, intent);
  if (!planned.ok) return planned;
  const plan = planned.value;
  const contents = plan.shadowedSeqs.map((seq) => contentOf(view.lookup(seq)));
  return {
    ok: true,
    value: {
      action: intent.action,
      range: { start: plan.start, end: plan.end },
      shadowedSeqs: plan.shadowedSeqs,
      nodeKinds: plan.nodeKinds,
      removedCount: plan.nodeKinds.filter((kind) => kind !== "tombstone").length,
      estimatedTokens: estimateTokens(contents),
      ...plan.stepKey === null ? {} : { turn: plan.stepKey.turn, step: plan.stepKey.step },
      replaceGeneration: view.replaceGeneration,
      lastSeq: view.lastSeq
    }
  };
}
function foldedPreview(view, intent, plan, tail) {
  const tailRemoved = tail === null ? [] : tail.shadowedSeqs.filter((_, i) => tail.nodeKinds[i] !== "tombstone");
  const removed = [...plan.removedSeqs, ...tailRemoved].map((seq) => contentOf(view.lookup(seq)));
  const kept = plan.keptSeqs.map((seq) => contentOf(view.lookup(seq)));
  return {
    action: intent.action,
    range: { start: plan.checkpointSeq, end: tail?.end ?? plan.checkpointSeq },
    shadowedSeqs: [plan.checkpointSeq, ...tail?.shadowedSeqs ?? []],
    nodeKinds: ["checkpoint", ...tail?.nodeKinds ?? []],
    removedCount: plan.removedSeqs.length + tailRemoved.length,
    estimatedTokens: estimateTokens(removed),
    replaceGeneration: view.replaceGeneration,
    lastSeq: view.lastSeq,
    summaryRewrite: { checkpointSeq: plan.checkpointSeq, removedSeqs: plan.removedSeqs, inputMessages: plan.keptSeqs.length, estimatedInputTokens: estimateTokens(kept) }
  };
}

// src/host/erase-session.ts
import { rm as rm3, stat as stat2 } from "node:fs/promises";
import { join as join2 } from "node:path";

// src/host/erase-log.ts
import { readFile, rm as rm2 } from "node:fs/promises";

// src/host/jsonl-log-file.ts
import { open, readdir, rename, rm } from "node:fs/promises";
import { randomBytes } from "node:crypto";
import { basename, dirname, join } from "node:path";
import { constants, zstdCompressSync, zstdDecompressSync } from "node:zlib";

// src/log/zstd-frames.ts
var ZSTD_MAGIC_BYTES = Uint8Array.of(40, 181, 47, 253);
var ZSTD_FRAME_MAGIC = (ZSTD_MAGIC_BYTES[0] | ZSTD_MAGIC_BYTES[1] << 8 | ZSTD_MAGIC_BYTES[2] << 16 | ZSTD_MAGIC_BYTES[3] << 24) >>> 0;
var MAX_BLOCK_BYTES = 128 * 1024;
var SKIPPABLE_MASK = 4294967280;
var SKIPPABLE_MAGIC = 407710288;
function u32(bytes, at) {
  return (bytes[at] | bytes[at + 1] << 8 | bytes[at + 2] << 16 | bytes[at + 3] << 24) >>> 0;
}
function uintLE(bytes, at, size) {
  let value = 0;
  for (let i = size - 1; i >= 0; i--) value = value * 256 + bytes[at + i];
  return value;
}
var FrameTable = class {
  /** Frames held. */
  count = 0;
  /** File index of frame 0 of the table. */
  firstIndex = 0;
  /** Absolute start and (exclusive) end offsets. */
  start = new Float64Array(256);
  end = new Float64Array(256);
  /** `1` for a skippable frame, `0` for a data frame. */
  skippable = new Uint8Array(256);
  contentSize = new Float64Array(256);
  windowSize = new Float64Array(256);
  checksum = new Float64Array(256);
  blocks = new Uint32Array(256);
  /** Empty the table; the next frame added is file frame `firstIndex`. */
  reset(firstIndex) {
    this.count = 0;
    this.firstIndex = firstIndex;
  }
  /** Append one frame (offsets absolute; `-1` for an absent value). */
  add(start, end, skippable, contentSize, windowSize, checksum, blocks) {
    if (this.count === this.start.length) this.grow();
    const i = this.count++;
    this.start[i] = start;
    this.end[i] = end;
    this.skippable[i] = skippable ? 1 : 0;
    this.contentSize[i] = contentSize;
    this.windowSize[i] = windowSize;
    this.checksum[i] = checksum;
    this.blocks[i] = blocks;
  }
  /** Frame `i` of the table as an object. */
  frame(i) {
    const orNull = (value) => value < 0 ? null : value;
    return {
      index: this.firstIndex + i,
      start: this.start[i],
      end: this.end[i],
      kind: this.skippable[i] === 1 ? "skippable" : "zstd",
      contentSize: orNull(this.contentSize[i]),
      windowSize: orNull(this.windowSize[i]),
      checksum: orNull(this.checksum[i]),
      blocks: this.blocks[i]
    };
  }
  /** Every frame of the table as objects, in order. */
  frames() {
    return Array.from({ length: this.count }, (_, i) => this.frame(i));
  }
  grow() {
    const size = this.start.length * 2;
    const widen2 = (old, make) => {
      const next = make(size);
      next.set(old);
      return next;
    };
    this.start = widen2(this.start, (n) => new Float64Array(n));
    this.end = widen2(this.end, (n) => new Float64Array(n));
    this.skippable = widen2(this.skippable, (n) => new Uint8Array(n));
    this.contentSize = widen2(this.contentSize, (n) => new Float64Array(n));
    this.windowSize = widen2(this.windowSize, (n) => new Float64Array(n));
    this.checksum = widen2(this.checksum, (n) => new Float64Array(n));
    this.blocks = widen2(this.blocks, (n) => new Uint32Array(n));
  }
};
var scanTable = new FrameTable();
function scanZstdFrames(bytes, options = {}) {
  const table = scanTable;
  table.reset(options.firstIndex ?? 0);
  const { next, stop } = walkZstdFrames(bytes, table, options.baseOffset ?? 0);
  const frames = table.frames();
  if (table.start.length > 4096) scanTable = new FrameTable();
  return { frames, next, stop };
}
function walkZstdFrames(bytes, table, base) {
  let offset = 0;
  const length = bytes.length;
  const incomplete = (start, part, at, needed, blocksComplete) => ({
    next: base + start,
    stop: { kind: "incomplete", index: table.firstIndex + table.count, start: base + start, part, at: base + at, needed, blocksComplete }
  });
  const corrupt = (start, at, reason) => ({
    next: base + start,
    stop: { kind: "corrupt", offset: base + at, reason }
  });
  while (offset < length) {
    const start = offset;
    if (length - offset < 4) return incomplete(start, "magic", offset, 4, 0);
    const magic = u32(bytes, offset);
    if ((magic & SKIPPABLE_MASK) >>> 0 === SKIPPABLE_MAGIC) {
      if (length - offset < 8) return incomplete(start, "frame-header", offset + 4, 4, 0);
      const size = u32(bytes, offset + 4);
      if (length - offset - 8 < size) return incomplete(start, "skippable-payload", offset + 8, size, 0);
      offset += 8 + size;
      table.add(base + start, base + offset, true, -1, -1, -1, 0);
      continue;
    }
    if (magic !== ZSTD_FRAME_MAGIC) {
      return corrupt(start, offset, `invalid frame magic 0x${magic.toString(16).padStart(8, "0")} (expected 28 b5 2f fd)`);
    }
    offset += 4;
    if (offset === length) return incomplete(start, "frame-header", offset, null, 0);
    const descriptor = bytes[offset];
    if ((descriptor & 8) !== 0) return corrupt(start, offset, "reserved bit set in the frame header descriptor");
    const contentSizeFlag = descriptor >>> 6;
    const singleSegment = (descriptor & 32) !== 0;
    const hasChecksum = (descriptor & 4) !== 0;
    const dictionaryFlag = descriptor & 3;
    const dictionaryBytes = dictionaryFlag === 3 ? 4 : dictionaryFlag;
    const contentSizeBytes = contentSizeFlag === 0 ? singleSegment ? 1 : 0 : 1 << contentSizeFlag;
    const headerBytes = 1 + (singleSegment ? 0 : 1) + dictionaryBytes + contentSizeBytes;
    if (length - offset < headerBytes) return incomplete(start, "frame-header", offset, headerBytes, 0);
    let cursor = offset + 1;
    let windowSize = -1;
    if (!singleSegment) {
      const windowDescriptor = bytes[cursor];
      const exponent = windowDescriptor >>> 3;
      const windowBase = exponent <= 20 ? 1 << 10 + exponent : 2 ** (10 + exponent);
      windowSize = windowBase + windowBase / 8 * (windowDescriptor & 7);
      cursor += 1;
    }
    cursor += dictionaryBytes;
    let contentSize = -1;
    if (contentSizeBytes > 0) {
      contentSize = uintLE(bytes, cursor, contentSizeBytes) + (contentSizeBytes === 2 ? 256 : 0);
      cursor += contentSizeBytes;
    }
    if (singleSegment) windowSize = contentSize;
    offset = cursor;
    let blocks = 0;
    for (; ; ) {
      if (length - offset < 3) return incomplete(start, "block-header", offset, 3, blocks);
      const header = bytes[offset] | bytes[offset + 1] << 8 | bytes[offset + 2] << 16;
      const last = (header & 1) === 1;
      const type = header >>> 1 & 3;
      const size = header >>> 3;
      if (type === 3) return corrupt(start, offset, `reserved block type in block ${blocks} of the frame`);
      if (type !== 1 && size > MAX_BLOCK_BYTES) return corrupt(start, offset, `block ${blocks} declares ${counted(size, "byte")} (at most ${MAX_BLOCK_BYTES})`);
      const payload = type === 1 ? 1 : size;
      if (length - offset - 3 < payload) return incomplete(start, "block", offset + 3, payload, blocks);
      offset += 3 + payload;
      blocks++;
      if (last) break;
    }
    let checksum = -1;
    if (hasChecksum) {
      if (length - offset < 4) return incomplete(start, "checksum", offset, 4, blocks);
      checksum = u32(bytes, offset);
      offset += 4;
    }
    table.add(base + start, base + offset, false, contentSize, windowSize, checksum, blocks);
  }
  return { next: base + offset, stop: { kind: "end" } };
}

// src/host/jsonl-log-file.ts
function isJsonlBackend(service) {
  const s = service;
  return s != null && (s.compression === "zstd" || s.compression === "none") && typeof s.readRaw === "function" && typeof s.locate === "function" && typeof s.readPrefix === "function" && typeof s.assertStoredIdentity === "function";
}
function decodeLogBytes(bytes, compression) {
  if (compression === "none") return bytes.toString("utf8");
  const scan = scanZstdFrames(bytes);
  if (scan.stop.kind !== "end") throw new Error("the log does not end at a frame boundary (a torn or damaged tail)");
  return Buffer.concat(scan.frames.filter((f) => f.kind === "zstd").map((f) => zstdDecompressSync(bytes.subarray(f.start, f.end)))).toString("utf8");
}
function encodeLogText(text, compression) {
  if (compression === "none") return Buffer.from(text, "utf8");
  const cut = text.indexOf("\n") + 1;
  const options = { params: { [constants.ZSTD_c_checksumFlag]: 1 } };
  const header = zstdCompressSync(Buffer.from(text.slice(0, cut), "utf8"), options);
  const rest = text.slice(cut);
  return rest === "" ? header : Buffer.concat([header, zstdCompressSync(Buffer.from(rest, "utf8"), options)]);
}
async function syncDirectory(dir) {
  const handle = await open(dir, "r");
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}
async function writeBeside(logPath, bytes) {
  const path = `${logPath}.${randomBytes(6).toString("hex")}.erase.tmp`;
  const handle = await open(path, "wx", 384);
  try {
    await handle.writeFile(bytes);
    await handle.sync();
  } catch (error) {
    await handle.close().catch(() => {
    });
    await rm(path, { force: true });
    throw error;
  } finally {
    await handle.close().catch(() => {
    });
  }
  return path;
}
async function removeLeftovers(logPath) {
  const prefix = `${basename(logPath)}.`;
  const names = (await readdir(dirname(logPath)).catch(() => [])).filter((n) => n.startsWith(prefix) && /^\.[0-9a-f]{12}\.erase\.tmp$/.test(n.slice(prefix.length - 1)));
  for (const name2 of names) await rm(join(dirname(logPath), name2), { force: true });
  return names;
}
async function readLogAndHeaderWithDsh(backend, path, expectedId) {
  const reader = Object.create(backend, { assertStoredIdentity: { value: async () => {
  } } });
  const prefix = await reader.readPrefix.call(reader, path, expectedId);
  if (prefix.meta.id !== expectedId) throw new Error(`the log names session "${prefix.meta.id}", not "${expectedId}"`);
  if (prefix.tornMarker !== void 0) throw new Error("the log has a torn tail");
  return { meta: prefix.meta, events: prefix.events };
}
async function publishLogFile(newPath, logPath) {
  await rename(newPath, logPath);
  await syncDirectory(dirname(logPath));
}

// src/host/erase-verify.ts
import { isDeepStrictEqual } from "node:util";

// src/shared/same-json.ts
function sameJson(a, b) {
  if (a === b) return true;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!sameJson(a[i], b[i])) return false;
    return true;
  }
  if (!isRecord(a) || !isRecord(b) || Array.isArray(b)) return false;
  const keys = Object.keys(a);
  if (keys.length !== Object.keys(b).length) return false;
  for (const key of keys) if (!Object.hasOwn(b, key) || !sameJson(a[key], b[key])) return false;
  return true;
}

// src/host/erase-verify.ts
import { deriveEventMessage as deriveEventMessage3, foldSurface as foldSurface2 } from "@deepseek-ai/dsh-session";

// src/host/invariant-load.ts
var modules;
function loadModules() {
  modules ??= Promise.all([
    import("@deepseek-ai/cordis"),
    import("@deepseek-ai/dsh-session"),
    import("@deepseek-ai/dsh-invariants"),
    import("@deepseek-ai/dsh-llm"),
    import("@deepseek-ai/dsh-session/invariant"),
    import("@deepseek-ai/dsh-compaction/invariant"),
    import("@deepseek-ai/dsh-agent-loop/invariant")
  ]).catch((error) => {
    modules = void 0;
    throw error;
  });
  return modules;
}
async function loadUnderInvariants(id, events, header) {
  let loaded;
  try {
    loaded = await loadModules();
  } catch (error) {
    return { ok: false, problem: `the invariant companions cannot be loaded: ${errorText(error)}` };
  }
  const [cordis, session, invariants, llm, ...companions] = loaded;
  const ctx = new cordis.Context();
  try {
    await Promise.all([
      ctx.plugin(invariants.InvariantRegistry, { enabled: true }),
      ctx.plugin(session.SessionStore),
      ...companions.map((companion) => ctx.plugin(companion))
    ]);
    const store = ctx.sessions;
    const sessionId = session.SessionId(id);
    let restored;
    let detach;
    try {
      restored = header === void 0 ? store.prepare(sessionId, { seed: events }) : store.prepare(sessionId, { seed: events, meta: header, seedSource: "persistence" });
      detach = store.enter(restored);
      store.announce(restored);
    } catch (error) {
      detach?.();
      return { ok: false, problem: problemOf(error) };
    }
    try {
      return checkNextRequest(ctx, session, llm, restored);
    } finally {
      detach();
    }
  } finally {
    await ctx.fiber.dispose();
  }
}
function checkNextRequest(ctx, session, llm, restored) {
  const messages = restored.deriveMessages();
  const folded = session.foldRequestHeader(restored.events);
  if (folded === void 0 || !restored.events.some((event) => event.type === "step/start")) return { ok: true, session: restored, messages };
  const request = llm.markAgentLoopRequest(llm.deepFreeze({
    ...folded.config,
    messages,
    ...folded.system === void 0 ? {} : { system: folded.system },
    ...folded.tools === void 0 ? {} : { tools: folded.tools },
    sessionId: restored.id
  }));
  try {
    ;
    ctx.waterfall("llm/stream", request, () => void 0);
  } catch (error) {
    return { ok: false, problem: problemOf(error) };
  }
  return { ok: true, session: restored, messages };
}
function problemOf(error) {
  const code = error?.code;
  return code === "INVARIANT" ? `the new log violates an invariant: ${errorText(error)}` : `the new log does not load: ${errorText(error)}`;
}

// src/host/erase-verify.ts
function withoutEraseMark(message) {
  const m = message;
  if (m.source === void 0 || !("erased" in m.source)) return message;
  const { erased: _erased, ...source } = m.source;
  return { ...m, source };
}
async function verifyErasedLog(id, before, after, rewritten, header) {
  if (after.length !== before.length) return `the new log holds ${after.length} events, the old one ${before.length}`;
  for (let i = 0; i < before.length; i++) {
    const a = before[i];
    const b = after[i];
    if (!rewritten.has(i) && sameJson(a, b)) continue;
    for (const key of ["seq", "type", "time", "surfaceOp", "sourceEventSeqs"]) {
      if (!sameJson(a[key], b[key])) return `event ${i} differs in ${key}`;
    }
    if (!rewritten.has(i)) return `event ${i} differs, and the erase did not rewrite it`;
    const { data: _a, ...restA } = a;
    const { data: _b, ...restB } = b;
    if (!sameJson(restA, restB)) return `event ${i} differs outside its data`;
  }
  let foldA;
  try {
    foldA = foldSurface2(before);
  } catch (error) {
    return `the old log does not fold: ${errorText(error)}`;
  }
  const load = await loadUnderInvariants(id, after, header);
  if (!load.ok) return load.problem;
  const loaded = load.session;
  if (!isDeepStrictEqual([...foldA.nodes], [...loaded.surface.nodes])) return "the new log folds to another surface";
  if (foldA.replacements.length !== loaded.surface.replaceGeneration) return "the new log folds with other replacements";
  const derivedA = JSON.stringify(foldA.nodes.map((seq) => deriveEventMessage3(before[seq])).filter((m) => m !== null).map(withoutEraseMark));
  const derivedB = JSON.stringify(load.messages.map(withoutEraseMark));
  if (derivedA !== derivedB) return "the new log derives other messages";
  return null;
}

// src/host/erase-log.ts
async function eraseLogFile(reader, logPath, id, tombstoneSeq, options) {
  await removeLeftovers(logPath);
  let text;
  try {
    text = decodeLogBytes(await readFile(logPath), reader.compression);
  } catch (error) {
    return { ok: false, code: "ERASE_NOT_VERIFIED", problem: `the stored log cannot be read whole: ${errorText(error)}` };
  }
  const rewrite = eraseRemovalInLog(text, tombstoneSeq, options.at);
  if (!rewrite.ok) return rewrite;
  return replaceVerified(reader, logPath, id, rewrite.value, options);
}
async function replaceVerified(reader, logPath, id, erase, options) {
  const before = erase.events;
  const expected = options.expectedLength?.();
  if (erase.eventCount !== before.length || expected !== void 0 && expected !== before.length) {
    return { ok: false, code: "ERASE_NOT_VERIFIED", problem: `the stored log holds ${before.length} events, the text ${erase.eventCount}${expected !== void 0 ? `, the session ${expected}` : ""}` };
  }
  const newPath = await writeBeside(logPath, encodeLogText(erase.text, reader.compression));
  let problem;
  try {
    const after = await readLogAndHeaderWithDsh(reader, newPath, id);
    problem = await verifyErasedLog(id, before, after.events, /* @__PURE__ */ new Set([...erase.carriers.keys(), erase.tombstoneSeq]), after.meta);
  } catch (error) {
    problem = `DSH cannot read the new log: ${errorText(error)}`;
  }
  if (problem === null && options.expectedLength !== void 0 && options.expectedLength() !== before.length) problem = "an event was appended during the erase";
  if (problem !== null) {
    await rm2(newPath, { force: true });
    return { ok: false, code: "ERASE_NOT_VERIFIED", problem };
  }
  await publishLogFile(newPath, logPath);
  return { ok: true, value: erase, at: options.at };
}

// src/host/projection-cache-erase.ts
function isProjectionCacheWriter(service) {
  const s = service;
  return s != null && typeof s.requireTable === "function" && typeof s.coldSnapshot === "function";
}
async function rebuildCacheEntry(cache, id) {
  const table = cache.requireTable();
  if (table.get(id) === void 0) return "absent";
  await table.delete(id);
  try {
    await cache.coldSnapshot(id);
  } catch {
    return "dropped";
  }
  return "rebuilt";
}

// src/host/erase-session.ts
var REASON_TEXT = {
  "NOT_A_TOMBSTONE": "there is no removal of this plugin at that seq",
  "EXCLUSION": "an exclusion keeps its messages in the transcript; only a removal can be erased",
  "NOT_IN_EFFECT": "that removal was undone (restored), so its messages are in the conversation again",
  "ALREADY_ERASED": "that removal was erased already",
  "session-open": "the session is open in the host; the host holds its messages in memory. Stop the host and use `dsh-message-recall-log erase`"
};
function eraseFailureText(failure, tombstoneSeq) {
  return failure.code === "ERASE_NOT_VERIFIED" ? `the erased log did not verify, nothing changed: ${failure.problem}` : `cannot erase removal ${tombstoneSeq}: ${REASON_TEXT[failure.code]}`;
}
function notErasable(reason, tombstoneSeq) {
  return { code: "NOT_ERASABLE", reason, message: `message-recall: ${eraseFailureText({ code: reason }, tombstoneSeq)}` };
}
async function eraseRemoval(services, request) {
  const backend = services.backend();
  if (backend === void 0) return { ok: false, refusal: { code: "ERASE_UNAVAILABLE", message: "message-recall: erase needs DSH's JSONL session persistence" } };
  const { sessionId, tombstoneSeq } = request;
  const queued = await services.queue.run(
    sessionId,
    () => services.access.write(sessionId, async (session, origin) => {
      if (origin !== "stored") return { ok: false, refusal: notErasable("session-open", tombstoneSeq) };
      return eraseHeld(services, backend, session, tombstoneSeq);
    })
  );
  if (!queued.ok) return { ok: false, refusal: { code: "AGENT_BUSY", message: `message-recall: session "${sessionId}" is busy with ${queued.ahead} earlier write(s)` } };
  const outcome = queued.value;
  if (outcome.ok) {
    const cache = services.projectionCache?.();
    const projectionCache = cache === void 0 ? "absent" : await rebuildCacheEntry(cache, sessionId);
    return { ok: true, value: { ...outcome.value, projectionCache } };
  }
  const refusal = outcome.refusal;
  if ("sessionId" in refusal) {
    return refusal.code === "AGENT_BUSY" ? { ok: false, refusal: { code: "AGENT_BUSY", message: `message-recall: session "${sessionId}" is busy: ${refusal.detail}` } } : { ok: false, refusal: { code: "SESSION_NOT_LIVE", message: noSessionMessage(sessionId) } };
  }
  return { ok: false, refusal };
}
async function eraseHeld(services, backend, session, tombstoneSeq) {
  const id = session.id;
  await services.sessions.flush(session);
  const { cwd } = session.header;
  const erasedAt = (services.now?.() ?? /* @__PURE__ */ new Date()).toISOString();
  const done = await eraseLogFile(backend, backend.locate({ id, ...cwd === void 0 ? {} : { cwd } }).path, id, tombstoneSeq, { at: erasedAt, expectedLength: () => session.seq });
  if (!done.ok) {
    return done.code === "ERASE_NOT_VERIFIED" ? { ok: false, refusal: { code: "ERASE_NOT_VERIFIED", message: `message-recall: ${eraseFailureText(done, tombstoneSeq)}` } } : { ok: false, refusal: notErasable(done.code, tombstoneSeq) };
  }
  const erase = done.value;
  const others = [];
  const freed = erase.erasedImages.length + erase.erasedFiles.length > 0;
  for (const header of freed ? await backend.list() : []) {
    if (header.id === id) continue;
    const other = await backend.readRaw(header.id).catch(() => void 0);
    if (other !== void 0) others.push(other.content);
  }
  const side = await deleteSideFiles(erase, others, services.attachmentRoot());
  return {
    ok: true,
    value: { action: "erase", tombstoneSeq, erasedAt, messageSeqs: erase.messageSeqs, rewrittenEvents: erase.carriers.size, ...side }
  };
}
async function deleteSideFiles(erase, otherLogs, attachmentRoot) {
  const otherImages = /* @__PURE__ */ new Map();
  const otherPaths = /* @__PURE__ */ new Set();
  for (const content of otherLogs) {
    for (const line of content.split("\n")) {
      if (line === "") continue;
      try {
        collectEventImages(JSON.parse(line), otherImages);
      } catch {
        continue;
      }
    }
    for (const path of toolOutputPathsIn(content)) otherPaths.add(path);
  }
  const kept = [];
  const deletedImages = [];
  for (const image of erase.erasedImages) {
    if (otherImages.has(image)) kept.push({ name: image, reason: "referenced" });
    else if (attachmentRoot === void 0) kept.push({ name: image, reason: "no-attachment-store" });
    else {
      const sha = /^sha256:([a-f0-9]{64})$/.exec(image)?.[1];
      const object = sha === void 0 ? void 0 : join2(attachmentRoot, "objects", sha.slice(0, 2), sha);
      if (object === void 0 || !await exists(object)) kept.push({ name: image, reason: "absent" });
      else {
        await rm3(object, { force: true });
        deletedImages.push(image);
      }
    }
  }
  const deletedFiles = [];
  for (const path of erase.erasedFiles) {
    if (otherPaths.has(path)) kept.push({ name: path, reason: "referenced" });
    else if (!await exists(path)) kept.push({ name: path, reason: "absent" });
    else {
      await rm3(path, { force: true });
      deletedFiles.push(path);
    }
  }
  return { deletedImages, deletedFiles, kept };
}
async function exists(path) {
  try {
    await stat2(path);
    return true;
  } catch {
    return false;
  }
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
async function erasePlanCopies(services, sessionId, messageSeqs) {
  if (messageSeqs.length === 0) return [];
  const copies = [];
  for (const { header, seqs } of copiesHolding(await services.headers(), sessionId, messageSeqs)) {
    const live = services.isOpen(header.id);
    if (live) await services.flush(header.id);
    const content = await services.readRaw(header.id);
    if (content === void 0) continue;
    const removal = copyRemoval(content, seqs);
    if (removal === null) continue;
    copies.push({
      sessionId: header.id,
      title: removal.title,
      tombstoneSeq: removal.removals[0]?.tombstoneSeq ?? null,
      removals: removal.removals,
      notRemovedCount: removal.notRemovedCount,
      live
    });
  }
  return copies;
}

// src/host/erase-at-start.ts
function pendingEraseValue(record) {
  return {
    tombstoneSeq: record.tombstoneSeq,
    scheduledAt: record.scheduledAt,
    messageCount: record.messageSeqs.length,
    imageCount: record.imageCount,
    fileCount: record.fileCount,
    state: record.state,
    ...record.problem === void 0 ? {} : { problem: record.problem }
  };
}
async function scheduleErase(services, request) {
  const { sessionId, tombstoneSeq } = request;
  const earlier = await services.pending.get(sessionId, tombstoneSeq);
  if (earlier?.state === "pending") return { ok: true, value: { action: "erase", when: "next-start", erase: pendingEraseValue(earlier) } };
  return checkErase(services, request, async (record) => ({ action: "erase", when: "next-start", erase: pendingEraseValue(await services.pending.add(record)) }));
}
async function planErase(services, request) {
  const checked = await checkErase(services, request, async (record2) => record2);
  if (!checked.ok) return checked;
  const record = checked.value;
  const backend = services.erase.backend();
  const copies = await erasePlanCopies({
    headers: () => services.headers(),
    readRaw: async (id) => (await backend.readRaw(id).catch(() => void 0))?.content,
    isOpen: (id) => services.open(id) !== void 0,
    flush: async (id) => {
      const open3 = services.open(id);
      if (open3 !== void 0) await services.erase.sessions.flush(open3);
    }
  }, request.sessionId, record.messageSeqs);
  return { ok: true, value: {
    action: "plan",
    planAction: "erase",
    tombstoneSeq: record.tombstoneSeq,
    messageCount: record.messageSeqs.length,
    imageCount: record.imageCount,
    fileCount: record.fileCount,
    copies
  } };
}
async function checkErase(services, request, then) {
  const backend = services.erase.backend();
  if (backend === void 0) return { ok: false, refusal: { code: "ERASE_UNAVAILABLE", message: "message-recall: erase needs DSH's JSONL session persistence" } };
  const { sessionId, tombstoneSeq } = request;
  const queued = await services.erase.queue.run(sessionId, async () => {
    const open3 = services.open(sessionId);
    if (open3 !== void 0) await services.erase.sessions.flush(open3);
    const raw = await backend.readRaw(sessionId).catch(() => void 0);
    if (raw === void 0) {
      const message = open3 === void 0 ? noSessionMessage(sessionId) : `message-recall: session "${sessionId}" has no stored log to erase from`;
      return { ok: false, refusal: { code: "SESSION_NOT_LIVE", message } };
    }
    const scheduledAt = (services.erase.now?.() ?? /* @__PURE__ */ new Date()).toISOString();
    const checked = eraseRemovalInLog(raw.content, tombstoneSeq, scheduledAt);
    if (!checked.ok) return { ok: false, refusal: notErasable(checked.code, tombstoneSeq) };
    const value = await then({
      sessionId,
      tombstoneSeq,
      scheduledAt,
      messageSeqs: checked.value.messageSeqs,
      imageCount: checked.value.erasedImages.length,
      fileCount: checked.value.erasedFiles.length,
      state: "pending"
    });
    return { ok: true, value };
  });
  if (!queued.ok) return { ok: false, refusal: { code: "AGENT_BUSY", message: `message-recall: session "${sessionId}" is busy with ${queued.ahead} earlier write(s)` } };
  return queued.value;
}
async function unknownSession(services, sessionId) {
  if (services.open(sessionId) !== void 0 || await services.erase.access.isStored(sessionId)) return null;
  return { code: "SESSION_NOT_LIVE", message: noSessionMessage(sessionId) };
}
async function cancelErase(services, request) {
  const cancelled = await services.pending.update(request.sessionId, request.tombstoneSeq, void 0);
  if (!cancelled) {
    const unknown = await unknownSession(services, request.sessionId);
    if (unknown !== null) return { ok: false, refusal: unknown };
  }
  return { ok: true, value: { action: "cancelErase", tombstoneSeq: request.tombstoneSeq, cancelled } };
}
async function listPendingErases(services, sessionId) {
  const unknown = await unknownSession(services, sessionId);
  if (unknown !== null) return { ok: false, refusal: unknown };
  return { ok: true, value: { action: "pendingErases", erases: (await services.pending.all()).filter((e) => e.sessionId === sessionId).map(pendingEraseValue) } };
}
async function pendingEraseRefusal(pending, sessionId, tombstoneSeq) {
  const record = await pending.get(sessionId, tombstoneSeq);
  if (record === void 0) return null;
  return { code: "ERASE_PENDING", message: record.state === "failed" ? `message-recall: an erase for good of removal ${tombstoneSeq} failed at the host's start and is kept; try it again or cancel it (cancelErase) to restore it` : `message-recall: removal ${tombstoneSeq} is to be erased for good when the host next starts; cancel the erase (cancelErase) to restore it or open a copy from before it` };
}
async function eraseNow(services, request) {
  const erased = await eraseRemoval(services.erase, request);
  if (erased.ok) await services.pending.update(request.sessionId, request.tombstoneSeq, void 0);
  return erased;
}
async function runPendingErases(services, log) {
  const runs = [];
  for (const record of await services.pending.all()) {
    const { sessionId, tombstoneSeq } = record;
    let run;
    if (record.state !== "pending") {
      if (await services.erase.access.isStored(sessionId).catch(() => true)) continue;
      run = { sessionId, tombstoneSeq, outcome: "dropped", detail: noSessionMessage(sessionId) };
    } else {
      run = await eraseOnce(services, sessionId, tombstoneSeq);
    }
    const detail = shortenPaths(run.detail);
    if (run.outcome === "erased" || run.outcome === "dropped") await services.pending.update(sessionId, tombstoneSeq, void 0);
    else if (run.outcome === "failed") await services.pending.update(sessionId, tombstoneSeq, { ...record, state: "failed", problem: detail });
    log(`message-recall: pending erase of removal ${tombstoneSeq} of session "${sessionId}": ${run.outcome}: ${withoutPrefix(detail)}`, run.outcome);
    runs.push({ ...run, detail });
  }
  return runs;
}
async function eraseOnce(services, sessionId, tombstoneSeq) {
  try {
    const erased = await eraseRemoval(services.erase, { sessionId, tombstoneSeq });
    if (erased.ok) {
      return { sessionId, tombstoneSeq, outcome: "erased", detail: `${erased.value.messageSeqs.length} message(s), ${erased.value.rewrittenEvents} event(s) rewritten, ${erased.value.deletedImages.length} image(s) and ${erased.value.deletedFiles.length} file(s) deleted` };
    }
    const refusal = erased.refusal;
    const reason = "reason" in refusal ? refusal.reason : void 0;
    if (refusal.code === "SESSION_NOT_LIVE" || refusal.code === "NOT_ERASABLE" && reason !== "session-open") return { sessionId, tombstoneSeq, outcome: "dropped", detail: refusal.message };
    if (refusal.code === "AGENT_BUSY" || reason === "session-open") return { sessionId, tombstoneSeq, outcome: "kept", detail: refusal.message };
    return { sessionId, tombstoneSeq, outcome: "failed", detail: refusal.message };
  } catch (error) {
    return { sessionId, tombstoneSeq, outcome: "failed", detail: `message-recall: ${errorText(error)}` };
  }
}

// src/host/summary-edit.ts
function checkpointOnView(view, checkpointSeq, expect) {
  const stale = checkExpectation(view, expect);
  if (stale !== null) return { ok: false, refusal: stale };
  const event = view.lookup(checkpointSeq);
  if (event === void 0 || !isCheckpointEvent(event)) return { ok: false, refusal: { code: "NOT_A_SUMMARY", seq: checkpointSeq, reason: "not-a-checkpoint" } };
  if (!view.nodes.includes(checkpointSeq)) return { ok: false, refusal: { code: "NOT_A_SUMMARY", seq: checkpointSeq, reason: "not-on-surface" } };
  return { ok: true, value: event };
}
function planSummaryEdit(view, intent) {
  const found = checkpointOnView(view, intent.checkpointSeq, intent.expect);
  if (!found.ok) return found;
  const event = found.value;
  const refuse2 = (reason) => ({ ok: false, refusal: { code: "NOT_A_SUMMARY", seq: intent.checkpointSeq, reason } });
  if (intent.action === "editSummary") {
    return { ok: true, value: { checkpointSeq: intent.checkpointSeq, summary: [{ type: "text", text: intent.summary }], removals: originalsOf(intent.checkpointSeq, view.lookup).removals } };
  }
  if (readRewriteCheckpoint(event) === null || event.sourceEventSeqs?.length !== 3) return refuse2("not-a-rewrite");
  const earlierSeq = event.sourceEventSeqs?.[2];
  const earlier = earlierSeq === void 0 ? void 0 : view.lookup(earlierSeq);
  const summary = earlier === void 0 ? null : summaryBlocksOf(earlier, view.lookup);
  if (earlierSeq === void 0 || earlier === void 0 || !isCheckpointEvent(earlier) || summary === null) return refuse2("not-a-rewrite");
  return { ok: true, value: { checkpointSeq: intent.checkpointSeq, summary, removals: originalsOf(earlierSeq, view.lookup).removals } };
}
function editSummary(services, intent) {
  return runSessionWrite(
    services,
    intent.sessionId,
    (session, origin) => {
      if (origin !== "agent") return { ok: false, refusal: needsAgent(intent.sessionId) };
      const lookup = services.index.lookup(session);
      const planned = planSummaryEdit(viewOfSession(session, lookup, origin), intent);
      if (!planned.ok) return planned;
      const plan = planned.value;
      const written = appendRewrite(session, { checkpointSeq: plan.checkpointSeq, removals: plan.removals }, { summary: plan.summary, provider: "dsh-message-recall", model: intent.action === "editSummary" ? "edited-by-hand" : "undo" }, services.meter(), (seq) => services.index.lookup(session)(seq));
      return {
        ok: true,
        value: { action: intent.action, checkpointSeq: written.checkpointSeq, replacedSeq: plan.checkpointSeq, compactionId: written.compactionId, replaceGeneration: session.surface.replaceGeneration },
        seq: written.checkpointSeq
      };
    },
    {
      maintenance: true,
      // A stored session is never entered for it: nothing is appended, not even `session/end-seed`.
      precheck: () => needsAgent(intent.sessionId)
    }
  );
}

// src/shared/summary-flag.ts
function shadowedOf(event) {
  const cited = event.sourceEventSeqs ?? [];
  const range = readReplaceOp(event.surfaceOp);
  const at = range === null ? -1 : cited.indexOf(range.start);
  return at === -1 ? cited : cited.slice(at);
}
function summaryContent(checkpointSeq, lookup) {
  const originals = [];
  const recorded = [];
  const visit = (event, underRewrite, depth) => {
    const record = underRewrite ? null : readRewriteCheckpoint(event);
    if (record !== null) recorded.push(...record.removals);
    for (const seq of shadowedOf(event)) {
      const node = lookup(seq);
      if (node !== void 0 && isCheckpointEvent(node) && depth < 64) visit(node, underRewrite || record !== null, depth + 1);
      else originals.push(seq);
    }
  };
  const checkpoint = lookup(checkpointSeq);
  if (checkpoint !== void 0 && isCheckpointEvent(checkpoint)) visit(checkpoint, false, 0);
  const gone = new Set(recorded.flatMap((r) => r.seqs));
  return { originals, recorded, held: originals.filter((seq) => !gone.has(seq)) };
}
function summaryFlags(replacements, fates = readFates(replacements)) {
  const bySeq = /* @__PURE__ */ new Map();
  for (const event of replacements) if (readReplaceOp(event.surfaceOp) !== null) bySeq.set(event.seq, event);
  if (fates.tombstones.length === 0) return [];
  const lookup = (seq) => bySeq.get(seq);
  const inEffect = fates.tombstones.filter((t) => fates.statusOf(t.seq)?.inEffect === true);
  const flags = [];
  for (const event of [...bySeq.values()].sort((a, b) => a.seq - b.seq)) {
    if (!isCheckpointEvent(event) || fates.shadowerOf(event.seq) !== null) continue;
    const held = new Set(summaryContent(event.seq, lookup).held);
    const removals = [];
    for (const tombstone of inEffect) {
      const seqs = [...new Set(tombstone.shadowedSeqs.filter((seq) => held.has(seq) && fates.tombstone(seq) === void 0))].sort((a, b) => a - b);
      if (seqs.length > 0) removals.push({ tombstoneSeq: tombstone.seq, action: tombstone.action, seqs });
    }
    if (removals.length === 0) continue;
    const removedSeqs = [...new Set(removals.flatMap((r) => r.seqs))].sort((a, b) => a - b);
    flags.push({ checkpointSeq: event.seq, removals, removedSeqs });
  }
  return flags;
}
function flaggedRemovals(flag) {
  const taken = /* @__PURE__ */ new Set();
  const out = [];
  for (const removal of flag.removals) {
    const seqs = removal.seqs.filter((seq) => !taken.has(seq));
    for (const seq of seqs) taken.add(seq);
    if (seqs.length > 0) out.push({ action: removal.action, seqs });
  }
  return out;
}

// src/host/summary-refresh.ts
function planSummaryRefresh(view, intent) {
  const found = checkpointOnView(view, intent.checkpointSeq, intent.expect);
  if (!found.ok) return found;
  const flag = summaryFlags(replacementEvents(view.nextSeq, view.lookup)).find((f) => f.checkpointSeq === intent.checkpointSeq);
  const { seqs: originals, removals: recorded } = originalsOf(intent.checkpointSeq, view.lookup);
  const added = flag === void 0 ? [] : flaggedRemovals(flag);
  const gone = new Set([...recorded, ...added].flatMap((r) => r.seqs));
  return {
    ok: true,
    value: { checkpointSeq: intent.checkpointSeq, removedSeqs: flag?.removedSeqs ?? [], keptSeqs: originals.filter((seq) => !gone.has(seq)), removals: [...recorded, ...added] }
  };
}
async function previewSummaryRefresh(services, intent) {
  const read = await services.access.read(intent.sessionId);
  if (!read.ok) return read;
  const view = read.value;
  const planned = planSummaryRefresh(view, intent);
  if (!planned.ok) return planned;
  const plan = planned.value;
  const kept = plan.keptSeqs.map((seq) => contentOf(view.lookup(seq)));
  return {
    ok: true,
    value: {
      action: "plan",
      planAction: "rewriteSummary",
      checkpointSeq: plan.checkpointSeq,
      removedSeqs: plan.removedSeqs,
      inputMessages: plan.keptSeqs.length,
      estimatedInputTokens: estimateTokens(kept),
      replaceGeneration: view.replaceGeneration,
      lastSeq: view.lastSeq
    }
  };
}
function refreshSummary(services, intent, signal) {
  return withSummarizer(services, intent.sessionId, signal, (agent, summarizer, both) => runRefresh(services, agent, summarizer, intent, both));
}
async function runRefresh(services, agent, summarizer, intent, signal) {
  const session = agent.session;
  const lookup = (seq) => services.index.lookup(session)(seq);
  const planned = planSummaryRefresh(viewOfSession(session, services.index.lookup(session), "agent"), intent);
  if (!planned.ok) return planned;
  const plan = planned.value;
  const summarized = await summarizeKept(agent, summarizer, intent.sessionId, plan, lookup, signal);
  if (!summarized.ok) return summarized;
  const again = planSummaryRefresh(viewOfSession(session, services.index.lookup(session), "agent"), { action: intent.action, checkpointSeq: intent.checkpointSeq });
  if (!again.ok || again.value.keptSeqs.join() !== plan.keptSeqs.join()) {
    return summaryFailed(intent.sessionId, "changed", "the compacted history changed while the summary was written; nothing was written");
  }
  const written = appendRewrite(session, plan, summarized.value, services.meter(), lookup);
  const value = {
    action: "rewriteSummary",
    checkpointSeq: written.checkpointSeq,
    replacedSeq: plan.checkpointSeq,
    compactionId: written.compactionId,
    replaceGeneration: session.surface.replaceGeneration,
    removedSeqs: plan.removedSeqs
  };
  const flushed = await flushWithRetry(() => services.sessions.flush(session), services.flushRetry);
  if (!flushed.ok) {
    throw new MessageRecallError("PERSIST_FAILED", `message-recall: the summary rewrite (checkpoint seq ${written.checkpointSeq}) was appended to session "${intent.sessionId}" and is in effect, but it is not yet durable: the durability flush failed ${flushed.attempts} times: ${flushed.reason}`, {
      cause: flushed.error,
      details: { applied: true, value: { ...value, persisted: false } }
    });
  }
  return { ok: true, value: { ...value, persisted: flushed.persisted } };
}

// src/host/home-lock.ts
import { linkSync, mkdirSync, readFileSync, unlinkSync, writeFileSync } from "node:fs";
import { randomBytes as randomBytes2 } from "node:crypto";
import { dirname as dirname2, join as join3 } from "node:path";
var heldHere = /* @__PURE__ */ new Set();
function pidRuns(pid) {
  if (!Number.isSafeInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return error.code === "EPERM";
  }
}
function processStartMs(pid) {
  try {
    const stat4 = readFileSync(`/proc/${pid}/stat`, "utf8");
    const ticks = Number(stat4.slice(stat4.lastIndexOf(")") + 2).split(" ")[19]);
    const boot = Number(/^btime (\d+)$/m.exec(readFileSync("/proc/stat", "utf8"))?.[1]);
    return Number.isFinite(ticks) && Number.isFinite(boot) ? boot * 1e3 + ticks * 10 : void 0;
  } catch {
    return void 0;
  }
}
var START_SLACK_MS = 5e3;
function holderLive(holder, runs = pidRuns) {
  if (holder.pid === process.pid) return heldHere.has(holder.token);
  if (!runs(holder.pid)) return false;
  const started = processStartMs(holder.pid);
  const taken = Date.parse(holder.startedAt);
  return started === void 0 || Number.isNaN(taken) || started <= taken + START_SLACK_MS;
}
function readHolder(file) {
  let text;
  try {
    text = readFileSync(file, "utf8");
  } catch (error) {
    if (error.code === "ENOENT") return "missing";
    throw error;
  }
  try {
    const value = JSON.parse(text);
    if (typeof value.pid === "number" && typeof value.token === "string") {
      return { pid: value.pid, token: value.token, startedAt: String(value.startedAt ?? ""), owner: String(value.owner ?? "") };
    }
  } catch {
  }
  return void 0;
}
function claimLock(file, owner) {
  mkdirSync(dirname2(file), { recursive: true });
  const holder = { pid: process.pid, startedAt: (/* @__PURE__ */ new Date()).toISOString(), owner, token: randomBytes2(8).toString("hex") };
  const temp = `${file}.${holder.token}.tmp`;
  writeFileSync(temp, JSON.stringify(holder) + "\n", { mode: 420 });
  try {
    for (let attempt = 0; ; attempt++) {
      try {
        linkSync(temp, file);
        heldHere.add(holder.token);
        return { ok: true, file, holder, release: () => releaseLock(file, holder.token) };
      } catch (error) {
        if (error.code !== "EEXIST" || attempt >= 5) throw error;
      }
      const current = readHolder(file);
      if (current === "missing") continue;
      if (current !== void 0 && holderLive(current)) return { ok: false, holder: current };
      try {
        unlinkSync(file);
      } catch (error) {
        if (error.code !== "ENOENT") throw error;
      }
    }
  } finally {
    try {
      unlinkSync(temp);
    } catch {
    }
  }
}
function releaseLock(file, token) {
  heldHere.delete(token);
  try {
    const current = readHolder(file);
    if (current !== "missing" && current !== void 0 && current.token === token) unlinkSync(file);
  } catch {
  }
}
function describeHolder(holder) {
  return `${holder.owner || "another process"} (pid ${holder.pid}${holder.startedAt ? `, since ${holder.startedAt}` : ""})`;
}
var PLUGIN_LOCK_FILE = ".message-recall.lock";
var PluginHomeLock = class {
  /**
   * @param root - the session persistence's root folder, `undefined` while none is loaded.
   * @param warn - where the one line about a refusing lock goes (the plugin's logger).
   */
  constructor(root, warn) {
    this.root = root;
    this.warn = warn;
  }
  held;
  reported;
  /**
   * Claim the lock when not yet held.
   * @returns `null` when this plugin may write, else the live holder (logged once per holder).
   */
  check() {
    const root = this.root();
    if (root === void 0) return null;
    const file = join3(root, PLUGIN_LOCK_FILE);
    if (this.held?.file === file) return null;
    this.held?.release();
    this.held = void 0;
    const claim = claimLock(file, "message-recall");
    if (claim.ok) {
      this.held = claim;
      return null;
    }
    if (this.reported !== claim.holder.token) {
      this.reported = claim.holder.token;
      this.warn(`${homeInUseMessage(claim.holder)} (lock file ${PLUGIN_LOCK_FILE} in the sessions folder)`);
    }
    return claim.holder;
  }
  /** Release the lock when held. */
  dispose() {
    this.held?.release();
    this.held = void 0;
  }
};
function homeInUseMessage(holder) {
  return `message-recall: another host writes this DSH home's sessions (${describeHolder(holder)}); this host refuses writes through message-recall until that host stops`;
}

// src/host/route.ts
function assertNever(value) {
  throw new Error(`message-recall: unhandled error code ${JSON.stringify(value)}`);
}
function statusOf(code) {
  switch (code) {
    case "INVALID_REQUEST":
      return 400;
    case "FORBIDDEN":
      return 403;
    case "METHOD_NOT_ALLOWED":
      return 405;
    case "PAYLOAD_TOO_LARGE":
      return 413;
    case "UNSUPPORTED_MEDIA_TYPE":
      return 415;
    case "SESSION_NOT_LIVE":
    case "HOME_IN_USE":
    case "TARGET_NOT_FOUND":
    case "NOT_A_USER_MESSAGE":
    case "NOT_DELETABLE":
    case "SPAN_NOT_CONTIGUOUS":
    case "NOT_RESTORABLE":
    case "NOT_A_SUMMARY":
    case "STALE_VIEW":
      return 409;
    case "NOT_ERASABLE":
    case "ERASE_NOT_VERIFIED":
    case "ERASE_PENDING":
      return 409;
    case "AGENT_BUSY":
      return 423;
    case "ERASE_UNAVAILABLE":
      return 501;
    case "SUMMARY_FAILED":
      return 502;
    case "PERSIST_FAILED":
    case "INTERNAL":
      return 500;
    default:
      return assertNever(code);
  }
}
function fail2(res, code, message, headers, details = {}) {
  sendJson(res, statusOf(code), { ok: false, error: { code, message: shortenPaths(message), ...details } }, headers);
}
function refuse(res, refusal) {
  fail2(res, refusal.code, describeRefusal(refusal), void 0, "index" in refusal ? { index: refusal.index } : {});
}
async function answer(res, outcome) {
  if (outcome.ok) await sendJsonInSlices(res, 200, { ok: true, value: outcome.value });
  else refuse(res, outcome.refusal);
}
async function answerRemoval(res, outcome) {
  const durable = outcome.ok ? durableHeaderOf(outcome.value) : null;
  if (outcome.ok) await sendJsonInSlices(res, 200, { ok: true, value: outcome.value }, durable === null ? {} : { [DURABLE_TOMBSTONE_HEADER]: durable });
  else refuse(res, outcome.refusal);
}
async function refusedPendingRestore(res, services, request) {
  for (const [index, change] of request.changes.entries()) {
    if (change.action !== "restore") continue;
    const pending = await pendingEraseRefusal(services.eraseLater.pending, request.sessionId, change.tombstoneSeq);
    if (pending !== null) {
      fail2(res, pending.code, pending.message, void 0, { index });
      return true;
    }
  }
  return false;
}
function createRouteHandler(services, config) {
  return async (req, res) => {
    try {
      const early = checkTrust(req.headers, config.trustedHosts) ?? checkMethod(req.method) ?? checkContentType(req.headers["content-type"]) ?? checkContentEncoding(req.headers["content-encoding"]);
      if (early !== null) {
        fail2(res, early.code, early.message, early.code === "METHOD_NOT_ALLOWED" ? { allow: "POST", connection: "close" } : { connection: "close" });
        return;
      }
      const body = await readJsonBody(req, config.maxBodyBytes);
      if (!body.ok) {
        fail2(res, body.refusal.code, body.refusal.message, body.refusal.code === "PAYLOAD_TOO_LARGE" ? { connection: "close" } : void 0);
        return;
      }
      const parsed = parseRouteRequest(body.value);
      if (!parsed.ok) {
        const { index } = parsed.refusal;
        fail2(res, parsed.refusal.code, parsed.refusal.message, void 0, index === void 0 ? {} : { index });
        return;
      }
      const request = parsed.request;
      const holder = READ_ROUTE_ACTIONS.includes(request.action) ? null : services.homeLock?.() ?? null;
      if (holder !== null) {
        fail2(res, "HOME_IN_USE", homeInUseMessage(holder), void 0, { holderPid: holder.pid });
        return;
      }
      switch (request.action) {
        case "inspect":
          await answer(res, await inspectSession({ sessions: services.sessions, index: services.index, persistence: services.persistence(), diskSummaries: services.diskSummaries }, request.sessionId));
          return;
        case "apply": {
          if (await refusedPendingRestore(res, services, request)) return;
          const cancel = new AbortController();
          res.once("close", () => {
            if (!res.writableFinished) cancel.abort();
          });
          await answer(res, await applyChanges({ ...services, tombstoneText: config.tombstoneText }, request, cancel.signal));
          return;
        }
        case "plan":
          if ("changes" in request) {
            if (!await refusedPendingRestore(res, services, request)) await answer(res, await previewChanges(services, request));
          } else if (request.planAction === "erase") {
            const planned = await planErase({ ...services.eraseLater, erase: services.erase }, request);
            if (planned.ok) sendJson(res, 200, { ok: true, value: planned.value });
            else fail2(res, planned.refusal.code, planned.refusal.message, void 0, "reason" in planned.refusal ? { reason: planned.refusal.reason } : {});
          } else await answer(res, await previewRemoval(services, { ...request, action: request.planAction }));
          return;
        case "restore":
        case "forkBefore": {
          const pending = await pendingEraseRefusal(services.eraseLater.pending, request.sessionId, request.tombstoneSeq);
          if (pending !== null) fail2(res, pending.code, pending.message);
          else if (request.action === "restore") await answer(res, await restoreMessage(services, request));
          else await answer(res, await forkBefore({ ...services, ...services.fork }, request));
          return;
        }
        case "cancelErase":
        case "pendingErases": {
          const later = { ...services.eraseLater, erase: services.erase };
          const done = request.action === "cancelErase" ? await cancelErase(later, request) : await listPendingErases(later, request.sessionId);
          if (done.ok) sendJson(res, 200, { ok: true, value: done.value });
          else fail2(res, done.refusal.code, done.refusal.message);
          return;
        }
        case "flush":
          await answer(res, await flushSession(services, request.sessionId));
          return;
        case "erase": {
          const erased = request.when === "next-start" ? await scheduleErase({ ...services.eraseLater, erase: services.erase }, request) : await eraseNow({ pending: services.eraseLater.pending, erase: services.erase }, request);
          if (erased.ok) sendJson(res, 200, { ok: true, value: erased.value });
          else fail2(res, erased.refusal.code, erased.refusal.message, void 0, "reason" in erased.refusal ? { reason: erased.refusal.reason } : {});
          return;
        }
        case "editSummary":
        case "undoRewrite":
          await answer(res, await editSummary({ ...services, meter: () => services.effects?.().meter }, request));
          return;
        case "rewriteSummary": {
          if (request.preview === true) {
            await answer(res, await previewSummaryRefresh(services, request));
            return;
          }
          const cancel = new AbortController();
          res.once("close", () => {
            if (!res.writableFinished) cancel.abort();
          });
          await answer(res, await refreshSummary({ ...services, summarizer: services.summarizer ?? (() => void 0), meter: () => services.effects?.().meter }, request, cancel.signal));
          return;
        }
        default: {
          const cancel = new AbortController();
          res.once("close", () => {
            if (!res.writableFinished) cancel.abort();
          });
          await answerRemoval(res, await removeMessages({ ...services, tombstoneText: config.tombstoneText }, request, cancel.signal));
          return;
        }
      }
    } catch (error) {
      const known = error instanceof MessageRecallError;
      const message = known ? error.message : `message-recall: ${errorText(error)}`;
      services.warn(message);
      if (!res.headersSent) fail2(res, known ? error.code : "INTERNAL", message, void 0, known ? error.details : {});
      else res.destroy();
    }
  };
}

// src/host/telemetry-filter.ts
function telemetryFilter(services) {
  const cache = /* @__PURE__ */ new WeakMap();
  return (record, next) => {
    const out = next();
    if (out.channel !== "ledger") return out;
    const id = out.attributes["session.id"];
    const seq = out.attributes["event.seq"];
    if (typeof id !== "string" || typeof seq !== "number") return out;
    const session = services.session(id);
    if (session === void 0) return out;
    const lookup = services.lookup(session);
    let known = cache.get(session);
    if (known === void 0 || known.count !== session.seq) {
      known = { count: session.seq, removed: findRemovedContent(session.seq, lookup) };
      cache.set(session, known);
    }
    const kind = known.removed.carriers.get(seq);
    const event = lookup(seq);
    if (kind === void 0 || event === void 0) return out;
    return { ...out, body: eventWithoutRemovedContent({ ...event, data: out.body }, kind, known.removed).data };
  };
}
function installTelemetryFilter(ctx, lookup) {
  const listener = telemetryFilter({ session: (id) => ctx.sessions.get(id), lookup });
  ctx.on("session-telemetry/record", listener);
}

// src/host/stored-listing.ts
import { readdir as readdir2, stat as stat3 } from "node:fs/promises";
import { basename as basename2, dirname as dirname3, join as join4 } from "node:path";
var MAX_CREATED = 1e3;
var PROBE = { version: 1, id: "message-recall-layout-probe", createdAt: 0 };
async function tokenOf(path) {
  try {
    const s = await stat3(path, { bigint: true });
    return `${s.dev}:${s.ino}:${s.size}:${s.mtimeNs}:${s.ctimeNs}`;
  } catch (error) {
    if (isMissingPath(error)) return null;
    throw error;
  }
}
async function foldersIn(path) {
  try {
    return (await readdir2(path, { withFileTypes: true })).filter((entry) => entry.isDirectory()).map((entry) => join4(path, entry.name));
  } catch (error) {
    if (isMissingPath(error)) return [];
    throw error;
  }
}
async function sessionFolders(layout) {
  const projects = await foldersIn(layout.root);
  return (await Promise.all(projects.map((project) => foldersIn(project)))).flat();
}
function folderOf(layout, log) {
  if (log === void 0 || basename2(log) !== layout.logName) return void 0;
  const folder = dirname3(log);
  return dirname3(dirname3(folder)) === layout.root ? folder : void 0;
}
function logOf(stored, header) {
  try {
    return stored.locate?.(header)?.path;
  } catch {
    return void 0;
  }
}
async function listInFull(stored) {
  if (stored.listSnapshots !== void 0) return (await stored.listSnapshots()).map(({ header, revision }) => ({ header, revision: String(revision) }));
  return (await stored.list()).map((header) => ({ header }));
}
var StoredLogListing = class {
  /** `undefined`: no full listing yet; `null`: the backend's layout is not the one this listing reads. */
  layout;
  /** Known stored sessions, by session folder. */
  sessions = /* @__PURE__ */ new Map();
  /** Session folders that held no log at the last full listing. */
  empty = /* @__PURE__ */ new Set();
  /** Sessions created in this process and not yet seen stored, by id. */
  created = /* @__PURE__ */ new Map();
  counts = { full: 0, checked: 0 };
  /**
   * Note a session created in this process (`session/created`), so its folder is known when its
   * log is stored.
   * @param header - the session's header.
   */
  noteCreated(header) {
    if (this.created.size >= MAX_CREATED) this.created.clear();
    this.created.set(header.id, header);
  }
  /**
   * Every stored session with its change token.
   * @param stored - the persistence service.
   * @param live - ids of sessions live in this process, whose logs are not `stat`ed (listed
   *   without a token; their titles are read from memory).
   * @returns one entry per stored log (as `SessionPersistence.listSnapshots` lists them; a log
   *   written during the call may be listed before or after the write).
   * @throws what the backend's listing, `readdir` or `stat` throw (other than a missing file).
   */
  async list(stored, live = /* @__PURE__ */ new Set()) {
    if (stored.locate === void 0 || this.layout === null) return listInFull(stored);
    if (this.layout !== void 0) {
      const checked = await this.check(stored, this.layout, live);
      if (checked !== void 0) return checked;
    }
    return this.full(stored, live);
  }
  /**
   * The change token of one stored session's log, as {@link StoredLogListing.list} gives it (the
   * session becomes known to the listing).
   * @param stored - the persistence service.
   * @param header - the stored session's header.
   * @returns its token, or `undefined` when its log is not stored.
   * @throws what `stat` (or, outside the layout, the backend's listing) throws.
   */
  async revisionOf(stored, header) {
    const layout = this.layout;
    const log = layout ? logOf(stored, header) : void 0;
    const folder = layout && log !== void 0 ? folderOf(layout, log) : void 0;
    if (folder === void 0 || log === void 0) return (await listInFull(stored)).find((entry) => entry.header.id === header.id)?.revision;
    this.sessions.set(folder, { header, log });
    this.empty.delete(folder);
    return await tokenOf(log) ?? void 0;
  }
  /** Full listings and listings answered from what was kept, since construction (for tests). */
  stats() {
    return { ...this.counts };
  }
  /** The backend's listing, then every session folder and token read from the disk. */
  async full(stored, live) {
    this.counts.full++;
    const probe = logOf(stored, PROBE);
    if (probe === void 0) {
      this.layout = null;
      return listInFull(stored);
    }
    const layout = { root: dirname3(dirname3(dirname3(probe))), logName: basename2(probe) };
    const headers = await stored.list();
    for (const header of headers) this.created.delete(header.id);
    const sessions = /* @__PURE__ */ new Map();
    for (const header of headers) {
      const log = logOf(stored, header);
      const folder = folderOf(layout, log);
      if (folder === void 0 || log === void 0) {
        this.layout = null;
        return listInFull(stored);
      }
      sessions.set(folder, { header, log });
    }
    const found = await sessionFolders(layout);
    this.layout = layout;
    this.sessions = sessions;
    this.empty = /* @__PURE__ */ new Set();
    const others = found.filter((folder) => !sessions.has(folder));
    const [listed, otherTokens] = await Promise.all([
      this.tokens([...sessions.values()], live),
      Promise.all(others.map((folder) => tokenOf(join4(folder, layout.logName))))
    ]);
    others.forEach((folder, i) => otherTokens[i] === null && this.empty.add(folder));
    return listed;
  }
  /** The known sessions with their logs' tokens, all `stat`ed at once; a live one without a token, a missing log left out. */
  async tokens(known, live) {
    const tokens = await Promise.all(known.map((entry) => live.has(entry.header.id) ? void 0 : tokenOf(entry.log)));
    return known.flatMap((entry, i) => {
      const token = tokens[i];
      if (token === null) return [];
      return [token === void 0 ? { header: entry.header } : { header: entry.header, revision: token }];
    });
  }
  /** The listing from what was kept and the disk now, or `undefined` when a full listing is needed. */
  async check(stored, layout, live) {
    const found = await sessionFolders(layout);
    const present = new Set(found);
    const created = /* @__PURE__ */ new Map();
    for (const header of this.created.values()) {
      const folder = folderOf(layout, logOf(stored, header));
      if (folder === void 0 || this.sessions.has(folder)) this.created.delete(header.id);
      else created.set(folder, header);
    }
    for (const folder of found) {
      if (this.sessions.has(folder) || this.empty.has(folder)) continue;
      const header = created.get(folder);
      if (header === void 0) return void 0;
      this.sessions.set(folder, { header, log: join4(folder, layout.logName) });
      this.created.delete(header.id);
    }
    for (const folder of this.sessions.keys()) if (!present.has(folder)) this.sessions.delete(folder);
    for (const folder of this.empty) if (!present.has(folder)) this.empty.delete(folder);
    const empty = [...this.empty];
    const [listed, emptyTokens] = await Promise.all([
      this.tokens([...this.sessions.values()], live),
      Promise.all(empty.map((folder) => tokenOf(join4(folder, layout.logName))))
    ]);
    if (emptyTokens.some((token) => token !== null)) return void 0;
    this.counts.checked++;
    return listed;
  }
};

// src/host/side-state.ts
import { randomUUID as randomUUID4 } from "node:crypto";
import { createUserMessage as createUserMessage3 } from "@deepseek-ai/dsh-llm";

// src/shared/step-owner.ts
function removedNodes(count, lookup) {
  const removed = /* @__PURE__ */ new Set();
  for (const status of readFates(replacementEvents(count, lookup)).statuses().values()) {
    if (!status.inEffect) continue;
    const record = readTombstone(lookup(status.seq));
    for (const seq of record?.shadowedSeqs ?? []) removed.add(seq);
  }
  return removed;
}
function owningStep(seq, lookup) {
  for (let at = seq - 1; at >= 0; at--) {
    const type = lookup(at)?.type;
    if (type === "assistant/message") return at;
    if (type === "turn/start" || type === "turn/end") return null;
  }
  return null;
}

// src/host/side-state-plan.ts
var GOAL_CHANGE = "goal/change";
function readSnapshot(value) {
  if (!isRecord(value)) return void 0;
  const { id, revision, objective, phase, maxGoalRounds, blockedReason } = value;
  if (typeof id !== "string" || typeof revision !== "number" || typeof objective !== "string" || typeof phase !== "string" || typeof maxGoalRounds !== "number") return void 0;
  const reason = isRecord(blockedReason) && typeof blockedReason.code === "string" && typeof blockedReason.message === "string" ? { code: blockedReason.code, message: blockedReason.message } : void 0;
  return { id, revision, objective, phase, maxGoalRounds, ...reason === void 0 ? {} : { blockedReason: reason } };
}
function readChange(event) {
  if (event.type !== GOAL_CHANGE || !isRecord(event.data) || event.data.kind !== "goal/change") return void 0;
  const data = event.data;
  if (data.operation === "clear") return { clear: true };
  const goal = readSnapshot(data.goal);
  if (goal === void 0 || typeof data.roundsStarted !== "number" || typeof data.createdAt !== "number" || typeof data.updatedAt !== "number") return void 0;
  return { clear: false, operation: String(data.operation), goal, roundsStarted: data.roundsStarted, createdAt: data.createdAt, updatedAt: data.updatedAt };
}
function goalRound(event) {
  if (event.type !== "user/message" || !isRecord(event.data) || !isRecord(event.data.source)) return null;
  const source = event.data.source;
  return source.kind === "goal" && typeof source.round === "number" && source.round > 0 ? source.round : null;
}
function foldGoalState(count, lookup) {
  let state = { goal: void 0, roundsStarted: 0, createdAt: void 0, updatedAt: void 0 };
  for (let seq = 0; seq < count; seq++) {
    const event = lookup(seq);
    if (event === void 0) continue;
    const round = goalRound(event);
    if (round !== null) {
      state = { ...state, roundsStarted: round };
      continue;
    }
    const change = readChange(event);
    if (change === void 0) continue;
    state = change.clear ? { goal: void 0, roundsStarted: 0, createdAt: void 0, updatedAt: void 0 } : { goal: change.goal, roundsStarted: change.roundsStarted, createdAt: change.createdAt, updatedAt: change.updatedAt };
  }
  return state;
}
function definitionOf(goal) {
  return { objective: goal.objective, maxGoalRounds: goal.maxGoalRounds, phase: goal.phase, ...goal.blockedReason === void 0 ? {} : { blockedReason: goal.blockedReason } };
}
function goalBeforeRemovedSteps(count, lookup, removed, newlyRemoved) {
  const changes = [];
  for (let seq = 0; seq < count; seq++) {
    const event = lookup(seq);
    const change = event === void 0 ? void 0 : readChange(event);
    if (change !== void 0) changes.push({ seq, step: owningStep(seq, lookup), change });
  }
  const first = changes.find((c) => c.step !== null && newlyRemoved.has(c.step));
  if (first === void 0) return null;
  let wanted;
  for (const { seq, step, change } of changes) {
    if (seq >= first.seq) break;
    if (step !== null && removed.has(step)) continue;
    wanted = change.clear ? void 0 : definitionOf(change.goal);
  }
  return { wanted };
}
function sameDefinition(a, b) {
  return a.objective === b.objective && a.maxGoalRounds === b.maxGoalRounds && a.phase === b.phase;
}
function goalCorrection(current, wanted, clock) {
  const changes = [];
  const now = clock.now();
  let state = current;
  if (wanted === void 0) {
    if (state.goal === void 0) return changes;
    changes.push({ kind: "goal/change", version: 1, operation: "clear", cleared: { id: state.goal.id, revision: state.goal.revision + 1 }, clearedAt: Math.max(now, state.updatedAt ?? now) });
    return changes;
  }
  if (state.goal !== void 0 && sameDefinition(definitionOf(state.goal), wanted)) return changes;
  const snapshot = (operation, goal2) => {
    const createdAt = operation === "create" ? now : state.createdAt ?? now;
    const updatedAt = operation === "create" ? now : Math.max(now, state.updatedAt ?? now);
    const roundsStarted = operation === "create" ? 0 : state.roundsStarted;
    changes.push({ kind: "goal/change", version: 1, operation, goal: goal2, roundsStarted, createdAt, updatedAt });
    state = { goal: goal2, roundsStarted, createdAt, updatedAt };
  };
  const next = (goal2, phase, blockedReason) => ({
    id: goal2.id,
    revision: goal2.revision + 1,
    objective: goal2.objective,
    phase,
    maxGoalRounds: goal2.maxGoalRounds,
    ...blockedReason === void 0 ? {} : { blockedReason }
  });
  if (state.goal === void 0 || state.goal.phase === "complete" && wanted.phase !== "complete") {
    snapshot("create", { id: clock.newGoalId(), revision: 1, objective: wanted.objective, phase: "active", maxGoalRounds: wanted.maxGoalRounds });
  }
  const goal = state.goal;
  if (goal.objective !== wanted.objective || goal.maxGoalRounds !== wanted.maxGoalRounds) {
    snapshot("edit", { ...goal, revision: goal.revision + 1, objective: wanted.objective, maxGoalRounds: wanted.maxGoalRounds });
  }
  const resume = () => {
    const at = state.goal;
    if (at.phase === "active") return true;
    if (at.phase === "complete" || state.roundsStarted >= at.maxGoalRounds) return false;
    snapshot("resume", next(at, "active"));
    return true;
  };
  switch (wanted.phase) {
    case "active":
      resume();
      break;
    case "paused":
      if (state.goal.phase !== "paused" && resume()) snapshot("pause", next(state.goal, "paused"));
      break;
    case "blocked":
      if (state.goal.phase !== "blocked" && resume()) snapshot("block", next(state.goal, "blocked", wanted.blockedReason ?? { code: "restored", message: "Blocked before a removed step changed the goal." }));
      break;
    case "complete":
      if (state.goal.phase !== "complete") snapshot("complete", next(state.goal, "complete"));
      break;
  }
  return changes;
}
function objectiveLine(objective) {
  return `Objective: ${JSON.stringify(objective)}`;
}
function goalRoundsToRemove(count, lookup, nodes, removed) {
  const removedObjectives = /* @__PURE__ */ new Set();
  const keptObjectives = /* @__PURE__ */ new Set();
  for (let seq = 0; seq < count; seq++) {
    const event = lookup(seq);
    const change = event === void 0 ? void 0 : readChange(event);
    if (change === void 0 || change.clear || change.operation !== "create" && change.operation !== "edit") continue;
    const step = owningStep(seq, lookup);
    if (step !== null && removed.has(step)) removedObjectives.add(change.goal.objective);
    else keptObjectives.add(change.goal.objective);
  }
  for (const objective of keptObjectives) removedObjectives.delete(objective);
  if (removedObjectives.size === 0) return [];
  const lines = [...removedObjectives].map(objectiveLine);
  return nodes.filter((seq) => {
    const event = lookup(seq);
    if (event === void 0 || goalRound(event) === null) return false;
    const text = JSON.stringify(isRecord(event.data) ? event.data.content : null);
    return lines.some((line) => text.includes(JSON.stringify(line).slice(1, -1)));
  });
}

// src/host/side-state.ts
var DEFAULT_CLOCK = { now: () => Date.now(), newGoalId: () => `goal-${randomUUID4()}` };
function followSideState(session, fromSeq, lookup, services) {
  const count = session.seq;
  if (count <= fromSeq) return [];
  const newlyRemoved = /* @__PURE__ */ new Set();
  let onlyExclusions = true;
  for (let seq = fromSeq; seq < count; seq++) {
    const event = lookup(seq);
    const record = event === void 0 ? null : readTombstone(event);
    if (record === null) continue;
    if (record.action !== "exclude") onlyExclusions = false;
    for (const node of record.shadowedSeqs) newlyRemoved.add(node);
  }
  let goals = false;
  for (let seq = 0; seq < count && !goals; seq++) goals = lookup(seq)?.type === GOAL_CHANGE;
  if (!goals) return [];
  const removed = removedNodes(count, lookup);
  const appended = [];
  const appendEvent = session.append.bind(session);
  const append = (type, data, what) => {
    try {
      appended.push(appendEvent(type, data).seq);
      return true;
    } catch (error) {
      services.warn(`message-recall: the ${what} of session "${session.id}" was not put back: ${errorText(error)}`);
      return false;
    }
  };
  const roundAction = newlyRemoved.size > 0 && onlyExclusions ? "exclude" : "delete";
  for (const round of goalRoundsToRemove(count, lookup, session.surface.nodes, removed)) {
    try {
      priceReplace(session, services.effects, lookup, { start: round, end: round }, [round]);
      const message = createUserMessage3({
        content: services.tombstoneText === "" ? [] : [{ type: "text", text: services.tombstoneText }],
        source: tombstoneSource(roundAction, [round])
      });
      appended.push(session.append("user/message", message, { surfaceOp: replaceOp(round, round), sourceEventSeqs: [round] }).seq);
    } catch (error) {
      services.warn(`message-recall: the goal round at seq ${round} of session "${session.id}" was not removed: ${errorText(error)}`);
    }
  }
  if (newlyRemoved.size > 0) {
    const goal = goalBeforeRemovedSteps(count, lookup, removed, newlyRemoved);
    if (goal !== null) {
      const current = foldGoalState(count, lookup);
      for (const change of goalCorrection(current, goal.wanted, services.clock ?? DEFAULT_CLOCK)) {
        if (!append(GOAL_CHANGE, change, "goal")) break;
      }
    }
  }
  return appended;
}

// src/host/ui-language.ts
function uiLanguageOf(settings) {
  const document = settings?.document;
  const locale = typeof document === "object" && document !== null ? document.locale : void 0;
  const preference = typeof locale === "object" && locale !== null ? locale.preference : void 0;
  return preference === "zh" ? "zh" : "en";
}

// src/host/inherit-plan.ts
function fateAction(via) {
  const excluded = ACTIONS[via.direct].effect === "excluded" && (via.onward === null || !takesOver(via.onward, "excluded"));
  return excluded ? via.direct : via.outer ?? via.direct;
}
function through(via, action) {
  const spec = ACTIONS[action];
  const removal = spec.effect === "removed";
  const onward = removal && spec.plans === "onward" ? action : via?.onward ?? null;
  return { direct: action, onward, outer: via?.outer ?? (removal ? action : null) };
}
var sameStep = (a, b) => a !== null && b !== null && a.turn === b.turn && a.step === b.step;
function planInheritance(input) {
  const { cut, suffix } = input;
  if (suffix.length > 0 && suffix[0].seq !== cut) throw new Error(`inherit-plan: the source suffix starts at seq ${suffix[0].seq}, not at the cut ${cut}`);
  const at = (seq) => seq >= cut ? suffix[seq - cut] : input.copyLookup(seq);
  const cited = /* @__PURE__ */ new Set();
  const replacements = [];
  for (let i = suffix.length - 1; i >= 0; i--) {
    const event = suffix[i];
    if (event.seq !== cut + i) throw new Error(`inherit-plan: the source suffix is not contiguous at seq ${cut + i}`);
    if (readReplaceOp(event.surfaceOp) === null) continue;
    if (!cited.has(event.seq)) replacements.push(event);
    for (const seq of event.sourceEventSeqs ?? []) cited.add(seq);
  }
  if (replacements.length === 0) return { removals: [], dropped: [], summaries: [] };
  const marks = /* @__PURE__ */ new Map();
  let reached = /* @__PURE__ */ new Set();
  let records = /* @__PURE__ */ new Map();
  const visit = (seq, via, from, record) => {
    if (seq < cut) {
      reached.add(seq);
      if (marks.has(seq)) return;
      if (via !== null) marks.set(seq, { action: fateAction(via), from });
      else if (record?.has(seq) === true) marks.set(seq, { action: record.get(seq), from });
      return;
    }
    const event = at(seq);
    if (event === void 0 || readReplaceOp(event.surfaceOp) === null) return;
    const tombstone = readTombstone(event);
    if (tombstone !== null) {
      const below = through(via, tombstone.action);
      for (const s of tombstone.shadowedSeqs) visit(s, below, from, record);
      return;
    }
    const restore = readRestore(event, at);
    if (restore !== null) {
      if (via !== null) visit(restore.originalSeq, via, from, record);
      return;
    }
    let inner = record;
    if (record === null) {
      const rewrite = readRewriteCheckpoint(event);
      if (rewrite !== null) {
        const own = /* @__PURE__ */ new Map();
        for (const removal of rewrite.removals) for (const s of removal.seqs) own.set(s, removal.action);
        for (const [s, action] of own) records.set(s, action);
        inner = own;
      }
    }
    for (const s of event.sourceEventSeqs ?? []) visit(s, via, from, inner);
  };
  const taken = [];
  for (let i = replacements.length - 1; i >= 0; i--) {
    const top = replacements[i];
    reached = /* @__PURE__ */ new Set();
    records = /* @__PURE__ */ new Map();
    visit(top.seq, null, top.seq, null);
    if (records.size > 0 && isCheckpointEvent(top)) taken.push({ top, reached, records });
  }
  const summaries = summariesToTake(input, taken, marks, at);
  if (marks.size === 0) return { removals: [], dropped: [], summaries };
  const nodes = input.copyNodes;
  const positions = [];
  for (let p = 0; p < nodes.length; p++) if (marks.has(nodes[p])) positions.push(p);
  if (positions.length === 0) return { removals: [], dropped: [], summaries };
  const runs = [];
  for (const p of positions) {
    const last = runs.at(-1);
    if (last !== void 0 && last.at(-1) === p - 1 && marks.get(nodes[p - 1]).action === marks.get(nodes[p]).action) last.push(p);
    else runs.push([p]);
  }
  const eventAt = (p) => {
    const event = input.copyLookup(nodes[p]);
    if (event === void 0) throw new Error(`inherit-plan: surface node ${nodes[p]} has no event in the copy`);
    return event;
  };
  const pairing = new ToolPairingIndex(nodes, eventAt);
  const removals = [];
  const dropped = [];
  for (let run of runs) {
    while (run.length > 0 && run[0] > 0 && sameStep(stepOf(eventAt(run[0] - 1)), stepOf(eventAt(run[0])))) {
      const step = stepOf(eventAt(run[0]));
      run = run.filter((p) => !sameStep(stepOf(eventAt(p)), step));
    }
    while (run.length > 0 && run.at(-1) < nodes.length - 1 && sameStep(stepOf(eventAt(run.at(-1) + 1)), stepOf(eventAt(run.at(-1))))) {
      const step = stepOf(eventAt(run.at(-1)));
      run = run.filter((p) => !sameStep(stepOf(eventAt(p)), step));
    }
    if (run.length === 0) continue;
    const first = run[0];
    const last = run.at(-1);
    const shadowedSeqs = run.map((p) => nodes[p]);
    const split = pairing.splitBy(first, last);
    if (split.length > 0) {
      dropped.push({ shadowedSeqs, splitCallIds: split });
      continue;
    }
    const action = marks.get(nodes[first]).action;
    const fromSourceSeqs = [...new Set(shadowedSeqs.map((s) => marks.get(s).from))].sort((a, b) => a - b);
    removals.push({ action, start: nodes[first], end: nodes[last], shadowedSeqs, fromSourceSeqs });
  }
  return { removals, dropped, summaries };
}
function summariesToTake(input, taken, marks, at) {
  const summaries = [];
  for (const { top, reached, records } of taken) {
    const standsFor = input.copyNodes.filter((seq) => reached.has(seq));
    const holding = standsFor.filter((seq) => {
      const event = input.copyLookup(seq);
      return !marks.has(seq) && event !== void 0 && isCheckpointEvent(event) && originalsOf(seq, input.copyLookup).seqs.some((s) => records.has(s));
    });
    if (holding.length === 0) continue;
    const blocks = summaryBlocksOf(top, at);
    if (blocks === null) throw new Error(`inherit-plan: the checkpoint at seq ${top.seq} cites no compaction/summary`);
    const summary = blocks.filter((b) => isRecord(b) && b.type === "text" && typeof b.text === "string").map((b) => ({ type: "text", text: b.text }));
    const byAction = /* @__PURE__ */ new Map();
    for (const [seq, action] of [...records].sort((a, b) => a[0] - b[0])) {
      if (seq >= input.cut || marks.has(seq)) continue;
      byAction.set(action, [...byAction.get(action) ?? [], seq]);
    }
    summaries.push({ fromSourceSeq: top.seq, summary, standsFor, holding, removals: [...byAction].map(([action, seqs]) => ({ action, seqs })) });
  }
  return summaries;
}

// src/host/inherit-removals.ts
function copyLineage(session) {
  const { parentSession, seedLength } = session.header;
  if (parentSession === void 0 || seedLength === void 0 || seedLength <= 0) return null;
  if (session.firstLiveSeq !== seedLength) return null;
  return { parent: parentSession, cut: seedLength };
}
var RemovalInheritance = class {
  /** @param deps - the services and settings the inheritance reads (see {@link InheritDeps}). */
  constructor(deps) {
    this.deps = deps;
  }
  pending = /* @__PURE__ */ new WeakMap();
  /**
   * Call from `session/created`. A fresh copy of a live source gets its tombstones before this
   * returns; a copy of a stored source gets them when the source's suffix is read. Never throws:
   * a failure is logged and the copy stays as DSH made it.
   * @param session - the announced session.
   */
  onCreated(session) {
    const lineage = copyLineage(session);
    if (lineage === null || this.deps.exempt(session.id)) return;
    const source = this.deps.sessions.get(lineage.parent);
    if (source !== void 0) {
      const lookup = this.deps.lookup(source);
      const suffix = [];
      for (let seq = lineage.cut; seq < source.seq; seq++) suffix.push(lookup(seq));
      if (!this.samePrefix(session, lineage.cut, lookup(lineage.cut - 1))) return;
      const written = this.write(session, lineage.cut, suffix);
      if (written.length > 0) this.pending.set(session, this.flush(session, written));
      return;
    }
    const reader = this.deps.persistence();
    if (reader === void 0) return;
    let resolve2;
    this.pending.set(session, new Promise((r) => resolve2 = r));
    queueMicrotask(() => {
      const job = () => this.fromStored(session, reader, lineage.parent, lineage.cut);
      const agent = this.deps.agents.get(session.id);
      let run;
      try {
        run = agent === void 0 ? job() : agent.runMaintenance(job);
      } catch {
        run = job();
      }
      resolve2(run);
    });
  }
  /**
   * Wait until a copy's inherited tombstones are written and flushed (call before its model request).
   * @param session - any session.
   * @returns the outcome for a copy with inherited tombstones, else `undefined` at once.
   */
  settled(session) {
    return this.pending.get(session);
  }
  async fromStored(session, reader, parent, cut) {
    let events;
    try {
      events = (await reader.readFrom(parent, cut - 1)).events;
    } catch (error) {
      this.warn(session, `its source "${parent}" could not be read: ${errorText(error)}`);
      return { tombstoneSeqs: [], durable: true };
    }
    if (this.deps.sessions.get(session.id) !== session) return { tombstoneSeqs: [], durable: true };
    if (!this.samePrefix(session, cut, events[0])) return { tombstoneSeqs: [], durable: true };
    if (openTurn(this.deps.lookup(session), session.seq, cut)) {
      this.warn(session, "a turn started before its source was read");
      return { tombstoneSeqs: [], durable: true };
    }
    const written = this.write(session, cut, events.slice(1));
    return written.length === 0 ? { tombstoneSeqs: [], durable: true } : this.flush(session, written);
  }
  /** The copy's last seed event must be the source's event at that seq. */
  samePrefix(session, cut, sourceLast) {
    const copyLast = this.deps.lookup(session)(cut - 1);
    const same = sourceLast !== void 0 && copyLast !== void 0 && sourceLast.seq === copyLast.seq && sourceLast.type === copyLast.type && sourceLast.time === copyLast.time;
    if (!same) this.warn(session, `its seed is not the first ${cut} events of its source`);
    return same;
  }
  /** Plan and append, synchronously; returns the tombstone seqs written. */
  write(session, cut, suffix) {
    let plan;
    try {
      plan = planInheritance({ cut, suffix, copyNodes: [...session.surface.nodes], copyLookup: this.deps.lookup(session) });
    } catch (error) {
      this.warn(session, errorText(error));
      return [];
    }
    for (const run of plan.dropped) this.warn(session, `a removal of seqs ${run.shadowedSeqs.join(", ")} would split tool calls ${run.splitCallIds.join(", ")}; left out`);
    if (plan.removals.length === 0 && plan.summaries.length === 0) return [];
    const effects = this.deps.effects();
    const written = [];
    const standing = /* @__PURE__ */ new Map();
    for (const removal of plan.removals) {
      try {
        priceReplace(session, effects, this.deps.lookup(session), removal, removal.shadowedSeqs);
        const event = appendTombstone(session, removal, this.deps.tombstoneText);
        written.push(event.seq);
        for (const seq of removal.shadowedSeqs) standing.set(seq, event.seq);
        retitleAfterRemoval(session, effects, this.deps.lookup(session), { seq: event.seq, shadowedSeqs: removal.shadowedSeqs });
      } catch (error) {
        this.warn(session, `the removal of seqs ${removal.shadowedSeqs.join(", ")} was refused: ${errorText(error)}`);
      }
    }
    for (const summary of plan.summaries) {
      for (const run of summaryRuns(session.surface.nodes, summary, standing)) {
        try {
          const appended = appendSummaryCompaction(session, { shadowedSeqs: run, removals: summary.removals }, { summary: summary.summary, provider: "dsh-message-recall", model: "inherited" }, effects.meter, this.deps.lookup(session));
          written.push(appended.checkpointSeq);
        } catch (error) {
          this.warn(session, `the summary of seqs ${run.join(", ")} (the source's checkpoint at seq ${summary.fromSourceSeq}) was refused: ${errorText(error)}`);
        }
      }
    }
    return written;
  }
  async flush(session, written) {
    const outcome = await flushWithRetry(() => this.deps.sessions.flush(session));
    if (!outcome.ok) this.warn(session, `its inherited removals are not saved yet: ${outcome.reason}`);
    return { tombstoneSeqs: written, durable: outcome.ok };
  }
  warn(session, reason) {
    this.deps.effects().warn(`message-recall: the copy "${session.id}" did not inherit every removal of its source: ${reason}`);
  }
};
function summaryRuns(nodes, summary, standing) {
  const index = new Map(nodes.map((seq, i) => [seq, i]));
  const positions = [...new Set(summary.standsFor.map((seq) => index.get(seq) ?? index.get(standing.get(seq) ?? -1)).filter((p) => p !== void 0))].sort((a, b) => a - b);
  if (positions.length > 0 && positions.at(-1) - positions[0] + 1 === positions.length) return [nodes.slice(positions[0], positions.at(-1) + 1)];
  return summary.holding.filter((seq) => index.has(seq)).map((seq) => [seq]);
}
function openTurn(lookup, count, from) {
  for (let seq = count - 1; seq >= from; seq--) {
    const type = lookup(seq)?.type;
    if (type === "turn/end") return false;
    if (type === "turn/start") return true;
  }
  return false;
}

// src/host/stored-session.ts
import { foldSurface as foldSurface3 } from "@deepseek-ai/dsh-session";
var UNSAVED_RETRY_MS = Object.freeze([1e3, 2e3, 4e3, 8e3, 15e3]);
function once(detach) {
  let done = false;
  return () => {
    if (done) return;
    done = true;
    detach();
  };
}
var SessionAccess = class {
  /** @param services - sessions, agents and the optional persistence service. */
  constructor(services) {
    this.services = services;
  }
  holds = /* @__PURE__ */ new Map();
  entering = /* @__PURE__ */ new Map();
  /**
   * Run a write task as the one writer of a session.
   * @param sessionId - the session id.
   * @param task - plans, appends and flushes; gets the session and where it came from. It must not
   *   hold the session past its returned promise.
   * @param precheck - for a stored session, run first on its stored log (nothing entered yet): a
   *   refusal it returns is answered without entering the session, so nothing is appended.
   * @returns the task's outcome, or `SESSION_NOT_LIVE` (neither live nor stored) or `AGENT_BUSY`
   *   (the agent has active work); nothing is appended on a refusal of this layer.
   * @throws what the task throws, and the persistence service's errors other than a concurrent
   *   resume (a stored log that cannot be read, for instance).
   */
  async write(sessionId, task, precheck) {
    return this.reach(sessionId, () => this.runLive(sessionId, task), task, precheck);
  }
  /** The live path when there is one, else the stored session entered for `task` (retried when it became live meanwhile). */
  async reach(sessionId, live, task, precheck) {
    const id = sessionId;
    for (let attempt = 0; ; attempt++) {
      const running = live();
      if (running !== void 0) return running;
      if (precheck !== void 0 && !this.holds.has(sessionId) && !this.entering.has(sessionId)) {
        const read = await this.read(sessionId);
        if (!read.ok) return read;
        if (read.value.origin !== "stored") continue;
        const refusal = await precheck(read.value);
        if (refusal !== null) return { ok: false, refusal };
      }
      const held = await this.hold(id);
      if (held === "absent") return { ok: false, refusal: { code: "SESSION_NOT_LIVE", sessionId } };
      if (held === "live") {
        if (attempt < 2) continue;
        return { ok: false, refusal: { code: "AGENT_BUSY", sessionId, detail: `session "${sessionId}" became live while it was being opened` } };
      }
      try {
        return await task(held.session, "stored");
      } finally {
        await this.release(id, held);
      }
    }
  }
  /**
   * Whether the session persistence holds a session with this id (`list`).
   * @param sessionId - the session id.
   * @returns false without a persistence service.
   */
  async isStored(sessionId) {
    const persistence = this.services.persistence();
    return persistence !== void 0 && await isStored(persistence, sessionId);
  }
  /**
   * A read-only view for planning: the live session's surface, or the stored log folded.
   * @param sessionId - the session id.
   * @returns the view, or `SESSION_NOT_LIVE` when the session is neither live nor stored.
   * @throws the persistence service's read errors, or `foldSurface`'s on a log that breaks the surface rules.
   */
  async read(sessionId) {
    const id = sessionId;
    const agent = this.services.agents.get(id);
    const session = agent?.session ?? this.services.sessions.get(id);
    if (session !== void 0) {
      return { ok: true, value: stableViewOfSession(session, this.services.lookup(session), agent !== void 0 ? "agent" : this.holds.has(sessionId) ? "stored" : "live") };
    }
    const persistence = this.services.persistence();
    if (persistence === void 0) return { ok: false, refusal: { code: "SESSION_NOT_LIVE", sessionId } };
    let events;
    try {
      ;
      ({ events } = await persistence.inspect(id));
    } catch (error) {
      if (!await isStored(persistence, sessionId)) return { ok: false, refusal: { code: "SESSION_NOT_LIVE", sessionId } };
      throw error;
    }
    const fold = foldSurface3(events);
    const log = events;
    const nextSeq = log.length + (log.at(-1)?.type === "session/end-seed" ? 0 : 1);
    return {
      ok: true,
      value: { nodes: fold.nodes, replaceGeneration: fold.replacements.length, lastSeq: log.length - 1, nextSeq, lookup: (seq) => log[seq], origin: "stored" }
    };
  }
  /** The live path, or `undefined` when the session is not live in this process. */
  runLive(id, task) {
    const agent = this.services.agents.get(id);
    if (agent !== void 0) {
      try {
        return agent.runMaintenance(() => task(agent.session, "agent"));
      } catch (error) {
        return Promise.resolve({ ok: false, refusal: { code: "AGENT_BUSY", sessionId: id, detail: errorText(error) } });
      }
    }
    const held = this.join(id, (session2) => task(session2, "stored"));
    if (held !== void 0) return held;
    const session = this.services.sessions.get(id);
    return session === void 0 ? void 0 : task(session, "live");
  }
  /**
   * Run a task on a stored session this access holds (for instance one whose last save failed),
   * sharing the hold: when the task ends, the session is flushed and let go if it was the last
   * user and the flush succeeded.
   * @param sessionId - the session id.
   * @param task - gets the held session; must not hold it past its returned promise.
   * @returns the task's promise, or `undefined` when this access holds no such session.
   */
  join(sessionId, task) {
    const held = this.holds.get(sessionId);
    if (held === void 0) return void 0;
    held.users++;
    return task(held.session).finally(() => this.release(sessionId, held));
  }
  /** Enter a stored session (or join the hold in progress). */
  async hold(id) {
    const existing = this.holds.get(id);
    if (existing !== void 0) {
      existing.users++;
      return existing;
    }
    const pending = this.entering.get(id);
    if (pending !== void 0) {
      const result = await pending;
      if (typeof result === "string") return result;
      result.users++;
      return result;
    }
    const entering = this.enter(id);
    this.entering.set(id, entering);
    try {
      return await entering;
    } finally {
      this.entering.delete(id);
    }
  }
  async enter(id) {
    const persistence = this.services.persistence();
    if (persistence === void 0) return "absent";
    if (this.isLive(id)) return "live";
    let stored;
    try {
      stored = await persistence.inspect(id);
    } catch (error) {
      if (this.isLive(id)) return "live";
      if (!await isStored(persistence, id)) return "absent";
      throw error;
    }
    if (await this.sealSeed(persistence, id, stored) === "live") return "live";
    let preparation;
    try {
      preparation = await persistence.prepare(id);
    } catch (error) {
      if (this.isLive(id)) return "live";
      throw error;
    }
    try {
      if (this.isLive(id)) return "live";
      const session = preparation.session;
      const detach = this.services.sessions.enter(session);
      try {
        this.services.sessions.announce(session);
      } catch (error) {
        detach();
        throw error;
      }
      const hold = { session, users: 1, detach: once(detach), retries: 0 };
      this.holds.set(id, hold);
      return hold;
    } finally {
      preparation[Symbol.dispose]();
    }
  }
  /**
   * Write the `session/end-seed` that entering a stored session would append, durably, before
   * entering it, unless the stored log already ends with one. The write is retried like a flush.
   * @param stored - the stored log as `inspect` just read it.
   * @returns `'live'` when the session became live meanwhile (nothing written), else `'sealed'`.
   * @throws {@link MessageRecallError} `PERSIST_FAILED` with `applied: false` when every attempt failed.
   */
  async sealSeed(persistence, id, { events }) {
    if (events.at(-1)?.type === "session/end-seed") return "sealed";
    if (this.isLive(id)) return "live";
    const seal = { type: "session/end-seed", seq: events.length, time: Date.now(), data: {} };
    const written = await flushWithRetry(async () => {
      if (this.isLive(id)) return false;
      await persistence.append(id, [seal]);
      return true;
    });
    if (written.ok) return written.persisted ? "sealed" : "live";
    if (this.isLive(id)) return "live";
    throw new MessageRecallError(
      "PERSIST_FAILED",
      `message-recall: session "${id}" was not changed: its stored log could not be opened for the write, writing its session/end-seed failed ${written.attempts} times: ${written.reason}`,
      { cause: written.error, details: { applied: false } }
    );
  }
  /**
   * Let go of every stored session this access still holds (when the plugin unloads mid-write):
   * each is detached from the store, so a later resume can prepare it again; rc.8 flushes a
   * detached session once more as it retires it, and the persistence service flushes every
   * session still in its care when it stops.
   */
  dispose() {
    for (const [id, hold] of [...this.holds]) {
      this.holds.delete(id);
      if (hold.retry !== void 0) clearTimeout(hold.retry);
      hold.detach();
    }
  }
  isLive(id) {
    return this.services.agents.get(id) !== void 0 || this.services.sessions.get(id) !== void 0;
  }
  /** One user fewer; the last one flushes the session and lets it go, or keeps it unsaved and retries later. */
  async release(id, hold) {
    if (--hold.users > 0) return;
    if (this.holds.get(id) !== hold) return;
    let saved = true;
    try {
      await this.services.sessions.flush(hold.session);
    } catch {
      saved = false;
    }
    if (hold.users > 0 || this.holds.get(id) !== hold) return;
    if (!saved && this.services.sessions.get(id) === hold.session) {
      this.scheduleRetry(id, hold);
      return;
    }
    if (hold.retry !== void 0) clearTimeout(hold.retry);
    this.holds.delete(id);
    hold.detach();
  }
  /** Retry an unsaved hold's flush after the next wait of {@link UNSAVED_RETRY_MS}. */
  scheduleRetry(id, hold) {
    if (hold.retry !== void 0) return;
    const wait = UNSAVED_RETRY_MS[Math.min(hold.retries, UNSAVED_RETRY_MS.length - 1)];
    hold.retry = setTimeout(() => {
      hold.retry = void 0;
      hold.retries++;
      if (this.holds.get(id) !== hold || hold.users > 0) return;
      hold.users++;
      void this.release(id, hold);
    }, wait);
    hold.retry.unref?.();
  }
};
async function isStored(persistence, sessionId) {
  return (await persistence.list()).some((header) => header.id === sessionId);
}

// src/host/pending-erases.ts
import { mkdir, open as open2, readFile as readFile2, rename as rename2, rm as rm4 } from "node:fs/promises";
import { homedir } from "node:os";
import { dirname as dirname4, join as join5, resolve } from "node:path";
var PendingErasesDamaged = class extends Error {
};
var PLUGIN_HOME_FOLDER = "message-recall";
var PENDING_ERASES_FILE = "pending-erases.json";
function dshHomeOf(value) {
  const home = value !== void 0 && value.trim().length > 0 ? value : "~/.dsh";
  const expanded = home === "~" ? homedir() : home.startsWith("~/") || home.startsWith("~\\") ? join5(homedir(), home.slice(2)) : home;
  return resolve(expanded);
}
function pendingErasesPath(home) {
  return join5(home, PLUGIN_HOME_FOLDER, PENDING_ERASES_FILE);
}
function isPendingErase(value) {
  const v = value;
  return v !== null && typeof v === "object" && typeof v.sessionId === "string" && Number.isSafeInteger(v.tombstoneSeq) && typeof v.scheduledAt === "string" && Array.isArray(v.messageSeqs) && Number.isSafeInteger(v.imageCount) && Number.isSafeInteger(v.fileCount) && (v.state === "pending" || v.state === "failed");
}
var PendingErases = class {
  /** @param path - the file ({@link pendingErasesPath}). */
  constructor(path) {
    this.path = path;
  }
  list;
  chain = Promise.resolve();
  /**
   * Every pending erase, in the order they were asked for.
   * @returns a copy of the list.
   * @throws {@link PendingErasesDamaged} when the file is not a pending-erase list; file system errors.
   */
  async all() {
    return this.serial(async () => [...await this.load()]);
  }
  /**
   * The pending erase of one removal.
   * @param sessionId - the session.
   * @param tombstoneSeq - the removal's tombstone seq.
   * @returns the record, or `undefined`.
   * @throws as {@link PendingErases.all}.
   */
  async get(sessionId, tombstoneSeq) {
    return (await this.all()).find((e) => e.sessionId === sessionId && e.tombstoneSeq === tombstoneSeq);
  }
  /**
   * Add a pending erase unless one for the same removal is pending; a failed one is replaced in
   * its place (asked for again). Settles once the file is durable.
   * @param record - the new record (`state: 'pending'`).
   * @returns the record now kept (the earlier one when the removal had one pending already).
   * @throws as {@link PendingErases.all}, and the write's file system errors (the old file stays).
   */
  async add(record) {
    return this.serial(async () => {
      const list = await this.load();
      const at = list.findIndex((e) => e.sessionId === record.sessionId && e.tombstoneSeq === record.tombstoneSeq);
      if (at >= 0 && list[at].state === "pending") return list[at];
      await this.save(at < 0 ? [...list, record] : list.map((e, i) => i === at ? record : e));
      return record;
    });
  }
  /**
   * Replace or drop the record of one removal; settles once the file is durable.
   * @param sessionId - the session.
   * @param tombstoneSeq - the removal's tombstone seq.
   * @param next - the new record, or `undefined` to drop it.
   * @returns whether a record was there.
   * @throws as {@link PendingErases.add}.
   */
  async update(sessionId, tombstoneSeq, next) {
    return this.serial(async () => {
      const list = await this.load();
      const at = list.findIndex((e) => e.sessionId === sessionId && e.tombstoneSeq === tombstoneSeq);
      if (at < 0) return false;
      await this.save(next === void 0 ? list.filter((_, i) => i !== at) : list.map((e, i) => i === at ? next : e));
      return true;
    });
  }
  serial(task) {
    const run = this.chain.then(task, task);
    this.chain = run.catch(() => void 0);
    return run;
  }
  async load() {
    if (this.list !== void 0) return this.list;
    let text;
    try {
      text = await readFile2(this.path, "utf8");
    } catch (error) {
      if (error.code !== "ENOENT") throw error;
      this.list = [];
      return this.list;
    }
    let parsed;
    try {
      parsed = JSON.parse(text);
    } catch {
      throw new PendingErasesDamaged(`${PENDING_ERASES_FILE} is not JSON`);
    }
    const erases = parsed?.erases;
    if (parsed.version !== 1 || !Array.isArray(erases) || !erases.every(isPendingErase)) {
      throw new PendingErasesDamaged(`${PENDING_ERASES_FILE} is not a version 1 pending-erase list`);
    }
    this.list = erases;
    return this.list;
  }
  async save(list) {
    const folder = dirname4(this.path);
    await mkdir(folder, { recursive: true });
    const beside = `${this.path}.${process.pid}.new`;
    const file = await open2(beside, "w");
    try {
      await file.writeFile(`${JSON.stringify({ version: 1, erases: list }, null, 2)}
`, "utf8");
      await file.sync();
    } finally {
      await file.close();
    }
    try {
      await rename2(beside, this.path);
    } catch (error) {
      await rm4(beside, { force: true });
      throw error;
    }
    const dir = await open2(folder, "r");
    try {
      await dir.sync();
    } finally {
      await dir.close();
    }
    this.list = list;
  }
};

// src/host/index.ts
var name = "message-recall";
var inject = ["sessions", "agents", "webServer"];
function apply(ctx, config) {
  const resolved = resolveConfig(config);
  const index = new SessionEventIndex();
  ctx.on("session/disposed", (session) => index.forget(session));
  const persistence = () => ctx.get("sessionPersistence");
  const access = new SessionAccess({ sessions: ctx.sessions, agents: ctx.agents, lookup: (session) => index.lookup(session), persistence });
  ctx.effect(() => () => access.dispose(), "message-recall: stored sessions held for a write");
  const log = hostLog(ctx.logger);
  const warn = (message) => log.warn(message);
  const titleLimits = () => titleLimitsOf(ctx.get("sessionTitle"));
  ctx.on("session/event", (session, event) => {
    index.observe(session, event);
    followPrompt(session, () => ({ titleLimits: titleLimits(), warn }), () => index.lookup(session), event);
  });
  const forkBeforeCopies = /* @__PURE__ */ new Set();
  const inheritance = new RemovalInheritance({
    sessions: ctx.sessions,
    agents: ctx.agents,
    persistence: () => ctx.get("sessionPersistence"),
    lookup: (session) => index.lookup(session),
    effects: () => ({ meter: ctx.get("tokenMeter"), titleLimits: titleLimits(), warn }),
    tombstoneText: resolved.tombstoneText,
    exempt: (id) => forkBeforeCopies.has(id)
  });
  ctx.on("session/created", (session) => inheritance.onCreated(session));
  const storedLogs = new StoredLogListing();
  ctx.on("session/created", (session) => storedLogs.noteCreated(session.header));
  ctx.on("agent/request", async (payload, next) => {
    await inheritance.settled(payload.agent.session);
    return next();
  });
  const homeLock = new PluginHomeLock(() => {
    const root = ctx.get("sessionPersistence")?.root;
    return typeof root === "string" ? root : void 0;
  }, warn);
  ctx.effect(() => {
    homeLock.check();
    return () => homeLock.dispose();
  }, "message-recall: DSH home lock");
  const queue = new WriteQueue();
  const erase = {
    access,
    queue,
    sessions: ctx.sessions,
    backend: () => {
      const service = ctx.get("sessionPersistence");
      return isJsonlBackend(service) ? service : void 0;
    },
    attachmentRoot: () => {
      const root = ctx.get("attachments")?.root;
      return typeof root === "string" ? root : void 0;
    },
    projectionCache: () => {
      const service = ctx.get("sessionProjectionCache");
      return isProjectionCacheWriter(service) ? service : void 0;
    }
  };
  const launch = ctx.get("launchEnvironment");
  const pending = new PendingErases(pendingErasesPath(dshHomeOf(launch?.get("DSH_HOME")?.value ?? process.env.DSH_HOME)));
  ctx.inject(["sessionPersistence"], () => {
    const holder = homeLock.check();
    if (holder !== null) {
      warn(`message-recall: the pending erases wait: ${homeInUseMessage(holder)}`);
      return;
    }
    void runPendingErases({ erase, pending }, (line, outcome) => outcome === "erased" ? log.info(line) : warn(line)).catch((error) => warn(`message-recall: the pending erases did not run: ${error instanceof Error ? error.message : String(error)}`));
  });
  const handler = createRouteHandler(
    {
      sessions: ctx.sessions,
      agents: ctx.agents,
      index,
      access,
      queue,
      persistence,
      diskSummaries: new DiskSummaryCache(summarizeStored),
      erase,
      eraseLater: {
        pending,
        open: (id) => ctx.agents.get(id)?.session ?? ctx.sessions.get(id),
        // The copies an erase's confirmation lists are found from the headers alone.
        headers: async () => {
          const live = ctx.sessions.list();
          const stored = ctx.get("sessionPersistence");
          const listed = stored === void 0 ? [] : await storedLogs.list(stored, new Set(live.map((session) => session.id)));
          const headers = new Map(listed.map((entry) => [entry.header.id, entry.header]));
          for (const session of live) headers.set(session.id, session.header);
          return [...headers.values()];
        }
      },
      afterAppend: (session, fromSeq) => void followSideState(session, fromSeq, index.lookup(session), {
        warn,
        tombstoneText: resolved.tombstoneText,
        effects: { meter: ctx.get("tokenMeter"), titleLimits: titleLimits(), warn }
      }),
      effects: () => ({ meter: ctx.get("tokenMeter"), titleLimits: titleLimits(), warn }),
      // The host's own compaction engine, else the one the session's agent preset mounted (the web
      // host mounts compaction per preset, behind an isolate realm: dsh-agent-presets serviceFor).
      summarizer: (agent) => ctx.get("compaction") ?? ctx.get("agentPresets")?.serviceFor(agent, "compaction"),
      fork: {
        titleLimits,
        language: () => uiLanguageOf(ctx.get("settings")),
        workspaces: () => ctx.get("workspaceRegistry"),
        catalog: {
          live: () => ctx.sessions.list(),
          lookup: (session) => index.lookup(session),
          storedTitles: new StoredTitleCache(),
          storedLogs,
          stored: () => ctx.get("sessionPersistence"),
          cache: () => ctx.get("sessionProjectionCache")
        },
        async inChildFiber(body) {
          let store;
          const fiber = ctx.plugin({ name: "message-recall-fork", inject: ["sessions"], apply: (child) => void (store = child.sessions) });
          const made = [];
          try {
            await fiber.await();
            const sessions = store;
            return await body({
              create(id, options) {
                made.push(id);
                forkBeforeCopies.add(id);
                return sessions.create(id, options);
              },
              flush: (session) => sessions.flush(session)
            });
          } finally {
            await fiber.dispose();
            for (const id of made) forkBeforeCopies.delete(id);
          }
        }
      },
      warn,
      homeLock: () => homeLock.check()
    },
    resolved
  );
  ctx.effect(() => ctx.webServer.register({ kind: "exact", path: resolved.path, handler }), `message-recall: ${resolved.path} route`);
  installExportRoute(ctx, resolved, warn);
  installTelemetryFilter(ctx, (session) => index.lookup(session));
}
export {
  Config,
  DEFAULTS,
  apply,
  describePlanRefusal,
  inject,
  name,
  planRemoval,
  resolveConfig,
  statusOf
};
