#!/usr/bin/env node
import {
  toolCallIds,
  toolResultCallId
} from "./chunk-MY2ZCKN5.js";

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

export {
  ToolPairingIndex
};
