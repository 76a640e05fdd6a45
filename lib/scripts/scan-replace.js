#!/usr/bin/env node
import {
  scanCommand
} from "./chunks/chunk-646YYDVU.js";
import "./chunks/chunk-6Q4EBBC4.js";
import {
  runCommand
} from "./chunks/chunk-LKSIC7LO.js";

// scripts/scan-replace.ts
runCommand(scanCommand, "node lib/scripts/scan-replace.js", process.argv.slice(2));
