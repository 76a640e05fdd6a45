#!/usr/bin/env node
import {
  readCommand
} from "./chunks/chunk-GN4ZU4QT.js";
import {
  runCommand
} from "./chunks/chunk-GXSN2MKZ.js";

// scripts/read-session-log.ts
runCommand(readCommand, "node lib/scripts/read-session-log.js", process.argv.slice(2));
