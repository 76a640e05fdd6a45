#!/usr/bin/env node
import {
  scanCommand
} from "./chunks/chunk-O6BPSA7J.js";
import "./chunks/chunk-HXXVSNXF.js";
import {
  runCommand
} from "./chunks/chunk-25F4H3OC.js";

// scripts/scan-replace.ts
runCommand(scanCommand, "node lib/scripts/scan-replace.js", process.argv.slice(2));
