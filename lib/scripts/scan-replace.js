#!/usr/bin/env node
import {
  scanCommand
} from "./chunks/chunk-5FJ2XRFS.js";
import "./chunks/chunk-LTHJKI62.js";
import {
  runCommand
} from "./chunks/chunk-QQ42TVSR.js";

// scripts/scan-replace.ts
runCommand(scanCommand, "node lib/scripts/scan-replace.js", process.argv.slice(2));
