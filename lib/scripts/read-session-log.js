#!/usr/bin/env node
import {
  readCommand
} from "./chunks/chunk-6OYW5ZQD.js";
import "./chunks/chunk-EHDG4RBN.js";
import {
  runCommand
} from "./chunks/chunk-PFB7UGHB.js";

// scripts/read-session-log.ts
runCommand(readCommand, "node lib/scripts/read-session-log.js", process.argv.slice(2));
