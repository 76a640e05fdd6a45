#!/usr/bin/env node
import {
  listCommand
} from "./chunks/chunk-3W2YSVZG.js";
import {
  runCommand
} from "./chunks/chunk-SCZ5GRMK.js";

// scripts/list-sessions.ts
runCommand(listCommand, "node lib/scripts/list-sessions.js", process.argv.slice(2));
