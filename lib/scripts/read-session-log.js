#!/usr/bin/env node
import {
  readCommand
} from "./chunks/chunk-ZCEYCZAM.js";
import {
  runCommand
} from "./chunks/chunk-6FPHHE67.js";

// scripts/read-session-log.ts
runCommand(readCommand, "node lib/scripts/read-session-log.js", process.argv.slice(2));
