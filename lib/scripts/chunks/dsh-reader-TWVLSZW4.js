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
  } catch {
    throw new UsageLineError("erase needs DSH 0.1.0-rc.8's packages (@deepseek-ai/dsh-session, @deepseek-ai/dsh-session-persistence-jsonl); run it where they are installed");
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
