#!/usr/bin/env node
import {
  syncDirectory
} from "./chunk-QGGKDB3Q.js";

// src/host/projection-cache-erase.ts
import { open, readFile, rename, rm } from "node:fs/promises";
import { randomBytes } from "node:crypto";
import { dirname, join } from "node:path";
var PROJECTION_CACHE_FILE = "session_projcache.json";
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
function cacheTextWithout(text, id) {
  const document = JSON.parse(text);
  if (document?.unit?.name !== "session_projcache") throw new Error("not a session_projcache file");
  const sessions = document.tables?.sessions;
  if (sessions === void 0 || !Object.hasOwn(sessions, id)) return null;
  delete sessions[id];
  return `${JSON.stringify(document, null, 2)}
`;
}
async function dropCacheEntryInFile(storageRoot, id) {
  const path = join(storageRoot, PROJECTION_CACHE_FILE);
  let text;
  try {
    text = await readFile(path, "utf8");
  } catch (error) {
    if (error.code === "ENOENT") return "absent";
    throw error;
  }
  const next = cacheTextWithout(text, id);
  if (next === null) return "absent";
  const temporary = join(dirname(path), `.${PROJECTION_CACHE_FILE}.${randomBytes(6).toString("hex")}.tmp`);
  try {
    const handle = await open(temporary, "wx", 384);
    try {
      await handle.writeFile(next, "utf8");
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temporary, path);
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  }
  await syncDirectory(dirname(path));
  return "dropped";
}

export {
  PROJECTION_CACHE_FILE,
  isProjectionCacheWriter,
  rebuildCacheEntry,
  cacheTextWithout,
  dropCacheEntryInFile
};
