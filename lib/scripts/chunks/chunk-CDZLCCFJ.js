#!/usr/bin/env node
import {
  ZSTD_MAGIC_BYTES
} from "./chunk-2BN4JUMU.js";

// src/log/log-file.ts
import { open, readdir, stat } from "node:fs/promises";
import { join } from "node:path";
var LOG_FILE_NAMES = ["session.jsonl.zstd", "session.jsonl"];
var SessionLogInputError = class extends Error {
  /**
   * @param message - one sentence naming the path.
   * @param code - `not-found` (no such path), `no-log` (a folder without a log, or both
   *   encodings in one folder), `not-a-log` (a file that is neither zstd nor JSONL),
   *   `unreadable` (the file system refused).
   */
  constructor(message, code) {
    super(message);
    this.code = code;
    this.name = "SessionLogInputError";
  }
};
async function resolveSessionLog(path) {
  let info;
  try {
    info = await stat(path);
  } catch (error) {
    const code = error.code;
    if (code === "ENOENT" || code === "ENOTDIR") throw new SessionLogInputError(`no such file or folder: ${path}`, "not-found");
    throw new SessionLogInputError(`cannot read ${path}: ${error.message}`, "unreadable");
  }
  if (info.isDirectory()) {
    let names;
    try {
      names = await readdir(path);
    } catch (error) {
      throw new SessionLogInputError(`cannot list ${path}: ${error.message}`, "unreadable");
    }
    const present = LOG_FILE_NAMES.filter((name) => names.includes(name));
    if (present.length === 0) throw new SessionLogInputError(`${path} holds no session.jsonl.zstd or session.jsonl`, "no-log");
    if (present.length > 1) throw new SessionLogInputError(`${path} holds both session.jsonl.zstd and session.jsonl; DSH refuses a session folder with two encodings`, "no-log");
    return resolveSessionLog(join(path, present[0]));
  }
  if (!info.isFile()) throw new SessionLogInputError(`${path} is not a file or folder`, "not-a-log");
  const format = await sniffFormat(path, info.size);
  return { path, format, size: info.size, mtimeMs: info.mtimeMs };
}
function logFormatOf(head, size) {
  const present = Buffer.from(head.buffer, head.byteOffset, Math.min(head.byteLength, 4));
  if (present.length === 4 && present.equals(ZSTD_MAGIC_BYTES)) return "zstd";
  if (present.length >= 1 && present[0] === 123) return "jsonl";
  if (size > 0 && present.length < 4 && present.length === size && present.equals(ZSTD_MAGIC_BYTES.subarray(0, present.length))) return "zstd";
  return null;
}
async function sniffFormat(path, size) {
  const handle = await openLog(path);
  try {
    const head = Buffer.alloc(4);
    const { bytesRead } = await handle.read(head, 0, 4, 0);
    const present = head.subarray(0, bytesRead);
    const format = logFormatOf(present, size);
    if (format !== null) return format;
    if (size === 0) throw new SessionLogInputError(`${path} is empty`, "not-a-log");
    throw new SessionLogInputError(`${path} is neither a Zstandard log nor a JSONL log (first bytes ${present.toString("hex")})`, "not-a-log");
  } finally {
    await handle.close();
  }
}
async function openLog(path) {
  try {
    return await open(path, "r");
  } catch (error) {
    throw new SessionLogInputError(`cannot open ${path}: ${error.message}`, "unreadable");
  }
}
var CARRY_ROOM = 256 * 1024;
var ChunkReader = class {
  /**
   * @param handle - from {@link openLog}.
   * @param size - file size, passed on to `onProgress`.
   * @param chunkBytes - bytes per read.
   * @param reuse - `true` to read into two buffers in turn (a chunk is then only valid until the
   *   next call); `false` for a fresh buffer each time.
   * @param onProgress - called after each read with bytes read so far and `size`.
   */
  constructor(handle, size, chunkBytes, reuse, onProgress) {
    this.handle = handle;
    this.size = size;
    this.chunkBytes = chunkBytes;
    this.reuse = reuse;
    this.onProgress = onProgress;
  }
  position = 0;
  /** The read in flight: its buffer and promised byte count. */
  ahead = null;
  /** A buffer free for the next read (with `reuse`). */
  spare = null;
  current = null;
  startRead() {
    const buffer = this.spare !== null && this.spare.length >= CARRY_ROOM + this.chunkBytes ? this.spare : Buffer.allocUnsafe(CARRY_ROOM + this.chunkBytes);
    this.spare = null;
    const at = this.position;
    const read = this.handle.read(buffer, CARRY_ROOM, this.chunkBytes, at).then(
      ({ bytesRead }) => bytesRead,
      (error) => {
        throw new SessionLogInputError(`cannot read at byte ${at}: ${error.message}`, "unreadable");
      }
    );
    read.catch(() => {
    });
    this.ahead = { buffer, read };
  }
  /**
   * Read the next chunk.
   * @param carry - bytes to put in front of it (may be a view into the previous chunk).
   * @returns `carry` followed by the bytes read; just (a copy of) `carry` at the end of the file.
   *   Views into earlier chunks, `carry` included, are not valid afterwards: use the result.
   * @throws SessionLogInputError (`unreadable`) naming the offset when a read fails.
   */
  async next(carry) {
    if (this.ahead === null) this.startRead();
    const { buffer, read } = this.ahead;
    this.ahead = null;
    const bytesRead = await read;
    this.position += bytesRead;
    let result;
    if (carry.length <= CARRY_ROOM) {
      buffer.set(carry, CARRY_ROOM - carry.length);
      result = buffer.subarray(CARRY_ROOM - carry.length, CARRY_ROOM + bytesRead);
    } else {
      result = Buffer.allocUnsafe(carry.length + bytesRead);
      result.set(carry, 0);
      result.set(buffer.subarray(CARRY_ROOM, CARRY_ROOM + bytesRead), carry.length);
    }
    if (this.reuse) {
      this.spare = this.current;
      this.current = buffer;
    }
    if (bytesRead > 0) {
      this.onProgress?.(this.position, this.size);
      if (this.position < this.size) this.startRead();
    }
    return result;
  }
};

export {
  LOG_FILE_NAMES,
  SessionLogInputError,
  resolveSessionLog,
  logFormatOf,
  openLog,
  ChunkReader
};
