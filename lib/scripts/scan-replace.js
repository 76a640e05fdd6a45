#!/usr/bin/env node
import {
  scanCommand
} from "./chunks/chunk-H6YWAR25.js";
import "./chunks/chunk-RWUM5PL7.js";
import {
  runCommand
} from "./chunks/chunk-4ESBLEIB.js";

// scripts/scan-replace.ts
runCommand(scanCommand, "node lib/scripts/scan-replace.js", process.argv.slice(2));
