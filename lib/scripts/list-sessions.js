#!/usr/bin/env node
import {
  listCommand
} from "./chunks/chunk-SV2V3FQI.js";
import {
  runCommand
} from "./chunks/chunk-GXSN2MKZ.js";

// scripts/list-sessions.ts
runCommand(listCommand, "node lib/scripts/list-sessions.js", process.argv.slice(2));
