#!/usr/bin/env node
import {
  readCommand
} from "./chunks/chunk-OCXPJILD.js";
import {
  runCommand
} from "./chunks/chunk-ZIWUEJ4Y.js";

// scripts/read-session-log.ts
runCommand(readCommand, "node lib/scripts/read-session-log.js", process.argv.slice(2));
