#!/usr/bin/env node
import {
  scanCommand
} from "./chunks/chunk-5NYDY4R5.js";
import "./chunks/chunk-JKFB67OM.js";
import {
  runCommand
} from "./chunks/chunk-LSDWHSA7.js";

// scripts/scan-replace.ts
runCommand(scanCommand, "node lib/scripts/scan-replace.js", process.argv.slice(2));
