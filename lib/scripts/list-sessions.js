#!/usr/bin/env node
import {
  listCommand
} from "./chunks/chunk-DLGV7EKR.js";
import {
  runCommand
} from "./chunks/chunk-EZBVU5VJ.js";

// scripts/list-sessions.ts
runCommand(listCommand, "node lib/scripts/list-sessions.js", process.argv.slice(2));
