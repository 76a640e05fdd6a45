#!/usr/bin/env node
import {
  readCommand
} from "./chunks/chunk-N2UX4TMI.js";
import {
  runCommand
} from "./chunks/chunk-M5CJ53PV.js";

// scripts/read-session-log.ts
runCommand(readCommand, "node lib/scripts/read-session-log.js", process.argv.slice(2));
