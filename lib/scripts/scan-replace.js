#!/usr/bin/env node
import {
  scanCommand
} from "./chunks/chunk-UXMSP2FQ.js";
import "./chunks/chunk-JPHJ5LXW.js";
import {
  runCommand
} from "./chunks/chunk-EZBVU5VJ.js";

// scripts/scan-replace.ts
runCommand(scanCommand, "node lib/scripts/scan-replace.js", process.argv.slice(2));
