#!/usr/bin/env node
import {
  listCommand
} from "./chunks/chunk-PR6MTKN4.js";
import {
  runCommand
} from "./chunks/chunk-JDKWCII7.js";

// scripts/list-sessions.ts
runCommand(listCommand, "node lib/scripts/list-sessions.js", process.argv.slice(2));
