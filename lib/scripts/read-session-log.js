#!/usr/bin/env node
import {
  readCommand
} from "./chunks/chunk-VRLE6MCC.js";
import {
  runCommand
} from "./chunks/chunk-C62STE4U.js";

// scripts/read-session-log.ts
runCommand(readCommand, "node lib/scripts/read-session-log.js", process.argv.slice(2));
