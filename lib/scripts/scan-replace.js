#!/usr/bin/env node
import {
  scanCommand
} from "./chunks/chunk-VOTUQMJT.js";
import "./chunks/chunk-4UXZJK6R.js";
import {
  runCommand
} from "./chunks/chunk-2LYL33RJ.js";

// scripts/scan-replace.ts
runCommand(scanCommand, "node lib/scripts/scan-replace.js", process.argv.slice(2));
