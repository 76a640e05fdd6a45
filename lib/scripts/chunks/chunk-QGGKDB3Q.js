#!/usr/bin/env node
import {
  scanZstdFrames
} from "./chunk-2BN4JUMU.js";

// src/host/jsonl-log-file.ts
import { open, readdir, rename, rm } from "node:fs/promises";
import { randomBytes } from "node:crypto";
import { basename, dirname, join } from "node:path";
import { constants, zstdCompressSync, zstdDecompressSync } from "node:zlib";
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
async function readHeaderLine(path, compression) {
  const file = await open(path, "r");
  try {
    for (let size = 64 * 1024; ; size *= 2) {
      const buffer = Buffer.alloc(size);
      const { bytesRead } = await file.read(buffer, 0, size, 0);
      const bytes = buffer.subarray(0, bytesRead);
      let text;
      if (compression === "none") text = bytes.toString("utf8");
      else {
        const first = scanZstdFrames(bytes).frames.find((f) => f.kind === "zstd");
        if (first !== void 0) text = zstdDecompressSync(bytes.subarray(first.start, first.end)).toString("utf8");
      }
      const newline = text?.indexOf("\n") ?? -1;
      if (newline >= 0) return text.slice(0, newline);
      if (bytesRead < size) throw new Error("no header line");
    }
  } finally {
    await file.close();
  }
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
  for (const name of names) await rm(join(dirname(logPath), name), { force: true });
  return names;
}
async function readLogFileWithDsh(backend, path, expectedId) {
  return (await readLogAndHeaderWithDsh(backend, path, expectedId)).events;
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

export {
  isJsonlBackend,
  decodeLogBytes,
  readHeaderLine,
  encodeLogText,
  syncDirectory,
  writeBeside,
  removeLeftovers,
  readLogFileWithDsh,
  readLogAndHeaderWithDsh,
  publishLogFile
};
