#!/usr/bin/env node
import {
  listCommand
} from "./chunks/chunk-347XDZ2A.js";
import {
  runCommand
} from "./chunks/chunk-MHILNAR5.js";

// scripts/list-sessions.ts
runCommand(listCommand, "node lib/scripts/list-sessions.js", process.argv.slice(2));
