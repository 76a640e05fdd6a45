#!/usr/bin/env node
import {
  readCommand
} from "./chunks/chunk-5V4WBCUE.js";
import {
  runCommand
} from "./chunks/chunk-LSDWHSA7.js";

// scripts/read-session-log.ts
runCommand(readCommand, "node lib/scripts/read-session-log.js", process.argv.slice(2));
