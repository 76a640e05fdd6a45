#!/usr/bin/env node
import {
  listCommand
} from "./chunks/chunk-5B6OE7PW.js";
import {
  runCommand
} from "./chunks/chunk-ZIWUEJ4Y.js";

// scripts/list-sessions.ts
runCommand(listCommand, "node lib/scripts/list-sessions.js", process.argv.slice(2));
