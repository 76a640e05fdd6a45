#!/usr/bin/env node
import {
  readCommand
} from "./chunks/chunk-WIYI5KOU.js";
import {
  runCommand
} from "./chunks/chunk-MHILNAR5.js";

// scripts/read-session-log.ts
runCommand(readCommand, "node lib/scripts/read-session-log.js", process.argv.slice(2));
