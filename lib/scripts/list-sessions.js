#!/usr/bin/env node
import {
  listCommand
} from "./chunks/chunk-EHARVDCB.js";
import {
  runCommand
} from "./chunks/chunk-LSDWHSA7.js";

// scripts/list-sessions.ts
runCommand(listCommand, "node lib/scripts/list-sessions.js", process.argv.slice(2));
