#!/usr/bin/env node
import {
  scanCommand
} from "./chunks/chunk-QZXR2DJZ.js";
import "./chunks/chunk-VO67JIYV.js";
import {
  runCommand
} from "./chunks/chunk-GXSN2MKZ.js";

// scripts/scan-replace.ts
runCommand(scanCommand, "node lib/scripts/scan-replace.js", process.argv.slice(2));
