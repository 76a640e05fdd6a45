#!/usr/bin/env node
import {
  scanCommand
} from "./chunks/chunk-BDLDSHNL.js";
import "./chunks/chunk-25E43IZU.js";
import {
  runCommand
} from "./chunks/chunk-4ESBLEIB.js";

// scripts/scan-replace.ts
runCommand(scanCommand, "node lib/scripts/scan-replace.js", process.argv.slice(2));
