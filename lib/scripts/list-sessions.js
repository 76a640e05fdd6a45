#!/usr/bin/env node
import {
  listCommand
} from "./chunks/chunk-7HZFHIKK.js";
import {
  runCommand
} from "./chunks/chunk-DCYPK23Y.js";

// scripts/list-sessions.ts
runCommand(listCommand, "node lib/scripts/list-sessions.js", process.argv.slice(2));
