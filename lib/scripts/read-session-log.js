#!/usr/bin/env node
import {
  readCommand
} from "./chunks/chunk-ZY4MRSPS.js";
import {
  runCommand
} from "./chunks/chunk-DCYPK23Y.js";

// scripts/read-session-log.ts
runCommand(readCommand, "node lib/scripts/read-session-log.js", process.argv.slice(2));
