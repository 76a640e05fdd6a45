#!/usr/bin/env node
import {
  readCommand
} from "./chunks/chunk-5OY3EONL.js";
import {
  runCommand
} from "./chunks/chunk-QQ42TVSR.js";

// scripts/read-session-log.ts
runCommand(readCommand, "node lib/scripts/read-session-log.js", process.argv.slice(2));
