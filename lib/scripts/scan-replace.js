#!/usr/bin/env node
import {
  scanCommand
} from "./chunks/chunk-QGGKRA5G.js";
import "./chunks/chunk-Y2D45YV7.js";
import {
  runCommand
} from "./chunks/chunk-XRF2TASW.js";

// scripts/scan-replace.ts
runCommand(scanCommand, "node lib/scripts/scan-replace.js", process.argv.slice(2));
