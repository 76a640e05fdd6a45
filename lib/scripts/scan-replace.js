#!/usr/bin/env node
import {
  scanCommand
} from "./chunks/chunk-6PTGLLI3.js";
import {
  runCommand
} from "./chunks/chunk-MHILNAR5.js";

// scripts/scan-replace.ts
runCommand(scanCommand, "node lib/scripts/scan-replace.js", process.argv.slice(2));
