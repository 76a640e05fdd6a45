#!/usr/bin/env node
import {
  scanCommand
} from "./chunks/chunk-ZFJALLIB.js";
import {
  runCommand
} from "./chunks/chunk-N6DQFU4V.js";

// scripts/scan-replace.ts
runCommand(scanCommand, "node lib/scripts/scan-replace.js", process.argv.slice(2));
