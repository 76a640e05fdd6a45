#!/usr/bin/env node
import {
  scanCommand
} from "./chunks/chunk-HE37INCY.js";
import "./chunks/chunk-NY2GQ6Z4.js";
import "./chunks/chunk-NWCER2NG.js";
import "./chunks/chunk-TSNASLY7.js";
import {
  runCommand
} from "./chunks/chunk-JYSYW3FP.js";

// scripts/scan-replace.ts
runCommand(scanCommand, "node lib/scripts/scan-replace.js", process.argv.slice(2));
