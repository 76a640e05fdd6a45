#!/usr/bin/env node
import {
  scanCommand
} from "./chunks/chunk-R6M22KRF.js";
import "./chunks/chunk-PYZQQELT.js";
import {
  runCommand
} from "./chunks/chunk-4ESBLEIB.js";

// scripts/scan-replace.ts
runCommand(scanCommand, "node lib/scripts/scan-replace.js", process.argv.slice(2));
