#!/usr/bin/env node
import {
  listCommand
} from "./chunks/chunk-6N3TNRFK.js";
import "./chunks/chunk-VSRQYWH6.js";
import "./chunks/chunk-GAP6BJRR.js";
import {
  runCommand
} from "./chunks/chunk-D72G6GGI.js";
import "./chunks/chunk-NGI44Q4O.js";
import "./chunks/chunk-KEICUTLP.js";
import "./chunks/chunk-V6RYJ4SL.js";

// scripts/list-sessions.ts
runCommand(listCommand, "node lib/scripts/list-sessions.js", process.argv.slice(2));
