#!/usr/bin/env node
import {
  listCommand
} from "./chunks/chunk-336ZXFXD.js";
import "./chunks/chunk-NWCER2NG.js";
import "./chunks/chunk-TSNASLY7.js";
import {
  runCommand
} from "./chunks/chunk-JYSYW3FP.js";

// scripts/list-sessions.ts
runCommand(listCommand, "node lib/scripts/list-sessions.js", process.argv.slice(2));
