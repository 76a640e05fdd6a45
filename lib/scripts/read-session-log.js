#!/usr/bin/env node
import {
  readCommand
} from "./chunks/chunk-XOPR5QWO.js";
import {
  runCommand
} from "./chunks/chunk-IWQ5S6R6.js";

// scripts/read-session-log.ts
runCommand(readCommand, "node lib/scripts/read-session-log.js", process.argv.slice(2));
