#!/usr/bin/env node
import {
  scanCommand
} from "./chunks/chunk-OUMSZPHJ.js";
import "./chunks/chunk-7QUY7IBV.js";
import {
  runCommand
} from "./chunks/chunk-DCYPK23Y.js";

// scripts/scan-replace.ts
runCommand(scanCommand, "node lib/scripts/scan-replace.js", process.argv.slice(2));
