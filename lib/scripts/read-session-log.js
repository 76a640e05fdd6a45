#!/usr/bin/env node
import {
  readCommand
} from "./chunks/chunk-SF3UK262.js";
import {
  runCommand
} from "./chunks/chunk-4ESBLEIB.js";

// scripts/read-session-log.ts
runCommand(readCommand, "node lib/scripts/read-session-log.js", process.argv.slice(2));
