#!/usr/bin/env node
import {
  listCommand
} from "./chunks/chunk-FGZALTT4.js";
import {
  runCommand
} from "./chunks/chunk-QQ42TVSR.js";

// scripts/list-sessions.ts
runCommand(listCommand, "node lib/scripts/list-sessions.js", process.argv.slice(2));
