#!/usr/bin/env node
import {
  ACTIONS,
  SURFACE_EVENT_TYPES,
  classifyNode,
  isRecord,
  isSeq,
  isTombstoneAction,
  readReplaceOp,
  readRestore,
  readTombstone
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

export {
  isCheckpointEvent,
  originalsOf,
  replacementEvents,
  readFates
};
