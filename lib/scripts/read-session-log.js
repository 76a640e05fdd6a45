#!/usr/bin/env node
import {
  readCommand
} from "./chunks/chunk-ICGEAQB6.js";
import {
  runCommand
} from "./chunks/chunk-EZBVU5VJ.js";

// scripts/read-session-log.ts
runCommand(readCommand, "node lib/scripts/read-session-log.js", process.argv.slice(2));
