#!/usr/bin/env node
import {
  eraseLogFile
} from "./chunk-V7GEYQTO.js";
import {
  rebuildCacheEntry
} from "./chunk-Z2QFDVMA.js";
import "./chunk-DEG42HNT.js";
import "./chunk-OKUGGFY4.js";
import "./chunk-PQVV6EUF.js";
import {
  collectEventImages,
  toolOutputPathsIn
} from "./chunk-V5F3LECS.js";
import "./chunk-MY2ZCKN5.js";
import "./chunk-QGGKDB3Q.js";
import "./chunk-2BN4JUMU.js";

// src/host/erase-session.ts
import { rm, stat } from "node:fs/promises";
import { join } from "node:path";

// src/host/refusals.ts
function noSessionMessage(sessionId) {
  return `message-recall: no session "${sessionId}" (neither open in this host nor stored)`;
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
      const object = sha === void 0 ? void 0 : join(attachmentRoot, "objects", sha.slice(0, 2), sha);
      if (object === void 0 || !await exists(object)) kept.push({ name: image, reason: "absent" });
      else {
        await rm(object, { force: true });
        deletedImages.push(image);
      }
    }
  }
  const deletedFiles = [];
  for (const path of erase.erasedFiles) {
    if (otherPaths.has(path)) kept.push({ name: path, reason: "referenced" });
    else if (!await exists(path)) kept.push({ name: path, reason: "absent" });
    else {
      await rm(path, { force: true });
      deletedFiles.push(path);
    }
  }
  return { deletedImages, deletedFiles, kept };
}
async function exists(path) {
  try {
    await stat(path);
    return true;
  } catch {
    return false;
  }
}
export {
  deleteSideFiles,
  eraseFailureText,
  eraseRemoval,
  notErasable
};
