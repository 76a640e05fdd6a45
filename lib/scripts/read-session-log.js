#!/usr/bin/env node
import {
  readCommand
} from "./chunks/chunk-AFXADOWD.js";
import {
  runCommand
} from "./chunks/chunk-SCZ5GRMK.js";

// scripts/read-session-log.ts
runCommand(readCommand, "node lib/scripts/read-session-log.js", process.argv.slice(2));
