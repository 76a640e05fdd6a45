#!/usr/bin/env node
import {
  readCommand
} from "./chunks/chunk-F4ODHFIW.js";
import {
  runCommand
} from "./chunks/chunk-25F4H3OC.js";

// scripts/read-session-log.ts
runCommand(readCommand, "node lib/scripts/read-session-log.js", process.argv.slice(2));
