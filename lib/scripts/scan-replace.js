#!/usr/bin/env node
import {
  scanCommand
} from "./chunks/chunk-MPZNY6NK.js";
import "./chunks/chunk-SOBSVLGM.js";
import "./chunks/chunk-EDLWMPAK.js";
import "./chunks/chunk-EQRBZEXQ.js";
import "./chunks/chunk-D6GSHOIP.js";
import "./chunks/chunk-4C36J76L.js";
import "./chunks/chunk-GAP6BJRR.js";
import {
  runCommand
} from "./chunks/chunk-C7U2JD6W.js";
import "./chunks/chunk-ZFDKBUKF.js";
import "./chunks/chunk-KEICUTLP.js";
import "./chunks/chunk-V6RYJ4SL.js";

// scripts/scan-replace.ts
runCommand(scanCommand, "node lib/scripts/scan-replace.js", process.argv.slice(2));
