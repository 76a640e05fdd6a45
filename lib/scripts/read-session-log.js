#!/usr/bin/env node
import {
  readCommand
} from "./chunks/chunk-T2LQD7AC.js";
import {
  runCommand
} from "./chunks/chunk-XRF2TASW.js";

// scripts/read-session-log.ts
runCommand(readCommand, "node lib/scripts/read-session-log.js", process.argv.slice(2));
