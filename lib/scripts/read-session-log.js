#!/usr/bin/env node
import {
  readCommand
} from "./chunks/chunk-GJKRUGJX.js";
import {
  runCommand
} from "./chunks/chunk-2LYL33RJ.js";

// scripts/read-session-log.ts
runCommand(readCommand, "node lib/scripts/read-session-log.js", process.argv.slice(2));
