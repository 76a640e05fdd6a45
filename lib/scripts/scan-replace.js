#!/usr/bin/env node
import {
  scanCommand
} from "./chunks/chunk-DXOFXRBW.js";
import "./chunks/chunk-54LMBLXU.js";
import {
  runCommand
} from "./chunks/chunk-6FPHHE67.js";

// scripts/scan-replace.ts
runCommand(scanCommand, "node lib/scripts/scan-replace.js", process.argv.slice(2));
