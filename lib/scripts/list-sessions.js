#!/usr/bin/env node
import {
  listCommand
} from "./chunks/chunk-LBPM2VBS.js";
import {
  runCommand
} from "./chunks/chunk-M5CJ53PV.js";

// scripts/list-sessions.ts
runCommand(listCommand, "node lib/scripts/list-sessions.js", process.argv.slice(2));
