#!/usr/bin/env node

// src/log/counted.ts
function forCount(count, one, other = `${one}s`) {
  return count === 1 ? one : other;
}
function counted(count, one, other = `${one}s`) {
  return `${count} ${forCount(count, one, other)}`;
}

// src/log/log-position.ts
function frameAt(index, byte) {
  return `frame ${index} at byte ${byte}`;
}
function lineAt(line, frame, byte) {
  return `line ${line} (${frame === null ? `at byte ${byte}` : frameAt(frame, byte)})`;
}

// src/log/zstd-frames.ts
var ZSTD_MAGIC_BYTES = Uint8Array.of(40, 181, 47, 253);
var ZSTD_FRAME_MAGIC = (ZSTD_MAGIC_BYTES[0] | ZSTD_MAGIC_BYTES[1] << 8 | ZSTD_MAGIC_BYTES[2] << 16 | ZSTD_MAGIC_BYTES[3] << 24) >>> 0;
var MAX_BLOCK_BYTES = 128 * 1024;
var SKIPPABLE_MASK = 4294967280;
var SKIPPABLE_MAGIC = 407710288;
function u32(bytes, at) {
  return (bytes[at] | bytes[at + 1] << 8 | bytes[at + 2] << 16 | bytes[at + 3] << 24) >>> 0;
}
function uintLE(bytes, at, size) {
  let value = 0;
  for (let i = size - 1; i >= 0; i--) value = value * 256 + bytes[at + i];
  return value;
}
var FrameTable = class {
  /** Frames held. */
  count = 0;
  /** File index of frame 0 of the table. */
  firstIndex = 0;
  /** Absolute start and (exclusive) end offsets. */
  start = new Float64Array(256);
  end = new Float64Array(256);
  /** `1` for a skippable frame, `0` for a data frame. */
  skippable = new Uint8Array(256);
  contentSize = new Float64Array(256);
  windowSize = new Float64Array(256);
  checksum = new Float64Array(256);
  blocks = new Uint32Array(256);
  /** Empty the table; the next frame added is file frame `firstIndex`. */
  reset(firstIndex) {
    this.count = 0;
    this.firstIndex = firstIndex;
  }
  /** Append one frame (offsets absolute; `-1` for an absent value). */
  add(start, end, skippable, contentSize, windowSize, checksum, blocks) {
    if (this.count === this.start.length) this.grow();
    const i = this.count++;
    this.start[i] = start;
    this.end[i] = end;
    this.skippable[i] = skippable ? 1 : 0;
    this.contentSize[i] = contentSize;
    this.windowSize[i] = windowSize;
    this.checksum[i] = checksum;
    this.blocks[i] = blocks;
  }
  /** Frame `i` of the table as an object. */
  frame(i) {
    const orNull = (value) => value < 0 ? null : value;
    return {
      index: this.firstIndex + i,
      start: this.start[i],
      end: this.end[i],
      kind: this.skippable[i] === 1 ? "skippable" : "zstd",
      contentSize: orNull(this.contentSize[i]),
      windowSize: orNull(this.windowSize[i]),
      checksum: orNull(this.checksum[i]),
      blocks: this.blocks[i]
    };
  }
  /** Every frame of the table as objects, in order. */
  frames() {
    return Array.from({ length: this.count }, (_, i) => this.frame(i));
  }
  grow() {
    const size = this.start.length * 2;
    const widen = (old, make) => {
      const next = make(size);
      next.set(old);
      return next;
    };
    this.start = widen(this.start, (n) => new Float64Array(n));
    this.end = widen(this.end, (n) => new Float64Array(n));
    this.skippable = widen(this.skippable, (n) => new Uint8Array(n));
    this.contentSize = widen(this.contentSize, (n) => new Float64Array(n));
    this.windowSize = widen(this.windowSize, (n) => new Float64Array(n));
    this.checksum = widen(this.checksum, (n) => new Float64Array(n));
    this.blocks = widen(this.blocks, (n) => new Uint32Array(n));
  }
};
var scanTable = new FrameTable();
function scanZstdFrames(bytes, options = {}) {
  const table = scanTable;
  table.reset(options.firstIndex ?? 0);
  const { next, stop } = walkZstdFrames(bytes, table, options.baseOffset ?? 0);
  const frames = table.frames();
  if (table.start.length > 4096) scanTable = new FrameTable();
  return { frames, next, stop };
}
function walkZstdFrames(bytes, table, base) {
  let offset = 0;
  const length = bytes.length;
  const incomplete = (start, part, at, needed, blocksComplete) => ({
    next: base + start,
    stop: { kind: "incomplete", index: table.firstIndex + table.count, start: base + start, part, at: base + at, needed, blocksComplete }
  });
  const corrupt = (start, at, reason) => ({
    next: base + start,
    stop: { kind: "corrupt", offset: base + at, reason }
  });
  while (offset < length) {
    const start = offset;
    if (length - offset < 4) return incomplete(start, "magic", offset, 4, 0);
    const magic = u32(bytes, offset);
    if ((magic & SKIPPABLE_MASK) >>> 0 === SKIPPABLE_MAGIC) {
      if (length - offset < 8) return incomplete(start, "frame-header", offset + 4, 4, 0);
      const size = u32(bytes, offset + 4);
      if (length - offset - 8 < size) return incomplete(start, "skippable-payload", offset + 8, size, 0);
      offset += 8 + size;
      table.add(base + start, base + offset, true, -1, -1, -1, 0);
      continue;
    }
    if (magic !== ZSTD_FRAME_MAGIC) {
      return corrupt(start, offset, `invalid frame magic 0x${magic.toString(16).padStart(8, "0")} (expected 28 b5 2f fd)`);
    }
    offset += 4;
    if (offset === length) return incomplete(start, "frame-header", offset, null, 0);
    const descriptor = bytes[offset];
    if ((descriptor & 8) !== 0) return corrupt(start, offset, "reserved bit set in the frame header descriptor");
    const contentSizeFlag = descriptor >>> 6;
    const singleSegment = (descriptor & 32) !== 0;
    const hasChecksum = (descriptor & 4) !== 0;
    const dictionaryFlag = descriptor & 3;
    const dictionaryBytes = dictionaryFlag === 3 ? 4 : dictionaryFlag;
    const contentSizeBytes = contentSizeFlag === 0 ? singleSegment ? 1 : 0 : 1 << contentSizeFlag;
    const headerBytes = 1 + (singleSegment ? 0 : 1) + dictionaryBytes + contentSizeBytes;
    if (length - offset < headerBytes) return incomplete(start, "frame-header", offset, headerBytes, 0);
    let cursor = offset + 1;
    let windowSize = -1;
    if (!singleSegment) {
      const windowDescriptor = bytes[cursor];
      const exponent = windowDescriptor >>> 3;
      const windowBase = exponent <= 20 ? 1 << 10 + exponent : 2 ** (10 + exponent);
      windowSize = windowBase + windowBase / 8 * (windowDescriptor & 7);
      cursor += 1;
    }
    cursor += dictionaryBytes;
    let contentSize = -1;
    if (contentSizeBytes > 0) {
      contentSize = uintLE(bytes, cursor, contentSizeBytes) + (contentSizeBytes === 2 ? 256 : 0);
      cursor += contentSizeBytes;
    }
    if (singleSegment) windowSize = contentSize;
    offset = cursor;
    let blocks = 0;
    for (; ; ) {
      if (length - offset < 3) return incomplete(start, "block-header", offset, 3, blocks);
      const header = bytes[offset] | bytes[offset + 1] << 8 | bytes[offset + 2] << 16;
      const last = (header & 1) === 1;
      const type = header >>> 1 & 3;
      const size = header >>> 3;
      if (type === 3) return corrupt(start, offset, `reserved block type in block ${blocks} of the frame`);
      if (type !== 1 && size > MAX_BLOCK_BYTES) return corrupt(start, offset, `block ${blocks} declares ${counted(size, "byte")} (at most ${MAX_BLOCK_BYTES})`);
      const payload = type === 1 ? 1 : size;
      if (length - offset - 3 < payload) return incomplete(start, "block", offset + 3, payload, blocks);
      offset += 3 + payload;
      blocks++;
      if (last) break;
    }
    let checksum = -1;
    if (hasChecksum) {
      if (length - offset < 4) return incomplete(start, "checksum", offset, 4, blocks);
      checksum = u32(bytes, offset);
      offset += 4;
    }
    table.add(base + start, base + offset, false, contentSize, windowSize, checksum, blocks);
  }
  return { next: base + offset, stop: { kind: "end" } };
}
function magicFalsePositives(bytes, frameStarts, baseOffset = 0) {
  const out = [];
  const [m0, m1, m2, m3] = ZSTD_MAGIC_BYTES;
  for (let i = bytes.indexOf(m0); i !== -1 && i + 3 < bytes.length; i = bytes.indexOf(m0, i + 1)) {
    if (bytes[i + 1] === m1 && bytes[i + 2] === m2 && bytes[i + 3] === m3 && !frameStarts.has(baseOffset + i)) out.push(baseOffset + i);
  }
  return out;
}
function describeFrameStop(stop, fileSize) {
  if (stop.kind === "corrupt") return `corrupt Zstandard structure at byte ${stop.offset}: ${stop.reason}`;
  const what = {
    magic: "frame magic",
    "frame-header": "frame header",
    "block-header": `block ${stop.blocksComplete} header`,
    block: `block ${stop.blocksComplete} payload`,
    checksum: "content checksum",
    "skippable-payload": "skippable frame payload"
  };
  const needs = stop.needed === null ? "" : ` needs ${counted(stop.needed, "byte")}`;
  return `${frameAt(stop.index, stop.start)} is incomplete: ${what[stop.part]}${needs} from byte ${stop.at}, the file ends at byte ${fileSize} (${counted(fileSize - stop.start, "byte")} of the frame present, ${counted(stop.blocksComplete, "complete block")})`;
}

export {
  forCount,
  counted,
  frameAt,
  lineAt,
  ZSTD_MAGIC_BYTES,
  MAX_BLOCK_BYTES,
  FrameTable,
  scanZstdFrames,
  walkZstdFrames,
  magicFalsePositives,
  describeFrameStop
};
