#!/usr/bin/env node
import {
  listCommand
} from "./chunks/chunk-36IXWL5O.js";
import {
  runCommand
} from "./chunks/chunk-LKSIC7LO.js";

// scripts/list-sessions.ts
runCommand(listCommand, "node lib/scripts/list-sessions.js", process.argv.slice(2));
