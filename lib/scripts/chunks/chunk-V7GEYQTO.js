#!/usr/bin/env node
import {
  errorText
} from "./chunk-DEG42HNT.js";
import {
  sameJson
} from "./chunk-PQVV6EUF.js";
import {
  eraseRemovalInLog
} from "./chunk-V5F3LECS.js";
import {
  decodeLogBytes,
  encodeLogText,
  publishLogFile,
  readLogAndHeaderWithDsh,
  removeLeftovers,
  writeBeside
} from "./chunk-QGGKDB3Q.js";

// src/host/erase-log.ts
import { readFile, rm } from "node:fs/promises";

// src/host/erase-verify.ts
import { isDeepStrictEqual } from "node:util";
import { deriveEventMessage, foldSurface } from "@deepseek-ai/dsh-session";

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
    foldA = foldSurface(before);
  } catch (error) {
    return `the old log does not fold: ${errorText(error)}`;
  }
  const load = await loadUnderInvariants(id, after, header);
  if (!load.ok) return load.problem;
  const loaded = load.session;
  if (!isDeepStrictEqual([...foldA.nodes], [...loaded.surface.nodes])) return "the new log folds to another surface";
  if (foldA.replacements.length !== loaded.surface.replaceGeneration) return "the new log folds with other replacements";
  const derivedA = JSON.stringify(foldA.nodes.map((seq) => deriveEventMessage(before[seq])).filter((m) => m !== null).map(withoutEraseMark));
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
    await rm(newPath, { force: true });
    return { ok: false, code: "ERASE_NOT_VERIFIED", problem };
  }
  await publishLogFile(newPath, logPath);
  return { ok: true, value: erase, at: options.at };
}

export {
  eraseLogFile,
  replaceVerified
};
