#!/usr/bin/env node
import {
  scanCommand
} from "./chunks/chunk-TOMPJRZ7.js";
import "./chunks/chunk-2PR2WRSM.js";
import {
  runCommand
} from "./chunks/chunk-DCYPK23Y.js";

// scripts/scan-replace.ts
runCommand(scanCommand, "node lib/scripts/scan-replace.js", process.argv.slice(2));
