#!/usr/bin/env node
import {
  listCommand
} from "./chunks/chunk-EAVGLL7X.js";
import {
  runCommand
} from "./chunks/chunk-C62STE4U.js";

// scripts/list-sessions.ts
runCommand(listCommand, "node lib/scripts/list-sessions.js", process.argv.slice(2));
