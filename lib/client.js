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
    for (let key2 of __getOwnPropNames(from))
      if (!__hasOwnProp.call(to, key2) && key2 !== except)
        __defProp(to, key2, { get: () => from[key2], enumerable: !(desc = __getOwnPropDesc(from, key2)) || desc.enumerable });
  }
  return to;
};
var __toCommonJS = (mod) => __copyProps(__defProp({}, "__esModule", { value: true }), mod);

// src/client/index.tsx
var index_exports = {};
__export(index_exports, {
  EDIT_ENTRY_ID: () => EDIT_ENTRY_ID,
  OVERLAY_ENTRY_ID: () => OVERLAY_ENTRY_ID,
  REMOVED_ENTRY_ID: () => REMOVED_ENTRY_ID,
  SUMMARY_ENTRY_ID: () => SUMMARY_ENTRY_ID,
  TODO_STRIP_ENTRY_ID: () => TODO_STRIP_ENTRY_ID,
  TRAJECTORY_ENTRY_ID: () => TRAJECTORY_ENTRY_ID,
  apply: () => apply,
  inject: () => inject,
  name: () => name
});
module.exports = __toCommonJS(index_exports);

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
function actionsOfferedOn(group) {
  return Object.freeze(SURFACE_ACTIONS.filter((a) => ACTIONS[a].offeredOn.includes(group)));
}
function isConfirmed(action) {
  return ACTIONS[action].confirm;
}

// src/shared/protocol.ts
var DEFAULT_ROUTE_PATH = "/dsh-message-recall";
var OTHER_ROUTE_ACTIONS = ["forkBefore", "flush", "plan", "apply", "inspect", "erase", "cancelErase", "pendingErases", "editSummary", "undoRewrite", "rewriteSummary"];
var ROUTE_ACTIONS = Object.freeze([...SURFACE_ACTIONS, ...OTHER_ROUTE_ACTIONS]);
var ERROR_CODES = [
  "INVALID_REQUEST",
  "FORBIDDEN",
  "METHOD_NOT_ALLOWED",
  "PAYLOAD_TOO_LARGE",
  "UNSUPPORTED_MEDIA_TYPE",
  "SESSION_NOT_LIVE",
  "HOME_IN_USE",
  "TARGET_NOT_FOUND",
  "NOT_A_USER_MESSAGE",
  "NOT_DELETABLE",
  "SPAN_NOT_CONTIGUOUS",
  "NOT_RESTORABLE",
  "STALE_VIEW",
  "AGENT_BUSY",
  "NOT_ERASABLE",
  "ERASE_NOT_VERIFIED",
  "ERASE_UNAVAILABLE",
  "ERASE_PENDING",
  "NOT_A_SUMMARY",
  "SUMMARY_FAILED",
  "PERSIST_FAILED",
  "INTERNAL"
];
var DURABLE_TOMBSTONE_HEADER = "x-message-recall-tombstone";
var DURABLE_TOMBSTONE_HEADER_MAX = 8192;

// src/shared/events.ts
var SURFACE_EVENT_TYPES = ["user/message", "assistant/message", "tool/result"];
function isSeq(value) {
  return Number.isSafeInteger(value) && value >= 0;
}
function isRecord(value) {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

// src/shared/durable-header.ts
function durableFactsOf(value) {
  if (!isRecord(value) || value.persisted !== true || value.summaryRewrite !== void 0 || value.removedSeqs !== void 0) return null;
  return readFacts({ action: value.action, tombstoneSeq: value.tombstoneSeq, range: value.range, shadowedSeqs: value.shadowedSeqs });
}
function readDurableHeader(text) {
  if (text === null || text.length > DURABLE_TOMBSTONE_HEADER_MAX) return null;
  try {
    return readFacts(JSON.parse(text));
  } catch {
    return null;
  }
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

// src/shared/error-text.ts
function errorText(error) {
  return error instanceof Error ? error.message : String(error);
}
var MESSAGE_PREFIX = "message-recall: ";
function withoutPrefix(message) {
  return message.startsWith(MESSAGE_PREFIX) ? message.slice(MESSAGE_PREFIX.length) : message;
}

// src/client/wire/api.ts
function createRecallSender(fetchImpl, path = DEFAULT_ROUTE_PATH) {
  return async (request, options) => {
    let status = 0;
    let text = "";
    try {
      const response = await fetchImpl(path, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(request),
        credentials: "same-origin",
        ...options?.signal === void 0 ? {} : { signal: options.signal }
      });
      status = response.status;
      if (status === 200 && options?.onDurable !== void 0) {
        const facts = readDurableHeader(response.headers?.get(DURABLE_TOMBSTONE_HEADER) ?? null);
        if (facts !== null) {
          try {
            options.onDurable(facts);
          } catch (error) {
            console.warn(`message-recall: a durable answer's listener failed: ${errorText(error)}`);
          }
        }
      }
      text = await response.text();
    } catch (error) {
      if (options?.signal?.aborted === true) return { ok: false, error: { code: "CANCELLED", message: "message-recall: cancelled; nothing was written" } };
      return { ok: false, error: { code: "NETWORK", message: errorText(error) } };
    }
    return parseReply(status, text);
  };
}
var KNOWN_CODES = new Set(ERROR_CODES);
function errorDetails(error) {
  return {
    ...typeof error.applied === "boolean" ? { applied: error.applied } : {},
    ...isRecord(error.value) ? { value: error.value } : {},
    ...Array.isArray(error.content) ? { content: error.content } : {},
    ...typeof error.text === "string" ? { text: error.text } : {}
  };
}
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
    return { ok: false, error: { code: KNOWN_CODES.has(code) ? code : code, message, ...errorDetails(body.error), ...index } };
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
      excluded: pass.hidden.excluded.map((x) => ({ ...x })),
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

// src/client/rows/row-marks.ts
var ATTR = {
  actions: "data-message-recall-actions",
  action: "data-message-recall-action",
  hidden: "data-message-recall-hidden",
  error: "data-message-recall-error",
  row: "data-message-recall-row",
  active: "data-message-recall-active",
  armed: "data-armed",
  busy: "data-busy",
  style: "data-message-recall-style",
  sizer: "data-message-recall-sizer"
};
var EXCLUDED_ATTR = {
  /** On a row whose messages are excluded from the model's context. */
  row: "data-message-recall-excluded",
  /** The row's "Not sent to the model" label. */
  badge: "data-message-recall-excluded-badge"
};
var FOLDED_ATTR = {
  /** On a row whose message a compaction folded into its summary. */
  row: "data-message-recall-folded",
  /** The row's "Summarized" label. */
  badge: "data-message-recall-folded-badge"
};

// src/client/text/locales.ts
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
  "notice.images.unreadable.one": "已撤回。{count} 张图片无法从主机读回，没有放回输入框：{names}",
  "notice.images.unreadable.other": "已撤回。{count} 张图片无法从主机读回，没有放回输入框：{names}",
  "notice.images.unsupported.one": "已撤回。{count} 张图片的格式输入框不接受（只接受 PNG、JPEG、WebP、GIF）：{names}",
  "notice.images.unsupported.other": "已撤回。{count} 张图片的格式输入框不接受（只接受 PNG、JPEG、WebP、GIF）：{names}",
  "notice.images.busy.one": "已撤回。输入框正在发送，{count} 张图片没有放回：{names}",
  "notice.images.busy.other": "已撤回。输入框正在发送，{count} 张图片没有放回：{names}",
  "notice.images.unavailable.one": "已撤回。这个页面的输入框不能添加图片，{count} 张图片没有放回：{names}",
  "notice.images.unavailable.other": "已撤回。这个页面的输入框不能添加图片，{count} 张图片没有放回：{names}",
  "unsaved.recall.one": "已撤回，但还没有保存到磁盘。如果主机在下次保存前崩溃，这条消息会回来。",
  "unsaved.recall.other": "已撤回，但还没有保存到磁盘。如果主机在下次保存前崩溃，这条消息会回来。",
  "unsaved.delete.one": "已删除 {count} 条消息，但还没有保存到磁盘。如果主机在下次保存前崩溃，它会回来。",
  "unsaved.delete.other": "已删除 {count} 条消息，但还没有保存到磁盘。如果主机在下次保存前崩溃，它们会回来。",
  "unsaved.deleteFrom.one": "已删除以下 {count} 条消息，但还没有保存到磁盘。如果主机在下次保存前崩溃，它会回来。",
  "unsaved.deleteFrom.other": "已删除以下 {count} 条消息，但还没有保存到磁盘。如果主机在下次保存前崩溃，它们会回来。",
  "unsaved.exclude.one": "已从模型上下文中排除 {count} 条消息，但还没有保存到磁盘。如果主机在下次保存前崩溃，排除会失效。",
  "unsaved.exclude.other": "已从模型上下文中排除 {count} 条消息，但还没有保存到磁盘。如果主机在下次保存前崩溃，排除会失效。",
  "unsaved.restore.one": "已恢复 {count} 条消息，但还没有保存到磁盘。如果主机在下次保存前崩溃，它会再次被移除。",
  "unsaved.restore.other": "已恢复 {count} 条消息，但还没有保存到磁盘。如果主机在下次保存前崩溃，它们会再次被移除。",
  "unsaved.apply.one": "已应用 {count} 项改动，但还没有保存到磁盘。如果主机在下次保存前崩溃，会话会回到改动之前的样子。",
  "unsaved.apply.other": "已应用 {count} 项改动，但还没有保存到磁盘。如果主机在下次保存前崩溃，会话会回到改动之前的样子。",
  "unsaved.save": "重新保存",
  "unsaved.label.save": "再次尝试把这个会话保存到磁盘",
  "unsaved.saving": "保存中…",
  "unsaved.saved": "已保存到磁盘。",
  "unsaved.stillFailing": "仍然没能保存到磁盘。磁盘可写后再试一次。",
  "notice.dismiss": "关闭",
  "action.exclude": "排除",
  "label.exclude": "从模型上下文中排除；消息仍然可见",
  "armed.exclude": "确认排除 {count} 条？",
  "armed.excludeLabel.one": "再点一次，从模型上下文中排除 {count} 条消息",
  "armed.excludeLabel.other": "再点一次，从模型上下文中排除 {count} 条消息",
  "excluded.badge": "不发送给模型",
  "folded.badge": "已压缩进摘要：模型读到的是压缩摘要，不是这条消息",
  "summary.button": "摘要",
  "summary.label": "查看并编辑模型现在读到的压缩摘要",
  "summary.title": "压缩摘要",
  "summary.hint": "模型在每一轮都会读到这份摘要。保存会写入一份新的摘要（不调用模型）；之前的摘要仍保留在日志里。",
  "summary.textLabel": "摘要文本",
  "summary.save": "保存",
  "summary.cancel": "取消",
  "armed.rewrite.delete": "删除 {count} 条并重写摘要？（调用模型，约 {tokens} 个 token）",
  "armed.rewrite.exclude": "排除 {count} 条并重写摘要？（调用模型，约 {tokens} 个 token）",
  "armed.rewrite.recall": "撤回并重写摘要？（调用模型，约 {tokens} 个 token）",
  "armed.rewrite.deleteFrom": "删除以下 {count} 条并重写摘要？（调用模型，约 {tokens} 个 token）",
  "armed.rewriteOnwardLabel.one": "再点一次，从这里删到末尾共 {count} 条消息：模型会重新写一份不含其中已压缩消息的压缩摘要，输入约 {tokens} 个 token",
  "armed.rewriteOnwardLabel.other": "再点一次，从这里删到末尾共 {count} 条消息：模型会重新写一份不含其中已压缩消息的压缩摘要，输入约 {tokens} 个 token",
  "armed.rewriteRecallLabel.one": "再点一次，撤回这条已压缩的消息：文字回到输入框，模型会重新写一份不含它的压缩摘要，输入约 {tokens} 个 token",
  "armed.rewriteRecallLabel.other": "再点一次，撤回这条已压缩的消息：文字回到输入框，模型会重新写一份不含它们的压缩摘要，输入约 {tokens} 个 token",
  "armed.rewriteLabel.one": "再点一次，删除 {count} 条已压缩的消息：模型会重新写一份不含它的压缩摘要，输入约 {tokens} 个 token",
  "armed.rewriteLabel.other": "再点一次，删除 {count} 条已压缩的消息：模型会重新写一份不含它们的压缩摘要，输入约 {tokens} 个 token",
  "armed.rewriteExcludeLabel.one": "再点一次，把 {count} 条已压缩的消息排除出模型上下文：模型会重新写一份不含它的压缩摘要，输入约 {tokens} 个 token",
  "armed.rewriteExcludeLabel.other": "再点一次，把 {count} 条已压缩的消息排除出模型上下文：模型会重新写一份不含它们的压缩摘要，输入约 {tokens} 个 token",
  "rewrite.progress": "正在重写摘要…（Esc 取消）",
  "rewrite.progressLabel": "正在用模型重写压缩摘要；按 Esc 取消，取消后什么都不会写入",
  "action.restore": "恢复",
  "label.restore": "把这条消息放回原处，模型会重新看到它",
  "action.forkBefore": "打开副本",
  "label.forkBefore": "打开一个新会话，里面是这次移除之前的对话",
  "undo.recall.one": "已撤回你的消息",
  "undo.recall.other": "已撤回你的消息",
  "undo.delete.one": "已删除 {count} 条消息",
  "undo.delete.other": "已删除 {count} 条消息",
  "undo.deleteFrom.one": "已删除以下 {count} 条消息",
  "undo.deleteFrom.other": "已删除以下 {count} 条消息",
  "undo.exclude.one": "已从模型上下文中排除 {count} 条消息",
  "undo.exclude.other": "已从模型上下文中排除 {count} 条消息",
  "undo.undo": "撤销",
  "undo.label.undo": "撤销这次移除，把消息放回原处",
  "undo.restored": "消息已放回原处",
  "undo.restored.rewrite": "之前的摘要已放回，这条消息又在摘要里了",
  "undo.restored.recall": "消息已放回原处；输入框里的文字保持不变",
  "panel.button": "已移除",
  "panel.label.one": "已移除的消息：{count} 项仍在生效",
  "panel.label.other": "已移除的消息：{count} 项仍在生效",
  "panel.title": "已移除的消息",
  "panel.close": "关闭",
  "panel.action.recall": "撤回",
  "panel.action.delete": "删除",
  "panel.action.deleteFrom": "删除以下",
  "panel.action.exclude": "排除",
  "panel.count.one": "{count} 条消息",
  "panel.count.other": "{count} 条消息",
  "panel.tokens.one": "约 {count} 个 token",
  "panel.tokens.other": "约 {count} 个 token",
  "panel.notLoaded": "内容不在已加载的历史中",
  "panel.restored": "已恢复",
  "panel.clock.md": "{m}月{d}日",
  "panel.clock.ymd": "{y}年{m}月{d}日",
  "panel.cutShort.one": "一次批量应用在写入磁盘时被中断：{total} 项改动中有 {count} 项没有生效，可以在编辑器中重新应用",
  "panel.cutShort.other": "一次批量应用在写入磁盘时被中断：{total} 项改动中有 {count} 项没有生效，可以在编辑器中重新应用",
  "panel.cutShort.more.one": "还有 {count} 项",
  "panel.cutShort.more.other": "还有 {count} 项",
  "panel.cutShort.action.delete": "删除",
  "panel.cutShort.action.deleteFrom": "删除以下",
  "panel.cutShort.action.exclude": "排除",
  "panel.cutShort.action.restore": "恢复",
  "flag.text.one": "这份摘要写于你移除 {count} 条消息之前",
  "flag.text.other": "这份摘要写于你移除 {count} 条消息之前",
  "flag.rewrite": "重写摘要",
  "flag.rewriteLabel.one": "用原始消息重新写这份摘要，不含已移除的 {count} 条消息（调用模型）",
  "flag.rewriteLabel.other": "用原始消息重新写这份摘要，不含已移除的 {count} 条消息（调用模型）",
  "flag.armed": "重写摘要？（调用模型，约 {tokens} 个 token）",
  "flag.armedLabel": "再点一次，模型会用原始消息重新写一份不含已移除消息的摘要，输入约 {tokens} 个 token",
  "flag.cancel": "取消",
  "flag.cancelLabel": "取消重写摘要；什么都不会写入",
  "panel.rewrite": "摘要已重写",
  "panel.rewrite.left.one": "留在摘要外的消息：{count} 条",
  "panel.rewrite.left.other": "留在摘要外的消息：{count} 条",
  "panel.rewrite.undoLabel": "撤销这次重写：把之前的摘要放回",
  "panel.rewrite.replaced": "已被之后的摘要取代",
  "panel.erase": "永久抹除…",
  "panel.erased": "已永久抹除",
  "panel.erase.label": "永久抹除这次移除的消息：主机下次启动时从磁盘上删除",
  "panel.erase.title.one": "永久抹除 {count} 条消息？",
  "panel.erase.title.other": "永久抹除 {count} 条消息？",
  "panel.erase.body": "它们的文字会从磁盘上的会话日志中删除，只被它们引用的图片和工具输出文件也会删除。此操作无法撤销：之后不能再撤销、恢复，也不能打开它之前的副本。抹除在主机下次启动时进行；要立即抹除，请重启主机。",
  "panel.erase.also": "同时删除（除非其他会话仍在使用）：{what}。",
  "panel.erase.images.one": "{count} 张图片",
  "panel.erase.images.other": "{count} 张图片",
  "panel.erase.files.one": "{count} 个工具输出文件",
  "panel.erase.files.other": "{count} 个工具输出文件",
  "panel.erase.and": "和",
  "panel.erase.confirm": "永久抹除",
  "panel.erase.copies.one": "另有 {count} 个相关会话包含这些消息：{titles}。",
  "panel.erase.copies.other": "另有 {count} 个相关会话包含这些消息：{titles}。",
  "panel.erase.quoted": "“{title}”",
  "panel.erase.listSep": "、",
  "panel.erase.untitled": "未命名会话",
  "panel.erase.copyRemoval.one": "同时在“{title}”中抹除（它在那里的这次移除共 {count} 条消息）",
  "panel.erase.copyRemoval.other": "同时在“{title}”中抹除（它在那里的这次移除共 {count} 条消息）",
  "panel.erase.copyWider.one": "同时在“{title}”中抹除（它在那里的这次移除共 {count} 条消息，多于这里抹除的，所以默认不勾选）",
  "panel.erase.copyWider.other": "同时在“{title}”中抹除（它在那里的这次移除共 {count} 条消息，多于这里抹除的，所以默认不勾选）",
  "panel.erase.copyPartlyNotRemoved.one": "其中 {count} 条消息在“{title}”中没有被移除，不会在那里抹除；要抹除，请先在那个会话中移除它。",
  "panel.erase.copyPartlyNotRemoved.other": "其中 {count} 条消息在“{title}”中没有被移除，不会在那里抹除；要抹除，请先在那个会话中移除它们。",
  "panel.erase.copyNotRemoved": "“{title}”中这些消息没有被移除，不会在那里抹除；要抹除，请先在那个会话中移除它们。",
  "panel.erase.copyFailed": "没能在会话“{title}”中安排抹除：{reason}",
  "panel.erase.keep": "保留",
  "panel.erase.keepLabel": "不抹除，关闭这个确认",
  "panel.erase.pending": "等待抹除：主机重启时进行",
  "panel.erase.failed": "主机启动时永久抹除没有完成，什么都没有改变",
  "panel.erase.problem": "主机给出的原因：{problem}",
  "panel.erase.retry": "下次启动时再试",
  "panel.erase.retryLabel": "再试一次永久抹除：主机下次启动时进行",
  "panel.erase.cancel": "取消抹除",
  "panel.erase.cancelLabel": "取消抹除：这些消息仍然是已移除状态，可以再恢复",
  "error.NOT_RESTORABLE": "这次移除无法原地恢复，可以打开一个副本",
  "error.ERASE_PENDING": "这次移除将在主机重启时被永久抹除，请先取消抹除",
  "error.NOT_ERASABLE": "这次移除无法永久抹除",
  "error.STALE_VIEW": "对话刚刚有了变化，请再试一次",
  "error.AGENT_BUSY": "智能体正在工作，请等它停下再试",
  "error.TARGET_NOT_FOUND": "这条消息已不在对话中",
  "error.NOT_A_USER_MESSAGE": "只能撤回你自己发送的消息",
  "error.NOT_DELETABLE": "这条消息不能删除",
  "error.SPAN_NOT_CONTIGUOUS": "这一步中间夹着其他内容，无法整体删除",
  "error.SESSION_NOT_LIVE": "主机上没有加载这个会话",
  "error.HOME_IN_USE": "另一个主机正在使用这个 DSH 主目录，这里不能修改会话",
  "error.SUMMARY_FAILED": "摘要没能重写，什么都没有改变",
  "error.NOT_A_SUMMARY": "这不是当前的压缩摘要",
  "error.PERSIST_FAILED": "改动没能保存到磁盘",
  "error.FORBIDDEN": "主机拒绝了这个请求",
  "error.NETWORK": "连不上主机",
  "error.CANCELLED": "已取消，摘要没有重写",
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
  "notice.images.unreadable.one": "Recalled. {count} image could not be read back from the host, so it is not in the composer: {names}",
  "notice.images.unreadable.other": "Recalled. {count} images could not be read back from the host, so they are not in the composer: {names}",
  "notice.images.unsupported.one": "Recalled. {count} image has a type the composer does not take (only PNG, JPEG, WebP and GIF): {names}",
  "notice.images.unsupported.other": "Recalled. {count} images have a type the composer does not take (only PNG, JPEG, WebP and GIF): {names}",
  "notice.images.busy.one": "Recalled. The composer was sending, so {count} image did not go back into it: {names}",
  "notice.images.busy.other": "Recalled. The composer was sending, so {count} images did not go back into it: {names}",
  "notice.images.unavailable.one": "Recalled. This page's composer cannot take images, so {count} image did not go back: {names}",
  "notice.images.unavailable.other": "Recalled. This page's composer cannot take images, so {count} images did not go back: {names}",
  "unsaved.recall.one": "Recalled, but not saved to disk yet. If the host crashes before the next save, the message comes back.",
  "unsaved.recall.other": "Recalled, but not saved to disk yet. If the host crashes before the next save, the message comes back.",
  "unsaved.delete.one": "Deleted {count} message, but not saved to disk yet. If the host crashes before the next save, it comes back.",
  "unsaved.delete.other": "Deleted {count} messages, but not saved to disk yet. If the host crashes before the next save, they come back.",
  "unsaved.deleteFrom.one": "Deleted {count} message onward, but not saved to disk yet. If the host crashes before the next save, it comes back.",
  "unsaved.deleteFrom.other": "Deleted {count} messages onward, but not saved to disk yet. If the host crashes before the next save, they come back.",
  "unsaved.exclude.one": "Excluded {count} message from the model's context, but not saved to disk yet. If the host crashes before the next save, the exclusion is lost.",
  "unsaved.exclude.other": "Excluded {count} messages from the model's context, but not saved to disk yet. If the host crashes before the next save, the exclusion is lost.",
  "unsaved.restore.one": "Restored {count} message, but not saved to disk yet. If the host crashes before the next save, it is removed again.",
  "unsaved.restore.other": "Restored {count} messages, but not saved to disk yet. If the host crashes before the next save, they are removed again.",
  "unsaved.apply.one": "Applied {count} change, but not saved to disk yet. If the host crashes before the next save, the conversation goes back to how it was.",
  "unsaved.apply.other": "Applied {count} changes, but not saved to disk yet. If the host crashes before the next save, the conversation goes back to how it was.",
  "unsaved.save": "Save again",
  "unsaved.label.save": "Try again to save this session to disk",
  "unsaved.saving": "Saving…",
  "unsaved.saved": "Saved to disk.",
  "unsaved.stillFailing": "Still not saved to disk. Try again once the disk can be written.",
  "notice.dismiss": "Dismiss",
  "action.exclude": "Exclude",
  "label.exclude": "Exclude from the model's context; it stays visible",
  "armed.exclude": "Exclude {count}?",
  "armed.excludeLabel.one": "Click again to exclude {count} message from the model's context",
  "armed.excludeLabel.other": "Click again to exclude {count} messages from the model's context",
  "excluded.badge": "Not sent to the model",
  "folded.badge": "Summarized: the model reads the compaction summary, not this message",
  "summary.button": "Summary",
  "summary.label": "See and edit the compaction summary the model reads now",
  "summary.title": "Compaction summary",
  "summary.hint": "The model reads this summary on every turn. Save writes a new summary (no model call); the earlier one stays in the log.",
  "summary.textLabel": "Summary text",
  "summary.save": "Save",
  "summary.cancel": "Cancel",
  "armed.rewrite.delete": "Delete {count} and rewrite the summary? (model call, ~{tokens} tokens)",
  "armed.rewrite.exclude": "Exclude {count} and rewrite the summary? (model call, ~{tokens} tokens)",
  "armed.rewrite.recall": "Recall and rewrite the summary? (model call, ~{tokens} tokens)",
  "armed.rewrite.deleteFrom": "Delete {count} onward and rewrite the summary? (model call, ~{tokens} tokens)",
  "armed.rewriteOnwardLabel.one": "Click again to delete {count} message from here to the end: the model writes the compaction summary again without the summarized ones, from about {tokens} input tokens",
  "armed.rewriteOnwardLabel.other": "Click again to delete {count} messages from here to the end: the model writes the compaction summary again without the summarized ones, from about {tokens} input tokens",
  "armed.rewriteRecallLabel.one": "Click again to recall this summarized message: its text returns to the composer and the model writes the compaction summary again without it, from about {tokens} input tokens",
  "armed.rewriteRecallLabel.other": "Click again to recall this summarized message: its text returns to the composer and the model writes the compaction summary again without them, from about {tokens} input tokens",
  "armed.rewriteLabel.one": "Click again to delete {count} summarized message: the model writes the compaction summary again without it, from about {tokens} input tokens",
  "armed.rewriteLabel.other": "Click again to delete {count} summarized messages: the model writes the compaction summary again without them, from about {tokens} input tokens",
  "armed.rewriteExcludeLabel.one": "Click again to exclude {count} summarized message from the model's context: the model writes the compaction summary again without it, from about {tokens} input tokens",
  "armed.rewriteExcludeLabel.other": "Click again to exclude {count} summarized messages from the model's context: the model writes the compaction summary again without them, from about {tokens} input tokens",
  "rewrite.progress": "Rewriting the summary… (Esc cancels)",
  "rewrite.progressLabel": "The model is writing the compaction summary again; press Escape to cancel, and nothing is written",
  "action.restore": "Restore",
  "label.restore": "Put this message back in place; the model sees it again",
  "action.forkBefore": "Open a copy",
  "label.forkBefore": "Open a new session with the conversation from before this removal",
  "undo.recall.one": "Recalled your message",
  "undo.recall.other": "Recalled your message",
  "undo.delete.one": "Deleted {count} message",
  "undo.delete.other": "Deleted {count} messages",
  "undo.deleteFrom.one": "Deleted {count} message onward",
  "undo.deleteFrom.other": "Deleted {count} messages onward",
  "undo.exclude.one": "Excluded {count} message from the model's context",
  "undo.exclude.other": "Excluded {count} messages from the model's context",
  "undo.undo": "Undo",
  "undo.label.undo": "Undo this removal and put the message back in place",
  "undo.restored": "The message is back in place",
  "undo.restored.rewrite": "The earlier summary is back; the message is summarized again",
  "undo.restored.recall": "The message is back in place. The composer keeps its text.",
  "panel.button": "Removed",
  "panel.label.one": "Removed messages: {count} removal in effect",
  "panel.label.other": "Removed messages: {count} removals in effect",
  "panel.title": "Removed messages",
  "panel.close": "Close",
  "panel.action.recall": "Recalled",
  "panel.action.delete": "Deleted",
  "panel.action.deleteFrom": "Deleted onward",
  "panel.action.exclude": "Excluded",
  "panel.count.one": "{count} message",
  "panel.count.other": "{count} messages",
  "panel.tokens.one": "≈ {count} token",
  "panel.tokens.other": "≈ {count} tokens",
  "panel.notLoaded": "Content not in the loaded history",
  "panel.restored": "Restored",
  "panel.clock.md": "{m}/{d}",
  "panel.clock.ymd": "{y}-{m}-{d}",
  "panel.cutShort.one": "An Apply was cut short while it was saved: {count} of its {total} changes did not take effect. Apply it again in the editor.",
  "panel.cutShort.other": "An Apply was cut short while it was saved: {count} of its {total} changes did not take effect. Apply them again in the editor.",
  "panel.cutShort.more.one": "and {count} more",
  "panel.cutShort.more.other": "and {count} more",
  "panel.cutShort.action.delete": "Delete",
  "panel.cutShort.action.deleteFrom": "Delete onward",
  "panel.cutShort.action.exclude": "Exclude",
  "panel.cutShort.action.restore": "Restore",
  "flag.text.one": "This summary was written before you removed {count} message",
  "flag.text.other": "This summary was written before you removed {count} messages",
  "flag.rewrite": "Rewrite summary",
  "flag.rewriteLabel.one": "Rewrite this summary from the original messages without the {count} removed message (model call)",
  "flag.rewriteLabel.other": "Rewrite this summary from the original messages without the {count} removed messages (model call)",
  "flag.armed": "Rewrite the summary? (model call, ~{tokens} tokens)",
  "flag.armedLabel": "Click again to have the model write the summary again from the original messages without the removed ones, from about {tokens} input tokens",
  "flag.cancel": "Cancel",
  "flag.cancelLabel": "Cancel rewriting the summary; nothing is written",
  "panel.rewrite": "Summary rewritten",
  "panel.rewrite.left.one": "{count} message left out of the summary",
  "panel.rewrite.left.other": "{count} messages left out of the summary",
  "panel.rewrite.undoLabel": "Undo this rewrite: put the earlier summary back",
  "panel.rewrite.replaced": "Replaced by a later summary",
  "panel.erase": "Erase for good…",
  "panel.erased": "Erased for good",
  "panel.erase.label": "Erase the messages of this removal for good: deleted from the disk when the host next starts",
  "panel.erase.title.one": "Erase {count} message for good?",
  "panel.erase.title.other": "Erase {count} messages for good?",
  "panel.erase.body": "Their text goes from the session log on disk, with the images and tool output files only they reference. This cannot be undone: afterwards there is no Undo, Restore or Open a copy from before it. It happens when the host next starts; restart the host to erase now.",
  "panel.erase.also": "Also deleted, unless another session uses them: {what}.",
  "panel.erase.images.one": "{count} image",
  "panel.erase.images.other": "{count} images",
  "panel.erase.files.one": "{count} tool output file",
  "panel.erase.files.other": "{count} tool output files",
  "panel.erase.and": " and ",
  "panel.erase.confirm": "Erase for good",
  "panel.erase.copies.one": "Also in {count} related session: {titles}.",
  "panel.erase.copies.other": "Also in {count} related sessions: {titles}.",
  "panel.erase.quoted": "“{title}”",
  "panel.erase.listSep": ", ",
  "panel.erase.untitled": "Untitled session",
  "panel.erase.copyRemoval.one": "Erase in “{title}” too (its removal there of {count} message)",
  "panel.erase.copyRemoval.other": "Erase in “{title}” too (its removal there of {count} messages)",
  "panel.erase.copyWider.one": "Erase in “{title}” too (its removal there of {count} message, more than this erase takes, so not checked by default)",
  "panel.erase.copyWider.other": "Erase in “{title}” too (its removal there of {count} messages, more than this erase takes, so not checked by default)",
  "panel.erase.copyPartlyNotRemoved.one": "{count} of them is not removed in “{title}”, so it is not erased there; remove it in that session first.",
  "panel.erase.copyPartlyNotRemoved.other": "{count} of them are not removed in “{title}”, so they are not erased there; remove them in that session first.",
  "panel.erase.copyNotRemoved": "“{title}” holds them not removed, so they are not erased there; remove them in that session first.",
  "panel.erase.copyFailed": "The erase was not kept for the session “{title}”: {reason}",
  "panel.erase.keep": "Keep",
  "panel.erase.keepLabel": "Do not erase; close this confirmation",
  "panel.erase.pending": "Erase pending: it happens when the host restarts",
  "panel.erase.failed": "Erase for good did not go through when the host started; nothing was changed",
  "panel.erase.problem": "Reason from the host: {problem}",
  "panel.erase.retry": "Try again at next start",
  "panel.erase.retryLabel": "Try the erase for good again: it happens when the host next starts",
  "panel.erase.cancel": "Cancel erase",
  "panel.erase.cancelLabel": "Cancel the erase: the messages stay removed and can be restored again",
  "error.NOT_RESTORABLE": "This removal cannot be undone in place. Open a copy instead.",
  "error.ERASE_PENDING": "This removal is to be erased for good when the host restarts. Cancel the erase first.",
  "error.NOT_ERASABLE": "This removal cannot be erased for good.",
  "error.STALE_VIEW": "The conversation just changed. Try again.",
  "error.AGENT_BUSY": "The agent is working. Try again when it stops.",
  "error.TARGET_NOT_FOUND": "This message is no longer in the conversation.",
  "error.NOT_A_USER_MESSAGE": "Only messages you sent can be recalled.",
  "error.NOT_DELETABLE": "This message cannot be deleted.",
  "error.SPAN_NOT_CONTIGUOUS": "Other content sits inside this step, so it cannot be removed as a whole.",
  "error.SESSION_NOT_LIVE": "This session is not loaded on the host.",
  "error.HOME_IN_USE": "Another host is using this DSH home; changes cannot be made here.",
  "error.SUMMARY_FAILED": "The summary could not be rewritten; nothing changed.",
  "error.NOT_A_SUMMARY": "This is not the current compaction summary.",
  "error.PERSIST_FAILED": "The change could not be saved to disk.",
  "error.FORBIDDEN": "The host refused the request.",
  "error.NETWORK": "Could not reach the host.",
  "error.CANCELLED": "Cancelled. The summary was not rewritten.",
  "error.unknown": "Failed ({code})."
};
var DICTIONARIES = { zh, en };
function countedKey(base, count) {
  return count === 1 ? `${base}.one` : `${base}.other`;
}
function describeError(t, code) {
  const key2 = `error.${code}`;
  return key2 !== "error.unknown" && key2 in zh ? t(key2) : t("error.unknown", { code });
}

// src/client/wire/rc8.ts
var FLOW_SELECTOR = "[data-chat-flow]";
var CONVERSATION_SCROLL = "[data-conversation-scroll]";
var FLOW_KEY = "data-chat-flow-key";
var FLOW_KIND = "data-chat-flow-kind";
var PROMPT_HOVER_ROOT = "[data-time-hover-root]";
function composerReadOnly(snapshot) {
  const subagent = snapshot.subagent;
  if (subagent === void 0 || subagent === null) return false;
  if (subagent.address.mode === "one-shot") return true;
  if (subagent.parentAvailable === true) return false;
  return snapshot.running !== true;
}

// src/client/rows/summary-flag-row.ts
var FLAG_ATTR = {
  flag: "data-message-recall-summary-flag",
  text: "data-message-recall-summary-flag-text",
  action: "data-message-recall-summary-flag-action",
  error: "data-message-recall-summary-flag-error"
};
function flagView(t, flag, state) {
  const count = flag.removedSeqs.length;
  const mine = state.checkpointSeq === flag.checkpointSeq;
  const note = t(countedKey("flag.text", count), { count });
  if (mine && state.phase === "armed") {
    const tokens = state.tokens.toLocaleString("en-US");
    return { note, button: t("flag.armed", { tokens }), buttonLabel: t("flag.armedLabel", { tokens }), busy: false, armed: true, cancel: true, error: null };
  }
  if (mine && state.phase === "running") {
    return { note, button: t("rewrite.progress"), buttonLabel: t("rewrite.progressLabel"), busy: true, armed: false, cancel: true, error: null };
  }
  const error = state.error !== null && state.error.checkpointSeq === flag.checkpointSeq ? describeError(t, state.error.code) : null;
  return { note, button: t("flag.rewrite"), buttonLabel: t(countedKey("flag.rewriteLabel", count), { count }), busy: mine && state.phase === "planning", armed: false, cancel: false, error };
}
function checkpointOfRow(node) {
  const data = isRecord(node.data) ? node.data : {};
  if (node.kind === "compaction") return isSeq(data.seq) ? data.seq : null;
  if (node.kind === "manual-compaction") {
    const compaction = isRecord(data.compaction) ? data.compaction : {};
    return isSeq(compaction.seq) ? compaction.seq : null;
  }
  return null;
}
function decorateSummaryRows(flow, chat, input, t) {
  const bySeq = new Map(input.flags.map((f) => [f.checkpointSeq, f]));
  for (let row = flow.firstElementChild; row !== null; row = row.nextElementSibling) {
    const kind = row.getAttribute(FLOW_KIND);
    const existing = flagOf(row);
    if (kind !== "compaction" && kind !== "manual-compaction") {
      existing?.remove();
      continue;
    }
    const key2 = row.getAttribute(FLOW_KEY);
    const node = key2 === null ? void 0 : chat.nodes.get(key2);
    const seq = node === void 0 || node.kind !== kind ? null : checkpointOfRow(node);
    const flag = seq === null ? void 0 : bySeq.get(seq);
    if (flag === void 0) {
      existing?.remove();
      continue;
    }
    writeFlag(row, existing, flag.checkpointSeq, flagView(t, flag, input.state), input, t);
  }
}
function undecorateSummaryRows(root) {
  for (const flag of root.querySelectorAll(`[${FLAG_ATTR.flag}]`)) flag.remove();
}
function flagOf(row) {
  for (let child = row.lastElementChild; child !== null; child = child.previousElementSibling) {
    if (child.hasAttribute(FLAG_ATTR.flag)) return child;
  }
  return null;
}
function writeFlag(row, existing, checkpointSeq, view, input, t) {
  const doc = row.ownerDocument;
  let box = existing;
  if (box === null || box.getAttribute(FLAG_ATTR.flag) !== String(checkpointSeq)) {
    box?.remove();
    box = doc.createElement("div");
    box.setAttribute(FLAG_ATTR.flag, String(checkpointSeq));
    box.setAttribute("role", "note");
    const text2 = doc.createElement("span");
    text2.setAttribute(FLAG_ATTR.text, "");
    const rewrite2 = doc.createElement("button");
    rewrite2.type = "button";
    rewrite2.setAttribute(FLAG_ATTR.action, "rewrite");
    const cancel2 = doc.createElement("button");
    cancel2.type = "button";
    cancel2.setAttribute(FLAG_ATTR.action, "cancel");
    box.append(text2, rewrite2, cancel2);
    row.appendChild(box);
  }
  const [text, rewrite, cancel] = [...box.children];
  setText(text, view.note);
  setText(rewrite, view.button);
  setAttr(rewrite, "aria-label", view.buttonLabel);
  setAttr(rewrite, "title", view.buttonLabel);
  setAttr(rewrite, "data-armed", view.armed ? "true" : null);
  setAttr(rewrite, "aria-busy", view.busy ? "true" : null);
  setText(cancel, t("flag.cancel"));
  setAttr(cancel, "aria-label", t("flag.cancelLabel"));
  cancel.hidden = !view.cancel;
  rewrite.onclick = (event) => {
    event.preventDefault();
    event.stopPropagation();
    input.onRewrite(checkpointSeq);
  };
  cancel.onclick = (event) => {
    event.preventDefault();
    event.stopPropagation();
    input.onCancel();
  };
  let error = box.querySelector(`[${FLAG_ATTR.error}]`);
  if (view.error === null) error?.remove();
  else {
    if (error === null) {
      error = doc.createElement("span");
      error.setAttribute(FLAG_ATTR.error, "");
      error.setAttribute("role", "alert");
      box.appendChild(error);
    }
    setText(error, view.error);
  }
}
function setText(element, text) {
  if (element.textContent !== text) element.textContent = text;
}
function setAttr(element, name2, value) {
  if (value === null) {
    if (element.hasAttribute(name2)) element.removeAttribute(name2);
  } else if (element.getAttribute(name2) !== value) element.setAttribute(name2, value);
}

// src/client/rows/decorate.ts
var SIZER_COUNT = 888;
function clusterTexts(t) {
  const text = { forkBefore: t("action.forkBefore") };
  const label = { forkBefore: t("label.forkBefore") };
  const step = {};
  const sizer = {};
  for (const action of SURFACE_ACTIONS) {
    const texts = ACTIONS[action].texts;
    text[action] = t(texts.button);
    label[action] = t(texts.label);
    if (texts.stepLabel !== void 0) step[action] = t(texts.stepLabel);
    if (texts.armed !== void 0) sizer[action] = t(texts.armed, { count: SIZER_COUNT });
  }
  return {
    text,
    label,
    stepLabel: step,
    busy: t("busy"),
    excluded: t("excluded.badge"),
    folded: t("folded.badge"),
    sizer
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
        const sizer = this.texts.sizer[action];
        if (sizer !== void 0) button.setAttribute(ATTR.sizer, sizer);
        applyIdle(button, action, isStepRow, this.texts);
        template.appendChild(button);
      }
      this.templates.set(id, template);
    }
    return template.cloneNode(true);
  }
};
function idleLabel(action, isStepRow, texts) {
  return (isStepRow ? texts.stepLabel[action] : void 0) ?? texts.label[action];
}
function applyIdle(button, action, isStepRow, texts) {
  button.textContent = texts.text[action];
  const label = idleLabel(action, isStepRow, texts);
  button.setAttribute("aria-label", label);
  button.setAttribute("title", label);
}
function markRow(row, marks, label) {
  let badge = null;
  for (let child = row.firstElementChild; child !== null; child = child.nextElementSibling) {
    if (child.hasAttribute(marks.badge)) badge = child;
  }
  if (label === null) {
    badge?.remove();
    if (row.hasAttribute(marks.row)) row.removeAttribute(marks.row);
    return;
  }
  if (!row.hasAttribute(marks.row)) row.setAttribute(marks.row, "");
  if (badge === null) {
    badge = row.ownerDocument.createElement("span");
    badge.setAttribute(marks.badge, "");
    row.insertBefore(badge, row.firstChild);
  }
  if (badge.textContent !== label) badge.textContent = label;
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
  markRow(row, EXCLUDED_ATTR, decoration.excluded ? texts.excluded : null);
  markRow(row, FOLDED_ATTR, decoration.folded === true ? texts.folded : null);
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
    const rewriting = pending !== null && pending.action === action && pending.rewrite === true;
    if (isArmed && armed.rewrite !== void 0) {
      button.setAttribute(ATTR.armed, "true");
      const values = { count: armed.count, tokens: armed.rewrite.tokens.toLocaleString("en-US") };
      button.textContent = t(`armed.rewrite.${armed.action}`, values);
      button.setAttribute("aria-label", t(countedKey(REWRITE_LABELS[armed.action], armed.count), values));
    } else if (isArmed && armed.action !== "recall") {
      button.setAttribute(ATTR.armed, "true");
      const { armed: armedText, armedLabel } = ACTIONS[armed.action].texts;
      button.textContent = t(armedText, { count: armed.count });
      button.setAttribute("aria-label", t(countedKey(armedLabel, armed.count), { count: armed.count }));
    } else if (rewriting) {
      if (button.hasAttribute(ATTR.armed)) button.removeAttribute(ATTR.armed);
      button.textContent = t("rewrite.progress");
      button.setAttribute("aria-label", t("rewrite.progressLabel"));
    } else if (button.hasAttribute(ATTR.armed) || button.textContent === t("rewrite.progress")) {
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
  markRow(row, EXCLUDED_ATTR, null);
  markRow(row, FOLDED_ATTR, null);
}
function undecorateAll(root) {
  for (const row of root.querySelectorAll(`[${ATTR.row}],[${ATTR.hidden}],[${EXCLUDED_ATTR.row}],[${FOLDED_ATTR.row}]`)) undecorateRow(row);
  for (const cluster of root.querySelectorAll(`[${ATTR.actions}]`)) cluster.remove();
  undecorateSummaryRows(root);
}
var REWRITE_LABELS = {
  recall: "armed.rewriteRecallLabel",
  delete: "armed.rewriteLabel",
  deleteFrom: "armed.rewriteOnwardLabel",
  exclude: "armed.rewriteExcludeLabel"
};

// src/client/Overlay.tsx
var import_react3 = require("react");

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

// src/client/wire/replacement-view.ts
var REPLACEMENT_VIEW = "dsh-message-recall";
var REPLACEMENT_KIND = "dsh-message-recall-replacement";
var EMPTY_REPLACEMENTS = Object.freeze([]);
var SURFACE_TYPES = new Set(SURFACE_EVENT_TYPES);
function isReplacementEvent(event) {
  return SURFACE_TYPES.has(event.type) && readReplaceOp(event.surfaceOp) !== null;
}
function replacementRecord(event) {
  const source = isRecord(event.data) ? event.data.source : void 0;
  const content = isCheckpointEvent(event) && isRecord(event.data) ? event.data.content : void 0;
  return Object.freeze({
    type: event.type,
    seq: event.seq,
    time: event.time,
    data: Object.freeze(content === void 0 ? { source } : { source, content }),
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
var selectReplacements = (s) => readReplacements(s.views.get(REPLACEMENT_VIEW));

// src/client/recall/composer.ts
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

// src/client/stores/snapshot-store.ts
var SnapshotStore = class {
  /** @param state - the first snapshot. */
  constructor(state) {
    this.state = state;
  }
  listeners = /* @__PURE__ */ new Set();
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
  /**
   * Replace the snapshot and notify every listener.
   * @param state - the new snapshot.
   */
  publish(state) {
    this.state = state;
    for (const listener of [...this.listeners]) listener();
  }
  /** Forget every listener (on dispose). */
  dropListeners() {
    this.listeners.clear();
  }
};

// src/client/stores/timers.ts
var BROWSER_TIMERS = {
  setTimeout: (callback, ms) => globalThis.setTimeout(callback, ms),
  clearTimeout: (handle) => globalThis.clearTimeout(handle)
};

// src/client/wire/refusal.ts
var REFUSALS = new Set(ERROR_CODES.filter((code) => code !== "PERSIST_FAILED" && code !== "INTERNAL"));
function isRefusal(code) {
  return REFUSALS.has(code);
}

// src/client/rows/button-store.ts
var EMPTY_ERRORS = /* @__PURE__ */ new Map();
var INITIAL = Object.freeze({ armed: null, pending: null, errors: EMPTY_ERRORS });
var ButtonStore = class extends SnapshotStore {
  constructor(options) {
    super(INITIAL);
    this.options = options;
    this.timers = options.timers ?? BROWSER_TIMERS;
  }
  timers;
  armTimer = void 0;
  errorTimers = /* @__PURE__ */ new Map();
  baseline = null;
  disposed = false;
  cancelling = null;
  /** The generation baseline learned from this view's last successful write, or `null`. */
  get generationBaseline() {
    return this.baseline;
  }
  /**
   * Handle one button press.
   * @param target - the row, its seq and the pressed action.
   * @param expect - the view's expectation now (`viewExpectation` with {@link ButtonStore.generationBaseline});
   *   sent with a plan or a recall. A commit sends the armed plan's view instead.
   * @returns `'armed'` (first press of a destructive button), `'committed'`, `'refused'` (the
   *   host or the network said no; the row shows the error), `'ignored'` (a request is in flight)
   *   or `'disposed'`.
   */
  async press(target, expect) {
    if (this.disposed) return "disposed";
    const pending = this.state.pending;
    if (pending !== null) {
      if (pending.rewrite === true && pending.key === target.key && pending.action === target.action) this.cancel();
      return "ignored";
    }
    this.clearError(target.key);
    const armed = this.state.armed;
    if (!isConfirmed(target.action) && target.folded !== true) return this.commit(target, expect);
    if (armed !== null && armed.key === target.key && armed.action === target.action && armed.seq === target.seq) {
      return this.commit(target, armed.expect, armed.rewrite !== void 0);
    }
    return this.arm(target, expect);
  }
  /**
   * Cancel a summary rewrite in flight (the commit of a folded row): the request is aborted, the
   * host cancels the model call and writes nothing, and the row shows "Cancelled".
   * @returns true when there was one to cancel.
   */
  cancel() {
    if (this.cancelling === null) return false;
    this.cancelling.abort();
    return true;
  }
  /** Disarm the armed button, if any. */
  disarm() {
    if (this.disposed || this.state.armed === null) return;
    this.stopArmTimer();
    this.set({ armed: null });
  }
  /** Stop every timer, drop listeners; later presses resolve `'disposed'` and replies in flight are ignored. */
  dispose() {
    if (this.disposed) return;
    this.disposed = true;
    this.stopArmTimer();
    for (const handle of this.errorTimers.values()) this.timers.clearTimeout(handle);
    this.errorTimers.clear();
    this.dropListeners();
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
    const { replaceGeneration, lastSeq, removedCount, summaryRewrite } = reply.value;
    this.baseline = { replaceGeneration, atSeq: lastSeq };
    const rewrite = summaryRewrite === void 0 ? {} : { rewrite: { tokens: summaryRewrite.estimatedInputTokens } };
    this.set({ pending: null, armed: { key: target.key, seq: target.seq, action: target.action, count, expect: { replaceGeneration, lastSeq, removedCount }, ...rewrite } });
    this.armTimer = this.timers.setTimeout(() => this.disarm(), this.options.armMs ?? 4e3);
    return "armed";
  }
  async commit(target, expect, rewrite = false) {
    this.stopArmTimer();
    this.set({ armed: null, pending: { key: target.key, action: target.action, phase: "commit", ...rewrite ? { rewrite: true } : {} } });
    const cancelling = rewrite ? new AbortController() : null;
    this.cancelling = cancelling;
    const onDurable = this.options.onDurable;
    const reply = await this.options.send({ sessionId: this.options.sessionId, action: target.action, seq: target.seq, expect }, {
      ...cancelling === null ? {} : { signal: cancelling.signal },
      ...onDurable === void 0 ? {} : { onDurable: (facts) => {
        if (!this.disposed) onDurable(facts);
      } }
    });
    if (this.cancelling === cancelling) this.cancelling = null;
    if (this.disposed) return "disposed";
    if (reply.ok) {
      this.committed(target, reply.value);
      return "committed";
    }
    const error = reply.error;
    if (error.code === "PERSIST_FAILED" && error.applied === true) {
      this.unsaved(target, error);
      return "unsaved";
    }
    if (ACTIONS[target.action].returnsContent && !isRefusal(error.code) && this.options.confirmRecall !== void 0) {
      const copy = await this.options.confirmRecall(target);
      if (this.disposed) return "disposed";
      if (copy !== null) {
        this.set({ pending: null });
        this.options.onRecalled(copy);
        return "committed";
      }
    }
    this.fail(target.key, error);
    return "refused";
  }
  committed(target, value) {
    this.baseline = { replaceGeneration: value.replaceGeneration, atSeq: value.tombstoneSeq };
    this.set({ pending: null });
    if (ACTIONS[target.action].returnsContent) this.options.onRecalled(recalledMessage(value));
    this.options.onRemoved?.(value);
  }
  unsaved(target, error) {
    const value = error.value !== void 0 && error.value.action === target.action ? error.value : void 0;
    if (value !== void 0) this.baseline = { replaceGeneration: value.replaceGeneration, atSeq: value.tombstoneSeq };
    this.set({ pending: null });
    if (ACTIONS[target.action].returnsContent) {
      const text = error.text ?? value?.text;
      const content = error.content ?? value?.content;
      if (text !== void 0 || content !== void 0) this.options.onRecalled(recalledMessage({ ...text === void 0 ? {} : { text }, ...content === void 0 ? {} : { content } }));
    }
    this.options.onUnsaved?.(target.action, value === void 0 ? 1 : planCount(value));
  }
  fail(key2, error) {
    const errors = new Map(this.state.errors);
    errors.set(key2, { key: key2, code: error.code, message: error.message });
    this.set({ pending: null, errors });
    this.timers.clearTimeout(this.errorTimers.get(key2));
    this.errorTimers.set(key2, this.timers.setTimeout(() => this.clearError(key2), this.options.errorMs ?? 6e3));
  }
  clearError(key2) {
    if (this.disposed || !this.state.errors.has(key2)) return;
    this.timers.clearTimeout(this.errorTimers.get(key2));
    this.errorTimers.delete(key2);
    const errors = new Map(this.state.errors);
    errors.delete(key2);
    this.set({ errors: errors.size === 0 ? EMPTY_ERRORS : errors });
  }
  stopArmTimer() {
    this.timers.clearTimeout(this.armTimer);
    this.armTimer = void 0;
  }
  set(patch) {
    this.publish(Object.freeze({ ...this.state, ...patch }));
  }
};
function planCount(value) {
  const rewrite = value.summaryRewrite;
  if (rewrite?.removedSeqs !== void 0 && value.removedCount !== void 0) return Math.max(1, value.removedCount);
  const folded = rewrite?.removedSeqs ?? value.removedSeqs;
  if (folded !== void 0) return Math.max(1, folded.length);
  return Math.max(1, value.nodeKinds.filter((nodeKind) => nodeKind !== "tombstone").length);
}
function recalledMessage(value) {
  const content = value.content ?? [];
  return { text: value.text ?? plainText(content), content };
}

// src/client/recall/image-notice.ts
var ImageNotice = class extends SnapshotStore {
  constructor(options = {}) {
    super(null);
    this.options = options;
    this.timers = options.timers ?? BROWSER_TIMERS;
  }
  timers;
  timer = void 0;
  nextId = 0;
  disposed = false;
  /**
   * Name the images of a recall that could not come back into the composer.
   * @param lost - the images left behind, with their reasons; nothing is shown for none.
   */
  show(lost) {
    if (this.disposed || lost.length === 0) return;
    this.timers.clearTimeout(this.timer);
    this.publish(Object.freeze({ id: ++this.nextId, lost }));
    this.timer = this.timers.setTimeout(() => this.dismiss(), this.options.noticeMs ?? 1e4);
  }
  /** Hide the notice. */
  dismiss() {
    if (this.disposed || this.state === null) return;
    this.timers.clearTimeout(this.timer);
    this.publish(null);
  }
  /** Stop the timer and drop listeners. */
  dispose() {
    if (this.disposed) return;
    this.disposed = true;
    this.timers.clearTimeout(this.timer);
    this.dropListeners();
  }
};

// src/client/rows/disarm-on-input.ts
var ARMED_BUTTON = `[${ATTR.action}][${ATTR.armed}="true"]`;
function disarmOnOtherInput(doc, buttons) {
  if (doc === null) return () => {
  };
  const onPointerOrFocus = (event) => {
    if (buttons.getSnapshot().armed === null) return;
    const target = event.target;
    if (target?.closest?.(ARMED_BUTTON) == null) buttons.disarm();
  };
  const onKey = (event) => {
    if (event.key !== "Escape") return;
    buttons.disarm();
    buttons.cancel?.();
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
function contentOf(event) {
  const content = messageOf(event)?.content;
  return Array.isArray(content) ? content : [];
}

// src/client/rows/resolve-row.ts
var USER_ACTIONS = actionsOfferedOn("prompt");
var STEP_ACTIONS = actionsOfferedOn("message");
var SNAPSHOT_ACTIONS = actionsOfferedOn("message");
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
    case "context": {
      const seq = isSeq(data.seq) ? data.seq : null;
      const snapshot = isRecord(data.source) && data.source.kind === SESSION_REFERENCE_SOURCE_KIND;
      return { ...base, seq, anchorSeq: seq ?? node.anchorSeq, actions: seq !== null && snapshot ? SNAPSHOT_ACTIONS : NO_ACTIONS, isStepRow: false };
    }
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
      if (node.kind === "turn-tail") return { ...base, seq: null, anchorSeq, answerSeq: closingSeq(data), actions: NO_ACTIONS, isStepRow: false };
      return { ...base, seq: null, anchorSeq, actions: NO_ACTIONS, isStepRow: false };
    }
  }
}
function closingSeq(data) {
  const closing = isRecord(data.closing) ? data.closing : null;
  const final = closing !== null && isRecord(closing.finalNode) ? closing.finalNode : null;
  return final !== null && isSeq(final.seq) ? final.seq : null;
}
function turnOf(node, data) {
  const location = node.location;
  if (location !== void 0 && (location.kind === "step" || location.kind === "turn")) return location.turn.turn;
  return isSeq(data.turn) ? data.turn : null;
}

// src/client/rows/view-expectation.ts
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

// src/client/recall/recall-images.ts
var COMPOSER_IMAGE_TYPES = /* @__PURE__ */ new Set(["image/png", "image/jpeg", "image/webp", "image/gif"]);
var EXTENSIONS = { "image/png": "png", "image/jpeg": "jpg", "image/webp": "webp", "image/gif": "gif" };
function imageRefs(content) {
  const refs = [];
  for (const block of content) {
    if (!isRecord(block) || block.type !== "image") continue;
    const attachment = isRecord(block.attachment) ? block.attachment : {};
    const index = refs.length;
    const fileName = typeof attachment.name === "string" ? attachment.name : "";
    const size = typeof attachment.width === "number" && typeof attachment.height === "number" ? ` ${attachment.width}×${attachment.height}` : "";
    refs.push({
      index,
      attachmentId: typeof attachment.attachmentId === "string" ? attachment.attachmentId : "",
      mediaType: typeof attachment.mediaType === "string" ? attachment.mediaType : "",
      fileName,
      displayName: fileName !== "" ? fileName : `#${index + 1}${size}`
    });
  }
  return refs;
}
async function restoreImages(refs, services) {
  if (refs.length === 0) return { added: 0, lost: [] };
  const { readAttachment, drafts, addImages } = services;
  if (drafts === void 0 || addImages === void 0) return { added: 0, lost: refs.map((ref) => lose(ref, "unavailable")) };
  const read = await Promise.all(refs.map((ref) => readFile(ref, readAttachment)));
  const lost = /* @__PURE__ */ new Map();
  const files = [];
  const order = [];
  read.forEach((outcome, i) => {
    const ref = refs[i];
    if (outcome instanceof File) {
      files.push(outcome);
      order.push(ref);
    } else lost.set(ref.index, lose(ref, outcome));
  });
  let added = 0;
  if (files.length > 0) {
    let created = null;
    try {
      created = drafts.createDraftImages(files);
    } catch {
      for (const ref of order) lost.set(ref.index, lose(ref, "unavailable"));
    }
    if (created !== null) {
      if (addImages(created.map((image) => image.id))) added = created.length;
      else {
        drafts.releaseDraftImages(created);
        for (const ref of order) lost.set(ref.index, lose(ref, "busy"));
      }
    }
  }
  return { added, lost: refs.flatMap((ref) => lost.get(ref.index) ?? []) };
}
function lose(ref, reason) {
  return { name: ref.displayName, reason };
}
async function readFile(ref, readAttachment) {
  if (!COMPOSER_IMAGE_TYPES.has(ref.mediaType)) return "unsupported";
  if (readAttachment === void 0 || ref.attachmentId === "") return "unreadable";
  try {
    const result = await readAttachment(ref.attachmentId);
    if (!result.ok) return "unreadable";
    const name2 = ref.fileName !== "" ? ref.fileName : `image-${ref.index + 1}.${EXTENSIONS[ref.mediaType]}`;
    return new File([new Uint8Array(result.value.data)], name2, { type: ref.mediaType });
  } catch {
    return "unreadable";
  }
}

// src/client/recall/recall-landing.ts
var LANDING_DELAYS_MS = [0, 500, 1e3, 2e3, 4e3];
function recallInEvents(events, seq) {
  return events.some((event) => {
    const tombstone = readTombstone(event);
    return tombstone !== null && tombstone.action === "recall" && tombstone.shadowedSeqs.includes(seq);
  });
}
function recallInSummary(summary, seq) {
  return summary.tombstones.some((tombstone) => tombstone.action === "recall" && tombstone.inEffect && tombstone.shadowedSeqs.includes(seq));
}
async function recallLanded(check) {
  let absent = 0;
  for (const delay of check.delaysMs ?? LANDING_DELAYS_MS) {
    if (delay > 0) await new Promise((done) => check.timers.setTimeout(done, delay));
    if (check.cancelled?.() === true) return false;
    if (check.inView()) return true;
    const reply = await check.send({ sessionId: check.sessionId, action: "inspect" });
    if (check.inView()) return true;
    if (!reply.ok) continue;
    const summary = reply.value.live ?? reply.value.disk;
    if (summary === null) continue;
    if (recallInSummary(summary, check.seq)) return true;
    if (++absent === 2) return false;
  }
  return false;
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

// src/shared/fate.ts
var SURFACE_TYPES2 = new Set(SURFACE_EVENT_TYPES);
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
function logKinds(log) {
  const bySeq = new Map(log.map((event) => [event.seq, event]));
  return (seq) => {
    const event = bySeq.get(seq);
    return event === void 0 || !SURFACE_TYPES2.has(event.type) ? null : classifyNode(event);
  };
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
    return event === void 0 || !SURFACE_TYPES2.has(event.type) ? null : classifyNode(event);
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

// src/client/rows/button-clicks.ts
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
    const key2 = row?.getAttribute(FLOW_KEY);
    const action = button.getAttribute(ATTR.action);
    event.preventDefault();
    event.stopPropagation();
    const anchor = key2 === null || key2 === void 0 ? void 0 : this.options.anchorOf(key2);
    if (anchor === void 0 || anchor.seq === null || !anchor.actions.includes(action)) return;
    this.options.onPress({ key: anchor.key, seq: anchor.seq, action, ...anchor.folded === true ? { folded: true } : {} });
  };
};

// src/client/rows/cluster-place.ts
var PLACED_ATTR = "data-message-recall-placed";
var PLACE_GAP = 8;
var PROMPT_KINDS = /* @__PURE__ */ new Set(["user", "steering"]);
function clusterPlace(input) {
  const { row, cluster, band, stack } = input;
  const anchor = band !== null && band.width > 0 ? band : stack !== null && stack.width > 0 ? stack : null;
  if (anchor === null) return null;
  const centre = anchor === band ? anchor.top + (anchor.height - cluster.height) / 2 : anchor.top;
  return { top: Math.round(centre - row.top), right: Math.round(row.right - anchor.left + PLACE_GAP) };
}
var overlaps = (a, b) => a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
function freePlace(input) {
  const { row, cluster, own, neighbours } = input;
  const lines = [];
  for (const box of own) {
    const centre = (box.top + box.bottom) / 2;
    if (!lines.some((line) => Math.abs(line - centre) < 1)) lines.push(centre);
  }
  lines.sort((a, b) => a - b);
  const centred = (centre) => centre - cluster.height / 2;
  const candidates = [
    ...lines.length > 0 ? [centred(lines[0])] : [],
    row.top - cluster.height - 1,
    ...lines.slice(1).map(centred),
    row.bottom + 1
  ];
  const content = [...own, ...neighbours];
  for (const top of candidates) {
    const box = { left: row.right - cluster.width, right: row.right, top, bottom: top + cluster.height };
    if (!content.some((c) => overlaps(box, c))) return { top: Math.round(top - row.top), right: 0 };
  }
  return null;
}
function contentBoxes(row) {
  const boxes = [];
  collect(row, row.ownerDocument.createRange(), boxes);
  return boxes;
}
function collect(parent, range, boxes) {
  for (let node = parent.firstChild; node !== null; node = node.nextSibling) {
    if (node.nodeType === 3) pushText(node, range, boxes);
    else if (node.nodeType === 1) {
      const element = node;
      if (element.hasAttribute(ATTR.actions)) continue;
      if (element.firstChild === null) {
        const b = element.getBoundingClientRect();
        if (b.width > 0 && b.height > 0) boxes.push(b);
      } else collect(element, range, boxes);
    }
  }
}
function pushText(node, range, boxes) {
  if (node.nodeType !== 3 || (node.textContent ?? "").trim() === "") return;
  range.selectNodeContents(node);
  for (const b of range.getClientRects()) if (b.width > 0 && b.height > 0) boxes.push(b);
}
function clusterIn(row) {
  for (let child = row.lastElementChild; child !== null; child = child.previousElementSibling) {
    if (child.hasAttribute(ATTR.actions)) return child;
  }
  return null;
}
function neighbour(row, direction) {
  for (let el = row[direction]; el !== null; el = el[direction]) {
    if (el.getClientRects().length > 0) return el;
  }
  return null;
}
function write(cluster, place) {
  cluster.style.setProperty("--message-recall-top", `${place.top}px`);
  cluster.style.setProperty("--message-recall-right", `${place.right}px`);
  if (!cluster.hasAttribute(PLACED_ATTR)) cluster.setAttribute(PLACED_ATTR, "");
}
function placeCluster(row) {
  const cluster = clusterIn(row);
  if (cluster === null) return false;
  if (!PROMPT_KINDS.has(row.getAttribute(FLOW_KIND) ?? "")) {
    const size = cluster.getBoundingClientRect();
    const before = neighbour(row, "previousElementSibling");
    const after = neighbour(row, "nextElementSibling");
    const place2 = freePlace({
      row: row.getBoundingClientRect(),
      cluster: { width: size.width, height: size.height },
      own: contentBoxes(row),
      neighbours: [...before === null ? [] : contentBoxes(before), ...after === null ? [] : contentBoxes(after)]
    });
    if (place2 === null) return false;
    write(cluster, place2);
    return true;
  }
  const root = row.querySelector(PROMPT_HOVER_ROOT);
  if (root === null) return false;
  const stack = root.firstElementChild;
  const band = stack?.nextElementSibling ?? null;
  const place = clusterPlace({
    row: row.getBoundingClientRect(),
    cluster: cluster.getBoundingClientRect(),
    band: band?.getBoundingClientRect() ?? null,
    stack: stack?.getBoundingClientRect() ?? null
  });
  if (place === null) return false;
  write(cluster, place);
  return true;
}
var ClusterPlacement = class {
  onEnter = (event) => {
    const target = event.target;
    if (target === null || typeof target.closest !== "function") return;
    const row = target.closest(`[${FLOW_KEY}]`);
    if (row !== null && row.parentElement === event.currentTarget) placeCluster(row);
  };
  /**
   * Start placing clusters of `flow`.
   * @param flow - the chat flow element.
   */
  attach(flow) {
    flow.addEventListener("pointerover", this.onEnter);
    flow.addEventListener("focusin", this.onEnter);
  }
  /**
   * Stop placing clusters of `flow`.
   * @param flow - the flow given to {@link ClusterPlacement.attach}.
   */
  release(flow) {
    flow.removeEventListener("pointerover", this.onEnter);
    flow.removeEventListener("focusin", this.onEnter);
  }
};

// src/client/rows/chat-flow.ts
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
    const current = this.current;
    if (current !== null && current.isConnected && this.scope !== null && this.scope.contains(marker) && this.scope.contains(current)) return current;
    const scope = this.scope !== null && this.scope.contains(marker) ? this.scope : findScope(marker);
    const flow = scope === null ? null : scope.querySelector(FLOW_SELECTOR);
    if (flow !== current) {
      if (current !== null) this.options.onRelease(current);
      this.current = flow;
      if (flow !== null) this.options.onAttach(flow);
    }
    if (scope !== this.scope) {
      this.scope = scope;
      this.options.onScope?.(scope);
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
    if (this.scope !== null) {
      this.scope = null;
      this.options.onScope?.(null);
    }
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
      if (flow === null) return scope.querySelector(FLOW_SELECTOR) === null ? void 0 : onChange();
      if (!flow.isConnected) return onChange();
      for (const record of records) {
        if (record.target === flow) return onChange();
      }
    });
    this.observer.observe(scope, { childList: true, subtree: true });
  }
};
function findScope(marker) {
  const resident = marker.closest(CONVERSATION_SCROLL);
  if (resident !== null) return resident;
  for (let scope = marker.parentElement; scope !== null; scope = scope.parentElement) {
    if (scope.querySelector(FLOW_SELECTOR) !== null) return scope;
  }
  return null;
}

// src/client/text/css-string.ts
function cssString(text) {
  return `"${text.replace(/[\\"]/g, (c) => `\\${c}`).replace(/[\n\r\f]/g, (c) => `\\${c.charCodeAt(0).toString(16)} `)}"`;
}

// src/client/rows/hidden-row-sheet.ts
var SHEET_ATTR = {
  style: "data-message-recall-hidden-rows",
  scope: "data-message-recall-scope"
};
var nextToken = 0;
function hiddenRowRules(token, keys) {
  const scope = `[${SHEET_ATTR.scope}=${cssString(token)}]`;
  const selectors = [...keys].sort().map((key2) => `${scope} ${FLOW_SELECTOR}>[${FLOW_KEY}=${cssString(key2)}]`);
  return selectors.length === 0 ? "" : `${selectors.join(",\n")}{display:none!important}
`;
}
var HiddenRowSheet = class {
  token = `s${++nextToken}`;
  scope = null;
  style = null;
  keys = null;
  text = "";
  /**
   * Put the token on a new scope element (and take it off the old one).
   * @param scope - the pane's scope element, or `null` when the overlay has none.
   */
  setScope(scope) {
    if (scope === this.scope) return;
    this.releaseScope();
    this.scope = scope;
    if (scope === null) return;
    scope.setAttribute(SHEET_ATTR.scope, this.token);
    if (this.style === null || this.style.ownerDocument !== scope.ownerDocument) {
      this.style?.remove();
      const style = scope.ownerDocument.createElement("style");
      style.setAttribute(SHEET_ATTR.style, this.token);
      style.textContent = this.text;
      scope.ownerDocument.head.appendChild(style);
      this.style = style;
    }
  }
  /**
   * Hide exactly these rows (the sheet is rewritten only when the set changes).
   * @param keys - the keys of the rows the session hides.
   */
  update(keys) {
    if (keys === this.keys) return;
    this.keys = keys;
    const text = hiddenRowRules(this.token, keys);
    if (text === this.text) return;
    this.text = text;
    if (this.style !== null) this.style.textContent = text;
  }
  /** Remove the sheet and the scope's token. */
  dispose() {
    this.releaseScope();
    this.scope = null;
    this.style?.remove();
    this.style = null;
    this.keys = null;
    this.text = "";
  }
  releaseScope() {
    if (this.scope !== null && this.scope.getAttribute(SHEET_ATTR.scope) === this.token) this.scope.removeAttribute(SHEET_ATTR.scope);
  }
};

// src/client/rows/lazy-reveal.ts
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

// src/client/rows/row-offers.ts
var FOLDED_ACTIONS = Object.freeze(["recall", "delete", "deleteFrom", "exclude"]);
var foldedMemo = /* @__PURE__ */ new Map();
function foldedActions(actions, onward) {
  const kept = FOLDED_ACTIONS.filter((a) => actions.includes(a) && (onward || a !== "deleteFrom"));
  const key2 = kept.join();
  let known = foldedMemo.get(key2);
  if (known === void 0) foldedMemo.set(key2, known = Object.freeze(kept));
  return known;
}
var RESTORE_OR_FORK = Object.freeze([...actionsOfferedOn("excluded"), "forkBefore"]);
var FORK_ONLY = Object.freeze(["forkBefore"]);
var memo = /* @__PURE__ */ new WeakMap();
function offerOf(anchor, hidden) {
  const acting = hidden.actingSeqs.get(anchor.key);
  const excluded = hidden.excludedKeys.has(anchor.key);
  const folded = !excluded && anchor.seq !== null && anchor.actions.length > 0 && hidden.fateOf(anchor.seq).state === "folded";
  if (acting === void 0 && !excluded && !folded) return anchor;
  const known = memo.get(anchor);
  if (known !== void 0 && known.hidden === hidden) return known.offer;
  const offer = Object.freeze(
    excluded ? excludedOffer(anchor, hidden) : folded ? { key: anchor.key, seq: acting ?? anchor.seq, actions: foldedActions(anchor.actions, hidden.fates.summaryKeepsBefore(anchor.seq)), folded: true } : { key: anchor.key, seq: acting, actions: anchor.actions }
  );
  memo.set(anchor, { hidden, offer });
  return offer;
}
function excludedOffer(anchor, hidden) {
  const tombstoneSeq = hidden.excluded.find((row) => row.key === anchor.key).tombstoneSeq;
  const message = anchor.seq === null ? null : hidden.fateOf(anchor.seq).actingSeq;
  const sentByPerson = anchor.actions.includes("recall");
  const restorable = hidden.fates.canRestore(tombstoneSeq, (seq) => seq === message && sentByPerson ? "user" : null);
  return { key: anchor.key, seq: tombstoneSeq, actions: restorable ? RESTORE_OR_FORK : FORK_ONLY, excluded: true };
}
var errorMemo = /* @__PURE__ */ new WeakMap();
function offerError(offer, errors) {
  const refusal = offer.excluded === true && offer.seq !== null ? errors?.get(offer.seq) : void 0;
  if (refusal === void 0) return null;
  let byKey = errorMemo.get(refusal);
  if (byKey === void 0) errorMemo.set(refusal, byKey = /* @__PURE__ */ new Map());
  let error = byKey.get(offer.key);
  if (error === void 0) byKey.set(offer.key, error = Object.freeze({ key: offer.key, code: refusal.code, message: refusal.message }));
  return error;
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

// src/client/rows/row-sync.ts
var NO_ACTIONS2 = Object.freeze([]);
var withoutRecallCache = /* @__PURE__ */ new WeakMap();
function withoutRecall(actions) {
  if (!actions.includes("recall")) return actions;
  let kept = withoutRecallCache.get(actions);
  if (kept === void 0) withoutRecallCache.set(actions, kept = Object.freeze(actions.filter((action) => action !== "recall")));
  return kept;
}
var RowSync = class {
  constructor(options) {
    this.options = options;
    this.lazy = new LazyReveal({ onReveal: () => this.onChange?.() });
    this.clicks = new ClickDelegate({ anchorOf: (key2) => this.offerOf(key2), onPress: options.onPress });
    this.binding = new FlowBinding({
      onAttach: (flow) => {
        this.clicks.attach(flow);
        this.lazy.attach(flow);
        this.placement.attach(flow);
      },
      onRelease: (flow) => {
        this.release(flow);
        if (flow.isConnected) undecorateAll(flow);
        this.cache = /* @__PURE__ */ new WeakMap();
      },
      onScope: (scope) => this.sheet.setScope(scope)
    });
  }
  cache = /* @__PURE__ */ new WeakMap();
  revision = Number.NaN;
  texts = null;
  factory = null;
  derived = null;
  anchorsByKey = /* @__PURE__ */ new Map();
  lastHidden = null;
  onChange = null;
  binding;
  lazy;
  clicks;
  placement = new ClusterPlacement();
  sheet = new HiddenRowSheet();
  flags = null;
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
    for (const key2 of input.chat.order) {
      const node = input.chat.nodes.get(key2);
      if (node === void 0) continue;
      const anchor = resolveRow(node);
      anchors2.push(anchor);
      byKey.set(key2, anchor);
    }
    this.anchorsByKey = byKey;
    const hidden = this.deriveHidden(input.replacements, anchors2);
    this.lastHidden = hidden;
    this.sheet.update(hidden.hiddenKeys);
    let rows = 0;
    let touched = 0;
    const unresolved = [];
    if (flow !== null) {
      this.factory ??= new ClusterFactory(flow.ownerDocument, this.texts);
      const { buttons, running } = input;
      const armedKey = buttons.armed?.key;
      const pendingKey = buttons.pending?.key;
      const hasErrors = buttons.errors.size > 0;
      const recallOffered = input.recallOffered !== false;
      const count = flow.childElementCount;
      let index = -1;
      for (let row = flow.firstElementChild; row !== null; row = row.nextElementSibling) {
        index++;
        const key2 = row.getAttribute(FLOW_KEY);
        if (key2 === null) continue;
        rows++;
        const node = input.chat.nodes.get(key2);
        const cached = this.cache.get(row);
        if (node === void 0) {
          unresolved.push(key2);
          if (cached !== void 0) {
            undecorateRow(row);
            this.cache.delete(row);
            touched++;
          }
          continue;
        }
        const wanted = this.lazy.isRevealed(row, index, count);
        const isHidden = hidden.hiddenKeys.has(key2);
        const armed = armedKey === key2 ? buttons.armed : null;
        const pending = pendingKey === key2 ? buttons.pending : null;
        const offer = offerOf(resolveRow(node), hidden);
        const error = offer.excluded === true ? offerError(offer, input.tombstoneErrors) : hasErrors ? buttons.errors.get(key2) ?? null : null;
        if (cached !== void 0 && cached.node === node && cached.hidden === isHidden && cached.offer === offer && cached.running === running && cached.revision === this.revision && cached.armed === armed && cached.pending === pending && cached.error === error && cached.wanted === wanted && cached.recallOffered === recallOffered && (cached.cluster === null || cached.cluster.parentNode === row)) continue;
        if ((cached === void 0 || cached.node !== node) && row.getAttribute(FLOW_KIND) !== node.kind) {
          unresolved.push(key2);
          if (cached !== void 0) undecorateRow(row);
          this.cache.delete(row);
          continue;
        }
        const anchor = resolveRow(node);
        if (!wanted) this.lazy.observe(row, index);
        const actions = running || !wanted ? NO_ACTIONS2 : recallOffered ? offer.actions : withoutRecall(offer.actions);
        const fresh = cached !== void 0 && (cached.revision !== this.revision || cached.actions !== actions || cached.isStepRow !== anchor.isStepRow);
        const cluster = decorateRow(row, {
          hidden: isHidden,
          excluded: offer.excluded === true,
          folded: offer.folded === true,
          actions,
          isStepRow: anchor.isStepRow,
          armed,
          pending,
          error,
          errorText: error === null ? null : describeError(this.options.t, error.code)
        }, this.factory, this.options.t, this.texts, fresh);
        if (cluster !== null && cluster !== cached?.cluster && isEngaged(row)) placeCluster(row);
        this.cache.set(row, {
          node,
          hidden: isHidden,
          offer,
          running,
          revision: this.revision,
          armed,
          pending,
          error,
          actions,
          isStepRow: anchor.isStepRow,
          wanted,
          recallOffered,
          cluster
        });
        touched++;
      }
      if (input.summary !== void 0) decorateSummaryRows(flow, input.chat, { ...input.summary, flags: this.flagsOf(input.replacements) }, this.options.t);
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
    this.sheet.dispose();
    this.cache = /* @__PURE__ */ new WeakMap();
    this.derived = null;
  }
  release(flow) {
    this.clicks.release(flow);
    this.lazy.release(flow);
    this.placement.release(flow);
  }
  offerOf(key2) {
    const anchor = this.anchorsByKey.get(key2);
    return anchor === void 0 || this.lastHidden === null ? anchor : offerOf(anchor, this.lastHidden);
  }
  /** The summary flags of a replacement view (`shared/summary-flag.ts`), computed once per view. */
  flagsOf(replacements) {
    if (this.flags?.replacements !== replacements) this.flags = { replacements, flags: summaryFlags(replacements) };
    return this.flags.flags;
  }
  deriveHidden(replacements, anchors2) {
    const last = this.derived;
    if (last !== null && last.replacements === replacements && sameAnchors(last.anchors, anchors2)) return last.result;
    const result = deriveHiddenRows(replacements, anchors2);
    this.derived = { replacements, anchors: anchors2, result };
    return result;
  }
};
function isEngaged(row) {
  try {
    return row.matches(":hover, :focus-within");
  } catch {
    return false;
  }
}
function sameAnchors(a, b) {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) {
    const x = a[i];
    const y = b[i];
    if (x !== y && (x.key !== y.key || x.rowKind !== y.rowKind || x.seq !== y.seq || x.anchorSeq !== y.anchorSeq || x.turn !== y.turn)) return false;
  }
  return true;
}

// src/client/rows/durable-tombstones.ts
function durableTombstoneOf(facts, now) {
  return Object.freeze({
    type: "user/message",
    seq: facts.tombstoneSeq,
    time: now,
    data: Object.freeze({ source: tombstoneSource(facts.action, facts.shadowedSeqs) }),
    surfaceOp: replaceOp(facts.range.start, facts.range.end),
    sourceEventSeqs: Object.freeze([...facts.shadowedSeqs])
  });
}
var DurableTombstones = class {
  pending = [];
  /** Seqs the view brought already: a later answer (the body after the header) is not held again. */
  seen = /* @__PURE__ */ new Set();
  merged = null;
  /**
   * Hold the tombstone of a durable answer (the response header, or the body's value through
   * `shared/durable-header.ts` `durableFactsOf`) until the replacement view brings it.
   * @param facts - the tombstone's action, seq, range and shadowed nodes.
   * @param now - `Date.now()` of the page.
   * @returns true when it was not held yet (the caller runs a pass then).
   */
  add(facts, now = Date.now()) {
    if (this.pending.some((e) => e.seq === facts.tombstoneSeq) || this.seen.has(facts.tombstoneSeq)) return false;
    this.pending = Object.freeze([...this.pending, durableTombstoneOf(facts, now)]);
    return true;
  }
  /** How many answered tombstones the view has not brought yet. */
  get size() {
    return this.pending.length;
  }
  /**
   * The replacement view with the held tombstones it lacks, in seq order. Records whose seq the
   * view holds are dropped for good (the live event came). The same inputs give the same array,
   * and with nothing held the view itself, so the sync pass's caches keyed on identity keep working.
   * @param view - the replacement view of the session.
   * @returns `view`, or a new frozen array of `view` and the held records, sorted by seq.
   */
  merge(view) {
    if (this.pending.length === 0) return view;
    const inView = /* @__PURE__ */ new Set();
    for (const event of view) inView.add(event.seq);
    const left = this.pending.filter((e) => !inView.has(e.seq));
    for (const e of this.pending) if (inView.has(e.seq)) this.seen.add(e.seq);
    if (left.length !== this.pending.length) this.pending = Object.freeze(left);
    if (left.length === 0) {
      this.merged = null;
      return view;
    }
    if (this.merged !== null && this.merged.view === view && this.merged.pending === this.pending) return this.merged.result;
    const result = Object.freeze([...view, ...this.pending].sort((a, b) => a.seq - b.seq));
    this.merged = { view, pending: this.pending, result };
    return result;
  }
};

// src/client/notices/undo-notice.ts
function restorableInPlace(value) {
  return ACTIONS[value.action].undoInPlace && notRestorableReason(value.nodeKinds) === null;
}
var UndoNotice = class extends SnapshotStore {
  constructor(options = {}) {
    super(null);
    this.options = options;
    this.timers = options.timers ?? BROWSER_TIMERS;
  }
  timers;
  timer = void 0;
  held = false;
  nextId = 0;
  /**
   * Show the notice for a removal that just succeeded (replaces any earlier one).
   * @param value - the removal's reply value.
   */
  show(value) {
    const rewrite = value.summaryRewrite !== void 0;
    this.set({
      id: ++this.nextId,
      action: value.action,
      count: planCount(value),
      tombstoneSeq: value.tombstoneSeq,
      restorable: rewrite || restorableInPlace(value),
      restored: false,
      ...rewrite ? { rewrite: true } : {}
    }, this.options.visibleMs ?? 8e3);
  }
  /**
   * The Undo of `tombstoneSeq` succeeded.
   * @param tombstoneSeq - the tombstone the notice is about (another one changes nothing).
   */
  restored(tombstoneSeq) {
    if (this.state?.tombstoneSeq !== tombstoneSeq) return;
    this.set({ ...this.state, restored: true }, this.options.restoredMs ?? 4e3);
  }
  /**
   * The host cannot restore `tombstoneSeq` in place: offer Open a copy instead.
   * @param tombstoneSeq - the tombstone the notice is about (another one changes nothing).
   */
  notRestorable(tombstoneSeq) {
    if (this.state?.tombstoneSeq !== tombstoneSeq || !this.state.restorable) return;
    this.set({ ...this.state, restorable: false }, this.options.visibleMs ?? 8e3);
  }
  /**
   * Keep the notice while the pointer or focus is on it; on release it gets its full time again.
   * @param held - the pointer or focus is on the notice.
   */
  hold(held) {
    if (this.held === held) return;
    this.held = held;
    if (this.state === null) return;
    if (held) this.stopTimer();
    else this.startTimer(this.state.restored ? this.options.restoredMs ?? 4e3 : this.options.visibleMs ?? 8e3);
  }
  /** Hide the notice. */
  dismiss() {
    if (this.state === null) return;
    this.stopTimer();
    this.held = false;
    this.publish(null);
  }
  /** Stop the timer and drop listeners. */
  dispose() {
    this.stopTimer();
    this.dropListeners();
  }
  set(entry, ms) {
    if (!this.held) this.startTimer(ms);
    this.publish(Object.freeze(entry));
  }
  startTimer(ms) {
    this.stopTimer();
    this.timer = this.timers.setTimeout(() => this.dismiss(), ms);
  }
  stopTimer() {
    this.timers.clearTimeout(this.timer);
    this.timer = void 0;
  }
};

// src/client/session-client.ts
var SessionClient = class {
  constructor(options) {
    this.options = options;
    const timers = options.timers === void 0 ? {} : { timers: options.timers };
    this.notice = new UndoNotice(timers);
    this.imageNotice = new ImageNotice(timers);
    this.unsaved = options.unsaved;
    this.buttons = new ButtonStore({
      sessionId: options.sessionId,
      send: options.send,
      onRecalled: (message) => {
        const inFlight = this.recallInFlight;
        if (inFlight?.delivered === true) return;
        if (inFlight !== null) inFlight.delivered = true;
        this.recalled(message);
      },
      // A durable answer hides its rows at once, before the tombstone's live event (which the web
      // host sends after the shadow price's frames); the live event then confirms the same fates.
      onDurable: (facts) => this.holdDurable(facts),
      onRemoved: (value) => {
        const facts = durableFactsOf(value);
        if (facts !== null) this.holdDurable(facts);
        if (value.persisted) this.unsaved.settled();
        this.notice.show(value);
      },
      onUnsaved: (action, count) => this.unsaved.mark(action, count),
      confirmRecall: (target) => this.confirmRecall(target),
      ...timers
    });
    this.sync = new RowSync({ t: options.t, onPress: (press) => this.pressRow(press) });
  }
  /** The button state store; the overlay subscribes to it to re-render. */
  buttons;
  /** The undo notice after each removal; the overlay renders it. */
  notice;
  /** The images a recall could not bring back into the composer; the overlay renders it. */
  imageNotice;
  /** A write in effect whose flush failed, with Save again; the overlay renders it. */
  unsaved;
  sync;
  /** Tombstones answered as durable that the live events have not brought yet (hidden at once). */
  durable = new DurableTombstones();
  view = null;
  inputActions = null;
  draft = "";
  marker = null;
  wasRunning = false;
  disposed = false;
  /** Row key → the prompt's content as the page held it when Recall was pressed. */
  pageCopies = /* @__PURE__ */ new Map();
  /** The recall whose request is in flight, and whether its text went to the composer already. */
  recallInFlight = null;
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
    return view === null ? {} : viewExpectation(view.chat, view.replacements, view.hasMore, this.buttons.generationBaseline);
  }
  /**
   * Press a row button with the view's current expectation.
   * @param target - the row, its seq and the action.
   * @returns the button store's outcome.
   */
  press(target) {
    if (ACTIONS[target.action].returnsContent) {
      const data = this.view?.chat.nodes.get(target.key)?.data;
      const content = isRecord(data) && Array.isArray(data.content) ? data.content : null;
      if (content === null) this.pageCopies.delete(target.key);
      else this.pageCopies.set(target.key, content);
      if (this.buttons.getSnapshot().pending !== null) return this.buttons.press(target, this.expectation());
      const inFlight = { key: target.key, seq: target.seq, delivered: false };
      this.recallInFlight = inFlight;
      return this.buttons.press(target, this.expectation()).finally(() => {
        if (this.recallInFlight === inFlight) this.recallInFlight = null;
      });
    }
    return this.buttons.press(target, this.expectation());
  }
  /**
   * A row button was pressed: Restore and Open a copy (on an excluded row) go to the session's
   * {@link TombstoneActions}, every other action to the button store.
   * @param press - the row, the seq its offer acts on, and the action.
   */
  pressRow(press) {
    const { action, seq } = press;
    if (action === "restore") void this.options.tombstones.restore(seq);
    else if (action === "forkBefore") void this.options.tombstones.forkBefore(seq);
    else void this.press({ key: press.key, seq, action, ...press.folded === true ? { folded: true } : {} });
  }
  /**
   * Run one sync pass over the current view, record it for the debug hook, and disarm the armed
   * button when its row is now hidden or a turn has just started.
   */
  pass() {
    const view = this.view;
    if (view === null) return;
    const state = this.buttons.getSnapshot();
    const summary = this.options.summary;
    const replacements = this.durable.merge(view.replacements);
    const record = this.sync.run({
      ...view,
      replacements,
      buttons: state,
      tombstoneErrors: this.options.tombstones.getSnapshot().errors,
      ...summary === void 0 ? {} : { summary: { state: summary.getSnapshot(), onRewrite: (seq) => void summary.press(seq), onCancel: () => summary.cancel() } }
    });
    this.options.debug.record(this.options.sessionId, record, () => this.expectation());
    this.deliverLandedRecall(replacements);
    const started = view.running && !this.wasRunning;
    this.wasRunning = view.running;
    if (state.armed !== null && (started || record.hidden.hiddenKeys.has(state.armed.key))) this.buttons.disarm();
  }
  /**
   * Start the page-side effects: passes on row mutations and reveals, and disarming on any other
   * pointer press, focus move or Escape.
   * @param doc - the page document, or `null`.
   * @returns stops them, removes every mark of the plugin and disposes the button store and the notices.
   */
  mount(doc) {
    const stopWatching = this.sync.watch(() => this.pass());
    const stopDisarming = disarmOnOtherInput(doc, this.buttons);
    const summary = this.options.summary;
    const onEscape = (event) => {
      if (event.key === "Escape") summary?.cancel();
    };
    doc?.addEventListener("keydown", onEscape, true);
    const stopRestored = this.options.tombstones.onRestored((tombstoneSeq) => this.notice.restored(tombstoneSeq));
    return () => {
      this.disposed = true;
      stopRestored();
      stopDisarming();
      doc?.removeEventListener("keydown", onEscape, true);
      stopWatching();
      this.sync.detach();
      this.buttons.dispose();
      this.notice.dispose();
      this.imageNotice.dispose();
    };
  }
  /** Hold a durable answer's tombstone for the passes until the view brings it; a pass hides its rows now. */
  holdDurable(facts) {
    if (this.durable.add(facts) && !this.disposed) this.pass();
  }
  recalled(message) {
    const actions = this.inputActions;
    if (actions === null) return;
    const text = composeDraft(message.text, this.draft);
    actions.setDraft(text);
    this.draft = text;
    focusComposer(this.marker);
    const refs = imageRefs(message.content);
    if (refs.length === 0) return;
    const images = this.options.images;
    const addImages = actions.addImages;
    void restoreImages(refs, {
      readAttachment: images?.reader(this.options.sessionId),
      drafts: images?.drafts(),
      addImages: addImages === void 0 ? void 0 : (ids) => addImages.call(actions, ids)
    }).then((outcome) => this.imageNotice.show(outcome.lost));
  }
  /**
   * The recall in flight has its tombstone in the view, or its durable answer named it (the
   * answer's header, read before its body; the live event and the body come later): its text goes
   * to the composer now, from the page's copy of the prompt, and the body's copy is then dropped. A
   * tombstone in the view is in effect, so the reply can only be a success or "applied, not yet
   * saved", which both bring the text back; a durable answer is a success.
   * @param replacements - the replacement view with the durable answers it has not brought yet.
   */
  deliverLandedRecall(replacements) {
    const inFlight = this.recallInFlight;
    if (inFlight === null || inFlight.delivered) return;
    const content = this.pageCopies.get(inFlight.key);
    if (content === void 0 || !recallInEvents(replacements, inFlight.seq)) return;
    inFlight.delivered = true;
    this.recalled(recalledMessage({ content }));
  }
  /** A recall failed without a refusal: if its tombstone landed, the page's copy of the prompt. */
  async confirmRecall(target) {
    const content = this.pageCopies.get(target.key);
    this.pageCopies.delete(target.key);
    if (content === void 0) return null;
    const landed = await recallLanded({
      sessionId: this.options.sessionId,
      seq: target.seq,
      send: this.options.send,
      inView: () => this.view !== null && recallInEvents(this.view.replacements, target.seq),
      timers: this.options.timers ?? BROWSER_TIMERS,
      cancelled: () => this.disposed,
      ...this.options.landingDelaysMs === void 0 ? {} : { delaysMs: this.options.landingDelaysMs }
    });
    return landed ? recalledMessage({ content }) : null;
  }
};

// src/client/notices/RecallNotices.tsx
var import_react = require("react");
var import_jsx_runtime = require("react/jsx-runtime");
var REASONS = ["unreadable", "unsupported", "busy", "unavailable"];
function imageNoticeLines(t, lost) {
  return REASONS.flatMap((reason) => {
    const names = lost.filter((image) => image.reason === reason).map((image) => image.name);
    return names.length === 0 ? [] : [[reason, t(countedKey(`notice.images.${reason}`, names.length), { count: names.length, names: names.join(", ") })]];
  });
}
function unsavedText(t, state) {
  if (state.phase === "saved") return t("unsaved.saved");
  return t(countedKey(state.action === "apply" ? "unsaved.apply" : ACTIONS[state.action].texts.unsaved, state.count), { count: state.count });
}
function UnsavedView({ unsaved, t }) {
  const state = (0, import_react.useSyncExternalStore)(unsaved.subscribe, unsaved.getSnapshot);
  if (state === null) return null;
  const saving = state.phase === "saving";
  const error = state.error === null ? null : state.error.code === "PERSIST_FAILED" ? t("unsaved.stillFailing") : describeError(t, state.error.code);
  return /* @__PURE__ */ (0, import_jsx_runtime.jsxs)("div", { "data-message-recall-unsaved": "", "data-phase": state.phase, role: "status", children: [
    /* @__PURE__ */ (0, import_jsx_runtime.jsx)("span", { "data-message-recall-unsaved-text": "", children: unsavedText(t, state) }),
    error !== null && /* @__PURE__ */ (0, import_jsx_runtime.jsx)("span", { "data-message-recall-unsaved-error": "", role: "alert", children: error }),
    state.phase !== "saved" && /* @__PURE__ */ (0, import_jsx_runtime.jsx)("button", { type: "button", "data-message-recall-unsaved-action": "save", "aria-label": t("unsaved.label.save"), "aria-busy": saving || void 0, disabled: saving, onClick: () => void unsaved.saveAgain(), children: saving ? t("unsaved.saving") : t("unsaved.save") })
  ] }, state.id);
}
function RecallNotices({ notice, onDismiss, unsaved, t, children }) {
  return /* @__PURE__ */ (0, import_jsx_runtime.jsxs)("div", { "data-message-recall-notices": "", children: [
    notice !== null && /* @__PURE__ */ (0, import_jsx_runtime.jsxs)("div", { "data-message-recall-notice": "", role: "status", children: [
      /* @__PURE__ */ (0, import_jsx_runtime.jsx)("span", { children: imageNoticeLines(t, notice.lost).map(([reason, line]) => /* @__PURE__ */ (0, import_jsx_runtime.jsx)("span", { "data-message-recall-notice-line": "", "data-reason": reason, children: line }, reason)) }),
      /* @__PURE__ */ (0, import_jsx_runtime.jsx)("button", { type: "button", "aria-label": t("notice.dismiss"), onClick: onDismiss, children: t("notice.dismiss") })
    ] }, notice.id),
    /* @__PURE__ */ (0, import_jsx_runtime.jsx)(UnsavedView, { unsaved, t }),
    children
  ] });
}

// src/client/notices/UndoNotice.tsx
var import_react2 = require("react");
var import_jsx_runtime2 = require("react/jsx-runtime");
function undoText(t, entry) {
  if (entry.restored) return t(entry.rewrite === true ? "undo.restored.rewrite" : ACTIONS[entry.action].returnsContent ? "undo.restored.recall" : "undo.restored");
  return t(countedKey(ACTIONS[entry.action].texts.undo, entry.count), { count: entry.count });
}
function UndoNoticeView({ notice, actions, t, stacked = false }) {
  const entry = (0, import_react2.useSyncExternalStore)(notice.subscribe, notice.getSnapshot);
  const state = (0, import_react2.useSyncExternalStore)(actions.subscribe, actions.getSnapshot);
  const shown = entry !== null;
  (0, import_react2.useEffect)(() => {
    if (!shown) return;
    const doc = globalThis.document;
    const onKey = (event) => {
      if (event.key === "Escape") notice.dismiss();
    };
    doc.addEventListener("keydown", onKey);
    return () => doc.removeEventListener("keydown", onKey);
  }, [shown, notice]);
  if (entry === null) return null;
  const busy = state.pending?.tombstoneSeq === entry.tombstoneSeq;
  const error = state.errors.get(entry.tombstoneSeq) ?? null;
  const undo = async () => {
    if (entry.rewrite === true) {
      const outcome2 = await actions.undoRewrite(entry.tombstoneSeq);
      if (outcome2.ok) notice.restored(entry.tombstoneSeq);
      return;
    }
    const outcome = await actions.restore(entry.tombstoneSeq);
    if (!outcome.ok && outcome.error?.code === "NOT_RESTORABLE") notice.notRestorable(entry.tombstoneSeq);
  };
  const forkBefore = async () => {
    const outcome = await actions.forkBefore(entry.tombstoneSeq);
    if (outcome.ok) notice.dismiss();
  };
  return /* @__PURE__ */ (0, import_jsx_runtime2.jsxs)(
    "div",
    {
      "data-message-recall-undo": "",
      "data-stacked": stacked ? "" : void 0,
      role: "status",
      onPointerEnter: () => notice.hold(true),
      onPointerLeave: () => notice.hold(false),
      onFocus: () => notice.hold(true),
      onBlur: () => notice.hold(false),
      children: [
        /* @__PURE__ */ (0, import_jsx_runtime2.jsx)("span", { "data-message-recall-undo-text": "", children: undoText(t, entry) }),
        error !== null && /* @__PURE__ */ (0, import_jsx_runtime2.jsx)("span", { "data-message-recall-undo-error": "", role: "alert", children: describeError(t, error.code) }),
        !entry.restored && entry.restorable && /* @__PURE__ */ (0, import_jsx_runtime2.jsx)("button", { type: "button", "data-message-recall-undo-action": "undo", "aria-label": t("undo.label.undo"), "aria-busy": busy || void 0, disabled: busy, onClick: () => void undo(), children: t("undo.undo") }),
        !entry.restored && !entry.restorable && /* @__PURE__ */ (0, import_jsx_runtime2.jsx)("button", { type: "button", "data-message-recall-undo-action": "forkBefore", "aria-label": t("label.forkBefore"), "aria-busy": busy || void 0, disabled: busy, onClick: () => void forkBefore(), children: t("action.forkBefore") }),
        /* @__PURE__ */ (0, import_jsx_runtime2.jsx)("button", { type: "button", "data-message-recall-undo-action": "dismiss", "aria-label": t("notice.dismiss"), onClick: () => notice.dismiss(), children: "×" })
      ]
    },
    entry.id
  );
}

// src/client/Overlay.tsx
var import_jsx_runtime3 = require("react/jsx-runtime");
var selectChat = (s) => s.chat;
var selectRunning = (s) => s.running;
var selectHasMore = (s) => s.hasMore;
var selectRecallOffered = (s) => !composerReadOnly(s);
var selectDraft = (s) => s.draft;
function RecallOverlay({ sessionId, useSession, useInput, inputActions, kit }) {
  const chat = useSession(selectChat);
  const running = useSession(selectRunning);
  const hasMore = useSession(selectHasMore);
  const recallOffered = useSession(selectRecallOffered);
  const replacements = useSession(selectReplacements);
  const locale = (0, import_react3.useSyncExternalStore)(kit.locale.subscribe, kit.locale.getSnapshot);
  const marker = (0, import_react3.useRef)(null);
  const client = (0, import_react3.useMemo)(() => new SessionClient({ sessionId, send: kit.send, t: kit.t, debug: kit.debug, tombstones: kit.tombstones.get(sessionId), unsaved: kit.unsaved.get(sessionId), ...kit.summaries === void 0 ? {} : { summary: kit.summaries.get(sessionId) }, ...kit.images === void 0 ? {} : { images: kit.images } }), [sessionId, kit]);
  (0, import_react3.useSyncExternalStore)(client.buttons.subscribe, client.buttons.getSnapshot);
  const imageNotice = (0, import_react3.useSyncExternalStore)(client.imageNotice.subscribe, client.imageNotice.getSnapshot);
  const tombstones = kit.tombstones.get(sessionId);
  (0, import_react3.useSyncExternalStore)(tombstones.subscribe, tombstones.getSnapshot);
  const summaries = kit.summaries?.get(sessionId);
  (0, import_react3.useSyncExternalStore)(summaries?.subscribe ?? noSubscribe, summaries?.getSnapshot ?? noSnapshot);
  client.setView({ chat, running, hasMore, replacements, localeRevision: locale.revision, recallOffered }, inputActions);
  (0, import_react3.useLayoutEffect)(() => {
    client.setMarker(marker.current);
    client.pass();
  });
  (0, import_react3.useEffect)(() => client.mount(marker.current?.ownerDocument ?? null), [client]);
  return /* @__PURE__ */ (0, import_jsx_runtime3.jsxs)(import_jsx_runtime3.Fragment, { children: [
    /* @__PURE__ */ (0, import_jsx_runtime3.jsx)("span", { ref: marker, hidden: true, "data-message-recall-overlay": "" }),
    useInput !== void 0 && /* @__PURE__ */ (0, import_jsx_runtime3.jsx)(DraftMirror, { useInput, client }),
    /* @__PURE__ */ (0, import_jsx_runtime3.jsx)(RecallNotices, { notice: imageNotice, onDismiss: () => client.imageNotice.dismiss(), unsaved: client.unsaved, t: kit.t, children: /* @__PURE__ */ (0, import_jsx_runtime3.jsx)(UndoNoticeView, { notice: client.notice, actions: tombstones, t: kit.t }) })
  ] });
}
var noSubscribe = () => () => {
};
var noSnapshot = () => null;
function DraftMirror({ useInput, client }) {
  const draft = useInput(selectDraft);
  (0, import_react3.useLayoutEffect)(() => client.setDraft(draft), [draft, client]);
  return null;
}

// src/client/wire/open-session.ts
function sessionOpener(sessions) {
  return async (sessionId) => {
    const service = sessions();
    if (service === void 0) throw new Error("the page has no sessions service to open the copy with");
    if (!(sessionId in service.list.getSnapshot().byId)) await service.refresh();
    service.open(sessionId);
  };
}
function relistDroppedSessions(service) {
  const listed = () => {
    const snapshot = service.list.getSnapshot();
    return snapshot.phase === "ready" ? new Set(snapshot.ids) : void 0;
  };
  let known = listed() ?? /* @__PURE__ */ new Set();
  let stopped = false;
  const unsubscribe = service.list.subscribe(() => {
    const now = listed();
    if (now === void 0) return;
    const dropped = [...known].some((id) => !now.has(id));
    known = now;
    if (dropped) queueMicrotask(() => {
      if (!stopped) service.refresh().catch(() => {
      });
    });
  });
  return () => {
    stopped = true;
    unsubscribe();
  };
}
function keepStoredSessionsListed(service) {
  const manager = service.manager;
  if (manager === void 0 || typeof manager.handleHostEnvelope !== "function") return () => {
  };
  const own = manager.handleHostEnvelope;
  const deliver = (envelope) => {
    own.call(manager, envelope);
  };
  const held = /* @__PURE__ */ new Map();
  let stopped = false;
  const listedTopLevel = (id) => {
    const snapshot = service.list.getSnapshot();
    if (snapshot.phase !== "ready" || !Object.hasOwn(snapshot.byId, id)) return false;
    const summary = snapshot.byId[id];
    return summary?.origin !== "subagent";
  };
  const confirm = async (id) => {
    try {
      await service.refresh();
    } catch {
    }
    const envelope = held.get(id);
    if (envelope === void 0 || stopped) return;
    held.delete(id);
    if (listedTopLevel(id)) deliver({ ...envelope, payload: { type: "host/session-status", sessionId: id, running: false } });
    else deliver(envelope);
  };
  const wrapper = (envelope) => {
    const frame = envelope?.payload;
    const id = typeof frame?.sessionId === "string" ? frame.sessionId : void 0;
    if (!stopped && id !== void 0 && frame?.type === "host/session-removed" && (held.has(id) || listedTopLevel(id))) {
      const first = !held.has(id);
      held.set(id, envelope);
      if (first) void confirm(id);
      return;
    }
    if (id !== void 0 && frame?.type === "host/session-added") held.delete(id);
    deliver(envelope);
  };
  manager.handleHostEnvelope = wrapper;
  return () => {
    stopped = true;
    if (manager.handleHostEnvelope === wrapper) manager.handleHostEnvelope = own;
    const left = [...held.values()];
    held.clear();
    for (const envelope of left) deliver(envelope);
  };
}

// src/client/wire/prompt-retry.ts
var PROMPT_RETRY_DELAYS_MS = Object.freeze([25, 50, 100, 200, 400]);
var HOLD_REFUSAL = /cannot prepare session ".*" while it is live/su;
function isHoldRefusal(body) {
  if (typeof body !== "object" || body === null) return false;
  const result = body.result;
  if (typeof result !== "object" || result === null || result.ok !== false) return false;
  const error = result.error;
  if (typeof error !== "object" || error === null) return false;
  const { code, message } = error;
  return code === "internal" && typeof message === "string" && HOLD_REFUSAL.test(message);
}
function isPromptPost(input, init) {
  const url = typeof input === "string" ? input : input instanceof URL ? input.href : input.url;
  const method = init?.method ?? (typeof input === "object" && !(input instanceof URL) ? input.method : "GET");
  return method.toUpperCase() === "POST" && /\/api\/session\.prompt(?:[?#]|$)/u.test(url) && typeof init?.body === "string";
}
function promptRetryFetch(inner, wait, delaysMs = PROMPT_RETRY_DELAYS_MS) {
  return async (input, init) => {
    if (!isPromptPost(input, init)) return inner(input, init);
    for (let attempt = 0; ; attempt++) {
      const response = await inner(input, init);
      const delay = delaysMs[attempt];
      if (delay === void 0 || !response.ok) return response;
      let body;
      try {
        body = await response.clone().json();
      } catch {
        return response;
      }
      if (!isHoldRefusal(body)) return response;
      await wait(delay);
    }
  };
}
function installPromptRetry(page) {
  const own = page.fetch;
  const wrapper = promptRetryFetch((input, init) => own.call(page, input, init), (ms) => new Promise((resolve) => {
    page.setTimeout(() => resolve(), ms);
  }));
  page.fetch = wrapper;
  return () => {
    if (page.fetch === wrapper) page.fetch = own;
  };
}

// src/client/recall/page-images.ts
function pageImageSource(get) {
  return {
    reader(sessionId) {
      const sessions = get("sessions");
      const face = typeof sessions?.binding === "function" ? sessions.binding(sessionId)?.session : void 0;
      if (face === void 0 || typeof face.readAttachment !== "function") return void 0;
      return async (attachmentId) => {
        const result = await face.readAttachment(attachmentId);
        if (isRecord(result) && result.ok === true && isRecord(result.value) && result.value.data instanceof Uint8Array) {
          return { ok: true, value: { data: result.value.data } };
        }
        return { ok: false, error: isRecord(result) ? result.error : result };
      };
    },
    drafts() {
      const conversation = get("conversation");
      return typeof conversation?.createDraftImages === "function" && typeof conversation.releaseDraftImages === "function" ? conversation : void 0;
    }
  };
}

// src/client/panel/RemovedPanel.tsx
var import_react6 = require("react");

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

// src/client/text/tool-result-text.ts
var FS_ENVELOPE = /^<path>([^\n]*)<\/path>\n<type>[^\n<]*<\/type>\n<content>\n([\s\S]*?)\n?<\/content>\s*$/u;
function readableToolText(text) {
  const envelope = FS_ENVELOPE.exec(text);
  if (envelope === null) return text;
  const [, path, content] = envelope;
  return content.trim() === "" ? path : `${path} — ${content}`;
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

// src/client/panel/removal-list.ts
var EXCERPT_CHARS = 80;
function removalEntries(replacements, chat) {
  const fates = readFates(replacements);
  const tombstones = fates.tombstones;
  if (tombstones.length === 0) return [];
  const bySeq = new Map(replacements.map((e) => [e.seq, e]));
  const originalOf = new Map(fates.restores.map((r) => [r.seq, r.originalSeq]));
  const tombstoneSeqs = new Set(tombstones.map((t) => t.seq));
  const held = heldMessages(chat);
  const lookup = (seq) => held.get(originalOf.get(seq) ?? seq);
  const kindOf = (seq) => lookup(seq)?.kind ?? null;
  return tombstones.map((tombstone) => {
    const status = fates.statusOf(tombstone.seq);
    const messages = tombstone.shadowedSeqs.filter((seq) => !tombstoneSeqs.has(seq));
    const known = messages.map(lookup).filter((m) => m !== void 0);
    return {
      tombstoneSeq: tombstone.seq,
      time: bySeq.get(tombstone.seq)?.time ?? 0,
      action: tombstone.action,
      // A removal in effect counts what its erase takes (`Fates.removedBy`: also the messages of the
      // removals it absorbed, never an excluded one in view); an exclusion or an undone one its own.
      count: Math.max(1, status.inEffect && ACTIONS[tombstone.action].effect === "removed" ? fates.removedBy(tombstone.seq).length : messages.length),
      excerpt: known.length === 0 ? null : excerpt(known.map((m) => m.text).join(" ")),
      tokens: known.length === 0 ? null : estimateTokens(known.map((m) => m.content)),
      inEffect: status.inEffect,
      restoredBy: status.restoredBy,
      canRestore: fates.canRestore(tombstone.seq, kindOf),
      erased: isErased(bySeq.get(tombstone.seq))
    };
  }).reverse();
}
function isErased(event) {
  const data = event?.data;
  return typeof data === "object" && data !== null && typeof data.source === "object" && data.source !== null && data.source.erased !== void 0;
}
function rewriteEntries(replacements) {
  const fates = readFates(replacements);
  if (fates.rewrites.length === 0) return [];
  const bySeq = new Map(replacements.map((e) => [e.seq, e]));
  const lookup = (seq) => bySeq.get(seq);
  return fates.rewrites.map((rewrite) => {
    const replaced = lookup(rewrite.seq)?.sourceEventSeqs?.[2];
    const before = new Set(replaced === void 0 ? [] : summaryContent(replaced, lookup).recorded.flatMap((r) => r.seqs));
    const now = new Set(rewrite.removals.flatMap((r) => r.seqs));
    return { checkpointSeq: rewrite.seq, time: lookup(rewrite.seq)?.time ?? 0, leftOut: [...now].filter((seq) => !before.has(seq)).length, onSurface: fates.shadowerOf(rewrite.seq) === null };
  }).reverse();
}
var CUT_SHORT_SHOWN = 5;
function cutShortEntries(replacements, chat) {
  const bySeq = new Map(replacements.map((e) => [e.seq, e]));
  const last = replacements.reduce((max, e) => Math.max(max, e.seq), -1);
  const batches = cutShortBatches(last + 1, (seq) => bySeq.get(seq));
  if (batches.length === 0) return [];
  const held = heldMessages(chat);
  return batches.map((batch) => ({
    firstSeq: batch.firstSeq,
    changes: batch.changes,
    missingCount: batch.missing?.length ?? batch.writes - batch.written,
    missing: (batch.missing ?? []).slice(0, CUT_SHORT_SHOWN).map((change) => {
      const seq = change.action === "restore" ? bySeq.get(change.tombstoneSeq)?.sourceEventSeqs?.[0] : change.seq;
      const text = seq === void 0 ? void 0 : held.get(seq)?.text;
      return { action: change.action, excerpt: text === void 0 ? null : excerpt(text) };
    })
  })).reverse();
}
function removalCounts(replacements) {
  const fates = readFates(replacements);
  const statuses = [...fates.statuses().values()];
  return { total: statuses.length, inEffect: statuses.filter((s) => s.inEffect).length, rewrites: fates.rewrites.length };
}
function excerpt(text) {
  const flat = text.replace(/\s+/g, " ").trim();
  if (flat.length <= EXCERPT_CHARS) return flat;
  const cut = flat.slice(0, EXCERPT_CHARS);
  const space = cut.lastIndexOf(" ");
  return `${(space > EXCERPT_CHARS / 2 ? cut.slice(0, space) : cut).trimEnd()}…`;
}
function heldMessages(chat) {
  const held = /* @__PURE__ */ new Map();
  for (const node of chat.nodes.values()) {
    const seq = resolveRow(node).seq;
    if (seq === null) continue;
    const message = heldMessage(node);
    if (message !== null) held.set(seq, message);
  }
  return held;
}
function heldMessage(node) {
  const data = isRecord(node.data) ? node.data : {};
  switch (node.kind) {
    case "user":
    case "steering":
    case "context": {
      const content = Array.isArray(data.content) ? data.content : [];
      return { text: plainText(content), content, kind: node.kind !== "context" && isRecord(data.source) && data.source.kind === "user" ? "user" : "context" };
    }
    case "assistant-step": {
      const final = isRecord(data.finalNode) ? data.finalNode : {};
      const blocks = Array.isArray(final.blocks) ? final.blocks.filter(isRecord) : [];
      const content = blocks.map((b) => b.kind === "tool-call" ? { type: "tool-call", name: b.name, arguments: b.argsRaw } : { type: b.kind, text: b.text });
      return { text: plainText(content), content, kind: "assistant" };
    }
    case "tool-call": {
      const root = isRecord(data.root) ? data.root : {};
      const content = Array.isArray(root.content) ? root.content : [];
      const call = isRecord(root.call) ? root.call : {};
      const name2 = typeof call.name === "string" ? call.name : "";
      const text = readableToolText(plainText(content));
      return { text: name2 === "" ? text : `${name2}: ${text}`, content, kind: "tool" };
    }
    default:
      return null;
  }
}

// src/client/panel/cut-short-check.ts
var import_react4 = require("react");
function confirmedEntries(found, host) {
  if (host === null) return [...found];
  const named = new Set(host.cutShortBatches.map((batch) => batch.firstSeq));
  return found.filter((entry) => named.has(entry.firstSeq));
}
function useConfirmedCutShort(found, sessionId, send) {
  const key2 = found.map((entry) => entry.firstSeq).join(",");
  const [checked, setChecked] = (0, import_react4.useState)(null);
  (0, import_react4.useEffect)(() => {
    if (key2 === "" || send === void 0) return;
    let live = true;
    void send({ sessionId, action: "inspect" }).then(
      (reply) => reply.ok ? reply.value.live ?? reply.value.disk : null,
      () => null
    ).then((host) => {
      if (live) setChecked({ key: key2, host });
    });
    return () => {
      live = false;
    };
  }, [key2, sessionId, send]);
  if (found.length === 0 || send === void 0) return found;
  if (checked === null || checked.key !== key2) return [];
  return confirmedEntries(found, checked.host);
}

// src/client/panel/dialog-toggle.ts
var import_react5 = require("react");
function useDialogToggle() {
  const [open, setOpen] = (0, import_react5.useState)(false);
  const button = (0, import_react5.useRef)(null);
  return {
    open,
    button,
    toggle: () => setOpen(!open),
    close: () => {
      setOpen(false);
      button.current?.focus();
    }
  };
}

// src/client/stores/erase-requests.ts
function copyRemovalKey(sessionId, tombstoneSeq) {
  return `${sessionId}#${tombstoneSeq}`;
}
function checkedByDefault(removal, plan) {
  return removal.messageCount <= plan.messageCount;
}
function defaultChecks(plan) {
  return new Set(plan.copies.flatMap((c) => c.removals.filter((r) => checkedByDefault(r, plan)).map((r) => copyRemovalKey(c.sessionId, r.tombstoneSeq))));
}
var INITIAL2 = Object.freeze({ loaded: false, erases: /* @__PURE__ */ new Map(), confirming: null, plan: null, busy: null, errors: /* @__PURE__ */ new Map(), checked: /* @__PURE__ */ new Set(), copyErrors: /* @__PURE__ */ new Map() });
var EraseRequests = class extends SnapshotStore {
  constructor(options) {
    super(INITIAL2);
    this.options = options;
  }
  loading = null;
  /**
   * Read the session's pending erases (`pendingErases`), once per store unless `again`.
   * @param again - read again even when read before.
   * @returns when the list is read (a failed read leaves it as it was, not loaded).
   */
  load(again = false) {
    if (this.loading !== null && !again) return this.loading;
    this.loading = (async () => {
      const reply = await this.options.send({ sessionId: this.options.sessionId, action: "pendingErases" });
      if (!reply.ok) {
        this.loading = null;
        return;
      }
      this.set({ loaded: true, erases: new Map(reply.value.erases.map((e) => [e.tombstoneSeq, e])) });
    })();
    return this.loading;
  }
  /**
   * Open the confirmation of one entry (closing any other) and read what the erase would take
   * (`plan` with `planAction: 'erase'`); a refused plan closes it and keeps the refusal.
   * @param tombstoneSeq - the removal.
   * @returns once the plan is read.
   */
  async confirm(tombstoneSeq) {
    const errors = new Map(this.state.errors);
    errors.delete(tombstoneSeq);
    this.set({ confirming: tombstoneSeq, plan: null, errors, checked: /* @__PURE__ */ new Set() });
    const reply = await this.options.send({ sessionId: this.options.sessionId, action: "plan", planAction: "erase", tombstoneSeq });
    if (this.state.confirming !== tombstoneSeq) return;
    if (reply.ok) this.set({ plan: reply.value, checked: defaultChecks(reply.value) });
    else this.set({ confirming: null, errors: new Map(this.state.errors).set(tombstoneSeq, reply.error) });
  }
  /** Close the confirmation. */
  dismiss() {
    if (this.state.confirming !== null) this.set({ confirming: null, plan: null, checked: /* @__PURE__ */ new Set() });
  }
  /**
   * Check or uncheck a related session's removal in the open confirmation's plan (one the plan does not list is ignored).
   * @param sessionId - the related session's id.
   * @param tombstoneSeq - its removal.
   * @param checked - whether to erase it along.
   */
  check(sessionId, tombstoneSeq, checked) {
    const copy = this.state.plan?.copies.find((c) => c.sessionId === sessionId);
    if (copy === void 0 || !copy.removals.some((r) => r.tombstoneSeq === tombstoneSeq)) return;
    const next = new Set(this.state.checked);
    const key2 = copyRemovalKey(sessionId, tombstoneSeq);
    if (checked) next.add(key2);
    else next.delete(key2);
    this.set({ checked: next });
  }
  /**
   * Ask the host to erase a removal for good when it next starts, and each checked removal of a
   * related session in the open confirmation's plan; closes the confirmation.
   * @param tombstoneSeq - the removal.
   * @returns whether the host kept the session's erase (a refusal is kept in `errors`; the
   *   copies' refusals in `copyErrors`).
   */
  schedule(tombstoneSeq) {
    const plan = this.state.plan?.tombstoneSeq === tombstoneSeq ? this.state.plan : null;
    const copies = (plan?.copies ?? []).flatMap((copy) => copy.removals.filter((r) => this.state.checked.has(copyRemovalKey(copy.sessionId, r.tombstoneSeq))).map((r) => ({ copy, tombstoneSeq: r.tombstoneSeq })));
    const copyErrors = new Map(this.state.copyErrors);
    copyErrors.delete(tombstoneSeq);
    this.set({ copyErrors });
    return this.run(tombstoneSeq, async () => {
      const [error, replies] = await Promise.all([
        this.requestOwn(tombstoneSeq),
        Promise.all(copies.map(({ copy, tombstoneSeq: seq }) => this.options.send({ sessionId: copy.sessionId, action: "erase", when: "next-start", tombstoneSeq: seq })))
      ]);
      const refused = copies.flatMap(({ copy, tombstoneSeq: seq }, i) => {
        const copyReply = replies[i];
        return copyReply.ok ? [] : [{ copy, tombstoneSeq: seq, error: copyReply.error }];
      });
      if (refused.length > 0) this.set({ copyErrors: new Map(this.state.copyErrors).set(tombstoneSeq, refused) });
      return error;
    });
  }
  /**
   * Ask again for an erase that failed at the host's last start (**Try again at next start**): the
   * route's `erase` with `when: 'next-start'` of the session's own removal alone (not its copies),
   * which the host checks afresh and keeps pending again in place of the failed record.
   * @param tombstoneSeq - the removal.
   * @returns whether the host kept it pending (a refusal is kept in `errors`, the failed record as it was).
   */
  retry(tombstoneSeq) {
    return this.run(tombstoneSeq, () => this.requestOwn(tombstoneSeq));
  }
  /**
   * Drop the pending erase of a removal.
   * @param tombstoneSeq - the removal.
   * @returns whether the host dropped it (or had none).
   */
  cancel(tombstoneSeq) {
    return this.run(tombstoneSeq, async () => {
      const reply = await this.options.send({ sessionId: this.options.sessionId, action: "cancelErase", tombstoneSeq });
      if (!reply.ok) return reply.error;
      const erases = new Map(this.state.erases);
      erases.delete(tombstoneSeq);
      this.set({ erases });
      return null;
    });
  }
  /** Drop listeners. */
  dispose() {
    this.dropListeners();
  }
  /** The route's `erase` with `when: 'next-start'` of this session's removal; the record kept is listed at once. */
  async requestOwn(tombstoneSeq) {
    const reply = await this.options.send({ sessionId: this.options.sessionId, action: "erase", when: "next-start", tombstoneSeq });
    if (!reply.ok) return reply.error;
    this.set({ erases: new Map(this.state.erases).set(tombstoneSeq, reply.value.erase) });
    return null;
  }
  async run(tombstoneSeq, request) {
    if (this.state.busy !== null) return false;
    const errors = new Map(this.state.errors);
    errors.delete(tombstoneSeq);
    this.set({ busy: tombstoneSeq, confirming: null, plan: null, checked: /* @__PURE__ */ new Set(), errors });
    const error = await request();
    const after = new Map(this.state.errors);
    if (error !== null) after.set(tombstoneSeq, error);
    this.set({ busy: null, errors: after });
    return error === null;
  }
  set(patch) {
    this.publish(Object.freeze({ ...this.state, ...patch }));
  }
};

// src/client/panel/RemovedPanel.tsx
var import_jsx_runtime4 = require("react/jsx-runtime");
var selectChat2 = (s) => s.chat;
var pad2 = (n) => String(n).padStart(2, "0");
function removalTime(time, t, now = Date.now()) {
  const d = new Date(time);
  const n = new Date(now);
  const clock = `${pad2(d.getHours())}:${pad2(d.getMinutes())}`;
  if (d.getFullYear() === n.getFullYear() && d.getMonth() === n.getMonth() && d.getDate() === n.getDate()) return clock;
  const params = { y: d.getFullYear(), m: d.getMonth() + 1, d: d.getDate() };
  return `${t(d.getFullYear() === n.getFullYear() ? "panel.clock.md" : "panel.clock.ymd", params)} ${clock}`;
}
var PANEL_FIRST_WINDOW = 30;
var PANEL_STEP = 100;
function RemovedButton({ sessionId, useSession, kit }) {
  const replacements = useSession(selectReplacements);
  (0, import_react6.useSyncExternalStore)(kit.locale.subscribe, kit.locale.getSnapshot);
  const { open, button, toggle, close } = useDialogToggle();
  const counts = (0, import_react6.useMemo)(() => removalCounts(replacements), [replacements]);
  if (counts.total === 0 && counts.rewrites === 0) return null;
  const count = counts.inEffect;
  const t = kit.t;
  return /* @__PURE__ */ (0, import_jsx_runtime4.jsxs)("div", { "data-message-recall-removed-seat": "", children: [
    /* @__PURE__ */ (0, import_jsx_runtime4.jsxs)(
      "button",
      {
        ref: button,
        type: "button",
        "data-message-recall-removed": "",
        "aria-haspopup": "dialog",
        "aria-expanded": open,
        "aria-label": t(countedKey("panel.label", count), { count }),
        onClick: toggle,
        children: [
          /* @__PURE__ */ (0, import_jsx_runtime4.jsx)("span", { children: t("panel.button") }),
          count > 0 && /* @__PURE__ */ (0, import_jsx_runtime4.jsx)("span", { "data-count": "", children: count })
        ]
      }
    ),
    open && /* @__PURE__ */ (0, import_jsx_runtime4.jsx)(RemovedPanel, { sessionId, send: kit.send, useSession, actions: kit.tombstones.get(sessionId), summary: kit.summaries?.get(sessionId), erase: kit.erases?.get(sessionId), t, onClose: close, anchor: button.current })
  ] });
}
function RemovedPanel({ sessionId, send, useSession, actions, summary, erase, t, onClose, anchor }) {
  const chat = useSession(selectChat2);
  const replacements = useSession(selectReplacements);
  const entries = (0, import_react6.useMemo)(() => removalEntries(replacements, chat), [replacements, chat]);
  const found = (0, import_react6.useMemo)(() => cutShortEntries(replacements, chat), [replacements, chat]);
  const cutShort = useConfirmedCutShort(found, sessionId, send);
  const rewrites = (0, import_react6.useMemo)(() => rewriteEntries(replacements), [replacements]);
  const flags = (0, import_react6.useMemo)(() => summaryFlags(replacements), [replacements]);
  const state = (0, import_react6.useSyncExternalStore)(actions.subscribe, actions.getSnapshot);
  const refresh = (0, import_react6.useSyncExternalStore)(summary?.subscribe ?? noSubscribe2, summary?.getSnapshot ?? noSnapshot2);
  const erasing = (0, import_react6.useSyncExternalStore)(erase?.subscribe ?? noSubscribe2, erase?.getSnapshot ?? noSnapshot2);
  (0, import_react6.useEffect)(() => {
    void erase?.load(true);
    return () => erase?.dismiss();
  }, [erase]);
  const [refocus, setRefocus] = (0, import_react6.useState)(null);
  (0, import_react6.useEffect)(() => {
    if (refocus === null) return;
    const target = panel.current?.querySelector(`[data-message-recall-entry="${refocus.seq}"] [data-message-recall-erase-action="${refocus.action}"]`);
    if (target != null) {
      target.focus();
      setRefocus(null);
    }
  }, [refocus, erasing]);
  const [shown, setShown] = (0, import_react6.useState)(PANEL_FIRST_WINDOW);
  (0, import_react6.useEffect)(() => {
    if (shown >= entries.length) return;
    const frame = requestAnimationFrame(() => setShown((n) => n + PANEL_STEP));
    return () => cancelAnimationFrame(frame);
  }, [shown, entries.length]);
  const panel = (0, import_react6.useRef)(null);
  (0, import_react6.useEffect)(() => {
    const root = panel.current;
    root?.focus();
    const doc = root?.ownerDocument;
    if (doc === void 0) return;
    const onKey = (event) => {
      if (event.key === "Escape" && !event.defaultPrevented) onClose();
    };
    const onPointer = (event) => {
      const target = event.target;
      if (target !== null && !root.contains(target) && !(anchor?.contains(target) ?? false)) onClose();
    };
    doc.addEventListener("keydown", onKey);
    doc.addEventListener("pointerdown", onPointer, true);
    return () => {
      doc.removeEventListener("keydown", onKey);
      doc.removeEventListener("pointerdown", onPointer, true);
    };
  }, [onClose, anchor]);
  return /* @__PURE__ */ (0, import_jsx_runtime4.jsxs)("div", { ref: panel, "data-message-recall-panel": "", role: "dialog", "aria-label": t("panel.title"), tabIndex: -1, children: [
    /* @__PURE__ */ (0, import_jsx_runtime4.jsxs)("div", { "data-message-recall-panel-head": "", children: [
      /* @__PURE__ */ (0, import_jsx_runtime4.jsx)("strong", { children: t("panel.title") }),
      /* @__PURE__ */ (0, import_jsx_runtime4.jsx)("button", { type: "button", "data-message-recall-panel-close": "", onClick: onClose, children: t("panel.close") })
    ] }),
    summary !== void 0 && refresh !== null && flags.map((flag) => {
      const view = flagView(t, flag, refresh);
      return /* @__PURE__ */ (0, import_jsx_runtime4.jsxs)("div", { "data-message-recall-panel-flag": flag.checkpointSeq, role: "note", children: [
        /* @__PURE__ */ (0, import_jsx_runtime4.jsx)("p", { children: view.note }),
        /* @__PURE__ */ (0, import_jsx_runtime4.jsx)(
          "button",
          {
            type: "button",
            ...{ [FLAG_ATTR.action]: "rewrite" },
            "data-armed": view.armed ? "true" : void 0,
            "aria-label": view.buttonLabel,
            title: view.buttonLabel,
            "aria-busy": view.busy || void 0,
            onClick: () => void summary.press(flag.checkpointSeq),
            children: view.button
          }
        ),
        view.cancel && /* @__PURE__ */ (0, import_jsx_runtime4.jsx)("button", { type: "button", ...{ [FLAG_ATTR.action]: "cancel" }, "aria-label": t("flag.cancelLabel"), onClick: () => summary.cancel(), children: t("flag.cancel") }),
        view.error !== null && /* @__PURE__ */ (0, import_jsx_runtime4.jsx)("span", { ...{ [FLAG_ATTR.error]: "" }, role: "alert", children: view.error })
      ] }, flag.checkpointSeq);
    }),
    cutShort.map((batch) => /* @__PURE__ */ (0, import_jsx_runtime4.jsxs)("div", { "data-message-recall-cut-short": batch.firstSeq, role: "note", children: [
      /* @__PURE__ */ (0, import_jsx_runtime4.jsx)("p", { children: t(countedKey("panel.cutShort", batch.missingCount), { count: batch.missingCount, total: batch.changes ?? "?" }) }),
      batch.missing.length > 0 && /* @__PURE__ */ (0, import_jsx_runtime4.jsxs)("ul", { children: [
        batch.missing.map((change, i) => /* @__PURE__ */ (0, import_jsx_runtime4.jsxs)("li", { children: [
          t(`panel.cutShort.action.${change.action}`),
          ": ",
          change.excerpt ?? t("panel.notLoaded")
        ] }, i)),
        batch.missingCount > batch.missing.length && /* @__PURE__ */ (0, import_jsx_runtime4.jsx)("li", { children: t(countedKey("panel.cutShort.more", batch.missingCount - batch.missing.length), { count: batch.missingCount - batch.missing.length }) })
      ] })
    ] }, batch.firstSeq)),
    /* @__PURE__ */ (0, import_jsx_runtime4.jsxs)("ol", { children: [
      entries.slice(0, shown).map((entry) => {
        const busy = state.pending?.tombstoneSeq === entry.tombstoneSeq;
        const error = state.errors.get(entry.tombstoneSeq) ?? null;
        const eraseable = erasing !== null && erasing.loaded && entry.inEffect && !entry.erased && ACTIONS[entry.action].effect === "removed";
        const pending = erasing?.erases.get(entry.tombstoneSeq);
        const eraseBusy = erasing?.busy === entry.tombstoneSeq;
        return /* @__PURE__ */ (0, import_jsx_runtime4.jsxs)("li", { "data-message-recall-entry": entry.tombstoneSeq, "data-action": entry.action, "data-restored": entry.inEffect ? void 0 : "", children: [
          /* @__PURE__ */ (0, import_jsx_runtime4.jsxs)("div", { "data-message-recall-entry-meta": "", children: [
            /* @__PURE__ */ (0, import_jsx_runtime4.jsx)("time", { dateTime: new Date(entry.time).toISOString(), children: removalTime(entry.time, t) }),
            /* @__PURE__ */ (0, import_jsx_runtime4.jsx)("span", { "data-message-recall-entry-what": "", children: t(ACTIONS[entry.action].texts.panel) }),
            /* @__PURE__ */ (0, import_jsx_runtime4.jsx)("span", { children: t(countedKey("panel.count", entry.count), { count: entry.count }) }),
            entry.tokens !== null && /* @__PURE__ */ (0, import_jsx_runtime4.jsx)("span", { children: t(countedKey("panel.tokens", entry.tokens), { count: entry.tokens }) }),
            !entry.inEffect && /* @__PURE__ */ (0, import_jsx_runtime4.jsx)("span", { "data-message-recall-entry-restored": "", children: t("panel.restored") })
          ] }),
          /* @__PURE__ */ (0, import_jsx_runtime4.jsx)("div", { "data-message-recall-entry-excerpt": "", children: entry.excerpt ?? t("panel.notLoaded") }),
          error !== null && /* @__PURE__ */ (0, import_jsx_runtime4.jsx)("div", { "data-message-recall-entry-error": "", role: "alert", children: describeError(t, error.code) }),
          entry.erased && /* @__PURE__ */ (0, import_jsx_runtime4.jsx)("div", { "data-message-recall-entry-erased": "", children: t("panel.erased") }),
          eraseable && pending?.state !== "pending" && erasing !== null && erasing.errors.has(entry.tombstoneSeq) && /* @__PURE__ */ (0, import_jsx_runtime4.jsx)("div", { "data-message-recall-entry-error": "", role: "alert", children: describeError(t, erasing.errors.get(entry.tombstoneSeq).code) }),
          erasing?.copyErrors.get(entry.tombstoneSeq)?.map(({ copy, tombstoneSeq: removalSeq, error: refusal }) => /* @__PURE__ */ (0, import_jsx_runtime4.jsx)("div", { "data-message-recall-erase-copy-error": copy.sessionId, role: "alert", children: t("panel.erase.copyFailed", { title: copy.title ?? t("panel.erase.untitled"), reason: describeError(t, refusal.code) }) }, copyRemovalKey(copy.sessionId, removalSeq))),
          pending !== void 0 && erase !== void 0 && /* @__PURE__ */ (0, import_jsx_runtime4.jsxs)("div", { "data-message-recall-erase-pending": pending.state, role: "status", children: [
            /* @__PURE__ */ (0, import_jsx_runtime4.jsx)("span", { children: t(pending.state === "failed" ? "panel.erase.failed" : "panel.erase.pending") }),
            pending.state === "failed" && pending.problem !== void 0 && /* @__PURE__ */ (0, import_jsx_runtime4.jsx)("p", { "data-message-recall-erase-problem": "", children: t("panel.erase.problem", { problem: withoutPrefix(pending.problem) }) }),
            pending.state === "failed" && /* @__PURE__ */ (0, import_jsx_runtime4.jsx)(
              "button",
              {
                type: "button",
                "data-message-recall-erase-action": "retry",
                "aria-label": t("panel.erase.retryLabel"),
                disabled: eraseBusy,
                "aria-busy": eraseBusy || void 0,
                onClick: () => void erase.retry(entry.tombstoneSeq).then((ok) => setRefocus({ seq: entry.tombstoneSeq, action: ok ? "cancel" : "retry" })),
                children: t("panel.erase.retry")
              }
            ),
            /* @__PURE__ */ (0, import_jsx_runtime4.jsx)(
              "button",
              {
                type: "button",
                "data-message-recall-erase-action": "cancel",
                "aria-label": t("panel.erase.cancelLabel"),
                disabled: eraseBusy,
                "aria-busy": eraseBusy || void 0,
                onClick: () => void erase.cancel(entry.tombstoneSeq).then(() => setRefocus({ seq: entry.tombstoneSeq, action: "open" })),
                children: t("panel.erase.cancel")
              }
            )
          ] }),
          eraseable && pending === void 0 && erase !== void 0 && erasing?.confirming === entry.tombstoneSeq && /* @__PURE__ */ (0, import_jsx_runtime4.jsx)(
            EraseConfirm,
            {
              t,
              plan: erasing.plan?.tombstoneSeq === entry.tombstoneSeq ? erasing.plan : null,
              entryCount: entry.count,
              checked: erasing.checked,
              onCheck: (sessionId2, removalSeq, checked) => erase.check(sessionId2, removalSeq, checked),
              onConfirm: () => void erase.schedule(entry.tombstoneSeq).then((ok) => setRefocus({ seq: entry.tombstoneSeq, action: ok ? "cancel" : "open" })),
              onKeep: () => {
                erase.dismiss();
                setRefocus({ seq: entry.tombstoneSeq, action: "open" });
              }
            }
          ),
          pending === void 0 && !entry.erased && /* @__PURE__ */ (0, import_jsx_runtime4.jsxs)("div", { "data-message-recall-entry-actions": "", children: [
            entry.canRestore && /* @__PURE__ */ (0, import_jsx_runtime4.jsx)(
              "button",
              {
                type: "button",
                "data-message-recall-entry-action": "restore",
                "aria-label": t("label.restore"),
                disabled: busy,
                "aria-busy": busy || void 0,
                onClick: () => void actions.restore(entry.tombstoneSeq),
                children: t("action.restore")
              }
            ),
            /* @__PURE__ */ (0, import_jsx_runtime4.jsx)(
              "button",
              {
                type: "button",
                "data-message-recall-entry-action": "forkBefore",
                "aria-label": t("label.forkBefore"),
                disabled: busy,
                "aria-busy": busy || void 0,
                onClick: () => void actions.forkBefore(entry.tombstoneSeq),
                children: t("action.forkBefore")
              }
            ),
            eraseable && erase !== void 0 && erasing?.confirming !== entry.tombstoneSeq && /* @__PURE__ */ (0, import_jsx_runtime4.jsx)(
              "button",
              {
                type: "button",
                "data-message-recall-erase-action": "open",
                "aria-label": t("panel.erase.label"),
                "aria-haspopup": "dialog",
                disabled: eraseBusy || busy,
                onClick: () => void erase.confirm(entry.tombstoneSeq),
                children: t("panel.erase")
              }
            )
          ] })
        ] }, entry.tombstoneSeq);
      }),
      rewrites.map((entry) => {
        const busy = state.pending?.tombstoneSeq === entry.checkpointSeq;
        const error = state.errors.get(entry.checkpointSeq) ?? null;
        return /* @__PURE__ */ (0, import_jsx_runtime4.jsxs)("li", { "data-message-recall-rewrite": entry.checkpointSeq, children: [
          /* @__PURE__ */ (0, import_jsx_runtime4.jsxs)("div", { "data-message-recall-entry-meta": "", children: [
            /* @__PURE__ */ (0, import_jsx_runtime4.jsx)("time", { dateTime: new Date(entry.time).toISOString(), children: removalTime(entry.time, t) }),
            /* @__PURE__ */ (0, import_jsx_runtime4.jsx)("span", { "data-message-recall-entry-what": "", children: t("panel.rewrite") }),
            entry.leftOut > 0 && /* @__PURE__ */ (0, import_jsx_runtime4.jsx)("span", { children: t(countedKey("panel.rewrite.left", entry.leftOut), { count: entry.leftOut }) }),
            !entry.onSurface && /* @__PURE__ */ (0, import_jsx_runtime4.jsx)("span", { "data-message-recall-entry-restored": "", children: t("panel.rewrite.replaced") })
          ] }),
          error !== null && /* @__PURE__ */ (0, import_jsx_runtime4.jsx)("div", { "data-message-recall-entry-error": "", role: "alert", children: describeError(t, error.code) }),
          entry.onSurface && /* @__PURE__ */ (0, import_jsx_runtime4.jsx)("div", { "data-message-recall-entry-actions": "", children: /* @__PURE__ */ (0, import_jsx_runtime4.jsx)(
            "button",
            {
              type: "button",
              "data-message-recall-entry-action": "undoRewrite",
              "aria-label": t("panel.rewrite.undoLabel"),
              disabled: busy,
              "aria-busy": busy || void 0,
              onClick: () => void actions.undoRewrite(entry.checkpointSeq),
              children: t("undo.undo")
            }
          ) })
        ] }, `rewrite-${entry.checkpointSeq}`);
      })
    ] })
  ] });
}
function EraseConfirm({ t, plan, entryCount, checked, onCheck, onConfirm, onKeep }) {
  const count = plan?.messageCount ?? entryCount;
  const images = plan?.imageCount ?? 0;
  const files = plan?.fileCount ?? 0;
  const copies = plan?.copies ?? [];
  const planned = plan !== null;
  const box = (0, import_react6.useRef)(null);
  (0, import_react6.useEffect)(() => {
    box.current?.querySelector('[data-message-recall-erase-action="keep"]')?.focus();
  }, []);
  const onKeyDown = (event) => {
    if (event.key === "Escape") {
      event.preventDefault();
      event.stopPropagation();
      onKeep();
      return;
    }
    if (event.key !== "Tab") return;
    const buttons = [...box.current?.querySelectorAll("button, input") ?? []];
    const at = buttons.indexOf(event.target);
    event.preventDefault();
    buttons[(at + (event.shiftKey ? buttons.length - 1 : 1)) % buttons.length]?.focus();
  };
  const title = t(countedKey("panel.erase.title", count), { count });
  const also = [
    ...images > 0 ? [t(countedKey("panel.erase.images", images), { count: images })] : [],
    ...files > 0 ? [t(countedKey("panel.erase.files", files), { count: files })] : []
  ];
  const titleOf = (copy) => copy.title ?? t("panel.erase.untitled");
  return /* @__PURE__ */ (0, import_jsx_runtime4.jsxs)("div", { ref: box, "data-message-recall-erase-confirm": "", role: "alertdialog", "aria-label": title, onKeyDown, children: [
    /* @__PURE__ */ (0, import_jsx_runtime4.jsx)("p", { "data-message-recall-erase-title": "", children: /* @__PURE__ */ (0, import_jsx_runtime4.jsx)("strong", { children: title }) }),
    also.length > 0 && /* @__PURE__ */ (0, import_jsx_runtime4.jsx)("p", { "data-message-recall-erase-also": "", children: t("panel.erase.also", { what: also.join(t("panel.erase.and")) }) }),
    copies.length > 0 && /* @__PURE__ */ (0, import_jsx_runtime4.jsxs)("div", { "data-message-recall-erase-copies": "", children: [
      /* @__PURE__ */ (0, import_jsx_runtime4.jsx)("p", { children: t(countedKey("panel.erase.copies", copies.length), { count: copies.length, titles: copies.map((copy) => t("panel.erase.quoted", { title: titleOf(copy) })).join(t("panel.erase.listSep")) }) }),
      copies.map((copy) => [
        ...copy.removals.map((removal) => {
          const key2 = copyRemovalKey(copy.sessionId, removal.tombstoneSeq);
          const wider = removal.messageCount > count;
          return /* @__PURE__ */ (0, import_jsx_runtime4.jsxs)("label", { "data-message-recall-erase-copy": copy.sessionId, "data-message-recall-erase-copy-removal": removal.tombstoneSeq, children: [
            /* @__PURE__ */ (0, import_jsx_runtime4.jsx)("input", { type: "checkbox", checked: checked.has(key2), onChange: (event) => onCheck(copy.sessionId, removal.tombstoneSeq, event.currentTarget.checked) }),
            t(countedKey(wider ? "panel.erase.copyWider" : "panel.erase.copyRemoval", removal.messageCount), { title: titleOf(copy), count: removal.messageCount })
          ] }, key2);
        }),
        ...copy.notRemovedCount === 0 ? [] : [
          /* @__PURE__ */ (0, import_jsx_runtime4.jsx)("p", { "data-message-recall-erase-copy-held": copy.sessionId, children: copy.removals.length === 0 ? t("panel.erase.copyNotRemoved", { title: titleOf(copy) }) : t(countedKey("panel.erase.copyPartlyNotRemoved", copy.notRemovedCount), { title: titleOf(copy), count: copy.notRemovedCount }) }, `${copy.sessionId}#held`)
        ]
      ])
    ] }),
    /* @__PURE__ */ (0, import_jsx_runtime4.jsx)("p", { "data-message-recall-erase-body": "", children: t("panel.erase.body") }),
    /* @__PURE__ */ (0, import_jsx_runtime4.jsx)("button", { type: "button", "data-message-recall-erase-action": "confirm", disabled: !planned, "aria-busy": !planned || void 0, onClick: onConfirm, children: t("panel.erase.confirm") }),
    /* @__PURE__ */ (0, import_jsx_runtime4.jsx)("button", { type: "button", "data-message-recall-erase-action": "keep", "aria-label": t("panel.erase.keepLabel"), onClick: onKeep, children: t("panel.erase.keep") })
  ] });
}
var noSubscribe2 = () => () => {
};
var noSnapshot2 = () => null;

// src/client/panel/SummaryButton.tsx
var import_react7 = require("react");

// src/client/panel/summary-text.ts
function currentSummary(replacements) {
  const fates = readFates(replacements);
  const checkpoint = [...replacements].sort((a, b) => b.seq - a.seq).find((e) => isCheckpointEvent(e) && fates.shadowerOf(e.seq) === null);
  if (checkpoint === void 0 || !isRecord(checkpoint.data) || !Array.isArray(checkpoint.data.content)) return null;
  const texts = checkpoint.data.content.flatMap((b) => isRecord(b) && b.type === "text" && typeof b.text === "string" ? [b.text] : []);
  const framed = texts.length >= 2 && texts[0].endsWith("<compacted-summary>") && texts.at(-1) === "</compacted-summary>";
  return { checkpointSeq: checkpoint.seq, text: (framed ? texts.slice(1, -1) : texts).join("\n\n").trim() };
}

// src/client/panel/SummaryButton.tsx
var import_jsx_runtime5 = require("react/jsx-runtime");
function SummaryButton({ sessionId, useSession, kit }) {
  const replacements = useSession(selectReplacements);
  const summary = (0, import_react7.useMemo)(() => currentSummary(replacements), [replacements]);
  const { open, button, toggle, close } = useDialogToggle();
  if (summary === null) return null;
  const t = kit.t;
  return /* @__PURE__ */ (0, import_jsx_runtime5.jsxs)("div", { "data-message-recall-removed-seat": "", children: [
    /* @__PURE__ */ (0, import_jsx_runtime5.jsx)("button", { ref: button, type: "button", "data-message-recall-summary": "", "aria-haspopup": "dialog", "aria-expanded": open, "aria-label": t("summary.label"), onClick: toggle, children: /* @__PURE__ */ (0, import_jsx_runtime5.jsx)("span", { children: t("summary.button") }) }),
    open && /* @__PURE__ */ (0, import_jsx_runtime5.jsx)(SummaryDialog, { sessionId, checkpointSeq: summary.checkpointSeq, text: summary.text, kit, onClose: close }, summary.checkpointSeq)
  ] });
}
function SummaryDialog({ sessionId, checkpointSeq, text, kit, onClose }) {
  const t = kit.t;
  const [draft, setDraft] = (0, import_react7.useState)(text);
  const [busy, setBusy] = (0, import_react7.useState)(false);
  const [error, setError] = (0, import_react7.useState)(null);
  const area = (0, import_react7.useRef)(null);
  (0, import_react7.useEffect)(() => {
    area.current?.focus();
    const onKey = (event) => {
      if (event.key === "Escape") onClose();
    };
    globalThis.document.addEventListener("keydown", onKey);
    return () => globalThis.document.removeEventListener("keydown", onKey);
  }, [onClose]);
  const save = async () => {
    setBusy(true);
    setError(null);
    const reply = await kit.send({ sessionId, action: "editSummary", checkpointSeq, summary: draft });
    setBusy(false);
    if (reply.ok || reply.error.code === "PERSIST_FAILED" && reply.error.applied === true) onClose();
    else setError(describeError(t, reply.error.code));
  };
  return /* @__PURE__ */ (0, import_jsx_runtime5.jsxs)("div", { "data-message-recall-summary-dialog": "", "data-message-recall-panel": "", role: "dialog", "aria-label": t("summary.title"), children: [
    /* @__PURE__ */ (0, import_jsx_runtime5.jsx)("p", { children: t("summary.hint") }),
    /* @__PURE__ */ (0, import_jsx_runtime5.jsx)("textarea", { ref: area, "aria-label": t("summary.textLabel"), value: draft, rows: 12, cols: 60, onChange: (event) => setDraft(event.target.value) }),
    error !== null && /* @__PURE__ */ (0, import_jsx_runtime5.jsx)("span", { "data-message-recall-summary-error": "", role: "alert", children: error }),
    /* @__PURE__ */ (0, import_jsx_runtime5.jsxs)("div", { children: [
      /* @__PURE__ */ (0, import_jsx_runtime5.jsx)("button", { type: "button", "data-message-recall-summary-action": "save", disabled: busy || draft.trim().length === 0 || draft === text, "aria-busy": busy || void 0, onClick: () => void save(), children: t("summary.save") }),
      /* @__PURE__ */ (0, import_jsx_runtime5.jsx)("button", { type: "button", "data-message-recall-summary-action": "cancel", onClick: onClose, children: t("summary.cancel") })
    ] })
  ] });
}

// src/client/build-stamp.ts
var BUILD_STAMP = true ? "0.1.0+db4743dfba" : "dev";

// src/client/notices/notice-styles.ts
var NOTICE_STYLE_TEXT = `
[data-message-recall-notices]{position:absolute;bottom:calc(100% + 8px);left:12px;right:56px;z-index:21;display:flex;flex-direction:column;gap:6px;pointer-events:none}
[data-message-recall-notices]>*{pointer-events:auto}
[data-message-recall-notices]>[data-message-recall-undo]{position:static}
[data-message-recall-notice],[data-message-recall-unsaved]{display:flex;gap:8px;align-items:center;
padding:6px 10px;border-radius:8px;font-size:12px;line-height:18px;background:var(--dsw-specific-tip,#fff8e1);color:var(--dsw-alias-label-secondary,#444);
border:1px solid var(--dsw-alias-border-l2,rgba(0,0,0,.12))}
[data-message-recall-notice]>span{display:flex;flex-direction:column;gap:2px;flex:1 1 auto;min-width:0}
[data-message-recall-notice] button{font:inherit;margin-left:auto;border:none;background:transparent;cursor:pointer;color:inherit;text-decoration:underline}
[data-message-recall-unsaved]{background:var(--dsw-specific-tip,#fff8e1);color:var(--dsw-alias-label-primary,#222)}
[data-message-recall-unsaved-text]{flex:1 1 auto;min-width:0}
[data-message-recall-unsaved-error]{color:var(--dsw-alias-state-error-primary,#d93025)}
[data-message-recall-unsaved] button{font:inherit;font-size:12px;line-height:18px;padding:2px 10px;border-radius:6px;cursor:pointer;white-space:nowrap;
border:1px solid var(--dsw-alias-border-l2,rgba(0,0,0,.12));background:var(--dsw-alias-bg-base,#fff);color:var(--dsw-alias-label-primary,#222)}
[data-message-recall-unsaved] button:focus-visible,[data-message-recall-notice] button:focus-visible{outline:2px solid var(--dsw-alias-state-business-primary,#4d6bfe);outline-offset:1px}
[data-message-recall-unsaved] button:disabled{opacity:.6;cursor:progress}
[data-message-recall-undo]{position:absolute;bottom:calc(100% + 8px);left:12px;right:56px;z-index:21;display:flex;gap:8px;align-items:center;
padding:6px 10px;border-radius:8px;font-size:13px;line-height:20px;background:var(--dsw-specific-menu,#fff);color:var(--dsw-alias-label-primary,#222);
border:1px solid var(--dsw-alias-border-l2,rgba(0,0,0,.12));box-shadow:var(--dsw-shadow-lv2,0 2px 6px rgba(0,0,0,.12))}
[data-message-recall-undo][data-stacked]{bottom:calc(100% + 48px)}
[data-message-recall-undo-text]{flex:1 1 auto;min-width:0}
[data-message-recall-undo-error]{color:var(--dsw-alias-state-error-primary,#d93025);font-size:12px}
[data-message-recall-undo] button{font:inherit;font-size:12px;line-height:18px;padding:2px 10px;border-radius:6px;cursor:pointer;
border:1px solid var(--dsw-alias-border-l2,rgba(0,0,0,.12));background:transparent;color:var(--dsw-alias-label-primary,#222)}
[data-message-recall-undo] button:hover{background:var(--dsw-alias-interactive-bg-hover,rgba(0,0,0,.06))}
[data-message-recall-undo] button:focus-visible{outline:2px solid var(--dsw-alias-state-business-primary,#4d6bfe);outline-offset:1px}
[data-message-recall-undo] button:disabled{opacity:.6;cursor:progress}
[data-message-recall-undo-action=dismiss]{border:none!important;padding:2px 6px!important}
`;

// src/client/panel/panel-styles.ts
var PANEL_STYLE_TEXT = `
[data-message-recall-entry-error]{color:var(--dsw-alias-state-error-primary,#d93025);font-size:12px}
[data-message-recall-panel] button{font:inherit;font-size:12px;line-height:18px;padding:2px 10px;border-radius:6px;cursor:pointer;
border:1px solid var(--dsw-alias-border-l2,rgba(0,0,0,.12));background:transparent;color:var(--dsw-alias-label-primary,#222)}
[data-message-recall-panel] button:hover{background:var(--dsw-alias-interactive-bg-hover,rgba(0,0,0,.06))}
[data-message-recall-panel] button:focus-visible,[data-message-recall-removed]:focus-visible,[data-message-recall-edit]:focus-visible,[data-message-recall-summary]:focus-visible{outline:2px solid var(--dsw-alias-state-business-primary,#4d6bfe);outline-offset:1px}
[data-message-recall-panel] button:disabled{opacity:.6;cursor:progress}
[data-message-recall-removed-seat]{position:relative;display:inline-flex}
[data-message-recall-removed],[data-message-recall-edit],[data-message-recall-summary]{border:1px solid var(--dsw-alias-border-l2,rgba(0,0,0,.12));height:32px;border-radius:18px;padding:6px 12px;gap:6px;
display:inline-flex;align-items:center;background:transparent;color:var(--dsw-alias-label-primary,#222);font:inherit;font-size:13px;line-height:20px;cursor:pointer;white-space:nowrap}
[data-message-recall-removed]:hover,[data-message-recall-edit]:hover,[data-message-recall-summary]:hover{background:var(--dsw-alias-interactive-bg-hover,rgba(0,0,0,.06))}
[data-message-recall-removed] [data-count]{min-width:18px;padding:0 5px;border-radius:9px;font-size:12px;line-height:18px;text-align:center;
background:var(--dsw-alias-interactive-bg-hover,rgba(0,0,0,.08))}
[data-message-recall-panel]{position:absolute;top:calc(100% + 6px);right:0;z-index:100;width:380px;max-height:60vh;overflow:auto;box-sizing:border-box;
padding:10px 12px;border-radius:12px;font-size:13px;line-height:20px;background:var(--dsw-specific-menu,#fff);color:var(--dsw-alias-label-secondary,#444);
border:1px solid var(--dsw-alias-border-inverted,rgba(0,0,0,.12));box-shadow:var(--dsw-shadow-lv3,0 4px 16px rgba(0,0,0,.16));outline:none}
[data-message-recall-panel-head]{display:flex;align-items:center;justify-content:space-between;margin-bottom:6px;color:var(--dsw-alias-label-primary,#222)}
[data-message-recall-panel] ol{list-style:none;margin:0;padding:0}
[data-message-recall-entry]{padding:8px 0;border-top:1px solid var(--dsw-alias-border-l2,rgba(0,0,0,.08))}
[data-message-recall-entry][data-restored]{opacity:.7}
[data-message-recall-entry-meta]{display:flex;flex-wrap:wrap;gap:4px 10px;font-size:12px;color:var(--dsw-alias-label-tertiary,#777)}
[data-message-recall-entry-what]{color:var(--dsw-alias-label-primary,#222);font-weight:500}
[data-message-recall-erase-problem]{margin:4px 0 6px;font-size:12px;overflow-wrap:anywhere;color:var(--dsw-alias-label-secondary,#444)}
[data-message-recall-entry-excerpt]{margin:2px 0 6px;overflow:hidden;text-overflow:ellipsis;white-space:nowrap;color:var(--dsw-alias-label-secondary,#444)}
[data-message-recall-entry-actions]{display:flex;gap:6px}
[data-message-recall-summary-dialog] textarea{display:block;width:min(560px,80vw);margin:6px 0;font:inherit;font-size:13px;line-height:20px;padding:6px 8px;
border-radius:6px;border:1px solid var(--dsw-alias-border-l2,rgba(0,0,0,.12));background:transparent;color:inherit}
[data-message-recall-summary-dialog] p{margin:0;font-size:12px;color:var(--dsw-alias-label-secondary,#555)}
[data-message-recall-summary-error]{display:block;color:var(--dsw-alias-state-error-primary,#d93025);font-size:12px}
`;

// src/client/rows/row-styles.ts
var ROW_STYLE_TEXT = `
[${ATTR.hidden}]{display:none!important}
[${ATTR.row}]{position:relative}
[${ATTR.actions}]{position:absolute;top:-14px;right:0;z-index:3;display:flex;align-items:center;gap:2px;padding:2px;border-radius:8px;
background:var(--dsw-alias-bg-base,#fff);border:1px solid var(--dsw-alias-border-l2,rgba(0,0,0,.12));
box-shadow:var(--dsw-shadow-lv2,0 2px 6px rgba(0,0,0,.12));opacity:0;transition:opacity .12s ease}
[${ATTR.actions}][data-message-recall-placed]{top:var(--message-recall-top);right:var(--message-recall-right)}
[${ATTR.row}]:hover>[${ATTR.actions}],[${ATTR.row}]:focus-within>[${ATTR.actions}],[${ATTR.actions}][${ATTR.active}]{opacity:1}
[${ATTR.action}]{font:inherit;font-size:12px;line-height:18px;padding:1px 8px;border:none;border-radius:6px;background:transparent;
color:var(--dsw-alias-label-secondary,#444);cursor:pointer;white-space:nowrap;display:inline-flex;flex-direction:column;align-items:center;font-variant-numeric:tabular-nums}
[${ATTR.action}][${ATTR.sizer}]::after{content:attr(${ATTR.sizer});height:0;overflow:hidden;visibility:hidden;white-space:nowrap}
[${ATTR.action}]:hover{background:var(--dsw-alias-interactive-bg-hover,rgba(0,0,0,.06))}
[${ATTR.action}]:focus-visible{outline:2px solid var(--dsw-alias-state-business-primary,#4d6bfe);outline-offset:1px}
[${ATTR.action}][${ATTR.armed}=true]{background:var(--dsw-alias-state-error-primary,#d93025);color:#fff}
[${ATTR.action}][${ATTR.busy}=true]{opacity:.6;cursor:progress}
[${ATTR.error}]{font-size:12px;line-height:18px;padding:0 6px;max-width:320px;color:var(--dsw-alias-state-error-primary,#d93025)}
[${EXCLUDED_ATTR.row}]>[data-slot]>*{opacity:.45}
[${EXCLUDED_ATTR.badge}]{display:block;width:fit-content;margin:0 0 4px;padding:0 8px;border-radius:9px;font-size:12px;line-height:18px;
color:var(--dsw-alias-label-secondary,#555);background:var(--dsw-alias-interactive-bg-hover,rgba(0,0,0,.06))}
[${FOLDED_ATTR.badge}]{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}
[${FOLDED_ATTR.row}]:hover>[${FOLDED_ATTR.badge}],[${FOLDED_ATTR.row}]:focus-within>[${FOLDED_ATTR.badge}]{position:static;width:auto;height:auto;overflow:visible;clip:auto;
display:inline-block;margin:2px 0 0;padding:0 8px;border-radius:9px;font-size:12px;line-height:18px;white-space:normal;
color:var(--dsw-alias-label-secondary,#555);background:var(--dsw-alias-interactive-bg-hover,rgba(0,0,0,.06))}
[${FLAG_ATTR.flag}]{display:flex;flex-wrap:wrap;align-items:center;gap:6px;margin:4px 0;padding:4px 8px;border-radius:8px;font-size:12px;line-height:18px;
color:var(--dsw-alias-label-secondary,#555);background:var(--dsw-alias-interactive-bg-hover,rgba(0,0,0,.06))}
[${FLAG_ATTR.action}]{font:inherit;font-size:12px;line-height:18px;padding:1px 8px;border:1px solid var(--dsw-alias-border-l2,rgba(0,0,0,.2));border-radius:6px;
background:var(--dsw-alias-bg-base,#fff);color:var(--dsw-alias-label-primary,#222);cursor:pointer}
[${FLAG_ATTR.action}]:focus-visible{outline:2px solid var(--dsw-alias-state-business-primary,#4d6bfe);outline-offset:1px}
[${FLAG_ATTR.action}][data-armed=true]{background:var(--dsw-alias-state-error-primary,#d93025);color:#fff}
[${FLAG_ATTR.action}][aria-busy=true]{opacity:.6;cursor:progress}
[${FLAG_ATTR.error}]{color:var(--dsw-alias-state-error-primary,#d93025)}
`;

// src/client/style-sheets.ts
var STYLE_SHEETS = {
  rows: ROW_STYLE_TEXT,
  notices: NOTICE_STYLE_TEXT,
  panel: PANEL_STYLE_TEXT
};
function installStyleSheets(doc) {
  const styles = Object.entries(STYLE_SHEETS).map(([name2, text]) => {
    const style = doc.createElement("style");
    style.setAttribute(ATTR.style, name2);
    style.textContent = text;
    doc.head.appendChild(style);
    return style;
  });
  return () => {
    for (const style of styles) style.remove();
  };
}

// src/client/stores/session-stores.ts
var SessionStores = class {
  /** @param make - builds the store of a session (called once per session id). */
  constructor(make) {
    this.make = make;
  }
  bySession = /* @__PURE__ */ new Map();
  /**
   * @param sessionId - the session.
   * @returns its store, made on first use.
   */
  get(sessionId) {
    let store = this.bySession.get(sessionId);
    if (store === void 0) this.bySession.set(sessionId, store = this.make(sessionId));
    return store;
  }
  /** Dispose every store (plugin unload). */
  dispose() {
    for (const store of this.bySession.values()) store.dispose();
    this.bySession.clear();
  }
};

// src/client/stores/tombstone-actions.ts
var EMPTY_ERRORS2 = /* @__PURE__ */ new Map();
var INITIAL3 = Object.freeze({ pending: null, errors: EMPTY_ERRORS2 });
var TombstoneActions = class extends SnapshotStore {
  constructor(options) {
    super(INITIAL3);
    this.options = options;
    this.timers = options.timers ?? BROWSER_TIMERS;
  }
  timers;
  errorTimers = /* @__PURE__ */ new Map();
  restoredListeners = /* @__PURE__ */ new Set();
  /**
   * Undo one tombstone in place (`{ action: 'restore', sessionId, tombstoneSeq }`). The restored
   * message comes back through the session's live events; nothing is changed here but the state.
   * @param tombstoneSeq - the tombstone.
   * @returns the route's value, or the refusal (`error: null` when ignored).
   */
  async restore(tombstoneSeq) {
    const outcome = await this.run(tombstoneSeq, "restore", async () => {
      const reply = await this.options.send({ sessionId: this.options.sessionId, action: "restore", tombstoneSeq });
      if (reply.ok) {
        if (reply.value.persisted) this.options.unsaved?.settled();
        return reply;
      }
      const { error } = reply;
      if (error.code === "PERSIST_FAILED" && error.applied === true && error.value?.action === "restore") {
        this.options.unsaved?.mark("restore", 1);
        return { ok: true, value: error.value };
      }
      return reply;
    });
    if (outcome.ok) for (const listener of [...this.restoredListeners]) listener(tombstoneSeq);
    return outcome;
  }
  /**
   * Undo a summary rewrite (`{ action: 'undoRewrite', sessionId, checkpointSeq }`): the summary it
   * replaced comes back, and the messages it took out are folded again (through the live events).
   * @param checkpointSeq - the rewrite's checkpoint (what the removal answered as `tombstoneSeq`).
   * @returns the route's value, or the refusal (`error: null` when ignored).
   */
  undoRewrite(checkpointSeq) {
    return this.run(checkpointSeq, "undoRewrite", async () => {
      const reply = await this.options.send({ sessionId: this.options.sessionId, action: "undoRewrite", checkpointSeq });
      if (reply.ok && reply.value.persisted) this.options.unsaved?.settled();
      return reply;
    });
  }
  /**
   * Hear of every restore in effect, from whichever entry asked for it.
   * @param listener - called with the restored tombstone's seq.
   * @returns unsubscribe.
   */
  onRestored(listener) {
    this.restoredListeners.add(listener);
    return () => this.restoredListeners.delete(listener);
  }
  /**
   * Make a new session holding the conversation from before a tombstone
   * (`{ action: 'forkBefore', sessionId, tombstoneSeq }`) and open it.
   * @param tombstoneSeq - the tombstone.
   * @returns the route's value once the new session is opened, or the refusal.
   */
  forkBefore(tombstoneSeq) {
    return this.run(tombstoneSeq, "forkBefore", async () => {
      const reply = await this.options.send({ sessionId: this.options.sessionId, action: "forkBefore", tombstoneSeq });
      if (reply.ok) {
        try {
          await this.options.openSession(reply.value.forkedSessionId);
        } catch (error) {
          return { ok: false, error: { code: "NETWORK", message: errorText(error) } };
        }
      }
      return reply;
    });
  }
  /** Stop the timers and drop listeners. */
  dispose() {
    for (const handle of this.errorTimers.values()) this.timers.clearTimeout(handle);
    this.errorTimers.clear();
    this.restoredListeners.clear();
    this.dropListeners();
  }
  async run(tombstoneSeq, verb, request) {
    if (this.state.pending !== null) return { ok: false, error: null };
    const errors = new Map(this.state.errors);
    errors.delete(tombstoneSeq);
    this.set({ pending: { tombstoneSeq, verb }, errors: errors.size === 0 ? EMPTY_ERRORS2 : errors });
    const reply = await request();
    if (reply.ok) {
      this.set({ pending: null });
      return reply;
    }
    const failed = new Map(this.state.errors);
    failed.set(tombstoneSeq, { verb, code: reply.error.code, message: reply.error.message });
    this.set({ pending: null, errors: failed });
    this.timers.clearTimeout(this.errorTimers.get(tombstoneSeq));
    this.errorTimers.set(tombstoneSeq, this.timers.setTimeout(() => this.expire(tombstoneSeq), this.options.errorMs ?? 8e3));
    return reply;
  }
  expire(tombstoneSeq) {
    this.errorTimers.delete(tombstoneSeq);
    if (!this.state.errors.has(tombstoneSeq)) return;
    const errors = new Map(this.state.errors);
    errors.delete(tombstoneSeq);
    this.set({ errors: errors.size === 0 ? EMPTY_ERRORS2 : errors });
  }
  set(patch) {
    this.publish(Object.freeze({ ...this.state, ...patch }));
  }
};

// src/client/stores/unsaved-writes.ts
var UnsavedWrites = class extends SnapshotStore {
  constructor(options) {
    super(null);
    this.options = options;
    this.timers = options.timers ?? BROWSER_TIMERS;
  }
  timers;
  clearTimer = void 0;
  ids = 0;
  disposed = false;
  /**
   * Record an applied write whose flush failed (replaces an earlier one: a flush saves the
   * whole live log, so Save again covers both).
   * @param action - the write's route action.
   * @param count - messages it removed or restored; for `apply`, the changes of the batch.
   */
  mark(action, count) {
    if (this.disposed) return;
    this.timers.clearTimeout(this.clearTimer);
    this.set({ id: ++this.ids, action, count, phase: "unsaved", error: null });
  }
  /**
   * Ask the host to flush the session's live log.
   * @returns `'saved'`, `'failed'` (the state stays, with the error), or `'ignored'` (nothing
   *   unsaved, a flush already in flight, or disposed).
   */
  async saveAgain() {
    const current = this.state;
    if (this.disposed || current === null || current.phase !== "unsaved") return "ignored";
    this.set({ ...current, phase: "saving" });
    const reply = await this.options.send({ sessionId: this.options.sessionId, action: "flush" });
    if (this.disposed || this.state?.id !== current.id) return "ignored";
    if (!reply.ok) {
      this.set({ ...current, phase: "unsaved", error: reply.error });
      return "failed";
    }
    this.set({ ...current, phase: "saved", error: null });
    this.clearTimer = this.timers.setTimeout(() => this.clear(current.id), this.options.savedMs ?? 4e3);
    return "saved";
  }
  /** A later write of this plugin was flushed: everything before it is durable too. */
  settled() {
    if (this.state !== null && this.state.phase !== "saving") this.clear(this.state.id);
  }
  /** Stop the timer and drop listeners. */
  dispose() {
    this.disposed = true;
    this.timers.clearTimeout(this.clearTimer);
    this.dropListeners();
  }
  clear(id) {
    if (this.disposed || this.state?.id !== id) return;
    this.timers.clearTimeout(this.clearTimer);
    this.set(null);
  }
  set(state) {
    this.publish(state === null ? null : Object.freeze(state));
  }
};

// src/client/stores/summary-refresh.ts
var IDLE = Object.freeze({ phase: "idle", checkpointSeq: null, error: null });
var SummaryRefresh = class extends SnapshotStore {
  constructor(options) {
    super(IDLE);
    this.options = options;
  }
  running = null;
  disposed = false;
  /**
   * A press of **Rewrite summary** (or of its confirm).
   * @param checkpointSeq - the flagged summary's checkpoint.
   * @returns `'armed'`, `'done'`, `'refused'` (the error is kept) or `'ignored'` (a request is in flight).
   */
  async press(checkpointSeq) {
    const state = this.state;
    if (this.disposed || state.phase === "planning" || state.phase === "running") return "ignored";
    if (state.phase === "armed" && state.checkpointSeq === checkpointSeq) return this.commit(checkpointSeq, state.expect);
    this.publish(Object.freeze({ phase: "planning", checkpointSeq, error: null }));
    const reply = await this.options.send({ sessionId: this.options.sessionId, action: "plan", planAction: "rewriteSummary", checkpointSeq });
    if (this.disposed) return "ignored";
    if (!reply.ok) return this.fail(checkpointSeq, reply.error.code);
    const { estimatedInputTokens, replaceGeneration, lastSeq } = reply.value;
    this.publish(Object.freeze({ phase: "armed", checkpointSeq, error: null, tokens: estimatedInputTokens, expect: { replaceGeneration, lastSeq } }));
    return "armed";
  }
  /**
   * Escape or Cancel: an armed flag goes back to idle; a running rewrite is aborted (nothing is written).
   * @returns true when there was something to cancel.
   */
  cancel() {
    if (this.state.phase === "armed") {
      this.publish(IDLE);
      return true;
    }
    if (this.state.phase === "running" && this.running !== null) {
      this.running.abort();
      return true;
    }
    return false;
  }
  /** Abort a request in flight and drop listeners; later presses are ignored. */
  dispose() {
    this.disposed = true;
    this.running?.abort();
    this.dropListeners();
  }
  async commit(checkpointSeq, expect) {
    const controller = new AbortController();
    this.running = controller;
    this.publish(Object.freeze({ phase: "running", checkpointSeq, error: null }));
    const reply = await this.options.send({ sessionId: this.options.sessionId, action: "rewriteSummary", checkpointSeq, expect }, { signal: controller.signal });
    this.running = null;
    if (this.disposed) return "ignored";
    if (reply.ok || reply.error.code === "PERSIST_FAILED" && reply.error.applied === true) {
      this.publish(IDLE);
      return "done";
    }
    return this.fail(checkpointSeq, reply.error.code);
  }
  fail(checkpointSeq, code) {
    this.publish(Object.freeze({ phase: "idle", checkpointSeq: null, error: { checkpointSeq, code } }));
    return "refused";
  }
};

// src/client/editor/EditButton.tsx
var import_react14 = require("react");
var import_react_dom = require("react-dom");

// src/client/editor/editor-locales.ts
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
  "state.folded": "已压缩进摘要",
  "cost.folded": "在压缩摘要中",
  "rewrite.one": "压缩摘要将重写，去掉 {count} 条已压缩的消息：调用一次模型，输入约 {tokens} 个词元",
  "rewrite.other": "压缩摘要将重写，去掉 {count} 条已压缩的消息：调用一次模型，输入约 {tokens} 个词元",
  "apply.rewrite": "应用并重写摘要？（调用模型，约 {tokens} 个词元）",
  "rewriting": "正在重写摘要…（Esc 取消）",
  "cancel": "取消",
  "cancel.label": "取消重写摘要，什么都不会写入",
  "rewriteFailed": "没有做任何改动：{reason}（{detail}）",
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
  "empty": "这个会话还没有消息",
  "stay.one": "，其中 {count} 条仍留在视图中",
  "stay.other": "，其中 {count} 条仍留在视图中",
  "context": "上下文：{now} → {after} 个词元",
  "basis.meter": "（词元计量器的估算）",
  "basis.chars": "（按字符数 ÷ 4 估算）",
  "cost.one": "{tokens} 个词元 · 占上下文 {share}",
  "cost.other": "{tokens} 个词元 · 占上下文 {share}",
  "cost.none": "现在不占上下文",
  "sort": "最大的在前",
  "sort.label": "按现在占用的词元排序，最大的在前（再按一次恢复对话顺序）",
  "exclude": "排除",
  "exclude.label": "改为排除而非删除（留在视图中，对模型隐藏）：{text}",
  "excludeAll": "全部改为排除",
  "excludeAll.label": "把所有选中的内容改为排除而非删除（留在视图中，对模型隐藏）",
  "presets": "快速选择（不会选中最近一轮）",
  "preset.old": "早于最近 N 轮的工具输出",
  "preset.old.label": "选中早于最近 {n} 轮的工具输出",
  "preset.large": "超过 K 个词元的工具输出",
  "preset.large.label": "选中超过 {k} 个词元的工具输出",
  "preset.compaction": "最近一次压缩之前的全部内容",
  "preset.compaction.label": "选中最近一次压缩之前仍在上下文中的全部内容",
  "preset.n": "轮数 N",
  "preset.k": "词元数 K"
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
  "state.folded": "Summarized",
  "cost.folded": "In the compaction summary",
  "rewrite.one": "The compaction summary is rewritten without {count} summarized message: a model call of about {tokens} input tokens",
  "rewrite.other": "The compaction summary is rewritten without {count} summarized messages: a model call of about {tokens} input tokens",
  "apply.rewrite": "Apply and rewrite the summary? (model call, ~{tokens} tokens)",
  "rewriting": "Rewriting the summary… (Esc cancels)",
  "cancel": "Cancel",
  "cancel.label": "Cancel the summary rewrite; nothing is written",
  "rewriteFailed": "Nothing was changed: {reason} ({detail})",
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
  "empty": "This session has no messages yet",
  "stay.one": ", {count} of them stays in view",
  "stay.other": ", {count} of them stay in view",
  "context": "Context: {now} → {after} tokens",
  "basis.meter": " (token meter estimate)",
  "basis.chars": " (estimated as characters ÷ 4)",
  "cost.one": "{tokens} token · {share} of the context",
  "cost.other": "{tokens} tokens · {share} of the context",
  "cost.none": "Costs nothing now",
  "sort": "Largest first",
  "sort.label": "Sort by tokens in the context now, largest first (press again for conversation order)",
  "exclude": "Exclude",
  "exclude.label": "Exclude instead of delete (keep it in view, hide it from the model): {text}",
  "excludeAll": "Exclude all selected",
  "excludeAll.label": "Exclude everything selected instead of deleting it (keep it in view, hide it from the model)",
  "presets": "Quick selections (never the most recent turn)",
  "preset.old": "Tool output older than the last N turns",
  "preset.old.label": "Select tool output older than the last {n} turns",
  "preset.large": "Tool output larger than K tokens",
  "preset.large.label": "Select tool output larger than {k} tokens",
  "preset.compaction": "Everything before the last compaction",
  "preset.compaction.label": "Select everything still in the context from before the last compaction",
  "preset.n": "Turns N",
  "preset.k": "Tokens K"
};
var EDITOR_DICTIONARIES = { zh: editorZh, en: editorEn };
var formats = /* @__PURE__ */ new Map();
function numberFormat(locale, percent = false) {
  const key2 = `${locale}/${percent}`;
  let format = formats.get(key2);
  if (format === void 0) {
    format = new Intl.NumberFormat(locale === "zh" ? "zh-CN" : "en-US", percent ? { style: "percent", maximumFractionDigits: 1 } : {});
    formats.set(key2, format);
  }
  return format;
}
function counterText(t, locale, counts) {
  const format = numberFormat(locale);
  const parts = [];
  const inView = counts.inView ?? 0;
  if (counts.messages > 0) {
    const leave = t(counts.messages === 1 ? "leave.one" : "leave.other", { count: format.format(counts.messages), tokens: format.format(counts.tokens) });
    parts.push(inView > 0 ? leave + t(inView === 1 ? "stay.one" : "stay.other", { count: format.format(inView) }) : leave);
  }
  if (counts.back > 0) parts.push(t(counts.back === 1 ? "back.one" : "back.other", { count: format.format(counts.back) }));
  return parts.length === 0 ? t("nothing") : parts.join(t("separator"));
}
function contextText(t, locale, figure) {
  const format = numberFormat(locale);
  return t("context", { now: format.format(figure.now), after: format.format(figure.after) }) + t(`basis.${figure.basis}`);
}
function costText(t, locale, cost) {
  if (cost.folded === true) return t("cost.folded");
  if (!cost.inContext) return t("cost.none");
  const share = numberFormat(locale, true).format(cost.share);
  return t(cost.tokens === 1 ? "cost.one" : "cost.other", { tokens: numberFormat(locale).format(cost.tokens), share });
}
function rewriteText(t, locale, rewrite) {
  const format = numberFormat(locale);
  return t(rewrite.removed === 1 ? "rewrite.one" : "rewrite.other", { count: format.format(rewrite.removed), tokens: format.format(rewrite.tokens) });
}
function applyText(t, locale, armedTokens) {
  return armedTokens === null ? t("apply") : t("apply.rewrite", { tokens: numberFormat(locale).format(armedTokens) });
}

// src/client/editor/EditorModal.tsx
var import_react13 = require("react");

// src/client/editor/dialog-keys.ts
var import_react8 = require("react");
function trapTab(dialog, shiftKey) {
  const focusable = [...dialog.querySelectorAll("button:not([disabled]), input:not([disabled])")];
  const first = focusable[0];
  const last = focusable.at(-1);
  const active = dialog.ownerDocument.activeElement;
  if (first === void 0 || last === void 0) return null;
  if (shiftKey ? active === first || active === dialog : active === last) return shiftKey ? last : first;
  return null;
}
function arrowTarget(order, at, down) {
  const next = at === -1 ? 0 : Math.min(order.length - 1, Math.max(0, at + (down ? 1 : -1)));
  return order[next];
}
function useFirstFocus(ready, first, dialog) {
  (0, import_react8.useEffect)(() => {
    const control = ready ? first() : void 0;
    if (control !== void 0) control.focus();
    else dialog.current?.focus();
  }, [ready]);
}

// src/client/editor/editor-apply.ts
var import_react10 = require("react");

// src/client/editor/editor-plan.ts
var import_react9 = require("react");
var PLAN_DEBOUNCE_MS = 200;
function refusalOf(error, changeUnits) {
  const detail = error.code === "SUMMARY_FAILED" ? { detail: withoutPrefix(error.message) } : {};
  return { unit: error.index === void 0 ? null : changeUnits[error.index] ?? null, code: error.code, ...detail };
}
function usePlanCheck(send, sessionId, preview, readSeq) {
  const [refusal, setRefusal] = (0, import_react9.useState)(null);
  const [checking, setChecking] = (0, import_react9.useState)(false);
  const [planned, setPlanned] = (0, import_react9.useState)(null);
  const changesKey = (0, import_react9.useMemo)(() => JSON.stringify(preview.changes), [preview.changes]);
  const plannedSelection = (0, import_react9.useRef)(changesKey);
  (0, import_react9.useEffect)(() => {
    if (plannedSelection.current !== changesKey) {
      plannedSelection.current = changesKey;
      setRefusal(null);
    }
    if (preview.changes.length === 0) {
      setChecking(false);
      return;
    }
    setChecking(true);
    let live = true;
    const timer = setTimeout(() => {
      void send({ action: "plan", sessionId, changes: preview.changes, detail: "counts" }).then((reply) => {
        if (!live) return;
        setChecking(false);
        if (!reply.ok) {
          setRefusal(refusalOf(reply.error, preview.changeUnits));
          return;
        }
        setRefusal(null);
        const rewrite = reply.value.summaryRewrite;
        setPlanned({
          changesKey,
          lastSeq: readSeq,
          removedCount: reply.value.removedCount,
          rewrite: rewrite === void 0 ? null : { removed: rewrite.removedCount, tokens: rewrite.estimatedInputTokens }
        });
      });
    }, PLAN_DEBOUNCE_MS);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [changesKey, readSeq, send, sessionId]);
  return { refusal, checking, planned };
}

// src/client/editor/editor-apply.ts
function useEditorApply(input) {
  const { send, sessionId, unsaved, preview, lastSeq, planned, enabled, reread, onClose } = input;
  const [applying, setApplying] = (0, import_react10.useState)(false);
  const [applyError, setApplyError] = (0, import_react10.useState)(null);
  const [armed, setArmed] = (0, import_react10.useState)(false);
  const [rewriting, setRewriting] = (0, import_react10.useState)(false);
  const cancelling = (0, import_react10.useRef)(null);
  const changesKey = JSON.stringify(preview.changes);
  const current = planned?.changesKey === changesKey && planned.lastSeq === lastSeq ? planned : null;
  (0, import_react10.useEffect)(() => {
    setApplyError(null);
    setArmed(false);
  }, [changesKey]);
  const cancel = (0, import_react10.useCallback)(() => {
    if (cancelling.current !== null) {
      cancelling.current.abort();
      return true;
    }
    if (armed) {
      setArmed(false);
      return true;
    }
    return false;
  }, [armed]);
  const apply2 = (0, import_react10.useCallback)(async () => {
    if (!enabled || applying || lastSeq === null) return;
    const rewrite = current?.rewrite ?? null;
    if (rewrite !== null && !armed) {
      setArmed(true);
      return;
    }
    setArmed(false);
    setApplying(true);
    const controller = rewrite === null ? null : new AbortController();
    cancelling.current = controller;
    setRewriting(controller !== null);
    const confirmed = current === null ? {} : { removedCount: current.removedCount };
    const reply = await send({ action: "apply", sessionId, changes: preview.changes, expect: { lastSeq, ...confirmed } }, controller === null ? void 0 : { signal: controller.signal });
    cancelling.current = null;
    setRewriting(false);
    setApplying(false);
    if (reply.ok) {
      if (reply.value.persisted) unsaved.settled();
      onClose(true);
    } else if (reply.error.code === "PERSIST_FAILED" && reply.error.applied === true) {
      unsaved.mark("apply", preview.changes.length);
      onClose(true);
    } else {
      setApplyError(refusalOf(reply.error, preview.changeUnits));
      if (reply.error.code === "STALE_VIEW") reread();
    }
  }, [enabled, applying, armed, lastSeq, current, send, sessionId, unsaved, preview, reread, onClose]);
  return { applying, applyError, apply: apply2, armed, rewriting, cancel, rewrite: current?.rewrite ?? null };
}

// src/client/editor/editor-history.ts
var import_react11 = require("react");

// src/client/wire/session-history.ts
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

// src/client/editor/meter-estimate.ts
var METER_CHARS_PER_TOKEN = 4;
var METER_BLOCK_OVERHEAD = 4;
var METER_MESSAGE_OVERHEAD = 4;
function meterBlocks(blocks) {
  let tokens = 0;
  for (const block of blocks) {
    if (!isRecord(block)) continue;
    switch (block.type) {
      case "text":
      case "reasoning":
        tokens += Math.ceil((typeof block.text === "string" ? block.text.length : 0) / METER_CHARS_PER_TOKEN) + METER_BLOCK_OVERHEAD;
        break;
      case "tool-call":
        tokens += Math.ceil((typeof block.name === "string" ? block.name.length : 0) / METER_CHARS_PER_TOKEN) + Math.ceil((typeof block.arguments === "string" ? block.arguments.length : 0) / METER_CHARS_PER_TOKEN) + METER_BLOCK_OVERHEAD;
        break;
      case "tool-result":
        tokens += meterBlocks(Array.isArray(block.content) ? block.content : []) + METER_BLOCK_OVERHEAD;
        break;
      default:
        tokens += METER_BLOCK_OVERHEAD + Math.ceil(JSON.stringify(block).length / METER_CHARS_PER_TOKEN);
    }
  }
  return tokens;
}
function meterMessageTokens(content) {
  return meterBlocks(content) + METER_MESSAGE_OVERHEAD;
}

// src/client/editor/editor-model.ts
var EMPTY_SELECTION = { remove: /* @__PURE__ */ new Set(), from: null, restore: /* @__PURE__ */ new Set(), exclude: /* @__PURE__ */ new Set() };
var PREVIEW_CHARS = 160;
var NOTHING = Object.freeze({ chars: 0, meter: 0 });
function costOf(acting) {
  if (acting === void 0) return NOTHING;
  const content = contentOf(acting);
  return { chars: estimateTokens([content]), meter: meterMessageTokens(content) };
}
function rowOf(event, acting) {
  const content = contentOf(event);
  let text = readableToolText(plainText(content.flatMap((b) => isRecord(b) && b.type === "tool-result" && Array.isArray(b.content) ? b.content : [b])));
  if (text === "" && event.type === "assistant/message") text = toolCallIds(event).length > 0 ? toolNames(content) : "";
  const role = event.type === "user/message" ? "user" : event.type === "assistant/message" ? "assistant" : "tool";
  return { seq: event.seq, role, text: text.length > PREVIEW_CHARS ? `${text.slice(0, PREVIEW_CHARS)}…` : text, tokens: estimateTokens([content]), meterTokens: meterMessageTokens(content), now: acting === event ? { chars: estimateTokens([content]), meter: meterMessageTokens(content) } : costOf(acting) };
}
function toolNames(content) {
  return content.filter((b) => isRecord(b) && b.type === "tool-call").map((b) => String(b.name ?? "")).join(", ");
}
function groupUnits(log) {
  const units = [];
  const steps = /* @__PURE__ */ new Map();
  let turn = null;
  for (const event of log) {
    if (event.type === "turn/start" && isRecord(event.data) && Number.isSafeInteger(event.data.turn)) turn = event.data.turn;
    if (event.surfaceOp !== "append") continue;
    if (event.type === "user/message") {
      const kind = classifyNode(event);
      const last = units.at(-1);
      if (kind === "reference" && last?.kind === "prompt" && last.events.length === 1 && last.events[0].seq === event.seq - 1) last.events.push(event);
      if (kind !== "user") continue;
      units.push({ key: `u${event.seq}`, kind: "prompt", turn, events: [event] });
      continue;
    }
    const step = stepOf(event);
    if (step === null) continue;
    const key2 = `s${step.turn}.${step.step}`;
    let unit = steps.get(key2);
    if (unit === void 0) {
      unit = { key: key2, kind: "step", turn: step.turn, events: [] };
      steps.set(key2, unit);
      units.push(unit);
    }
    unit.events.push(event);
  }
  return units;
}
function selectable(state) {
  return state === "current" || state === "folded";
}
function unitStanding(group, fates, kindOf) {
  const lead = group.events.find((e) => e.type !== "tool/result") ?? group.events[0];
  const fate = fates.fateOf(lead.seq);
  const restorable = group.kind === "prompt" && fate.tombstoneSeq !== null && fates.canRestore(fate.tombstoneSeq, kindOf);
  return { state: fate.state, targetSeq: selectable(fate.state) ? fate.actingSeq : null, tombstoneSeq: fate.tombstoneSeq, restorable };
}
function buildEditorUnits(log) {
  const fates = readFates(log);
  const kindOf = logKinds(log);
  const bySeq = /* @__PURE__ */ new Map();
  for (const event of log) bySeq.set(event.seq, event);
  const acting = (event) => {
    const fate = fates.fateOf(event.seq);
    return fate.state !== "current" ? void 0 : fate.actingSeq === event.seq ? event : bySeq.get(fate.actingSeq);
  };
  return groupUnits(log).map((group) => {
    const rows = group.events.map((event) => rowOf(event, acting(event)));
    return {
      key: group.key,
      kind: group.kind,
      turn: group.turn,
      rows,
      ...unitStanding(group, fates, kindOf),
      tokens: estimateTokens(group.events.map(contentOf)),
      meterTokens: rows.reduce((sum, row) => sum + row.meterTokens, 0),
      now: { chars: rows.reduce((sum, row) => sum + row.now.chars, 0), meter: rows.reduce((sum, row) => sum + row.now.meter, 0) }
    };
  });
}
function previewSelection(units, selection) {
  const going = /* @__PURE__ */ new Set();
  const excluding = /* @__PURE__ */ new Set();
  const coming = /* @__PURE__ */ new Set();
  const changes = [];
  const changeUnits = [];
  let messages = 0;
  let tokens = 0;
  let inView = 0;
  const fromIndex = selection.from === null ? -1 : units.findIndex((u) => u.key === selection.from && selectable(u.state));
  const fromFolded = fromIndex !== -1 && units[fromIndex].state === "folded";
  for (let i = 0; i < units.length; i++) {
    const unit = units[i];
    if (selectable(unit.state)) {
      const onward = fromIndex !== -1 && i >= fromIndex && (unit.state === "current" || fromFolded);
      if (!onward && !selection.remove.has(unit.key)) continue;
      going.add(unit.key);
      messages += unit.rows.length;
      if (unit.state === "current") tokens += unit.tokens;
      if (i === fromIndex) {
        changes.push({ action: "deleteFrom", seq: unit.targetSeq });
        changeUnits.push(unit.key);
      } else if (!onward) {
        const exclude = selection.exclude?.has(unit.key) === true;
        if (exclude) {
          excluding.add(unit.key);
          inView += unit.rows.length;
        }
        changes.push({ action: exclude ? "exclude" : "delete", seq: unit.targetSeq });
        changeUnits.push(unit.key);
      }
    } else if (unit.restorable && selection.restore.has(unit.key)) {
      coming.add(unit.key);
      changes.push({ action: "restore", tombstoneSeq: unit.tombstoneSeq });
      changeUnits.push(unit.key);
    }
  }
  return { going, excluding, coming, messages, tokens, inView, back: coming.size, changes, changeUnits };
}

// src/client/editor/context-map.ts
function costNow(unit, basis) {
  if (unit.state !== "current") return 0;
  return unit.now[basis];
}
function contextFigure(units, preview, breakdown) {
  const basis = breakdown === void 0 ? "chars" : "meter";
  let sum = 0;
  let leaving = 0;
  let coming = 0;
  for (const unit of units) {
    const cost = costNow(unit, basis);
    sum += cost;
    if (preview.going.has(unit.key)) leaving += cost;
    if (preview.coming.has(unit.key)) coming += basis === "meter" ? unit.meterTokens : unit.tokens;
  }
  const now = breakdown === void 0 ? sum : breakdown.systemTokens + breakdown.toolsTokens + breakdown.messageTokens;
  return { basis, now, after: Math.max(0, now - leaving + coming) };
}
function shareOf(cost, now) {
  return now <= 0 ? 0 : Math.min(1, cost / now);
}
function orderUnits(units, order, basis) {
  if (order === "conversation") return units;
  const ranked = units.map((unit, index) => ({ unit, index, cost: costNow(unit, basis) }));
  ranked.sort((a, b) => b.cost - a.cost || a.index - b.index);
  return ranked.map((r) => r.unit);
}
function lastTurnOf(units) {
  let last = null;
  for (const unit of units) if (unit.turn !== null && (last === null || unit.turn > last)) last = unit.turn;
  return last;
}
function selectable2(unit, lastTurn) {
  return unit.state === "current" && (lastTurn === null || unit.turn !== lastTurn);
}
function toolOutputTokens(unit, basis) {
  let tokens = 0;
  for (const row of unit.rows) if (row.role === "tool") tokens += row.now[basis];
  return tokens;
}
function presetOldToolOutput(units, n) {
  const lastTurn = lastTurnOf(units);
  if (lastTurn === null) return [];
  return units.filter((u) => selectable2(u, lastTurn) && u.kind === "step" && u.turn !== null && u.turn <= lastTurn - n && u.rows.some((r) => r.role === "tool")).map((u) => u.key);
}
function presetLargeToolOutput(units, k, basis) {
  const lastTurn = lastTurnOf(units);
  return units.filter((u) => selectable2(u, lastTurn) && u.kind === "step" && u.rows.some((r) => r.role === "tool") && toolOutputTokens(u, basis) > k).map((u) => u.key);
}
function presetBeforeCompaction(units, compactionSeq) {
  if (compactionSeq === null) return [];
  const lastTurn = lastTurnOf(units);
  return units.filter((u) => selectable2(u, lastTurn) && (u.rows[0]?.seq ?? Infinity) < compactionSeq).map((u) => u.key);
}
function lastCompactionSeq(log) {
  for (let i = log.length - 1; i >= 0; i--) {
    const event = log[i];
    if (event.type === "user/message" && readReplaceOp(event.surfaceOp) !== null && classifyNode(event) === "checkpoint") return event.seq;
  }
  return null;
}

// src/client/editor/editor-history.ts
function useEditorHistory(fetchImpl, sessionId, running, replacementCount) {
  const [load, setLoad] = (0, import_react11.useState)({ status: "loading" });
  const [historyRead, setHistoryRead] = (0, import_react11.useState)(0);
  (0, import_react11.useEffect)(() => {
    let live = true;
    readWholeHistory(fetchImpl, sessionId).then(
      (events) => live && setLoad({ status: "ready", units: buildEditorUnits(events), lastSeq: events.at(-1)?.seq ?? -1, compactionSeq: lastCompactionSeq(events) }),
      (error) => live && setLoad({ status: "failed", message: errorText(error) })
    );
    return () => {
      live = false;
    };
  }, [fetchImpl, sessionId, historyRead]);
  const seen = (0, import_react11.useRef)({ running, replacementCount });
  (0, import_react11.useEffect)(() => {
    const before = seen.current;
    if (before.running && !running || before.replacementCount !== replacementCount) setHistoryRead((n) => n + 1);
    seen.current = { running, replacementCount };
  }, [running, replacementCount]);
  const reread = (0, import_react11.useRef)(() => setHistoryRead((n) => n + 1)).current;
  return { load, reread };
}

// src/client/editor/list-window.ts
var import_react12 = require("react");
var UNIT_HEIGHT = 76;
var REFUSED_UNIT_HEIGHT = 100;
var HEADING_HEIGHT = 30;
var OVERSCAN_ITEMS = 12;
var DEFAULT_VIEWPORT = 800;
function offsetsOf(heights) {
  const offsets = new Array(heights.length + 1);
  offsets[0] = 0;
  for (let i = 0; i < heights.length; i++) offsets[i + 1] = offsets[i] + heights[i];
  return offsets;
}
function itemAt(offsets, y) {
  let lo = 0;
  let hi = offsets.length - 1;
  while (lo < hi) {
    const mid = lo + hi >> 1;
    if (offsets[mid + 1] <= y) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
function listWindow(offsets, scrollTop, viewport, overscan = OVERSCAN_ITEMS) {
  const count = offsets.length - 1;
  if (count <= 0) return { start: 0, end: 0, before: 0, after: 0 };
  const first = itemAt(offsets, Math.max(0, scrollTop));
  const last = itemAt(offsets, Math.max(0, scrollTop + viewport - 1));
  const start = Math.max(0, first - overscan);
  const end = Math.min(count, last + 1 + overscan);
  return { start, end, before: offsets[start], after: offsets[count] - offsets[end] };
}
function useScrollPosition(list) {
  const [position, setPosition] = (0, import_react12.useState)({ scrollTop: 0, viewport: DEFAULT_VIEWPORT });
  const read = (0, import_react12.useCallback)(() => {
    const el = list.current;
    if (el === null) return;
    const next = { scrollTop: el.scrollTop, viewport: el.clientHeight > 0 ? el.clientHeight : DEFAULT_VIEWPORT };
    setPosition((p) => p.scrollTop === next.scrollTop && p.viewport === next.viewport ? p : next);
  }, [list]);
  (0, import_react12.useLayoutEffect)(read);
  (0, import_react12.useEffect)(() => {
    const el = list.current;
    if (el === null) return;
    let frame = 0;
    const onScroll = () => {
      if (frame !== 0) return;
      frame = requestAnimationFrame(() => {
        frame = 0;
        read();
      });
    };
    el.addEventListener("scroll", onScroll, { passive: true });
    return () => {
      el.removeEventListener("scroll", onScroll);
      if (frame !== 0) cancelAnimationFrame(frame);
    };
  });
  const scrollTo = (0, import_react12.useCallback)((y) => {
    const el = list.current;
    if (el === null) return;
    el.scrollTop = y;
    read();
  }, [list, read]);
  return { ...position, scrollTo };
}

// src/client/editor/EditorModal.tsx
var import_jsx_runtime6 = require("react/jsx-runtime");
var DEFAULT_PRESET_TURNS = 2;
var DEFAULT_PRESET_TOKENS = 1e3;
function toggled(set, key2) {
  const next = new Set(set);
  if (!next.delete(key2)) next.add(key2);
  return next;
}
function without(set, key2) {
  const next = new Set(set);
  next.delete(key2);
  return next;
}
function wholeNumber(text, min, fallback) {
  const value = Number(text);
  return Number.isSafeInteger(value) && value >= min ? value : fallback;
}
var UnitItem = (0, import_react13.memo)(function UnitItem2({ unit, turnLabel, going, excluding, coming, onward, from, cost, refusal, t, actions }) {
  const text = unit.rows.map((r) => r.text).find((s) => s !== "") ?? "";
  const ref = (0, import_react13.useCallback)((el) => actions.register(unit.key, el), [actions, unit.key]);
  const current = selectable(unit.state);
  return /* @__PURE__ */ (0, import_jsx_runtime6.jsxs)("li", { "data-editor-unit": unit.key, "data-editor-refused": refusal === null ? void 0 : "", "data-editor-state": unit.state, "data-editor-preview": excluding ? "excluding" : going ? "going" : coming ? "coming" : "", children: [
    current && /* @__PURE__ */ (0, import_jsx_runtime6.jsx)(
      "button",
      {
        type: "button",
        ref,
        "aria-pressed": going,
        disabled: onward,
        "data-editor-select": "",
        "aria-label": t(unit.kind === "prompt" ? "select.prompt" : "select.step", { text }),
        onClick: () => actions.toggleRemove(unit.key),
        children: going ? "☑" : "☐"
      }
    ),
    !current && unit.restorable && /* @__PURE__ */ (0, import_jsx_runtime6.jsx)(
      "button",
      {
        type: "button",
        ref,
        "aria-pressed": coming,
        "data-editor-restore": "",
        "aria-label": t("restore.label", { text }),
        onClick: () => actions.toggleRestore(unit.key),
        children: t("restore")
      }
    ),
    /* @__PURE__ */ (0, import_jsx_runtime6.jsx)("div", { "data-editor-rows": "", children: unit.rows.map((row) => /* @__PURE__ */ (0, import_jsx_runtime6.jsxs)("p", { "data-editor-row": row.seq, "data-editor-role": row.role, children: [
      /* @__PURE__ */ (0, import_jsx_runtime6.jsx)("span", { "data-editor-role-label": "", children: t(`role.${row.role}`) }),
      " ",
      /* @__PURE__ */ (0, import_jsx_runtime6.jsx)("span", { "data-editor-text": "", children: row.text })
    ] }, row.seq)) }),
    /* @__PURE__ */ (0, import_jsx_runtime6.jsxs)("span", { "data-editor-meta": "", children: [
      turnLabel !== null && /* @__PURE__ */ (0, import_jsx_runtime6.jsx)("span", { "data-editor-unit-turn": "", children: turnLabel }),
      /* @__PURE__ */ (0, import_jsx_runtime6.jsx)("span", { "data-editor-cost": "", children: cost })
    ] }),
    unit.state !== "current" && /* @__PURE__ */ (0, import_jsx_runtime6.jsx)("span", { "data-editor-state-label": "", children: t(`state.${unit.state}`) }),
    current && /* @__PURE__ */ (0, import_jsx_runtime6.jsx)(
      "button",
      {
        type: "button",
        "aria-pressed": excluding,
        disabled: onward || from,
        "data-editor-exclude": "",
        "aria-label": t("exclude.label", { text }),
        onClick: () => actions.toggleExclude(unit.key),
        children: t("exclude")
      }
    ),
    current && /* @__PURE__ */ (0, import_jsx_runtime6.jsx)(
      "button",
      {
        type: "button",
        "aria-pressed": from,
        "data-editor-from": "",
        "aria-label": t("from.label", { text }),
        onClick: () => actions.toggleFrom(unit.key),
        children: t("from")
      }
    ),
    refusal !== null && /* @__PURE__ */ (0, import_jsx_runtime6.jsx)("p", { role: "alert", "data-editor-refusal": refusal.code, children: refusal.text })
  ] });
});
function listLayout(shown, order, turnLabel, refusedKey) {
  const items = [];
  let lastTurn;
  for (const unit of shown) {
    if (order === "conversation" && unit.turn !== lastTurn) items.push({ heading: turnLabel(unit), key: `h-${unit.key}` });
    lastTurn = unit.turn;
    items.push({ unit, key: unit.key });
  }
  return {
    items,
    itemIndex: new Map(items.map((item, i) => [item.key, i])),
    offsets: offsetsOf(items.map((item) => "heading" in item ? HEADING_HEIGHT : item.key === refusedKey ? REFUSED_UNIT_HEIGHT : UNIT_HEIGHT)),
    focusOrder: shown.filter((u) => selectable(u.state) || u.restorable).map((u) => u.key)
  };
}
function EditorModal({ sessionId, running, replacementCount, breakdown, locale, kit, onClose }) {
  const { t } = kit;
  const { load, reread } = useEditorHistory(kit.fetch, sessionId, running, replacementCount);
  const [selection, setSelection] = (0, import_react13.useState)(EMPTY_SELECTION);
  const [order, setOrder] = (0, import_react13.useState)("conversation");
  const [turnsText, setTurnsText] = (0, import_react13.useState)(String(DEFAULT_PRESET_TURNS));
  const [tokensText, setTokensText] = (0, import_react13.useState)(String(DEFAULT_PRESET_TOKENS));
  const controls = (0, import_react13.useRef)(/* @__PURE__ */ new Map());
  const dialog = (0, import_react13.useRef)(null);
  const units = load.status === "ready" ? load.units : [];
  const preview = (0, import_react13.useMemo)(() => previewSelection(units, selection), [units, selection]);
  const { refusal, checking, planned } = usePlanCheck(kit.send, sessionId, preview, load.status === "ready" ? load.lastSeq : -1);
  const { applying, applyError, apply: apply2, armed, rewriting, cancel, rewrite } = useEditorApply({
    send: kit.send,
    sessionId,
    unsaved: kit.unsaved(sessionId),
    preview,
    lastSeq: load.status === "ready" ? load.lastSeq : null,
    planned,
    enabled: load.status === "ready" && preview.changes.length > 0 && !running && refusal === null,
    reread,
    onClose
  });
  const canApply = load.status === "ready" && preview.changes.length > 0 && !running && !applying && refusal === null;
  const figure = (0, import_react13.useMemo)(() => contextFigure(units, preview, breakdown), [units, preview, breakdown]);
  const basis = figure.basis;
  const largest = (0, import_react13.useMemo)(() => orderUnits(units, "largest", basis), [units, basis]);
  const shown = order === "largest" ? largest : units;
  const costs = (0, import_react13.useMemo)(() => new Map(units.map((unit) => {
    const tokens = costNow(unit, basis);
    return [unit.key, costText(t, locale, { tokens, share: shareOf(tokens, figure.now), inContext: unit.state === "current", folded: unit.state === "folded" })];
  })), [units, basis, figure.now, t, locale]);
  const turnLabel = (0, import_react13.useCallback)((unit) => unit.turn === null ? t("beforeTurns") : t("turn", { turn: unit.turn }), [t]);
  const problem = applyError ?? refusal;
  const refusedKey = problem?.unit ?? null;
  const layouts = (0, import_react13.useMemo)(() => /* @__PURE__ */ new Map(), [units, largest, turnLabel, refusedKey]);
  let layout = layouts.get(order);
  if (layout === void 0) {
    layout = listLayout(shown, order, turnLabel, refusedKey);
    layouts.set(order, layout);
  }
  const { items, itemIndex, offsets, focusOrder } = layout;
  useFirstFocus(load.status === "ready", () => controls.current.get(focusOrder[0] ?? ""), dialog);
  const list = (0, import_react13.useRef)(null);
  const position = useScrollPosition(list);
  const view = listWindow(offsets, position.scrollTop, position.viewport);
  const [pendingFocus, setPendingFocus] = (0, import_react13.useState)(null);
  (0, import_react13.useEffect)(() => {
    if (pendingFocus === null) return;
    const control = controls.current.get(pendingFocus);
    if (control !== void 0) {
      control.focus();
      setPendingFocus(null);
    }
  });
  const focusUnit = (key2) => {
    const control = controls.current.get(key2);
    const index = itemIndex.get(key2);
    if (index === void 0) return;
    const top = offsets[index];
    const visible = top >= position.scrollTop && offsets[index + 1] <= position.scrollTop + position.viewport;
    if (control !== void 0 && visible) {
      control.focus();
      return;
    }
    if (!visible) position.scrollTo(Math.max(0, top - (position.viewport - UNIT_HEIGHT) / 2));
    if (control !== void 0) control.focus();
    else setPendingFocus(key2);
  };
  const actions = (0, import_react13.useRef)({
    toggleRemove: (key2) => setSelection((s) => s.remove.has(key2) ? { ...s, remove: without(s.remove, key2), exclude: without(s.exclude, key2) } : { ...s, remove: toggled(s.remove, key2) }),
    toggleExclude: (key2) => setSelection((s) => ({ ...s, remove: new Set(s.remove).add(key2), exclude: toggled(s.exclude ?? /* @__PURE__ */ new Set(), key2) })),
    toggleFrom: (key2) => setSelection((s) => ({ ...s, from: s.from === key2 ? null : key2 })),
    toggleRestore: (key2) => setSelection((s) => ({ ...s, restore: toggled(s.restore, key2) })),
    register: (key2, el) => {
      if (el) controls.current.set(key2, el);
      else controls.current.delete(key2);
    }
  }).current;
  const excludable = (0, import_react13.useMemo)(() => {
    const changed = new Set(preview.changeUnits);
    return [...selection.remove].filter((key2) => preview.going.has(key2) && changed.has(key2) && key2 !== selection.from);
  }, [preview, selection]);
  const allExcluded = excludable.length > 0 && excludable.every((key2) => preview.excluding.has(key2));
  const toggleExcludeAll = () => setSelection((s) => ({ ...s, exclude: allExcluded ? /* @__PURE__ */ new Set() : /* @__PURE__ */ new Set([...s.exclude ?? [], ...excludable]) }));
  const select = (keys) => setSelection((s) => ({ ...s, remove: /* @__PURE__ */ new Set([...s.remove, ...keys]) }));
  const turnsN = wholeNumber(turnsText, 1, DEFAULT_PRESET_TURNS);
  const tokensK = wholeNumber(tokensText, 0, DEFAULT_PRESET_TOKENS);
  const onKeyDown = (event) => {
    const inField = event.target.tagName === "INPUT";
    if (event.key === "Escape") {
      event.preventDefault();
      if (!cancel()) onClose(false);
    } else if (event.key === "Enter" && !inField) {
      event.preventDefault();
      void apply2();
    } else if (event.key === "Tab") {
      const target = dialog.current === null ? null : trapTab(dialog.current, event.shiftKey);
      if (target !== null) {
        event.preventDefault();
        target.focus();
      }
    } else if ((event.key === "ArrowDown" || event.key === "ArrowUp") && !inField) {
      event.preventDefault();
      const at = focusOrder.findIndex((key3) => controls.current.get(key3)?.closest("li")?.contains(event.target));
      const key2 = arrowTarget(focusOrder, at, event.key === "ArrowDown");
      if (key2 !== void 0) focusUnit(key2);
    }
  };
  const problemText = problem === null ? "" : problem.detail !== void 0 && applyError !== null ? t("rewriteFailed", { reason: describeError(kit.tRecall, problem.code), detail: problem.detail }) : problem.code === "CANCELLED" ? describeError(kit.tRecall, problem.code) : t(applyError !== null ? "applyFailed" : "refused", { reason: describeError(kit.tRecall, problem.code) });
  return /* @__PURE__ */ (0, import_jsx_runtime6.jsx)("div", { "data-message-recall-editor-backdrop": "", children: /* @__PURE__ */ (0, import_jsx_runtime6.jsxs)("div", { ref: dialog, role: "dialog", "aria-modal": "true", "aria-labelledby": "dsh-message-recall-editor-title", tabIndex: -1, "data-message-recall-editor": "", onKeyDown, children: [
    /* @__PURE__ */ (0, import_jsx_runtime6.jsx)("h2", { id: "dsh-message-recall-editor-title", children: t("title") }),
    /* @__PURE__ */ (0, import_jsx_runtime6.jsx)("p", { "data-editor-keys": "", children: t("keys") }),
    load.status === "loading" && /* @__PURE__ */ (0, import_jsx_runtime6.jsx)("p", { role: "status", children: t("loading") }),
    load.status === "failed" && /* @__PURE__ */ (0, import_jsx_runtime6.jsx)("p", { role: "alert", children: t("loadFailed", { message: load.message }) }),
    load.status === "ready" && units.length === 0 && /* @__PURE__ */ (0, import_jsx_runtime6.jsx)("p", { children: t("empty") }),
    load.status === "ready" && units.length > 0 && /* @__PURE__ */ (0, import_jsx_runtime6.jsxs)(import_jsx_runtime6.Fragment, { children: [
      /* @__PURE__ */ (0, import_jsx_runtime6.jsx)("p", { "data-editor-context": "", "data-editor-basis": basis, "aria-live": "polite", children: contextText(t, locale, figure) }),
      /* @__PURE__ */ (0, import_jsx_runtime6.jsxs)("div", { "data-editor-tools": "", children: [
        /* @__PURE__ */ (0, import_jsx_runtime6.jsx)(
          "button",
          {
            type: "button",
            "data-editor-sort": "",
            "aria-pressed": order === "largest",
            "aria-label": t("sort.label"),
            onClick: () => setOrder((o) => o === "largest" ? "conversation" : "largest"),
            children: t("sort")
          }
        ),
        /* @__PURE__ */ (0, import_jsx_runtime6.jsx)(
          "button",
          {
            type: "button",
            "data-editor-exclude-all": "",
            "aria-pressed": allExcluded,
            disabled: excludable.length === 0,
            "aria-label": t("excludeAll.label"),
            onClick: toggleExcludeAll,
            children: t("excludeAll")
          }
        )
      ] }),
      /* @__PURE__ */ (0, import_jsx_runtime6.jsxs)("div", { "data-editor-presets": "", role: "group", "aria-label": t("presets"), children: [
        /* @__PURE__ */ (0, import_jsx_runtime6.jsxs)("label", { "data-editor-preset-field": "", children: [
          t("preset.n"),
          " ",
          /* @__PURE__ */ (0, import_jsx_runtime6.jsx)("input", { type: "number", min: 1, step: 1, value: turnsText, "data-editor-preset-turns": "", onChange: (e) => setTurnsText(e.currentTarget.value) })
        ] }),
        /* @__PURE__ */ (0, import_jsx_runtime6.jsx)("button", { type: "button", "data-editor-preset": "old", "aria-label": t("preset.old.label", { n: turnsN }), onClick: () => select(presetOldToolOutput(units, turnsN)), children: t("preset.old") }),
        /* @__PURE__ */ (0, import_jsx_runtime6.jsxs)("label", { "data-editor-preset-field": "", children: [
          t("preset.k"),
          " ",
          /* @__PURE__ */ (0, import_jsx_runtime6.jsx)("input", { type: "number", min: 0, step: 1, value: tokensText, "data-editor-preset-tokens": "", onChange: (e) => setTokensText(e.currentTarget.value) })
        ] }),
        /* @__PURE__ */ (0, import_jsx_runtime6.jsx)("button", { type: "button", "data-editor-preset": "large", "aria-label": t("preset.large.label", { k: tokensK }), onClick: () => select(presetLargeToolOutput(units, tokensK, basis)), children: t("preset.large") }),
        /* @__PURE__ */ (0, import_jsx_runtime6.jsx)(
          "button",
          {
            type: "button",
            "data-editor-preset": "compaction",
            "aria-label": t("preset.compaction.label"),
            disabled: load.compactionSeq === null,
            onClick: () => select(presetBeforeCompaction(units, load.compactionSeq)),
            children: t("preset.compaction")
          }
        )
      ] }),
      /* @__PURE__ */ (0, import_jsx_runtime6.jsxs)("ol", { ref: list, "data-editor-units": "", "data-editor-order": order, "data-editor-count": units.length, children: [
        view.before > 0 && /* @__PURE__ */ (0, import_jsx_runtime6.jsx)("li", { "data-editor-spacer": "", "aria-hidden": "true", style: { height: view.before } }, "spacer-before"),
        items.slice(view.start, view.end).map((item) => {
          if ("heading" in item) return /* @__PURE__ */ (0, import_jsx_runtime6.jsx)("li", { "data-editor-turn": "", "aria-hidden": "true", children: item.heading }, item.key);
          const unit = item.unit;
          const going = preview.going.has(unit.key);
          return /* @__PURE__ */ (0, import_jsx_runtime6.jsx)(
            UnitItem,
            {
              unit,
              turnLabel: order === "largest" ? turnLabel(unit) : null,
              going,
              excluding: preview.excluding.has(unit.key),
              coming: preview.coming.has(unit.key),
              onward: selection.from !== null && going && !selection.remove.has(unit.key) && selection.from !== unit.key,
              from: selection.from === unit.key,
              cost: costs.get(unit.key) ?? "",
              refusal: problem !== null && problem.unit === unit.key ? { code: problem.code, text: problemText } : null,
              t,
              actions
            },
            unit.key
          );
        }),
        view.after > 0 && /* @__PURE__ */ (0, import_jsx_runtime6.jsx)("li", { "data-editor-spacer": "", "aria-hidden": "true", style: { height: view.after } }, "spacer-after")
      ] })
    ] }),
    problem !== null && problem.unit === null && /* @__PURE__ */ (0, import_jsx_runtime6.jsx)("p", { role: "alert", "data-editor-refusal": problem.code, children: problemText }),
    /* @__PURE__ */ (0, import_jsx_runtime6.jsx)("p", { "data-editor-counter": "", "aria-live": "polite", children: counterText(t, locale, preview) }),
    rewrite !== null && preview.changes.length > 0 && /* @__PURE__ */ (0, import_jsx_runtime6.jsx)("p", { "data-editor-rewrite": "", children: rewriteText(t, locale, rewrite) }),
    rewriting && /* @__PURE__ */ (0, import_jsx_runtime6.jsxs)("p", { "data-editor-rewriting": "", role: "status", children: [
      t("rewriting"),
      " ",
      /* @__PURE__ */ (0, import_jsx_runtime6.jsx)("button", { type: "button", "data-editor-cancel": "", "aria-label": t("cancel.label"), onClick: () => cancel(), children: t("cancel") })
    ] }),
    running && /* @__PURE__ */ (0, import_jsx_runtime6.jsx)("p", { id: "dsh-message-recall-editor-busy", "data-editor-busy": "", role: "status", children: t("busy") }),
    checking && !running && /* @__PURE__ */ (0, import_jsx_runtime6.jsx)("p", { "data-editor-checking": "", role: "status", children: t("checking") }),
    /* @__PURE__ */ (0, import_jsx_runtime6.jsxs)("div", { "data-editor-actions": "", children: [
      /* @__PURE__ */ (0, import_jsx_runtime6.jsx)("button", { type: "button", "data-editor-discard": "", onClick: () => {
        cancel();
        onClose(false);
      }, children: t("discard") }),
      /* @__PURE__ */ (0, import_jsx_runtime6.jsx)("button", { type: "button", "data-editor-apply": "", "data-editor-armed": armed ? "" : void 0, disabled: !canApply, "aria-describedby": running ? "dsh-message-recall-editor-busy" : void 0, onClick: () => void apply2(), children: applyText(t, locale, armed && rewrite !== null ? rewrite.tokens : null) })
    ] })
  ] }) });
}

// src/client/editor/editor-styles.ts
var EDITOR_CSS = `
[data-message-recall-editor-backdrop] { position: fixed; inset: 0; z-index: 1000; display: flex; align-items: center; justify-content: center; background: rgba(0,0,0,.35); }
[data-message-recall-editor] { background: var(--dsw-specific-menu, var(--dsw-alias-bg-base, #fff)); color: var(--dsw-alias-label-primary, #222); width: min(760px, 94vw); max-height: 86vh; display: flex; flex-direction: column; gap: 8px; padding: 16px 18px; box-sizing: border-box; border-radius: 12px; border: 1px solid var(--dsw-alias-border-inverted, rgba(0,0,0,.12)); box-shadow: var(--dsw-shadow-lv3, 0 8px 32px rgba(0,0,0,.3)); outline: none; font-size: 13px; line-height: 20px; }
[data-message-recall-editor] h2 { margin: 0; font-size: 16px; line-height: 24px; font-weight: 600; }
[data-message-recall-editor] [data-editor-keys] { margin: 0; font-size: 12px; color: var(--dsw-alias-label-secondary, #666); }
[data-message-recall-editor] ol { list-style: none; margin: 0; padding: 0; overflow: auto; flex: 1; }
[data-message-recall-editor] li[data-editor-turn] { font-size: 12px; line-height: 20px; font-weight: 600; color: var(--dsw-alias-label-secondary, #666); margin: 0; padding: 8px 0 2px; height: 30px; box-sizing: border-box; contain: strict; }
[data-message-recall-editor] li[data-editor-unit] { display: flex; gap: 8px; align-items: flex-start; padding: 4px 6px; border-radius: 8px; height: 76px; box-sizing: border-box; overflow: hidden; contain: strict; }
[data-message-recall-editor] li[data-editor-unit][data-editor-refused] { height: 100px; flex-wrap: wrap; }
[data-message-recall-editor] li[data-editor-spacer] { margin: 0; padding: 0; }
[data-message-recall-editor] li[data-editor-unit]:hover, [data-message-recall-editor] li[data-editor-unit]:focus-within { background: var(--dsw-alias-interactive-bg-hover, rgba(0,0,0,.04)); }
[data-message-recall-editor] [data-editor-rows] { flex: 1; min-width: 0; }
[data-message-recall-editor] li[data-editor-unit] > [data-editor-rows]:first-child { margin-left: 32px; }
[data-message-recall-editor] [data-editor-busy], [data-message-recall-editor] [data-editor-checking] { margin: 0; font-size: 12px; color: var(--dsw-alias-label-secondary, #666); }
[data-message-recall-editor] [data-editor-rows] { max-height: 60px; overflow: hidden; }
[data-message-recall-editor] [data-editor-rows] p { margin: 0; white-space: nowrap; overflow: hidden; text-overflow: ellipsis; }
[data-message-recall-editor] [data-editor-role-label] { font-weight: 600; font-size: 12px; color: var(--dsw-alias-label-secondary, #666); }
[data-message-recall-editor] [data-editor-state-label] { font-size: 12px; color: var(--dsw-alias-label-secondary, #666); white-space: nowrap; }
[data-message-recall-editor] li[data-editor-state="removed"] [data-editor-rows], [data-message-recall-editor] li[data-editor-state="excluded"] [data-editor-rows] { text-decoration: line-through; opacity: .6; }
[data-message-recall-editor] li[data-editor-preview="going"] [data-editor-rows] { text-decoration: line-through; color: #c62828; }
[data-message-recall-editor] li[data-editor-preview="coming"] [data-editor-rows] { text-decoration: none; color: #2e7d32; opacity: 1; }
[data-message-recall-editor] li[data-editor-preview="excluding"] [data-editor-rows] { text-decoration: none; opacity: .45; }
[data-message-recall-editor] [data-editor-context] { margin: 0; font-weight: 600; font-variant-numeric: tabular-nums; }
[data-message-recall-editor] [data-editor-tools], [data-message-recall-editor] [data-editor-presets] { display: flex; flex-wrap: wrap; gap: 6px; align-items: center; font-size: 12px; }
[data-message-recall-editor] [data-editor-presets] input { width: 5em; font: inherit; padding: 1px 4px; border-radius: 6px; border: 1px solid var(--dsw-alias-border-l2, rgba(0,0,0,.12)); background: transparent; color: inherit; }
[data-message-recall-editor] [data-editor-sort][aria-pressed="true"], [data-message-recall-editor] [data-editor-exclude-all][aria-pressed="true"] { border-color: var(--dsw-alias-state-business-primary, #4d6bfe); color: var(--dsw-alias-state-business-primary, #4d6bfe); }
[data-message-recall-editor] [data-editor-meta] { flex: none; width: 13em; text-align: right; }
[data-message-recall-editor] [data-editor-cost], [data-message-recall-editor] [data-editor-unit-turn] { display: block; font-size: 12px; color: var(--dsw-alias-label-secondary, #666); font-variant-numeric: tabular-nums; }
[data-message-recall-editor] [data-editor-exclude] { flex: none; border-color: transparent; color: var(--dsw-alias-label-secondary, #666); }
[data-message-recall-editor] [data-editor-exclude][aria-pressed="true"] { border-color: #8a6d00; color: #8a6d00; }
[data-message-recall-editor] [data-editor-refusal] { color: #c62828; margin: 2px 0 0; font-size: 12px; }
[data-message-recall-editor] li[data-editor-unit] > [data-editor-refusal] { flex-basis: 100%; margin-left: 32px; white-space: nowrap; overflow: hidden; text-overflow: ellipsis; }
[data-message-recall-editor] [data-editor-actions] { display: flex; justify-content: flex-end; gap: 8px; }
[data-message-recall-editor] [data-editor-counter] { margin: 0; font-weight: 600; }
[data-message-recall-editor] button { font: inherit; font-size: 12px; line-height: 18px; padding: 2px 10px; border-radius: 6px; cursor: pointer; white-space: nowrap; border: 1px solid var(--dsw-alias-border-l2, rgba(0,0,0,.12)); background: transparent; color: var(--dsw-alias-label-primary, #222); }
[data-message-recall-editor] button:hover:not(:disabled) { background: var(--dsw-alias-interactive-bg-hover, rgba(0,0,0,.06)); }
[data-message-recall-editor] button:focus-visible { outline: 2px solid var(--dsw-alias-state-business-primary, #4d6bfe); outline-offset: 1px; }
[data-message-recall-editor] button:disabled { opacity: .45; cursor: default; }
[data-message-recall-editor] [data-editor-select] { width: 24px; height: 24px; padding: 0; flex: none; display: inline-flex; align-items: center; justify-content: center; font-size: 14px; }
[data-message-recall-editor] [data-editor-select][aria-pressed="true"] { border-color: #c62828; color: #c62828; }
[data-message-recall-editor] [data-editor-from] { flex: none; border-color: transparent; color: var(--dsw-alias-label-secondary, #666); }
[data-message-recall-editor] [data-editor-from][aria-pressed="true"] { border-color: #c62828; color: #c62828; }
[data-message-recall-editor] [data-editor-restore] { flex: none; }
[data-message-recall-editor] [data-editor-restore][aria-pressed="true"] { border-color: #2e7d32; color: #2e7d32; }
[data-message-recall-editor] [data-editor-actions] button { font-size: 13px; line-height: 20px; padding: 5px 16px; border-radius: 8px; }
[data-message-recall-editor] [data-editor-actions] [data-editor-apply] { background: var(--dsw-alias-state-business-primary, #4d6bfe); border-color: var(--dsw-alias-state-business-primary, #4d6bfe); color: #fff; }
[data-message-recall-editor] [data-editor-actions] [data-editor-apply]:hover:not(:disabled) { background: var(--dsw-alias-state-business-primary, #4d6bfe); filter: brightness(1.08); }
`;

// src/client/editor/EditButton.tsx
var import_jsx_runtime7 = require("react/jsx-runtime");
var selectRunning2 = (s) => s.running;
var noProjection = () => void 0;
function readBreakdown(value) {
  if (typeof value !== "object" || value === null) return void 0;
  const { systemTokens, toolsTokens, messageTokens } = value;
  const whole = (n) => Number.isSafeInteger(n) && n >= 0;
  return whole(systemTokens) && whole(toolsTokens) && whole(messageTokens) ? { systemTokens, toolsTokens, messageTokens } : void 0;
}
function isEditorShortcut(event) {
  return event.altKey && event.shiftKey && !event.ctrlKey && !event.metaKey && event.code === "KeyE";
}
var openEditors = 0;
function EditButton({ sessionId, useSession, useProjection = noProjection, editorKit }) {
  const running = useSession(selectRunning2);
  const breakdown = readBreakdown(useProjection("contextBreakdown"));
  const replacements = useSession(selectReplacements);
  const locale = (0, import_react14.useSyncExternalStore)(editorKit.locale.subscribe, editorKit.locale.getSnapshot);
  const [open, setOpen] = (0, import_react14.useState)(false);
  const button = (0, import_react14.useRef)(null);
  (0, import_react14.useEffect)(() => {
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
  (0, import_react14.useEffect)(() => {
    if (!open) return;
    openEditors++;
    return () => {
      openEditors--;
    };
  }, [open]);
  const t = editorKit.t;
  return /* @__PURE__ */ (0, import_jsx_runtime7.jsxs)(import_jsx_runtime7.Fragment, { children: [
    /* @__PURE__ */ (0, import_jsx_runtime7.jsx)("button", { type: "button", ref: button, "data-message-recall-edit": "", "aria-haspopup": "dialog", "aria-label": t("button.label", { shortcut: EDITOR_SHORTCUT }), "aria-keyshortcuts": "Alt+Shift+E", onClick: () => setOpen(true), children: t("button") }),
    open && button.current !== null && (0, import_react_dom.createPortal)(
      /* @__PURE__ */ (0, import_jsx_runtime7.jsxs)(import_jsx_runtime7.Fragment, { children: [
        /* @__PURE__ */ (0, import_jsx_runtime7.jsx)("style", { children: EDITOR_CSS }),
        /* @__PURE__ */ (0, import_jsx_runtime7.jsx)(EditorModal, { sessionId, running, replacementCount: replacements.length, breakdown, locale: locale.active, kit: editorKit, onClose: () => {
          setOpen(false);
          button.current?.focus();
        } })
      ] }),
      button.current.ownerDocument.body
    )
  ] });
}

// src/client/trajectory/trajectory-rc8.ts
var ROW_KEY_ATTRIBUTE = "data-trajectory-row-key";
var ROW_SELECTOR = `tr[${ROW_KEY_ATTRIBUTE}]`;
var SELECTED_ROW_SELECTOR = `tr[${ROW_KEY_ATTRIBUTE}][data-selected="true"]`;
var INSPECTOR_SELECTOR = 'aside[aria-label="Event details"]';
var key = (...parts) => encodeURIComponent(parts.join("\0"));
function trajectoryRowKeys(event) {
  if (event.type === "user/message") return [key("user", "seq", event.seq), key("context", "seq", event.seq)];
  if (event.type === "assistant/message") {
    const step = stepOf(event);
    return step === null ? [] : [key("assistant", step.turn, step.step)];
  }
  if (event.type === "tool/result") {
    const callId = toolResultCallId(event);
    return callId === null ? [] : [key("tool", "call", callId)];
  }
  return [];
}

// src/client/trajectory/trajectory-decorate.ts
var INSPECTOR_MASKED = "data-message-recall-removed";
var INSPECTOR_NOTICE = "data-message-recall-notice";
var ROW_LABEL_KEPT = "data-message-recall-label";
var TRAJECTORY_STYLE = "data-message-recall-trajectory";
var STATIC_RULES = [
  `aside[${INSPECTOR_MASKED}] > :not([${INSPECTOR_NOTICE}]) { display: none !important; }`,
  `[${INSPECTOR_NOTICE}] { padding: 12px 14px; border-bottom: 1px solid var(--dsw-alias-border-l1); color: var(--dsw-alias-label-secondary); font: var(--dsw-font-xs-13); white-space: normal; }`,
  `[${INSPECTOR_NOTICE}] p { margin: 0; }`,
  `[${INSPECTOR_NOTICE}] button { margin-top: 8px; padding: 3px 10px; border: 1px solid var(--dsw-alias-border-l2); border-radius: 6px; background: var(--dsw-alias-bg-layer-1); color: var(--dsw-alias-label-primary); font: inherit; cursor: pointer; }`,
  `[${INSPECTOR_NOTICE}] button:focus-visible { outline: 2px solid var(--dsw-alias-state-business-primary); outline-offset: 1px; }`
];
function trajectoryStyleText(marks, texts) {
  const rules = [...STATIC_RULES];
  for (const [key2, mark] of marks) {
    const cell = `tr[${ROW_KEY_ATTRIBUTE}=${cssString(key2)}] > td:last-child`;
    if (mark.action !== "exclude") rules.push(`${cell} > * { display: none !important; }`);
    rules.push(`${cell} { position: relative; }`);
    rules.push(`${cell}::after { content: ${cssString(texts.row(mark))} !important; position: absolute; top: 0; bottom: 0; right: 8px; display: flex; align-items: center; padding-left: 8px; background: var(--dsw-alias-bg-layer-1); color: var(--dsw-alias-label-tertiary); font-style: italic; }`);
  }
  return rules.join("\n");
}
var TrajectoryDecorator = class {
  /** @param doc - the page's document. */
  constructor(doc) {
    this.doc = doc;
    this.style = doc.createElement("style");
    this.style.setAttribute(TRAJECTORY_STYLE, "");
    doc.head.appendChild(this.style);
    const View = doc.defaultView;
    this.observer = new (View?.MutationObserver ?? MutationObserver)(() => this.pass());
    this.observer.observe(doc.body, { childList: true, subtree: true, attributes: true, attributeFilter: ["data-selected", "aria-label"] });
  }
  marks = /* @__PURE__ */ new Map();
  texts;
  revealed = null;
  selected = null;
  /** True once a pass with no marks has put everything back: later DOM changes need no pass. */
  clean = false;
  style;
  observer;
  /**
   * Show another set of marks (a removal, a restore, another session, another language).
   * @param marks - row key → mark; empty to mark nothing.
   * @param texts - the labels.
   */
  update(marks, texts) {
    this.marks = marks;
    this.texts = texts;
    this.style.textContent = marks.size === 0 ? "" : trajectoryStyleText(marks, texts);
    this.pass();
  }
  /** Row labels and the inspector, as the marks say. Writes only what differs. */
  pass() {
    if (this.marks.size === 0 && this.clean) return;
    this.clean = this.marks.size === 0;
    const texts = this.texts;
    for (const row of this.doc.querySelectorAll(ROW_SELECTOR)) {
      const mark2 = this.marks.get(row.getAttribute(ROW_KEY_ATTRIBUTE) ?? "");
      if (mark2 !== void 0 && mark2.action !== "exclude" && texts !== void 0) {
        const label = texts.row(mark2);
        if (row.getAttribute("aria-label") === label) continue;
        if (!row.hasAttribute(ROW_LABEL_KEPT)) row.setAttribute(ROW_LABEL_KEPT, row.getAttribute("aria-label") ?? "");
        row.setAttribute("aria-label", label);
      } else if (row.hasAttribute(ROW_LABEL_KEPT)) {
        row.setAttribute("aria-label", row.getAttribute(ROW_LABEL_KEPT));
        row.removeAttribute(ROW_LABEL_KEPT);
      }
    }
    const inspector = this.doc.querySelector(INSPECTOR_SELECTOR);
    if (inspector === null) return;
    const key2 = this.doc.querySelector(SELECTED_ROW_SELECTOR)?.getAttribute(ROW_KEY_ATTRIBUTE) ?? null;
    if (key2 !== this.selected) {
      this.selected = key2;
      this.revealed = null;
    }
    const mark = key2 === null ? void 0 : this.marks.get(key2);
    const masked = mark !== void 0 && mark.action !== "exclude" && this.revealed !== key2;
    if (masked) {
      if (!inspector.hasAttribute(INSPECTOR_MASKED)) inspector.setAttribute(INSPECTOR_MASKED, "");
    } else if (inspector.hasAttribute(INSPECTOR_MASKED)) inspector.removeAttribute(INSPECTOR_MASKED);
    this.notice(inspector, mark === void 0 || texts === void 0 ? null : { text: texts.inspector(mark), button: masked ? texts.show : null });
  }
  notice(inspector, want) {
    let notice = inspector.querySelector(`:scope > [${INSPECTOR_NOTICE}]`);
    if (want === null) {
      notice?.remove();
      return;
    }
    if (notice === null) {
      notice = this.doc.createElement("div");
      notice.setAttribute(INSPECTOR_NOTICE, "");
      notice.setAttribute("role", "note");
      notice.appendChild(this.doc.createElement("p"));
      inspector.insertBefore(notice, inspector.firstChild);
    }
    const paragraph = notice.querySelector("p");
    if (paragraph.textContent !== want.text) paragraph.textContent = want.text;
    let button = notice.querySelector("button");
    if (want.button === null) {
      button?.remove();
      return;
    }
    if (button === null) {
      button = this.doc.createElement("button");
      button.type = "button";
      button.addEventListener("click", () => {
        this.revealed = this.selected;
        this.pass();
      });
      notice.appendChild(button);
    }
    if (button.textContent !== want.button) button.textContent = want.button;
  }
  /** Remove the style sheet, the notice and the observer. */
  dispose() {
    this.observer.disconnect();
    this.style.remove();
    const inspector = this.doc.querySelector(INSPECTOR_SELECTOR);
    inspector?.removeAttribute(INSPECTOR_MASKED);
    inspector?.querySelector(`:scope > [${INSPECTOR_NOTICE}]`)?.remove();
  }
};

// src/client/trajectory/trajectory-locales.ts
var TRAJECTORY_LOCALE_NS = "dsh-message-recall.trajectory";
var trajectoryZh = {
  "row.removed": "已由“{action}”移除 · {time}",
  "row.excluded": "已排除 · 不发送给模型",
  "inspector.removed": "这条事件已由“{action}”移除（{time}），内容已隐藏。",
  "inspector.excluded": "这条事件已排除（{time}）：它留在视图中，但不发送给模型。",
  "inspector.show": "显示已移除的内容"
};
var trajectoryEn = {
  "row.removed": "Removed by {action} · {time}",
  "row.excluded": "Excluded · not sent to the model",
  "inspector.removed": "Removed by {action} at {time}. Its content is hidden.",
  "inspector.excluded": "Excluded at {time}: it stays in view but is not sent to the model.",
  "inspector.show": "Show removed content"
};
var TRAJECTORY_DICTIONARIES = { zh: trajectoryZh, en: trajectoryEn };

// src/client/trajectory/TrajectoryMarks.tsx
var import_react15 = require("react");

// src/client/trajectory/trajectory-marks.ts
function trajectoryMarks(events) {
  const bySeq = new Map(events.map((event) => [event.seq, event]));
  const lookup = (seq) => bySeq.get(seq);
  const count = events.length === 0 ? 0 : events[events.length - 1].seq + 1;
  const marks = /* @__PURE__ */ new Map();
  for (const status of readFates(replacementEvents(count, lookup)).statuses().values()) {
    if (!status.inEffect) continue;
    const tombstone = lookup(status.seq);
    const record = readTombstone(tombstone);
    if (record === null) continue;
    for (const seq of record.shadowedSeqs) {
      const event = lookup(seq);
      if (event === void 0) continue;
      for (const rowKey of trajectoryRowKeys(event)) {
        if (!marks.has(rowKey)) marks.set(rowKey, { seq, tombstoneSeq: record.seq, action: record.action, time: tombstone.time ?? 0 });
      }
    }
  }
  return marks;
}
function markTime(time) {
  const d = new Date(time);
  const two = (n) => String(n).padStart(2, "0");
  return `${d.getFullYear()}-${two(d.getMonth() + 1)}-${two(d.getDate())} ${two(d.getHours())}:${two(d.getMinutes())}`;
}

// src/client/trajectory/TrajectoryMarks.tsx
function markTexts(t, tRecall) {
  const params = (mark) => ({ action: tRecall(`action.${mark.action}`), time: markTime(mark.time) });
  return {
    row: (mark) => mark.action === "exclude" ? t("row.excluded") : t("row.removed", params(mark)),
    inspector: (mark) => mark.action === "exclude" ? t("inspector.excluded", params(mark)) : t("inspector.removed", params(mark)),
    show: t("inspector.show")
  };
}
function TrajectoryMarks({ sessionId, useSession, trajectoryKit: kit }) {
  const replacements = useSession(selectReplacements);
  const locale = (0, import_react15.useSyncExternalStore)(kit.locale.subscribe, kit.locale.getSnapshot);
  (0, import_react15.useEffect)(() => {
    const texts = markTexts(kit.t, kit.tRecall);
    if (!replacements.some(isTombstoneEvent)) {
      kit.decorator.update(/* @__PURE__ */ new Map(), texts);
      return void 0;
    }
    let current = true;
    readWholeHistory(kit.fetch, sessionId).then(
      (events) => {
        if (current) kit.decorator.update(trajectoryMarks(events), texts);
      },
      (error) => console.warn(`dsh-message-recall: Trajectory marks of session "${sessionId}" not updated: ${errorText(error)}`)
    );
    return () => {
      current = false;
    };
  }, [sessionId, replacements, locale, kit]);
  (0, import_react15.useEffect)(() => () => kit.decorator.update(/* @__PURE__ */ new Map(), markTexts(kit.t, kit.tRecall)), [kit]);
  return null;
}

// src/client/side-state/TodoStrip.tsx
var import_react16 = require("react");

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

// src/client/side-state/todo-list.ts
var TODO_WRITE = "todo/write";
function staleTodoList(events) {
  const bySeq = new Map(events.map((event) => [event.seq, event]));
  const lookup = (seq) => bySeq.get(seq);
  for (let i = events.length - 1; i >= 0; i--) {
    const event = events[i];
    if (event.type === "turn/start") return false;
    if (event.type !== TODO_WRITE) continue;
    const step = owningStep(event.seq, lookup);
    if (step === null) return false;
    const count = events[events.length - 1].seq + 1;
    return removedNodes(count, lookup).has(step);
  }
  return false;
}

// src/client/side-state/TodoStrip.tsx
var TODO_PANEL_SELECTOR = '[data-testid="todo-panel"]';
var TODO_STRIP_STYLE = "data-message-recall-todos";
var TodoStripHider = class {
  style;
  /** @param doc - the page's document. */
  constructor(doc) {
    this.style = doc.createElement("style");
    this.style.setAttribute(TODO_STRIP_STYLE, "");
    doc.head.appendChild(this.style);
  }
  /**
   * Hide or show the strip.
   * @param hidden - true while the strip's list came only from removed steps.
   */
  set(hidden) {
    const text = hidden ? `${TODO_PANEL_SELECTOR} { display: none !important; }` : "";
    if (this.style.textContent !== text) this.style.textContent = text;
  }
  /** Remove the style sheet. */
  dispose() {
    this.style.remove();
  }
};
var selectRunning3 = (s) => s.running;
var noProjection2 = () => void 0;
function TodoStrip({ sessionId, useSession, useProjection = noProjection2, todoKit: kit }) {
  const replacements = useSession(selectReplacements);
  const running = useSession(selectRunning3);
  const todos = useProjection("todos");
  (0, import_react16.useEffect)(() => {
    if (running || !Array.isArray(todos) || todos.length === 0 || !replacements.some(isTombstoneEvent)) {
      kit.hider.set(false);
      return void 0;
    }
    let current = true;
    readWholeHistory(kit.fetch, sessionId).then(
      (events) => {
        if (current) kit.hider.set(staleTodoList(events));
      },
      (error) => console.warn(`dsh-message-recall: the To-dos strip of session "${sessionId}" was not checked: ${errorText(error)}`)
    );
    return () => {
      current = false;
    };
  }, [sessionId, replacements, running, todos, kit]);
  (0, import_react16.useEffect)(() => () => kit.hider.set(false), [kit]);
  return null;
}

// src/client/export/ExportButton.tsx
var import_react17 = require("react");

// src/shared/export-protocol.ts
var EXPORT_PATH_SUFFIX = "/export";
function exportUrl(routePath, sessionId) {
  return `${routePath}${EXPORT_PATH_SUFFIX}?${new URLSearchParams({ sessionId })}`;
}
function exportFilename(sessionId) {
  return `dsh-session-${sessionId.replace(/[^A-Za-z0-9_-]/g, "_")}-without-removed.zip`;
}

// src/client/export/download.ts
async function downloadExport(fetchImpl, doc, routePath, sessionId) {
  let res;
  try {
    res = await fetchImpl(exportUrl(routePath, sessionId), { method: "GET", headers: { accept: "application/zip" } });
  } catch {
    return { ok: false, code: "NETWORK" };
  }
  if (!res.ok) {
    const body = await res.json().catch(() => void 0);
    const code = body?.error?.code;
    return { ok: false, code: typeof code === "string" ? code : `HTTP_${res.status}` };
  }
  const blob = await res.blob();
  const file = exportFilename(sessionId);
  const view = doc.defaultView;
  const url = view.URL.createObjectURL(blob);
  const link = doc.createElement("a");
  link.href = url;
  link.download = file;
  link.style.display = "none";
  doc.body.appendChild(link);
  link.click();
  link.remove();
  view.setTimeout(() => view.URL.revokeObjectURL(url), 6e4);
  return { ok: true, file };
}

// src/client/export/export-locales.ts
var EXPORT_LOCALE_NS = "dsh-message-recall.export";
var exportZh = {
  "button": "日志（不含已移除）",
  "button.label": "会话日志（不含已移除消息）：下载 ZIP，已移除消息的内容不在其中（子代理会话和图片一并打包）",
  "preparing": "正在准备下载…",
  "started": "已开始下载 {file}",
  "error.AGENT_BUSY": "智能体正在工作，停下后再导出。",
  "error.SESSION_NOT_FOUND": "找不到这个会话的日志。",
  "error.EXPORT_UNAVAILABLE": "这个主机不能导出会话日志。",
  "error.other": "导出失败（{code}）。"
};
var exportEn = {
  "button": "Log without removed",
  "button.label": "Session log without removed messages: download a ZIP without the content of removed messages (subagent sessions and images included)",
  "preparing": "Preparing the download…",
  "started": "Download started: {file}",
  "error.AGENT_BUSY": "The agent is working. Export when it stops.",
  "error.SESSION_NOT_FOUND": "This session has no stored log.",
  "error.EXPORT_UNAVAILABLE": "This host cannot export session logs.",
  "error.other": "Export failed ({code})."
};
var EXPORT_DICTIONARIES = { zh: exportZh, en: exportEn };
function exportErrorKey(code) {
  return code === "AGENT_BUSY" || code === "SESSION_NOT_FOUND" || code === "EXPORT_UNAVAILABLE" ? `error.${code}` : "error.other";
}

// src/client/export/ExportButton.tsx
var import_jsx_runtime8 = require("react/jsx-runtime");
var STATUS_SHOWN_MS = 8e3;
var EXPORT_CSS = `[data-message-recall-export]{position:relative;display:inline-flex}
[data-message-recall-export]>button{border:1px solid var(--dsw-alias-border-l2,rgba(0,0,0,.12));height:32px;border-radius:18px;padding:6px 12px;
display:inline-flex;align-items:center;background:transparent;color:var(--dsw-alias-label-primary,#222);font:inherit;font-size:13px;line-height:20px;cursor:pointer;white-space:nowrap}
[data-message-recall-export]>button:hover{background:var(--dsw-alias-interactive-bg-hover,rgba(0,0,0,.06))}
[data-message-recall-export]>button:focus-visible{outline:2px solid var(--dsw-alias-state-business-primary,#4d6bfe);outline-offset:1px}
[data-message-recall-export]>button:disabled{opacity:.6;cursor:progress}
[data-message-recall-export-status]{position:absolute;top:calc(100% + 6px);right:0;z-index:100;width:max-content;max-width:360px;padding:6px 10px;border-radius:8px;
font-size:12px;line-height:18px;overflow-wrap:anywhere;background:var(--dsw-specific-menu,#fff);color:var(--dsw-alias-label-secondary,#444);
border:1px solid var(--dsw-alias-border-l2,rgba(0,0,0,.12));box-shadow:var(--dsw-shadow-lv2,0 2px 6px rgba(0,0,0,.12))}
[data-message-recall-export-status=failed]{color:var(--dsw-alias-state-error-primary,#d93025)}
[data-message-recall-export-status][hidden]{display:none}`;
function ExportButton({ sessionId, exportKit }) {
  const [status, setStatus] = (0, import_react17.useState)({ kind: "idle" });
  const t = exportKit.t;
  (0, import_react17.useEffect)(() => {
    if (status.kind !== "started" && status.kind !== "failed") return;
    const timer = setTimeout(() => setStatus({ kind: "idle" }), STATUS_SHOWN_MS);
    return () => clearTimeout(timer);
  }, [status]);
  const start = async (doc) => {
    setStatus({ kind: "preparing" });
    const outcome = await downloadExport(exportKit.fetch, doc, exportKit.path, sessionId);
    setStatus(outcome.ok ? { kind: "started", file: outcome.file } : { kind: "failed", code: outcome.code });
  };
  const text = status.kind === "preparing" ? t("preparing") : status.kind === "started" ? t("started", { file: status.file }) : status.kind === "failed" ? t(exportErrorKey(status.code), { code: status.code }) : "";
  return /* @__PURE__ */ (0, import_jsx_runtime8.jsxs)("span", { "data-message-recall-export": "", children: [
    /* @__PURE__ */ (0, import_jsx_runtime8.jsx)("style", { children: EXPORT_CSS }),
    /* @__PURE__ */ (0, import_jsx_runtime8.jsx)(
      "button",
      {
        type: "button",
        "aria-label": t("button.label"),
        title: t("button.label"),
        "aria-busy": status.kind === "preparing",
        disabled: status.kind === "preparing",
        onClick: (event) => void start(event.currentTarget.ownerDocument),
        children: t("button")
      }
    ),
    /* @__PURE__ */ (0, import_jsx_runtime8.jsx)("span", { role: "status", "data-message-recall-export-status": status.kind, hidden: text === "", children: text })
  ] });
}

// src/client/export/install.ts
var EXPORT_ENTRY_ID = "dsh-message-recall-export";
function installExportButton(ctx, fetchImpl, path) {
  ctx.effect(() => ctx.locale.register(EXPORT_LOCALE_NS, EXPORT_DICTIONARIES), "dsh-message-recall: export dictionaries");
  const exportKit = { t: ctx.locale.bind(EXPORT_LOCALE_NS), fetch: fetchImpl, path };
  ctx.slots.inject("conversation.session.header.utilities", () => ctx.slots.register({
    name: "conversation.session.header.utilities",
    id: EXPORT_ENTRY_ID,
    order: 110,
    locale: EXPORT_LOCALE_NS,
    inject: () => ({ exportKit })
  }, ExportButton));
}

// src/client/index.tsx
var name = "dsh-message-recall";
var inject = ["slots", "locale", "conversationEvents", "conversationViews"];
var OVERLAY_ENTRY_ID = "dsh-message-recall";
var REMOVED_ENTRY_ID = "dsh-message-recall-removed";
var SUMMARY_ENTRY_ID = "dsh-message-recall-summary";
var EDIT_ENTRY_ID = "dsh-message-recall-edit";
var TRAJECTORY_ENTRY_ID = "dsh-message-recall-trajectory";
var TODO_STRIP_ENTRY_ID = "dsh-message-recall-todos";
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
    const remove = installStyleSheets(doc);
    return () => {
      undecorateAll(doc);
      remove();
    };
  }, "dsh-message-recall: styles");
  ctx.effect(() => installDebugHook(globalThis, debug), "dsh-message-recall: debug hook");
  const locale = ctx.locale;
  const fetchImpl = (url, init) => globalThis.fetch(url, init);
  const send = createRecallSender(fetchImpl, path);
  const openSession = sessionOpener(() => ctx.get("sessions"));
  ctx.effect(() => {
    const sessions = ctx.get("sessions");
    if (sessions === void 0) return () => {
    };
    const keep = keepStoredSessionsListed(sessions);
    const relist = relistDroppedSessions(sessions);
    return () => {
      relist();
      keep();
    };
  }, "dsh-message-recall: stored sessions stay listed after a write");
  ctx.effect(() => installPromptRetry(globalThis), "dsh-message-recall: a prompt refused while a write holds its session is sent again");
  const unsaved = new SessionStores((sessionId) => new UnsavedWrites({ sessionId, send }));
  const tombstones = new SessionStores((sessionId) => new TombstoneActions({ sessionId, send, openSession, unsaved: unsaved.get(sessionId) }));
  const summaries = new SessionStores((sessionId) => new SummaryRefresh({ sessionId, send }));
  const erases = new SessionStores((sessionId) => new EraseRequests({ sessionId, send }));
  ctx.effect(() => () => {
    erases.dispose();
    tombstones.dispose();
    unsaved.dispose();
    summaries.dispose();
  }, "dsh-message-recall: restore and copy requests, unsaved writes, summary rewrites");
  const kit = {
    // Bound once: LocaleRuntime's methods read `this`, and useSyncExternalStore wants stable functions.
    locale: { subscribe: (listener) => locale.subscribe(listener), getSnapshot: () => locale.getSnapshot() },
    t: locale.bind(LOCALE_NS),
    send,
    debug,
    tombstones,
    unsaved,
    summaries,
    erases,
    images: pageImageSource((name2) => ctx.get(name2))
  };
  const entry = (seat, id, order, component) => ctx.slots.inject(seat, () => ctx.slots.register({
    name: seat,
    id,
    order,
    locale: LOCALE_NS,
    inject: () => ({ kit })
  }, component));
  entry("conversation.input.overlay", OVERLAY_ENTRY_ID, 100, RecallOverlay);
  entry("conversation.session.header.utilities", REMOVED_ENTRY_ID, 90, RemovedButton);
  entry("conversation.session.header.utilities", SUMMARY_ENTRY_ID, 95, SummaryButton);
  ctx.effect(() => ctx.locale.register(EDITOR_LOCALE_NS, EDITOR_DICTIONARIES), "dsh-message-recall: editor dictionaries");
  const editorKit = { locale: kit.locale, t: locale.bind(EDITOR_LOCALE_NS), tRecall: kit.t, send: kit.send, fetch: fetchImpl, unsaved: (sessionId) => unsaved.get(sessionId) };
  ctx.slots.inject("conversation.session.header.utilities", () => ctx.slots.register({
    name: "conversation.session.header.utilities",
    id: EDIT_ENTRY_ID,
    order: 100,
    locale: EDITOR_LOCALE_NS,
    inject: () => ({ editorKit })
  }, EditButton));
  ctx.effect(() => ctx.locale.register(TRAJECTORY_LOCALE_NS, TRAJECTORY_DICTIONARIES), "dsh-message-recall: Trajectory dictionaries");
  const decorator = { current: void 0 };
  ctx.effect(() => {
    decorator.current = new TrajectoryDecorator(globalThis.document);
    return () => decorator.current?.dispose();
  }, "dsh-message-recall: Trajectory marks");
  ctx.slots.inject("conversation.session.header.utilities", () => ctx.slots.register({
    name: "conversation.session.header.utilities",
    id: TRAJECTORY_ENTRY_ID,
    order: 110,
    locale: TRAJECTORY_LOCALE_NS,
    inject: () => ({ trajectoryKit: { decorator: decorator.current, fetch: fetchImpl, locale: kit.locale, t: locale.bind(TRAJECTORY_LOCALE_NS), tRecall: kit.t } })
  }, TrajectoryMarks));
  const hider = { current: void 0 };
  ctx.effect(() => {
    hider.current = new TodoStripHider(globalThis.document);
    return () => hider.current?.dispose();
  }, "dsh-message-recall: To-dos strip");
  ctx.slots.inject("conversation.session.header.utilities", () => ctx.slots.register({
    name: "conversation.session.header.utilities",
    id: TODO_STRIP_ENTRY_ID,
    order: 120,
    inject: () => ({ todoKit: { hider: hider.current, fetch: fetchImpl } })
  }, TodoStrip));
  installExportButton(ctx, (url, init) => globalThis.fetch(url, init), path);
}
return module.exports; } });
