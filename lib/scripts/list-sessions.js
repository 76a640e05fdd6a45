#!/usr/bin/env node
import {
  listCommand
} from "./chunks/chunk-PNSIN4GP.js";
import {
  runCommand
} from "./chunks/chunk-2LYL33RJ.js";

// scripts/list-sessions.ts
runCommand(listCommand, "node lib/scripts/list-sessions.js", process.argv.slice(2));
