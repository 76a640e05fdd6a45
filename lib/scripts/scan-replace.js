#!/usr/bin/env node
import {
  scanCommand
} from "./chunks/chunk-JGY2HTZN.js";
import "./chunks/chunk-OWJZ6DQ2.js";
import "./chunks/chunk-KPXCRZ22.js";
import "./chunks/chunk-VSRQYWH6.js";
import "./chunks/chunk-GAP6BJRR.js";
import {
  runCommand
} from "./chunks/chunk-D72G6GGI.js";
import "./chunks/chunk-NGI44Q4O.js";
import "./chunks/chunk-KEICUTLP.js";
import "./chunks/chunk-V6RYJ4SL.js";

// scripts/scan-replace.ts
runCommand(scanCommand, "node lib/scripts/scan-replace.js", process.argv.slice(2));
