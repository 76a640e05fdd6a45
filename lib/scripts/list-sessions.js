#!/usr/bin/env node
import {
  listCommand
} from "./chunks/chunk-2G53BI2H.js";
import {
  runCommand
} from "./chunks/chunk-IWQ5S6R6.js";

// scripts/list-sessions.ts
runCommand(listCommand, "node lib/scripts/list-sessions.js", process.argv.slice(2));
