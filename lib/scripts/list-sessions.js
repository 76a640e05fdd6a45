#!/usr/bin/env node
import {
  listCommand
} from "./chunks/chunk-AWBFWT4H.js";
import "./chunks/chunk-BG4CHTLX.js";
import "./chunks/chunk-GAP6BJRR.js";
import {
  runCommand
} from "./chunks/chunk-CRFN5R4I.js";
import "./chunks/chunk-NGI44Q4O.js";
import "./chunks/chunk-NAUXAQBM.js";
import "./chunks/chunk-V6RYJ4SL.js";

// scripts/list-sessions.ts
runCommand(listCommand, "node lib/scripts/list-sessions.js", process.argv.slice(2));
