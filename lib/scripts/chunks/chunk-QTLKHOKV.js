#!/usr/bin/env node
import {
  counted
} from "./chunk-2BN4JUMU.js";

// scripts/support/format-bytes.ts
function formatBytes(bytes) {
  if (bytes < 1024) return `${bytes} B`;
  const units = ["KiB", "MiB", "GiB", "TiB"];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${value.toFixed(1)} ${units[unit]}`;
}

// scripts/support/progress.ts
function fileProgress(label, size) {
  const bar = progress(label, "MB", size > PROGRESS_FILE_BYTES);
  return { onProgress: (read, total) => bar.update(read, total, read), done: () => bar.done() };
}
var PROGRESS_FILE_BYTES = 50 * 1024 * 1024;
var PROGRESS_INTERVAL_MS = 200;
function progress(label, unit, enabled, stream = process.stderr) {
  const started = performance.now();
  let last = -Infinity;
  let shown = false;
  const on = enabled && stream.isTTY === true;
  return {
    update(done, total, bytes) {
      if (!on) return;
      const now = performance.now();
      if (now - last < PROGRESS_INTERVAL_MS && done < total) return;
      last = now;
      shown = true;
      stream.write(`\r\x1B[K${progressLine(label, unit, { done, total, bytes, seconds: (now - started) / 1e3 })}`);
    },
    done() {
      if (shown) stream.write("\r\x1B[K");
    }
  };
}
function progressLine(label, unit, state) {
  const mb = (bytes) => (bytes / 1e6).toFixed(1);
  const rate = state.seconds > 0 ? `${mb(state.bytes / state.seconds)} MB/s` : "… MB/s";
  const count = unit === "MB" ? `${mb(state.done)}/${mb(state.total)} MB` : `${state.done}/${counted(state.total, "log")}, ${mb(state.bytes)} MB`;
  return `${label}: ${count}, ${rate}`;
}

export {
  formatBytes,
  fileProgress,
  progress
};
