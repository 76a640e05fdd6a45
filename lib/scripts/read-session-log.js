#!/usr/bin/env node
import {
  readCommand
} from "./chunks/chunk-WAGFHX4A.js";
import {
  runCommand
} from "./chunks/chunk-PWKJLAPD.js";

// scripts/read-session-log.ts
runCommand(readCommand, "node lib/scripts/read-session-log.js", process.argv.slice(2));
