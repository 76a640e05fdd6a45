#!/usr/bin/env node
import {
  scanCommand
} from "./chunks/chunk-PJV2MCKJ.js";
import {
  runCommand
} from "./chunks/chunk-C62STE4U.js";

// scripts/scan-replace.ts
runCommand(scanCommand, "node lib/scripts/scan-replace.js", process.argv.slice(2));
