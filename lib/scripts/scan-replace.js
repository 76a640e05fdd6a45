#!/usr/bin/env node
import {
  scanCommand
} from "./chunks/chunk-33J2JDCS.js";
import "./chunks/chunk-2KZKY5UK.js";
import "./chunks/chunk-WHRTN3DX.js";
import "./chunks/chunk-RQBDFPSF.js";
import "./chunks/chunk-GAP6BJRR.js";
import {
  runCommand
} from "./chunks/chunk-BCVO4ZIF.js";
import "./chunks/chunk-4ES5VJID.js";
import "./chunks/chunk-KEICUTLP.js";
import "./chunks/chunk-V6RYJ4SL.js";

// scripts/scan-replace.ts
runCommand(scanCommand, "node lib/scripts/scan-replace.js", process.argv.slice(2));
