#!/usr/bin/env node
import {
  scanCommand
} from "./chunks/chunk-PRIIMSX7.js";
import "./chunks/chunk-LLD7OWQ3.js";
import {
  runCommand
} from "./chunks/chunk-QQ42TVSR.js";

// scripts/scan-replace.ts
runCommand(scanCommand, "node lib/scripts/scan-replace.js", process.argv.slice(2));
