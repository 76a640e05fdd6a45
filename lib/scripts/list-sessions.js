#!/usr/bin/env node
import {
  listCommand
} from "./chunks/chunk-ZXPTBPC6.js";
import {
  runCommand
} from "./chunks/chunk-N6DQFU4V.js";

// scripts/list-sessions.ts
runCommand(listCommand, "node lib/scripts/list-sessions.js", process.argv.slice(2));
