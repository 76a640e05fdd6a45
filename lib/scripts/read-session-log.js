#!/usr/bin/env node
import {
  readCommand
} from "./chunks/chunk-CUZHVI27.js";
import {
  runCommand
} from "./chunks/chunk-LKSIC7LO.js";

// scripts/read-session-log.ts
runCommand(readCommand, "node lib/scripts/read-session-log.js", process.argv.slice(2));
