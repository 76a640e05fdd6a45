#!/usr/bin/env node
import {
  listCommand
} from "./chunks/chunk-GW2MU7MZ.js";
import "./chunks/chunk-G3ZD3XEC.js";
import "./chunks/chunk-R4VPHYWV.js";
import {
  runCommand
} from "./chunks/chunk-7ESGHU5V.js";

// scripts/list-sessions.ts
runCommand(listCommand, "node lib/scripts/list-sessions.js", process.argv.slice(2));
