#!/usr/bin/env node
import {
  UsageLineError
} from "./chunk-KEICUTLP.js";

// scripts/support/dsh-reader.ts
async function dshJsonlReader(compression) {
  let backend;
  try {
    backend = await import("@deepseek-ai/dsh-session-persistence-jsonl");
    await import("@deepseek-ai/dsh-session");
    await Promise.all([import("@deepseek-ai/cordis"), import("@deepseek-ai/dsh-invariants"), import("@deepseek-ai/dsh-llm"), import("@deepseek-ai/dsh-session/invariant"), import("@deepseek-ai/dsh-compaction/invariant"), import("@deepseek-ai/dsh-agent-loop/invariant")]);
  } catch {
    throw new UsageLineError("erase needs DSH 0.1.0-rc.8's packages (@deepseek-ai/dsh-session, @deepseek-ai/dsh-session-persistence-jsonl, @deepseek-ai/dsh-invariants, @deepseek-ai/dsh-compaction, @deepseek-ai/dsh-agent-loop); run it where they are installed");
  }
  return Object.create(backend.JsonlSessionPersistence.prototype, {
    compression: { value: compression },
    assertStoredIdentity: { value: async () => {
    } }
  });
}
export {
  dshJsonlReader
};
