#!/usr/bin/env node
import {
  readCommand
} from "./chunks/chunk-G4GJS25I.js";
import "./chunks/chunk-R4VPHYWV.js";
import {
  runCommand
} from "./chunks/chunk-7ESGHU5V.js";

// scripts/read-session-log.ts
runCommand(readCommand, "node lib/scripts/read-session-log.js", process.argv.slice(2));
