#!/usr/bin/env node
import {
  listCommand
} from "./chunks/chunk-K4PWQLE2.js";
import {
  runCommand
} from "./chunks/chunk-PWKJLAPD.js";

// scripts/list-sessions.ts
runCommand(listCommand, "node lib/scripts/list-sessions.js", process.argv.slice(2));
