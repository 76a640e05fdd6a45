#!/usr/bin/env node
import {
  scanCommand
} from "./chunks/chunk-7T6XI6SZ.js";
import "./chunks/chunk-BDTQVWH5.js";
import {
  runCommand
} from "./chunks/chunk-SCZ5GRMK.js";

// scripts/scan-replace.ts
runCommand(scanCommand, "node lib/scripts/scan-replace.js", process.argv.slice(2));
