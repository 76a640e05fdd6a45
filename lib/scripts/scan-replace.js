#!/usr/bin/env node
import {
  scanCommand
} from "./chunks/chunk-PIKFWCMQ.js";
import {
  runCommand
} from "./chunks/chunk-JDKWCII7.js";

// scripts/scan-replace.ts
runCommand(scanCommand, "node lib/scripts/scan-replace.js", process.argv.slice(2));
