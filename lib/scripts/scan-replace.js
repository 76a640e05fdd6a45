#!/usr/bin/env node
import {
  scanCommand
} from "./chunks/chunk-5GDIXLVD.js";
import "./chunks/chunk-6KFY7ZUX.js";
import {
  runCommand
} from "./chunks/chunk-PWKJLAPD.js";

// scripts/scan-replace.ts
runCommand(scanCommand, "node lib/scripts/scan-replace.js", process.argv.slice(2));
