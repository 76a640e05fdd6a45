#!/usr/bin/env node
import {
  readCommand
} from "./chunks/chunk-OL6I3P7J.js";
import {
  runCommand
} from "./chunks/chunk-JDKWCII7.js";

// scripts/read-session-log.ts
runCommand(readCommand, "node lib/scripts/read-session-log.js", process.argv.slice(2));
