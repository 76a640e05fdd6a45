window.__ModuleLoader__.load({ id: "dsh-message-recall", factory: (require) => { var module = { exports: {} }; var exports = module.exports;
"use strict";
var __defProp = Object.defineProperty;
var __getOwnPropDesc = Object.getOwnPropertyDescriptor;
var __getOwnPropNames = Object.getOwnPropertyNames;
var __hasOwnProp = Object.prototype.hasOwnProperty;
var __export = (target, all) => {
  for (var name2 in all)
    __defProp(target, name2, { get: all[name2], enumerable: true });
};
var __copyProps = (to, from, except, desc) => {
  if (from && typeof from === "object" || typeof from === "function") {
    for (let key of __getOwnPropNames(from))
      if (!__hasOwnProp.call(to, key) && key !== except)
        __defProp(to, key, { get: () => from[key], enumerable: !(desc = __getOwnPropDesc(from, key)) || desc.enumerable });
  }
  return to;
};
var __toCommonJS = (mod) => __copyProps(__defProp({}, "__esModule", { value: true }), mod);

// src/client/index.tsx
var index_exports = {};
__export(index_exports, {
  EDIT_ENTRY_ID: () => EDIT_ENTRY_ID,
  OVERLAY_ENTRY_ID: () => OVERLAY_ENTRY_ID,
  apply: () => apply,
  inject: () => inject,
  name: () => name
});
module.exports = __toCommonJS(index_exports);

// src/shared/protocol.ts
var DEFAULT_ROUTE_PATH = "/dsh-message-recall";
var ERROR_CODES = [
  "INVALID_REQUEST",
  "FORBIDDEN",
  "METHOD_NOT_ALLOWED",
  "PAYLOAD_TOO_LARGE",
  "UNSUPPORTED_MEDIA_TYPE",
  "SESSION_NOT_LIVE",
  "TARGET_NOT_FOUND",
  "NOT_A_USER_MESSAGE",
  "NOT_DELETABLE",
  "SPAN_NOT_CONTIGUOUS",
  "NOT_RESTORABLE",
  "STALE_VIEW",
  "AGENT_BUSY",
  "PERSIST_FAILED",
  "INTERNAL"
];

// src/shared/events.ts
var SURFACE_EVENT_TYPES = ["user/message", "assistant/message", "tool/result"];
function isSeq(value) {
  return Number.isSafeInteger(value) && value >= 0;
}
function isRecord(value) {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

// src/client/api.ts
function createRecallSender(fetchImpl, path = DEFAULT_ROUTE_PATH) {
  return async (request) => {
    let status = 0;
    let text = "";
    try {
      const response = await fetchImpl(path, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(request),
        credentials: "same-origin"
      });
      status = response.status;
      text = await response.text();
    } catch (error) {
      return { ok: false, error: { code: "NETWORK", message: error instanceof Error ? error.message : String(error) } };
    }
    return parseReply(status, text);
  };
}
var KNOWN_CODES = new Set(ERROR_CODES);
function parseReply(status, text) {
  let body;
  try {
    body = JSON.parse(text);
  } catch {
    return { ok: false, error: { code: "NETWORK", message: `HTTP ${status}: reply is not JSON` } };
  }
  if (isRecord(body) && body.ok === true && isRecord(body.value)) return { ok: true, value: body.value };
  if (isRecord(body) && body.ok === false && isRecord(body.error) && typeof body.error.code === "string") {
    const code = body.error.code;
    const message = typeof body.error.message === "string" ? body.error.message : code;
    const index = Number.isSafeInteger(body.error.index) ? { index: body.error.index } : {};
    return { ok: false, error: { code: KNOWN_CODES.has(code) ? code : code, message, ...index } };
  }
  return { ok: false, error: { code: "NETWORK", message: `HTTP ${status}: reply does not follow the route contract` } };
}

// src/client/debug.ts
var DEBUG_GLOBAL = "__DSH_MESSAGE_RECALL__";
var MAX_SESSIONS = 16;
var DebugRegistry = class {
  constructor(stamp) {
    this.stamp = stamp;
  }
  entries = /* @__PURE__ */ new Map();
  /**
   * Record a pass.
   * @param sessionId - the overlay's session.
   * @param pass - the pass record.
   * @param expect - computes the session's current expectation on demand.
   */
  record(sessionId, pass, expect) {
    this.entries.delete(sessionId);
    this.entries.set(sessionId, { pass, expect });
    if (this.entries.size > MAX_SESSIONS) this.entries.delete(this.entries.keys().next().value);
  }
  /** The hook object to install as {@link DEBUG_GLOBAL}. */
  hook() {
    return {
      stamp: this.stamp,
      snapshot: (sessionId) => this.snapshot(sessionId),
      sessions: () => [...this.entries.keys()]
    };
  }
  /**
   * @param sessionId - a session id; omitted: the most recent pass.
   * @returns the JSON form, or `null` when nothing was recorded.
   */
  snapshot(sessionId) {
    const id = sessionId ?? [...this.entries.keys()].at(-1);
    const entry = id === void 0 ? void 0 : this.entries.get(id);
    if (id === void 0 || entry === void 0) return null;
    const { pass } = entry;
    return {
      stamp: this.stamp,
      sessionId: id,
      at: new Date(pass.at).toISOString(),
      durationMs: Math.round(pass.durationMs * 1e3) / 1e3,
      running: pass.running,
      attached: pass.attached,
      rows: pass.rows,
      touched: pass.touched,
      tombstones: pass.hidden.tombstones.map((t) => ({ ...t, shadowedSeqs: [...t.shadowedSeqs] })),
      anchors: pass.anchors.map((a) => ({ key: a.key, rowKind: a.rowKind, seq: a.seq, actions: [...a.actions] })),
      hidden: pass.hidden.hidden.map((h) => ({ ...h })),
      unresolved: [...pass.unresolved],
      expect: entry.expect()
    };
  }
};
function installDebugHook(target, registry) {
  const hook = registry.hook();
  target[DEBUG_GLOBAL] = hook;
  return () => {
    if (target[DEBUG_GLOBAL] === hook) delete target[DEBUG_GLOBAL];
  };
}

// src/client/locales.ts
var LOCALE_NS = "dsh-message-recall";
var zh = {
  "action.recall": "撤回",
  "action.delete": "删除",
  "action.deleteFrom": "删除以下",
  "label.recall": "撤回这条消息，并把文字放回输入框",
  "label.delete.message": "删除这条消息",
  "label.delete.step": "删除这一步：模型回复及其工具结果",
  "label.deleteFrom": "从这里删除到对话末尾",
  "armed.delete": "确认删除 {count} 条？",
  "armed.deleteFrom": "确认删除以下 {count} 条？",
  "armed.label.one": "再点一次，删除 {count} 条消息",
  "armed.label.other": "再点一次，删除 {count} 条消息",
  "busy": "处理中…",
  "notice.images.one": "已撤回。{count} 张图片无法放回输入框：{names}",
  "notice.images.other": "已撤回。{count} 张图片无法放回输入框：{names}",
  "notice.dismiss": "关闭",
  "error.STALE_VIEW": "对话刚刚有了变化，请再试一次",
  "error.AGENT_BUSY": "智能体正在工作，请等它停下再试",
  "error.TARGET_NOT_FOUND": "这条消息已不在对话中",
  "error.NOT_A_USER_MESSAGE": "只能撤回你自己发送的消息",
  "error.NOT_DELETABLE": "这条消息不能删除",
  "error.SPAN_NOT_CONTIGUOUS": "这一步中间夹着其他内容，无法整体删除",
  "error.SESSION_NOT_LIVE": "主机上没有加载这个会话",
  "error.PERSIST_FAILED": "改动没能保存到磁盘",
  "error.FORBIDDEN": "主机拒绝了这个请求",
  "error.NETWORK": "连不上主机",
  "error.unknown": "操作失败（{code}）"
};
var en = {
  "action.recall": "Recall",
  "action.delete": "Delete",
  "action.deleteFrom": "Delete onward",
  "label.recall": "Recall this message and put its text back in the composer",
  "label.delete.message": "Delete this message",
  "label.delete.step": "Delete this step: the answer and its tool results",
  "label.deleteFrom": "Delete from here to the end of the conversation",
  "armed.delete": "Delete {count}?",
  "armed.deleteFrom": "Delete {count} onward?",
  "armed.label.one": "Click again to delete {count} message",
  "armed.label.other": "Click again to delete {count} messages",
  "busy": "Working…",
  "notice.images.one": "Recalled. {count} image could not be put back in the composer: {names}",
  "notice.images.other": "Recalled. {count} images could not be put back in the composer: {names}",
  "notice.dismiss": "Dismiss",
  "error.STALE_VIEW": "The conversation just changed. Try again.",
  "error.AGENT_BUSY": "The agent is working. Try again when it stops.",
  "error.TARGET_NOT_FOUND": "This message is no longer in the conversation.",
  "error.NOT_A_USER_MESSAGE": "Only messages you sent can be recalled.",
  "error.NOT_DELETABLE": "This message cannot be deleted.",
  "error.SPAN_NOT_CONTIGUOUS": "Other content sits inside this step, so it cannot be removed as a whole.",
  "error.SESSION_NOT_LIVE": "This session is not loaded on the host.",
  "error.PERSIST_FAILED": "The change could not be saved to disk.",
  "error.FORBIDDEN": "The host refused the request.",
  "error.NETWORK": "Could not reach the host.",
  "error.unknown": "Failed ({code})."
};
var DICTIONARIES = { zh, en };
function countedKey(base, count) {
  return count === 1 ? `${base}.one` : `${base}.other`;
}
function describeError(t, code) {
  const key = `error.${code}`;
  return key !== "error.unknown" && key in zh ? t(key) : t("error.unknown", { code });
}

// src/client/decorate.ts
var ATTR = {
  actions: "data-message-recall-actions",
  action: "data-message-recall-action",
  hidden: "data-message-recall-hidden",
  error: "data-message-recall-error",
  row: "data-message-recall-row",
  active: "data-message-recall-active",
  armed: "data-armed",
  busy: "data-busy",
  style: "data-message-recall-style"
};
function clusterTexts(t) {
  return {
    text: { recall: t("action.recall"), delete: t("action.delete"), deleteFrom: t("action.deleteFrom") },
    label: {
      recall: t("label.recall"),
      delete: t("label.delete.message"),
      deleteStep: t("label.delete.step"),
      deleteFrom: t("label.deleteFrom")
    },
    busy: t("busy")
  };
}
var ClusterFactory = class {
  constructor(doc, texts) {
    this.doc = doc;
    this.texts = texts;
  }
  templates = /* @__PURE__ */ new Map();
  /**
   * @param actions - buttons in order.
   * @param isStepRow - label Delete as a step delete.
   * @returns a new detached cluster element.
   */
  create(actions, isStepRow) {
    const id = `${actions.join(",")}|${isStepRow}`;
    let template = this.templates.get(id);
    if (template === void 0) {
      template = this.doc.createElement("div");
      template.setAttribute(ATTR.actions, "");
      template.setAttribute("role", "group");
      for (const action of actions) {
        const button = this.doc.createElement("button");
        button.type = "button";
        button.setAttribute(ATTR.action, action);
        applyIdle(button, action, isStepRow, this.texts);
        template.appendChild(button);
      }
      this.templates.set(id, template);
    }
    return template.cloneNode(true);
  }
};
function idleLabel(action, isStepRow, texts) {
  return action === "delete" && isStepRow ? texts.label.deleteStep : texts.label[action];
}
function applyIdle(button, action, isStepRow, texts) {
  button.textContent = texts.text[action];
  const label = idleLabel(action, isStepRow, texts);
  button.setAttribute("aria-label", label);
  button.setAttribute("title", label);
}
function clusterOf(row) {
  for (let child = row.lastElementChild; child !== null; child = child.previousElementSibling) {
    if (child.hasAttribute(ATTR.actions)) return child;
  }
  return null;
}
function decorateRow(row, decoration, factory, t, texts, fresh) {
  if (decoration.hidden !== row.hasAttribute(ATTR.hidden)) {
    if (decoration.hidden) row.setAttribute(ATTR.hidden, "");
    else row.removeAttribute(ATTR.hidden);
  }
  let cluster = clusterOf(row);
  if (decoration.actions.length === 0) {
    cluster?.remove();
    if (row.hasAttribute(ATTR.row)) row.removeAttribute(ATTR.row);
    return null;
  }
  if (cluster !== null && fresh) {
    cluster.remove();
    cluster = null;
  }
  if (cluster === null) {
    cluster = factory.create(decoration.actions, decoration.isStepRow);
    row.appendChild(cluster);
  }
  if (!row.hasAttribute(ATTR.row)) row.setAttribute(ATTR.row, "");
  const armed = decoration.armed;
  const pending = decoration.pending;
  for (let button = cluster.firstElementChild; button !== null; button = button.nextElementSibling) {
    const action = button.getAttribute(ATTR.action);
    if (action === null) continue;
    const isArmed = armed !== null && armed.action === action;
    if (isArmed) {
      button.setAttribute(ATTR.armed, "true");
      button.textContent = t(`armed.${action}`, { count: armed.count });
      button.setAttribute("aria-label", t(countedKey("armed.label", armed.count), { count: armed.count }));
    } else if (button.hasAttribute(ATTR.armed)) {
      button.removeAttribute(ATTR.armed);
      applyIdle(button, action, decoration.isStepRow, texts);
    }
    const isBusy = pending !== null && pending.action === action;
    if (isBusy) {
      button.setAttribute(ATTR.busy, "true");
      button.setAttribute("aria-busy", "true");
    } else if (button.hasAttribute(ATTR.busy)) {
      button.removeAttribute(ATTR.busy);
      button.removeAttribute("aria-busy");
    }
  }
  let errorNode = cluster.querySelector(`[${ATTR.error}]`);
  if (decoration.errorText !== null) {
    if (errorNode === null) {
      errorNode = cluster.ownerDocument.createElement("span");
      errorNode.setAttribute(ATTR.error, "");
      errorNode.setAttribute("role", "alert");
      cluster.appendChild(errorNode);
    }
    if (errorNode.textContent !== decoration.errorText) errorNode.textContent = decoration.errorText;
    if (decoration.error !== null) errorNode.setAttribute("data-code", decoration.error.code);
  } else errorNode?.remove();
  const active = armed !== null || pending !== null || decoration.errorText !== null;
  if (active !== cluster.hasAttribute(ATTR.active)) {
    if (active) cluster.setAttribute(ATTR.active, "");
    else cluster.removeAttribute(ATTR.active);
  }
  return cluster;
}
function undecorateRow(row) {
  clusterOf(row)?.remove();
  row.removeAttribute(ATTR.row);
  row.removeAttribute(ATTR.hidden);
}
function undecorateAll(root) {
  for (const row of root.querySelectorAll(`[${ATTR.row}],[${ATTR.hidden}]`)) undecorateRow(row);
  for (const cluster of root.querySelectorAll(`[${ATTR.actions}]`)) cluster.remove();
}
var STYLE_TEXT = `
[${ATTR.hidden}]{display:none!important}
[${ATTR.row}]{position:relative}
[${ATTR.actions}]{position:absolute;top:-14px;right:0;z-index:3;display:flex;align-items:center;gap:2px;padding:2px;border-radius:8px;
background:var(--dsw-alias-bg-base,#fff);border:1px solid var(--dsw-alias-border-l2,rgba(0,0,0,.12));
box-shadow:var(--dsw-shadow-lv2,0 2px 6px rgba(0,0,0,.12));opacity:0;transition:opacity .12s ease}
[${ATTR.row}]:hover>[${ATTR.actions}],[${ATTR.row}]:focus-within>[${ATTR.actions}],[${ATTR.actions}][${ATTR.active}]{opacity:1}
[${ATTR.action}]{font:inherit;font-size:12px;line-height:18px;padding:1px 8px;border:none;border-radius:6px;background:transparent;
color:var(--dsw-alias-label-secondary,#444);cursor:pointer;white-space:nowrap}
[${ATTR.action}]:hover{background:var(--dsw-alias-interactive-bg-hover,rgba(0,0,0,.06))}
[${ATTR.action}]:focus-visible{outline:2px solid var(--dsw-alias-state-business-primary,#4d6bfe);outline-offset:1px}
[${ATTR.action}][${ATTR.armed}=true]{background:var(--dsw-alias-state-error-primary,#d93025);color:#fff}
[${ATTR.action}][${ATTR.busy}=true]{opacity:.6;cursor:progress}
[${ATTR.error}]{font-size:12px;line-height:18px;padding:0 6px;max-width:320px;color:var(--dsw-alias-state-error-primary,#d93025)}
[data-message-recall-notice]{position:absolute;bottom:calc(100% + 8px);left:12px;right:12px;z-index:20;display:flex;gap:8px;align-items:center;
padding:6px 10px;border-radius:8px;font-size:12px;line-height:18px;background:var(--dsw-specific-tip,#fff8e1);color:var(--dsw-alias-label-secondary,#444);
border:1px solid var(--dsw-alias-border-l2,rgba(0,0,0,.12))}
[data-message-recall-notice] button{font:inherit;margin-left:auto;border:none;background:transparent;cursor:pointer;color:inherit;text-decoration:underline}
`;
function installStyles(doc) {
  const style = doc.createElement("style");
  style.setAttribute(ATTR.style, "");
  style.textContent = STYLE_TEXT;
  doc.head.appendChild(style);
  return () => style.remove();
}

// src/client/Overlay.tsx
var import_react = require("react");

// src/shared/replace-op.ts
function readReplaceOp(surfaceOp) {
  if (!isRecord(surfaceOp) || surfaceOp.op !== "replace") return null;
  const { start, end } = surfaceOp;
  if (!Number.isSafeInteger(start) || !Number.isSafeInteger(end)) return null;
  return { start, end };
}

// src/client/replacement-view.ts
var REPLACEMENT_VIEW = "dsh-message-recall";
var REPLACEMENT_KIND = "dsh-message-recall-replacement";
var EMPTY_REPLACEMENTS = Object.freeze([]);
var SURFACE_TYPES = new Set(SURFACE_EVENT_TYPES);
function isReplacementEvent(event) {
  return SURFACE_TYPES.has(event.type) && readReplaceOp(event.surfaceOp) !== null;
}
function replacementRecord(event) {
  const source = isRecord(event.data) ? event.data.source : void 0;
  return Object.freeze({
    type: event.type,
    seq: event.seq,
    time: event.time,
    data: Object.freeze({ source }),
    surfaceOp: event.surfaceOp,
    ...Array.isArray(event.sourceEventSeqs) ? { sourceEventSeqs: Object.freeze([...event.sourceEventSeqs]) } : {}
  });
}
var replacementDefinition = {
  kind: REPLACEMENT_KIND,
  target: REPLACEMENT_VIEW,
  match: (event) => isReplacementEvent(event) ? { id: String(event.seq), role: "start" } : null,
  start: (_context, match) => replacementRecord(match.event),
  update: (context) => context.state,
  publication: () => "immediate",
  buildViewNode: (context) => context.state === void 0 ? null : { key: context.key, kind: context.kind, id: context.id, target: REPLACEMENT_VIEW, data: context.state }
};
var replacementView = {
  target: REPLACEMENT_VIEW,
  create() {
    let byKey = /* @__PURE__ */ new Map();
    let snapshot = EMPTY_REPLACEMENTS;
    const publish = () => {
      snapshot = Object.freeze([...byKey.values()].sort((a, b) => a.seq - b.seq));
      return snapshot;
    };
    return {
      empty: EMPTY_REPLACEMENTS,
      replace({ nodes }) {
        byKey = new Map(nodes.map((node) => [node.key, node.data]));
        return publish();
      },
      apply({ upserts }) {
        if (upserts.length === 0) return snapshot;
        for (const node of upserts) byKey.set(node.key, node.data);
        return publish();
      }
    };
  }
};
function readReplacements(value) {
  return Array.isArray(value) ? value : EMPTY_REPLACEMENTS;
}

// src/client/composer.ts
function composeDraft(recalled, draft) {
  return draft.trim() === "" ? recalled : `${recalled}

${draft}`;
}
function composerTextarea(from) {
  for (let node = from?.parentElement ?? null; node !== null; node = node.parentElement) {
    const textarea = node.querySelector("textarea");
    if (textarea !== null) return textarea;
  }
  return null;
}
function focusComposer(from) {
  const textarea = composerTextarea(from);
  if (textarea === null) return;
  textarea.focus();
  const place = () => {
    const end = textarea.value.length;
    textarea.setSelectionRange(end, end);
  };
  const view = textarea.ownerDocument.defaultView;
  if (view?.requestAnimationFrame !== void 0) view.requestAnimationFrame(place);
  else place();
}

// src/shared/message-text.ts
function plainText(content) {
  return content.filter((block) => isRecord(block) && block.type === "text" && typeof block.text === "string").map((block) => block.text).join("");
}

// src/client/controller.ts
var EMPTY_ERRORS = /* @__PURE__ */ new Map();
var INITIAL = Object.freeze({ armed: null, pending: null, errors: EMPTY_ERRORS, notice: null });
var RecallController = class {
  constructor(options) {
    this.options = options;
    this.timers = options.timers ?? {
      setTimeout: (callback, ms) => globalThis.setTimeout(callback, ms),
      clearTimeout: (handle) => globalThis.clearTimeout(handle)
    };
  }
  state = INITIAL;
  listeners = /* @__PURE__ */ new Set();
  timers;
  armTimer = void 0;
  noticeTimer = void 0;
  errorTimers = /* @__PURE__ */ new Map();
  baseline = null;
  noticeId = 0;
  disposed = false;
  /** @returns the current snapshot (stable until the next change). */
  getSnapshot = () => this.state;
  /**
   * @param listener - called after every change.
   * @returns unsubscribe.
   */
  subscribe = (listener) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };
  /** The generation baseline learned from this view's last successful write, or `null`. */
  get generationBaseline() {
    return this.baseline;
  }
  /**
   * Handle one button press.
   * @param target - the row, its seq and the pressed action.
   * @param expect - the view's expectation now (`viewExpectation` with {@link RecallController.generationBaseline});
   *   sent with a plan or a recall. A commit sends the armed plan's view instead.
   * @returns `'armed'` (first press of a destructive button), `'committed'`, `'refused'` (the
   *   host or the network said no; the row shows the error), `'ignored'` (a request is in flight)
   *   or `'disposed'`.
   */
  async press(target, expect) {
    if (this.disposed) return "disposed";
    if (this.state.pending !== null) return "ignored";
    this.clearError(target.key);
    const armed = this.state.armed;
    if (target.action === "recall") return this.commit(target, expect);
    if (armed !== null && armed.key === target.key && armed.action === target.action && armed.seq === target.seq) {
      return this.commit(target, armed.expect);
    }
    return this.arm(target, expect);
  }
  /** Disarm the armed button, if any. */
  disarm() {
    if (this.disposed || this.state.armed === null) return;
    this.stopArmTimer();
    this.set({ armed: null });
  }
  /** Hide the recall notice. */
  dismissNotice() {
    if (this.disposed || this.state.notice === null) return;
    this.timers.clearTimeout(this.noticeTimer);
    this.set({ notice: null });
  }
  /** Stop every timer, drop listeners; later presses resolve `'disposed'` and replies in flight are ignored. */
  dispose() {
    if (this.disposed) return;
    this.disposed = true;
    this.stopArmTimer();
    this.timers.clearTimeout(this.noticeTimer);
    for (const handle of this.errorTimers.values()) this.timers.clearTimeout(handle);
    this.errorTimers.clear();
    this.listeners.clear();
  }
  async arm(target, expect) {
    this.stopArmTimer();
    this.set({ armed: null, pending: { key: target.key, action: target.action, phase: "plan" } });
    const reply = await this.options.send({
      sessionId: this.options.sessionId,
      action: "plan",
      planAction: target.action,
      seq: target.seq,
      expect
    });
    if (this.disposed) return "disposed";
    if (!reply.ok) {
      this.fail(target.key, reply.error);
      return "refused";
    }
    const count = planCount(reply.value);
    const { replaceGeneration, lastSeq } = reply.value;
    this.baseline = { replaceGeneration, atSeq: lastSeq };
    this.set({ pending: null, armed: { key: target.key, seq: target.seq, action: target.action, count, expect: { replaceGeneration, lastSeq } } });
    this.armTimer = this.timers.setTimeout(() => this.disarm(), this.options.armMs ?? 4e3);
    return "armed";
  }
  async commit(target, expect) {
    this.stopArmTimer();
    this.set({ armed: null, pending: { key: target.key, action: target.action, phase: "commit" } });
    const reply = await this.options.send({ sessionId: this.options.sessionId, action: target.action, seq: target.seq, expect });
    if (this.disposed) return "disposed";
    if (!reply.ok) {
      this.fail(target.key, reply.error);
      return "refused";
    }
    const { replaceGeneration, tombstoneSeq } = reply.value;
    this.baseline = { replaceGeneration, atSeq: tombstoneSeq };
    this.set({ pending: null });
    if (target.action === "recall") {
      const message = recalledMessage(reply.value);
      if (message.images.length > 0) this.showNotice(message.images);
      this.options.onRecalled(message);
    }
    return "committed";
  }
  fail(key, error) {
    const errors = new Map(this.state.errors);
    errors.set(key, { key, code: error.code, message: error.message });
    this.set({ pending: null, errors });
    this.timers.clearTimeout(this.errorTimers.get(key));
    this.errorTimers.set(key, this.timers.setTimeout(() => this.clearError(key), this.options.errorMs ?? 6e3));
  }
  clearError(key) {
    if (this.disposed || !this.state.errors.has(key)) return;
    this.timers.clearTimeout(this.errorTimers.get(key));
    this.errorTimers.delete(key);
    const errors = new Map(this.state.errors);
    errors.delete(key);
    this.set({ errors: errors.size === 0 ? EMPTY_ERRORS : errors });
  }
  showNotice(images) {
    this.timers.clearTimeout(this.noticeTimer);
    this.set({ notice: { id: ++this.noticeId, images } });
    this.noticeTimer = this.timers.setTimeout(() => this.dismissNotice(), this.options.noticeMs ?? 1e4);
  }
  stopArmTimer() {
    this.timers.clearTimeout(this.armTimer);
    this.armTimer = void 0;
  }
  set(patch) {
    this.state = Object.freeze({ ...this.state, ...patch });
    for (const listener of [...this.listeners]) listener();
  }
};
function planCount(value) {
  return Math.max(1, value.kinds.filter((nodeKind) => nodeKind !== "tombstone").length);
}
function recalledMessage(value) {
  const content = value.content ?? [];
  const text = value.text ?? plainText(content);
  const images = content.filter(isRecord).filter((block) => block.type === "image").map((block, index) => imageName(block, index));
  return { text, images };
}
function imageName(block, index) {
  const attachment = isRecord(block.attachment) ? block.attachment : {};
  if (typeof attachment.name === "string" && attachment.name !== "") return attachment.name;
  const size = typeof attachment.width === "number" && typeof attachment.height === "number" ? ` ${attachment.width}×${attachment.height}` : "";
  return `#${index + 1}${size}`;
}

// src/client/disarm.ts
var ARMED_BUTTON = `[${ATTR.action}][${ATTR.armed}="true"]`;
function disarmOnOtherInput(doc, controller) {
  if (doc === null) return () => {
  };
  const onPointerOrFocus = (event) => {
    if (controller.getSnapshot().armed === null) return;
    const target = event.target;
    if (target?.closest?.(ARMED_BUTTON) == null) controller.disarm();
  };
  const onKey = (event) => {
    if (event.key === "Escape") controller.disarm();
  };
  doc.addEventListener("pointerdown", onPointerOrFocus, true);
  doc.addEventListener("focusin", onPointerOrFocus, true);
  doc.addEventListener("keydown", onKey, true);
  return () => {
    doc.removeEventListener("pointerdown", onPointerOrFocus, true);
    doc.removeEventListener("focusin", onPointerOrFocus, true);
    doc.removeEventListener("keydown", onKey, true);
  };
}

// src/client/rows.ts
var USER_ACTIONS = Object.freeze(["recall", "delete", "deleteFrom"]);
var STEP_ACTIONS = Object.freeze(["delete", "deleteFrom"]);
var NO_ACTIONS = Object.freeze([]);
var LOG_ONLY_ROW_KINDS = /* @__PURE__ */ new Set(["turn-tail", "turn-error", "turn-max-tokens", "model-retry", "command"]);
var anchors = /* @__PURE__ */ new WeakMap();
function resolveRow(node) {
  let anchor = anchors.get(node);
  if (anchor === void 0) {
    anchor = Object.freeze(computeAnchor(node));
    anchors.set(node, anchor);
  }
  return anchor;
}
function computeAnchor(node) {
  const data = isRecord(node.data) ? node.data : {};
  const turn = turnOf(node, data);
  const base = { key: node.key, rowKind: node.kind, turn };
  switch (node.kind) {
    case "user":
    case "steering": {
      const seq = isSeq(data.seq) ? data.seq : null;
      const fromPerson = isRecord(data.source) && data.source.kind === "user";
      const actions = seq === null ? NO_ACTIONS : fromPerson ? USER_ACTIONS : STEP_ACTIONS;
      return { ...base, seq, anchorSeq: seq ?? node.anchorSeq, actions, isStepRow: false };
    }
    case "context":
    case "compaction":
    case "unknown": {
      const seq = isSeq(data.seq) ? data.seq : null;
      return { ...base, seq, anchorSeq: seq ?? node.anchorSeq, actions: NO_ACTIONS, isStepRow: false };
    }
    case "assistant-step": {
      const final = isRecord(data.finalNode) ? data.finalNode : null;
      const seq = final !== null && final.kind === "assistant" && isSeq(final.seq) ? final.seq : null;
      return { ...base, seq, anchorSeq: seq ?? node.anchorSeq, actions: seq === null ? NO_ACTIONS : STEP_ACTIONS, isStepRow: true };
    }
    case "tool-call": {
      const root = isRecord(data.root) ? data.root : null;
      const seq = root !== null && root.kind === "tool-result" && isSeq(root.seq) ? root.seq : null;
      return { ...base, seq, anchorSeq: node.anchorSeq, actions: seq === null ? NO_ACTIONS : STEP_ACTIONS, isStepRow: true };
    }
    default: {
      const anchorSeq = LOG_ONLY_ROW_KINDS.has(node.kind) && typeof data.seq === "number" ? data.seq : node.anchorSeq;
      return { ...base, seq: null, anchorSeq, actions: NO_ACTIONS, isStepRow: false };
    }
  }
}
function turnOf(node, data) {
  const location = node.location;
  if (location !== void 0 && (location.kind === "step" || location.kind === "turn")) return location.turn.turn;
  return isSeq(data.turn) ? data.turn : null;
}

// src/client/expectation.ts
function viewExpectation(chat, replacements, hasMore, baseline) {
  let newestSeq = -1;
  for (const node of chat.nodes.values()) {
    const seq = resolveRow(node).seq;
    if (seq !== null && seq > newestSeq) newestSeq = seq;
  }
  for (const event of replacements) if (event.seq > newestSeq) newestSeq = event.seq;
  let replaceGeneration;
  if (!hasMore) replaceGeneration = replacements.length;
  else if (baseline !== null) {
    replaceGeneration = baseline.replaceGeneration + replacements.filter((event) => event.seq > baseline.atSeq).length;
  }
  return {
    ...replaceGeneration === void 0 ? {} : { replaceGeneration },
    ...newestSeq < 0 ? {} : { lastSeq: newestSeq }
  };
}

// src/shared/tombstone.ts
var TOMBSTONE_PLUGIN = "dsh-message-recall";
var REMOVAL_ACTIONS = ["recall", "delete", "deleteFrom"];
var TOMBSTONE_ACTIONS = [...REMOVAL_ACTIONS, "exclude"];
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
  const action = TOMBSTONE_ACTIONS.find((a) => a === source.action) ?? "delete";
  const fromSource = Array.isArray(source.removedSeqs) ? source.removedSeqs.filter(Number.isSafeInteger) : [];
  const shadowedSeqs2 = event.sourceEventSeqs ? [...event.sourceEventSeqs] : fromSource;
  return { seq: event.seq, start: range.start, end: range.end, shadowedSeqs: shadowedSeqs2, action };
}

// src/shared/hidden-rows.ts
var CONTENT_ROW_KINDS = /* @__PURE__ */ new Set(["user", "steering", "assistant-step", "tool-call"]);
var TURN_LOG_ROW_KINDS = /* @__PURE__ */ new Set(["turn-tail", "turn-error", "turn-max-tokens", "model-retry"]);
var EMPTY_TURN_ROW_KINDS = /* @__PURE__ */ new Set([...TURN_LOG_ROW_KINDS, "context"]);
function readTombstones(events) {
  const out = [];
  for (const event of events) {
    const record = readTombstone(event);
    if (record !== null) out.push(record);
  }
  return out.sort((a, b) => a.seq - b.seq);
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

// src/client/rc8.ts
var FLOW_SELECTOR = "[data-chat-flow]";
var FLOW_KEY = "data-chat-flow-key";
var FLOW_KIND = "data-chat-flow-kind";

// src/client/clicks.ts
var ClickDelegate = class {
  constructor(options) {
    this.options = options;
  }
  flow = null;
  /**
   * Listen on a flow.
   * @param flow - the bound flow.
   */
  attach(flow) {
    this.flow = flow;
    flow.addEventListener("click", this.handleClick);
  }
  /**
   * Stop listening.
   * @param flow - the flow given to {@link ClickDelegate.attach}.
   */
  release(flow) {
    flow.removeEventListener("click", this.handleClick);
    if (this.flow === flow) this.flow = null;
  }
  handleClick = (event) => {
    const target = event.target;
    const button = target?.closest?.(`[${ATTR.action}]`);
    if (button === null || button === void 0 || this.flow === null || !this.flow.contains(button)) return;
    const row = button.closest(`[${FLOW_KEY}]`);
    const key = row?.getAttribute(FLOW_KEY);
    const action = button.getAttribute(ATTR.action);
    event.preventDefault();
    event.stopPropagation();
    const anchor = key === null || key === void 0 ? void 0 : this.options.anchorOf(key);
    if (anchor === void 0 || anchor.seq === null || !anchor.actions.includes(action)) return;
    this.options.onPress({ key: anchor.key, seq: anchor.seq, action });
  };
};

// src/client/flow.ts
var FlowBinding = class {
  constructor(options) {
    this.options = options;
  }
  marker = null;
  current = null;
  scope = null;
  observer = null;
  onChange = null;
  /** The bound flow, or `null`. */
  get flow() {
    return this.current;
  }
  /**
   * Set the element the overlay rendered; the flow is looked up from it.
   * @param marker - the overlay's anchor element, or `null` on unmount.
   */
  setMarker(marker) {
    this.marker = marker;
  }
  /**
   * Call `onChange` whenever rows of the flow are added, removed or re-created, or the flow itself
   * is replaced.
   * @param onChange - usually runs a pass.
   * @returns stops watching.
   */
  watch(onChange) {
    this.onChange = onChange;
    this.reobserve();
    return () => {
      this.onChange = null;
      this.observer?.disconnect();
      this.observer = null;
    };
  }
  /**
   * Find (or keep) the flow next to the marker; a new flow is attached and the old one detached.
   * @returns the flow, or `null` when the marker has none near it (or is not in the page).
   */
  locate() {
    const marker = this.marker;
    if (marker === null || !marker.isConnected) return this.current?.isConnected ? this.current : null;
    if (this.current !== null && this.current.isConnected && this.scope !== null && this.scope.contains(marker)) return this.current;
    let scope = marker.parentElement;
    let flow = null;
    while (scope !== null && flow === null) {
      flow = scope.querySelector(FLOW_SELECTOR);
      if (flow === null) scope = scope.parentElement;
    }
    if (flow !== this.current) {
      if (this.current !== null) this.options.onRelease(this.current);
      this.current = flow;
      if (flow !== null) this.options.onAttach(flow);
    }
    if (scope !== this.scope) {
      this.scope = scope;
      this.reobserve();
    }
    return flow;
  }
  /**
   * Let the flow go and stop observing; `onRelease` is not called, the caller cleans up.
   * @returns the flow that was bound, or `null`.
   */
  detach() {
    const flow = this.current;
    this.observer?.disconnect();
    this.observer = null;
    this.current = null;
    this.scope = null;
    return flow;
  }
  reobserve() {
    this.observer?.disconnect();
    this.observer = null;
    const scope = this.scope;
    const onChange = this.onChange;
    if (scope === null || onChange === null || typeof MutationObserver === "undefined") return;
    this.observer = new MutationObserver((records) => {
      const flow = this.current;
      if (flow === null || !flow.isConnected) return onChange();
      for (const record of records) {
        if (record.target === flow) return onChange();
      }
    });
    this.observer.observe(scope, { childList: true, subtree: true });
  }
};

// src/client/reveal.ts
var EAGER_TAIL = 64;
var REVEAL_MARGIN = "800px 0px";
var REVEAL_STRIDE = 8;
var LazyReveal = class {
  constructor(options) {
    this.options = options;
  }
  flow = null;
  intersection = null;
  revealed = /* @__PURE__ */ new WeakSet();
  watched = /* @__PURE__ */ new WeakSet();
  /**
   * Start watching a flow: pointer and focus entry, and the viewport when IntersectionObserver exists.
   * @param flow - the bound flow.
   */
  attach(flow) {
    this.flow = flow;
    flow.addEventListener("pointerover", this.handleEnter);
    flow.addEventListener("focusin", this.handleEnter);
    const view = flow.ownerDocument.defaultView;
    if (view?.IntersectionObserver === void 0) return;
    this.intersection = new view.IntersectionObserver((entries) => {
      const rows = [];
      for (const entry of entries) if (entry.isIntersecting) rows.push(...neighbourhood(entry.target));
      if (rows.length > 0) this.reveal(rows);
    }, { root: scrollContainer(flow), rootMargin: REVEAL_MARGIN });
  }
  /**
   * Stop watching the flow and forget every revealed row.
   * @param flow - the flow given to {@link LazyReveal.attach}.
   */
  release(flow) {
    flow.removeEventListener("pointerover", this.handleEnter);
    flow.removeEventListener("focusin", this.handleEnter);
    this.intersection?.disconnect();
    this.intersection = null;
    this.flow = null;
    this.revealed = /* @__PURE__ */ new WeakSet();
    this.watched = /* @__PURE__ */ new WeakSet();
  }
  /**
   * Whether a row may carry buttons now; a row in the eager tail is revealed by this call.
   * @param row - a row element of the flow.
   * @param index - its position among the flow's element children.
   * @param count - the flow's element child count.
   */
  isRevealed(row, index, count) {
    if (this.intersection === null || index >= count - EAGER_TAIL) this.revealed.add(row);
    return this.revealed.has(row);
  }
  /**
   * Observe an unrevealed row if it is one of every {@link REVEAL_STRIDE}-th.
   * @param row - a row for which {@link LazyReveal.isRevealed} was false.
   * @param index - its position among the flow's element children.
   */
  observe(row, index) {
    if (this.intersection === null || index % REVEAL_STRIDE !== 0 || this.watched.has(row)) return;
    this.watched.add(row);
    this.intersection.observe(row);
  }
  /**
   * Reveal rows and, when any was new, call `onReveal`.
   * @param rows - row elements of the flow.
   */
  reveal(rows) {
    let added = false;
    for (const row of rows) {
      if (this.revealed.has(row)) continue;
      this.revealed.add(row);
      this.intersection?.unobserve(row);
      added = true;
    }
    if (added) this.options.onReveal();
  }
  handleEnter = (event) => {
    const row = event.target?.closest?.(`[${FLOW_KEY}]`);
    if (row !== null && row !== void 0 && row.parentElement === this.flow && !this.revealed.has(row)) this.reveal([row]);
  };
};
function neighbourhood(row) {
  const rows = [row];
  let before = row.previousElementSibling;
  let after = row.nextElementSibling;
  for (let i = 0; i < REVEAL_STRIDE; i++) {
    if (before !== null) {
      rows.push(before);
      before = before.previousElementSibling;
    }
    if (after !== null) {
      rows.push(after);
      after = after.nextElementSibling;
    }
  }
  return rows;
}
function scrollContainer(flow) {
  const view = flow.ownerDocument.defaultView;
  for (let node = flow.parentElement; node !== null && view !== null; node = node.parentElement) {
    const overflow = view.getComputedStyle(node).overflowY;
    if (overflow === "auto" || overflow === "scroll") return node;
  }
  return null;
}

// src/client/sync.ts
var NO_ACTIONS2 = Object.freeze([]);
var RowSync = class {
  constructor(options) {
    this.options = options;
    this.lazy = new LazyReveal({ onReveal: () => this.onChange?.() });
    this.clicks = new ClickDelegate({ anchorOf: (key) => this.anchorsByKey.get(key), onPress: options.onPress });
    this.binding = new FlowBinding({
      onAttach: (flow) => {
        this.clicks.attach(flow);
        this.lazy.attach(flow);
      },
      onRelease: (flow) => {
        this.release(flow);
        if (flow.isConnected) undecorateAll(flow);
        this.cache = /* @__PURE__ */ new WeakMap();
      }
    });
  }
  cache = /* @__PURE__ */ new WeakMap();
  revision = Number.NaN;
  texts = null;
  factory = null;
  derived = null;
  anchorsByKey = /* @__PURE__ */ new Map();
  onChange = null;
  binding;
  lazy;
  clicks;
  /**
   * Set the element the overlay rendered; the flow is looked up from it.
   * @param marker - the overlay's anchor element, or `null` on unmount.
   */
  setMarker(marker) {
    this.binding.setMarker(marker);
  }
  /**
   * Re-run `onChange` whenever rows of the flow are added, removed or re-created, the flow itself
   * is replaced, or rows are revealed. Mutations inside rows (streaming text) do not trigger it.
   * @param onChange - usually runs a pass.
   * @returns stops watching.
   */
  watch(onChange) {
    this.onChange = onChange;
    const stop = this.binding.watch(onChange);
    return () => {
      this.onChange = null;
      stop();
    };
  }
  /**
   * Run one pass.
   * @param input - see {@link SyncInput}.
   * @returns what the pass saw; never throws for rows of unknown shape.
   */
  run(input) {
    const started = performance.now();
    const flow = this.binding.locate();
    if (input.localeRevision !== this.revision || this.texts === null || this.factory === null) {
      this.revision = input.localeRevision;
      this.texts = clusterTexts(this.options.t);
      this.factory = flow === null ? null : new ClusterFactory(flow.ownerDocument, this.texts);
    }
    const anchors2 = [];
    const byKey = /* @__PURE__ */ new Map();
    for (const key of input.chat.order) {
      const node = input.chat.nodes.get(key);
      if (node === void 0) continue;
      const anchor = resolveRow(node);
      anchors2.push(anchor);
      byKey.set(key, anchor);
    }
    this.anchorsByKey = byKey;
    const hidden = this.deriveHidden(input.replacements, anchors2);
    let rows = 0;
    let touched = 0;
    const unresolved = [];
    if (flow !== null) {
      this.factory ??= new ClusterFactory(flow.ownerDocument, this.texts);
      const { controller, running } = input;
      const armedKey = controller.armed?.key;
      const pendingKey = controller.pending?.key;
      const hasErrors = controller.errors.size > 0;
      const count = flow.childElementCount;
      let index = -1;
      for (let row = flow.firstElementChild; row !== null; row = row.nextElementSibling) {
        index++;
        const key = row.getAttribute(FLOW_KEY);
        if (key === null) continue;
        rows++;
        const node = input.chat.nodes.get(key);
        const cached = this.cache.get(row);
        if (node === void 0) {
          unresolved.push(key);
          if (cached !== void 0) {
            undecorateRow(row);
            this.cache.delete(row);
            touched++;
          }
          continue;
        }
        const wanted = this.lazy.isRevealed(row, index, count);
        const isHidden = hidden.hiddenKeys.has(key);
        const armed = armedKey === key ? controller.armed : null;
        const pending = pendingKey === key ? controller.pending : null;
        const error = hasErrors ? controller.errors.get(key) ?? null : null;
        if (cached !== void 0 && cached.node === node && cached.hidden === isHidden && cached.running === running && cached.revision === this.revision && cached.armed === armed && cached.pending === pending && cached.error === error && cached.wanted === wanted && (cached.cluster === null || cached.cluster.parentNode === row)) continue;
        if ((cached === void 0 || cached.node !== node) && row.getAttribute(FLOW_KIND) !== node.kind) {
          unresolved.push(key);
          if (cached !== void 0) undecorateRow(row);
          this.cache.delete(row);
          continue;
        }
        const anchor = resolveRow(node);
        if (!wanted) this.lazy.observe(row, index);
        const actions = running || !wanted ? NO_ACTIONS2 : anchor.actions;
        const fresh = cached !== void 0 && (cached.revision !== this.revision || cached.actions !== actions || cached.isStepRow !== anchor.isStepRow);
        const cluster = decorateRow(row, {
          hidden: isHidden,
          actions,
          isStepRow: anchor.isStepRow,
          armed,
          pending,
          error,
          errorText: error === null ? null : describeError(this.options.t, error.code)
        }, this.factory, this.options.t, this.texts, fresh);
        this.cache.set(row, {
          node,
          hidden: isHidden,
          running,
          revision: this.revision,
          armed,
          pending,
          error,
          actions,
          isStepRow: anchor.isStepRow,
          wanted,
          cluster
        });
        touched++;
      }
    }
    return {
      at: Date.now(),
      durationMs: performance.now() - started,
      running: input.running,
      attached: flow !== null,
      rows,
      touched,
      unresolved,
      anchors: anchors2,
      hidden
    };
  }
  /**
   * Let rows carry buttons from the next pass on, and run one (through the `watch` callback).
   * @param rows - row elements of the flow.
   */
  reveal(rows) {
    this.lazy.reveal(rows);
  }
  /** Remove every mark of the plugin from the flow and stop listening to it. */
  detach() {
    const flow = this.binding.detach();
    if (flow !== null) {
      this.release(flow);
      undecorateAll(flow);
    }
    this.cache = /* @__PURE__ */ new WeakMap();
    this.derived = null;
  }
  release(flow) {
    this.clicks.release(flow);
    this.lazy.release(flow);
  }
  deriveHidden(replacements, anchors2) {
    const last = this.derived;
    if (last !== null && last.replacements === replacements && sameAnchors(last.anchors, anchors2)) return last.result;
    const result = deriveHiddenRows(replacements, anchors2);
    this.derived = { replacements, anchors: anchors2, result };
    return result;
  }
};
function sameAnchors(a, b) {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) {
    const x = a[i];
    const y = b[i];
    if (x !== y && (x.key !== y.key || x.rowKind !== y.rowKind || x.seq !== y.seq || x.anchorSeq !== y.anchorSeq || x.turn !== y.turn)) return false;
  }
  return true;
}

// src/client/session-client.ts
var SessionClient = class {
  constructor(options) {
    this.options = options;
    this.controller = new RecallController({
      sessionId: options.sessionId,
      send: options.send,
      onRecalled: (message) => this.recalled(message),
      ...options.timers === void 0 ? {} : { timers: options.timers }
    });
    this.sync = new RowSync({ t: options.t, onPress: (target) => void this.press(target) });
  }
  /** The button state store; the overlay subscribes to it to re-render. */
  controller;
  sync;
  view = null;
  inputActions = null;
  draft = "";
  marker = null;
  wasRunning = false;
  /**
   * Take the view of this render. Plain writes: safe to call while rendering.
   * @param view - what the overlay selected from the session snapshot.
   * @param inputActions - the composer face of this render.
   */
  setView(view, inputActions) {
    this.view = view;
    this.inputActions = inputActions;
  }
  /**
   * Take the composer's current draft (kept without re-rendering the overlay per keystroke).
   * @param draft - the draft text.
   */
  setDraft(draft) {
    this.draft = draft;
  }
  /**
   * Set the overlay's anchor element: the chat flow and the composer are found from it.
   * @param marker - the element, or `null` on unmount.
   */
  setMarker(marker) {
    this.marker = marker;
    this.sync.setMarker(marker);
  }
  /** The `expect` a request would carry now (`{}` before the first render). */
  expectation() {
    const view = this.view;
    return view === null ? {} : viewExpectation(view.chat, view.replacements, view.hasMore, this.controller.generationBaseline);
  }
  /**
   * Press a row button with the view's current expectation.
   * @param target - the row, its seq and the action.
   * @returns the controller's outcome.
   */
  press(target) {
    return this.controller.press(target, this.expectation());
  }
  /**
   * Run one sync pass over the current view, record it for the debug hook, and disarm the armed
   * button when its row is now hidden or a turn has just started.
   */
  pass() {
    const view = this.view;
    if (view === null) return;
    const state = this.controller.getSnapshot();
    const record = this.sync.run({ ...view, controller: state });
    this.options.debug.record(this.options.sessionId, record, () => this.expectation());
    const started = view.running && !this.wasRunning;
    this.wasRunning = view.running;
    if (state.armed !== null && (started || record.hidden.hiddenKeys.has(state.armed.key))) this.controller.disarm();
  }
  /**
   * Start the page-side effects: passes on row mutations and reveals, and disarming on any other
   * pointer press, focus move or Escape.
   * @param doc - the page document, or `null`.
   * @returns stops them, removes every mark of the plugin and disposes the controller.
   */
  mount(doc) {
    const stopWatching = this.sync.watch(() => this.pass());
    const stopDisarming = disarmOnOtherInput(doc, this.controller);
    return () => {
      stopDisarming();
      stopWatching();
      this.sync.detach();
      this.controller.dispose();
    };
  }
  recalled(message) {
    const actions = this.inputActions;
    if (actions === null) return;
    const text = composeDraft(message.text, this.draft);
    actions.setDraft(text);
    this.draft = text;
    focusComposer(this.marker);
  }
};

// src/client/Overlay.tsx
var import_jsx_runtime = require("react/jsx-runtime");
var selectChat = (s) => s.chat;
var selectRunning = (s) => s.running;
var selectHasMore = (s) => s.hasMore;
var selectReplacements = (s) => readReplacements(s.views.get(REPLACEMENT_VIEW));
var selectDraft = (s) => s.draft;
function RecallOverlay({ sessionId, useSession, useInput, inputActions, kit }) {
  const chat = useSession(selectChat);
  const running = useSession(selectRunning);
  const hasMore = useSession(selectHasMore);
  const replacements = useSession(selectReplacements);
  const locale = (0, import_react.useSyncExternalStore)(kit.locale.subscribe, kit.locale.getSnapshot);
  const marker = (0, import_react.useRef)(null);
  const client = (0, import_react.useMemo)(() => new SessionClient({ sessionId, send: kit.send, t: kit.t, debug: kit.debug }), [sessionId, kit]);
  const state = (0, import_react.useSyncExternalStore)(client.controller.subscribe, client.controller.getSnapshot);
  client.setView({ chat, running, hasMore, replacements, localeRevision: locale.revision }, inputActions);
  (0, import_react.useLayoutEffect)(() => {
    client.setMarker(marker.current);
    client.pass();
  });
  (0, import_react.useEffect)(() => client.mount(marker.current?.ownerDocument ?? null), [client]);
  return /* @__PURE__ */ (0, import_jsx_runtime.jsxs)(import_jsx_runtime.Fragment, { children: [
    /* @__PURE__ */ (0, import_jsx_runtime.jsx)("span", { ref: marker, hidden: true, "data-message-recall-overlay": "" }),
    useInput !== void 0 && /* @__PURE__ */ (0, import_jsx_runtime.jsx)(DraftMirror, { useInput, client }),
    state.notice !== null && /* @__PURE__ */ (0, import_jsx_runtime.jsxs)("div", { "data-message-recall-notice": "", role: "status", children: [
      /* @__PURE__ */ (0, import_jsx_runtime.jsx)("span", { children: kit.t(countedKey("notice.images", state.notice.images.length), { count: state.notice.images.length, names: state.notice.images.join(", ") }) }),
      /* @__PURE__ */ (0, import_jsx_runtime.jsx)("button", { type: "button", onClick: () => client.controller.dismissNotice(), children: kit.t("notice.dismiss") })
    ] }, state.notice.id)
  ] });
}
function DraftMirror({ useInput, client }) {
  const draft = useInput(selectDraft);
  (0, import_react.useLayoutEffect)(() => client.setDraft(draft), [draft, client]);
  return null;
}

// src/client/stamp.ts
var BUILD_STAMP = true ? "0.1.0+bc9e4c3e26" : "dev";

// src/client/EditButton.tsx
var import_react3 = require("react");
var import_react_dom = require("react-dom");

// src/client/editor-locales.ts
var EDITOR_LOCALE_NS = "dsh-message-recall.editor";
var EDITOR_SHORTCUT = "Alt+Shift+E";
var editorZh = {
  "button": "编辑",
  "button.label": "编辑对话：选择要移除或恢复的消息（{shortcut}）",
  "title": "编辑对话",
  "loading": "正在读取完整对话…",
  "loadFailed": "无法读取对话：{message}",
  "turn": "第 {turn} 轮",
  "beforeTurns": "第一轮之前",
  "role.user": "你",
  "role.assistant": "助手",
  "role.tool": "工具",
  "select.prompt": "移除这条消息：{text}",
  "select.step": "移除这一步（回复及其工具结果）：{text}",
  "from": "从这里起",
  "from.label": "移除这一条及之后的全部内容：{text}",
  "restore": "恢复",
  "restore.label": "把这条消息原位恢复：{text}",
  "state.removed": "已移除",
  "state.excluded": "已排除",
  "state.folded": "已压缩",
  "leave.one": "{count} 条消息、约 {tokens} 个词元将离开上下文",
  "leave.other": "{count} 条消息、约 {tokens} 个词元将离开上下文",
  "back.one": "{count} 条恢复",
  "back.other": "{count} 条恢复",
  "separator": "；",
  "nothing": "尚未选择任何内容",
  "apply": "应用",
  "discard": "放弃",
  "busy": "智能体正在工作，停下后才能应用",
  "checking": "正在向主机确认…",
  "refused": "无法执行：{reason}",
  "applyFailed": "没有做任何改动：{reason}",
  "keys": "方向键移动，空格选择，回车应用，Esc 放弃",
  "empty": "这个会话还没有消息"
};
var editorEn = {
  "button": "Edit",
  "button.label": "Edit the conversation: choose messages to remove or bring back ({shortcut})",
  "title": "Edit conversation",
  "loading": "Reading the whole conversation…",
  "loadFailed": "Could not read the conversation: {message}",
  "turn": "Turn {turn}",
  "beforeTurns": "Before the first turn",
  "role.user": "You",
  "role.assistant": "Assistant",
  "role.tool": "Tool",
  "select.prompt": "Remove this message: {text}",
  "select.step": "Remove this step (the answer and its tool results): {text}",
  "from": "From here",
  "from.label": "Remove this and everything after it: {text}",
  "restore": "Restore",
  "restore.label": "Bring this message back in place: {text}",
  "state.removed": "Removed",
  "state.excluded": "Excluded",
  "state.folded": "Compacted",
  "leave.one": "{count} message, ~{tokens} tokens leave the context",
  "leave.other": "{count} messages, ~{tokens} tokens leave the context",
  "back.one": "{count} comes back",
  "back.other": "{count} come back",
  "separator": "; ",
  "nothing": "Nothing selected yet",
  "apply": "Apply",
  "discard": "Discard",
  "busy": "The agent is working; Apply is possible once it stops",
  "checking": "Checking with the host…",
  "refused": "Not possible: {reason}",
  "applyFailed": "Nothing was changed: {reason}",
  "keys": "Arrows move, Space selects, Enter applies, Escape discards",
  "empty": "This session has no messages yet"
};
var EDITOR_DICTIONARIES = { zh: editorZh, en: editorEn };
function counterText(t, locale, counts) {
  const format = new Intl.NumberFormat(locale === "zh" ? "zh-CN" : "en-US");
  const parts = [];
  if (counts.messages > 0) parts.push(t(counts.messages === 1 ? "leave.one" : "leave.other", { count: format.format(counts.messages), tokens: format.format(counts.tokens) }));
  if (counts.back > 0) parts.push(t(counts.back === 1 ? "back.one" : "back.other", { count: format.format(counts.back) }));
  return parts.length === 0 ? t("nothing") : parts.join(t("separator"));
}

// src/client/EditorModal.tsx
var import_react2 = require("react");

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
        if (isRecord(source) && source.kind === "user" && isRestoreShape(event)) return "user";
        return "replacement";
      }
      return isRecord(source) && source.kind === "user" ? "user" : "context";
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
function contentOf(event) {
  const content = messageOf(event)?.content;
  return Array.isArray(content) ? content : [];
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
  let chars = 0;
  for (const content of contents) for (const block of content) chars += blockChars(block);
  return Math.ceil(chars / CHARS_PER_TOKEN);
}

// src/client/editor-model.ts
var EMPTY_SELECTION = { remove: /* @__PURE__ */ new Set(), from: null, restore: /* @__PURE__ */ new Set() };
var PREVIEW_CHARS = 160;
function rowOf(event) {
  const content = contentOf(event);
  let text = plainText(content.flatMap((b) => isRecord(b) && b.type === "tool-result" && Array.isArray(b.content) ? b.content : [b]));
  if (text === "" && event.type === "assistant/message") text = toolCallIds(event).length > 0 ? toolNames(content) : "";
  const role = event.type === "user/message" ? "user" : event.type === "assistant/message" ? "assistant" : "tool";
  return { seq: event.seq, role, text: text.length > PREVIEW_CHARS ? `${text.slice(0, PREVIEW_CHARS)}…` : text, tokens: estimateTokens([content]) };
}
function toolNames(content) {
  return content.filter((b) => isRecord(b) && b.type === "tool-call").map((b) => String(b.name ?? "")).join(", ");
}
function buildEditorUnits(log) {
  const bySeq = new Map(log.map((event) => [event.seq, event]));
  const lookup = (seq) => bySeq.get(seq);
  const events = log;
  const shadowedBy = /* @__PURE__ */ new Map();
  const restoreOf = /* @__PURE__ */ new Map();
  for (const event of events) {
    if (readReplaceOp(event.surfaceOp) === null) continue;
    for (const cited of event.sourceEventSeqs ?? []) if (!shadowedBy.has(cited)) shadowedBy.set(cited, event.seq);
    const restore = readRestore(event, lookup);
    if (restore !== null) restoreOf.set(restore.tombstoneSeq, { seq: restore.seq, originalSeq: restore.originalSeq });
  }
  const resolve = (seq) => {
    let at = seq;
    for (; ; ) {
      const by = shadowedBy.get(at);
      if (by === void 0) return { state: "current", surfaceSeq: at, tombstoneSeq: null };
      const shadower = lookup(by);
      const tombstone = readTombstone(shadower);
      if (tombstone !== null) {
        const restored = restoreOf.get(by);
        if (restored !== void 0 && (restored.originalSeq === seq || restored.originalSeq === at)) {
          at = restored.seq;
          continue;
        }
        return { state: tombstone.action === "exclude" ? "excluded" : "removed", surfaceSeq: null, tombstoneSeq: by };
      }
      const range = readReplaceOp(shadower.surfaceOp);
      if (shadower.type === lookup(at).type && range !== null && range.start === at && range.end === at) {
        at = by;
        continue;
      }
      return { state: "folded", surfaceSeq: null, tombstoneSeq: null };
    }
  };
  const units = [];
  const steps = /* @__PURE__ */ new Map();
  let turn = null;
  for (const event of events) {
    if (event.type === "turn/start" && isRecord(event.data) && Number.isSafeInteger(event.data.turn)) turn = event.data.turn;
    if (event.surfaceOp !== "append") continue;
    if (event.type === "user/message") {
      if (classifyNode(event) !== "user") continue;
      units.push({ key: `u${event.seq}`, kind: "prompt", turn, events: [event] });
      continue;
    }
    const step = stepOf(event);
    if (step === null) continue;
    const key = `s${step.turn}.${step.step}`;
    let unit = steps.get(key);
    if (unit === void 0) {
      unit = { key, kind: "step", turn: step.turn, events: [] };
      steps.set(key, unit);
      units.push(unit);
    }
    unit.events.push(event);
  }
  return units.map((u) => {
    const lead = u.events.find((e) => e.type !== "tool/result") ?? u.events[0];
    const where = resolve(lead.seq);
    const tombstone = where.tombstoneSeq === null ? null : readTombstone(lookup(where.tombstoneSeq));
    const restorable = u.kind === "prompt" && tombstone !== null && !shadowedBy.has(tombstone.seq) && tombstone.shadowedSeqs.length === 1 && tombstone.shadowedSeqs[0] === lead.seq;
    const rows = u.events.map(rowOf);
    return {
      key: u.key,
      kind: u.kind,
      turn: u.turn,
      rows,
      state: where.state,
      targetSeq: where.surfaceSeq,
      tombstoneSeq: where.tombstoneSeq,
      restorable,
      tokens: estimateTokens(u.events.map(contentOf))
    };
  });
}
function previewSelection(units, selection) {
  const going = /* @__PURE__ */ new Set();
  const coming = /* @__PURE__ */ new Set();
  const changes = [];
  const changeUnits = [];
  let messages = 0;
  let tokens = 0;
  const fromIndex = selection.from === null ? -1 : units.findIndex((u) => u.key === selection.from && u.state === "current");
  for (const [i, unit] of units.entries()) {
    if (unit.state === "current") {
      const onward = fromIndex !== -1 && i >= fromIndex;
      if (!onward && !selection.remove.has(unit.key)) continue;
      going.add(unit.key);
      messages += unit.rows.length;
      tokens += unit.tokens;
      if (i === fromIndex) {
        changes.push({ action: "deleteFrom", seq: unit.targetSeq });
        changeUnits.push(unit.key);
      } else if (!onward) {
        changes.push({ action: "delete", seq: unit.targetSeq });
        changeUnits.push(unit.key);
      }
    } else if (unit.restorable && selection.restore.has(unit.key)) {
      coming.add(unit.key);
      changes.push({ action: "restore", tombstoneSeq: unit.tombstoneSeq });
      changeUnits.push(unit.key);
    }
  }
  return { going, coming, messages, tokens, back: coming.size, changes, changeUnits };
}

// src/client/history.ts
var HISTORY_PATH = "/api/session.history";
var HISTORY_PAGE_MESSAGES = 500;
var MAX_PAGES = 1e4;
var rpcCounter = 0;
async function readWholeHistory(fetchImpl, sessionId) {
  const pages = [];
  let beforeSeq;
  for (let page = 0; page < MAX_PAGES; page++) {
    const payload = { sessionId, maxMessages: HISTORY_PAGE_MESSAGES, ...beforeSeq === void 0 ? {} : { beforeSeq } };
    const response = await fetchImpl(HISTORY_PATH, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ type: "client-request", rpcId: `dsh-message-recall-history-${++rpcCounter}`, method: "session.history", payload }),
      credentials: "same-origin"
    });
    const body = JSON.parse(await response.text());
    const result = isRecord(body) ? body.result : void 0;
    if (!isRecord(result) || result.ok !== true || !isRecord(result.value) || !Array.isArray(result.value.events)) {
      const message = isRecord(result) && isRecord(result.error) && typeof result.error.message === "string" ? result.error.message : `HTTP ${response.status}`;
      throw new Error(`message-recall: history of session "${sessionId}" unavailable: ${message}`);
    }
    const events = result.value.events.map((entry) => isRecord(entry) ? entry.event : void 0).filter((e) => isRecord(e) && typeof e.seq === "number");
    pages.unshift(events);
    if (result.value.hasMore !== true || events.length === 0) break;
    beforeSeq = events[0].seq;
  }
  const all = pages.flat();
  for (let i = 1; i < all.length; i++) {
    if (all[i].seq <= all[i - 1].seq) throw new Error(`message-recall: history pages of session "${sessionId}" overlap at seq ${all[i].seq}`);
  }
  return all;
}

// src/client/EditorModal.tsx
var import_jsx_runtime2 = require("react/jsx-runtime");
var PLAN_DEBOUNCE_MS = 200;
function toggled(set, key) {
  const next = new Set(set);
  if (!next.delete(key)) next.add(key);
  return next;
}
function EditorModal({ sessionId, running, locale, kit, onClose }) {
  const { t } = kit;
  const [load, setLoad] = (0, import_react2.useState)({ status: "loading" });
  const [selection, setSelection] = (0, import_react2.useState)(EMPTY_SELECTION);
  const [refusal, setRefusal] = (0, import_react2.useState)(null);
  const [checking, setChecking] = (0, import_react2.useState)(false);
  const [applying, setApplying] = (0, import_react2.useState)(false);
  const [applyError, setApplyError] = (0, import_react2.useState)(null);
  const [historyRead, setHistoryRead] = (0, import_react2.useState)(0);
  const controls = (0, import_react2.useRef)(/* @__PURE__ */ new Map());
  const dialog = (0, import_react2.useRef)(null);
  (0, import_react2.useEffect)(() => {
    let live = true;
    readWholeHistory(kit.fetch, sessionId).then(
      (events) => live && setLoad({ status: "ready", units: buildEditorUnits(events), lastSeq: events.at(-1)?.seq ?? -1 }),
      (error) => live && setLoad({ status: "failed", message: error instanceof Error ? error.message : String(error) })
    );
    return () => {
      live = false;
    };
  }, [kit, sessionId, historyRead]);
  const units = load.status === "ready" ? load.units : [];
  const preview = (0, import_react2.useMemo)(() => previewSelection(units, selection), [units, selection]);
  const changesKey = JSON.stringify(preview.changes);
  (0, import_react2.useEffect)(() => {
    setRefusal(null);
    setApplyError(null);
    if (preview.changes.length === 0) {
      setChecking(false);
      return;
    }
    setChecking(true);
    let live = true;
    const timer = setTimeout(() => {
      void kit.send({ action: "plan", sessionId, changes: preview.changes }).then((reply) => {
        if (!live) return;
        setChecking(false);
        if (!reply.ok) setRefusal({ unit: reply.error.index === void 0 ? null : preview.changeUnits[reply.error.index] ?? null, code: reply.error.code });
      });
    }, PLAN_DEBOUNCE_MS);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [changesKey, kit, sessionId]);
  const order = units.filter((u) => u.state === "current" || u.restorable).map((u) => u.key);
  const focusUnit = (key) => {
    if (key !== void 0) controls.current.get(key)?.focus();
  };
  (0, import_react2.useEffect)(() => {
    const first = load.status === "ready" ? controls.current.get(order[0] ?? "") : void 0;
    if (first !== void 0) first.focus();
    else dialog.current?.focus();
  }, [load.status]);
  const canApply = load.status === "ready" && preview.changes.length > 0 && !running && !applying && refusal === null;
  const apply2 = (0, import_react2.useCallback)(async () => {
    if (!canApply || load.status !== "ready") return;
    setApplying(true);
    const reply = await kit.send({ action: "apply", sessionId, changes: preview.changes, expect: { lastSeq: load.lastSeq } });
    setApplying(false);
    if (reply.ok) onClose(true);
    else {
      setApplyError({ unit: reply.error.index === void 0 ? null : preview.changeUnits[reply.error.index] ?? null, code: reply.error.code });
      if (reply.error.code === "STALE_VIEW") setHistoryRead((n) => n + 1);
    }
  }, [canApply, load, kit, sessionId, preview, onClose]);
  const onKeyDown = (event) => {
    if (event.key === "Escape") {
      event.preventDefault();
      onClose(false);
    } else if (event.key === "Enter") {
      event.preventDefault();
      void apply2();
    } else if (event.key === "Tab") {
      const focusable = [...dialog.current?.querySelectorAll("button:not([disabled])") ?? []];
      const first = focusable[0];
      const last = focusable.at(-1);
      const active = dialog.current?.ownerDocument.activeElement;
      if (first !== void 0 && last !== void 0 && (event.shiftKey ? active === first || active === dialog.current : active === last)) {
        event.preventDefault();
        (event.shiftKey ? last : first).focus();
      }
    } else if (event.key === "ArrowDown" || event.key === "ArrowUp") {
      event.preventDefault();
      const at = order.findIndex((key) => controls.current.get(key)?.closest("li")?.contains(event.target));
      const next = at === -1 ? 0 : Math.min(order.length - 1, Math.max(0, at + (event.key === "ArrowDown" ? 1 : -1)));
      focusUnit(order[next]);
    }
  };
  const shown = applyError ?? refusal;
  const reason = (code) => describeError(kit.tRecall, code);
  let lastTurn;
  return /* @__PURE__ */ (0, import_jsx_runtime2.jsx)("div", { "data-message-recall-editor-backdrop": "", children: /* @__PURE__ */ (0, import_jsx_runtime2.jsxs)("div", { ref: dialog, role: "dialog", "aria-modal": "true", "aria-labelledby": "dsh-message-recall-editor-title", tabIndex: -1, "data-message-recall-editor": "", onKeyDown, children: [
    /* @__PURE__ */ (0, import_jsx_runtime2.jsx)("h2", { id: "dsh-message-recall-editor-title", children: t("title") }),
    /* @__PURE__ */ (0, import_jsx_runtime2.jsx)("p", { "data-editor-keys": "", children: t("keys") }),
    load.status === "loading" && /* @__PURE__ */ (0, import_jsx_runtime2.jsx)("p", { role: "status", children: t("loading") }),
    load.status === "failed" && /* @__PURE__ */ (0, import_jsx_runtime2.jsx)("p", { role: "alert", children: t("loadFailed", { message: load.message }) }),
    load.status === "ready" && units.length === 0 && /* @__PURE__ */ (0, import_jsx_runtime2.jsx)("p", { children: t("empty") }),
    load.status === "ready" && units.length > 0 && /* @__PURE__ */ (0, import_jsx_runtime2.jsx)("ol", { "data-editor-units": "", children: units.map((unit) => {
      const heading = unit.turn !== lastTurn ? unit.turn === null ? t("beforeTurns") : t("turn", { turn: unit.turn }) : null;
      lastTurn = unit.turn;
      const going = preview.going.has(unit.key);
      const coming = preview.coming.has(unit.key);
      const text = unit.rows.map((r) => r.text).find((s) => s !== "") ?? "";
      const refused = shown !== null && shown.unit === unit.key;
      const ref = (el) => {
        if (el) controls.current.set(unit.key, el);
        else controls.current.delete(unit.key);
      };
      const onward = selection.from !== null && going && !selection.remove.has(unit.key) && selection.from !== unit.key;
      return [
        heading !== null && /* @__PURE__ */ (0, import_jsx_runtime2.jsx)("li", { "data-editor-turn": "", "aria-hidden": "true", children: heading }, `h-${unit.key}`),
        /* @__PURE__ */ (0, import_jsx_runtime2.jsxs)("li", { "data-editor-unit": unit.key, "data-editor-state": unit.state, "data-editor-preview": going ? "going" : coming ? "coming" : "", children: [
          unit.state === "current" && /* @__PURE__ */ (0, import_jsx_runtime2.jsx)(
            "button",
            {
              type: "button",
              ref,
              "aria-pressed": going,
              disabled: onward,
              "data-editor-select": "",
              "aria-label": t(unit.kind === "prompt" ? "select.prompt" : "select.step", { text }),
              onClick: () => setSelection((s) => ({ ...s, remove: toggled(s.remove, unit.key) })),
              children: going ? "☑" : "☐"
            }
          ),
          unit.state !== "current" && unit.restorable && /* @__PURE__ */ (0, import_jsx_runtime2.jsx)(
            "button",
            {
              type: "button",
              ref,
              "aria-pressed": coming,
              "data-editor-restore": "",
              "aria-label": t("restore.label", { text }),
              onClick: () => setSelection((s) => ({ ...s, restore: toggled(s.restore, unit.key) })),
              children: t("restore")
            }
          ),
          /* @__PURE__ */ (0, import_jsx_runtime2.jsx)("div", { "data-editor-rows": "", children: unit.rows.map((row) => /* @__PURE__ */ (0, import_jsx_runtime2.jsxs)("p", { "data-editor-row": row.seq, "data-editor-role": row.role, children: [
            /* @__PURE__ */ (0, import_jsx_runtime2.jsx)("span", { "data-editor-role-label": "", children: t(`role.${row.role}`) }),
            " ",
            /* @__PURE__ */ (0, import_jsx_runtime2.jsx)("span", { "data-editor-text": "", children: row.text })
          ] }, row.seq)) }),
          unit.state !== "current" && /* @__PURE__ */ (0, import_jsx_runtime2.jsx)("span", { "data-editor-state-label": "", children: t(`state.${unit.state}`) }),
          unit.state === "current" && /* @__PURE__ */ (0, import_jsx_runtime2.jsx)(
            "button",
            {
              type: "button",
              "aria-pressed": selection.from === unit.key,
              "data-editor-from": "",
              "aria-label": t("from.label", { text }),
              onClick: () => setSelection((s) => ({ ...s, from: s.from === unit.key ? null : unit.key })),
              children: t("from")
            }
          ),
          refused && /* @__PURE__ */ (0, import_jsx_runtime2.jsx)("p", { role: "alert", "data-editor-refusal": shown.code, children: t(applyError !== null ? "applyFailed" : "refused", { reason: reason(shown.code) }) })
        ] }, unit.key)
      ];
    }) }),
    shown !== null && shown.unit === null && /* @__PURE__ */ (0, import_jsx_runtime2.jsx)("p", { role: "alert", "data-editor-refusal": shown.code, children: t(applyError !== null ? "applyFailed" : "refused", { reason: reason(shown.code) }) }),
    /* @__PURE__ */ (0, import_jsx_runtime2.jsx)("p", { "data-editor-counter": "", "aria-live": "polite", children: counterText(t, locale, preview) }),
    running && /* @__PURE__ */ (0, import_jsx_runtime2.jsx)("p", { id: "dsh-message-recall-editor-busy", "data-editor-busy": "", role: "status", children: t("busy") }),
    checking && !running && /* @__PURE__ */ (0, import_jsx_runtime2.jsx)("p", { "data-editor-checking": "", role: "status", children: t("checking") }),
    /* @__PURE__ */ (0, import_jsx_runtime2.jsxs)("div", { "data-editor-actions": "", children: [
      /* @__PURE__ */ (0, import_jsx_runtime2.jsx)("button", { type: "button", "data-editor-discard": "", onClick: () => onClose(false), children: t("discard") }),
      /* @__PURE__ */ (0, import_jsx_runtime2.jsx)("button", { type: "button", "data-editor-apply": "", disabled: !canApply, "aria-describedby": running ? "dsh-message-recall-editor-busy" : void 0, onClick: () => void apply2(), children: t("apply") })
    ] })
  ] }) });
}
var EDITOR_CSS = `
[data-message-recall-editor-backdrop] { position: fixed; inset: 0; z-index: 1000; display: flex; align-items: center; justify-content: center; background: rgba(0,0,0,.35); }
[data-message-recall-editor] { background: var(--color-bg, #fff); color: var(--color-fg, #111); width: min(760px, 94vw); max-height: 86vh; display: flex; flex-direction: column; gap: 8px; padding: 16px; border-radius: 10px; box-shadow: 0 8px 32px rgba(0,0,0,.3); outline: none; }
[data-message-recall-editor] h2 { margin: 0; font-size: 16px; }
[data-message-recall-editor] [data-editor-keys] { margin: 0; font-size: 12px; opacity: .7; }
[data-message-recall-editor] ol { list-style: none; margin: 0; padding: 0; overflow: auto; flex: 1; }
[data-message-recall-editor] li[data-editor-turn] { font-size: 12px; font-weight: 600; opacity: .7; margin: 10px 0 2px; }
[data-message-recall-editor] li[data-editor-unit] { display: flex; gap: 8px; align-items: flex-start; padding: 4px 6px; border-radius: 6px; }
[data-message-recall-editor] [data-editor-rows] { flex: 1; min-width: 0; }
[data-message-recall-editor] [data-editor-rows] p { margin: 0; overflow-wrap: anywhere; }
[data-message-recall-editor] [data-editor-role-label] { font-weight: 600; font-size: 12px; }
[data-message-recall-editor] li[data-editor-state="removed"] [data-editor-rows], [data-message-recall-editor] li[data-editor-state="excluded"] [data-editor-rows] { text-decoration: line-through; opacity: .6; }
[data-message-recall-editor] li[data-editor-preview="going"] [data-editor-rows] { text-decoration: line-through; color: #c62828; }
[data-message-recall-editor] li[data-editor-preview="coming"] [data-editor-rows] { text-decoration: none; color: #2e7d32; opacity: 1; }
[data-message-recall-editor] [data-editor-refusal] { color: #c62828; margin: 2px 0 0; font-size: 12px; }
[data-message-recall-editor] [data-editor-actions] { display: flex; justify-content: flex-end; gap: 8px; }
[data-message-recall-editor] [data-editor-counter] { margin: 0; font-weight: 600; }
`;

// src/client/EditButton.tsx
var import_jsx_runtime3 = require("react/jsx-runtime");
var selectRunning2 = (s) => s.running;
function isEditorShortcut(event) {
  return event.altKey && event.shiftKey && !event.ctrlKey && !event.metaKey && event.code === "KeyE";
}
var openEditors = 0;
function EditButton({ sessionId, useSession, editorKit }) {
  const running = useSession(selectRunning2);
  const locale = (0, import_react3.useSyncExternalStore)(editorKit.locale.subscribe, editorKit.locale.getSnapshot);
  const [open, setOpen] = (0, import_react3.useState)(false);
  const button = (0, import_react3.useRef)(null);
  (0, import_react3.useEffect)(() => {
    const doc = button.current?.ownerDocument;
    if (doc === void 0) return;
    const onKey = (event) => {
      if (!isEditorShortcut(event) || openEditors > 0) return;
      event.preventDefault();
      setOpen(true);
    };
    doc.addEventListener("keydown", onKey);
    return () => doc.removeEventListener("keydown", onKey);
  }, []);
  (0, import_react3.useEffect)(() => {
    if (!open) return;
    openEditors++;
    return () => {
      openEditors--;
    };
  }, [open]);
  const t = editorKit.t;
  return /* @__PURE__ */ (0, import_jsx_runtime3.jsxs)(import_jsx_runtime3.Fragment, { children: [
    /* @__PURE__ */ (0, import_jsx_runtime3.jsx)("button", { type: "button", ref: button, "data-message-recall-edit": "", "aria-haspopup": "dialog", "aria-label": t("button.label", { shortcut: EDITOR_SHORTCUT }), "aria-keyshortcuts": "Alt+Shift+E", onClick: () => setOpen(true), children: t("button") }),
    open && button.current !== null && (0, import_react_dom.createPortal)(
      /* @__PURE__ */ (0, import_jsx_runtime3.jsxs)(import_jsx_runtime3.Fragment, { children: [
        /* @__PURE__ */ (0, import_jsx_runtime3.jsx)("style", { children: EDITOR_CSS }),
        /* @__PURE__ */ (0, import_jsx_runtime3.jsx)(EditorModal, { sessionId, running, locale: locale.active, kit: editorKit, onClose: () => {
          setOpen(false);
          button.current?.focus();
        } })
      ] }),
      button.current.ownerDocument.body
    )
  ] });
}

// src/client/index.tsx
var name = "dsh-message-recall";
var inject = ["slots", "locale", "conversationEvents", "conversationViews"];
var OVERLAY_ENTRY_ID = "dsh-message-recall";
var EDIT_ENTRY_ID = "dsh-message-recall-edit";
var announced = false;
function apply(ctx, config) {
  if (!announced) {
    announced = true;
    console.info(`dsh-message-recall client ${BUILD_STAMP}`);
  }
  const path = config?.path ?? DEFAULT_ROUTE_PATH;
  const debug = new DebugRegistry(BUILD_STAMP);
  ctx.effect(() => ctx.locale.register(LOCALE_NS, DICTIONARIES), "dsh-message-recall: dictionaries");
  ctx.conversationEvents.register(replacementDefinition);
  ctx.conversationViews.register(replacementView);
  ctx.effect(() => {
    const doc = globalThis.document;
    const remove = installStyles(doc);
    return () => {
      undecorateAll(doc);
      remove();
    };
  }, "dsh-message-recall: styles");
  ctx.effect(() => installDebugHook(globalThis, debug), "dsh-message-recall: debug hook");
  const locale = ctx.locale;
  const fetchImpl = (url, init) => globalThis.fetch(url, init);
  const kit = {
    // Bound once: LocaleRuntime's methods read `this`, and useSyncExternalStore wants stable functions.
    locale: { subscribe: (listener) => locale.subscribe(listener), getSnapshot: () => locale.getSnapshot() },
    t: locale.bind(LOCALE_NS),
    send: createRecallSender(fetchImpl, path),
    debug
  };
  ctx.effect(() => ctx.locale.register(EDITOR_LOCALE_NS, EDITOR_DICTIONARIES), "dsh-message-recall: editor dictionaries");
  const editorKit = { locale: kit.locale, t: locale.bind(EDITOR_LOCALE_NS), tRecall: kit.t, send: kit.send, fetch: fetchImpl };
  ctx.slots.inject("conversation.session.header.utilities", () => ctx.slots.register({
    name: "conversation.session.header.utilities",
    id: EDIT_ENTRY_ID,
    order: 100,
    locale: EDITOR_LOCALE_NS,
    inject: () => ({ editorKit })
  }, EditButton));
  ctx.slots.inject("conversation.input.overlay", () => ctx.slots.register({
    name: "conversation.input.overlay",
    id: OVERLAY_ENTRY_ID,
    order: 100,
    locale: LOCALE_NS,
    inject: () => ({ kit })
  }, RecallOverlay));
}
return module.exports; } });
