#!/usr/bin/env node
import {
  scanCommand
} from "./chunks/chunk-MCCGFFM4.js";
import {
  runCommand
} from "./chunks/chunk-ZIWUEJ4Y.js";

// scripts/scan-replace.ts
runCommand(scanCommand, "node lib/scripts/scan-replace.js", process.argv.slice(2));
