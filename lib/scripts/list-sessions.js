#!/usr/bin/env node
import {
  listCommand
} from "./chunks/chunk-5QD246ZG.js";
import {
  runCommand
} from "./chunks/chunk-25F4H3OC.js";

// scripts/list-sessions.ts
runCommand(listCommand, "node lib/scripts/list-sessions.js", process.argv.slice(2));
