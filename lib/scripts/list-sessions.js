#!/usr/bin/env node
import {
  listCommand
} from "./chunks/chunk-Q7VQZ5TB.js";
import {
  runCommand
} from "./chunks/chunk-4ESBLEIB.js";

// scripts/list-sessions.ts
runCommand(listCommand, "node lib/scripts/list-sessions.js", process.argv.slice(2));
