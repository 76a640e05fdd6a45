#!/usr/bin/env node
import {
  readCommand
} from "./chunks/chunk-RD624QED.js";
import {
  runCommand
} from "./chunks/chunk-N6DQFU4V.js";

// scripts/read-session-log.ts
runCommand(readCommand, "node lib/scripts/read-session-log.js", process.argv.slice(2));
