#!/usr/bin/env node
import {
  listCommand
} from "./chunks/chunk-KSXXVVHK.js";
import {
  runCommand
} from "./chunks/chunk-XRF2TASW.js";

// scripts/list-sessions.ts
runCommand(listCommand, "node lib/scripts/list-sessions.js", process.argv.slice(2));
