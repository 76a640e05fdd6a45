#!/usr/bin/env node
import {
  listCommand
} from "./chunks/chunk-MYQ7TUHF.js";
import {
  runCommand
} from "./chunks/chunk-6FPHHE67.js";

// scripts/list-sessions.ts
runCommand(listCommand, "node lib/scripts/list-sessions.js", process.argv.slice(2));
